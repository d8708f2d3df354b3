// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A callback that excludes the pages of the kernel's internal shmem
 * objects: GEM buffers of the shmem helpers (vgem's, here), memfd and SysV
 * shared memory, whose files live on the internal mount shm_mnt.  A page
 * is one when its struct page's mapping (not anonymous) belongs to an
 * inode of shm_mnt's superblock.  The last mapping looked up is kept: a
 * buffer's pages come in runs.
 */
#include "../makedumpfile.h"
#include "../btf_info.h"
#include "../kallsyms.h"
#include "../extension.h"

INIT_MOD_SYM(vmlinux, shm_mnt);
INIT_MOD_STRUCT_MEMBER(vmlinux, vfsmount, mnt_sb);
INIT_MOD_STRUCT_MEMBER(vmlinux, address_space, host);
INIT_MOD_STRUCT_MEMBER(vmlinux, inode, i_sb);
INIT_MOD_STRUCT_MEMBER(vmlinux, page, mapping);

#define OFF(S, M) (GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, S, M) / 8)

static unsigned long shm_sb, last_mapping;
static bool last_is_shm;

int extension_callback(unsigned long pfn, const void *pcache)
{
	unsigned long mapping = ULONG((const char *)pcache + OFF(page, mapping)), host, sb;

	(void)pfn;
	if (!shm_sb || !mapping || (mapping & 1))
		return PG_UNDECID;
	if (mapping != last_mapping) {
		last_mapping = mapping;
		last_is_shm = readmem(VADDR, mapping + OFF(address_space, host), &host, sizeof(host)) &&
			      host && readmem(VADDR, host + OFF(inode, i_sb), &sb, sizeof(sb)) && sb == shm_sb;
	}
	return last_is_shm ? PG_EXCLUDE : PG_UNDECID;
}

void extension_init(void)
{
	unsigned long mnt;

	if (!readmem(VADDR, GET_MOD_SYM(vmlinux, shm_mnt), &mnt, sizeof(mnt)) || !mnt ||
	    !readmem(VADDR, mnt + OFF(vfsmount, mnt_sb), &shm_sb, sizeof(shm_sb)))
		ERRMSG("vgem_exclude: cannot read shm_mnt\n");
	MSG("vgem_exclude: the internal shmem mount's superblock found: %s\n", shm_sb ? "yes" : "no");
}
