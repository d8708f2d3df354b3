// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading kdump-compressed files ("KDUMP   "), as written by makedumpfile,
 * QEMU's dump-guest-memory and the -F/-R round trip; kdump_format.h draws
 * the layout.
 *
 * The page descriptors are stored only for the pfns set in the 2nd bitmap,
 * in pfn order, so a pfn's descriptor is found by counting the set bits
 * before it.  The 2nd bitmap is kept in memory with a running count of set
 * bits every RANK_WORDS words, which makes that count a table look-up plus
 * at most RANK_WORDS popcounts.  The 1st bitmap only says which pages exist:
 * it is read once, in pieces, into the input's ranges.  Descriptors and
 * page data are read when asked for, with pread alone, so several threads
 * may read pages at once.
 *
 * The bitmaps and descriptors are per block, and a block is normally a
 * page.  QEMU writes arm64 dumps in 64 KiB blocks whatever the guest's
 * page size: where VMCOREINFO's PAGESIZE is smaller than the block, the
 * input gives pages of that size, each cut from its decompressed block.
 *
 * A file is in the byte order of the machine that was dumped, as upstream
 * writes it there (kdump_format.h): the header's header_version tells
 * which, and the memory is taken to be in the same.
 *
 * A dump written until the disk filled up carries DUMP_DH_COMPRESSED_INCOMPLETE:
 * its descriptors past the last page written are zero or beyond the end of
 * the file, and such pages read as excluded, as crash and libkdumpfile do.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "input/dump_format.h"
#include "input/dump_input.h"
#include "input/elf_notes.h"
#include "input/kdump_format.h"
#include "util/message.h"

/* Words of the 2nd bitmap per running count: 512 pfns; the counts take 1/8 of its size. */
#define RANK_WORDS 8
/* Words of the 1st bitmap read at a time while turning it into ranges. */
#define SCAN_WORDS 8192

/* Page sizes of the architectures the format is used on lie well inside. */
#define MIN_BLOCK_SIZE 1024
#define MAX_BLOCK_SIZE (1 << 20)
/* The kernel reserves one page for VMCOREINFO; notes are a few per CPU. */
#define MAX_VMCOREINFO_SIZE (1 << 20)
#define MAX_NOTES_SIZE (64 << 20)

struct kdump_input {
	struct kdump_header_info info;
	/* Blocks: the bitmaps' and descriptors' unit; 1 << block_shift pages each. */
	uint64_t max_mapnr;
	uint32_t block_size;
	unsigned int block_shift;
	/* With several pages a block, the last block read, whole; under the lock. */
	pthread_mutex_t last_lock;
	uint64_t last_block;
	unsigned char *last;
	/* The 2nd bitmap: pfns dumped, bits past max_mapnr cleared. */
	uint64_t *dumped;
	/* dumped_before[i]: set bits in words [0, i * RANK_WORDS). */
	uint64_t *dumped_before;
	uint64_t desc_offset;
	/* Where the descriptor table ends and page data may begin. */
	uint64_t data_offset;
	bool incomplete;
};

static uint64_t bitmap_words(uint64_t bits)
{
	return bits / 64 + (bits % 64 != 0);
}

/*
 * Reads words [first, first + count) of the bitmap at @offset that covers
 * @bits pfns into host order; bytes past the bitmap's end and bits past
 * @bits read as zero, so that nothing counts pfns the dump cannot have.
 */
static struct mdf_error *read_bitmap_words(struct dump_input *in, uint64_t offset, uint64_t bits, uint64_t first,
			     size_t count, uint64_t *words, const char *what)
{
	uint64_t nbytes = bits / 8 + (bits % 8 != 0);
	uint64_t start = first * 8;
	size_t len = (size_t)(nbytes - start < count * 8 ? nbytes - start : count * 8);
	struct mdf_error *err;

	memset(words, 0, count * 8);
	err = input_pread(in, words, len, offset + start, what);
	if (err)
		return err;
	/* Bit i is bit i % 8 of byte i / 8 in any dump's order: little-endian words keep it so. */
	for (size_t i = 0; i < count; i++)
		words[i] = dump_to_host64(BYTE_ORDER_LITTLE, words[i]);
	if (first + count == bitmap_words(bits) && bits % 64)
		words[count - 1] &= (UINT64_C(1) << (bits % 64)) - 1;
	return NULL;
}

