/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which category a struct page falls in: upstream makedumpfile's rules
 * (__exclude_unnecessary_pages) for one page, given what VMCOREINFO (or
 * BTF) says of struct page.  No memory is read here: page_scan.c finds
 * the struct pages, batches them and keeps the bitmaps and counts.
 */
#ifndef MDF_SCAN_PAGE_RULES_H
#define MDF_SCAN_PAGE_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "util/byte_order.h"

struct kernel;
struct mdf_error;
struct memory;

/* Dump-level bits, as upstream's -d. */
#define DL_EXCLUDE_ZERO 0x01
#define DL_EXCLUDE_CACHE 0x02
#define DL_EXCLUDE_CACHE_PRI 0x04
#define DL_EXCLUDE_USER_DATA 0x08
#define DL_EXCLUDE_FREE 0x10
#define DL_MAX 31

/* A field of struct page_layout the kernel does not have. */
#define PAGE_LAYOUT_NOT_FOUND (-1)

/*
 * What a page is, for the dump level; PAGE_CAT_NONE: no rule excludes it;
 * PAGE_CAT_COMPOUND_TAIL: none either, its compound head decides for it.
 */
enum page_category {
	PAGE_CAT_NONE,
	PAGE_CAT_COMPOUND_TAIL,
	PAGE_CAT_FREE,
	PAGE_CAT_CACHE,
	PAGE_CAT_CACHE_PRIVATE,
	PAGE_CAT_USER,
	PAGE_CAT_HWPOISON,
	PAGE_CAT_OFFLINE,
};

/*
 * What upstream reads about struct page.  Offsets are in bytes from the
 * start of a struct page; numbers are the kernel's.  A field is
 * PAGE_LAYOUT_NOT_FOUND when the kernel lacks it, unless said otherwise.
 *
 * How the kernel generations look:
 *  - up to 6.2: page.compound_order and page.compound_dtor, fields of the
 *    first tail page (6.1: OFFSET 17 and 16), NUMBER(HUGETLB_PAGE_DTOR);
 *  - 6.3 to 6.5: folio._folio_order and folio._folio_dtor instead, which
 *    are offsets from the head page: compound_order/compound_dtor hold
 *    them minus SIZE(page), the same fields of the first tail page;
 *  - 6.6 to 6.8: NUMBER(PG_hugetlb), a flag of the first tail page, whose
 *    flags' low byte is the order (compound_order/_dtor are not used);
 *  - 6.9 and later: NUMBER(PAGE_HUGETLB_MAPCOUNT_VALUE), a page type of
 *    the head's _mapcount; the order as for 6.6.  6.10 and later mark
 *    slab pages by type too (PAGE_SLAB_MAPCOUNT_VALUE, no PG_slab);
 *  - 7.1 and later call page.compound_head page.compound_info (bit 0 set
 *    on a tail page all the same): compound_head holds whichever the
 *    kernel has.
 */
struct page_layout {
	int64_t size;            /* SIZE(page): mem_map's, set before page_layout_read */
	enum byte_order order;   /* the memory's, set before page_layout_read too */
	int64_t flags;           /* required */
	int64_t mapping;         /* required */
	int64_t mapcount;
	int64_t private;
	int64_t compound_head;   /* page.compound_head, or page.compound_info (7.1+) */
	/* In the first tail page, relative to its start; 0 (not NOT_FOUND) when unknown. */
	int64_t compound_order;
	int64_t compound_dtor;
	bool order_is_byte;      /* kernels >= 4.16 (or no OSRELEASE); a u16 before */

	/* Bit numbers of page.flags; pg_head_mask is a mask, 0 when unknown. */
	int64_t pg_lru;          /* required, as are pg_private and pg_swapcache */
	int64_t pg_private;
	int64_t pg_swapcache;
	int64_t pg_swapbacked;   /* kernels >= 4.10 */
	int64_t pg_slab;
	int64_t pg_hwpoison;
	int64_t pg_head_mask;
	int64_t pg_hugetlb;      /* 6.6 to 6.8 */
	int64_t pg_reserved;     /* page_layout_read_reserved(); NOT_FOUND until then */
	/* _mapcount values of page types. */
	int64_t buddy_value;
	int64_t offline_value;
	int64_t slab_value;      /* 6.10+ */
	int64_t hugetlb_value;   /* 6.9+ */
	int64_t unaccepted_value;
	int64_t hugetlb_dtor;    /* NUMBER(HUGETLB_PAGE_DTOR), up to 6.5 */
	int64_t free_area_length;   /* LENGTH(zone.free_area): MAX_ORDER + 1 */
};

/*
 * Fills @l (all but @l->size and @l->order, which the caller sets) from VMCOREINFO,
 * and from the dump's BTF for lines every supported kernel has; an error
 * names a line the rules cannot do without.
 */
struct mdf_error *page_layout_read(struct kernel *k, struct page_layout *l);

/*
 * Reads PG_reserved's bit number into @l->pg_reserved, which VMCOREINFO
 * does not give (it has NUMBER() lines for the flags upstream's rules read
 * only): vmlinux's BTF does (enum pageflags), read from @mem without
 * loading the types where kallsyms locate it.  False, with it NOT_FOUND,
 * where neither has it.
 */
bool page_layout_read_reserved(struct kernel *k, struct memory *mem, struct page_layout *l);

/*
 * Whether the flags of @page contradict each other: PG_reserved together
 * with PG_lru.  A reserved page belongs to the kernel from boot on and is
 * never on an LRU list; one flagged both is damaged, and nothing it says
 * can be trusted to exclude it.  False where @l->pg_reserved is not known.
 */
bool page_flags_contradict(const struct page_layout *l, const unsigned char *page);

/* Whether any rule can exclude a page at @dump_level: if not, struct pages need not be read. */
bool page_layout_classifies(const struct page_layout *l, int dump_level);

/*
 * The category of the page @pfn, whose struct page is @page (@l->size
 * bytes, followed by the next pfn's when @tail_loaded), at @dump_level.
 * *@nr_pages becomes the number of pages from @pfn on that the answer is
 * for: a free buddy block's 2^order, a compound head's 2^order (if its
 * order is valid and @tail_loaded), else 1.  A compound tail page is
 * PAGE_CAT_COMPOUND_TAIL.  The first rule that matches
 * decides, in upstream's order: free, cache, private cache, user data,
 * hwpoison, offline.  A free page with an order past the kernel's is
 * kept, with a warning.
 */
enum page_category page_classify(const struct page_layout *l, int dump_level, uint64_t pfn,
				 const unsigned char *page, bool tail_loaded, uint64_t *nr_pages);

#endif
