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
 * Module symbols are not in these tables: each struct module on the
 * kernel's modules list points (module.kallsyms) to a struct mod_kallsyms
 * of its own, with the module's ELF symbol table (symtab, num_symtab), its
 * string table (strtab) and one type letter per symbol (typetab, set at
 * load time as nm would print it, in lower case).  /proc/kallsyms prints
 * a module's symbols in symtab order, skips unnamed ones and upper-cases
 * the letter of each symbol the module exports: one listed in module.syms
 * (kernel/module/kallsyms.c, is_exported).  Kernels without the export
 * flags table (module.flagstab, 6.1 among them) keep GPL-only exports
 * apart, in module.gpl_syms, so those print in lower case there; kernels
 * with it (7.2) list every export in syms.  Once a module is live,
 * module.kallsyms points to module.core_kallsyms, the symbols kept after
 * init; while its init runs, to the full table in its init memory.
 *
 * The crashed kernel's memory may be garbage: every count and index read
 * from it is checked before it sizes an allocation or indexes an array.
 */
#include <ctype.h>
#include <elf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/vmcoreinfo.h"
#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/list.h"
#include "memory/reader.h"
#include "util/message.h"

/* Far above any real kernel (7.2 has about 200,000) or module (amdgpu: 52,000). */
#define MAX_SYMBOLS 4000000u
/* Kernel and module symbols together. */
#define MAX_ALL_SYMBOLS 16000000u
/* Far above any real system; a longer modules list is corrupt. */
#define MAX_MODULES 16384
/* A module's string table: amdgpu's is about 2 MiB. */
#define MAX_MODULE_STRTAB (64u << 20)
/* struct module is a few KiB, struct mod_kallsyms and kernel_symbol a few words. */
#define MAX_STRUCT_SIZE 65536
#define MAX_SMALL_STRUCT_SIZE 256
/* struct module.name is char[MODULE_NAME_LEN], 56 bytes on 64-bit kernels. */
#define MODULE_NAME_MAX 64
/* The kernel's KSYM_NAME_LEN, including the NUL. */
#define KSYM_NAME_LEN 512
#define NR_TOKENS 256
/* Bytes of token table read past the highest token index. */
#define MAX_TOKEN_LEN 256

/* A module's symbols are [first, end) of the table. */
struct kallsyms_module {
	uint32_t name_offset;     /* into pool */
	uint32_t first;
	uint32_t end;
};

