/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mkvmcore: builds a small x86_64 ELF vmcore that looks the way Linux 6.1
 * presents its memory after a crash (kexec's /proc/vmcore or QEMU's
 * dump-guest-memory), together with the ground truth the tests need.
 *
 * The generator models one NUMA node, SPARSEMEM_VMEMMAP with
 * SPARSEMEM_EXTREME, 4 KiB pages and the 6.1 struct layouts as exported in
 * VMCOREINFO.  Physical memory is held in a sparse store of 2 MiB chunks so
 * that a 16 GiB machine costs only the pages that are actually written.
 */
#ifndef MKVMCORE_H
#define MKVMCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PAGE_SHIFT		12
#define PAGE_SIZE		((uint64_t)1 << PAGE_SHIFT)
#define PMD_SIZE		((uint64_t)1 << 21)
#define CHUNK_SHIFT		21	/* granule of the physical memory store */
#define CHUNK_SIZE		((uint64_t)1 << CHUNK_SHIFT)
#define PUD_SIZE		((uint64_t)1 << 30)
#define START_KERNEL_MAP	0xffffffff80000000ULL
#define KERNEL_IMAGE_SIZE	((uint64_t)1 << 30)

#define SECTION_SIZE_BITS	27
#define PAGES_PER_SECTION	((uint64_t)1 << (SECTION_SIZE_BITS - PAGE_SHIFT))
#define STRUCT_PAGE_SIZE	64
#define SECTION_MEMMAP_SIZE	(PAGES_PER_SECTION * STRUCT_PAGE_SIZE)
#define NR_FREE_ORDERS		11	/* LENGTH(zone.free_area) */
#define MAX_BUDDY_ORDER		(NR_FREE_ORDERS - 1)
#define NR_MIGRATE_TYPES	5	/* LENGTH(free_area.free_list) */
#define NR_ZONES		5	/* DMA, DMA32, Normal, Movable, Device */

/* x86 page-table entry bits */
#define PTE_PRESENT	0x001ULL
#define PTE_RW		0x002ULL
#define PTE_ACCESSED	0x020ULL
#define PTE_DIRTY	0x040ULL
#define PTE_PSE		0x080ULL
#define PTE_GLOBAL	0x100ULL
#define PTE_NX		((uint64_t)1 << 63)
#define PTE_ADDR_MASK	0x000ffffffffff000ULL
#define KERNPG_TABLE	(PTE_PRESENT | PTE_RW | PTE_ACCESSED | PTE_DIRTY)

#define KSYM_TOKEN_MAX	128	/* longest kallsyms token, with its NUL */
#define MAX_RANGES	16
#define MAX_HOLES	8

enum layout { LAYOUT_KEXEC, LAYOUT_QEMU };

/* The BTFs of the --amdgpu layout: vmlinux's, then modules' split BTF. */
enum btf_unit { BTF_VMLINUX, BTF_DRM, BTF_AMDGPU, BTF_SHMEM, BTF_NR };

enum ksym_enc {
	KSYM_ABS_PERCPU,
	KSYM_BASE_RELATIVE,
	KSYM_PLACE_RELATIVE,
	KSYM_ABSOLUTE,
};

/* What a pfn holds, in the kernel's terms; see cat_name() for the names. */
enum page_cat {
	PC_NONE,		/* no struct page: outside every present section */
	PC_UNCLAIMED,		/* RAM nobody uses yet: becomes a free buddy page */
	PC_RESERVED,		/* PG_reserved: memblock, kernel image, holes */
	PC_KERNEL,		/* allocated kernel page */
	PC_ZERO,		/* allocated kernel page that holds only zeros */
	PC_FREE,		/* in a buddy free block */
	PC_CACHE,
	PC_CACHE_PRIVATE,
	PC_SHMEM,
	PC_SWAPCACHE,
	PC_ANON,
	PC_SLAB,
	PC_HWPOISON,
	PC_OFFLINE,
	PC_COMPOUND_ANON,	/* anonymous THP */
	PC_COMPOUND_CACHE,	/* file THP */
	PC_COMPOUND_SLAB,
	PC_COMPOUND_KERNEL,
	PC_HUGETLB,
	PC_RESERVED_LRU,	/* PG_reserved with PG_lru (no mapping or a file's) */
	PC_RESERVED_LRU_ANON,	/* PG_reserved with PG_lru and an anonymous mapping */
	PC_IMAGE_LRU,		/* a page of the image with PG_lru, not PG_reserved */
	PC_IMAGE_LRU_ANON,	/* the same with an anonymous mapping */
	PC_NR
};

