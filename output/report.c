// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Progress lines and the end-of-run report, worded and laid out as
 * upstream makedumpfile 1.7.2 prints them (print_progress() and
 * print_report()).  The one addition is the count of pages that page-filter
 * extensions excluded, which upstream does not have.
 *
 * Upstream also reports its page cache's hit rate; this program has no
 * such counter, so the line is left out rather than made up.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extension/host.h"
#include "output/report.h"
#include "util/message.h"

#define NSEC_PER_SEC 1000000000L
/* Progress in tenths of a percent, as upstream. */
#define PROGRESS_SCALE 1000
/* Upstream redraws at most every 1/10000th of the work. */
#define PROGRESS_STEPS 10000

static struct timespec elapsed_since(const struct timespec *start)
{
	struct timespec now, d;

	clock_gettime(CLOCK_MONOTONIC, &now);
	d.tv_sec = now.tv_sec - start->tv_sec;
	d.tv_nsec = now.tv_nsec - start->tv_nsec;
	if (d.tv_nsec < 0) {
		d.tv_sec--;
		d.tv_nsec += NSEC_PER_SEC;
	}
	return d;
}

/* Upstream's short forms: "eta: 42s", "eta: 3m20s", "eta: 5h3m", "eta: 2d4h". */
static void format_eta(unsigned long secs, char *out, size_t len)
{
	unsigned long minutes = secs / 60, hours = minutes / 60, days = hours / 24;

	if (secs < 100)
		snprintf(out, len, "eta: %lus", secs);
	else if (minutes < 100)
		snprintf(out, len, "eta: %lum%lus", minutes, secs % 60);
	else if (hours < 48)
		snprintf(out, len, "eta: %luh%lum", hours, minutes % 60);
	else if (days < 100)
		snprintf(out, len, "eta: %lud%luh", days, hours % 24);
	else
		snprintf(out, len, "eta: >100day");
}

static void draw(struct progress *p, unsigned int promille)
{
	static const char spinner[] = "/|\\-";
	char eta[32] = " ";

	if (promille) {
		struct timespec d = elapsed_since(&p->start);
		unsigned long ms = (unsigned long)d.tv_sec * 1000 +
				   (unsigned long)(d.tv_nsec / (NSEC_PER_SEC / 1000));

		/* The whole step takes ms / promille seconds; the rest is to come. */
		format_eta(ms / promille - (unsigned long)d.tv_sec, eta, sizeof(eta));
	}
	/* Messages on stdout come before the line that follows them on a terminal. */
	fflush(stdout);
	fprintf(stderr, "\r%-50s: [%3u.%u %%] %c  %16s", p->label, promille / 10, promille % 10,
		spinner[p->lapse % 4], eta);
	fflush(stderr);
	p->line_open = true;
	p->lapse++;
}

