// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The byte order of an ELF dump's memory.
 *
 * An ELF core says one byte order, in e_ident[EI_DATA], and readers take
 * it for the machine's.  kexec's /proc/vmcore is written by the crashed
 * kernel, in its own order, so there the two are one.  QEMU writes the
 * ELF on the host, in the order it guesses from the guest CPU's interrupt
 * endianness at that moment (target/ppc's cpu_get_dump_info()), and QEMU
 * 7.2 guesses wrong for a little-endian pseries guest: its ELF headers and
 * notes are big-endian, ELFDATA2MSB, its memory little-endian.  So the
 * headers and notes are read in their own order, and the memory's order
 * is settled apart, from the machine and from what the dump holds:
 *
 *   - x86_64 and s390x run in one order only, which is their memory's
 *     whatever the headers say (elf-relayout.py --order makes such files);
 *
 *   - ppc64 runs in either, and every CPU says which in its Machine State
 *     Register: bit 0, LE, is the order it was running in.  Each CPU's
 *     NT_PRSTATUS note holds its registers (struct elf_prstatus: pr_reg,
 *     the kernel's struct pt_regs, at byte 112; the MSR is its word 33,
 *     PT_MSR), in QEMU's dumps as in kexec's.  A CPU's word counts when it
 *     was running the kernel: in 64-bit mode (SF, bit 63, which a word
 *     read in the wrong order lacks), with address translation on (IR and
 *     DR, bits 5 and 4: firmware calls, RTAS and OPAL, run big-endian in
 *     real mode) and not in user mode (PR, bit 14: a process may switch
 *     its own order with prctl(PR_SET_ENDIAN)).  The MSR was chosen over
 *     a VMCOREINFO note found in memory because every ppc64 dump has it,
 *     before anything is known of the kernel (QEMU's ELF has no VMCOREINFO
 *     note to point at the kernel's), and it is the CPU's own word on how
 *     it ran.  CPUs that disagree leave the order unsettled, which is an
 *     error: a wrong guess would make a wrong dump.  With no CPU to say,
 *     the headers' order stands, and a warning says so;
 *
 *   - any other machine: the headers' order, as upstream reads it.
 *
 * Where the memory's order is not the headers', one warning says so.
 */
#include <elf.h>
#include <inttypes.h>
#include <string.h>

#include "input/dump_input.h"
#include "input/elf_memory_order.h"
#include "input/elf_notes.h"
#include "util/message.h"

/* Machines that run in one byte order only. */
static const struct {
	uint16_t elf_machine;
	const char *name;
	enum byte_order order;
} one_order_machines[] = {
	{ EM_X86_64, "x86_64", BYTE_ORDER_LITTLE },
	{ EM_S390, "s390x", BYTE_ORDER_BIG },
};

#define PPC64_PR_REG_OFFSET 112
#define PPC64_PT_MSR 33
#define PPC64_MSR_OFFSET (PPC64_PR_REG_OFFSET + PPC64_PT_MSR * 8)
#define MSR_SF (UINT64_C(1) << 63)
#define MSR_PR (UINT64_C(1) << 14)
#define MSR_IR (UINT64_C(1) << 5)
#define MSR_DR (UINT64_C(1) << 4)
#define MSR_LE (UINT64_C(1) << 0)

/* What the ppc64 CPUs' MSRs say: the first witness, and the first that disagrees with it. */
struct msr_witnesses {
	unsigned int count;
	unsigned int first_cpu, other_cpu;
	uint64_t first_msr, other_msr;
	bool disagree;
};

static bool msr_testifies(uint64_t msr)
{
	return (msr & MSR_SF) && !(msr & MSR_PR) && (msr & (MSR_IR | MSR_DR)) == (MSR_IR | MSR_DR);
}

static enum byte_order msr_order(uint64_t msr)
{
	return msr & MSR_LE ? BYTE_ORDER_LITTLE : BYTE_ORDER_BIG;
}

static void hear_ppc64_cpus(const struct dump_input *in, struct msr_witnesses *w)
{
	struct elf_note note;
	unsigned int cpu = 0;
	size_t pos = 0;

	memset(w, 0, sizeof(*w));
	while (elf_note_next(in->notes, in->notes_size, in->notes_order, &pos, &note) == ELF_NOTE_FOUND) {
		uint64_t msr;

		if (note.type != NT_PRSTATUS || !elf_note_named(&note, "CORE"))
			continue;
		cpu++;
		if (note.desc_size < PPC64_MSR_OFFSET + sizeof(msr))
			continue;
		msr = dump_to_host_bytes(in->notes_order, note.desc + PPC64_MSR_OFFSET, sizeof(msr));
		if (!msr_testifies(msr))
			continue;
		if (!w->count++) {
			w->first_cpu = cpu - 1;
			w->first_msr = msr;
		} else if (!w->disagree && msr_order(msr) != msr_order(w->first_msr)) {
			w->disagree = true;
			w->other_cpu = cpu - 1;
			w->other_msr = msr;
		}
	}
}

static struct mdf_error *settle_ppc64(struct dump_input *in)
{
	struct msr_witnesses w;

	hear_ppc64_cpus(in, &w);
	if (w.disagree)
		return mdf_error(-MDF_ECORRUPT, "%s: the byte order of the memory cannot be settled: the "
				 "MSR of CPU %u (0x%" PRIx64 ") says %s, that of CPU %u (0x%" PRIx64 ") %s",
				 in->path, w.first_cpu, w.first_msr, byte_order_name(msr_order(w.first_msr)),
				 w.other_cpu, w.other_msr, byte_order_name(msr_order(w.other_msr)));
	if (!w.count) {
		in->memory_order = in->byte_order;
		msg_warn("%s: no CPU's NT_PRSTATUS says in which byte order it ran: the memory is "
			 "read in the ELF header's, %s", in->path, byte_order_name(in->byte_order));
		return NULL;
	}
	in->memory_order = msr_order(w.first_msr);
	if (in->memory_order != in->byte_order)
		msg_warn("%s: the ELF headers say %s, but the MSR of the CPUs says %s (as QEMU 7.2 "
			 "mislabels a ppc64el guest): the memory is read %s", in->path,
			 byte_order_name(in->byte_order), byte_order_name(in->memory_order),
			 byte_order_name(in->memory_order));
	return NULL;
}

struct mdf_error *elf_settle_memory_order(struct dump_input *in)
{
	if (in->elf_machine == EM_PPC64)
		return settle_ppc64(in);
	in->memory_order = in->byte_order;
	for (size_t i = 0; i < sizeof(one_order_machines) / sizeof(one_order_machines[0]); i++) {
		if (one_order_machines[i].elf_machine != in->elf_machine)
			continue;
		in->memory_order = one_order_machines[i].order;
		if (in->memory_order != in->byte_order)
			msg_warn("%s: the ELF headers say %s, but %s runs %s only: the memory is read so",
				 in->path, byte_order_name(in->byte_order), one_order_machines[i].name,
				 byte_order_name(in->memory_order));
	}
	return NULL;
}
