/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions: kernel and module symbols
 * under upstream makedumpfile's names (extension API of June 2026) and
 * those of the series posted to the kexec list before it.  makedumpfile's
 * own code uses kernel/kallsyms.h; new extensions use
 * makedumpfile-extension.h.
 */
#ifndef MDF_KALLSYMS_H
#define MDF_KALLSYMS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A symbol an extension declares, with
 *
 *     INIT_MOD_SYM(vmlinux, init_task);      required
 *     INIT_OPT_MOD_SYM(amdgpu, amdgpu_fw);   optional
 *
 * (the module "vmlinux" is the kernel).  A pointer to each declaration
 * goes to the section .init_ksyms, which makedumpfile.ld brackets with
 * __start_init_ksyms and __stop_init_ksyms.  makedumpfile fills value and
 * index before extension_init() runs; an extension a required symbol is
 * missing for does not run.  GET_MOD_SYM() is the address (0 when not
 * found), MOD_SYM_EXIST() whether it was found.  The layout is upstream's:
 * a .so built with either project's headers runs with either makedumpfile.
 *
 * The declaration and its pointer are static objects, so that
 * INIT_MOD_SYM() is valid at file scope and inside a function (btf_info.h
 * says why).
 */
struct ksym_info {
	char *modname;
	char *symname;
	bool sym_required;
	uint64_t value;
	int index;      /* -1 until found */
};

#define MDF_CONCAT2_(A, B) A##B
#define MDF_CONCAT_(A, B) MDF_CONCAT2_(A, B)
/* A name of its own for each use: PREFIX followed by a number. */
#define MDF_UNIQUE_(PREFIX) MDF_CONCAT_(PREFIX, __COUNTER__)

#define INIT_MOD_SYM_RQD(MOD, SYM, R)                                        \
	static struct ksym_info _##MOD##_##SYM = { #MOD, #SYM, R, 0, -1 };    \
	static struct ksym_info *_ptr_##MOD##_##SYM                          \
		__attribute__((section(".init_ksyms"), used)) = &_##MOD##_##SYM
#define INIT_MOD_SYM(MOD, SYM) INIT_MOD_SYM_RQD(MOD, SYM, 1)
#define INIT_OPT_MOD_SYM(MOD, SYM) INIT_MOD_SYM_RQD(MOD, SYM, 0)

#define GET_MOD_SYM(MOD, SYM) (_##MOD##_##SYM.value)
#define GET_MOD_SYM_PTR(MOD, SYM) (&_##MOD##_##SYM)
#define MOD_SYM_EXIST(MOD, SYM) (_##MOD##_##SYM.index >= 0)
#define SYM_EXIST(p) ((p)->index >= 0)

/* The posted series' shorthands for the kernel's own symbols (module vmlinux). */
#define INIT_KERN_SYM(SYM) INIT_MOD_SYM(vmlinux, SYM)
#define INIT_OPT_KERN_SYM(SYM) INIT_OPT_MOD_SYM(vmlinux, SYM)
#define GET_KERN_SYM(SYM) GET_MOD_SYM(vmlinux, SYM)
#define KERN_SYM_EXIST(SYM) MOD_SYM_EXIST(vmlinux, SYM)

/* The next pointer of the list_head at @list, 0 when it cannot be read. */
uint64_t next_list(uint64_t list);

/*
 * The series posted before upstream's: the address of a kernel or module
 * symbol, 0 when there is none.
 */
uint64_t get_kallsyms_value_by_name(char *name);

/*
 * Upstream's arrays that grow: add_to_arr() appends @elem to *@arr, which
 * holds *@arr_len pointers in room for *@arr_cap (*@arr NULL: a new
 * array), reallocating it with the C library's allocator, so that the
 * caller frees it with free().  push_uniq_str() appends @str unless an
 * equal string is there already.  Both return false when out of memory,
 * the array unchanged.
 */
bool add_to_arr(void ***arr, int *arr_len, int *arr_cap, void *elem);
bool push_uniq_str(void ***arr, int *arr_len, int *arr_cap, char *str);

#endif
