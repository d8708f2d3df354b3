// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel kallsyms, decoded from the crashed kernel's memory.
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
 * The crashed kernel's memory may be garbage: every count and index read
 * from it is checked before it sizes an allocation or indexes an array.
 */
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "memory.h"
#include "message.h"
#include "vmcoreinfo.h"

/* Far above any real kernel (7.2 has about 200,000). */
#define MAX_SYMBOLS 4000000u
/* The kernel's KSYM_NAME_LEN, including the NUL. */
#define KSYM_NAME_LEN 512
#define NR_TOKENS 256
/* Bytes of token table read past the highest token index. */
#define MAX_TOKEN_LEN 256

struct kallsyms {
	uint32_t count;
	uint64_t *addrs;
	uint32_t *name_offsets;   /* into pool; the type letter is the byte before */
	char *pool;
	size_t pool_size;
	size_t pool_cap;
	uint32_t *hash;           /* open addressing, index + 1, 0 = empty */
	uint32_t hash_mask;
	/* Indices sorted by address, ties in table order; NULL when the table is sorted. */
	uint32_t *by_addr;
	enum kallsyms_encoding encoding;
};

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

static int read_or_report(struct memory *mem, uint64_t vaddr, void *buf, size_t len, const char *what)
{
	int err = mem_read_virt(mem, vaddr, buf, len);

	if (err)
		msg_error("cannot read %s (0x%zx bytes at 0x%llx): %s", what, len,
			  (unsigned long long)vaddr, mdf_strerror(err));
	return err;
}

static int find_tables(const struct vmcoreinfo *vi, struct kallsyms_tables *t)
{
	static const char *const required[] = { "kallsyms_num_syms", "kallsyms_names",
						"kallsyms_token_table", "kallsyms_token_index" };
	uint64_t *const slots[] = { &t->num_syms, &t->names, &t->token_table, &t->token_index };

	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		if (!vmcoreinfo_symbol(vi, required[i], slots[i])) {
			msg_error("VMCOREINFO has no SYMBOL(%s): cannot decode the kernel's kallsyms",
				  required[i]);
			return -ENOENT;
		}
	}
	t->has_offsets = vmcoreinfo_symbol(vi, "kallsyms_offsets", &t->offsets);
	t->has_relative_base = vmcoreinfo_symbol(vi, "kallsyms_relative_base", &t->relative_base);
	t->has_addresses = vmcoreinfo_symbol(vi, "kallsyms_addresses", &t->addresses);
	if (!t->has_offsets && !t->has_addresses) {
		msg_error("VMCOREINFO has neither SYMBOL(kallsyms_offsets) nor SYMBOL(kallsyms_addresses): "
			  "cannot find the kernel's symbol addresses");
		return -ENOENT;
	}
	return 0;
}

/* The token table, with each token's offset checked to be NUL-terminated. */
struct tokens {
	char *table;
	size_t table_len;
	uint16_t index[NR_TOKENS];
	uint16_t len[NR_TOKENS];
};

static int read_tokens(struct memory *mem, const struct kallsyms_tables *t, struct tokens *tok)
{
	size_t max_index = 0;
	int err;

	err = read_or_report(mem, t->token_index, tok->index, sizeof(tok->index), "kallsyms_token_index");
	if (err)
		return err;
	for (int i = 0; i < NR_TOKENS; i++)
		if (tok->index[i] > max_index)
			max_index = tok->index[i];
	tok->table_len = max_index + MAX_TOKEN_LEN;
	tok->table = malloc(tok->table_len);
	if (!tok->table)
		return -ENOMEM;
	/*
	 * The last token may sit near the end of a mapping: shrink the read
	 * to what is readable rather than fail on bytes no token uses.
	 */
	while (mem_read_virt(mem, t->token_table, tok->table, tok->table_len)) {
		if (tok->table_len <= max_index + 1) {
			return read_or_report(mem, t->token_table, tok->table, max_index + 1,
					      "kallsyms_token_table");
		}
		tok->table_len = max_index + 1 + (tok->table_len - max_index - 1) / 2;
	}
	for (int i = 0; i < NR_TOKENS; i++) {
		const char *end = memchr(tok->table + tok->index[i], '\0', tok->table_len - tok->index[i]);

		if (!end) {
			msg_error("kallsyms_token_table at 0x%llx: token %d (offset %u) is not terminated "
				  "within %zu bytes: corrupt kallsyms", (unsigned long long)t->token_table,
				  i, tok->index[i], tok->table_len);
			return -MDF_ECORRUPT;
		}
		tok->len[i] = (uint16_t)(end - (tok->table + tok->index[i]));
	}
	return 0;
}

