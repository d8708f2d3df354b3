// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * BTF from the crashed kernel's memory.
 *
 * vmlinux's BTF is the .BTF section, linked between __start_BTF and
 * __stop_BTF and kept in memory for /sys/kernel/btf/vmlinux.  A module's
 * .BTF is copied at load time (kernel/bpf/btf.c, btf_parse_module) into a
 * struct btf whose data and data_size point at the raw bytes; each such
 * btf hangs off a struct btf_module on the static list btf_modules, with
 * the struct module it came from.  A module's BTF is "split": its type ids
 * continue vmlinux's and refer to vmlinux's types freely, so libbpf parses
 * it on top of vmlinux's (see new_split_btf).
 *
 * The layouts of btf_module, btf and module come from vmlinux's BTF
 * itself.  Every size read from the dump is bounded before it sizes an
 * allocation, and the list walk stops at a bad link (kernel/list.c).
 *
 * With -x VMLINUX, vmlinux's types are made from that file's DWARF
 * (kernel/dwarf.c) and the modules' BTF is split on the dump's own
 * vmlinux BTF, loaded for that alone: their type ids continue its ids.
 *
 * libbpf finds a type by name with a scan of every type; a lookup here
 * instead goes through a hash of the names of each BTF, built once when
 * that BTF is parsed: about 100,000 types for vmlinux.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/btf.h"
#include "kernel/list.h"
#include "kernel/vmlinux.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/message.h"
#include "util/vec.h"

/* vmlinux's is about 5 MiB, the largest module's (amdgpu) about 3 MiB. */
#define MAX_BTF_SIZE (64u << 20)
/* Far above any real system; a longer btf_modules list is corrupt. */
#define MAX_MODULES 16384
/* struct module.name is char[MODULE_NAME_LEN], 56 bytes on 64-bit kernels. */
#define MODULE_NAME_MAX 64
/* Typedef and qualifier chains, anonymous member nesting: deeper is a loop. */
#define MAX_TYPE_DEPTH 64
#define MAX_PATH_LEN 1024

/* One name of one BTF: a type (enumerator 0) or its enumerator number - 1. */
struct name_entry {
	uint32_t hash;
	uint32_t id;
	uint32_t enumerator;
};

/* Open addressing over entries: a slot holds an entry index + 1, 0 = empty. */
struct name_index {
	struct name_entry *entries;
	uint32_t *slots;
	uint32_t mask;
};

/* vmlinux's BTF or one module's, with its name indexes. */
struct btf_unit {
	char name[MODULE_NAME_MAX];
	struct btf *btf;
	uint32_t first_id;        /* types below belong to vmlinux */
	struct name_index types;
	/*
	 * Enum constants outnumber named types (16,000 to 11,000 in 6.1's
	 * vmlinux) and are seldom asked by bare name: indexed on first need.
	 */
	struct name_index enumerators;
	bool enumerators_tried;
	struct mdf_error *enumerators_err;
	uint64_t data_addr;       /* a module's: where the kernel keeps the raw BTF */
	uint32_t data_size;
	bool tried;               /* parsing was attempted: btf or err says how it went */
	struct mdf_error *err;    /* kept: each lookup that needs the unit gets a copy */
};

/* Where the fields btf_modules needs sit, from vmlinux's BTF. */
struct btf_module_layout {
	uint64_t list, module, btf;       /* in struct btf_module */
	uint64_t data, data_size;         /* in struct btf */
	uint64_t module_name;             /* in struct module */
	uint64_t module_name_size;
};

struct btf_info {
	struct memory *mem;
	struct btf_location loc;
	struct btf_unit vmlinux;
	/* With -x: the dump's own vmlinux BTF, which the modules' BTF is split on. */
	struct btf_unit dump_vmlinux;
	struct btf_unit *modules;
	size_t nr_modules, cap_modules;
	bool modules_listed;
	struct mdf_error *modules_err;
};

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char text[512];
	size_t len;

	/* libbpf explains its refusals at warning level; ours are the messages users see. */
	(void)level;
	vsnprintf(text, sizeof(text), fmt, ap);
	len = strlen(text);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	msg_debug("libbpf: %s", text);
	return 0;
}

struct mdf_error *btf_info_new(struct memory *mem, const struct btf_location *loc, struct btf_info **out)
{
	struct btf_info *bi = calloc(1, sizeof(*bi));

	if (!bi)
		return &mdf_error_enomem;
	bi->mem = mem;
	bi->loc = *loc;
	strcpy(bi->vmlinux.name, "vmlinux");
	bi->vmlinux.first_id = 1;
	strcpy(bi->dump_vmlinux.name, "vmlinux");
	bi->dump_vmlinux.first_id = 1;
	libbpf_set_print(print_libbpf);
	*out = bi;
	return NULL;
}

static void unit_release(struct btf_unit *unit)
{
	mdf_error_free(unit->err);
	mdf_error_free(unit->enumerators_err);
	btf__free(unit->btf);
	free(unit->types.entries);
	free(unit->types.slots);
	free(unit->enumerators.entries);
	free(unit->enumerators.slots);
}

