// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The value of a filter config expression, SYMBOL[.MEMBER...] or, in a
 * loop, ID[.MEMBER...], evaluated as C would with the dump's BTF for the
 * types.
 *
 * A value is an address and, when known, a type: the symbol's address in
 * kallsyms and its type (config_symbols.c), or the loop's element.  Each
 * member then moves the value:
 *
 *   - the member of a struct or union adds the member's offset, and takes
 *     its type;
 *   - the member of a pointer to a struct or union reads the pointer
 *     first: "init_task.mm.owner" is init_task.mm->owner in C.  A NULL
 *     pointer on the way is no error: the expression names nothing in
 *     this dump, and erases nothing;
 *   - a bitfield, or a member of anything else, is refused: only whole
 *     bytes are erased, and an untyped value has no members.
 *
 * The expression's value is where its data is; what "erase" makes of it
 * (the data, or what a pointer points to) is the erase command's
 * (config_erase.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "erase/config_internal.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"

struct mdf_error *config_read_pointer(struct resolver *r, uint64_t addr, const char *what, uint64_t *value)
{
	struct mdf_error *err = mem_read_u64(r->mem, addr, value), *unresolved;

	if (!err)
		return NULL;
	unresolved = config_unresolved(r, err->code, "cannot read the pointer %s at 0x%" PRIx64 ": %s", what,
				       addr, mdf_error_text(err));
	mdf_error_free(err);
	return unresolved;
}

/* The first @n names of @e joined by dots: what the expression has reached. */
static const char *prefix(const struct expr *e, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "." : "", e->names[i]);
	return buf;
}

/* Moves @v, what the first @i names of @e reach, to its member e->names[@i]. */
static struct mdf_error *member(struct resolver *r, const struct expr *e, size_t i, struct value *v)
{
	struct ctype t = v->type;
	struct ctype_member m;
	char what[256], label[128];
	struct mdf_error *err;

	prefix(e, i, what, sizeof(what));
	if (!v->typed)
		return config_unresolved(r, -ENOENT, "the dump's BTF does not say the type of %s, so its "
					 "member %s is unknown: name the type, as in (TYPE)%s", e->names[0],
					 e->names[1], e->text);
	ctype_describe(t, label, sizeof(label));
	if (ctype_is_ptr(t)) {
		uint64_t ptr;

		t = ctype_pointee(t);
		if (!ctype_is_composite(t))
			return config_unresolved(r, -EINVAL, "%s is %s: it has no member %s", what, label,
						 e->names[i]);
		err = config_read_pointer(r, v->addr, what, &ptr);
		if (err)
			return err;
		if (!ptr) {
			msg_debug("%s:%u: %s is NULL", r->cfg->path, r->line, what);
			v->null = true;
			return NULL;
		}
		v->addr = ptr;
	} else if (!ctype_is_composite(t)) {
		return config_unresolved(r, -EINVAL, "%s is %s: it has no member %s", what, label, e->names[i]);
	}
	if (!ctype_find_member(ctype_strip(t), e->names[i], &m)) {
		ctype_describe(t, label, sizeof(label));
		return config_unresolved(r, -ENOENT, "%s has no member %s", label, e->names[i]);
	}
	if (m.bitfield_size || m.bit_offset % 8)
		return config_unresolved(r, -EINVAL, "%s.%s is a bitfield: only whole bytes can be erased", what,
					 e->names[i]);
	v->addr += m.bit_offset / 8;
	v->type = m.type;
	return NULL;
}

struct mdf_error *config_eval(struct resolver *r, const struct expr *e, const struct ctype *untyped,
			      struct value *v)
{
	struct mdf_error *err = NULL;

	memset(v, 0, sizeof(*v));
	if (e->is_var)
		*v = r->var;
	else if ((err = config_symbol_value(r, e, v)))
		return err;
	if (!v->typed && untyped) {
		v->type = *untyped;
		v->typed = true;
	}
	for (size_t i = 1; i < e->nr_names && !err && !v->null; i++)
		err = member(r, e, i, v);
	return err;
}
