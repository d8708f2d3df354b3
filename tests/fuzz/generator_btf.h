/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * generator_btf.h: the sample-dump generator's vmlinux BTF, for harnesses
 * that need a kernel's types (fuzz_kernel.h).  generator_btf.c is the one
 * file of tests/fuzz built with tests/gen's headers: they name some
 * things as the engine's do (struct ksym).
 */
#ifndef GENERATOR_BTF_H
#define GENERATOR_BTF_H

#include <stdint.h>

/* vmlinux's raw BTF as mkvmcore --amdgpu writes it, built on first call; *@size its bytes. */
const void *generator_btf(uint32_t *size);

#endif
