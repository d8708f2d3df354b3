// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * drm_shmem_filter: leaves the pages of GEM buffers of the drivers built
 * on the DRM GEM shmem helpers (virtio-gpu in cloud VMs, vgem, and
 * others: panfrost, lima, v3d, udl, ...) out of the dump: user data of no
 * use to a kernel crash analysis, which at low dump levels (their pages
 * are shmem page cache) would otherwise all be kept.
 *
 * What it walks (gpu_buffers.h):
 * - every process's VMAs: a VMA whose vm_ops is drm_gem_shmem_vm_ops
 *   maps such a buffer; its vm_private_data is the struct drm_gem_object
 *   (drm_gem_mmap_obj()), the "base" of a struct drm_gem_shmem_object;
 * - the DRM core's registry of open files: each DRM minor's drm_device,
 *   its drm_files (filelist; filelist_internal for in-kernel clients) and
 *   each file's GEM handles (drm_file.object_idr): an object whose
 *   funcs->vm_ops is drm_gem_shmem_vm_ops (drm_gem_shmem_funcs, or a
 *   driver's own funcs built on the helpers) is one, mapped or not.
 * Each buffer once.  Its pages: drm_gem_shmem_object.pages, an array of
 * base.size / PAGE_SIZE struct page pointers while the pages are held
 * (pages_use_count > 0; drm_gem_shmem_put_pages() frees the array and
 * sets pages to NULL, and an imported buffer has none); each entry's own
 * pfn is discarded, NULL entries skipped.
 *
 * Checked on: Debian's 6.1.0-57 (6.1.192) and 7.2.13 kernels of the
 * shared dumps (a vgem buffer of 1024 pages that labprobe maps and holds
 * a handle to: exactly its 1024 pfns go), and on generated dumps
 * (tests/gen --amdgpu) with buffers mapped and in two files, in a handle
 * only, in a VMA only, and one without pages.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "gpu_buffers.h"
#include "makedumpfile-extension.h"

struct shmem_layout {
	uint64_t base, pages, use_count;
	bool has_use_count;
	uint64_t page_size;
	uint64_t no_pages;
};

static int shmem_layout(struct shmem_layout *l)
{
	int err = gpu_offset("drm_shmem_helper", "drm_gem_shmem_object", "base", &l->base);

	if (!err)
		err = gpu_offset("drm_shmem_helper", "drm_gem_shmem_object", "pages", &l->pages);
	if (err)
		return err;
	/* unsigned int in 6.1, refcount_t since 6.9: four bytes either way */
	l->has_use_count = !mdf_member_offset("drm_shmem_helper", "drm_gem_shmem_object",
					      "pages_use_count", &l->use_count) ||
			   !mdf_member_offset(NULL, "drm_gem_shmem_object", "pages_use_count",
					      &l->use_count);
	l->page_size = mdf_page_size();
	return 0;
}

/* One buffer, given its drm_gem_object (drm_gem_shmem_object.base) and size. */
static int shmem_buffer(struct gpu_filter *f, uint64_t gem, uint64_t size)
{
	struct shmem_layout *l = f->priv;
	uint64_t obj = gem - l->base, pages, count = size / l->page_size;
	uint32_t users = 1;
	int64_t done;
	int err;

	err = mdf_read_u64(obj + l->pages, &pages);
	if (!err && pages && l->has_use_count)
		err = mdf_read_u32(obj + l->use_count, &users);
	if (err) {
		if (gpu_say(f))
			mdf_log(MDF_LOG_ERROR, "drm_gem_shmem_object at 0x%" PRIx64 " cannot be read "
				"(%s): skipped", obj, strerror(-err));
		return 0;
	}
	if (!pages || !users) {
		l->no_pages++;
		return 0;
	}
	if (!count || count > GPU_MAX_BUFFER_PAGES || size % l->page_size) {
		if (gpu_say(f))
			mdf_log(MDF_LOG_ERROR, "drm_gem_shmem_object at 0x%" PRIx64 " says it has %"
				PRIu64 " bytes: not a buffer of whole pages, skipped", obj, size);
		return 0;
	}
	done = gpu_discard_pages(f, "drm_gem_shmem_object", obj, pages, count, false);
	if (done < 0)
		return (int)done;
	mdf_log(MDF_LOG_DEBUG, "drm_gem_shmem_object 0x%" PRIx64 " (%" PRIu64 " bytes): %" PRId64
		" pages discarded", obj, size, done);
	return 0;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	struct shmem_layout l = { 0 };
	struct gpu_filter f = { .what = "drm-shmem GEM buffers", .buffer = shmem_buffer, .priv = &l };
	int err;

	(void)ext;
	if (mdf_symbol_addr("drm_shmem_helper", "drm_gem_shmem_vm_ops", &f.vm_ops) &&
	    mdf_symbol_addr(NULL, "drm_gem_shmem_vm_ops", &f.vm_ops)) {
		mdf_log(MDF_LOG_INFO, "the DRM GEM shmem helpers are not loaded (no "
			"drm_gem_shmem_vm_ops in kallsyms): nothing to filter");
		return 0;
	}
	err = shmem_layout(&l);
	if (!err)
		err = gpu_scan(&f);
	if (!err && l.no_pages)
		mdf_log(MDF_LOG_INFO, "%" PRIu64 " buffers hold no pages now", l.no_pages);
	return err;
}
