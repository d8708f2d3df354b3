// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory management state: the page spec, mem_section, the vmemmap'ed
 * struct pages, node 0's pglist_data with its zones and buddy free lists,
 * some slab objects the struct pages point to, and a vmalloc mapping.
 *
 * SPARSEMEM_EXTREME: SYMBOL(mem_section) is the value of the kernel's
 * mem_section pointer, a root array of NR_SECTION_ROOTS pointers, each to a
 * page of 128 struct mem_section { section_mem_map, usage, page_ext, pad }.
 * section_mem_map is the mem_map address minus the section's first pfn
 * times sizeof(struct page) (= vmemmap_base with VMEMMAP), ORed with
 * PRESENT | HAS_MEM_MAP | ONLINE | EARLY (0xf), as sparse_init leaves it.
 *
 * struct page (6.1, 64 bytes): flags 0, lru/compound_head 8, mapping 24,
 * index 32, private 40, _mapcount/page_type 48, _refcount 52, memcg 56.
 * The first tail of a compound page holds compound_dtor (u8) at 16,
 * compound_order (u8) at 17, compound_mapcount at 20, pincount at 24 and
 * compound_nr at 28; every tail has compound_head = head | 1.  The upper
 * flag bits hold the zone (bit 51) and node (bit 54) and the "no cpupid"
 * value in bits 30..50.  A free buddy block's first page has page_type
 * PG_buddy (_mapcount -129) and private = order, and is linked through lru
 * into zone->free_area[order].free_list[migratetype].
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

/* struct page */
#define PG_OFF_FLAGS		0
#define PG_OFF_LRU		8
#define PG_OFF_LRU_PREV		16
#define PG_OFF_MAPPING		24
#define PG_OFF_INDEX		32
#define PG_OFF_PRIVATE		40
#define PG_OFF_MAPCOUNT		48
#define PG_OFF_REFCOUNT		52
#define PG_OFF_MEMCG		56

#define BIT(n)			(1ULL << (n))
#define ZONES_PGSHIFT		51
#define LAST_CPUPID_NONE	(0x1fffffULL << 30)

#define LIST_POISON1		0xdead000000000100ULL
#define LIST_POISON2		0xdead000000000122ULL
#define TAIL_MAPPING		0xdead000000000400ULL
#define MAPCOUNT_NONE		0xffffffffU	/* -1 */
#define MAPCOUNT_BUDDY		0xffffff7fU	/* -129: PG_buddy page type */
#define MAPCOUNT_OFFLINE	0xfffffeffU	/* -257: PG_offline */
#define COMPOUND_PAGE_DTOR	1
#define HUGETLB_PAGE_DTOR	2
#define TRANSHUGE_PAGE_DTOR	3
#define MIGRATE_UNMOVABLE	0
#define MIGRATE_MOVABLE		1

/* pglist_data and zone (6.1: VMCOREINFO, the rest read off a 6.1 dump) */
#define PGDAT_SIZE		174208
#define PGDAT_NR_ZONES		171552
#define PGDAT_START_PFN		171560
#define PGDAT_PRESENT		171568
#define PGDAT_SPANNED		171576
#define PGDAT_NODE_ID		171584
#define ZONE_SIZE		1536
#define ZONE_PGDAT		96
#define ZONE_START_PFN		128
#define ZONE_MANAGED		136
#define ZONE_SPANNED		144
#define ZONE_PRESENT		152
#define ZONE_PRESENT_EARLY	160
#define ZONE_NAME		168
#define ZONE_FREE_AREA		256
#define FREE_AREA_SIZE		88
#define FREE_AREA_NR_FREE	80
#define ZONE_VM_STAT		1344

/* mem_section and its usage map */
#define MEM_SECTION_SIZE	32
#define SECTIONS_PER_ROOT	(PAGE_SIZE / MEM_SECTION_SIZE)
#define SECTION_FLAGS		0xfULL	/* PRESENT|HAS_MEM_MAP|ONLINE|EARLY */
#define USAGE_SIZE		56	/* rcu_head, subsection_map, 32 B flags */
#define PAGEBLOCK_PAGES		512

#define VMAP_AREA_LIST_OFF	40

enum slab_cache { SC_KMEM_CACHE, SC_KMALLOC_256, SC_INODE, SC_ANON_VMA,
		  SC_VMAP_AREA, SC_NR };

