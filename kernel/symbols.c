// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lazy loading of the dump's symbols and types, and the VMCOREINFO
 * fallback built on them.
 *
 * Finding kallsyms takes VMCOREINFO (its SYMBOL(kallsyms_*) lines), so the
 * fallback can be asked while kallsyms are being decoded; it answers false
 * then, as if it were not installed: kallsyms cannot be found through
 * themselves, and VMCOREINFO alone says where they are.
 *
 * The fallback answers from vmlinux's symbols and types only, never a
 * module's: VMCOREINFO describes the kernel.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "input/vmcoreinfo.h"
#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/symbols.h"
#include "memory/reader.h"
#include "util/message.h"

struct symbols {
	struct memory *mem;
	struct vmcoreinfo *vi;
	struct kallsyms *kallsyms;
	struct btf_info *btf;
	int kallsyms_err;         /* once loading failed (and said why), it is not retried */
	int btf_err;
	int modules_err;
	bool modules_tried;
	bool loading_kallsyms;    /* the fallback answers nothing meanwhile */
	bool no_kallsyms;         /* nothing for the fallback to answer from: said once */
	bool no_btf;
	bool by_name_only;        /* kallsyms opened with kallsyms_open_lazy */
	const char *const *expected;
	size_t nr_expected;
};

static const struct vmcoreinfo_fallback fallback;

int symbols_new(struct memory *mem, struct vmcoreinfo *vi, struct symbols **out)
{
	struct symbols *sym = calloc(1, sizeof(*sym));

	if (!sym)
		return -ENOMEM;
	sym->mem = mem;
	sym->vi = vi;
	vmcoreinfo_set_fallback(vi, &fallback, sym);
	*out = sym;
	return 0;
}

void symbols_free(struct symbols *sym)
{
	if (!sym)
		return;
	vmcoreinfo_set_fallback(sym->vi, NULL, NULL);
	btf_info_free(sym->btf);
	kallsyms_free(sym->kallsyms);
	free(sym);
}

static int open_by_name_only(struct symbols *sym)
{
	static const char *const btf_symbols[] = { BTF_INFO_KERNEL_SYMBOLS };
	const char *expected[KALLSYMS_MAX_EXPECTED];
	size_t nr = 0;

	for (size_t i = 0; i < sizeof(btf_symbols) / sizeof(btf_symbols[0]); i++)
		expected[nr++] = btf_symbols[i];
	for (size_t i = 0; i < sym->nr_expected && nr < KALLSYMS_MAX_EXPECTED; i++)
		expected[nr++] = sym->expected[i];
	return kallsyms_open_lazy(sym->mem, sym->vi, expected, nr, &sym->kallsyms);
}

int symbols_kallsyms(struct symbols *sym, struct kallsyms **out)
{
	if (!sym->kallsyms && !sym->kallsyms_err) {
		sym->loading_kallsyms = true;
		if (sym->by_name_only)
			sym->kallsyms_err = open_by_name_only(sym);
		else
			sym->kallsyms_err = kallsyms_load_kernel(sym->mem, sym->vi, &sym->kallsyms);
		sym->loading_kallsyms = false;
	}
	*out = sym->kallsyms;
	return sym->kallsyms_err;
}

void symbols_look_up_by_name_only(struct symbols *sym, const char *const *expected, size_t nr_expected)
{
	sym->by_name_only = true;
	sym->expected = expected;
	sym->nr_expected = nr_expected;
}

int symbols_btf(struct symbols *sym, struct btf_info **out)
{
	struct kallsyms *ks;

	if (!sym->btf && !sym->btf_err) {
		sym->btf_err = symbols_kallsyms(sym, &ks);
		if (!sym->btf_err)
			sym->btf_err = btf_info_new(sym->mem, ks, &sym->btf);
	}
	*out = sym->btf;
	return sym->btf_err;
}

void symbols_release_btf(struct symbols *sym)
{
	btf_info_free(sym->btf);
	sym->btf = NULL;
	sym->btf_err = 0;
}

