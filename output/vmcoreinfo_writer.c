// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * VMCOREINFO from a vmlinux, as upstream makedumpfile's -g writes it:
 * its lines, in its order, each only where the vmlinux has the answer,
 * with upstream's choices where the kernel changed (_count before
 * _refcount, compound_info after compound_head, the three printk log
 * layouts).  The types are the vmlinux's DWARF, made into BTF
 * (kernel/dwarf.h), and answer as C does; upstream's own DWARF walk
 * agrees on every line a kernel has (it also looks into named struct
 * members for a member name, which no line it writes needs).
 *
 * An array's length is DW_AT_upper_bound + 1 or DW_AT_count: upstream
 * reads the first alone, and writes no LENGTH() for clang's DWARF.
 *
 * Upstream's quirks are kept, as its readers expect them: LENGTH() of
 * node_data is LONG_MAX - 1 (upstream's mark for "an array"), SIZE() of
 * pageflags is that of a typedef of the name (which no kernel has), and
 * a line whose value is -1 is taken for absent.
 */
#include <bpf/btf.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "kernel/btf.h"
#include "kernel/vmlinux.h"
#include "output/vmcoreinfo_writer.h"
#include "util/error.h"

/* Upstream's value for what was not found, which its readers skip. */
#define NOT_FOUND (-1L)
/* What upstream writes as LENGTH() of a variable it only knows to be an array. */
#define FOUND_ARRAY_TYPE (LONG_MAX - 1)
/* Upstream's guess at uts_namespace.name where DWARF does not know it: after a struct kref. */
#define UTS_NAME_GUESS ((long)sizeof(int))
#define MAX_TYPE_DEPTH 64

struct generator {
	struct vmlinux *vm;
	struct btf_info *types;
	FILE *out;
};

static uint64_t symbol(const struct generator *g, const char *name)
{
	uint64_t addr;

	return mdf_error_drop(vmlinux_symbol(g->vm, name, 0, &addr)) ? 0 : addr;
}

static bool lookup(const struct generator *g, const char *path, enum btf_info_kind kind, struct btf_info_result *r)
{
	return !mdf_error_drop(btf_info_lookup(g->types, "vmlinux", path, r)) && r->kind == kind;
}

/* The type @id names past typedefs alone, as upstream follows them. */
static const struct btf_type *past_typedefs(const struct btf *btf, uint32_t *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);

	for (int depth = 0; t && btf_is_typedef(t) && depth < MAX_TYPE_DEPTH; depth++)
		t = btf__type_by_id(btf, *id = t->type);
	return t;
}

/* SIZE_INIT: a struct of the name, or a typedef of it that names a struct. */
static long struct_size(const struct generator *g, const char *name)
{
	struct btf_info_result r;
	const struct btf_type *t;
	uint32_t id;

	if (!lookup(g, name, BTF_INFO_TYPE, &r))
		return NOT_FOUND;
	id = r.type_id;
	t = past_typedefs(r.btf, &id);
	return t && btf_is_struct(t) && t->size > 0 ? (long)t->size : NOT_FOUND;
}

/* TYPEDEF_SIZE_INIT: the size of what a typedef of the name stands for. */
static long typedef_size(const struct generator *g, const char *name)
{
	struct btf_info_result r;
	long long size;
	uint32_t id;

	if (!lookup(g, name, BTF_INFO_TYPE, &r) || r.btf_kind != BTF_KIND_TYPEDEF)
		return NOT_FOUND;
	id = r.type_id;
	past_typedefs(r.btf, &id);
	size = btf__resolve_size(r.btf, id);
	return size > 0 ? (long)size : NOT_FOUND;
}

/* OFFSET_INIT: a member of a struct SIZE_INIT finds, by byte; a bitfield has none. */
static long member_offset(const struct generator *g, const char *type, const char *member)
{
	struct btf_info_result r;
	char path[128];

	snprintf(path, sizeof(path), "%s.%s", type, member);
	if (struct_size(g, type) == NOT_FOUND || !lookup(g, path, BTF_INFO_MEMBER, &r) || r.bitfield_size)
		return NOT_FOUND;
	return (long)(r.bit_offset / 8);
}

/* MEMBER_ARRAY_LENGTH_INIT: the first dimension of an array member. */
static long member_length(const struct generator *g, const char *type, const char *member)
{
	struct btf_info_result r;
	char path[128];

	snprintf(path, sizeof(path), "%s.%s", type, member);
	if (struct_size(g, type) == NOT_FOUND || !lookup(g, path, BTF_INFO_MEMBER, &r) || r.array_length <= 0)
		return NOT_FOUND;
	return (long)r.array_length;
}

