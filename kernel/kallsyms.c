// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's kallsyms, decoded from the crashed kernel's memory.
 *
 * scripts/kallsyms.c builds these tables into the kernel image:
 *
 *  kallsyms_num_syms     the number of symbols, a 32-bit unsigned int;
 *  kallsyms_names        per symbol, in address order: a length, then that
 *                        many one-byte token numbers.  The length takes one
 *                        byte, or two when it is 128 or more (kernels >= 6.1:
 *                        low seven bits with the high bit set, then the rest);
 *  kallsyms_token_table  256 NUL-terminated strings, the tokens;
 *  kallsyms_token_index  256 u16 offsets of the tokens in the table.
 *
 * A name decodes to the concatenation of its tokens; the first character is
 * the symbol's type letter, as /proc/kallsyms prints it.
 *
 * Addresses come in one of four encodings, chosen by kernel configuration
 * and version:
 *
 *  - kallsyms_addresses[i], absolute unsigned longs (no
 *    CONFIG_KALLSYMS_BASE_RELATIVE);
 *  - kallsyms_offsets[i], 32-bit, against kallsyms_relative_base with
 *    absolute per-cpu symbols: offset >= 0 is the value itself, a negative
 *    offset means base - 1 - offset (x86_64 up to 6.14, 6.1 included);
 *  - the same without absolute per-cpu: base + (u32)offset;
 *  - kernels >= 7.0 drop kallsyms_relative_base: each 32-bit entry is
 *    relative to its own address in kallsyms_offsets.
 *
 * Kernel versions and configurations do not say which one is in use, so
 * every encoding the dump's VMCOREINFO allows is tried, and the one that
 * puts _stext (and the other symbols VMCOREINFO names) where VMCOREINFO
 * says wins.
 *
 * Module symbols are not in these tables: kernel/modules.c reads them.
 *
 * Every number in these tables is in the dumped machine's byte order.
 *
 * The crashed kernel's memory may be garbage: every count and index read
 * from it is checked before it sizes an allocation or indexes an array.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/vmcoreinfo.h"
#include "kernel/kallsyms.h"
#include "memory/reader.h"
#include "util/byte_order.h"
#include "util/message.h"

/* Far above any real kernel (7.2 has about 200,000). */
#define MAX_SYMBOLS 4000000u
#define NR_TOKENS 256
/* Bytes of token table read past the highest token index. */
#define MAX_TOKEN_LEN 256
/*
 * A pass reads kallsyms_names (6.1's is 1.2 MB, 7.2's 2.9 MB) through a
 * window of this size, reused from pass to pass.
 */
#define NAMES_WINDOW (64u << 10)
/* Names one pass of kallsyms_find looks for: a bit each in a uint64_t. */
#define FIND_BATCH 64

/* The addresses of the tables, from VMCOREINFO. */
struct kallsyms_tables {
	uint64_t num_syms;
	uint64_t names;
	uint64_t token_table;
	uint64_t token_index;
	uint64_t offsets;
	uint64_t relative_base;
	uint64_t addresses;
	bool has_offsets;
	bool has_relative_base;
	bool has_addresses;
};

/* The token table, with each token's offset checked to be NUL-terminated. */
struct tokens {
	char *table;
	size_t table_len;
	uint16_t index[NR_TOKENS];
	uint16_t len[NR_TOKENS];
};

struct kallsyms {
	struct memory *mem;
	struct kallsyms_tables t;
	uint32_t count;
	struct tokens tok;
	enum kallsyms_encoding encoding;
	unsigned char *window;    /* NAMES_WINDOW bytes */
};

static const char *const encoding_names[] = {
	[KALLSYMS_ABSOLUTE] = "absolute",
	[KALLSYMS_ABS_PERCPU] = "base-relative with absolute per-cpu",
	[KALLSYMS_BASE_RELATIVE] = "base-relative",
	[KALLSYMS_PLACE_RELATIVE] = "place-relative",
};

const char *kallsyms_encoding_name(enum kallsyms_encoding encoding)
{
	return encoding_names[encoding];
}

static struct mdf_error *read_or_report(struct memory *mem, uint64_t vaddr, void *buf, size_t len, const char *what)
{
	struct mdf_error *err = mem_read_virt(mem, vaddr, buf, len);

	if (err)
		return mdf_error_wrap(err, "cannot read %s (0x%zx bytes at 0x%llx)", what, len,
				      (unsigned long long)vaddr);
	return NULL;
}

