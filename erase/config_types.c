// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The C types of the filter config's expressions, over the dump's BTF.
 *
 * A type is a BTF type id (0 for void) in one BTF (vmlinux's or a
 * module's), plus the pointer levels a cast adds on top of it: the
 * config's "(task_struct*)" is task_struct's id with one pointer, since
 * BTF holds only the pointer types the kernel itself uses.
 *
 * Typedefs, qualifiers (const, volatile, restrict) and type tags change
 * nothing about where data is or how large: they are stripped before a
 * type is looked at, as C's own rules see through them.  A member is
 * searched inside anonymous structs and unions too, as C finds it.
 *
 * The BTF comes from the dump and may be damaged: chains of typedefs and
 * nesting of anonymous members are followed to a bounded depth.
 */
#include <bpf/btf.h>
#include <stdio.h>
#include <string.h>

#include "erase/config_internal.h"

#define MAX_TYPE_DEPTH 64

struct ctype ctype_strip(struct ctype t)
{
	for (int depth = 0; !t.ptrs && t.id && depth < MAX_TYPE_DEPTH; depth++) {
		const struct btf_type *bt = btf__type_by_id(t.btf, t.id);

		if (!bt || !(btf_is_typedef(bt) || btf_is_mod(bt) || btf_is_type_tag(bt)))
			break;
		t.id = bt->type;
	}
	return t;
}

/* The BTF type of a stripped type that is no added pointer, or NULL (void too). */
static const struct btf_type *btf_type_of(struct ctype t)
{
	return t.ptrs || !t.id ? NULL : btf__type_by_id(t.btf, t.id);
}

bool ctype_is_ptr(struct ctype t)
{
	const struct btf_type *bt;

	t = ctype_strip(t);
	bt = btf_type_of(t);
	return t.ptrs || (bt && btf_is_ptr(bt));
}

struct ctype ctype_pointee(struct ctype t)
{
	t = ctype_strip(t);
	if (t.ptrs) {
		t.ptrs--;
		return t;
	}
	return ctype_strip((struct ctype){ t.btf, btf_type_of(t)->type, 0 });
}

bool ctype_is_composite(struct ctype t)
{
	const struct btf_type *bt = btf_type_of(ctype_strip(t));

	return bt && btf_is_composite(bt);
}

bool ctype_is_void(struct ctype t)
{
	t = ctype_strip(t);
	return !t.ptrs && !t.id;
}

static bool is_named(struct ctype t, const char *name)
{
	const struct btf_type *bt = btf_type_of(ctype_strip(t));

	return bt && !strcmp(btf__name_by_offset(ctype_strip(t).btf, bt->name_off), name);
}

bool ctype_is_char(struct ctype t)
{
	const struct btf_type *bt = btf_type_of(ctype_strip(t));

	return bt && btf_is_int(bt) && bt->size == 1 && is_named(t, "char");
}

bool ctype_is_integer(struct ctype t)
{
	const struct btf_type *bt = btf_type_of(ctype_strip(t));

	return bt && (btf_is_int(bt) || btf_is_any_enum(bt)) &&
	       (bt->size == 1 || bt->size == 2 || bt->size == 4 || bt->size == 8);
}

bool ctype_is_list_head(struct ctype t)
{
	return ctype_is_composite(t) && is_named(t, "list_head");
}

bool ctype_array(struct ctype t, struct ctype *element, uint32_t *count)
{
	const struct btf_type *bt = btf_type_of(ctype_strip(t));

	if (!bt || !btf_is_array(bt))
		return false;
	*element = (struct ctype){ t.btf, btf_array(bt)->type, 0 };
	*count = btf_array(bt)->nelems;
	return true;
}

/* Bytes of @t; 0 for void and for what has no size (a declaration only). */
uint64_t ctype_size(struct ctype t, uint32_t pointer_size)
{
	long long size;

	t = ctype_strip(t);
	if (t.ptrs)
		return pointer_size;
	if (!t.id)
		return 0;
	size = btf__resolve_size(t.btf, t.id);
	return size > 0 ? (uint64_t)size : 0;
}

/* "struct task_struct", "char *", "an array": for messages. */
void ctype_describe(struct ctype t, char *buf, size_t len)
{
	const struct btf_type *bt;
	const char *keyword = "", *name = "void";
	unsigned int stars = 0;

	while (ctype_is_ptr(t) && stars < 8) {
		t = ctype_pointee(t);
		stars++;
	}
	bt = btf_type_of(ctype_strip(t));
	if (bt) {
		name = btf__name_by_offset(t.btf, bt->name_off);
		if (btf_is_struct(bt))
			keyword = "struct ";
		else if (btf_is_union(bt))
			keyword = "union ";
		else if (btf_is_any_enum(bt))
			keyword = "enum ";
		else if (btf_is_array(bt))
			name = "an array";
		if (!name || !*name)
			name = "(anonymous)";
	}
	snprintf(buf, len, "%s%s%s%.*s", keyword, name, stars ? " " : "", (int)stars, "********");
}

/* ctype_find_member() in the composite @t, which lies @base bits into the outermost one. */
static bool find_member(struct ctype t, const char *name, uint64_t base, int depth, struct ctype_member *out)
{
	const struct btf_type *bt = btf_type_of(ctype_strip(t));
	const struct btf_member *m = btf_members(bt);

	for (uint32_t i = 0; i < btf_vlen(bt); i++) {
		const char *member = btf__name_by_offset(t.btf, m[i].name_off);
		struct ctype inner = { t.btf, m[i].type, 0 };
		uint64_t offset = base + btf_member_bit_offset(bt, i);

		if (member && *member) {
			if (strcmp(member, name))
				continue;
			out->bit_offset = offset;
			out->type = inner;
			out->bitfield_size = btf_member_bitfield_size(bt, i);
			return true;
		}
		if (depth < MAX_TYPE_DEPTH && ctype_is_composite(inner) &&
		    find_member(ctype_strip(inner), name, offset, depth + 1, out))
			return true;
	}
	return false;
}

/* The member @name of the composite @t, searched inside anonymous members too. */
bool ctype_find_member(struct ctype t, const char *name, struct ctype_member *out)
{
	return find_member(t, name, 0, 0, out);
}
