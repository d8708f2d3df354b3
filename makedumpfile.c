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
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch/arch.h"
#include "codec/codec.h"
#include "codec/zlib_encoder.h"
#include "erase/config.h"
#include "erase/erase_set.h"
#include "erase/eraseinfo.h"
#include "extension/host.h"
#include "input/dump_input.h"
#include "input/kcore.h"
#include "input/vmcoreinfo.h"
#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/kernel.h"
#include "kernel/printk.h"
#include "memory/reader.h"
#include "output/elf_writer.h"
#include "output/flat.h"
#include "output/kdump_writer.h"
#include "output/mem_usage.h"
#include "output/outfile.h"
#include "output/report.h"
#include "output/split.h"
#include "output/split_reassemble.h"
#include "output/unreadable_pages.h"
#include "scan/page_scan.h"
#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "util/message.h"
#include "util/vec.h"
#include "util/version.h"

enum mdf_mode {
	MODE_DUMP,              /* VMCORE DUMPFILE: filter and write */
	MODE_REASSEMBLE_FLAT,   /* -R DUMPFILE < flattened stream */
	MODE_DUMP_KALLSYMS,     /* --dump-kallsyms VMCORE [OUTFILE] */
	MODE_DUMP_TYPE,         /* --dump-type [MODULE:]NAME[.MEMBER...] VMCORE */
	MODE_SPLIT,             /* --split VMCORE DUMPFILE1 DUMPFILE2 ... */
	MODE_REASSEMBLE_SPLIT,  /* --reassemble DUMPFILE1 ... DUMPFILE */
	MODE_DUMP_DMESG,        /* --dump-dmesg VMCORE LOGFILE */
	MODE_MEM_USAGE,         /* --mem-usage VMCORE */
	MODE_ERASEINFO,         /* --eraseinfo DUMPFILE */
	MODE_VERSION,
	MODE_HELP,
};

struct mdf_options {
	enum mdf_mode mode;
	const char *vmcore;
	const char *output;           /* dump file or listing; NULL: stdout */
	const char *vmcoreinfo_file;  /* -i */
	bool force;                   /* -f */
	bool flatten;                 /* -F */
	bool elf;                     /* -E */
	bool split;                   /* --split */
	int message_level;
	int dump_level;               /* -d, the first of its list */
	int codec;                    /* enum mdf_codec: -c, -l, -p, -z */
	unsigned long cyclic_buffer_kib;  /* --cyclic-buffer; 0: from free memory */
	int num_threads;              /* --num-threads: compression threads */
	bool num_threads_set;         /* given; else one per online CPU */
	struct extension_options extensions;
	struct extension_arg *extension_args;  /* owned; extensions.args points here */
	size_t extension_args_cap;
	const char **extension_names;          /* owned; extensions.names points here */
	size_t extension_names_cap;
	const char *type_spec;        /* --dump-type */
	/* --split: the files to write; --reassemble: the files to read. */
	char **dumpfiles;
	unsigned int nr_dumpfiles;
	unsigned long splitblock_kib; /* --splitblock-size; 0: 1 GiB */
	const char *config_path;      /* --config: the filter config, what to erase */
};

struct dump_input;
struct vmcoreinfo;
struct memory;
struct kernel;

struct erase_config;

struct mdf_context {
	struct mdf_options opt;
	struct erase_config *erase_config;  /* --config, read before the dump is opened */
	struct dump_input *input;
	struct vmcoreinfo *vmcoreinfo;
	struct memory *memory;
	struct kernel *kernel;        /* VMCOREINFO, kallsyms and BTF, loaded as asked for */
};

enum long_option {
	OPT_MESSAGE_LEVEL = 256,
	OPT_DUMP_KALLSYMS,
	OPT_CYCLIC_BUFFER,
	OPT_NUM_THREADS,
	OPT_DUMP_TYPE,
	OPT_EXTENSION,
	OPT_EXTENSION_DIR,
	OPT_NO_EXTENSIONS,
	OPT_EXTENSION_TIMEOUT,
	OPT_EXTENSION_ARG,
	OPT_SPLIT,
	OPT_SPLITBLOCK_SIZE,
	OPT_CONFIG,
	OPT_ERASEINFO,
	OPT_REASSEMBLE,
	OPT_DUMP_DMESG,
	OPT_MEM_USAGE,
};

