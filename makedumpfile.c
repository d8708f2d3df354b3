// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * makedumpfile: command line and orchestration.
 *
 * Each mode runs the steps of the data flow it needs, in order: open the
 * dump, read VMCOREINFO, set up the memory reader, decode symbols or
 * classify pages, then the mode's own work.  Every step has its own
 * precise error, which the layers below return with their context added
 * on the way up: this file is the one place that prints errors, once
 * each.  It decides the exit status and cleans up.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch/arch.h"
#include "cli/options.h"
#include "cli/run_policy.h"
#include "codec/codec.h"
#include "codec/zlib_encoder.h"
#include "erase/config.h"
#include "erase/erase_set.h"
#include "erase/eraseinfo.h"
#include "extension/host.h"
#include "input/dump_input.h"
#include "input/kdump_format.h"
#include "input/vmcoreinfo.h"
#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/kernel.h"
#include "kernel/printk.h"
#include "kernel/vmlinux.h"
#include "memory/reader.h"
#include "memory/vmcoreinfo_search.h"
#include "output/elf_vaddrs.h"
#include "output/elf_writer.h"
#include "output/flat.h"
#include "output/kdump_writer.h"
#include "output/mem_usage.h"
#include "output/outfile.h"
#include "output/page_source.h"
#include "output/report.h"
#include "output/split.h"
#include "output/split_reassemble.h"
#include "output/unreadable_pages.h"
#include "output/vmcoreinfo_writer.h"
#include "scan/page_scan.h"
#include "scan/pfn_ranges.h"
#include "scan/unused_vmemmap.h"
#include "util/error.h"
#include "util/message.h"
#include "util/stage_times.h"
#include "util/vec.h"
#include "util/version.h"

struct dump_input;
struct vmcoreinfo;
struct memory;
struct kernel;

struct erase_config;

struct mdf_context {
	struct mdf_options opt;
	struct erase_config *erase_config;  /* --config, read before the dump is opened */
	struct dump_input *input;
	const struct arch_ops *arch;  /* the dumped machine's, once known */
	struct vmcoreinfo *vmcoreinfo;
	struct memory *memory;
	struct kernel *kernel;        /* VMCOREINFO, kallsyms and BTF, loaded as asked for */
	struct vmlinux *vmlinux;      /* -x */
};

/*
 * Prints @err: the layers below return errors, and this file says each
 * once, where a mode's step fails.  Returns its code (0 for none).
 */
static int print_error(struct mdf_error *err)
{
	return mdf_error_print(err, false);
}

/*
 * A dump without a VMCOREINFO note (QEMU's of a guest without its vmcoreinfo device):
 * the kernel's own, from its memory, said once as a warning.
 */
static int find_vmcoreinfo_in_memory(struct mdf_context *ctx)
{
	struct vmcoreinfo_found found;
	struct mdf_error *err = vmcoreinfo_search(ctx->input, ctx->arch, &found);

	if (err)
		return print_error(mdf_error_wrap(err, "%s: the dump has no VMCOREINFO note; give one with -i "
						  "VMCOREINFO", ctx->opt.vmcore));
	msg_warn("%s: the dump has no VMCOREINFO note: using the kernel's own, found in its memory at "
		 "physical 0x%" PRIx64 " and checked against init_uts_ns", ctx->opt.vmcore, found.paddr);
	msg_debug("VMCOREINFO search: %" PRIu64 " pages read in %.3f s", found.pages_read, found.seconds);
	ctx->vmcoreinfo = found.vi;
	return 0;
}

/* Opens the dump and reads its VMCOREINFO (or -i's). */
static int open_dump(struct mdf_context *ctx)
{
	struct mdf_error *err;

	/* Open already: a dump written again at the next dump level. */
	if (ctx->vmcoreinfo)
		return 0;
	err = ctx->input ? NULL : input_open(ctx->opt.vmcore, &ctx->input);
	/* A machine the format names and no architecture here reads is said first. */
	if (!err && !ctx->arch)
		err = arch_from_format(ctx->input, &ctx->arch);
	if (err)
		return print_error(err);
	if (!ctx->opt.non_mmap && input_map_procfs(ctx->input))
		msg_debug("%s: read through mmap(2) windows", ctx->opt.vmcore);
	if (ctx->opt.vmcoreinfo_file)
		return print_error(vmcoreinfo_load_file(ctx->opt.vmcoreinfo_file, &ctx->vmcoreinfo));
	if (!ctx->input->vmcoreinfo)
		return find_vmcoreinfo_in_memory(ctx);
	return print_error(vmcoreinfo_parse(ctx->input->vmcoreinfo, ctx->input->vmcoreinfo_size,
					    ctx->opt.vmcore, &ctx->vmcoreinfo));
}

