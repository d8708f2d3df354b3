// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The --amdgpu layout: what GPU buffer filters walk, with known answers.
 *
 * - Tasks on init_task's tasks list, each with a signal_struct whose
 *   thread_head lists its threads (Xorg has a second one), an mm_struct
 *   with user page tables and its VMAs in a real maple tree: a single
 *   leaf_64 root for small processes, arange_64 internal nodes over
 *   leaf_64 leaves (two or three levels) for big ones, leaves of several
 *   fill levels (full, ending at their max, short with metadata).
 * - The modules drm, drm_shmem_helper and amdgpu on the modules list
 *   (struct module with kallsyms: symtab, strtab, typetab) in the module
 *   area, and on btf_modules with split BTF (gen_btf.c).
 * - Two DRM devices (amdgpu: primary and render minors; vgem) in drm's
 *   drm_minors_idr, their open files (drm_device.filelist, one in-kernel
 *   client on filelist_internal), each with its GEM handle IDR
 *   (drm_file.object_idr, idr_base 1; one handle above 64, for a
 *   two-level xarray).
 * - amdgpu buffer objects (struct amdgpu_bo, its ttm_buffer_object tbo,
 *   whose drm_gem_object base has funcs = amdgpu_gem_object_funcs) with a
 *   struct ttm_tt of scattered pages (single pages and order-2 runs of a
 *   pool, interleaved with plain kernel pages): mapped by one task, by
 *   two, by none (a handle only: a process's, an in-kernel client's, or
 *   one past index 64), by a VMA only (its handle closed); and ones the
 *   filter must leave alone: a VRAM BO without ttm, a swapped-out ttm
 *   whose stale pages array names kernel pages, a populated ttm with NULL
 *   entries.
 * - drm-shmem objects (struct drm_gem_shmem_object, pages of shmem page
 *   cache): mapped and in two files, in a handle only, in a VMA only, and
 *   one without pages.
 * - panic_cpu, __per_cpu_offset and each CPU's current_task: the crashing
 *   CPU runs a thread of Xorg.
 *
 * The facts (gpu_write_facts) list each buffer and each pfn a filter must
 * drop ("gpu_page DRIVER NAME PFN"), and each resident page of each
 * process's stack VMA ("stack_page PID PFN").
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

#define MODULES_VADDR		0xffffffffc0000000ULL
#define PTE_USER		0x004ULL
#define PAGE_USER_RW		(PTE_PRESENT | PTE_RW | PTE_USER | PTE_ACCESSED | \
				 PTE_DIRTY | PTE_NX)
#define PAGE_KERNEL_RW		(PTE_PRESENT | PTE_RW | PTE_ACCESSED | \
				 PTE_DIRTY | PTE_GLOBAL | PTE_NX)
#define ULONG_MAX64		UINT64_MAX

/* Maple tree encoding (include/linux/maple_tree.h, lib/maple_tree.c). */
#define MAPLE_LEAF_64		1
#define MAPLE_ARANGE_64		3
#define MAPLE_ENODE_NULL	0x04
#define MAPLE_ROOT_NODE		0x02
#define MA_ROOT_PARENT		0x01
#define MAPLE_PARENT_RANGE64	0x06
#define MT_FLAGS_ALLOC_RANGE	0x01
#define MT_FLAGS_HEIGHT_OFFSET	2
#define LEAF_SLOTS		16
#define ARANGE_SLOTS		10

/* ttm_tt.page_flags of 6.1 */
#define TTM_TT_FLAG_SWAPPED	0x1u
#define TTM_TT_FLAG_POPULATED	0x80000000u

#define VM_READ			0x1
#define VM_WRITE		0x2
#define VM_EXEC			0x4
#define VM_SHARED		0x8
#define VM_GROWSDOWN		0x100
#define VM_PFNMAP		0x400
#define VM_IO			0x4000

#define MAX_VMAS		400
#define MAX_TASKS		8
#define MAX_BOS			16
#define MAX_BO_PAGES		64
#define MAX_HANDLES		8
#define MAX_MODSYMS		16

struct mod_sym {
	const char *name;
	char type;
	uint64_t addr;
};

struct module_info {
	const char *name;
	enum btf_unit btf;
	uint64_t base, used;		/* module area bump allocator */
	uint64_t module;		/* struct module */
	struct mod_sym syms[MAX_MODSYMS];
	int nsyms;
};

enum { MOD_DRM, MOD_SHMEM, MOD_AMDGPU, MOD_NR };

struct vma_spec {
	uint64_t start, end, flags, ops, private_data, file;
	uint64_t vma;			/* its vm_area_struct, once written */
};

struct task_info {
	int pid, tgid;
	const char *comm;
	uint64_t task, mm, signal;
	uint64_t pgd_paddr;
	struct vma_spec vmas[MAX_VMAS];
	int nvmas;
	uint64_t stack_start, stack_end, start_stack;
	uint64_t stack_pfns[16];
	int nstack;
	int leader;			/* index of the leader, itself for one */
	int tree_levels;
};

enum bo_kind { BO_AMDGPU, BO_SHMEM };

struct bo_info {
	enum bo_kind kind;
	const char *name;
	const char *note;
	uint64_t obj;			/* amdgpu_bo or drm_gem_shmem_object */
	uint64_t gem;			/* its drm_gem_object */
	uint64_t tt;			/* an amdgpu BO's ttm_tt, or 0 */
	uint64_t vma_private;		/* what a VMA mapping it points to */
	uint64_t npages;
	uint64_t pfns[MAX_BO_PAGES];	/* 0: a NULL entry */
	bool drop;			/* its pfns are the filter's to drop */
	char via[160];
};

struct gpu_state {
	struct module_info mods[MOD_NR];
	struct task_info tasks[MAX_TASKS];
	int ntasks;
	struct bo_info bos[MAX_BOS];
	int nbos;
	uint64_t slab_page, slab_used;
	uint64_t rng;
	int crash_task;
	uint64_t devices[2];		/* amdgpu's and vgem's drm_device */
	/* pools of pages handed to buffers */
	uint64_t pool[256];
	bool pool_used[256];
	int npool;
};

static struct gpu_state *st(struct gen *g)
{
	return g->gpu;
}

/* ---- memory ---- */

static void w8(struct gen *g, uint64_t va, uint8_t v)
{
	kv_write(g, va, &v, 1);
}

static void w32(struct gen *g, uint64_t va, uint32_t v)
{
	uint8_t b[4];

	put_le32(b, v);
	kv_write(g, va, b, 4);
}

static void w64(struct gen *g, uint64_t va, uint64_t v)
{
	kv_write64(g, va, v);
}

static void wstr(struct gen *g, uint64_t va, const char *s)
{
	kv_write(g, va, s, strlen(s) + 1);
}

/* A field of a generated struct: bt_off() keeps BTF and memory in step. */
static void wf64(struct gen *g, uint64_t obj, const char *type, const char *member, uint64_t v)
{
	w64(g, obj + bt_off(type, member), v);
}

static void wf32(struct gen *g, uint64_t obj, const char *type, const char *member, uint32_t v)
{
	w32(g, obj + bt_off(type, member), v);
}