void btf_info_free(struct btf_info *bi)
{
	if (!bi)
		return;
	for (size_t i = 0; i < bi->nr_modules; i++)
		unit_release(&bi->modules[i]);
	free(bi->modules);
	mdf_error_free(bi->modules_err);
	/* Modules' BTFs are split on vmlinux's: it goes last. */
	unit_release(&bi->dump_vmlinux);
	unit_release(&bi->vmlinux);
	free(bi);
}

/* The low half of the name's hash: the table has fewer than 2^32 slots. */
static uint32_t hash_name(const char *name)
{
	return (uint32_t)fnv1a64_str(name);
}

static const char *type_name(const struct btf *btf, const struct btf_type *t)
{
	return btf__name_by_offset(btf, t->name_off);
}

/* Named kinds a path may start with; functions and the like are not types to look into. */
static bool is_indexed_kind(const struct btf_type *t)
{
	return btf_is_composite(t) || btf_is_typedef(t) || btf_is_any_enum(t) || btf_is_int(t) ||
	       btf_is_float(t) || btf_is_var(t);
}

static const char *enumerator_name(const struct btf *btf, const struct btf_type *t, uint32_t i)
{
	return btf__name_by_offset(btf, btf_is_enum(t) ? btf_enum(t)[i].name_off : btf_enum64(t)[i].name_off);
}

/* BTF says signed with kind_flag 1, unsigned with 0 (kernels >= 6.0 set it). */
static int64_t enumerator_value(const struct btf_type *t, uint32_t i)
{
	if (btf_is_enum(t))
		return btf_kflag(t) ? (int64_t)btf_enum(t)[i].val : (int64_t)(uint32_t)btf_enum(t)[i].val;
	return (int64_t)btf_enum64_value(&btf_enum64(t)[i]);
}

/* Appends an entry, growing the array as needed. */
static struct mdf_error *index_append(struct name_index *index, uint32_t *nr, size_t *cap, const char *name,
				      uint32_t id, uint32_t enumerator)
{
	if (vec_reserve(index->entries, cap, *nr, 1))
		return &mdf_error_enomem;
	index->entries[(*nr)++] = (struct name_entry){ .hash = hash_name(name), .id = id, .enumerator = enumerator };
	return NULL;
}

static bool is_indexed_type(const struct btf_type *t)
{
	return is_indexed_kind(t) && t->name_off;
}

/*
 * Indexes the names of this unit's own types, or of its enum constants:
 * one pass over the types gathers them (a second, to count them first,
 * cost as much again), then the table is sized and filled.  Linear
 * probing keeps entries of one name in id order along their chain, so a
 * lookup meets the first definition first.
 */
static struct mdf_error *build_index(const struct btf_unit *unit, bool enumerators, struct name_index *index)
{
	uint32_t end = btf__type_cnt(unit->btf), nr = 0, size = 1;
	struct mdf_error *err = NULL;
	size_t cap = 0;

	for (uint32_t id = unit->first_id; id < end && !err; id++) {
		const struct btf_type *t = btf__type_by_id(unit->btf, id);

		if (!enumerators && is_indexed_type(t))
			err = index_append(index, &nr, &cap, type_name(unit->btf, t), id, 0);
		for (uint32_t i = 0; enumerators && btf_is_any_enum(t) && i < btf_vlen(t) && !err; i++)
			err = index_append(index, &nr, &cap, enumerator_name(unit->btf, t, i), id, i + 1);
	}
	if (err)
		return err;
	while (size < 2 * nr + 2)
		size <<= 1;
	index->slots = calloc(size, sizeof(*index->slots));
	if (!index->slots)
		return &mdf_error_enomem;
	index->mask = size - 1;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t slot = index->entries[i].hash & index->mask;

		while (index->slots[slot])
			slot = (slot + 1) & index->mask;
		index->slots[slot] = i + 1;
	}
	return NULL;
}

/* Reads @len bytes of a unit's raw BTF, from @offset on. */
static struct mdf_error *read_raw_btf(struct btf_info *bi, const struct btf_unit *unit, uint32_t offset,
				      void *buf, uint32_t len)
{
	struct mdf_error *err = mem_read_virt(bi->mem, unit->data_addr + offset, buf, len);

	if (err)
		return mdf_error_wrap(err, "%s: cannot read its BTF (%" PRIu32 " bytes at 0x%" PRIx64 ")",
				      unit->name, unit->data_size, unit->data_addr);
	return NULL;
}

/* Takes libbpf's answer for a unit's BTF (errno as libbpf left it): the BTF, or why not. */
static struct mdf_error *take_parsed(struct btf_unit *unit, struct btf *btf)
{
	int err = -errno;

	if (btf) {
		unit->btf = btf;
		return NULL;
	}
	return mdf_error(err == -ENOMEM ? err : -MDF_ECORRUPT,
			 "%s: the BTF at 0x%" PRIx64 " (%" PRIu32 " bytes) does not parse: %s "
			 "(--message-level 31 shows libbpf's reason)", unit->name, unit->data_addr,
			 unit->data_size, strerror(-err));
}

/*
 * libbpf 1.1 declares btf__new_split but does not export it (its symbol
 * map lacks the name), so split BTF is parsed the one other way libbpf
 * offers, btf__parse_raw_split, from an anonymous in-memory file.  The
 * file is filled a piece at a time: libbpf makes its own copies, and one
 * more of ours would only add to the memory the run keeps.
 */
#define SPLIT_BTF_PIECE (64u << 10)

