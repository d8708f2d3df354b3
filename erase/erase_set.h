/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bytes to erase from the pages written, and the erase information that
 * records them in the dump.
 *
 * An erase set gathers what the filter config (erase/config.h) and the
 * extensions ask to erase.  Requests are grouped as upstream makedumpfile
 * groups them in its eraseinfo:
 *
 *   - an *entry* is one erase command: the text the eraseinfo names it by
 *     ("erase TEXT size N" or "erase TEXT nullify");
 *   - a *sample* is one time that command erased something: once for a
 *     plain command, once per element for a command inside a loop, once
 *     per call for an extension.
 *
 * Each sample's bytes are kept as *pieces* of physical memory that never
 * cross a page boundary (a kernel virtual range is translated page by
 * page, so vmalloc and module memory erase correctly), sorted by address
 * once the set is complete.
 *
 * While the dump is written, erase_set_apply() overwrites the pieces of
 * each page as it is read, and counts for each sample the bytes that
 * reached the dump.  The eraseinfo lists those, as upstream does: a piece
 * of a page that the dump level excluded is not in the dump, so it is
 * neither erased nor listed.
 */
#ifndef MDF_ERASE_ERASE_SET_H
#define MDF_ERASE_ERASE_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct memory;
struct mdf_error;

/* Upstream's poison byte for erased data; "nullify" writes zeros instead. */
#define ERASE_FILL 'X'
#define ERASE_NULLIFY_FILL 0

/* At most this many pieces (of at most a page each): 64 GiB with 4 KiB pages. */
#define ERASE_MAX_PIECES (1u << 24)

struct erase_entry {
	char *text;
	bool nullify;
	unsigned char fill;      /* the byte written over the data */
};

struct erase_sample {
	uint32_t entry;
	/* Bytes of this sample written to the dump so far (erase_set_apply). */
	uint64_t erased;
};

struct erase_piece {
	uint64_t paddr;
	uint32_t len;
	uint32_t sample;
	/* Counted in its sample's bytes already: a page read again counts once. */
	bool applied;
};

struct erase_set {
	uint32_t page_size;
	uint64_t max_pfn;
	struct erase_entry *entries;
	size_t nr_entries, cap_entries;
	struct erase_sample *samples;
	size_t nr_samples, cap_samples;
	struct erase_piece *pieces;
	size_t nr_pieces, cap_pieces;
	bool sorted;
};

/* An empty set for a dump of @max_pfn pages of @page_size bytes (a power of two). */
void erase_set_init(struct erase_set *set, uint32_t page_size, uint64_t max_pfn);
void erase_set_free(struct erase_set *set);

/*
 * The functions that can fail return an error whose code says why, with
 * no message of its own (the caller knows what it was erasing): -ENOMEM;
 * -E2BIG past ERASE_MAX_PIECES (or UINT32_MAX entries); -EINVAL for an
 * unknown entry or sample, or an empty range; -ERANGE for a range not
 * inside the dump's pfns.  Nothing is added then.
 */

/* A new entry named @text (copied); @nullify entries write zeros, others ERASE_FILL. */
struct mdf_error *erase_set_entry(struct erase_set *set, const char *text, bool nullify, uint32_t *entry);
/* A new entry named @text that writes @fill (update_filter_info_raw's byte). */
struct mdf_error *erase_set_entry_filled(struct erase_set *set, const char *text, unsigned char fill,
					 uint32_t *entry);
/* A new sample of @entry. */
struct mdf_error *erase_set_sample(struct erase_set *set, uint32_t entry, uint32_t *sample);
/* Adds [@paddr, @paddr + @len) to @sample. */
struct mdf_error *erase_set_add_phys(struct erase_set *set, uint32_t sample, uint64_t paddr, uint64_t len);
/*
 * Adds the kernel virtual range [@vaddr, @vaddr + @len) to @sample, each
 * page translated on its own.  All or nothing: a page that does not
 * translate returns the memory reader's error (-MDF_EUNMAPPED, ...) and
 * adds nothing.
 */
struct mdf_error *erase_set_add_virt(struct erase_set *set, struct memory *mem, uint32_t sample, uint64_t vaddr,
				     uint64_t len);

/* Bytes the pieces cover (before erase_set_apply; overlaps counted twice). */
uint64_t erase_set_bytes(const struct erase_set *set);

/*
 * Sorts the pieces by address; idempotent.  Pieces at the same address
 * stay in the order of their samples, so a later command's fill wins.
 */
void erase_set_sort(struct erase_set *set);

/*
 * Overwrites in @page (the page_size bytes of @pfn, as read from the dump)
 * the pieces that lie in it, and counts them for the eraseinfo.  The set
 * must be sorted.
 */
void erase_set_apply(struct erase_set *set, uint64_t pfn, void *page);

/*
 * The eraseinfo text, upstream's format: for each entry in the order
 * created, one line per sample, "erase TEXT size N\n" (N the sample's
 * bytes) or "erase TEXT nullify\n".  With @planned false, the samples as
 * erase_set_apply() found them in the pages written (what a dump stores),
 * samples that erased nothing left out; with @planned true, every sample
 * whole, as if each page were written: the most the text can take, for a
 * writer that must reserve room for it before the pages.
 * *@text is malloc'ed and NUL-terminated; *@len excludes the NUL.
 */
struct mdf_error *eraseinfo_text(const struct erase_set *set, bool planned, char **text, size_t *len);

#endif
