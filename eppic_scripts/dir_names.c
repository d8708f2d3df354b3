// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dir_names: erases the names of the cached dentries of every mounted
 * filesystem, the job of upstream's eppic script dir_names, with the
 * dump's BTF instead of debuginfo.
 *
 * Every superblock is on the kernel's super_blocks list; from its root
 * dentry (s_root) the walk goes down the children lists, as the kernel's
 * d_walk() does: to the first child, else to the next sibling, else back
 * up through d_parent.  That needs no memory however many dentries there
 * are, and finds the unhashed ones too (a deleted file still open).  The
 * children are on d_subdirs, linked through d_child (struct list_head),
 * until Linux 6.8; on d_children, linked through d_sib (an hlist), since.
 *
 * A dentry's name is in its inline array (d_iname, d_shortname since
 * 6.14) when short, else in a separate allocation that d_name.name points
 * to (d_name.len bytes).  The inline array is erased whole either way (it
 * may keep an older name), and the separate name when there is one.
 *
 * Every step is bounded (the number of superblocks, of dentries, of steps
 * of the walk), and a damaged link ends the walk of that superblock.
 */
#include <errno.h>
#include <stdbool.h>

#include "makedumpfile-extension.h"

#define MAX_SUPERBLOCKS (1u << 16)
#define MAX_DENTRIES (1u << 24)

struct job {
	uint64_t s_list, s_root;
	uint64_t d_parent, name_len, name_ptr;
	struct mdf_member inline_name;
	bool hlist;               /* d_children and d_sib, else d_subdirs and d_child */
	uint64_t children, sibling;
	uint64_t dentries, bytes, steps;
};

static int erase_names(struct job *job, uint64_t dentry)
{
	uint64_t inline_name = dentry + job->inline_name.offset, name;
	uint32_t len;
	int err;

	err = mdf_erase_kvaddr(inline_name, job->inline_name.size, "dentry.d_iname");
	if (err)
		return err;
	job->bytes += job->inline_name.size;
	job->dentries++;
	err = mdf_read_u64(dentry + job->name_ptr, &name);
	if (!err)
		err = mdf_read_u32(dentry + job->name_len, &len);
	if (err)
		return err;
	if (!name || !len || (name >= inline_name && name < inline_name + job->inline_name.size))
		return 0;
	/* d_name.len of a separate name is below PATH_MAX: more is a damaged dentry. */
	if (len > 4096)
		return -EBADMSG;
	job->bytes += len;
	return mdf_erase_kvaddr(name, len, "dentry.d_name.name");
}

/* The first child of @dentry, or 0. */
static int first_child(struct job *job, uint64_t dentry, uint64_t *child)
{
	uint64_t head = dentry + job->children, node;
	int err = mdf_read_u64(head, &node);

	if (err)
		return err;
	if (job->hlist)
		*child = node ? node - job->sibling : 0;
	else
		*child = node != head ? node - job->sibling : 0;
	return 0;
}

/* The sibling after @dentry under @parent, or 0. */
static int next_sibling(struct job *job, uint64_t dentry, uint64_t parent, uint64_t *next)
{
	uint64_t node;
	int err = mdf_read_u64(dentry + job->sibling, &node);

	if (err)
		return err;
	if (job->hlist)
		*next = node ? node - job->sibling : 0;
	else
		*next = node != parent + job->children ? node - job->sibling : 0;
	return 0;
}

/* The tree under @root, in the order d_walk() goes; each step bounded. */
static int walk_tree(struct job *job, uint64_t root)
{
	uint64_t cur = root, next;
	int err = erase_names(job, root);

	while (!err) {
		if (++job->steps > 2ull * MAX_DENTRIES || job->dentries > MAX_DENTRIES)
			return -E2BIG;
		err = first_child(job, cur, &next);
		/* Up until there is a sibling to go to, or back at the root. */
		while (!err && !next && cur != root) {
			uint64_t parent;

			err = mdf_read_u64(cur + job->d_parent, &parent);
			if (!err && (parent == cur || !parent))
				err = -EBADMSG;
			if (!err)
				err = next_sibling(job, cur, parent, &next);
			if (!err && !next)
				cur = parent;
			if (++job->steps > 2ull * MAX_DENTRIES)
				err = -E2BIG;
		}
		if (err || !next)
			break;
		if (next % sizeof(uint64_t))
			return -EBADMSG;
		cur = next;
		err = erase_names(job, cur);
	}
	return err;
}

static int walk_superblock(uint64_t node, void *arg)
{
	struct job *job = arg;
	uint64_t root;
	int err;

	err = mdf_read_u64(node - job->s_list + job->s_root, &root);
	if (err || !root)
		return 0;
	err = walk_tree(job, root);
	if (err == -E2BIG)
		return err;
	if (err)
		mdf_log(MDF_LOG_ERROR, "the dentries of superblock 0x%llx: the walk stopped at a damaged "
			"link (%d); the names reached so far are erased",
			(unsigned long long)(node - job->s_list), err);
	return 0;
}

static int layout(struct job *job)
{
	int err = mdf_member_offset(NULL, "super_block", "s_list", &job->s_list);

	if (!err)
		err = mdf_member_offset(NULL, "super_block", "s_root", &job->s_root);
	if (!err)
		err = mdf_member_offset(NULL, "dentry", "d_parent", &job->d_parent);
	if (!err)
		err = mdf_member_offset(NULL, "dentry", "d_name.len", &job->name_len);
	if (!err)
		err = mdf_member_offset(NULL, "dentry", "d_name.name", &job->name_ptr);
	if (!err && mdf_member(NULL, "dentry", "d_shortname", &job->inline_name))
		err = mdf_member(NULL, "dentry", "d_iname", &job->inline_name);
	if (err)
		return err;
	job->hlist = !mdf_member_offset(NULL, "dentry", "d_children", &job->children) &&
		     !mdf_member_offset(NULL, "dentry", "d_sib", &job->sibling);
	if (job->hlist)
		return 0;
	err = mdf_member_offset(NULL, "dentry", "d_subdirs", &job->children);
	return err ? err : mdf_member_offset(NULL, "dentry", "d_child", &job->sibling);
}

int mdf_extension_init(struct mdf_extension *ext)
{
	struct job job = { 0 };
	uint64_t super_blocks;
	int err;

	(void)ext;
	err = layout(&job);
	if (err) {
		mdf_log(MDF_LOG_ERROR, "the dump's BTF does not describe struct dentry and "
			"super_block as this extension knows them");
		return err;
	}
	err = mdf_symbol_addr("vmlinux", "super_blocks", &super_blocks);
	if (!err)
		err = mdf_list_for_each(super_blocks, MAX_SUPERBLOCKS, walk_superblock, &job);
	if (err == -E2BIG)
		mdf_log(MDF_LOG_ERROR, "more than %u dentries: stopped there", MAX_DENTRIES);
	if (err && err != -E2BIG)
		return err;
	mdf_log(MDF_LOG_INFO, "erased the names of %llu dentries (%llu bytes)",
		(unsigned long long)job.dentries, (unsigned long long)job.bytes);
	return 0;
}