static struct mdf_error *add_pfn_range(struct dump_input *in, uint64_t start_pfn, uint64_t end_pfn)
{
	struct mdf_error *err = input_add_range(in, start_pfn * in->page_size, end_pfn * in->page_size);

	if (err)
		return mdf_error(-ENOMEM, "%s: no memory for the list of physical ranges", in->path);
	return NULL;
}

/* The runs of set bits of the 1st bitmap become the input's ranges. */
static struct mdf_error *read_present_ranges(struct dump_input *in, uint64_t bitmap_offset, uint64_t max_mapnr)
{
	uint64_t nwords = bitmap_words(max_mapnr);
	uint64_t run_start = 0;
	bool in_run = false;
	uint64_t *words;
	struct mdf_error *err = NULL;

	words = malloc(SCAN_WORDS * sizeof(*words));
	if (!words)
		return mdf_error(-ENOMEM, "%s: no memory to read the 1st bitmap", in->path);
	for (uint64_t first = 0; first < nwords; first += SCAN_WORDS) {
		size_t count = nwords - first < SCAN_WORDS ? (size_t)(nwords - first) : SCAN_WORDS;

		err = read_bitmap_words(in, bitmap_offset, max_mapnr, first, count, words,
					"the 1st bitmap (pages present)");
		if (err)
			goto out;
		for (size_t i = 0; i < count; i++) {
			uint64_t pfn0 = (first + i) * 64;

			/* Most words are wholly inside or outside a run. */
			if (words[i] == (in_run ? UINT64_MAX : 0))
				continue;
			for (unsigned int b = 0; b < 64; b++) {
				bool set = words[i] >> b & 1;

				if (set == in_run)
					continue;
				if (in_run) {
					err = add_pfn_range(in, run_start, pfn0 + b);
					if (err)
						goto out;
				}
				run_start = pfn0 + b;
				in_run = set;
			}
		}
	}
	if (in_run)
		err = add_pfn_range(in, run_start, max_mapnr);
out:
	free(words);
	if (!err)
		input_normalise_ranges(in);
	return err;
}

/*
 * Each part of a split dump carries the whole 2nd bitmap but the page
 * descriptors of its own pfn range only.
 */
static void keep_split_range(struct kdump_input *kd)
{
	uint64_t start = kd->info.start_pfn, end = kd->info.end_pfn;
	uint64_t nwords = bitmap_words(kd->max_mapnr);

	for (uint64_t i = 0; i < nwords; i++) {
		uint64_t first = i * 64, keep = UINT64_MAX;

		if (first + 64 <= start || first >= end) {
			kd->dumped[i] = 0;
			continue;
		}
		if (start > first)
			keep &= UINT64_MAX << (start - first);
		if (end < first + 64)
			keep &= (UINT64_C(1) << (end - first)) - 1;
		kd->dumped[i] &= keep;
	}
}

static struct mdf_error *read_dumped_bitmap(struct dump_input *in, struct kdump_input *kd, uint64_t offset)
{
	uint64_t nwords = bitmap_words(kd->max_mapnr);
	uint64_t ngroups = nwords / RANK_WORDS + (nwords % RANK_WORDS != 0);
	uint64_t count = 0;
	struct mdf_error *err;

	kd->dumped = malloc(nwords * sizeof(*kd->dumped));
	kd->dumped_before = malloc(ngroups * sizeof(*kd->dumped_before));
	if (!kd->dumped || !kd->dumped_before)
		return mdf_error(-ENOMEM,
				 "%s: no memory for the 2nd bitmap (%" PRIu64 " pfns)", in->path,
				 kd->max_mapnr);
	err = read_bitmap_words(in, offset, kd->max_mapnr, 0, nwords, kd->dumped,
				"the 2nd bitmap (pages dumped)");
	if (err)
		return err;
	if (kd->info.split)
		keep_split_range(kd);
	for (uint64_t i = 0; i < nwords; i++) {
		if (i % RANK_WORDS == 0)
			kd->dumped_before[i / RANK_WORDS] = count;
		count += (uint64_t)__builtin_popcountll(kd->dumped[i]);
	}
	kd->data_offset = kd->desc_offset + count * sizeof(struct kdump_page_desc);
	return NULL;
}