/* Bits of struct page's flags (6.1's enum pageflags, those the generator sets). */
enum {
	PG_referenced = 1, PG_uptodate = 2, PG_dirty = 3, PG_lru = 4,
	PG_active = 5, PG_slab = 9, PG_swapcache = 10, PG_reserved = 12,
	PG_private = 13, PG_head = 16, PG_swapbacked = 19, PG_hwpoison = 23,
};

/* makedumpfile's dump-level bits, plus one for "excluded at every level" */
#define DL_ZERO		0x01
#define DL_CACHE	0x02
#define DL_CACHE_PRI	0x04
#define DL_USER		0x08
#define DL_FREE		0x10
#define DL_ALWAYS	0x100

#define PI_HEAD		0x01	/* first page of a buddy block or compound page */
#define PI_TAIL		0x02	/* compound tail */
#define PI_UNMOVABLE	0x04	/* free block sits on the MIGRATE_UNMOVABLE list */
#define PI_RAM		0x08	/* a whole page of RAM in the kernel's memory map */
#define PI_FILE_MAPPING	0x10	/* PC_RESERVED_LRU, PC_IMAGE_LRU: mapping is an address_space */

struct pfn_info {
	uint8_t cat;
	uint8_t order;		/* of the block or compound page, on its head */
	uint8_t flags;
	uint8_t marker;		/* index into the marker table, 0 = none */
};

struct range {
	uint64_t start, end;	/* [start, end) */
};

struct ksym {
	char *name;
	char type;
	uint64_t addr;
	int input_pos;		/* tie-breaker, as scripts/kallsyms keeps nm order */
};

struct vtop_sample {
	uint64_t vaddr;
	const char *region;
};

/* A --pages "lru" line, applied once the image is laid out: SYMBOL names a page of it. */
struct lru_mark {
	char symbol[64];	/* empty: pfn is the first pfn */
	uint64_t pfn;		/* the first pfn, or pages past SYMBOL's page */
	uint64_t count;
	int mapping;		/* 0 none, 1 a file's, 2 anonymous */
	bool unreserved;	/* PG_reserved cleared too (image pages only) */
	int lineno;
};

#define MAX_LRU_MARKS	16

struct marker_kind {
	const char *kind;	/* name used in the facts file */
	const char *text;	/* bytes at the start of such a page */
};

struct gen {
	/* options */
	const char *out_path, *facts_path, *kallsyms_path, *pages_path;
	const char *vmcoreinfo_path, *osrelease;
	const char *vmlinux_path;	/* --vmlinux */
	enum layout layout;
	uint64_t ram_size;
	struct range holes[MAX_HOLES];
	int nholes;
	struct range crashkernel;	/* reserved RAM kept out of a kdump */
	bool sparse;
	int levels;
	enum ksym_enc enc;
	bool kaslr_given;
	uint64_t kaslr;
	uint64_t kernel_phys;
	uint64_t seed;
	int ncpus;
	int64_t crashtime;
	bool amdgpu;		/* --amdgpu: tasks, DRM, GPU buffers, modules */
	bool no_build_id;	/* --no-build-id: none in VMCOREINFO nor the vmlinux */
	const char *vmcoreinfo_drop[16];	/* --vmcoreinfo-drop: line prefixes left out */
	int nvmcoreinfo_drop;
	struct lru_mark lru[MAX_LRU_MARKS];	/* --pages "lru" lines */
	int nlru;

	/* physical memory: the kernel's RAM and what the dump file holds */
	struct range ram[MAX_RANGES];
	int nram;
	struct range file[MAX_RANGES];
	int nfile;
	uint64_t max_pfn;	/* end of RAM */
	uint64_t npfns;		/* size of pi[] */
	struct pfn_info *pi;
	uint8_t **chunk;	/* 2 MiB pieces of physical memory, lazily made */
	uint64_t nchunks;
	uint64_t alloc_cursor;	/* top-down allocation never goes above it */

	/* kernel virtual layout */
	uint64_t page_offset, vmalloc_base, vmemmap_base;
	uint64_t text_vaddr, image_end, phys_base;
	uint64_t pgd_paddr;
	uint64_t max_physmem_bits;

	/* kernel image symbols */
	struct ksym *syms;
	size_t nsyms, syms_cap;
	size_t names_len;	/* of kallsyms_names */
	char token_table[256][KSYM_TOKEN_MAX];
	uint16_t token_index[256];
	size_t token_table_len;