struct kallsyms {
	uint32_t count;
	uint32_t kernel_count;    /* the kernel's symbols come first */
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
	struct kallsyms_module *modules;
	uint32_t nr_modules;
	bool modules_loaded;
	/* Set for a table opened by kallsyms_open_lazy(): see struct lazy_names. */
	struct lazy_names *lazy;
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

/*
 * Reads *@len bytes at @addr or, when the end of them is not readable (a
 * table near the end of a mapping), the longest prefix of at least @min
 * bytes that is, halving the unreadable part: rather than fail on bytes
 * that are only read because the table's exact end is unknown.  *@len
 * becomes what was read.
 */
static int read_prefix(struct memory *mem, uint64_t addr, void *buf, size_t min, size_t *len)
{
	int err;

	while ((err = mem_read_virt(mem, addr, buf, *len)) && *len > min)
		*len = min + (*len - min) / 2;
	return err;
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

static int find_tables(const struct vmcoreinfo *vi, struct kallsyms_tables *t)
{
	const char *const *required = required_tables;
	uint64_t *const slots[] = { &t->num_syms, &t->names, &t->token_table, &t->token_index };

	for (size_t i = 0; i < sizeof(required_tables) / sizeof(required_tables[0]); i++) {
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
	/* The last token may sit near the end of a mapping. */
	err = read_prefix(mem, t->token_table, tok->table, max_index + 1, &tok->table_len);
	if (err) {
		msg_error("cannot read kallsyms_token_table (0x%zx bytes at 0x%llx): %s", tok->table_len,
			  (unsigned long long)t->token_table, mdf_strerror(err));
		return err;
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

/*
 * Reads kallsyms_names a buffer at a time, as it is decoded: STREAM_PAGES
 * pages, or, where the table's last page ends a mapping, up to the end of
 * the page.
 */
#define STREAM_PAGES 16
struct byte_stream {
	struct memory *mem;
	uint64_t addr;          /* address of buf[0] */
	unsigned char *buf;     /* STREAM_PAGES pages */
	size_t len;
	size_t pos;
};

static int stream_refill(struct byte_stream *s)
{
	uint32_t page = mem_page_size(s->mem);
	uint64_t next = s->addr + s->len;
	size_t chunk = (size_t)page * STREAM_PAGES - (next & (page - 1));
	int err = mem_read_virt(s->mem, next, s->buf, chunk);

	if (err) {
		chunk = page - (next & (page - 1));
		err = mem_read_virt(s->mem, next, s->buf, chunk);
	}

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

/* Takes the next @len bytes: into @buf, or past them when @buf is NULL. */
static int stream_read(struct byte_stream *s, unsigned char *buf, size_t len)
{
	while (len) {
		size_t chunk;

		if (s->pos == s->len) {
			int err = stream_refill(s);

			if (err)
				return err;
		}
		chunk = s->len - s->pos < len ? s->len - s->pos : len;
		if (buf) {
			memcpy(buf, s->buf + s->pos, chunk);
			buf += chunk;
		}
		s->pos += chunk;
		len -= chunk;
	}
	return 0;
}

/* An entry's length: one byte, or two when the first has its top bit set (kernels >= 6.1). */
static int read_entry_length(struct byte_stream *s, uint32_t i, size_t *len)
{
	uint64_t entry_addr = s->addr + s->pos;
	unsigned char b;
	int err = stream_next(s, &b);

	if (err)
		return err;
	*len = b;
	if (b & 0x80) {
		err = stream_next(s, &b);
		if (err)
			return err;
		*len = (*len & 0x7f) | ((size_t)b << 7);
	}
	if (*len == 0 || *len >= KSYM_NAME_LEN) {
		msg_error("kallsyms_names entry %u at 0x%llx has length %zu: corrupt kallsyms", i,
			  (unsigned long long)entry_addr, *len);
		return -MDF_ECORRUPT;
	}
	return 0;
}

/*
 * Makes room for @extra more bytes at the end of the pool.  The first
 * guess is generous (kernel names average under 30 bytes): the pages of
 * an allocation never written to take no memory.
 */
static int pool_reserve_bytes(struct kallsyms *ks, size_t extra)
{
	size_t need = ks->pool_size + extra;
	size_t cap = ks->pool_cap ? ks->pool_cap : (size_t)ks->count * 32;
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

/* Makes room for one more name, decoded or copied, and its type letter. */
static int pool_reserve(struct kallsyms *ks)
{
	return pool_reserve_bytes(ks, KSYM_NAME_LEN + MAX_TOKEN_LEN);
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

	s.buf = malloc((size_t)mem_page_size(mem) * STREAM_PAGES);
	if (!s.buf)
		return -ENOMEM;
	for (uint32_t i = 0; i < ks->count; i++) {
		uint64_t entry_addr = s.addr + s.pos;
		unsigned char b;
		size_t len, out = 0;
		char *name;

		err = pool_reserve(ks);
		if (!err)
			err = read_entry_length(&s, i, &len);
		if (err)
			goto out;
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

static void hash_insert(uint32_t *hash, uint32_t mask, const char *name, uint32_t index)
{
	uint32_t slot = hash_name(name) & mask;

	while (hash[slot])
		slot = (slot + 1) & mask;
	hash[slot] = index + 1;
}

/*
 * Adds symbols [first, count) to the name hash, rebuilt larger when it
 * would be more than 3/4 full.  Linear probing keeps the symbols of one
 * name in table order along their chain, which find_name relies on.  On
 * failure the hash still covers [0, first).
 */
static int index_names(struct kallsyms *ks, uint32_t first)
{
	uint64_t size = ks->hash ? (uint64_t)ks->hash_mask + 1 : 0;
	uint32_t *hash;

	if ((uint64_t)ks->count * 4 <= size * 3) {
		for (uint32_t i = first; i < ks->count; i++)
			hash_insert(ks->hash, ks->hash_mask, ks->pool + ks->name_offsets[i], i);
		return 0;
	}
	for (size = 1; size < (uint64_t)ks->count * 2; size <<= 1)
		;
	hash = calloc(size, sizeof(*hash));
	if (!hash)
		return -ENOMEM;
	for (uint32_t i = 0; i < ks->count; i++)
		hash_insert(hash, (uint32_t)(size - 1), ks->pool + ks->name_offsets[i], i);
	free(ks->hash);
	ks->hash = hash;
	ks->hash_mask = (uint32_t)(size - 1);
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

/*
 * The index of the preferred symbol of that name among [first, end), or
 * -1.  Undefined symbols (a module's imports, while its init runs) name no
 * address of their own.
 */
static int64_t find_name(const struct kallsyms *ks, const char *name, uint32_t first, uint32_t end)
{
	uint32_t slot = hash_name(name) & ks->hash_mask;
	int64_t best = -1;

	for (; ks->hash[slot]; slot = (slot + 1) & ks->hash_mask) {
		uint32_t i = ks->hash[slot] - 1;

		if (i < first || i >= end || toupper((unsigned char)symbol_type(ks, i)) == 'U' ||
		    strcmp(ks->pool + ks->name_offsets[i], name))
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

/* One symbol's entry: of kallsyms_offsets, of kallsyms_addresses, or both. */
struct raw_address {
	int32_t offset;
	uint64_t absolute;
};

static struct raw_address raw_entry(const struct address_entries *e, uint32_t i)
{
	return (struct raw_address){ .offset = e->offsets ? e->offsets[i] : 0,
				     .absolute = e->absolute ? e->absolute[i] : 0 };
}

static uint64_t decode_address(const struct kallsyms_tables *t, enum kallsyms_encoding encoding, uint32_t i,
			       struct raw_address raw)
{
	switch (encoding) {
	case KALLSYMS_ABSOLUTE:
		return raw.absolute;
	case KALLSYMS_ABS_PERCPU:
		if (raw.offset >= 0)
			return (uint64_t)raw.offset;
		return t->relative_base - 1 - (int64_t)raw.offset;
	case KALLSYMS_BASE_RELATIVE:
		return t->relative_base + (uint32_t)raw.offset;
	case KALLSYMS_PLACE_RELATIVE:
		return t->offsets + (uint64_t)i * 4 + (int64_t)raw.offset;
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
#define NR_WITNESSES (sizeof(witness_symbols) / sizeof(witness_symbols[0]))

/* A witness VMCOREINFO names, and its symbol's entry when kallsyms has one. */
struct witness {
	const char *name;
	uint64_t expected;
	bool found;
	uint32_t index;
	struct raw_address raw;
};

/* The witnesses VMCOREINFO names: their entries are for the caller to fill. */
static size_t list_witnesses(const struct vmcoreinfo *vi, struct witness *w)
{
	size_t nr = 0;

	for (size_t i = 0; i < NR_WITNESSES; i++) {
		uint64_t expected;

		if (vmcoreinfo_symbol(vi, witness_symbols[i], &expected))
			w[nr++] = (struct witness){ .name = witness_symbols[i], .expected = expected };
	}
	return nr;
}

static int choose_encoding(struct kallsyms *ks, const struct vmcoreinfo *vi, uint32_t count,
			   const struct kallsyms_tables *t, const struct witness *w, size_t nr)
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

		for (size_t i = 0; i < nr; i++) {
			if (!w[i].found || decode_address(t, candidates[c], w[i].index, w[i].raw) != w[i].expected)
				continue;
			score++;
			if (!strcmp(w[i].name, "_stext"))
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
	msg_debug("kallsyms: %u symbols, %s addresses (%d VMCOREINFO symbols agree)", count,
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

/* The index of the symbol at position @rank in address order. */
static uint32_t by_addr(const struct kallsyms *ks, size_t rank)
{
	return ks->by_addr ? ks->by_addr[rank] : (uint32_t)rank;
}

/*
 * Puts symbols [first, count) into the address order, which already holds
 * [0, first): sorted among themselves, then merged, ties in table order.
 * The kernel sorts its own table, so a table in order needs no index at
 * all.  On failure the order still covers [0, first).
 */
static int index_addrs(struct kallsyms *ks, uint32_t first)
{
	uint32_t n = ks->count - first, *tail, *order, h = 0, t = 0, o = 0;
	bool tail_sorted = true;

	for (uint32_t i = first + 1; i < ks->count && tail_sorted; i++)
		tail_sorted = ks->addrs[i - 1] <= ks->addrs[i];
	if (tail_sorted && !ks->by_addr && (first == 0 || n == 0 || ks->addrs[first - 1] <= ks->addrs[first]))
		return 0;
	tail = malloc((size_t)n * sizeof(*tail));
	order = malloc((size_t)ks->count * sizeof(*order));
	if (!tail || !order) {
		free(tail);
		free(order);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		tail[i] = first + i;
	if (!tail_sorted)
		qsort_r(tail, n, sizeof(*tail), compare_by_addr, ks->addrs);
	while (h < first || t < n) {
		if (t == n || (h < first && ks->addrs[by_addr(ks, h)] <= ks->addrs[tail[t]]))
			order[o++] = by_addr(ks, h++);
		else
			order[o++] = tail[t++];
	}
	free(tail);
	free(ks->by_addr);
	ks->by_addr = order;
	return 0;
}

/* The tables' addresses, their symbol count and relative base: what both ways of opening them need. */
static int open_tables(struct memory *mem, const struct vmcoreinfo *vi, struct kallsyms_tables *t,
		       uint32_t *count)
{
	int err = find_tables(vi, t);

	if (err)
		return err;
	err = read_or_report(mem, t->num_syms, count, sizeof(*count), "kallsyms_num_syms");
	if (err)
		return err;
	if (*count == 0 || *count > MAX_SYMBOLS) {
		msg_error("kallsyms_num_syms at 0x%llx is %u, outside 1..%u: corrupt kallsyms",
			  (unsigned long long)t->num_syms, *count, MAX_SYMBOLS);
		return -MDF_ECORRUPT;
	}
	if (t->has_relative_base)
		err = read_or_report(mem, t->relative_base, &t->relative_base, sizeof(t->relative_base),
				     "kallsyms_relative_base");
	return err;
}

int kallsyms_load_kernel(struct memory *mem, const struct vmcoreinfo *vi, struct kallsyms **out)
{
	struct kallsyms_tables t = { 0 };
	struct tokens tok = { 0 };
	struct address_entries entries = { 0 };
	struct witness witnesses[NR_WITNESSES];
	size_t nr_witnesses = list_witnesses(vi, witnesses);
	struct kallsyms *ks;
	uint32_t count;
	int err;

	err = open_tables(mem, vi, &t, &count);
	if (err)
		return err;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	ks->count = count;
	ks->kernel_count = count;
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
		err = index_names(ks, 0);
	if (!err)
		err = read_address_entries(mem, &t, count, &entries);
	for (size_t i = 0; !err && i < nr_witnesses; i++) {
		int64_t index = find_name(ks, witnesses[i].name, 0, count);

		witnesses[i].found = index >= 0;
		if (index >= 0) {
			witnesses[i].index = (uint32_t)index;
			witnesses[i].raw = raw_entry(&entries, (uint32_t)index);
		}
	}
	if (!err)
		err = choose_encoding(ks, vi, count, &t, witnesses, nr_witnesses);
	if (err)
		goto out;
	for (uint32_t i = 0; i < count; i++)
		ks->addrs[i] = decode_address(&t, ks->encoding, i, raw_entry(&entries, i));
	err = index_addrs(ks, 0);
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

/* A field of a kernel struct, from vmlinux's BTF. */
struct kfield {
	uint64_t offset;
	uint64_t size;
};

/* What reading module symbols needs of struct module, mod_kallsyms and kernel_symbol. */
struct module_layout {
	uint64_t module_size;
	struct kfield list, name, state, kallsyms, syms, num_syms;
	uint64_t mod_kallsyms_size;
	struct kfield symtab, num_symtab, strtab, typetab;
	uint64_t ksym_size;
	struct kfield ksym_value, ksym_name;
	/* kernel_symbol holds int offsets from each field's own address (PREL32) */
	bool ksym_relative;
	int64_t state_unformed;
};

/* One export of a module: what is_exported compares. */
struct module_export {
	uint64_t value;
	uint64_t name_addr;
};

/* One module's tables, as read from the dump. */
struct module_tables {
	Elf64_Sym *symtab;
	char *typetab;
	char *strtab;
	size_t strtab_len;
	uint32_t num_symtab;
	struct module_export *exports;
	uint32_t nr_exports;
};

struct module_reader {
	struct kallsyms *ks;
	struct memory *mem;
	struct module_layout l;
	unsigned char *module;    /* the struct module being read */
	uint64_t addr;            /* its address */
	char name[MODULE_NAME_MAX];
	bool warned_export_name;
};

static int layout_lookup(struct btf_info *btf, const char *path, struct btf_info_result *r)
{
	int err = btf_info_lookup(btf, "vmlinux", path, r);

	if (err == -ENOENT)
		msg_error("vmlinux BTF has no %s: cannot read module symbols", path);
	return err;
}

static int layout_struct(struct btf_info *btf, const char *name, int64_t max_size, uint64_t *size)
{
	struct btf_info_result r;
	int err = layout_lookup(btf, name, &r);

	if (err)
		return err;
	if (r.size < 1 || r.size > max_size) {
		msg_error("vmlinux BTF says struct %s has %" PRId64 " bytes, not 1..%" PRId64, name, r.size,
			  max_size);
		return -MDF_ECORRUPT;
	}
	*size = (uint64_t)r.size;
	return 0;
}

/* A member that must lie inside its struct; scalars of 1, 2, 4 or 8 bytes unless @any_size. */
static int layout_field(struct btf_info *btf, const char *path, uint64_t struct_size, bool any_size,
			struct kfield *f)
{
	struct btf_info_result r;
	int err = layout_lookup(btf, path, &r);

	if (err)
		return err;
	f->offset = r.bit_offset / 8;
	f->size = (uint64_t)r.size;
	if (r.bitfield_size || f->offset + f->size > struct_size ||
	    (!any_size && f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)) {
		msg_error("vmlinux BTF places %s at byte %" PRIu64 " with %" PRIu64 " bytes%s: not a field "
			  "module symbols can be read through", path, f->offset, f->size,
			  r.bitfield_size ? " in a bitfield" : "");
		return -MDF_ECORRUPT;
	}
	return 0;
}

static int read_module_layout(struct btf_info *btf, struct module_layout *l)
{
	struct btf_info_result r;
	int err;

	err = layout_struct(btf, "module", MAX_STRUCT_SIZE, &l->module_size);
	if (!err)
		err = layout_struct(btf, "mod_kallsyms", MAX_SMALL_STRUCT_SIZE, &l->mod_kallsyms_size);
	if (!err)
		err = layout_struct(btf, "kernel_symbol", MAX_SMALL_STRUCT_SIZE, &l->ksym_size);
	if (!err)
		err = layout_field(btf, "module.list", l->module_size, true, &l->list);
	if (!err)
		err = layout_field(btf, "module.name", l->module_size, true, &l->name);
	if (!err)
		err = layout_field(btf, "module.state", l->module_size, false, &l->state);
	if (!err)
		err = layout_field(btf, "module.kallsyms", l->module_size, false, &l->kallsyms);
	if (!err)
		err = layout_field(btf, "module.syms", l->module_size, false, &l->syms);
	if (!err)
		err = layout_field(btf, "module.num_syms", l->module_size, false, &l->num_syms);
	if (!err)
		err = layout_field(btf, "mod_kallsyms.symtab", l->mod_kallsyms_size, false, &l->symtab);
	if (!err)
		err = layout_field(btf, "mod_kallsyms.num_symtab", l->mod_kallsyms_size, false,
				   &l->num_symtab);
	if (!err)
		err = layout_field(btf, "mod_kallsyms.strtab", l->mod_kallsyms_size, false, &l->strtab);
	if (!err)
		err = layout_field(btf, "mod_kallsyms.typetab", l->mod_kallsyms_size, false, &l->typetab);
	if (err)
		return err;
	/* With PREL32 relocations (x86_64, arm64) the fields are offsets; else addresses. */
	l->ksym_relative = !btf_info_lookup(btf, "vmlinux", "kernel_symbol.value_offset", &r);
	err = layout_field(btf, l->ksym_relative ? "kernel_symbol.value_offset" : "kernel_symbol.value",
			   l->ksym_size, false, &l->ksym_value);
	if (!err)
		err = layout_field(btf, l->ksym_relative ? "kernel_symbol.name_offset" : "kernel_symbol.name",
				   l->ksym_size, false, &l->ksym_name);
	if (!err)
		err = layout_lookup(btf, "module_state.MODULE_STATE_UNFORMED", &r);
	if (err)
		return err;
	l->state_unformed = r.value;
	if (l->name.size < 2 || l->name.size > MODULE_NAME_MAX || l->list.size != 16) {
		msg_error("vmlinux BTF gives struct module a name of %" PRIu64 " bytes and a list of %" PRIu64
			  ": not a layout module symbols can be read through", l->name.size, l->list.size);
		return -MDF_ECORRUPT;
	}
	return 0;
}

/* A field of a struct read from the dump, little-endian as the kernel's. */
static uint64_t field_value(const unsigned char *base, const struct kfield *f)
{
	uint64_t value = 0;

	memcpy(&value, base + f->offset, f->size);
	return value;
}

static void free_tables(struct module_tables *t)
{
	free(t->symtab);
	free(t->typetab);
	free(t->strtab);
	free(t->exports);
}

/* Reports what is wrong with this module; its symbols are then left out. */
static int module_problem(const struct module_reader *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int module_problem(const struct module_reader *r, int err, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	msg_warn("module %s (struct module at 0x%" PRIx64 "): %s: its symbols are not listed", r->name,
		 r->addr, what);
	return err;
}

static int compare_exports(const void *a, const void *b)
{
	const struct module_export *ea = a, *eb = b;

	return ea->value < eb->value ? -1 : ea->value > eb->value;
}

/* The module's exports (module.syms), sorted by value for is_exported. */
static int read_exports(struct module_reader *r, struct module_tables *t)
{
	const struct module_layout *l = &r->l;
	uint64_t syms = field_value(r->module, &l->syms);
	uint64_t num_syms = field_value(r->module, &l->num_syms);
	unsigned char *raw;
	int err;

	if (num_syms == 0)
		return 0;
	if (num_syms > MAX_SYMBOLS)
		return module_problem(r, -MDF_ECORRUPT, "num_syms is %" PRIu64 ", above %u", num_syms,
				      MAX_SYMBOLS);
	raw = malloc(num_syms * l->ksym_size);
	t->exports = malloc(num_syms * sizeof(*t->exports));
	if (!raw || !t->exports) {
		free(raw);
		return -ENOMEM;
	}
	err = mem_read_virt(r->mem, syms, raw, num_syms * l->ksym_size);
	if (err) {
		free(raw);
		return module_problem(r, err, "cannot read its %" PRIu64 " exports at 0x%" PRIx64 " (%s)",
				      num_syms, syms, mdf_strerror(err));
	}
	for (uint64_t i = 0; i < num_syms; i++) {
		const unsigned char *entry = raw + i * l->ksym_size;
		uint64_t value = field_value(entry, &l->ksym_value), name = field_value(entry, &l->ksym_name);
		uint64_t entry_addr = syms + i * l->ksym_size;

		if (l->ksym_relative) {
			value = entry_addr + l->ksym_value.offset + (uint64_t)(int64_t)(int32_t)value;
			name = entry_addr + l->ksym_name.offset + (uint64_t)(int64_t)(int32_t)name;
		}
		t->exports[i] = (struct module_export){ .value = value, .name_addr = name };
	}
	free(raw);
	t->nr_exports = (uint32_t)num_syms;
	qsort(t->exports, t->nr_exports, sizeof(*t->exports), compare_exports);
	return 0;
}

/* The kernel's is_exported: an export of this name at this value. */
static bool is_exported(struct module_reader *r, const struct module_tables *t, const char *name, size_t len,
			uint64_t value)
{
	uint32_t lo = 0, hi = t->nr_exports;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->exports[mid].value < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->nr_exports && t->exports[lo].value == value; lo++) {
		char export_name[KSYM_NAME_LEN];
		int err = mem_read_virt(r->mem, t->exports[lo].name_addr, export_name, len + 1);

		if (err) {
			if (!r->warned_export_name)
				msg_warn("module %s: the name of an export at 0x%" PRIx64 " is unreadable "
					 "(%s): symbols there are listed as not exported", r->name,
					 t->exports[lo].name_addr, mdf_strerror(err));
			r->warned_export_name = true;
			continue;
		}
		if (!memcmp(export_name, name, len) && export_name[len] == '\0')
			return true;
	}
	return false;
}

/* Reads the symbol table, types and strings module.kallsyms points to. */
static int read_tables(struct module_reader *r, struct module_tables *t)
{
	const struct module_layout *l = &r->l;
	uint64_t kallsyms = field_value(r->module, &l->kallsyms), symtab, strtab, typetab, max_name = 0;
	unsigned char mod_kallsyms[MAX_SMALL_STRUCT_SIZE];
	int err;

	err = mem_read_virt(r->mem, kallsyms, mod_kallsyms, l->mod_kallsyms_size);
	if (err)
		return module_problem(r, err, "cannot read its struct mod_kallsyms at 0x%" PRIx64 " (%s)",
				      kallsyms, mdf_strerror(err));
	symtab = field_value(mod_kallsyms, &l->symtab);
	strtab = field_value(mod_kallsyms, &l->strtab);
	typetab = field_value(mod_kallsyms, &l->typetab);
	if (field_value(mod_kallsyms, &l->num_symtab) > MAX_SYMBOLS)
		return module_problem(r, -MDF_ECORRUPT, "num_symtab at 0x%" PRIx64 " is %" PRIu64
				      ", above %u", kallsyms + l->num_symtab.offset,
				      field_value(mod_kallsyms, &l->num_symtab), MAX_SYMBOLS);
	t->num_symtab = (uint32_t)field_value(mod_kallsyms, &l->num_symtab);
	if (t->num_symtab == 0)
		return 0;
	t->symtab = malloc((size_t)t->num_symtab * sizeof(*t->symtab));
	t->typetab = malloc(t->num_symtab);
	if (!t->symtab || !t->typetab)
		return -ENOMEM;
	err = mem_read_virt(r->mem, symtab, t->symtab, (size_t)t->num_symtab * sizeof(*t->symtab));
	if (err)
		return module_problem(r, err, "cannot read its %" PRIu32 " symbols at 0x%" PRIx64 " (%s)",
				      t->num_symtab, symtab, mdf_strerror(err));
	err = mem_read_virt(r->mem, typetab, t->typetab, t->num_symtab);
	if (err)
		return module_problem(r, err, "cannot read its symbol types at 0x%" PRIx64 " (%s)", typetab,
				      mdf_strerror(err));
	/* The string table's size is not kept: read up to the last name's end. */
	for (uint32_t i = 0; i < t->num_symtab; i++)
		if (t->symtab[i].st_name > max_name)
			max_name = t->symtab[i].st_name;
	if (max_name >= MAX_MODULE_STRTAB)
		return module_problem(r, -MDF_ECORRUPT, "a symbol's name is at offset %" PRIu64
				      " of its string table, beyond %u MiB", max_name,
				      MAX_MODULE_STRTAB >> 20);
	t->strtab_len = max_name + KSYM_NAME_LEN;
	t->strtab = malloc(t->strtab_len);
	if (!t->strtab)
		return -ENOMEM;
	err = read_prefix(r->mem, strtab, t->strtab, max_name + 1, &t->strtab_len);
	if (err)
		return module_problem(r, err, "cannot read its string table at 0x%" PRIx64 " (%s)", strtab,
				      mdf_strerror(err));
	return read_exports(r, t);
}

/* Appends the module's named symbols; on failure the table is as before. */
static int append_symbols(struct module_reader *r, const struct module_tables *t)
{
	struct kallsyms *ks = r->ks;
	uint32_t first = ks->count;
	size_t pool_start = ks->pool_size;
	struct kallsyms_module *module;
	uint64_t *addrs;
	uint32_t *name_offsets;
	int err = 0;

	if ((uint64_t)ks->count + t->num_symtab > MAX_ALL_SYMBOLS)
		return module_problem(r, -E2BIG, "more than %u symbols with the modules before it",
				      MAX_ALL_SYMBOLS);
	addrs = realloc(ks->addrs, ((size_t)ks->count + t->num_symtab) * sizeof(*addrs));
	if (addrs)
		ks->addrs = addrs;
	name_offsets = realloc(ks->name_offsets, ((size_t)ks->count + t->num_symtab) * sizeof(*name_offsets));
	if (name_offsets)
		ks->name_offsets = name_offsets;
	module = realloc(ks->modules, (ks->nr_modules + 1) * sizeof(*module));
	if (module)
		ks->modules = module;
	if (!addrs || !name_offsets || !module)
		return -ENOMEM;
	/*
	 * Room for the module's names at once (a type letter, the string
	 * table, NULs) rather than growing the pool name by name.  Names may
	 * share strings, so each still makes sure of its own room.
	 */
	err = pool_reserve_bytes(ks, t->strtab_len + 2 * (size_t)t->num_symtab + KSYM_NAME_LEN +
					     MAX_TOKEN_LEN);
	for (uint32_t i = 0; i < t->num_symtab && !err; i++) {
		const char *name = t->strtab + t->symtab[i].st_name, *end;
		size_t avail = t->strtab_len - t->symtab[i].st_name, len;
		char type = t->typetab[i];

		if (!*name)
			continue;
		/* /proc/kallsyms shows at most KSYM_NAME_LEN - 1 characters of a name. */
		end = memchr(name, '\0', avail < KSYM_NAME_LEN ? avail : KSYM_NAME_LEN);
		if (!end && avail < KSYM_NAME_LEN) {
			err = module_problem(r, -MDF_ECORRUPT, "the name of symbol %" PRIu32 " runs past the "
					     "readable end of its string table", i);
			break;
		}
		len = end ? (size_t)(end - name) : KSYM_NAME_LEN - 1;
		if (is_exported(r, t, name, len, t->symtab[i].st_value))
			type = (char)toupper((unsigned char)type);
		else
			type = (char)tolower((unsigned char)type);
		err = pool_reserve(ks);
		if (err)
			break;
		ks->pool[ks->pool_size] = type;
		memcpy(ks->pool + ks->pool_size + 1, name, len);
		ks->pool[ks->pool_size + 1 + len] = '\0';
		ks->name_offsets[ks->count] = (uint32_t)(ks->pool_size + 1);
		ks->addrs[ks->count++] = t->symtab[i].st_value;
		ks->pool_size += len + 2;
	}
	if (!err)
		err = pool_reserve(ks);
	if (err) {
		ks->count = first;
		ks->pool_size = pool_start;
		return err;
	}
	/* The module's name joins the pool after its symbols. */
	strcpy(ks->pool + ks->pool_size, r->name);
	ks->modules[ks->nr_modules++] = (struct kallsyms_module){
		.name_offset = (uint32_t)ks->pool_size, .first = first, .end = ks->count };
	ks->pool_size += strlen(r->name) + 1;
	return 0;
}

/*
 * Reads the struct module at r->addr and its name.  *@formed is false for
 * a module still being set up: the kernel lists no symbols of it, nor do we.
 */
static int read_module_head(struct module_reader *r, bool *formed)
{
	int err = mem_read_virt(r->mem, r->addr, r->module, r->l.module_size);

	if (err) {
		snprintf(r->name, sizeof(r->name), "?");
		return module_problem(r, err, "unreadable (%s)", mdf_strerror(err));
	}
	memcpy(r->name, r->module + r->l.name.offset, r->l.name.size);
	if (!memchr(r->name, '\0', r->l.name.size) || !r->name[0]) {
		snprintf(r->name, sizeof(r->name), "?");
		return module_problem(r, -MDF_ECORRUPT, "its name is empty or not terminated");
	}
	*formed = (int64_t)field_value(r->module, &r->l.state) != r->l.state_unformed;
	return 0;
}

/* One struct module of the list: its symbols, unless it is not formed yet. */
static int read_module(struct module_reader *r)
{
	struct module_tables t = { 0 };
	bool formed = false;
	int err = read_module_head(r, &formed);

	if (err || !formed)
		return err;
	err = read_tables(r, &t);
	if (!err)
		err = append_symbols(r, &t);
	free_tables(&t);
	return err;
}

/* ---- lookups by name without decoding the tables ---- */

/* Names asked more than once (__start_BTF, init_task) are scanned for once. */
#define LAZY_MEMO_SLOTS 64
/*
 * The most names one pass looks for (a bit each in a uint32_t): the
 * witnesses with the names the opener expects and "modules", or one
 * asked name.
 */
#define MAX_SCAN_NAMES 32
_Static_assert(NR_WITNESSES + 1 + KALLSYMS_MAX_EXPECTED <= MAX_SCAN_NAMES,
	       "the opening pass finds the witnesses and the expected names");

struct lazy_answer {
	char *module;             /* "vmlinux": the kernel's table alone; NULL: the first module's */
	char *name;
	bool found;
	uint64_t addr;
};

/*
 * What a table opened by kallsyms_open_lazy() keeps instead of decoded
 * names: where the tables are, the token table and the address encoding.
 * Each name asked is found in one pass over kallsyms_names that expands a
 * symbol's tokens only while they still spell the start of that name: a
 * process asking a dozen names (an extension's child) reads the compressed
 * names a dozen times rather than decode, hash and sort all of them (a
 * few megabytes of memory, the bulk of the time).  Module symbols are
 * read the same way, module by module, from the tables module.kallsyms
 * points to.
 */
struct lazy_names {
	struct memory *mem;
	struct kallsyms_tables t;
	struct tokens tok;
	uint32_t count;
	bool modules_ready;       /* kallsyms_load_modules() found the list and its layout */
	uint64_t modules_head;
	struct module_layout layout;
	struct lazy_answer memo[LAZY_MEMO_SLOTS];
	size_t nr_memo;
};

/* Whether a type letter marks an undefined symbol, which names no address of its own. */
static bool is_undefined(char type)
{
	return type == 'U' || type == 'u';
}

/* Prefers, among symbols of one name, the first global one, as find_name() does. */
static bool better_match(int64_t best, char best_type, char type)
{
	return best < 0 || (!isupper((unsigned char)best_type) && isupper((unsigned char)type));
}

/*
 * A name's key: the first KEY_CHARS characters of the name proper (after
 * the type letter), a byte each in a word, zeros past a shorter name's end.
 */
#define KEY_CHARS 4
#define KEY_FILTER_BITS 12

static uint32_t name_key(const char *name)
{
	uint32_t key = 0;

	for (size_t i = 0; i < KEY_CHARS && name[i]; i++)
		key |= (uint32_t)(unsigned char)name[i] << (8 * i);
	return key;
}

static uint32_t key_slot(uint32_t key)
{
	return (key * 0x9e3779b1u) >> (32 - KEY_FILTER_BITS);
}

/*
 * The key of an entry of @len tokens, from the first 8 characters of each
 * token (@head, zero-padded): only the tokens that spell its first
 * KEY_CHARS + 1 characters are looked at.
 */
static uint32_t entry_key(const struct tokens *tok, const uint64_t *head, const unsigned char *code,
			  size_t len)
{
	uint64_t word = 0;
	size_t have = 0;

	for (size_t j = 0; j < len && have <= KEY_CHARS; j++) {
		word |= head[code[j]] << (8 * have);
		have += tok->len[code[j]];
	}
	return (uint32_t)(word >> 8);
}

/*
 * One pass over kallsyms_names: index[k] becomes the preferred symbol
 * named names[k] (NUL-terminated, at most MAX_SCAN_NAMES of them), or -1.
 */
static int scan_names(const struct lazy_names *lz, const char *const *names, size_t nr, int64_t *index)
{
	struct byte_stream s = { .mem = lz->mem, .addr = lz->t.names };
	unsigned char codes[KSYM_NAME_LEN];
	char name[KSYM_NAME_LEN + MAX_TOKEN_LEN], best_type[MAX_SCAN_NAMES] = { 0 };
	size_t lens[MAX_SCAN_NAMES];
	uint32_t keys[MAX_SCAN_NAMES];
	/*
	 * Nearly every entry is ruled out by the key of its first characters,
	 * decoded from a token or two and looked up in a bitmap of the keys
	 * asked; the few left by comparing as they are decoded.
	 */
	uint64_t head[NR_TOKENS] = { 0 }, key_filter[(1u << KEY_FILTER_BITS) / 64] = { 0 };
	int err = 0;

	s.buf = malloc((size_t)mem_page_size(lz->mem) * STREAM_PAGES);
	if (!s.buf)
		return -ENOMEM;
	for (size_t k = 0; k < nr; k++) {
		uint32_t slot;

		index[k] = -1;
		lens[k] = strnlen(names[k], KSYM_NAME_LEN);
		keys[k] = name_key(names[k]);
		slot = key_slot(keys[k]);
		key_filter[slot / 64] |= 1ull << (slot % 64);
	}
	for (int code = 0; code < NR_TOKENS; code++) {
		const char *token = lz->tok.table + lz->tok.index[code];

		for (size_t c = 0; c < lz->tok.len[code] && c < 8; c++)
			head[code] |= (uint64_t)(unsigned char)token[c] << (8 * c);
	}
	for (uint32_t i = 0; i < lz->count && !err; i++) {
		const unsigned char *code = codes;
		uint32_t alive = 0, key, slot;
		size_t len, out = 0;

		/*
		 * An entry whole in the buffer is read in place; one that
		 * crosses its end (or looks corrupt) is read the checked way.
		 */
		if (s.len - s.pos >= 3) {
			const unsigned char *entry = s.buf + s.pos;
			size_t head_len = entry[0] & 0x80 ? 2 : 1;

			len = head_len == 2 ? (size_t)(entry[0] & 0x7f) | ((size_t)entry[1] << 7) : entry[0];
			if (len && len < KSYM_NAME_LEN && s.len - s.pos >= head_len + len) {
				code = entry + head_len;
				s.pos += head_len + len;
			}
		}
		if (code == codes) {
			err = read_entry_length(&s, i, &len);
			if (!err)
				err = stream_read(&s, codes, len);
			if (err)
				break;
		}
		key = entry_key(&lz->tok, head, code, len);
		slot = key_slot(key);
		if (key_filter[slot / 64] & (1ull << (slot % 64)))
			for (size_t k = 0; k < nr; k++)
				if (keys[k] == key)
					alive |= 1u << k;
		/* name[0] is the type letter, the name proper follows. */
		for (size_t j = 0; j < len && alive; j++) {
			size_t from = out;

			/* Longer than any kernel name (a corrupt table): no name asked. */
			if (out + lz->tok.len[code[j]] >= KSYM_NAME_LEN) {
				alive = 0;
				break;
			}
			for (const char *c = lz->tok.table + lz->tok.index[code[j]]; *c; c++)
				name[out++] = *c;
			for (uint32_t bits = alive; bits; bits &= bits - 1) {
				size_t start = from ? from : 1, k = (size_t)__builtin_ctz(bits);

				if (out > lens[k] + 1 ||
				    (out > start && memcmp(name + start, names[k] + start - 1, out - start)))
					alive &= ~(1u << k);
			}
		}
		for (uint32_t bits = alive; bits; bits &= bits - 1) {
			size_t k = (size_t)__builtin_ctz(bits);

			if (out != lens[k] + 1 || is_undefined(name[0]))
				continue;
			if (better_match(index[k], best_type[k], name[0])) {
				index[k] = i;
				best_type[k] = name[0];
			}
		}
	}
	free(s.buf);
	return err;
}

/* Symbol @i's entry of kallsyms_offsets or kallsyms_addresses, read from the dump. */
static int read_raw_address(const struct lazy_names *lz, uint32_t i, struct raw_address *raw)
{
	int err = 0;

	*raw = (struct raw_address){ 0 };
	if (lz->t.has_offsets)
		err = read_or_report(lz->mem, lz->t.offsets + (uint64_t)i * 4, &raw->offset, 4, "kallsyms_offsets");
	if (!err && lz->t.has_addresses)
		err = read_or_report(lz->mem, lz->t.addresses + (uint64_t)i * 8, &raw->absolute, 8,
				     "kallsyms_addresses");
	return err;
}

static void free_lazy(struct lazy_names *lz)
{
	if (!lz)
		return;
	for (size_t i = 0; i < lz->nr_memo; i++) {
		free(lz->memo[i].module);
		free(lz->memo[i].name);
	}
	free(lz->tok.table);
	free(lz);
}

/* The answer remembered for @name in @module (NULL: the first module's), or NULL. */
static const struct lazy_answer *memo_find(const struct lazy_names *lz, const char *module, const char *name)
{
	for (size_t i = 0; i < lz->nr_memo; i++) {
		const struct lazy_answer *memo = &lz->memo[i];

		if (!strcmp(memo->name, name) && !memo->module == !module &&
		    (!module || !strcmp(memo->module, module)))
			return memo;
	}
	return NULL;
}

/* Remembers an answer while there is room: a full memo only costs later lookups a pass. */
static void memo_add(struct lazy_names *lz, const char *module, const char *name, bool found, uint64_t addr)
{
	struct lazy_answer *memo;

	if (lz->nr_memo == LAZY_MEMO_SLOTS)
		return;
	memo = &lz->memo[lz->nr_memo];
	memo->module = module ? strdup(module) : NULL;
	memo->name = strdup(name);
	if (!memo->name || (module && !memo->module)) {
		free(memo->module);
		free(memo->name);
		return;
	}
	memo->found = found;
	memo->addr = found ? addr : 0;
	lz->nr_memo++;
}

/* The address of the kernel's symbol @index, read from the dump (an error is reported). */
static int kernel_address(const struct kallsyms *ks, uint32_t index, uint64_t *addr)
{
	struct raw_address raw;
	int err = read_raw_address(ks->lazy, index, &raw);

	if (!err)
		*addr = decode_address(&ks->lazy->t, ks->encoding, index, raw);
	return err;
}

/* Remembers what a pass found of the kernel's symbols @names: index[i] for names[i]. */
static int memo_kernel_answers(const struct kallsyms *ks, const char *const *names, const int64_t *index,
			       size_t nr)
{
	int err = 0;

	for (size_t i = 0; i < nr && !err; i++) {
		uint64_t addr = 0;

		if (index[i] >= 0)
			err = kernel_address(ks, (uint32_t)index[i], &addr);
		if (!err)
			memo_add(ks->lazy, "vmlinux", names[i], index[i] >= 0, addr);
	}
	return err;
}

int kallsyms_open_lazy(struct memory *mem, const struct vmcoreinfo *vi, const char *const *expected,
		       size_t nr_expected, struct kallsyms **out)
{
	struct witness witnesses[NR_WITNESSES];
	size_t nr_witnesses = list_witnesses(vi, witnesses), nr_names = nr_witnesses;
	const char *names[MAX_SCAN_NAMES] = { 0 };
	int64_t index[MAX_SCAN_NAMES];
	struct lazy_names *lz = calloc(1, sizeof(*lz));
	struct kallsyms *ks = calloc(1, sizeof(*ks));
	int err = -ENOMEM;

	if (!lz || !ks)
		goto fail;
	if (nr_expected > KALLSYMS_MAX_EXPECTED) {
		err = -EINVAL;
		goto fail;
	}
	lz->mem = mem;
	err = open_tables(mem, vi, &lz->t, &lz->count);
	if (!err)
		err = read_tokens(mem, &lz->t, &lz->tok);
	for (size_t i = 0; i < nr_witnesses; i++)
		names[i] = witnesses[i].name;
	/* kallsyms_load_modules() asks for the modules list. */
	names[nr_names++] = "modules";
	for (size_t i = 0; i < nr_expected; i++)
		names[nr_names++] = expected[i];
	if (!err)
		err = scan_names(lz, names, nr_names, index);
	for (size_t i = 0; !err && i < nr_witnesses; i++) {
		witnesses[i].found = index[i] >= 0;
		witnesses[i].index = (uint32_t)index[i];
		if (index[i] >= 0)
			err = read_raw_address(lz, (uint32_t)index[i], &witnesses[i].raw);
	}
	if (!err)
		err = choose_encoding(ks, vi, lz->count, &lz->t, witnesses, nr_witnesses);
	ks->lazy = lz;
	if (!err)
		err = memo_kernel_answers(ks, names + nr_witnesses, index + nr_witnesses, nr_names - nr_witnesses);
	if (err)
		goto fail;
	/* It lists nothing: count and kernel_count stay 0. */
	*out = ks;
	return 0;
fail:
	free_lazy(lz);
	free(ks);
	return err;
}

/* The kernel's own symbol @name: the kernel's answers are final, so each is remembered. */
static bool lazy_kernel_lookup(const struct kallsyms *ks, const char *name, uint64_t *addr)
{
	struct lazy_names *lz = ks->lazy;
	const struct lazy_answer *memo = memo_find(lz, "vmlinux", name);
	int64_t index;
	bool found;

	if (memo) {
		*addr = memo->addr;
		return memo->found;
	}
	if (scan_names(lz, &name, 1, &index))
		return false;
	found = index >= 0 && !kernel_address(ks, (uint32_t)index, addr);
	if (index < 0 || found)
		memo_add(lz, "vmlinux", name, found, found ? *addr : 0);
	return found;
}

int kallsyms_expect_kernel_names(const struct kallsyms *ks, const char *const *names, size_t nr)
{
	const char *todo[MAX_SCAN_NAMES];
	int64_t index[MAX_SCAN_NAMES];
	size_t nr_todo = 0;
	int err = 0;

	if (!ks->lazy)
		return 0;
	/* Past the memo's room an answer found now would be forgotten: those names wait for their lookup. */
	for (size_t i = 0; i < nr && !err && ks->lazy->nr_memo + nr_todo < LAZY_MEMO_SLOTS; i++) {
		if (!memo_find(ks->lazy, "vmlinux", names[i]))
			todo[nr_todo++] = names[i];
		if (nr_todo == MAX_SCAN_NAMES || (nr_todo && (i + 1 == nr ||
							    ks->lazy->nr_memo + nr_todo == LAZY_MEMO_SLOTS))) {
			err = scan_names(ks->lazy, todo, nr_todo, index);
			if (!err)
				err = memo_kernel_answers(ks, todo, index, nr_todo);
			nr_todo = 0;
		}
	}
	return err;
}

/* The preferred symbol named @name in one module's tables, as append_symbols() would list it. */
static bool find_in_module(struct module_reader *r, const struct module_tables *t, const char *name,
			   uint64_t *addr)
{
	size_t len = strlen(name);
	int64_t best = -1;
	char best_type = 0;

	for (uint32_t i = 0; i < t->num_symtab; i++) {
		uint32_t at = t->symtab[i].st_name;
		char type;

		if (at >= t->strtab_len || t->strtab_len - at <= len || memcmp(t->strtab + at, name, len + 1) ||
		    is_undefined(t->typetab[i]))
			continue;
		type = is_exported(r, t, name, len, t->symtab[i].st_value) ? 'A' : 'a';
		if (better_match(best, best_type, type)) {
			best = i;
			best_type = type;
		}
	}
	if (best >= 0)
		*addr = t->symtab[best].st_value;
	return best >= 0;
}

/*
 * A module symbol, read from the modules list as kallsyms_load_modules()
 * would: from module @module only, or from the first module (in list
 * order) that has it when @module is NULL.
 */
static bool lazy_module_lookup(const struct kallsyms *ks, const char *module, const char *name,
			       uint64_t *addr)
{
	const struct lazy_names *lz = ks->lazy;
	struct module_reader r = { .mem = lz->mem, .l = lz->layout };
	struct klist list;
	uint64_t node;
	bool found = false;

	if (!lz->modules_ready)
		return false;
	r.module = malloc(r.l.module_size);
	if (!r.module)
		return false;
	klist_init(&list, lz->mem, lz->modules_head, MAX_MODULES);
	while (!found && klist_next(&list, &node) > 0) {
		struct module_tables t = { 0 };
		bool formed = false;

		r.addr = node - r.l.list.offset;
		if (read_module_head(&r, &formed) || !formed || (module && strcmp(r.name, module)))
			continue;
		if (!read_tables(&r, &t))
			found = find_in_module(&r, &t, name, addr);
		free_tables(&t);
		if (module)
			break;
	}
	klist_release(&list);
	free(r.module);
	return found;
}

static bool lazy_lookup(const struct kallsyms *ks, const char *module, const char *name, uint64_t *addr)
{
	struct lazy_names *lz = ks->lazy;
	bool kernel = !module || !strcmp(module, "vmlinux"), found;
	const struct lazy_answer *memo;

	if (kernel && lazy_kernel_lookup(ks, name, addr))
		return true;
	if (module && kernel)
		return false;
	memo = memo_find(lz, module, name);
	if (memo) {
		*addr = memo->addr;
		return memo->found;
	}
	found = lazy_module_lookup(ks, module, name, addr);
	/* Until the modules are located, a miss in them may not be final. */
	if (found || lz->modules_ready)
		memo_add(lz, module, name, found, found ? *addr : 0);
	return found;
}

int kallsyms_load_modules(struct kallsyms *ks, struct memory *mem, struct btf_info *btf)
{
	struct module_reader r = { .ks = ks, .mem = mem };
	struct klist list;
	uint64_t head, node;
	int err, more;

	if (ks->modules_loaded)
		return 0;
	ks->modules_loaded = true;
	if (!kallsyms_lookup_module_name(ks, "vmlinux", "modules", &head)) {
		msg_debug("the kernel's kallsyms have no \"modules\" list: a kernel without modules");
		return 0;
	}
	if (!btf_info_present(btf)) {
		msg_warn("the kernel has no BTF (CONFIG_DEBUG_INFO_BTF): without struct module's layout, "
			 "module symbols are not listed");
		return -ENOENT;
	}
	err = read_module_layout(btf, &r.l);
	if (err)
		return err;
	/* A table for lookups by name reads each module when one of its symbols is asked. */
	if (ks->lazy) {
		ks->lazy->modules_head = head;
		ks->lazy->layout = r.l;
		ks->lazy->modules_ready = true;
		return 0;
	}
	r.module = malloc(r.l.module_size);
	if (!r.module)
		return -ENOMEM;
	klist_init(&list, mem, head, MAX_MODULES);
	while ((more = klist_next(&list, &node)) > 0) {
		r.addr = node - r.l.list.offset;
		err = read_module(&r);
		/* A damaged module was reported and is passed over; only memory ends the walk. */
		if (err == -ENOMEM)
			break;
		err = 0;
	}
	if (more < 0)
		msg_warn("modules list at 0x%" PRIx64 ": after %s%s (struct module at 0x%" PRIx64 "), %s; "
			 "modules past it are not listed", head, list.count ? "module " : "its head",
			 list.count ? r.name : "", list.count ? r.addr : head, list.reason);
	klist_release(&list);
	free(r.module);
	if (!err && more == -ENOMEM)
		err = -ENOMEM;
	if (!err)
		err = index_names(ks, ks->kernel_count);
	if (!err)
		err = index_addrs(ks, ks->kernel_count);
	if (err) {
		/* Out of memory: back to the kernel's symbols, which the old indexes cover. */
		ks->count = ks->kernel_count;
		ks->nr_modules = 0;
		return err;
	}
	msg_debug("module kallsyms: %" PRIu32 " modules, %" PRIu32 " symbols", ks->nr_modules,
		  ks->count - ks->kernel_count);
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
	free(ks->modules);
	free_lazy(ks->lazy);
	free(ks);
}

size_t kallsyms_count(const struct kallsyms *ks)
{
	return ks->count;
}

/* The module whose symbols include @index (not the kernel's). */
static const struct kallsyms_module *module_of(const struct kallsyms *ks, uint32_t index)
{
	uint32_t lo = 0, hi = ks->nr_modules;

	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ks->modules[mid].first <= index)
			lo = mid;
		else
			hi = mid;
	}
	return &ks->modules[lo];
}

void kallsyms_get(const struct kallsyms *ks, size_t index, struct ksym *sym)
{
	sym->addr = ks->addrs[index];
	sym->type = symbol_type(ks, (uint32_t)index);
	sym->name = ks->pool + ks->name_offsets[index];
	sym->module = index < ks->kernel_count ? NULL
					       : ks->pool + module_of(ks, (uint32_t)index)->name_offset;
}

bool kallsyms_lookup_module_name(const struct kallsyms *ks, const char *module, const char *name,
				 uint64_t *addr)
{
	int64_t index = -1;

	if (ks->lazy)
		return lazy_lookup(ks, module, name, addr);
	if (!module || !strcmp(module, "vmlinux"))
		index = find_name(ks, name, 0, ks->kernel_count);
	for (uint32_t m = 0; m < ks->nr_modules && index < 0 && (!module || strcmp(module, "vmlinux")); m++)
		if (!module || !strcmp(ks->pool + ks->modules[m].name_offset, module))
			index = find_name(ks, name, ks->modules[m].first, ks->modules[m].end);
	if (index < 0)
		return false;
	*addr = ks->addrs[index];
	return true;
}

bool kallsyms_lookup_name(const struct kallsyms *ks, const char *name, uint64_t *addr)
{
	return kallsyms_lookup_module_name(ks, NULL, name, addr);
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
	for (uint32_t i = 0; i < ks->kernel_count; i++) {
		if (fprintf(out, "%016llx %c %s\n", (unsigned long long)ks->addrs[i], symbol_type(ks, i),
			    ks->pool + ks->name_offsets[i]) < 0)
			return -errno;
	}
	for (uint32_t m = 0; m < ks->nr_modules; m++) {
		const char *module = ks->pool + ks->modules[m].name_offset;

		for (uint32_t i = ks->modules[m].first; i < ks->modules[m].end; i++)
			if (fprintf(out, "%016llx %c %s\t[%s]\n", (unsigned long long)ks->addrs[i],
				    symbol_type(ks, i), ks->pool + ks->name_offsets[i], module) < 0)
				return -errno;
	}
	return 0;
}
