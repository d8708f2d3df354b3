// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dumpread: reads a dump through the project's own input, memory and
 * translation code, so that tests can compare what it sees with an
 * independent reader (python3-libkdumpfile) or with known facts.
 *
 *   dumpread [-i VMCOREINFO] VMCORE info           header fields, byte orders
 *                                                  (headers, notes, memory), ranges,
 *                                                  hashes of the VMCOREINFO text and
 *                                                  the notes
 *   dumpread VMCORE notes                          "note NAME TYPE DESCSZ" per note, as
 *                                                  the input walks them
 *   dumpread VMCORE write kdump|elf OUT [UTS_FROM] every page the dump holds, written
 *                                                  by the kdump (uncompressed) or ELF
 *                                                  writer at dump level 1, with no kernel
 *                                                  read: the formats' test in any byte
 *                                                  order, before an architecture reads
 *                                                  the memory; the kdump header's utsname
 *                                                  copied from the kdump file UTS_FROM
 *   dumpread [-i VMCOREINFO] VMCORE pages [PFN...] "pfn ok crc32" or "pfn status"
 *                                                  per pfn; pfns from stdin if none
 *   dumpread [-i VMCOREINFO] VMCORE vtop VADDR...  "vaddr paddr" or "vaddr error"
 *   dumpread [-i VMCOREINFO] VMCORE virt VADDR LEN raw bytes on stdout
 *   dumpread [-i VMCOREINFO] VMCORE ranges         "start end" per physical range
 *   dumpread [-i VMCOREINFO] VMCORE symbol [MODULE:]NAME...
 *                                                  "name addr" or "name missing":
 *                                                  NAME in the kernel, then the
 *                                                  modules; MODULE:NAME in one
 *   dumpread [-i VMCOREINFO] VMCORE vmcoreinfo KEY...
 *                                                  "KEY value" or "KEY missing" for
 *                                                  SYMBOL(x), SIZE(x), OFFSET(x.y),
 *                                                  LENGTH(x), NUMBER(x): VMCOREINFO's
 *                                                  line or the kallsyms/BTF fallback
 *   dumpread [-i VMCOREINFO] VMCORE layout         the architecture's facts (arch/arch.h):
 *                                                  "arch NAME", "byte_order little|big",
 *                                                  "pointer_size N", "page_size N",
 *                                                  "kernel_address VADDR yes|no" for 0,
 *                                                  the first physical range's direct
 *                                                  map address and the image, then
 *                                                  "direct_map A", "vmemmap_start A",
 *                                                  "vmalloc A B" and "image VADDR PADDR
 *                                                  SIZE", or "NAME error TEXT"
 *   dumpread [-i VMCOREINFO] VMCORE tables         the physical address of each page of
 *                                                  the kernel's page tables, one a line
 *   dumpread [-i VMCOREINFO] VMCORE scan LEVEL     page classification at a dump
 *                                                  level: "max_pfn N", a count line
 *                                                  per category, then "dumpable A B"
 *                                                  for each run [A, B) of kept pfns
 *
 * As makedumpfile does, lines VMCOREINFO lacks come from the dump's own
 * kallsyms and BTF once memory is open (kernel/kernel.h).
 *
 * Page status is "ok" or the error's name (excluded, notdumped, ...).  The
 * exit status is 1 when the dump does not open, 2 on bad usage: a page that
 * does not read is a result to print, not a failure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "input/elf_notes.h"
#include "input/elf_segments.h"
#include "input/kdump_format.h"
#include "input/vmcoreinfo.h"
#include "kernel/kernel.h"
#include "kernel/kernel_map.h"
#include "memory/reader.h"
#include "memory/vmcoreinfo_search.h"
#include "output/elf_writer.h"
#include "output/kdump_writer.h"
#include "scan/page_scan.h"
#include "util/error.h"
#include "util/message.h"