static bool pfn_dumped(const struct kdump_input *kd, uint64_t pfn)
{
	return pfn < kd->max_mapnr && (kd->dumped[pfn / 64] >> (pfn % 64) & 1);
}

static uint64_t dumped_before(const struct kdump_input *kd, uint64_t pfn)
{
	uint64_t word = pfn / 64;
	uint64_t count = kd->dumped_before[word / RANK_WORDS];

	for (uint64_t i = word - word % RANK_WORDS; i < word; i++)
		count += (uint64_t)__builtin_popcountll(kd->dumped[i]);
	return count + (uint64_t)__builtin_popcountll(kd->dumped[word] &
						      ((UINT64_C(1) << (pfn % 64)) - 1));
}

/*
 * Copies @size bytes at @offset, NUL-terminated, for the sub-header's
 * vmcoreinfo and note fields; @field names them in messages.
 */
static struct mdf_error *read_blob(struct dump_input *in, uint64_t offset, uint64_t size, uint64_t limit,
		     const char *field, unsigned char **out)
{
	unsigned char *buf;
	struct mdf_error *err;

	if (size > limit)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: sub-header size_%s is %" PRIu64 " bytes, more than the %" PRIu64
				 " it can be", in->path, field, size, limit);
	if (offset > in->file_size || size > in->file_size - offset)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: sub-header offset_%s 0x%" PRIx64 " and size_%s %" PRIu64
				 " reach beyond the end of the file (size %" PRIu64 ")",
				 in->path, field, offset, field, size, in->file_size);
	buf = malloc(size + 1);
	if (!buf)
		return mdf_error(-ENOMEM,
				 "%s: no memory for %s (%" PRIu64 " bytes)", in->path, field, size);
	err = input_pread(in, buf, size, offset, field);
	if (err) {
		free(buf);
		return err;
	}
	buf[size] = '\0';
	*out = buf;
	return NULL;
}

/*
 * Checks @pd, the descriptor of dumped block @pfn at file offset @pos,
 * turned to the host's order, and names its codec.
 */
static struct mdf_error *check_page_desc(const struct dump_input *in, const struct kdump_input *kd,
					 uint64_t pfn, uint64_t pos, const struct kdump_page_desc *pd,
					 enum mdf_codec *codec)
{
	uint32_t block = kd->block_size;
	struct mdf_error *err;

	if (kd->incomplete &&
	    (pd->offset == 0 || (uint64_t)pd->offset > in->file_size ||
	     pd->size > in->file_size - (uint64_t)pd->offset))
		return &mdf_error_excluded;
	if (pd->size == 0 || pd->size > block)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: page descriptor of pfn 0x%" PRIx64 " at offset 0x%" PRIx64
				 ": size %" PRIu32 " is not within 1..%" PRIu32 " (the page size)",
				 in->path, pfn, pos, pd->size, block);
	if ((uint64_t)pd->offset < kd->data_offset || (uint64_t)pd->offset > in->file_size ||
	    pd->size > in->file_size - (uint64_t)pd->offset)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: page descriptor of pfn 0x%" PRIx64 " at offset 0x%" PRIx64
				 ": data at 0x%" PRIx64 " (%" PRIu32 " bytes) is outside the page data area "
				 "0x%" PRIx64 "-0x%" PRIx64, in->path, pfn, pos, (uint64_t)pd->offset,
				 pd->size, kd->data_offset, in->file_size);
	err = kdump_codec_of_flags(pd->flags, codec);
	if (err)
		return mdf_error_wrap(err, "%s: page descriptor of pfn 0x%" PRIx64 " at offset 0x%" PRIx64,
				      in->path, pfn, pos);
	if (*codec == CODEC_NONE && pd->size != block)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: page descriptor of pfn 0x%" PRIx64 " at offset 0x%" PRIx64
				 ": uncompressed (flags 0x%" PRIx32 ") but size %" PRIu32
				 ", not the page size %" PRIu32, in->path, pfn, pos, pd->flags, pd->size,
				 block);
	return NULL;
}