static const struct option long_options[] = {
	{ "message-level", required_argument, NULL, OPT_MESSAGE_LEVEL },
	{ "dump-kallsyms", no_argument, NULL, OPT_DUMP_KALLSYMS },
	{ "cyclic-buffer", required_argument, NULL, OPT_CYCLIC_BUFFER },
	{ "num-threads", required_argument, NULL, OPT_NUM_THREADS },
	{ "dump-type", required_argument, NULL, OPT_DUMP_TYPE },
	{ "extension", required_argument, NULL, OPT_EXTENSION },
	{ "extension-dir", required_argument, NULL, OPT_EXTENSION_DIR },
	{ "no-extensions", no_argument, NULL, OPT_NO_EXTENSIONS },
	{ "extension-timeout", required_argument, NULL, OPT_EXTENSION_TIMEOUT },
	{ "extension-arg", required_argument, NULL, OPT_EXTENSION_ARG },
	{ "split", no_argument, NULL, OPT_SPLIT },
	{ "splitblock-size", required_argument, NULL, OPT_SPLITBLOCK_SIZE },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "eraseinfo", no_argument, NULL, OPT_ERASEINFO },
	{ "reassemble", no_argument, NULL, OPT_REASSEMBLE },
	{ "dump-dmesg", no_argument, NULL, OPT_DUMP_DMESG },
	{ "mem-usage", no_argument, NULL, OPT_MEM_USAGE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};

static void print_usage(FILE *out)
{
	fprintf(out,
		"Usage:\n"
		"  makedumpfile [-c|-l|-p|-z|-E] [-d DL] [-f] [-i VMCOREINFO] [--config FILE] VMCORE DUMPFILE\n"
		"  makedumpfile -F [-c|-l|-p|-z|-E] [-d DL] [-i VMCOREINFO] VMCORE\n"
		"  makedumpfile -R DUMPFILE < FLATTENED_DUMP\n"
		"  makedumpfile --split [-c|-l|-p|-z] [-d DL] VMCORE DUMPFILE1 DUMPFILE2 [...]\n"
		"  makedumpfile --reassemble DUMPFILE1 DUMPFILE2 [...] DUMPFILE\n"
		"  makedumpfile --dump-dmesg [-i VMCOREINFO] VMCORE LOGFILE\n"
		"  makedumpfile --mem-usage [-i VMCOREINFO] VMCORE   (/proc/kcore on a live system)\n"
		"  makedumpfile --eraseinfo DUMPFILE\n"
		"  makedumpfile --dump-kallsyms [-i VMCOREINFO] VMCORE [OUTFILE]\n"
		"  makedumpfile --dump-type [MODULE:]NAME[.MEMBER...][,...] [-i VMCOREINFO] VMCORE\n"
		"  makedumpfile -v | -h\n"
		"\n"
		"Options:\n"
		"  -d DL              dump level, 0..31, the sum of the pages to exclude:\n"
		"                       1 zero pages, 2 cache without private, 4 all cache,\n"
		"                       8 user process data, 16 free pages\n"
		"  -c | -l | -p | -z  compress pages with zlib | lzo | snappy | zstd\n"
		"  -E                 write an ELF dump file instead of a kdump-compressed one\n"
		"  -F                 write the flattened format to standard output\n"
		"  -R                 reassemble a flattened dump read from standard input\n"
		"  -f                 overwrite an existing output file\n"
		"  -i VMCOREINFO      read VMCOREINFO from this file instead of the dump\n"
		"  -b ORDER           accepted for compatibility (write buffering is automatic)\n"
		"  -D                 print debugging messages\n"
		"  --split            write the dump as several files, each a range of pfns\n"
		"  --splitblock-size KB  split at multiples of this much memory (default 1 GiB)\n"
		"  --reassemble       put the files of a split dump back into one\n"
		"  --config FILE      erase, in the pages written, the data the filter config FILE\n"
		"                     names (makedumpfile.conf(5))\n"
		"  --eraseinfo        print what DUMPFILE says was erased from it\n"
		"  --dump-dmesg       write the kernel log of the dump to LOGFILE\n"
		"  --mem-usage        print how many pages of each kind the memory holds\n"
		"  --cyclic-buffer KB bitmap buffer per cycle, in KiB (default: from free memory)\n"
		"  --num-threads N    compress pages on N threads (default: one per CPU)\n"
		"  --dump-kallsyms    print the dump's kernel and module symbols as /proc/kallsyms does\n"
		"  --dump-type SPEC   print, from the dump's BTF, a type's size, a member's offset,\n"
		"                     size and bitfield width, or an enum constant's value; SPEC is\n"
		"                     [MODULE:]NAME[.MEMBER...], several joined by commas\n"
		"  --extension-dir DIR  run the page-filter extensions (*.so) of DIR (default\n"
		"                     " EXTENSION_DIR ")\n"
		"  --extension NAME.so|PATH  run this extension (repeatable), instead of the\n"
		"                     default directory's; a NAME is looked for in DIR, then in\n"
		"                     the default directory, never in the current one\n"
		"  --no-extensions    run no extension\n"
		"  --extension-timeout S  seconds each extension may take (default 60)\n"
		"  --extension-arg NAME:KEY=VALUE  an option for extension NAME\n"
		"  --message-level N  0..31: 1 progress, 2 common, 4 errors, 8 debug, 16 report\n"
		"  -v                 print the version\n"
		"  -h                 print this help\n");
}