static int open_memory(struct mdf_context *ctx)
{
	struct mdf_error *err;
	int64_t page_size;

	if (ctx->kernel)
		return 0;
	/* The dump written carries this VMCOREINFO: readers trust its PAGESIZE. */
	err = vmcoreinfo_lookup_plain(ctx->vmcoreinfo, "PAGESIZE", &page_size);
	if (err && !mdf_error_is_not_found(err))
		return print_error(mdf_error_wrap(err, "%s", ctx->opt.vmcore));
	if (!err && page_size != ctx->input->page_size) {
		msg_error("%s: VMCOREINFO says PAGESIZE=%lld but the dump's pages are %u bytes",
			  ctx->opt.vmcore, (long long)page_size, ctx->input->page_size);
		return -MDF_ECORRUPT;
	}
	/* The format names no machine: VMCOREINFO's lines tell. */
	if (!ctx->arch) {
		err = arch_detect(ctx->input, ctx->vmcoreinfo, &ctx->arch);
		if (err)
			return print_error(err);
	}
	err = memory_new(ctx->input, ctx->arch, ctx->vmcoreinfo, &ctx->memory);
	if (!err)
		err = kernel_new(ctx->memory, ctx->vmcoreinfo, &ctx->kernel);
	if (!err && ctx->opt.vmlinux)
		err = vmlinux_open(ctx->opt.vmlinux, &ctx->vmlinux);
	if (!err && ctx->vmlinux)
		err = kernel_use_vmlinux(ctx->kernel, ctx->vmlinux);
	return print_error(err);
}

/*
 * A writer's error, if any, then what became of its file (dump_file.h):
 * the cause before the consequence, as they happened.
 */
static int print_write_failure(struct mdf_error *err, struct dump_file_fate *fate)
{
	int code = print_error(err);

	print_error(fate->error);
	fate->error = NULL;
	dump_file_fate_tell(fate);
	return code;
}

/*
 * --dry-run: the writers write to /dev/null, which takes every byte and
 * keeps none, so that the run is a real one but for the file.
 */
#define DRY_RUN_SINK "/dev/null"

/* Where a writer puts the dump file @path (NULL: standard output). */
static const char *written_path(const struct mdf_options *opt, const char *path)
{
	return opt->dry_run ? DRY_RUN_SINK : path;
}

/*
 * A dry run checks the files it does not write as a run would check them
 * (upstream's does too): a file that exists is overwritten only with -f,
 * and only if it may be written.
 */
static int check_unwritten_file(const char *path, bool force)
{
	int err;

	if (!path || !strcmp(path, "-") || access(path, F_OK) != 0)
		return 0;
	if (!force) {
		msg_error("%s: already exists; use -f to overwrite it", path);
		return -EEXIST;
	}
	if (access(path, W_OK) == 0)
		return 0;
	err = errno;
	msg_error("%s: cannot be overwritten: %s", path, strerror(err));
	return -err;
}

static int check_unwritten_files(const struct mdf_options *opt)
{
	int err = 0;

	if (opt->mode == MODE_SPLIT)
		for (unsigned int i = 0; i < opt->nr_dumpfiles && !err; i++)
			err = check_unwritten_file(opt->dumpfiles[i], opt->force);
	else if (opt->mode != MODE_MEM_USAGE)
		err = check_unwritten_file(opt->output, opt->force);
	return err;
}

/* The last word of a dump mode that wrote @bytes to @path (STDOUT for -F). */
static void report_written(const struct mdf_options *opt, const char *path, uint64_t bytes)
{
	if (opt->dry_run) {
		msg_info("%s", "");
		msg_info("--dry-run: no file was written (Write bytes: %" PRIu64 ").", bytes);
	} else {
		report_saved(path);
	}
}

static int run_dump_kallsyms(struct mdf_context *ctx)
{
	struct mdf_error *error;
	struct kallsyms *ks;
	struct modules *mods;
	struct outfile out;
	int err;

	err = open_dump(ctx);
	if (!err)
		err = open_memory(ctx);
	if (!err)
		err = print_error(kernel_kallsyms(ctx->kernel, &ks));
	/* Without module symbols the kernel's are still worth listing. */
	if (!err && (error = kernel_modules(ctx->kernel, &mods)))
		mdf_error_print(error, true);
	if (!err)
		err = print_error(outfile_open(&out, ctx->opt.output, ctx->opt.force));
	if (err)
		return err;
	error = kernel_write_kallsyms(ctx->kernel, out.stream);
	if (error) {
		msg_error("%s: write failed: %s", out.path, mdf_error_text(error));
		outfile_abort(&out);
		return mdf_error_drop(error);
	}
	return print_error(outfile_finish(&out));
}

/*
 * The crashed kernel's utsname, as upstream puts it in the dump header:
 * init_uts_ns.name.  Without it the header's strings stay empty.
 */
static void read_utsname(struct mdf_context *ctx, struct kdump_utsname *uts)
{
	uint64_t uts_ns;
	int64_t name_offset = 0;
	struct mdf_error *err;

	memset(uts, 0, sizeof(*uts));
	if (mdf_error_drop(kernel_lookup_symbol(ctx->kernel, "init_uts_ns", &uts_ns))) {
		msg_warn("VMCOREINFO has no SYMBOL(init_uts_ns): the dump header's utsname stays empty");
		return;
	}
	mdf_error_drop(kernel_lookup_offset(ctx->kernel, "uts_namespace.name", &name_offset));
	err = mem_read_virt(ctx->memory, uts_ns + (uint64_t)name_offset, uts, sizeof(*uts));
	if (err) {
		msg_warn("cannot read init_uts_ns at 0x%" PRIx64 " (%s): the dump header's utsname "
			 "stays empty", uts_ns, mdf_error_text(err));
		mdf_error_free(err);
		memset(uts, 0, sizeof(*uts));
	}
}