/* kmalloc: objects in slab pages of the direct map, never across a page. */
static uint64_t kzalloc(struct gen *g, uint64_t size, uint64_t align)
{
	struct gpu_state *s = st(g);
	uint64_t off;

	if (size > PAGE_SIZE) {
		uint64_t n = (size + PAGE_SIZE - 1) / PAGE_SIZE;

		return dm_vaddr(g, pages_alloc(g, n, 1, PC_KERNEL));
	}
	off = (s->slab_used + align - 1) & ~(align - 1);
	if (!s->slab_page || off + size > PAGE_SIZE) {
		s->slab_page = page_alloc(g, PC_SLAB);
		off = 0;
	}
	s->slab_used = off + size;
	return dm_vaddr(g, s->slab_page + off);
}

/* Module memory: 4 KiB pages mapped in the module area, as module_alloc does. */
static uint64_t mod_alloc(struct gen *g, struct module_info *m, uint64_t size, uint64_t align)
{
	uint64_t off = (m->used + align - 1) & ~(align - 1);

	for (uint64_t p = (m->used + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1); p < off + size;
	     p += PAGE_SIZE)
		pt_map(g, m->base + p, page_alloc(g, PC_KERNEL), PAGE_SIZE, PAGE_KERNEL_RW, true);
	m->used = off + size;
	return m->base + off;
}

static void list_init(struct gen *g, uint64_t head)
{
	w64(g, head, head);
	w64(g, head + 8, head);
}

static uint64_t r64(struct gen *g, uint64_t va)
{
	uint64_t pa, size;

	if (!pt_walk(g, va, &pa, &size))
		die("internal: read of unmapped %#" PRIx64, va);
	return get_le64(phys_ptr(g, pa, 8));
}

/* Links @node between @prev and @next. */
static void list_link(struct gen *g, uint64_t node, uint64_t prev, uint64_t next)
{
	w64(g, node, next);
	w64(g, node + 8, prev);
	w64(g, prev, node);
	w64(g, next + 8, node);
}

static void list_add_tail(struct gen *g, uint64_t node, uint64_t head)
{
	list_link(g, node, r64(g, head + 8), head);
}

static void list_add(struct gen *g, uint64_t node, uint64_t head)
{
	list_link(g, node, head, r64(g, head));
}

static uint64_t page_struct(const struct gen *g, uint64_t pfn)
{
	return g->vmemmap_base + pfn * STRUCT_PAGE_SIZE;
}

/* ---- xarrays and IDRs (include/linux/xarray.h) ---- */

#define XA_CHUNK_SHIFT 6
#define XA_CHUNK_SIZE 64

static uint64_t xa_node_build(struct gen *g, uint64_t xa, uint64_t parent, int offset,
			      int shift, uint64_t base, int n, const uint64_t *idx,
			      const uint64_t *entry)
{
	uint64_t node = kzalloc(g, bt_size("xa_node"), 64);
	int count = 0;

	w8(g, node + bt_off("xa_node", "shift"), shift);
	w8(g, node + bt_off("xa_node", "offset"), offset);
	wf64(g, node, "xa_node", "parent", parent);
	wf64(g, node, "xa_node", "array", xa);
	list_init(g, node + bt_off("xa_node", "private_list"));
	for (int slot = 0; slot < XA_CHUNK_SIZE; slot++) {
		uint64_t lo = base + ((uint64_t)slot << shift), hi = lo + (1ULL << shift);
		int first = -1, k = 0;
		uint64_t v;

		for (int i = 0; i < n; i++)
			if (idx[i] >= lo && idx[i] < hi) {
				if (first < 0)
					first = i;
				k++;
			}
		if (!k)
			continue;
		v = shift ? xa_node_build(g, xa, node, slot, shift - XA_CHUNK_SHIFT, lo, k,
					  idx + first, entry + first) + 2
			  : entry[first];
		w64(g, node + bt_off("xa_node", "slots") + 8 * slot, v);
		count++;
	}
	w8(g, node + bt_off("xa_node", "count"), count);
	return node;
}

/* Stores entry[i] at idx[i] (ascending) in the xarray at @xa. */
static void xa_build(struct gen *g, uint64_t xa, int n, const uint64_t *idx,
		     const uint64_t *entry)
{
	int shift = 0;

	if (!n)
		return;
	if (n == 1 && idx[0] == 0) {
		wf64(g, xa, "xarray", "xa_head", entry[0]);
		return;
	}
	while (idx[n - 1] >> shift >= XA_CHUNK_SIZE)
		shift += XA_CHUNK_SHIFT;
	wf64(g, xa, "xarray", "xa_head",
	     xa_node_build(g, xa, 0, 0, shift, 0, n, idx, entry) + 2);
}

static void idr_build(struct gen *g, uint64_t idr, uint32_t base, int n, const uint64_t *ids,
		      const uint64_t *entry)
{
	uint64_t idx[MAX_HANDLES + 4];

	for (int i = 0; i < n; i++)
		idx[i] = ids[i] - base;
	wf32(g, idr, "idr", "idr_base", base);
	xa_build(g, idr + bt_off("idr", "idr_rt"), n, idx, entry);
}

/* ---- maple trees of VMAs (lib/maple_tree.c) ---- */

struct span {
	uint64_t last, entry;
};

struct mnode {
	uint64_t addr;			/* the node */
	uint64_t min, max;
	uint64_t gap;			/* largest NULL range below it */
};

static uint64_t mt_enode(uint64_t node, int type)
{
	return node | (uint64_t)type << 3 | MAPLE_ENODE_NULL;
}

/*
 * Writes a range node's slots: pivot i is slot i's last index; the last
 * slot in use ends at the node's max, its pivot written unless it is the
 * last slot; metadata gives where the data ends when the last pivot
 * would otherwise be 0.
 */
static void mt_fill(struct gen *g, uint64_t node, const char *type, int nslots, int n,
		    const uint64_t *last, const uint64_t *slot, uint64_t max)
{
	for (int i = 0; i < n; i++) {
		if (i < nslots - 1)
			w64(g, node + bt_off(type, "pivot") + 8 * i, i == n - 1 ? max : last[i]);
		w64(g, node + bt_off(type, "slot") + 8 * i, slot[i]);
	}
	if (n < nslots)
		w8(g, node + bt_off(type, "meta.end"), n - 1);
}

static void mt_set_parent(struct gen *g, uint64_t node, uint64_t parent, int slot)
{
	w64(g, node + bt_off("maple_node", "parent"),
	    parent | (uint64_t)slot << 3 | MAPLE_PARENT_RANGE64);
}