/* Reads and checks the descriptor of dumped block @pfn, and names its codec. */
static struct mdf_error *read_page_desc(struct dump_input *in, const struct kdump_input *kd, uint64_t pfn,
					struct kdump_page_desc *pd, enum mdf_codec *codec)
{
	uint64_t pos = kd->desc_offset + dumped_before(kd, pfn) * sizeof(*pd);
	char what[64];
	struct mdf_error *err;

	/* Open made sure the table fits in a complete dump. */
	if (pos + sizeof(*pd) > in->file_size)
		return &mdf_error_excluded;
	snprintf(what, sizeof(what), "the page descriptor of pfn 0x%" PRIx64, pfn);
	err = input_pread(in, pd, sizeof(*pd), pos, what);
	if (err)
		return err;
	kdump_page_desc_to_host(pd, in->byte_order);
	return check_page_desc(in, kd, pfn, pos, pd, codec);
}

/* Reads dumped block @block, whole, into @buf (block_size bytes). */
static struct mdf_error *read_block(struct dump_input *in, const struct kdump_input *kd, uint64_t block, void *buf)
{
	struct kdump_page_desc pd;
	enum mdf_codec codec;
	unsigned char *packed = NULL;
	char what[64];
	struct mdf_error *err;
	int code;

	err = read_page_desc(in, kd, block, &pd, &codec);
	if (err)
		return err;
	snprintf(what, sizeof(what), "the data of pfn 0x%" PRIx64, block);
	if (codec == CODEC_NONE)
		return input_pread(in, buf, pd.size, (uint64_t)pd.offset, what);

	packed = malloc(pd.size);
	if (!packed)
		return mdf_error(-ENOMEM, "%s: no memory to read pfn 0x%" PRIx64, in->path, block);
	err = input_pread(in, packed, pd.size, (uint64_t)pd.offset, what);
	if (err)
		goto out;
	code = mdf_error_drop(codec_decompress(codec, packed, pd.size, buf, kd->block_size));
	if (code == -ENOMEM)
		err = mdf_error(code, "%s: no memory to decompress pfn 0x%" PRIx64, in->path, block);
	else if (code == -ELIBACC)
		err = mdf_error(code, "%s: pfn 0x%" PRIx64 " holds %s data, and the library to read "
				"it cannot be loaded: %s", in->path, block, codec_name(codec),
				codec_load_error(codec));
	else if (code)
		err = mdf_error(code, "%s: pfn 0x%" PRIx64 ": %s data at offset 0x%" PRIx64 " (%" PRIu32
				" bytes) does not decompress to a %" PRIu32 "-byte page",
				in->path, block, codec_name(codec), (uint64_t)pd.offset, pd.size,
				kd->block_size);
out:
	free(packed);
	return err;
}

static struct mdf_error *kdump_read_page(struct dump_input *in, uint64_t pfn, void *buf)
{
	struct kdump_input *kd = in->priv;
	uint64_t block = pfn >> kd->block_shift, offset;
	unsigned char *whole;
	struct mdf_error *err;

