// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_page_rules: scan/page_rules.h on struct pages crafted byte by byte.
 *
 * Layouts are written out by hand, for three kernel generations:
 *  - Debian 6.1 (VMCOREINFO of 6.1.0-57-amd64): compound_dtor and
 *    compound_order bytes in the first tail page, PG_head_mask, PG_slab,
 *    buddy and offline page types in _mapcount, HUGETLB_PAGE_DTOR;
 *  - 6.6 to 6.8: hugetlb by PG_hugetlb in the first tail page's flags,
 *    the order in their low byte;
 *  - 7.1 and later (VMCOREINFO of 7.2.13+deb14-amd64): page.compound_info
 *    for compound_head, hugetlb, slab and unaccepted pages by page type
 *    (6.9+, 6.10+), no PG_slab;
 * and page_layout_read must read the same from VMCOREINFO texts.  Each
 * generation's pages are crafted little-endian and again big-endian (the
 * layout's order), which must classify alike.
 *
 * The expected categories are upstream makedumpfile's rules
 * (__exclude_unnecessary_pages, page_is_buddy_v3, isAnon, isSlab,
 * is_cache_page, isOffline, isHugetlb, isUnaccepted), not this project's
 * output: a tail page is skipped; then, first match wins: free (buddy
 * type, order in private, an order past LENGTH(zone.free_area) kept with
 * a warning), unaccepted (free, MAX_ORDER block), cache (LRU, or swap
 * cache with PG_swapbacked) without PG_private and not anonymous, cache
 * with PG_private at level 4, user data (anonymous mapping bit unless
 * slab, or hugetlb), hwpoison, offline (unless slab); a compound head's
 * order comes from its first tail page, ignored when not aligned to the
 * pfn or 64 or more.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/vmcoreinfo.h"
#include "kernel/kernel.h"
#include "scan/page_rules.h"
#include "unit_check.h"
#include "unit_fake_memory.h"
#include "util/error.h"
#include "util/message.h"

#define NF PAGE_LAYOUT_NOT_FOUND
#define SZ 64
#define ANON_MAPPING 0xffff888004a3c001ull   /* an anon_vma with PAGE_MAPPING_ANON */
#define FILE_MAPPING 0xffff888004a3c7f8ull   /* an address_space */
#define HEAD_PAGE 0xfffff8e1c0080000ull      /* a struct page's address */

static const char *const cat_names[] = { "none", "compound tail", "free", "cache", "cache_private", "user", "hwpoison", "offline" };

/* The byte order the pages are crafted in: each test runs in both. */
static enum byte_order pages_order = BYTE_ORDER_LITTLE;

static struct page_layout layout_61(void)
{
	return (struct page_layout){
		.size = SZ, .order = pages_order,
		.flags = 0, .mapping = 24, .mapcount = 48, .private = 40, .compound_head = 8,
		.compound_order = 17, .compound_dtor = 16, .order_is_byte = true,
		.pg_lru = 4, .pg_private = 13, .pg_swapcache = 10, .pg_swapbacked = 19, .pg_slab = 9,
		.pg_hwpoison = 23, .pg_head_mask = 1 << 16, .pg_hugetlb = NF,
		.buddy_value = -129, .offline_value = -257, .slab_value = NF, .hugetlb_value = NF,
		.unaccepted_value = NF, .hugetlb_dtor = 2, .free_area_length = 11,
	};
}

/*
 * 6.6 to 6.8: the 6.1 numbers, with PG_hugetlb instead of a destructor:
 * bit 8 here, above the byte that holds the order.
 */
static struct page_layout layout_66(void)
{
	struct page_layout l = layout_61();

	l.pg_hugetlb = 8;
	l.hugetlb_dtor = NF;
	return l;
}

static struct page_layout layout_72(void)
{
	return (struct page_layout){
		.size = SZ, .order = pages_order,
		.flags = 0, .mapping = 24, .mapcount = 48, .private = 40, .compound_head = 8,
		.compound_order = 0, .compound_dtor = 0, .order_is_byte = true,
		.pg_lru = 5, .pg_private = 14, .pg_swapcache = 10, .pg_swapbacked = 17, .pg_slab = NF,
		.pg_hwpoison = 21, .pg_head_mask = 1 << 6, .pg_hugetlb = NF,
		.buddy_value = -268435456, .offline_value = -251658240, .slab_value = -184549376,
		.hugetlb_value = -201326592, .unaccepted_value = -150994944, .hugetlb_dtor = NF,
		.free_area_length = 11,
	};
}