static const char default_spec[] =
	"zero 0x2000 16\n"
	"kernel 0x2010 16\n"
	"cache 0x2020 32\n"
	"cache_private 0x2040 16\n"
	"shmem 0x2050 16\n"
	"swapcache 0x2060 16\n"
	"anon 0x2070 48\n"
	"slab 0x20a0 16\n"
	"hwpoison 0x20b0 4\n"
	"offline 0x20b4 12\n"
	"free 0x20c0 6\n"
	"free 0x2100 8\n"
	"free 0x2200 9\n"
	"free 0x2400 10\n"
	"free 0x2800 0\n"
	"free 0x2802 1\n"
	"free 0x2804 2\n"
	"free 0x2808 3\n"
	"compound 0x2810 4 slab\n"
	"compound 0x2820 5 kernel\n"
	"compound 0x2a00 9 anon\n"
	"compound 0x2c00 9 cache\n"
	"hugetlb 0x2e00 9\n";

static const struct {
	const char *kind;
	enum page_cat cat;
	int marker;
} simple_kinds[] = {
	{ "zero", PC_ZERO, MK_NONE },
	{ "kernel", PC_KERNEL, MK_KERNEL },
	{ "cache", PC_CACHE, MK_PAGECACHE },
	{ "cache_private", PC_CACHE_PRIVATE, MK_PRIVCACHE },
	{ "shmem", PC_SHMEM, MK_VGEM },
	{ "swapcache", PC_SWAPCACHE, MK_SWAPCACHE },
	{ "anon", PC_ANON, MK_ANON },
	{ "slab", PC_SLAB, MK_SLAB },
	{ "hwpoison", PC_HWPOISON, MK_HWPOISON },
	{ "offline", PC_OFFLINE, MK_OFFLINE },
};

static const struct {
	const char *kind;
	enum page_cat cat;
	int marker;
} compound_kinds[] = {
	{ "anon", PC_COMPOUND_ANON, MK_ANON },
	{ "cache", PC_COMPOUND_CACHE, MK_PAGECACHE },
	{ "slab", PC_COMPOUND_SLAB, MK_SLAB },
	{ "kernel", PC_COMPOUND_KERNEL, MK_COMPOUND },
};

static int zone_of(uint64_t pfn)
{
	return pfn < 0x1000 ? 0 : pfn < 0x100000 ? 1 : 2;
}

/* A buddy block or compound page: order kept on every page of it. */
static void claim_block(struct gen *g, uint64_t pfn, uint64_t order,
			enum page_cat cat, int marker, int lineno)
{
	uint64_t n = 1ULL << order;

	if (order > MAX_BUDDY_ORDER || (pfn & (n - 1)))
		die("--pages line %d: order %" PRIu64 " at %#" PRIx64
		    " is too big or misaligned", lineno, order, pfn);
	claim(g, pfn, n, cat);
	for (uint64_t i = 0; i < n; i++) {
		g->pi[pfn + i].order = order;
		g->pi[pfn + i].flags |= i ? PI_TAIL : PI_HEAD;
		if (marker)
			fill_marker_page(g, pfn + i, marker);
	}
}

/*
 * "lru WHERE COUNT [none|file|anon] [unreserved]": PG_lru, and a mapping,
 * on pages the kernel did not give to the LRU; "unreserved" clears
 * PG_reserved as well, on pages of the kernel image.  WHERE is a pfn, or
 * SYMBOL[+PAGES], a page of the kernel image from the page SYMBOL is in.
 * Applied once the image is laid out and its init freed (mm_apply_lru).
 */
static void lru_line(struct gen *g, const char *line, int lineno)
{
	static const char *const mappings[] = { "none", "file", "anon" };
	char where[80], mapping[16] = "none", reserved[16] = "", *plus, *end;
	unsigned long long count;
	struct lru_mark *m;
	int fields = sscanf(line, " lru %79s %llu %15s %15s", where, &count, mapping, reserved);

	if (fields < 2 || !count || (fields == 4 && strcmp(reserved, "unreserved")))
		die("--pages line %d: lru WHERE COUNT [none|file|anon] [unreserved]", lineno);
	if (g->nlru == MAX_LRU_MARKS)
		die("--pages line %d: at most %d lru lines", lineno, MAX_LRU_MARKS);
	m = &g->lru[g->nlru++];
	memset(m, 0, sizeof(*m));
	m->count = count;
	m->lineno = lineno;
	m->unreserved = fields == 4;
	m->mapping = -1;
	for (int i = 0; i < 3; i++)
		if (!strcmp(mapping, mappings[i]))
			m->mapping = i;
	if (m->mapping < 0)
		die("--pages line %d: mapping none, file or anon, not '%s'", lineno, mapping);
	errno = 0;
	m->pfn = strtoull(where, &end, 0);
	if (!errno && end != where && !*end)
		return;
	plus = strchr(where, '+');
	m->pfn = 0;
	if (plus) {
		*plus = '\0';
		m->pfn = strtoull(plus + 1, &end, 0);
		if (end == plus + 1 || *end)
			die("--pages line %d: SYMBOL+PAGES, not '%s+%s'", lineno, where, plus + 1);
	}
	if (strlen(where) >= sizeof(m->symbol))
		die("--pages line %d: symbol name too long", lineno);
	strcpy(m->symbol, where);
}