static struct mdf_error *new_split_btf(struct btf_info *bi, struct btf_unit *unit, struct btf *base)
{
	char path[64], *piece = malloc(SPLIT_BTF_PIECE);
	struct mdf_error *err = NULL;
	int fd = -1;

	if (!piece)
		return &mdf_error_enomem;
	fd = memfd_create("module-btf", MFD_CLOEXEC);
	if (fd < 0) {
		err = mdf_error(-errno, "%s: cannot make a file for its BTF: %s", unit->name, strerror(errno));
		goto out;
	}
	for (uint32_t done = 0, len; done < unit->data_size && !err; done += len) {
		ssize_t written;

		len = unit->data_size - done < SPLIT_BTF_PIECE ? unit->data_size - done : SPLIT_BTF_PIECE;
		err = read_raw_btf(bi, unit, done, piece, len);
		if (err)
			break;
		written = write(fd, piece, len);
		if (written != (ssize_t)len) {
			int code = written < 0 ? -errno : -EIO;

			err = mdf_error(code, "%s: cannot copy its BTF to a file: %s", unit->name, strerror(-code));
		}
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!err)
		err = take_parsed(unit, btf__parse_raw_split(path, base));
out:
	if (fd >= 0)
		close(fd);
	free(piece);
	return err;
}

/* vmlinux's BTF, whole: libbpf parses it from a copy of its own, so ours goes at once. */
static struct mdf_error *new_vmlinux_btf(struct btf_info *bi, struct btf_unit *unit)
{
	void *raw = malloc(unit->data_size);
	struct mdf_error *err = raw ? read_raw_btf(bi, unit, 0, raw, unit->data_size) : &mdf_error_enomem;

	if (!err)
		err = take_parsed(unit, btf__new(raw, unit->data_size));
	free(raw);
	return err;
}

/* Reads and parses a unit's raw BTF from the dump, once. */
/*
 * Whether type @id may be followed: 0 (void) or a type of @btf or of its
 * base.  libbpf 1.1 does not check the ids inside types it accepts.
 */
static bool valid_ref(const struct btf *btf, uint32_t id)
{
	return id < btf__type_cnt(btf);
}

/*
 * Every type id the unit's types refer to names a type, checked once
 * here so that no lookup has to: a corrupt id would otherwise be followed
 * as NULL.
 */
static struct mdf_error *check_type_ids(const struct btf_unit *unit)
{
	const struct btf *btf = unit->btf;
	uint32_t count = btf__type_cnt(btf);

	for (uint32_t id = unit->first_id; id < count; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		uint32_t bad = 0;
		bool ok = true;

		switch (btf_kind(t)) {
		case BTF_KIND_PTR:
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_FUNC:
		case BTF_KIND_VAR:
		case BTF_KIND_TYPE_TAG:
		case BTF_KIND_DECL_TAG:
			ok = valid_ref(btf, bad = t->type);
			break;
		case BTF_KIND_ARRAY:
			ok = valid_ref(btf, bad = btf_array(t)->type) && valid_ref(btf, bad = btf_array(t)->index_type);
			break;
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			for (uint32_t i = 0; ok && i < btf_vlen(t); i++)
				ok = valid_ref(btf, bad = btf_members(t)[i].type);
			break;
		case BTF_KIND_FUNC_PROTO:
			ok = valid_ref(btf, bad = t->type);
			for (uint32_t i = 0; ok && i < btf_vlen(t); i++)
				ok = valid_ref(btf, bad = btf_params(t)[i].type);
			break;
		case BTF_KIND_DATASEC:
			for (uint32_t i = 0; ok && i < btf_vlen(t); i++)
				ok = valid_ref(btf, bad = btf_var_secinfos(t)[i].type);
			break;
		default:
			break;
		}
		if (!ok)
			return mdf_error(-MDF_ECORRUPT, "%s's BTF is corrupt: type %" PRIu32 " refers to type %" PRIu32
					 ", past its last, %" PRIu32, unit->name, id, bad, count - 1);
	}
	return NULL;
}

/*
 * Every name the unit's types give (their own, their members', enum
 * constants' and parameters') lies in its strings: libbpf 1.1 does not
 * check them, and btf__name_by_offset() gives NULL for one that does not.
 */
static struct mdf_error *check_names(const struct btf_unit *unit)
{
	const struct btf *btf = unit->btf;
	uint32_t count = btf__type_cnt(btf);

	for (uint32_t id = unit->first_id; id < count; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		uint32_t bad = t->name_off;
		bool ok = btf__name_by_offset(btf, bad);

		for (uint32_t i = 0; ok && i < btf_vlen(t); i++) {
			if (btf_is_composite(t))
				bad = btf_members(t)[i].name_off;
			else if (btf_is_enum(t))
				bad = btf_enum(t)[i].name_off;
			else if (btf_is_enum64(t))
				bad = btf_enum64(t)[i].name_off;
			else if (btf_is_func_proto(t))
				bad = btf_params(t)[i].name_off;
			else
				break;
			ok = btf__name_by_offset(btf, bad);
		}
		if (!ok)
			return mdf_error(-MDF_ECORRUPT, "%s's BTF is corrupt: type %" PRIu32 " names the string at %"
					 PRIu32 ", past its strings", unit->name, id, bad);
	}
	return NULL;
}