/* A head (or single) struct page and the next one, the first tail page. */
struct pages {
	unsigned char b[2 * SZ];
};

static void put64(unsigned char *p, int64_t off, uint64_t v)
{
	v = host_to_dump64(pages_order, v);
	memcpy(p + off, &v, 8);
}

static uint64_t get64(const unsigned char *p, int64_t off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return dump_to_host64(pages_order, v);
}

static void put32(unsigned char *p, int64_t off, uint32_t v)
{
	v = host_to_dump32(pages_order, v);
	memcpy(p + off, &v, 4);
}

/* An ordinary allocated page: no flags, no mapping, _mapcount -1, a refcount. */
static struct pages plain(const struct page_layout *l)
{
	struct pages p;
	uint32_t mapcount = (uint32_t)-1, refcount = 1;

	memset(&p, 0, sizeof(p));
	put32(p.b, l->mapcount, mapcount);
	put32(p.b, 52, refcount);
	put32(p.b, SZ + l->mapcount, mapcount);
	return p;
}

static void set_flag(struct pages *p, const struct page_layout *l, int64_t bit)
{
	put64(p->b, l->flags, get64(p->b, l->flags) | 1ull << bit);
}

static void set_mapcount(struct pages *p, const struct page_layout *l, int64_t value)
{
	put32(p->b, l->mapcount, (uint32_t)value);
}

/* Makes @p a compound head of @order; the tail says so the way @l's kernel does. */
static void make_head(struct pages *p, const struct page_layout *l, unsigned int order, bool hugetlb)
{
	put64(p->b, l->flags, get64(p->b, l->flags) | (uint64_t)l->pg_head_mask);
	put64(p->b + SZ, l->compound_head, HEAD_PAGE | 1);
	if (l->hugetlb_value != NF || l->pg_hugetlb != NF) {
		/* folio._flags_1: the order in the low byte (no PG_head on a tail). */
		uint64_t tail_flags = order;

		if (hugetlb && l->hugetlb_value != NF)
			set_mapcount(p, l, l->hugetlb_value);
		if (hugetlb && l->pg_hugetlb != NF)
			tail_flags |= 1ull << l->pg_hugetlb;
		put64(p->b + SZ, l->flags, tail_flags);
	} else {
		p->b[SZ + l->compound_order] = (unsigned char)order;
		p->b[SZ + l->compound_dtor] = hugetlb ? (unsigned char)l->hugetlb_dtor : 1;
	}
}

static int classify(const struct page_layout *l, int level, uint64_t pfn, const struct pages *p, bool tail,
		    uint64_t *nr)
{
	*nr = 0;
	return (int)page_classify(l, level, pfn, p->b, tail, nr);
}

/* Expects @want at each of @levels (a -1-terminated list) and @nr pages. */
static void expect(const char *gen, const char *what, const struct page_layout *l, uint64_t pfn,
		   const struct pages *p, bool tail, const int *levels, int want, uint64_t want_nr)
{
	for (const int *lv = levels; *lv >= 0; lv++) {
		uint64_t nr;
		int got = classify(l, *lv, pfn, p, tail, &nr);
		bool nr_ok = want == PAGE_CAT_NONE || want == PAGE_CAT_COMPOUND_TAIL || nr == want_nr;

		check(got == want && nr_ok, "%s: %s, -d %d: %s x%" PRIu64 " (got %s x%" PRIu64 ")", gen, what, *lv,
		      cat_names[want], want_nr, cat_names[got], nr);
	}
}

#define LEVELS(...) ((const int[]){ __VA_ARGS__, -1 })

/* Runs @fn with stderr going to a buffer: what it printed. */
static char *captured_stderr(int (*fn)(const struct page_layout *, uint64_t, const struct pages *, uint64_t *),
			     const struct page_layout *l, uint64_t pfn, const struct pages *p, uint64_t *nr, int *ret)
{
	static char text[1024];
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n = 0;

	text[0] = '\0';
	if (!tmp || saved < 0)
		return text;
	fflush(stderr);
	dup2(fileno(tmp), 2);
	*ret = fn(l, pfn, p, nr);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(text, 1, sizeof(text) - 1, tmp);
	text[n] = '\0';
	fclose(tmp);
	return text;
}

static int classify_31(const struct page_layout *l, uint64_t pfn, const struct pages *p, uint64_t *nr)
{
	return classify(l, 31, pfn, p, true, nr);
}