/*
 * What the writer's callbacks work on: pages classified by the scan, read
 * from the input, with the bytes to erase overwritten.
 */
struct page_source_ctx {
	struct page_scan *scan;
	struct dump_input *input;
	struct erase_set *erase;
	struct unreadable_pages unreadable;
	/* -e: the frames of struct pages of pages left out, left out too (merged). */
	const struct pfn_ranges *unused_vmemmap;
};

static struct mdf_error *classify_cycle(void *ctx, uint64_t start_pfn, uint64_t end_pfn,
					uint8_t *present, uint8_t *dumpable,
					struct page_counts *counts)
{
	struct page_source_ctx *source = ctx;

	page_scan_cycle(source->scan, start_pfn, end_pfn, present, dumpable, counts);
	if (source->unused_vmemmap)
		policy_leave_out(source->unused_vmemmap, start_pfn, end_pfn, dumpable);
	return NULL;
}

/*
 * As upstream: read, then erase, and only then look for a zero page.  A
 * page the dump does not hold is the writer's to word; one it holds but
 * cannot give is zeroed, and told after writing.
 */
static struct mdf_error *read_input_page(void *ctx, uint64_t pfn, void *buf)
{
	struct page_source_ctx *source = ctx;
	struct mdf_error *err = input_read_page(source->input, pfn, buf);

	if (!err) {
		erase_set_apply(source->erase, pfn, buf);
		return NULL;
	}
	if (err->shared || err->code == -ENOMEM)
		return err;
	memset(buf, 0, source->input->page_size);
	unreadable_pages_add(&source->unreadable, pfn, err);
	return &page_source_unreadable;
}

/* As read_input_page(), for the run of pages the input reads in bulk. */
static size_t read_input_pages(void *ctx, const uint64_t *pfns, size_t count, void *buf)
{
	struct page_source_ctx *source = ctx;
	size_t page_size = source->input->page_size;
	size_t n = input_read_pages(source->input, pfns, count, buf);

	for (size_t i = 0; i < n; i++)
		erase_set_apply(source->erase, pfns[i], (unsigned char *)buf + i * page_size);
	return n;
}

/*
 * The erase information of the new dump: what the input already had (a
 * dump re-filtered keeps it), then what this run erased in the pages it
 * wrote.
 */
static struct mdf_error *dump_eraseinfo(void *ctx, char **text, size_t *len)
{
	struct page_source_ctx *source = ctx;
	char *before = NULL, *now = NULL;
	size_t before_len = 0, now_len = 0;
	struct mdf_error *err = eraseinfo_read(source->input, &before, &before_len);

	if (!err)
		err = eraseinfo_text(source->erase, false, &now, &now_len);
	if (!err && (*text = malloc(before_len + now_len + 1))) {
		memcpy(*text, before ? before : "", before_len);
		memcpy(*text + before_len, now ? now : "", now_len + 1);
		*len = before_len + now_len;
	} else if (!err) {
		err = &mdf_error_enomem;
	}
	free(before);
	free(now);
	return err;
}

/*
 * Runs the extensions, if any, on what the scan found, and gives their
 * ranges to the scan.  Only makedumpfile's own failures are errors.
 */
static int run_extensions(struct mdf_context *ctx, struct page_scan *scan, struct page_decisions *decisions,
			  struct erase_set *erase, struct extension_results *results)
{
	struct extension_options opt = ctx->opt.extensions;
	struct extension_env env = {
		.mem = ctx->memory,
		.kernel = ctx->kernel,
		.scan = scan,
		.mem_map = page_scan_mem_map(scan),
		.page_size = ctx->input->page_size,
		.max_pfn = page_scan_max_pfn(scan),
		.erase = erase,
	};
	int err;

	if (!opt.timeout)
		opt.timeout = EXTENSION_DEFAULT_TIMEOUT;
	err = print_error(extensions_run(&opt, &env, decisions, results));
	if (!err)
		page_scan_set_decisions(scan, decisions);
	return err;
}

/* What the dump modes build before they write: the pages, classified. */
struct dump_job {
	struct page_scan *scan;
	struct page_decisions decisions;
	struct erase_set erase;
	struct extension_results extensions;
	struct page_source_ctx source_ctx;
	struct page_source source;
	struct page_counts counts;
	struct pfn_ranges unused_vmemmap;
	uint64_t max_pfn;
	uint64_t cycle_pfns;
	/* A file that fills the disk goes: it will be written at another level. */
	bool remove_when_full;
};

/*
 * --vtop: where the crashed kernel's page tables map an address, in
 * upstream's form.  Only printed: the dump does not depend on it.
 */
static void print_vtop(struct mdf_context *ctx)
{
	uint64_t vaddr = ctx->opt.vtop_address, paddr;
	struct mdf_error *err = mem_vtop(ctx->memory, vaddr, &paddr);

	msg_info("%s", "");
	msg_info("Translating virtual address %" PRIx64 " to physical address.", vaddr);
	if (err) {
		mdf_error_print(mdf_error_wrap(err, "--vtop: 0x%" PRIx64, vaddr), true);
		return;
	}
	msg_info("VIRTUAL           PHYSICAL");
	msg_info("%16" PRIx64 "  %" PRIx64, vaddr, paddr);
	msg_info("%s", "");
}

