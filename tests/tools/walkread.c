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
 * The exit status is 0 when the walk ended, 1 when it failed or the dump
 * does not open (the error on stderr), 2 on bad usage.
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
#include "util/error.h"
#include "util/message.h"

static struct mdf_error *parse_u64(const char *s, uint64_t *value)
{
	char *end;

	errno = 0;
	*value = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return mdf_error(-EINVAL, "not a number: %s", s);
	return NULL;
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

/* What a callback returns to end a walk once it found what it looked for. */
static struct mdf_error found = { .code = 1, .shared = true };

/* A member offset from the BTF of @scope ("vmlinux" or a module). */
static struct mdf_error *offset_of(struct walk_ctx *w, const char *scope, const char *path, uint64_t *offset)
{
	struct btf_info_result r;
	struct btf_info *bi;
	struct mdf_error *err = kernel_btf(w->kernel, &bi);

	if (!err)
		err = btf_info_lookup(bi, scope, path, &r);
	if (err)
		return mdf_error_wrap(err, "no %s in the BTF of %s", path, scope);
	*offset = r.bit_offset / 8;
	return NULL;
}

static struct mdf_error *read_u64(struct walk_ctx *w, uint64_t addr, const char *what, uint64_t *value)
{
	struct mdf_error *err = mem_read_u64(w->mem, addr, value);

	if (err)
		return mdf_error_wrap(err, "cannot read %s at 0x%" PRIx64, what, addr);
	return NULL;
}

/* ---- tasks ---- */

static struct mdf_error *print_task(const struct mdf_task *t, void *arg)
{
	(void)arg;
	printf("%" PRId32 " %" PRId32 " %s 0x%" PRIx64 " 0x%" PRIx64 "\n", t->pid, t->tgid, t->comm,
	       t->mm, t->task);
	return NULL;
}

struct find_task {
	int32_t pid;
	struct mdf_task found;
};

static struct mdf_error *match_task(const struct mdf_task *t, void *arg)
{
	struct find_task *f = arg;

	if (t->pid != f->pid)
		return NULL;
	f->found = *t;
	return &found;
}

/* The mm of process @pid_arg. */
static struct mdf_error *task_mm(struct walk_ctx *w, const char *pid_arg, uint64_t *mm)
{
	struct find_task f;
	struct mdf_error *err;
	uint64_t pid;

	err = parse_u64(pid_arg, &pid);
	if (err)
		return err;
	f.pid = (int32_t)pid;
	err = walk_tasks(w, match_task, &f);
	if (!err)
		return mdf_error(-ESRCH, "no process %s", pid_arg);
	if (err != &found)
		return err;
	if (!f.found.mm)
		return mdf_error(-ESRCH, "process %s (%s) has no mm", pid_arg, f.found.comm);
	*mm = f.found.mm;
	return NULL;
}

/* ---- VMAs ---- */

static struct mdf_error *print_vma(const struct mdf_vma *v, void *arg)
{
	(void)arg;
	printf("%08" PRIx64 " %08" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "\n", v->start, v->end, v->flags,
	       v->ops);
	return NULL;
}

struct find_vma {
	uint64_t vaddr;
	struct mdf_vma found;
};

static struct mdf_error *match_vma(const struct mdf_vma *v, void *arg)
{
	struct find_vma *f = arg;

	if (f->vaddr < v->start || f->vaddr >= v->end)
		return NULL;
	f->found = *v;
	return &found;
}

/* ---- page cache ---- */

struct page_list {
	struct walk_ctx *w;
	uint64_t pages;
};

static struct mdf_error *print_page(uint64_t index, uint64_t entry, void *arg)
{
	struct page_list *pl = arg;
	uint64_t pfn;

	/* Value entries are shadows of evicted pages, not pages. */
	if (entry & 1)
		return NULL;
	if (mem_map_page_to_pfn(pl->w->mem_map, entry, &pfn))
		return mdf_error(-ERANGE, "index %" PRIu64 ": 0x%" PRIx64 " is no struct page", index, entry);
	printf("page %" PRIu64 " 0x%" PRIx64 "\n", index, pfn);
	pl->pages++;
	return NULL;
}

/* The pages of the address_space at @mapping. */
static struct mdf_error *print_mapping(struct walk_ctx *w, uint64_t mapping)
{
	struct page_list pl = { .w = w };
	struct mdf_error *err;
	uint64_t i_pages;

	err = offset_of(w, "vmlinux", "address_space.i_pages", &i_pages);
	if (err)
		return err;
	return walk_xarray(w, mapping + i_pages, print_page, &pl);
}

struct inode_search {
	struct walk_ctx *w;
	const char *fstype;
	uint64_t size;
	uint64_t s_list, s_type, s_inodes, fs_name, i_sb_list, i_size, i_mapping, nrpages;
	uint64_t inodes;
};

static struct mdf_error *inode_entry(uint64_t node, void *arg)
{
	struct inode_search *s = arg;
	uint64_t inode = node - s->i_sb_list, size, mapping, nrpages;
	struct mdf_error *err;

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

static struct mdf_error *super_entry(uint64_t node, void *arg)
{
	struct inode_search *s = arg;
	uint64_t sb = node - s->s_list, type, name;
	struct mdf_error *err;
	char fstype[32];