/* The rules every generation shares, on @l. */
static void test_common(const char *gen, const struct page_layout *l)
{
	struct pages p;
	uint64_t nr;
	int ret = -1;
	char *said;

	p = plain(l);
	expect(gen, "an ordinary kernel page", l, 0x1000, &p, true, LEVELS(0, 1, 2, 4, 8, 16, 31), PAGE_CAT_NONE, 1);

	/* Free: the buddy type in _mapcount, the order in private. */
	p = plain(l);
	set_mapcount(&p, l, l->buddy_value);
	put64(p.b, l->private, 3);
	expect(gen, "a free order-3 block", l, 0x1008, &p, true, LEVELS(16, 17, 31), PAGE_CAT_FREE, 8);
	expect(gen, "a free block, free pages not excluded", l, 0x1008, &p, true, LEVELS(0, 1, 2, 4, 8, 15),
	       PAGE_CAT_NONE, 1);
	put64(p.b, l->private, 10);
	expect(gen, "a free block of the largest order (10)", l, 0x1000, &p, true, LEVELS(16), PAGE_CAT_FREE, 1024);
	put64(p.b, l->private, 11);
	said = captured_stderr(classify_31, l, 0x1000, &p, &nr, &ret);
	check(ret == PAGE_CAT_NONE, "%s: a free page of order 11 (LENGTH(zone.free_area) is 11): kept", gen);
	check(!strcmp(said, "makedumpfile: warning: invalid free page order: pfn=0x1000, order=11, max order=10\n"),
	      "%s: ... with the warning \"%.*s\"", gen, (int)strcspn(said, "\n"), said);
	put64(p.b, l->private, 0);
	/* The buddy's order is its own; a compound order in the tail does not count. */
	make_head(&p, l, 2, false);
	set_mapcount(&p, l, l->buddy_value);
	expect(gen, "a free order-0 page marked as a compound head", l, 0x1000, &p, true, LEVELS(16), PAGE_CAT_FREE, 1);

	/* Page cache. */
	p = plain(l);
	set_flag(&p, l, l->pg_lru);
	put64(p.b, l->mapping, FILE_MAPPING);
	expect(gen, "an LRU file page", l, 0x1001, &p, true, LEVELS(2, 4, 6, 31), PAGE_CAT_CACHE, 1);
	expect(gen, "an LRU file page, cache not excluded", l, 0x1001, &p, true, LEVELS(0, 1, 8, 16, 25),
	       PAGE_CAT_NONE, 1);
	set_flag(&p, l, l->pg_private);
	expect(gen, "an LRU file page with PG_private", l, 0x1001, &p, true, LEVELS(4, 5, 6, 31),
	       PAGE_CAT_CACHE_PRIVATE, 1);
	expect(gen, "an LRU file page with PG_private at levels without 4", l, 0x1001, &p, true,
	       LEVELS(0, 1, 2, 3, 8, 16, 27), PAGE_CAT_NONE, 1);

	p = plain(l);
	set_flag(&p, l, l->pg_swapcache);
	set_flag(&p, l, l->pg_swapbacked);
	expect(gen, "a swap cache page (swapcache + swapbacked, off the LRU)", l, 0x1002, &p, true, LEVELS(2, 4),
	       PAGE_CAT_CACHE, 1);
	p = plain(l);
	set_flag(&p, l, l->pg_swapcache);
	expect(gen, "PG_swapcache without PG_swapbacked (another flag's bit then)", l, 0x1002, &p, true,
	       LEVELS(2, 4, 31), PAGE_CAT_NONE, 1);

	/* User data: the anonymous bit of mapping. */
	p = plain(l);
	put64(p.b, l->mapping, ANON_MAPPING);
	expect(gen, "an anonymous page", l, 0x1003, &p, true, LEVELS(8, 9, 31), PAGE_CAT_USER, 1);
	expect(gen, "an anonymous page, user data not excluded", l, 0x1003, &p, true, LEVELS(0, 1, 2, 4, 6, 16, 23),
	       PAGE_CAT_NONE, 1);
	set_flag(&p, l, l->pg_lru);
	expect(gen, "an anonymous LRU page: user data, not cache", l, 0x1003, &p, true, LEVELS(2, 4, 6),
	       PAGE_CAT_NONE, 1);
	expect(gen, "an anonymous LRU page", l, 0x1003, &p, true, LEVELS(8, 31), PAGE_CAT_USER, 1);

	/* Compound pages: the head's order covers the block, tails are skipped. */
	p = plain(l);
	put64(p.b, l->mapping, ANON_MAPPING);
	make_head(&p, l, 9, false);
	expect(gen, "an anonymous THP head of order 9", l, 0x2000, &p, true, LEVELS(8, 31), PAGE_CAT_USER, 512);
	expect(gen, "the same head without its tail page loaded", l, 0x2000, &p, false, LEVELS(8), PAGE_CAT_USER, 1);
	expect(gen, "the same head at a pfn not aligned to its order", l, 0x2100, &p, true, LEVELS(8),
	       PAGE_CAT_USER, 1);
	p = plain(l);
	set_flag(&p, l, l->pg_lru);
	put64(p.b, l->mapping, FILE_MAPPING);
	make_head(&p, l, 2, false);
	expect(gen, "a file folio head of order 2", l, 0x3004, &p, true, LEVELS(2, 31), PAGE_CAT_CACHE, 4);
	expect(gen, "a file folio head of order 2 at pfn 0x3006", l, 0x3006, &p, true, LEVELS(2), PAGE_CAT_CACHE, 1);

	p = plain(l);
	put64(p.b, l->compound_head, HEAD_PAGE | 1);
	set_flag(&p, l, l->pg_lru);
	put64(p.b, l->mapping, ANON_MAPPING);
	expect(gen, "a tail page (compound_head bit 0), even with LRU and anonymous bits", l, 0x2001, &p, true,
	       LEVELS(0, 2, 8, 31), PAGE_CAT_COMPOUND_TAIL, 1);
	set_mapcount(&p, l, l->buddy_value);
	set_flag(&p, l, l->pg_hwpoison);
	expect(gen, "a tail page with the buddy type and PG_hwpoison", l, 0x2001, &p, true, LEVELS(0, 16, 31),
	       PAGE_CAT_COMPOUND_TAIL, 1);
	p = plain(l);
	put64(p.b, l->compound_head, HEAD_PAGE);
	put64(p.b, l->mapping, ANON_MAPPING);
	expect(gen, "compound_head without bit 0 is no tail", l, 0x2001, &p, true, LEVELS(8), PAGE_CAT_USER, 1);

	/* Hugetlb: user data. */
	p = plain(l);
	put64(p.b, l->mapping, FILE_MAPPING);
	make_head(&p, l, 9, true);
	expect(gen, "a hugetlb folio of order 9", l, 0x4000, &p, true, LEVELS(8, 31), PAGE_CAT_USER, 512);
	expect(gen, "a hugetlb folio, user data not excluded", l, 0x4000, &p, true, LEVELS(0, 2, 4, 16, 23),
	       PAGE_CAT_NONE, 1);
	expect(gen, "a hugetlb head without its tail loaded: not known as hugetlb", l, 0x4000, &p, false,
	       LEVELS(8), PAGE_CAT_NONE, 1);
	p = plain(l);
	put64(p.b, l->mapping, FILE_MAPPING);
	make_head(&p, l, 9, false);
	expect(gen, "a compound kernel page of order 9 (not hugetlb)", l, 0x4000, &p, true, LEVELS(8, 31),
	       PAGE_CAT_NONE, 512);

	/* Hwpoison and offline go at every level; earlier rules come first. */
	p = plain(l);
	set_flag(&p, l, l->pg_hwpoison);
	expect(gen, "a hwpoison page", l, 0x1004, &p, true, LEVELS(0, 1, 2, 8, 16, 31), PAGE_CAT_HWPOISON, 1);
	put64(p.b, l->mapping, ANON_MAPPING);
	expect(gen, "an anonymous hwpoison page where user data goes", l, 0x1004, &p, true, LEVELS(8, 31),
	       PAGE_CAT_USER, 1);
	expect(gen, "an anonymous hwpoison page elsewhere", l, 0x1004, &p, true, LEVELS(0, 2, 16), PAGE_CAT_HWPOISON,
	       1);
	p = plain(l);
	set_mapcount(&p, l, l->offline_value);
	expect(gen, "an offline page", l, 0x1005, &p, true, LEVELS(0, 1, 16, 31), PAGE_CAT_OFFLINE, 1);
	set_flag(&p, l, l->pg_lru);
	put64(p.b, l->mapping, FILE_MAPPING);
	expect(gen, "an offline page with PG_lru where cache goes", l, 0x1005, &p, true, LEVELS(2), PAGE_CAT_CACHE, 1);
}

