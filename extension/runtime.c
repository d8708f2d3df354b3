// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The functions of makedumpfile-extension.h.
 *
 * Extensions call them without a context argument (constructors have none
 * to receive), so they work on the one runtime of the process: each child
 * runs a single extension, and the parent never calls them.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "erase/erase_set.h"
#include "extension/env.h"
#include "extension/runtime.h"
#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/mem_map.h"
#include "kernel/kernel.h"
#include "kernel/walkers.h"
#include "makedumpfile-extension.h"
#include "memory/reader.h"
#include "scan/page_scan.h"
#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "util/message.h"

struct mdf_extension {
	const struct extension_env *env;
	struct walk_ctx walk;
	const char *name;
	const struct extension_arg *args;
	size_t nr_args;
	struct page_decisions decisions;
	/*
	 * Its entries are the WHATs of mdf_erase_*() (the parent prefixes the
	 * extension's name), each with one sample that gathers every call.
	 */
	struct erase_set erase;
};

/* Bounds of mdf_erase_*(), as makedumpfile-extension.h states them. */
#define MAX_ERASE_CALL (64u << 20)
#define MAX_WHAT_LEN 127

static struct mdf_extension runtime;

/*
 * Whether the message macros of upstream's API (makedumpfile.h's MSG)
 * print to stderr, set for the extension before it is loaded.  The level
 * they read, message_level, is util/message.c's own.
 */
int flag_strerr_message;

/*
 * What every child would read the same way is read here once: the kernel's
 * symbol table, vmlinux's BTF and where the modules are.  A module's BTF
 * is left to the children that ask for it.  extension_runtime_finish()
 * lets the BTF go again: the parent runs on without it.
 */
void extension_runtime_prepare(const struct extension_env *env)
{
	struct btf_info *btf;
	const struct btf *vmlinux;
	struct modules *mods;
	struct mdf_error *err;

	err = kernel_symbols_ready(env->kernel);
	if (err) {
		msg_warn("%s: extensions will find no kernel symbols", mdf_error_text(err));
		mdf_error_free(err);
		return;
	}
	err = kernel_btf(env->kernel, &btf);
	if (!err)
		err = btf_info_scope_btf(btf, "vmlinux", &vmlinux);
	if (err) {
		msg_warn("%s: extensions will have no type information (BTF)", mdf_error_text(err));
		mdf_error_free(err);
		return;
	}
	err = kernel_modules(env->kernel, &mods);
	if (err)
		msg_warn("%s: extensions will see the kernel's symbols only, not the modules'", mdf_error_text(err));
	mdf_error_free(err);
}

void extension_runtime_finish(const struct extension_env *env)
{
	kernel_release_btf(env->kernel);
}

void extension_runtime_begin(const struct extension_env *env, const char *name,
			     const struct extension_arg *args, size_t nr_args)
{
	memset(&runtime, 0, sizeof(runtime));
	runtime.env = env;
	runtime.walk = (struct walk_ctx){ env->mem, env->kernel, env->mem_map };
	runtime.name = name;
	runtime.args = args;
	runtime.nr_args = nr_args;
	erase_set_init(&runtime.erase, env->page_size, env->max_pfn);
	flag_strerr_message = msg_stdout_is_data();
}

struct mdf_extension *extension_runtime_handle(void)
{
	return &runtime;
}

void extension_runtime_results(struct page_decisions **decisions, struct erase_set **erase)
{
	*decisions = &runtime.decisions;
	*erase = &runtime.erase;
}

int mdf_api_version(void)
{
	return MDF_EXTENSION_API_VERSION;
}

const char *mdf_extension_name(const struct mdf_extension *ext)
{
	return (ext ? ext : &runtime)->name;
}

const char *mdf_extension_arg(const struct mdf_extension *ext, const char *key)
{
	const struct mdf_extension *rt = ext ? ext : &runtime;

	for (size_t i = 0; i < rt->nr_args; i++)
		if (!strcmp(rt->args[i].extension, rt->name) && !strcmp(rt->args[i].key, key))
			return rt->args[i].value;
	return NULL;
}

