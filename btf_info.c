// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * btf_info.h's functions for extensions written for upstream makedumpfile
 * or for the series posted to the kexec list, on top of
 * makedumpfile-extension.h.
 */
#include "btf_info.h"
#include "makedumpfile-extension.h"

bool get_struct_member_by_name(struct struct_member_info *smi)
{
	struct mdf_member m;
	uint64_t size;

	if (!smi->struct_name || mdf_type_size(smi->modname, smi->struct_name, &size))
		return false;
	smi->struct_size = (uint32_t)size;
	if (!smi->member_name)
		return true;
	if (mdf_member(smi->modname, smi->struct_name, smi->member_name, &m))
		return false;
	smi->member_bit_offset = m.bit_offset;
	smi->member_size = (uint32_t)m.size;
	smi->member_bit_sz = m.bitfield_size ? m.bitfield_size : (uint32_t)(m.size * 8);
	return true;
}