/* Slab pages: neither free, anonymous nor offline, whatever else they say. */
static void test_slab(const char *gen, const struct page_layout *l, bool by_flag)
{
	struct pages p = plain(l);

	if (by_flag)
		set_flag(&p, l, l->pg_slab);
	else
		set_mapcount(&p, l, l->slab_value);
	put64(p.b, l->mapping, ANON_MAPPING);
	expect(gen, "a slab page with mapping bit 0", l, 0x1006, &p, true, LEVELS(0, 8, 31), PAGE_CAT_NONE, 1);
	if (by_flag) {
		set_mapcount(&p, l, l->buddy_value);
		expect(gen, "a slab page (PG_slab) with the buddy type", l, 0x1006, &p, true, LEVELS(16, 31),
		       PAGE_CAT_NONE, 1);
		set_mapcount(&p, l, l->offline_value);
		expect(gen, "a slab page (PG_slab) with the offline type", l, 0x1006, &p, true, LEVELS(0, 31),
		       PAGE_CAT_NONE, 1);
	}
}

static void test_61(void)
{
	struct page_layout l = layout_61();
	struct pages p;

	test_common("6.1", &l);
	test_slab("6.1", &l, true);

	/* The destructor byte says hugetlb only when it is HUGETLB_PAGE_DTOR. */
	p = plain(&l);
	make_head(&p, &l, 9, false);
	p.b[SZ + l.compound_dtor] = 3;
	expect("6.1", "a compound page with destructor 3 (not HUGETLB_PAGE_DTOR 2)", &l, 0x4000, &p, true,
	       LEVELS(8), PAGE_CAT_NONE, 512);

	/* Before 4.16 the order is a u16: a byte next to it changes it. */
	p = plain(&l);
	put64(p.b, l.mapping, ANON_MAPPING);
	make_head(&p, &l, 9, false);
	p.b[SZ + l.compound_order + 1] = 1;
	expect("6.1", "order byte 9 with 1 in the next byte (4.16+: a u8)", &l, 0x2000, &p, true, LEVELS(8),
	       PAGE_CAT_USER, 512);
	l.order_is_byte = false;
	expect("6.1", "the same read as a u16 (before 4.16): order 265, ignored", &l, 0x2000, &p, true, LEVELS(8),
	       PAGE_CAT_USER, 1);
	l.order_is_byte = true;

	/* No LENGTH(zone.free_area): no order is too large but 64's. */
	l.free_area_length = NF;
	p = plain(&l);
	set_mapcount(&p, &l, l.buddy_value);
	put64(p.b, l.private, 11);
	expect("6.1", "order 11 with no LENGTH(zone.free_area)", &l, 0x800, &p, true, LEVELS(16), PAGE_CAT_FREE, 2048);
	l.free_area_length = 11;

	/* Before 4.10 there was no PG_swapbacked: PG_swapcache alone is swap cache. */
	l.pg_swapbacked = NF;
	p = plain(&l);
	set_flag(&p, &l, l.pg_swapcache);
	expect("6.1", "PG_swapcache alone with no NUMBER(PG_swapbacked)", &l, 0x1002, &p, true, LEVELS(2),
	       PAGE_CAT_CACHE, 1);
	l.pg_swapbacked = 19;

	/* Kernels without a type: no buddy value, no offline value. */
	l.buddy_value = NF;
	l.offline_value = NF;
	p = plain(&l);
	set_mapcount(&p, &l, -129);
	put64(p.b, l.private, 3);
	expect("6.1", "_mapcount -129 with no NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)", &l, 0x1008, &p, true, LEVELS(16, 31),
	       PAGE_CAT_NONE, 1);
	set_mapcount(&p, &l, -257);
	expect("6.1", "_mapcount -257 with no NUMBER(PAGE_OFFLINE_MAPCOUNT_VALUE)", &l, 0x1008, &p, true,
	       LEVELS(0, 31), PAGE_CAT_NONE, 1);
}

