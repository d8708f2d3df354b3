// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rule of owned_pages.h: which pages the kernel owns whatever their
 * struct pages say, and what it kept.
 *
 * The image's pages are a few ranges of pfns (kernel/kernel_map.h), found
 * once; a page is tested against their overall bounds first, so that the
 * pages of the rest of memory cost two comparisons.  Pages the rule kept
 * are noted a bit each in the cycle being classified, and counted once the
 * cycle is done, so that what an extension then discarded is not counted
 * as kept.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "input/dump_input.h"
#include "kernel/kernel_map.h"
#include "scan/owned_pages.h"
#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "util/message.h"

/* The page rules' categories the rule overrides, a bit each (1 << category). */
#define OVERRIDDEN_CATEGORIES                                                                    \
	((1u << PAGE_CAT_FREE) | (1u << PAGE_CAT_CACHE) | (1u << PAGE_CAT_CACHE_PRIVATE) |       \
	 (1u << PAGE_CAT_USER))
/* The dump-level bits of the rules it overrides. */
#define OVERRIDDEN_LEVELS (DL_EXCLUDE_CACHE | DL_EXCLUDE_CACHE_PRI | DL_EXCLUDE_USER_DATA | DL_EXCLUDE_FREE)

/* Room for a symbol's name in the warning; longer ones are cut. */
#define SYMBOL_NAME_LEN 128

struct owned_pages {
	struct dump_input *in;
	struct kernel *k;
	const struct page_layout *l;
	uint32_t page_size;

	/* The image's pfns the kernel owns and the dump holds; [image_first, image_end) bounds them. */
	struct pfn_ranges image;
	uint64_t image_first, image_end;
	/* Physical address p of the image is at virtual p + image_vaddr - image_paddr. */
	uint64_t image_vaddr, image_paddr;

	/* The cycle being classified, from noted_start: a bit per pfn the rule kept. */
	uint8_t *noted;
	size_t noted_cap;
	uint64_t noted_start;
	uint64_t noted_end;
	bool any_noted;

	/*
	 * The first pass over the pfns: where it got to, and what it kept
	 * (categories: 1 << the category of each page kept).
	 */
	uint64_t counted_end;
	uint64_t image_pages;
	uint64_t reserved_pages;
	uint64_t first_pfn;
	unsigned int categories;
	bool reported;
};

static bool in_image(const struct owned_pages *o, uint64_t pfn)
{
	const struct pfn_ranges *set = &o->image;

	if (pfn < o->image_first || pfn >= o->image_end)
		return false;
	for (size_t i = 0; i < set->count; i++)
		if (pfn >= set->ranges[i].start && pfn < set->ranges[i].end)
			return true;
	return false;
}

/* The first pfn of [start, end) that no range of the dump holds whole, or @end. */
static uint64_t first_not_in_ranges(const struct dump_input *in, uint64_t start, uint64_t end)
{
	uint64_t pfn = start;

	for (size_t i = 0; i < in->nr_ranges && pfn < end; i++) {
		uint64_t from = (in->ranges[i].start + in->page_size - 1) / in->page_size;
		uint64_t to = in->ranges[i].end / in->page_size;

		if (from <= pfn && pfn < to)
			pfn = to;
	}
	return pfn < end ? pfn : end;
}

/*
 * Adds the pfns [start, end) of the image to the rule, where the dump
 * holds their data.  A kdump-compressed input (a dump filtered before)
 * lacks what its filter excluded: those are left out, as they must.
 * Another input lacking one is damaged: *@missing says which.
 */
static struct mdf_error *add_held(struct owned_pages *o, uint64_t start, uint64_t end, bool *found_missing,
				  uint64_t *missing)
{
	uint64_t aligned = start & ~7ull, run = start;
	struct mdf_error *err = NULL;
	uint8_t *bits;

	*found_missing = false;
	*missing = first_not_in_ranges(o->in, start, end);
	if (*missing < end) {
		*found_missing = true;
		return NULL;
	}
	if (!o->in->ops->clear_missing)
		return pfn_ranges_add(&o->image, start, end - start);
	bits = malloc((size_t)((end - aligned + 7) / 8));
	if (!bits)
		return &mdf_error_enomem;
	memset(bits, 0xff, (size_t)((end - aligned + 7) / 8));
	o->in->ops->clear_missing(o->in, aligned, end, bits);
	for (uint64_t pfn = start; pfn <= end && !err; pfn++) {
		uint64_t bit = pfn - aligned;

		if (pfn < end && (bits[bit / 8] >> (bit % 8) & 1))
			continue;
		if (pfn < end && !o->in->kdump) {
			*found_missing = true;
			*missing = pfn;
			break;
		}
		if (run < pfn)
			err = pfn_ranges_add(&o->image, run, pfn - run);
		run = pfn + 1;
	}
	free(bits);
	return err;
}

