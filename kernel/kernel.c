// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The crashed kernel's facts in one lookup order, and the tables they
 * come from, each loaded on first need.
 *
 * kallsyms are found through VMCOREINFO's own SYMBOL(kallsyms_*) lines,
 * vmlinux's BTF through kallsyms (__start_BTF, __stop_BTF), module symbols
 * through kallsyms ("modules") and struct module's layout in BTF: each
 * step reads only the one below it, so nothing here is asked while it is
 * being loaded.  Where kallsyms list no data symbols, those the kernel
 * image holds are searched for there instead (kernel/image_search.h).
 *
 * With -x VMLINUX, the kernel's symbols come from the vmlinux's symbol
 * table, moved by VMCOREINFO's KERNELOFFSET, and vmlinux's types from
 * its DWARF: kallsyms are then read only to be listed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/vmcoreinfo.h"
#include "kernel/btf.h"
#include "kernel/image_search.h"
#include "kernel/kallsyms.h"
#include "kernel/kernel.h"
#include "kernel/kprobe_pages.h"
#include "kernel/modules.h"
#include "kernel/vmlinux.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"
#include "util/vec.h"

/* A symbol asked before: (module, name), module NULL for "anywhere". */
struct answer {
	char *module;
	char *name;
	bool found;
	uint64_t addr;
};

struct kernel {
	struct memory *mem;
	const struct vmcoreinfo *vi;
	struct vmlinux *vmlinux;      /* -x, or NULL */
	uint64_t kaslr_offset;        /* what the vmlinux's symbols moved by */
	/* Once loading failed, it is not retried: each who asks gets a copy of the error. */
	struct kallsyms *kallsyms;
	struct mdf_error *kallsyms_err;
	struct btf_info *btf;
	struct mdf_error *btf_err;
	struct modules *modules;
	struct mdf_error *modules_err;
	bool modules_tried;
	/* Nothing for the VMCOREINFO fallback to answer from: said once. */
	bool no_kallsyms;
	bool no_btf;
	struct answer *answers;
	size_t nr_answers, cap_answers;
	/*
	 * Searches of the kernel image for what kallsyms lack, each tried
	 * once (enum image_fallback), and only where kallsyms list no data
	 * symbols (no init_task): elsewhere a missing symbol is missing.
	 */
	bool kallsyms_lack_data;
	unsigned int searched;
	struct image_exports *exports;     /* the kernel's export tables, once searched */
	unsigned int found_by_search;
};

/*
 * Data symbols kallsyms list only with CONFIG_KALLSYMS_ALL, and what
 * kernel/image_search.h finds in their stead.
 */
enum image_fallback {
	FOUND_BTF = 1,
	FOUND_INIT_TASK = 2,
	FOUND_MODULES = 4,
	FOUND_BTF_MODULES = 8,
	SEARCHED_EXPORTS = 16,
};

/* What this layer asks of kallsyms itself: found in the pass that opens them. */
static const char *const own_symbols[] = { "__start_BTF", "__stop_BTF", "btf_modules", "modules",
					   "init_task" };

struct mdf_error *kernel_new(struct memory *mem, const struct vmcoreinfo *vi, struct kernel **out)
{
	struct kernel *k = calloc(1, sizeof(*k));

	if (!k)
		return &mdf_error_enomem;
	k->mem = mem;
	k->vi = vi;
	*out = k;
	return NULL;
}

void kernel_free(struct kernel *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->nr_answers; i++) {
		free(k->answers[i].module);
		free(k->answers[i].name);
	}
	free(k->answers);
	mdf_error_free(k->kallsyms_err);
	mdf_error_free(k->btf_err);
	mdf_error_free(k->modules_err);
	modules_free(k->modules);
	image_exports_free(k->exports);
	btf_info_free(k->btf);
	kallsyms_free(k->kallsyms);
	free(k);
}

const struct vmcoreinfo *kernel_vmcoreinfo(const struct kernel *k)
{
	return k->vi;
}

/* The kernel writes BUILD_ID_SIZE_MAX bytes of its build ID, a shorter one padded with zeros. */
#define VMCOREINFO_BUILD_ID_SIZE 20

