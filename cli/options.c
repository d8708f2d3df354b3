// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line; options.h says what it checks.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/options.h"
#include "codec/codec.h"
#include "scan/page_rules.h"
#include "util/error.h"
#include "util/message.h"
#include "util/vec.h"

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
	OPT_PARTIAL_DMESG,
	OPT_MEM_USAGE,
	OPT_CHECK_PARAMS,
	OPT_DRY_RUN,
	OPT_SHOW_STATS,
	OPT_WORK_DIR,
	OPT_NON_MMAP,
	OPT_VTOP,
	OPT_XEN_SYMS,
	OPT_XEN_VMCOREINFO,
	OPT_XEN_PHYS_START,
	OPT_DISKSET,
	OPT_EPPIC,
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
	{ "partial-dmesg", no_argument, NULL, OPT_PARTIAL_DMESG },
	{ "mem-usage", no_argument, NULL, OPT_MEM_USAGE },
	{ "check-params", no_argument, NULL, OPT_CHECK_PARAMS },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "show-stats", no_argument, NULL, OPT_SHOW_STATS },
	{ "work-dir", required_argument, NULL, OPT_WORK_DIR },
	{ "non-mmap", no_argument, NULL, OPT_NON_MMAP },
	{ "vtop", required_argument, NULL, OPT_VTOP },
	{ "xen-syms", required_argument, NULL, OPT_XEN_SYMS },
	{ "xen-vmcoreinfo", required_argument, NULL, OPT_XEN_VMCOREINFO },
	{ "xen_phys_start", required_argument, NULL, OPT_XEN_PHYS_START },
	{ "diskset", required_argument, NULL, OPT_DISKSET },
	{ "eppic", required_argument, NULL, OPT_EPPIC },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};

#define XEN_ELSEWHERE "Xen dumps are not read here; upstream makedumpfile reads them"

/* Upstream's options for dumps and scripts this makedumpfile does not read, and what to use. */
static const struct refused_option {
	int code;
	const char *name;
	const char *instead;
} refused_options[] = {
	{ 'X', "-X", XEN_ELSEWHERE },
	{ OPT_XEN_SYMS, "--xen-syms", XEN_ELSEWHERE },
	{ OPT_XEN_VMCOREINFO, "--xen-vmcoreinfo", XEN_ELSEWHERE },
	{ OPT_XEN_PHYS_START, "--xen_phys_start", XEN_ELSEWHERE },
	{ OPT_DISKSET, "--diskset", "sadump disks are not read here; upstream makedumpfile reads them" },
	{ OPT_EPPIC, "--eppic",
	  "eppic macros are not run here; the jobs of upstream's eppic scripts are extensions: "
	  "--extension-dir " EPPIC_DIR " runs them all, --extension NAME.so one of them "
	  "(see " EPPIC_DIR "/README)" },
};