/* The image's pages, or a line saying why the rule goes without them. */
static struct mdf_error *find_image(struct owned_pages *o, struct memory *mem)
{
	struct kernel_image_pages pages;
	struct mdf_error *err = kernel_image_pages_find(o->k, mem, o->page_size, &pages);
	uint64_t missing = 0;
	bool found_missing = false;

	if (err) {
		if (err->code == -ENOTSUP)
			msg_debug("%s: the kernel image's pages are classified by their flags alone",
				  mdf_error_text(err));
		else
			msg_warn("the kernel image's pages are not known (%s): they are classified by their "
				 "flags alone", mdf_error_text(err));
		mdf_error_free(err);
		return NULL;
	}
	for (size_t i = 0; i < pages.nr_ranges && !found_missing && !err; i++)
		err = add_held(o, pages.ranges[i].start / o->page_size, pages.ranges[i].end / o->page_size,
			       &found_missing, &missing);
	if (err || found_missing) {
		if (found_missing)
			msg_warn("the kernel image's page at pfn 0x%" PRIx64 " (physical 0x%" PRIx64 ") is not "
				 "in the dump: its pages are classified by their flags alone", missing,
				 missing * o->page_size);
		pfn_ranges_free(&o->image);
		return err;
	}
	pfn_ranges_merge(&o->image);
	if (o->image.count) {
		o->image_first = o->image.ranges[0].start;
		o->image_end = o->image.ranges[o->image.count - 1].end;
	}
	o->image_vaddr = pages.image.vaddr;
	o->image_paddr = pages.image.paddr;
	msg_debug("kernel image: %" PRIu64 " pages in %zu ranges from pfn 0x%" PRIx64 " to 0x%" PRIx64
		  " are never excluded by their flags", pfn_ranges_pages(&o->image), o->image.count,
		  o->image_first, o->image_end);
	return NULL;
}

struct mdf_error *owned_pages_init(struct dump_input *in, struct memory *mem, struct kernel *k,
				   struct page_layout *l, int dump_level, struct owned_pages **out)
{
	struct owned_pages *o;
	struct mdf_error *err;

	*out = NULL;
	if (!(dump_level & OVERRIDDEN_LEVELS))
		return NULL;
	o = calloc(1, sizeof(*o));
	if (!o)
		return &mdf_error_enomem;
	o->in = in;
	o->k = k;
	o->l = l;
	o->page_size = in->page_size;
	if (!page_layout_read_reserved(k, mem, l))
		msg_debug("the kernel's types give no PG_reserved: pages flagged both PG_reserved and PG_lru "
			  "are classified by their flags");
	err = find_image(o, mem);
	if (err) {
		owned_pages_free(o);
		return err;
	}
	*out = o;
	return NULL;
}

void owned_pages_free(struct owned_pages *o)
{
	if (!o)
		return;
	pfn_ranges_free(&o->image);
	free(o->noted);
	free(o);
}

/* Whether a kdump-compressed input holds @pfn: what its filter excluded is gone. */
static bool input_holds(const struct owned_pages *o, uint64_t pfn)
{
	uint8_t bits = 0xff;

	if (!o->in->kdump || !o->in->ops->clear_missing)
		return true;
	o->in->ops->clear_missing(o->in, pfn & ~7ull, (pfn & ~7ull) + 8, &bits);
	return bits >> (pfn & 7) & 1;
}

