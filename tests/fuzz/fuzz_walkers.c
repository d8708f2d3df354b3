// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_walkers: the walkers of kernel/walkers.c and kernel/list.c over
 * memory full of wild pointers.
 *
 * Input: one byte that picks the walk (below, modulo their number), then
 * the bytes of fuzz_kernel.h's region, whose start is the structure
 * walked: a list_head, a struct maple_tree, xarray or idr, an mm_struct;
 * for the task list, init_task.  Its layouts are the generator's BTF's.
 * Every entry the walk gives is read, as the extensions' callbacks read
 * them; a walk ends at its own bounds, whatever the memory holds.
 */
#include "fuzz_kernel.h"
#include "kernel/list.h"
#include "kernel/walkers.h"

enum walk {
	WALK_LIST,
	WALK_KLIST,
	WALK_MAPLE_TREE,
	WALK_XARRAY,
	WALK_IDR,
	WALK_TASKS,
	WALK_VMAS,
	WALKS
};

/* klist's bound, short so that inputs reach it too. */
#define SHORT_LIST 64

static struct fuzz_kernel fk;
static volatile uint64_t sink;

static void touch(struct walk_ctx *w, uint64_t vaddr)
{
	uint64_t word;

	if (!mdf_error_drop(mem_read_u64(w->mem, vaddr, &word)))
		sink += word;
}

static struct mdf_error *list_node(uint64_t node, void *arg)
{
	touch(arg, node);
	return NULL;
}

static struct mdf_error *maple_entry(uint64_t first, uint64_t last, uint64_t entry, void *arg)
{
	sink += first ^ last;
	touch(arg, entry);
	return NULL;
}

static struct mdf_error *xarray_entry(uint64_t index, uint64_t entry, void *arg)
{
	sink += index;
	touch(arg, entry);
	return NULL;
}

static struct mdf_error *task_entry(const struct mdf_task *task, void *arg)
{
	sink += (uint64_t)task->pid + (uint64_t)task->tgid + (unsigned char)task->comm[0];
	touch(arg, task->mm);
	return NULL;
}

static struct mdf_error *vma_entry(const struct mdf_vma *vma, void *arg)
{
	sink += vma->start ^ vma->end ^ vma->flags;
	touch(arg, vma->ops);
	return NULL;
}

static void klist_walk(struct walk_ctx *w, uint64_t head)
{
	struct klist list;
	uint64_t node;

	klist_init(&list, w->mem, head, SHORT_LIST);
	while (!mdf_error_drop(klist_next(&list, &node)) && node)
		touch(w, node);
	klist_release(&list);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	fuzz_kernel_init(&fk);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint64_t root = FAKE_VIRT_BASE;
	struct walk_ctx w;
	struct mdf_error *err = NULL;

	if (size < 1)
		return -1;
	fuzz_kernel_open(&fk, data + 1, size - 1);
	w = (struct walk_ctx){ .mem = fk.f->mem, .kernel = fk.kernel };
	switch (data[0] % WALKS) {
	case WALK_LIST:
		err = walk_list(&w, root, 0, list_node, &w);
		break;
	case WALK_KLIST:
		klist_walk(&w, root);
		break;
	case WALK_MAPLE_TREE:
		err = walk_maple_tree(&w, root, maple_entry, &w);
		break;
	case WALK_XARRAY:
		err = walk_xarray(&w, root, xarray_entry, &w);
		break;
	case WALK_IDR:
		err = walk_idr(&w, root, xarray_entry, &w);
		break;
	case WALK_TASKS:
		err = walk_tasks(&w, task_entry, &w);
		break;
	case WALK_VMAS:
		err = walk_vmas(&w, root, vma_entry, &w);
		break;
	}
	mdf_error_free(err);
	fuzz_kernel_close(&fk);
	return 0;
}