static void test_66(void)
{
	struct page_layout l = layout_66();
	struct pages p;

	test_common("6.6", &l);
	test_slab("6.6", &l, true);
	/* The order is the tail flags' low byte, not a compound_order field. */
	p = plain(&l);
	put64(p.b, l.mapping, ANON_MAPPING);
	make_head(&p, &l, 4, false);
	p.b[SZ + l.compound_order] = 9;
	expect("6.6", "order 4 in the tail's flags, 9 where compound_order was", &l, 0x2000, &p, true, LEVELS(8),
	       PAGE_CAT_USER, 16);
	p = plain(&l);
	make_head(&p, &l, 9, false);
	p.b[SZ + l.compound_dtor] = 2;
	expect("6.6", "a destructor byte of 2 without PG_hugetlb", &l, 0x4000, &p, true, LEVELS(8), PAGE_CAT_NONE, 512);
}

static void test_72(void)
{
	struct page_layout l = layout_72();
	struct pages p;

	test_common("7.2", &l);
	test_slab("7.2", &l, false);

	p = plain(&l);
	set_mapcount(&p, &l, l.unaccepted_value);
	expect("7.2", "an unaccepted page: a MAX_ORDER block", &l, 0x400, &p, true, LEVELS(16, 31), PAGE_CAT_FREE,
	       1024);
	expect("7.2", "an unaccepted page, free pages not excluded", &l, 0x400, &p, true, LEVELS(0, 15), PAGE_CAT_NONE,
	       1);

	p = plain(&l);
	put64(p.b, l.mapping, ANON_MAPPING);
	make_head(&p, &l, 9, false);
	put64(p.b + SZ, l.flags, 0xff);
	expect("7.2", "an order byte of 255 in the tail's flags: ignored", &l, 0x2000, &p, true, LEVELS(8),
	       PAGE_CAT_USER, 1);
	put64(p.b + SZ, l.flags, 0x40);
	expect("7.2", "an order byte of 64: ignored", &l, 0x2000, &p, true, LEVELS(8), PAGE_CAT_USER, 1);

	/* Hugetlb is the head's type: 6.6's tail-flag bit means nothing here. */
	p = plain(&l);
	make_head(&p, &l, 9, false);
	put64(p.b + SZ, l.flags, 9 | 1ull << 8);
	expect("7.2", "a compound page with tail flag bit 8 but no hugetlb type", &l, 0x4000, &p, true, LEVELS(8),
	       PAGE_CAT_NONE, 512);
	/* Without compound_head (an older kernel without it), nothing is a tail. */
	l.compound_head = NF;
	p = plain(&l);
	put64(p.b, 8, HEAD_PAGE | 1);
	put64(p.b, l.mapping, ANON_MAPPING);
	expect("7.2", "bit 0 at offset 8 when no compound_head is known", &l, 0x2001, &p, true, LEVELS(8),
	       PAGE_CAT_USER, 1);
}

