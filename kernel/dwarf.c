// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF to BTF, with libdw and libbpf's btf__add_*().
 *
 * DWARF describes a type again in every compilation unit that uses it:
 * struct page a thousand times over.  A name index is made first, of the
 * units' top-level DIEs: the first definition of each named struct,
 * union, enum, typedef, base type and variable (a declaration only where
 * no unit defines the name; an anonymous enum is known by its first
 * constant).  A reference to a named type goes to that definition, so
 * each name is converted once; pointers and qualifiers are made once per
 * kind and target.  Types are converted from the index, and what they
 * refer to with them: a unit's local types that nothing global uses are
 * left out.
 *
 * BTF refers to types by id, and a struct's members must follow it at
 * once (libbpf adds them to the last type added), so ids are handed out
 * before the types are made: asking a DIE's id reserves the next one and
 * queues the DIE, and the queue is emitted in order, each DIE as one BTF
 * type (an array of N dimensions as N), which gets the id reserved for
 * it.  A struct that points at itself needs its own id only.
 *
 * Rust units are left out, as upstream makedumpfile leaves them.
 */
#include <bpf/btf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/dwarf.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/message.h"
#include "util/vec.h"

/* Chains of qualifiers and typedefs: deeper is a loop of corrupt DWARF. */
#define MAX_TYPE_DEPTH 64
/* Dimensions of one array; the kernel's have at most 3. */
#define MAX_DIMENSIONS 16
/* What pahole names the int that BTF arrays are indexed by. */
#define ARRAY_INDEX_TYPE "__ARRAY_SIZE_TYPE__"

/* A name's first definition; an anonymous enum is keyed DW_TAG_enumerator and its first constant. */
struct named_die {
	uint64_t hash;
	int tag;
	const char *name;     /* in libdw's string section: lives as long as the Dwarf */
	Dwarf_Die die;
	bool declaration;
};

/* Open addressing over entries, in first-seen order: a slot holds an index + 1, 0 = empty. */
struct name_index {
	struct named_die *entries;
	size_t nr, cap;
	uint32_t *slots;
	size_t mask;
};

struct vmlinux_dwarf {
	const char *path;
	Dwarf *dwarf;
	bool indexed;
	struct mdf_error *index_err;   /* kept: each later call gets a copy */
	struct name_index names;
};

/* uint64_t keys (never 0) to BTF ids. */
struct id_map {
	uint64_t *keys;
	uint32_t *ids;
	size_t mask, nr;
};

struct queued {
	Dwarf_Die die;
	bool index_type;      /* the int that arrays are indexed by, no DIE */
};

struct field {
	const char *name;
	uint32_t type;
	uint32_t bit_offset;
	uint32_t bitfield_size;
};

/* One conversion: the BTF being made and the DIEs waiting for their turn. */
struct converter {
	struct vmlinux_dwarf *d;
	struct btf *btf;
	struct id_map dies;         /* a DIE's address: its (first) id */
	struct id_map modifiers;    /* BTF kind << 32 | target id: the pointer or qualifier */
	struct queued *queue;
	size_t nr_queue, cap_queue;
	uint32_t next_id;           /* the id the next reservation gets */
	uint32_t index_type;        /* 0 until an array needs it */
	struct field *fields;
	size_t cap_fields;
	size_t fields_dropped;      /* members libbpf cannot hold, said once at the end */
};

struct mdf_error *vmlinux_dwarf_open(Elf *elf, const char *path, struct vmlinux_dwarf **out)
{
	struct vmlinux_dwarf *d = calloc(1, sizeof(*d));

	if (!d)
		return &mdf_error_enomem;
	d->path = path;
	d->dwarf = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!d->dwarf) {
		free(d);
		return mdf_error(-ENOENT, "%s has no DWARF (%s): -x needs a vmlinux with debug information, "
				 "as the kernel's debug package installs it", path, dwarf_errmsg(-1));
	}
	*out = d;
	return NULL;
}

void vmlinux_dwarf_close(struct vmlinux_dwarf *d)
{
	if (!d)
		return;
	mdf_error_free(d->index_err);
	free(d->names.entries);
	free(d->names.slots);
	dwarf_end(d->dwarf);
	free(d);
}