static void spec_line(struct gen *g, char *line, int lineno)
{
	char kind[32], arg[32];
	uint64_t pfn, n;
	char *p, *end;
	int fields;

	p = strchr(line, '#');
	if (p)
		*p = '\0';
	for (p = line; isspace((unsigned char)*p); p++)
		;
	if (!*p)
		return;
	fields = sscanf(p, "%31s %31s", kind, arg);
	if (fields != 2)
		die("--pages line %d: expected KIND PFN ...", lineno);
	if (!strcmp(kind, "lru")) {
		lru_line(g, p, lineno);
		return;
	}
	p += strcspn(p, " \t");
	errno = 0;
	pfn = strtoull(p, &end, 0);
	n = strtoull(end, &p, 0);
	if (errno || p == end)
		die("--pages line %d: expected KIND PFN NUMBER", lineno);
	fields = sscanf(p, "%31s", arg);

	for (size_t i = 0; i < sizeof(simple_kinds) / sizeof(simple_kinds[0]);
	     i++) {
		if (strcmp(kind, simple_kinds[i].kind))
			continue;
		if (fields > 0)
			die("--pages line %d: trailing '%s'", lineno, arg);
		claim(g, pfn, n, simple_kinds[i].cat);
		for (uint64_t j = pfn; j < pfn + n && simple_kinds[i].marker;
		     j++)
			fill_marker_page(g, j, simple_kinds[i].marker);
		return;
	}
	if (!strcmp(kind, "free")) {
		claim_block(g, pfn, n, PC_FREE, MK_FREE, lineno);
		g->pi[pfn].flags |= PI_UNMOVABLE;
		return;
	}
	if (!strcmp(kind, "hugetlb")) {
		claim_block(g, pfn, n, PC_HUGETLB, MK_HUGETLB, lineno);
		return;
	}
	if (!strcmp(kind, "compound")) {
		if (fields < 1)
			die("--pages line %d: compound PFN ORDER KIND", lineno);
		for (size_t i = 0; i < sizeof(compound_kinds) /
		     sizeof(compound_kinds[0]); i++) {
			if (strcmp(arg, compound_kinds[i].kind))
				continue;
			if (n < 1)
				die("--pages line %d: compound order 0",
				    lineno);
			claim_block(g, pfn, n, compound_kinds[i].cat,
				    compound_kinds[i].marker, lineno);
			return;
		}
		die("--pages line %d: compound kind anon|cache|slab|kernel",
		    lineno);
	}
	die("--pages line %d: unknown kind '%s'", lineno, kind);
}

void mm_parse_spec(struct gen *g)
{
	char *text, *line, *save;
	int lineno = 0;

	/* the partial RAM page below the EBDA gets some content */
	fill_marker_page(g, 0x9f, MK_LOWMEM);

	if (g->pages_path) {
		FILE *f = fopen(g->pages_path, "r");
		size_t len = 0;
		long size;

		if (!f)
			die("%s: %s", g->pages_path, strerror(errno));
		if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET))
			die("%s: cannot read", g->pages_path);
		text = xcalloc(size + 1, 1);
		len = fread(text, 1, size, f);
		text[len] = '\0';
		fclose(f);
	} else {
		if (g->max_pfn < 0x3800)
			die("the built-in page spec needs --ram 64M or more; "
			    "use --pages");
		text = xstrdup(default_spec);
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		spec_line(g, line, ++lineno);
	free(text);
}

/*
 * The "lru" lines: a page the kernel still holds reserved (the image, the
 * low MiB, boot allocations) keeps PG_reserved and gains PG_lru, the
 * contradiction of upstream makedumpfile's issue #21; a page the image
 * gave back (init, the text/rodata and rodata/data gaps) is memory like
 * any other, and becomes page cache (none, file) or anonymous (anon).
 */