/* Whether @vm is the dump's kernel: by build ID where both have one, else by release. */
static struct mdf_error *check_vmlinux(struct kernel *k)
{
	const char *dump_id = vmcoreinfo_get(k->vi, "BUILD-ID");
	const char *dump_release = vmcoreinfo_get(k->vi, "OSRELEASE");
	const char *path = vmlinux_path(k->vmlinux);
	char hex[2 * VMCOREINFO_BUILD_ID_SIZE + 1], release[65];
	const uint8_t *id;
	size_t len = vmlinux_build_id(k->vmlinux, &id);
	struct mdf_error *err;
	int64_t name_offset;

	if (dump_id && len) {
		for (size_t i = 0; i < VMCOREINFO_BUILD_ID_SIZE; i++)
			snprintf(hex + 2 * i, 3, "%02x", i < len ? id[i] : 0);
		if (strcasecmp(hex, dump_id))
			return mdf_error(-MDF_EWRONGKERNEL, "%s and the dump don't match: its build ID is %s, "
					 "the dump's (VMCOREINFO's BUILD-ID) is %.64s", path, hex, dump_id);
		return NULL;
	}
	if (!dump_release) {
		msg_warn("VMCOREINFO has neither BUILD-ID nor OSRELEASE: whether %s is the dump's kernel "
			 "is not known", path);
		return NULL;
	}
	/* Older kernels began struct uts_namespace with a struct kref: upstream's guess too. */
	if (mdf_error_drop(kernel_lookup_offset(k, "uts_namespace.name", &name_offset)))
		name_offset = sizeof(int);
	err = vmlinux_release(k->vmlinux, (uint64_t)name_offset, release, sizeof(release));
	if (err)
		return mdf_error_wrap(err, "cannot tell whether %s is the dump's kernel", path);
	if (strcmp(release, dump_release))
		return mdf_error(-MDF_EWRONGKERNEL, "%s and the dump don't match: it is release %s, the dump's "
				 "(VMCOREINFO's OSRELEASE) is %.64s", path, release, dump_release);
	return NULL;
}

struct mdf_error *kernel_use_vmlinux(struct kernel *k, struct vmlinux *vm)
{
	const char *offset = vmcoreinfo_get(k->vi, "KERNELOFFSET");
	char *end;

	k->kaslr_offset = 0;
	if (offset) {
		errno = 0;
		k->kaslr_offset = strtoull(offset, &end, 16);
		if (errno || end == offset || *end)
			return mdf_error(-MDF_ECORRUPT, "VMCOREINFO's KERNELOFFSET=%.40s is not a hex number", offset);
	}
	k->vmlinux = vm;
	return check_vmlinux(k);
}

static struct answer *find_answer(const struct kernel *k, const char *module, const char *name)
{
	for (size_t i = 0; i < k->nr_answers; i++) {
		struct answer *a = &k->answers[i];

		if (!strcmp(a->name, name) && !a->module == !module && (!module || !strcmp(a->module, module)))
			return a;
	}
	return NULL;
}

static struct mdf_error *keep_answer(struct kernel *k, const char *module, const char *name, bool found,
				     uint64_t addr)
{
	struct answer a = { .found = found, .addr = found ? addr : 0 };

	if (vec_reserve(k->answers, &k->cap_answers, k->nr_answers, 1))
		return &mdf_error_enomem;
	a.module = module ? strdup(module) : NULL;
	a.name = strdup(name);
	if (!a.name || (module && !a.module)) {
		free(a.module);
		free(a.name);
		return &mdf_error_enomem;
	}
	k->answers[k->nr_answers++] = a;
	return NULL;
}

/* Finds the kernel symbols @names not answered yet, in one pass, and keeps the answers. */
static struct mdf_error *find_kernel_symbols(struct kernel *k, const char *const *names, size_t nr)
{
	const char **todo = calloc(nr + 1, sizeof(*todo));
	int64_t *index = calloc(nr + 1, sizeof(*index));
	size_t nr_todo = 0;
	struct mdf_error *err = todo && index ? NULL : &mdf_error_enomem;

