/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One constant of one enum of vmlinux's BTF, read straight from the dump
 * without loading the types: for a number VMCOREINFO does not give
 * (PG_reserved of enum pageflags) where nothing else needs BTF.  Parsing
 * all of vmlinux's types with libbpf (kernel/btf.h) costs 40 ms of CPU and
 * 4 MB on a 6.1 kernel; this walk reads the type section through a small
 * window and compares the names of enums only.
 */
#ifndef MDF_KERNEL_BTF_ENUM_H
#define MDF_KERNEL_BTF_ENUM_H

#include <stdint.h>

struct mdf_error;
struct memory;

/*
 * The value of @constant in the enum (or enum64) named @enum_name of the
 * BTF at [@start, @stop) in the kernel's memory.  &mdf_error_not_found
 * where there is no such enum or constant; -MDF_ECORRUPT for BTF whose
 * header or types do not fit; a read's error otherwise.
 */
struct mdf_error *btf_enum_constant(struct memory *mem, uint64_t start, uint64_t stop, const char *enum_name,
				    const char *constant, int64_t *value);

#endif