static const char *const required_tables[] = { "kallsyms_num_syms", "kallsyms_names",
						"kallsyms_token_table", "kallsyms_token_index" };

bool kallsyms_in_vmcoreinfo(const struct vmcoreinfo *vi)
{
	for (size_t i = 0; i < sizeof(required_tables) / sizeof(required_tables[0]); i++) {
		char key[64];

		snprintf(key, sizeof(key), "SYMBOL(%s)", required_tables[i]);
		if (!vmcoreinfo_get(vi, key))
			return false;
	}
	return vmcoreinfo_get(vi, "SYMBOL(kallsyms_offsets)") ||
	       vmcoreinfo_get(vi, "SYMBOL(kallsyms_addresses)");
}

static struct mdf_error *find_tables(const struct vmcoreinfo *vi, struct kallsyms_tables *t)
{
	uint64_t *const slots[] = { &t->num_syms, &t->names, &t->token_table, &t->token_index };

	for (size_t i = 0; i < sizeof(required_tables) / sizeof(required_tables[0]); i++) {
		if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, required_tables[i], slots[i])))
			return mdf_error(-ENOENT,
					 "VMCOREINFO has no SYMBOL(%s): cannot decode the kernel's kallsyms",
					 required_tables[i]);
	}
	t->has_offsets = !mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "kallsyms_offsets", &t->offsets));
	t->has_relative_base =
		!mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "kallsyms_relative_base", &t->relative_base));
	t->has_addresses = !mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "kallsyms_addresses", &t->addresses));
	if (!t->has_offsets && !t->has_addresses)
		return mdf_error(-ENOENT,
				 "VMCOREINFO has neither SYMBOL(kallsyms_offsets) nor SYMBOL(kallsyms_addresses): "
				 "cannot find the kernel's symbol addresses");
	return NULL;
}

static struct mdf_error *read_tokens(struct memory *mem, const struct kallsyms_tables *t, struct tokens *tok)
{
	size_t max_index = 0;
	struct mdf_error *err;

	err = read_or_report(mem, t->token_index, tok->index, sizeof(tok->index), "kallsyms_token_index");
	if (err)
		return err;
	for (int i = 0; i < NR_TOKENS; i++) {
		tok->index[i] = dump_to_host16(mem_byte_order(mem), tok->index[i]);
		if (tok->index[i] > max_index)
			max_index = tok->index[i];
	}
	tok->table_len = max_index + MAX_TOKEN_LEN;
	tok->table = malloc(tok->table_len);
	if (!tok->table)
		return &mdf_error_enomem;
	/* The last token may sit near the end of a mapping. */
	err = mem_read_prefix(mem, t->token_table, tok->table, max_index + 1, &tok->table_len);
	if (err)
		return mdf_error_wrap(err, "cannot read kallsyms_token_table (0x%zx bytes at 0x%llx)",
				      tok->table_len, (unsigned long long)t->token_table);
	for (int i = 0; i < NR_TOKENS; i++) {
		const char *end = memchr(tok->table + tok->index[i], '\0', tok->table_len - tok->index[i]);

		if (!end)
			return mdf_error(-MDF_ECORRUPT,
					 "kallsyms_token_table at 0x%llx: token %d (offset %u) is not terminated "
					 "within %zu bytes: corrupt kallsyms", (unsigned long long)t->token_table,
					 i, tok->index[i], tok->table_len);
		tok->len[i] = (uint16_t)(end - (tok->table + tok->index[i]));
	}
	return NULL;
}

/* A pass's place in kallsyms_names: the window holds [next - len, next). */
struct names_stream {
	const struct kallsyms *ks;
	uint64_t next;          /* the address of the next byte to read */
	size_t pos, len;
};

/*
 * Makes @need bytes available from window[pos] on, keeping the ones not
 * consumed yet and reading on to page boundaries, or, where the table's
 * last page ends a mapping, to the end of that page.
 */
static struct mdf_error *stream_refill(struct names_stream *s, size_t need)
{
	const struct kallsyms *ks = s->ks;
	uint32_t page = mem_page_size(ks->mem);

	memmove(ks->window, ks->window + s->pos, s->len - s->pos);
	s->len -= s->pos;
	s->pos = 0;
	while (s->len < need) {
		size_t room = NAMES_WINDOW - s->len;
		size_t chunk = room - ((s->next + room) & (page - 1));
		struct mdf_error *err = mem_read_virt(ks->mem, s->next, ks->window + s->len, chunk);

		if (err) {
			mdf_error_free(err);
			chunk = page - (s->next & (page - 1));
			err = mem_read_virt(ks->mem, s->next, ks->window + s->len, chunk);
		}
		if (err)
			return mdf_error_wrap(err, "cannot read kallsyms_names at 0x%llx",
					      (unsigned long long)s->next);
		s->next += chunk;
		s->len += chunk;
	}
	return NULL;
}