/*
 * Prints @err: the layers below return errors, and this file says each
 * once, where a mode's step fails.  Returns its code (0 for none).  A
 * page source's failure, passed on by a writer, was said already
 * (kdump_writer.h).
 */
static int print_error(struct mdf_error *err)
{
	if (err && page_source_said(err))
		return mdf_error_drop(err);
	return mdf_error_print(err, false);
}

/* Upstream's wording for a command line it cannot use. */
static int invalid_command_line(void)
{
	msg_error("Commandline parameter is invalid.\nTry `makedumpfile --help' for more information.");
	return -EINVAL;
}

static int parse_number(const char *text, long min, long max, long *value)
{
	char *end;

	errno = 0;
	*value = strtol(text, &end, 10);
	return errno || end == text || *end || *value < min || *value > max ? -EINVAL : 0;
}

/* An option's number, with upstream's "What(text) is invalid." on a bad one. */
static int parse_option_number(const char *text, long min, long max, const char *what,
			       long *value)
{
	if (!parse_number(text, min, max, value))
		return 0;
	msg_error("%s(%s) is invalid.", what, text);
	return invalid_command_line();
}

/* -d takes a comma-separated list; upstream dumps at the first level. */
static int parse_dump_level(const char *text, int *level)
{
	char *copy = strdup(text), *item, *save = NULL;
	bool first = true;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		long value;

		if (parse_number(item, 0, DL_MAX, &value)) {
			msg_error("Dump_level(%s) is invalid.", item);
			err = -EINVAL;
			break;
		}
		if (first)
			*level = (int)value;
		first = false;
	}
	if (!err && first) {
		msg_error("Dump_level is invalid.");
		err = -EINVAL;
	}
	free(copy);
	return err;
}

/*
 * The positional arguments of the modes that read a dump or a split dump's
 * files, with upstream's checks of which options go together.
 */
static int parse_dump_arguments(int argc, char **argv, struct mdf_options *opt,
				bool reassemble_split, bool dmesg, bool mem_usage)
{
	int positional = argc - optind;

	if (reassemble_split) {
		opt->mode = MODE_REASSEMBLE_SPLIT;
		if (positional < 2 || opt->codec || opt->dump_level || opt->elf || opt->flatten ||
		    opt->vmcoreinfo_file || opt->split)
			return invalid_command_line();
		opt->dumpfiles = argv + optind;
		opt->nr_dumpfiles = (unsigned int)positional - 1;
		opt->output = argv[argc - 1];
		return 0;
	}
	if (dmesg || mem_usage) {
		opt->mode = dmesg ? MODE_DUMP_DMESG : MODE_MEM_USAGE;
		/* As upstream: -F sends the log to standard output. */
		if (positional != (mem_usage || opt->flatten ? 1 : 2) || opt->split || opt->elf)
			return invalid_command_line();
		opt->vmcore = argv[optind];
		opt->output = positional == 2 ? argv[optind + 1] : NULL;
		return 0;
	}
	if (opt->elf && opt->codec)
		return invalid_command_line();
	if (opt->num_threads && (opt->split || opt->elf)) {
		msg_error(opt->split ? "--num-threads cannot used with --split."
				     : "--num-threads cannot used with ELF format.");
		return invalid_command_line();
	}
	if (opt->split) {
		opt->mode = MODE_SPLIT;
		if (opt->elf) {
			msg_error("Options for splitting dumpfile cannot be used with Elf format.");
			return invalid_command_line();
		}
		if (opt->flatten || positional < 3)
			return invalid_command_line();
		opt->vmcore = argv[optind];
		opt->dumpfiles = argv + optind + 1;
		opt->nr_dumpfiles = (unsigned int)positional - 1;
		return 0;
	}
	if (opt->flatten ? positional != 1 : positional != 2) {
		msg_error(opt->flatten ? "-F takes VMCORE only: the dump goes to standard output"
				       : "expected VMCORE and DUMPFILE");
		return invalid_command_line();
	}
	opt->vmcore = argv[optind];
	opt->output = opt->flatten ? NULL : argv[optind + 1];
	return 0;
}