int symbols_module_kallsyms(struct symbols *sym, struct kallsyms **out)
{
	struct btf_info *btf;
	int err = symbols_btf(sym, &btf);

	*out = sym->kallsyms;
	if (err)
		return err;
	if (!sym->modules_tried) {
		sym->modules_tried = true;
		sym->modules_err = kallsyms_load_modules(sym->kallsyms, sym->mem, btf);
	}
	return sym->modules_err;
}

/*
 * Whether the fallback has anything to answer from.  A kernel built
 * without kallsyms in VMCOREINFO or without BTF is no error here: the
 * lookup that needed the line says what is missing.
 */
static bool fallback_usable(struct symbols *sym, bool need_btf)
{
	struct kallsyms *ks;
	struct btf_info *btf;

	if (sym->loading_kallsyms || sym->no_kallsyms || (need_btf && sym->no_btf))
		return false;
	if (!sym->kallsyms && !kallsyms_in_vmcoreinfo(sym->vi)) {
		msg_debug("VMCOREINFO does not locate kallsyms: "
			  "its missing lines cannot come from kallsyms or BTF");
		sym->no_kallsyms = true;
		return false;
	}
	if (symbols_kallsyms(sym, &ks))
		return false;
	if (!need_btf)
		return true;
	if (symbols_btf(sym, &btf))
		return false;
	if (!btf_info_present(btf)) {
		msg_debug("the kernel has no BTF: VMCOREINFO's missing lines cannot come from it");
		sym->no_btf = true;
		return false;
	}
	return true;
}

/* vmlinux's BTF answer for @path, or false; silent, as VMCOREINFO's users say what is missing. */
static bool btf_answer(struct symbols *sym, const char *path, struct btf_info_result *r)
{
	return fallback_usable(sym, true) && !btf_info_lookup(sym->btf, "vmlinux", path, r);
}

/*
 * SYMBOL(mem_section) is the value of the kernel's mem_section, not its
 * address: with SPARSEMEM_EXTREME (x86_64 always has it) a pointer to the
 * array of section roots.  Every other SYMBOL() line is an address.
 */
static bool fallback_symbol(void *ctx, const char *name, uint64_t *value)
{
	struct symbols *sym = ctx;
	struct kallsyms *ks;
	uint64_t addr;
	int err;

	if (!fallback_usable(sym, false) || symbols_kallsyms(sym, &ks) ||
	    !kallsyms_lookup_module_name(ks, "vmlinux", name, &addr))
		return false;
	if (!strcmp(name, "mem_section")) {
		err = mem_read_u64(sym->mem, addr, value);
		if (err) {
			msg_debug("SYMBOL(mem_section): cannot read the pointer at 0x%" PRIx64
				  " kallsyms gives: %s", addr, mdf_strerror(err));
			return false;
		}
		msg_debug("SYMBOL(mem_section) from kallsyms, the pointer at 0x%" PRIx64 ": %" PRIx64, addr,
			  *value);
		return true;
	}
	*value = addr;
	msg_debug("SYMBOL(%s) from kallsyms: %" PRIx64, name, *value);
	return true;
}

static bool fallback_size(void *ctx, const char *type, int64_t *value)
{
	struct btf_info_result r;

	if (!btf_answer(ctx, type, &r) || r.kind != BTF_INFO_TYPE)
		return false;
	*value = r.size;
	msg_debug("SIZE(%s) from BTF: %" PRId64, type, *value);
	return true;
}

/* offsetof() has no answer for a bitfield, nor does VMCOREINFO. */
static bool fallback_offset(void *ctx, const char *type_member, int64_t *value)
{
	struct btf_info_result r;

	if (!btf_answer(ctx, type_member, &r) || r.kind != BTF_INFO_MEMBER || r.bitfield_size)
		return false;
	*value = (int64_t)(r.bit_offset / 8);
	msg_debug("OFFSET(%s) from BTF: %" PRId64, type_member, *value);
	return true;
}

