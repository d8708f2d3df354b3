/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gpu_buffers.h: what the GPU buffer filters (amdgpu_filter.c,
 * drm_shmem_filter.c) share.  Each includes it once: everything here is
 * static, and uses only makedumpfile-extension.h.
 *
 * A filter finds its driver's buffer objects two ways, and hands each
 * one, once, to its own callback with the address of the object's
 * struct drm_gem_object:
 *
 * - Through processes: every thread group leader's mm (each mm once),
 *   every VMA of it; a VMA whose vm_ops is the driver's
 *   vm_operations_struct maps a buffer, and its vm_private_data leads to
 *   the object (drm_gem_mmap_obj() stores the drm_gem_object there; TTM's
 *   ttm_bo_mmap_obj() then stores the ttm_buffer_object, whose member
 *   "base" is that drm_gem_object: the filter gives its offset).
 *
 * - Through the DRM core's own registries, so that buffers no process
 *   maps are found too: every DRM minor (the xarray drm_minors_xa since
 *   6.8, the IDR drm_minors_idr before) names its drm_device; each
 *   device's open files (drm_device.filelist, and filelist_internal for
 *   in-kernel clients such as fbdev emulation) are struct drm_file, and
 *   each file's GEM handle table (drm_file.object_idr, an IDR) holds the
 *   drm_gem_object of each handle.  An object belongs to the driver when
 *   its funcs->vm_ops is the driver's vm_ops: the same test as for VMAs,
 *   and the one the kernel's drm_gem_mmap_obj() relies on.
 *
 * Every walk is bounded (the API's walkers bound lists, trees and
 * xarrays; the counts here bound devices, files and pages), and an
 * unreadable pointer ends the walk it was met in with one message, never
 * the others: a damaged file list still lets the VMAs be walked.
 *
 * Pages are registered as runs of consecutive pfns (a buffer's pages[]
 * is in buffer order: runs where the allocator handed out blocks).
 */
#ifndef MDF_EXT_GPU_BUFFERS_H
#define MDF_EXT_GPU_BUFFERS_H

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "makedumpfile-extension.h"

/* Bounds far above any real system: past them the structure is garbage. */
#define GPU_MAX_DEVICES 1024
#define GPU_MAX_FILES 65536          /* per device list */
#define GPU_MAX_BUFFERS (1u << 24)
#define GPU_MAX_BUFFER_PAGES (1ull << 26)  /* 256 GiB in one buffer */
#define GPU_PAGES_CHUNK 512          /* struct page pointers read at a time */
#define GPU_MAX_MESSAGES 8           /* per kind of damage, then silence */

/* ---- a set of addresses ---- */

struct gpu_set {
	uint64_t *slots;
	uint64_t mask;
	uint64_t count;
};

static uint64_t gpu_hash(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdull;
	v ^= v >> 33;
	return v;
}

static int gpu_set_grow(struct gpu_set *s)
{
	uint64_t size = s->slots ? (s->mask + 1) * 2 : 256;
	uint64_t *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (uint64_t i = 0; s->slots && i <= s->mask; i++) {
		uint64_t v = s->slots[i], j;

		if (!v)
			continue;
		for (j = gpu_hash(v) & (size - 1); slots[j]; j = (j + 1) & (size - 1))
			;
		slots[j] = v;
	}
	free(s->slots);
	s->slots = slots;
	s->mask = size - 1;
	return 0;
}

/* 1 when @v (not 0) is new, 0 when already there, or a negative errno. */
static int gpu_set_add(struct gpu_set *s, uint64_t v)
{
	uint64_t j;

	if (!s->slots || 2 * (s->count + 1) > s->mask + 1) {
		int err = s->count >= GPU_MAX_BUFFERS ? -E2BIG : gpu_set_grow(s);

		if (err)
			return err;
	}
	for (j = gpu_hash(v) & s->mask; s->slots[j]; j = (j + 1) & s->mask)
		if (s->slots[j] == v)
			return 0;
	s->slots[j] = v;
	s->count++;
	return 1;
}