	err = read_u64(s->w, sb + s->s_type, "super_block.s_type", &type);
	if (!err)
		err = read_u64(s->w, type + s->fs_name, "file_system_type.name", &name);
	if (!err)
		err = mem_read_virt(s->w->mem, name, fstype, sizeof(fstype));
	if (err)
		return err;
	fstype[sizeof(fstype) - 1] = '\0';
	if (strcmp(fstype, s->fstype))
		return NULL;
	return walk_list(s->w, sb + s->s_inodes, 0, inode_entry, s);
}

static struct mdf_error *cmd_pagecache(struct walk_ctx *w, const char *fstype, const char *size_arg)
{
	struct inode_search s = { .w = w, .fstype = fstype };
	struct mdf_error *err;
	uint64_t super_blocks;

	err = parse_u64(size_arg, &s.size);
	if (!err)
		err = offset_of(w, "vmlinux", "super_block.s_list", &s.s_list);
	if (!err)
		err = offset_of(w, "vmlinux", "super_block.s_type", &s.s_type);
	if (!err)
		err = offset_of(w, "vmlinux", "super_block.s_inodes", &s.s_inodes);
	if (!err)
		err = offset_of(w, "vmlinux", "file_system_type.name", &s.fs_name);
	if (!err)
		err = offset_of(w, "vmlinux", "inode.i_sb_list", &s.i_sb_list);
	if (!err)
		err = offset_of(w, "vmlinux", "inode.i_size", &s.i_size);
	if (!err)
		err = offset_of(w, "vmlinux", "inode.i_mapping", &s.i_mapping);
	if (!err)
		err = offset_of(w, "vmlinux", "address_space.nrpages", &s.nrpages);
	if (!err)
		err = kernel_symbol_address(w->kernel, "vmlinux", "super_blocks", &super_blocks);
	if (err)
		return err;
	err = walk_list(w, super_blocks, 0, super_entry, &s);
	printf("inodes %" PRIu64 "\n", s.inodes);
	return err;
}

static struct mdf_error *cmd_gem(struct walk_ctx *w, const char *pid_arg, const char *vaddr_arg)
{
	struct find_vma f;
	uint64_t mm, filp, f_mapping, file, mapping;
	struct mdf_error *err;

	err = parse_u64(vaddr_arg, &f.vaddr);
	if (!err)
		err = task_mm(w, pid_arg, &mm);
	if (err)
		return err;
	err = walk_vmas(w, mm, match_vma, &f);
	if (!err)
		return mdf_error(-ENOENT, "no VMA of process %s holds 0x%" PRIx64, pid_arg, f.vaddr);
	if (err != &found)
		return err;
	/* drm_gem_object is the drm module's type: its BTF answers. */
	err = offset_of(w, "drm", "drm_gem_object.filp", &filp);
	if (!err)
		err = offset_of(w, "vmlinux", "file.f_mapping", &f_mapping);
	if (!err)
		err = read_u64(w, f.found.private_data + filp, "drm_gem_object.filp", &file);
	if (!err)
		err = read_u64(w, file + f_mapping, "file.f_mapping", &mapping);
	if (err)
		return err;
	return print_mapping(w, mapping);
}

/* ---- DRM minors: an IDR (drm_minors_idr) before 6.8, an xarray (drm_minors_xa) after ---- */

struct minor_list {
	struct walk_ctx *w;
	uint64_t index, type;
};

static struct mdf_error *print_minor(uint64_t id, uint64_t entry, void *arg)
{
	struct minor_list *ml = arg;
	struct mdf_error *err;
	int32_t index, type;

	err = mem_read_virt(ml->w->mem, entry + ml->index, &index, sizeof(index));
	if (!err)
		err = mem_read_virt(ml->w->mem, entry + ml->type, &type, sizeof(type));
	if (err)
		return mdf_error_wrap(err, "drm_minor at 0x%" PRIx64, entry);
	printf("minor %" PRIu64 " index %" PRId32 " type %" PRId32 "\n", id, index, type);
	return NULL;
}

static struct mdf_error *cmd_drm_minors(struct walk_ctx *w)
{
	struct minor_list ml = { .w = w };
	struct modules *mods;
	struct mdf_error *err;
	uint64_t addr;