void mdf_log(enum mdf_log_level level, const char *fmt, ...)
{
	static const int levels[] = { [MDF_LOG_ERROR] = ML_ERROR, [MDF_LOG_INFO] = ML_COMMON,
				      [MDF_LOG_DEBUG] = ML_DEBUG };
	va_list ap;

	if ((unsigned int)level > MDF_LOG_DEBUG || !(msg_level() & levels[level]))
		return;
	fflush(stdout);
	fprintf(stderr, "%s: ", runtime.name ? runtime.name : "extension");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * What an mdf_*() call returns: 0, or the error's code after its message,
 * which the extension cannot print itself (a plain reason such as a page
 * the dump lacks has none: the extension knows what it was reading).
 * @quiet drops the message of a "no such symbol or type" too: extensions
 * ask for names that may not be there.
 */
static int api_result(struct mdf_error *err, bool quiet)
{
	if (!err)
		return 0;
	if (err->message && !(quiet && mdf_error_is_not_found(err)))
		return mdf_error_print(err, false);
	return mdf_error_drop(err);
}

int mdf_read_kvaddr(uint64_t vaddr, void *buf, size_t len)
{
	return api_result(mem_read_virt(runtime.env->mem, vaddr, buf, len), false);
}

int mdf_read_paddr(uint64_t paddr, void *buf, size_t len)
{
	return api_result(mem_read_phys(runtime.env->mem, paddr, buf, len), false);
}

int mdf_read_u64(uint64_t vaddr, uint64_t *value)
{
	return api_result(mem_read_u64(runtime.env->mem, vaddr, value), false);
}

int mdf_read_u32(uint64_t vaddr, uint32_t *value)
{
	return api_result(mem_read_u32(runtime.env->mem, vaddr, value), false);
}

int mdf_read_u16(uint64_t vaddr, uint16_t *value)
{
	return api_result(mem_read_u16(runtime.env->mem, vaddr, value), false);
}

int mdf_read_u64_array(uint64_t vaddr, uint64_t *values, size_t count)
{
	return api_result(mem_read_u64_array(runtime.env->mem, vaddr, values, count), false);
}

int mdf_read_string(uint64_t vaddr, char *buf, size_t size)
{
	if (!size)
		return -EINVAL;
	for (size_t i = 0; i + 1 < size; i++) {
		int err = api_result(mem_read_virt(runtime.env->mem, vaddr + i, &buf[i], 1), false);

		if (err)
			return err;
		if (!buf[i])
			return 0;
	}
	buf[size - 1] = '\0';
	return 0;
}

int mdf_kvtop(uint64_t vaddr, uint64_t *paddr)
{
	return api_result(mem_vtop(runtime.env->mem, vaddr, paddr), false);
}

int mdf_symbol_addr(const char *module, const char *name, uint64_t *addr)
{
	return api_result(kernel_symbol_address(runtime.env->kernel, module, name, addr), true);
}

int mdf_expect_kernel_symbols(const char *const *names, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!names || !names[i] || !*names[i])
			return -EINVAL;
	return api_result(kernel_expect_symbols(runtime.env->kernel, names, nr), false);
}

/* A lookup in the dump's BTF: -ENOENT, unsaid, for a name it lacks. */
static int lookup(const char *module, const char *path, struct btf_info_result *r)
{
	struct btf_info *btf;
	struct mdf_error *err = kernel_btf(runtime.env->kernel, &btf);

	if (!err)
		err = btf_info_lookup(btf, module, path, r);
	return api_result(err, true);
}

int mdf_type_size(const char *module, const char *type, uint64_t *size)
{
	struct btf_info_result r;
	int err = lookup(module, type, &r);

	if (!err && r.kind != BTF_INFO_TYPE)
		err = -ENOENT;
	if (!err)
		*size = (uint64_t)r.size;
	return err;
}