	/* mm */
	uint64_t nsections;
	uint64_t *memmap_paddr;	/* per section, 0 when not present */
	uint64_t mem_section_root;	/* vaddr of the root array */
	uint64_t nr_section_roots;
	uint64_t pgdat_paddr;
	uint64_t zone_start[NR_ZONES], zone_end[NR_ZONES];
	uint64_t slab_cache_ptr[8];	/* kmem_cache objects for slab pages */
	uint64_t slab_pfn[8];		/* slab pages the generator uses */
	uint8_t slab_cache_of[8];
	int nslab;
	uint64_t mapping_ptr[4];	/* address_space objects */
	uint64_t anon_vma_ptr[2];
	uint64_t buffer_head_ptr;

	/* vmalloc test mapping */
	uint64_t vmalloc_vaddr;
	int vmalloc_npages;
	uint64_t vmalloc_pfn[8];

	/* facts gathered on the way */
	struct vtop_sample vtops[32];
	int nvtops;
	uint64_t vtop_fail[8];
	int nvtop_fail;
	uint8_t dm_sampled;		/* page sizes of the direct map noted */
	char *dmesg;			/* what --dump-dmesg should print */
	size_t dmesg_len;

	char *vmcoreinfo;
	size_t vmcoreinfo_len;
	uint8_t build_id[20];		/* the kernel's, BUILD_ID_SIZE_MAX bytes */

	/* --amdgpu: raw BTF, and what gen_gpu.c built */
	void *btf[BTF_NR];
	uint32_t btf_size[BTF_NR];
	struct gpu_state *gpu;
};

enum marker_id {
	MK_NONE, MK_ANON, MK_PAGECACHE, MK_VGEM, MK_KERNEL, MK_FREE,
	MK_PRIVCACHE, MK_SWAPCACHE, MK_SLAB, MK_HWPOISON, MK_OFFLINE,
	MK_HUGETLB, MK_COMPOUND, MK_VMALLOC, MK_LOWMEM,
	MK_NR_DEFAULT,		/* the kinds every dump's facts list */
	MK_AMDGPU = MK_NR_DEFAULT, MK_STACK, MK_NR
};

extern const struct marker_kind marker_kinds[MK_NR];

/* mkvmcore.c */
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
uint64_t rng_next(uint64_t *state);
void put_le16(uint8_t *p, uint16_t v);
void put_le32(uint8_t *p, uint32_t v);
void put_le64(uint8_t *p, uint64_t v);
uint64_t get_le64(const uint8_t *p);
void put_be16(uint8_t *p, uint16_t v);
void put_be32(uint8_t *p, uint32_t v);
void put_be64(uint8_t *p, uint64_t v);
uint64_t get_be64(const uint8_t *p);
uint64_t parse_num(const char *s, const char *what);
const char *cat_name(enum page_cat cat);
unsigned int cat_exclusion(enum page_cat cat);

/* gen_arch_common.c: what the arm64, ppc64, riscv64 and s390x generators share */
#define VTOP_MAX_FACTS 96
#define VTOP_MAX_FAILS 32

/* The --facts file's vtop and vtop_fail lines, in the order they were stated. */
struct vtop_facts {
	struct {
		uint64_t vaddr, paddr;
	} facts[VTOP_MAX_FACTS];
	int nfacts;
	uint64_t fails[VTOP_MAX_FAILS];
	int nfails;
};

void vtop_fact(struct vtop_facts *v, uint64_t vaddr, uint64_t paddr);
void vtop_fail(struct vtop_facts *v, uint64_t vaddr);
void vtop_facts_write(FILE *f, const struct vtop_facts *v);
size_t vmcoreinfo_note(uint8_t *p, const char *text, size_t len, bool big_endian);

#define ELF_MAX_LOADS 3

/* A PT_LOAD: @size bytes of @mem at physical @paddr, at virtual @vaddr (0: none said). */
struct elf_load {
	uint64_t vaddr, paddr, size;
	const uint8_t *mem;
};

/*
 * An ELF vmcore for @machine, in @big_endian order: @notes (none when
 * @notes_len is 0), then @loads' memory one after the other, each of the
 * two from a boundary of @page_size, zero pages left as holes;
 * @load_align is every PT_LOAD's p_align.
 */
void write_elf_vmcore(const char *path, uint16_t machine, bool big_endian, uint64_t page_size,
		      uint64_t load_align, const uint8_t *notes, uint64_t notes_len,
		      const struct elf_load *loads, int nloads);
void write_file_or_die(const char *path, const void *buf, size_t len);