	for (size_t i = 0; i < nr && !err; i++)
		if (!find_answer(k, "vmlinux", names[i]))
			todo[nr_todo++] = names[i];
	if (!err && nr_todo)
		err = kallsyms_find(k->kallsyms, todo, nr_todo, index);
	for (size_t i = 0; i < nr_todo && !err; i++) {
		uint64_t addr = 0;

		if (index[i] >= 0)
			err = kallsyms_address(k->kallsyms, (size_t)index[i], &addr);
		if (!err)
			err = keep_answer(k, "vmlinux", todo[i], index[i] >= 0, addr);
	}
	free(todo);
	free(index);
	return err;
}

struct mdf_error *kernel_kallsyms(struct kernel *k, struct kallsyms **out)
{
	if (!k->kallsyms && !k->kallsyms_err) {
		k->kallsyms_err = kallsyms_new(k->mem, k->vi, &k->kallsyms);
		if (!k->kallsyms_err)
			k->kallsyms_err = find_kernel_symbols(k, own_symbols,
							      sizeof(own_symbols) / sizeof(own_symbols[0]));
		if (!k->kallsyms_err) {
			const struct answer *a = find_answer(k, "vmlinux", "init_task");

			k->kallsyms_lack_data = a && !a->found;
		}
	}
	*out = k->kallsyms;
	return mdf_error_copy(k->kallsyms_err);
}

struct mdf_error *kernel_symbols_ready(struct kernel *k)
{
	struct kallsyms *ks;

	return k->vmlinux ? NULL : kernel_kallsyms(k, &ks);
}

bool kernel_kallsyms_lack_data(struct kernel *k)
{
	struct kallsyms *ks;

	return !k->vmlinux && !mdf_error_drop(kernel_kallsyms(k, &ks)) && k->kallsyms_lack_data;
}

struct mdf_error *kernel_expect_symbols(struct kernel *k, const char *const *names, size_t nr)
{
	struct kallsyms *ks;
	struct mdf_error *err;

	/* A vmlinux's symbols are hashed by name: nothing to gather first. */
	if (k->vmlinux)
		return NULL;
	err = kernel_kallsyms(k, &ks);

	return err ? err : find_kernel_symbols(k, names, nr);
}

/* Where the image search starts: VMCOREINFO's _stext, which every kernel since 4.x gives. */
static bool image_start(struct kernel *k, const char *what, uint64_t *start)
{
	if (!mdf_error_drop(vmcoreinfo_lookup_symbol(k->vi, "_stext", start)))
		return true;
	msg_debug("%s: kallsyms do not list it and VMCOREINFO has no SYMBOL(_stext) to search the kernel "
		  "image from", what);
	return false;
}

/* Sets the kernel's answer for @name, kept by kernel_kallsyms() as absent. */
static void answer_from_search(struct kernel *k, const char *name, uint64_t addr)
{
	struct answer *a = find_answer(k, "vmlinux", name);

	if (a) {
		a->found = true;
		a->addr = addr;
	}
}

static void search_btf(struct kernel *k)
{
	uint64_t from, start, stop;
	struct mdf_error *err;

	if (!image_start(k, "vmlinux BTF", &from))
		return;
	msg_debug("the kernel's kallsyms have no __start_BTF and __stop_BTF (no CONFIG_KALLSYMS_ALL?): "
		  "searching the kernel image for vmlinux BTF");
	err = image_find_btf(k->mem, from, &start, &stop);
	if (err) {
		msg_debug("%s", mdf_error_text(err));
		mdf_error_free(err);
		return;
	}
	answer_from_search(k, "__start_BTF", start);
	answer_from_search(k, "__stop_BTF", stop);
	k->found_by_search |= FOUND_BTF;
}

static bool kernel_table_lookup(struct kernel *k, const char *name, uint64_t *addr);