/* Opens the dump and classifies its pages at @dump_level, extensions' ranges included. */
static int start_job(struct mdf_context *ctx, int dump_level, bool extensions,
		     struct dump_job *job)
{
	int err = open_dump(ctx);

	if (!err && ctx->opt.elf && ctx->input->kdump) {
		msg_error("'-E' option is disable, because %s is kdump compressed format.",
			  ctx->opt.vmcore);
		err = -EINVAL;
	}
	if (!err)
		err = open_memory(ctx);
	if (!err && ctx->opt.vtop)
		print_vtop(ctx);
	if (!err) {
		enum run_stage was = stage_enter(STAGE_CLASSIFY);

		err = print_error(page_scan_new(ctx->input, ctx->memory, ctx->kernel, dump_level, &job->scan));
		stage_enter(was);
		stage_times_sample_memory();
	}
	if (err)
		return err;
	/* The config's erasures first: the erase information lists them before the extensions'. */
	erase_set_init(&job->erase, ctx->input->page_size, page_scan_max_pfn(job->scan));
	if (ctx->erase_config)
		err = print_error(erase_config_resolve(ctx->erase_config, ctx->memory, ctx->kernel, &job->erase));
	if (!err && extensions)
		err = run_extensions(ctx, job->scan, &job->decisions, &job->erase, &job->extensions);
	if (err)
		return err;
	/* Types are done with: the pages are written without them, in the memory they held. */
	kernel_release_btf(ctx->kernel);
	erase_set_sort(&job->erase);
	job->source_ctx.scan = job->scan;
	job->source_ctx.input = ctx->input;
	job->source_ctx.erase = &job->erase;
	job->source.classify = classify_cycle;
	job->source.read_page = read_input_page;
	job->source.read_pages = read_input_pages;
	job->source.eraseinfo = dump_eraseinfo;
	job->source.ctx = &job->source_ctx;
	job->max_pfn = page_scan_max_pfn(job->scan);
	job->cycle_pfns = policy_cycle_pfns(&ctx->opt, job->max_pfn);
	msg_debug("dump level %d, %" PRIu64 " pfns, %" PRIu64 " per cycle", dump_level,
		  job->max_pfn, job->cycle_pfns);
	if (ctx->opt.exclude_vmemmap) {
		err = print_error(unused_vmemmap_frames(job->scan, ctx->memory, ctx->input->page_size,
							job->cycle_pfns, &job->decisions.keep,
							&job->unused_vmemmap));
		if (err)
			return err;
		job->source_ctx.unused_vmemmap = &job->unused_vmemmap;
		msg_info("Excluded %" PRIu64 " unused vmemmap pages", pfn_ranges_pages(&job->unused_vmemmap));
	}
	return 0;
}

static void end_job(struct dump_job *job)
{
	unreadable_pages_free(&job->source_ctx.unreadable);
	page_scan_free(job->scan);
	erase_set_free(&job->erase);
	page_decisions_free(&job->decisions);
	extension_results_free(&job->extensions);
	pfn_ranges_free(&job->unused_vmemmap);
}

/* The kdump-compressed header's facts: from VMCOREINFO, or a kdump input's header. */
static void kdump_params(struct mdf_context *ctx, const struct dump_job *job,
			 struct kdump_utsname *uts, struct kdump_writer_params *params)
{
	const struct kdump_header_info *kdump = ctx->input->kdump;
	int64_t phys_base = 0, crash_time = 0;

	read_utsname(ctx, uts);
	if (mdf_error_drop(kernel_lookup_number(ctx->kernel, "phys_base", &phys_base)) && kdump)
		phys_base = (int64_t)kdump->phys_base;
	mdf_error_drop(vmcoreinfo_lookup_plain(ctx->vmcoreinfo, "CRASHTIME", &crash_time));
	params->dump_level = ctx->opt.dump_level;
	if (kdump) {
		/* Re-filtering keeps the crash time and what was excluded before. */
		crash_time = kdump->timestamp_sec;
		params->timestamp_usec = kdump->timestamp_usec;
		params->dump_level |= kdump->dump_level;
		params->whole_bitmap_blocks = true;
		if (params->dump_level != ctx->opt.dump_level)
			msg_info("The dump level of %s is %d: the new dump has level %d.",
				 ctx->opt.vmcore, kdump->dump_level, params->dump_level);
	}
	params->path = written_path(&ctx->opt, ctx->opt.output);
	params->force = ctx->opt.force || ctx->opt.dry_run;
	params->flatten = ctx->opt.flatten;
	params->size_limit = ctx->opt.size_limit;
	/* A dump that lacks them already says so again. */
	params->excluded_vmemmap = ctx->opt.exclude_vmemmap ||
				   (kdump && (kdump->status & DUMP_DH_EXCLUDED_VMEMMAP));
	params->codec = (enum mdf_codec)ctx->opt.codec;
	params->page_size = ctx->input->page_size;
	params->byte_order = mem_byte_order(ctx->memory);
	params->max_pfn = job->max_pfn;
	params->phys_base = (uint64_t)phys_base;
	params->uts = uts;
	params->timestamp_sec = crash_time;
	params->nr_cpus = kdump ? kdump->nr_cpus
				: kdump_count_cpus(ctx->input->notes, ctx->input->notes_size);
	params->notes = ctx->input->notes;
	params->notes_size = ctx->input->notes_size;
	params->cycle_pfns = job->cycle_pfns;
	params->threads = policy_compression_threads(&ctx->opt);
	params->threads_asked = ctx->opt.num_threads_set;
	params->remove_when_full = job->remove_when_full;
}

