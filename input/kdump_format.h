/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The on-disk layout of the kdump-compressed format ("KDUMP   "), shared by
 * its reader and its writer.
 *
 * A file is a sequence of blocks of block_size bytes (the page size):
 *
 *   block 0                 disk header (struct kdump_disk_header)
 *   block 1 ...             sub header (struct kdump_sub_header), followed
 *                           by the ELF notes; sub_hdr_size blocks in all
 *   bitmap_blocks blocks    two bitmaps of equal length, one bit per pfn,
 *                           least significant bit first: the 1st says which
 *                           pages exist, the 2nd which pages were dumped
 *   page descriptors        one struct kdump_page_desc per pfn set in the
 *                           2nd bitmap, in pfn order, not block aligned
 *   page data               where each descriptor points
 *
 * Fields are in the byte order and alignment of the dumped machine, as
 * upstream makedumpfile writes its C structures running there: these
 * describe the 64-bit layout (x86_64, arm64, ppc64, s390x, riscv64 align
 * alike), in either order.  Nothing in the file names its order: the
 * header_version does, being small (kdump_header_order()).  The bitmaps
 * are arrays of bytes, bit i of the array in byte i / 8, in every order.
 * The notes after the sub header are the input's, in their own order
 * (input/elf_notes.h), which a writer copies as they are.
 */
#ifndef MDF_INPUT_KDUMP_FORMAT_H
#define MDF_INPUT_KDUMP_FORMAT_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/codec.h"
#include "util/byte_order.h"
#include "util/error.h"

#define KDUMP_SIGNATURE "KDUMP   "
#define KDUMP_SIGNATURE_LEN 8
/* The header version makedumpfile writes; 6 added 64-bit pfn fields. */
#define KDUMP_HEADER_VERSION 6

/* Bits of kdump_disk_header.status and kdump_page_desc.flags. */
#define DUMP_DH_COMPRESSED_ZLIB 0x1
#define DUMP_DH_COMPRESSED_LZO 0x2
#define DUMP_DH_COMPRESSED_SNAPPY 0x4
/* Status only: the writer ran out of space; later pages are missing. */
#define DUMP_DH_COMPRESSED_INCOMPLETE 0x8
/* Status only: unused vmemmap pages were excluded (makedumpfile -e). */
#define DUMP_DH_EXCLUDED_VMEMMAP 0x10
#define DUMP_DH_COMPRESSED_ZSTD 0x20
#define DUMP_DH_COMPRESSED_MASK                                                   \
	(DUMP_DH_COMPRESSED_ZLIB | DUMP_DH_COMPRESSED_LZO | DUMP_DH_COMPRESSED_SNAPPY | \
	 DUMP_DH_COMPRESSED_ZSTD)

/* The DUMP_DH_COMPRESSED_* bit of @codec; 0 for CODEC_NONE. */
static inline uint32_t kdump_codec_flag(enum mdf_codec codec)
{
	switch (codec) {
	case CODEC_NONE:
		return 0;
	case CODEC_ZLIB:
		return DUMP_DH_COMPRESSED_ZLIB;
	case CODEC_LZO:
		return DUMP_DH_COMPRESSED_LZO;
	case CODEC_SNAPPY:
		return DUMP_DH_COMPRESSED_SNAPPY;
	case CODEC_ZSTD:
		return DUMP_DH_COMPRESSED_ZSTD;
	}
	return 0;
}

/*
 * The codec named by the DUMP_DH_COMPRESSED_* bits of @flags (other bits
 * are ignored); an error of -MDF_ECORRUPT when more than one is set.
 */
static inline struct mdf_error *kdump_codec_of_flags(uint32_t flags, enum mdf_codec *codec)
{
	switch (flags & DUMP_DH_COMPRESSED_MASK) {
	case 0:
		*codec = CODEC_NONE;
		return NULL;
	case DUMP_DH_COMPRESSED_ZLIB:
		*codec = CODEC_ZLIB;
		return NULL;
	case DUMP_DH_COMPRESSED_LZO:
		*codec = CODEC_LZO;
		return NULL;
	case DUMP_DH_COMPRESSED_SNAPPY:
		*codec = CODEC_SNAPPY;
		return NULL;
	case DUMP_DH_COMPRESSED_ZSTD:
		*codec = CODEC_ZSTD;
		return NULL;
	default:
		return mdf_error(-MDF_ECORRUPT, "flags 0x%" PRIx32 " name more than one compression",
				 flags);
	}
}