static int parse_options(int argc, char **argv, struct mdf_options *opt)
{
	bool reassemble = false, dump_kallsyms = false, debug = false;
	bool reassemble_split = false, dmesg = false, mem_usage = false, eraseinfo = false;
	int c, positional;
	long value;

	opt->mode = MODE_DUMP;
	opt->message_level = ML_DEFAULT;
	opt->codec = CODEC_NONE;
	opt->dump_level = 0;
	while ((c = getopt_long(argc, argv, "b:cDd:EFfhi:lpRvz", long_options, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (parse_option_number(optarg, 0, 30, "Block order", &value))
				return -EINVAL;
			break;
		case 'c':
			opt->codec = CODEC_ZLIB;
			break;
		case 'l':
			opt->codec = CODEC_LZO;
			break;
		case 'p':
			opt->codec = CODEC_SNAPPY;
			break;
		case 'z':
			opt->codec = CODEC_ZSTD;
			break;
		case 'D':
			debug = true;
			break;
		case 'd':
			if (parse_dump_level(optarg, &opt->dump_level))
				return invalid_command_line();
			break;
		case 'E':
			opt->elf = true;
			break;
		case 'F':
			opt->flatten = true;
			break;
		case 'f':
			opt->force = true;
			break;
		case 'h':
			opt->mode = MODE_HELP;
			return 0;
		case 'i':
			opt->vmcoreinfo_file = optarg;
			break;
		case 'R':
			reassemble = true;
			break;
		case 'v':
			opt->mode = MODE_VERSION;
			return 0;
		case OPT_MESSAGE_LEVEL:
			if (parse_option_number(optarg, 0, ML_MAX, "Message_level", &value))
				return -EINVAL;
			opt->message_level = (int)value;
			break;
		case OPT_DUMP_KALLSYMS:
			dump_kallsyms = true;
			break;
		case OPT_DUMP_TYPE:
			opt->type_spec = optarg;
			break;
		case OPT_CYCLIC_BUFFER:
			if (parse_option_number(optarg, 1, 1L << 30, "Cyclic buffer size", &value))
				return -EINVAL;
			opt->cyclic_buffer_kib = (unsigned long)value;
			break;
		case OPT_EXTENSION:
			if (vec_reserve(opt->extension_names, &opt->extension_names_cap,
					opt->extensions.nr_names, 1))
				return print_error(&mdf_error_enomem);
			opt->extension_names[opt->extensions.nr_names++] = optarg;
			opt->extensions.names = opt->extension_names;
			break;
		case OPT_EXTENSION_DIR:
			opt->extensions.dir = optarg;
			break;
		case OPT_NO_EXTENSIONS:
			opt->extensions.disabled = true;
			break;
		case OPT_EXTENSION_TIMEOUT:
			if (parse_option_number(optarg, 1, 86400, "Extension timeout", &value))
				return -EINVAL;
			opt->extensions.timeout = (unsigned int)value;
			break;
		case OPT_EXTENSION_ARG:
			if (vec_reserve(opt->extension_args, &opt->extension_args_cap,
					opt->extensions.nr_args, 1))
				return print_error(&mdf_error_enomem);
			opt->extensions.args = opt->extension_args;
			if (print_error(extension_parse_arg(optarg,
							    &opt->extension_args[opt->extensions.nr_args])))
				return invalid_command_line();
			opt->extensions.nr_args++;
			break;
		case OPT_SPLIT:
			opt->split = true;
			break;
		case OPT_SPLITBLOCK_SIZE:
			if (parse_option_number(optarg, 1, 1L << 40, "The splitblock size", &value))
				return -EINVAL;
			opt->splitblock_kib = (unsigned long)value;
			break;
		case OPT_REASSEMBLE:
			reassemble_split = true;
			break;
		case OPT_CONFIG:
			opt->config_path = optarg;
			break;
		case OPT_ERASEINFO:
			eraseinfo = true;
			break;
		case OPT_DUMP_DMESG:
			dmesg = true;
			break;
		case OPT_MEM_USAGE:
			mem_usage = true;
			break;
		case OPT_NUM_THREADS:
			if (parse_option_number(optarg, 0, 4096, "Number of threads", &value))
				return -EINVAL;
			opt->num_threads = (int)value;
			opt->num_threads_set = true;
			break;
		default:
			return invalid_command_line();
		}
	}
	if (debug)
		opt->message_level |= ML_DEBUG;
	positional = argc - optind;
	if (reassemble) {
		opt->mode = MODE_REASSEMBLE_FLAT;
		if (positional != 1) {
			msg_error("-R takes one argument, the dump file to write (the stream comes on stdin)");
			return invalid_command_line();
		}
		opt->output = argv[optind];
		return 0;
	}
	if (dump_kallsyms) {
		opt->mode = MODE_DUMP_KALLSYMS;
		if (positional < 1 || positional > 2) {
			msg_error("--dump-kallsyms takes VMCORE and an optional OUTFILE");
			return invalid_command_line();
		}
		opt->vmcore = argv[optind];
		opt->output = positional == 2 ? argv[optind + 1] : NULL;
		return 0;
	}
	if (eraseinfo) {
		opt->mode = MODE_ERASEINFO;
		if (positional != 1) {
			msg_error("--eraseinfo takes one DUMPFILE");
			return invalid_command_line();
		}
		opt->vmcore = argv[optind];
		return 0;
	}
	if (opt->type_spec) {
		opt->mode = MODE_DUMP_TYPE;
		if (positional != 1) {
			msg_error("--dump-type takes [MODULE:]NAME[.MEMBER...] and VMCORE");
			return invalid_command_line();
		}
		opt->vmcore = argv[optind];
		return 0;
	}
	return parse_dump_arguments(argc, argv, opt, reassemble_split, dmesg, mem_usage);
}

/* Opens the dump and reads its VMCOREINFO (or -i's). */
static int open_dump(struct mdf_context *ctx)
{
	struct mdf_error *err = ctx->input ? NULL : input_open(ctx->opt.vmcore, &ctx->input);

	if (err)
		return print_error(err);
	if (ctx->opt.vmcoreinfo_file)
		return print_error(vmcoreinfo_load_file(ctx->opt.vmcoreinfo_file, &ctx->vmcoreinfo));
	if (!ctx->input->vmcoreinfo) {
		msg_error("%s: the dump has no VMCOREINFO note; give one with -i VMCOREINFO",
			  ctx->opt.vmcore);
		return -ENOENT;
	}
	return print_error(vmcoreinfo_parse(ctx->input->vmcoreinfo, ctx->input->vmcoreinfo_size,
					    ctx->opt.vmcore, &ctx->vmcoreinfo));
}

static int open_memory(struct mdf_context *ctx)
{
	const struct arch_ops *arch = arch_find(ctx->input->machine);
	struct mdf_error *err;
	int64_t page_size;

	/* The dump written carries this VMCOREINFO: readers trust its PAGESIZE. */
	if (vmcoreinfo_get(ctx->vmcoreinfo, "PAGESIZE") &&
	    !vmcoreinfo_plain_number(ctx->vmcoreinfo, "PAGESIZE", &page_size)) {
		msg_error("%s: VMCOREINFO's PAGESIZE=%.40s is not a number", ctx->opt.vmcore,
			  vmcoreinfo_get(ctx->vmcoreinfo, "PAGESIZE"));
		return -MDF_ECORRUPT;
	}
	if (vmcoreinfo_plain_number(ctx->vmcoreinfo, "PAGESIZE", &page_size) &&
	    page_size != ctx->input->page_size) {
		msg_error("%s: VMCOREINFO says PAGESIZE=%lld but the dump's pages are %u bytes",
			  ctx->opt.vmcore, (long long)page_size, ctx->input->page_size);
		return -MDF_ECORRUPT;
	}
	if (!arch) {
		msg_error("%s: a dump of a %s machine: not an architecture this makedumpfile reads",
			  ctx->opt.vmcore, ctx->input->machine);
		return -ENOTSUP;
	}
	err = memory_open(ctx->input, arch, ctx->vmcoreinfo, &ctx->memory);
	if (!err)
		err = kernel_new(ctx->memory, ctx->vmcoreinfo, &ctx->kernel);
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
		err = print_error(outfile_create(&out, ctx->opt.output, ctx->opt.force));
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
	if (!kernel_symbol(ctx->kernel, "init_uts_ns", &uts_ns)) {
		msg_warn("VMCOREINFO has no SYMBOL(init_uts_ns): the dump header's utsname stays empty");
		return;
	}
	kernel_offset(ctx->kernel, "uts_namespace.name", &name_offset);
	err = mem_read_virt(ctx->memory, uts_ns + (uint64_t)name_offset, uts, sizeof(*uts));
	if (err) {
		msg_warn("cannot read init_uts_ns at 0x%" PRIx64 " (%s): the dump header's utsname "
			 "stays empty", uts_ns, mdf_error_text(err));
		mdf_error_free(err);
		memset(uts, 0, sizeof(*uts));
	}
}

/* The kernel's estimate of the memory available to us, in KiB; 0 when unknown. */
static uint64_t mem_available_kib(void)
{
	uint64_t available = 0;
	char line[128];
	FILE *meminfo = fopen("/proc/meminfo", "re");

	while (meminfo && fgets(line, sizeof(line), meminfo))
		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &available) == 1)
			break;
	if (meminfo)
		fclose(meminfo);
	return available;
}