static int write_kdump(struct mdf_context *ctx, struct dump_job *job, struct report_totals *totals)
{
	struct kdump_writer_params params = { 0 };
	struct kdump_write_result result = { 0 };
	struct kdump_utsname uts;
	struct mdf_error *err;

	kdump_params(ctx, job, &uts, &params);
	err = kdump_write(&params, &job->source, &job->counts, &result);
	totals->pfn_present = result.pfn_present;
	totals->bytes_written = result.bytes_written;
	return print_write_failure(err, &result.fate);
}

/*
 * A dump whose segments have physical addresses only (QEMU's) is written
 * with the kernel virtual addresses kexec gives: where they cannot be
 * found, with the input's, and readers that need them are told why.
 */
static void give_kernel_vaddrs(struct mdf_context *ctx, struct elf_segments *segs)
{
	struct kernel_map map;
	struct mdf_error *err;

	if (elf_segments_have_kernel_vaddrs(segs, ctx->memory))
		return;
	err = kernel_map_find(ctx->kernel, ctx->memory, &map);
	if (!err)
		err = elf_segments_set_kernel_vaddrs(segs, &map);
	if (!err) {
		msg_debug("ELF segments: the kernel image at %" PRIx64 " (physical 0x%" PRIx64
			  "), the direct map at %" PRIx64, map.text_vaddr, map.text_paddr,
			  map.direct_map);
		return;
	}
	if (err->code == -ENOTSUP)
		msg_debug("%s: the segments keep the input's addresses", mdf_error_text(err));
	else
		msg_warn("%s: the segments keep the input's physical addresses as virtual ones, "
			 "which readers such as drgn cannot start from: %s", ctx->opt.vmcore,
			 mdf_error_text(err));
	mdf_error_free(err);
}

static int write_elf(struct mdf_context *ctx, struct dump_job *job, struct report_totals *totals)
{
	struct elf_writer_params params = {
		.path = written_path(&ctx->opt, ctx->opt.output),
		.force = ctx->opt.force || ctx->opt.dry_run,
		.flatten = ctx->opt.flatten,
		.size_limit = ctx->opt.size_limit,
		.dump_level = ctx->opt.dump_level,
		.page_size = ctx->input->page_size,
		.max_pfn = job->max_pfn,
		.cycle_pfns = job->cycle_pfns,
		.keep = &job->decisions.keep,
		.remove_when_full = job->remove_when_full,
	};
	struct elf_write_result result = { 0 };
	struct elf_segments segs;
	struct mdf_error *failure;
	int err;

	err = print_error(elf_segments_read(ctx->input, &segs));
	if (err)
		return err;
	give_kernel_vaddrs(ctx, &segs);
	params.input = &segs;
	pfn_ranges_merge(&job->decisions.keep);
	failure = elf_write(&params, &job->source, &job->counts, &result);
	totals->pfn_present = result.pfn_present;
	totals->bytes_written = result.bytes_written;
	totals->elf = true;
	totals->elf_excluded = result.pfn_elf_excluded;
	elf_segments_free(&segs);
	return print_write_failure(failure, &result.fate);
}

static int run_dump_at_level(struct mdf_context *ctx, bool retry_when_full)
{
	struct dump_job job = { .remove_when_full = retry_when_full };
	struct report_totals totals = { .counts = &job.counts };
	const char *output = ctx->opt.flatten ? "STDOUT" : ctx->opt.output;
	int err;

	err = start_job(ctx, ctx->opt.dump_level, true, &job);
	if (!err)
		err = ctx->opt.elf ? write_elf(ctx, &job, &totals) : write_kdump(ctx, &job, &totals);
	if (!err) {
		totals.max_pfn = job.max_pfn;
		report_print(&totals);
		report_extensions(&job.extensions);
		mdf_error_print(unreadable_pages_error(&job.source_ctx.unreadable, output), true);
		report_written(&ctx->opt, output, totals.bytes_written);
	}
	end_job(&job);
	return err;
}

/*
 * At each level of -d's list while the disk is full, as upstream: a
 * stream (-F) is never written again, for what went out stays out.
 */
static int run_dump(struct mdf_context *ctx)
{
	const struct mdf_options *opt = &ctx->opt;

	for (unsigned int i = 0;; i++) {
		bool retry = i + 1 < opt->nr_dump_levels && !opt->flatten;
		int err;

		if (opt->nr_dump_levels)
			ctx->opt.dump_level = opt->dump_levels[i];
		err = run_dump_at_level(ctx, retry);
		if (err != -ENOSPC || !retry)
			return err;
		msg_info("Retry to create a dumpfile by dump_level(%d).", opt->dump_levels[i + 1]);
	}
}

/*
 * The parts a level wrote before the disk filled, which upstream removes
 * too: every part is written again at the next level.  Only regular files
 * (--dry-run writes none of them).
 */
