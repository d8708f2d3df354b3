// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kdump-compressed structures (kdump_format.h) between the file's byte
 * order and the host's: one list of the fields of each, for the reader
 * and the writers alike.
 */
#include <stdbool.h>

#include "input/kdump_format.h"

#define KDUMP_MAX_VERSION_READ 65535

/* One field's value between the orders, the way @to_host says. */
static uint32_t convert32(uint32_t value, enum byte_order order, bool to_host)
{
	return to_host ? dump_to_host32(order, value) : host_to_dump32(order, value);
}

static uint64_t convert64(uint64_t value, enum byte_order order, bool to_host)
{
	return to_host ? dump_to_host64(order, value) : host_to_dump64(order, value);
}

#define CONVERT_U32(field) ((field) = convert32((field), order, to_host))
#define CONVERT_I32(field) ((field) = (int32_t)convert32((uint32_t)(field), order, to_host))
#define CONVERT_U64(field) ((field) = convert64((field), order, to_host))
#define CONVERT_I64(field) ((field) = (int64_t)convert64((uint64_t)(field), order, to_host))

enum byte_order kdump_header_order(const struct kdump_disk_header *raw)
{
	uint32_t big = dump_to_host32(BYTE_ORDER_BIG, (uint32_t)raw->header_version);

	return big >= 1 && big <= KDUMP_MAX_VERSION_READ ? BYTE_ORDER_BIG : BYTE_ORDER_LITTLE;
}

static void convert_disk_header(struct kdump_disk_header *dh, enum byte_order order, bool to_host)
{
	CONVERT_I32(dh->header_version);
	CONVERT_I64(dh->timestamp_sec);
	CONVERT_I64(dh->timestamp_usec);
	CONVERT_U32(dh->status);
	CONVERT_I32(dh->block_size);
	CONVERT_I32(dh->sub_hdr_size);
	CONVERT_U32(dh->bitmap_blocks);
	CONVERT_U32(dh->max_mapnr);
	CONVERT_U32(dh->total_ram_blocks);
	CONVERT_U32(dh->device_blocks);
	CONVERT_U32(dh->written_blocks);
	CONVERT_U32(dh->current_cpu);
	CONVERT_I32(dh->nr_cpus);
}

static void convert_sub_header(struct kdump_sub_header *sh, enum byte_order order, bool to_host)
{
	CONVERT_U64(sh->phys_base);
	CONVERT_I32(sh->dump_level);
	CONVERT_I32(sh->split);
	CONVERT_U64(sh->start_pfn);
	CONVERT_U64(sh->end_pfn);
	CONVERT_U64(sh->offset_vmcoreinfo);
	CONVERT_U64(sh->size_vmcoreinfo);
	CONVERT_U64(sh->offset_note);
	CONVERT_U64(sh->size_note);
	CONVERT_U64(sh->offset_eraseinfo);
	CONVERT_U64(sh->size_eraseinfo);
	CONVERT_U64(sh->start_pfn_64);
	CONVERT_U64(sh->end_pfn_64);
	CONVERT_U64(sh->max_mapnr_64);
}

static void convert_page_desc(struct kdump_page_desc *pd, enum byte_order order, bool to_host)
{
	CONVERT_I64(pd->offset);
	CONVERT_U32(pd->size);
	CONVERT_U32(pd->flags);
	CONVERT_U64(pd->page_flags);
}

void kdump_disk_header_to_host(struct kdump_disk_header *dh, enum byte_order order)
{
	convert_disk_header(dh, order, true);
}

void kdump_disk_header_to_dump(struct kdump_disk_header *dh, enum byte_order order)
{
	convert_disk_header(dh, order, false);
}

void kdump_sub_header_to_host(struct kdump_sub_header *sh, enum byte_order order)
{
	convert_sub_header(sh, order, true);
}

void kdump_sub_header_to_dump(struct kdump_sub_header *sh, enum byte_order order)
{
	convert_sub_header(sh, order, false);
}

void kdump_page_desc_to_host(struct kdump_page_desc *pd, enum byte_order order)
{
	convert_page_desc(pd, order, true);
}

void kdump_page_desc_to_dump(struct kdump_page_desc *pd, enum byte_order order)
{
	convert_page_desc(pd, order, false);
}
