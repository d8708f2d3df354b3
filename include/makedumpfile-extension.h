/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * makedumpfile-extension.h: the API of makedumpfile page-filter extensions.
 *
 * An extension is a shared object in the extensions directory
 * (/usr/lib64/makedumpfile/extensions unless --extension-dir says
 * otherwise).  makedumpfile loads it after it has read the dump's symbols
 * and types, and before it classifies pages.  The extension walks kernel
 * structures of the crashed kernel and tells makedumpfile which page frames
 * to discard (excluded even where no dump-level rule would exclude them) or
 * to keep (never excluded, by any rule), and which bytes to erase from the
 * pages written (API version 2).
 *
 * An extension acts either from an ELF constructor, or from an entry point
 *
 *     int mdf_extension_init(struct mdf_extension *ext);
 *
 * which returns 0, or a negative errno to say it failed (its ranges are
 * then dropped).  Each extension runs in a child process with a time limit
 * (--extension-timeout): one that crashes, hangs or fails costs the dump
 * nothing but its own ranges, and the report says what happened.
 *
 * Every function returns 0 or a negative errno: -ENOENT for a symbol,
 * type or member that does not exist, -EFAULT for an address the crashed
 * kernel does not map, -ENODATA for a page the dump left out, -EBADMSG for
 * a structure that contradicts itself (a list that loops, a tree deeper
 * than possible), -ERANGE for a value outside the dump.  Walkers stop after
 * a bound and at the first bad pointer: the crashed kernel's memory may be
 * garbage.
 *
 * Build an extension with
 *     cc -shared -fPIC $(pkg-config --cflags makedumpfile-extension) -o my.so my.c
 * It links against nothing: the functions are provided by makedumpfile.
 */
#ifndef MAKEDUMPFILE_EXTENSION_H
#define MAKEDUMPFILE_EXTENSION_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when a function is added; an extension may check it at build time. */
#define MDF_EXTENSION_API_VERSION 4

/* What makedumpfile passes to mdf_extension_init(). */
struct mdf_extension;

/* The API version of the makedumpfile that runs the extension. */
int mdf_api_version(void);
/* The extension's file name without ".so": its name in messages and options. */
const char *mdf_extension_name(const struct mdf_extension *ext);
/*
 * The value of --extension-arg NAME:KEY=VALUE for this extension, or NULL.
 * Also callable from constructors (ext NULL: the extension being loaded).
 */
const char *mdf_extension_arg(const struct mdf_extension *ext, const char *key);

/* ---- Messages, filtered by --message-level like makedumpfile's own. ---- */

