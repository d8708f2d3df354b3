// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * walkread: runs the kernel-structure walkers (walkers.h) over a dump, so
 * that tests can compare what they find with what the guest saw.
 *
 *   walkread VMCORE tasks                 "pid tgid comm mm task" per process
 *   walkread VMCORE vmas PID              "start end flags ops" per VMA of PID
 *   walkread VMCORE uvtop PID VADDR...    "vaddr paddr" or "vaddr error" per address
 *   walkread VMCORE pagecache FSTYPE SIZE for each inode of a FSTYPE superblock
 *                                         whose i_size is SIZE: "inode ADDR nrpages N",
 *                                         then "page INDEX PFN" per page-cache
 *                                         entry (from its i_pages xarray)
 *   walkread VMCORE gem PID VADDR         the pages of the GEM object that PID maps
 *                                         at VADDR (vm_private_data, a struct
 *                                         drm_gem_object: its filp's i_pages), as
 *                                         "page INDEX PFN"
 *   walkread VMCORE drm-minors            "minor ID index N type T" per DRM minor,
 *                                         from drm's IDR (drm_minors_idr) or,
 *                                         since 6.8, its xarray (drm_minors_xa)
 *   walkread VMCORE maple ADDR            "first last entry" per maple tree entry
 *   walkread VMCORE xarray ADDR           "index entry" per xarray entry
 *   walkread VMCORE idr ADDR              "id entry" per IDR entry
 *   walkread VMCORE list ADDR [MAX]       "node" per list_head after ADDR
 *
 * The exit status is 0 when the walk ended, 1 when it failed (the
 * walkers said why) or the dump does not open, 2 on bad usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "input/vmcoreinfo.h"
#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/mem_map.h"
#include "kernel/kernel.h"
#include "kernel/modules.h"
#include "kernel/walkers.h"
#include "memory/reader.h"
#include "util/message.h"

static int parse_u64(const char *s, uint64_t *value)
{
	char *end;

	errno = 0;
	*value = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "walkread: not a number: %s\n", s);
		return -EINVAL;
	}
	return 0;
}

static const char *status_name(int err)
{
	switch (-err) {
	case ENOENT:
		return "notpresent";
	case ENODATA:
		return "nodata";
	case EFAULT:
		return "unmapped";
	case EBADMSG:
		return "corrupt";
	default:
		return "error";
	}
}

/* A member offset from the BTF of @scope ("vmlinux" or a module). */
static int offset_of(struct walk_ctx *w, const char *scope, const char *path, uint64_t *offset)
{
	struct btf_info_result r;
	struct btf_info *bi;
	int err = kernel_btf(w->kernel, &bi);

	if (!err)
		err = btf_info_lookup(bi, scope, path, &r);
	if (err) {
		fprintf(stderr, "walkread: no %s in the BTF of %s: %s\n", path, scope, mdf_strerror(err));
		return err;
	}
	*offset = r.bit_offset / 8;
	return 0;
}

static int read_u64(struct walk_ctx *w, uint64_t addr, const char *what, uint64_t *value)
{
	int err = mem_read_u64(w->mem, addr, value);

	if (err)
		fprintf(stderr, "walkread: cannot read %s at 0x%" PRIx64 ": %s\n", what, addr,
			mdf_strerror(err));
	return err;
}

/* ---- tasks ---- */

static int print_task(const struct mdf_task *t, void *arg)
{
	(void)arg;
	printf("%" PRId32 " %" PRId32 " %s 0x%" PRIx64 " 0x%" PRIx64 "\n", t->pid, t->tgid, t->comm,
	       t->mm, t->task);
	return 0;
}

struct find_task {
	int32_t pid;
	struct mdf_task found;
};

static int match_task(const struct mdf_task *t, void *arg)
{
	struct find_task *f = arg;

	if (t->pid != f->pid)
		return 0;
	f->found = *t;
	return 1;
}