/* ---- The name index ---- */

static uint64_t name_hash(int tag, const char *name)
{
	return fnv1a64_str(name) ^ ((uint64_t)tag * FNV1A64_PRIME);
}

static struct named_die *name_find(const struct name_index *index, int tag, const char *name)
{
	uint64_t hash = name_hash(tag, name);

	if (!index->slots)
		return NULL;
	for (size_t slot = hash & index->mask; index->slots[slot]; slot = (slot + 1) & index->mask) {
		struct named_die *n = &index->entries[index->slots[slot] - 1];

		if (n->hash == hash && n->tag == tag && !strcmp(n->name, name))
			return n;
	}
	return NULL;
}

/* Makes the slots twice as many as the entries at least, placing each entry again. */
static struct mdf_error *name_rehash(struct name_index *index, size_t size)
{
	uint32_t *slots = calloc(size, sizeof(*slots));

	if (!slots)
		return &mdf_error_enomem;
	free(index->slots);
	index->slots = slots;
	index->mask = size - 1;
	for (size_t i = 0; i < index->nr; i++) {
		size_t slot = index->entries[i].hash & index->mask;

		while (slots[slot])
			slot = (slot + 1) & index->mask;
		slots[slot] = (uint32_t)i + 1;
	}
	return NULL;
}

/* Adds a name's DIE, unless it has one; a definition takes a declaration's place. */
static struct mdf_error *name_add(struct name_index *index, int tag, const char *name, const Dwarf_Die *die,
				  bool declaration)
{
	struct named_die *known = name_find(index, tag, name);
	struct mdf_error *err;

	if (known) {
		if (known->declaration && !declaration) {
			known->die = *die;
			known->declaration = false;
		}
		return NULL;
	}
	if (index->nr >= UINT32_MAX - 1)
		return mdf_error(-E2BIG, "more than %u names", UINT32_MAX - 1);
	if (vec_reserve(index->entries, &index->cap, index->nr, 1))
		return &mdf_error_enomem;
	index->entries[index->nr++] = (struct named_die){ name_hash(tag, name), tag, name, *die, declaration };
	if (2 * index->nr > index->mask) {
		err = name_rehash(index, index->slots ? 2 * (index->mask + 1) : 1024);
		if (err)
			return err;
	} else {
		size_t slot = index->entries[index->nr - 1].hash & index->mask;

		while (index->slots[slot])
			slot = (slot + 1) & index->mask;
		index->slots[slot] = (uint32_t)index->nr;
	}
	return NULL;
}

static const char *attr_string(Dwarf_Die *die, unsigned int name)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, name, &attr) ? dwarf_formstring(&attr) : NULL;
}

static const char *first_enumerator(Dwarf_Die *die)
{
	Dwarf_Die child;

	if (dwarf_child(die, &child) != 0)
		return NULL;
	do {
		if (dwarf_tag(&child) == DW_TAG_enumerator)
			return dwarf_diename(&child);
	} while (dwarf_siblingof(&child, &child) == 0);
	return NULL;
}

/*
 * The key a DIE is known by in the index: its tag and name, an anonymous
 * enum's first constant; false for what has no key.  A variable's name
 * may be on the declaration its definition specifies.
 */
static bool die_key(Dwarf_Die *die, int *tag, const char **name)
{
	*tag = dwarf_tag(die);
	switch (*tag) {
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_typedef:
	case DW_TAG_base_type:
		*name = dwarf_diename(die);
		break;
	case DW_TAG_enumeration_type:
		*name = dwarf_diename(die);
		if (!*name) {
			*tag = DW_TAG_enumerator;
			*name = first_enumerator(die);
		}
		break;
	case DW_TAG_variable:
		*name = attr_string(die, DW_AT_name);
		break;
	default:
		return false;
	}
	return *name && **name;
}

static struct mdf_error *index_unit(struct vmlinux_dwarf *d, Dwarf_Die *unit)
{
	struct mdf_error *err = NULL;
	const char *name;
	Dwarf_Die die;
	int tag;