static void test_classifies(void)
{
	struct page_layout l = layout_61();

	check(page_layout_classifies(&l, 0), "classifies at -d 0 with PG_hwpoison (hwpoison goes at any level)");
	check(page_layout_classifies(&l, 16) && page_layout_classifies(&l, 2) && page_layout_classifies(&l, 4) &&
	      page_layout_classifies(&l, 8), "classifies at -d 2, 4, 8 and 16");
	l.pg_hwpoison = NF;
	check(!page_layout_classifies(&l, 0) && !page_layout_classifies(&l, 1),
	      "no rule at -d 0 or 1 without PG_hwpoison");
	l.buddy_value = NF;
	check(!page_layout_classifies(&l, 17), "no rule at -d 17 without the buddy type");
	check(page_layout_classifies(&l, 18), "-d 18 classifies (cache)");
}

/* page_layout_read on VMCOREINFO text, through a kernel over an empty fake memory. */
static struct mdf_error *read_layout_from(const char *text, struct page_layout *l)
{
	struct fake_memory *f = fake_memory_new(FAKE_PAGE);
	struct vmcoreinfo *vi = NULL;
	struct kernel *k = NULL;
	struct mdf_error *err;

	if (!f)
		return &mdf_error_enomem;
	err = vmcoreinfo_parse(text, strlen(text), "test", &vi);
	if (!err)
		err = fake_memory_open(f, vi);
	if (!err)
		err = kernel_new(f->mem, vi, &k);
	memset(l, 0x5a, sizeof(*l));
	l->size = SZ;
	if (!err)
		err = page_layout_read(k, l);
	kernel_free(k);
	vmcoreinfo_free(vi);
	fake_memory_free(f);
	return err;
}

static bool same_layout(const struct page_layout *a, const struct page_layout *b)
{
#define SAME(field) (a->field == b->field || (printf("  %s: %" PRId64 " vs %" PRId64 "\n", #field, \
	(int64_t)a->field, (int64_t)b->field), false))
	return SAME(size) & SAME(flags) & SAME(mapping) & SAME(mapcount) & SAME(private) & SAME(compound_head) &
	       SAME(compound_order) & SAME(compound_dtor) & SAME(order_is_byte) & SAME(pg_lru) & SAME(pg_private) &
	       SAME(pg_swapcache) & SAME(pg_swapbacked) & SAME(pg_slab) & SAME(pg_hwpoison) & SAME(pg_head_mask) &
	       SAME(pg_hugetlb) & SAME(buddy_value) & SAME(offline_value) & SAME(slab_value) &
	       SAME(hugetlb_value) & SAME(unaccepted_value) & SAME(hugetlb_dtor) & SAME(free_area_length);