void mm_apply_lru(struct gen *g)
{
	for (int i = 0; i < g->nlru; i++) {
		const struct lru_mark *m = &g->lru[i];
		uint64_t first = m->pfn;

		if (m->symbol[0]) {
			uint64_t vaddr = ksym_addr(g, m->symbol);

			if (vaddr < g->text_vaddr || vaddr >= g->image_end)
				die("--pages line %d: %s is not in the kernel image", m->lineno, m->symbol);
			first += (vaddr - START_KERNEL_MAP + g->phys_base) >> PAGE_SHIFT;
		}
		for (uint64_t pfn = first; pfn < first + m->count; pfn++) {
			struct pfn_info *p;

			if (!pfn_is_ram(g, pfn))
				die("--pages line %d: pfn %#" PRIx64 " is not RAM", m->lineno, pfn);
			p = &g->pi[pfn];
			if (m->unreserved && (p->cat != PC_RESERVED || pfn < g->kernel_phys >> PAGE_SHIFT ||
					      pfn >= (g->kernel_phys + g->image_end - g->text_vaddr) >> PAGE_SHIFT))
				die("--pages line %d: pfn %#" PRIx64 " is no page the image holds: unreserved "
				    "takes those", m->lineno, pfn);
			if (p->cat == PC_RESERVED) {
				if (m->unreserved)
					p->cat = m->mapping == 2 ? PC_IMAGE_LRU_ANON : PC_IMAGE_LRU;
				else
					p->cat = m->mapping == 2 ? PC_RESERVED_LRU_ANON : PC_RESERVED_LRU;
				if (m->mapping == 1)
					p->flags |= PI_FILE_MAPPING;
			} else if (p->cat == PC_UNCLAIMED) {
				claim(g, pfn, 1, m->mapping == 2 ? PC_ANON : PC_CACHE);
				fill_marker_page(g, pfn, m->mapping == 2 ? MK_ANON : MK_PAGECACHE);
			} else {
				die("--pages line %d: pfn %#" PRIx64 " is %s: lru takes reserved or freed pages",
				    m->lineno, pfn, cat_name(p->cat));
			}
		}
	}
}

static uint8_t *memmap_ptr(struct gen *g, uint64_t pfn)
{
	return phys_ptr(g, g->memmap_paddr[pfn / PAGES_PER_SECTION] +
			(pfn % PAGES_PER_SECTION) * STRUCT_PAGE_SIZE,
			STRUCT_PAGE_SIZE);
}

static uint64_t page_vaddr(const struct gen *g, uint64_t pfn)
{
	return g->vmemmap_base + pfn * STRUCT_PAGE_SIZE;
}

/*
 * Boot-time allocations: node 0's pglist_data, the mem_section root array
 * and its pages, the usage maps, then the memmap of all present sections in
 * one 2 MiB aligned buffer (sparse_buffer_init) mapped with 2 MiB pages.
 */
void mm_setup(struct gen *g)
{
	uint64_t nr_mem_sections = 1ULL << (g->max_physmem_bits -
					    SECTION_SIZE_BITS);
	uint64_t root_pa, usage_pa, buf, npresent = 0, i = 0;

	g->pgdat_paddr = memblock_alloc(g, PGDAT_SIZE, 64);
	g->nr_section_roots = nr_mem_sections / SECTIONS_PER_ROOT;
	root_pa = memblock_alloc(g, g->nr_section_roots * 8, 64);
	g->mem_section_root = dm_vaddr(g, root_pa);

	for (uint64_t s = 0; s < g->nsections; s++) {
		uint64_t r = s / SECTIONS_PER_ROOT;
		uint8_t *rp = phys_ptr(g, root_pa + 8 * r, 8);

		if (!g->memmap_paddr[s])
			continue;
		npresent++;
		if (!get_le64(rp))
			put_le64(rp, dm_vaddr(g, memblock_alloc(g, PAGE_SIZE,
								PAGE_SIZE)));
	}
	usage_pa = memblock_alloc(g, USAGE_SIZE * npresent, 64);
	buf = memblock_alloc(g, npresent * SECTION_MEMMAP_SIZE, PMD_SIZE);

	for (uint64_t s = 0; s < g->nsections; s++) {
		uint64_t root, ms;

		if (!g->memmap_paddr[s])
			continue;
		g->memmap_paddr[s] = buf + i * SECTION_MEMMAP_SIZE;
		root = get_le64(phys_ptr(g, root_pa + 8 * (s / SECTIONS_PER_ROOT),
					 8));
		ms = root - g->page_offset +
		     (s % SECTIONS_PER_ROOT) * MEM_SECTION_SIZE;
		put_le64(phys_ptr(g, ms, 8), g->vmemmap_base | SECTION_FLAGS);
		put_le64(phys_ptr(g, ms + 8, 8),
			 dm_vaddr(g, usage_pa + i * USAGE_SIZE));
		pt_map(g, page_vaddr(g, s * PAGES_PER_SECTION),
		       g->memmap_paddr[s], PMD_SIZE,
		       PTE_RW | PTE_ACCESSED | PTE_DIRTY | PTE_GLOBAL | PTE_NX,
		       false);
		i++;
	}
	note_vtop(g, page_vaddr(g, 0x100) + 8, "vmemmap");
	note_vtop(g, page_vaddr(g, g->max_pfn - 1), "vmemmap");
	note_vtop_fail(g, page_vaddr(g, g->nsections * PAGES_PER_SECTION));
}

