// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Running the parsed filter config against the dump: each statement, in
 * order, is an erase command (config_erase.c) or a loop of them
 * (config_loops.c), and adds what it erases to the erase set
 * (erase/erase_set.h), as an entry named by the command's text.
 *
 * A statement that cannot be resolved in this dump (a symbol, type or
 * member it lacks, memory it cannot read) erases nothing: a warning names
 * its line, and the others go on, as upstream's do.  The statements of a
 * module's section are skipped, said once per section, when the dump has
 * no such module loaded.  Only the erase set's own failures stop the run.
 */
#include <inttypes.h>
#include <stdint.h>

#include "erase/config.h"
#include "erase/config_internal.h"
#include "erase/erase_set.h"
#include "kernel/kernel.h"
#include "kernel/modules.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"

/* One statement; what stops it short is said here, as a warning naming its line. */
static struct mdf_error *run_statement(struct resolver *r, const struct stmt *s)
{
	struct mdf_error *err;
	uint32_t entry;

	if (s->is_loop)
		return config_run_loop(r, &s->loop);
	err = erase_set_entry(r->set, s->cmd.target.text, s->cmd.size_kind == SIZE_NULLIFY, &entry);
	if (!err)
		err = config_erase(r, &s->cmd, entry);
	if (err && !config_error_is_fatal(err)) {
		mdf_error_print(err, true);
		err = NULL;
	}
	return err;
}

/* Whether @s can run: it names vmlinux, or a module loaded (module symbols read once, if needed). */
static bool module_loaded(struct resolver *r, const struct stmt *s)
{
	if (!s->module)
		return true;
	if (!r->modules_tried) {
		r->modules_tried = true;
		if (mdf_error_drop(kernel_modules(r->kernel, &r->modules)))
			r->modules = NULL;
	}
	return r->modules && modules_loaded(r->modules, s->module);
}

/* What the whole config reads from the dump once: its BTF, the per-cpu area. */
static struct mdf_error *resolver_init(struct resolver *r)
{
	struct mdf_error *err = kernel_symbols_ready(r->kernel);

	if (err)
		return mdf_error_wrap(err, "%s: the dump's kallsyms are needed to resolve the filter config",
				      r->cfg->path);
	if (mdf_error_drop(kernel_btf(r->kernel, &r->btf))) {
		msg_warn("%s: without the dump's BTF, only commands that give the size of a symbol "
			 "(erase SYMBOL size N) can be resolved", r->cfg->path);
		r->btf = NULL;
	}
	if (mdf_error_drop(kernel_symbol_address(r->kernel, "vmlinux", "__per_cpu_start", &r->percpu_start)) ||
	    mdf_error_drop(kernel_symbol_address(r->kernel, "vmlinux", "__per_cpu_end", &r->percpu_end)))
		r->percpu_start = r->percpu_end = 0;
	r->walk = (struct walk_ctx){ .mem = r->mem, .kernel = r->kernel };
	r->pointer_size = mem_pointer_size(r->mem);
	return NULL;
}

struct mdf_error *erase_config_resolve(const struct erase_config *cfg, struct memory *mem, struct kernel *kernel,
				       struct erase_set *set)
{
	struct resolver r = { .cfg = cfg, .mem = mem, .kernel = kernel, .set = set };
	size_t skipped_section = SIZE_MAX;
	uint64_t before = erase_set_bytes(set);
	struct mdf_error *err = resolver_init(&r);

	if (err)
		return err;
	for (size_t i = 0; i < cfg->nr_stmts && !err; i++) {
		const struct stmt *s = &cfg->stmts[i];

		r.module = s->module;
		r.line = s->line;
		if (!module_loaded(&r, s)) {
			if (skipped_section != s->section)
				msg_info("%s:%u: no module %s in the dump: its section is skipped", cfg->path,
					 s->line, s->module);
			skipped_section = s->section;
			continue;
		}
		err = run_statement(&r, s);
	}
	config_guesses_free(&r);
	if (!err) {
		msg_info("%s: %zu commands erase %" PRIu64 " bytes in %zu places", cfg->path, cfg->nr_stmts,
			 erase_set_bytes(set) - before, r.erasures);
		return NULL;
	}
	if (err->code == -ENOMEM && !err->message) {
		mdf_error_free(err);
		return mdf_error(-ENOMEM, "%s:%u: no memory to resolve the filter config", cfg->path, r.line);
	}
	return err;
}
