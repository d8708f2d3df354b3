/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kallsyms would have said of the kernel's data, found in the kernel
 * image instead, for kernels whose kallsyms list text symbols only (built
 * without CONFIG_KALLSYMS_ALL, as Debian 12's arm64 kernel is): vmlinux's
 * BTF by its header, init_task and the modules list by their contents,
 * exported variables by the kernel's own export tables.
 *
 * The image is searched from SYMBOL(_stext) (VMCOREINFO has it) up to the
 * first page that does not translate.  Nothing is taken on a guess: each
 * candidate is checked, and a search that finds none, or more than one
 * where only one can be, says so.
 */
#ifndef MDF_KERNEL_IMAGE_SEARCH_H
#define MDF_KERNEL_IMAGE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

struct btf_info;
struct mdf_error;
struct memory;

/*
 * vmlinux's BTF: the first header in the image (magic 0xeB9F, version 1)
 * whose sections fit and whose data libbpf parses into types that have
 * struct task_struct.  [*@start, *@stop) is what __start_BTF and
 * __stop_BTF would have bounded.
 */
struct mdf_error *image_find_btf(struct memory *mem, uint64_t image_start, uint64_t *start, uint64_t *stop);

/*
 * init_task: the task in the image whose comm is "swapper/0", whose pid
 * is 0 and whose tasks list links back to it both ways, at the offsets
 * vmlinux's BTF gives.
 */
struct mdf_error *image_find_init_task(struct memory *mem, struct btf_info *btf, uint64_t image_start,
				       uint64_t *addr);

/*
 * The modules list's head: a list_head in the image whose every node is
 * the list member of a struct module (as vmlinux's BTF lays it out) whose
 * mkobj.mod points back to it, with a name and a valid state, the list
 * linked both ways back to the head.  -ENOENT when none is found: then no
 * module is loaded, or the list could not be told from others.
 */
struct mdf_error *image_find_modules(struct memory *mem, struct btf_info *btf, uint64_t image_start,
				     uint64_t *head);

/*
 * btf_modules, the list of the modules' BTF: a list_head in the image
 * whose every node is a struct btf_module naming one of the modules on
 * the list at @modules_head (found first), linked both ways back to it.
 */
struct mdf_error *image_find_btf_modules(struct memory *mem, struct btf_info *btf, uint64_t image_start,
					 uint64_t modules_head, uint64_t *head);

/*
 * The kernel's export tables (__ksymtab, __ksymtab_gpl): runs of struct
 * kernel_symbol in the image, each entry's name a C identifier in the
 * image and its value an address in it, the names in strictly ascending
 * order (the kernel searches them by bisection).  They name the exported
 * variables kallsyms without data symbols leave out.
 */
struct image_exports;

struct mdf_error *image_find_exports(struct memory *mem, struct btf_info *btf, uint64_t image_start,
				     struct image_exports **out);
/*
 * The address of the export @name: NULL, or &mdf_error_not_found when no
 * table holds it (or none that can be read where the search goes).
 */
struct mdf_error *image_exports_lookup(const struct image_exports *ex, const char *name, uint64_t *addr);
void image_exports_free(struct image_exports *ex);

#endif