/* Builds the VMA tree of @t at its mm's mm_mt; returns the tree's height. */
static int mt_build(struct gen *g, struct task_info *t)
{
	static struct span spans[2 * MAX_VMAS + 2];
	static struct mnode level[2][2 * MAX_VMAS + 2];
	uint64_t tree = t->mm + bt_off("mm_struct", "mm_mt");
	uint64_t prev_end = 0, sizes[] = { 7, 16, 12, 15, 9, 5, 16, 11 };
	int nspans = 0, nnodes = 0, height = 1, cur = 0;

	for (int i = 0; i < t->nvmas; i++) {
		if (t->vmas[i].start > prev_end)
			spans[nspans++] = (struct span){ t->vmas[i].start - 1, 0 };
		spans[nspans++] = (struct span){ t->vmas[i].end - 1, t->vmas[i].vma };
		prev_end = t->vmas[i].end;
	}
	spans[nspans++] = (struct span){ ULONG_MAX64, 0 };

	/* Leaves of varied fill, none ending on a NULL it could share. */
	for (int i = 0, k = 0; i < nspans; k++) {
		int n = nspans - i <= LEAF_SLOTS ? nspans - i : (int)sizes[k % 8];
		uint64_t node = kzalloc(g, bt_size("maple_node"), 256), last[LEAF_SLOTS], slot[LEAF_SLOTS];
		uint64_t min = i ? spans[i - 1].last + 1 : 0, gap = 0;

		if (nspans - i > LEAF_SLOTS && nspans - i - n < 2)
			n -= 2;
		for (int j = 0; j < n; j++) {
			uint64_t first = i + j ? spans[i + j - 1].last + 1 : 0;

			last[j] = spans[i + j].last;
			slot[j] = spans[i + j].entry;
			if (!slot[j] && last[j] - first + 1 > gap)
				gap = last[j] - first + 1;
		}
		mt_fill(g, node, "maple_range_64", LEAF_SLOTS, n, last, slot, spans[i + n - 1].last);
		level[cur][nnodes++] = (struct mnode){ mt_enode(node, MAPLE_LEAF_64), min,
						       spans[i + n - 1].last, gap };
		i += n;
	}
	/* arange_64 levels above, until one node holds everything. */
	while (nnodes > 1) {
		int up = 0;

		for (int i = 0; i < nnodes;) {
			int n = nnodes - i <= ARANGE_SLOTS ? nnodes - i : (nnodes - i) / 2 > ARANGE_SLOTS ? 7 : (nnodes - i + 1) / 2;
			uint64_t node = kzalloc(g, bt_size("maple_node"), 256);
			uint64_t last[ARANGE_SLOTS], slot[ARANGE_SLOTS], gap = 0;
			int gap_slot = 0;

			for (int j = 0; j < n; j++) {
				struct mnode *c = &level[cur][i + j];

				last[j] = c->max;
				slot[j] = c->addr;
				mt_set_parent(g, c->addr & ~0xffULL, node, j);
				w64(g, node + bt_off("maple_arange_64", "gap") + 8 * j, c->gap);
				if (c->gap > gap) {
					gap = c->gap;
					gap_slot = j;
				}
			}
			mt_fill(g, node, "maple_arange_64", ARANGE_SLOTS, n, last, slot,
				level[cur][i + n - 1].max);
			if (n == ARANGE_SLOTS)
				w8(g, node + bt_off("maple_arange_64", "meta.end"), n - 1);
			w8(g, node + bt_off("maple_arange_64", "meta.gap"), gap_slot);
			level[!cur][up++] = (struct mnode){ mt_enode(node, MAPLE_ARANGE_64),
							    level[cur][i].min,
							    level[cur][i + n - 1].max, gap };
			i += n;
		}
		cur = !cur;
		nnodes = up;
		height++;
	}
	w64(g, (level[cur][0].addr & ~0xffULL) + bt_off("maple_node", "parent"), tree | MA_ROOT_PARENT);
	wf64(g, tree, "maple_tree", "ma_root", level[cur][0].addr | MAPLE_ROOT_NODE);
	wf32(g, tree, "maple_tree", "ma_flags", MT_FLAGS_ALLOC_RANGE | height << MT_FLAGS_HEIGHT_OFFSET);
	return height;
}

/* ---- modules ---- */

static const char *const module_names[MOD_NR] = { "drm", "drm_shmem_helper", "amdgpu" };
static const enum btf_unit module_btf[MOD_NR] = { BTF_DRM, BTF_SHMEM, BTF_AMDGPU };

static uint64_t mod_object(struct gen *g, int mod, const char *name, char type, uint64_t size)
{
	struct module_info *m = &st(g)->mods[mod];
	uint64_t addr = mod_alloc(g, m, size, 64);

	if (m->nsyms == MAX_MODSYMS)
		die("internal: too many module symbols");
	m->syms[m->nsyms++] = (struct mod_sym){ name, type, addr };
	return addr;
}

static uint64_t mod_symbol(struct gen *g, int mod, const char *name)
{
	struct module_info *m = &st(g)->mods[mod];

	for (int i = 0; i < m->nsyms; i++)
		if (!strcmp(m->syms[i].name, name))
			return m->syms[i].addr;
	die("internal: module %s has no %s", m->name, name);
}

/* Some text for each module, so that its symbols are not all data. */
static void mod_text(struct gen *g, int mod, const char *const *names)
{
	for (int i = 0; names[i]; i++) {
		uint64_t a = mod_object(g, mod, names[i], 't', 0x80 + 0x40 * i);
		uint8_t code[0x80];

		for (size_t j = 0; j < sizeof(code); j++)
			code[j] = (uint8_t)rng_next(&st(g)->rng);
		kv_write(g, a, code, sizeof(code));
	}
}

/*
 * struct module, its kallsyms (symtab after the null symbol, strtab,
 * typetab), and its btf_modules entry; both lists take the newest module
 * first, as the kernel's list_add() puts it.
 */
static void module_finish(struct gen *g, int mod)
{
	struct module_info *m = &st(g)->mods[mod];
	uint64_t module = mod_alloc(g, m, bt_size("module"), 64);
	uint64_t strtab_len = 1, off = 1;
	uint64_t symtab, strtab, typetab, btf_data, btf, bm;
	uint8_t sym[24];

	m->module = module;
	for (int i = 0; i < m->nsyms; i++)
		strtab_len += strlen(m->syms[i].name) + 1;
	symtab = mod_alloc(g, m, 24 * (m->nsyms + 1), 8);
	strtab = mod_alloc(g, m, strtab_len, 1);
	typetab = mod_alloc(g, m, m->nsyms + 1, 1);
	w8(g, strtab, 0);
	w8(g, typetab, 'U');
	for (int i = 0; i < m->nsyms; i++) {
		memset(sym, 0, sizeof(sym));
		put_le32(sym, off);
		sym[4] = m->syms[i].type == 't' ? 0x02 : 0x01;	/* STT_FUNC, STT_OBJECT */
		put_le16(sym + 6, 1);
		put_le64(sym + 8, m->syms[i].addr);
		put_le64(sym + 16, 8);
		kv_write(g, symtab + 24 * (i + 1), sym, sizeof(sym));
		wstr(g, strtab + off, m->syms[i].name);
		w8(g, typetab + i + 1, m->syms[i].type);
		off += strlen(m->syms[i].name) + 1;
	}
	kv_write(g, module + bt_off("module", "name"), m->name, strlen(m->name) + 1);
	wf32(g, module, "module", "state", 0);	/* MODULE_STATE_LIVE */
	wf64(g, module, "module", "kallsyms", module + bt_off("module", "core_kallsyms"));
	wf64(g, module, "module", "core_kallsyms.symtab", symtab);
	wf32(g, module, "module", "core_kallsyms.num_symtab", m->nsyms + 1);
	wf64(g, module, "module", "core_kallsyms.strtab", strtab);
	wf64(g, module, "module", "core_kallsyms.typetab", typetab);
	wf64(g, module, "module", "core_layout_base", m->base);
	wf32(g, module, "module", "core_layout_size", (uint32_t)m->used);
	list_add(g, module + bt_off("module", "list"), ksym_addr(g, "modules"));

	/* btf_parse_module() keeps a copy of the module's .BTF */
	btf_data = mod_alloc(g, m, g->btf_size[m->btf], 8);
	kv_write(g, btf_data, g->btf[m->btf], g->btf_size[m->btf]);
	wf64(g, module, "module", "btf_data", btf_data);
	wf32(g, module, "module", "btf_data_size", g->btf_size[m->btf]);
	btf = kzalloc(g, bt_size("btf"), 64);
	wf64(g, btf, "btf", "data", btf_data);
	wf32(g, btf, "btf", "data_size", g->btf_size[m->btf]);
	wf32(g, btf, "btf", "id", 2 + mod);
	wstr(g, btf + bt_off("btf", "name"), m->name);
	bm = kzalloc(g, bt_size("btf_module"), 64);
	wf64(g, bm, "btf_module", "module", module);
	wf64(g, bm, "btf_module", "btf", btf);
	list_add(g, bm + bt_off("btf_module", "list"), ksym_addr(g, "btf_modules"));
}