int mdf_member(const char *module, const char *type, const char *path, struct mdf_member *out)
{
	struct btf_info_result r;
	char full[512];
	int err;

	if ((size_t)snprintf(full, sizeof(full), "%s.%s", type, path) >= sizeof(full))
		return -ENAMETOOLONG;
	err = lookup(module, full, &r);
	if (!err && r.kind != BTF_INFO_MEMBER)
		err = -ENOENT;
	if (err)
		return err;
	out->offset = r.bit_offset / 8;
	out->size = (uint64_t)r.size;
	out->bit_offset = (uint32_t)r.bit_offset;
	out->bitfield_size = r.bitfield_size;
	return 0;
}

int mdf_member_offset(const char *module, const char *type, const char *path, uint64_t *offset)
{
	struct mdf_member m;
	int err = mdf_member(module, type, path, &m);

	if (!err)
		*offset = m.offset;
	return err;
}

int mdf_enum_value(const char *module, const char *name, int64_t *value)
{
	struct btf_info_result r;
	int err = lookup(module, name, &r);

	if (!err && r.kind != BTF_INFO_ENUM_VALUE)
		err = -ENOENT;
	if (!err)
		*value = r.value;
	return err;
}

uint64_t mdf_page_size(void)
{
	return runtime.env->page_size;
}

int mdf_page_to_pfn(uint64_t page, uint64_t *pfn)
{
	/* The API's word for no such struct page is -ERANGE. */
	return mem_map_page_to_pfn(runtime.env->mem_map, page, pfn) ? -ERANGE : 0;
}

int mdf_pfn_to_page(uint64_t pfn, uint64_t *page)
{
	return mem_map_pfn_to_page(runtime.env->mem_map, pfn, page) ? -ERANGE : 0;
}

/*
 * The walkers take callbacks that return errors; an extension's return a
 * number, whose non-zero value stops the walk and comes back as the
 * walk's result.
 */
struct callback {
	union {
		int (*node)(uint64_t node, void *arg);
		int (*range)(uint64_t first, uint64_t last, uint64_t entry, void *arg);
		int (*index)(uint64_t index, uint64_t entry, void *arg);
		int (*task)(const struct mdf_task *task, void *arg);
		int (*vma)(const struct mdf_vma *vma, void *arg);
	} fn;
	void *arg;
};

static struct mdf_error *stop_at(int rc)
{
	return rc ? mdf_error_code(rc) : NULL;
}

static struct mdf_error *call_node(uint64_t node, void *arg)
{
	const struct callback *c = arg;

	return stop_at(c->fn.node(node, c->arg));
}

static struct mdf_error *call_range(uint64_t first, uint64_t last, uint64_t entry, void *arg)
{
	const struct callback *c = arg;

	return stop_at(c->fn.range(first, last, entry, c->arg));
}

static struct mdf_error *call_index(uint64_t index, uint64_t entry, void *arg)
{
	const struct callback *c = arg;

	return stop_at(c->fn.index(index, entry, c->arg));
}

static struct mdf_error *call_task(const struct mdf_task *task, void *arg)
{
	const struct callback *c = arg;

	return stop_at(c->fn.task(task, c->arg));
}

static struct mdf_error *call_vma(const struct mdf_vma *vma, void *arg)
{
	const struct callback *c = arg;

	return stop_at(c->fn.vma(vma, c->arg));
}

int mdf_list_for_each(uint64_t head, uint64_t max, int (*cb)(uint64_t node, void *arg), void *arg)
{
	struct callback c = { .fn.node = cb, .arg = arg };

	return api_result(walk_list(&runtime.walk, head, max, call_node, &c), false);
}

int mdf_maple_tree_for_each(uint64_t tree,
			    int (*cb)(uint64_t first, uint64_t last, uint64_t entry, void *arg),
			    void *arg)
{
	struct callback c = { .fn.range = cb, .arg = arg };

	return api_result(walk_maple_tree(&runtime.walk, tree, call_range, &c), false);
}