/* Reads kallsyms_names a page at a time, as it is decoded. */
struct byte_stream {
	struct memory *mem;
	uint64_t addr;          /* address of buf[0] */
	unsigned char *buf;
	size_t len;
	size_t pos;
};

static int stream_refill(struct byte_stream *s)
{
	uint32_t page = mem_page_size(s->mem);
	uint64_t next = s->addr + s->len;
	size_t chunk = page - (next & (page - 1));
	int err = mem_read_virt(s->mem, next, s->buf, chunk);

	if (err) {
		msg_error("cannot read kallsyms_names at 0x%llx: %s", (unsigned long long)next,
			  mdf_strerror(err));
		return err;
	}
	s->addr = next;
	s->len = chunk;
	s->pos = 0;
	return 0;
}

static inline int stream_next(struct byte_stream *s, unsigned char *byte)
{
	if (s->pos == s->len) {
		int err = stream_refill(s);

		if (err)
			return err;
	}
	*byte = s->buf[s->pos++];
	return 0;
}

/* Makes room for one more decoded name at the end of the pool. */
static int pool_reserve(struct kallsyms *ks)
{
	size_t need = ks->pool_size + KSYM_NAME_LEN + MAX_TOKEN_LEN;
	size_t cap = ks->pool_cap ? ks->pool_cap : (size_t)ks->count * 16;
	char *grown;

	if (need <= ks->pool_cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (cap > UINT32_MAX)
		return -E2BIG;
	grown = realloc(ks->pool, cap);
	if (!grown)
		return -ENOMEM;
	ks->pool = grown;
	ks->pool_cap = cap;
	return 0;
}

/*
 * Decodes each name straight into the string pool, type letter first, and
 * NUL-terminates it; name_offsets[] point past the type letter.
 */
static int decode_names(struct kallsyms *ks, struct memory *mem, const struct kallsyms_tables *t,
			const struct tokens *tok)
{
	struct byte_stream s = { .mem = mem, .addr = t->names };
	int err = 0;

	s.buf = malloc(mem_page_size(mem));
	if (!s.buf)
		return -ENOMEM;
	for (uint32_t i = 0; i < ks->count; i++) {
		uint64_t entry_addr = s.addr + s.pos;
		unsigned char b;
		size_t len, out = 0;
		char *name;

		err = pool_reserve(ks);
		if (!err)
			err = stream_next(&s, &b);
		if (err)
			goto out;
		len = b;
		if (b & 0x80) {
			err = stream_next(&s, &b);
			if (err)
				goto out;
			len = (len & 0x7f) | ((size_t)b << 7);
		}
		if (len == 0 || len >= KSYM_NAME_LEN) {
			msg_error("kallsyms_names entry %u at 0x%llx has length %zu: corrupt kallsyms", i,
				  (unsigned long long)entry_addr, len);
			err = -MDF_ECORRUPT;
			goto out;
		}
		name = ks->pool + ks->pool_size;
		for (size_t j = 0; j < len; j++) {
			err = stream_next(&s, &b);
			if (err)
				goto out;
			if (out + tok->len[b] >= KSYM_NAME_LEN) {
				msg_error("kallsyms_names entry %u at 0x%llx decodes to more than %d characters: "
					  "corrupt kallsyms", i, (unsigned long long)entry_addr, KSYM_NAME_LEN - 1);
				err = -MDF_ECORRUPT;
				goto out;
			}
			/* Tokens are a few bytes: a plain loop beats a memcpy call. */
			for (const char *c = tok->table + tok->index[b]; *c; c++)
				name[out++] = *c;
		}
		if (out < 2) {
			msg_error("kallsyms_names entry %u at 0x%llx decodes to \"%.*s\": no type and name",
				  i, (unsigned long long)entry_addr, (int)out, name);
			err = -MDF_ECORRUPT;
			goto out;
		}
		name[out] = '\0';
		ks->name_offsets[i] = (uint32_t)(ks->pool_size + 1);
		ks->pool_size += out + 1;
	}
out:
	free(s.buf);
	return err;
}

static uint32_t hash_name(const char *name)
{
	uint32_t h = 2166136261u;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}

static int build_name_index(struct kallsyms *ks)
{
	uint32_t size = 1;

	while (size < ks->count * 2u)
		size <<= 1;
	ks->hash = calloc(size, sizeof(*ks->hash));
	if (!ks->hash)
		return -ENOMEM;
	ks->hash_mask = size - 1;
	for (uint32_t i = 0; i < ks->count; i++) {
		uint32_t slot = hash_name(ks->pool + ks->name_offsets[i]) & ks->hash_mask;

		while (ks->hash[slot])
			slot = (slot + 1) & ks->hash_mask;
		ks->hash[slot] = i + 1;
	}
	return 0;
}

static char symbol_type(const struct kallsyms *ks, uint32_t index)
{
	return ks->pool[ks->name_offsets[index] - 1];
}

static bool is_global(const struct kallsyms *ks, uint32_t index)
{
	char type = symbol_type(ks, index);

	return type >= 'A' && type <= 'Z';
}

/* The index of the preferred symbol of that name, or -1. */
static int64_t find_name(const struct kallsyms *ks, const char *name)
{
	uint32_t slot = hash_name(name) & ks->hash_mask;
	int64_t best = -1;

	for (; ks->hash[slot]; slot = (slot + 1) & ks->hash_mask) {
		uint32_t i = ks->hash[slot] - 1;

		if (strcmp(ks->pool + ks->name_offsets[i], name))
			continue;
		/* Probing meets duplicates in table order: keep the first global. */
		if (best < 0 || (!is_global(ks, (uint32_t)best) && is_global(ks, i)))
			best = i;
	}
	return best;
}

/* The raw address entries, as read from the dump. */
struct address_entries {
	int32_t *offsets;
	uint64_t *absolute;
};

static uint64_t decode_address(const struct kallsyms_tables *t, const struct address_entries *e,
			       enum kallsyms_encoding encoding, uint32_t i)
{
	switch (encoding) {
	case KALLSYMS_ABSOLUTE:
		return e->absolute[i];
	case KALLSYMS_ABS_PERCPU:
		if (e->offsets[i] >= 0)
			return (uint64_t)e->offsets[i];
		return t->relative_base - 1 - (int64_t)e->offsets[i];
	case KALLSYMS_BASE_RELATIVE:
		return t->relative_base + (uint32_t)e->offsets[i];
	case KALLSYMS_PLACE_RELATIVE:
		return t->offsets + (uint64_t)i * 4 + (int64_t)e->offsets[i];
	}
	return 0;
}

/*
 * Symbols whose VMCOREINFO value is their address (not, like mem_section,
 * the value stored there): a candidate encoding must agree with them.
 */
static const char *const witness_symbols[] = {
	"_stext", "init_uts_ns", "swapper_pg_dir", "init_top_pgt", "node_online_map", "prb",
	"kallsyms_names", "kallsyms_num_syms", "kallsyms_token_table", "kallsyms_token_index",
};

static int choose_encoding(struct kallsyms *ks, const struct vmcoreinfo *vi,
			   const struct kallsyms_tables *t, const struct address_entries *e)
{
	enum kallsyms_encoding candidates[4];
	size_t nr_candidates = 0;
	int best_score = 0, best = -1;
	uint64_t stext;
	bool has_stext = vmcoreinfo_symbol(vi, "_stext", &stext);

	if (t->has_addresses)
		candidates[nr_candidates++] = KALLSYMS_ABSOLUTE;
	if (t->has_offsets && t->has_relative_base) {
		candidates[nr_candidates++] = KALLSYMS_ABS_PERCPU;
		candidates[nr_candidates++] = KALLSYMS_BASE_RELATIVE;
	}
	if (t->has_offsets)
		candidates[nr_candidates++] = KALLSYMS_PLACE_RELATIVE;

	for (size_t c = 0; c < nr_candidates; c++) {
		int score = 0;
		bool stext_ok = !has_stext;

		for (size_t w = 0; w < sizeof(witness_symbols) / sizeof(witness_symbols[0]); w++) {
			uint64_t expected;
			int64_t index;

			if (!vmcoreinfo_symbol(vi, witness_symbols[w], &expected))
				continue;
			index = find_name(ks, witness_symbols[w]);
			if (index < 0 || decode_address(t, e, candidates[c], (uint32_t)index) != expected)
				continue;
			score++;
			if (!strcmp(witness_symbols[w], "_stext"))
				stext_ok = true;
		}
		if (stext_ok && score > best_score) {
			best_score = score;
			best = (int)candidates[c];
		}
	}
	if (best < 0) {
		if (has_stext)
			msg_error("no kallsyms address encoding puts _stext at SYMBOL(_stext)=%llx "
				  "(tried %zu): the kallsyms tables are corrupt or of an unknown kind",
				  (unsigned long long)stext, nr_candidates);
		else
			msg_error("no kallsyms address encoding agrees with any SYMBOL() line of VMCOREINFO");
		return -MDF_ECORRUPT;
	}
	ks->encoding = (enum kallsyms_encoding)best;
	msg_debug("kallsyms: %u symbols, %s addresses (%d VMCOREINFO symbols agree)", ks->count,
		  kallsyms_encoding_name(ks->encoding), best_score);
	return 0;
}

static int read_address_entries(struct memory *mem, const struct kallsyms_tables *t, uint32_t count,
				struct address_entries *e)
{
	int err;

	if (t->has_offsets) {
		e->offsets = malloc((size_t)count * sizeof(*e->offsets));
		if (!e->offsets)
			return -ENOMEM;
		err = read_or_report(mem, t->offsets, e->offsets, (size_t)count * sizeof(*e->offsets),
				     "kallsyms_offsets");
		if (err)
			return err;
	}
	if (t->has_addresses) {
		e->absolute = malloc((size_t)count * sizeof(*e->absolute));
		if (!e->absolute)
			return -ENOMEM;
		err = read_or_report(mem, t->addresses, e->absolute,
				     (size_t)count * sizeof(*e->absolute), "kallsyms_addresses");
		if (err)
			return err;
	}
	return 0;
}

static int compare_by_addr(const void *a, const void *b, void *ctx)
{
	const uint64_t *addrs = ctx;
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;

	if (addrs[ia] != addrs[ib])
		return addrs[ia] < addrs[ib] ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

static int build_addr_index(struct kallsyms *ks)
{
	uint32_t i;

	/* The kernel sorts its table by address; only a stranger one needs an index. */
	for (i = 1; i < ks->count && ks->addrs[i - 1] <= ks->addrs[i]; i++)
		;
	if (i == ks->count)
		return 0;
	ks->by_addr = malloc((size_t)ks->count * sizeof(*ks->by_addr));
	if (!ks->by_addr)
		return -ENOMEM;
	for (i = 0; i < ks->count; i++)
		ks->by_addr[i] = i;
	qsort_r(ks->by_addr, ks->count, sizeof(*ks->by_addr), compare_by_addr, ks->addrs);
	return 0;
}

/* The index of the symbol at position @rank in address order. */
static uint32_t by_addr(const struct kallsyms *ks, size_t rank)
{
	return ks->by_addr ? ks->by_addr[rank] : (uint32_t)rank;
}

int kallsyms_load_kernel(struct memory *mem, const struct vmcoreinfo *vi, struct kallsyms **out)
{
	struct kallsyms_tables t = { 0 };
	struct tokens tok = { 0 };
	struct address_entries entries = { 0 };
	struct kallsyms *ks;
	uint32_t count;
	int err;

	err = find_tables(vi, &t);
	if (err)
		return err;
	err = read_or_report(mem, t.num_syms, &count, sizeof(count), "kallsyms_num_syms");
	if (err)
		return err;
	if (count == 0 || count > MAX_SYMBOLS) {
		msg_error("kallsyms_num_syms at 0x%llx is %u, outside 1..%u: corrupt kallsyms",
			  (unsigned long long)t.num_syms, count, MAX_SYMBOLS);
		return -MDF_ECORRUPT;
	}
	if (t.has_relative_base) {
		err = read_or_report(mem, t.relative_base, &t.relative_base, sizeof(t.relative_base),
				     "kallsyms_relative_base");
		if (err)
			return err;
	}

	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	ks->count = count;
	ks->addrs = malloc((size_t)count * sizeof(*ks->addrs));
	ks->name_offsets = malloc((size_t)count * sizeof(*ks->name_offsets));
	if (!ks->addrs || !ks->name_offsets) {
		err = -ENOMEM;
		goto out;
	}
	err = read_tokens(mem, &t, &tok);
	if (!err)
		err = decode_names(ks, mem, &t, &tok);
	if (!err)
		err = build_name_index(ks);
	if (!err)
		err = read_address_entries(mem, &t, count, &entries);
	if (!err)
		err = choose_encoding(ks, vi, &t, &entries);
	if (err)
		goto out;
	for (uint32_t i = 0; i < count; i++)
		ks->addrs[i] = decode_address(&t, &entries, ks->encoding, i);
	err = build_addr_index(ks);
out:
	free(tok.table);
	free(entries.offsets);
	free(entries.absolute);
	if (err) {
		kallsyms_free(ks);
		return err;
	}
	*out = ks;
	return 0;
}

void kallsyms_free(struct kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->addrs);
	free(ks->name_offsets);
	free(ks->pool);
	free(ks->hash);
	free(ks->by_addr);
	free(ks);
}

size_t kallsyms_count(const struct kallsyms *ks)
{
	return ks->count;
}

void kallsyms_get(const struct kallsyms *ks, size_t index, struct ksym *sym)
{
	sym->addr = ks->addrs[index];
	sym->type = symbol_type(ks, (uint32_t)index);
	sym->name = ks->pool + ks->name_offsets[index];
}

bool kallsyms_lookup_name(const struct kallsyms *ks, const char *name, uint64_t *addr)
{
	int64_t index = find_name(ks, name);

	if (index < 0)
		return false;
	*addr = ks->addrs[index];
	return true;
}

bool kallsyms_lookup_addr(const struct kallsyms *ks, uint64_t addr, struct ksym *sym)
{
	size_t lo = 0, hi = ks->count;

	/* The first symbol above addr; the one before it is the answer. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->addrs[by_addr(ks, mid)] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return false;
	kallsyms_get(ks, by_addr(ks, lo - 1), sym);
	return true;
}

enum kallsyms_encoding kallsyms_get_encoding(const struct kallsyms *ks)
{
	return ks->encoding;
}

int kallsyms_write(const struct kallsyms *ks, FILE *out)
{
	for (uint32_t i = 0; i < ks->count; i++) {
		if (fprintf(out, "%016llx %c %s\n", (unsigned long long)ks->addrs[i], symbol_type(ks, i),
			    ks->pool + ks->name_offsets[i]) < 0)
			return -errno;
	}
	return 0;
}