/* ---- tasks ---- */

static struct task_info *task_new(struct gen *g, int pid, int leader, const char *comm)
{
	struct gpu_state *s = st(g);
	struct task_info *t = &s->tasks[s->ntasks];

	if (s->ntasks == MAX_TASKS)
		die("internal: too many tasks");
	t->pid = pid;
	t->comm = comm;
	t->leader = leader < 0 ? s->ntasks : leader;
	t->tgid = s->tasks[t->leader].pid;
	if (leader < 0)
		t->tgid = pid;
	s->ntasks++;
	return t;
}

static void vma_add(struct task_info *t, uint64_t start, uint64_t end, uint64_t flags,
		    uint64_t ops, uint64_t private_data, uint64_t file)
{
	if (t->nvmas == MAX_VMAS)
		die("internal: too many VMAs");
	if (t->nvmas && start < t->vmas[t->nvmas - 1].end)
		die("internal: VMAs out of order");
	t->vmas[t->nvmas++] = (struct vma_spec){ start, end, flags, ops, private_data, file, 0 };
}

/*
 * A process's usual VMAs: its binary, heap, @nlibs mappings in the mmap
 * area (some adjacent, so the tree has ranges without a gap between),
 * then the GPU mappings the caller added, then the stack.
 */
static void vmas_common(struct gen *g, struct task_info *t, int nlibs)
{
	uint64_t file = kzalloc(g, 64, 8), a = 0x7f3a00000000ULL;

	vma_add(t, 0x400000, 0x401000, VM_READ, 0, 0, file);
	vma_add(t, 0x401000, 0x47b000, VM_READ | VM_EXEC, 0, 0, file);
	vma_add(t, 0x47b000, 0x4a3000, VM_READ, 0, 0, file);
	vma_add(t, 0x4a7000, 0x4aa000, VM_READ | VM_WRITE, 0, 0, file);
	vma_add(t, 0x13330000, 0x13352000, VM_READ | VM_WRITE, 0, 0, 0);
	for (int i = 0; i < nlibs; i++) {
		uint64_t len = (1 + i % 5) * PAGE_SIZE;

		vma_add(t, a, a + len, i % 3 ? VM_READ : VM_READ | VM_EXEC, 0, 0, i % 4 ? file : 0);
		a += len + (i % 3 == 1 ? 0 : (1 + i % 7) * PAGE_SIZE);
	}
}

static uint64_t gpu_vma_base(const struct task_info *t)
{
	return 0x7f6000000000ULL + (uint64_t)t->pid * 0x10000000ULL;
}

static void vma_stack(struct gen *g, struct task_info *t)
{
	uint64_t end = 0x7ffc5a2fa000ULL - (uint64_t)t->pid * 0x10000000ULL;

	(void)g;
	t->stack_start = end - 33 * PAGE_SIZE;
	t->stack_end = end;
	t->start_stack = end - 0x1c8;
	vma_add(t, t->stack_start, t->stack_end, VM_READ | VM_WRITE | VM_GROWSDOWN, 0, 0, 0);
	/* the vvar/vdso pair above it */
	vma_add(t, end + 0xf9000, end + 0xfd000, VM_READ | VM_PFNMAP | VM_IO, 0, 0, 0);
	vma_add(t, end + 0xfd000, end + 0xff000, VM_READ | VM_EXEC, 0, 0, 0);
}

/* User page tables: the kernel half of init_top_pgt, the stack's resident pages. */
static void mm_page_tables(struct gen *g, struct task_info *t)
{
	uint64_t kernel_pgd = g->pgd_paddr;
	static const int resident[] = { 32, 31, 30, 29, 28, 25, 17 };

	t->pgd_paddr = page_alloc(g, PC_KERNEL);
	g->pgd_paddr = t->pgd_paddr;
	for (size_t i = 0; i < sizeof(resident) / sizeof(resident[0]); i++) {
		uint64_t pa = page_alloc(g, PC_ANON), va = t->stack_start + resident[i] * PAGE_SIZE;

		fill_marker_page(g, pa >> PAGE_SHIFT, MK_STACK);
		pt_map(g, va, pa, PAGE_SIZE, PAGE_USER_RW, true);
		t->stack_pfns[t->nstack++] = pa >> PAGE_SHIFT;
	}
	g->pgd_paddr = kernel_pgd;
}

static void task_write(struct gen *g, struct task_info *t)
{
	struct gpu_state *s = st(g);
	struct task_info *leader = &s->tasks[t->leader];
	uint64_t task = t->task;

	wf32(g, task, "task_struct", "pid", t->pid);
	wf32(g, task, "task_struct", "tgid", t->tgid);
	kv_write(g, task + bt_off("task_struct", "comm"), t->comm, strlen(t->comm) + 1);
	wf64(g, task, "task_struct", "stack", kzalloc(g, 64, 64));
	wf64(g, task, "task_struct", "mm", leader->mm);
	wf64(g, task, "task_struct", "active_mm", leader->mm);
	wf64(g, task, "task_struct", "group_leader", leader->task);
	wf64(g, task, "task_struct", "signal", leader->signal);
	list_init(g, task + bt_off("task_struct", "children"));
	list_add_tail(g, task + bt_off("task_struct", "thread_node"),
		      leader->signal + bt_off("signal_struct", "thread_head"));
	if (t->leader == t - s->tasks)
		list_add_tail(g, task + bt_off("task_struct", "tasks"),
			      ksym_addr(g, "init_task") + bt_off("task_struct", "tasks"));
	else
		list_init(g, task + bt_off("task_struct", "tasks"));
}