	if (dwarf_child(unit, &die) != 0)
		return NULL;
	do {
		if (die_key(&die, &tag, &name))
			err = name_add(&d->names, tag, name, &die, dwarf_hasattr(&die, DW_AT_declaration));
	} while (!err && dwarf_siblingof(&die, &die) == 0);
	return err;
}

static struct mdf_error *index_dwarf(struct vmlinux_dwarf *d, Dwarf *dwarf)
{
	Dwarf_CU *cu = NULL;
	struct mdf_error *err = NULL;
	Dwarf_Die unit, sub;
	Dwarf_Half version;
	uint8_t type;
	int status;

	while (!err && (status = dwarf_get_units(dwarf, cu, &cu, &version, &type, &unit, &sub)) == 0) {
		if (dwarf_tag(&unit) != DW_TAG_invalid && dwarf_srclang(&unit) != DW_LANG_Rust)
			err = index_unit(d, &unit);
	}
	if (!err && status < 0)
		err = mdf_error(-MDF_ECORRUPT, "its DWARF units do not read: %s", dwarf_errmsg(-1));
	return err;
}

/* Indexes the names, once: the main file's units and those of its dwz file if it has one. */
static struct mdf_error *index_names(struct vmlinux_dwarf *d)
{
	Dwarf *alt;

	if (!d->indexed) {
		d->indexed = true;
		d->index_err = index_dwarf(d, d->dwarf);
		alt = dwarf_getalt(d->dwarf);
		if (!d->index_err && alt)
			d->index_err = index_dwarf(d, alt);
		if (!d->index_err && !d->names.nr)
			d->index_err = mdf_error(-MDF_ECORRUPT, "its DWARF describes no type and no variable: "
						 "damaged, or not a kernel's");
		if (d->index_err)
			d->index_err = mdf_error_wrap(d->index_err, "%s", d->path);
		else
			msg_debug("%s: DWARF names %zu types and variables", d->path, d->names.nr);
	}
	return mdf_error_copy(d->index_err);
}

const char *vmlinux_dwarf_typedef_file(struct vmlinux_dwarf *d, const char *name)
{
	struct named_die *n;

	if (mdf_error_drop(index_names(d)))
		return NULL;
	n = name_find(&d->names, DW_TAG_typedef, name);
	return n ? dwarf_decl_file(&n->die) : NULL;
}

/* ---- Ids, reserved before the types are made ---- */

static uint32_t *id_find(const struct id_map *m, uint64_t key)
{
	if (!m->keys)
		return NULL;
	for (size_t slot = (key * 0x9e3779b97f4a7c15ull) >> 20 & m->mask; m->keys[slot];
	     slot = (slot + 1) & m->mask)
		if (m->keys[slot] == key)
			return &m->ids[slot];
	return NULL;
}

static void id_place(struct id_map *m, uint64_t key, uint32_t id)
{
	size_t slot = (key * 0x9e3779b97f4a7c15ull) >> 20 & m->mask;

	while (m->keys[slot])
		slot = (slot + 1) & m->mask;
	m->keys[slot] = key;
	m->ids[slot] = id;
	m->nr++;
}

static struct mdf_error *id_put(struct id_map *m, uint64_t key, uint32_t id)
{
	if (2 * (m->nr + 1) > (m->keys ? m->mask + 1 : 0)) {
		size_t size = m->keys ? 2 * (m->mask + 1) : 4096;
		struct id_map bigger = { calloc(size, sizeof(uint64_t)), calloc(size, sizeof(uint32_t)), size - 1, 0 };

		if (!bigger.keys || !bigger.ids) {
			free(bigger.keys);
			free(bigger.ids);
			return &mdf_error_enomem;
		}
		for (size_t i = 0; m->keys && i <= m->mask; i++)
			if (m->keys[i])
				id_place(&bigger, m->keys[i], m->ids[i]);
		free(m->keys);
		free(m->ids);
		*m = bigger;
	}
	id_place(m, key, id);
	return NULL;
}

static uint64_t die_address(const Dwarf_Die *die)
{
	return (uint64_t)(uintptr_t)die->addr;
}

static bool referenced_type(Dwarf_Die *die, Dwarf_Die *type)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, type);
}

