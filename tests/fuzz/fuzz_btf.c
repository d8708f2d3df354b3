// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_btf: vmlinux's BTF as kernel/btf.c reads it from a dump: the raw
 * bytes between __start_BTF and __stop_BTF (the input, at FAKE_VIRT_BASE
 * in a fake memory), checked by btf.c and handed to libbpf, then looked
 * up.  The paths asked come from the BTF itself (every named struct,
 * union, enum and typedef, their members, members of members, enum
 * constants), from the walkers' and the kernel layer's usual questions,
 * and a few malformed ones; --dump-type's printer answers some too.
 */
#include <bpf/btf.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "kernel/btf.h"
#include "unit_fake_memory.h"

/* Enough types and members to reach every kind the seeds have, few enough to stay fast. */
#define MAX_TYPES 256
#define MAX_MEMBERS 16
#define MAX_PATH 1100

static volatile uint64_t sink;

static void look_up(struct btf_info *bi, const char *scope, const char *path)
{
	struct btf_info_result r;
	struct mdf_error *err = btf_info_lookup(bi, scope, path, &r);

	if (!err)
		sink += (uint64_t)r.size + r.bit_offset + (uint64_t)r.value + (uint64_t)r.array_length + r.type_id;
	mdf_error_free(err);
}

static void say(struct mdf_error *err)
{
	mdf_error_free(err);
}

/* NAME, then NAME.MEMBER for its first members, and NAME.MEMBER.INNER for their first. */
static void look_up_members(struct btf_info *bi, const struct btf *btf, const struct btf_type *t,
			    const char *name)
{
	const struct btf_member *m = btf_members(t);
	char path[MAX_PATH];

	for (uint32_t i = 0; i < btf_vlen(t) && i < MAX_MEMBERS; i++) {
		const char *member = btf__name_by_offset(btf, m[i].name_off);
		const struct btf_type *inner = btf__type_by_id(btf, m[i].type);

		if (!member || !*member)
			continue;
		snprintf(path, sizeof(path), "%s.%s", name, member);
		look_up(bi, NULL, path);
		if (inner && btf_is_composite(inner) && btf_vlen(inner)) {
			const char *first = btf__name_by_offset(btf, btf_members(inner)[0].name_off);

			snprintf(path, sizeof(path), "%s.%s.%s", name, member, first ? first : "");
			look_up(bi, "vmlinux", path);
		}
	}
}

static void look_up_enumerators(struct btf_info *bi, const struct btf *btf, const struct btf_type *t,
				const char *name)
{
	char path[MAX_PATH];

	for (uint32_t i = 0; i < btf_vlen(t) && i < MAX_MEMBERS; i++) {
		const char *value = btf__name_by_offset(btf, btf_is_enum(t) ? btf_enum(t)[i].name_off
									     : btf_enum64(t)[i].name_off);

		if (!value)
			continue;
		look_up(bi, NULL, value);
		snprintf(path, sizeof(path), "%s.%s", name, value);
		look_up(bi, NULL, path);
	}
}

static void look_up_types(struct btf_info *bi, const struct btf *btf)
{
	uint32_t end = btf__type_cnt(btf);

	for (uint32_t id = 1; id < end && id <= MAX_TYPES; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;

		if (!name || !*name)
			continue;
		look_up(bi, NULL, name);
		if (btf_is_composite(t))
			look_up_members(bi, btf, t, name);
		else if (btf_is_any_enum(t))
			look_up_enumerators(bi, btf, t, name);
	}
}

static void look_up_usual(struct btf_info *bi)
{
	static const char *const paths[] = {
		"page.flags", "page.lru.next", "task_struct.comm", "maple_node.parent",
		"maple_range_64.pivot", "xa_node.slots", "PG_lru", "pageflags.PG_lru",
		"maple_type.maple_dense", "module.name", "btf_module.list", "list_head.next.prev",
		"", ".", "page.", ".flags", "page..flags", "int.x",
	};
	char long_path[MAX_PATH];
	FILE *out = fopen("/dev/null", "w");

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		look_up(bi, NULL, paths[i]);
	memset(long_path, 'a', sizeof(long_path) - 1);
	long_path[sizeof(long_path) - 1] = '\0';
	look_up(bi, NULL, long_path);
	look_up(bi, "no_such_module", "page.flags");
	if (!out)
		fuzz_die("fopen /dev/null");
	mdf_error_free(btf_info_describe(bi, "page,page.flags,vmlinux:task_struct.comm,:x,vmlinux:,PG_lru", out,
					 say));
	fclose(out);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fake_memory *f = fake_memory_new((size / FAKE_PAGE + 1) * FAKE_PAGE);
	struct btf_location loc = { .has_vmlinux = true, .start = FAKE_VIRT_BASE,
				    .stop = FAKE_VIRT_BASE + size };
	struct btf_info *bi = NULL;
	const struct btf *btf;
	struct mdf_error *err;

	if (!f)
		fuzz_die("fake_memory_new");
	memcpy(f->bytes, data, size);
	err = fake_memory_open(f, NULL);
	if (!err)
		err = btf_info_new(f->mem, &loc, &bi);
	if (!err)
		err = btf_info_scope_btf(bi, "vmlinux", &btf);
	if (!err)
		look_up_types(bi, btf);
	if (bi)
		look_up_usual(bi);
	mdf_error_free(err);
	btf_info_free(bi);
	fake_memory_free(f);
	return 0;
}