/* LENGTH(type.member) of an array member, LENGTH(name) of an array variable BTF knows. */
static bool fallback_length(void *ctx, const char *name, int64_t *value)
{
	struct btf_info_result r;

	if (!btf_answer(ctx, name, &r) || (r.kind != BTF_INFO_MEMBER && r.kind != BTF_INFO_VARIABLE) ||
	    r.array_length < 0)
		return false;
	*value = r.array_length;
	msg_debug("LENGTH(%s) from BTF: %" PRId64, name, *value);
	return true;
}

/*
 * NUMBER() lines that are expressions of an enum constant rather than the
 * constant itself, as kernel/vmcore_info.c (crash_core.c before) writes
 * them.  The PAGE_*_MAPCOUNT_VALUEs are enum constants only in kernels
 * with enum pagetype's PGTY_* values; older kernels #define them, and BTF
 * does not know them there.
 */
enum derivation {
	BIT_MASK,     /* 1UL << constant */
	PAGE_TYPE,    /* constant << 24, as an int */
};

static const struct {
	const char *number;
	const char *constant;     /* qualified by its enum */
	enum derivation how;
} derived_numbers[] = {
	{ "PG_head_mask", "pageflags.PG_head", BIT_MASK },
	{ "PAGE_BUDDY_MAPCOUNT_VALUE", "pagetype.PGTY_buddy", PAGE_TYPE },
	{ "PAGE_OFFLINE_MAPCOUNT_VALUE", "pagetype.PGTY_offline", PAGE_TYPE },
	{ "PAGE_SLAB_MAPCOUNT_VALUE", "pagetype.PGTY_slab", PAGE_TYPE },
	{ "PAGE_HUGETLB_MAPCOUNT_VALUE", "pagetype.PGTY_hugetlb", PAGE_TYPE },
	{ "PAGE_UNACCEPTED_MAPCOUNT_VALUE", "pagetype.PGTY_unaccepted", PAGE_TYPE },
};

static bool fallback_number(void *ctx, const char *name, int64_t *value)
{
	struct btf_info_result r;
	char path[128];

	for (size_t i = 0; i < sizeof(derived_numbers) / sizeof(derived_numbers[0]); i++) {
		const char *constant = derived_numbers[i].constant;

		if (strcmp(name, derived_numbers[i].number))
			continue;
		if (!btf_answer(ctx, constant, &r) || r.kind != BTF_INFO_ENUM_VALUE || r.value < 0 ||
		    r.value >= (derived_numbers[i].how == BIT_MASK ? 64 : 256))
			return false;
		if (derived_numbers[i].how == BIT_MASK)
			*value = (int64_t)(1ull << r.value);
		else
			*value = (int32_t)((uint32_t)r.value << 24);
		msg_debug("NUMBER(%s) from BTF (%s %s): %" PRId64, name, constant,
			  derived_numbers[i].how == BIT_MASK ? "as a bit mask" : "<< 24", *value);
		return true;
	}
	/*
	 * A PG_ number is a bit of enum pageflags.  Some kernels (6.9 to 6.11)
	 * also have page types of the same names (PG_slab, PG_hugetlb) in
	 * enum pagetype, which are no bit numbers: only pageflags' count.
	 */
	if ((size_t)snprintf(path, sizeof(path), "%s%s", strncmp(name, "PG_", 3) ? "" : "pageflags.",
			     name) >= sizeof(path))
		return false;
	if (!btf_answer(ctx, path, &r) || r.kind != BTF_INFO_ENUM_VALUE)
		return false;
	*value = r.value;
	msg_debug("NUMBER(%s) from BTF: %" PRId64, name, *value);
	return true;
}

/* Ready once vmlinux's BTF is open: something already needed it. */
static bool fallback_ready(void *ctx)
{
	const struct symbols *sym = ctx;

	return sym->btf && !sym->no_btf;
}

static const struct vmcoreinfo_fallback fallback = {
	.symbol = fallback_symbol,
	.size = fallback_size,
	.offset = fallback_offset,
	.length = fallback_length,
	.number = fallback_number,
	.ready = fallback_ready,
};
