// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkvmcore: command line, the machine's physical layout, address-space
 * randomization, and the ground-truth files (--facts, --kallsyms-out).
 *
 * The order of the steps in main() follows a kernel's boot: memory layout,
 * kernel image, early page tables and memblock allocations, then the buddy
 * allocator takes over and the crash freezes everything.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

const struct marker_kind marker_kinds[MK_NR] = {
	[MK_ANON] = { "anon", "!QAZXSW@#EDC" },
	[MK_PAGECACHE] = { "pagecache", "%PAGECACHE%" },
	[MK_VGEM] = { "vgem", "@GPUBUF#vgem!" },
	[MK_KERNEL] = { "kernel", "#MKV-KERNEL#" },
	[MK_FREE] = { "free", "#MKV-FREE#" },
	[MK_PRIVCACHE] = { "cache_private", "#MKV-PRIVCACHE#" },
	[MK_SWAPCACHE] = { "swapcache", "#MKV-SWAPCACHE#" },
	[MK_SLAB] = { "slab", "#MKV-SLAB#" },
	[MK_HWPOISON] = { "hwpoison", "#MKV-HWPOISON#" },
	[MK_OFFLINE] = { "offline", "#MKV-OFFLINE#" },
	[MK_HUGETLB] = { "hugetlb", "#MKV-HUGETLB#" },
	[MK_COMPOUND] = { "compound", "#MKV-COMPOUND#" },
	[MK_VMALLOC] = { "vmalloc", "#MKV-VMALLOC#" },
	[MK_LOWMEM] = { "lowmem", "#MKV-LOWMEM#" },
	[MK_AMDGPU] = { "amdgpu", "@GPUBUF#amdgpu!" },
	[MK_STACK] = { "stack", "#MKV-USERSTACK#" },
};

void die(const char *fmt, ...)
{
	va_list ap;

	fputs("mkvmcore: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

/* splitmix64: tiny, and good enough to make layouts look arbitrary */
uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The dump is little-endian whatever the host is. */
void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = v;
	p[1] = v >> 8;
}

void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = v >> (8 * i);
}

void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = v >> (8 * i);
}

uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

uint64_t get_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static const char *const cat_names[PC_NR] = {
	[PC_NONE] = "nomap",
	[PC_UNCLAIMED] = "unclaimed",
	[PC_RESERVED] = "reserved",
	[PC_KERNEL] = "kernel",
	[PC_ZERO] = "zero",
	[PC_FREE] = "free",
	[PC_CACHE] = "cache",
	[PC_CACHE_PRIVATE] = "cache_private",
	[PC_SHMEM] = "shmem",
	[PC_SWAPCACHE] = "swapcache",
	[PC_ANON] = "anon",
	[PC_SLAB] = "slab",
	[PC_HWPOISON] = "hwpoison",
	[PC_OFFLINE] = "offline",
	[PC_COMPOUND_ANON] = "compound_anon",
	[PC_COMPOUND_CACHE] = "compound_cache",
	[PC_COMPOUND_SLAB] = "compound_slab",
	[PC_COMPOUND_KERNEL] = "compound_kernel",
	[PC_HUGETLB] = "hugetlb",
	[PC_RESERVED_LRU] = "reserved_lru",
	[PC_RESERVED_LRU_ANON] = "reserved_lru_anon",
	[PC_IMAGE_LRU] = "image_lru",
	[PC_IMAGE_LRU_ANON] = "image_lru_anon",
};

const char *cat_name(enum page_cat cat)
{
	return cat_names[cat];
}

/*
 * Which dump-level bits drop a page of this kind, by the kernel's meaning
 * of the kind (makedumpfile's rules: page cache is LRU or swap cache and not
 * anonymous; PG_private cache only goes with bit 4; hugetlb is user data
 * through its compound destructor; hwpoison and offline pages never go to
 * the dump).  Zero content adds DL_ZERO separately.
 */
