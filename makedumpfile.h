/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run's context: options from the command line and the objects each
 * step of the data flow builds (input, VMCOREINFO, memory, symbols).
 */
#ifndef MDF_MAKEDUMPFILE_H
#define MDF_MAKEDUMPFILE_H

#include <stdbool.h>

#include "extension.h"

#define MDF_VERSION "0.1.0"

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
struct symbols;

struct erase_config;

struct mdf_context {
	struct mdf_options opt;
	struct erase_config *erase_config;  /* --config, read before the dump is opened */
	struct dump_input *input;
	struct vmcoreinfo *vmcoreinfo;
	struct memory *memory;
	struct symbols *symbols;      /* kallsyms and BTF, loaded as asked for */
};

/*
 * For extensions written against the series posted to the kexec list:
 * readmem(VADDR, addr, buf, size) returns size on success and 0 on failure,
 * as upstream's; the accessors read a value at a buffer address.  New
 * extensions use makedumpfile-extension.h.
 */
#include <stddef.h>

#define PADDR 1
#define VADDR 2
#define ULONG(ADDR) (*(unsigned long *)(ADDR))
#define UINT(ADDR) (*(unsigned int *)(ADDR))
#define VOID_PTR(ADDR) (*(void **)(ADDR))

int readmem(int type_addr, unsigned long long addr, void *buf, size_t size);

#endif