/*
 * Pfns per cycle.  With --cyclic-buffer KB each bitmap gets KB KiB, as
 * upstream.  Otherwise the bitmaps take at most 40% of the available
 * memory (upstream's share) and the 2nd at most 4 MiB (the writer builds
 * the 1st in small pieces), so that memory stays bounded whatever the
 * size of the dump: a dump of more than 128 GiB takes several cycles, and
 * each is classified twice, which reads its kept pages twice.
 */
#define MAX_AUTO_CYCLE_PFNS ((uint64_t)32 << 20)

static uint64_t cycle_pfns(const struct mdf_options *opt, uint64_t max_pfn)
{
	uint64_t available = mem_available_kib(), pfns;

	if (opt->cyclic_buffer_kib)
		return (uint64_t)opt->cyclic_buffer_kib * 1024 * 8;
	/* Two bitmaps, one bit each per pfn, in 40% of what is available. */
	pfns = available ? available * 1024 * 4 / 10 / 2 * 8 : MAX_AUTO_CYCLE_PFNS;
	if (pfns > MAX_AUTO_CYCLE_PFNS)
		pfns = MAX_AUTO_CYCLE_PFNS;
	if (pfns > max_pfn)
		pfns = max_pfn;
	pfns = (pfns + 7) & ~(uint64_t)7;
	return pfns < 4096 * 8 ? 4096 * 8 : pfns;
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
};