/*
 * What a reference to @die stands for: the definition its name has in
 * the index, past atomic qualifiers (BTF has none) and nameless typedefs;
 * false for void and for what BTF has no kind for.
 */
static bool canonical(struct vmlinux_dwarf *d, Dwarf_Die *die)
{
	const struct named_die *n;
	const char *name;
	int tag;

	for (int depth = 0; depth < MAX_TYPE_DEPTH; depth++) {
		switch (dwarf_tag(die)) {
		case DW_TAG_atomic_type:
		case DW_TAG_immutable_type:
			if (!referenced_type(die, die))
				return false;
			continue;
		case DW_TAG_typedef:
		case DW_TAG_base_type:
			if (!dwarf_diename(die)) {
				if (!referenced_type(die, die))
					return false;
				continue;
			}
			/* fall through */
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_enumeration_type:
			if (die_key(die, &tag, &name) && (n = name_find(&d->names, tag, name)))
				*die = n->die;
			return true;
		case DW_TAG_pointer_type:
		case DW_TAG_reference_type:
		case DW_TAG_rvalue_reference_type:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_array_type:
		case DW_TAG_subroutine_type:
			return true;
		default:
			return false;
		}
	}
	return false;
}

/* The BTF kind of a pointer or qualifier DIE, 0 for other DIEs. */
static uint32_t modifier_kind(int tag)
{
	switch (tag) {
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return BTF_KIND_PTR;
	case DW_TAG_const_type:
		return BTF_KIND_CONST;
	case DW_TAG_volatile_type:
		return BTF_KIND_VOLATILE;
	case DW_TAG_restrict_type:
		return BTF_KIND_RESTRICT;
	default:
		return 0;
	}
}

/* Dimensions of an array DIE: its subranges, at least one. */
static uint32_t dimensions(Dwarf_Die *die)
{
	Dwarf_Die child;
	uint32_t n = 0;

	if (dwarf_tag(die) != DW_TAG_array_type || dwarf_child(die, &child) != 0)
		return 1;
	do {
		n += dwarf_tag(&child) == DW_TAG_subrange_type && n < MAX_DIMENSIONS;
	} while (dwarf_siblingof(&child, &child) == 0);
	return n ? n : 1;
}

static struct mdf_error *enqueue(struct converter *c, const Dwarf_Die *die, bool index_type, uint32_t ids,
				 uint32_t *id)
{
	if (c->next_id > UINT32_MAX - ids)
		return mdf_error(-E2BIG, "%s: too many types for BTF", c->d->path);
	if (vec_reserve(c->queue, &c->cap_queue, c->nr_queue, 1))
		return &mdf_error_enomem;
	c->queue[c->nr_queue].die = die ? *die : (Dwarf_Die){ 0 };
	c->queue[c->nr_queue++].index_type = index_type;
	*id = c->next_id;
	c->next_id += ids;
	return NULL;
}

/* The id of the type @ref refers to, reserved and queued if it has none yet; 0 for void. */
static struct mdf_error *type_id(struct converter *c, Dwarf_Die *ref, int depth, uint32_t *id)
{
	Dwarf_Die die = *ref, target;
	uint32_t *known, kind, target_id = 0;
	struct mdf_error *err = NULL;

	*id = 0;
	if (depth > MAX_TYPE_DEPTH || !canonical(c->d, &die))
		return NULL;
	known = id_find(&c->dies, die_address(&die));
	if (known) {
		*id = *known;
		return NULL;
	}
	kind = modifier_kind(dwarf_tag(&die));
	if (kind) {
		if (referenced_type(&die, &target))
			err = type_id(c, &target, depth + 1, &target_id);
		known = err ? NULL : id_find(&c->modifiers, (uint64_t)kind << 32 | target_id);
		if (known) {
			*id = *known;
			return id_put(&c->dies, die_address(&die), *id);
		}
	}
	if (!err)
		err = enqueue(c, &die, false, dimensions(&die), id);
	if (!err)
		err = id_put(&c->dies, die_address(&die), *id);
	if (!err && kind)
		err = id_put(&c->modifiers, (uint64_t)kind << 32 | target_id, *id);
	return err;
}