	if (pfn >= in->max_pfn)
		return &mdf_error_not_dumped;
	if (!pfn_dumped(kd, block))
		return input_find_range(in, pfn * in->page_size) ? &mdf_error_excluded : &mdf_error_not_dumped;
	if (!kd->block_shift)
		return read_block(in, kd, block, buf);
	offset = (pfn & ((UINT64_C(1) << kd->block_shift) - 1)) * in->page_size;
	/* Pages are read in order, mostly: a block's pages one after another. */
	pthread_mutex_lock(&kd->last_lock);
	if (kd->last && kd->last_block == block) {
		memcpy(buf, kd->last + offset, in->page_size);
		pthread_mutex_unlock(&kd->last_lock);
		return NULL;
	}
	pthread_mutex_unlock(&kd->last_lock);
	whole = malloc(kd->block_size);
	if (!whole)
		return mdf_error(-ENOMEM, "%s: no memory to read pfn 0x%" PRIx64, in->path, pfn);
	err = read_block(in, kd, block, whole);
	if (err) {
		free(whole);
		return err;
	}
	memcpy(buf, whole + offset, in->page_size);
	pthread_mutex_lock(&kd->last_lock);
	free(kd->last);
	kd->last = whole;
	kd->last_block = block;
	pthread_mutex_unlock(&kd->last_lock);
	return NULL;
}

/*
 * The writers' pages in bulk, where a block is a page: the descriptors of
 * the pages asked for lie in one stretch of the table (they follow the
 * dumped pfns), read at once, and so does their data (written in pfn
 * order), read at once too, from where each page is decompressed
 * straight into the caller's buffer.  Data that lies apart (the shared
 * zero page) is read alone.  A page whose descriptor or data is not
 * plainly right, or a read that fails, stops it: read_page() then says
 * why, for that page alone.
 */
/* At most: pages a call (a writer's batch), descriptors spanned, bytes of data spanned. */
#define BULK_PAGES 64
#define BULK_DESCS 4096
#define BULK_DATA (1u << 20)

static size_t kdump_read_pages(struct dump_input *in, const uint64_t *pfns, size_t count, void *buf)
{
	struct kdump_input *kd = in->priv;
	size_t page = in->page_size, n = 0, done = 0;
	struct kdump_page_desc *descs = NULL;
	enum mdf_codec codecs[BULK_PAGES];
	unsigned char *data = NULL, *apart = NULL;
	uint64_t first, last = 0, lo = 0, hi = 0;

	if (kd->block_shift || !count)
		return 0;
	if (count > BULK_PAGES)
		count = BULK_PAGES;
	if (!pfn_dumped(kd, pfns[0]))
		return 0;
	first = dumped_before(kd, pfns[0]);
	for (n = 0; n < count && pfns[n] < in->max_pfn && pfn_dumped(kd, pfns[n]); n++) {
		uint64_t index = n ? dumped_before(kd, pfns[n]) : first;

		if (index - first >= BULK_DESCS ||
		    kd->desc_offset + (index + 1) * sizeof(*descs) > in->file_size)
			break;
		last = index;
	}
	if (!n || !(descs = malloc((last - first + 1) * sizeof(*descs))))
		goto out;
	if (mdf_error_drop(input_pread(in, descs, (last - first + 1) * sizeof(*descs),
				       kd->desc_offset + first * sizeof(*descs), "page descriptors")))
		goto out;
	/*
	 * The descriptors, checked, moved down to descs[i] (page i's index
	 * is i or more past first's, so none is overwritten before it is
	 * read), and the stretch of data the pages in order take.
	 */
	for (size_t i = 0; i < n; i++) {
		uint64_t index = i ? dumped_before(kd, pfns[i]) : first;
		struct kdump_page_desc *pd = &descs[i];
		uint64_t at;

		*pd = descs[index - first];
		kdump_page_desc_to_host(pd, in->byte_order);
		at = (uint64_t)pd->offset;
		if (mdf_error_drop(check_page_desc(in, kd, pfns[i], kd->desc_offset + index * sizeof(*pd),
						   pd, &codecs[i]))) {
			n = i;
			break;
		}
		if (hi == 0) {
			lo = at;
			hi = at + pd->size;
		} else if (at >= hi && at + pd->size - lo <= BULK_DATA) {
			hi = at + pd->size;
		}
	}
	if (!n || !(data = malloc(hi - lo)) || !(apart = malloc(kd->block_size)))
		goto out;
	if (mdf_error_drop(input_pread(in, data, hi - lo, lo, "page data")))
		goto out;
	for (; done < n; done++) {
		const struct kdump_page_desc *pd = &descs[done];
		uint64_t at = (uint64_t)pd->offset;
		const unsigned char *src = data + (at - lo);

		if (at < lo || at + pd->size > hi) {
			if (mdf_error_drop(input_pread(in, apart, pd->size, at, "page data")))
				break;
			src = apart;
		}
		if (mdf_error_drop(codec_decompress(codecs[done], src, pd->size,
						    (unsigned char *)buf + done * page, page)))
			break;
	}
out:
	free(descs);
	free(data);
	free(apart);
	return done;
}