static void search_data_symbol(struct kernel *k, const char *name, enum image_fallback which)
{
	struct btf_info *btf;
	uint64_t from, addr, modules;
	struct mdf_error *err;

	if (!image_start(k, name, &from))
		return;
	msg_debug("the kernel's kallsyms have no %s (no CONFIG_KALLSYMS_ALL?): searching the kernel image", name);
	err = kernel_btf(k, &btf);
	if (!err && !btf_info_present(btf))
		err = mdf_error(-ENOENT, "without vmlinux BTF, %s cannot be recognised", name);
	if (!err && which == FOUND_BTF_MODULES && !kernel_table_lookup(k, "modules", &modules))
		err = mdf_error(-ENOENT, "without the modules list, btf_modules cannot be recognised");
	if (!err && which == FOUND_INIT_TASK)
		err = image_find_init_task(k->mem, btf, from, &addr);
	else if (!err && which == FOUND_MODULES)
		err = image_find_modules(k->mem, btf, from, &addr);
	else if (!err)
		err = image_find_btf_modules(k->mem, btf, from, modules, &addr);
	if (err) {
		msg_debug("%s", mdf_error_text(err));
		mdf_error_free(err);
		return;
	}
	answer_from_search(k, name, addr);
	k->found_by_search |= which;
}

/* Any other data symbol: an exported variable's address, from the kernel's export tables. */
static void search_exports(struct kernel *k, const char *name)
{
	struct btf_info *btf;
	struct mdf_error *err;
	uint64_t from, addr;

	if (!(k->searched & SEARCHED_EXPORTS)) {
		k->searched |= SEARCHED_EXPORTS;
		if (!image_start(k, "exported symbols", &from))
			return;
		err = kernel_btf(k, &btf);
		if (!err && !btf_info_present(btf))
			err = mdf_error(-ENOENT, "without vmlinux BTF, export tables cannot be recognised");
		if (!err)
			err = image_find_exports(k->mem, btf, from, &k->exports);
		if (err) {
			msg_debug("%s", mdf_error_text(err));
			mdf_error_free(err);
		}
	}
	if (k->exports && !mdf_error_drop(image_exports_lookup(k->exports, name, &addr))) {
		msg_debug("%s: not in the kernel's kallsyms (no data symbols): from its export table, 0x%" PRIx64,
			  name, addr);
		answer_from_search(k, name, addr);
	}
}

/*
 * A data symbol kallsyms lack, searched for once in the kernel image:
 * the answer is then kept as if kallsyms had given it.
 */
static void search_image(struct kernel *k, const char *name)
{
	enum image_fallback which;

	if (!k->kallsyms_lack_data)
		return;
	if (!strcmp(name, "__start_BTF") || !strcmp(name, "__stop_BTF"))
		which = FOUND_BTF;
	else if (!strcmp(name, "init_task"))
		which = FOUND_INIT_TASK;
	else if (!strcmp(name, "modules"))
		which = FOUND_MODULES;
	else if (!strcmp(name, "btf_modules"))
		which = FOUND_BTF_MODULES;
	else {
		search_exports(k, name);
		return;
	}
	if (k->searched & which)
		return;
	k->searched |= which;
	if (which == FOUND_BTF)
		search_btf(k);
	else
		search_data_symbol(k, name, which);
}

/* The kernel's own symbol @name, kept once found or known absent. */
static bool kernel_table_lookup(struct kernel *k, const char *name, uint64_t *addr)
{
	const struct answer *a;
	struct kallsyms *ks;

	if (k->vmlinux)
		return !mdf_error_drop(vmlinux_symbol(k->vmlinux, name, k->kaslr_offset, addr));
	a = find_answer(k, "vmlinux", name);
	if (!a && (mdf_error_drop(kernel_kallsyms(k, &ks)) || mdf_error_drop(find_kernel_symbols(k, &name, 1)) ||
		   !(a = find_answer(k, "vmlinux", name))))
		return false;
	if (!a->found) {
		search_image(k, name);
		/* The search may have grown the answers: found again. */
		a = find_answer(k, "vmlinux", name);
	}
	if (a->found)
		*addr = a->addr;
	return a->found;
}