void options_print_usage(FILE *out)
{
	fprintf(out,
		"Usage:\n"
		"  makedumpfile [-c|-l|-p|-z|-E] [-d DL] [-f] [-i VMCOREINFO] [--config FILE] VMCORE DUMPFILE\n"
		"  makedumpfile -F [-c|-l|-p|-z|-E] [-d DL] [-i VMCOREINFO] VMCORE\n"
		"  makedumpfile -R DUMPFILE < FLATTENED_DUMP\n"
		"  makedumpfile --split [-c|-l|-p|-z] [-d DL] VMCORE DUMPFILE1 DUMPFILE2 [...]\n"
		"  makedumpfile --reassemble DUMPFILE1 DUMPFILE2 [...] DUMPFILE\n"
		"  makedumpfile --dump-dmesg [--partial-dmesg] [-i VMCOREINFO] VMCORE LOGFILE\n"
		"  makedumpfile --mem-usage [-i VMCOREINFO] VMCORE   (/proc/kcore on a live system)\n"
		"  makedumpfile --eraseinfo DUMPFILE\n"
		"  makedumpfile -g VMCOREINFO -x VMLINUX\n"
		"  makedumpfile --dump-kallsyms [-i VMCOREINFO] VMCORE [OUTFILE]\n"
		"  makedumpfile --dump-type [MODULE:]NAME[.MEMBER...][,...] [-i VMCOREINFO] VMCORE\n"
		"  makedumpfile --check-params OPTIONS...   (check the options and stop)\n"
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
		"  -L SIZE            write at most SIZE bytes (K, M, G... suffixes) of each dump\n"
		"                     file (or dmesg log); a dump cut there is kept, marked\n"
		"                     incomplete\n"
		"  -e                 leave out the pages of struct pages that describe only\n"
		"                     pages left out (kdump-compressed dumps)\n"
		"  -i VMCOREINFO      read VMCOREINFO from this file instead of the dump\n"
		"  -x VMLINUX         take the kernel's symbols and types from this vmlinux (with\n"
		"                     DWARF), which must be the dump's kernel\n"
		"  -g VMCOREINFO      write the VMCOREINFO of the vmlinux -x gives to this file\n"
		"  -b ORDER           accepted for compatibility (write buffering is automatic)\n"
		"  -D                 print debugging messages\n"
		"  --check-params     check the options as a run would, then stop: read nothing,\n"
		"                     write nothing; exit 0 if they are valid, 1 if not\n"
		"  --dry-run          do everything but write the dump file\n"
		"  --show-stats       print the report of pages left out (--message-level bit 16)\n"
		"  --split            write the dump as several files, each a range of pfns\n"
		"  --splitblock-size KB  split at multiples of this much memory (default 1 GiB)\n"
		"  --reassemble       put the files of a split dump back into one\n"
		"  --config FILE      erase, in the pages written, the data the filter config FILE\n"
		"                     names (makedumpfile.conf(5))\n"
		"  --eraseinfo        print what DUMPFILE says was erased from it\n"
		"  --dump-dmesg       write the kernel log of the dump to LOGFILE\n"
		"  --partial-dmesg    with --dump-dmesg: only the log since it was last cleared\n"
		"  --mem-usage        print how many pages of each kind the memory holds\n"
		"  --vtop VADDR       print the physical address of the kernel virtual address VADDR\n"
		"  --cyclic-buffer KB bitmap buffer per cycle, in KiB (default: from free memory)\n"
		"  --num-threads N    compress pages on N threads (default: one per CPU)\n"
		"  --work-dir DIR     accepted: no temporary file is written (bitmaps stay in memory)\n"
		"  --non-mmap         read /proc/vmcore with read(2), not through mmap(2)\n"
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
		"  -h                 print this help\n"
		"\n"
		"Not here: -X, --xen-syms, --xen-vmcoreinfo, --xen_phys_start (Xen dumps) and\n"
		"--diskset (sadump): upstream makedumpfile reads those; --eppic: the jobs of\n"
		"upstream's eppic scripts are the extensions of " EPPIC_DIR ".\n");
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

/* -L: bytes, in upstream's form (its memparse()): a C number, then K, M, G, T, P or E. */
static int parse_size_limit(const char *text, uint64_t *bytes)
{
	static const char suffixes[] = "kmgtpe";
	unsigned long long value;
	const char *suffix;
	char *end;

	errno = 0;
	value = strtoull(text, &end, 0);
	if (errno || end == text || *text == '-')
		goto invalid;
	if (*end && (suffix = strchr(suffixes, *end | 0x20))) {
		for (size_t shift = 0; shift <= (size_t)(suffix - suffixes); shift++) {
			if (value > ULLONG_MAX >> 10)
				goto invalid;
			value <<= 10;
		}
		end++;
	}
	if (*end || value == 0)
		goto invalid;
	*bytes = value;
	return 0;
invalid:
	msg_error("Limit size(%s) is invalid.", text);
	return invalid_command_line();
}

/* --vtop: a kernel virtual address, in any base strtoull() reads (0x... as upstream's). */
static int parse_address(const char *text, uint64_t *address)
{
	unsigned long long value;
	char *end;

	errno = 0;
	value = strtoull(text, &end, 0);
	if (errno || end == text || *end || *text == '-') {
		msg_error("--vtop: %s is not an address", text);
		return invalid_command_line();
	}
	*address = value;
	return 0;
}

/*
 * -d takes a comma-separated list of up to DL_MAX + 1 levels; upstream
 * dumps at the first, and at the next each time the disk is full.
 */
static int parse_dump_level(const char *text, struct mdf_options *opt)
{
	char *copy = strdup(text), *item, *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	opt->nr_dump_levels = 0;
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		long value;

		if (parse_number(item, 0, DL_MAX, &value)) {
			msg_error("Dump_level(%s) is invalid.", item);
			err = -EINVAL;
			break;
		}
		if (opt->nr_dump_levels == DL_MAX + 1) {
			msg_error("Dump_level is invalid.");
			err = -EINVAL;
			break;
		}
		opt->dump_levels[opt->nr_dump_levels++] = (int)value;
	}
	if (!err && !opt->nr_dump_levels) {
		msg_error("Dump_level is invalid.");
		err = -EINVAL;
	}
	if (!err)
		opt->dump_level = opt->dump_levels[0];
	free(copy);
	return err;
}

