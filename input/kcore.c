// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/kcore as a dump input, for --mem-usage on a running system.
 *
 * kcore is an ELF core of the kernel's whole address space.  Its PT_LOADs
 * that map memory (RAM through the direct map, the kernel image) carry
 * physical addresses; the others (vmalloc, modules, vmemmap) have p_paddr
 * -1, which no crash dump has, and which tells a kcore from a vmcore.
 * Only the first kind is read, each physical page once.  On the running
 * system (/proc/kcore itself) the crashkernel reservation of /proc/iomem
 * is left out, as upstream leaves it out: a dump never holds it.
 *
 * VMCOREINFO is kcore's own note (kernels 4.19 and later); without it,
 * /sys/kernel/vmcoreinfo gives the physical address of the kernel's note.
 *
 * The segments with a physical address are indexed by it, sorted, and
 * trimmed where they overlap (the kernel image is also in the direct map),
 * as elf_dump.c does for a kexec dump; a page is read from the one
 * segment that holds it.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/dump_format.h"
#include "input/dump_input.h"
#include "input/elf_notes.h"
#include "input/elf_segments.h"
#include "util/message.h"
#include "util/vec.h"

#define KCORE_PATH "/proc/kcore"
#define IOMEM_PATH "/proc/iomem"
#define VMCOREINFO_SYSFS "/sys/kernel/vmcoreinfo"
/* kcore does not say its page size: VMCOREINFO's PAGESIZE does; till it is read, the smallest. */
#define DEFAULT_PAGE_SIZE 4096
#define NOT_PADDR UINT64_MAX
#define VMCOREINFO_NAME "VMCOREINFO"
/* A bound for /sys/kernel/vmcoreinfo's size, against a corrupt answer. */
#define VMCOREINFO_MAX (1u << 20)

struct kcore_segment {
	uint64_t start;         /* physical */
	uint64_t end;
	uint64_t file_offset;
};

struct kcore_input {
	struct kcore_segment *segs;
	size_t nr_segs, cap_segs;
};

/* A page partly in the segments reads as zeros elsewhere, as an ELF dump's. */
static struct mdf_error *kcore_read_page(struct dump_input *in, uint64_t pfn, void *buf)
{
	const struct kcore_input *kc = in->priv;
	uint64_t start = pfn * in->page_size, end = start + in->page_size;
	bool found = false;

	memset(buf, 0, in->page_size);
	for (size_t i = 0; i < kc->nr_segs; i++) {
		const struct kcore_segment *s = &kc->segs[i];
		uint64_t from = s->start > start ? s->start : start;
		uint64_t to = s->end < end ? s->end : end;
		struct mdf_error *err;

		if (from >= to)
			continue;
		found = true;
		err = input_pread(in, (char *)buf + (from - start), to - from,
				  s->file_offset + (from - s->start), "a kcore segment");
		if (err)
			return err;
	}
	return found ? NULL : &mdf_error_not_dumped;
}

/* Every byte of a kcore segment is there to read: nothing is missing. */
static void kcore_clear_missing(struct dump_input *in, uint64_t start_pfn, uint64_t end_pfn,
				uint8_t *bitmap)
{
	(void)in;
	(void)start_pfn;
	(void)end_pfn;
	(void)bitmap;
}

static void kcore_close(struct dump_input *in)
{
	struct kcore_input *kc = in->priv;

	if (kc)
		free(kc->segs);
	free(kc);
	in->priv = NULL;
}

static const struct input_ops kcore_ops = {
	.name = "kcore",
	.read_page = kcore_read_page,
	.clear_missing = kcore_clear_missing,
	.close = kcore_close,
};

static int compare_segments(const void *a, const void *b)
{
	const struct kcore_segment *sa = a, *sb = b;

	if (sa->start != sb->start)
		return sa->start < sb->start ? -1 : 1;
	return sa->end > sb->end ? -1 : sa->end < sb->end;
}

/* Removes [start, end) from the segments, splitting one that holds it inside. */
static struct mdf_error *cut_out(struct kcore_input *kc, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < kc->nr_segs; i++) {
		struct kcore_segment *s = &kc->segs[i];

