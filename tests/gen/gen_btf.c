// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BTF for the --amdgpu layout: vmlinux's (between __start_BTF and
 * __stop_BTF) and split BTF for the modules drm, amdgpu and
 * drm_shmem_helper, written with libbpf's btf__add_*().
 *
 * One table below describes every struct the layout writes, member by
 * member with its byte offset: the same table gives the BTF and, through
 * bt_off() and bt_size(), the offsets gen_gpu.c writes memory with, so
 * the two cannot disagree.  The layouts are this generator's own, close
 * to 6.1's where a reader cares (a maple node is 256 bytes with 15 or 9
 * pivots, an xa_node has 64 slots, module.name is 56 bytes) and arbitrary
 * elsewhere: readers take offsets from BTF, never from a kernel version.
 *
 * As in a real kernel, a module's split BTF holds the types vmlinux's
 * lacks, each module its own copy (drm_gem_object is in all three), and
 * refers to vmlinux's types by their ids.
 *
 * Type strings: "char", "u8", "u16", "u32", "int", "u64", "long", "bool",
 * "ptr" (void *), "struct NAME", "union NAME", "enum NAME", each with an
 * optional "[N]".  A name starting with '.' is anonymous: it is added with
 * no name and a member of that type with no name is searched through, as
 * C searches anonymous structs and unions.
 */
#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

#define MAX_FIELDS 40

enum {
	IN_VMLINUX = 1 << BTF_VMLINUX,
	IN_DRM = 1 << BTF_DRM,
	IN_AMDGPU = 1 << BTF_AMDGPU,
	IN_SHMEM = 1 << BTF_SHMEM,
	IN_GPU_MODULES = IN_DRM | IN_AMDGPU | IN_SHMEM,
};

struct tfield {
	const char *name;
	const char *type;
	uint32_t off;
};

struct tdef {
	const char *name;
	unsigned int where;
	bool is_union;
	uint32_t size;
	struct tfield f[MAX_FIELDS];
};

struct tenum {
	const char *name;
	unsigned int where;
	const char *names[8];
};

static const struct tenum enums[] = {
	{ "module_state", IN_VMLINUX,
	  { "MODULE_STATE_LIVE", "MODULE_STATE_COMING", "MODULE_STATE_GOING",
	    "MODULE_STATE_UNFORMED" } },
	{ "maple_type", IN_VMLINUX,
	  { "maple_dense", "maple_leaf_64", "maple_range_64",
	    "maple_arange_64" } },
	{ "ttm_bo_type", IN_AMDGPU,
	  { "ttm_bo_type_device", "ttm_bo_type_kernel", "ttm_bo_type_sg" } },
};

