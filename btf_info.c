// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * btf_info.h's functions for extensions written for the series posted to
 * the kexec list, on top of makedumpfile-extension.h.  The declarations
 * of upstream's API are filled by extension/declarations.c, whose twin of
 * struct ktype_info must keep upstream's layout.
 */
#include <stddef.h>

#include "btf_info.h"
#include "extension/declarations.h"
#include "makedumpfile-extension.h"

#define SAME_FIELD(f) (offsetof(struct ktype_info, f) == offsetof(struct declared_type, f))
_Static_assert(sizeof(struct ktype_info) == sizeof(struct declared_type) && SAME_FIELD(modname) &&
		       SAME_FIELD(struct_name) && SAME_FIELD(member_name) && SAME_FIELD(member_bit_offset) &&
		       SAME_FIELD(member_bit_sz) && SAME_FIELD(member_size) && SAME_FIELD(struct_size) &&
		       SAME_FIELD(index),
	       /* the two bitfields, declared alike in both, share the byte after member_name */
	       "struct ktype_info is upstream's ABI, as extension/declarations.h reads it");

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
