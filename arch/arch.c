// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The architectures, and how a dump says which one it is.
 *
 * An ELF dump (kexec's /proc/vmcore, QEMU's, a kcore) names its machine in
 * e_machine and its byte order in EI_DATA: both must be one table's.  A
 * kdump-compressed file names it only in its header's utsname.machine,
 * which upstream fills with the crashed kernel's `uname -m`, and which
 * QEMU leaves empty (x86_64) or sets to "Unknown" (arm64).  There only
 * VMCOREINFO witnesses: each architecture writes lines no other does (its
 * arch_ops.vmcoreinfo_keys), and one architecture's lines, not two, must
 * be there.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "input/vmcoreinfo.h"
#include "util/error.h"

static const struct arch_ops *const architectures[] = { &arch_x86_64, &arch_arm64 };

#define NR_ARCHITECTURES (sizeof(architectures) / sizeof(architectures[0]))

/* "x86_64 and aarch64": every architecture's name, for a message. */
static const char *all_names(char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NR_ARCHITECTURES && used < size; i++) {
		const char *sep = i == 0 ? "" : i + 1 == NR_ARCHITECTURES ? " and " : ", ";
		int n = snprintf(buf + used, size - used, "%s%s", sep, architectures[i]->name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

static unsigned char elf_data_of(enum byte_order order)
{
	return order == BYTE_ORDER_BIG ? ELFDATA2MSB : ELFDATA2LSB;
}

static const char *order_name(unsigned char elf_data)
{
	return elf_data == ELFDATA2MSB ? "big-endian" : "little-endian";
}

static struct mdf_error *from_elf(const struct dump_input *in, const struct arch_ops **out)
{
	const struct arch_ops *same_machine = NULL;
	char names[128];

	for (size_t i = 0; i < NR_ARCHITECTURES; i++) {
		if (architectures[i]->elf_machine != in->elf_machine)
			continue;
		if (elf_data_of(architectures[i]->byte_order) == in->elf_data) {
			*out = architectures[i];
			return NULL;
		}
		same_machine = architectures[i];
	}
	if (same_machine)
		return mdf_error(-ENOTSUP, "%s: a %s ELF of ELF machine %u (%s), which is %s", in->path,
				 order_name(in->elf_data), in->elf_machine, same_machine->name,
				 order_name(elf_data_of(same_machine->byte_order)));
	return mdf_error(-ENOTSUP, "%s: ELF machine %u is not supported (%s only)", in->path, in->elf_machine,
			 all_names(names, sizeof(names)));
}

struct mdf_error *arch_from_format(const struct dump_input *in, const struct arch_ops **out)
{
	*out = NULL;
	if (in->elf_data)
		return from_elf(in, out);
	if (!in->machine)
		return NULL;
	for (size_t i = 0; i < NR_ARCHITECTURES; i++) {
		if (!strcmp(architectures[i]->name, in->machine)) {
			*out = architectures[i];
			return NULL;
		}
	}
	return mdf_error(-ENOTSUP, "%s: a dump of a %s machine: not an architecture this makedumpfile reads",
			 in->path, in->machine);
}

/* The first of @arch's keys that @vi has, or NULL. */
static const char *key_found(const struct arch_ops *arch, const struct vmcoreinfo *vi)
{
	for (const char *const *key = arch->vmcoreinfo_keys; *key; key++)
		if (vmcoreinfo_get(vi, *key))
			return *key;
	return NULL;
}

struct mdf_error *arch_from_vmcoreinfo(const struct vmcoreinfo *vi, const struct arch_ops **out)
{
	const struct arch_ops *found = NULL;
	const char *found_key = NULL;
	char names[128];

	*out = NULL;
	if (!vi)
		return mdf_error(-ENOTSUP, "the dump names no machine and has no VMCOREINFO: the dumped "
				 "machine is unknown");
	for (size_t i = 0; i < NR_ARCHITECTURES; i++) {
		const char *key = key_found(architectures[i], vi);

		if (!key)
			continue;
		if (found)
			return mdf_error(-MDF_ECORRUPT, "VMCOREINFO has lines of two architectures, %s's %s and "
					 "%s's %s: the dumped machine is unknown", found->name, found_key,
					 architectures[i]->name, key);
		found = architectures[i];
		found_key = key;
	}
	if (!found)
		return mdf_error(-ENOTSUP, "the dump names no machine, and VMCOREINFO has no line that only one "
				 "of %s writes: the dumped machine is unknown", all_names(names, sizeof(names)));
	*out = found;
	return NULL;
}

struct mdf_error *arch_detect(const struct dump_input *in, const struct vmcoreinfo *vi,
			      const struct arch_ops **out)
{
	struct mdf_error *err = arch_from_format(in, out);

	if (err || *out)
		return err;
	err = arch_from_vmcoreinfo(vi, out);
	return err ? mdf_error_wrap(err, "%s", in->path) : NULL;
}

struct mdf_error *arch_page_size(const struct arch_ops *arch, const struct vmcoreinfo *vi, uint32_t *size)
{
	const char *text = vi ? vmcoreinfo_get(vi, "PAGESIZE") : NULL;
	int64_t value;

	if (!text) {
		*size = arch->default_page_size;
		return NULL;
	}
	if (mdf_error_drop(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &value)) || value <= 0 || value > UINT32_MAX ||
	    (value & (value - 1)) || !(arch->page_sizes & (uint32_t)value))
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO's PAGESIZE=%.40s is not a page size of %s", text,
				 arch->name);
	*size = (uint32_t)value;
	return NULL;
}