static int refuse_option(int code)
{
	for (size_t i = 0; i < sizeof(refused_options) / sizeof(refused_options[0]); i++) {
		if (refused_options[i].code == code) {
			msg_error("%s: %s.", refused_options[i].name, refused_options[i].instead);
			break;
		}
	}
	return invalid_command_line();
}

/* The mode's name in messages, as the option that chose it. */
static const char *mode_option(enum mdf_mode mode)
{
	switch (mode) {
	case MODE_REASSEMBLE_FLAT:
		return "-R";
	case MODE_DUMP_KALLSYMS:
		return "--dump-kallsyms";
	case MODE_DUMP_TYPE:
		return "--dump-type";
	case MODE_REASSEMBLE_SPLIT:
		return "--reassemble";
	case MODE_DUMP_DMESG:
		return "--dump-dmesg";
	case MODE_MEM_USAGE:
		return "--mem-usage";
	case MODE_ERASEINFO:
		return "--eraseinfo";
	case MODE_SPLIT:
		return "--split";
	case MODE_GENERATE_VMCOREINFO:
		return "-g";
	default:
		return "this mode";
	}
}

/*
 * The options that belong to some modes only, once the mode is known:
 * upstream's refusals with upstream's words, and ours for our own modes.
 */
static int check_mode_options(const struct mdf_options *opt)
{
	bool writes_dump = opt->mode == MODE_DUMP || opt->mode == MODE_SPLIT;

	if (opt->dry_run && !writes_dump && opt->mode != MODE_REASSEMBLE_FLAT &&
	    opt->mode != MODE_MEM_USAGE) {
		msg_error("--dry-run cannot be used with %s.", mode_option(opt->mode));
		return invalid_command_line();
	}
	/* Upstream limits the files of these modes too; the listings' it does not. */
	if (opt->size_limit && !writes_dump && opt->mode != MODE_REASSEMBLE_FLAT &&
	    opt->mode != MODE_REASSEMBLE_SPLIT && opt->mode != MODE_DUMP_DMESG) {
		msg_error("-L limits the dump files and the dmesg log written; it cannot be used "
			  "with %s.", mode_option(opt->mode));
		return invalid_command_line();
	}
	if (opt->partial_dmesg && opt->mode != MODE_DUMP_DMESG) {
		msg_error("--partial-dmesg goes with --dump-dmesg.");
		return invalid_command_line();
	}
	if (opt->exclude_vmemmap && (!writes_dump || opt->elf)) {
		msg_error("-e leaves pages out of a kdump-compressed dump file, whose header says so; "
			  "it cannot be used with %s.", opt->elf ? "-E" : mode_option(opt->mode));
		return invalid_command_line();
	}
	return 0;
}