static void kdump_clear_missing(struct dump_input *in, uint64_t start_pfn, uint64_t end_pfn,
				uint8_t *bitmap)
{
	const struct kdump_input *kd = in->priv;

	for (uint64_t pfn = start_pfn; pfn < end_pfn; pfn++)
		if (!pfn_dumped(kd, pfn >> kd->block_shift))
			bitmap[(pfn - start_pfn) / 8] &= (uint8_t)~(1u << ((pfn - start_pfn) % 8));
}

static void kdump_close(struct dump_input *in)
{
	struct kdump_input *kd = in->priv;

	if (!kd)
		return;
	free(kd->dumped);
	free(kd->dumped_before);
	free(kd->last);
	pthread_mutex_destroy(&kd->last_lock);
	free(kd);
	in->priv = NULL;
}

static const struct input_ops kdump_ops = {
	.name = "kdump-compressed",
	.read_page = kdump_read_page,
	.read_pages = kdump_read_pages,
	.clear_missing = kdump_clear_missing,
	.close = kdump_close,
};

static struct mdf_error *check_disk_header(struct dump_input *in, const struct kdump_disk_header *dh)
{
	if (dh->header_version < 1 || dh->header_version > KDUMP_HEADER_VERSION)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: header_version %" PRId32 " at offset 0x%zx: only versions 1 to %d "
				 "are known", in->path, dh->header_version,
				 offsetof(struct kdump_disk_header, header_version), KDUMP_HEADER_VERSION);
	if (dh->block_size < MIN_BLOCK_SIZE || dh->block_size > MAX_BLOCK_SIZE ||
	    (dh->block_size & (dh->block_size - 1)))
		return mdf_error(-MDF_ECORRUPT,
				 "%s: block_size %" PRId32 " at offset 0x%zx is not a page size (a power "
				 "of two from %d to %d)", in->path, dh->block_size,
				 offsetof(struct kdump_disk_header, block_size), MIN_BLOCK_SIZE,
				 MAX_BLOCK_SIZE);
	if (dh->sub_hdr_size < 1)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: sub_hdr_size %" PRId32 " at offset 0x%zx: the sub header needs at "
				 "least one block", in->path, dh->sub_hdr_size,
				 offsetof(struct kdump_disk_header, sub_hdr_size));
	if (dh->bitmap_blocks == 0)
		return mdf_error(-MDF_ECORRUPT, "%s: bitmap_blocks is 0 at offset 0x%zx", in->path,
						offsetof(struct kdump_disk_header, bitmap_blocks));
	return NULL;
}

/*
 * Fields newer than the header's version read as zero, except the 64-bit
 * pfns, which fall back on the fields they replaced.
 */
static void drop_newer_fields(struct kdump_sub_header *sh, int version)
{
	if (version < 2) {
		sh->split = 0;
		sh->start_pfn = 0;
		sh->end_pfn = 0;
	}
	if (version < 3) {
		sh->offset_vmcoreinfo = 0;
		sh->size_vmcoreinfo = 0;
	}
	if (version < 4) {
		sh->offset_note = 0;
		sh->size_note = 0;
	}
	if (version < 5) {
		sh->offset_eraseinfo = 0;
		sh->size_eraseinfo = 0;
	}
	if (version < 6) {
		sh->start_pfn_64 = sh->start_pfn;
		sh->end_pfn_64 = sh->end_pfn;
		sh->max_mapnr_64 = 0;
	}
}

