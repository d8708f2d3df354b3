// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Walkers over the crashed kernel's structures.  How the kernel encodes
 * them, as far as the walks need it:
 *
 * Maple tree (include/linux/maple_tree.h, lib/maple_tree.c, 6.1 to 7.x).
 * struct maple_tree.ma_root is NULL, a single entry for index 0, or the
 * root node marked as such: an "internal" xarray-style value ((v & 3) ==
 * 2, MAPLE_ROOT_NODE) above 4096.  An encoded node (mt_mk_node()) is the
 * 256-byte aligned node's address (MAPLE_NODE_MASK 0xff) with its enum
 * maple_type in bits 3-6 and bit 2 (MAPLE_ENODE_NULL) set; in the slots
 * of internal nodes bits 0-1 are clear.  The types: maple_dense (slot i
 * is index min + i), maple_leaf_64 and maple_range_64 (16 slots, 15
 * pivots on 64-bit), maple_arange_64 (10 slots, 9 pivots, and gaps);
 * leaves are the types below maple_range_64.  The counts and offsets come
 * from BTF (the arrays' lengths), the type values from BTF's enum
 * maple_type where it has one.
 *
 * Pivot i is the last index of slot i; slot i begins one past pivot i - 1
 * (at the node's min for slot 0); the last slot of a full node ends at the
 * node's max, which is its parent's pivot for it (ULONG_MAX at the root).
 * Where a node's data ends (ma_data_end()): an arange node keeps it in
 * its metadata (ma64.meta.end); a range or leaf node whose last pivot is
 * 0 keeps it in its metadata (in its last slot's place, mr64.meta.end),
 * one whose last pivot equals the node's max ends there, and otherwise
 * every slot is used.  Pivots rise strictly: a 0 past slot 0 is no data.
 *
 * A node's parent pointer (mte_parent(), mte_parent_slot()) is the tree's
 * address with bit 0 set (MA_ROOT_PARENT) at the root, else the parent
 * node's address with the parent's kind in bits 0-2 (0b110 for the 64-bit
 * range nodes) and the node's slot in the parent in bits 3-7.  A node
 * whose parent pointer names itself is dead (replaced, awaiting RCU
 * freeing): a live tree does not lead to one.  Leaves hold user entries;
 * internal values below 4096 there are reserved (XA_ZERO_ENTRY marks the
 * VMAs of an mm caught half copied) and stand for nothing.  Trees are at
 * most MAPLE_HEIGHT_MAX (31) levels high, with every leaf at one depth.  7.x
 * adds enum maple_type's maple_copy, a node built on the stack while
 * writing, never reachable from a tree: refused like any unknown type.
 *
 * XArray (include/linux/xarray.h, lib/xarray.c).  struct xarray.xa_head
 * is NULL, the single entry of index 0, or an internal entry above 4096:
 * a node, at the entry minus 2.  struct xa_node: shift (the bits of index
 * below its slots), offset (its slot in its parent), parent (NULL at the
 * head), array (the xarray it belongs to), slots[XA_CHUNK_SIZE].  Internal
 * entries in slots: nodes (above 4096; their shift is the parent's minus
 * XA_CHUNK_SHIFT), siblings (0 to XA_CHUNK_SIZE - 2: the slot is part of
 * the multi-index entry in the slot named), XA_RETRY_ENTRY (internal 256)
 * and XA_ZERO_ENTRY (internal 257); value entries have bit 0 set.
 *
 * Every node reached is checked against the node it was reached from (its
 * parent pointer, slot and shift), so a node can be reached only once and
 * only from its parent: a walk of any garbage ends after at most the node
 * bound, usually at the first node that does not fit.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/list.h"
#include "kernel/kernel.h"
#include "kernel/walkers.h"
#include "memory/reader.h"
#include "util/message.h"

/* Encoding constants of include/linux/maple_tree.h and lib/maple_tree.c. */
#define MAPLE_NODE_MASK 0xffull
#define MAPLE_NODE_TYPE_SHIFT 3
#define MAPLE_NODE_TYPE_MASK 0xfu
#define MAPLE_RESERVED_RANGE 4096
#define MAPLE_HEIGHT_MAX 31
#define MA_ROOT_PARENT 1ull
/* The enum maple_type values since 6.1, used where BTF has no enum maple_type. */
enum { MAPLE_DENSE, MAPLE_LEAF_64, MAPLE_RANGE_64, MAPLE_ARANGE_64, MAPLE_TYPES };

/* Internal entries of include/linux/xarray.h: xa_mk_internal(v) is v << 2 | 2. */
#define XA_INTERNAL_TAG 2ull
#define XA_NODE_MIN 4096
/* xa_is_err(): internal entries at or above xa_mk_internal(-MAX_ERRNO). */
#define XA_ERR_MIN ((uint64_t)-4095 << 2 | 2)

/*
 * Bounds on what a sane kernel can hold: a maple tree of 2^24 nodes maps
 * far more VMAs than any process may have (vm.max_map_count), an xarray
 * of 2^24 nodes holds a 4 TiB file's page cache; PID_MAX_LIMIT is 2^22.
 */
#define MAPLE_NODES_MAX (1u << 24)
#define XA_NODES_MAX (1u << 24)
#define TASKS_MAX (1u << 22)
#define VMAS_MAX (1u << 24)
/* Our node buffers; BTF's sizes are checked against them. */
#define NODE_BUF_MAX 1024
#define VMA_BUF_MAX 4096

static bool is_internal(uint64_t entry)
{
	return (entry & 3) == XA_INTERNAL_TAG;
}

/* xa_is_node(): also how a maple tree marks a root that is a node (MAPLE_ROOT_NODE). */
static bool is_node(uint64_t entry)
{
	return is_internal(entry) && entry > XA_NODE_MIN && entry < XA_ERR_MIN;
}

/* A pointer or long of a node read whole from the dump, in the memory's byte order. */
static uint64_t get_u64(const struct walk_ctx *w, const unsigned char *buf, uint64_t offset)
{
	return dump_to_host_bytes(mem_byte_order(w->mem), buf + offset, 8);
}

/* ---- Types from the dump's BTF ---- */

/* A fact of vmlinux's BTF; -ENOENT, with nothing more to say when @quiet, when it lacks it. */
static struct mdf_error *btf_fact(struct walk_ctx *w, const char *path, bool quiet, struct btf_info_result *r)
{
	struct btf_info *bi;
	struct mdf_error *err = kernel_btf(w->kernel, &bi);

	if (err)
		return err;
	err = btf_info_lookup(bi, "vmlinux", path, r);
	if (mdf_error_is_not_found(err)) {
		mdf_error_free(err);
		return quiet ? &mdf_error_not_found : mdf_error(-ENOENT, "the kernel's BTF has no %s", path);
	}
	return err;
}

/* A member's byte offset (not a bitfield's: none of those here is one). */
static struct mdf_error *member(struct walk_ctx *w, const char *path, bool quiet, uint64_t *offset, int64_t *size,
		  int64_t *length)
{
	struct btf_info_result r;
	struct mdf_error *err = btf_fact(w, path, quiet, &r);

	if (err)
		return err;
	if (r.kind != BTF_INFO_MEMBER || r.bitfield_size || r.bit_offset % 8)
		return mdf_error(-MDF_ECORRUPT,
				 "the kernel's BTF describes %s as no byte-aligned member", path);
	*offset = r.bit_offset / 8;
	if (size)
		*size = r.size;
	if (length)
		*length = r.array_length;
	return NULL;
}

static struct mdf_error *type_size(struct walk_ctx *w, const char *name, uint64_t *size)
{
	struct btf_info_result r;
	struct mdf_error *err = btf_fact(w, name, false, &r);

	if (err)
		return err;
	if (r.kind != BTF_INFO_TYPE || r.size <= 0)
		return mdf_error(-MDF_ECORRUPT, "the kernel's BTF gives %s no size", name);
	*size = (uint64_t)r.size;
	return NULL;
}

/* A member of @size bytes, or an error naming the unexpected size. */
static struct mdf_error *member_sized(struct walk_ctx *w, const char *path, int64_t want, uint64_t *offset)
{
	int64_t size;
	struct mdf_error *err = member(w, path, false, offset, &size, NULL);

	if (!err && size != want)
		err = mdf_error(-MDF_ECORRUPT,
				"the kernel's BTF gives %s %" PRId64 " bytes, not %" PRId64, path, size, want);
	return err;
}

/* An array of 8-byte elements that must lie within a node of @node_size bytes. */
static struct mdf_error *member_array(struct walk_ctx *w, const char *path, uint64_t node_size, uint64_t *offset,
			uint32_t *length)
{
	int64_t size, len;
	struct mdf_error *err = member(w, path, false, offset, &size, &len);

	if (err)
		return err;
	if (len <= 0 || len > 64 || size != len * 8 || *offset + (uint64_t)size > node_size)
		return mdf_error(-MDF_ECORRUPT,
				 "the kernel's BTF gives %s an unexpected layout (%" PRId64 " elements, %" PRId64
				 " bytes at %" PRIu64 " of %" PRIu64 ")", path, len, size, *offset, node_size);
	*length = (uint32_t)len;
	return NULL;
}

/* ---- list_head lists ---- */

static struct mdf_error *walk_list_what(struct walk_ctx *w, uint64_t head, uint64_t max, const char *what,
					struct mdf_error *(*cb)(uint64_t node, void *arg), void *arg)
{
	struct mdf_error *err;
	struct klist list;
	uint64_t node;

	if (!max)
		max = WALK_LIST_DEFAULT_MAX;
	klist_init(&list, w->mem, head, max > UINT32_MAX ? UINT32_MAX : (uint32_t)max);
	while (!(err = klist_next(&list, &node)) && node) {
		err = cb(node, arg);
		if (err)
			goto out;
	}
	/* The list's own fault: where it is. */
	if (err && list.node == head)
		err = mdf_error_wrap(err, "%s at 0x%" PRIx64, what, head);
	else if (err && err->code != -ENOMEM)
		err = mdf_error_wrap(err, "%s at 0x%" PRIx64 ": entry 0x%" PRIx64, what, head, list.node);
out:
	klist_release(&list);
	return err;
}

struct mdf_error *walk_list(struct walk_ctx *w, uint64_t head, uint64_t max,
			    struct mdf_error *(*cb)(uint64_t node, void *arg), void *arg)
{
	return walk_list_what(w, head, max, "list", cb, arg);
}

/* ---- Maple trees ---- */

struct maple_kind {
	uint64_t pivot, slot, meta_end;
	uint32_t pivots, slots;
};

struct maple_layout {
	uint64_t root;          /* maple_tree.ma_root */
	uint64_t node_size;
	uint64_t parent;        /* maple_node.parent */
	uint64_t dense_slot;    /* maple_node.slot */
	uint32_t dense_slots;
	struct maple_kind range, arange;
	unsigned int type[MAPLE_TYPES];
};

static struct mdf_error *maple_type_value(struct walk_ctx *w, const char *name, unsigned int fallback,
			    unsigned int *value)
{
	struct btf_info_result r;
	char path[64];
	struct mdf_error *err;

	snprintf(path, sizeof(path), "maple_type.%s", name);
	err = btf_fact(w, path, true, &r);
	if (mdf_error_is_not_found(err)) {
		mdf_error_free(err);
		*value = fallback;
		return NULL;
	}
	if (err)
		return err;
	if (r.kind != BTF_INFO_ENUM_VALUE || r.value < 0 || r.value > MAPLE_NODE_TYPE_MASK)
		return mdf_error(-MDF_ECORRUPT,
				 "the kernel's BTF gives %s the unexpected value %" PRId64, path, r.value);
	*value = (unsigned int)r.value;
	return NULL;
}

static struct mdf_error *maple_kind_layout(struct walk_ctx *w, const char *type, uint64_t node_size,
			     struct maple_kind *k)
{
	char path[64];
	uint64_t meta, end;
	struct mdf_error *err;

	snprintf(path, sizeof(path), "%s.pivot", type);
	err = member_array(w, path, node_size, &k->pivot, &k->pivots);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s.slot", type);
	err = member_array(w, path, node_size, &k->slot, &k->slots);
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s.meta", type);
	err = member(w, path, false, &meta, NULL, NULL);
	if (!err)
		err = member_sized(w, "maple_metadata.end", 1, &end);
	if (err)
		return err;
	k->meta_end = meta + end;
	if (k->pivots + 1 != k->slots || k->meta_end >= node_size)
		return mdf_error(-MDF_ECORRUPT,
				 "the kernel's BTF gives struct %s %" PRIu32 " pivots and %" PRIu32
				 " slots: not a maple node as this reader knows it", type, k->pivots, k->slots);
	return NULL;
}

static struct mdf_error *maple_layout(struct walk_ctx *w, struct maple_layout *l)
{
	static const char *const names[MAPLE_TYPES] = {
		"maple_dense", "maple_leaf_64", "maple_range_64", "maple_arange_64",
	};
	struct mdf_error *err;

	err = member_sized(w, "maple_tree.ma_root", 8, &l->root);
	if (!err)
		err = type_size(w, "maple_node", &l->node_size);
	if (err)
		return err;
	if (l->node_size > NODE_BUF_MAX)
		return mdf_error(-MDF_ECORRUPT,
				 "the kernel's BTF gives struct maple_node %" PRIu64 " bytes: more than a "
				 "maple node can be", l->node_size);
	err = member_sized(w, "maple_node.parent", 8, &l->parent);
	if (!err)
		err = member_array(w, "maple_node.slot", l->node_size, &l->dense_slot, &l->dense_slots);
	if (!err)
		err = maple_kind_layout(w, "maple_range_64", l->node_size, &l->range);
	if (!err)
		err = maple_kind_layout(w, "maple_arange_64", l->node_size, &l->arange);
	for (unsigned int t = 0; !err && t < MAPLE_TYPES; t++)
		err = maple_type_value(w, names[t], t, &l->type[t]);
	return err;
}

struct maple_walk {
	struct walk_ctx *w;
	const struct maple_layout *l;
	uint64_t tree;
	uint64_t nodes;
	int leaf_depth;       /* 0 until the first leaf */
	struct mdf_error *(*cb)(uint64_t first, uint64_t last, uint64_t entry, void *arg);
	void *arg;
};

/* Where a range node's data ends (ma_data_end()), or -1 for a contradiction. */
static int maple_data_end(const struct walk_ctx *w, const struct maple_kind *k, bool arange,
			  const unsigned char *buf, uint64_t max)
{
	uint64_t last_pivot = get_u64(w, buf, k->pivot + (k->pivots - 1) * 8);
	unsigned int end = buf[k->meta_end];

	if (!arange && last_pivot) {
		if (last_pivot == max)
			return (int)k->pivots - 1;
		return (int)k->pivots;
	}
	/*
	 * An arange node has room for metadata beside its slots; a range node
	 * keeps it in its last slot, which is then free.
	 */
	return end < (arange ? k->slots : k->pivots) ? (int)end : -1;
}

static struct mdf_error *walk_maple_node(struct maple_walk *mw, uint64_t enode, uint64_t parent, unsigned int slot,
			   uint64_t min, uint64_t max, int depth);

/*
 * The slot of a node in its parent, from its parent pointer
 * (mte_parent_slot()): bits 0-2 say the parent's kind, 0b110 for the
 * 64-bit range nodes of today's trees, the slot in bits 3-7 above them;
 * with bit 1 clear (16-bit nodes, never built) the slot is in bits 2-7.
 */
static unsigned int maple_parent_slot(uint64_t parent_ptr)
{
	if (parent_ptr & 2)
		return (unsigned int)(parent_ptr & 0xf8) >> 3;
	return (unsigned int)(parent_ptr & 0xfc) >> 2;
}

/* Calls back for each entry of a leaf's slot, or descends into a child's. */
static struct mdf_error *maple_slot(struct maple_walk *mw, uint64_t node, bool leaf, unsigned int i, uint64_t entry,
		      uint64_t first, uint64_t last, int depth)
{
	if (leaf) {
		if (!entry || (is_internal(entry) && entry < MAPLE_RESERVED_RANGE))
			return NULL;
		return mw->cb(first, last, entry, mw->arg);
	}
	if ((entry & 3) || entry < MAPLE_RESERVED_RANGE)
		return mdf_error(-MDF_ECORRUPT,
				 "maple tree at 0x%" PRIx64 ": node 0x%" PRIx64 ": slot %u [0x%" PRIx64
				 ", 0x%" PRIx64 "] holds 0x%" PRIx64 ", not a node", mw->tree, node, i, first,
				 last, entry);
	return walk_maple_node(mw, entry, node, i, first, last, depth + 1);
}

static struct mdf_error *walk_maple_node(struct maple_walk *mw, uint64_t enode, uint64_t parent, unsigned int slot,
			   uint64_t min, uint64_t max, int depth)
{
	const struct maple_layout *l = mw->l;
	uint64_t node = enode & ~MAPLE_NODE_MASK, parent_ptr, lo = min;
	unsigned int type = (enode >> MAPLE_NODE_TYPE_SHIFT) & MAPLE_NODE_TYPE_MASK;
	unsigned char buf[NODE_BUF_MAX];
	const struct maple_kind *k;
	struct mdf_error *err;
	bool leaf;
	int end;

	if (depth > MAPLE_HEIGHT_MAX || ++mw->nodes > MAPLE_NODES_MAX)
		return mdf_error(-MDF_ECORRUPT,
				 "maple tree at 0x%" PRIx64 ": node 0x%" PRIx64 " lies %s", mw->tree, node,
				 depth > MAPLE_HEIGHT_MAX ? "deeper than a maple tree can be (31 levels)"
							  : "past 2^24 nodes");
	err = mem_read_virt(mw->w->mem, node, buf, l->node_size);
	if (err) {
		return mdf_error_wrap(err, "maple tree at 0x%" PRIx64 ": node 0x%" PRIx64 " (slot %u of %s 0x%" PRIx64
				      ") cannot be read", mw->tree, node, slot, depth == 1 ? "the tree" : "node",
				      depth == 1 ? mw->tree : parent);
	}
	/*
	 * The parent pointer is what makes the walk safe: a node is accepted
	 * only from the node it names as its parent, so no node is walked twice
	 * and a pointer into unrelated memory is caught at once.
	 */
	parent_ptr = get_u64(mw->w, buf, l->parent);
	if ((parent_ptr & ~MAPLE_NODE_MASK) == node)
		return mdf_error(-MDF_ECORRUPT,
				 "maple tree at 0x%" PRIx64 ": node 0x%" PRIx64 " is dead (its parent pointer "
				 "names itself): one the tree no longer holds", mw->tree, node);
	if (depth == 1 ? parent_ptr != (mw->tree | MA_ROOT_PARENT)
		       : (parent_ptr & MA_ROOT_PARENT) || (parent_ptr & ~MAPLE_NODE_MASK) != parent ||
			 maple_parent_slot(parent_ptr) != slot)
		return mdf_error(-MDF_ECORRUPT,
				 "maple tree at 0x%" PRIx64 ": node 0x%" PRIx64 " (slot %u of 0x%" PRIx64
				 ") has the parent pointer 0x%" PRIx64 ": not a node of this tree", mw->tree,
				 node, slot, depth == 1 ? mw->tree : parent, parent_ptr);

	if (type == l->type[MAPLE_DENSE]) {
		if (mw->leaf_depth && mw->leaf_depth != depth)
			goto bad_depth;
		mw->leaf_depth = depth;
		for (unsigned int i = 0; i < l->dense_slots && lo + i >= lo && lo + i <= max; i++) {
			struct mdf_error *rc = maple_slot(mw, node, true, i,
							  get_u64(mw->w, buf, l->dense_slot + i * 8ull), lo + i, lo + i,
							  depth);

			if (rc)
				return rc;
		}
		return NULL;
	}
	if (type == l->type[MAPLE_LEAF_64] || type == l->type[MAPLE_RANGE_64])
		k = &l->range;
	else if (type == l->type[MAPLE_ARANGE_64])
		k = &l->arange;
	else {
		return mdf_error(-MDF_ECORRUPT,
				 "maple tree at 0x%" PRIx64 ": node 0x%" PRIx64 " (entry 0x%" PRIx64
				 ") has the unknown type %u", mw->tree, node, enode, type);
	}
	leaf = type == l->type[MAPLE_LEAF_64];
	if (leaf) {
		if (mw->leaf_depth && mw->leaf_depth != depth)
			goto bad_depth;
		mw->leaf_depth = depth;
	}
	end = maple_data_end(mw->w, k, k == &l->arange, buf, max);
	if (end < 0)
		return mdf_error(-MDF_ECORRUPT,
				 "maple tree at 0x%" PRIx64 ": node 0x%" PRIx64 ": its metadata gives the "
				 "end of its data as slot %u, past its last pivot", mw->tree, node,
				 buf[k->meta_end]);
	for (unsigned int i = 0; i <= (unsigned int)end; i++) {
		uint64_t hi = i < k->pivots ? get_u64(mw->w, buf, k->pivot + i * 8ull) : max;
		struct mdf_error *rc;

		/* Pivots rise strictly within [min, max]: anything else is no node. */
		if (hi < lo || hi > max || (hi == max && i < (unsigned int)end))
			return mdf_error(-MDF_ECORRUPT,
					 "maple tree at 0x%" PRIx64 ": node 0x%" PRIx64 " [0x%" PRIx64
					 ", 0x%" PRIx64 "]: pivot %u (0x%" PRIx64 ") is out of order", mw->tree,
					 node, min, max, i, hi);
		rc = maple_slot(mw, node, leaf, i, get_u64(mw->w, buf, k->slot + i * 8ull), lo, hi, depth);
		if (rc)
			return rc;
		lo = hi + 1;
	}
	return NULL;

bad_depth:
	return mdf_error(-MDF_ECORRUPT,
			 "maple tree at 0x%" PRIx64 ": leaf 0x%" PRIx64 " is at depth %d, others at %d",
			 mw->tree, node, depth, mw->leaf_depth);
}

struct mdf_error *walk_maple_tree(struct walk_ctx *w, uint64_t tree,
		    struct mdf_error *(*cb)(uint64_t first, uint64_t last, uint64_t entry, void *arg), void *arg)
{
	struct maple_layout l;
	struct maple_walk mw = { .w = w, .l = &l, .tree = tree, .cb = cb, .arg = arg };
	uint64_t root;
	struct mdf_error *err = maple_layout(w, &l);

	if (err)
		return err;
	err = mem_read_u64(w->mem, tree + l.root, &root);
	if (err) {
		return mdf_error_wrap(err, "maple tree at 0x%" PRIx64 ": its root cannot be read", tree);
	}
	if (!root || (is_internal(root) && root < MAPLE_RESERVED_RANGE))
		return NULL;
	if (!is_node(root))
		return cb(0, 0, root, arg);
	return walk_maple_node(&mw, root, 0, 0, 0, UINT64_MAX, 1);
}

/* ---- XArrays ---- */

struct xa_layout {
	uint64_t head;          /* xarray.xa_head */
	uint64_t node_size;
	uint64_t shift, offset, parent, array, slots;
	uint32_t chunk_size, chunk_shift;
};

static struct mdf_error *xa_layout(struct walk_ctx *w, struct xa_layout *l)
{
	struct mdf_error *err = member_sized(w, "xarray.xa_head", 8, &l->head);

	if (!err)
		err = type_size(w, "xa_node", &l->node_size);
	if (err)
		return err;
	if (l->node_size > NODE_BUF_MAX)
		return mdf_error(-MDF_ECORRUPT,
				 "the kernel's BTF gives struct xa_node %" PRIu64 " bytes: more than an "
				 "xarray node can be", l->node_size);
	err = member_sized(w, "xa_node.shift", 1, &l->shift);
	if (!err)
		err = member_sized(w, "xa_node.offset", 1, &l->offset);
	if (!err)
		err = member_sized(w, "xa_node.parent", 8, &l->parent);
	if (!err)
		err = member_sized(w, "xa_node.array", 8, &l->array);
	if (!err)
		err = member_array(w, "xa_node.slots", l->node_size, &l->slots, &l->chunk_size);
	if (err)
		return err;
	/* XA_CHUNK_SIZE is 1 << XA_CHUNK_SHIFT: 64, or 16 with CONFIG_BASE_SMALL. */
	if (l->chunk_size < 2 || (l->chunk_size & (l->chunk_size - 1)))
		return mdf_error(-MDF_ECORRUPT,
				 "the kernel's BTF gives xa_node.slots %" PRIu32 " elements: not a power of 2",
				 l->chunk_size);
	l->chunk_shift = (uint32_t)__builtin_ctz(l->chunk_size);
	return NULL;
}

struct xa_walk {
	struct walk_ctx *w;
	const struct xa_layout *l;
	uint64_t xa;
	uint64_t nodes;
	struct mdf_error *(*cb)(uint64_t index, uint64_t entry, void *arg);
	void *arg;
};

/*
 * @shift is the shift the node must have (its parent's less a chunk), or
 * -1 for the head node, whose shift is only checked for sense.
 */
static struct mdf_error *walk_xa_node(struct xa_walk *xw, uint64_t node, uint64_t parent, unsigned int offset,
			int shift, uint64_t base)
{
	const struct xa_layout *l = xw->l;
	unsigned char buf[NODE_BUF_MAX];
	unsigned int node_shift, node_offset;
	uint64_t node_parent, node_array;
	struct mdf_error *err;

	if (++xw->nodes > XA_NODES_MAX)
		return mdf_error(-MDF_ECORRUPT,
				 "xarray at 0x%" PRIx64 ": node 0x%" PRIx64 " lies past 2^24 nodes", xw->xa,
				 node);
	err = mem_read_virt(xw->w->mem, node, buf, l->node_size);
	if (err) {
		return mdf_error_wrap(err, "xarray at 0x%" PRIx64 ": node 0x%" PRIx64 " (slot %u of %s 0x%" PRIx64
				      ") cannot be read", xw->xa, node, offset, parent ? "node" : "the xarray",
				      parent ? parent : xw->xa);
	}
	node_shift = buf[l->shift];
	node_offset = buf[l->offset];
	node_parent = get_u64(xw->w, buf, l->parent);
	node_array = get_u64(xw->w, buf, l->array);
	/*
	 * A node must name this xarray, the node it was reached from and its
	 * slot there, and sit one chunk lower: so each node is walked once, the
	 * depth is bounded by the shift, and garbage is caught at once.
	 */
	if (node_array != xw->xa || node_parent != parent || (parent && node_offset != offset) ||
	    (shift >= 0 ? node_shift != (unsigned int)shift
			: node_shift % l->chunk_shift || node_shift >= 64))
		return mdf_error(-MDF_ECORRUPT,
				 "xarray at 0x%" PRIx64 ": node 0x%" PRIx64 " (slot %u of %s 0x%" PRIx64
				 ") is not a node of it: array 0x%" PRIx64 ", parent 0x%" PRIx64
				 ", offset %u, shift %u", xw->xa, node, offset, parent ? "node" : "the xarray",
				 parent ? parent : xw->xa, node_array, node_parent, node_offset, node_shift);
	for (uint64_t i = 0; i < l->chunk_size; i++) {
		uint64_t entry = get_u64(xw->w, buf, l->slots + i * 8), index;
		struct mdf_error *rc;

		if (!entry)
			continue;
		if (node_shift && i > UINT64_MAX >> node_shift)
			return mdf_error(-MDF_ECORRUPT,
					 "xarray at 0x%" PRIx64 ": node 0x%" PRIx64 " (shift %u) has an "
					 "entry in slot %" PRIu64 ", past the last index", xw->xa, node,
					 node_shift, i);
		index = base + (i << node_shift);
		if (is_node(entry)) {
			if (!node_shift)
				return mdf_error(-MDF_ECORRUPT,
						 "xarray at 0x%" PRIx64 ": node 0x%" PRIx64 " (shift 0) has a "
						 "node 0x%" PRIx64 " in slot %" PRIu64, xw->xa, node, entry, i);
			rc = walk_xa_node(xw, entry - XA_INTERNAL_TAG, node, (unsigned int)i,
					  (int)(node_shift - l->chunk_shift), index);
		} else if (is_internal(entry)) {
			/*
			 * Siblings (the multi-index entry was given at its first
			 * slot), retry and zero entries: nothing to give.
			 */
			continue;
		} else {
			rc = xw->cb(index, entry, xw->arg);
		}
		if (rc)
			return rc;
	}
	return NULL;
}

struct mdf_error *walk_xarray(struct walk_ctx *w, uint64_t xa,
			      struct mdf_error *(*cb)(uint64_t index, uint64_t entry, void *arg),
		void *arg)
{
	struct xa_layout l;
	struct xa_walk xw = { .w = w, .l = &l, .xa = xa, .cb = cb, .arg = arg };
	uint64_t head;
	struct mdf_error *err = xa_layout(w, &l);

	if (err)
		return err;
	err = mem_read_u64(w->mem, xa + l.head, &head);
	if (err) {
		return mdf_error_wrap(err, "xarray at 0x%" PRIx64 ": its head cannot be read", xa);
	}
	if (!head)
		return NULL;
	if (is_node(head))
		return walk_xa_node(&xw, head - XA_INTERNAL_TAG, 0, 0, -1, 0);
	/* A head that is no node is the entry of index 0, unless it is a marker. */
	if (is_internal(head))
		return NULL;
	return cb(0, head, arg);
}

struct idr_walk {
	uint32_t base;
	struct mdf_error *(*cb)(uint64_t id, uint64_t entry, void *arg);
	void *arg;
};

static struct mdf_error *idr_entry(uint64_t index, uint64_t entry, void *arg)
{
	struct idr_walk *iw = arg;

	return iw->cb(index + iw->base, entry, iw->arg);
}

struct mdf_error *walk_idr(struct walk_ctx *w, uint64_t idr,
			   struct mdf_error *(*cb)(uint64_t id, uint64_t entry, void *arg),
	     void *arg)
{
	struct idr_walk iw = { .cb = cb, .arg = arg };
	uint64_t rt, base;
	struct mdf_error *err = member(w, "idr.idr_rt", false, &rt, NULL, NULL);

	if (!err)
		err = member_sized(w, "idr.idr_base", 4, &base);
	if (err)
		return err;
	err = mem_read_u32(w->mem, idr + base, &iw.base);
	if (err) {
		return mdf_error_wrap(err, "idr at 0x%" PRIx64 ": its idr_base cannot be read", idr);
	}
	return walk_xarray(w, idr + rt, idr_entry, &iw);
}

/* ---- Tasks ---- */

struct task_walk {
	struct walk_ctx *w;
	uint64_t tasks, pid, tgid, comm, mm;
	struct mdf_error *(*cb)(const struct mdf_task *task, void *arg);
	void *arg;
};

static struct mdf_error *task_field(struct task_walk *tw, uint64_t task, const char *name, uint64_t offset,
		      void *buf, size_t len)
{
	struct mdf_error *err = mem_read_virt(tw->w->mem, task + offset, buf, len);

	if (err)
		return mdf_error_wrap(err, "task_struct at 0x%" PRIx64 ": its %s cannot be read", task, name);
	return NULL;
}

static struct mdf_error *task_entry(uint64_t node, void *arg)
{
	struct task_walk *tw = arg;
	struct mdf_task t = { .task = node - tw->tasks };
	struct mdf_error *err;

	err = task_field(tw, t.task, "pid", tw->pid, &t.pid, sizeof(t.pid));
	if (!err)
		err = task_field(tw, t.task, "tgid", tw->tgid, &t.tgid, sizeof(t.tgid));
	if (!err)
		err = task_field(tw, t.task, "comm", tw->comm, t.comm, sizeof(t.comm));
	if (!err)
		err = task_field(tw, t.task, "mm", tw->mm, &t.mm, sizeof(t.mm));
	if (err)
		return err;
	t.comm[sizeof(t.comm) - 1] = '\0';
	t.pid = (int32_t)dump_to_host32(mem_byte_order(tw->w->mem), (uint32_t)t.pid);
	t.tgid = (int32_t)dump_to_host32(mem_byte_order(tw->w->mem), (uint32_t)t.tgid);
	t.mm = dump_to_host64(mem_byte_order(tw->w->mem), t.mm);
	return tw->cb(&t, tw->arg);
}

struct mdf_error *walk_tasks(struct walk_ctx *w, struct mdf_error *(*cb)(const struct mdf_task *task, void *arg),
			     void *arg)
{
	struct task_walk tw = { .w = w, .cb = cb, .arg = arg };
	uint64_t init_task;
	struct mdf_error *err;

	err = member(w, "task_struct.tasks", false, &tw.tasks, NULL, NULL);
	if (!err)
		err = member_sized(w, "task_struct.pid", 4, &tw.pid);
	if (!err)
		err = member_sized(w, "task_struct.tgid", 4, &tw.tgid);
	if (!err)
		err = member_sized(w, "task_struct.comm", sizeof(((struct mdf_task *)0)->comm), &tw.comm);
	if (!err)
		err = member_sized(w, "task_struct.mm", 8, &tw.mm);
	if (!err)
		err = kernel_symbols_ready(w->kernel);
	if (err)
		return err;
	if (kernel_symbol_address(w->kernel, "vmlinux", "init_task", &init_task))
		return mdf_error(-ENOENT,
				 "the kernel's kallsyms have no init_task: cannot list tasks");
	return walk_list_what(w, init_task + tw.tasks, TASKS_MAX, "the task list (init_task.tasks)",
			      task_entry, &tw);
}

/* ---- VMAs ---- */

struct vma_walk {
	struct walk_ctx *w;
	uint64_t mm;
	uint64_t size, start, end, flags, ops, private_data, file, next;
	unsigned char *buf;
	uint64_t prev_end;
	uint64_t count;
	struct mdf_error *(*cb)(const struct mdf_vma *vma, void *arg);
	void *arg;
};

static struct mdf_error *vma_layout(struct vma_walk *vw, bool list)
{
	struct walk_ctx *w = vw->w;
	struct mdf_error *err = type_size(w, "vm_area_struct", &vw->size);

	if (!err && vw->size > VMA_BUF_MAX)
		return mdf_error(-MDF_ECORRUPT,
				 "the kernel's BTF gives struct vm_area_struct %" PRIu64 " bytes: more than "
				 "this reader allows", vw->size);
	/* vm_flags lies in an anonymous union in newer kernels: found by name all the same. */
	if (!err)
		err = member_sized(w, "vm_area_struct.vm_start", 8, &vw->start);
	if (!err)
		err = member_sized(w, "vm_area_struct.vm_end", 8, &vw->end);
	if (!err)
		err = member_sized(w, "vm_area_struct.vm_flags", 8, &vw->flags);
	if (!err)
		err = member_sized(w, "vm_area_struct.vm_ops", 8, &vw->ops);
	if (!err)
		err = member_sized(w, "vm_area_struct.vm_private_data", 8, &vw->private_data);
	if (!err)
		err = member_sized(w, "vm_area_struct.vm_file", 8, &vw->file);
	if (!err && list)
		err = member_sized(w, "vm_area_struct.vm_next", 8, &vw->next);
	if (!err && vw->size < 8 + (vw->start > vw->end ? vw->start : vw->end))
		err = mdf_error(-MDF_ECORRUPT,
				"the kernel's BTF places vm_start or vm_end outside struct vm_area_struct");
	return err;
}

/*
 * Reads the VMA at @vma and calls back, after checking that it follows
 * the one before and, from a tree, that it covers [first, last].
 */
static struct mdf_error *vma_visit(struct vma_walk *vw, uint64_t vma, bool ranged, uint64_t first, uint64_t last)
{
	struct mdf_vma v = { .vma = vma };
	struct mdf_error *err;

	if (++vw->count > VMAS_MAX)
		return mdf_error(-MDF_ECORRUPT,
				 "mm_struct at 0x%" PRIx64 ": more than 2^24 VMAs", vw->mm);
	if (vma & 7)
		return mdf_error(-MDF_ECORRUPT,
				 "mm_struct at 0x%" PRIx64 ": the VMA pointer 0x%" PRIx64 " is misaligned",
				 vw->mm, vma);
	err = mem_read_virt(vw->w->mem, vma, vw->buf, vw->size);
	if (err)
		return mdf_error_wrap(err, "mm_struct at 0x%" PRIx64 ": vm_area_struct at 0x%" PRIx64
				      " cannot be read", vw->mm, vma);
	v.start = get_u64(vw->w, vw->buf, vw->start);
	v.end = get_u64(vw->w, vw->buf, vw->end);
	v.flags = get_u64(vw->w, vw->buf, vw->flags);
	v.ops = get_u64(vw->w, vw->buf, vw->ops);
	v.private_data = get_u64(vw->w, vw->buf, vw->private_data);
	v.file = get_u64(vw->w, vw->buf, vw->file);
	if (v.start >= v.end || v.start < vw->prev_end ||
	    (ranged && (v.start != first || v.end - 1 != last)))
		return mdf_error(-MDF_ECORRUPT,
				 "mm_struct at 0x%" PRIx64 ": vm_area_struct at 0x%" PRIx64 " [0x%" PRIx64
				 ", 0x%" PRIx64 ") does not fit %s", vw->mm, vma, v.start, v.end,
				 ranged ? "the range the maple tree holds it under" : "after the VMA before it");
	vw->prev_end = v.end;
	return vw->cb(&v, vw->arg);
}

static struct mdf_error *vma_entry(uint64_t first, uint64_t last, uint64_t entry, void *arg)
{
	return vma_visit(arg, entry, true, first, last);
}

/* Kernels before 6.1: mm_struct.mmap and a vm_next list, ascending. */
static struct mdf_error *walk_vma_list(struct vma_walk *vw, uint64_t mmap)
{
	uint64_t vma;
	struct mdf_error *err = mem_read_u64(vw->w->mem, vw->mm + mmap, &vma);

	if (err) {
		return mdf_error_wrap(err, "mm_struct at 0x%" PRIx64 ": its mmap cannot be read", vw->mm);
	}
	/* Each VMA must start above the one before: so the list cannot loop. */
	while (vma) {
		struct mdf_error *rc = vma_visit(vw, vma, false, 0, 0);

		if (rc)
			return rc;
		vma = get_u64(vw->w, vw->buf, vw->next);
	}
	return NULL;
}

struct mdf_error *walk_vmas(struct walk_ctx *w, uint64_t mm,
			    struct mdf_error *(*cb)(const struct mdf_vma *vma, void *arg),
	      void *arg)
{
	struct vma_walk vw = { .w = w, .mm = mm, .cb = cb, .arg = arg };
	uint64_t mm_mt, mmap;
	bool list = false;
	struct mdf_error *err;

	err = member(w, "mm_struct.mm_mt", true, &mm_mt, NULL, NULL);
	if (mdf_error_is_not_found(err)) {
		mdf_error_free(err);
		err = member(w, "mm_struct.mmap", true, &mmap, NULL, NULL);
		if (mdf_error_is_not_found(err)) {
			mdf_error_free(err);
			err = mdf_error(-ENOENT, "the kernel's BTF has neither mm_struct.mm_mt nor mm_struct.mmap: "
					"cannot list VMAs");
		}
		list = true;
	}
	if (!err)
		err = vma_layout(&vw, list);
	if (err)
		return err;
	vw.buf = malloc(vw.size);
	if (!vw.buf)
		return &mdf_error_enomem;
	err = list ? walk_vma_list(&vw, mmap) : walk_maple_tree(w, mm + mm_mt, vma_entry, &vw);
	free(vw.buf);
	return err;
}

/* ---- User addresses ---- */

struct mdf_error *walk_uvtop(struct walk_ctx *w, uint64_t mm, uint64_t uvaddr, uint64_t *paddr)
{
	uint64_t pgd_off, pgd, root;
	struct mdf_error *err = member_sized(w, "mm_struct.pgd", 8, &pgd_off);

	if (err)
		return err;
	err = mem_read_u64(w->mem, mm + pgd_off, &pgd);
	if (err) {
		return mdf_error_wrap(err, "mm_struct at 0x%" PRIx64 ": its pgd cannot be read", mm);
	}
	err = mem_vtop(w->mem, pgd, &root);
	if (err) {
		return mdf_error_wrap(err, "mm_struct at 0x%" PRIx64 ": its pgd 0x%" PRIx64 " does not translate", mm,
				      pgd);
	}
	err = mem_vtop_root(w->mem, root, uvaddr, paddr);
	switch (err ? -err->code : 0) {
	case MDF_EUNMAPPED:
		mdf_error_free(err);
		return &mdf_error_not_found;
	case MDF_EEXCLUDED:
	case MDF_ENOTDUMPED:
		/* A page-table page the dump lacks: the page may be there, unknowably. */
		mdf_error_free(err);
		return mdf_error_code(-ENODATA);
	default:
		return err;
	}
}