/* SYMBOL_ARRAY_LENGTH_INIT, or with @any_length SYMBOL_ARRAY_TYPE_INIT: a variable's array type. */
static long variable_length(const struct generator *g, const char *name, bool any_length)
{
	struct btf_info_result r;

	if (!lookup(g, name, BTF_INFO_VARIABLE, &r) || r.array_length < 0)
		return NOT_FOUND;
	if (any_length)
		return FOUND_ARRAY_TYPE;
	return r.array_length ? (long)r.array_length : NOT_FOUND;
}

/* ENUM_NUMBER_INIT: an enum constant of the name, in whatever enum. */
static long enum_number(const struct generator *g, const char *name)
{
	struct btf_info_result r;

	return lookup(g, name, BTF_INFO_ENUM_VALUE, &r) ? (long)r.value : NOT_FOUND;
}

static void write_symbol(const struct generator *g, const char *name)
{
	uint64_t addr = symbol(g, name);

	if (addr)
		fprintf(g->out, "SYMBOL(%s)=%" PRIx64 "\n", name, addr);
}

static void write_value(const struct generator *g, const char *kind, const char *name, long value)
{
	if (value != NOT_FOUND)
		fprintf(g->out, "%s(%s)=%ld\n", kind, name, value);
}

static void write_size(const struct generator *g, const char *name)
{
	write_value(g, "SIZE", name, struct_size(g, name));
}

static void write_offset(const struct generator *g, const char *type, const char *member)
{
	char name[128];

	snprintf(name, sizeof(name), "%s.%s", type, member);
	write_value(g, "OFFSET", name, member_offset(g, type, member));
}

/*
 * The memory model upstream needs one of: SPARSEMEM (mem_section),
 * DISCONTIGMEM (node_data or pgdat_list) or FLATMEM (mem_map), each
 * with struct page's flags, _refcount (or _count) and mapping.
 */
static bool memory_model_known(const struct generator *g)
{
	bool page = struct_size(g, "page") != NOT_FOUND && member_offset(g, "page", "flags") != NOT_FOUND &&
		    (member_offset(g, "page", "_refcount") != NOT_FOUND ||
		     member_offset(g, "page", "_count") != NOT_FOUND) &&
		    member_offset(g, "page", "mapping") != NOT_FOUND;
	bool pglist = struct_size(g, "pglist_data") != NOT_FOUND &&
		      member_offset(g, "pglist_data", "node_mem_map") != NOT_FOUND &&
		      member_offset(g, "pglist_data", "node_start_pfn") != NOT_FOUND &&
		      member_offset(g, "pglist_data", "node_spanned_pages") != NOT_FOUND;
	bool discontig = ((symbol(g, "node_data") && variable_length(g, "node_data", true) != NOT_FOUND) ||
			  (symbol(g, "pgdat_list") && member_offset(g, "pglist_data", "pgdat_next") != NOT_FOUND) ||
			  (symbol(g, "pgdat_list") && variable_length(g, "pgdat_list", false) != NOT_FOUND)) &&
			 pglist;
	bool sparse = symbol(g, "mem_section") && struct_size(g, "mem_section") != NOT_FOUND &&
		      member_offset(g, "mem_section", "section_mem_map") != NOT_FOUND;

	return page && (discontig || sparse || symbol(g, "mem_map"));
}

static const char *const symbols[] = {
	"mem_map", "vmem_map", "mem_section", "pkmap_count", "system_utsname",
	"init_uts_ns", "_stext", "swapper_pg_dir", "init_level4_pgt", "level4_kernel_pgt", "init_top_pgt",
	"vmlist", "vmap_area_list", "node_online_map", "node_states", "node_data", "pgdat_list",
	"contig_page_data", "prb", "clear_seq", "log_buf", "log_buf_len", "log_end", "log_first_idx",
	"clear_idx", "log_next_idx", "max_pfn", "high_memory", "node_remap_start_vaddr",
	"node_remap_end_vaddr", "node_remap_start_pfn", "vmemmap_list", "mmu_psize_defs",
	"mmu_vmemmap_psize", "cpu_pgd", "demote_segment_4k", "cur_cpu_spec", "free_huge_page",
};

static const struct {
	const char *type, *member;
} page_offsets[] = {
	{ "page", "mapping" }, { "page", "lru" }, { "page", "_mapcount" }, { "page", "private" },
	{ "page", "compound_dtor" }, { "page", "compound_order" },
};