/* What kallsyms said of the kernel's @name (kernel_kallsyms() asked it), without a search. */
static bool kallsyms_answer(const struct kernel *k, const char *name, uint64_t *addr)
{
	const struct answer *a = find_answer(k, "vmlinux", name);

	if (a && a->found)
		*addr = a->addr;
	return a && a->found;
}

/* btf_modules for btf.c, asked once vmlinux's BTF is loaded: kallsyms' or the image search's. */
static bool find_btf_modules(void *ctx, uint64_t *btf_modules)
{
	return kernel_table_lookup(ctx, "btf_modules", btf_modules);
}

struct mdf_error *kernel_btf(struct kernel *k, struct btf_info **out)
{
	struct btf_location loc = { 0 };

	if (!k->btf && !k->btf_err) {
		struct kallsyms *ks;

		if (!k->vmlinux)
			k->btf_err = kernel_kallsyms(k, &ks);
		if (!k->btf_err) {
			loc.has_vmlinux = kernel_table_lookup(k, "__start_BTF", &loc.start) &&
					  kernel_table_lookup(k, "__stop_BTF", &loc.stop);
			loc.vmlinux = k->vmlinux;
			/* A search for it needs vmlinux's BTF: it waits until that is loaded. */
			loc.has_modules = k->vmlinux ? kernel_table_lookup(k, "btf_modules", &loc.btf_modules)
						     : kallsyms_answer(k, "btf_modules", &loc.btf_modules);
			if (!loc.has_modules && !k->vmlinux) {
				loc.find_btf_modules = find_btf_modules;
				loc.find_ctx = k;
			}
			k->btf_err = btf_info_new(k->mem, &loc, &k->btf);
		}
	}
	*out = k->btf;
	return mdf_error_copy(k->btf_err);
}

void kernel_release_btf(struct kernel *k)
{
	btf_info_free(k->btf);
	k->btf = NULL;
	mdf_error_free(k->btf_err);
	k->btf_err = NULL;
}

struct mdf_error *kernel_modules(struct kernel *k, struct modules **out)
{
	struct btf_info *btf;
	uint64_t head;

	if (!k->modules_tried) {
		k->modules_tried = true;
		k->modules_err = kernel_btf(k, &btf);
		if (k->modules_err)
			; /* without BTF, no layout to read them through */
		else if (!kernel_table_lookup(k, "modules", &head))
			msg_debug("the kernel's kallsyms have no \"modules\" list: a kernel without modules");
		else if (!btf_info_present(btf))
			k->modules_err = mdf_error(-ENOENT, "the kernel has no BTF (CONFIG_DEBUG_INFO_BTF): without "
						   "struct module's layout, module symbols are not listed");
		else
			k->modules_err = modules_new(k->mem, btf, head, &k->modules);
	}
	*out = k->modules;
	return mdf_error_copy(k->modules_err);
}

struct mdf_error *kernel_symbol_address(struct kernel *k, const char *module, const char *name, uint64_t *addr)
{
	bool kernel = !module || !strcmp(module, "vmlinux"), found = false;
	const struct answer *a;
	struct modules *mods;

	if (kernel && kernel_table_lookup(k, name, addr))
		return NULL;
	if (module && kernel)
		return &mdf_error_not_found;
	a = find_answer(k, module, name);
	if (a) {
		if (a->found)
			*addr = a->addr;
		return a->found ? NULL : &mdf_error_not_found;
	}
	if (mdf_error_drop(kernel_modules(k, &mods)) || !mods)
		return &mdf_error_not_found;
	found = !mdf_error_drop(modules_lookup(mods, module, name, addr));
	/* Not kept for want of memory, it is only looked for again. */
	mdf_error_free(keep_answer(k, module, name, found, *addr));
	return found ? NULL : &mdf_error_not_found;
}

/*
 * Whether the fallback has anything to answer from.  A kernel built
 * without kallsyms in VMCOREINFO or without BTF is no error here: the
 * lookup that needed the line says what is missing.
 */