static inline struct mdf_error *stream_need(struct names_stream *s, size_t need)
{
	return s->len - s->pos >= need ? NULL : stream_refill(s, need);
}

/* An entry of kallsyms_names: @len token numbers, at @addr in the dump (for messages). */
struct names_entry {
	uint32_t index;
	uint64_t addr;
	const unsigned char *code;
	size_t len;
};

/* Decodes an entry into @name, NUL-terminated: the type letter, then the name proper. */
static void decode(const struct tokens *tok, const struct names_entry *e, char name[KSYM_NAME_LEN])
{
	size_t out = 0;

	for (size_t j = 0; j < e->len; j++) {
		/* Tokens are a few bytes: a plain loop beats a memcpy call. */
		for (const char *c = tok->table + tok->index[e->code[j]]; *c; c++)
			name[out++] = *c;
	}
	name[out] = '\0';
}

/* Whether an entry decodes to a type letter and a name shorter than KSYM_NAME_LEN; says why not. */
static struct mdf_error *check_entry(const struct tokens *tok, const struct names_entry *e)
{
	char name[KSYM_NAME_LEN];
	size_t chars = 0;

	for (size_t j = 0; j < e->len; j++)
		chars += tok->len[e->code[j]];
	if (chars >= KSYM_NAME_LEN)
		return mdf_error(-MDF_ECORRUPT,
				 "kallsyms_names entry %u at 0x%llx decodes to more than %d characters: "
				 "corrupt kallsyms", e->index, (unsigned long long)e->addr, KSYM_NAME_LEN - 1);
	if (chars < 2) {
		decode(tok, e, name);
		return mdf_error(-MDF_ECORRUPT,
				 "kallsyms_names entry %u at 0x%llx decodes to \"%s\": no type and name", e->index,
				 (unsigned long long)e->addr, name);
	}
	return NULL;
}

/*
 * One pass over kallsyms_names: @visit sees each entry in table order,
 * until it returns non-zero, which the pass returns.  An entry's length
 * is checked here, and with @check what it decodes to: the pass that
 * opens the table checks every entry, so that those after it can decode
 * any.
 */
static struct mdf_error *names_pass(const struct kallsyms *ks, bool check,
				    struct mdf_error *(*visit)(void *ctx, const struct names_entry *e), void *ctx)
{
	struct names_stream s = { .ks = ks, .next = ks->t.names };
	struct mdf_error *err = NULL;

	for (uint32_t i = 0; i < ks->count && !err; i++) {
		struct names_entry e = { .index = i };
		const unsigned char *p;
		size_t head;

		/* The last entry has one length byte and at least one token: 2 bytes are there. */
		err = stream_need(&s, 2);
		if (err)
			break;
		e.addr = s.next - (s.len - s.pos);
		p = ks->window + s.pos;
		/* One byte, or two when the first has its top bit set (kernels >= 6.1). */
		head = p[0] & 0x80 ? 2 : 1;
		e.len = head == 2 ? (size_t)(p[0] & 0x7f) | ((size_t)p[1] << 7) : p[0];
		if (e.len == 0 || e.len >= KSYM_NAME_LEN)
			return mdf_error(-MDF_ECORRUPT,
					 "kallsyms_names entry %u at 0x%llx has length %zu: corrupt kallsyms", i,
					 (unsigned long long)e.addr, e.len);
		err = stream_need(&s, head + e.len);
		if (err)
			break;
		e.code = ks->window + s.pos + head;
		s.pos += head + e.len;
		err = check ? check_entry(&ks->tok, &e) : NULL;
		if (!err)
			err = visit(ctx, &e);
	}
	return err;
}

/* A symbol's address from its entry of kallsyms_offsets or kallsyms_addresses. */
static uint64_t decode_address(const struct kallsyms_tables *t, enum kallsyms_encoding encoding, uint32_t i,
			       int32_t offset, uint64_t absolute)
{
	switch (encoding) {
	case KALLSYMS_ABSOLUTE:
		return absolute;
	case KALLSYMS_ABS_PERCPU:
		if (offset >= 0)
			return (uint64_t)offset;
		return t->relative_base - 1 - (int64_t)offset;
	case KALLSYMS_BASE_RELATIVE:
		return t->relative_base + (uint32_t)offset;
	case KALLSYMS_PLACE_RELATIVE:
		return t->offsets + (uint64_t)i * 4 + (int64_t)offset;
	}
	return 0;
}

