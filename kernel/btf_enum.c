// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walk of btf_enum.h, over BTF as the kernel lays it out
 * (Documentation/bpf/btf.rst):
 *
 *   header   u16 magic 0xeB9F, u8 version (1), u8 flags, u32 hdr_len,
 *            u32 type_off, u32 type_len, u32 str_off, u32 str_len; the
 *            offsets count from the header's end
 *   types    one after the other, each a struct btf_type: u32 name_off,
 *            u32 info (vlen in bits 0-15, kind in bits 24-28), u32
 *            size or type; then what the kind adds: 4 bytes for INT, VAR
 *            and DECL_TAG, 12 for ARRAY, vlen * 12 for STRUCT, UNION,
 *            DATASEC and ENUM64, vlen * 8 for ENUM and FUNC_PROTO,
 *            nothing for the others
 *   strings  NUL-terminated names, at the offsets name_off gives
 *
 * An ENUM's members are (u32 name_off, s32 val); an ENUM64's (u32 name_off,
 * u32 val_lo32, u32 val_hi32).  Every value is in the kernel's byte order,
 * which the magic's bytes tell.  The walk trusts nothing it reads: each
 * record must end inside the type section, and the walk stops there.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/btf_enum.h"
#include "memory/reader.h"
#include "util/byte_order.h"
#include "util/error.h"

#define BTF_MAGIC 0xeb9f
#define HEADER_LEN 24
#define TYPE_LEN 12
/* Bytes of the type section read at a time. */
#define WINDOW (64u << 10)
/* Longer names than these are not asked for. */
#define NAME_MAX_LEN 64

enum btf_kind {
	KIND_INT = 1,
	KIND_ARRAY = 3,
	KIND_STRUCT = 4,
	KIND_UNION = 5,
	KIND_ENUM = 6,
	KIND_FUNC_PROTO = 13,
	KIND_VAR = 14,
	KIND_DATASEC = 15,
	KIND_DECL_TAG = 17,
	KIND_ENUM64 = 19,
};

struct btf_walk {
	struct memory *mem;
	enum byte_order order;
	uint64_t types;      /* address of the type section */
	uint32_t type_len;
	uint64_t strings;    /* address of the string section */
	uint32_t str_len;
	/* The window: type section bytes [base, base + len). */
	unsigned char buf[WINDOW];
	uint32_t base;
	uint32_t len;
};

/* @n bytes (at most TYPE_LEN) of the type section at @offset, through the window. */
static struct mdf_error *type_bytes(struct btf_walk *w, uint32_t offset, uint32_t n, const unsigned char **out)
{
	struct mdf_error *err;

	if (n > w->type_len || offset > w->type_len - n)
		return mdf_error(-MDF_ECORRUPT, "a BTF type at offset %u runs past the type section (%u bytes)",
				 offset, w->type_len);
	if (offset < w->base || offset + n > w->base + w->len) {
		uint32_t len = w->type_len - offset < WINDOW ? w->type_len - offset : WINDOW;

		err = mem_read_virt(w->mem, w->types + offset, w->buf, len);
		if (err)
			return mdf_error_wrap(err, "reading BTF types at 0x%" PRIx64, w->types + offset);
		w->base = offset;
		w->len = len;
	}
	*out = w->buf + (offset - w->base);
	return NULL;
}

static uint32_t u32_at(const struct btf_walk *w, const unsigned char *p)
{
	uint32_t raw;

	memcpy(&raw, p, sizeof(raw));
	return dump_to_host32(w->order, raw);
}

/* Whether the string at @name_off is @name. */
static struct mdf_error *name_is(struct btf_walk *w, uint32_t name_off, const char *name, bool *same)
{
	char buf[NAME_MAX_LEN + 1];
	size_t len = strlen(name) + 1;
	struct mdf_error *err;

	*same = false;
	if (name_off >= w->str_len || len > w->str_len - name_off)
		return NULL;
	err = mem_read_virt(w->mem, w->strings + name_off, buf, len);
	if (err)
		return mdf_error_wrap(err, "reading BTF strings at 0x%" PRIx64, w->strings + name_off);
	*same = !memcmp(buf, name, len);
	return NULL;
}

/* The bytes a type of @kind with @vlen members adds after its struct btf_type. */
static uint64_t extra_bytes(unsigned int kind, uint32_t vlen)
{
	switch (kind) {
	case KIND_INT:
	case KIND_VAR:
	case KIND_DECL_TAG:
		return 4;
	case KIND_ARRAY:
		return 12;
	case KIND_STRUCT:
	case KIND_UNION:
	case KIND_DATASEC:
	case KIND_ENUM64:
		return (uint64_t)vlen * 12;
	case KIND_ENUM:
	case KIND_FUNC_PROTO:
		return (uint64_t)vlen * 8;
	default:
		return 0;
	}
}