/* a page of a slab, recorded so its struct page names its kmem_cache */
static uint64_t slab_page(struct gen *g, int cache)
{
	uint64_t pa = page_alloc(g, PC_SLAB);

	if (g->nslab == (int)(sizeof(g->slab_pfn) / sizeof(g->slab_pfn[0])))
		die("internal: too many slab pages");
	g->slab_pfn[g->nslab] = pa >> PAGE_SHIFT;
	g->slab_cache_of[g->nslab++] = cache;
	return pa;
}

/*
 * After boot: slab objects the struct pages refer to, and a vmalloc'ed
 * area of a few pages with its vmap_area on vmap_area_list.
 */
void mm_late_alloc(struct gen *g)
{
	uint64_t kmc = dm_vaddr(g, slab_page(g, SC_KMEM_CACHE));
	uint64_t inode = dm_vaddr(g, slab_page(g, SC_INODE));
	uint64_t anon = dm_vaddr(g, slab_page(g, SC_ANON_VMA));
	uint64_t bh = dm_vaddr(g, slab_page(g, SC_KMALLOC_256));
	uint64_t va_obj = dm_vaddr(g, slab_page(g, SC_VMAP_AREA));
	uint64_t list = ksym_addr(g, "vmap_area_list");

	for (int c = 0; c < SC_NR; c++)
		g->slab_cache_ptr[c] = kmc + 256 * c;
	for (int i = 0; i < 4; i++)
		g->mapping_ptr[i] = inode + 0x400 * i + 0x208;
	for (int i = 0; i < 2; i++) {
		g->anon_vma_ptr[i] = anon + 0x60 * i;
		kv_write64(g, g->anon_vma_ptr[i], g->anon_vma_ptr[i]);
	}
	g->buffer_head_ptr = bh;

	g->vmalloc_npages = 4;
	g->vmalloc_vaddr = g->vmalloc_base + 0x1234000;
	for (int i = 0; i < g->vmalloc_npages; i++) {
		uint64_t pa = page_alloc(g, PC_KERNEL);

		g->vmalloc_pfn[i] = pa >> PAGE_SHIFT;
		pt_map(g, g->vmalloc_vaddr + i * PAGE_SIZE, pa, PAGE_SIZE,
		       PTE_RW | PTE_ACCESSED | PTE_DIRTY | PTE_GLOBAL | PTE_NX,
		       true);
		fill_marker_page(g, g->vmalloc_pfn[i], MK_VMALLOC);
		note_vtop(g, g->vmalloc_vaddr + i * PAGE_SIZE + 0x10 * i,
			  "vmalloc");
	}
	/* the guard page that vmalloc leaves after each area */
	note_vtop_fail(g, g->vmalloc_vaddr + g->vmalloc_npages * PAGE_SIZE);

	kv_write64(g, va_obj, g->vmalloc_vaddr);
	kv_write64(g, va_obj + 8, g->vmalloc_vaddr +
		   (g->vmalloc_npages + 1) * PAGE_SIZE);
	kv_write64(g, va_obj + VMAP_AREA_LIST_OFF, list);
	kv_write64(g, va_obj + VMAP_AREA_LIST_OFF + 8, list);
	kv_write64(g, list, va_obj + VMAP_AREA_LIST_OFF);
	kv_write64(g, list + 8, va_obj + VMAP_AREA_LIST_OFF);
}

/* What is left of RAM becomes maximal aligned buddy blocks, per zone. */
static void make_free_blocks(struct gen *g)
{
	uint64_t pfn = 0;

	while (pfn < g->max_pfn) {
		uint64_t end = pfn;

		if (g->pi[pfn].cat != PC_UNCLAIMED || !pfn_is_ram(g, pfn)) {
			pfn++;
			continue;
		}
		while (end < g->max_pfn && g->pi[end].cat == PC_UNCLAIMED &&
		       pfn_is_ram(g, end) && zone_of(end) == zone_of(pfn))
			end++;
		while (pfn < end) {
			int order = MAX_BUDDY_ORDER;

			while ((pfn & ((1ULL << order) - 1)) ||
			       pfn + (1ULL << order) > end)
				order--;
			for (uint64_t i = 0; i < (1ULL << order); i++) {
				g->pi[pfn + i].cat = PC_FREE;
				g->pi[pfn + i].order = order;
				g->pi[pfn + i].flags |= i ? 0 : PI_HEAD;
			}
			pfn += 1ULL << order;
		}
	}
}

struct free_lists {
	uint64_t first[NR_ZONES][NR_FREE_ORDERS][NR_MIGRATE_TYPES];
	uint64_t last[NR_ZONES][NR_FREE_ORDERS][NR_MIGRATE_TYPES];
	uint64_t nr_free[NR_ZONES][NR_FREE_ORDERS];
	uint64_t free_pages[NR_ZONES];
};

static uint64_t pgdat_vaddr(const struct gen *g)
{
	return dm_vaddr(g, g->pgdat_paddr);
}

