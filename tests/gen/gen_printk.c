// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel log: a lockless printk ring buffer (5.10+) as prb points to it
 * (printk_rb_static), filled with a few records.
 *
 * A descriptor ring of 2^count_bits descriptors { state_var, text_blk_lpos
 * {begin, next} } with a parallel array of printk_info { seq, ts_nsec,
 * text_len, facility, flags/level, caller_id, dev_info }, and a data ring of
 * 2^size_bits bytes (__log_buf) holding blocks { unsigned long id; text }
 * aligned to 8.  IDs and logical positions start just below zero modulo
 * their ring sizes, as the kernel's static initializer sets them, so the
 * first record has index 0 and its block begins at offset 0.  The state is
 * in the top two bits of state_var (2 = finalized).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

#define COUNT_BITS	5
#define NDESC		(1U << COUNT_BITS)
#define SIZE_BITS	12	/* the data ring is __log_buf, one page */
#define DESC_SIZE	24
#define INFO_SIZE	88
#define RING_SIZE	88
#define DESCS_OFF	128
#define INFOS_OFF	(DESCS_OFF + NDESC * DESC_SIZE)
#define ID_MASK		((1ULL << 62) - 1)
#define SV(state, id)	(((uint64_t)(state) << 62) | ((id) & ID_MASK))

size_t printk_static_size(void)
{
	return INFOS_OFF + NDESC * INFO_SIZE;
}

struct record {
	unsigned int level;
	uint32_t caller;
	const char *text;
};

static const struct record records[] = {
	{ 5, 0x80000000, "Linux version %s (mkvmcore@tests) (gcc (Debian "
	  "12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC" },
	{ 6, 0x80000000, "Command line: console=ttyS0 crashkernel=256M" },
	{ 6, 1, "mkvmcore: generated vmcore" },
	{ 6, 120, "labprobe: marker pages are in place" },
	{ 6, 0x80000001, "sysrq: Trigger a crash" },
	{ 0, 0x80000001, "Kernel panic - not syncing: sysrq triggered crash" },
	{ 4, 0x80000001, "CPU: 1 PID: 1 Comm: init Not tainted %s #1\n"
	  "Call Trace:\n <TASK>\n sysrq_handle_crash+0x16/0x20" },
};

static void append(struct gen *g, const char *s, size_t n)
{
	g->dmesg = realloc(g->dmesg, g->dmesg_len + n + 1);
	if (!g->dmesg)
		die("out of memory");
	memcpy(g->dmesg + g->dmesg_len, s, n);
	g->dmesg_len += n;
	g->dmesg[g->dmesg_len] = '\0';
}

/* What makedumpfile --dump-dmesg prints for a record. */
static void expect_line(struct gen *g, uint64_t ts, const char *text)
{
	char prefix[64];
	int indent = snprintf(prefix, sizeof(prefix), "[%5" PRIu64 ".%06" PRIu64
			      "] ", ts / 1000000000, ts % 1000000000 / 1000);

	append(g, prefix, indent);
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			append(g, "\n", 1);
			for (int i = 0; i < indent; i++)
				append(g, " ", 1);
		} else {
			append(g, p, 1);
		}
	}
	append(g, "\n", 1);
}

void printk_fill(struct gen *g)
{
	const int nrec = sizeof(records) / sizeof(records[0]);
	uint64_t rb = ksym_addr(g, "printk_rb_static");
	uint64_t logbuf = ksym_addr(g, "__log_buf");
	uint64_t first_id = (0 - (uint64_t)NDESC) & ID_MASK;
	uint64_t first_lpos = 0 - (1ULL << SIZE_BITS), lpos = first_lpos;
	uint8_t *obj = xcalloc(1, printk_static_size());
	uint8_t *data = xcalloc(1, 1ULL << SIZE_BITS);
	uint64_t ts = 0;

	for (int i = 0; i < nrec; i++) {
		uint8_t *desc = obj + DESCS_OFF + i * DESC_SIZE;
		uint8_t *info = obj + INFOS_OFF + i * INFO_SIZE;
		uint64_t off = lpos & ((1ULL << SIZE_BITS) - 1);
		char text[512];
		int len = snprintf(text, sizeof(text), records[i].text,
				   g->osrelease);
		uint64_t next = lpos + ((8 + len + 7) & ~7ULL);

		if (off + 8 + len > (1ULL << SIZE_BITS))
			die("internal: printk records overflow the ring");
		ts += 1000000 + 987654321ULL * i;
		put_le64(data + off, first_id + i);
		memcpy(data + off + 8, text, len);
		put_le64(desc, SV(2, first_id + i));
		put_le64(desc + 8, lpos);
		put_le64(desc + 16, next);
		put_le64(info, i);
		put_le64(info + 8, ts);
		put_le16(info + 16, len);
		info[19] = records[i].level << 5;
		put_le32(info + 20, records[i].caller);
		lpos = next;
		expect_line(g, ts, text);
	}
	/* the descriptor the kernel's initializer marks reusable */
	put_le64(obj + DESCS_OFF + (NDESC - 1) * DESC_SIZE,
		 SV(3, first_id - 1));

	put_le32(obj, COUNT_BITS);
	put_le64(obj + 8, rb + DESCS_OFF);
	put_le64(obj + 16, rb + INFOS_OFF);
	put_le64(obj + 24, first_id + nrec - 1);	/* head_id */
	put_le64(obj + 32, first_id);			/* tail_id */
	put_le64(obj + 40, first_id + nrec - 1);	/* last_finalized_id */
	put_le32(obj + 48, SIZE_BITS);
	put_le64(obj + 56, logbuf);
	put_le64(obj + 64, lpos);			/* head_lpos */
	put_le64(obj + 72, first_lpos);			/* tail_lpos */

	kv_write(g, rb, obj, printk_static_size());
	kv_write(g, logbuf, data, 1ULL << SIZE_BITS);
	kv_write64(g, ksym_addr(g, "prb"), rb);
	free(obj);
	free(data);
}