/* In dependency order: a struct is defined before one that embeds it. */
static const struct tdef types[] = {
	/* vmlinux */
	{ "list_head", IN_VMLINUX, false, 16,
	  { { "next", "ptr", 0 }, { "prev", "ptr", 8 } } },
	{ "kernel_symbol", IN_VMLINUX, false, 12,
	  { { "value_offset", "int", 0 }, { "name_offset", "int", 4 },
	    { "namespace_offset", "int", 8 } } },
	{ "mod_kallsyms", IN_VMLINUX, false, 40,
	  { { "symtab", "ptr", 0 }, { "num_symtab", "u32", 8 },
	    { "strtab", "ptr", 16 }, { "typetab", "ptr", 24 },
	    { "percpu", "ptr", 32 } } },
	{ "module", IN_VMLINUX, false, 1024,
	  { { "state", "enum module_state", 0 }, { "list", "struct list_head", 8 },
	    { "name", "char[56]", 24 }, { "syms", "ptr", 80 },
	    { "crcs", "ptr", 88 }, { "num_syms", "u32", 96 },
	    { "gpl_syms", "ptr", 104 }, { "num_gpl_syms", "u32", 112 },
	    { "core_layout_base", "ptr", 128 }, { "core_layout_size", "u32", 136 },
	    { "kallsyms", "ptr", 640 },
	    { "core_kallsyms", "struct mod_kallsyms", 648 },
	    { "btf_data_size", "u32", 720 }, { "btf_data", "ptr", 728 } } },
	{ "btf", IN_VMLINUX, false, 256,
	  { { "data", "ptr", 0 }, { "types", "ptr", 8 }, { "resolved_ids", "ptr", 16 },
	    { "resolved_sizes", "ptr", 24 }, { "strings", "ptr", 32 },
	    { "nohdr_data", "ptr", 40 }, { "data_size", "u32", 168 },
	    { "id", "u32", 172 }, { "name", "char[56]", 192 } } },
	{ "btf_module", IN_VMLINUX, false, 48,
	  { { "list", "struct list_head", 0 }, { "module", "ptr", 16 },
	    { "btf", "ptr", 24 }, { "sysfs_attr", "ptr", 32 }, { "flags", "int", 40 } } },
	{ "maple_tree", IN_VMLINUX, false, 24,
	  { { "ma_lock", "u32", 0 }, { "ma_root", "ptr", 8 }, { "ma_flags", "u32", 16 } } },
	{ "maple_metadata", IN_VMLINUX, false, 2,
	  { { "end", "u8", 0 }, { "gap", "u8", 1 } } },
	{ ".mr64_tail", IN_VMLINUX, false, 128,
	  { { "pad", "ptr[15]", 0 }, { "meta", "struct maple_metadata", 120 } } },
	{ ".mr64_slots", IN_VMLINUX, true, 128,
	  { { "slot", "ptr[16]", 0 }, { "", "struct .mr64_tail", 0 } } },
	{ "maple_range_64", IN_VMLINUX, false, 256,
	  { { "parent", "ptr", 0 }, { "pivot", "long[15]", 8 },
	    { "", "union .mr64_slots", 128 } } },
	{ "maple_arange_64", IN_VMLINUX, false, 256,
	  { { "parent", "ptr", 0 }, { "pivot", "long[9]", 8 },
	    { "slot", "ptr[10]", 80 }, { "gap", "long[10]", 160 },
	    { "meta", "struct maple_metadata", 240 } } },
	{ ".mn_dense", IN_VMLINUX, false, 256,
	  { { "parent", "ptr", 0 }, { "slot", "ptr[31]", 8 } } },
	{ ".mn_union", IN_VMLINUX, true, 256,
	  { { "", "struct .mn_dense", 0 }, { "mr64", "struct maple_range_64", 0 },
	    { "ma64", "struct maple_arange_64", 0 } } },
	{ "maple_node", IN_VMLINUX, false, 256, { { "", "union .mn_union", 0 } } },
	{ "xarray", IN_VMLINUX, false, 16,
	  { { "xa_lock", "u32", 0 }, { "xa_flags", "u32", 4 }, { "xa_head", "ptr", 8 } } },
	{ "xa_node", IN_VMLINUX, false, 576,
	  { { "shift", "u8", 0 }, { "offset", "u8", 1 }, { "count", "u8", 2 },
	    { "nr_values", "u8", 3 }, { "parent", "ptr", 8 }, { "array", "ptr", 16 },
	    { "private_list", "struct list_head", 24 }, { "slots", "ptr[64]", 40 },
	    { "marks", "long[3]", 552 } } },
	{ "idr", IN_VMLINUX, false, 24,
	  { { "idr_rt", "struct xarray", 0 }, { "idr_base", "u32", 16 },
	    { "idr_next", "u32", 20 } } },
	{ "vm_area_struct", IN_VMLINUX, false, 152,
	  { { "vm_start", "long", 0 }, { "vm_end", "long", 8 }, { "vm_mm", "ptr", 16 },
	    { "vm_page_prot", "long", 24 }, { "vm_flags", "long", 32 },
	    { "anon_vma_chain", "struct list_head", 88 }, { "anon_vma", "ptr", 104 },
	    { "vm_ops", "ptr", 112 }, { "vm_pgoff", "long", 120 },
	    { "vm_file", "ptr", 128 }, { "vm_private_data", "ptr", 136 } } },
	{ "mm_struct", IN_VMLINUX, false, 1024,
	  { { "mm_mt", "struct maple_tree", 0 }, { "mmap_base", "long", 32 },
	    { "task_size", "long", 48 }, { "pgd", "ptr", 80 },
	    { "mm_users", "int", 88 }, { "mm_count", "int", 92 },
	    { "map_count", "int", 96 }, { "total_vm", "long", 200 },
	    { "start_code", "long", 264 }, { "end_code", "long", 272 },
	    { "start_data", "long", 280 }, { "end_data", "long", 288 },
	    { "start_brk", "long", 296 }, { "brk", "long", 304 },
	    { "start_stack", "long", 312 }, { "arg_start", "long", 320 },
	    { "owner", "ptr", 400 } } },
	{ "signal_struct", IN_VMLINUX, false, 512,
	  { { "sigcnt", "int", 0 }, { "live", "int", 4 }, { "nr_threads", "int", 8 },
	    { "thread_head", "struct list_head", 16 } } },
	{ "task_struct", IN_VMLINUX, false, 2048,
	  { { "__state", "u32", 24 }, { "stack", "ptr", 32 }, { "flags", "u32", 44 },
	    { "on_cpu", "int", 64 }, { "prio", "int", 112 },
	    { "tasks", "struct list_head", 1000 }, { "mm", "ptr", 1040 },
	    { "active_mm", "ptr", 1048 }, { "exit_state", "int", 1064 },
	    { "pid", "int", 1300 }, { "tgid", "int", 1304 },
	    { "real_parent", "ptr", 1312 }, { "parent", "ptr", 1320 },
	    { "children", "struct list_head", 1328 }, { "sibling", "struct list_head", 1344 },
	    { "group_leader", "ptr", 1360 }, { "thread_node", "struct list_head", 1376 },
	    { "comm", "char[16]", 1560 }, { "files", "ptr", 1600 },
	    { "signal", "ptr", 1640 } } },

	/* drm, and in the drivers' BTF their own copies */
	{ "drm_driver", IN_DRM, false, 448,
	  { { "load", "ptr", 0 }, { "open", "ptr", 8 }, { "postclose", "ptr", 16 },
	    { "major", "int", 360 }, { "minor", "int", 364 }, { "patchlevel", "int", 368 },
	    { "name", "ptr", 376 }, { "desc", "ptr", 384 }, { "date", "ptr", 392 },
	    { "driver_features", "u32", 400 }, { "fops", "ptr", 440 } } },
	{ "drm_minor", IN_DRM, false, 64,
	  { { "index", "int", 0 }, { "type", "int", 4 }, { "kdev", "ptr", 8 },
	    { "dev", "ptr", 16 }, { "debugfs_root", "ptr", 24 },
	    { "debugfs_list", "struct list_head", 32 } } },
	{ "drm_device", IN_DRM, false, 1536,
	  { { "if_version", "int", 0 }, { "ref", "int", 4 }, { "dev", "ptr", 8 },
	    { "driver", "ptr", 48 }, { "dev_private", "ptr", 56 },
	    { "primary", "ptr", 64 }, { "render", "ptr", 72 },
	    { "registered", "bool", 80 }, { "master", "ptr", 88 },
	    { "driver_features", "u32", 96 }, { "unplugged", "bool", 100 },
	    { "unique", "ptr", 112 }, { "open_count", "int", 200 },
	    { "filelist", "struct list_head", 280 },
	    { "filelist_internal", "struct list_head", 296 },
	    { "clientlist", "struct list_head", 352 } } },
	{ "drm_file", IN_DRM, false, 640,
	  { { "authenticated", "bool", 0 }, { "master", "ptr", 8 },
	    { "pid", "ptr", 24 }, { "magic", "u32", 32 },
	    { "lhead", "struct list_head", 40 }, { "minor", "ptr", 56 },
	    { "object_idr", "struct idr", 64 }, { "table_lock", "u32", 88 },
	    { "syncobj_idr", "struct idr", 96 }, { "filp", "ptr", 128 },
	    { "driver_priv", "ptr", 136 }, { "fbs", "struct list_head", 144 },
	    { "event_space", "int", 400 } } },
	{ "drm_gem_object_funcs", IN_GPU_MODULES, false, 96,
	  { { "free", "ptr", 0 }, { "open", "ptr", 8 }, { "close", "ptr", 16 },
	    { "print_info", "ptr", 24 }, { "export", "ptr", 32 }, { "pin", "ptr", 40 },
	    { "unpin", "ptr", 48 }, { "get_sg_table", "ptr", 56 }, { "vmap", "ptr", 64 },
	    { "vunmap", "ptr", 72 }, { "mmap", "ptr", 80 }, { "vm_ops", "ptr", 88 } } },
	{ "drm_gem_object", IN_GPU_MODULES, false, 320,
	  { { "refcount", "int", 0 }, { "handle_count", "u32", 4 }, { "dev", "ptr", 8 },
	    { "filp", "ptr", 16 }, { "vma_node", "u8[80]", 24 }, { "size", "long", 104 },
	    { "name", "int", 112 }, { "dma_buf", "ptr", 120 },
	    { "import_attach", "ptr", 128 }, { "resv", "ptr", 136 },
	    { "_resv", "u8[144]", 144 }, { "funcs", "ptr", 288 },
	    { "lru_node", "struct list_head", 296 }, { "lru", "ptr", 312 } } },

	/* ttm and amdgpu, in amdgpu's BTF */
	{ "ttm_tt", IN_AMDGPU, false, 48,
	  { { "pages", "ptr", 0 }, { "page_flags", "u32", 8 }, { "num_pages", "u32", 12 },
	    { "sg", "ptr", 16 }, { "dma_address", "ptr", 24 },
	    { "swap_storage", "ptr", 32 }, { "caching", "u32", 40 } } },
	{ "ttm_buffer_object", IN_AMDGPU, false, 416,
	  /* base is first in a real kernel; not here, so that readers must use BTF */
	  { { "bdev", "ptr", 0 }, { "type", "enum ttm_bo_type", 8 },
	    { "page_alignment", "u32", 12 }, { "destroy", "ptr", 16 },
	    { "base", "struct drm_gem_object", 24 }, { "kref", "int", 344 }, { "resource", "ptr", 352 },
	    { "ttm", "ptr", 360 }, { "deleted", "bool", 368 }, { "bulk_move", "ptr", 376 },
	    { "ddestroy", "struct list_head", 384 }, { "priority", "u32", 400 },
	    { "pin_count", "u32", 404 }, { "sg", "ptr", 408 } } },
	{ "amdgpu_bo", IN_AMDGPU, false, 544,
	  { { "preferred_domains", "u32", 0 }, { "allowed_domains", "u32", 4 },
	    { "flags", "u64", 56 }, { "tbo", "struct ttm_buffer_object", 64 },
	    { "kmap", "u8[24]", 480 }, { "vm_bo", "ptr", 504 }, { "parent", "ptr", 512 },
	    { "xcp_id", "u32", 520 } } },

	/* the GEM shmem helpers */
	{ "drm_gem_shmem_object", IN_SHMEM, false, 448,
	  { { "base", "struct drm_gem_object", 0 }, { "pages_lock", "u8[32]", 320 },
	    { "pages", "ptr", 352 }, { "pages_use_count", "u32", 360 },
	    { "madv", "int", 364 }, { "madv_list", "struct list_head", 368 },
	    { "sgt", "ptr", 384 }, { "vmap_lock", "u8[32]", 392 },
	    { "vaddr", "ptr", 424 }, { "vmap_use_count", "u32", 432 },
	    { "map_wc", "bool", 436 } } },
};