		if (end <= s->start || start >= s->end)
			continue;
		if (start > s->start && end < s->end) {
			if (vec_reserve(kc->segs, &kc->cap_segs, kc->nr_segs, 1))
				return &mdf_error_enomem;
			s = &kc->segs[i];
			memmove(s + 2, s + 1, (kc->nr_segs - i - 1) * sizeof(*s));
			s[1] = (struct kcore_segment){ end, s->end, s->file_offset + (end - s->start) };
			s->end = start;
			kc->nr_segs++;
		} else if (start > s->start) {
			s->end = start;
		} else {
			s->file_offset += (end < s->end ? end : s->end) - s->start;
			s->start = end < s->end ? end : s->end;
		}
	}
	return NULL;
}

/* The running kernel's crashkernel reservations: "START-END : Crash kernel". */
static struct mdf_error *cut_out_crashkernel(struct kcore_input *kc)
{
	FILE *iomem = fopen(IOMEM_PATH, "re");
	char line[256];
	struct mdf_error *err = NULL;

	if (!iomem) {
		msg_warn("%s: cannot open (%s): the crashkernel reservation, if any, is counted",
			 IOMEM_PATH, strerror(errno));
		return NULL;
	}
	while (!err && fgets(line, sizeof(line), iomem)) {
		uint64_t start, end;

		if (strstr(line, ": Crash kernel") &&
		    sscanf(line, " %" SCNx64 "-%" SCNx64, &start, &end) == 2 && end >= start)
			err = cut_out(kc, start, end + 1);
	}
	fclose(iomem);
	return err;
}

/* The physical segments, sorted, each physical byte in one of them. */
static struct mdf_error *index_segments(struct dump_input *in, struct kcore_input *kc,
			  const struct elf_segments *segs)
{
	uint64_t covered = 0;
	size_t kept = 0;
	struct mdf_error *err = NULL;

	if (vec_reserve(kc->segs, &kc->cap_segs, 0, segs->nr_loads ? segs->nr_loads : 1))
		return &mdf_error_enomem;
	for (size_t i = 0; i < segs->nr_loads; i++) {
		const Elf64_Phdr *ph = &segs->loads[i];

		if (ph->p_paddr == NOT_PADDR || !ph->p_filesz || ph->p_paddr + ph->p_filesz < ph->p_paddr)
			continue;
		kc->segs[kc->nr_segs++] = (struct kcore_segment){ ph->p_paddr,
			ph->p_paddr + ph->p_filesz, ph->p_offset };
	}
	vec_sort(kc->segs, kc->nr_segs, compare_segments);
	for (size_t i = 0; i < kc->nr_segs; i++) {
		struct kcore_segment s = kc->segs[i];

		if (kept && s.end <= covered)
			continue;
		if (kept && s.start < covered) {
			s.file_offset += covered - s.start;
			s.start = covered;
		}
		kc->segs[kept++] = s;
		covered = s.end;
	}
	kc->nr_segs = kept;
	if (!strcmp(in->path, KCORE_PATH))
		err = cut_out_crashkernel(kc);
	for (size_t i = 0; i < kc->nr_segs && !err; i++)
		err = input_add_range(in, kc->segs[i].start, kc->segs[i].end);
	if (!err)
		input_normalise_ranges(in);
	if (!err && !in->nr_ranges)
		err = mdf_error(-EINVAL,
				"%s: no segment with a physical address: no memory to count", in->path);
	return err;
}

/* The VMCOREINFO note among @notes, headers in @order, if any, copied into in->vmcoreinfo. */
static struct mdf_error *find_vmcoreinfo(struct dump_input *in, const unsigned char *notes, size_t size,
					 enum byte_order order)
{
	struct elf_note note;
	size_t pos = 0;

	while (elf_note_next(notes, size, order, &pos, &note) == ELF_NOTE_FOUND)
		if (elf_note_named(&note, VMCOREINFO_NAME))
			return input_set_vmcoreinfo(in, note.desc, note.desc_size);
	return NULL;
}

/* Before 4.19 kcore has no VMCOREINFO note: read the kernel's, where sysfs says it is. */
static struct mdf_error *read_sysfs_vmcoreinfo(struct dump_input *in)
{
	uint64_t paddr, size;
	unsigned char *note;
	FILE *f = fopen(VMCOREINFO_SYSFS, "re");
	struct mdf_error *err = NULL;
	int n;