/* The options that choose a mode, as given. */
struct mode_options {
	bool reassemble_flat;   /* -R */
	bool dump_kallsyms;
	bool eraseinfo;
	bool reassemble_split;  /* --reassemble */
	bool dmesg;
	bool mem_usage;
};

/*
 * The positional arguments of the modes that read a dump or a split dump's
 * files, with upstream's checks of which options go together.
 */
static int parse_dump_arguments(int argc, char **argv, struct mdf_options *opt,
				const struct mode_options *modes)
{
	int positional = argc - optind;
	bool dmesg = modes->dmesg, mem_usage = modes->mem_usage;

	if (modes->reassemble_split) {
		opt->mode = MODE_REASSEMBLE_SPLIT;
		if (positional < 2 || opt->codec || opt->dump_level || opt->elf || opt->flatten ||
		    opt->vmcoreinfo_file || opt->vmlinux || opt->split)
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

/* The mode the options chose, and its positional arguments. */
static int parse_mode(int argc, char **argv, struct mdf_options *opt, const struct mode_options *modes)
{
	int positional = argc - optind;

	/* As upstream: -g takes -x alone; VMCOREINFO comes from -i or -x, not both. */
	if (opt->mode == MODE_GENERATE_VMCOREINFO)
		return positional || !opt->vmlinux || opt->codec || opt->dump_level || opt->elf ||
				       opt->flatten || opt->vmcoreinfo_file || modes->reassemble_flat
			       ? invalid_command_line()
			       : 0;
	if (opt->vmlinux && opt->vmcoreinfo_file)
		return invalid_command_line();

	if (modes->reassemble_flat) {
		opt->mode = MODE_REASSEMBLE_FLAT;
		if (positional != 1) {
			msg_error("-R takes one argument, the dump file to write (the stream comes on stdin)");
			return invalid_command_line();
		}
		/* The stream decides the format: upstream refuses options that would choose it. */
		if (opt->codec || opt->dump_level || opt->elf || opt->vmcoreinfo_file || opt->vmlinux ||
		    opt->flatten) {
			msg_error("-R writes the dump the flattened stream holds: -c, -l, -p, -z, -d, "
				  "-E, -F, -i and -x cannot be used with it.");
			return invalid_command_line();
		}
		opt->output = argv[optind];
		return 0;
	}
	if (modes->dump_kallsyms) {
		opt->mode = MODE_DUMP_KALLSYMS;
		if (positional < 1 || positional > 2) {
			msg_error("--dump-kallsyms takes VMCORE and an optional OUTFILE");
			return invalid_command_line();
		}
		opt->vmcore = argv[optind];
		opt->output = positional == 2 ? argv[optind + 1] : NULL;
		return 0;
	}
	if (modes->eraseinfo) {
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
	return parse_dump_arguments(argc, argv, opt, modes);
}

int options_parse(int argc, char **argv, struct mdf_options *opt)
{
	struct mode_options modes = { 0 };
	bool debug = false, show_stats = false;
	struct mdf_error *error;
	int c, err;
	long value;

	opt->mode = MODE_DUMP;
	opt->message_level = ML_DEFAULT;
	opt->codec = CODEC_NONE;
	opt->dump_level = 0;
	while ((c = getopt_long(argc, argv, "b:cDd:eEFfg:hi:lL:pRvXx:z", long_options, NULL)) != -1) {
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
			if (parse_dump_level(optarg, opt))
				return invalid_command_line();
			break;
		case 'e':
			opt->exclude_vmemmap = true;
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
		case 'g':
			opt->mode = MODE_GENERATE_VMCOREINFO;
			opt->output = optarg;
			break;
		case 'i':
			opt->vmcoreinfo_file = optarg;
			break;
		case 'x':
			opt->vmlinux = optarg;
			break;
		case 'L':
			if (parse_size_limit(optarg, &opt->size_limit))
				return -EINVAL;
			break;
		case 'R':
			modes.reassemble_flat = true;
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
			modes.dump_kallsyms = true;
			break;
		case OPT_DUMP_TYPE:
			opt->type_spec = optarg;
			break;
		case OPT_CYCLIC_BUFFER:
			/* 0, as upstream: sized from the free memory. */
			if (parse_option_number(optarg, 0, 1L << 30, "Cyclic buffer size", &value))
				return -EINVAL;
			opt->cyclic_buffer_kib = (unsigned long)value;
			break;
		case OPT_EXTENSION:
			if (vec_reserve(opt->extension_names, &opt->extension_names_cap,
					opt->extensions.nr_names, 1))
				return mdf_error_print(&mdf_error_enomem, false);
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
				return mdf_error_print(&mdf_error_enomem, false);
			opt->extensions.args = opt->extension_args;
			error = extension_parse_arg(optarg, &opt->extension_args[opt->extensions.nr_args]);
			if (error) {
				mdf_error_print(error, false);
				return invalid_command_line();
			}
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
			modes.reassemble_split = true;
			break;
		case OPT_CONFIG:
			opt->config_path = optarg;
			break;
		case OPT_ERASEINFO:
			modes.eraseinfo = true;
			break;
		case OPT_DUMP_DMESG:
			modes.dmesg = true;
			break;
		case OPT_PARTIAL_DMESG:
			opt->partial_dmesg = true;
			break;
		case OPT_MEM_USAGE:
			modes.mem_usage = true;
			break;
		case OPT_NUM_THREADS:
			if (parse_option_number(optarg, 0, 4096, "Number of threads", &value))
				return -EINVAL;
			opt->num_threads = (int)value;
			opt->num_threads_set = true;
			break;
		case OPT_CHECK_PARAMS:
			opt->check_params = true;
			break;
		case OPT_DRY_RUN:
			opt->dry_run = true;
			break;
		case OPT_SHOW_STATS:
			show_stats = true;
			break;
		case OPT_WORK_DIR:
			opt->work_dir = optarg;
			break;
		case OPT_NON_MMAP:
			opt->non_mmap = true;
			break;
		case OPT_VTOP:
			if (parse_address(optarg, &opt->vtop_address))
				return -EINVAL;
			opt->vtop = true;
			break;
		case 'X':
		case OPT_XEN_SYMS:
		case OPT_XEN_VMCOREINFO:
		case OPT_XEN_PHYS_START:
		case OPT_DISKSET:
		case OPT_EPPIC:
			return refuse_option(c);
		default:
			return invalid_command_line();
		}
	}
	if (debug)
		opt->message_level |= ML_DEBUG;
	if (show_stats)
		opt->message_level |= ML_REPORT;
	err = parse_mode(argc, argv, opt, &modes);
	return err ? err : check_mode_options(opt);
}

/* Whether @a and @b name the same existing file, through links or not. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return a && b && stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

int options_check_files(const struct mdf_options *opt)
{
	const char *inputs[] = { opt->vmcore, opt->vmcoreinfo_file, opt->config_path, opt->vmlinux };
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

void options_note_accepted(const struct mdf_options *opt)
{
	/* SUSE's kdump passes it on every run: worth a word only when asked for. */
	if (opt->work_dir)
		msg_debug("--work-dir %s: not used: the bitmaps stay in memory (--cyclic-buffer "
			  "bounds them) and no temporary file is written.", opt->work_dir);
}

void options_free(struct mdf_options *opt)
{
	extension_args_free(opt->extension_args, opt->extensions.nr_args);
	free(opt->extension_names);
}