#define NTYPES (sizeof(types) / sizeof(types[0]))
#define NENUMS (sizeof(enums) / sizeof(enums[0]))

static const struct tdef *find_def(const char *name)
{
	for (size_t i = 0; i < NTYPES; i++)
		if (!strcmp(types[i].name, name))
			return &types[i];
	return NULL;
}

uint32_t bt_size(const char *type)
{
	const struct tdef *d = find_def(type);

	if (!d)
		die("internal: no generated type %s", type);
	return d->size;
}

/* The offset of @path in @d, searching anonymous members as C does. */
static bool find_off(const struct tdef *d, const char *path, uint32_t *off)
{
	const char *dot = strchr(path, '.');
	size_t len = dot ? (size_t)(dot - path) : strlen(path);

	for (int i = 0; i < MAX_FIELDS && d->f[i].name; i++) {
		const struct tfield *f = &d->f[i];
		const char *sub = strchr(f->type, ' ');
		const struct tdef *inner = sub && !strchr(f->type, '[') ? find_def(sub + 1) : NULL;
		uint32_t rest;

		if (*f->name && strlen(f->name) == len && !strncmp(f->name, path, len)) {
			if (!dot) {
				*off = f->off;
				return true;
			}
			if (inner && find_off(inner, dot + 1, &rest)) {
				*off = f->off + rest;
				return true;
			}
			return false;
		}
		if (!*f->name && inner && find_off(inner, path, &rest)) {
			*off = f->off + rest;
			return true;
		}
	}
	return false;
}