/* Symbol @i's address by @encoding, its entries read from the dump. */
static struct mdf_error *read_address(const struct kallsyms *ks, enum kallsyms_encoding encoding,
				      uint32_t i, uint64_t *addr)
{
	enum byte_order order = mem_byte_order(ks->mem);
	uint32_t offset = 0;
	uint64_t absolute = 0;
	struct mdf_error *err = NULL;

	if (ks->t.has_offsets)
		err = read_or_report(ks->mem, ks->t.offsets + (uint64_t)i * 4, &offset, 4, "kallsyms_offsets");
	if (!err && ks->t.has_addresses)
		err = read_or_report(ks->mem, ks->t.addresses + (uint64_t)i * 8, &absolute, 8,
				     "kallsyms_addresses");
	if (!err)
		*addr = decode_address(&ks->t, encoding, i, (int32_t)dump_to_host32(order, offset),
				       dump_to_host64(order, absolute));
	return err;
}

struct mdf_error *kallsyms_address(const struct kallsyms *ks, size_t index, uint64_t *addr)
{
	return read_address(ks, ks->encoding, (uint32_t)index, addr);
}

struct mdf_error *kallsyms_addresses(const struct kallsyms *ks, uint64_t *addrs)
{
	enum byte_order order = mem_byte_order(ks->mem);
	size_t count = ks->count;
	uint32_t *offsets = NULL;
	struct mdf_error *err = NULL;

	/* The entries are read whole, into @addrs itself where they are absolute. */
	if (ks->t.has_offsets && !(offsets = malloc(count * sizeof(*offsets))))
		return &mdf_error_enomem;
	if (offsets)
		err = read_or_report(ks->mem, ks->t.offsets, offsets, count * sizeof(*offsets), "kallsyms_offsets");
	if (!err && ks->t.has_addresses)
		err = read_or_report(ks->mem, ks->t.addresses, addrs, count * sizeof(*addrs), "kallsyms_addresses");
	for (size_t i = 0; i < count && !err; i++)
		addrs[i] = decode_address(&ks->t, ks->encoding, (uint32_t)i,
					  offsets ? (int32_t)dump_to_host32(order, offsets[i]) : 0,
					  ks->t.has_addresses ? dump_to_host64(order, addrs[i]) : 0);
	free(offsets);
	return err;
}

struct listing {
	const struct kallsyms *ks;
	const uint64_t *addrs;
	struct mdf_error *(*visit)(void *ctx, const struct ksym *sym);
	void *ctx;
};

static struct mdf_error *list_entry(void *ctx, const struct names_entry *e)
{
	struct listing *ls = ctx;
	char name[KSYM_NAME_LEN];
	struct ksym sym = { .addr = ls->addrs[e->index], .name = name + 1 };

	decode(&ls->ks->tok, e, name);
	sym.type = name[0];
	return ls->visit(ls->ctx, &sym);
}

struct mdf_error *kallsyms_for_each(const struct kallsyms *ks,
				    struct mdf_error *(*visit)(void *ctx, const struct ksym *sym), void *ctx)
{
	uint64_t *addrs = malloc((size_t)ks->count * sizeof(*addrs));
	struct listing ls = { ks, addrs, visit, ctx };
	struct mdf_error *err = addrs ? kallsyms_addresses(ks, addrs) : &mdf_error_enomem;

	if (!err)
		err = names_pass(ks, false, list_entry, &ls);
	free(addrs);
	return err;
}

/* The character at position 1 of an entry's name: the first of the name proper, or 0. */
static inline unsigned char first_char(const struct tokens *tok, const struct names_entry *e)
{
	size_t at = 0;

	/* Mostly in the first token, which starts with the type letter. */
	if (tok->len[e->code[0]] > 1)
		return (unsigned char)tok->table[tok->index[e->code[0]] + 1];
	for (size_t j = 0; j < e->len; j++) {
		if (at + tok->len[e->code[j]] > 1)
			return (unsigned char)tok->table[tok->index[e->code[j]] + 1 - at];
		at += tok->len[e->code[j]];
	}
	return 0;
}

/*
 * The first four characters of an entry's name proper (after the type
 * letter), a byte each in a word, zeros past a shorter name's end; a
 * name's key is made the same way.
 */
