// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The architectures, and how a dump says which one it is.
 *
 * An ELF dump (kexec's /proc/vmcore, QEMU's, a kcore) names its machine in
 * e_machine.  A kdump-compressed file names it only in its header's
 * utsname.machine, which upstream fills with the crashed kernel's `uname
 * -m`, and which QEMU leaves empty (x86_64) or sets to "Unknown" (arm64).
 * There only VMCOREINFO witnesses: each architecture writes lines no other
 * does (its arch_ops.vmcoreinfo_keys), and one architecture's lines, not
 * two, must be there.
 *
 * The byte order of the memory is the table's, and must be the dump's:
 * an ELF's headers may misstate it (elf_memory_order() below says how it
 * is settled), a kdump-compressed file is written in its machine's order.
 * Where one machine has a table for each order (ppc64, under one
 * e_machine, named "ppc64le" and "ppc64" in a kdump header), the order
 * picks the table; elsewhere, an order no table of the machine has is an
 * error, never memory read in the wrong order.  VMCOREINFO's text cannot
 * tell ppc64's two orders apart.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "input/vmcoreinfo.h"
#include "util/error.h"
#include "util/message.h"

static const struct arch_ops *const architectures[] = { &arch_x86_64, &arch_arm64, &arch_ppc64le, &arch_ppc64,
								&arch_riscv64, &arch_s390x };

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

/*
 * The byte order of an ELF dump's memory, which its headers may misstate:
 * the CPUs' word where the machine runs in either order (@first's
 * cpus_byte_order), the machine's own where it runs in one only, else the
 * headers'.  Where it is not the headers', one warning says so.
 */
static struct mdf_error *elf_memory_order(const struct dump_input *in, const struct arch_ops *first,
					  size_t tables, enum byte_order *order)
{
	struct mdf_error *err;

	*order = in->byte_order;
	if (first->cpus_byte_order) {
		err = first->cpus_byte_order(in, order);
		if (mdf_error_is_not_found(err)) {
			msg_warn("%s: no CPU's NT_PRSTATUS says in which byte order it ran: the memory is "
				 "read in the ELF header's, %s", in->path, byte_order_name(in->byte_order));
			return NULL;
		}
		if (err)
			return err;
		if (*order != in->byte_order)
			msg_warn("%s: the ELF headers say %s, but the MSR of the CPUs says %s (as QEMU 7.2 "
				 "mislabels a ppc64el guest): the memory is read %s", in->path,
				 byte_order_name(in->byte_order), byte_order_name(*order), byte_order_name(*order));
		return NULL;
	}
	if (tables == 1 && first->one_byte_order && first->byte_order != in->byte_order) {
		*order = first->byte_order;
		msg_warn("%s: the ELF headers say %s, but %s runs %s only: the memory is read so", in->path,
			 byte_order_name(in->byte_order), first->name, byte_order_name(*order));
	}
	return NULL;
}

static struct mdf_error *from_elf(const struct dump_input *in, const struct arch_ops **out)
{
	const struct arch_ops *first = NULL;
	size_t tables = 0;
	enum byte_order order;
	struct mdf_error *err;
	char names[128];

	for (size_t i = 0; i < NR_ARCHITECTURES; i++) {
		if (architectures[i]->elf_machine != in->elf_machine)
			continue;
		if (!tables++)
			first = architectures[i];
	}
	if (!first)
		return mdf_error(-ENOTSUP, "%s: ELF machine %u is not supported (%s only)", in->path,
				 in->elf_machine, all_names(names, sizeof(names)));
	err = elf_memory_order(in, first, tables, &order);
	if (err)
		return err;
	for (size_t i = 0; i < NR_ARCHITECTURES; i++) {
		if (architectures[i]->elf_machine == in->elf_machine && architectures[i]->byte_order == order) {
			*out = architectures[i];
			return NULL;
		}
	}
	return mdf_error(-ENOTSUP, "%s: ELF machine %u (%s) with %s memory: only %s %s is supported", in->path,
			 in->elf_machine, first->name, byte_order_name(order), byte_order_name(first->byte_order),
			 first->name);
}

/* A table found from the format's text or VMCOREINFO (*@out) must be in the memory's order. */
static struct mdf_error *same_order(const struct dump_input *in, const struct arch_ops **out,
				    const char *found_by)
{
	const struct arch_ops *arch = *out;

	if (arch->byte_order == in->byte_order)
		return NULL;
	*out = NULL;
	return mdf_error(-MDF_ECORRUPT, "%s: the byte order of the memory cannot be settled: the dump's "
			 "header is %s, and %s says %s, which is %s", in->path,
			 byte_order_name(in->byte_order), found_by, arch->name,
			 byte_order_name(arch->byte_order));
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
			return same_order(in, out, "its utsname");
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
	const struct arch_ops *found = NULL, *sibling = NULL;
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
		if (found && architectures[i]->elf_machine == found->elf_machine) {
			sibling = architectures[i];
			continue;
		}
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
	if (sibling)
		return mdf_error(-ENOTSUP, "VMCOREINFO is a %s or %s kernel's (%s), and the dump does not say "
				 "which byte order it runs in", found->name, sibling->name, found_key);
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
	if (err)
		return mdf_error_wrap(err, "%s", in->path);
	return same_order(in, out, "VMCOREINFO");
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