/* The mm of process @pid_arg, or an error said on stderr. */
static int task_mm(struct walk_ctx *w, const char *pid_arg, uint64_t *mm)
{
	struct find_task f;
	uint64_t pid;
	int rc;

	if (parse_u64(pid_arg, &pid))
		return -EINVAL;
	f.pid = (int32_t)pid;
	rc = walk_tasks(w, match_task, &f);
	if (rc < 0)
		return rc;
	if (!rc) {
		fprintf(stderr, "walkread: no process %s\n", pid_arg);
		return -ESRCH;
	}
	if (!f.found.mm) {
		fprintf(stderr, "walkread: process %s (%s) has no mm\n", pid_arg, f.found.comm);
		return -ESRCH;
	}
	*mm = f.found.mm;
	return 0;
}

/* ---- VMAs ---- */

static int print_vma(const struct mdf_vma *v, void *arg)
{
	(void)arg;
	printf("%08" PRIx64 " %08" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "\n", v->start, v->end, v->flags,
	       v->ops);
	return 0;
}

struct find_vma {
	uint64_t vaddr;
	struct mdf_vma found;
};

static int match_vma(const struct mdf_vma *v, void *arg)
{
	struct find_vma *f = arg;

	if (f->vaddr < v->start || f->vaddr >= v->end)
		return 0;
	f->found = *v;
	return 1;
}

/* ---- page cache ---- */

struct page_list {
	struct walk_ctx *w;
	uint64_t pages;
};

static int print_page(uint64_t index, uint64_t entry, void *arg)
{
	struct page_list *pl = arg;
	uint64_t pfn;
	int err;

	/* Value entries are shadows of evicted pages, not pages. */
	if (entry & 1)
		return 0;
	err = mem_map_page_to_pfn(pl->w->mem_map, entry, &pfn);
	if (err) {
		fprintf(stderr, "walkread: index %" PRIu64 ": 0x%" PRIx64 " is no struct page\n", index,
			entry);
		return err;
	}
	printf("page %" PRIu64 " 0x%" PRIx64 "\n", index, pfn);
	pl->pages++;
	return 0;
}

/* The pages of the address_space at @mapping. */
static int print_mapping(struct walk_ctx *w, uint64_t mapping)
{
	struct page_list pl = { .w = w };
	uint64_t i_pages;

	if (offset_of(w, "vmlinux", "address_space.i_pages", &i_pages))
		return -ENOENT;
	return walk_xarray(w, mapping + i_pages, print_page, &pl);
}

struct inode_search {
	struct walk_ctx *w;
	const char *fstype;
	uint64_t size;
	uint64_t s_list, s_type, s_inodes, fs_name, i_sb_list, i_size, i_mapping, nrpages;
	uint64_t inodes;
};

static int inode_entry(uint64_t node, void *arg)
{
	struct inode_search *s = arg;
	uint64_t inode = node - s->i_sb_list, size, mapping, nrpages;
	int err;

	err = read_u64(s->w, inode + s->i_size, "inode.i_size", &size);
	if (err || size != s->size)
		return err;
	err = read_u64(s->w, inode + s->i_mapping, "inode.i_mapping", &mapping);
	if (!err)
		err = read_u64(s->w, mapping + s->nrpages, "address_space.nrpages", &nrpages);
	if (err)
		return err;
	printf("inode 0x%" PRIx64 " nrpages %" PRIu64 "\n", inode, nrpages);
	s->inodes++;
	return print_mapping(s->w, mapping);
}

static int super_entry(uint64_t node, void *arg)
{
	struct inode_search *s = arg;
	uint64_t sb = node - s->s_list, type, name;
	char fstype[32];
	int err;

	err = read_u64(s->w, sb + s->s_type, "super_block.s_type", &type);
	if (!err)
		err = read_u64(s->w, type + s->fs_name, "file_system_type.name", &name);
	if (!err)
		err = mem_read_virt(s->w->mem, name, fstype, sizeof(fstype));
	if (err)
		return err;
	fstype[sizeof(fstype) - 1] = '\0';
	if (strcmp(fstype, s->fstype))
		return 0;
	return walk_list(s->w, sb + s->s_inodes, 0, inode_entry, s);
}