bool owned_pages_keep(struct owned_pages *o, uint64_t pfn, const unsigned char *page,
		      enum page_category category)
{
	if (!o || !(OVERRIDDEN_CATEGORIES & (1u << category)))
		return false;
	if (in_image(o, pfn))
		return true;
	return page && page_flags_contradict(o->l, page) && input_holds(o, pfn);
}

void owned_pages_note(struct owned_pages *o, uint64_t start, uint64_t end, uint64_t pfn,
		      enum page_category category)
{
	size_t len = (size_t)((end - start + 7) / 8);

	if (!o->any_noted || o->noted_start != start) {
		if (len > o->noted_cap) {
			uint8_t *bigger = realloc(o->noted, len);

			/* Without room, the page is still kept: only the count misses it. */
			if (!bigger)
				return;
			o->noted = bigger;
			o->noted_cap = len;
		}
		memset(o->noted, 0, len);
		o->noted_start = start;
		o->noted_end = end;
		o->any_noted = true;
	}
	o->noted[(pfn - start) / 8] |= (uint8_t)(1u << ((pfn - start) % 8));
	if (start >= o->counted_end)
		o->categories |= 1u << category;
}

/* The categories kept, in words: "page cache", "page cache or free", "page cache, user data or free". */
static void category_words(unsigned int categories, char *buf, size_t len)
{
	const char *words[3];
	size_t n = 0, used = 0;

	if (categories & ((1u << PAGE_CAT_CACHE) | (1u << PAGE_CAT_CACHE_PRIVATE)))
		words[n++] = "page cache";
	if (categories & (1u << PAGE_CAT_USER))
		words[n++] = "user data";
	if (categories & (1u << PAGE_CAT_FREE))
		words[n++] = "free";
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ",
				 words[i]);

		used += w > 0 ? (size_t)w : 0;
	}
}

/*
 * One line: "3 kernel image pages flagged as page cache were kept (first:
 * pfn 0x23513, idt_table)", with "and 2 reserved pages" where pages
 * outside the image had contradicting flags; a page of the image is named
 * by the kallsyms symbol at or below its address.
 */
static void report(struct owned_pages *o)
{
	uint64_t total = o->image_pages + o->reserved_pages;
	char what[64], counts[96], symbol[SYMBOL_NAME_LEN] = "";

	if (!total)
		return;
	category_words(o->categories, what, sizeof(what));
	if (in_image(o, o->first_pfn))
		kernel_symbol_at_or_below(o->k, o->first_pfn * o->page_size - o->image_paddr + o->image_vaddr,
					  symbol, sizeof(symbol));
	if (o->image_pages && o->reserved_pages)
		snprintf(counts, sizeof(counts), "%" PRIu64 " kernel image page%s and %" PRIu64 " reserved page%s",
			 o->image_pages, o->image_pages == 1 ? "" : "s", o->reserved_pages,
			 o->reserved_pages == 1 ? "" : "s");
	else
		snprintf(counts, sizeof(counts), "%" PRIu64 " %s page%s", total,
			 o->image_pages ? "kernel image" : "reserved", total == 1 ? "" : "s");
	msg_warn("%s flagged as %s %s kept (first: pfn 0x%" PRIx64 "%s%s)", counts, what,
		 total == 1 ? "was" : "were", o->first_pfn, symbol[0] ? ", " : "", symbol);
}

void owned_pages_cycle_done(struct owned_pages *o, uint64_t start, uint64_t end, const uint8_t *dumpable,
			    uint64_t max_pfn)
{
	bool noted = o && o->any_noted && o->noted_start == start;

	if (!o || start < o->counted_end) {
		/* A later pass over pfns counted already. */
		if (o)
			o->any_noted = false;
		return;
	}
	for (uint64_t pfn = start; noted && pfn < o->noted_end && pfn < end; pfn++) {
		uint64_t bit = pfn - start;

		if (!(o->noted[bit / 8] >> (bit % 8) & 1) || !(dumpable[bit / 8] >> (bit % 8) & 1))
			continue;
		if (!o->image_pages && !o->reserved_pages)
			o->first_pfn = pfn;
		if (in_image(o, pfn))
			o->image_pages++;
		else
			o->reserved_pages++;
	}
	o->any_noted = false;
	o->counted_end = end;
	if (end >= max_pfn && !o->reported) {
		o->reported = true;
		report(o);
	}
}