static const struct {
	const char *type, *member;
} middle_offsets[] = {
	{ "folio", "_folio_dtor" }, { "folio", "_folio_order" },
	{ "mem_section", "section_mem_map" }, { "pglist_data", "node_zones" }, { "pglist_data", "nr_zones" },
	{ "pglist_data", "node_mem_map" }, { "pglist_data", "node_start_pfn" },
	{ "pglist_data", "node_spanned_pages" }, { "pglist_data", "pgdat_next" }, { "zone", "free_pages" },
	{ "zone", "free_area" }, { "zone", "vm_stat" }, { "zone", "spanned_pages" },
	{ "free_area", "free_list" }, { "list_head", "next" }, { "list_head", "prev" },
	{ "node_memblk_s", "start_paddr" }, { "node_memblk_s", "size" }, { "node_memblk_s", "nid" },
	{ "vm_struct", "addr" }, { "vmap_area", "va_start" }, { "vmap_area", "list" },
};

static const struct {
	const char *type, *member;
} ringbuffer_offsets[] = {
	{ "printk_ringbuffer", "desc_ring" }, { "printk_ringbuffer", "text_data_ring" },
	{ "prb_desc_ring", "count_bits" }, { "prb_desc_ring", "descs" }, { "prb_desc_ring", "infos" },
	{ "prb_desc_ring", "head_id" }, { "prb_desc_ring", "tail_id" }, { "prb_desc", "state_var" },
	{ "prb_desc", "text_blk_lpos" }, { "prb_data_blk_lpos", "begin" }, { "prb_data_blk_lpos", "next" },
	{ "prb_data_ring", "size_bits" }, { "prb_data_ring", "data" }, { "printk_info", "ts_nsec" },
	{ "printk_info", "text_len" }, { "printk_info", "caller_id" }, { "atomic_long_t", "counter" },
	{ "latched_seq", "val" },
};

static const struct {
	const char *type, *member;
} tail_offsets[] = {
	{ "vmemmap_backing", "phys" }, { "vmemmap_backing", "virt_addr" }, { "vmemmap_backing", "list" },
	{ "mmu_psize_def", "shift" }, { "cpu_spec", "mmu_features" }, { "uts_namespace", "name" },
};

static const char *const numbers[] = {
	"NR_FREE_PAGES", "N_ONLINE", "pgtable_l5_enabled", "PG_lru", "PG_private",
	"PG_head_mask", "PG_swapcache", "PG_swapbacked", "PG_buddy", "PG_slab", "PG_hwpoison", "PG_hugetlb",
};

#define NR(array) (sizeof(array) / sizeof((array)[0]))

/* NUMBER(PG_head_mask): the constant if there is one, else 1 << PG_head (PG_compound before 2.6.26). */
static long head_mask(const struct generator *g)
{
	long head = enum_number(g, "PG_head_mask");

	if (head != NOT_FOUND)
		return head;
	head = enum_number(g, "PG_head");
	if (head == NOT_FOUND)
		head = enum_number(g, "PG_compound");
	return head == NOT_FOUND || head < 0 || head > 63 ? NOT_FOUND : (long)(1UL << head);
}

static void write_printk(const struct generator *g)
{
	if (struct_size(g, "printk_ringbuffer") != NOT_FOUND) {
		write_size(g, "printk_ringbuffer");
		write_size(g, "prb_desc");
		write_size(g, "printk_info");
		write_size(g, "latched_seq");
	} else if (struct_size(g, "printk_log") != NOT_FOUND) {
		write_size(g, "printk_log");
	} else {
		write_size(g, "log");
	}
}

static void write_printk_offsets(const struct generator *g)
{
	/* Before 3.11 the record was struct log; upstream writes its name as it was. */
	const char *log = struct_size(g, "printk_log") != NOT_FOUND ? "printk_log" : "log";

	if (struct_size(g, "printk_ringbuffer") != NOT_FOUND) {
		for (size_t i = 0; i < NR(ringbuffer_offsets); i++)
			write_offset(g, ringbuffer_offsets[i].type, ringbuffer_offsets[i].member);
		return;
	}
	write_offset(g, log, "ts_nsec");
	write_offset(g, log, "len");
	write_offset(g, log, "text_len");
	if (strcmp(log, "log"))
		write_offset(g, log, "caller_id");
}