#undef SAME
}

/* The struct page lines of Debian 6.1.0-57-amd64's VMCOREINFO. */
#define VI_61_PAGE \
	"SIZE(page)=64\nOFFSET(page.flags)=0\nOFFSET(page._refcount)=52\nOFFSET(page.mapping)=24\n" \
	"OFFSET(page.lru)=8\nOFFSET(page._mapcount)=48\nOFFSET(page.private)=40\n" \
	"OFFSET(page.compound_dtor)=16\nOFFSET(page.compound_order)=17\nOFFSET(page.compound_head)=8\n" \
	"LENGTH(zone.free_area)=11\nNUMBER(PG_lru)=4\nNUMBER(PG_private)=13\nNUMBER(PG_swapcache)=10\n" \
	"NUMBER(PG_swapbacked)=19\nNUMBER(PG_slab)=9\nNUMBER(PG_hwpoison)=23\nNUMBER(PG_head_mask)=65536\n" \
	"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\nNUMBER(HUGETLB_PAGE_DTOR)=2\n" \
	"NUMBER(PAGE_OFFLINE_MAPCOUNT_VALUE)=-257\n"
#define VI_61 "OSRELEASE=6.1.0-57-amd64\nPAGESIZE=4096\n" VI_61_PAGE

/* And of Debian 7.2.13+deb14-amd64's. */
#define VI_72 \
	"OSRELEASE=7.2.13+deb14-amd64\nPAGESIZE=4096\nSIZE(page)=64\nOFFSET(page.flags)=0\n" \
	"OFFSET(page._refcount)=52\nOFFSET(page.mapping)=24\nOFFSET(page.lru)=8\nOFFSET(page._mapcount)=48\n" \
	"OFFSET(page.private)=40\nOFFSET(page.compound_info)=8\nLENGTH(zone.free_area)=11\n" \
	"NUMBER(PG_lru)=5\nNUMBER(PG_private)=14\nNUMBER(PG_swapcache)=10\nNUMBER(PG_swapbacked)=17\n" \
	"NUMBER(PAGE_SLAB_MAPCOUNT_VALUE)=-184549376\nNUMBER(PG_hwpoison)=21\nNUMBER(PG_head_mask)=64\n" \
	"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-268435456\nNUMBER(PAGE_HUGETLB_MAPCOUNT_VALUE)=-201326592\n" \
	"NUMBER(PAGE_OFFLINE_MAPCOUNT_VALUE)=-251658240\nNUMBER(PAGE_UNACCEPTED_MAPCOUNT_VALUE)=-150994944\n"