static struct mdf_error *referenced_id(struct converter *c, Dwarf_Die *die, uint32_t *id)
{
	Dwarf_Die type;

	*id = 0;
	return referenced_type(die, &type) ? type_id(c, &type, 0, id) : NULL;
}

/* ---- Making the types ---- */

static bool attr_udata(Dwarf_Die *die, unsigned int name, Dwarf_Word *value)
{
	Dwarf_Attribute attr;

	return dwarf_attr(die, name, &attr) && dwarf_formudata(&attr, value) == 0;
}

/* A constant: signed where its form says so; an all-ones unsigned word is -1, as older GCCs write it. */
static bool attr_constant(Dwarf_Die *die, unsigned int name, int64_t *value, bool *negative)
{
	Dwarf_Attribute attr;
	Dwarf_Sword s;
	Dwarf_Word u;

	if (!dwarf_attr(die, name, &attr))
		return false;
	if (dwarf_whatform(&attr) == DW_FORM_sdata || dwarf_whatform(&attr) == DW_FORM_implicit_const) {
		if (dwarf_formsdata(&attr, &s))
			return false;
		*value = s;
		*negative = s < 0;
		return true;
	}
	if (dwarf_formudata(&attr, &u))
		return false;
	*value = (int64_t)u;
	*negative = false;
	return true;
}

/* A member's byte offset: a constant, or the expression DW_OP_plus_uconst N of older DWARF. */
static bool member_location(Dwarf_Die *die, Dwarf_Word *offset)
{
	Dwarf_Attribute attr;
	Dwarf_Op *expr;
	size_t n;

	if (!dwarf_attr(die, DW_AT_data_member_location, &attr))
		return false;
	if (dwarf_formudata(&attr, offset) == 0)
		return true;
	if (dwarf_getlocation(&attr, &expr, &n) == 0 && n == 1 &&
	    (expr[0].atom == DW_OP_plus_uconst || expr[0].atom == DW_OP_constu)) {
		*offset = expr[0].number;
		return true;
	}
	return false;
}

/*
 * A member's offset in bits, from DW_AT_data_bit_offset, or from its
 * byte offset and, for a bitfield in DWARF 2 and 3, DW_AT_bit_offset,
 * which counts from the storage unit's most significant bit.
 */
static uint64_t member_bit_offset(Dwarf_Die *member, uint64_t bitfield_size)
{
	Dwarf_Word bits = 0, bytes = 0, storage = 0, from_top;
	Dwarf_Die type;
	int size;

	if (attr_udata(member, DW_AT_data_bit_offset, &bits))
		return bits;
	member_location(member, &bytes);
	bits = bytes * 8;
	if (bitfield_size && attr_udata(member, DW_AT_bit_offset, &from_top)) {
		if (!attr_udata(member, DW_AT_byte_size, &storage) && referenced_type(member, &type) &&
		    (size = dwarf_bytesize(&type)) > 0)
			storage = (Dwarf_Word)size;
		bits += storage * 8 - from_top - bitfield_size;
	}
	return bits;
}

static struct mdf_error *libbpf_failed(struct converter *c, Dwarf_Die *die, int code)
{
	const char *name = die ? dwarf_diename(die) : ARRAY_INDEX_TYPE;

	return mdf_error(code == -ENOMEM ? -ENOMEM : -MDF_ECORRUPT,
			 "%s: the DWARF type at 0x%" PRIx64 " (%s) does not make BTF: %s", c->d->path,
			 die ? (uint64_t)dwarf_dieoffset(die) : 0, name ? name : "anonymous", strerror(-code));
}

static bool struct_is_declaration(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return dwarf_hasattr(die, DW_AT_declaration) || !dwarf_attr(die, DW_AT_byte_size, &attr);
}

static struct mdf_error *make_struct(struct converter *c, Dwarf_Die *die, bool is_union)
{
	const char *name = dwarf_diename(die);
	struct mdf_error *err = NULL;
	size_t nr = 0;
	Dwarf_Die child;
	int id;