static void write_lines(const struct generator *g, const char *release)
{
	static const char *const sizes[] = { "page", "mem_section", "pglist_data", "zone", "free_area",
					     "list_head", "node_memblk_s" };
	static const char *const variable_lengths[] = { "pgdat_list", "mem_section", "node_memblk",
							"node_remap_start_pfn" };
	const char *srcfile = vmlinux_typedef_file(g->vm, "pud_t");
	bool use_count = member_offset(g, "page", "_refcount") == NOT_FOUND;
	long compound_head = member_offset(g, "page", "compound_head");

	fprintf(g->out, "OSRELEASE=%s\n", release);
	fprintf(g->out, "PAGESIZE=%ld\n", sysconf(_SC_PAGESIZE));
	for (size_t i = 0; i < NR(symbols); i++)
		write_symbol(g, symbols[i]);
	for (size_t i = 0; i < NR(sizes); i++)
		write_size(g, sizes[i]);
	write_value(g, "SIZE", "nodemask_t", typedef_size(g, "nodemask_t"));
	write_value(g, "SIZE", "pageflags", typedef_size(g, "pageflags"));
	write_printk(g);
	write_size(g, "vmemmap_backing");
	write_size(g, "mmu_psize_def");

	write_offset(g, "page", "flags");
	write_value(g, "OFFSET", use_count ? "page._count" : "page._refcount",
		    member_offset(g, "page", use_count ? "_count" : "_refcount"));
	for (size_t i = 0; i < NR(page_offsets); i++)
		write_offset(g, page_offsets[i].type, page_offsets[i].member);
	/* Linux 7.1 renamed it compound_info; upstream writes it under the old name. */
	write_value(g, "OFFSET", "page.compound_head",
		    compound_head != NOT_FOUND ? compound_head : member_offset(g, "page", "compound_info"));
	for (size_t i = 0; i < NR(middle_offsets); i++)
		write_offset(g, middle_offsets[i].type, middle_offsets[i].member);
	write_printk_offsets(g);
	for (size_t i = 0; i < NR(tail_offsets); i++)
		write_offset(g, tail_offsets[i].type, tail_offsets[i].member);

	if (symbol(g, "node_data"))
		write_value(g, "LENGTH", "node_data", variable_length(g, "node_data", true));
	for (size_t i = 0; i < NR(variable_lengths); i++)
		if (symbol(g, variable_lengths[i]))
			write_value(g, "LENGTH", variable_lengths[i], variable_length(g, variable_lengths[i], false));
	write_value(g, "LENGTH", "zone.free_area", member_length(g, "zone", "free_area"));
	write_value(g, "LENGTH", "free_area.free_list", member_length(g, "free_area", "free_list"));

	for (size_t i = 0; i < NR(numbers); i++)
		write_value(g, "NUMBER", numbers[i],
			    !strcmp(numbers[i], "PG_head_mask") ? head_mask(g) : enum_number(g, numbers[i]));
	write_value(g, "NUMBER", "HUGETLB_PAGE_DTOR", enum_number(g, "HUGETLB_PAGE_DTOR"));
	if (srcfile && *srcfile)
		fprintf(g->out, "SRCFILE(pud_t)=%.99s\n", srcfile);
}

struct mdf_error *vmcoreinfo_write(struct vmlinux *vm, FILE *out)
{
	struct btf_location loc = { .vmlinux = vm };
	struct generator g = { vm, NULL, out };
	struct btf_info_result r;
	const struct btf *btf;
	char release[65];
	long name_offset;
	struct mdf_error *err = btf_info_new(NULL, &loc, &g.types);

	/* The types, made now: DWARF that does not convert is said as such, not as missing lines. */
	if (!err)
		err = btf_info_scope_btf(g.types, "vmlinux", &btf);
	if (!err) {
		name_offset = lookup(&g, "uts_namespace.name", BTF_INFO_MEMBER, &r) ? (long)(r.bit_offset / 8)
										   : UTS_NAME_GUESS;
		err = vmlinux_release(vm, (uint64_t)name_offset, release, sizeof(release));
	}
	if (!err && !memory_model_known(&g))
		err = mdf_error(-ENOENT, "%s: no memory model: its DWARF and symbols have neither SPARSEMEM's "
				"mem_section, DISCONTIGMEM's node_data nor FLATMEM's mem_map, or no struct page "
				"with flags, _refcount and mapping", vmlinux_path(vm));
	if (!err) {
		write_lines(&g, release);
		if (ferror(out))
			err = mdf_error(-EIO, "write error");
	}
	btf_info_free(g.types);
	return err;
}