static bool fallback_usable(struct kernel *k, bool need_btf)
{
	struct kallsyms *ks;
	struct btf_info *btf;

	if (k->no_kallsyms || (need_btf && k->no_btf))
		return false;
	if (k->vmlinux) {
		const struct btf *types;
		struct mdf_error *err = NULL;

		if (!need_btf)
			return true;
		err = kernel_btf(k, &btf);
		if (!err)
			err = btf_info_scope_btf(btf, "vmlinux", &types);
		/* Asked for with -x: why it cannot answer is said, once. */
		if (err) {
			msg_warn("%s: VMCOREINFO's missing lines cannot come from its DWARF", mdf_error_text(err));
			mdf_error_free(err);
			k->no_btf = true;
		}
		return !err;
	}
	if (!k->kallsyms && !kallsyms_in_vmcoreinfo(k->vi)) {
		msg_debug("VMCOREINFO does not locate kallsyms: "
			  "its missing lines cannot come from kallsyms or BTF");
		k->no_kallsyms = true;
		return false;
	}
	if (mdf_error_drop(kernel_kallsyms(k, &ks)))
		return false;
	if (!need_btf)
		return true;
	if (mdf_error_drop(kernel_btf(k, &btf)))
		return false;
	if (!btf_info_present(btf)) {
		msg_debug("the kernel has no BTF: VMCOREINFO's missing lines cannot come from it");
		k->no_btf = true;
		return false;
	}
	return true;
}

/* Where the fallback's answers come from, for the debug lines that say so. */
static const char *symbol_source(const struct kernel *k)
{
	return k->vmlinux ? "the vmlinux" : "kallsyms";
}

static const char *type_source(const struct kernel *k)
{
	return k->vmlinux ? "DWARF" : "BTF";
}

/* vmlinux's BTF answer for @path, or false; silent, as VMCOREINFO's users say what is missing. */
static bool btf_answer(struct kernel *k, const char *path, struct btf_info_result *r)
{
	return fallback_usable(k, true) && !mdf_error_drop(btf_info_lookup(k->btf, "vmlinux", path, r));
}

static bool fallback_symbol(struct kernel *k, const char *name, uint64_t *value)
{
	struct mdf_error *err;
	uint64_t addr;

	if (!fallback_usable(k, false) || !kernel_table_lookup(k, name, &addr))
		return false;
	/*
	 * SYMBOL(mem_section) is the value of the kernel's mem_section, not
	 * its address: with SPARSEMEM_EXTREME (x86_64 always has it) a
	 * pointer to the array of section roots.
	 */
	if (!strcmp(name, "mem_section")) {
		err = mem_read_u64(k->mem, addr, value);
		if (err) {
			msg_debug("SYMBOL(mem_section): cannot read the pointer at 0x%" PRIx64
				  " kallsyms gives: %s", addr, mdf_error_text(err));
			mdf_error_free(err);
			return false;
		}
		msg_debug("SYMBOL(mem_section) from %s, the pointer at 0x%" PRIx64 ": %" PRIx64, symbol_source(k), addr,
			  *value);
		return true;
	}
	*value = addr;
	msg_debug("SYMBOL(%s) from %s: %" PRIx64, name, symbol_source(k), *value);
	return true;
}

static bool fallback_size(struct kernel *k, const char *type, int64_t *value)
{
	struct btf_info_result r;

	if (!btf_answer(k, type, &r) || r.kind != BTF_INFO_TYPE)
		return false;
	*value = r.size;
	msg_debug("SIZE(%s) from %s: %" PRId64, type, type_source(k), *value);
	return true;
}

/* offsetof() has no answer for a bitfield, nor does VMCOREINFO. */
static bool fallback_offset(struct kernel *k, const char *type_member, int64_t *value)
{
	struct btf_info_result r;

	if (!btf_answer(k, type_member, &r) || r.kind != BTF_INFO_MEMBER || r.bitfield_size)
		return false;
	*value = (int64_t)(r.bit_offset / 8);
	msg_debug("OFFSET(%s) from %s: %" PRId64, type_member, type_source(k), *value);
	return true;
}

