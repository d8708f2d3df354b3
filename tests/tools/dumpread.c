// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dumpread: reads a dump through the project's own input, memory and
 * translation code, so that tests can compare what it sees with an
 * independent reader (python3-libkdumpfile) or with known facts.
 *
 *   dumpread [-i VMCOREINFO] VMCORE info           header fields, ranges, hashes of
 *                                                  the VMCOREINFO text and the notes
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
#include "input/vmcoreinfo.h"
#include "kernel/kernel.h"
#include "kernel/kernel_map.h"
#include "memory/reader.h"
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

static void cmd_info(const struct dump_input *in)
{
	const struct kdump_header_info *kd = in->kdump;

	printf("format %s\npage_size %" PRIu32 "\nmax_pfn 0x%" PRIx64 "\nranges %zu\n",
	       in->ops->name, in->page_size, in->max_pfn, in->nr_ranges);
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
	       mem_byte_order(mem) == BYTE_ORDER_BIG ? "big" : "little", mem_pointer_size(mem), mem_page_size(mem));
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
			"info|pages|vtop|virt|ranges|symbol|vmcoreinfo|layout|scan ...\n");
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
	if (!strcmp(argv[arg + 1], "ranges")) {
		for (size_t i = 0; i < in->nr_ranges; i++)
			printf("0x%" PRIx64 " 0x%" PRIx64 "\n", in->ranges[i].start, in->ranges[i].end);
		rc = 0;
		goto out;
	}
	err = vmcoreinfo_file ? vmcoreinfo_load_file(vmcoreinfo_file, &vi)
			      : vmcoreinfo_parse(in->vmcoreinfo ? in->vmcoreinfo : "", in->vmcoreinfo_size,
						 argv[arg], &vi);
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
