// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel image: where its symbols are, how it is mapped at
 * __START_KERNEL_map, and the static data other tools read from it.
 *
 * Layout, from _text (2 MiB aligned, 16 MiB + KASLR offset above
 * __START_KERNEL_map), each part starting on a 2 MiB boundary:
 *   text      _text == _stext == startup_64; a bit over 2 MiB, so that
 *             its first 2 MiB page stays whole; _etext not page aligned
 *   rodata    kallsyms tables, the *_base variables, BTF
 *   data      page tables, init_uts_ns, node_data, printk ring ...
 *             then init text (freed), then bss up to _end
 * As in a real kernel (mark_rodata_ro, free_initmem), the text/rodata and
 * rodata/data gaps and the init section are given back to the page
 * allocator, poisoned with 0xcc, and with PTI their high mapping is removed,
 * which splits those 2 MiB mappings into 4 KiB ones.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

#define POISON_FREE_INITMEM	0xcc
#define UTS_LEN			65
#define MAX_NUMNODES		1024
#define BTF_EMPTY_LEN		25

enum { P_ALIGN, P_PAD, P_OBJ, P_ABS };

#define SIZE_OF_KALLSYMS_TABLE	UINT64_MAX

struct place {
	int kind;
	size_t sym;
	uint64_t v;		/* alignment, padding or value */
	uint64_t size;
};

static struct place *pl;
static size_t npl, capl;

/* data objects nobody interprets, given arbitrary contents */
static struct {
	size_t sym;
	uint64_t size;
} synth_data[40];
static size_t nsynth_data;

static void place(int kind, size_t sym, uint64_t v, uint64_t size)
{
	if (npl == capl) {
		capl = capl ? 2 * capl : 1024;
		pl = realloc(pl, capl * sizeof(*pl));
		if (!pl)
			die("out of memory");
	}
	pl[npl].kind = kind;
	pl[npl].sym = sym;
	pl[npl].v = v;
	pl[npl].size = size;
	npl++;
}

static void obj(struct gen *g, const char *name, char type, uint64_t size,
		uint64_t align)
{
	place(P_OBJ, ksym_add(g, name, type), align, size);
}

static uint64_t kphys(const struct gen *g, uint64_t vaddr)
{
	return vaddr - START_KERNEL_MAP + g->phys_base;
}

static const char *const subsys[] = {
	"ext4", "tcp", "udp", "vfs", "sched", "kmem", "blk", "scsi", "usb",
	"pci", "acpi", "irq", "rcu", "cpu", "net", "sock", "page", "folio",
	"zone", "dma", "iommu", "drm", "kvm", "bpf", "perf", "trace",
	"crypto", "xfs", "nfs", "sysfs", "proc", "tty", "input", "virtio",
	"nvme", "ata", "md", "dm", "fs", "shmem",
};
static const char *const verbs[] = {
	"init", "exit", "alloc", "free", "read", "write", "open", "release",
	"lookup", "insert", "remove", "update", "flush", "sync", "map",
	"unmap", "get", "put", "start", "stop", "probe", "handle", "register",
	"unregister", "show", "store", "find", "create", "destroy", "commit",
};
static const char *const nouns[] = {
	"page", "inode", "buffer", "queue", "request", "entry", "node",
	"table", "cache", "context", "device", "driver", "work", "timer",
	"lock", "state", "stats", "config", "range", "region", "header",
	"block", "chain", "list",
};
static const char *const text_suffixes[] = {
	"", "", "", "", "", "", ".isra.0", ".constprop.0", ".cold", ".part.0",
};

/* one pick per statement: argument evaluation order is unspecified */
#define PICK(arr, rng) (arr[rng_next(rng) % (sizeof(arr) / sizeof(arr[0]))])