unsigned int cat_exclusion(enum page_cat cat)
{
	switch (cat) {
	case PC_FREE:
		return DL_FREE;
	case PC_CACHE:
	case PC_SHMEM:
	case PC_SWAPCACHE:
	case PC_COMPOUND_CACHE:
	case PC_RESERVED_LRU:
	case PC_IMAGE_LRU:
		return DL_CACHE | DL_CACHE_PRI;
	case PC_CACHE_PRIVATE:
		return DL_CACHE_PRI;
	case PC_ANON:
	case PC_COMPOUND_ANON:
	case PC_HUGETLB:
	case PC_RESERVED_LRU_ANON:
	case PC_IMAGE_LRU_ANON:
		return DL_USER;
	case PC_HWPOISON:
	case PC_OFFLINE:
		return DL_ALWAYS;
	default:
		return 0;
	}
}

/* A number, with a K, M, G or T suffix for its binary multiple. */
uint64_t parse_num(const char *s, const char *what)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		die("bad %s: '%s'", what, s);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	case 't': case 'T': v <<= 40; end++; break;
	default: break;
	}
	if (*end)
		die("bad %s: '%s'", what, s);
	return v;
}

static struct range parse_range(char *arg, const char *what)
{
	char *colon = strchr(arg, ':');
	struct range r;

	if (!colon)
		die("%s START:SIZE", what);
	*colon = '\0';
	r.start = parse_num(arg, what);
	r.end = r.start + parse_num(colon + 1, what);
	return r;
}

static void usage(FILE *f)
{
	fputs(
"usage: mkvmcore [options] OUT.elf\n"
"  --layout kexec|qemu     ELF as kexec's /proc/vmcore (default) or QEMU's\n"
"                          dump-guest-memory (>= 7.2)\n"
"  --ram SIZE              guest RAM, e.g. 64M (default), 16G\n"
"  --hole START:SIZE       take a range out of RAM (repeatable)\n"
"  --crashkernel START:SIZE  reserved RAM that a kdump (kexec layout) leaves\n"
"                          out of the file, as crashkernel= does\n"
"  --sparse                do not write zero pages (sparse file)\n"
"  --paging 4|5            page-table levels (default 4)\n"
"  --kallsyms abs-percpu|base-relative|place-relative|absolute\n"
"  --kaslr OFFSET          kernel image offset, 2 MiB aligned; 0 = nokaslr\n"
"                          (default: chosen from --seed)\n"
"  --kernel-phys ADDR      physical load address of _text (default 16M)\n"
"  --seed N                seed for everything arbitrary (default 1)\n"
"  --pages SPECFILE        page categories (default: built-in mix)\n"
"  --cpus N                number of CPUs (default 2)\n"
"  --osrelease STR         (default 6.1.0-mkvmcore)\n"
"  --crashtime N           CRASHTIME (kexec layout only)\n"
"  --facts FILE            ground truth, see tests/gen/README.md\n"
"  --kallsyms-out FILE     the kernel symbols in /proc/kallsyms form\n"
"  --vmcoreinfo-out FILE   the VMCOREINFO note text\n"
"  --vmlinux FILE          the kernel's vmlinux, with its symbols, build ID and\n"
"                          DWARF (tests/gen/vmlinux_types.h)\n"
"  --no-build-id           no BUILD-ID in VMCOREINFO, no build ID note in the vmlinux\n"
"  --vmcoreinfo-drop PREFIX  leave out VMCOREINFO's lines that start with PREFIX\n"
"                          (repeatable)\n"
"  --amdgpu                tasks with VMA maple trees, DRM devices and files,\n"
"                          amdgpu and drm-shmem buffers, the modules drm,\n"
"                          drm_shmem_helper and amdgpu with split BTF, vmlinux\n"
"                          BTF, a crashing CPU (see tests/gen/README.md)\n", f);
}

