// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel log, read from the dump; printk.h gives the output format.
 *
 * The lockless ring buffer (kernel/printk/printk_ringbuffer.h, 5.10+):
 * prb points to a struct printk_ringbuffer holding a descriptor ring and a
 * text data ring.  The descriptor ring has 2^count_bits descriptors and as
 * many struct printk_info; record id N lives in slot N mod 2^count_bits.
 * A descriptor's state_var holds the record's id in its low bits and its
 * state in the top two (1 committed, 2 finalized: the ones to print); its
 * text_blk_lpos gives the logical positions of its text block, begin and
 * next, which modulo the ring's size are offsets into the data ring.  A
 * block that wraps (begin > next) is stored from offset 0.  Each block
 * starts with the record's id (an unsigned long); the text follows, of
 * printk_info.text_len bytes, cut to the block.  Records run from tail_id
 * to head_id, both included, ids wrapping within the id mask.
 *
 * The record buffer (3.5 to 5.9): log_buf of log_buf_len bytes holds
 * struct printk_log records { ts_nsec, len, text_len, ... } each followed
 * by its text; len is the whole record's size, and a record with len 0
 * marks the end of the buffer: the next record is at offset 0.  Records
 * run from log_first_idx to log_next_idx.
 *
 * Before 3.5 the buffer was plain text, log_end bytes written in all, the
 * buffer a ring of log_buf_len bytes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "input/vmcoreinfo.h"
#include "kernel/printk.h"
#include "kernel/kernel.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"

#define NSEC_PER_SEC UINT64_C(1000000000)
/* Bounds a corrupt dump cannot make us exceed; the kernel's are far smaller. */
#define MAX_RING_BITS 28
#define MAX_STRUCT_SIZE 4096
/* The top two bits of a descriptor's state_var are its state. */
#define DESC_STATE_SHIFT 62
#define DESC_ID_MASK ((UINT64_C(1) << DESC_STATE_SHIFT) - 1)
#define DESC_COMMITTED 1
#define DESC_FINALIZED 2

/* A VMCOREINFO fact a layout needs: SIZE(name) or OFFSET(name). */
struct fact {
	const char *name;
	bool is_size;
	int64_t *value;
};

static struct mdf_error *look_up(struct kernel *k, const struct fact *facts, size_t n,
		   const char *layout)
{
	for (size_t i = 0; i < n; i++) {
		const struct fact *f = &facts[i];
		struct mdf_error *err = f->is_size ? kernel_lookup_size(k, f->name, f->value)
						   : kernel_lookup_offset(k, f->name, f->value);

		if (err && !mdf_error_is_not_found(err))
			return mdf_error_wrap(err, "the %s cannot be read", layout);
		if (err || *f->value < 0 || *f->value > MAX_STRUCT_SIZE)
			return mdf_error(-ENOENT,
					 "VMCOREINFO lacks %s(%s), or gives it out of range: the %s cannot "
					 "be read", f->is_size ? "SIZE" : "OFFSET", f->name, layout);
	}
	return NULL;
}

/* The kernel's values in its buffers, in the dumped machine's byte order. */
static uint64_t get_u64(enum byte_order order, const unsigned char *p)
{
	return dump_to_host_bytes(order, p, 8);
}

static uint32_t get_u32(enum byte_order order, const unsigned char *p)
{
	return (uint32_t)dump_to_host_bytes(order, p, 4);
}

static uint16_t get_u16(enum byte_order order, const unsigned char *p)
{
	return (uint16_t)dump_to_host_bytes(order, p, 2);
}