static struct mdf_error *load_dump_vmlinux(struct btf_info *bi, struct btf_unit *unit);

/* The BTF the modules' BTF is split on: the dump's vmlinux BTF, loaded. */
static struct mdf_error *module_base(struct btf_info *bi, struct btf **base)
{
	struct btf_unit *unit = bi->loc.vmlinux ? &bi->dump_vmlinux : &bi->vmlinux;
	struct mdf_error *err = load_dump_vmlinux(bi, unit);

	if (err)
		return mdf_error_wrap(err, "the BTF of modules is split on the dump's vmlinux BTF");
	*base = unit->btf;
	return NULL;
}

static struct mdf_error *load_unit(struct btf_info *bi, struct btf_unit *unit)
{
	bool from_dwarf = unit == &bi->vmlinux && bi->loc.vmlinux;
	bool is_module = unit != &bi->vmlinux && unit != &bi->dump_vmlinux;
	struct btf *base = NULL;
	struct mdf_error *err = NULL;

	if (unit->tried)
		return mdf_error_copy(unit->err);
	unit->tried = true;
	if (is_module)
		err = module_base(bi, &base);
	if (!err)
		err = from_dwarf ? vmlinux_types(bi->loc.vmlinux, &unit->btf)
		      : base	 ? new_split_btf(bi, unit, base)
				 : new_vmlinux_btf(bi, unit);
	if (!err) {
		unit->first_id = base ? btf__type_cnt(base) : 1;
		err = check_type_ids(unit);
	}
	if (!err)
		err = check_names(unit);
	if (!err)
		err = build_index(unit, false, &unit->types);
	if (!err && from_dwarf)
		msg_debug("BTF of %s, from the DWARF of %s: types %" PRIu32 "..%" PRIu32, unit->name,
			  vmlinux_path(bi->loc.vmlinux), unit->first_id, btf__type_cnt(unit->btf) - 1);
	else if (!err)
		msg_debug("BTF of %s: %" PRIu32 " bytes, types %" PRIu32 "..%" PRIu32, unit->name,
			  unit->data_size, unit->first_id, btf__type_cnt(unit->btf) - 1);
	if (err) {
		btf__free(unit->btf);
		unit->btf = NULL;
	}
	unit->err = err;
	return mdf_error_copy(err);
}

/* Reads and parses the dump's own vmlinux BTF into @unit, once. */
static struct mdf_error *load_dump_vmlinux(struct btf_info *bi, struct btf_unit *unit)
{
	uint64_t start = bi->loc.start, stop = bi->loc.stop;

	if (!unit->tried && !unit->data_size) {
		if (!bi->loc.has_vmlinux) {
			unit->tried = true;
			unit->err = mdf_error(-ENOENT, "the kernel's kallsyms have no __start_BTF and __stop_BTF: "
					      "it was built without BTF (CONFIG_DEBUG_INFO_BTF)");
			return mdf_error_copy(unit->err);
		}
		if (stop <= start || stop - start > MAX_BTF_SIZE) {
			unit->tried = true;
			unit->err = mdf_error(-MDF_ECORRUPT, "vmlinux BTF from __start_BTF=0x%" PRIx64
					      " to __stop_BTF=0x%" PRIx64 " is not 1 byte to %u MiB: corrupt kallsyms",
					      start, stop, MAX_BTF_SIZE >> 20);
			return mdf_error_copy(unit->err);
		}
		unit->data_addr = start;
		unit->data_size = (uint32_t)(stop - start);
	}
	return load_unit(bi, unit);
}

/* vmlinux's types: the dump's BTF, or with -x the vmlinux's DWARF. */
static struct mdf_error *load_vmlinux(struct btf_info *bi)
{
	return bi->loc.vmlinux ? load_unit(bi, &bi->vmlinux) : load_dump_vmlinux(bi, &bi->vmlinux);
}

/* Follows typedefs and qualifiers to the type they name. */
static uint32_t skip_aliases(const struct btf *btf, uint32_t id)
{
	for (int depth = 0; depth < MAX_TYPE_DEPTH; depth++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!t || !(btf_is_typedef(t) || btf_is_mod(t) || btf_is_type_tag(t)))
			return id;
		id = t->type;
	}
	return id;
}

/* "struct page", "typedef atomic_t", "an array", ...: for messages. */
static void describe_type(const struct btf *btf, uint32_t id, char *buf, size_t len)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name = t ? type_name(btf, t) : "void", *keyword = NULL;

	switch (t ? btf_kind(t) : BTF_KIND_UNKN) {
	case BTF_KIND_PTR:
		name = "a pointer";
		break;
	case BTF_KIND_ARRAY:
		name = "an array";
		break;
	case BTF_KIND_FUNC_PROTO:
		name = "a function";
		break;
	case BTF_KIND_STRUCT:
		keyword = "struct";
		break;
	case BTF_KIND_UNION:
		keyword = "union";
		break;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		keyword = "enum";
		break;
	case BTF_KIND_FWD:
		keyword = "incomplete";
		break;
	case BTF_KIND_TYPEDEF:
		keyword = "typedef";
		break;
	default:
		break;
	}
	snprintf(buf, len, "%s%s%s", keyword ? keyword : "", keyword ? " " : "",
		 keyword && !*name ? "(anonymous)" : name);
}