void progress_start(struct progress *p, const char *label, uint64_t end)
{
	p->label = label;
	p->enabled = msg_level() & ML_PROGRESS;
	p->last_drawn = 0;
	p->line_open = false;
	p->lapse = 0;
	p->stride = end / PROGRESS_STEPS ? end / PROGRESS_STEPS : 1;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

void progress_update(struct progress *p, uint64_t current, uint64_t end)
{
	time_t now;

	if (!p->enabled || current % p->stride || current >= end)
		return;
	now = time(NULL);
	if (now - p->last_drawn < 1)
		return;
	p->last_drawn = now;
	draw(p, (unsigned int)(current * PROGRESS_SCALE / end));
}

void progress_break(struct progress *p)
{
	if (!p->line_open)
		return;
	fputc('\n', stderr);
	p->line_open = false;
}

void progress_done(struct progress *p)
{
	struct timespec d = elapsed_since(&p->start);

	if (p->enabled) {
		draw(p, PROGRESS_SCALE);
		progress_break(p);
	}
	msg_report("STEP [%s] : %ld.%06ld seconds", p->label, (long)d.tv_sec,
		   (long)(d.tv_nsec / 1000));
}

void report_print(const struct report_totals *t)
{
	const struct page_counts *c = t->counts;
	uint64_t original = t->pfn_present;
	uint64_t excluded = c->zero + c->cache + c->cache_private + c->user + c->free +
			    c->hwpoison + c->offline + c->extension;

	msg_report("%s", "");
	msg_report("Original pages  : 0x%016" PRIx64, original);
	msg_report("  Excluded pages   : 0x%016" PRIx64, excluded);
	if (t->elf)
		msg_report("     in ELF format : 0x%016" PRIx64, t->elf_excluded);
	msg_report("    Pages filled with zero  : 0x%016" PRIx64, c->zero);
	msg_report("    Non-private cache pages : 0x%016" PRIx64, c->cache);
	msg_report("    Private cache pages     : 0x%016" PRIx64, c->cache_private);
	msg_report("    User process data pages : 0x%016" PRIx64, c->user);
	msg_report("    Free pages              : 0x%016" PRIx64, c->free);
	msg_report("    Hwpoison pages          : 0x%016" PRIx64, c->hwpoison);
	msg_report("    Offline pages           : 0x%016" PRIx64, c->offline);
	msg_report("    Extension filter pages  : 0x%016" PRIx64, c->extension);
	msg_report("  Remaining pages  : 0x%016" PRIx64, original - excluded);
	if (t->elf) {
		/* The reduction is then the ELF file's. */
		msg_report("     in ELF format : 0x%016" PRIx64, original - t->elf_excluded);
		excluded = t->elf_excluded;
	}
	/* Upstream rounds the percentage down, and skips it for an empty dump. */
	if (original)
		msg_report("  (The number of pages is reduced to %" PRIu64 "%%.)",
			   (original - excluded) * 100 / original);
	msg_report("Memory Hole     : 0x%016" PRIx64, t->max_pfn - original);
	msg_report("--------------------------------------------------");
	msg_report("Total pages     : 0x%016" PRIx64, t->max_pfn);
	msg_report("Write bytes     : %" PRIu64, t->bytes_written);
	msg_report("%s", "");
}

void report_extensions(const struct extension_results *results)
{
	for (size_t i = 0; i < results->count; i++) {
		const struct extension_outcome *o = &results->outcomes[i];

		if (o->ok && o->has_callback)
			msg_report("Extension %s: 0x%016" PRIx64 " pages to discard, 0x%016" PRIx64
				   " to keep, its callback 0x%016" PRIx64 " to include, 0x%016" PRIx64
				   " to exclude", o->name, o->discard_pages, o->keep_pages, o->include_pages,
				   o->exclude_pages);
		else if (o->ok)
			msg_report("Extension %s: 0x%016" PRIx64 " pages to discard, 0x%016" PRIx64
				   " to keep", o->name, o->discard_pages, o->keep_pages);
		else
			msg_report("Extension %s: failed, its ranges dropped: %s", o->name, o->problem);
	}
}

void report_saved(const char *path)
{
	msg_info("%s", "");
	msg_info("The dumpfile is saved to %s.", path);
}

void report_saved_split(char *const *paths, unsigned int count)
{
	size_t len = 0;
	char *line;

	for (unsigned int i = 0; i < count; i++)
		len += strlen(paths[i]) + sizeof(", and ");
	line = malloc(len + 1);
	if (!line)
		return;
	line[0] = '\0';
	for (unsigned int i = 0; i < count; i++) {
		strcat(line, i + 1 < count ? paths[i] : "and ");
		strcat(line, i + 1 < count ? ", " : paths[i]);
	}
	msg_info("%s", "");
	msg_info("The dumpfiles are saved to %s.", line);
	free(line);
}

void report_finished(bool completed)
{
	msg_info("%s", "");
	msg_info(completed ? "makedumpfile Completed." : "makedumpfile Failed.");
}