/* The byte offset of @path ("member" or "member.member") in @type. */
uint32_t bt_off(const char *type, const char *path)
{
	const struct tdef *d = find_def(type);
	uint32_t off;

	if (!d || !find_off(d, path, &off))
		die("internal: generated type %s has no member %s", type, path);
	return off;
}

/* The bytes of a type string of the table, arrays included. */
static uint32_t type_string_size(const char *type)
{
	static const struct {
		const char *name;
		uint32_t size;
	} scalars[] = { { "char", 1 }, { "u8", 1 }, { "bool", 1 }, { "u16", 2 }, { "u32", 4 },
			{ "int", 4 }, { "u64", 8 }, { "long", 8 }, { "ptr", 8 } };
	const char *bracket = strchr(type, '['), *space = strchr(type, ' ');
	size_t len = bracket ? (size_t)(bracket - type) : strlen(type);
	uint32_t size = 0;

	if (space && !strncmp(type, "enum ", 5))
		size = 4;
	else if (space)
		size = bt_size(strndupa(space + 1, (size_t)(type + len - space - 1)));
	for (size_t i = 0; !space && i < sizeof(scalars) / sizeof(scalars[0]); i++)
		if (strlen(scalars[i].name) == len && !strncmp(type, scalars[i].name, len))
			size = scalars[i].size;
	if (!size)
		die("internal: type string %s", type);
	return bracket ? size * (uint32_t)atoi(bracket + 1) : size;
}

