// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a filter config's symbol is, and what type it has.
 *
 * The address comes from the dump's kallsyms: in a module's section, the
 * module's symbols first, then vmlinux's.  A per-cpu variable is refused:
 * its kallsyms address is an offset into each CPU's copy, not data.
 *
 * The type is harder.  Upstream read it from the kernel's DWARF; the BTF
 * a dump carries describes types but few variables.  So a symbol's type
 * is, in this order:
 *
 *   1. the config's cast: (TYPE)SYMBOL or (TYPE*)SYMBOL;
 *   2. the variable's type, when BTF has the variable (per-cpu ones, and
 *      more on newer kernels);
 *   3. the struct or union of the symbol's own name, when it fits before
 *      the next symbol: udp_table is a struct udp_table;
 *   4. the one struct or union of the section's BTF exactly as large as
 *      the room kallsyms leaves the symbol (up to the next symbol), with
 *      the member the expression goes on to name: a guess, said once at
 *      info level, that a cast overrides.
 *
 * Failing all four the symbol is untyped: "erase SYMBOL size N" still
 * erases it, and anything that needs its type says so.
 *
 * Types are looked up in the section's scope: a module's section in its
 * module first, then in vmlinux and the other modules; vmlinux's section
 * in vmlinux alone, as upstream's does, which spares reading every
 * module's types.
 */
#include <bpf/btf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erase/config_internal.h"
#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/kernel.h"
#include "kernel/modules.h"
#include "util/error.h"
#include "util/message.h"
#include "util/search.h"
#include "util/vec.h"

static struct mdf_error *lookup(struct resolver *r, const char *name, struct btf_info_result *res)
{
	struct mdf_error *err;

	if (!r->btf)
		return &mdf_error_not_found;
	err = btf_info_lookup(r->btf, r->module ? r->module : "vmlinux", name, res);
	if (mdf_error_is_not_found(err) && r->module) {
		mdf_error_free(err);
		err = btf_info_lookup(r->btf, NULL, name, res);
	}
	return err;
}

struct mdf_error *config_lookup_type(struct resolver *r, const char *name, struct ctype *t)
{
	struct btf_info_result res;
	struct mdf_error *err = lookup(r, name, &res);
	bool found = !err && res.kind == BTF_INFO_TYPE;

	mdf_error_free(err);
	if (!found)
		return config_unresolved(r, -ENOENT, "no type %s in the dump's BTF", name);
	*t = (struct ctype){ res.btf, res.type_id, 0 };
	return NULL;
}

/*
 * The kernel's symbol after @addr, into *@next (0: none).  The kernel's
 * table is sorted by address (the kernel's own lookups search it in
 * halves), so the symbol is found in place.  A table garbled out of order
 * gives a wrong room, never a wrong read: the room only guesses a type.
 */
struct address_search {
	const struct kallsyms *ks;
	uint64_t addr;
	struct mdf_error *err;    /* the first address that could not be read */
};

/* Whether the symbol at @i is at or below the address; an unreadable one ends the search. */
static bool symbol_at_or_below(void *ctx, size_t i)
{
	struct address_search *s = ctx;
	uint64_t at;

	if (s->err)
		return false;
	s->err = kallsyms_address(s->ks, i, &at);
	return !s->err && at <= s->addr;
}

static struct mdf_error *next_kernel_symbol(struct resolver *r, uint64_t addr, uint64_t *next)
{
	struct address_search s = { .addr = addr };
	struct kallsyms *ks;
	struct mdf_error *err = kernel_kallsyms(r->kernel, &ks);
	size_t count, after;

	*next = 0;
	if (err)
		return err;
	s.ks = ks;
	count = kallsyms_count(ks);
	after = search_partition_point(count, symbol_at_or_below, &s);
	if (s.err)
		return s.err;
	return after < count ? kallsyms_address(ks, after, next) : NULL;
}

struct next_module_symbol {
	const char *module;
	uint64_t addr;
	uint64_t found;
};

static struct mdf_error *closer_module_symbol(void *ctx, const struct ksym *sym)
{
	struct next_module_symbol *n = ctx;

	if (sym->addr > n->addr && (!n->found || sym->addr < n->found) && !strcmp(sym->module, n->module))
		n->found = sym->addr;
	return NULL;
}

/*
 * Where the symbol after @addr starts, into *@next (0: none): how far a
 * variable at @addr may reach.  A module's variable ends where its
 * module's next symbol starts; failing one, the kernel's.
 */
static struct mdf_error *next_symbol(struct resolver *r, uint64_t addr, uint64_t *next)
{
	struct next_module_symbol n = { r->module, addr, 0 };

	if (r->module && r->modules &&
	    !mdf_error_drop(modules_for_each_symbol(r->modules, closer_module_symbol, &n)) && n.found) {
		*next = n.found;
		return NULL;
	}
	return next_kernel_symbol(r, addr, next);
}

/*
 * The one struct or union of @btf that is exactly @size bytes and has
 * @member (any, when NULL), or none.
 */