/* LENGTH(type.member) of an array member, LENGTH(name) of an array variable BTF knows. */
static bool fallback_length(struct kernel *k, const char *name, int64_t *value)
{
	struct btf_info_result r;

	if (!btf_answer(k, name, &r) || (r.kind != BTF_INFO_MEMBER && r.kind != BTF_INFO_VARIABLE) ||
	    r.array_length < 0)
		return false;
	*value = r.array_length;
	msg_debug("LENGTH(%s) from %s: %" PRId64, name, type_source(k), *value);
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

static bool fallback_number(struct kernel *k, const char *name, int64_t *value)
{
	struct btf_info_result r;
	char path[128];

	for (size_t i = 0; i < sizeof(derived_numbers) / sizeof(derived_numbers[0]); i++) {
		const char *constant = derived_numbers[i].constant;

		if (strcmp(name, derived_numbers[i].number))
			continue;
		if (!btf_answer(k, constant, &r) || r.kind != BTF_INFO_ENUM_VALUE || r.value < 0 ||
		    r.value >= (derived_numbers[i].how == BIT_MASK ? 64 : 256))
			return false;
		if (derived_numbers[i].how == BIT_MASK)
			*value = (int64_t)(1ull << r.value);
		else
			*value = (int32_t)((uint32_t)r.value << 24);
		msg_debug("NUMBER(%s) from %s (%s %s): %" PRId64, name, type_source(k), constant,
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
	if (!btf_answer(k, path, &r) || r.kind != BTF_INFO_ENUM_VALUE)
		return false;
	*value = r.value;
	msg_debug("NUMBER(%s) from %s: %" PRId64, name, type_source(k), *value);
	return true;
}

/* A fallback's answer as a lookup's. */
static struct mdf_error *found_or_not(bool found)
{
	return found ? NULL : &mdf_error_not_found;
}

/*
 * A line that is there but malformed is the dump's word, and a wrong one:
 * the fallback is asked only when the line is absent.
 */
struct mdf_error *kernel_lookup_symbol(struct kernel *k, const char *name, uint64_t *value)
{
	if (vmcoreinfo_has(k->vi, "SYMBOL", name))
		return vmcoreinfo_lookup_symbol(k->vi, name, value);
	return found_or_not(fallback_symbol(k, name, value));
}

struct mdf_error *kernel_lookup_size(struct kernel *k, const char *type, int64_t *value)
{
	if (vmcoreinfo_has(k->vi, "SIZE", type))
		return vmcoreinfo_lookup_size(k->vi, type, value);
	return found_or_not(fallback_size(k, type, value));
}

struct mdf_error *kernel_lookup_offset(struct kernel *k, const char *type_member, int64_t *value)
{
	if (vmcoreinfo_has(k->vi, "OFFSET", type_member))
		return vmcoreinfo_lookup_offset(k->vi, type_member, value);
	return found_or_not(fallback_offset(k, type_member, value));
}

struct mdf_error *kernel_lookup_length(struct kernel *k, const char *name, int64_t *value)
{
	if (vmcoreinfo_has(k->vi, "LENGTH", name))
		return vmcoreinfo_lookup_length(k->vi, name, value);
	return found_or_not(fallback_length(k, name, value));
}

struct mdf_error *kernel_lookup_number(struct kernel *k, const char *name, int64_t *value)
{
	if (vmcoreinfo_has(k->vi, "NUMBER", name))
		return vmcoreinfo_lookup_number(k->vi, name, value);
	return found_or_not(fallback_number(k, name, value));
}

/* Ready once vmlinux's BTF is open: something already needed it. */
static bool fallback_ready(const struct kernel *k)
{
	return k->btf && !k->no_btf;
}

struct mdf_error *kernel_peek_offset(struct kernel *k, const char *type_member, int64_t *value)
{
	if (vmcoreinfo_has(k->vi, "OFFSET", type_member))
		return vmcoreinfo_lookup_offset(k->vi, type_member, value);
	return found_or_not(fallback_ready(k) && fallback_offset(k, type_member, value));
}

struct mdf_error *kernel_peek_length(struct kernel *k, const char *name, int64_t *value)
{
	if (vmcoreinfo_has(k->vi, "LENGTH", name))
		return vmcoreinfo_lookup_length(k->vi, name, value);
	return found_or_not(fallback_ready(k) && fallback_length(k, name, value));
}

struct mdf_error *kernel_peek_number(struct kernel *k, const char *name, int64_t *value)
{
	if (vmcoreinfo_has(k->vi, "NUMBER", name))
		return vmcoreinfo_lookup_number(k->vi, name, value);
	return found_or_not(fallback_ready(k) && fallback_number(k, name, value));
}

static struct mdf_error *write_symbol(void *ctx, const struct ksym *sym)
{
	int written = sym->module ? fprintf(ctx, "%016llx %c %s\t[%s]\n", (unsigned long long)sym->addr,
					    sym->type, sym->name, sym->module)
				  : fprintf(ctx, "%016llx %c %s\n", (unsigned long long)sym->addr, sym->type,
					    sym->name);

	return written < 0 ? mdf_error_code(-errno) : NULL;
}

/*
 * Says on stderr what was found by searching the kernel image, so that a
 * reader of the listing knows its data symbols are not the kernel's own
 * while the listing stays /proc/kallsyms' format, line for line.
 */
static void warn_of_search(const struct kernel *k)
{
	static const struct {
		enum image_fallback which;
		const char *what;
	} searches[] = {
		{ FOUND_BTF, "vmlinux BTF" },
		{ FOUND_MODULES, "the modules list" },
		{ FOUND_BTF_MODULES, "btf_modules" },
		{ FOUND_INIT_TASK, "init_task" },
	};
	char found[128] = "";
	size_t n = 0, total = 0;

	for (size_t i = 0; i < sizeof(searches) / sizeof(searches[0]); i++)
		total += !!(k->found_by_search & searches[i].which);
	if (!total)
		return;
	for (size_t i = 0; i < sizeof(searches) / sizeof(searches[0]); i++) {
		if (!(k->found_by_search & searches[i].which))
			continue;
		n++;
		strcat(found, n == 1 ? "" : n == total ? " and " : ", ");
		strcat(found, searches[i].what);
	}
	msg_warn("kallsyms lack data symbols (no CONFIG_KALLSYMS_ALL): %s found by searching the "
		 "kernel image", found);
}

/* kprobes' instruction pages, where the kernel's symbols and types locate their caches. */
static struct mdf_error *write_kprobe_pages(struct kernel *k, FILE *out)
{
	struct kprobe_caches caches = { 0 };

	if (mdf_error_drop(kernel_lookup_symbol(k, "kprobe_insn_slots", &caches.insn_slots)))
		return NULL;
	if (mdf_error_drop(kernel_lookup_symbol(k, "kprobe_optinsn_slots", &caches.optinsn_slots)))
		caches.optinsn_slots = 0;
	if (mdf_error_drop(kernel_lookup_offset(k, "kprobe_insn_cache.pages", &caches.cache_pages)) ||
	    mdf_error_drop(kernel_lookup_offset(k, "kprobe_insn_cache.sym", &caches.cache_sym)) ||
	    mdf_error_drop(kernel_lookup_offset(k, "kprobe_insn_page.list", &caches.page_list)) ||
	    mdf_error_drop(kernel_lookup_offset(k, "kprobe_insn_page.insns", &caches.page_insns)))
		return NULL;
	return kprobe_pages_for_each(k->mem, &caches, write_symbol, out);
}

struct mdf_error *kernel_write_kallsyms(struct kernel *k, FILE *out)
{
	struct kallsyms *ks;
	struct modules *mods = NULL;
	struct mdf_error *err = kernel_kallsyms(k, &ks);

	/* Without module symbols, the kernel's alone: the caller said why. */
	if (!err && mdf_error_drop(kernel_modules(k, &mods)))
		mods = NULL;
	if (!err)
		warn_of_search(k);
	if (!err)
		err = kallsyms_for_each(ks, write_symbol, out);
	if (!err && mods)
		err = modules_for_each_symbol(mods, write_symbol, out);
	if (!err)
		err = write_kprobe_pages(k, out);
	return err;
}