static void gpu_set_free(struct gpu_set *s)
{
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

/* ---- layouts ---- */

/* A member's offset in @module's BTF, else anywhere (a built-in DRM is vmlinux's). */
static int gpu_offset(const char *module, const char *type, const char *member, uint64_t *off)
{
	int err = mdf_member_offset(module, type, member, off);

	if (err == -ENOENT)
		err = mdf_member_offset(NULL, type, member, off);
	if (err)
		mdf_log(MDF_LOG_ERROR, "no %s.%s in the dump's BTF (%s)", type, member, strerror(-err));
	return err;
}

struct gpu_drm_layout {
	uint64_t gem_funcs, gem_size, funcs_vm_ops;
	uint64_t minor_dev, dev_filelist, dev_filelist_internal;
	uint64_t file_lhead, file_object_idr, idr_rt;
};

static int gpu_drm_layout(struct gpu_drm_layout *l)
{
	int err = gpu_offset("drm", "drm_gem_object", "funcs", &l->gem_funcs);

	if (!err)
		err = gpu_offset("drm", "drm_gem_object", "size", &l->gem_size);
	if (!err)
		err = gpu_offset("drm", "drm_gem_object_funcs", "vm_ops", &l->funcs_vm_ops);
	if (!err)
		err = gpu_offset("drm", "drm_minor", "dev", &l->minor_dev);
	if (!err)
		err = gpu_offset("drm", "drm_device", "filelist", &l->dev_filelist);
	if (!err)
		err = gpu_offset("drm", "drm_device", "filelist_internal", &l->dev_filelist_internal);
	if (!err)
		err = gpu_offset("drm", "drm_file", "lhead", &l->file_lhead);
	if (!err)
		err = gpu_offset("drm", "drm_file", "object_idr", &l->file_object_idr);
	if (!err)
		err = gpu_offset(NULL, "idr", "idr_rt", &l->idr_rt);
	return err;
}

/* ---- the scan ---- */

enum gpu_via { GPU_VIA_VMA, GPU_VIA_HANDLE };

struct gpu_filter {
	/* set by the filter */
	const char *what;                /* "amdgpu buffer objects", ... */
	uint64_t vm_ops;                 /* the driver's vm_operations_struct */
	uint64_t vma_gem_offset;         /* the drm_gem_object in what vm_private_data points to */
	/* one buffer, found the first time: its pages to discard */
	int (*buffer)(struct gpu_filter *f, uint64_t gem, uint64_t size);
	void *priv;

	/* the scan's own */
	struct gpu_drm_layout l;
	struct gpu_set buffers, mms, devices;
	uint64_t device_list[GPU_MAX_DEVICES];
	unsigned int nr_devices;
	uint64_t funcs_cache[8][2];      /* drm_gem_object_funcs -> its vm_ops */
	unsigned int funcs_cached;
	uint64_t vma_hits, vma_buffers, handle_hits, handle_buffers, files;
	uint64_t pages, ranges, with_pages;
	uint64_t run_start, run_len;
	unsigned int messages;
	int err;                         /* the first error that is not the dump's fault */
};

static void gpu_note(struct gpu_filter *f, int err)
{
	/* Damage in the dump ends one walk; running out of memory ends the scan. */
	if (err == -ENOMEM || err == -E2BIG)
		f->err = f->err ? f->err : err;
}

static bool gpu_say(struct gpu_filter *f)
{
	return f->messages++ < GPU_MAX_MESSAGES;
}

/* A buffer seen through a VMA or a handle: to the filter, the first time. */
static int gpu_found(struct gpu_filter *f, uint64_t gem, enum gpu_via via)
{
	uint64_t size;
	int err, fresh = gpu_set_add(&f->buffers, gem);

	if (fresh < 0) {
		gpu_note(f, fresh);
		return fresh;
	}
	if (via == GPU_VIA_VMA)
		f->vma_hits++;
	else
		f->handle_hits++;
	if (!fresh)
		return 0;
	if (via == GPU_VIA_VMA)
		f->vma_buffers++;
	else
		f->handle_buffers++;
	err = mdf_read_u64(gem + f->l.gem_size, &size);
	if (err) {
		if (gpu_say(f))
			mdf_log(MDF_LOG_ERROR, "drm_gem_object at 0x%" PRIx64 " cannot be read (%s): skipped",
				gem, strerror(-err));
		return 0;
	}
	err = f->buffer(f, gem, size);
	gpu_note(f, err);
	return f->err;
}

/* -- through processes -- */

static int gpu_vma(const struct mdf_vma *vma, void *arg)
{
	struct gpu_filter *f = arg;

	if (vma->ops != f->vm_ops || !vma->private_data)
		return 0;
	return gpu_found(f, vma->private_data + f->vma_gem_offset, GPU_VIA_VMA);
}

static int gpu_task(const struct mdf_task *task, void *arg)
{
	struct gpu_filter *f = arg;
	int err;

	if (!task->mm)
		return 0;
	err = gpu_set_add(&f->mms, task->mm);
	if (err <= 0) {
		gpu_note(f, err);
		return f->err;
	}
	/* A damaged VMA tree was reported by the walker: the next process is walked all the same. */
	err = mdf_vma_for_each(task->mm, gpu_vma, f);
	if (err < 0)
		gpu_note(f, err);
	return f->err;
}

static void gpu_scan_vmas(struct gpu_filter *f)
{
	int err = mdf_task_for_each(gpu_task, f);

	if (err < 0 && !f->err)
		mdf_log(MDF_LOG_INFO, "the task list walk ended early (%s): buffers mapped by the "
			"tasks past that point are found through DRM files only", strerror(-err));
}

/* -- through DRM's registries -- */

/* The vm_ops of a drm_gem_object_funcs, through a small cache: drivers have a few. */
static int gpu_funcs_vm_ops(struct gpu_filter *f, uint64_t funcs, uint64_t *vm_ops)
{
	unsigned int n = f->funcs_cached < 8 ? f->funcs_cached : 8;
	int err;

	for (unsigned int i = 0; i < n; i++)
		if (f->funcs_cache[i][0] == funcs) {
			*vm_ops = f->funcs_cache[i][1];
			return 0;
		}
	err = mdf_read_u64(funcs + f->l.funcs_vm_ops, vm_ops);
	if (!err) {
		f->funcs_cache[f->funcs_cached % 8][0] = funcs;
		f->funcs_cache[f->funcs_cached % 8][1] = *vm_ops;
		f->funcs_cached++;
	}
	return err;
}

static int gpu_handle(uint64_t index, uint64_t gem, void *arg)
{
	struct gpu_filter *f = arg;
	uint64_t funcs, vm_ops;
	int err = (gem & 7) ? -EFAULT : mdf_read_u64(gem + f->l.gem_funcs, &funcs);

	if (!err && funcs)
		err = gpu_funcs_vm_ops(f, funcs, &vm_ops);
	if (err) {
		if (gpu_say(f))
			mdf_log(MDF_LOG_ERROR, "GEM handle table entry %" PRIu64 ": drm_gem_object at 0x%"
				PRIx64 " or its funcs cannot be read (%s): skipped", index, gem,
				strerror(-err));
		return 0;
	}
	if (!funcs || vm_ops != f->vm_ops)
		return 0;
	return gpu_found(f, gem, GPU_VIA_HANDLE);
}

static int gpu_file(uint64_t node, void *arg)
{
	struct gpu_filter *f = arg;
	uint64_t file = node - f->l.file_lhead;
	int err;

	f->files++;
	err = mdf_xarray_for_each(file + f->l.file_object_idr + f->l.idr_rt, gpu_handle, f);
	if (err < 0)
		gpu_note(f, err); /* the walker said where; the next file is walked */
	return f->err;
}

static int gpu_minor(uint64_t index, uint64_t minor, void *arg)
{
	struct gpu_filter *f = arg;
	uint64_t dev;
	int err = mdf_read_u64(minor + f->l.minor_dev, &dev);

	if (err || !dev) {
		if (gpu_say(f))
			mdf_log(MDF_LOG_ERROR, "DRM minor %" PRIu64 " at 0x%" PRIx64 " names no "
				"readable device (%s): skipped", index, minor,
				err ? strerror(-err) : "NULL");
		return 0;
	}
	err = gpu_set_add(&f->devices, dev);
	if (err < 0) {
		gpu_note(f, err);
		return err;
	}
	if (err && f->nr_devices < GPU_MAX_DEVICES)
		f->device_list[f->nr_devices++] = dev;
	return 0;
}

/*
 * The DRM core's minors registry: drm_minors_xa (kernels >= 6.8) or
 * drm_minors_idr, in the drm module, or in the kernel when DRM is built
 * in.  Both names are asked of the module before either of the kernel: a
 * kernel name costs a pass over all its names, so a kernel with the drm
 * module is asked none.  Asked there rather than everywhere: a name no
 * module has would otherwise read every module's symbol table.
 */
static int gpu_drm_minors(uint64_t *addr, bool *is_xarray)
{
	static const char *const names[] = { "drm_minors_xa", "drm_minors_idr" };

	for (int builtin = 0; builtin < 2; builtin++) {
		if (builtin)
			mdf_expect_kernel_symbols(names, 2);
		for (int i = 0; i < 2; i++) {
			if (!mdf_symbol_addr(builtin ? "vmlinux" : "drm", names[i], addr)) {
				*is_xarray = i == 0;
				return 0;
			}
		}
	}
	return -ENOENT;
}

static void gpu_scan_drm_files(struct gpu_filter *f)
{
	uint64_t minors;
	bool is_xarray;
	int err;

	if (!gpu_drm_minors(&minors, &is_xarray)) {
		err = mdf_xarray_for_each(is_xarray ? minors : minors + f->l.idr_rt, gpu_minor, f);
	} else {
		mdf_log(MDF_LOG_INFO, "DRM is not loaded (no drm_minors_xa or drm_minors_idr): "
			"no DRM files to walk");
		return;
	}
	if (err < 0)
		gpu_note(f, err);
	for (unsigned int d = 0; d < f->nr_devices && !f->err; d++) {
		uint64_t dev = f->device_list[d];

		/* A damaged list was reported by the walker: the other list is walked all the same. */
		err = mdf_list_for_each(dev + f->l.dev_filelist, GPU_MAX_FILES, gpu_file, f);
		if (err < 0)
			gpu_note(f, err);
		if (f->err)
			break;
		err = mdf_list_for_each(dev + f->l.dev_filelist_internal, GPU_MAX_FILES, gpu_file, f);
		if (err < 0)
			gpu_note(f, err);
	}
}

/* -- pages -- */

static int gpu_flush_run(struct gpu_filter *f)
{
	int err = 0;

	if (f->run_len) {
		err = mdf_discard_pfns(f->run_start, f->run_len);
		f->ranges++;
	}
	f->run_len = 0;
	return err;
}

/*
 * Discards the page of each non-NULL struct page * of the array at
 * @pages (@count entries), as runs of consecutive pfns.  An entry that is
 * no struct page (garbage, or an encoded value: said unless @quiet) is
 * skipped; the array ends where it cannot be read.  Returns the pages
 * discarded, or a negative errno from registration (out of memory).
 */
static int64_t gpu_discard_pages(struct gpu_filter *f, const char *what, uint64_t owner,
				 uint64_t pages, uint64_t count, bool quiet)
{
	uint64_t buf[GPU_PAGES_CHUNK], done = 0, bad = 0;
	int err = 0;

	for (uint64_t i = 0; i < count && !err; i += GPU_PAGES_CHUNK) {
		uint64_t n = count - i < GPU_PAGES_CHUNK ? count - i : GPU_PAGES_CHUNK;

		err = mdf_read_u64_array(pages + 8 * i, buf, n);
		if (err) {
			if (gpu_say(f))
				mdf_log(MDF_LOG_ERROR, "%s at 0x%" PRIx64 ": its pages array at 0x%" PRIx64
					" cannot be read from entry %" PRIu64 " of %" PRIu64 " (%s)",
					what, owner, pages, i, count, strerror(-err));
			err = 0;
			break;
		}
		for (uint64_t j = 0; j < n && !err; j++) {
			uint64_t pfn;

			if (!buf[j])
				continue;
			if (mdf_page_to_pfn(buf[j], &pfn)) {
				bad++;
				continue;
			}
			if (f->run_len && pfn == f->run_start + f->run_len) {
				f->run_len++;
			} else {
				err = gpu_flush_run(f);
				f->run_start = pfn;
				f->run_len = 1;
			}
			done++;
		}
	}
	if (!err)
		err = gpu_flush_run(f);
	if (bad && !quiet && gpu_say(f))
		mdf_log(MDF_LOG_ERROR, "%s at 0x%" PRIx64 ": %" PRIu64 " of its %" PRIu64 " page "
			"pointers are no struct page: those were skipped", what, owner, bad, count);
	if (err)
		return err;
	f->pages += done;
	f->with_pages += done > 0;
	return (int64_t)done;
}

/* Milliseconds of @clock since @start: for the closing message. */
static double gpu_ms_since(clockid_t clock, const struct timespec *start)
{
	struct timespec now;

	clock_gettime(clock, &now);
	return (double)(now.tv_sec - start->tv_sec) * 1e3 + (double)(now.tv_nsec - start->tv_nsec) / 1e6;
}

/* Both walks, then the summary; returns 0 or the error that stopped the scan. */
static int gpu_scan(struct gpu_filter *f)
{
	struct timespec start, cpu_start;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &start);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_start);
	err = gpu_drm_layout(&f->l);

	if (err)
		return err;
	gpu_scan_vmas(f);
	if (!f->err)
		gpu_scan_drm_files(f);
	if (f->err) {
		mdf_log(MDF_LOG_ERROR, "the scan stopped: %s", strerror(-f->err));
	} else if (!f->buffers.count) {
		mdf_log(MDF_LOG_INFO, "no %s found (%" PRIu64 " DRM files on %u devices, %" PRIu64
			" processes): nothing to discard", f->what, f->files, f->nr_devices,
			f->mms.count);
	} else {
		mdf_log(MDF_LOG_INFO, "%" PRIu64 " %s (%" PRIu64 " found through %" PRIu64
			" mappings of %" PRIu64 " processes, %" PRIu64 " more through %" PRIu64
			" handles of %" PRIu64 " DRM files); %" PRIu64 " with pages: discarding %"
			PRIu64 " pages in %" PRIu64 " ranges", f->buffers.count, f->what,
			f->vma_buffers, f->vma_hits, f->mms.count, f->handle_buffers, f->handle_hits,
			f->files, f->with_pages, f->pages, f->ranges);
	}
	mdf_log(MDF_LOG_DEBUG, "the scan took %.1f ms (%.1f ms of CPU)", gpu_ms_since(CLOCK_MONOTONIC, &start),
		gpu_ms_since(CLOCK_PROCESS_CPUTIME_ID, &cpu_start));
	err = f->err;
	gpu_set_free(&f->buffers);
	gpu_set_free(&f->mms);
	gpu_set_free(&f->devices);
	return err;
}

#endif