static const char *status_name(int err)
{
	switch (-err) {
	case 0:
		return "ok";
	case MDF_EEXCLUDED:
		return "excluded";
	case MDF_ENOTDUMPED:
		return "notdumped";
	case MDF_EUNMAPPED:
		return "unmapped";
	case MDF_ECORRUPT:
		return "corrupt";
	default:
		return "error";
	}
}

/* A page digest Python computes as fast (zlib.crc32): tests compare many pages. */
static uint32_t digest(const void *p, size_t len)
{
	return (uint32_t)crc32(0, p, (uInt)len);
}

static const char *order_word(enum byte_order order)
{
	return order == BYTE_ORDER_BIG ? "big" : "little";
}

/*
 * The memory's byte order: the architecture's where the format names one;
 * else a kdump file's own (it is written in it); else unknown (false).
 * A machine without a table is unknown too; a dump that contradicts
 * itself is unknown, and says why on stderr.
 */
static bool memory_order(const struct dump_input *in, enum byte_order *order)
{
	const struct arch_ops *arch = NULL;
	struct mdf_error *err = arch_from_format(in, &arch);

	if (err) {
		if (err->code != -ENOTSUP)
			mdf_error_print(err, false);
		else
			mdf_error_free(err);
		return false;
	}
	if (arch)
		*order = arch->byte_order;
	else if (in->kdump)
		*order = in->byte_order;
	return arch || in->kdump;
}

static void cmd_info(const struct dump_input *in)
{
	const struct kdump_header_info *kd = in->kdump;
	enum byte_order order;
	bool known = memory_order(in, &order);

	printf("format %s\npage_size %" PRIu32 "\nmax_pfn 0x%" PRIx64 "\nranges %zu\n",
	       in->ops->name, in->page_size, in->max_pfn, in->nr_ranges);
	printf("byte_order %s\nnotes_order %s\nmemory_order %s\n", order_word(in->byte_order),
	       order_word(in->notes_order), known ? order_word(order) : "unknown");
	if (kd)
		printf("header_version %d\ndump_level %d\nstatus 0x%" PRIx32 "\nsplit %d\n"
		       "start_pfn 0x%" PRIx64 "\nend_pfn 0x%" PRIx64 "\nphys_base 0x%" PRIx64
		       "\nmax_mapnr 0x%" PRIx64 "\nnr_cpus %d\nrelease %s\n",
		       kd->header_version, kd->dump_level, kd->status, kd->split, kd->start_pfn,
		       kd->end_pfn, kd->phys_base, kd->max_mapnr, kd->nr_cpus, kd->release);
	printf("vmcoreinfo_size %zu\n", in->vmcoreinfo_size);
	if (in->vmcoreinfo)
		printf("vmcoreinfo_crc32 %08" PRIx32 "\n", digest(in->vmcoreinfo, in->vmcoreinfo_size));
	printf("notes_size %zu\n", in->notes_size);
	if (in->notes)
		printf("notes_crc32 %08" PRIx32 "\n", digest(in->notes, in->notes_size));
	for (size_t i = 0; i < in->nr_ranges; i++)
		printf("range 0x%" PRIx64 " 0x%" PRIx64 "\n", in->ranges[i].start, in->ranges[i].end);
}

static void read_one(struct dump_input *in, uint64_t pfn, unsigned char *buf)
{
	int err = mdf_error_print_unless_plain(input_read_page(in, pfn, buf));

	if (err)
		printf("0x%" PRIx64 " %s\n", pfn, status_name(err));
	else
		printf("0x%" PRIx64 " ok %08" PRIx32 "\n", pfn, digest(buf, in->page_size));
}

static int parse_pfn(const char *s, uint64_t *pfn)
{
	char *end;

	errno = 0;
	*pfn = strtoull(s, &end, 0);
	if (errno || end == s || (*end && *end != '\n')) {
		fprintf(stderr, "dumpread: not a pfn: %s\n", s);
		return -EINVAL;
	}
	return 0;
}