/* Types of one name in one unit, best first: struct/union, typedef, enum, base type, variable. */
static int type_rank(const struct btf_type *t)
{
	if (btf_is_composite(t))
		return 0;
	if (btf_is_typedef(t))
		return 1;
	if (btf_is_any_enum(t))
		return 2;
	if (btf_is_int(t) || btf_is_float(t))
		return 3;
	return 4;
}

static uint32_t find_type(const struct btf_unit *unit, const char *name)
{
	const struct name_index *index = &unit->types;
	uint32_t hash = hash_name(name), best = 0;
	int best_rank = 5;

	for (uint32_t slot = hash & index->mask; index->slots[slot]; slot = (slot + 1) & index->mask) {
		const struct name_entry *e = &index->entries[index->slots[slot] - 1];
		const struct btf_type *t;

		if (e->hash != hash)
			continue;
		t = btf__type_by_id(unit->btf, e->id);
		if (type_rank(t) < best_rank && !strcmp(type_name(unit->btf, t), name)) {
			best = e->id;
			best_rank = type_rank(t);
		}
	}
	return best;
}

/*
 * The enum constant @name and its value; -ENOENT, with nothing more to
 * say, when there is none; -ENOTUNIQ when two enums of this unit give it
 * different values.
 */
static struct mdf_error *find_enumerator(struct btf_unit *unit, const char *name, int64_t *value,
					 uint32_t *enum_id)
{
	const struct name_index *index = &unit->enumerators;
	uint32_t hash = hash_name(name);
	bool found = false;

	if (!unit->enumerators_tried) {
		unit->enumerators_tried = true;
		unit->enumerators_err = build_index(unit, true, &unit->enumerators);
	}
	if (unit->enumerators_err)
		return mdf_error_copy(unit->enumerators_err);
	for (uint32_t slot = hash & index->mask; index->slots[slot]; slot = (slot + 1) & index->mask) {
		const struct name_entry *e = &index->entries[index->slots[slot] - 1];
		const struct btf_type *t;
		int64_t v;

		if (e->hash != hash)
			continue;
		t = btf__type_by_id(unit->btf, e->id);
		if (strcmp(enumerator_name(unit->btf, t, e->enumerator - 1), name))
			continue;
		v = enumerator_value(t, e->enumerator - 1);
		if (found && v != *value) {
			char first[128], second[128];

			describe_type(unit->btf, *enum_id, first, sizeof(first));
			describe_type(unit->btf, e->id, second, sizeof(second));
			return mdf_error(-ENOTUNIQ, "%s: enum constant %s is %" PRId64 " in %s but %" PRId64
					 " in %s; name the enum to choose: ENUM.%s", unit->name, name, *value,
					 first, v, second, name);
		}
		if (!found) {
			*value = v;
			*enum_id = e->id;
			found = true;
		}
	}
	return found ? NULL : &mdf_error_not_found;
}

/* Reads the BTF layout of btf_modules' entries, for the walk. */
static struct mdf_error *module_layout(struct btf_info *bi, struct btf_module_layout *l)
{
	const struct {
		const char *path;
		uint64_t *offset;
	} fields[] = {
		{ "btf_module.list", &l->list },
		{ "btf_module.module", &l->module },
		{ "btf_module.btf", &l->btf },
		{ "btf.data", &l->data },
		{ "btf.data_size", &l->data_size },
		{ "module.name", &l->module_name },
	};
	struct btf_info_result r;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		struct mdf_error *err = btf_info_lookup(bi, "vmlinux", fields[i].path, &r);

		if (mdf_error_is_not_found(err)) {
			mdf_error_free(err);
			return mdf_error(-ENOENT, "vmlinux BTF has no %s: cannot find module BTF", fields[i].path);
		}
		if (err)
			return err;
		*fields[i].offset = r.bit_offset / 8;
		if (!strcmp(fields[i].path, "module.name"))
			l->module_name_size = (uint64_t)r.size;
	}
	if (l->module_name_size < 2 || l->module_name_size > MODULE_NAME_MAX)
		return mdf_error(-MDF_ECORRUPT, "vmlinux BTF says struct module.name has %" PRIu64
				 " bytes, not 2..%d", l->module_name_size, MODULE_NAME_MAX);
	return NULL;
}

/*
 * One entry of btf_modules: its module's name and where its raw BTF is.
 * A bad entry is reported here; the caller goes on with the list.
 */