static void mm_write(struct gen *g, struct task_info *t)
{
	wf64(g, t->mm, "mm_struct", "pgd", dm_vaddr(g, t->pgd_paddr));
	wf64(g, t->mm, "mm_struct", "start_stack", t->start_stack);
	wf64(g, t->mm, "mm_struct", "start_code", 0x401000);
	wf64(g, t->mm, "mm_struct", "end_code", 0x47b000);
	wf64(g, t->mm, "mm_struct", "start_brk", 0x13330000);
	wf64(g, t->mm, "mm_struct", "brk", 0x13352000);
	wf64(g, t->mm, "mm_struct", "owner", t->task);
	wf32(g, t->mm, "mm_struct", "map_count", t->nvmas);
	wf32(g, t->mm, "mm_struct", "mm_users", 1);
	for (int i = 0; i < t->nvmas; i++) {
		struct vma_spec *v = &t->vmas[i];
		uint64_t vma = kzalloc(g, bt_size("vm_area_struct"), 8);

		wf64(g, vma, "vm_area_struct", "vm_start", v->start);
		wf64(g, vma, "vm_area_struct", "vm_end", v->end);
		wf64(g, vma, "vm_area_struct", "vm_mm", t->mm);
		wf64(g, vma, "vm_area_struct", "vm_flags", v->flags);
		wf64(g, vma, "vm_area_struct", "vm_ops", v->ops);
		wf64(g, vma, "vm_area_struct", "vm_private_data", v->private_data);
		wf64(g, vma, "vm_area_struct", "vm_file", v->file);
		list_init(g, vma + bt_off("vm_area_struct", "anon_vma_chain"));
		v->vma = vma;
	}
	t->tree_levels = mt_build(g, t);
}

/* ---- buffers ---- */

static struct bo_info *bo_new(struct gen *g, enum bo_kind kind, const char *name, uint64_t npages,
			      bool drop, const char *note)
{
	struct gpu_state *s = st(g);
	struct bo_info *b;

	if (s->nbos == MAX_BOS || npages > MAX_BO_PAGES)
		die("internal: too many buffers or pages");
	b = &s->bos[s->nbos++];
	b->kind = kind;
	b->name = name;
	b->npages = npages;
	b->drop = drop;
	b->note = note;
	return b;
}

/* Notes a way to the buffer: "vma:PID", "handle:PID/HANDLE", "internal/HANDLE". */
static void bo_via(struct bo_info *b, const char *how, int pid, int handle)
{
	size_t len = strlen(b->via);

	if (!strcmp(how, "vma"))
		snprintf(b->via + len, sizeof(b->via) - len, "%svma:%d", len ? "," : "", pid);
	else if (pid)
		snprintf(b->via + len, sizeof(b->via) - len, "%shandle:%d/%d", len ? "," : "", pid,
			 handle);
	else
		snprintf(b->via + len, sizeof(b->via) - len, "%sinternal/%d", len ? "," : "", handle);
}

/* A free page of the pool, at random; with @order, an aligned run of 1 << order. */
static int pool_take(struct gen *g, int order)
{
	struct gpu_state *s = st(g);
	int n = 1 << order;

	for (int tries = 0; tries < 10000; tries++) {
		int i = (int)(rng_next(&s->rng) % (uint64_t)s->npool) & ~(n - 1);
		bool free = i + n <= s->npool;

		for (int j = 0; free && j < n; j++)
			free = !s->pool_used[i + j] && s->pool[i + j] == s->pool[i] + j;
		if (!free)
			continue;
		for (int j = 0; j < n; j++)
			s->pool_used[i + j] = true;
		return i;
	}
	die("internal: the page pool is used up");
}

/*
 * The pages of an amdgpu BO as TTM's pool hands them out: runs of
 * 2^order pages where it can, single pages else, in pages[] order.
 */
static void bo_pages_ttm(struct gen *g, struct bo_info *b, const char *orders)
{
	struct gpu_state *s = st(g);
	uint64_t i = 0;

	for (const char *o = orders; i < b->npages; o = *o && o[1] ? o + 1 : o) {
		int order = *o ? *o - '0' : 0, at;

		if (i + (1u << order) > b->npages)
			order = 0;
		at = pool_take(g, order);
		for (int j = 0; j < 1 << order; j++)
			b->pfns[i++] = s->pool[at + j];
	}
}

static uint64_t pages_array(struct gen *g, const struct bo_info *b)
{
	uint64_t arr = kzalloc(g, 8 * b->npages, 8);

	for (uint64_t i = 0; i < b->npages; i++)
		if (b->pfns[i])
			w64(g, arr + 8 * i, page_struct(g, b->pfns[i]));
	return arr;
}

static void gem_init(struct gen *g, uint64_t gem, uint64_t dev, uint64_t size, uint64_t funcs)
{
	wf32(g, gem, "drm_gem_object", "refcount", 2);
	wf32(g, gem, "drm_gem_object", "handle_count", 1);
	wf64(g, gem, "drm_gem_object", "dev", dev);
	wf64(g, gem, "drm_gem_object", "size", size);
	wf64(g, gem, "drm_gem_object", "resv", gem + bt_off("drm_gem_object", "_resv"));
	wf64(g, gem, "drm_gem_object", "funcs", funcs);
	list_init(g, gem + bt_off("drm_gem_object", "lru_node"));
}

/* struct amdgpu_bo: the ttm_buffer_object tbo inside, and its ttm_tt. */
static void amdgpu_bo_write(struct gen *g, struct bo_info *b, uint64_t dev, uint32_t tt_flags,
			    bool has_tt)
{
	uint64_t bo = kzalloc(g, bt_size("amdgpu_bo"), 64), tbo = bo + bt_off("amdgpu_bo", "tbo");

	b->obj = bo;
	b->gem = tbo + bt_off("ttm_buffer_object", "base");
	b->vma_private = tbo;	/* ttm_bo_mmap_obj() */
	wf32(g, bo, "amdgpu_bo", "preferred_domains", 0x2);	/* GTT */
	wf32(g, bo, "amdgpu_bo", "allowed_domains", 0x6);
	gem_init(g, b->gem, dev, b->npages * PAGE_SIZE,
		 mod_symbol(g, MOD_AMDGPU, "amdgpu_gem_object_funcs"));
	wf32(g, tbo, "ttm_buffer_object", "kref", 1);
	wf64(g, tbo, "ttm_buffer_object", "resource", kzalloc(g, 96, 8));
	list_init(g, tbo + bt_off("ttm_buffer_object", "ddestroy"));
	if (has_tt) {
		uint64_t tt = kzalloc(g, bt_size("ttm_tt"), 8);

		wf64(g, tbo, "ttm_buffer_object", "ttm", tt);
		b->tt = tt;
		wf64(g, tt, "ttm_tt", "pages", pages_array(g, b));
		wf32(g, tt, "ttm_tt", "num_pages", b->npages);
		wf32(g, tt, "ttm_tt", "page_flags", tt_flags);
		wf32(g, tt, "ttm_tt", "caching", 2);
	}
	for (uint64_t i = 0; i < b->npages && b->drop; i++)
		if (b->pfns[i])
			fill_marker_page(g, b->pfns[i], MK_AMDGPU);
}

