/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Walkers over the crashed kernel's data structures: list_head lists,
 * maple trees, xarrays and IDRs, the task list, a task's VMAs, and user
 * address translation through a task's page tables.  The extension API
 * (makedumpfile-extension.h) is built on them.
 *
 * Nothing here trusts the dump: every walk is bounded (a depth limit, a
 * node-count limit), every node is checked against the node it was
 * reached from (so a cycle or a pointer into unrelated memory ends the
 * walk), and layouts come from the dump's own BTF.
 *
 * Callbacks return NULL to go on, or an error that stops the walk and
 * that the walker returns as it is (the callback knows what it was doing;
 * an extension's "stop" is an error of its value, with nothing more to
 * say).  The walkers' own errors name the structure and the address at
 * fault: -EBADMSG for a structure that contradicts itself, the memory
 * reader's error (unmapped, excluded from the dump, outside it) for a
 * pointer that leads nowhere, -ENOENT for a symbol or type the kernel
 * lacks.
 */
#ifndef MDF_KERNEL_WALKERS_H
#define MDF_KERNEL_WALKERS_H

#include <stdint.h>

#include "makedumpfile-extension.h"

struct kernel;
struct mdf_error;
struct mem_map;
struct memory;

struct walk_ctx {
	struct memory *mem;
	struct kernel *kernel;
	const struct mem_map *mem_map;
};

/* walk_list's bound when @max is 0. */
#define WALK_LIST_DEFAULT_MAX 1000000u

/*
 * The nodes of the list anchored at @head (the anchor not visited): @node
 * is each element's list_head.  At most @max nodes (0: a million); a node
 * seen twice, a misaligned or unreadable next pointer, or more nodes than
 * @max end the walk with an error.
 */
struct mdf_error *walk_list(struct walk_ctx *w, uint64_t head, uint64_t max,
			    struct mdf_error *(*cb)(uint64_t node, void *arg), void *arg);

/*
 * Each non-NULL entry of the maple tree (struct maple_tree at @tree) with
 * the range [first, last] it covers, in ascending order.  Reserved
 * entries (internal values below 4096, such as XA_ZERO_ENTRY) are
 * skipped.
 */
struct mdf_error *walk_maple_tree(struct walk_ctx *w, uint64_t tree,
				  struct mdf_error *(*cb)(uint64_t first, uint64_t last, uint64_t entry, void *arg),
				  void *arg);

/*
 * Each entry of the xarray (struct xarray at @xa) with its index, in
 * ascending order.  Value entries (bit 0 set: shadows, swap entries) are
 * given as they are; sibling, retry and zero entries are skipped: a
 * multi-index entry is given once, at its first index.
 */
struct mdf_error *walk_xarray(struct walk_ctx *w, uint64_t xa,
			      struct mdf_error *(*cb)(uint64_t index, uint64_t entry, void *arg), void *arg);

/* Each pointer of the IDR at @idr (struct idr) with its id (index + idr_base). */
struct mdf_error *walk_idr(struct walk_ctx *w, uint64_t idr,
			   struct mdf_error *(*cb)(uint64_t id, uint64_t entry, void *arg), void *arg);

/*
 * Each thread group leader, as the kernel's for_each_process(): the tasks
 * list from init_task, init_task itself (the idle task, pid 0) left out.
 */
struct mdf_error *walk_tasks(struct walk_ctx *w, struct mdf_error *(*cb)(const struct mdf_task *task, void *arg),
			     void *arg);

/*
 * The VMAs of the mm_struct at @mm, ascending: its mm_mt maple tree
 * (Linux >= 6.1) or its mmap list (vm_next, older kernels).  A VMA whose
 * vm_start and vm_end disagree with the range the tree holds it under, or
 * that does not follow the one before it, ends the walk with -EBADMSG.
 */
struct mdf_error *walk_vmas(struct walk_ctx *w, uint64_t mm,
			    struct mdf_error *(*cb)(const struct mdf_vma *vma, void *arg), void *arg);

/*
 * Translates the user virtual address @uvaddr through the page tables of
 * the mm_struct at @mm.  -ENOENT when the page is not present (or the
 * address is not canonical), -ENODATA when a page-table page is not in
 * the dump: results with nothing more to say, as callers try many
 * addresses.  An unreadable mm_struct or pgd is an error that says so.
 */
struct mdf_error *walk_uvtop(struct walk_ctx *w, uint64_t mm, uint64_t uvaddr, uint64_t *paddr);

#endif