static struct mdf_error *read_module_entry(struct btf_info *bi, const struct btf_module_layout *l,
					   uint64_t entry, struct btf_unit *unit)
{
	uint64_t module, btf;
	char name[MODULE_NAME_MAX];
	struct mdf_error *err;

	err = mem_read_u64(bi->mem, entry + l->module, &module);
	if (!err)
		err = mem_read_u64(bi->mem, entry + l->btf, &btf);
	if (err) {
		msg_warn("btf_modules: struct btf_module at 0x%" PRIx64 " is unreadable (%s): skipped", entry,
			 mdf_error_text(err));
		return err;
	}
	err = mem_read_virt(bi->mem, module + l->module_name, name, l->module_name_size);
	if (err) {
		msg_warn("btf_modules: struct btf_module at 0x%" PRIx64 ": its struct module at 0x%" PRIx64
			 " is unreadable (%s): skipped", entry, module, mdf_error_text(err));
		return err;
	}
	if (!memchr(name, '\0', l->module_name_size) || !name[0]) {
		msg_warn("btf_modules: struct module at 0x%" PRIx64 " has no valid name: skipped", module);
		return mdf_error_code(-MDF_ECORRUPT);
	}
	memcpy(unit->name, name, l->module_name_size);
	err = mem_read_u64(bi->mem, btf + l->data, &unit->data_addr);
	if (!err)
		err = mem_read_u32(bi->mem, btf + l->data_size, &unit->data_size);
	if (err) {
		msg_warn("module %s: its struct btf at 0x%" PRIx64 " is unreadable (%s): its BTF is not used",
			 unit->name, btf, mdf_error_text(err));
		return err;
	}
	if (unit->data_size == 0 || unit->data_size > MAX_BTF_SIZE) {
		msg_warn("module %s: struct btf at 0x%" PRIx64 " says its BTF has %" PRIu32 " bytes, not 1 "
			 "byte to %u MiB: corrupt, not used", unit->name, btf, unit->data_size,
			 MAX_BTF_SIZE >> 20);
		return mdf_error_code(-MDF_ECORRUPT);
	}
	return NULL;
}

/*
 * Walks btf_modules once and records each module's BTF, unparsed.  A bad
 * link ends the walk: the modules before it stay usable.
 */
static struct mdf_error *list_modules(struct btf_info *bi)
{
	struct btf_module_layout l;
	struct klist list;
	uint64_t head, node;
	char last[MODULE_NAME_MAX] = "?";
	struct mdf_error *err;

	if (bi->modules_listed)
		return mdf_error_copy(bi->modules_err);
	bi->modules_listed = true;
	err = load_vmlinux(bi);
	if (!err && !bi->loc.has_modules && bi->loc.find_btf_modules)
		bi->loc.has_modules = bi->loc.find_btf_modules(bi->loc.find_ctx, &bi->loc.btf_modules);
	head = bi->loc.btf_modules;
	if (!err && !bi->loc.has_modules) {
		msg_debug("the kernel's kallsyms have no btf_modules%s: no module BTF "
			  "(CONFIG_DEBUG_INFO_BTF_MODULES off)",
			  bi->loc.find_btf_modules ? ", nor has its image" : "");
		err = &mdf_error_not_found;
	}
	if (!err)
		err = module_layout(bi, &l);
	if (err) {
		bi->modules_err = err;
		return mdf_error_copy(err);
	}
	klist_init(&list, bi->mem, head, MAX_MODULES);
	while (!(err = klist_next(&list, &node)) && node) {
		struct btf_unit unit = { 0 };

		/*
		 * A damaged entry was reported.  When its module's name is known
		 * it stays listed, unusable, so that a lookup in it says so.
		 */
		unit.err = read_module_entry(bi, &l, node - l.list, &unit);
		unit.tried = unit.err != NULL;
		snprintf(last, sizeof(last), "%s", unit.name[0] ? unit.name : "?");
		if (!unit.name[0]) {
			mdf_error_free(unit.err);
			continue;
		}
		if (vec_reserve(bi->modules, &bi->cap_modules, bi->nr_modules, 1)) {
			mdf_error_free(unit.err);
			err = &mdf_error_enomem;
			break;
		}
		bi->modules[bi->nr_modules++] = unit;
	}
	if (err && err->code != -ENOMEM) {
		msg_warn("btf_modules list at 0x%" PRIx64 ": after %s%s (struct btf_module at 0x%" PRIx64
			 "), %s; the BTF of modules past it is not searched", head,
			 list.count ? "module " : "its head", list.count ? last : "",
			 list.count ? list.node - l.list : head, mdf_error_text(err));
	}
	klist_release(&list);
	msg_debug("btf_modules: %zu modules with BTF", bi->nr_modules);
	bi->modules_err = err;
	return mdf_error_copy(err);
}

/* The module of that name among those listed, or NULL. */
static struct btf_unit *find_module(struct btf_info *bi, const char *name)
{
	for (size_t i = 0; i < bi->nr_modules; i++)
		if (!strcmp(bi->modules[i].name, name))
			return &bi->modules[i];
	return NULL;
}

/* Whether a module's BTF loads; one that does not is said once, as a warning, and passed over. */
static bool module_usable(struct btf_info *bi, struct btf_unit *unit)
{
	bool first = !unit->tried;
	struct mdf_error *err = load_unit(bi, unit);

	if (err && first)
		msg_warn("%s", mdf_error_text(err));
	mdf_error_free(err);
	return !err;
}

/*
 * The @i-th unit of @scope in search order, parsed, or NULL past the last.
 * The module list is walked only when the search gets to modules.
 */
static struct btf_unit *scope_unit(struct btf_info *bi, const char *scope, size_t i)
{
	struct btf_unit *unit;

	if (!scope || !strcmp(scope, "vmlinux")) {
		if (i == 0)
			return &bi->vmlinux;
		if (scope)
			return NULL;
		/* A list that does not walk was said; the modules before the break are there. */
		mdf_error_free(list_modules(bi));
		for (i--; i < bi->nr_modules; i++)
			if (module_usable(bi, &bi->modules[i]))
				return &bi->modules[i];
		return NULL;
	}
	if (i > 1)
		return NULL;
	if (i == 1)
		return &bi->vmlinux;
	unit = find_module(bi, scope);
	return unit && module_usable(bi, unit) ? unit : NULL;
}