static void test_layout_read(void)
{
	struct page_layout l, want;
	struct mdf_error *err;

	want = layout_61();
	err = read_layout_from(VI_61, &l);
	check(!err && same_layout(&l, &want), "page_layout_read of 6.1's VMCOREINFO: the 6.1 layout%s%s",
	      err ? ": " : "", err ? mdf_error_text(err) : "");
	mdf_error_free(err);
	check(l.pg_reserved == NF, "page_layout_read leaves PG_reserved unknown: VMCOREINFO has no "
	      "NUMBER(PG_reserved), and BTF is asked only where a rule needs it");

	want = layout_72();
	err = read_layout_from(VI_72, &l);
	check(!err && same_layout(&l, &want),
	      "page_layout_read of 7.2's VMCOREINFO: the 7.2 layout, compound_info as compound_head%s%s",
	      err ? ": " : "", err ? mdf_error_text(err) : "");
	mdf_error_free(err);

	/* 6.3 to 6.5: the folio's fields, offsets from the head page. */
	err = read_layout_from("OSRELEASE=6.4.0\n" VI_61_PAGE "OFFSET(folio._folio_dtor)=80\n"
			       "OFFSET(folio._folio_order)=81\nOFFSET(page.compound_order)=50\n", &l);
	check(!err && l.compound_order == 17 && l.compound_dtor == 16,
	      "folio._folio_order 81 and _folio_dtor 80 are 17 and 16 into the tail page, "
	      "before page.compound_order (got %" PRId64 ", %" PRId64 ")", l.compound_order, l.compound_dtor);
	mdf_error_free(err);

	/* 6.6 to 6.8. */
	err = read_layout_from("OSRELEASE=6.6.0\n" VI_61_PAGE "NUMBER(PG_hugetlb)=8\n", &l);
	check(!err && l.pg_hugetlb == 8, "NUMBER(PG_hugetlb)=8 is read");
	mdf_error_free(err);

	err = read_layout_from("OSRELEASE=4.15.0\n" VI_61_PAGE, &l);
	check(!err && !l.order_is_byte, "4.15: the order is a u16");
	mdf_error_free(err);
	err = read_layout_from("OSRELEASE=4.16.0\n" VI_61_PAGE, &l);
	check(!err && l.order_is_byte, "4.16: the order is a byte");
	mdf_error_free(err);
	err = read_layout_from(VI_61_PAGE, &l);
	check(!err && l.order_is_byte, "no OSRELEASE: the order is a byte");
	mdf_error_free(err);

	/* Absent lines. */
	err = read_layout_from("OSRELEASE=6.1.0\nOFFSET(page._refcount)=52\nOFFSET(page.mapping)=24\n"
			       "NUMBER(PG_lru)=4\nNUMBER(PG_private)=13\nNUMBER(PG_swapcache)=10\n", &l);
	check(err && strstr(mdf_error_text(err), "OFFSET(page.flags)"),
	      "no OFFSET(page.flags): an error naming it (%s)",
	      err ? mdf_error_text(err) : "none");
	mdf_error_free(err);
	err = read_layout_from("OSRELEASE=6.1.0\nOFFSET(page.flags)=0\nOFFSET(page._count)=52\n"
			       "OFFSET(page.mapping)=24\n"
			       "NUMBER(PG_lru)=4\nNUMBER(PG_swapcache)=10\n", &l);
	check(err && strstr(mdf_error_text(err), "PG_private"), "no NUMBER(PG_private): an error naming it (%s)",
	      err ? mdf_error_text(err) : "none");
	mdf_error_free(err);
	err = read_layout_from("OSRELEASE=6.1.0\nOFFSET(page.flags)=0\nOFFSET(page._count)=52\n"
			       "OFFSET(page.mapping)=24\n"
			       "NUMBER(PG_lru)=4\nNUMBER(PG_private)=13\nNUMBER(PG_swapcache)=10\n", &l);
	check(!err && l.mapcount == NF && l.private == NF && l.compound_head == NF && l.compound_order == 0 &&
	      l.compound_dtor == 0 && l.pg_head_mask == 0 && l.buddy_value == NF && l.pg_hwpoison == NF &&
	      l.free_area_length == NF && l.slab_value == NF && l.hugetlb_value == NF,
	      "the minimum (page._count for _refcount): every other field absent (0 for the tail offsets and "
	      "the head mask)");
	mdf_error_free(err);
	check(!page_layout_classifies(&l, 17), "... and no rule applies at -d 17 (no buddy type, no hwpoison)");
}

/*
 * PG_reserved with PG_lru contradict each other; either alone does not.
 * page_layout_read() leaves PG_reserved unknown (VMCOREINFO lacks it):
 * then no page contradicts itself.
 */
static void test_contradiction(void)
{
	struct page_layout l = layout_61();
	struct pages lru = plain(&l), reserved = plain(&l), both = plain(&l);

	set_flag(&lru, &l, l.pg_lru);
	set_flag(&reserved, &l, 12);
	set_flag(&both, &l, 12);
	set_flag(&both, &l, l.pg_lru);
	l.pg_reserved = NF;
	check(!page_flags_contradict(&l, both.b), "PG_reserved unknown: nothing contradicts");
	l.pg_reserved = 12;
	check(page_flags_contradict(&l, both.b), "PG_reserved (12) with PG_lru (4) contradict each other");
	check(!page_flags_contradict(&l, lru.b) && !page_flags_contradict(&l, reserved.b),
	      "PG_lru alone, PG_reserved alone: no contradiction");
	l = layout_72();
	l.pg_reserved = 13;
	both = plain(&l);
	set_flag(&both, &l, 13);
	set_flag(&both, &l, l.pg_lru);
	check(page_flags_contradict(&l, both.b), "7.2's numbers: PG_reserved 13 with PG_lru 5");
}

int main(void)
{
	msg_set_level(ML_ERROR);
	test_61();
	test_66();
	test_72();
	/* s390x's struct pages: the same pages, every field big-endian. */
	pages_order = BYTE_ORDER_BIG;
	printf("big-endian struct pages:\n");
	test_61();
	test_66();
	test_72();
	pages_order = BYTE_ORDER_LITTLE;
	test_classifies();
	test_layout_read();
	test_contradiction();
	return unit_exit_status();
}