static void remove_split_parts(const struct mdf_context *ctx, unsigned int nr)
{
	struct stat st;

	for (unsigned int i = 0; i < nr && !ctx->opt.dry_run; i++)
		if (lstat(ctx->opt.dumpfiles[i], &st) == 0 && S_ISREG(st.st_mode))
			unlink(ctx->opt.dumpfiles[i]);
}

/*
 * --split at the dump level set: the pfn ranges first, then one
 * kdump-compressed file each.  The classification counts are the same for
 * every part; the zero pages are counted by the part that holds them.
 */
static int run_split_at_level(struct mdf_context *ctx, struct split_part *parts,
			      bool retry_when_full)
{
	unsigned int nr = ctx->opt.nr_dumpfiles, written = 0;
	struct kdump_writer_params params = { 0 };
	struct dump_job job = { .remove_when_full = retry_when_full };
	struct report_totals totals = { .counts = &job.counts };
	struct kdump_utsname uts;
	uint64_t block;
	int err;

	err = start_job(ctx, ctx->opt.dump_level, true, &job);
	if (err)
		goto out;
	kdump_params(ctx, &job, &uts, &params);
	block = ctx->opt.splitblock_kib ? (uint64_t)ctx->opt.splitblock_kib << 10
					: SPLITBLOCK_DEFAULT_BYTES;
	if (block % params.page_size) {
		err = print_error(mdf_error(-EINVAL, "The splitblock size must be align to "
						   "page_size (%" PRIu32 " bytes).",
						   params.page_size));
		goto out;
	}
	err = print_error(split_plan(&job.source, job.max_pfn, job.cycle_pfns,
					    params.page_size, block, nr, parts));
	params.split = true;
	for (unsigned int i = 0; i < nr && !err; i++) {
		struct page_counts counts = { 0 };
		struct kdump_write_result result = { 0 };
		struct mdf_error *failure;

		params.path = written_path(&ctx->opt, ctx->opt.dumpfiles[i]);
		params.start_pfn = parts[i].start_pfn;
		params.end_pfn = parts[i].end_pfn;
		failure = kdump_write(&params, &job.source, i ? &counts : &job.counts, &result);
		err = print_write_failure(failure, &result.fate);
		written += !err;
		job.counts.zero += counts.zero;
		totals.pfn_present = result.pfn_present;
		totals.bytes_written += result.bytes_written;
	}
	/* The part that filled the disk is gone already (remove_when_full). */
	if (err == -ENOSPC && retry_when_full)
		remove_split_parts(ctx, written);
	if (!err) {
		totals.max_pfn = job.max_pfn;
		report_print(&totals);
		report_extensions(&job.extensions);
		mdf_error_print(unreadable_pages_error(&job.source_ctx.unreadable,
						       "Each part that lacks one"), true);
		if (ctx->opt.dry_run)
			report_written(&ctx->opt, NULL, totals.bytes_written);
		else
			report_saved_split(ctx->opt.dumpfiles, nr);
	}
out:
	end_job(&job);
	return err;
}

/* --split at each level of -d's list while the disk is full, as run_dump(). */
static int run_split(struct mdf_context *ctx)
{
	const struct mdf_options *opt = &ctx->opt;
	struct split_part *parts = calloc(opt->nr_dumpfiles, sizeof(*parts));
	int err;

	if (!parts)
		return print_error(&mdf_error_enomem);
	for (unsigned int i = 0;; i++) {
		bool retry = i + 1 < opt->nr_dump_levels;

		if (opt->nr_dump_levels)
			ctx->opt.dump_level = opt->dump_levels[i];
		err = run_split_at_level(ctx, parts, retry);
		if (err != -ENOSPC || !retry)
			break;
		msg_info("Retry to create a dumpfile by dump_level(%d).", opt->dump_levels[i + 1]);
	}
	free(parts);
	return err;
}

/*
 * -L with --dump-dmesg: the log, made in memory, goes to @out up to the
 * limit, as upstream cuts it.  A log cut short is kept so, and the run
 * fails.
 */
static int write_log_within_limit(struct mdf_context *ctx, struct outfile *out, const char *log,
				  size_t len)
{
	uint64_t limit = ctx->opt.size_limit;
	size_t kept = len > limit ? (size_t)limit : len;
	int err;

	if (fwrite(log, 1, kept, out->stream) != kept || kept == len)
		return print_error(outfile_finish(out));
	err = print_error(outfile_sync(out));
	if (!err)
		err = print_error(outfile_close(out));
	if (err) {
		outfile_abort(out);
		return err;
	}
	msg_error("%s: the size limit (-L) of %" PRIu64 " bytes is reached: the log is cut there, "
		  "%zu of its %zu bytes kept", out->path, limit, kept, len);
	return -ENOSPC;
}

static int run_dump_dmesg(struct mdf_context *ctx)
{
	struct outfile out;
	char *log = NULL;
	size_t len = 0;
	FILE *to = NULL;
	int err;

	err = open_dump(ctx);
	if (!err)
		err = open_memory(ctx);
	if (!err)
		err = print_error(outfile_open(&out, ctx->opt.output, ctx->opt.force));
	if (err)
		return err;
	to = ctx->opt.size_limit ? open_memstream(&log, &len) : out.stream;
	err = to ? print_error(printk_dump(ctx->memory, ctx->kernel, ctx->opt.partial_dmesg, to,
					   out.path))
		 : print_error(&mdf_error_enomem);
	if (to && to != out.stream && fclose(to) && !err)
		err = print_error(&mdf_error_enomem);
	if (err) {
		outfile_abort(&out);
		free(log);
		return err;
	}
	err = log ? write_log_within_limit(ctx, &out, log, len) : print_error(outfile_finish(&out));
	free(log);
	if (!err) {
		msg_info("%s", "");
		msg_info("The dmesg log is saved to %s.", out.path);
	}
	return err;
}

