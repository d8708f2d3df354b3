/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a dump through mmap(2) windows instead of pread(2).
 *
 * In the kdump kernel, read() of /proc/vmcore maps each page of the old
 * memory, copies it and unmaps it again, while mmap() of /proc/vmcore maps a
 * whole window at once and the pages are then read where they are, the
 * pages left out never touched.  Upstream makedumpfile reads it so for the
 * same reason (its --non-mmap turns it off).  For a dump in a file, whose
 * pages come from the page cache, pread() is as fast and counts no mapped
 * page in the process's memory: the input maps only files of procfs.
 *
 * A page of a mapping can fault (SIGBUS: a hardware-poisoned page, a file
 * cut short) where read() would have failed with EIO: the copy out of the
 * mapping catches that, and the caller reads those bytes with pread(), so
 * that a bad page costs only itself, as it does without mmap.
 */
#ifndef MDF_INPUT_VMCORE_MAP_H
#define MDF_INPUT_VMCORE_MAP_H

#include <stddef.h>
#include <stdint.h>

struct mdf_error;
struct vmcore_map;

/*
 * A reader of the first @file_size bytes of @fd (left open, not owned) in
 * windows of @window bytes, a multiple of the page size, in *@out; an
 * error (*@out NULL) when mmap() does not work on @fd or memory is short.
 */
struct mdf_error *vmcore_map_new(int fd, uint64_t file_size, size_t window, struct vmcore_map **out);

/*
 * Copies @len bytes at file offset @offset into @buf.  The error's code
 * is -EFAULT when a page of them faulted, -ERANGE past the file's end, or
 * -errno of an mmap() that failed: then @buf holds nothing that counts,
 * and the caller reads the bytes some other way.  One thread at a time.
 */
struct mdf_error *vmcore_map_read(struct vmcore_map *map, void *buf, size_t len, uint64_t offset);

void vmcore_map_free(struct vmcore_map *map);

/*
 * In a forked process that set SIGBUS back to SIG_DFL (an extension's
 * child, whose own faults must kill it): catches SIGBUS in the copies out
 * of a mapping again, any other SIGBUS keeping that action.
 */
void vmcore_map_catch_sigbus_again(void);

#endif
