/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading page-filter extensions and collecting their page ranges.
 *
 * Each extension of the directory runs, in name order, then each one named
 * with --extension, in a child process of its own: it is loaded there (its
 * constructors run), the symbols and types it declares for upstream's API
 * are resolved, its mdf_extension_init() or extension_init() is called,
 * then its extension_callback() for every page, and what it decided of
 * pages comes back through a pipe, with the bytes it asked to erase
 * (mdf_erase_kvaddr, mdf_erase_paddr, update_filter_info_raw).  A child that crashes, fails,
 * exceeds the time limit or sends ranges outside the dump costs only its
 * own ranges and erasures.  Before anything is loaded, the directory and
 * each file are checked: owned by root or by the user running
 * makedumpfile, not writable by group or others, not a symlink leading out
 * of the directory.  A bare name given to --extension is looked for in
 * --extension-dir, then in EXTENSION_DIR, never in the current directory;
 * a path is checked with its directory the same way.
 */
#ifndef MDF_EXTENSION_HOST_H
#define MDF_EXTENSION_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extension/env.h"

struct mdf_error;
struct page_decisions;

#ifndef EXTENSION_DIR
#define EXTENSION_DIR "/usr/lib64/makedumpfile/extensions"
#endif
#define EXTENSION_DEFAULT_TIMEOUT 60

struct extension_options {
	const char *dir;         /* --extension-dir; NULL: EXTENSION_DIR */
	/*
	 * --extension NAME.so or PATH, in command-line order.  Without
	 * --extension-dir, only these run.
	 */
	const char *const *names;
	size_t nr_names;
	bool disabled;           /* --no-extensions */
	unsigned int timeout;    /* seconds per extension */
	const struct extension_arg *args;
	size_t nr_args;
};

/* How one extension fared, for the end-of-run report. */
struct extension_outcome {
	char *name;
	bool ok;
	char *problem;           /* why it failed, when it did */
	uint64_t discard_pages;  /* registered, before merging with the others */
	uint64_t keep_pages;
	bool has_callback;       /* upstream's extension_callback() */
	uint64_t include_pages;  /* its PG_INCLUDE answers */
	uint64_t exclude_pages;  /* its PG_EXCLUDE answers */
	uint64_t erase_bytes;    /* asked to be erased */
	double child_cpu_ms;     /* CPU time of its process, when it reported */
	double parent_cpu_ms;    /* CPU time makedumpfile spent starting it and reading its report */
};

struct extension_results {
	struct extension_outcome *outcomes;
	size_t count;
};

/*
 * Runs the extensions of the directory and those named, and adds their
 * decisions to @decisions (merged on return), their erasures to
 * env->erase (unsorted).  Only a failure of makedumpfile itself (no
 * memory, no fork) is an error: a failing extension is reported in
 * @results and in a warning, and the dump goes on.
 */
struct mdf_error *extensions_run(const struct extension_options *opt, const struct extension_env *env,
				 struct page_decisions *decisions, struct extension_results *results);
void extension_results_free(struct extension_results *results);

/* Parses NAME:KEY=VALUE (VALUE stays in @text); -EINVAL when malformed. */
struct mdf_error *extension_parse_arg(const char *text, struct extension_arg *arg);
/* Frees what extension_parse_arg() allocated for @count args, and the array. */
void extension_args_free(struct extension_arg *args, size_t count);

#endif