static void fill_header_info(struct kdump_header_info *info, const struct kdump_disk_header *dh,
			     const struct kdump_sub_header *sh, uint64_t max_mapnr)
{
	info->header_version = dh->header_version;
	info->dump_level = sh->dump_level;
	info->status = dh->status;
	info->split = sh->split != 0;
	info->start_pfn = sh->start_pfn_64;
	info->end_pfn = sh->end_pfn_64;
	info->phys_base = sh->phys_base;
	info->eraseinfo_offset = sh->offset_eraseinfo;
	info->eraseinfo_size = sh->size_eraseinfo;
	info->max_mapnr = max_mapnr;
	info->nr_cpus = dh->nr_cpus;
	info->timestamp_sec = dh->timestamp_sec;
	info->timestamp_usec = dh->timestamp_usec;
	memcpy(info->release, dh->utsname.release, sizeof(info->release));
	info->release[sizeof(info->release) - 1] = '\0';
	memcpy(info->machine, dh->utsname.machine, sizeof(info->machine));
	info->machine[sizeof(info->machine) - 1] = '\0';
}

/* Where the bitmaps and the descriptors are, checked against the file. */
static struct mdf_error *check_layout(struct dump_input *in, const struct kdump_disk_header *dh,
			struct kdump_input *kd, uint64_t *bitmap1, uint64_t *bitmap2)
{
	uint64_t block = (uint64_t)dh->block_size;
	uint64_t bitmap_len = dh->bitmap_blocks * block;

	/* All three are below 2^32 blocks of at most 2^20 bytes: no overflow. */
	*bitmap1 = (1 + (uint64_t)dh->sub_hdr_size) * block;
	*bitmap2 = *bitmap1 + bitmap_len / 2;
	kd->desc_offset = *bitmap1 + bitmap_len;
	if (kd->desc_offset > in->file_size)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: sub_hdr_size %" PRId32 " and bitmap_blocks %" PRIu32 " (blocks of %"
				 PRIu64 " bytes) put the bitmaps' end at 0x%" PRIx64 ", beyond the end "
				 "of the file (size %" PRIu64 "): truncated?", in->path, dh->sub_hdr_size,
				 dh->bitmap_blocks, block, kd->desc_offset, in->file_size);
	if (kd->max_mapnr == 0 || kd->max_mapnr > bitmap_len / 2 * 8)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: max_mapnr %" PRIu64 " does not fit bitmap_blocks %" PRIu32
				 ", two bitmaps of %" PRIu64 " pfns each", in->path, kd->max_mapnr,
				 dh->bitmap_blocks, bitmap_len / 2 * 8);
	if (kd->max_mapnr > UINT64_MAX / block)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: max_mapnr %" PRIu64 " pages of %" PRIu64 " bytes overflow a 64-bit "
				 "address", in->path, kd->max_mapnr, block);
	return NULL;
}

/*
 * Pages smaller than the blocks (QEMU's arm64 dumps): the input's pfns
 * and the header's become VMCOREINFO's pages, the bitmaps stay per block.
 */
static void use_page_size(struct dump_input *in, struct kdump_input *kd)
{
	uint32_t page = input_vmcoreinfo_page_size(in, kd->block_size);

	if (page >= kd->block_size)
		return;
	kd->block_shift = (unsigned int)__builtin_ctz(kd->block_size / page);
	in->page_size = page;
	in->max_pfn <<= kd->block_shift;
	kd->info.max_mapnr <<= kd->block_shift;
	kd->info.start_pfn <<= kd->block_shift;
	kd->info.end_pfn <<= kd->block_shift;
	msg_debug("%s: blocks of %" PRIu32 " bytes hold %u pages of %" PRIu32 " (VMCOREINFO's PAGESIZE)",
		  in->path, kd->block_size, 1u << kd->block_shift, page);
}

static struct mdf_error *kdump_input_open(struct dump_input *in)
{
	struct kdump_disk_header dh;
	struct kdump_sub_header sh;
	struct kdump_input *kd;
	uint64_t bitmap1, bitmap2;
	unsigned char *blob;
	struct mdf_error *err;