static int cmd_pagecache(struct walk_ctx *w, const char *fstype, const char *size_arg)
{
	struct inode_search s = { .w = w, .fstype = fstype };
	struct kallsyms *ks;
	uint64_t super_blocks;
	int rc;

	if (parse_u64(size_arg, &s.size))
		return 2;
	if (offset_of(w, "vmlinux", "super_block.s_list", &s.s_list) ||
	    offset_of(w, "vmlinux", "super_block.s_type", &s.s_type) ||
	    offset_of(w, "vmlinux", "super_block.s_inodes", &s.s_inodes) ||
	    offset_of(w, "vmlinux", "file_system_type.name", &s.fs_name) ||
	    offset_of(w, "vmlinux", "inode.i_sb_list", &s.i_sb_list) ||
	    offset_of(w, "vmlinux", "inode.i_size", &s.i_size) ||
	    offset_of(w, "vmlinux", "inode.i_mapping", &s.i_mapping) ||
	    offset_of(w, "vmlinux", "address_space.nrpages", &s.nrpages) ||
	    kernel_kallsyms(w->kernel, &ks))
		return 1;
	if (kernel_symbol_address(w->kernel, "vmlinux", "super_blocks", &super_blocks)) {
		fprintf(stderr, "walkread: no super_blocks in kallsyms\n");
		return 1;
	}
	rc = walk_list(w, super_blocks, 0, super_entry, &s);
	printf("inodes %" PRIu64 "\n", s.inodes);
	return rc < 0;
}

static int cmd_gem(struct walk_ctx *w, const char *pid_arg, const char *vaddr_arg)
{
	struct find_vma f;
	uint64_t mm, filp, f_mapping, file, mapping;
	int rc;

	if (parse_u64(vaddr_arg, &f.vaddr))
		return 2;
	if (task_mm(w, pid_arg, &mm))
		return 1;
	rc = walk_vmas(w, mm, match_vma, &f);
	if (rc < 0)
		return 1;
	if (!rc) {
		fprintf(stderr, "walkread: no VMA of process %s holds 0x%" PRIx64 "\n", pid_arg, f.vaddr);
		return 1;
	}
	/* drm_gem_object is the drm module's type: its BTF answers. */
	if (offset_of(w, "drm", "drm_gem_object.filp", &filp) ||
	    offset_of(w, "vmlinux", "file.f_mapping", &f_mapping) ||
	    read_u64(w, f.found.private_data + filp, "drm_gem_object.filp", &file) ||
	    read_u64(w, file + f_mapping, "file.f_mapping", &mapping))
		return 1;
	return print_mapping(w, mapping) < 0;
}

/* ---- DRM minors: an IDR (drm_minors_idr) before 6.8, an xarray (drm_minors_xa) after ---- */

struct minor_list {
	struct walk_ctx *w;
	uint64_t index, type;
};

static int print_minor(uint64_t id, uint64_t entry, void *arg)
{
	struct minor_list *ml = arg;
	int32_t index, type;
	int err;

	err = mem_read_virt(ml->w->mem, entry + ml->index, &index, sizeof(index));
	if (!err)
		err = mem_read_virt(ml->w->mem, entry + ml->type, &type, sizeof(type));
	if (err) {
		fprintf(stderr, "walkread: drm_minor at 0x%" PRIx64 ": %s\n", entry, mdf_strerror(err));
		return err;
	}
	printf("minor %" PRIu64 " index %" PRId32 " type %" PRId32 "\n", id, index, type);
	return 0;
}

static int cmd_drm_minors(struct walk_ctx *w)
{
	struct minor_list ml = { .w = w };
	struct modules *mods;
	uint64_t addr;

	if (offset_of(w, "drm", "drm_minor.index", &ml.index) ||
	    offset_of(w, "drm", "drm_minor.type", &ml.type) ||
	    kernel_modules(w->kernel, &mods) || !mods)
		return 1;
	if (!kernel_symbol_address(w->kernel, "drm", "drm_minors_idr", &addr))
		return walk_idr(w, addr, print_minor, &ml) < 0;
	if (!kernel_symbol_address(w->kernel, "drm", "drm_minors_xa", &addr))
		return walk_xarray(w, addr, print_minor, &ml) < 0;
	fprintf(stderr, "walkread: drm has neither drm_minors_idr nor drm_minors_xa\n");
	return 1;
}