static bool only_composite_of_size(const struct btf *btf, uint64_t size, const char *member, struct ctype *out)
{
	const char *found = NULL;

	for (uint32_t id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *bt = btf__type_by_id(btf, id);
		struct ctype t = { btf, id, 0 };
		struct ctype_member m;
		const char *name;

		if (!btf_is_composite(bt) || bt->size != size || !bt->name_off)
			continue;
		name = btf__name_by_offset(btf, bt->name_off);
		if (member && !ctype_find_member(t, member, &m))
			continue;
		/* A type a module's BTF repeats from vmlinux's is the same type. */
		if (found && strcmp(found, name))
			return false;
		found = name;
		*out = t;
	}
	return found != NULL;
}

/* A variable's type guessed from the @size bytes of room kallsyms leaves it, in the section's BTF. */
static bool guess_type(struct resolver *r, uint64_t size, const char *member, struct ctype *out)
{
	const struct btf *btf;

	if (mdf_error_drop(btf_info_scope_btf(r->btf, r->module, &btf)) &&
	    mdf_error_drop(btf_info_scope_btf(r->btf, NULL, &btf)))
		return false;
	return only_composite_of_size(btf, size, member, out);
}

/*
 * guess_type() for the symbol of @e, in @room bytes, said at info level
 * the first time.  Without memory to remember it, guessed again next time.
 */
static void remembered_guess(struct resolver *r, const struct expr *e, uint64_t room, struct value *v)
{
	const char *member = e->nr_names > 1 ? e->names[1] : NULL;
	struct guess *g, scratch;
	char key[256], label[128];

	snprintf(key, sizeof(key), "%s:%s.%s", r->module ? r->module : "", e->names[0],
		 member ? member : "");
	for (size_t i = 0; i < r->nr_guesses; i++) {
		if (!strcmp(r->guesses[i].key, key)) {
			v->typed = r->guesses[i].typed;
			v->type = r->guesses[i].type;
			return;
		}
	}
	g = &scratch;
	if (!vec_reserve(r->guesses, &r->cap_guesses, r->nr_guesses, 1)) {
		r->guesses[r->nr_guesses].key = strdup(key);
		if (r->guesses[r->nr_guesses].key)
			g = &r->guesses[r->nr_guesses++];
	}
	g->typed = guess_type(r, room, member, &g->type);
	v->typed = g->typed;
	v->type = g->type;
	if (g->typed) {
		ctype_describe(g->type, label, sizeof(label));
		msg_info("%s:%u: %s taken to be %s, the only struct or union of its %" PRIu64 " bytes%s%s "
			 "(say (TYPE)%s otherwise)", r->cfg->path, r->line, e->names[0], label, room,
			 member ? " with a member " : "", member ? member : "", e->names[0]);
	}
}

void config_guesses_free(struct resolver *r)
{
	for (size_t i = 0; i < r->nr_guesses; i++)
		free(r->guesses[i].key);
	free(r->guesses);
	r->guesses = NULL;
	r->nr_guesses = r->cap_guesses = 0;
}

/* The type of the symbol @e names, at @addr, by the rules above; untyped when none applies. */
static struct mdf_error *symbol_type(struct resolver *r, const struct expr *e, uint64_t addr, struct value *v)
{
	struct btf_info_result res;
	struct ctype namesake;
	struct mdf_error *err;
	uint64_t room;
	bool found;

	if (e->cast) {
		err = config_lookup_type(r, e->cast, &v->type);
		v->type.ptrs = e->cast_ptrs;
		v->typed = !err;
		return err;
	}
	if (!r->btf)
		return NULL;
	found = !mdf_error_drop(lookup(r, e->names[0], &res));
	if (found && res.kind == BTF_INFO_VARIABLE) {
		v->type = (struct ctype){ res.btf, res.type_id, 0 };
		v->typed = true;
		return NULL;
	}
	/* Without a next symbol, or without kallsyms, the room is unknown. */
	mdf_error_free(next_symbol(r, addr, &room));
	room = room ? room - addr : 0;
	namesake = (struct ctype){ res.btf, res.type_id, 0 };
	if (found && res.kind == BTF_INFO_TYPE && ctype_is_composite(namesake) &&
	    (!room || (uint64_t)res.size <= room)) {
		v->type = namesake;
		v->typed = true;
		msg_debug("%s:%u: %s taken to be of its namesake type", r->cfg->path, r->line, e->names[0]);
		return NULL;
	}
	if (room)
		remembered_guess(r, e, room, v);
	return NULL;
}

struct mdf_error *config_symbol_value(struct resolver *r, const struct expr *e, struct value *v)
{
	const char *name = e->names[0];
	bool found;

	found = (r->module && !mdf_error_drop(kernel_symbol_address(r->kernel, r->module, name, &v->addr))) ||
		!mdf_error_drop(kernel_symbol_address(r->kernel, "vmlinux", name, &v->addr));
	if (!found)
		return config_unresolved(r, -ENOENT, "no symbol %s in the kallsyms of %s%s", name,
					 r->module ? r->module : "vmlinux", r->module ? " or vmlinux" : "");
	if (v->addr >= r->percpu_start && v->addr < r->percpu_end)
		return config_unresolved(r, -EOPNOTSUPP, "%s is a per-cpu variable: erasing per-cpu data is not "
					 "supported", name);
	return symbol_type(r, e, v->addr, v);
}