	kd = calloc(1, sizeof(*kd));
	if (!kd)
		return mdf_error(-ENOMEM, "%s: no memory to open the dump", in->path);
	pthread_mutex_init(&kd->last_lock, NULL);
	/* input_close() frees what is attached to @in, whatever failed. */
	in->priv = kd;
	in->ops = &kdump_ops;

	err = input_pread(in, &dh, sizeof(dh), 0, "the kdump disk header");
	if (err)
		return err;
	/* Upstream writes the file in its machine's order: the memory's. */
	in->byte_order = kdump_header_order(&dh);
	kdump_disk_header_to_host(&dh, in->byte_order);
	err = check_disk_header(in, &dh);
	if (err)
		return err;
	in->page_size = (uint32_t)dh.block_size;
	kd->block_size = (uint32_t)dh.block_size;
	err = input_pread(in, &sh, sizeof(sh), in->page_size, "the kdump sub header");
	if (err)
		return err;
	kdump_sub_header_to_host(&sh, in->byte_order);
	drop_newer_fields(&sh, dh.header_version);
	kd->max_mapnr = dh.header_version >= 6 ? sh.max_mapnr_64 : dh.max_mapnr;
	fill_header_info(&kd->info, &dh, &sh, kd->max_mapnr);
	in->kdump = &kd->info;

	err = check_layout(in, &dh, kd, &bitmap1, &bitmap2);
	if (err)
		return err;
	kd->incomplete = dh.status & DUMP_DH_COMPRESSED_INCOMPLETE;
	if (kd->incomplete)
		msg_warn("%s: the dump is incomplete (status 0x%" PRIx32 "): its writer failed "
			 "or could not read some pages, and the pages it did not write read "
			 "as excluded",
			 in->path, dh.status);
	if (kd->info.split &&
	    (kd->info.start_pfn > kd->info.end_pfn || kd->info.end_pfn > kd->max_mapnr))
		return mdf_error(-MDF_ECORRUPT,
				 "%s: split dump with start_pfn 0x%" PRIx64 " and end_pfn 0x%" PRIx64
				 ": not a range within max_mapnr 0x%" PRIx64, in->path,
				 kd->info.start_pfn, kd->info.end_pfn, kd->max_mapnr);

	err = read_dumped_bitmap(in, kd, bitmap2);
	if (err)
		return err;
	if (!kd->incomplete && kd->data_offset > in->file_size)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: the page descriptors (0x%" PRIx64 " bytes from offset 0x%" PRIx64
				 ", one per pfn set in the 2nd bitmap) reach beyond the end of the file "
				 "(size %" PRIu64 "): truncated?", in->path,
				 kd->data_offset - kd->desc_offset, kd->desc_offset, in->file_size);
	err = read_present_ranges(in, bitmap1, kd->max_mapnr);
	if (err)
		return err;

	if (sh.size_vmcoreinfo) {
		err = read_blob(in, sh.offset_vmcoreinfo, sh.size_vmcoreinfo, MAX_VMCOREINFO_SIZE,
				"vmcoreinfo", &blob);
		if (err)
			return err;
		in->vmcoreinfo = (char *)blob;
		in->vmcoreinfo_size = sh.size_vmcoreinfo;
	}
	if (sh.size_note) {
		err = read_blob(in, sh.offset_note, sh.size_note, MAX_NOTES_SIZE, "note",
				&in->notes);
		if (err)
			return err;
		in->notes_size = sh.size_note;
	}
	in->notes_order = elf_notes_order(in->notes, in->notes_size, in->byte_order);
	/* The header names the machine only in its utsname, which QEMU leaves empty or "Unknown". */
	in->machine = kd->info.machine[0] && strcmp(kd->info.machine, "Unknown") ? kd->info.machine : NULL;
	use_page_size(in, kd);
	return NULL;
}

static bool kdump_probe(struct dump_input *in, const unsigned char *head, size_t len)
{
	(void)in;
	return len >= KDUMP_SIGNATURE_LEN && !memcmp(head, KDUMP_SIGNATURE, KDUMP_SIGNATURE_LEN);
}

const struct dump_format kdump_compressed_format = {
	.probe = kdump_probe,
	.open = kdump_input_open,
};