/* The C locale's classes, which upstream's isprint() and isspace() see. */
static bool is_print(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

static bool is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static void put_record(FILE *out, uint64_t ts_nsec, const unsigned char *text, size_t len)
{
	char prefix[64];
	int indent = snprintf(prefix, sizeof(prefix), "[%5" PRIu64 ".%06" PRIu64 "] ",
			      ts_nsec / NSEC_PER_SEC, ts_nsec % NSEC_PER_SEC / 1000);

	fputs(prefix, out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = text[i];

		if (c == '\n')
			fprintf(out, "\n%*s", indent, "");
		else if (is_print(c) || is_space(c))
			putc(c, out);
		else
			/* Upstream's char is signed: 0x80 and above print sign-extended. */
			fprintf(out, "\\x%02x", (unsigned int)(int)(signed char)c);
	}
	putc('\n', out);
}

/* Reads @len bytes at @addr into a new buffer, *@out. */
static struct mdf_error *read_virt(struct memory *mem, uint64_t addr, size_t len, const char *what, void *out)
{
	void *buf = malloc(len ? len : 1);
	struct mdf_error *err;

	if (!buf)
		return mdf_error(-ENOMEM, "no memory for %s (%zu bytes)", what, len);
	err = mem_read_virt(mem, addr, buf, len);
	if (err) {
		free(buf);
		return mdf_error_wrap(err, "cannot read %s (%zu bytes at 0x%" PRIx64 ")", what, len, addr);
	}
	memcpy(out, &buf, sizeof(buf));
	return NULL;
}

/* The lockless ring buffer's layout, from VMCOREINFO. */
struct prb_layout {
	int64_t rb_size, rb_desc_ring, rb_text_ring;
	int64_t dr_count_bits, dr_descs, dr_infos, dr_head_id, dr_tail_id;
	int64_t desc_size, desc_state_var, desc_text_blk_lpos;
	int64_t lpos_begin, lpos_next;
	int64_t info_size, info_seq, info_ts_nsec, info_text_len;
	int64_t data_size_bits, data_data;
	int64_t counter;
};

struct prb {
	const struct prb_layout *l;
	enum byte_order order;
	uint64_t nr_descs;
	unsigned char *descs;
	unsigned char *infos;
	uint64_t data_size;
	unsigned char *data;
};

/* Whether a member of @width bytes at @base + @offset lies within @size bytes. */
static bool fits(int64_t base, int64_t offset, int64_t width, int64_t size)
{
	return base + offset + width <= size;
}

static struct mdf_error *prb_layout(struct kernel *k, struct prb_layout *l)
{
	const struct fact facts[] = {
		{ "printk_ringbuffer", true, &l->rb_size },
		{ "printk_ringbuffer.desc_ring", false, &l->rb_desc_ring },
		{ "printk_ringbuffer.text_data_ring", false, &l->rb_text_ring },
		{ "prb_desc_ring.count_bits", false, &l->dr_count_bits },
		{ "prb_desc_ring.descs", false, &l->dr_descs },
		{ "prb_desc_ring.infos", false, &l->dr_infos },
		{ "prb_desc_ring.head_id", false, &l->dr_head_id },
		{ "prb_desc_ring.tail_id", false, &l->dr_tail_id },
		{ "prb_desc", true, &l->desc_size },
		{ "prb_desc.state_var", false, &l->desc_state_var },
		{ "prb_desc.text_blk_lpos", false, &l->desc_text_blk_lpos },
		{ "prb_data_blk_lpos.begin", false, &l->lpos_begin },
		{ "prb_data_blk_lpos.next", false, &l->lpos_next },
		{ "printk_info", true, &l->info_size },
		{ "printk_info.ts_nsec", false, &l->info_ts_nsec },
		{ "printk_info.text_len", false, &l->info_text_len },
		{ "prb_data_ring.size_bits", false, &l->data_size_bits },
		{ "prb_data_ring.data", false, &l->data_data },
	};
	struct mdf_error *err = look_up(k, facts, sizeof(facts) / sizeof(facts[0]),
			  "lockless printk ring buffer");

	if (err)
		return err;
	/* atomic_long_t is a struct of one counter: at 0 where VMCOREINFO does not say. */
	if (mdf_error_drop(kernel_lookup_offset(k, "atomic_long_t.counter", &l->counter)))
		l->counter = 0;
	if (!fits(l->rb_desc_ring, l->dr_count_bits, 4, l->rb_size) ||
	    !fits(l->rb_desc_ring, l->dr_descs, 8, l->rb_size) ||
	    !fits(l->rb_desc_ring, l->dr_infos, 8, l->rb_size) ||
	    !fits(l->rb_desc_ring, l->dr_head_id + l->counter, 8, l->rb_size) ||
	    !fits(l->rb_desc_ring, l->dr_tail_id + l->counter, 8, l->rb_size) ||
	    !fits(l->rb_text_ring, l->data_size_bits, 4, l->rb_size) ||
	    !fits(l->rb_text_ring, l->data_data, 8, l->rb_size) ||
	    !fits(l->desc_state_var, l->counter, 8, l->desc_size) ||
	    !fits(l->desc_text_blk_lpos, l->lpos_begin, 8, l->desc_size) ||
	    !fits(l->desc_text_blk_lpos, l->lpos_next, 8, l->desc_size) ||
	    !fits(l->info_ts_nsec, 0, 8, l->info_size) || !fits(l->info_text_len, 0, 2, l->info_size))
		return mdf_error(-MDF_ECORRUPT,
				 "VMCOREINFO's printk ring buffer layout puts members outside their "
				 "structures: corrupt");
	return NULL;
}

/* Reads the rings prb points at. */
static struct mdf_error *prb_read(struct memory *mem, struct kernel *k, struct prb *rb,
		    unsigned char **ring)
{
	const struct prb_layout *l = rb->l;
	const unsigned char *desc_ring, *text_ring;
	uint64_t prb_addr, addr;
	uint32_t count_bits, size_bits;
	struct mdf_error *err;

	err = kernel_lookup_symbol(k, "prb", &prb_addr);
	if (mdf_error_is_not_found(err))
		return mdf_error(-ENOENT,
				 "VMCOREINFO lacks SYMBOL(prb): the printk ring buffer cannot be found");
	if (err)
		return err;
	err = mem_read_u64(mem, prb_addr, &addr);
	if (err)
		return mdf_error_wrap(err, "cannot read prb at 0x%" PRIx64, prb_addr);
	err = read_virt(mem, addr, (size_t)l->rb_size, "the printk ring buffer (*prb)", ring);
	if (err)
		return err;
	desc_ring = *ring + l->rb_desc_ring;
	text_ring = *ring + l->rb_text_ring;
	count_bits = get_u32(rb->order, desc_ring + l->dr_count_bits);
	size_bits = get_u32(rb->order, text_ring + l->data_size_bits);
	if (count_bits > MAX_RING_BITS || size_bits > MAX_RING_BITS || size_bits < 4)
		return mdf_error(-MDF_ECORRUPT,
				 "printk ring buffer at 0x%" PRIx64 ": 2^%" PRIu32 " descriptors and 2^%"
				 PRIu32 " bytes of text: corrupt", addr, count_bits, size_bits);
	rb->nr_descs = UINT64_C(1) << count_bits;
	rb->data_size = UINT64_C(1) << size_bits;
	err = read_virt(mem, get_u64(rb->order, desc_ring + l->dr_descs),
			(size_t)(rb->nr_descs * (uint64_t)l->desc_size), "the printk descriptors", &rb->descs);
	if (!err)
		err = read_virt(mem, get_u64(rb->order, desc_ring + l->dr_infos),
				(size_t)(rb->nr_descs * (uint64_t)l->info_size), "the printk_info array", &rb->infos);
	if (!err)
		err = read_virt(mem, get_u64(rb->order, text_ring + l->data_data), (size_t)rb->data_size,
				"the printk text ring", &rb->data);
	return err;
}

/*
 * Prints record @id if it is committed or finalized and has text, as
 * upstream, and its sequence number is @first_seq or later.
 */
static void prb_record(const struct prb *rb, uint64_t id, uint64_t first_seq, FILE *out)
{
	const struct prb_layout *l = rb->l;
	const unsigned char *desc = rb->descs + (id % rb->nr_descs) * (uint64_t)l->desc_size;
	const unsigned char *info = rb->infos + (id % rb->nr_descs) * (uint64_t)l->info_size;
	uint64_t state_var = get_u64(rb->order, desc + l->desc_state_var + l->counter);
	uint64_t state = state_var >> DESC_STATE_SHIFT;
	uint64_t begin, next;
	size_t len;

	if ((state_var & DESC_ID_MASK) != id || (state != DESC_COMMITTED && state != DESC_FINALIZED))
		return;
	if (first_seq && get_u64(rb->order, info + l->info_seq) < first_seq)
		return;
	begin = get_u64(rb->order, desc + l->desc_text_blk_lpos + l->lpos_begin) % rb->data_size;
	next = get_u64(rb->order, desc + l->desc_text_blk_lpos + l->lpos_next) % rb->data_size;
	/* A record without text has a block of no data. */
	if (begin == next)
		return;
	if (begin > next)
		begin = 0;
	begin += sizeof(uint64_t);
	len = get_u16(rb->order, info + l->info_text_len);
	if (next < begin)
		len = 0;
	else if (next - begin < len)
		len = (size_t)(next - begin);
	put_record(out, get_u64(rb->order, info + l->info_ts_nsec), rb->data + begin, len);
}

/*
 * --partial-dmesg: the sequence number of the first record since the log
 * was last cleared (dmesg --clear), clear_seq; 0 when the kernel has none.
 * Since 5.13 clear_seq is a struct latched_seq, whose seqcount's low bit
 * says which of its two values is current.
 */
static struct mdf_error *read_clear_seq(struct memory *mem, struct kernel *k, uint64_t *seq)
{
	uint64_t addr, latch = 0;
	int64_t size, val_offset;
	struct mdf_error *err;

	*seq = 0;
	if (mdf_error_drop(kernel_lookup_symbol(k, "clear_seq", &addr))) {
		msg_warn("--partial-dmesg: the dump has no clear_seq: the whole log follows");
		return NULL;
	}
	if (!mdf_error_drop(kernel_lookup_size(k, "latched_seq", &size))) {
		if (mdf_error_drop(kernel_lookup_offset(k, "latched_seq.val", &val_offset)) ||
		    val_offset < 0 || val_offset + 16 > size)
			return mdf_error(-MDF_ECORRUPT, "clear_seq is a struct latched_seq, but its "
					 "member val is not within its %" PRId64 " bytes", size);
		err = mem_read_u64(mem, addr, &latch);
		if (err)
			return mdf_error_wrap(err, "cannot read clear_seq at 0x%" PRIx64, addr);
		addr += (uint64_t)val_offset + (latch & 1) * sizeof(uint64_t);
	}
	err = mem_read_u64(mem, addr, seq);
	if (err)
		return mdf_error_wrap(err, "cannot read clear_seq at 0x%" PRIx64, addr);
	return NULL;
}

static struct mdf_error *dump_prb(struct memory *mem, struct kernel *k, bool since_clear, FILE *out)
{
	struct prb_layout l = { 0 };
	struct prb rb = { .l = &l, .order = mem_byte_order(mem) };
	unsigned char *ring = NULL;
	uint64_t first_seq = 0;
	struct mdf_error *err = prb_layout(k, &l);

	if (!err && since_clear) {
		err = read_clear_seq(mem, k, &first_seq);
		if (!err && first_seq &&
		    (mdf_error_drop(kernel_lookup_offset(k, "printk_info.seq", &l.info_seq)) ||
		     !fits(l.info_seq, 0, 8, l.info_size)))
			err = mdf_error(-ENOENT, "--partial-dmesg: VMCOREINFO lacks a usable "
					"OFFSET(printk_info.seq): the records since clear_seq cannot be told");
	}
	if (!err)
		err = prb_read(mem, k, &rb, &ring);
	if (!err) {
		const unsigned char *desc_ring = ring + l.rb_desc_ring;
		uint64_t tail = get_u64(rb.order, desc_ring + l.dr_tail_id + l.counter) & DESC_ID_MASK;
		uint64_t head = get_u64(rb.order, desc_ring + l.dr_head_id + l.counter) & DESC_ID_MASK;
		uint64_t id;

		for (id = tail; id != head; id = (id + 1) & DESC_ID_MASK)
			prb_record(&rb, id, first_seq, out);
		prb_record(&rb, head, first_seq, out);
	}
	free(ring);
	free(rb.descs);
	free(rb.infos);
	free(rb.data);
	return err;
}

/* The record buffer of 3.5 to 5.9: struct printk_log, called log before 3.11. */
static struct mdf_error *log_layout(struct kernel *k, int64_t *size, int64_t *off_ts,
		      int64_t *off_len, int64_t *off_text_len)
{
	/* struct log was renamed struct printk_log in Linux 3.11. */
	const char *name = mdf_error_drop(kernel_lookup_size(k, "printk_log", size)) ? "log" : "printk_log";
	char ts[32], len[32], text_len[32];
	const struct fact facts[] = {
		{ name, true, size },
		{ ts, false, off_ts },
		{ len, false, off_len },
		{ text_len, false, off_text_len },
	};
	struct mdf_error *err;

	snprintf(ts, sizeof(ts), "%s.ts_nsec", name);
	snprintf(len, sizeof(len), "%s.len", name);
	snprintf(text_len, sizeof(text_len), "%s.text_len", name);
	err = look_up(k, facts, sizeof(facts) / sizeof(facts[0]), "printk record buffer");
	if (!err && (*off_ts + 8 > *size || *off_len + 2 > *size || *off_text_len + 2 > *size))
		err = mdf_error(-MDF_ECORRUPT,
				"VMCOREINFO's struct %s puts members past its %" PRId64 " bytes: corrupt",
				name, *size);
	return err;
}

static struct mdf_error *read_symbol_u32(struct memory *mem, struct kernel *k, const char *name,
			   uint32_t *value)
{
	uint64_t addr;
	struct mdf_error *err;

	err = kernel_lookup_symbol(k, name, &addr);
	if (mdf_error_is_not_found(err))
		return mdf_error(-ENOENT,
				 "VMCOREINFO lacks SYMBOL(%s): the printk buffer cannot be read", name);
	if (err)
		return err;
	err = mem_read_u32(mem, addr, value);
	if (err)
		return mdf_error_wrap(err, "cannot read %s at 0x%" PRIx64, name, addr);
	return NULL;
}

/* Walks the records from log_first_idx to log_next_idx; a loop means corruption. */
static struct mdf_error *walk_records(enum byte_order order, const unsigned char *buf, uint32_t buf_len,
				      uint32_t first, uint32_t next, const int64_t layout[4], FILE *out)
{
	uint64_t hdr = (uint64_t)layout[0], limit = buf_len / (hdr ? hdr : 1) + 1, n = 0;
	uint64_t cur = first;

	while (cur != next) {
		uint16_t len;
		uint64_t rec;

		if (cur + hdr > buf_len || ++n > limit)
			return mdf_error(-MDF_ECORRUPT,
					 "the printk log_buf is corrupt: %s at index 0x%" PRIx64,
					 n > limit ? "a cycle" : "a record outside the buffer", cur);
		len = get_u16(order, buf + cur + layout[2]);
		/* A record of length 0 ends the buffer: the one at offset 0 is this one. */
		rec = len ? cur : 0;
		len = get_u16(order, buf + rec + layout[2]);
		if (rec + hdr + get_u16(order, buf + rec + layout[3]) > buf_len)
			return mdf_error(-MDF_ECORRUPT,
					 "the printk log_buf is corrupt: the record at index 0x%" PRIx64
					 " runs past the buffer's end", rec);
		put_record(out, get_u64(order, buf + rec + layout[1]), buf + rec + hdr,
			   get_u16(order, buf + rec + layout[3]));
		cur = rec + len;
	}
	return NULL;
}

/* Kernels before 2.6.25 declared log_end unsigned long, later ones unsigned. */
static bool log_end_is_long(struct kernel *k)
{
	const char *release = vmcoreinfo_get(kernel_vmcoreinfo(k), "OSRELEASE");
	unsigned int major = 0, minor = 0, patch = 0;

	if (!release || sscanf(release, "%u.%u.%u", &major, &minor, &patch) < 2)
		return false;
	return major < 2 || (major == 2 && (minor < 6 || (minor == 6 && patch < 25)));
}

/* The plain text buffer: the last log_buf_len bytes written, oldest first. */
static struct mdf_error *dump_text_buffer(struct memory *mem, struct kernel *k,
			    const unsigned char *buf, uint32_t buf_len, FILE *out)
{
	unsigned char raw[8];
	size_t size = log_end_is_long(k) ? 8 : 4;
	uint64_t addr, log_end;
	struct mdf_error *err;

	if (mdf_error_drop(kernel_lookup_symbol(k, "log_end", &addr)))
		return mdf_error(-ENOENT,
				 "VMCOREINFO has neither SYMBOL(prb) nor SYMBOL(log_first_idx) nor "
				 "SYMBOL(log_end): no kernel log layout is known");
	err = mem_read_virt(mem, addr, raw, size);
	if (err)
		return mdf_error_wrap(err, "cannot read log_end at 0x%" PRIx64, addr);
	log_end = dump_to_host_bytes(mem_byte_order(mem), raw, size);
	if (log_end < buf_len) {
		fwrite(buf, 1, (size_t)log_end, out);
	} else {
		uint64_t index = log_end & (buf_len - 1);

		fwrite(buf + index, 1, (size_t)(buf_len - index), out);
		fwrite(buf, 1, (size_t)index, out);
	}
	return NULL;
}

static struct mdf_error *dump_log_buf(struct memory *mem, struct kernel *k, bool since_clear,
				      FILE *out)
{
	uint64_t buf_addr = 0, sym;
	uint32_t buf_len, first, next;
	unsigned char *buf = NULL;
	int64_t layout[4];
	struct mdf_error *err;

	if (mdf_error_drop(kernel_lookup_symbol(k, "log_buf", &sym)))
		return mdf_error(-ENOENT,
				 "VMCOREINFO has neither SYMBOL(prb) nor SYMBOL(log_buf): the kernel log "
				 "cannot be found");
	err = mem_read_u64(mem, sym, &buf_addr);
	if (err)
		return mdf_error_wrap(err, "cannot read log_buf at 0x%" PRIx64, sym);
	err = read_symbol_u32(mem, k, "log_buf_len", &buf_len);
	if (err)
		return err;
	if (buf_len == 0 || buf_len > (UINT32_C(1) << MAX_RING_BITS))
		return mdf_error(-MDF_ECORRUPT, "log_buf_len is %" PRIu32 ": corrupt", buf_len);
	err = read_virt(mem, buf_addr, buf_len, "the printk log_buf", &buf);
	if (err)
		return err;
	if (!mdf_error_drop(kernel_lookup_symbol(k, "log_first_idx", &sym))) {
		err = log_layout(k, &layout[0], &layout[1], &layout[2], &layout[3]);
		/* As upstream: clear_idx, where the records since the last clear start. */
		if (!err)
			err = read_symbol_u32(mem, k,
					      since_clear && !mdf_error_drop(kernel_lookup_symbol(k, "clear_idx", &sym))
						      ? "clear_idx" : "log_first_idx", &first);
		if (!err)
			err = read_symbol_u32(mem, k, "log_next_idx", &next);
		if (!err)
			err = walk_records(mem_byte_order(mem), buf, buf_len, first, next, layout, out);
	} else {
		err = dump_text_buffer(mem, k, buf, buf_len, out);
	}
	free(buf);
	return err;
}

struct mdf_error *printk_dump(struct memory *mem, struct kernel *k, bool since_clear, FILE *out,
			      const char *out_name)
{
	uint64_t prb;
	struct mdf_error *err;

	msg_debug("writing the kernel log to %s", out_name);
	/* VMCOREINFO's lines say which layout; symbols decide only where it names neither. */
	if (vmcoreinfo_get(kernel_vmcoreinfo(k), "SYMBOL(prb)") ||
	    (!vmcoreinfo_get(kernel_vmcoreinfo(k), "SYMBOL(log_buf)") &&
	     !mdf_error_drop(kernel_lookup_symbol(k, "prb", &prb))))
		err = dump_prb(mem, k, since_clear, out);
	else
		err = dump_log_buf(mem, k, since_clear, out);
	return err;
}