static void parse_options(struct gen *g, int argc, char **argv)
{
	enum { O_LAYOUT = 256, O_RAM, O_HOLE, O_CRASHK, O_SPARSE, O_PAGING, O_KALLSYMS,
	       O_KASLR, O_KPHYS, O_SEED, O_PAGES, O_CPUS, O_OSREL, O_CTIME,
	       O_FACTS, O_KSOUT, O_VIOUT, O_AMDGPU, O_VMLINUX, O_NO_BUILD_ID, O_VI_DROP, O_HELP };
	static const struct option opts[] = {
		{ "layout", required_argument, NULL, O_LAYOUT },
		{ "ram", required_argument, NULL, O_RAM },
		{ "hole", required_argument, NULL, O_HOLE },
		{ "crashkernel", required_argument, NULL, O_CRASHK },
		{ "sparse", no_argument, NULL, O_SPARSE },
		{ "paging", required_argument, NULL, O_PAGING },
		{ "kallsyms", required_argument, NULL, O_KALLSYMS },
		{ "kaslr", required_argument, NULL, O_KASLR },
		{ "kernel-phys", required_argument, NULL, O_KPHYS },
		{ "seed", required_argument, NULL, O_SEED },
		{ "pages", required_argument, NULL, O_PAGES },
		{ "cpus", required_argument, NULL, O_CPUS },
		{ "osrelease", required_argument, NULL, O_OSREL },
		{ "crashtime", required_argument, NULL, O_CTIME },
		{ "facts", required_argument, NULL, O_FACTS },
		{ "kallsyms-out", required_argument, NULL, O_KSOUT },
		{ "vmcoreinfo-out", required_argument, NULL, O_VIOUT },
		{ "amdgpu", no_argument, NULL, O_AMDGPU },
		{ "vmlinux", required_argument, NULL, O_VMLINUX },
		{ "no-build-id", no_argument, NULL, O_NO_BUILD_ID },
		{ "vmcoreinfo-drop", required_argument, NULL, O_VI_DROP },
		{ "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	g->layout = LAYOUT_KEXEC;
	g->ram_size = 64ULL << 20;
	g->levels = 4;
	g->enc = KSYM_ABS_PERCPU;
	g->kernel_phys = 16ULL << 20;
	g->seed = 1;
	g->ncpus = 2;
	g->osrelease = "6.1.0-mkvmcore";
	g->crashtime = 1796311127;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_LAYOUT:
			if (!strcmp(optarg, "kexec"))
				g->layout = LAYOUT_KEXEC;
			else if (!strcmp(optarg, "qemu"))
				g->layout = LAYOUT_QEMU;
			else
				die("--layout must be kexec or qemu");
			break;
		case O_RAM:
			g->ram_size = parse_num(optarg, "--ram");
			break;
		case O_HOLE:
			if (g->nholes == MAX_HOLES)
				die("at most %d --hole options", MAX_HOLES);
			g->holes[g->nholes++] = parse_range(optarg, "--hole");
			break;
		case O_CRASHK:
			g->crashkernel = parse_range(optarg, "--crashkernel");
			if ((g->crashkernel.start | g->crashkernel.end) &
			    (PAGE_SIZE - 1))
				die("--crashkernel must be page aligned");
			break;
		case O_SPARSE:
			g->sparse = true;
			break;
		case O_PAGING:
			g->levels = parse_num(optarg, "--paging");
			if (g->levels != 4 && g->levels != 5)
				die("--paging must be 4 or 5");
			break;
		case O_KALLSYMS:
			if (!strcmp(optarg, "abs-percpu"))
				g->enc = KSYM_ABS_PERCPU;
			else if (!strcmp(optarg, "base-relative"))
				g->enc = KSYM_BASE_RELATIVE;
			else if (!strcmp(optarg, "place-relative"))
				g->enc = KSYM_PLACE_RELATIVE;
			else if (!strcmp(optarg, "absolute"))
				g->enc = KSYM_ABSOLUTE;
			else
				die("unknown --kallsyms encoding '%s'", optarg);
			break;
		case O_KASLR:
			g->kaslr = parse_num(optarg, "--kaslr");
			g->kaslr_given = true;
			break;
		case O_KPHYS:
			g->kernel_phys = parse_num(optarg, "--kernel-phys");
			break;
		case O_SEED:
			g->seed = parse_num(optarg, "--seed");
			break;
		case O_PAGES:
			g->pages_path = optarg;
			break;
		case O_CPUS:
			g->ncpus = parse_num(optarg, "--cpus");
			if (g->ncpus < 1 || g->ncpus > 64)
				die("--cpus must be 1..64");
			break;
		case O_OSREL:
			g->osrelease = optarg;
			break;
		case O_CTIME:
			g->crashtime = parse_num(optarg, "--crashtime");
			break;
		case O_FACTS:
			g->facts_path = optarg;
			break;
		case O_KSOUT:
			g->kallsyms_path = optarg;
			break;
		case O_VIOUT:
			g->vmcoreinfo_path = optarg;
			break;
		case O_AMDGPU:
			g->amdgpu = true;
			break;
		case O_VMLINUX:
			g->vmlinux_path = optarg;
			break;
		case O_NO_BUILD_ID:
			g->no_build_id = true;
			break;
		case O_VI_DROP:
			if (g->nvmcoreinfo_drop == (int)(sizeof(g->vmcoreinfo_drop) / sizeof(g->vmcoreinfo_drop[0])))
				die("at most 16 --vmcoreinfo-drop options");
			g->vmcoreinfo_drop[g->nvmcoreinfo_drop++] = optarg;
			break;
		case O_HELP:
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		exit(2);
	}
	g->out_path = argv[optind];
	if (g->ram_size < (32ULL << 20) || g->ram_size > (1ULL << 42))
		die("--ram must be between 32M and 4T");
	if (g->kernel_phys & (PMD_SIZE - 1))
		die("--kernel-phys must be 2 MiB aligned");
}

/*
 * The image offset: with KASLR the kernel puts _text anywhere 2 MiB aligned
 * in the 1 GiB kernel-image window above its default place.
 */
static void choose_kaslr(struct gen *g, uint64_t *rng)
{
	uint64_t room = KERNEL_IMAGE_SIZE - (16ULL << 20) - (64ULL << 20);

	if (!g->kaslr_given)
		g->kaslr = (rng_next(rng) % (room / PMD_SIZE)) * PMD_SIZE;
	if (g->kaslr & (PMD_SIZE - 1) || g->kaslr >= room)
		die("--kaslr must be 2 MiB aligned and below %#" PRIx64, room);
	g->text_vaddr = START_KERNEL_MAP + (16ULL << 20) + g->kaslr;
	g->phys_base = g->kernel_phys - (g->text_vaddr - START_KERNEL_MAP);
}

/*
 * kernel_randomize_memory(): the direct map, vmalloc and vmemmap regions
 * each move up by a PUD-aligned random amount, sharing the free space of
 * the kernel half of the address space.  Without KASLR they keep their
 * fixed bases.
 */
static void randomize_memory(struct gen *g, uint64_t *rng)
{
	const uint64_t tb = 1ULL << 40;
	uint64_t vaddr_start, vaddr_end, size_tb[3], *base[3];
	uint64_t memory_tb, remain, vaddr;

	vaddr_start = g->levels == 5 ? 0xff11000000000000ULL
				     : 0xffff888000000000ULL;
	if (!g->kaslr) {
		g->page_offset = vaddr_start;
		g->vmalloc_base = g->levels == 5 ? 0xffa0000000000000ULL
						 : 0xffffc90000000000ULL;
		g->vmemmap_base = g->levels == 5 ? 0xffd4000000000000ULL
						 : 0xffffea0000000000ULL;
		return;
	}
	vaddr_end = 0xfffffe0000000000ULL;	/* CPU_ENTRY_AREA_BASE */
	memory_tb = ((g->max_pfn << PAGE_SHIFT) + tb - 1) / tb + 10;
	size_tb[0] = 1ULL << (g->max_physmem_bits - 40);
	if (memory_tb < size_tb[0])
		size_tb[0] = memory_tb;
	size_tb[1] = g->levels == 5 ? 12800 : 32;
	size_tb[2] = ((size_tb[0] << (40 - PAGE_SHIFT)) * STRUCT_PAGE_SIZE +
		      tb - 1) / tb;
	base[0] = &g->page_offset;
	base[1] = &g->vmalloc_base;
	base[2] = &g->vmemmap_base;

	remain = vaddr_end - vaddr_start;
	for (int i = 0; i < 3; i++)
		remain -= size_tb[i] * tb;
	vaddr = vaddr_start;
	for (int i = 0; i < 3; i++) {
		uint64_t entropy = remain / (3 - i);

		entropy = (rng_next(rng) % (entropy + 1)) & ~(PUD_SIZE - 1);
		vaddr += entropy;
		*base[i] = vaddr;
		vaddr += size_tb[i] * tb;
		vaddr = (vaddr + 1 + PUD_SIZE - 1) & ~(PUD_SIZE - 1);
		remain -= entropy;
	}
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die("%s: %s", path, strerror(errno));
	return f;
}

static void close_out(FILE *f, const char *path)
{
	if (ferror(f) | fclose(f))
		die("%s: write error", path);
}

static const char *const enc_names[] = {
	[KSYM_ABS_PERCPU] = "abs-percpu",
	[KSYM_BASE_RELATIVE] = "base-relative",
	[KSYM_PLACE_RELATIVE] = "place-relative",
	[KSYM_ABSOLUTE] = "absolute",
};

static const char *pagesize_name(uint64_t size)
{
	return size == PUD_SIZE ? "1g" : size == PMD_SIZE ? "2m" : "4k";
}

/*
 * Page runs: consecutive pfns of the dump with the same kind and the same
 * exclusion mask, so that a 16 GiB machine still gives a short list.
 */
static void write_page_runs(struct gen *g, FILE *f, uint64_t *dumpable)
{
	uint64_t run_start = 0, run_len = 0;
	unsigned int run_mask = 0;
	enum page_cat run_cat = PC_NONE;

	for (int r = 0; r < g->nfile; r++) {
		uint64_t first = (g->file[r].start + PAGE_SIZE - 1) >> PAGE_SHIFT;
		uint64_t last = g->file[r].end >> PAGE_SHIFT;

		/* makedumpfile treats a page the file only partly holds as
		 * having no data */
		if (g->file[r].start & (PAGE_SIZE - 1))
			fprintf(f, "partial %#" PRIx64 "\n", first - 1);
		if (g->file[r].end & (PAGE_SIZE - 1))
			fprintf(f, "partial %#" PRIx64 "\n", last);

		for (uint64_t pfn = first; pfn < last; pfn++) {
			enum page_cat cat = pfn < g->npfns ? g->pi[pfn].cat
							  : PC_NONE;
			unsigned int mask = cat_exclusion(cat) |
				(page_is_zero(g, pfn) ? DL_ZERO : 0);

			for (unsigned int level = 0; level < 32; level++)
				if (!(mask & (level | DL_ALWAYS)))
					dumpable[level]++;
			if (run_len && pfn == run_start + run_len &&
			    cat == run_cat && mask == run_mask) {
				run_len++;
				continue;
			}
			if (run_len)
				fprintf(f, "pages %#" PRIx64 " %" PRIu64
					" %s %#x\n", run_start, run_len,
					cat_name(run_cat), run_mask);
			run_start = pfn;
			run_len = 1;
			run_cat = cat;
			run_mask = mask;
		}
	}
	if (run_len)
		fprintf(f, "pages %#" PRIx64 " %" PRIu64 " %s %#x\n",
			run_start, run_len, cat_name(run_cat), run_mask);
}

static void write_facts(struct gen *g)
{
	FILE *f = open_out(g->facts_path);
	uint64_t dumpable[32] = { 0 };
	uint64_t pgd_vaddr = ksym_addr(g, "init_top_pgt");

	fprintf(f, "# mkvmcore facts v1\n");
	fprintf(f, "layout=%s\n", g->layout == LAYOUT_KEXEC ? "kexec" : "qemu");
	fprintf(f, "paging_levels=%d\n", g->levels);
	fprintf(f, "kallsyms_encoding=%s\n", enc_names[g->enc]);
	fprintf(f, "seed=%" PRIu64 "\n", g->seed);
	fprintf(f, "osrelease=%s\n", g->osrelease);
	fprintf(f, "ram_size=%#" PRIx64 "\n", g->ram_size);
	fprintf(f, "max_pfn=%#" PRIx64 "\n", g->max_pfn);
	fprintf(f, "kernel_offset=%#" PRIx64 "\n", g->kaslr);
	fprintf(f, "phys_base=%" PRId64 "\n", (int64_t)g->phys_base);
	fprintf(f, "kernel_phys=%#" PRIx64 "\n", g->kernel_phys);
	fprintf(f, "text_vaddr=%#" PRIx64 "\n", g->text_vaddr);
	fprintf(f, "image_end=%#" PRIx64 "\n", g->image_end);
	fprintf(f, "page_offset_base=%#" PRIx64 "\n", g->page_offset);
	fprintf(f, "vmalloc_base=%#" PRIx64 "\n", g->vmalloc_base);
	fprintf(f, "vmemmap_base=%#" PRIx64 "\n", g->vmemmap_base);
	fprintf(f, "init_top_pgt_vaddr=%#" PRIx64 "\n", pgd_vaddr);
	fprintf(f, "init_top_pgt_paddr=%#" PRIx64 "\n", g->pgd_paddr);
	fprintf(f, "mem_section=%#" PRIx64 "\n", g->mem_section_root);
	fprintf(f, "node_data0=%#" PRIx64 "\n", dm_vaddr(g, g->pgdat_paddr));
	fprintf(f, "num_syms=%zu\n", g->nsyms);
	fprintf(f, "vmalloc_vaddr=%#" PRIx64 "\n", g->vmalloc_vaddr);
	fprintf(f, "vmalloc_pages=%d\n", g->vmalloc_npages);

	for (int i = 0; i < g->nram; i++)
		fprintf(f, "ram %#" PRIx64 " %#" PRIx64 "\n",
			g->ram[i].start, g->ram[i].end);
	for (int i = 0; i < g->nfile; i++)
		fprintf(f, "file %#" PRIx64 " %#" PRIx64 "\n",
			g->file[i].start, g->file[i].end);
	if (g->crashkernel.end)
		fprintf(f, "crashkernel %#" PRIx64 " %#" PRIx64 "\n",
			g->crashkernel.start, g->crashkernel.end);
	for (uint64_t s = 0; s < g->nsections; s++)
		if (g->memmap_paddr[s])
			fprintf(f, "section %" PRIu64 " %#" PRIx64 " %#" PRIx64
				"\n", s, g->vmemmap_base +
				s * PAGES_PER_SECTION * STRUCT_PAGE_SIZE,
				g->memmap_paddr[s]);
	for (int z = 0; z < NR_ZONES; z++)
		if (g->zone_end[z] > g->zone_start[z])
			fprintf(f, "zone %d %#" PRIx64 " %#" PRIx64 "\n", z,
				g->zone_start[z], g->zone_end[z]);
	for (int i = 0; i < g->vmalloc_npages; i++)
		fprintf(f, "vmalloc_page %d %#" PRIx64 " %#" PRIx64 "\n", i,
			g->vmalloc_vaddr + i * PAGE_SIZE,
			g->vmalloc_pfn[i] << PAGE_SHIFT);
	for (int i = 0; i < g->nvtops; i++) {
		uint64_t pa, size;

		if (!pt_walk(g, g->vtops[i].vaddr, &pa, &size))
			die("internal: vtop sample %#" PRIx64 " unmapped",
			    g->vtops[i].vaddr);
		fprintf(f, "vtop %#" PRIx64 " %#" PRIx64 " %s %s\n",
			g->vtops[i].vaddr, pa, pagesize_name(size),
			g->vtops[i].region);
	}
	for (int i = 0; i < g->nvtop_fail; i++)
		fprintf(f, "vtop_fail %#" PRIx64 "\n", g->vtop_fail[i]);
	for (int m = 1; m < (g->amdgpu ? MK_NR : MK_NR_DEFAULT); m++)
		fprintf(f, "marker_text %s %s\n", marker_kinds[m].kind,
			marker_kinds[m].text);
	for (uint64_t pfn = 0; pfn < g->npfns; pfn++) {
		struct pfn_info *p = &g->pi[pfn];

		if (p->marker)
			fprintf(f, "marker %s %#" PRIx64 "\n",
				marker_kinds[p->marker].kind, pfn);
		if (p->cat == PC_FREE && (p->flags & PI_HEAD))
			fprintf(f, "freeblock %#" PRIx64 " %d %s\n", pfn,
				p->order, p->flags & PI_UNMOVABLE ?
				"unmovable" : "movable");
		if ((p->flags & PI_HEAD) && p->cat != PC_FREE)
			fprintf(f, "compound %#" PRIx64 " %d %s\n", pfn,
				p->order, cat_name(p->cat));
	}
	if (g->amdgpu) {
		gpu_write_facts(g, f);
		btf_write_facts(f);
	}
	for (char *line = g->dmesg, *nl; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		fprintf(f, "dmesg %.*s\n", (int)(nl - line), line);
	}
	write_page_runs(g, f, dumpable);
	for (unsigned int level = 0; level < 32; level++)
		fprintf(f, "dumpable %u %" PRIu64 "\n", level,
			dumpable[level]);
	close_out(f, g->facts_path);
}

static void gen_free(struct gen *g)
{
	for (uint64_t c = 0; c < g->nchunks; c++)
		free(g->chunk[c]);
	free(g->chunk);
	free(g->pi);
	free(g->memmap_paddr);
	for (size_t i = 0; i < g->nsyms; i++)
		free(g->syms[i].name);
	free(g->syms);
	free(g->vmcoreinfo);
	free(g->dmesg);
	gpu_free(g);
	free(g);
}

int main(int argc, char **argv)
{
	struct gen *g;
	uint64_t rng;

	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "--arch") && !strcmp(argv[i + 1], "arm64"))
			return arm64_main(argc, argv);
		else if (!strcmp(argv[i], "--arch") && !strcmp(argv[i + 1], "ppc64"))
			return ppc64_main(argc, argv);
		else if (!strcmp(argv[i], "--arch") && !strcmp(argv[i + 1], "riscv64"))
			return riscv64_main(argc, argv);
		else if (!strcmp(argv[i], "--arch") && !strcmp(argv[i + 1], "s390x"))
			return s390x_main(argc, argv);
	g = xcalloc(1, sizeof(*g));
	parse_options(g, argc, argv);
	rng = g->seed ^ 0x6d6b766d636f7265ULL;
	g->max_physmem_bits = g->levels == 5 ? 52 : 46;

	ram_init(g);
	choose_kaslr(g, &rng);
	randomize_memory(g, &rng);

	mm_parse_spec(g);
	if (g->amdgpu || g->nlru)
		btf_build(g);
	image_layout(g);
	image_map(g);
	pt_map_direct(g);
	mm_setup(g);
	image_free_init(g);
	mm_apply_lru(g);
	mm_late_alloc(g);
	image_fill(g);
	if (g->amdgpu)
		gpu_build(g);
	mm_finish(g);

	vmcoreinfo_build(g);
	elf_write(g);
	if (g->vmlinux_path)
		vmlinux_write(g);

	if (g->facts_path)
		write_facts(g);
	if (g->kallsyms_path) {
		FILE *f = open_out(g->kallsyms_path);

		kallsyms_write_list(g, f);
		if (g->amdgpu)
			gpu_write_kallsyms(g, f);
		close_out(f, g->kallsyms_path);
	}
	if (g->vmcoreinfo_path) {
		FILE *f = open_out(g->vmcoreinfo_path);

		fwrite(g->vmcoreinfo, 1, g->vmcoreinfo_len, f);
		close_out(f, g->vmcoreinfo_path);
	}
	gen_free(g);
	return 0;
}
