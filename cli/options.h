/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line: upstream makedumpfile's options, what each asks for,
 * and which go together.  options_parse() makes every check a run makes
 * before it touches a file, with upstream's words where upstream has
 * them, so that --check-params (which stops there) answers as the run
 * would.
 *
 * Upstream's options for what this makedumpfile does not do (Xen and
 * sadump dumps, eppic macros) are refused with a message that names what
 * to use instead; those that change nothing here (--work-dir) are
 * accepted.
 */
#ifndef MDF_CLI_OPTIONS_H
#define MDF_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "extension/host.h"
#include "scan/page_rules.h"

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
	MODE_GENERATE_VMCOREINFO,  /* -g VMCOREINFO -x VMLINUX */
	MODE_VERSION,
	MODE_HELP,
};

struct mdf_options {
	enum mdf_mode mode;
	const char *vmcore;
	const char *output;           /* dump file or listing; NULL: stdout */
	const char *vmcoreinfo_file;  /* -i */
	const char *vmlinux;          /* -x: symbols and types from its symbol table and DWARF */
	bool force;                   /* -f */
	bool flatten;                 /* -F */
	bool elf;                     /* -E */
	bool split;                   /* --split */
	bool check_params;            /* --check-params: check the options, then stop */
	bool dry_run;                 /* --dry-run: all but the writing */
	bool partial_dmesg;           /* --partial-dmesg: the log since it was last cleared */
	bool exclude_vmemmap;         /* -e: leave out the struct pages of excluded pages */
	bool non_mmap;                /* --non-mmap: /proc/vmcore read with read(2) only */
	const char *work_dir;         /* --work-dir: temporary files would go there */
	uint64_t size_limit;          /* -L: bytes a dump file may take; 0: no limit */
	bool vtop;                    /* --vtop: print where vtop_address translates to */
	uint64_t vtop_address;
	int message_level;
	int dump_level;               /* -d, the first of its list: the level being written */
	/* -d's list: on a full disk, the dump is written again at the next level. */
	int dump_levels[DL_MAX + 1];
	unsigned int nr_dump_levels;
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

/*
 * Fills @opt from the command line.  Returns 0, or -EINVAL after saying
 * what is wrong (upstream's "Commandline parameter is invalid." among it);
 * opt is then for options_free() only.
 */
int options_parse(int argc, char **argv, struct mdf_options *opt);

/*
 * The check of the files named, which a run makes before it opens one:
 * no output may be one of the inputs (-f would truncate it before it is
 * read).  Only stat(2): nothing is read.  0, or -EINVAL after a message.
 */
int options_check_files(const struct mdf_options *opt);

/* Says, in a line each, what the options accepted without an effect here do not do. */
void options_note_accepted(const struct mdf_options *opt);

void options_print_usage(FILE *out);

void options_free(struct mdf_options *opt);

#endif