/*
 * --mem-usage: the pages of each kind at dump level 31, zero pages
 * included, as upstream counts them; nothing is written.
 */
static int run_mem_usage(struct mdf_context *ctx)
{
	struct dump_job job = { 0 };
	struct mem_usage usage = { 0 };
	int err;

	/* /proc/kcore, or a vmcore: start_job finds it open. */
	err = print_error(input_open_live(ctx->opt.vmcore, &ctx->input));
	if (err)
		return err;
	err = start_job(ctx, DL_MAX, false, &job);
	if (!err)
		err = print_error(mem_usage_count(&job.source, job.max_pfn, job.cycle_pfns,
							 ctx->input->page_size, &usage));
	if (!err && job.source_ctx.unreadable.count)
		mdf_error_print(mdf_error(-MDF_EUNREADABLE, "%" PRIu64 " pages could not be read, "
					  "the first at pfn 0x%" PRIx64 ": %s; they count as not zero",
					  job.source_ctx.unreadable.count,
					  job.source_ctx.unreadable.listed[0],
					  mdf_error_text(job.source_ctx.unreadable.first_error)),
				true);
	if (!err)
		mem_usage_print(&usage);
	end_job(&job);
	return err;
}

/* -R: the flattened stream on standard input, written out as the dump it holds. */
static int run_reassemble_flat(struct mdf_context *ctx)
{
	const struct mdf_options *opt = &ctx->opt;
	int err = print_error(flat_reassemble(STDIN_FILENO, "standard input",
					      written_path(opt, opt->output),
					      opt->force || opt->dry_run, opt->size_limit));

	if (!err && opt->dry_run) {
		msg_info("%s", "");
		msg_info("--dry-run: the stream was read whole; nothing was written.");
	} else if (!err) {
		report_saved(opt->output);
	}
	return err;
}

static void print_spec_error(struct mdf_error *err)
{
	print_error(err);
}

static int run_dump_type(struct mdf_context *ctx)
{
	struct btf_info *btf;
	int err;

	err = open_dump(ctx);
	if (!err)
		err = open_memory(ctx);
	if (!err)
		err = print_error(kernel_btf(ctx->kernel, &btf));
	/* Each spec's error is said; what is left says no more than its code. */
	if (!err)
		err = mdf_error_drop(btf_info_describe(btf, ctx->opt.type_spec, stdout, print_spec_error));
	return err;
}

/* --eraseinfo: the erase information a dump holds, as it holds it. */
static int run_eraseinfo(struct mdf_context *ctx)
{
	char *text = NULL;
	size_t len = 0;
	int err = print_error(input_open(ctx->opt.vmcore, &ctx->input));

	if (!err)
		err = print_error(eraseinfo_read(ctx->input, &text, &len));
	if (!err && !len)
		msg_info("%s holds no erase information.", ctx->opt.vmcore);
	if (!err && len && fwrite(text, 1, len, stdout) != len)
		err = print_error(mdf_error(-EIO, "standard output: %s", strerror(errno)));
	free(text);
	return err;
}

/* -g: VMCOREINFO from the vmlinux alone, as upstream writes it; no dump is read. */
static int run_generate_vmcoreinfo(struct mdf_context *ctx)
{
	struct outfile out;
	struct mdf_error *err = vmlinux_open(ctx->opt.vmlinux, &ctx->vmlinux);

	if (!err)
		err = outfile_open(&out, ctx->opt.output, true);
	if (err)
		return print_error(err);
	err = vmcoreinfo_write(ctx->vmlinux, out.stream);
	if (err) {
		outfile_abort(&out);
		return print_error(err);
	}
	err = outfile_finish(&out);
	if (!err)
		msg_info("\nThe vmcoreinfo is saved to %s.", ctx->opt.output);
	return print_error(err);
}

static void close_context(struct mdf_context *ctx)
{
	erase_config_free(ctx->erase_config);
	kernel_free(ctx->kernel);
	vmlinux_close(ctx->vmlinux);
	memory_free(ctx->memory);
	vmcoreinfo_free(ctx->vmcoreinfo);
	input_close(ctx->input);
	options_free(&ctx->opt);
}

/*
 * What a signal that ends the run leaves behind, said before the process
 * dies of it: the message is made in advance, because a signal handler
 * may only write(2).  The dump writers mark a file incomplete in its
 * header from their first write, so what is left says so itself.
 */
static char interruption_note[4096];
static size_t interruption_note_len;