	if (struct_is_declaration(die)) {
		id = name ? btf__add_fwd(c->btf, name, is_union ? BTF_FWD_UNION : BTF_FWD_STRUCT)
			  : btf__add_struct(c->btf, NULL, 0);
		return id < 0 ? libbpf_failed(c, die, id) : NULL;
	}
	if (dwarf_child(die, &child) == 0) {
		do {
			Dwarf_Word bitfield_size = 0;
			struct field *f;

			if (dwarf_tag(&child) != DW_TAG_member || dwarf_hasattr(&child, DW_AT_declaration))
				continue;
			if (vec_reserve(c->fields, &c->cap_fields, nr, 1))
				return &mdf_error_enomem;
			f = &c->fields[nr++];
			attr_udata(&child, DW_AT_bit_size, &bitfield_size);
			f->name = dwarf_diename(&child);
			f->bitfield_size = bitfield_size > UINT8_MAX ? UINT8_MAX : (uint32_t)bitfield_size;
			f->bit_offset = (uint32_t)member_bit_offset(&child, bitfield_size);
			err = referenced_id(c, &child, &f->type);
		} while (!err && dwarf_siblingof(&child, &child) == 0);
	}
	if (err)
		return err;
	id = is_union ? btf__add_union(c->btf, name, (uint32_t)dwarf_bytesize(die))
		      : btf__add_struct(c->btf, name, (uint32_t)dwarf_bytesize(die));
	if (id < 0)
		return libbpf_failed(c, die, id);
	/* libbpf refuses what BTF cannot say (a bitfield past 16 MiB, a union member off 0): skip it. */
	for (size_t i = 0; i < nr; i++)
		c->fields_dropped += btf__add_field(c->btf, c->fields[i].name, (int)c->fields[i].type,
						    c->fields[i].bit_offset, c->fields[i].bitfield_size) != 0;
	return NULL;
}