/* @constant among the @vlen members of the enum whose members start at @offset. */
static struct mdf_error *find_constant(struct btf_walk *w, uint32_t offset, unsigned int kind, uint32_t vlen,
				       const char *constant, int64_t *value)
{
	uint32_t size = kind == KIND_ENUM64 ? 12 : 8;

	for (uint32_t i = 0; i < vlen; i++) {
		const unsigned char *m;
		struct mdf_error *err = type_bytes(w, offset + i * size, size, &m);
		bool same;

		if (!err)
			err = name_is(w, u32_at(w, m), constant, &same);
		if (err)
			return err;
		if (!same)
			continue;
		if (kind == KIND_ENUM64)
			*value = (int64_t)((uint64_t)u32_at(w, m + 8) << 32 | u32_at(w, m + 4));
		else
			*value = (int32_t)u32_at(w, m + 4);
		return NULL;
	}
	return &mdf_error_not_found;
}

static struct mdf_error *read_header(struct btf_walk *w, uint64_t start, uint64_t stop)
{
	unsigned char h[HEADER_LEN];
	uint32_t hdr_len, type_off, str_off;
	struct mdf_error *err;

	if (stop < start || stop - start < HEADER_LEN)
		return mdf_error(-MDF_ECORRUPT, "the BTF at [0x%" PRIx64 ", 0x%" PRIx64 ") has no room for its header",
				 start, stop);
	err = mem_read_virt(w->mem, start, h, sizeof(h));
	if (err)
		return mdf_error_wrap(err, "reading the BTF header at 0x%" PRIx64, start);
	if (h[0] == (BTF_MAGIC & 0xff) && h[1] == BTF_MAGIC >> 8)
		w->order = BYTE_ORDER_LITTLE;
	else if (h[0] == BTF_MAGIC >> 8 && h[1] == (BTF_MAGIC & 0xff))
		w->order = BYTE_ORDER_BIG;
	else
		return mdf_error(-MDF_ECORRUPT, "no BTF magic at 0x%" PRIx64, start);
	hdr_len = u32_at(w, h + 4);
	type_off = u32_at(w, h + 8);
	w->type_len = u32_at(w, h + 12);
	str_off = u32_at(w, h + 16);
	w->str_len = u32_at(w, h + 20);
	if (h[2] != 1 || hdr_len < HEADER_LEN || (uint64_t)hdr_len + type_off + w->type_len > stop - start ||
	    (uint64_t)hdr_len + str_off + w->str_len > stop - start)
		return mdf_error(-MDF_ECORRUPT, "the BTF header at 0x%" PRIx64 " (version %u) does not fit its %" PRIu64
				 " bytes", start, h[2], stop - start);
	w->types = start + hdr_len + type_off;
	w->strings = start + hdr_len + str_off;
	return NULL;
}

struct mdf_error *btf_enum_constant(struct memory *mem, uint64_t start, uint64_t stop, const char *enum_name,
				    const char *constant, int64_t *value)
{
	struct btf_walk *w;
	struct mdf_error *err;
	uint64_t offset = 0;

	if (strlen(enum_name) > NAME_MAX_LEN || strlen(constant) > NAME_MAX_LEN)
		return &mdf_error_not_found;
	w = calloc(1, sizeof(*w));
	if (!w)
		return &mdf_error_enomem;
	w->mem = mem;
	err = read_header(w, start, stop);
	while (!err && offset < w->type_len) {
		const unsigned char *t;
		uint32_t info, vlen;
		unsigned int kind;
		bool same = false;

		err = type_bytes(w, (uint32_t)offset, TYPE_LEN, &t);
		if (err)
			break;
		info = u32_at(w, t + 4);
		vlen = info & 0xffff;
		kind = info >> 24 & 0x1f;
		if (kind == KIND_ENUM || kind == KIND_ENUM64)
			err = name_is(w, u32_at(w, t), enum_name, &same);
		if (!err && same) {
			err = find_constant(w, (uint32_t)offset + TYPE_LEN, kind, vlen, constant, value);
			break;
		}
		offset += TYPE_LEN + extra_bytes(kind, vlen);
	}
	if (!err && offset >= w->type_len)
		err = &mdf_error_not_found;
	free(w);
	return err;
}
