// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * erasetool: what a run would erase, without writing a dump: the filter
 * config and the extensions' erase requests resolved against a dump.
 *
 *   erasetool VMCORE plan [OPTIONS]   the planned eraseinfo (every request
 *                                     whole), then "piece PADDR LEN FILL"
 *                                     per piece, sorted
 *
 * OPTIONS: --config FILE, --extension-dir DIR, --extension-arg NAME:KEY=VALUE,
 * -d LEVEL (default 0), --message-level N (default: errors only).
 * Exit status 0, 1 on failure (said on stderr), 2 on bad usage.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "erase/config.h"
#include "erase/erase_set.h"
#include "extension/host.h"
#include "input/dump_input.h"
#include "input/vmcoreinfo.h"
#include "kernel/kernel.h"
#include "memory/reader.h"
#include "scan/page_scan.h"
#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "util/message.h"

struct tool {
	const char *config_path;
	int dump_level;
	struct extension_options ext;
	struct extension_arg args[8];
	struct dump_input *in;
	struct vmcoreinfo *vi;
	struct memory *mem;
	struct kernel *kernel;
	struct page_scan *scan;
	struct erase_config *config;
	struct erase_set erase;
	struct page_decisions decisions;
	struct extension_results results;
};

static int usage(void)
{
	fprintf(stderr, "usage: erasetool VMCORE plan [--config FILE] [--extension-dir DIR] "
		"[--extension-arg A] [-d LEVEL]\n");
	return 2;
}

static int parse_options(struct tool *t, int argc, char **argv)
{
	static const struct option options[] = {
		{ "config", required_argument, NULL, 'C' },
		{ "extension-dir", required_argument, NULL, 'E' },
		{ "extension-arg", required_argument, NULL, 'A' },
		{ "message-level", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	t->ext.disabled = true;
	t->ext.timeout = EXTENSION_DEFAULT_TIMEOUT;
	t->ext.args = t->args;
	while ((c = getopt_long(argc, argv, "d:", options, NULL)) != -1) {
		switch (c) {
		case 'C':
			t->config_path = optarg;
			break;
		case 'E':
			t->ext.dir = optarg;
			t->ext.disabled = false;
			break;
		case 'A':
			if (t->ext.nr_args == sizeof(t->args) / sizeof(*t->args) ||
			    mdf_error_print(extension_parse_arg(optarg, &t->args[t->ext.nr_args]), false))
				return -EINVAL;
			t->ext.nr_args++;
			break;
		case 'm':
			msg_set_level(atoi(optarg));
			break;
		case 'd':
			t->dump_level = atoi(optarg);
			break;
		default:
			return -EINVAL;
		}
	}
	return 0;
}

/* Opens the dump, classifies it, and gathers the erasures of the config and the extensions. */
static struct mdf_error *prepare(struct tool *t, const char *vmcore)
{
	struct extension_env env;
	const struct arch_ops *arch;
	struct mdf_error *err = NULL;

	if (t->config_path)
		err = erase_config_load(t->config_path, &t->config);
	if (!err)
		err = input_open(vmcore, &t->in);
	if (!err)
		err = vmcoreinfo_parse(t->in->vmcoreinfo ? t->in->vmcoreinfo : "", t->in->vmcoreinfo_size,
				       vmcore, &t->vi);
	if (!err)
		err = arch_detect(t->in, t->vi, &arch);
	if (!err)
		err = memory_new(t->in, arch, t->vi, &t->mem);
	if (!err)
		err = kernel_new(t->mem, t->vi, &t->kernel);
	if (!err)
		err = page_scan_new(t->in, t->mem, t->kernel, t->dump_level, &t->scan);
	if (err)
		return err;
	/* The config's erasures first: the eraseinfo lists them before the extensions'. */
	erase_set_init(&t->erase, t->in->page_size, page_scan_max_pfn(t->scan));
	if (t->config)
		err = erase_config_resolve(t->config, t->mem, t->kernel, &t->erase);
	if (err)
		return err;
	env = (struct extension_env){
		.mem = t->mem,
		.kernel = t->kernel,
		.scan = t->scan,
		.mem_map = page_scan_mem_map(t->scan),
		.page_size = t->in->page_size,
		.max_pfn = page_scan_max_pfn(t->scan),
		.erase = &t->erase,
	};
	err = extensions_run(&t->ext, &env, &t->decisions, &t->results);
	if (!err)
		page_scan_set_decisions(t->scan, &t->decisions);
	for (size_t i = 0; !err && i < t->results.count; i++)
		if (!t->results.outcomes[i].ok)
			err = mdf_error(-EIO, "extension %s failed", t->results.outcomes[i].name);
	if (!err)
		erase_set_sort(&t->erase);
	return err;
}

static int plan(struct tool *t)
{
	char *text;
	size_t len;
	int err = mdf_error_drop(eraseinfo_text(&t->erase, true, &text, &len));

	if (err)
		return err;
	fwrite(text, 1, len, stdout);
	free(text);
	for (size_t i = 0; i < t->erase.nr_pieces; i++) {
		const struct erase_piece *p = &t->erase.pieces[i];
		const struct erase_entry *e = &t->erase.entries[t->erase.samples[p->sample].entry];

		printf("piece 0x%" PRIx64 " %" PRIu32 " 0x%02x\n", p->paddr, p->len,
		       e->nullify ? ERASE_NULLIFY_FILL : ERASE_FILL);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct tool t = { 0 };
	const char *vmcore, *cmd;
	int err;

	msg_set_level(ML_ERROR);
	if (argc < 3)
		return usage();
	vmcore = argv[1];
	cmd = argv[2];
	if (strcmp(cmd, "plan") || parse_options(&t, argc - 2, argv + 2) || optind + 2 != argc)
		return usage();
	err = mdf_error_print(prepare(&t, vmcore), false);
	if (!err)
		err = plan(&t);
	erase_config_free(t.config);
	erase_set_free(&t.erase);
	extension_results_free(&t.results);
	page_decisions_free(&t.decisions);
	page_scan_free(t.scan);
	kernel_free(t.kernel);
	memory_free(t.mem);
	vmcoreinfo_free(t.vi);
	input_close(t.in);
	for (size_t i = 0; i < t.ext.nr_args; i++) {
		free((char *)t.args[i].extension);
		free((char *)t.args[i].key);
	}
	return err ? 1 : 0;
}