static struct mdf_error *make_enum(struct converter *c, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	int size = dwarf_bytesize(die), id;
	bool is_signed = false, negative, wide;
	Dwarf_Die child, type;
	Dwarf_Word encoding;
	int64_t value;

	if (dwarf_hasattr(die, DW_AT_declaration) || size <= 0) {
		id = name ? btf__add_fwd(c->btf, name, BTF_FWD_ENUM) : btf__add_enum(c->btf, NULL, 4);
		return id < 0 ? libbpf_failed(c, die, id) : NULL;
	}
	if (referenced_type(die, &type) && attr_udata(&type, DW_AT_encoding, &encoding))
		is_signed = encoding == DW_ATE_signed || encoding == DW_ATE_signed_char;
	wide = size == 8;
	if (dwarf_child(die, &child) == 0) {
		do {
			if (dwarf_tag(&child) == DW_TAG_enumerator &&
			    attr_constant(&child, DW_AT_const_value, &value, &negative)) {
				is_signed |= negative;
				wide |= negative ? value < INT32_MIN : (uint64_t)value > UINT32_MAX;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	id = wide ? btf__add_enum64(c->btf, name, (uint32_t)size, is_signed)
		  : btf__add_enum(c->btf, name, (uint32_t)size);
	if (id < 0)
		return libbpf_failed(c, die, id);
	if (dwarf_child(die, &child) != 0)
		return NULL;
	do {
		const char *constant = dwarf_diename(&child);
		int added;

		if (dwarf_tag(&child) != DW_TAG_enumerator || !constant ||
		    !attr_constant(&child, DW_AT_const_value, &value, &negative))
			continue;
		added = wide ? btf__add_enum64_value(c->btf, constant, (uint64_t)value)
			     : btf__add_enum_value(c->btf, constant, value);
		if (added)
			return libbpf_failed(c, die, added);
	} while (dwarf_siblingof(&child, &child) == 0);
	return NULL;
}

/* A base type: an int or a float where BTF can say it, else a struct of its size. */
static int make_base(struct converter *c, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	int size = dwarf_bytesize(die), id = -EINVAL;
	Dwarf_Word encoding = 0;

	attr_udata(die, DW_AT_encoding, &encoding);
	switch (encoding) {
	case DW_ATE_float:
	case DW_ATE_complex_float:
	case DW_ATE_decimal_float:
		id = btf__add_float(c->btf, name, (size_t)(size > 0 ? size : 0));
		break;
	default:
		id = btf__add_int(c->btf, name, (size_t)(size > 0 ? size : 0),
				  encoding == DW_ATE_boolean ? BTF_INT_BOOL
				  : encoding == DW_ATE_signed ? BTF_INT_SIGNED
				  : encoding == DW_ATE_signed_char ? BTF_INT_SIGNED | BTF_INT_CHAR
				  : encoding == DW_ATE_unsigned_char ? BTF_INT_CHAR : 0);
		break;
	}
	return id >= 0 ? id : btf__add_struct(c->btf, name, (uint32_t)(size > 0 ? size : 0));
}

/* Elements of one dimension: DW_AT_count, or DW_AT_upper_bound + 1; 0 when unbounded. */
static uint32_t subrange_count(Dwarf_Die *subrange)
{
	int64_t value, lower = 0;
	bool negative;

	if (attr_constant(subrange, DW_AT_count, &value, &negative))
		return value <= 0 ? 0 : value > UINT32_MAX ? UINT32_MAX : (uint32_t)value;
	if (!attr_constant(subrange, DW_AT_upper_bound, &value, &negative) || value < 0)
		return 0;
	attr_constant(subrange, DW_AT_lower_bound, &lower, &negative);
	return value - lower + 1 <= 0 ? 0 : value - lower + 1 > UINT32_MAX ? UINT32_MAX
									  : (uint32_t)(value - lower + 1);
}

static struct mdf_error *make_array(struct converter *c, Dwarf_Die *die, uint32_t first_id)
{
	uint32_t counts[MAX_DIMENSIONS], n = 0, element;
	struct mdf_error *err;
	Dwarf_Die child;

	if (dwarf_child(die, &child) == 0) {
		do {
			if (dwarf_tag(&child) == DW_TAG_subrange_type && n < MAX_DIMENSIONS)
				counts[n++] = subrange_count(&child);
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (!n)
		counts[n++] = 0;
	err = referenced_id(c, die, &element);
	if (!err && !c->index_type)
		err = enqueue(c, NULL, true, 1, &c->index_type);
	/* int a[2][3] is an array of 2 arrays of 3: each dimension's element is the next. */
	for (uint32_t k = 0; !err && k < n; k++) {
		int id = btf__add_array(c->btf, (int)c->index_type, (int)(k + 1 < n ? first_id + k + 1 : element),
					counts[k]);

		if (id < 0)
			err = libbpf_failed(c, die, id);
	}
	return err;
}

static struct mdf_error *make_function(struct converter *c, Dwarf_Die *die)
{
	struct mdf_error *err;
	uint32_t returns, param;
	Dwarf_Die child;
	size_t nr = 0;
	int id;

	err = referenced_id(c, die, &returns);
	if (err)
		return err;
	/* Parameters first, as their ids may queue types: libbpf adds them to the last type. */
	if (dwarf_child(die, &child) == 0) {
		do {
			int tag = dwarf_tag(&child);

			if (tag != DW_TAG_formal_parameter && tag != DW_TAG_unspecified_parameters)
				continue;
			param = 0;
			if (tag == DW_TAG_formal_parameter)
				err = referenced_id(c, &child, &param);
			if (!err && vec_reserve(c->fields, &c->cap_fields, nr, 1))
				err = &mdf_error_enomem;
			if (!err)
				c->fields[nr++] = (struct field){ tag == DW_TAG_formal_parameter ? dwarf_diename(&child)
										  : NULL, param, 0, 0 };
		} while (!err && dwarf_siblingof(&child, &child) == 0);
	}
	if (err)
		return err;
	id = btf__add_func_proto(c->btf, (int)returns);
	for (size_t i = 0; id >= 0 && i < nr; i++) {
		int added = btf__add_func_param(c->btf, c->fields[i].name, (int)c->fields[i].type);

		if (added)
			id = added;
	}
	return id < 0 ? libbpf_failed(c, die, id) : NULL;
}

/* Makes the BTF type of a queued DIE: @id is what the queue reserved for it. */
static struct mdf_error *make_type(struct converter *c, const struct queued *q, uint32_t id)
{
	Dwarf_Die die = q->die;
	struct mdf_error *err = NULL;
	uint32_t target = 0;
	int made = 0;

	if (q->index_type) {
		made = btf__add_int(c->btf, ARRAY_INDEX_TYPE, 4, 0);
		return made < 0 ? libbpf_failed(c, NULL, made) : NULL;
	}
	switch (dwarf_tag(&die)) {
	case DW_TAG_structure_type:
		return make_struct(c, &die, false);
	case DW_TAG_union_type:
		return make_struct(c, &die, true);
	case DW_TAG_enumeration_type:
		return make_enum(c, &die);
	case DW_TAG_array_type:
		return make_array(c, &die, id);
	case DW_TAG_subroutine_type:
		return make_function(c, &die);
	case DW_TAG_base_type:
		made = make_base(c, &die);
		break;
	case DW_TAG_variable:
		err = referenced_id(c, &die, &target);
		if (!err)
			made = btf__add_var(c->btf, attr_string(&die, DW_AT_name), BTF_VAR_GLOBAL_ALLOCATED,
					    (int)target);
		break;
	default:
		err = referenced_id(c, &die, &target);
		if (err)
			break;
		switch (modifier_kind(dwarf_tag(&die))) {
		case BTF_KIND_PTR:
			made = btf__add_ptr(c->btf, (int)target);
			break;
		case BTF_KIND_CONST:
			made = btf__add_const(c->btf, (int)target);
			break;
		case BTF_KIND_VOLATILE:
			made = btf__add_volatile(c->btf, (int)target);
			break;
		case BTF_KIND_RESTRICT:
			made = btf__add_restrict(c->btf, (int)target);
			break;
		default:
			made = btf__add_typedef(c->btf, dwarf_diename(&die), (int)target);
			break;
		}
		break;
	}
	return err ? err : made < 0 ? libbpf_failed(c, &die, made) : NULL;
}

/* Makes the queued types from @from on, each with the id reserved for it. */
static struct mdf_error *drain(struct converter *c, size_t *from)
{
	struct mdf_error *err = NULL;

	while (!err && *from < c->nr_queue) {
		struct queued q = c->queue[(*from)++];
		uint32_t id = (uint32_t)btf__type_cnt(c->btf);

		err = make_type(c, &q, id);
		if (!err && btf__type_cnt(c->btf) != id + (q.index_type ? 1 : dimensions(&q.die)))
			err = mdf_error(-EPROTO, "%s: the DWARF type at 0x%" PRIx64 " made %u BTF types, not %u",
					c->d->path, (uint64_t)dwarf_dieoffset(&q.die), btf__type_cnt(c->btf) - id,
					q.index_type ? 1 : dimensions(&q.die));
	}
	return err;
}

static struct mdf_error *convert(struct converter *c)
{
	struct mdf_error *err = NULL;
	size_t done = 0;
	uint32_t id;

	for (size_t i = 0; !err && i < c->d->names.nr; i++) {
		Dwarf_Die die = c->d->names.entries[i].die;

		if (dwarf_tag(&die) == DW_TAG_variable)
			err = enqueue(c, &die, false, 1, &id);
		else
			err = type_id(c, &die, 0, &id);
		if (!err)
			err = drain(c, &done);
	}
	return err;
}

struct mdf_error *vmlinux_dwarf_btf(struct vmlinux_dwarf *d, struct btf **out)
{
	struct converter c = { .d = d, .next_id = 1 };
	struct mdf_error *err = index_names(d);

	if (!err) {
		c.btf = btf__new_empty();
		if (!c.btf)
			err = &mdf_error_enomem;
	}
	if (!err)
		err = convert(&c);
	if (!err) {
		msg_debug("%s: DWARF made %u BTF types", d->path, btf__type_cnt(c.btf) - 1);
		if (c.fields_dropped)
			msg_debug("%s: %zu struct members BTF cannot hold (a bitfield past 2 MiB, a union member "
				  "off its start) are left out", d->path, c.fields_dropped);
		*out = c.btf;
		c.btf = NULL;
	}
	btf__free(c.btf);
	free(c.dies.keys);
	free(c.dies.ids);
	free(c.modifiers.keys);
	free(c.modifiers.ids);
	free(c.queue);
	free(c.fields);
	return err;
}