static void shmem_write(struct gen *g, struct bo_info *b, uint64_t dev, bool populated)
{
	uint64_t obj = kzalloc(g, bt_size("drm_gem_shmem_object"), 64);

	b->obj = obj;
	b->gem = obj + bt_off("drm_gem_shmem_object", "base");
	b->vma_private = b->gem;	/* drm_gem_mmap_obj() */
	gem_init(g, b->gem, dev, b->npages * PAGE_SIZE,
		 mod_symbol(g, MOD_SHMEM, "drm_gem_shmem_funcs"));
	list_init(g, obj + bt_off("drm_gem_shmem_object", "madv_list"));
	wf32(g, obj, "drm_gem_shmem_object", "map_wc", 1);
	if (!populated)
		return;
	for (uint64_t i = 0; i < b->npages; i++) {
		b->pfns[i] = page_alloc(g, PC_SHMEM) >> PAGE_SHIFT;
		fill_marker_page(g, b->pfns[i], MK_VGEM);
	}
	/* shmem hands out pages in no order the filter could rely on */
	for (uint64_t i = b->npages - 1; i > 0; i--) {
		uint64_t j = rng_next(&st(g)->rng) % (i + 1), t = b->pfns[i];

		b->pfns[i] = b->pfns[j];
		b->pfns[j] = t;
	}
	wf64(g, obj, "drm_gem_shmem_object", "pages", pages_array(g, b));
	wf32(g, obj, "drm_gem_shmem_object", "pages_use_count", 1);
}

/* ---- DRM ---- */

struct drm_file_spec {
	int task;			/* index in tasks, -1: an in-kernel client */
	uint64_t dev;
	uint64_t handles[MAX_HANDLES + 4];
	uint64_t objs[MAX_HANDLES + 4];
	int n;
};

static uint64_t drm_file_write(struct gen *g, struct drm_file_spec *f)
{
	uint64_t file = kzalloc(g, bt_size("drm_file"), 64);

	list_add_tail(g, file + bt_off("drm_file", "lhead"),
		      f->dev + bt_off("drm_device", f->task < 0 ? "filelist_internal" : "filelist"));
	list_init(g, file + bt_off("drm_file", "fbs"));
	wf64(g, file, "drm_file", "filp", f->task < 0 ? 0 : kzalloc(g, 256, 64));
	idr_build(g, file + bt_off("drm_file", "object_idr"), 1, f->n, f->handles, f->objs);
	wf32(g, file, "drm_file", "syncobj_idr.idr_base", 1);
	return file;
}

static uint64_t drm_device_write(struct gen *g, uint64_t driver)
{
	uint64_t dev = kzalloc(g, bt_size("drm_device"), 64);

	wf32(g, dev, "drm_device", "ref", 1);
	wf64(g, dev, "drm_device", "driver", driver);
	w8(g, dev + bt_off("drm_device", "registered"), 1);
	list_init(g, dev + bt_off("drm_device", "filelist"));
	list_init(g, dev + bt_off("drm_device", "filelist_internal"));
	list_init(g, dev + bt_off("drm_device", "clientlist"));
	return dev;
}

static uint64_t drm_minor_write(struct gen *g, uint64_t dev, int index, int type,
				const char *slot)
{
	uint64_t minor = kzalloc(g, bt_size("drm_minor"), 64);

	wf32(g, minor, "drm_minor", "index", index);
	wf32(g, minor, "drm_minor", "type", type);
	wf64(g, minor, "drm_minor", "dev", dev);
	list_init(g, minor + bt_off("drm_minor", "debugfs_list"));
	wf64(g, dev, "drm_device", slot, minor);
	return minor;
}

static uint64_t drm_driver_write(struct gen *g, int mod, const char *symbol, const char *name)
{
	uint64_t drv = symbol ? mod_object(g, mod, symbol, 'r', bt_size("drm_driver"))
			      : mod_alloc(g, &st(g)->mods[mod], bt_size("drm_driver"), 64);
	uint64_t str = mod_alloc(g, &st(g)->mods[mod], strlen(name) + 1, 1);

	wstr(g, str, name);
	wf64(g, drv, "drm_driver", "name", str);
	wf32(g, drv, "drm_driver", "major", 1);
	return drv;
}

/* ---- the crashing CPU ---- */

static void percpu_write(struct gen *g, const uint64_t *current)
{
	uint64_t start = ksym_addr(g, "__per_cpu_start"), size = ksym_addr(g, "__per_cpu_end") - start;
	uint64_t current_task = ksym_addr(g, "current_task");

	for (int cpu = 0; cpu < g->ncpus; cpu++) {
		uint64_t area = dm_vaddr(g, memblock_alloc(g, size, PAGE_SIZE));

		w64(g, ksym_addr(g, "__per_cpu_offset") + 8 * cpu, area - start);
		w64(g, area - start + current_task, current[cpu]);
		w32(g, area - start + ksym_addr(g, "cpu_number"), cpu);
	}
}

/* ---- the whole layout ---- */