static int cmd_pages(struct dump_input *in, int npfns, char **pfns)
{
	unsigned char *buf = malloc(in->page_size);
	char line[128];
	uint64_t pfn;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (int i = 0; i < npfns && !err; i++) {
		err = parse_pfn(pfns[i], &pfn);
		if (!err)
			read_one(in, pfn, buf);
	}
	while (!npfns && !err && fgets(line, sizeof(line), stdin)) {
		err = parse_pfn(line, &pfn);
		if (!err)
			read_one(in, pfn, buf);
	}
	free(buf);
	return err;
}

static void cmd_notes(const struct dump_input *in)
{
	struct elf_note note;
	size_t pos = 0;

	while (elf_note_next(in->notes, in->notes_size, in->notes_order, &pos, &note) == ELF_NOTE_FOUND)
		if (!elf_note_is_padding(&note))
			printf("note %.*s 0x%" PRIx32 " 0x%" PRIx32 "\n",
			       note.name_size ? (int)note.name_size - 1 : 0, note.name, note.type,
			       note.desc_size);
}

/* The page source of "write": every page the input holds, to dump. */
static struct mdf_error *classify_all(void *ctx, uint64_t start_pfn, uint64_t end_pfn, uint8_t *present,
				      uint8_t *dumpable, struct page_counts *counts)
{
	struct dump_input *in = ctx;

	(void)counts;
	for (uint64_t pfn = start_pfn; pfn < end_pfn; pfn++)
		if (input_find_range(in, pfn * in->page_size))
			present[(pfn - start_pfn) / 8] |= (uint8_t)(1u << ((pfn - start_pfn) % 8));
	in->ops->clear_missing(in, start_pfn, end_pfn, present);
	memcpy(dumpable, present, (size_t)(end_pfn - start_pfn + 7) / 8);
	return NULL;
}

static struct mdf_error *read_any_page(void *ctx, uint64_t pfn, void *buf)
{
	return input_read_page(ctx, pfn, buf);
}

/* The utsname of the kdump file @path's header: its strings, in no byte order. */
static struct mdf_error *read_utsname(const char *path, struct kdump_utsname *uts)
{
	FILE *f = fopen(path, "re");
	bool read = f && fseek(f, offsetof(struct kdump_disk_header, utsname), SEEK_SET) == 0 &&
		    fread(uts, sizeof(*uts), 1, f) == 1;

	if (f)
		fclose(f);
	return read ? NULL : mdf_error(-EIO, "%s: cannot read a kdump header's utsname", path);
}

static int cmd_write(struct dump_input *in, const char *format, const char *out, const char *uts_from)
{
	struct page_source src = { .classify = classify_all, .read_page = read_any_page, .ctx = in };
	struct page_counts counts = { 0 };
	struct kdump_utsname uts = { 0 };
	struct mdf_error *err = NULL;
	/* Without an architecture that reads the memory, in the headers' order. */
	enum byte_order order = in->byte_order;

	memory_order(in, &order);
	if (!strcmp(format, "kdump")) {
		struct kdump_writer_params p = {
			.path = out, .force = true, .codec = CODEC_NONE, .dump_level = 1,
			.page_size = in->page_size, .byte_order = order, .max_pfn = in->max_pfn,
			.uts = &uts, .nr_cpus = kdump_count_cpus(in->notes, in->notes_size),
			.notes = in->notes, .notes_size = in->notes_size, .cycle_pfns = 1 << 20,
		};
		struct kdump_write_result result = { 0 };

		if (uts_from)
			err = read_utsname(uts_from, &uts);
		if (!err)
			err = kdump_write(&p, &src, &counts, &result);
		mdf_error_free(result.fate.error);
	} else if (!strcmp(format, "elf")) {
		struct elf_segments segs;
		struct elf_write_result result = { 0 };

		err = elf_segments_read(in, &segs);
		if (!err) {
			struct elf_writer_params p = {
				.path = out, .force = true, .dump_level = 1, .page_size = in->page_size,
				.max_pfn = in->max_pfn, .cycle_pfns = 1 << 20, .input = &segs,
			};

			err = elf_write(&p, &src, &counts, &result);
			elf_segments_free(&segs);
		}
		mdf_error_free(result.fate.error);
	} else {
		fprintf(stderr, "dumpread: write kdump|elf, not %s\n", format);
		return 2;
	}
	return mdf_error_print(err, false) ? 1 : 0;
}