static uint64_t list_head_vaddr(const struct gen *g, int z, int order, int mt)
{
	return pgdat_vaddr(g) + z * ZONE_SIZE + ZONE_FREE_AREA +
	       order * FREE_AREA_SIZE + mt * 16;
}

static void link_free_block(struct gen *g, struct free_lists *fl,
			    uint64_t pfn, uint8_t *p)
{
	int z = zone_of(pfn), o = g->pi[pfn].order;
	int mt = g->pi[pfn].flags & PI_UNMOVABLE ? MIGRATE_UNMOVABLE
						 : MIGRATE_MOVABLE;
	uint64_t self = page_vaddr(g, pfn) + PG_OFF_LRU;
	uint64_t head = list_head_vaddr(g, z, o, mt);
	uint64_t last = fl->last[z][o][mt];

	put_le64(p + PG_OFF_LRU, head);
	put_le64(p + PG_OFF_LRU_PREV, last ? last : head);
	if (last)
		put_le64(memmap_ptr(g, (last - PG_OFF_LRU - g->vmemmap_base) /
				    STRUCT_PAGE_SIZE) + PG_OFF_LRU, self);
	else
		fl->first[z][o][mt] = self;
	fl->last[z][o][mt] = self;
	fl->nr_free[z][o]++;
	fl->free_pages[z] += 1ULL << o;
}

static uint64_t slab_cache_for(const struct gen *g, uint64_t pfn)
{
	for (int i = 0; i < g->nslab; i++)
		if (g->slab_pfn[i] == pfn)
			return g->slab_cache_ptr[g->slab_cache_of[i]];
	return g->slab_cache_ptr[SC_KMALLOC_256];
}

/* The first tail page carries the compound page's destructor and order. */
static void first_tail(uint8_t *p, int dtor, int order, uint32_t mapcount)
{
	p[16] = dtor;
	p[17] = order;
	p[18] = p[19] = 0;
	put_le32(p + 20, mapcount);
	put_le32(p + 24, 0);
	put_le32(p + 28, 1U << order);
}