void gpu_build(struct gen *g)
{
	static const char *const drm_text[] = { "drm_dev_register", "drm_gem_mmap",
						"drm_gem_handle_create", NULL };
	static const char *const shmem_text[] = { "drm_gem_shmem_mmap", "drm_gem_shmem_fault",
						  NULL };
	static const char *const amdgpu_text[] = { "amdgpu_bo_create", "amdgpu_gem_fault",
						   "amdgpu_ttm_tt_populate", NULL };
	struct gpu_state *s = xcalloc(1, sizeof(*s));
	uint64_t amdgpu_vm_ops, shmem_vm_ops, other_vm_ops, amdgpu_funcs, shmem_funcs;
	uint64_t idr, dev0, dev1, minors[3], pool_pa, current[64] = { 0 };
	struct task_info *init, *A, *B, *C, *Bt;
	struct bo_info *bo[10], *sh[4];
	uint64_t base = MODULES_VADDR + 0x5cc000;

	g->gpu = s;
	s->rng = g->seed ^ 0x616d646770750aULL;
	for (int m = 0; m < MOD_NR; m++) {
		s->mods[m].name = module_names[m];
		s->mods[m].btf = module_btf[m];
		s->mods[m].base = base;
		base += 0x400000;
	}
	list_init(g, ksym_addr(g, "modules"));
	list_init(g, ksym_addr(g, "init_task") + bt_off("task_struct", "tasks"));
	list_init(g, ksym_addr(g, "btf_modules"));

	/* module data the filters look for */
	mod_text(g, MOD_DRM, drm_text);
	idr = mod_object(g, MOD_DRM, "drm_minors_idr", 'b', bt_size("idr"));
	mod_text(g, MOD_SHMEM, shmem_text);
	shmem_vm_ops = mod_object(g, MOD_SHMEM, "drm_gem_shmem_vm_ops", 'r', 128);
	shmem_funcs = mod_object(g, MOD_SHMEM, "drm_gem_shmem_funcs", 'r',
				 bt_size("drm_gem_object_funcs"));
	wf64(g, shmem_funcs, "drm_gem_object_funcs", "vm_ops", shmem_vm_ops);
	mod_text(g, MOD_AMDGPU, amdgpu_text);
	amdgpu_vm_ops = mod_object(g, MOD_AMDGPU, "amdgpu_gem_vm_ops", 'r', 128);
	amdgpu_funcs = mod_object(g, MOD_AMDGPU, "amdgpu_gem_object_funcs", 'r',
				  bt_size("drm_gem_object_funcs"));
	wf64(g, amdgpu_funcs, "drm_gem_object_funcs", "vm_ops", amdgpu_vm_ops);
	/* some other driver's mapping: vm_ops neither filter knows */
	other_vm_ops = mod_object(g, MOD_DRM, "drm_vm_ops", 'r', 128);
	for (int i = 0; i < 8; i++) {
		w64(g, amdgpu_vm_ops + 8 * i, ksym_addr(g, "_stext") + 0x100 * i);
		w64(g, shmem_vm_ops + 8 * i, ksym_addr(g, "_stext") + 0x180 * i);
	}

	/* devices and minors: amdgpu's primary (0) and render (128), vgem's (1) */
	dev0 = drm_device_write(g, drm_driver_write(g, MOD_AMDGPU, "amdgpu_kms_driver", "amdgpu"));
	dev1 = drm_device_write(g, drm_driver_write(g, MOD_SHMEM, NULL, "vgem"));
	s->devices[0] = dev0;
	s->devices[1] = dev1;
	minors[0] = drm_minor_write(g, dev0, 0, 0, "primary");
	minors[1] = drm_minor_write(g, dev1, 1, 0, "primary");
	minors[2] = drm_minor_write(g, dev0, 128, 2, "render");
	{
		uint64_t ids[] = { 0, 1, 128 };

		idr_build(g, idr, 0, 3, ids, minors);
	}

	/* tasks */
	init = task_new(g, 1, -1, "init");
	task_new(g, 2, -1, "kthreadd");
	A = task_new(g, 300, -1, "glxgears");
	B = task_new(g, 301, -1, "Xorg");
	C = task_new(g, 302, -1, "vkcube");
	Bt = task_new(g, 305, (int)(B - s->tasks), "Xorg:gdrv0");
	for (int i = 0; i < s->ntasks; i++) {
		struct task_info *t = &s->tasks[i];

		t->task = kzalloc(g, bt_size("task_struct"), 64);
		if (t->leader != i)
			continue;
		t->signal = kzalloc(g, bt_size("signal_struct"), 64);
		list_init(g, t->signal + bt_off("signal_struct", "thread_head"));
		if (t->pid != 2)
			t->mm = kzalloc(g, bt_size("mm_struct"), 64);
	}

	/* the page pool TTM hands pages out of, interleaved with kernel pages */
	s->npool = 160;
	pool_pa = pages_alloc(g, s->npool, 4, PC_KERNEL);
	for (int i = 0; i < s->npool; i++)
		s->pool[i] = (pool_pa >> PAGE_SHIFT) + i;

	/* amdgpu BOs */
	bo[0] = bo_new(g, BO_AMDGPU, "bo1", 16, true, "mapped by glxgears, its handle 1");
	bo_pages_ttm(g, bo[0], "0");
	bo[1] = bo_new(g, BO_AMDGPU, "bo2", 12, true, "mapped by glxgears and Xorg");
	bo_pages_ttm(g, bo[1], "20");
	bo[2] = bo_new(g, BO_AMDGPU, "bo3", 9, true, "in Xorg's handles only");
	bo_pages_ttm(g, bo[2], "0200");
	bo[3] = bo_new(g, BO_AMDGPU, "bo4", 8, true, "in an in-kernel client's handles only");
	bo_pages_ttm(g, bo[3], "2");
	bo[4] = bo_new(g, BO_AMDGPU, "bo5", 6, false, "swapped out: stale pages[]");
	bo[5] = bo_new(g, BO_AMDGPU, "bo6", 32, false, "in VRAM: no ttm");
	bo[6] = bo_new(g, BO_AMDGPU, "bo7", 10, true, "populated with NULL entries");
	bo_pages_ttm(g, bo[6], "0");
	bo[7] = bo_new(g, BO_AMDGPU, "bo8", 7, true, "glxgears' handle 70: a two-level IDR");
	bo_pages_ttm(g, bo[7], "0");
	bo[8] = bo_new(g, BO_AMDGPU, "bo9", 5, true, "mapped by Xorg, its handle closed");
	bo_pages_ttm(g, bo[8], "0");
	bo[9] = bo_new(g, BO_AMDGPU, "bo10", 4, false, "not populated (gutted): stale pages[]");
	/* stale entries name pages that are now plain kernel pages */
	for (int i = 0; i < 6; i++)
		bo[4]->pfns[i] = s->pool[pool_take(g, 0)];
	for (int i = 0; i < 4; i++)
		bo[9]->pfns[i] = s->pool[pool_take(g, 0)];
	bo[6]->pfns[3] = bo[6]->pfns[7] = bo[6]->pfns[8] = 0;
	/* pages of the pool no BO holds are kernel pages; amdgpu_bo_write marks the rest */
	for (int i = 0; i < s->npool; i++)
		fill_marker_page(g, s->pool[i], MK_KERNEL);
	for (int i = 0; i < 10; i++)
		amdgpu_bo_write(g, bo[i], dev0,
				i == 4 ? TTM_TT_FLAG_SWAPPED : i == 9 ? 0 : TTM_TT_FLAG_POPULATED,
				i != 5);

	/* drm-shmem objects of vgem */
	sh[0] = bo_new(g, BO_SHMEM, "shm1", 12, true, "mapped by glxgears, in Xorg's and vkcube's handles");
	sh[1] = bo_new(g, BO_SHMEM, "shm2", 6, true, "in Xorg's handles only");
	sh[2] = bo_new(g, BO_SHMEM, "shm3", 4, false, "no pages");
	sh[3] = bo_new(g, BO_SHMEM, "shm4", 5, true, "mapped by vkcube, its handle closed");
	for (int i = 0; i < 4; i++)
		shmem_write(g, sh[i], dev1, i != 2);

	/* the processes' mappings */
	vmas_common(g, init, 0);
	vmas_common(g, A, 30);
	vma_add(A, gpu_vma_base(A), gpu_vma_base(A) + 16 * PAGE_SIZE,
		VM_READ | VM_WRITE | VM_SHARED | VM_PFNMAP | VM_IO, amdgpu_vm_ops,
		bo[0]->vma_private, kzalloc(g, 64, 8));
	bo_via(bo[0], "vma", A->pid, 0);
	vma_add(A, gpu_vma_base(A) + 0x100000, gpu_vma_base(A) + 0x100000 + 12 * PAGE_SIZE,
		VM_READ | VM_WRITE | VM_SHARED | VM_PFNMAP | VM_IO, amdgpu_vm_ops,
		bo[1]->vma_private, kzalloc(g, 64, 8));
	bo_via(bo[1], "vma", A->pid, 0);
	vma_add(A, gpu_vma_base(A) + 0x200000, gpu_vma_base(A) + 0x200000 + 12 * PAGE_SIZE,
		VM_READ | VM_WRITE | VM_SHARED | VM_PFNMAP, shmem_vm_ops, sh[0]->vma_private,
		kzalloc(g, 64, 8));
	bo_via(sh[0], "vma", A->pid, 0);
	/* another driver's mapping, its private data no GEM object */
	vma_add(A, gpu_vma_base(A) + 0x300000, gpu_vma_base(A) + 0x304000,
		VM_READ | VM_WRITE | VM_SHARED, other_vm_ops, ksym_addr(g, "_text"), 0);
	vma_stack(g, A);

	vmas_common(g, B, 240);
	vma_add(B, gpu_vma_base(B), gpu_vma_base(B) + 12 * PAGE_SIZE,
		VM_READ | VM_WRITE | VM_SHARED | VM_PFNMAP | VM_IO, amdgpu_vm_ops, bo[1]->vma_private,
		kzalloc(g, 64, 8));
	bo_via(bo[1], "vma", B->pid, 0);
	vma_add(B, gpu_vma_base(B) + 0x100000, gpu_vma_base(B) + 0x100000 + 5 * PAGE_SIZE,
		VM_READ | VM_WRITE | VM_SHARED | VM_PFNMAP | VM_IO, amdgpu_vm_ops, bo[8]->vma_private,
		kzalloc(g, 64, 8));
	bo_via(bo[8], "vma", B->pid, 0);
	vma_stack(g, B);

	vmas_common(g, C, 8);
	vma_add(C, gpu_vma_base(C), gpu_vma_base(C) + 5 * PAGE_SIZE,
		VM_READ | VM_WRITE | VM_SHARED | VM_PFNMAP, shmem_vm_ops, sh[3]->vma_private,
		kzalloc(g, 64, 8));
	bo_via(sh[3], "vma", C->pid, 0);
	vma_stack(g, C);
	vma_stack(g, init);

	/* open DRM files and their handles */
	{
		struct drm_file_spec fa = { (int)(A - s->tasks), dev0,
					    { 1, 2, 3, 70 },
					    { bo[0]->gem, bo[1]->gem, bo[5]->gem, bo[7]->gem }, 4 };
		struct drm_file_spec fb = { (int)(B - s->tasks), dev0, { 1, 2, 3, 4 },
					    { bo[1]->gem, bo[2]->gem, bo[4]->gem, bo[6]->gem }, 4 };
		struct drm_file_spec fk = { -1, dev0, { 1, 2 }, { bo[3]->gem, bo[9]->gem }, 2 };
		struct drm_file_spec fv = { (int)(B - s->tasks), dev1, { 1, 2, 3 },
					    { sh[0]->gem, sh[1]->gem, sh[2]->gem }, 3 };
		struct drm_file_spec fc = { (int)(C - s->tasks), dev1, { 1 }, { sh[0]->gem }, 1 };
		struct drm_file_spec *files[] = { &fa, &fb, &fk, &fv, &fc };

		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			struct drm_file_spec *f = files[i];

			drm_file_write(g, f);
			for (int h = 0; h < f->n; h++)
				for (int b = 0; b < s->nbos; b++)
					if (s->bos[b].gem == f->objs[h])
						bo_via(&s->bos[b], "handle",
						       f->task < 0 ? 0 : s->tasks[f->task].pid,
						       (int)f->handles[h]);
		}
	}

	/* mms, tasks, VMA trees */
	for (int i = 0; i < s->ntasks; i++) {
		struct task_info *t = &s->tasks[i];

		if (t->mm && t->leader == i) {
			mm_page_tables(g, t);
			mm_write(g, t);
		}
	}
	for (int i = 0; i < s->ntasks; i++)
		task_write(g, &s->tasks[i]);
	wf32(g, ksym_addr(g, "init_task"), "task_struct", "pid", 0);
	kv_write(g, ksym_addr(g, "init_task") + bt_off("task_struct", "comm"), "swapper/0", 10);

	/* modules last: their symbol tables list everything added above */
	for (int m = 0; m < MOD_NR; m++)
		module_finish(g, m);

	/* the crash: CPU ncpus - 1 runs Xorg's second thread, the others idle */
	for (int cpu = 0; cpu < g->ncpus; cpu++)
		current[cpu] = ksym_addr(g, "init_task");
	current[g->ncpus - 1] = Bt->task;
	if (g->ncpus > 1)
		current[0] = A->task;
	s->crash_task = (int)(Bt - s->tasks);
	percpu_write(g, current);
	w32(g, ksym_addr(g, "panic_cpu"), g->ncpus - 1);
	w32(g, ksym_addr(g, "crashing_cpu"), g->ncpus - 1);

	/* the kernel half of every user page table, as pgd_alloc copies it */
	for (int i = 0; i < s->ntasks; i++) {
		struct task_info *t = &s->tasks[i];

		if (!t->pgd_paddr)
			continue;
		memcpy(phys_ptr(g, t->pgd_paddr + 2048, 2048), phys_ptr(g, g->pgd_paddr + 2048, 2048),
		       2048);
	}
}