/* One typed lookup, "KIND(NAME)", as the code that uses VMCOREINFO makes it. */
static void print_vmcoreinfo(struct kernel *k, const char *key)
{
	char kind[16], name[256];
	uint64_t address;
	int64_t value;
	bool found;

	if (sscanf(key, "%15[A-Z](%255[^)])", kind, name) != 2) {
		printf("%s malformed\n", key);
		return;
	}
	if (!strcmp(kind, "SYMBOL")) {
		found = !mdf_error_drop(kernel_lookup_symbol(k, name, &address));
		value = (int64_t)address;
	} else if (!strcmp(kind, "SIZE")) {
		found = !mdf_error_drop(kernel_lookup_size(k, name, &value));
	} else if (!strcmp(kind, "OFFSET")) {
		found = !mdf_error_drop(kernel_lookup_offset(k, name, &value));
	} else if (!strcmp(kind, "LENGTH")) {
		found = !mdf_error_drop(kernel_lookup_length(k, name, &value));
	} else {
		found = !strcmp(kind, "NUMBER") && !mdf_error_drop(kernel_lookup_number(k, name, &value));
	}
	if (!found)
		printf("%s missing\n", key);
	else if (!strcmp(kind, "SYMBOL"))
		printf("%s %" PRIx64 "\n", key, (uint64_t)value);
	else
		printf("%s %" PRId64 "\n", key, value);
}

/* Runs the classification a cycle at a time, as a writer would. */
static int cmd_scan(struct dump_input *in, struct memory *mem, struct kernel *k, int level)
{
	const uint64_t cycle_pfns = 1 << 20;
	struct page_counts counts = { 0 };
	struct page_scan *scan;
	uint8_t *present = malloc(cycle_pfns / 8), *dumpable = malloc(cycle_pfns / 8);
	uint64_t run_start = 0, max_pfn;
	bool in_run = false;
	int rc = 1;

	struct mdf_error *err;

	if (!present || !dumpable)
		goto out;
	err = page_scan_new(in, mem, k, level, &scan);
	if (err) {
		mdf_error_print(err, false);
		goto out;
	}
	max_pfn = page_scan_max_pfn(scan);
	for (uint64_t start = 0; start < max_pfn; start += cycle_pfns) {
		uint64_t end = start + cycle_pfns < max_pfn ? start + cycle_pfns : max_pfn;

		page_scan_cycle(scan, start, end, present, dumpable, &counts);
		for (uint64_t pfn = start; pfn < end; pfn++) {
			bool kept = dumpable[(pfn - start) / 8] >> ((pfn - start) % 8) & 1;

			if (kept && !in_run)
				run_start = pfn;
			else if (!kept && in_run)
				printf("dumpable 0x%" PRIx64 " 0x%" PRIx64 "\n", run_start, pfn);
			in_run = kept;
		}
	}
	if (in_run)
		printf("dumpable 0x%" PRIx64 " 0x%" PRIx64 "\n", run_start, max_pfn);
	printf("max_pfn 0x%" PRIx64 "\ncache %" PRIu64 "\ncache_private %" PRIu64 "\nuser %" PRIu64
	       "\nfree %" PRIu64 "\nhwpoison %" PRIu64 "\noffline %" PRIu64 "\n", max_pfn, counts.cache,
	       counts.cache_private, counts.user, counts.free, counts.hwpoison, counts.offline);
	rc = 0;
	page_scan_free(scan);
out:
	free(present);
	free(dumpable);
	return rc;
}

static struct mdf_error *print_table_page(uint64_t paddr, void *arg)
{
	(void)arg;
	printf("0x%" PRIx64 "\n", paddr);
	return NULL;
}

static void print_kernel_address(struct memory *mem, uint64_t vaddr)
{
	printf("kernel_address 0x%" PRIx64 " %s\n", vaddr, mem_is_kernel_address(mem, vaddr) ? "yes" : "no");
}

