/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What upstream makedumpfile tells the user while and after it writes a
 * dump: the progress indicator of each step (message level bit 1) and the
 * end-of-run report of page counts (bit 16), in upstream's exact wording
 * and layout, so that scripts reading either program's output keep working.
 */
#ifndef MDF_OUTPUT_REPORT_H
#define MDF_OUTPUT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "scan/page_scan.h"

/*
 * Upstream's step names, padded to one width because the "STEP [...]"
 * timing line prints them as they are.
 */
#define PROGRESS_COPY "Copying data               "
#define PROGRESS_HOLES "Checking for memory holes  "
#define PROGRESS_UNN_PAGES "Excluding unnecessary pages"

/*
 * One step's progress line on stderr, rewritten in place with '\r':
 *
 *   Copying data                                      : [ 45.3 %] /           eta: 3s
 *
 * It is redrawn at most once a second, and only every 1/10000th of the
 * way, so that calling it for every page costs a division.
 */
struct progress {
	const char *label;
	struct timespec start;
	time_t last_drawn;
	/* A line is drawn and not yet ended. */
	bool line_open;
	unsigned int lapse;
	uint64_t stride;
	bool enabled;
};

/* Starts the step named @label (one of the PROGRESS_* names), of @end units. */
void progress_start(struct progress *p, const char *label, uint64_t end);
/* @current of @end units done. */
void progress_update(struct progress *p, uint64_t current, uint64_t end);
/*
 * Ends the progress line, if one is drawn, so that an error message
 * starts on a line of its own; the next update draws it again.
 */
void progress_break(struct progress *p);
/*
 * Draws the step at 100 % and ends its line, then prints the step's
 * "STEP [...] : N seconds" line at the report level.
 */
void progress_done(struct progress *p);

/* What the end-of-run report of a kdump-compressed dump counts. */
struct report_totals {
	/* One past the highest pfn: upstream's max_mapnr, "Total pages". */
	uint64_t max_pfn;
	/* Pfns set in the 1st bitmap: the pages the input holds. */
	uint64_t pfn_present;
	/* Bytes written to the dump file or the flattened stream. */
	uint64_t bytes_written;
	/* Pages excluded per category, zero pages included. */
	const struct page_counts *counts;
	/*
	 * For an ELF dump file: the pages its segments leave out, which
	 * upstream reports "in ELF format" beside the excluded pages.
	 */
	bool elf;
	uint64_t elf_excluded;
};

/*
 * Prints upstream's print_report() for a kdump-compressed or ELF dump,
 * plus an "Extension filter pages" line after "Offline pages", at the
 * report level.
 */
void report_print(const struct report_totals *t);

struct extension_results;

/*
 * One line per extension at the report level: what it discarded and kept,
 * or why it failed and its ranges were dropped.
 */
void report_extensions(const struct extension_results *results);

/* "The dumpfile is saved to PATH.", after a blank line (common level). */
void report_saved(const char *path);

/*
 * Upstream's line for a split dump: "The dumpfiles are saved to A, B, and
 * C.", after a blank line (common level).
 */
void report_saved_split(char *const *paths, unsigned int count);

/* "makedumpfile Completed." or "makedumpfile Failed.", after a blank line. */
void report_finished(bool completed);

#endif