	err = offset_of(w, "drm", "drm_minor.index", &ml.index);
	if (!err)
		err = offset_of(w, "drm", "drm_minor.type", &ml.type);
	if (!err)
		err = kernel_modules(w->kernel, &mods);
	if (!err && !mods)
		err = mdf_error(-ENOENT, "the dump has no module list");
	if (err)
		return err;
	if (!mdf_error_drop(kernel_symbol_address(w->kernel, "drm", "drm_minors_idr", &addr)))
		return walk_idr(w, addr, print_minor, &ml);
	if (!mdf_error_drop(kernel_symbol_address(w->kernel, "drm", "drm_minors_xa", &addr)))
		return walk_xarray(w, addr, print_minor, &ml);
	return mdf_error(-ENOENT, "drm has neither drm_minors_idr nor drm_minors_xa");
}

/* ---- raw walks ---- */

static struct mdf_error *print_maple(uint64_t first, uint64_t last, uint64_t entry, void *arg)
{
	(void)arg;
	printf("0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "\n", first, last, entry);
	return NULL;
}

static struct mdf_error *print_xa(uint64_t index, uint64_t entry, void *arg)
{
	(void)arg;
	printf("%" PRIu64 " 0x%" PRIx64 "\n", index, entry);
	return NULL;
}

static struct mdf_error *print_node(uint64_t node, void *arg)
{
	(void)arg;
	printf("0x%" PRIx64 "\n", node);
	return NULL;
}

static struct mdf_error *print_uvtop(struct walk_ctx *w, int argc, char **argv)
{
	struct mdf_error *err;
	uint64_t mm;

	err = task_mm(w, argv[1], &mm);
	for (int i = 2; !err && i < argc; i++) {
		uint64_t vaddr, paddr;
		int code;

		err = parse_u64(argv[i], &vaddr);
		if (err)
			break;
		/* An absent page has nothing more to say; a broken walk says what broke. */
		code = mdf_error_print_unless_plain(walk_uvtop(w, mm, vaddr, &paddr));
		if (code)
			printf("0x%" PRIx64 " %s\n", vaddr, status_name(code));
		else
			printf("0x%" PRIx64 " 0x%" PRIx64 "\n", vaddr, paddr);
	}
	return err;
}

/* The walk that @argv asks for; *@usage tells a bad command line. */
static struct mdf_error *run(struct walk_ctx *w, int argc, char **argv, bool *usage)
{
	const char *cmd = argv[0];
	struct mdf_error *err;
	uint64_t addr, max = 0, mm;

	if (!strcmp(cmd, "tasks") && argc == 1)
		return walk_tasks(w, print_task, NULL);
	if (!strcmp(cmd, "vmas") && argc == 2) {
		err = task_mm(w, argv[1], &mm);
		return err ? err : walk_vmas(w, mm, print_vma, NULL);
	}
	if (!strcmp(cmd, "uvtop") && argc >= 2)
		return print_uvtop(w, argc, argv);
	if (!strcmp(cmd, "pagecache") && argc == 3)
		return cmd_pagecache(w, argv[1], argv[2]);
	if (!strcmp(cmd, "gem") && argc == 3)
		return cmd_gem(w, argv[1], argv[2]);
	if (!strcmp(cmd, "drm-minors") && argc == 1)
		return cmd_drm_minors(w);
	*usage = true;
	if (argc < 2 || argc > 3)
		return NULL;
	err = parse_u64(argv[1], &addr);
	if (!err && argc == 3)
		err = parse_u64(argv[2], &max);
	if (err)
		return err;
	*usage = false;
	if (!strcmp(cmd, "maple") && argc == 2)
		return walk_maple_tree(w, addr, print_maple, NULL);
	if (!strcmp(cmd, "xarray") && argc == 2)
		return walk_xarray(w, addr, print_xa, NULL);
	if (!strcmp(cmd, "idr") && argc == 2)
		return walk_idr(w, addr, print_xa, NULL);
	if (!strcmp(cmd, "list"))
		return walk_list(w, addr, max, print_node, NULL);
	*usage = true;
	return NULL;
}

int main(int argc, char **argv)
{
	struct dump_input *in = NULL;
	struct vmcoreinfo *vi = NULL;
	struct memory *mem = NULL;
	struct kernel *kernel = NULL;
	struct mem_map *map = NULL;
	const struct arch_ops *arch;
	struct mdf_error *err;
	bool usage = false;

	msg_set_level(ML_ERROR);
	if (argc < 3) {
		fprintf(stderr, "usage: walkread VMCORE "
			"tasks|vmas|uvtop|pagecache|gem|drm-minors|maple|xarray|idr|list ...\n");
		return 2;
	}
	err = input_open(argv[1], &in);
	if (!err)
		err = vmcoreinfo_parse(in->vmcoreinfo ? in->vmcoreinfo : "", in->vmcoreinfo_size, argv[1], &vi);
	if (!err)
		err = arch_detect(in, vi, &arch);
	if (!err)
		err = memory_new(in, arch, vi, &mem);
	if (!err)
		err = kernel_new(mem, vi, &kernel);
	if (!err)
		err = mem_map_new(mem, kernel, in->page_size, in->max_pfn, &map);
	if (!err) {
		struct walk_ctx w = { .mem = mem, .kernel = kernel, .mem_map = map };

		err = run(&w, argc - 2, argv + 2, &usage);
	}
	mem_map_free(map);
	kernel_free(kernel);
	memory_free(mem);
	vmcoreinfo_free(vi);
	input_close(in);
	if (usage && !err) {
		fprintf(stderr, "walkread: bad usage of %s\n", argv[2]);
		return 2;
	}
	return err ? (mdf_error_print(err, false), 1) : 0;
}