	if (!f)
		return mdf_error(-ENOENT,
				 "%s: no VMCOREINFO note, and %s cannot be opened (%s)", in->path,
				 VMCOREINFO_SYSFS, strerror(errno));
	n = fscanf(f, "%" SCNx64 " %" SCNx64, &paddr, &size);
	fclose(f);
	if (n != 2 || size < sizeof(Elf64_Nhdr) || size > VMCOREINFO_MAX)
		return mdf_error(-EINVAL,
				 "%s: not an address and a size: cannot find VMCOREINFO", VMCOREINFO_SYSFS);
	note = malloc(size + 2 * DEFAULT_PAGE_SIZE);
	if (!note)
		return &mdf_error_enomem;
	/* Whole pages around the note, read through the kcore itself. */
	for (uint64_t at = paddr & ~(uint64_t)(DEFAULT_PAGE_SIZE - 1); !err && at < paddr + size;
	     at += DEFAULT_PAGE_SIZE)
		err = kcore_read_page(in, at / DEFAULT_PAGE_SIZE,
				      note + (at - (paddr & ~(uint64_t)(DEFAULT_PAGE_SIZE - 1))));
	if (err)
		err = mdf_error_wrap(err, "%s: cannot read VMCOREINFO at physical 0x%" PRIx64 " (from %s)",
				     in->path, paddr, VMCOREINFO_SYSFS);
	else
		err = find_vmcoreinfo(in, note + (paddr % DEFAULT_PAGE_SIZE), (size_t)size, in->notes_order);
	free(note);
	return err;
}

/*
 * A kcore is an ELF64 core with a PT_LOAD of no physical address; the
 * program headers say it, which takes reading them.
 */
static bool kcore_probe(struct dump_input *in, const unsigned char *head, size_t len)
{
	struct elf_segments segs;
	Elf64_Half type;
	bool kcore = false;

	if (len < sizeof(Elf64_Ehdr) || memcmp(head, ELFMAG, SELFMAG) || head[EI_CLASS] != ELFCLASS64 ||
	    (head[EI_DATA] != ELFDATA2LSB && head[EI_DATA] != ELFDATA2MSB))
		return false;
	memcpy(&type, head + offsetof(Elf64_Ehdr, e_type), sizeof(type));
	if (dump_to_host16(head[EI_DATA] == ELFDATA2MSB ? BYTE_ORDER_BIG : BYTE_ORDER_LITTLE, type) != ET_CORE ||
	    mdf_error_drop(elf_segments_read(in, &segs)))
		return false;
	for (size_t i = 0; i < segs.nr_loads && !kcore; i++)
		kcore = segs.loads[i].p_paddr == NOT_PADDR;
	elf_segments_free(&segs);
	return kcore;
}

static struct mdf_error *kcore_input_open(struct dump_input *in)
{
	struct elf_segments segs;
	struct kcore_input *kc;
	struct mdf_error *err;

	kc = calloc(1, sizeof(*kc));
	if (!kc)
		return &mdf_error_enomem;
	in->priv = kc;
	in->ops = &kcore_ops;
	in->page_size = DEFAULT_PAGE_SIZE;
	err = elf_segments_read(in, &segs);
	if (err)
		return err;
	in->elf_machine = segs.ehdr.e_machine;
	in->elf_data = segs.ehdr.e_ident[EI_DATA];
	/* The running kernel wrote it all, in its own order. */
	in->byte_order = segs.order;
	in->notes_order = segs.order;
	err = index_segments(in, kc, &segs);
	if (!err) {
		/* The notes are kcore's own: the writer-facing copy of them. */
		in->notes = segs.note_bytes;
		in->notes_size = segs.note.p_filesz;
		segs.note_bytes = NULL;
		err = find_vmcoreinfo(in, in->notes, in->notes_size, in->notes_order);
	}
	if (!err && !in->vmcoreinfo && !strcmp(in->path, KCORE_PATH))
		err = read_sysfs_vmcoreinfo(in);
	if (!err) {
		in->page_size = input_vmcoreinfo_page_size(in, DEFAULT_PAGE_SIZE);
		input_normalise_ranges(in);
	}
	msg_debug("%s: read as kcore, %zu physical segments", in->path, kc->nr_segs);
	elf_segments_free(&segs);
	return err;
}

const struct dump_format kcore_format = {
	.probe = kcore_probe,
	.open = kcore_input_open,
	.live = true,
};