static uint32_t entry_key(const struct tokens *tok, const struct names_entry *e)
{
	uint32_t key = 0;
	size_t at = 0;

	for (size_t j = 0; j < e->len && at < 5; j++) {
		const char *c = tok->table + tok->index[e->code[j]];

		for (; *c && at < 5; c++, at++)
			if (at)
				key |= (uint32_t)(unsigned char)*c << (8 * (at - 1));
	}
	return key;
}

static uint32_t name_key(const char *name)
{
	uint32_t key = 0;

	for (size_t i = 0; i < 4 && name[i]; i++)
		key |= (uint32_t)(unsigned char)name[i] << (8 * i);
	return key;
}

/* What one pass of kallsyms_find looks for: at most FIND_BATCH names. */
struct finding {
	const struct tokens *tok;
	const char *const *names;
	size_t lens[FIND_BATCH];
	uint32_t keys[FIND_BATCH];
	int64_t *index;
	char best_type[FIND_BATCH];
	/*
	 * Most entries are ruled out by the first character of their name
	 * proper, nearly all the others by their first four.
	 */
	uint64_t by_first[256];
};

static struct mdf_error *find_entry(void *ctx, const struct names_entry *e)
{
	struct finding *f = ctx;
	uint64_t alive = f->by_first[first_char(f->tok, e)];
	char name[KSYM_NAME_LEN];
	size_t out = 0;

	if (alive) {
		uint32_t key = entry_key(f->tok, e);

		for (uint64_t bits = alive; bits; bits &= bits - 1)
			if (f->keys[__builtin_ctzll(bits)] != key)
				alive &= ~(bits & -bits);
	}

	/* name[0] is the type letter; tokens are expanded while some name asked still matches. */
	for (size_t j = 0; j < e->len && alive; j++) {
		const unsigned char code = e->code[j];

		memcpy(name + out, f->tok->table + f->tok->index[code], f->tok->len[code]);
		out += f->tok->len[code];
		for (uint64_t bits = alive; bits; bits &= bits - 1) {
			size_t k = (size_t)__builtin_ctzll(bits);

			/* A corrupt table's empty token leaves nothing to compare yet. */
			if (out > f->lens[k] + 1 || (out > 1 && memcmp(name + 1, f->names[k], out - 1)))
				alive &= ~(1ull << k);
		}
	}
	for (uint64_t bits = alive; bits; bits &= bits - 1) {
		size_t k = (size_t)__builtin_ctzll(bits);

		if (out == f->lens[k] + 1 && !ksym_is_undefined(name[0]) &&
		    ksym_better(f->index[k] >= 0, f->best_type[k], name[0])) {
			f->index[k] = e->index;
			f->best_type[k] = name[0];
		}
	}
	return NULL;
}

/* kallsyms_find; with @check, every entry is checked on the way (kallsyms_new's pass). */
static struct mdf_error *find(const struct kallsyms *ks, bool check, const char *const *names,
			      size_t nr, int64_t *index)
{
	struct mdf_error *err = NULL;

	/* A check makes a pass even when no name is asked. */
	for (size_t first = 0; !err && (first < nr || (check && !first)); first += FIND_BATCH) {
		struct finding f = { .tok = &ks->tok, .names = names + first, .index = index + first };
		size_t batch = nr - first < FIND_BATCH ? nr - first : FIND_BATCH;

		for (size_t k = 0; k < batch; k++) {
			f.index[k] = -1;
			f.lens[k] = strlen(f.names[k]);
			f.keys[k] = name_key(f.names[k]);
			if (f.lens[k] && f.lens[k] < KSYM_NAME_LEN)
				f.by_first[(unsigned char)f.names[k][0]] |= 1ull << k;
		}
		err = names_pass(ks, check, find_entry, &f);
	}
	return err;
}

struct mdf_error *kallsyms_find(const struct kallsyms *ks, const char *const *names, size_t nr, int64_t *index)
{
	return find(ks, false, names, nr, index);
}

/*
 * Symbols whose VMCOREINFO value is their address (not, like mem_section,
 * the value stored there): a candidate encoding must agree with them.
 */
static const char *const witness_symbols[] = {
	"_stext", "init_uts_ns", "swapper_pg_dir", "init_top_pgt", "node_online_map", "prb",
	"kallsyms_names", "kallsyms_num_syms", "kallsyms_token_table", "kallsyms_token_index",
};
#define NR_WITNESSES (sizeof(witness_symbols) / sizeof(witness_symbols[0]))