static int classify_cycle(void *ctx, uint64_t start_pfn, uint64_t end_pfn, uint8_t *present,
			  uint8_t *dumpable, struct page_counts *counts)
{
	struct page_source_ctx *source = ctx;

	page_scan_cycle(source->scan, start_pfn, end_pfn, present, dumpable, counts);
	return 0;
}

/*
 * As upstream: read, then erase, and only then look for a zero page.  A
 * page the dump does not hold is the writer's to word; one it holds but
 * cannot give is zeroed, and told after writing.
 */
static int read_input_page(void *ctx, uint64_t pfn, void *buf)
{
	struct page_source_ctx *source = ctx;
	struct mdf_error *err = input_read_page(source->input, pfn, buf);

	if (!err) {
		erase_set_apply(source->erase, pfn, buf);
		return 0;
	}
	if (err->shared || err->code == -ENOMEM)
		return mdf_error_print_unless_plain(err);
	memset(buf, 0, source->input->page_size);
	unreadable_pages_add(&source->unreadable, pfn, err);
	return -MDF_EUNREADABLE;
}

/*
 * The erase information of the new dump: what the input already had (a
 * dump re-filtered keeps it), then what this run erased in the pages it
 * wrote.
 */
static int dump_eraseinfo(void *ctx, char **text, size_t *len)
{
	struct page_source_ctx *source = ctx;
	char *before = NULL, *now = NULL;
	size_t before_len = 0, now_len = 0;
	int err = print_error(eraseinfo_read(source->input, &before, &before_len));

	if (!err)
		err = eraseinfo_text(source->erase, false, &now, &now_len);
	if (!err && (*text = malloc(before_len + now_len + 1))) {
		memcpy(*text, before ? before : "", before_len);
		memcpy(*text + before_len, now ? now : "", now_len + 1);
		*len = before_len + now_len;
	} else if (!err) {
		err = -ENOMEM;
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
	struct kdump_page_source source;
	struct page_counts counts;
	uint64_t max_pfn;
	uint64_t cycle_pfns;
};

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
	if (!err)
		err = print_error(page_scan_init(ctx->input, ctx->memory, ctx->kernel, dump_level, &job->scan));
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
	erase_set_sort(&job->erase);
	job->source_ctx.scan = job->scan;
	job->source_ctx.input = ctx->input;
	job->source_ctx.erase = &job->erase;
	job->source.classify = classify_cycle;
	job->source.read_page = read_input_page;
	job->source.eraseinfo = dump_eraseinfo;
	job->source.ctx = &job->source_ctx;
	job->max_pfn = page_scan_max_pfn(job->scan);
	job->cycle_pfns = cycle_pfns(&ctx->opt, job->max_pfn);
	msg_debug("dump level %d, %" PRIu64 " pfns, %" PRIu64 " per cycle", dump_level,
		  job->max_pfn, job->cycle_pfns);
	return 0;
}

static void end_job(struct dump_job *job)
{
	unreadable_pages_free(&job->source_ctx.unreadable);
	page_scan_free(job->scan);
	erase_set_free(&job->erase);
	page_decisions_free(&job->decisions);
	extension_results_free(&job->extensions);
}

/*
 * Threads compressing pages: --num-threads, or one per online CPU (none on
 * one CPU: the main thread reads and writes, and would only wait), at
 * most one per 16 MiB of available memory (a thread keeps ~4 MiB of
 * batches in flight).
 */