/* gen_ram.c: physical memory, allocators */
void ram_init(struct gen *g);
bool pfn_is_ram(const struct gen *g, uint64_t pfn);
uint8_t *phys_ptr(struct gen *g, uint64_t paddr, size_t len);
void phys_write(struct gen *g, uint64_t paddr, const void *buf, size_t len);
const uint8_t *phys_peek(const struct gen *g, uint64_t paddr);
bool page_is_zero(const struct gen *g, uint64_t pfn);
void claim(struct gen *g, uint64_t pfn, uint64_t count, enum page_cat cat);
uint64_t memblock_alloc(struct gen *g, uint64_t size, uint64_t align);
uint64_t page_alloc(struct gen *g, enum page_cat cat);
uint64_t pages_alloc(struct gen *g, uint64_t npages, uint64_t align_pages,
		     enum page_cat cat);
void fill_marker_page(struct gen *g, uint64_t pfn, int marker);

/* gen_pgtable.c */
void pt_link_table(struct gen *g, uint64_t table_paddr, int index,
		   uint64_t child_paddr);
void pt_map(struct gen *g, uint64_t vaddr, uint64_t paddr, uint64_t size,
	    uint64_t prot, bool late);
void pt_map_direct(struct gen *g);
void pt_split_2m(struct gen *g, uint64_t vaddr);
void pt_unmap_4k(struct gen *g, uint64_t vaddr);
bool pt_walk(const struct gen *g, uint64_t vaddr, uint64_t *paddr,
	     uint64_t *pagesize);
void kv_write(struct gen *g, uint64_t vaddr, const void *buf, size_t len);
void kv_write64(struct gen *g, uint64_t vaddr, uint64_t val);
uint64_t dm_vaddr(const struct gen *g, uint64_t paddr);
void note_vtop(struct gen *g, uint64_t vaddr, const char *region);
void note_vtop_fail(struct gen *g, uint64_t vaddr);

/* gen_kallsyms.c */
size_t ksym_add(struct gen *g, const char *name, char type);
struct ksym *ksym_find(struct gen *g, const char *name);
uint64_t ksym_addr(struct gen *g, const char *name);
void kallsyms_compress(struct gen *g);
size_t kallsyms_table_size(const struct gen *g, const char *table);
void kallsyms_emit(struct gen *g);
void kallsyms_write_list(struct gen *g, FILE *f);

/* gen_image.c: kernel image layout, symbols and static data */
void image_layout(struct gen *g);
void image_map(struct gen *g);
void image_free_init(struct gen *g);
void image_fill(struct gen *g);
uint64_t zone_name_vaddr(struct gen *g, int zone);

/* gen_mm.c */
void mm_parse_spec(struct gen *g);
void mm_apply_lru(struct gen *g);
void mm_setup(struct gen *g);
void mm_late_alloc(struct gen *g);
void mm_finish(struct gen *g);

/* gen_printk.c */
size_t printk_static_size(void);
void printk_fill(struct gen *g);

/*
 * gen_btf.c: the --amdgpu layout's BTF, and enum pageflags where a --pages
 * "lru" line needs PG_reserved told (vmlinux's BTF has it; VMCOREINFO not)
 */
void btf_build(struct gen *g);
uint32_t bt_size(const char *type);
uint32_t bt_off(const char *type, const char *path);
/* "btf_type NAME SIZE" and "btf_member NAME.MEMBER OFFSET SIZE" of vmlinux's named types */
void btf_write_facts(FILE *f);

/* gen_gpu.c: the --amdgpu layout */
void gpu_build(struct gen *g);
void gpu_write_facts(struct gen *g, FILE *f);
void gpu_write_kallsyms(struct gen *g, FILE *f);
void gpu_free(struct gen *g);

/* gen_arm64.c: mkvmcore --arch arm64, a dump for translation alone */
int arm64_main(int argc, char **argv);

/* gen_ppc64.c: mkvmcore --arch ppc64, a dump for translation alone */
int ppc64_main(int argc, char **argv);
/* gen_riscv64.c: mkvmcore --arch riscv64, a dump for translation and the VMCOREINFO search */
int riscv64_main(int argc, char **argv);
/* gen_s390x.c: mkvmcore --arch s390x, a big-endian dump for translation and the VMCOREINFO search */
int s390x_main(int argc, char **argv);

/* gen_elf.c */
void vmcoreinfo_build(struct gen *g);
void elf_write(struct gen *g);

/* gen_vmlinux.c */
void vmlinux_write(struct gen *g);

#endif