int mdf_xarray_for_each(uint64_t xa, int (*cb)(uint64_t index, uint64_t entry, void *arg), void *arg)
{
	struct callback c = { .fn.index = cb, .arg = arg };

	return api_result(walk_xarray(&runtime.walk, xa, call_index, &c), false);
}

int mdf_task_for_each(int (*cb)(const struct mdf_task *task, void *arg), void *arg)
{
	struct callback c = { .fn.task = cb, .arg = arg };

	return api_result(walk_tasks(&runtime.walk, call_task, &c), false);
}

int mdf_vma_for_each(uint64_t mm, int (*cb)(const struct mdf_vma *vma, void *arg), void *arg)
{
	struct callback c = { .fn.vma = cb, .arg = arg };

	return api_result(walk_vmas(&runtime.walk, mm, call_vma, &c), false);
}

int mdf_uvtop(uint64_t mm, uint64_t uvaddr, uint64_t *paddr)
{
	return api_result(walk_uvtop(&runtime.walk, mm, uvaddr, paddr), false);
}

int mdf_discard_pfns(uint64_t pfn, uint64_t count)
{
	return mdf_error_drop(pfn_ranges_add(&runtime.decisions.discard, pfn, count));
}

int mdf_keep_pfns(uint64_t pfn, uint64_t count)
{
	return mdf_error_drop(pfn_ranges_add(&runtime.decisions.keep, pfn, count));
}

/*
 * The sample of @what (@fallback when NULL) written with @fill, made with
 * its entry on its first use: entries and samples pair up, entry i's
 * sample is sample i.
 */
static int erase_sample(const char *what, const char *fallback, unsigned char fill, uint32_t *sample)
{
	struct erase_set *set = &runtime.erase;
	uint32_t entry;
	size_t len;
	int err;

	if (!what)
		what = fallback;
	len = strlen(what);
	if (!len || len > MAX_WHAT_LEN)
		return -EINVAL;
	/* The eraseinfo is lines of words: no spaces, no line breaks. */
	for (size_t i = 0; i < len; i++)
		if (!isgraph((unsigned char)what[i]))
			return -EINVAL;
	for (size_t i = 0; i < set->nr_entries; i++) {
		if (!strcmp(set->entries[i].text, what) && set->entries[i].fill == fill) {
			*sample = (uint32_t)i;
			return 0;
		}
	}
	if (set->nr_entries == EXTENSION_MAX_ERASE_WHATS)
		return -E2BIG;
	err = mdf_error_drop(erase_set_entry_filled(set, what, fill, &entry));
	if (!err)
		err = mdf_error_drop(erase_set_sample(set, entry, sample));
	return err;
}

/* The checks both erase calls make before they record anything. */
static int erase_request(uint64_t len, const char *what, const char *fallback, unsigned char fill,
			 uint32_t *sample)
{
	if (!len)
		return -EINVAL;
	if (len > MAX_ERASE_CALL)
		return -E2BIG;
	return erase_sample(what, fallback, fill, sample);
}

int extension_runtime_erase_kvaddr(uint64_t vaddr, uint64_t len, const char *what, unsigned char fill)
{
	uint32_t sample;
	int err;

	err = erase_request(len, what, "kvaddr", fill, &sample);
	if (!err)
		err = mdf_error_drop(erase_set_add_virt(&runtime.erase, runtime.env->mem, sample, vaddr, len));
	return err;
}

int mdf_erase_kvaddr(uint64_t vaddr, uint64_t len, const char *what)
{
	return extension_runtime_erase_kvaddr(vaddr, len, what, ERASE_FILL);
}

int mdf_erase_paddr(uint64_t paddr, uint64_t len, const char *what)
{
	uint32_t sample;
	int err;

	err = erase_request(len, what, "paddr", ERASE_FILL, &sample);
	if (!err)
		err = mdf_error_drop(erase_set_add_phys(&runtime.erase, sample, paddr, len));
	return err;
}