static void cmd_layout(const struct dump_input *in, struct memory *mem, struct kernel *kernel)
{
	const struct arch_ops *arch = mem_arch(mem);
	struct arch_address_space space;
	struct arch_image image;
	struct mdf_error *err;

	printf("arch %s\nbyte_order %s\npointer_size %u\npage_size %u\n", arch->name,
	       order_word(mem_byte_order(mem)), mem_pointer_size(mem), mem_page_size(mem));
	print_kernel_address(mem, 0);
	err = kernel_address_space_find(kernel, mem, &space);
	if (err) {
		printf("direct_map error %s\n", mdf_error_text(err));
	} else {
		print_kernel_address(mem, space.direct_map + (in->nr_ranges ? in->ranges[0].start : 0));
		printf("direct_map 0x%" PRIx64 "\nvmemmap_start 0x%" PRIx64 "\nvmalloc 0x%" PRIx64 " 0x%" PRIx64 "\n",
		       space.direct_map, space.vmemmap_start, space.vmalloc_start, space.vmalloc_end);
	}
	mdf_error_free(err);
	err = kernel_image_find(kernel, mem, &image);
	if (err) {
		printf("image error %s\n", mdf_error_text(err));
	} else {
		print_kernel_address(mem, image.vaddr);
		printf("image 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "\n", image.vaddr, image.paddr, image.size);
	}
	mdf_error_free(err);
}

/* A dump without the note: the kernel's own from its memory, as makedumpfile takes it. */
static struct mdf_error *search_vmcoreinfo(struct dump_input *in, struct vmcoreinfo **out)
{
	const struct arch_ops *arch;
	struct vmcoreinfo_found found;
	struct mdf_error *err = arch_from_format(in, &arch);

	if (!err)
		err = vmcoreinfo_search(in, arch, &found);
	if (!err)
		*out = found.vi;
	return err;
}

int main(int argc, char **argv)
{
	struct dump_input *in = NULL;
	struct vmcoreinfo *vi = NULL;
	struct memory *mem = NULL;
	struct kernel *kernel = NULL;
	const struct arch_ops *arch;
	const char *vmcoreinfo_file = NULL;
	struct mdf_error *err = NULL;
	int rc = 1, arg = 1;

	msg_set_level(ML_ERROR);
	if (argc > 3 && !strcmp(argv[1], "-i")) {
		vmcoreinfo_file = argv[2];
		arg = 3;
	}
	if (argc - arg < 2) {
		fprintf(stderr, "usage: dumpread [-i VMCOREINFO] VMCORE "
			"info|notes|write|pages|vtop|virt|ranges|symbol|vmcoreinfo|layout|tables|scan ...\n");
		return 2;
	}
	err = input_open(argv[arg], &in);
	if (err)
		goto out;
	if (!strcmp(argv[arg + 1], "pages")) {
		rc = cmd_pages(in, argc - arg - 2, argv + arg + 2) ? 2 : 0;
		goto out;
	}
	if (!strcmp(argv[arg + 1], "info")) {
		cmd_info(in);
		rc = 0;
		goto out;
	}
	if (!strcmp(argv[arg + 1], "notes")) {
		cmd_notes(in);
		rc = 0;
		goto out;
	}
	if (!strcmp(argv[arg + 1], "write") && (argc - arg == 4 || argc - arg == 5)) {
		rc = cmd_write(in, argv[arg + 2], argv[arg + 3], argc - arg == 5 ? argv[arg + 4] : NULL);
		goto out;
	}
	if (!strcmp(argv[arg + 1], "ranges")) {
		for (size_t i = 0; i < in->nr_ranges; i++)
			printf("0x%" PRIx64 " 0x%" PRIx64 "\n", in->ranges[i].start, in->ranges[i].end);
		rc = 0;
		goto out;
	}
	if (vmcoreinfo_file)
		err = vmcoreinfo_load_file(vmcoreinfo_file, &vi);
	else if (in->vmcoreinfo)
		err = vmcoreinfo_parse(in->vmcoreinfo, in->vmcoreinfo_size, argv[arg], &vi);
	else
		err = search_vmcoreinfo(in, &vi);
	if (!err)
		err = arch_detect(in, vi, &arch);
	if (!err)
		err = memory_new(in, arch, vi, &mem);
	if (!err)
		err = kernel_new(mem, vi, &kernel);
	if (err)
		goto out;
	if (!strcmp(argv[arg + 1], "vtop")) {
		for (int i = arg + 2; i < argc; i++) {
			uint64_t vaddr = strtoull(argv[i], NULL, 0), paddr;
			int code = mdf_error_print_unless_plain(mem_vtop(mem, vaddr, &paddr));

			if (code)
				printf("0x%" PRIx64 " %s\n", vaddr, status_name(code));
			else
				printf("0x%" PRIx64 " 0x%" PRIx64 "\n", vaddr, paddr);
		}
		rc = 0;
	} else if (!strcmp(argv[arg + 1], "virt") && argc - arg == 4) {
		size_t len = strtoull(argv[arg + 3], NULL, 0);
		unsigned char *buf = malloc(len);

		if (!buf)
			goto out;
		err = mem_read_virt(mem, strtoull(argv[arg + 2], NULL, 0), buf, len);
		if (!err)
			rc = fwrite(buf, 1, len, stdout) == len ? 0 : 1;
		free(buf);
	} else if (!strcmp(argv[arg + 1], "symbol")) {
		/*
		 * MODULE:NAME in that module, NAME in the kernel and then the
		 * modules.  The first half of the unqualified names are
		 * announced (kernel_expect_symbols), the rest asked one by
		 * one: both ways a lookup is answered are checked.
		 */
		const char **announced = calloc((size_t)argc, sizeof(*announced));
		size_t nr_announced = 0, unqualified = 0;

		for (int i = arg + 2; i < argc; i++)
			unqualified += !strchr(argv[i], ':');
		for (int i = arg + 2; announced && i < argc; i++)
			if (!strchr(argv[i], ':') && nr_announced < unqualified / 2)
				announced[nr_announced++] = argv[i];
		err = announced ? kernel_expect_symbols(kernel, announced, nr_announced) : &mdf_error_enomem;
		free(announced);
		if (err)
			goto out;
		for (int i = arg + 2; i < argc; i++) {
			const char *colon = strchr(argv[i], ':');
			char module[64] = "";
			uint64_t addr;

			if (colon && (size_t)(colon - argv[i]) < sizeof(module)) {
				memcpy(module, argv[i], (size_t)(colon - argv[i]));
				module[colon - argv[i]] = '\0';
			}
			if (!mdf_error_drop(kernel_symbol_address(kernel, colon ? module : NULL,
								  colon ? colon + 1 : argv[i], &addr)))
				printf("%s 0x%" PRIx64 "\n", argv[i], addr);
			else
				printf("%s missing\n", argv[i]);
		}
		rc = 0;
	} else if (!strcmp(argv[arg + 1], "vmcoreinfo")) {
		for (int i = arg + 2; i < argc; i++)
			print_vmcoreinfo(kernel, argv[i]);
		rc = 0;
	} else if (!strcmp(argv[arg + 1], "tables")) {
		err = mem_for_each_table_page(mem, print_table_page, NULL);
		rc = err ? 1 : 0;
	} else if (!strcmp(argv[arg + 1], "layout")) {
		cmd_layout(in, mem, kernel);
		rc = 0;
	} else if (!strcmp(argv[arg + 1], "scan") && argc - arg == 3) {
		rc = cmd_scan(in, mem, kernel, atoi(argv[arg + 2]));
	} else {
		fprintf(stderr, "dumpread: unknown command %s\n", argv[arg + 1]);
		rc = 2;
	}
out:
	if (err)
		mdf_error_print(err, false);
	kernel_free(kernel);
	memory_free(mem);
	vmcoreinfo_free(vi);
	input_close(in);
	return rc;
}