/* A member of a struct or union, searched inside anonymous members too. */
static bool find_member(const struct btf *btf, uint32_t id, const char *name, uint64_t base, int depth,
			struct btf_info_result *r)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m = btf_members(t);

	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		const char *member = btf__name_by_offset(btf, m[i].name_off);
		uint64_t offset = base + btf_member_bit_offset(t, i);
		uint32_t inner;

		if (member && *member) {
			if (strcmp(member, name))
				continue;
			r->type_id = m[i].type;
			r->bit_offset = offset;
			r->bitfield_size = btf_member_bitfield_size(t, i);
			return true;
		}
		inner = skip_aliases(btf, m[i].type);
		if (depth < MAX_TYPE_DEPTH && btf_is_composite(btf__type_by_id(btf, inner)) &&
		    find_member(btf, inner, name, offset, depth + 1, r))
			return true;
	}
	return false;
}

/* Fills in what follows from r->type_id: kind, size, array length. */
static struct mdf_error *finish_result(const struct btf_unit *unit, const char *path,
				       struct btf_info_result *r)
{
	const struct btf_type *t = btf__type_by_id(unit->btf, r->type_id);
	const struct btf_type *target = btf__type_by_id(unit->btf, skip_aliases(unit->btf, r->type_id));

	r->scope = unit->name;
	r->btf = unit->btf;
	r->btf_kind = t ? btf_kind(t) : BTF_KIND_UNKN;
	r->size = btf__resolve_size(unit->btf, r->type_id);
	r->array_length = target && btf_is_array(target) ? (int64_t)btf_array(target)->nelems : -1;
	if (r->size < 0)
		return mdf_error(-ENOENT, "%s: %s: its type (id %" PRIu32 ") has no size in %s's BTF", unit->name,
				 path, r->type_id, unit->name);
	return NULL;
}

/*
 * Resolves the members after the first component, in the unit where that
 * was found.  @copy is a writable copy of @path; @rest points into it,
 * past the first component.
 */
static struct mdf_error *resolve_members(const struct btf_unit *unit, const char *path, const char *copy,
					 char *rest, struct btf_info_result *r)
{
	char *member, *save = NULL;
	uint64_t offset = 0;

	for (member = strtok_r(rest, ".", &save); member; member = strtok_r(NULL, ".", &save)) {
		uint32_t id = skip_aliases(unit->btf, r->type_id);
		const struct btf_type *t = btf__type_by_id(unit->btf, id);
		/* What the path names so far, for messages: "page", "page.lru", ... */
		int known = (int)(member - copy - 1);
		char label[160];

		if (r->kind == BTF_INFO_ENUM_VALUE)
			return mdf_error(-ENOENT, "%s: %.*s is an enum constant: it has no member %s", unit->name,
					 known, path, member);
		if (t && btf_is_any_enum(t) && r->kind == BTF_INFO_TYPE) {
			for (uint32_t i = 0; i < btf_vlen(t) && r->kind != BTF_INFO_ENUM_VALUE; i++) {
				if (strcmp(enumerator_name(unit->btf, t, i), member))
					continue;
				r->kind = BTF_INFO_ENUM_VALUE;
				r->value = enumerator_value(t, i);
			}
			if (r->kind == BTF_INFO_ENUM_VALUE)
				continue;
			return mdf_error(-ENOENT, "%s: enum %.*s has no constant %s", unit->name, known, path,
					 member);
		}
		describe_type(unit->btf, r->type_id, label, sizeof(label));
		if (!t || !btf_is_composite(t))
			return mdf_error(-ENOENT, "%s: %.*s is %s, not a struct or union: it has no member %s",
					 unit->name, known, path, label, member);
		if (!find_member(unit->btf, id, member, offset, 0, r))
			return mdf_error(-ENOENT, "%s: %.*s (%s) has no member %s", unit->name, known, path, label,
					 member);
		offset = r->bit_offset;
		r->kind = BTF_INFO_MEMBER;
	}
	return finish_result(unit, path, r);
}

struct mdf_error *btf_info_lookup(struct btf_info *bi, const char *scope, const char *path,
				  struct btf_info_result *r)
{
	char name[MAX_PATH_LEN], *dot;
	struct btf_unit *unit;
	struct mdf_error *err;