/* ---- raw walks ---- */

static int print_maple(uint64_t first, uint64_t last, uint64_t entry, void *arg)
{
	(void)arg;
	printf("0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "\n", first, last, entry);
	return 0;
}

static int print_xa(uint64_t index, uint64_t entry, void *arg)
{
	(void)arg;
	printf("%" PRIu64 " 0x%" PRIx64 "\n", index, entry);
	return 0;
}

static int print_node(uint64_t node, void *arg)
{
	(void)arg;
	printf("0x%" PRIx64 "\n", node);
	return 0;
}

static int run(struct walk_ctx *w, int argc, char **argv)
{
	const char *cmd = argv[0];
	uint64_t addr, max = 0, mm;

	if (!strcmp(cmd, "tasks") && argc == 1)
		return walk_tasks(w, print_task, NULL) < 0;
	if (!strcmp(cmd, "vmas") && argc == 2) {
		if (task_mm(w, argv[1], &mm))
			return 1;
		return walk_vmas(w, mm, print_vma, NULL) < 0;
	}
	if (!strcmp(cmd, "uvtop") && argc >= 2) {
		if (task_mm(w, argv[1], &mm))
			return 1;
		for (int i = 2; i < argc; i++) {
			uint64_t vaddr, paddr;
			int err;

			if (parse_u64(argv[i], &vaddr))
				return 2;
			err = walk_uvtop(w, mm, vaddr, &paddr);
			if (err)
				printf("0x%" PRIx64 " %s\n", vaddr, status_name(err));
			else
				printf("0x%" PRIx64 " 0x%" PRIx64 "\n", vaddr, paddr);
		}
		return 0;
	}
	if (!strcmp(cmd, "pagecache") && argc == 3)
		return cmd_pagecache(w, argv[1], argv[2]);
	if (!strcmp(cmd, "gem") && argc == 3)
		return cmd_gem(w, argv[1], argv[2]);
	if (!strcmp(cmd, "drm-minors") && argc == 1)
		return cmd_drm_minors(w);
	if (argc < 2 || parse_u64(argv[1], &addr) || (argc == 3 && parse_u64(argv[2], &max)))
		return 2;
	if (!strcmp(cmd, "maple") && argc == 2)
		return walk_maple_tree(w, addr, print_maple, NULL) < 0;
	if (!strcmp(cmd, "xarray") && argc == 2)
		return walk_xarray(w, addr, print_xa, NULL) < 0;
	if (!strcmp(cmd, "idr") && argc == 2)
		return walk_idr(w, addr, print_xa, NULL) < 0;
	if (!strcmp(cmd, "list") && argc <= 3)
		return walk_list(w, addr, max, print_node, NULL) < 0;
	return 2;
}

int main(int argc, char **argv)
{
	struct dump_input *in = NULL;
	struct vmcoreinfo *vi = NULL;
	struct memory *mem = NULL;
	struct kernel *kernel = NULL;
	struct mem_map *map = NULL;
	int rc = 1;

	msg_set_level(ML_ERROR);
	if (argc < 3) {
		fprintf(stderr, "usage: walkread VMCORE "
			"tasks|vmas|uvtop|pagecache|gem|drm-minors|maple|xarray|idr|list ...\n");
		return 2;
	}
	if (input_open(argv[1], &in) ||
	    vmcoreinfo_parse(in->vmcoreinfo ? in->vmcoreinfo : "", in->vmcoreinfo_size, argv[1], &vi) ||
	    memory_open(in, &arch_x86_64, vi, &mem) || kernel_new(mem, vi, &kernel) ||
	    mem_map_open(mem, kernel, in->page_size, in->max_pfn, &map))
		goto out;
	{
		struct walk_ctx w = { .mem = mem, .kernel = kernel, .mem_map = map };

		rc = run(&w, argc - 2, argv + 2);
	}
	if (rc == 2)
		fprintf(stderr, "walkread: bad usage of %s\n", argv[2]);
out:
	mem_map_free(map);
	kernel_free(kernel);
	memory_close(mem);
	vmcoreinfo_free(vi);
	input_close(in);
	return rc;
}