static unsigned int compression_threads(const struct mdf_options *opt)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t available = mem_available_kib();
	unsigned int threads;

	if (opt->num_threads_set)
		return (unsigned int)opt->num_threads;
	threads = cpus > 1 ? (unsigned int)(cpus > 64 ? 64 : cpus) : 0;
	if (available && threads > available / (16 << 10))
		threads = (unsigned int)(available / (16 << 10));
	return threads;
}

/* The kdump-compressed header's facts: from VMCOREINFO, or a kdump input's header. */
static void kdump_params(struct mdf_context *ctx, const struct dump_job *job,
			 struct kdump_utsname *uts, struct kdump_writer_params *params)
{
	const struct kdump_header_info *kdump = ctx->input->kdump;
	int64_t phys_base = 0, crash_time = 0;

	read_utsname(ctx, uts);
	if (!kernel_number(ctx->kernel, "phys_base", &phys_base) && kdump)
		phys_base = (int64_t)kdump->phys_base;
	vmcoreinfo_plain_number(ctx->vmcoreinfo, "CRASHTIME", &crash_time);
	params->dump_level = ctx->opt.dump_level;
	if (kdump) {
		/* Re-filtering keeps the crash time and what was excluded before. */
		crash_time = kdump->timestamp_sec;
		params->timestamp_usec = kdump->timestamp_usec;
		params->dump_level |= kdump->dump_level;
		if (params->dump_level != ctx->opt.dump_level)
			msg_info("The dump level of %s is %d: the new dump has level %d.",
				 ctx->opt.vmcore, kdump->dump_level, params->dump_level);
	}
	params->path = ctx->opt.output;
	params->force = ctx->opt.force;
	params->flatten = ctx->opt.flatten;
	params->codec = (enum mdf_codec)ctx->opt.codec;
	params->page_size = ctx->input->page_size;
	params->max_pfn = job->max_pfn;
	params->phys_base = (uint64_t)phys_base;
	params->uts = uts;
	params->timestamp_sec = crash_time;
	params->nr_cpus = kdump ? kdump->nr_cpus
				: kdump_count_cpus(ctx->input->notes, ctx->input->notes_size);
	params->notes = ctx->input->notes;
	params->notes_size = ctx->input->notes_size;
	params->cycle_pfns = job->cycle_pfns;
	params->threads = compression_threads(&ctx->opt);
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

static int write_elf(struct mdf_context *ctx, struct dump_job *job, struct report_totals *totals)
{
	struct elf_writer_params params = {
		.path = ctx->opt.output,
		.force = ctx->opt.force,
		.flatten = ctx->opt.flatten,
		.dump_level = ctx->opt.dump_level,
		.page_size = ctx->input->page_size,
		.max_pfn = job->max_pfn,
		.cycle_pfns = job->cycle_pfns,
		.keep = &job->decisions.keep,
	};
	struct elf_write_result result = { 0 };
	struct elf_segments segs;
	struct mdf_error *failure;
	int err;

	err = print_error(elf_segments_read(ctx->input, &segs));
	if (err)
		return err;
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

static int run_dump(struct mdf_context *ctx)
{
	struct dump_job job = { 0 };
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
		report_saved(output);
	}
	end_job(&job);
	return err;
}

/*
 * --split: the pfn ranges first, then one kdump-compressed file each.
 * The classification counts are the same for every part; the zero pages
 * are counted by the part that holds them.
 */
static int run_split(struct mdf_context *ctx)
{
	unsigned int nr = ctx->opt.nr_dumpfiles;
	struct split_part *parts = calloc(nr, sizeof(*parts));
	struct kdump_writer_params params = { 0 };
	struct dump_job job = { 0 };
	struct report_totals totals = { .counts = &job.counts };
	struct kdump_utsname uts;
	uint64_t block;
	int err;

	err = parts ? start_job(ctx, ctx->opt.dump_level, true, &job)
		    : print_error(&mdf_error_enomem);
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

		params.path = ctx->opt.dumpfiles[i];
		params.start_pfn = parts[i].start_pfn;
		params.end_pfn = parts[i].end_pfn;
		failure = kdump_write(&params, &job.source, i ? &counts : &job.counts, &result);
		err = print_write_failure(failure, &result.fate);
		job.counts.zero += counts.zero;
		totals.pfn_present = result.pfn_present;
		totals.bytes_written += result.bytes_written;
	}
	if (!err) {
		totals.max_pfn = job.max_pfn;
		report_print(&totals);
		report_extensions(&job.extensions);
		mdf_error_print(unreadable_pages_error(&job.source_ctx.unreadable,
						       "Each part that lacks one"), true);
		report_saved_split(ctx->opt.dumpfiles, nr);
	}
out:
	end_job(&job);
	free(parts);
	return err;
}