	memset(r, 0, sizeof(*r));
	r->array_length = -1;
	if (strlen(path) >= sizeof(name) || !*path || *path == '.' || path[strlen(path) - 1] == '.' ||
	    strstr(path, ".."))
		return mdf_error(-EINVAL, "\"%.80s\" is not NAME or NAME.MEMBER[.MEMBER...]", path);
	err = load_vmlinux(bi);
	if (err)
		return err;
	if (scope && strcmp(scope, "vmlinux")) {
		err = list_modules(bi);
		if (!find_module(bi, scope)) {
			/* A list that could not be walked at all says so. */
			if (err && err->code != -ENOENT && !bi->nr_modules)
				return err;
			mdf_error_free(err);
			return mdf_error(-ENOENT, "%s: no such module in btf_modules (%zu modules have BTF there)",
					 scope, bi->nr_modules);
		}
		mdf_error_free(err);
		err = load_unit(bi, find_module(bi, scope));
		if (err)
			return err;
	}
	strcpy(name, path);
	dot = strchr(name, '.');
	if (dot)
		*dot = '\0';
	/*
	 * The first unit with a type of that name answers, member or no
	 * member; with no type, the first with an enum constant of it.
	 */
	for (size_t i = 0; (unit = scope_unit(bi, scope, i)); i++) {
		const struct btf_type *t;

		r->type_id = find_type(unit, name);
		if (!r->type_id) {
			if (dot)
				continue;
			err = find_enumerator(unit, name, &r->value, &r->type_id);
			if (mdf_error_is_not_found(err)) {
				mdf_error_free(err);
				continue;
			}
			if (!err) {
				r->kind = BTF_INFO_ENUM_VALUE;
				err = finish_result(unit, path, r);
			}
			return err;
		}
		t = btf__type_by_id(unit->btf, r->type_id);
		r->kind = BTF_INFO_TYPE;
		if (btf_is_var(t)) {
			r->kind = BTF_INFO_VARIABLE;
			r->type_id = t->type;
		}
		return dot ? resolve_members(unit, path, name, dot + 1, r) : finish_result(unit, path, r);
	}
	return mdf_error(-ENOENT, "%s: no struct, union, typedef, enum, base type%s of that name in the BTF of %s%s",
			 name, dot ? " or variable" : ", variable or enum constant",
			 !scope ? "vmlinux or any module" : scope,
			 scope && strcmp(scope, "vmlinux") ? " or vmlinux" : "");
}

static struct mdf_error *describe_one(struct btf_info *bi, const char *spec, FILE *out)
{
	struct btf_info_result r;
	char scope[MODULE_NAME_MAX];
	const char *colon = strchr(spec, ':'), *path = spec;
	struct mdf_error *err;

	if (colon) {
		if (colon == spec || (size_t)(colon - spec) >= sizeof(scope))
			return mdf_error(-EINVAL, "\"%.80s\": the module name before ':' must be 1 to %d "
					 "characters", spec, MODULE_NAME_MAX - 1);
		memcpy(scope, spec, (size_t)(colon - spec));
		scope[colon - spec] = '\0';
		path = colon + 1;
	}
	if (!*path)
		return mdf_error(-EINVAL, "\"%.80s\": no NAME after the module name", spec);
	err = btf_info_lookup(bi, colon ? scope : NULL, path, &r);
	if (err)
		return err;
	switch (r.kind) {
	case BTF_INFO_TYPE:
	case BTF_INFO_VARIABLE:
		fprintf(out, "%s size=%" PRId64 "\n", spec, r.size);
		break;
	case BTF_INFO_MEMBER:
		fprintf(out, "%s offset=%" PRIu64 " size=%" PRId64 " bitfield=%" PRIu32, spec,
			r.bit_offset / 8, r.size, r.bitfield_size);
		if (r.bitfield_size)
			fprintf(out, " bit_offset=%" PRIu64, r.bit_offset);
		fputc('\n', out);
		break;
	case BTF_INFO_ENUM_VALUE:
		fprintf(out, "%s=%" PRId64 "\n", spec, r.value);
		break;
	}
	return NULL;
}

struct mdf_error *btf_info_describe(struct btf_info *bi, const char *specs, FILE *out,
				    void (*say)(struct mdf_error *err))
{
	char *copy = strdup(specs), *spec, *save = NULL;
	int code = 0;

	if (!copy)
		return &mdf_error_enomem;
	/* Every spec is answered or explained, whatever the others do. */
	for (spec = strtok_r(copy, ",", &save); spec; spec = strtok_r(NULL, ",", &save)) {
		struct mdf_error *err = describe_one(bi, spec, out);

		if (err && !code)
			code = err->code;
		if (err)
			say(err);
	}
	free(copy);
	if (!code && ferror(out))
		return mdf_error(-EIO, "standard output: write error");
	return code ? mdf_error_code(code) : NULL;
}

struct mdf_error *btf_info_scope_btf(struct btf_info *bi, const char *scope, const struct btf **out)
{
	struct btf_unit *unit = &bi->vmlinux;
	struct mdf_error *err = load_vmlinux(bi);

	if (!err && scope && strcmp(scope, "vmlinux")) {
		mdf_error_free(list_modules(bi));
		unit = find_module(bi, scope);
		err = unit ? load_unit(bi, unit) : &mdf_error_not_found;
	}
	if (!err)
		*out = unit->btf;
	return err;
}

struct mdf_error *btf_info_load_all(struct btf_info *bi)
{
	struct mdf_error *err = list_modules(bi);

	/* A module whose BTF does not parse is said and passed over; the others are usable. */
	for (size_t i = 0; i < bi->nr_modules; i++)
		module_usable(bi, &bi->modules[i]);
	if (mdf_error_is_not_found(err)) {
		mdf_error_free(err);
		return load_vmlinux(bi);
	}
	return err;
}

bool btf_info_present(const struct btf_info *bi)
{
	return bi->loc.has_vmlinux || bi->loc.vmlinux;
}

size_t btf_info_module_count(const struct btf_info *bi)
{
	return bi->nr_modules;
}