void btf_write_facts(FILE *f)
{
	for (size_t i = 0; i < NTYPES; i++) {
		const struct tdef *d = &types[i];

		if (!(d->where & IN_VMLINUX) || d->name[0] == '.')
			continue;
		fprintf(f, "btf_type %s %u\n", d->name, d->size);
		for (int m = 0; m < MAX_FIELDS && d->f[m].name; m++)
			if (*d->f[m].name)
				fprintf(f, "btf_member %s.%s %u %u\n", d->name, d->f[m].name, d->f[m].off,
					type_string_size(d->f[m].type));
	}
}

/* ---- building ---- */

struct named_id {
	const char *name;
	int id;
};

struct builder {
	struct btf *btf;
	const struct builder *base;	/* vmlinux's, for a module */
	struct named_id ids[160];
	int nids;
	int void_ptr, int_id;
};

static int lookup_id(const struct builder *b, const char *name)
{
	for (; b; b = b->base)
		for (int i = 0; i < b->nids; i++)
			if (!strcmp(b->ids[i].name, name))
				return b->ids[i].id;
	return -1;
}

static void remember(struct builder *b, const char *name, int id)
{
	if (id < 0)
		die("libbpf: cannot add BTF type %s (%d)", name, id);
	if (b->nids == (int)(sizeof(b->ids) / sizeof(b->ids[0])))
		die("internal: too many BTF types");
	b->ids[b->nids].name = name;
	b->ids[b->nids++].id = id;
}

static const struct {
	const char *short_name, *c_name;
	int size, encoding;
} ints[] = {
	{ "char", "char", 1, BTF_INT_CHAR | BTF_INT_SIGNED },
	{ "u8", "unsigned char", 1, 0 },
	{ "u16", "short unsigned int", 2, 0 },
	{ "u32", "unsigned int", 4, 0 },
	{ "int", "int", 4, BTF_INT_SIGNED },
	{ "u64", "long long unsigned int", 8, 0 },
	{ "long", "long unsigned int", 8, 0 },
	{ "bool", "_Bool", 1, BTF_INT_BOOL },
};

/* The id of a type string, adding the array type it needs. */
static int type_id(struct builder *b, const char *type)
{
	char base[64];
	const char *bracket = strchr(type, '[');
	size_t len = bracket ? (size_t)(bracket - type) : strlen(type);
	int id;

	if (len >= sizeof(base))
		die("internal: type %s", type);
	memcpy(base, type, len);
	base[len] = '\0';
	if (!strcmp(base, "ptr")) {
		id = b->void_ptr ? b->void_ptr : b->base->void_ptr;
	} else {
		const char *space = strchr(base, ' ');

		id = lookup_id(b, space ? space + 1 : base);
		if (id < 0)
			die("internal: BTF type %s used before it is made", base);
	}
	if (bracket) {
		int n = atoi(bracket + 1);

		id = btf__add_array(b->btf, b->int_id ? b->int_id : b->base->int_id, id, n);
		if (id < 0)
			die("libbpf: cannot add an array of %s", type);
	}
	return id;
}

/*
 * Arrays must be made before the struct whose members use them (libbpf
 * adds members to the last type added), so each struct's arrays come
 * first.
 */