static int run_dump_dmesg(struct mdf_context *ctx)
{
	struct outfile out;
	int err;

	err = open_dump(ctx);
	if (!err)
		err = open_memory(ctx);
	if (!err)
		err = print_error(outfile_create(&out, ctx->opt.output, ctx->opt.force));
	if (err)
		return err;
	err = print_error(printk_dump(ctx->memory, ctx->kernel, out.stream, out.path));
	if (err) {
		outfile_abort(&out);
		return err;
	}
	err = print_error(outfile_finish(&out));
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

	/* /proc/kcore, or a vmcore: then start_job opens it as one. */
	err = print_error(kcore_input_open(ctx->opt.vmcore, &ctx->input));
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

static void close_context(struct mdf_context *ctx)
{
	erase_config_free(ctx->erase_config);
	kernel_free(ctx->kernel);
	memory_close(ctx->memory);
	vmcoreinfo_free(ctx->vmcoreinfo);
	input_close(ctx->input);
	extension_args_free(ctx->opt.extension_args, ctx->opt.extensions.nr_args);
	free(ctx->opt.extension_names);
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

/* Whether @a and @b name the same existing file, through links or not. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/*
 * An output that is one of the inputs would be truncated before it is
 * read: -f must not destroy the dump it was asked to filter.
 */
static int check_output_is_not_input(const struct mdf_options *opt)
{
	const char *inputs[] = { opt->vmcore, opt->vmcoreinfo_file, opt->config_path };
	bool split_writes = opt->mode == MODE_SPLIT;

	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		for (unsigned int j = 0; split_writes && j < opt->nr_dumpfiles; j++)
			if (same_file(opt->dumpfiles[j], inputs[i]))
				goto same;
		if (same_file(opt->output, inputs[i]))
			goto same;
		continue;
same:
		msg_error("the output is the input %s (the same file): it is not overwritten", inputs[i]);
		return -EINVAL;
	}
	for (unsigned int j = 0; opt->mode == MODE_REASSEMBLE_SPLIT && j < opt->nr_dumpfiles; j++) {
		if (same_file(opt->output, opt->dumpfiles[j])) {
			msg_error("the output is the input %s (the same file): it is not overwritten",
				  opt->dumpfiles[j]);
			return -EINVAL;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct mdf_context ctx = { 0 };
	int err;

	err = parse_options(argc, argv, &ctx.opt);
	if (err) {
		close_context(&ctx);
		return EXIT_FAILURE;
	}
	msg_set_level(ctx.opt.message_level);
	if (check_output_is_not_input(&ctx.opt)) {
		close_context(&ctx);
		return EXIT_FAILURE;
	}
	catch_interruptions(&ctx.opt);
	msg_set_stdout_is_data((ctx.opt.flatten && ctx.opt.mode != MODE_MEM_USAGE) ||
			       (ctx.opt.mode == MODE_DUMP_KALLSYMS && !ctx.opt.output) ||
			       ctx.opt.mode == MODE_DUMP_TYPE || ctx.opt.mode == MODE_ERASEINFO);
	/* A config with a syntax error stops the run before the dump is touched. */
	if (ctx.opt.config_path && print_error(erase_config_load(ctx.opt.config_path, &ctx.erase_config))) {
		close_context(&ctx);
		return EXIT_FAILURE;
	}
	/* A reader of the flattened stream that goes away is a write error, not a kill. */
	if (ctx.opt.flatten)
		signal(SIGPIPE, SIG_IGN);
	switch (ctx.opt.mode) {
	case MODE_HELP:
		print_usage(stdout);
		break;
	case MODE_VERSION:
		printf("makedumpfile: version %s (kallsyms/BTF rebuild)\n", MDF_VERSION);
		/* upstream's lines, which scripts read to learn what -c/-l/-p/-z can do */
		printf("zlib\tenabled (%s)\nlzo\tenabled\nsnappy\tenabled\nzstd\tenabled\n",
		       zlib_encoder_library());
		break;
	case MODE_REASSEMBLE_FLAT:
		err = print_error(flat_reassemble(STDIN_FILENO, "standard input",
							 ctx.opt.output, ctx.opt.force));
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
					       &fate);
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
	case MODE_MEM_USAGE:
		err = run_mem_usage(&ctx);
		/* Upstream says only when the table could not be made. */
		if (err)
			report_finished(false);
		break;
	}
	close_context(&ctx);
	return err ? EXIT_FAILURE : EXIT_SUCCESS;
}