void gpu_write_facts(struct gen *g, FILE *f)
{
	struct gpu_state *s = st(g);

	for (int i = 0; i < s->ntasks; i++) {
		struct task_info *t = &s->tasks[i];
		struct task_info *l = &s->tasks[t->leader];

		fprintf(f, "task %d %d %s %#" PRIx64 " %#" PRIx64 " vmas=%d levels=%d\n", t->pid,
			t->tgid, t->comm, t->task, l->mm, l->nvmas, l->tree_levels);
	}
	fprintf(f, "crash_task %d\n", s->tasks[s->crash_task].pid);
	fprintf(f, "drm_device amdgpu %#" PRIx64 "\ndrm_device vgem %#" PRIx64 "\n", s->devices[0],
		s->devices[1]);
	for (int i = 0; i < s->ntasks; i++) {
		struct task_info *t = &s->tasks[i];

		if (t->leader != i || !t->mm)
			continue;
		fprintf(f, "stack_vma %d %#" PRIx64 " %#" PRIx64 " %#" PRIx64 "\n", t->pid,
			t->stack_start, t->stack_end, t->start_stack);
		for (int j = 0; j < t->nstack; j++)
			fprintf(f, "stack_page %d %#" PRIx64 "\n", t->pid, t->stack_pfns[j]);
	}
	for (int i = 0; i < s->nbos; i++) {
		struct bo_info *b = &s->bos[i];
		const char *drv = b->kind == BO_AMDGPU ? "amdgpu" : "shmem";
		int n = 0;

		for (uint64_t j = 0; j < b->npages; j++)
			n += b->drop && b->pfns[j];
		fprintf(f, "gpu_bo %s %s %#" PRIx64 " gem=%#" PRIx64 " tt=%#" PRIx64 " pages=%" PRIu64
			" drop=%d via=%s # %s\n", drv, b->name, b->obj, b->gem, b->tt, b->npages, n,
			*b->via ? b->via : "-", b->note);
		for (uint64_t j = 0; j < b->npages; j++)
			if (b->drop && b->pfns[j])
				fprintf(f, "gpu_page %s %s %#" PRIx64 "\n", drv, b->name, b->pfns[j]);
	}
}

void gpu_write_kallsyms(struct gen *g, FILE *f)
{
	struct gpu_state *s = st(g);

	/* the modules list's order: the newest first */
	for (int m = MOD_NR - 1; m >= 0; m--)
		for (int i = 0; i < s->mods[m].nsyms; i++)
			fprintf(f, "%016" PRIx64 " %c %s\t[%s]\n", s->mods[m].syms[i].addr,
				s->mods[m].syms[i].type, s->mods[m].syms[i].name, s->mods[m].name);
}

void gpu_free(struct gen *g)
{
	for (int i = 0; i < BTF_NR; i++)
		free(g->btf[i]);
	free(g->gpu);
}