#define KDUMP_UTS_LEN 65

struct kdump_utsname {
	char sysname[KDUMP_UTS_LEN];
	char nodename[KDUMP_UTS_LEN];
	char release[KDUMP_UTS_LEN];
	char version[KDUMP_UTS_LEN];
	char machine[KDUMP_UTS_LEN];
	char domainname[KDUMP_UTS_LEN];
};

struct kdump_disk_header {
	char signature[KDUMP_SIGNATURE_LEN];
	int32_t header_version;
	struct kdump_utsname utsname;
	/* The C struct aligns the struct timeval that follows to 8 bytes. */
	char pad[6];
	int64_t timestamp_sec;
	int64_t timestamp_usec;
	uint32_t status;
	int32_t block_size;
	/* In blocks, the sub header and the notes after it. */
	int32_t sub_hdr_size;
	/* In blocks, both bitmaps together. */
	uint32_t bitmap_blocks;
	/* Truncated to 32 bits; kdump_sub_header.max_mapnr_64 has it whole. */
	uint32_t max_mapnr;
	uint32_t total_ram_blocks;
	uint32_t device_blocks;
	uint32_t written_blocks;
	uint32_t current_cpu;
	int32_t nr_cpus;
	/* The C struct ends in a flexible array of pointers: 8-byte aligned. */
};

/* Each field is present from the header version named in its comment. */
struct kdump_sub_header {
	uint64_t phys_base;
	int32_t dump_level;		/* 1 */
	int32_t split;			/* 2 */
	uint64_t start_pfn;		/* 2; 32-bit values only */
	uint64_t end_pfn;		/* 2; 32-bit values only */
	uint64_t offset_vmcoreinfo;	/* 3 */
	uint64_t size_vmcoreinfo;	/* 3 */
	uint64_t offset_note;		/* 4 */
	uint64_t size_note;		/* 4 */
	uint64_t offset_eraseinfo;	/* 5 */
	uint64_t size_eraseinfo;	/* 5 */
	uint64_t start_pfn_64;		/* 6 */
	uint64_t end_pfn_64;		/* 6 */
	uint64_t max_mapnr_64;		/* 6 */
};

struct kdump_page_desc {
	int64_t offset;
	/* Bytes stored; equal to the page size for an uncompressed page. */
	uint32_t size;
	uint32_t flags;
	uint64_t page_flags;
};

/*
 * The order of a disk header, from its raw header_version: the order it
 * reads as a number from 1 to 65535 in (room for versions to come; no
 * four bytes read so in both orders), else little-endian, in which the
 * reader then names the version it does not know.
 */
enum byte_order kdump_header_order(const struct kdump_disk_header *raw);

/*
 * Each turns every field of a structure from the file's order (@order)
 * into the host's, or back (to_dump), through util/byte_order.h.
 */
void kdump_disk_header_to_host(struct kdump_disk_header *dh, enum byte_order order);
void kdump_disk_header_to_dump(struct kdump_disk_header *dh, enum byte_order order);
void kdump_sub_header_to_host(struct kdump_sub_header *sh, enum byte_order order);
void kdump_sub_header_to_dump(struct kdump_sub_header *sh, enum byte_order order);
void kdump_page_desc_to_host(struct kdump_page_desc *pd, enum byte_order order);
void kdump_page_desc_to_dump(struct kdump_page_desc *pd, enum byte_order order);

_Static_assert(offsetof(struct kdump_disk_header, timestamp_sec) == 408, "disk header layout");
_Static_assert(offsetof(struct kdump_disk_header, status) == 424, "disk header layout");
_Static_assert(sizeof(struct kdump_disk_header) == 464, "disk header layout");
_Static_assert(sizeof(struct kdump_sub_header) == 104, "sub header layout");
_Static_assert(sizeof(struct kdump_page_desc) == 24, "page descriptor layout");

#endif
