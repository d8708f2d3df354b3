// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * btf_enum_constant (kernel/btf_enum.h) over BTF that libbpf writes, in
 * the dump's memory: the constant of the enum named, not one of the same
 * name in another enum; enum64; both byte orders; types past the reader's
 * window; and BTF whose header or types do not fit.
 */
#include <bpf/btf.h>
#include <string.h>

#include "kernel/btf_enum.h"
#include "unit_check.h"
#include "unit_fake_memory.h"
#include "util/error.h"

#define MEMORY_SIZE (1024 * FAKE_PAGE)
#define BTF_OFFSET 0x1234

/*
 * Types a vmlinux might have before enum pageflags: a decoy enum with a
 * PG_reserved of its own, an enum64, and enough structs (with members) to
 * push pageflags past the first 64 KiB of types when @many.
 */
static struct btf *make_btf(bool many)
{
	struct btf *btf = btf__new_empty();
	int u32 = btf__add_int(btf, "unsigned int", 4, 0);
	char name[32];

	btf__add_enum(btf, "decoy", 4);
	btf__add_enum_value(btf, "PG_reserved", 99);
	btf__add_enum64(btf, "wide", 8, false);
	btf__add_enum64_value(btf, "WIDE_ONE", 0x123456789abcull);
	for (int i = 0; i < (many ? 700 : 3); i++) {
		snprintf(name, sizeof(name), "s%d", i);
		btf__add_struct(btf, name, 40);
		for (int m = 0; m < 10; m++) {
			snprintf(name, sizeof(name), "m%d", m);
			btf__add_field(btf, name, u32, m * 32, 0);
		}
	}
	btf__add_enum(btf, "pageflags", 4);
	btf__add_enum_value(btf, "PG_locked", 0);
	btf__add_enum_value(btf, "PG_lru", 4);
	btf__add_enum_value(btf, "PG_reserved", 12);
	btf__add_enum_value(btf, "PG_private", 13);
	return btf;
}

/* Looks @enum_name.@constant up in @raw (@size bytes) laid at BTF_OFFSET. */
static struct mdf_error *lookup(const void *raw, uint32_t size, const char *enum_name, const char *constant,
				int64_t *value)
{
	struct fake_memory *f = fake_memory_new(MEMORY_SIZE);
	struct mdf_error *err;

	if (!f)
		return &mdf_error_enomem;
	memcpy(f->bytes + BTF_OFFSET, raw, size);
	err = fake_memory_open(f, NULL);
	if (!err)
		err = btf_enum_constant(f->mem, FAKE_VIRT_BASE + BTF_OFFSET, FAKE_VIRT_BASE + BTF_OFFSET + size,
					enum_name, constant, value);
	fake_memory_free(f);
	return err;
}

static int code(struct mdf_error *err)
{
	return mdf_error_drop(err);
}

static void test_found(bool many, enum btf_endianness order, const char *what)
{
	struct btf *btf = make_btf(many);
	const void *raw;
	uint32_t size;
	int64_t value = -1;
	int rc;

	btf__set_endianness(btf, order);
	raw = btf__raw_data(btf, &size);
	rc = code(lookup(raw, size, "pageflags", "PG_reserved", &value));
	check(rc == 0 && value == 12, "%s: pageflags.PG_reserved is 12, not the decoy's 99 (rc %d, %lld)", what, rc,
	      (long long)value);
	rc = code(lookup(raw, size, "wide", "WIDE_ONE", &value));
	check(rc == 0 && value == 0x123456789abcll, "%s: an enum64's constant (rc %d)", what, rc);
	check(code(lookup(raw, size, "pageflags", "PG_nothing", &value)) == -ENOENT, "%s: no such constant: -ENOENT",
	      what);
	check(code(lookup(raw, size, "pageflag", "PG_reserved", &value)) == -ENOENT,
	      "%s: no enum of that name (a prefix of one): -ENOENT", what);
	btf__free(btf);
}

static void test_damaged(void)
{
	struct btf *btf = make_btf(true);
	uint32_t size, type_len;
	const unsigned char *raw = btf__raw_data(btf, &size);
	unsigned char *copy = malloc(size);
	int64_t value;

	memcpy(copy, raw, size);
	check(code(lookup(copy, size - 1, "pageflags", "PG_reserved", &value)) == -MDF_ECORRUPT,
	      "sections past the end of the BTF: corrupt");
	copy[0] = 0;
	check(code(lookup(copy, size, "pageflags", "PG_reserved", &value)) == -MDF_ECORRUPT, "no magic: corrupt");
	memcpy(copy, raw, size);
	/* The type section cut inside a struct's members: the walk stops at its end. */
	memcpy(&type_len, copy + 12, 4);
	type_len -= 30;
	memcpy(copy + 12, &type_len, 4);
	check(code(lookup(copy, size, "pageflags", "PG_reserved", &value)) == -MDF_ECORRUPT,
	      "a type running past the type section: corrupt");
	free(copy);
	btf__free(btf);
}

int main(void)
{
	msg_set_level(0);
	test_found(false, BTF_LITTLE_ENDIAN, "little-endian");
	test_found(true, BTF_LITTLE_ENDIAN, "little-endian, past the window");
	test_found(true, BTF_BIG_ENDIAN, "big-endian, past the window");
	test_damaged();
	return unit_exit_status();
}
