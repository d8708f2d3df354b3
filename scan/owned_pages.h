/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pages the kernel owns, which no flag of their struct page excludes.
 *
 * Upstream makedumpfile decides a page's fate from its struct page alone.
 * When that lies, it drops what the kernel still uses: on 6.6+ kernels the
 * page of idt_table, in the kernel's .bss, carried PG_lru at crash time,
 * `-d 31` dropped it as page cache, and crash could not open the dump
 * (upstream's issue #21: "page excluded: kernel virtual address ...
 * type: idt_table").  Two kinds of page are therefore never excluded as
 * page cache, private page cache, user data or free, at any dump level:
 *
 *   - a page of the kernel image that the kernel still owns: its text,
 *     rodata, data and bss, less what it freed after boot (init), as
 *     kernel/kernel_map.h finds them;
 *   - a page whose flags contradict each other: PG_reserved with PG_lru
 *     (page_rules.h's page_flags_contradict).
 *
 * hwpoison and offline pages go as before, zero pages too (their content
 * is zeros, which a reader of the dump gets back either way), and what an
 * extension discards or excludes on purpose stays its choice.  Where the
 * rule cannot tell (no kallsyms bounds of the image, an image the dump
 * does not hold, no PG_reserved number), it says so once and that part
 * of it is left out: the pages are classified as upstream does.
 *
 * What the rule kept is counted on the first pass over the pfns and said
 * in one warning when that pass ends; nothing is said when it kept
 * nothing.
 */
#ifndef MDF_SCAN_OWNED_PAGES_H
#define MDF_SCAN_OWNED_PAGES_H

#include <stdbool.h>
#include <stdint.h>

#include "scan/page_rules.h"

struct dump_input;
struct kernel;
struct memory;
struct owned_pages;

/*
 * The rule for a scan of @in at @dump_level with the struct page layout
 * @l (whose pg_reserved it reads, and which must outlive it); @k must
 * outlive it too.  *@out is NULL when the dump level excludes nothing the
 * rule overrides.  Only running out of memory is an error.
 */
struct mdf_error *owned_pages_init(struct dump_input *in, struct memory *mem, struct kernel *k,
				   struct page_layout *l, int dump_level, struct owned_pages **out);
void owned_pages_free(struct owned_pages *o);

/*
 * Whether the rule keeps the page @pfn that the page rules put in
 * @category: a page of the image, or one whose own struct page @page
 * (NULL for a page of a block its head decided) has contradicting flags.
 */
bool owned_pages_keep(struct owned_pages *o, uint64_t pfn, const unsigned char *page,
		      enum page_category category);

/*
 * Notes that the rule kept @pfn, of the cycle [@start, @end) being
 * classified, which the page rules put in @category.
 */
void owned_pages_note(struct owned_pages *o, uint64_t start, uint64_t end, uint64_t pfn,
		      enum page_category category);

/*
 * The cycle [@start, @end) is classified, extensions' decisions included,
 * into @dumpable (bit i: pfn start + i): counts the noted pages still
 * there, on the first pass over the pfns, and says what was kept when
 * that pass reaches @max_pfn.
 */
void owned_pages_cycle_done(struct owned_pages *o, uint64_t start, uint64_t end, const uint8_t *dumpable,
			    uint64_t max_pfn);

#endif
