// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * makedumpfile: command line and orchestration.
 *
 * Each mode runs the steps of the data flow it needs, in order: open the
 * dump, read VMCOREINFO, set up the memory reader, decode symbols, then the
 * mode's own work.  Every step prints its own precise error; this file only
 * decides the exit status and cleans up.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "flat.h"
#include "input.h"
#include "kallsyms.h"
#include "makedumpfile.h"
#include "memory.h"
#include "message.h"
#include "outfile.h"
#include "vmcoreinfo.h"

enum long_option {
	OPT_MESSAGE_LEVEL = 256,
	OPT_DUMP_KALLSYMS,
};

static const struct option long_options[] = {
	{ "message-level", required_argument, NULL, OPT_MESSAGE_LEVEL },
	{ "dump-kallsyms", no_argument, NULL, OPT_DUMP_KALLSYMS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};

static void print_usage(FILE *out)
{
	fprintf(out,
		"Usage:\n"
		"  makedumpfile [-f] [-i VMCOREINFO] VMCORE DUMPFILE\n"
		"  makedumpfile -R DUMPFILE < FLATTENED_DUMP\n"
		"  makedumpfile --dump-kallsyms [-i VMCOREINFO] VMCORE [OUTFILE]\n"
		"  makedumpfile -v | -h\n"
		"\n"
		"Options:\n"
		"  -i VMCOREINFO      read VMCOREINFO from this file instead of the dump\n"
		"  -f                 overwrite an existing output file\n"
		"  -R                 reassemble a flattened dump read from standard input\n"
		"  --dump-kallsyms    print the dump's kernel symbols as /proc/kallsyms does\n"
		"  --message-level N  0..31: 1 progress, 2 common, 4 errors, 8 debug, 16 report\n"
		"  -v                 print the version\n"
		"  -h                 print this help\n");
}

static int parse_int(const char *text, const char *what, int min, int max, int *value)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 0);
	if (errno || *end || end == text || v < min || v > max) {
		msg_error("invalid %s \"%s\" (expected %d..%d)", what, text, min, max);
		return -EINVAL;
	}
	*value = (int)v;
	return 0;
}

static int parse_options(int argc, char **argv, struct mdf_options *opt)
{
	bool reassemble = false, dump_kallsyms = false;
	int c, positional;

	opt->mode = MODE_DUMP;
	opt->message_level = ML_DEFAULT;
	while ((c = getopt_long(argc, argv, "fhi:Rv", long_options, NULL)) != -1) {
		switch (c) {
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
			if (parse_int(optarg, "message level", 0, ML_MAX, &opt->message_level))
				return -EINVAL;
			break;
		case OPT_DUMP_KALLSYMS:
			dump_kallsyms = true;
			break;
		default:
			msg_error("try 'makedumpfile -h' for the options");
			return -EINVAL;
		}
	}
	positional = argc - optind;
	if (reassemble) {
		opt->mode = MODE_REASSEMBLE_FLAT;
		if (positional != 1) {
			msg_error("-R takes one argument, the dump file to write (the stream comes on stdin)");
			return -EINVAL;
		}
		opt->output = argv[optind];
		return 0;
	}
	if (dump_kallsyms) {
		opt->mode = MODE_DUMP_KALLSYMS;
		if (positional < 1 || positional > 2) {
			msg_error("--dump-kallsyms takes VMCORE and an optional OUTFILE");
			return -EINVAL;
		}
		opt->vmcore = argv[optind];
		opt->output = positional == 2 ? argv[optind + 1] : NULL;
		return 0;
	}
	if (positional != 2) {
		msg_error("expected VMCORE and DUMPFILE; try 'makedumpfile -h'");
		return -EINVAL;
	}
	opt->vmcore = argv[optind];
	opt->output = argv[optind + 1];
	return 0;
}

/* Opens the dump and reads its VMCOREINFO (or -i's). */
static int open_dump(struct mdf_context *ctx)
{
	int err = input_open(ctx->opt.vmcore, &ctx->input);

	if (err)
		return err;
	if (ctx->opt.vmcoreinfo_file)
		return vmcoreinfo_load_file(ctx->opt.vmcoreinfo_file, &ctx->vmcoreinfo);
	if (!ctx->input->vmcoreinfo) {
		msg_error("%s: the dump has no VMCOREINFO note; give one with -i VMCOREINFO",
			  ctx->opt.vmcore);
		return -ENOENT;
	}
	return vmcoreinfo_parse(ctx->input->vmcoreinfo, ctx->input->vmcoreinfo_size,
				ctx->opt.vmcore, &ctx->vmcoreinfo);
}

static int open_memory(struct mdf_context *ctx)
{
	int64_t page_size;

	if (vmcoreinfo_plain_number(ctx->vmcoreinfo, "PAGESIZE", &page_size) &&
	    page_size != ctx->input->page_size) {
		msg_error("%s: VMCOREINFO says PAGESIZE=%lld but the dump's pages are %u bytes",
			  ctx->opt.vmcore, (long long)page_size, ctx->input->page_size);
		return -MDF_ECORRUPT;
	}
	return memory_open(ctx->input, &arch_x86_64, ctx->vmcoreinfo, &ctx->memory);
}

static int run_dump_kallsyms(struct mdf_context *ctx)
{
	struct outfile out;
	int err;

	err = open_dump(ctx);
	if (!err)
		err = open_memory(ctx);
	if (!err)
		err = kallsyms_load_kernel(ctx->memory, ctx->vmcoreinfo, &ctx->kallsyms);
	if (!err)
		err = outfile_create(&out, ctx->opt.output, ctx->opt.force);
	if (err)
		return err;
	err = kallsyms_write(ctx->kallsyms, out.stream);
	if (err) {
		msg_error("%s: write failed: %s", out.path, strerror(-err));
		outfile_abort(&out);
		return err;
	}
	return outfile_finish(&out);
}

static void close_context(struct mdf_context *ctx)
{
	kallsyms_free(ctx->kallsyms);
	memory_close(ctx->memory);
	vmcoreinfo_free(ctx->vmcoreinfo);
	input_close(ctx->input);
}

int main(int argc, char **argv)
{
	struct mdf_context ctx = { 0 };
	int err;

	err = parse_options(argc, argv, &ctx.opt);
	if (err)
		return EXIT_FAILURE;
	msg_set_level(ctx.opt.message_level);
	switch (ctx.opt.mode) {
	case MODE_HELP:
		print_usage(stdout);
		return EXIT_SUCCESS;
	case MODE_VERSION:
		printf("makedumpfile: version %s (kallsyms/BTF rebuild)\n", MDF_VERSION);
		return EXIT_SUCCESS;
	case MODE_REASSEMBLE_FLAT:
		err = flat_reassemble(STDIN_FILENO, "standard input", ctx.opt.output, ctx.opt.force);
		break;
	case MODE_DUMP_KALLSYMS:
		err = run_dump_kallsyms(&ctx);
		break;
	case MODE_DUMP:
		msg_error("writing dump files is not implemented yet");
		err = -ENOSYS;
		break;
	}
	close_context(&ctx);
	return err ? EXIT_FAILURE : EXIT_SUCCESS;
}