static void add_struct_with_arrays(struct builder *b, const struct tdef *d)
{
	static char names[NTYPES][MAX_FIELDS][80];
	struct tdef copy = *d;

	for (int i = 0; i < MAX_FIELDS && d->f[i].name; i++) {
		if (!strchr(d->f[i].type, '['))
			continue;
		snprintf(names[d - types][i], sizeof(names[0][0]), "#%d", type_id(b, d->f[i].type));
		copy.f[i].type = names[d - types][i];
	}
	/* "#ID" names an id made above */
	{
		const char *name = copy.name[0] == '.' ? NULL : copy.name;
		int id = copy.is_union ? btf__add_union(b->btf, name, copy.size)
				       : btf__add_struct(b->btf, name, copy.size);

		if (id < 0)
			die("libbpf: cannot add struct %s", copy.name);
		for (int i = 0; i < MAX_FIELDS && copy.f[i].name; i++) {
			const struct tfield *f = &copy.f[i];
			int fid = f->type[0] == '#' ? atoi(f->type + 1) : type_id(b, f->type);

			if (btf__add_field(b->btf, *f->name ? f->name : NULL, fid, f->off * 8, 0))
				die("libbpf: cannot add %s.%s", copy.name, f->name);
		}
		remember(b, copy.name, id);
	}
}

static void add_types(struct builder *b, unsigned int where)
{
	for (size_t i = 0; i < NENUMS; i++) {
		int id;

		if (!(enums[i].where & where))
			continue;
		id = btf__add_enum(b->btf, enums[i].name, 4);
		if (id < 0)
			die("libbpf: cannot add enum %s", enums[i].name);
		for (int v = 0; v < 8 && enums[i].names[v]; v++)
			if (btf__add_enum_value(b->btf, enums[i].names[v], v))
				die("libbpf: cannot add %s", enums[i].names[v]);
		remember(b, enums[i].name, id);
	}
	for (size_t i = 0; i < NTYPES; i++)
		if (types[i].where & where)
			add_struct_with_arrays(b, &types[i]);
}

/* enum pageflags with the bits make_page() sets: PG_reserved is one VMCOREINFO does not give. */
static const struct {
	const char *name;
	int bit;
} pageflags[] = {
	{ "PG_locked", 0 }, { "PG_referenced", PG_referenced }, { "PG_uptodate", PG_uptodate },
	{ "PG_dirty", PG_dirty }, { "PG_lru", PG_lru }, { "PG_active", PG_active },
	{ "PG_slab", PG_slab }, { "PG_swapcache", PG_swapcache }, { "PG_reserved", PG_reserved },
	{ "PG_private", PG_private }, { "PG_head", PG_head }, { "PG_swapbacked", PG_swapbacked },
	{ "PG_hwpoison", PG_hwpoison },
};

static void add_pageflags(struct builder *b)
{
	int id = btf__add_enum(b->btf, "pageflags", 4);

	if (id < 0)
		die("libbpf: cannot add enum pageflags");
	for (size_t i = 0; i < sizeof(pageflags) / sizeof(pageflags[0]); i++)
		if (btf__add_enum_value(b->btf, pageflags[i].name, pageflags[i].bit))
			die("libbpf: cannot add %s", pageflags[i].name);
	remember(b, "pageflags", id);
}

static struct builder vmlinux_builder;

static void *raw_copy(struct btf *btf, uint32_t *size)
{
	const void *raw = btf__raw_data(btf, size);
	void *copy;

	if (!raw)
		die("libbpf: cannot lay out BTF");
	copy = xcalloc(1, *size);
	memcpy(copy, raw, *size);
	return copy;
}

void btf_build(struct gen *g)
{
	struct builder *b = &vmlinux_builder;

	b->btf = btf__new_empty();
	if (!b->btf)
		die("libbpf: btf__new_empty failed");
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		int id = btf__add_int(b->btf, ints[i].c_name, ints[i].size, ints[i].encoding);

		remember(b, ints[i].short_name, id);
		if (!strcmp(ints[i].short_name, "int"))
			b->int_id = id;
	}
	b->void_ptr = btf__add_ptr(b->btf, 0);
	remember(b, "void *", b->void_ptr);
	if (g->amdgpu)
		add_types(b, IN_VMLINUX);
	if (g->nlru)
		add_pageflags(b);
	g->btf[BTF_VMLINUX] = raw_copy(b->btf, &g->btf_size[BTF_VMLINUX]);

	for (int m = BTF_DRM; m < BTF_NR && g->amdgpu; m++) {
		struct builder mb = { .base = b };

		mb.btf = btf__new_empty_split(b->btf);
		if (!mb.btf)
			die("libbpf: btf__new_empty_split failed");
		add_types(&mb, 1u << m);
		g->btf[m] = raw_copy(mb.btf, &g->btf_size[m]);
		btf__free(mb.btf);
	}
	btf__free(b->btf);
}
