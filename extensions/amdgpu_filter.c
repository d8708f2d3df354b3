// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * amdgpu_filter: leaves the pages of amdgpu's buffer objects (BOs) out of
 * the dump.  A GPU keeps gigabytes of user data in system memory (textures,
 * frames, model weights) in BOs; no page flag marks those pages, and they
 * are of no use to a kernel crash analysis.
 *
 * What it walks (gpu_buffers.h):
 * - every process's VMAs: a VMA whose vm_ops is amdgpu_gem_vm_ops
 *   (amdgpu's kallsyms) maps a BO, and its vm_private_data is the BO's
 *   struct ttm_buffer_object (ttm_bo_mmap_obj());
 * - the DRM core's registry of open files: each DRM minor's drm_device,
 *   its drm_files (user processes on filelist, in-kernel clients such as
 *   fbdev emulation on filelist_internal) and each file's GEM handles
 *   (drm_file.object_idr): an object whose funcs->vm_ops is
 *   amdgpu_gem_vm_ops is an amdgpu BO (amdgpu_gem_object_funcs), found
 *   even when no process maps it.
 * It does not walk TTM's device and resource-manager LRU lists: those
 * also hold amdgpu's own BOs (VM page tables, rings, firmware, the GART
 * table), kernel data an amdgpu crash analysis wants, where the DRM files
 * hold exactly what clients allocated.  A BO found both ways, or mapped
 * by several processes, is handled once.
 *
 * For each BO: its ttm_buffer_object (the drm_gem_object is its first
 * member, "base") has a struct ttm_tt *ttm when it has system pages (NULL
 * in VRAM); ttm_tt.pages holds num_pages struct page pointers, each page
 * where TTM's pool put it: runs where the pool gave a higher-order block,
 * single pages anywhere else.  Every entry is converted with
 * mdf_page_to_pfn() and its own pfn discarded; NULL entries (never
 * populated) are skipped.  A ttm_tt whose pages are not allocated keeps
 * stale pointers in pages[] (ttm_tt_unpopulate() frees the pages, not the
 * array: after a swap-out, after ttm_bo_pipeline_gutting()), so a ttm_tt
 * counts only while TTM_TT_FLAG_PRIV_POPULATED is set and
 * TTM_TT_FLAG_SWAPPED (bit 0) is not.  That flag is a #define, absent
 * from BTF, and it moved; the layout of struct ttm_tt tells the kernels
 * apart:
 *   no ttm_tt.backup    bit 31 (6.1 and up to the flags' move to BIT()),
 *                       then bit 5 (after TTM_TT_FLAG_DECRYPTED, bit 4):
 *                       either counts, neither was anything else there
 *   ttm_tt.backup       bit 6 (TTM_TT_FLAG_BACKED_UP took bit 5)
 *   ttm_tt.memcg        bit 7 (TTM_TT_FLAG_ACCOUNTED took bit 6)
 * (The shared dumps' own ttm_tt_populate() code agrees: 6.1's ORs in
 * 0x80000000, 7.2's tests and ORs in 0x40, clearing 0x20.)
 * --extension-arg amdgpu_filter:populated-bit=N overrides this.  A
 * backed-up ttm_tt (7.x) keeps swap handles, not struct pages, in the
 * entries it backed up: those are skipped.
 *
 * Checked on: Debian's 6.1.0-57 (6.1.192) and 7.2.13 kernels of the
 * shared dumps, which load amdgpu without an AMD GPU (its BTF and kallsyms
 * are real, there are no BOs: the filter says so and discards nothing),
 * and on generated dumps (tests/gen --amdgpu) with BOs mapped by one
 * process, by two, by none, with scattered pages, NULL entries, a swapped
 * and a gutted ttm_tt.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_buffers.h"
#include "makedumpfile-extension.h"

#define TTM_TT_FLAG_SWAPPED 0x1u

struct amdgpu_layout {
	const char *ttm_scope;
	uint64_t bo_base, bo_ttm;
	uint64_t tt_pages, tt_num_pages, tt_page_flags;
	uint32_t populated, backed_up;
	uint64_t page_size;
	uint64_t no_tt, not_populated;
};

/* TTM_TT_FLAG_PRIV_POPULATED (and _BACKED_UP) of this kernel, from struct ttm_tt's layout. */
static int ttm_flags(struct amdgpu_layout *l)
{
	const char *arg = mdf_extension_arg(NULL, "populated-bit");
	uint64_t off;

	if (arg) {
		char *end;
		unsigned long bit = strtoul(arg, &end, 0);

		if (*end || bit > 31) {
			mdf_log(MDF_LOG_ERROR, "populated-bit=%s: not a bit number 0..31", arg);
			return -EINVAL;
		}
		l->populated = 1u << bit;
		return 0;
	}
	if (!mdf_member_offset(l->ttm_scope, "ttm_tt", "memcg", &off)) {
		l->populated = 1u << 7;
		l->backed_up = 1u << 5;
	} else if (!mdf_member_offset(l->ttm_scope, "ttm_tt", "backup", &off)) {
		l->populated = 1u << 6;
		l->backed_up = 1u << 5;
	} else {
		l->populated = 1u << 31 | 1u << 5;
	}
	mdf_log(MDF_LOG_DEBUG, "ttm_tt counts as populated with page_flags & 0x%" PRIx32
		" (TTM_TT_FLAG_PRIV_POPULATED of this ttm_tt layout)", l->populated);
	return 0;
}

/*
 * Where TTM's types are described: the ttm module's BTF (a built-in TTM's
 * are vmlinux's, where a module's lookup goes next), else amdgpu's, which
 * repeats them.  Asked in that order, a run reads ttm's 22 KiB of BTF
 * rather than amdgpu's 2 MiB.
 */
static const char *ttm_scope(void)
{
	uint64_t size;

	return mdf_type_size("ttm", "ttm_tt", &size) ? "amdgpu" : "ttm";
}

static int amdgpu_layout(struct amdgpu_layout *l)
{
	int err;

	l->ttm_scope = ttm_scope();
	err = gpu_offset(l->ttm_scope, "ttm_buffer_object", "base", &l->bo_base);
	if (!err)
		err = gpu_offset(l->ttm_scope, "ttm_buffer_object", "ttm", &l->bo_ttm);
	if (!err)
		err = gpu_offset(l->ttm_scope, "ttm_tt", "pages", &l->tt_pages);
	if (!err)
		err = gpu_offset(l->ttm_scope, "ttm_tt", "num_pages", &l->tt_num_pages);
	if (!err)
		err = gpu_offset(l->ttm_scope, "ttm_tt", "page_flags", &l->tt_page_flags);
	if (!err)
		err = ttm_flags(l);
	l->page_size = mdf_page_size();
	return err;
}

/* One BO, given its drm_gem_object (ttm_buffer_object.base) and size. */
static int amdgpu_bo(struct gpu_filter *f, uint64_t gem, uint64_t size)
{
	struct amdgpu_layout *l = f->priv;
	uint64_t bo = gem - l->bo_base, tt, pages, max = (size + l->page_size - 1) / l->page_size;
	uint32_t flags, num_pages;
	int64_t done;
	int err;

	err = mdf_read_u64(bo + l->bo_ttm, &tt);
	if (!err && !tt) {
		l->no_tt++;
		return 0;
	}
	if (!err)
		err = mdf_read_u64(tt + l->tt_pages, &pages);
	if (!err)
		err = mdf_read_u32(tt + l->tt_page_flags, &flags);
	if (!err)
		err = mdf_read_u32(tt + l->tt_num_pages, &num_pages);
	if (err) {
		if (gpu_say(f))
			mdf_log(MDF_LOG_ERROR, "BO 0x%" PRIx64 ": its ttm_tt cannot be read (%s): "
				"skipped", bo, strerror(-err));
		return 0;
	}
	if ((flags & TTM_TT_FLAG_SWAPPED) || !(flags & l->populated) || !pages) {
		l->not_populated++;
		mdf_log(MDF_LOG_DEBUG, "BO 0x%" PRIx64 ": ttm_tt 0x%" PRIx64 " has no pages now "
			"(page_flags 0x%" PRIx32 ")", bo, tt, flags);
		return 0;
	}
	if (!num_pages || num_pages > max || num_pages > GPU_MAX_BUFFER_PAGES) {
		if (gpu_say(f))
			mdf_log(MDF_LOG_ERROR, "BO 0x%" PRIx64 ": ttm_tt 0x%" PRIx64 " says %" PRIu32
				" pages for %" PRIu64 " bytes: skipped", bo, tt, num_pages, size);
		return 0;
	}
	/* Backed-up entries are swap handles, not struct pages: not worth a message. */
	done = gpu_discard_pages(f, "BO", bo, pages, num_pages, flags & l->backed_up);
	if (done < 0)
		return (int)done;
	mdf_log(MDF_LOG_DEBUG, "BO 0x%" PRIx64 " (%" PRIu64 " bytes): %" PRId64 " of %" PRIu32
		" pages discarded", bo, size, done, num_pages);
	return 0;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	struct amdgpu_layout l = { 0 };
	struct gpu_filter f = { .what = "amdgpu buffer objects", .buffer = amdgpu_bo, .priv = &l };
	int err;

	(void)ext;
	if (mdf_symbol_addr("amdgpu", "amdgpu_gem_vm_ops", &f.vm_ops)) {
		mdf_log(MDF_LOG_INFO, "amdgpu is not loaded (no amdgpu_gem_vm_ops in kallsyms): "
			"nothing to filter");
		return 0;
	}
	err = amdgpu_layout(&l);
	/* vm_private_data is the ttm_buffer_object (ttm_bo_mmap_obj()) */
	f.vma_gem_offset = l.bo_base;
	if (!err)
		err = gpu_scan(&f);
	if (!err && (l.no_tt || l.not_populated))
		mdf_log(MDF_LOG_INFO, "%" PRIu64 " BOs without a ttm_tt (VRAM), %" PRIu64
			" whose ttm_tt has no pages now (swapped out, or never populated)", l.no_tt,
			l.not_populated);
	return err;
}