static struct mdf_error *choose_encoding(struct kallsyms *ks, const struct vmcoreinfo *vi)
{
	const char *names[NR_WITNESSES];
	uint64_t expected[NR_WITNESSES], stext;
	int64_t index[NR_WITNESSES];
	enum kallsyms_encoding candidates[4];
	size_t nr = 0, nr_candidates = 0;
	int best_score = 0, best = -1;
	struct mdf_error *err;
	bool has_stext = !mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "_stext", &stext));

	for (size_t i = 0; i < NR_WITNESSES; i++)
		if (!mdf_error_drop(vmcoreinfo_lookup_symbol(vi, witness_symbols[i], &expected[nr])))
			names[nr++] = witness_symbols[i];
	err = find(ks, true, names, nr, index);
	if (err)
		return err;
	if (ks->t.has_addresses)
		candidates[nr_candidates++] = KALLSYMS_ABSOLUTE;
	if (ks->t.has_offsets && ks->t.has_relative_base) {
		candidates[nr_candidates++] = KALLSYMS_ABS_PERCPU;
		candidates[nr_candidates++] = KALLSYMS_BASE_RELATIVE;
	}
	if (ks->t.has_offsets)
		candidates[nr_candidates++] = KALLSYMS_PLACE_RELATIVE;

	for (size_t c = 0; c < nr_candidates; c++) {
		int score = 0;
		bool stext_ok = !has_stext;

		for (size_t i = 0; i < nr; i++) {
			uint64_t addr;

			if (index[i] < 0)
				continue;
			err = read_address(ks, candidates[c], (uint32_t)index[i], &addr);
			if (err)
				return err;
			if (addr != expected[i])
				continue;
			score++;
			if (!strcmp(names[i], "_stext"))
				stext_ok = true;
		}
		if (stext_ok && score > best_score) {
			best_score = score;
			best = (int)candidates[c];
		}
	}
	if (best < 0 && has_stext)
		return mdf_error(-MDF_ECORRUPT, "no kallsyms address encoding puts _stext at SYMBOL(_stext)=%llx "
				 "(tried %zu): the kallsyms tables are corrupt or of an unknown kind",
				 (unsigned long long)stext, nr_candidates);
	if (best < 0)
		return mdf_error(-MDF_ECORRUPT,
				 "no kallsyms address encoding agrees with any SYMBOL() line of VMCOREINFO");
	ks->encoding = (enum kallsyms_encoding)best;
	msg_debug("kallsyms: %u symbols, %s addresses (%d VMCOREINFO symbols agree)", ks->count,
		  kallsyms_encoding_name(ks->encoding), best_score);
	return NULL;
}

struct mdf_error *kallsyms_new(struct memory *mem, const struct vmcoreinfo *vi, struct kallsyms **out)
{
	struct kallsyms *ks = calloc(1, sizeof(*ks));
	struct mdf_error *err;

	if (!ks)
		return &mdf_error_enomem;
	ks->mem = mem;
	ks->window = malloc(NAMES_WINDOW);
	err = ks->window ? find_tables(vi, &ks->t) : &mdf_error_enomem;
	if (!err)
		err = read_or_report(mem, ks->t.num_syms, &ks->count, sizeof(ks->count), "kallsyms_num_syms");
	if (!err)
		ks->count = dump_to_host32(mem_byte_order(mem), ks->count);
	if (!err && (ks->count == 0 || ks->count > MAX_SYMBOLS))
		err = mdf_error(-MDF_ECORRUPT,
				"kallsyms_num_syms at 0x%llx is %u, outside 1..%u: corrupt kallsyms",
				(unsigned long long)ks->t.num_syms, ks->count, MAX_SYMBOLS);
	if (!err && ks->t.has_relative_base)
		err = read_or_report(mem, ks->t.relative_base, &ks->t.relative_base, sizeof(ks->t.relative_base),
				     "kallsyms_relative_base");
	if (!err && ks->t.has_relative_base)
		ks->t.relative_base = dump_to_host64(mem_byte_order(mem), ks->t.relative_base);
	if (!err)
		err = read_tokens(mem, &ks->t, &ks->tok);
	if (!err)
		err = choose_encoding(ks, vi);
	if (err) {
		kallsyms_free(ks);
		return err;
	}
	*out = ks;
	return NULL;
}

void kallsyms_free(struct kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->tok.table);
	free(ks->window);
	free(ks);
}

size_t kallsyms_count(const struct kallsyms *ks)
{
	return ks->count;
}