static void make_page(struct gen *g, struct free_lists *fl, uint64_t pfn)
{
	struct pfn_info *pi = &g->pi[pfn];
	uint8_t *p = memmap_ptr(g, pfn);
	uint64_t self = page_vaddr(g, pfn);
	uint64_t flags = (uint64_t)zone_of(pfn) << ZONES_PGSHIFT |
			 LAST_CPUPID_NONE;
	uint64_t lru = self + PG_OFF_LRU, lru_prev = lru, mapping = 0;
	uint64_t index = 0, private = 0;
	uint32_t mapcount = MAPCOUNT_NONE, refcount = 1;
	uint64_t head_pfn = pfn & ~((1ULL << pi->order) - 1);

	memset(p, 0, STRUCT_PAGE_SIZE);
	switch ((enum page_cat)pi->cat) {
	case PC_RESERVED:
		flags |= BIT(PG_reserved);
		break;
	case PC_RESERVED_LRU:
		flags |= BIT(PG_reserved) | BIT(PG_lru);
		mapping = pi->flags & PI_FILE_MAPPING ? g->mapping_ptr[0] : 0;
		break;
	case PC_RESERVED_LRU_ANON:
		flags |= BIT(PG_reserved) | BIT(PG_lru) | BIT(PG_swapbacked);
		mapping = g->anon_vma_ptr[0] | 1;
		break;
	case PC_IMAGE_LRU:
		flags |= BIT(PG_lru);
		mapping = pi->flags & PI_FILE_MAPPING ? g->mapping_ptr[0] : 0;
		break;
	case PC_IMAGE_LRU_ANON:
		flags |= BIT(PG_lru) | BIT(PG_swapbacked);
		mapping = g->anon_vma_ptr[0] | 1;
		break;
	case PC_KERNEL:
	case PC_ZERO:
		lru = 0;
		lru_prev = LIST_POISON2;
		break;
	case PC_OFFLINE:
		lru = 0;
		lru_prev = LIST_POISON2;
		mapcount = MAPCOUNT_OFFLINE;
		break;
	case PC_HWPOISON:
		flags |= BIT(PG_hwpoison);
		break;
	case PC_FREE:
		refcount = 0;
		if (pi->flags & PI_HEAD) {
			mapcount = MAPCOUNT_BUDDY;
			private = pi->order;
			link_free_block(g, fl, pfn, p);
			lru = get_le64(p + PG_OFF_LRU);
			lru_prev = get_le64(p + PG_OFF_LRU_PREV);
		}
		break;
	case PC_CACHE:
		flags |= BIT(PG_referenced) | BIT(PG_uptodate) | BIT(PG_lru);
		mapping = g->mapping_ptr[0];
		index = pfn & 0xfff;
		break;
	case PC_CACHE_PRIVATE:
		flags |= BIT(PG_uptodate) | BIT(PG_lru) | BIT(PG_private);
		mapping = g->mapping_ptr[3];
		index = pfn & 0xfff;
		private = g->buffer_head_ptr + 0x68 * (pfn & 31);
		refcount = 2;
		break;
	case PC_SHMEM:
		flags |= BIT(PG_uptodate) | BIT(PG_dirty) | BIT(PG_lru) |
			 BIT(PG_swapbacked);
		mapping = g->mapping_ptr[1];
		index = pfn & 0xfff;
		mapcount = 0;
		refcount = 2;
		break;
	case PC_SWAPCACHE:
		/* freshly read from swap: odd ones still in a per-cpu LRU batch */
		flags |= BIT(PG_uptodate) | BIT(PG_swapbacked) |
			 BIT(PG_swapcache) | (pfn & 1 ? 0 : BIT(PG_lru));
		private = 0x40000 + (pfn & 0xffff);
		break;
	case PC_ANON:
		flags |= BIT(PG_referenced) | BIT(PG_uptodate) | BIT(PG_lru) |
			 BIT(PG_active) | BIT(PG_swapbacked);
		mapping = g->anon_vma_ptr[0] | 1;
		index = 0x7f0000000ULL + (pfn & 0xffff);
		mapcount = 0;
		break;
	case PC_SLAB:
		flags |= BIT(PG_slab);
		lru = 0;
		lru_prev = LIST_POISON2;
		mapping = slab_cache_for(g, pfn);
		private = 0x100010;	/* counters: inuse 16, objects 16 */
		break;
	case PC_COMPOUND_ANON:
	case PC_COMPOUND_CACHE:
	case PC_COMPOUND_SLAB:
	case PC_COMPOUND_KERNEL:
	case PC_HUGETLB:
		if (pi->flags & PI_TAIL) {
			uint64_t h = page_vaddr(g, head_pfn);

			lru = h | 1;
			lru_prev = LIST_POISON2;
			mapping = TAIL_MAPPING;
			refcount = 0;
			break;
		}
		flags |= BIT(PG_head);
		lru = 0;
		lru_prev = LIST_POISON2;
		if (pi->cat == PC_COMPOUND_ANON) {
			flags |= BIT(PG_uptodate) | BIT(PG_lru) |
				 BIT(PG_active) | BIT(PG_swapbacked);
			mapping = g->anon_vma_ptr[1] | 1;
			index = 0x7f1000000ULL >> PAGE_SHIFT;
		} else if (pi->cat == PC_COMPOUND_CACHE) {
			flags |= BIT(PG_uptodate) | BIT(PG_lru) |
				 BIT(PG_swapbacked);
			mapping = g->mapping_ptr[1];
			index = 0x200;
		} else if (pi->cat == PC_COMPOUND_SLAB) {
			flags |= BIT(PG_slab);
			mapping = slab_cache_for(g, pfn);
			private = 0x200020;
		} else if (pi->cat == PC_HUGETLB) {
			flags |= BIT(PG_uptodate);
			mapping = g->mapping_ptr[2];
		}
		break;
	case PC_NONE:
	case PC_UNCLAIMED:
	case PC_NR:
		die("internal: pfn %#" PRIx64 " left as %s", pfn,
		    cat_name(pi->cat));
	}

	put_le64(p + PG_OFF_FLAGS, flags);
	put_le64(p + PG_OFF_LRU, lru);
	put_le64(p + PG_OFF_LRU_PREV, lru_prev);
	put_le64(p + PG_OFF_MAPPING, mapping);
	put_le64(p + PG_OFF_INDEX, index);
	put_le64(p + PG_OFF_PRIVATE, private);
	put_le32(p + PG_OFF_MAPCOUNT, mapcount);
	put_le32(p + PG_OFF_REFCOUNT, refcount);

	if ((pi->flags & PI_TAIL) && pfn == head_pfn + 1) {
		int dtor = COMPOUND_PAGE_DTOR;
		uint32_t cmap = MAPCOUNT_NONE;

		if (pi->cat == PC_HUGETLB) {
			dtor = HUGETLB_PAGE_DTOR;
			cmap = 0;
		} else if (pi->cat == PC_COMPOUND_ANON ||
			   pi->cat == PC_COMPOUND_CACHE) {
			dtor = TRANSHUGE_PAGE_DTOR;
			cmap = 0;
		}
		first_tail(p, dtor, pi->order, cmap);
	}
}

static void finish_lists(struct gen *g, struct free_lists *fl)
{
	for (int z = 0; z < NR_ZONES; z++)
		for (int o = 0; o < NR_FREE_ORDERS; o++)
			for (int mt = 0; mt < NR_MIGRATE_TYPES; mt++) {
				uint64_t head = list_head_vaddr(g, z, o, mt);
				uint64_t first = fl->first[z][o][mt];
				uint64_t last = fl->last[z][o][mt];

				kv_write64(g, head, first ? first : head);
				kv_write64(g, head + 8, last ? last : head);
			}
}