enum mdf_log_level {
	MDF_LOG_ERROR,   /* always shown */
	MDF_LOG_INFO,    /* message level bit 2 (common messages) */
	MDF_LOG_DEBUG,   /* message level bit 8 */
};
/* Prints "EXTENSION: message" on stderr. */
void mdf_log(enum mdf_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- Reading the crashed kernel's memory. ---- */

int mdf_read_kvaddr(uint64_t vaddr, void *buf, size_t len);
int mdf_read_paddr(uint64_t paddr, void *buf, size_t len);
/* Integers in the dumped machine's byte order (s390x's is big-endian), in the host's. */
int mdf_read_u64(uint64_t vaddr, uint64_t *value);
int mdf_read_u32(uint64_t vaddr, uint32_t *value);
/* Since API version 4. */
int mdf_read_u16(uint64_t vaddr, uint16_t *value);
/*
 * @count consecutive 64-bit integers (an array of pointers, say) at
 * @vaddr, in the host's order: one read, where mdf_read_kvaddr() would
 * leave them in the dumped machine's.  Since API version 4.
 */
int mdf_read_u64_array(uint64_t vaddr, uint64_t *values, size_t count);
/* A NUL-terminated string of at most @size bytes (terminated at size - 1). */
int mdf_read_string(uint64_t vaddr, char *buf, size_t size);
/* Kernel virtual to physical address. */
int mdf_kvtop(uint64_t vaddr, uint64_t *paddr);

/* ---- Symbols (kallsyms of the kernel and of loaded modules). ---- */

/*
 * @module NULL: the kernel first, then modules; "vmlinux": the kernel
 * alone.  Name the module when you know it: a name asked of all modules
 * that the kernel lacks reads every module's symbol table.  Each name not
 * asked before costs about a millisecond (a pass over the dump's
 * compressed kallsyms names); asking it again costs nothing.
 */
int mdf_symbol_addr(const char *module, const char *name, uint64_t *addr);
/*
 * Announces kernel symbols (the kernel's own, not modules') that the
 * extension is about to ask with mdf_symbol_addr(): where each name not
 * asked before costs its own pass over the compressed names, the announced
 * ones are found together in one.  Only a saving: a name the kernel lacks
 * is no error here (mdf_symbol_addr says -ENOENT when asked).  Returns 0,
 * -EINVAL for a NULL or empty name, or the error that kept the kernel's
 * symbols from being read.  A few dozen names are remembered; more are
 * found when asked.  API version 3.
 */
int mdf_expect_kernel_symbols(const char *const *names, size_t nr);

/* ---- Types (the dump's BTF, vmlinux and module split BTF). ---- */

struct mdf_member {
	uint64_t offset;        /* bytes from the start of the outermost type */
	uint64_t size;          /* bytes of the member's type */
	uint32_t bit_offset;    /* bits, for bitfields; offset * 8 otherwise */
	uint32_t bitfield_size; /* bits; 0 when not a bitfield */
};

/* The size of a struct, union, typedef or base type. */
int mdf_type_size(const char *module, const char *type, uint64_t *size);
/* @path: "member" or "member.member..."; anonymous structs and unions are searched. */
int mdf_member(const char *module, const char *type, const char *path, struct mdf_member *out);
/* Shorthand: a member's byte offset. */
int mdf_member_offset(const char *module, const char *type, const char *path, uint64_t *offset);
/* An enum constant by name. */
int mdf_enum_value(const char *module, const char *name, int64_t *value);

/* ---- Pages. ---- */

uint64_t mdf_page_size(void);
/* struct page * <-> page frame number, for the dump's memory model. */
int mdf_page_to_pfn(uint64_t page, uint64_t *pfn);
int mdf_pfn_to_page(uint64_t pfn, uint64_t *page);

/* ---- Walkers.  A callback returns 0 to go on, > 0 to stop (the walker
 * returns that value), < 0 to stop with that error. ---- */

/*
 * The nodes of a struct list_head list anchored at @head (not visited
 * itself): @node is each element's list_head address (container_of is the
 * caller's).  At most @max nodes (0: a million).
 */
int mdf_list_for_each(uint64_t head, uint64_t max, int (*cb)(uint64_t node, void *arg), void *arg);

/*
 * The entries of a maple tree (struct maple_tree at @tree, e.g. an
 * mm_struct's mm_mt): each non-NULL entry with the range [first, last] it
 * covers, in ascending order.
 */
int mdf_maple_tree_for_each(uint64_t tree,
			    int (*cb)(uint64_t first, uint64_t last, uint64_t entry, void *arg),
			    void *arg);

/* The entries of an xarray (struct xarray at @xa, or an IDR's idr_rt). */
int mdf_xarray_for_each(uint64_t xa, int (*cb)(uint64_t index, uint64_t entry, void *arg),
			void *arg);

struct mdf_task {
	uint64_t task;      /* struct task_struct * */
	int32_t pid;
	int32_t tgid;
	char comm[16];
	uint64_t mm;        /* struct mm_struct *, 0 for kernel threads */
};
/* Every thread group leader from init_task's tasks list. */
int mdf_task_for_each(int (*cb)(const struct mdf_task *task, void *arg), void *arg);

struct mdf_vma {
	uint64_t vma;       /* struct vm_area_struct * */
	uint64_t start;
	uint64_t end;
	uint64_t flags;
	uint64_t ops;       /* vm_ops */
	uint64_t private_data;
	uint64_t file;      /* vm_file */
};
/* The VMAs of an mm_struct, ascending (maple tree, or the vm_next list of older kernels). */
int mdf_vma_for_each(uint64_t mm, int (*cb)(const struct mdf_vma *vma, void *arg), void *arg);

/* A user virtual address of @mm through its page tables; -ENOENT when not present. */
int mdf_uvtop(uint64_t mm, uint64_t uvaddr, uint64_t *paddr);

/* ---- Decisions. ---- */

/* Page frames [pfn, pfn + count) to exclude from the dump. */
int mdf_discard_pfns(uint64_t pfn, uint64_t count);
/* Page frames [pfn, pfn + count) never to exclude, whatever the dump level. */
int mdf_keep_pfns(uint64_t pfn, uint64_t count);

/* ---- Erasing (API version 2). ---- */

/*
 * Overwrites bytes of the crashed kernel's memory in the dump written with
 * 'X', as an erase command of the filter config (--config) does:
 * mdf_erase_kvaddr() the kernel virtual range [vaddr, vaddr + len), each
 * page translated on its own (vmalloc and module memory erase correctly);
 * mdf_erase_paddr() the physical range [paddr, paddr + len).  Pages the
 * dump level excludes are not written at all.
 *
 * The dump's erase information (makedumpfile --eraseinfo prints it) gets
 * a line "erase EXTENSION:WHAT size N" for each @what, N the bytes of all
 * the calls with that @what that reached the dump.  @what names the kind
 * of data ("task_struct.comm", "user_key_payload.data"), never the data:
 * 1 to 127 printable characters without spaces; NULL says "kvaddr" or
 * "paddr".
 *
 * Returns 0, or: -EFAULT or -ENODATA when a page of the virtual range does
 * not translate (nothing of the range is erased then), -ERANGE for a
 * physical range beyond the dump, -EINVAL for a zero @len or a bad @what,
 * -E2BIG for more than 64 MiB in one call, more than 256 different @what
 * in one extension, or too many ranges in all.
 */
int mdf_erase_kvaddr(uint64_t vaddr, uint64_t len, const char *what);
int mdf_erase_paddr(uint64_t paddr, uint64_t len, const char *what);

#ifdef __cplusplus
}
#endif

#endif