static void say_interrupted(int sig)
{
	static const char start[] = "\nmakedumpfile: interrupted by ";
	const char *name = sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "SIGHUP";
	ssize_t ignored;

	ignored = write(STDERR_FILENO, start, sizeof(start) - 1);
	ignored = write(STDERR_FILENO, name, strlen(name));
	ignored = write(STDERR_FILENO, interruption_note, interruption_note_len);
	(void)ignored;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_interruptions(const struct mdf_options *opt)
{
	static const int signals[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa = { .sa_handler = say_interrupted };
	bool dump = opt->mode == MODE_DUMP || opt->mode == MODE_SPLIT || opt->mode == MODE_REASSEMBLE_SPLIT ||
		    opt->mode == MODE_REASSEMBLE_FLAT;
	int len;

	if (opt->flatten && opt->mode != MODE_MEM_USAGE)
		len = snprintf(interruption_note, sizeof(interruption_note),
			       ": the flattened stream on stdout ends here, incomplete\n");
	else if (dump && opt->output)
		len = snprintf(interruption_note, sizeof(interruption_note),
			       ": %s is incomplete, and says so in its header\n", opt->output);
	else if (dump)
		len = snprintf(interruption_note, sizeof(interruption_note),
			       ": the dump files are incomplete, and say so in their headers\n");
	else
		len = snprintf(interruption_note, sizeof(interruption_note), ": its output is incomplete\n");
	interruption_note_len = len < 0 ? 0 : (size_t)len < sizeof(interruption_note) ? (size_t)len
										   : sizeof(interruption_note) - 1;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		sigaction(signals[i], &sa, NULL);
}

int main(int argc, char **argv)
{
	struct mdf_context ctx = { 0 };
	int err;

	stage_times_init();
	err = options_parse(argc, argv, &ctx.opt);
	/* --check-params, as upstream's: the checks made before a file is opened, and no more. */
	if (!err && ctx.opt.check_params && ctx.opt.mode != MODE_HELP && ctx.opt.mode != MODE_VERSION) {
		err = options_check_files(&ctx.opt);
		goto out;
	}
	if (!err) {
		msg_set_level(ctx.opt.message_level);
		err = options_check_files(&ctx.opt);
	}
	if (err)
		goto out;
	catch_interruptions(&ctx.opt);
	msg_set_stdout_is_data((ctx.opt.flatten && ctx.opt.mode != MODE_MEM_USAGE) ||
			       (ctx.opt.mode == MODE_DUMP_KALLSYMS && !ctx.opt.output) ||
			       ctx.opt.mode == MODE_DUMP_TYPE || ctx.opt.mode == MODE_ERASEINFO);
	/* A config with a syntax error stops the run before the dump is touched. */
	if (ctx.opt.config_path)
		err = print_error(erase_config_load(ctx.opt.config_path, &ctx.erase_config));
	if (!err && ctx.opt.dry_run)
		err = check_unwritten_files(&ctx.opt);
	if (err)
		goto out;
	/* A reader of the flattened stream that goes away is a write error, not a kill. */
	if (ctx.opt.flatten)
		signal(SIGPIPE, SIG_IGN);
	options_note_accepted(&ctx.opt);
	switch (ctx.opt.mode) {
	case MODE_HELP:
		options_print_usage(stdout);
		break;
	case MODE_VERSION:
		printf("makedumpfile: version %s (released on %s)\n", MDF_VERSION, MDF_RELEASE_DATE);
		/* upstream's lines, which scripts read to learn what -c/-l/-p/-z can do */
		printf("zlib\tenabled (%s)\nlzo\tenabled\nsnappy\tenabled\nzstd\tenabled\n\n",
		       zlib_encoder_library());
		break;
	case MODE_REASSEMBLE_FLAT:
		err = run_reassemble_flat(&ctx);
		report_finished(!err);
		break;
	case MODE_DUMP_KALLSYMS:
		err = run_dump_kallsyms(&ctx);
		break;
	case MODE_DUMP_TYPE:
		err = run_dump_type(&ctx);
		break;
	case MODE_DUMP:
		err = run_dump(&ctx);
		report_finished(!err);
		break;
	case MODE_SPLIT:
		err = run_split(&ctx);
		report_finished(!err);
		break;
	case MODE_REASSEMBLE_SPLIT: {
		struct dump_file_fate fate = { 0 };
		struct mdf_error *failure;

		failure = reassemble_dumpfiles((const char *const *)ctx.opt.dumpfiles,
					       ctx.opt.nr_dumpfiles, ctx.opt.output, ctx.opt.force,
					       ctx.opt.size_limit, &fate);
		err = print_write_failure(failure, &fate);
		if (!err)
			report_saved(ctx.opt.output);
		report_finished(!err);
		break;
	}
	case MODE_DUMP_DMESG:
		err = run_dump_dmesg(&ctx);
		report_finished(!err);
		break;
	case MODE_ERASEINFO:
		err = run_eraseinfo(&ctx);
		break;
	case MODE_GENERATE_VMCOREINFO:
		err = run_generate_vmcoreinfo(&ctx);
		report_finished(!err);
		break;
	case MODE_MEM_USAGE:
		err = run_mem_usage(&ctx);
		/* Upstream says only when the table could not be made. */
		if (err)
			report_finished(false);
		break;
	}
out:
	close_context(&ctx);
	stage_times_report();
	/* Upstream's status for a kernel file that is not the dump's. */
	return err == -MDF_EWRONGKERNEL ? 2 : err ? EXIT_FAILURE : EXIT_SUCCESS;
}