static void write_zones(struct gen *g, struct free_lists *fl)
{
	uint64_t pgdat = pgdat_vaddr(g), node_present = 0;
	int nr_zones = 0;

	for (int z = 0; z < NR_ZONES; z++) {
		uint64_t zone = pgdat + z * ZONE_SIZE;
		uint64_t present = 0, reserved = 0;

		g->zone_start[z] = g->zone_end[z] = 0;
		for (uint64_t pfn = 0; pfn < g->max_pfn; pfn++) {
			if (!pfn_is_ram(g, pfn) || zone_of(pfn) != z)
				continue;
			if (!present)
				g->zone_start[z] = pfn;
			g->zone_end[z] = pfn + 1;
			present++;
			reserved += g->pi[pfn].cat == PC_RESERVED;
		}
		kv_write64(g, zone + ZONE_PGDAT, pgdat);
		kv_write64(g, zone + ZONE_NAME, zone_name_vaddr(g, z));
		if (!present)
			continue;
		nr_zones = z + 1;
		node_present += present;
		kv_write64(g, zone + ZONE_START_PFN, g->zone_start[z]);
		kv_write64(g, zone + ZONE_MANAGED, present - reserved);
		kv_write64(g, zone + ZONE_SPANNED,
			   g->zone_end[z] - g->zone_start[z]);
		kv_write64(g, zone + ZONE_PRESENT, present);
		kv_write64(g, zone + ZONE_PRESENT_EARLY, present);
		for (int o = 0; o < NR_FREE_ORDERS; o++)
			kv_write64(g, zone + ZONE_FREE_AREA + o * FREE_AREA_SIZE +
				   FREE_AREA_NR_FREE, fl->nr_free[z][o]);
		kv_write64(g, zone + ZONE_VM_STAT, fl->free_pages[z]);
	}
	kv_write64(g, pgdat + PGDAT_NR_ZONES, nr_zones);
	kv_write64(g, pgdat + PGDAT_START_PFN, g->zone_start[0]);
	kv_write64(g, pgdat + PGDAT_PRESENT, node_present);
	kv_write64(g, pgdat + PGDAT_SPANNED, g->max_pfn - g->zone_start[0]);
	kv_write64(g, pgdat + PGDAT_NODE_ID, 0);
}

/*
 * mem_section_usage: subsection_map has a bit per 2 MiB with RAM; each
 * pageblock gets MIGRATE_MOVABLE, or UNMOVABLE when it holds reserved RAM.
 */
static void write_usage(struct gen *g)
{
	uint64_t usage_pa;

	for (uint64_t s = 0; s < g->nsections; s++) {
		uint64_t first = s * PAGES_PER_SECTION, map = 0;
		uint8_t flags[32] = { 0 };
		uint64_t ms;

		if (!g->memmap_paddr[s])
			continue;
		ms = get_le64(phys_ptr(g, g->mem_section_root - g->page_offset +
				       8 * (s / SECTIONS_PER_ROOT), 8)) -
		     g->page_offset + (s % SECTIONS_PER_ROOT) * MEM_SECTION_SIZE;
		usage_pa = get_le64(phys_ptr(g, ms + 8, 8)) - g->page_offset;
		for (int b = 0; b < 64; b++) {
			bool ram = false, reserved = false;

			for (uint64_t pfn = first + b * PAGEBLOCK_PAGES;
			     pfn < first + (b + 1) * PAGEBLOCK_PAGES; pfn++) {
				ram |= pfn_is_ram(g, pfn);
				reserved |= pfn_is_ram(g, pfn) &&
					    g->pi[pfn].cat == PC_RESERVED;
			}
			if (ram)
				map |= 1ULL << b;
			flags[b / 2] |= (reserved ? MIGRATE_UNMOVABLE
						  : MIGRATE_MOVABLE) << (4 * (b % 2));
		}
		put_le64(phys_ptr(g, usage_pa + 16, 8), map);
		memcpy(phys_ptr(g, usage_pa + 24, 32), flags, 32);
	}
}

void mm_finish(struct gen *g)
{
	struct free_lists *fl = xcalloc(1, sizeof(*fl));

	make_free_blocks(g);
	for (uint64_t s = 0; s < g->nsections; s++) {
		if (!g->memmap_paddr[s])
			continue;
		for (uint64_t pfn = s * PAGES_PER_SECTION;
		     pfn < (s + 1) * PAGES_PER_SECTION; pfn++)
			make_page(g, fl, pfn);
	}
	finish_lists(g, fl);
	write_zones(g, fl);
	write_usage(g);
	free(fl);
}