/* A fresh name that looks like a kernel symbol of the given kind. */
static void synth_name(struct gen *g, uint64_t *rng, char kind, char *buf,
		       size_t len)
{
	do {
		const char *pre = rng_next(rng) % 5 ? "" : "__";
		const char *a = PICK(subsys, rng);
		const char *b = kind == 't' ? PICK(verbs, rng) : "";
		const char *c = PICK(nouns, rng);
		const char *d = kind == 't' ? PICK(text_suffixes, rng)
					    : PICK(nouns, rng);

		switch (kind) {
		case 't':
			snprintf(buf, len, "%s%s_%s_%s%s", pre, a, b, c, d);
			break;
		case 'r':
			snprintf(buf, len, "%s%s_%s_ops", pre, a, c);
			break;
		case 'd':
			snprintf(buf, len, "%s%s_%s_%s", pre, a, c, d);
			break;
		default:
			snprintf(buf, len, "%s%s_%s_count", pre, a, c);
			break;
		}
	} while (ksym_find(g, buf));
}

/*
 * A Rust v0 mangled name long enough that its compressed form needs more
 * than 127 tokens, hence the two-byte length in kallsyms_names.
 */
static void long_name(uint64_t *rng, char *buf, size_t len)
{
	static const char alnum[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t n = snprintf(buf, len, "_RNvXs5_NtCs");

	while (n + 24 < len - 1 && n < 420) {
		size_t seg = 6 + rng_next(rng) % 9;

		n += snprintf(buf + n, len - n, "%zu", seg);
		for (size_t i = 0; i < seg; i++)
			buf[n++] = alnum[rng_next(rng) % (sizeof(alnum) - 1)];
		buf[n] = '\0';
	}
}

struct percpu_sym {
	const char *name;
	uint64_t offset;
};

static const struct percpu_sym percpu_syms[] = {
	{ "fixed_percpu_data", 0 },
	{ "__per_cpu_start", 0 },
	{ "cpu_debug_store", 0x1000 },
	{ "gdt_page", 0x3000 },
	{ "exception_stacks", 0x4000 },
	{ "cpu_number", 0x5000 },
	{ "this_cpu_off", 0x5008 },
	{ "current_task", 0x5040 },
	{ "runqueues", 0x6000 },
	{ "steal_time", 0x7f80 },
	{ "__per_cpu_end", 0x8000 },
};

static void add_percpu(struct gen *g, bool absolute)
{
	size_t n = sizeof(percpu_syms) / sizeof(percpu_syms[0]);

	if (!absolute)
		place(P_ALIGN, 0, PAGE_SIZE, 0);
	for (size_t i = 0; i < n; i++) {
		size_t s = ksym_add(g, percpu_syms[i].name,
				    absolute ? 'A' : 'D');

		if (absolute)
			place(P_ABS, s, percpu_syms[i].offset, 0);
		else
			place(P_OBJ, s, 1, i + 1 < n ?
			      percpu_syms[i + 1].offset - percpu_syms[i].offset
			      : 0);
	}
}

static const char *const kallsyms_tables_61[] = {
	"kallsyms_offsets", "kallsyms_relative_base", "kallsyms_num_syms",
	"kallsyms_names", "kallsyms_markers", "kallsyms_token_table",
	"kallsyms_token_index", NULL
};
static const char *const kallsyms_tables_abs[] = {
	"kallsyms_addresses", "kallsyms_num_syms", "kallsyms_names",
	"kallsyms_markers", "kallsyms_token_table", "kallsyms_token_index",
	NULL
};
static const char *const kallsyms_tables_7x[] = {
	"kallsyms_num_syms", "kallsyms_names", "kallsyms_markers",
	"kallsyms_seqs_of_names", "kallsyms_token_table",
	"kallsyms_token_index", "kallsyms_offsets", NULL
};

static const char zone_name_strings[] = "DMA\0DMA32\0Normal\0Movable\0Device";
static const int zone_name_offset[NR_ZONES] = { 0, 4, 10, 17, 25 };

uint64_t zone_name_vaddr(struct gen *g, int zone)
{
	return ksym_addr(g, "zone_names") + 8 * NR_ZONES +
	       zone_name_offset[zone];
}

static void add_symbols(struct gen *g, uint64_t *rng)
{
	const char *const *tables = g->enc == KSYM_ABSOLUTE ?
		kallsyms_tables_abs : g->enc == KSYM_PLACE_RELATIVE ?
		kallsyms_tables_7x : kallsyms_tables_61;
	bool abs_percpu = g->enc == KSYM_ABS_PERCPU || g->enc == KSYM_ABSOLUTE;
	char name[512];

	if (abs_percpu)
		add_percpu(g, true);

	/* text */
	obj(g, "startup_64", 'T', 0, 1);
	obj(g, "_stext", 'T', 0, 1);
	obj(g, "_text", 'T', PAGE_SIZE, 1);
	for (int i = 0; i < 240; i++) {
		uint64_t r = rng_next(rng) % 100;
		char type = r < 50 ? 'T' : r < 92 ? 't' : 'W';

		synth_name(g, rng, 't', name, sizeof(name));
		/* every so often two names for one address */
		obj(g, name, type, i % 23 == 5 ? 0 :
		    16 * (1 + rng_next(rng) % 1300), 16);
		if (i == 120) {
			long_name(rng, name, sizeof(name));
			obj(g, name, 'T', 0x140, 16);
			obj(g, "sysrq_handle_crash", 't', 0x30, 16);
		}
	}
	place(P_PAD, 0, 0x132, 0);
	obj(g, "_etext", 'T', 0, 1);

	/* rodata */
	place(P_ALIGN, 0, PMD_SIZE, 0);
	obj(g, "__start_rodata", 'D', 0, 1);
	for (int i = 0; tables[i]; i++) {
		uint64_t align = g->enc == KSYM_PLACE_RELATIVE ? 4 : 8;

		if (g->enc == KSYM_PLACE_RELATIVE &&
		    !strcmp(tables[i], "kallsyms_names"))
			align = 1;
		place(P_OBJ, ksym_add(g, tables[i], 'D'), align,
		      SIZE_OF_KALLSYMS_TABLE);
	}
	for (int i = 0; i < 40; i++) {
		char type = rng_next(rng) % 3 ? 'r' : 'R';

		synth_name(g, rng, 'r', name, sizeof(name));
		obj(g, name, type, 8 * (1 + rng_next(rng) % 64), 8);
	}
	obj(g, "zone_names", 'r', 8 * NR_ZONES + sizeof(zone_name_strings), 8);
	obj(g, "vmemmap_base", 'D', 8, 8);
	obj(g, "vmalloc_base", 'D', 8, 8);
	obj(g, "page_offset_base", 'D', 8, 8);
	obj(g, "__start_BTF", 'R', g->btf[BTF_VMLINUX] ? g->btf_size[BTF_VMLINUX] : BTF_EMPTY_LEN, 8);
	obj(g, "__stop_BTF", 'R', 0, 1);
	place(P_ALIGN, 0, PAGE_SIZE, 0);
	obj(g, "__end_rodata", 'D', 0, 1);

	/* data */
	place(P_ALIGN, 0, PMD_SIZE, 0);
	obj(g, "_sdata", 'D', 0, 1);
	obj(g, "init_top_pgt", 'D', PAGE_SIZE, PAGE_SIZE);
	if (g->levels == 5)
		obj(g, "level4_kernel_pgt", 'D', PAGE_SIZE, PAGE_SIZE);
	obj(g, "level3_kernel_pgt", 'D', PAGE_SIZE, PAGE_SIZE);
	obj(g, "level2_kernel_pgt", 'D', PAGE_SIZE, PAGE_SIZE);
	obj(g, "phys_base", 'D', 8, 8);
	obj(g, "init_uts_ns", 'D', 432, 64);
	obj(g, "node_data", 'D', 8 * MAX_NUMNODES, 64);
	obj(g, "node_online_map", 'D', 128, 64);
	obj(g, "vmap_area_list", 'd', 16, 8);
	obj(g, "prb", 'D', 8, 8);
	obj(g, "printk_rb_static", 'd', printk_static_size(), 64);
	if (g->amdgpu) {
		obj(g, "init_task", 'D', bt_size("task_struct"), 64);
		obj(g, "modules", 'd', 16, 8);
		obj(g, "btf_modules", 'd', 16, 8);
		obj(g, "panic_cpu", 'D', 4, 4);
		obj(g, "crashing_cpu", 'D', 4, 4);
		obj(g, "__per_cpu_offset", 'D', 8 * 64, 64);
	}
	for (int i = 0; i < 40; i++) {
		uint64_t r = rng_next(rng) % 10;
		uint64_t size = i % 17 == 3 ? 0 : 8 * (1 + rng_next(rng) % 128);

		synth_name(g, rng, 'd', name, sizeof(name));
		synth_data[nsynth_data].sym = ksym_add(g, name, r < 5 ? 'd' :
						       r < 9 ? 'D' : 'V');
		synth_data[nsynth_data].size = size;
		place(P_OBJ, synth_data[nsynth_data++].sym, 8, size);
	}
	if (!abs_percpu)
		add_percpu(g, false);
	place(P_ALIGN, 0, 64, 0);
	obj(g, "_edata", 'D', 0, 1);

	/* init, freed after boot */
	place(P_ALIGN, 0, PAGE_SIZE, 0);
	obj(g, "__init_begin", 'D', 0, 1);
	obj(g, "_sinittext", 'T', 0, 1);
	for (int i = 0; i < 12; i++) {
		const char *a = PICK(subsys, rng);

		snprintf(name, sizeof(name), "%s_%s_init", a, PICK(nouns, rng));
		if (!ksym_find(g, name))
			obj(g, name, 't', 16 * (1 + rng_next(rng) % 256), 16);
	}
	obj(g, "_einittext", 'T', 0, 1);
	place(P_ALIGN, 0, PAGE_SIZE, 0);
	obj(g, "__init_end", 'D', 0, 1);

	/* bss */
	obj(g, "__bss_start", 'B', 0, PAGE_SIZE);
	obj(g, "mem_section", 'B', 8, 8);
	obj(g, "clear_seq", 'b', 24, 8);
	obj(g, "__log_buf", 'b', PAGE_SIZE, 8);
	for (int i = 0; i < 30; i++) {
		char type = rng_next(rng) % 2 ? 'b' : 'B';

		synth_name(g, rng, 'b', name, sizeof(name));
		obj(g, name, type, 8 * (1 + rng_next(rng) % 128), 8);
	}
	obj(g, "__bss_stop", 'B', 0, 1);
	obj(g, "_end", 'B', 0, PAGE_SIZE);
}

void image_layout(struct gen *g)
{
	uint64_t rng = g->seed ^ 0x6b616c6c73796d73ULL;
	uint64_t cur = g->text_vaddr;

	add_symbols(g, &rng);
	kallsyms_compress(g);

	for (size_t i = 0; i < npl; i++) {
		struct place *p = &pl[i];
		struct ksym *s = &g->syms[p->sym];
		uint64_t size = p->size;

		switch (p->kind) {
		case P_ALIGN:
			cur = (cur + p->v - 1) & ~(p->v - 1);
			break;
		case P_PAD:
			cur += p->v;
			break;
		case P_ABS:
			s->addr = p->v;
			break;
		case P_OBJ:
			if (size == SIZE_OF_KALLSYMS_TABLE)
				size = kallsyms_table_size(g, s->name);
			cur = (cur + p->v - 1) & ~(p->v - 1);
			s->addr = cur;
			cur += size;
			break;
		}
	}
	free(pl);
	pl = NULL;
	g->image_end = ksym_addr(g, "_end");
	if (g->image_end - g->text_vaddr > 64ULL << 20)
		die("internal: kernel image too large");
	claim(g, g->kernel_phys >> PAGE_SHIFT,
	      (g->image_end - g->text_vaddr) >> PAGE_SHIFT, PC_RESERVED);
}

/*
 * __startup_64() wires init_top_pgt to level3_kernel_pgt (through
 * level4_kernel_pgt with 5 levels) and level2_kernel_pgt, which maps the
 * image with 2 MiB pages; cleanup_highmap() leaves only [_text, _end).
 */
void image_map(struct gen *g)
{
	uint64_t l3 = kphys(g, ksym_addr(g, "level3_kernel_pgt"));
	uint64_t l2 = kphys(g, ksym_addr(g, "level2_kernel_pgt"));
	uint64_t rodata = ksym_addr(g, "__start_rodata");
	uint64_t sdata = ksym_addr(g, "_sdata");

	g->pgd_paddr = kphys(g, ksym_addr(g, "init_top_pgt"));
	if (g->levels == 5) {
		uint64_t l4 = kphys(g, ksym_addr(g, "level4_kernel_pgt"));

		pt_link_table(g, g->pgd_paddr, 511, l4);
		pt_link_table(g, l4, 511, l3);
	} else {
		pt_link_table(g, g->pgd_paddr, 511, l3);
	}
	pt_link_table(g, l3, 510, l2);

	for (uint64_t va = g->text_vaddr; va < g->image_end; va += PMD_SIZE) {
		uint64_t prot = PTE_ACCESSED | PTE_DIRTY | PTE_GLOBAL;

		if (va >= sdata)
			prot |= PTE_RW | PTE_NX;
		else if (va >= rodata)
			prot |= PTE_NX;
		pt_map(g, va, kphys(g, va), PMD_SIZE, prot, false);
	}
	note_vtop(g, g->text_vaddr, "text");
	note_vtop(g, ksym_addr(g, "init_top_pgt") + 0xff8, "text");
	note_vtop(g, ksym_addr(g, "page_offset_base"), "text");
}

/* free_reserved_area() plus PTI's removal of the high alias */
static void free_image_range(struct gen *g, uint64_t start, uint64_t end)
{
	start = (start + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	for (uint64_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t pfn = kphys(g, va) >> PAGE_SHIFT, pa, size;

		memset(phys_ptr(g, pfn << PAGE_SHIFT, PAGE_SIZE),
		       POISON_FREE_INITMEM, PAGE_SIZE);
		g->pi[pfn].cat = PC_UNCLAIMED;
		if (!pt_walk(g, va, &pa, &size))
			die("internal: image page %#" PRIx64 " unmapped", va);
		if (size == PMD_SIZE)
			pt_split_2m(g, va & ~(PMD_SIZE - 1));
		pt_unmap_4k(g, va);
	}
}

/*
 * mark_rodata_ro() and free_initmem(); set_memory_ro()/nx() on the image
 * also change its direct-map alias, splitting the 2 MiB pages there that
 * hold a protection boundary.
 */
void image_free_init(struct gen *g)
{
	uint64_t etext = ksym_addr(g, "_etext");
	uint64_t end_rodata = ksym_addr(g, "__end_rodata");
	uint64_t boundary[2] = { kphys(g, etext), kphys(g, end_rodata) };

	free_image_range(g, etext, ksym_addr(g, "__start_rodata"));
	free_image_range(g, end_rodata, ksym_addr(g, "_sdata"));
	free_image_range(g, ksym_addr(g, "__init_begin"),
			 ksym_addr(g, "__init_end"));
	note_vtop(g, (etext & ~(PAGE_SIZE - 1)) - PAGE_SIZE, "text");
	note_vtop_fail(g, (etext + PAGE_SIZE) & ~(PAGE_SIZE - 1));

	for (int i = 0; i < 2; i++) {
		uint64_t va = dm_vaddr(g, boundary[i]), pa, size;

		if (pt_walk(g, va, &pa, &size) && size == PMD_SIZE)
			pt_split_2m(g, va & ~(PMD_SIZE - 1));
	}
	note_vtop(g, dm_vaddr(g, boundary[0]), "direct");
}

static void write_uts(struct gen *g)
{
	static const char *const fields[6] = {
		"Linux", "mkvmcore", NULL,
		"#1 SMP PREEMPT_DYNAMIC Debian 6.1.0-mkvmcore (2026-12-03)",
		"x86_64", "(none)"
	};
	uint8_t uts[6 * UTS_LEN] = { 0 };

	for (int i = 0; i < 6; i++)
		strncpy((char *)uts + i * UTS_LEN,
			fields[i] ? fields[i] : g->osrelease, UTS_LEN - 1);
	kv_write(g, ksym_addr(g, "init_uts_ns"), uts, sizeof(uts));
}

/*
 * Fills what is still blank of the image: code bytes, the variables other
 * tools look up, and some contents for the anonymous data objects.
 */
void image_fill(struct gen *g)
{
	uint64_t rng = g->seed ^ 0x746578746279746fULL;
	uint64_t etext = ksym_addr(g, "_etext");
	uint8_t buf[PAGE_SIZE];
	static const uint8_t btf_empty[BTF_EMPTY_LEN] = {
		0x9f, 0xeb, 1, 0, 24, 0, 0, 0,	/* magic, version, hdr_len */
		0, 0, 0, 0, 0, 0, 0, 0,		/* type_off, type_len */
		0, 0, 0, 0, 1, 0, 0, 0,		/* str_off, str_len */
		0
	};

	for (uint64_t va = g->text_vaddr; va < etext; va += sizeof(buf)) {
		size_t n = etext - va < sizeof(buf) ? etext - va : sizeof(buf);

		for (size_t i = 0; i < n; i += 8)
			put_le64(buf + i, rng_next(&rng));
		kv_write(g, va, buf, n);
	}
	for (size_t i = 0; i < nsynth_data; i++) {
		struct ksym *s = &g->syms[synth_data[i].sym];

		for (size_t j = 0; j < synth_data[i].size; j += 8)
			put_le64(buf + j, rng_next(&rng));
		kv_write(g, s->addr, buf, synth_data[i].size);
	}
	kallsyms_emit(g);

	kv_write64(g, ksym_addr(g, "vmemmap_base"), g->vmemmap_base);
	kv_write64(g, ksym_addr(g, "vmalloc_base"), g->vmalloc_base);
	kv_write64(g, ksym_addr(g, "page_offset_base"), g->page_offset);
	kv_write64(g, ksym_addr(g, "phys_base"), g->phys_base);
	for (int z = 0; z < NR_ZONES; z++)
		kv_write64(g, ksym_addr(g, "zone_names") + 8 * z,
			   zone_name_vaddr(g, z));
	kv_write(g, ksym_addr(g, "zone_names") + 8 * NR_ZONES,
		 zone_name_strings, sizeof(zone_name_strings));
	if (g->btf[BTF_VMLINUX])
		kv_write(g, ksym_addr(g, "__start_BTF"), g->btf[BTF_VMLINUX],
			 g->btf_size[BTF_VMLINUX]);
	else
		kv_write(g, ksym_addr(g, "__start_BTF"), btf_empty, BTF_EMPTY_LEN);
	write_uts(g);
	kv_write64(g, ksym_addr(g, "node_data"), dm_vaddr(g, g->pgdat_paddr));
	kv_write64(g, ksym_addr(g, "node_online_map"), 1);
	kv_write64(g, ksym_addr(g, "mem_section"), g->mem_section_root);
	printk_fill(g);
}
