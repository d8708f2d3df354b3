// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's own symbol table, as scripts/kallsyms lays it out.
 *
 * Each symbol is the string "<type><name>", compressed with a table of 256
 * tokens: every byte value that occurs in some symbol stands for itself;
 * each remaining value is given, greedily, to the most frequent adjacent
 * pair of tokens, which is then replaced everywhere.  kallsyms_names holds,
 * per symbol in address order, a length (one byte below 0x80, otherwise two:
 * low seven bits with 0x80 set, then the rest) and that many token indices.
 * kallsyms_token_table is the 256 expansions, NUL-terminated, and
 * kallsyms_token_index their offsets (u16).  kallsyms_markers (u32) gives
 * the offset in kallsyms_names of every 256th symbol.
 *
 * Addresses come in four encodings:
 *   absolute        kallsyms_addresses[i] (unsigned long)
 *   base-relative   kallsyms_relative_base + (u32)kallsyms_offsets[i]
 *   abs-percpu      offset >= 0: the value itself (per-cpu, type A);
 *                   offset < 0: kallsyms_relative_base - 1 - offset
 *   place-relative  &kallsyms_offsets[i] + (s32)kallsyms_offsets[i]
 *                   (7.x; no kallsyms_relative_base, and the table order
 *                   changes, with kallsyms_seqs_of_names added)
 * Symbols are sorted by address; equal addresses put weak symbols last,
 * then fewer leading underscores first, then nm's order.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

struct sym_tokens {
	uint8_t *tok;
	size_t ntok;
};

static struct sym_tokens *toks;	/* parallel to g->syms until the sort */

size_t ksym_add(struct gen *g, const char *name, char type)
{
	for (size_t i = 0; i < g->nsyms; i++)
		if (!strcmp(g->syms[i].name, name))
			die("internal: duplicate symbol %s", name);
	if (g->nsyms == g->syms_cap) {
		g->syms_cap = g->syms_cap ? 2 * g->syms_cap : 512;
		g->syms = realloc(g->syms, g->syms_cap * sizeof(*g->syms));
		if (!g->syms)
			die("out of memory");
	}
	g->syms[g->nsyms].name = xstrdup(name);
	g->syms[g->nsyms].type = type;
	g->syms[g->nsyms].addr = 0;
	g->syms[g->nsyms].input_pos = g->nsyms;
	return g->nsyms++;
}

struct ksym *ksym_find(struct gen *g, const char *name)
{
	for (size_t i = 0; i < g->nsyms; i++)
		if (!strcmp(g->syms[i].name, name))
			return &g->syms[i];
	return NULL;
}

uint64_t ksym_addr(struct gen *g, const char *name)
{
	struct ksym *s = ksym_find(g, name);

	if (!s)
		die("internal: no symbol %s", name);
	return s->addr;
}

void kallsyms_compress(struct gen *g)
{
	char exp[256][KSYM_TOKEN_MAX];
	size_t explen[256] = { 0 };
	bool used[256] = { false };
	uint32_t *count = xcalloc(65536, sizeof(*count));

	toks = xcalloc(g->nsyms, sizeof(*toks));
	for (size_t i = 0; i < g->nsyms; i++) {
		size_t len = strlen(g->syms[i].name) + 1;

		toks[i].tok = xcalloc(len, 1);
		toks[i].tok[0] = g->syms[i].type;
		memcpy(toks[i].tok + 1, g->syms[i].name, len - 1);
		toks[i].ntok = len;
		for (size_t j = 0; j < len; j++) {
			uint8_t c = toks[i].tok[j];

			used[c] = true;
			exp[c][0] = c;
			explen[c] = 1;
		}
	}

	for (int code = 255; code >= 0; code--) {
		uint32_t best = 0;
		uint8_t a, b;

		if (used[code])
			continue;
		memset(count, 0, 65536 * sizeof(*count));
		for (size_t i = 0; i < g->nsyms; i++)
			for (size_t j = 0; j + 1 < toks[i].ntok; j++)
				count[toks[i].tok[j] << 8 | toks[i].tok[j + 1]]++;
		for (uint32_t p = 1; p < 65536; p++)
			if (count[p] > count[best])
				best = p;
		if (!count[best])
			break;
		a = best >> 8;
		b = best & 0xff;
		if (explen[a] + explen[b] >= KSYM_TOKEN_MAX)
			die("internal: kallsyms token too long");
		memcpy(exp[code], exp[a], explen[a]);
		memcpy(exp[code] + explen[a], exp[b], explen[b]);
		explen[code] = explen[a] + explen[b];
		used[code] = true;

		for (size_t i = 0; i < g->nsyms; i++) {
			size_t r = 0, w = 0;

			while (r < toks[i].ntok) {
				if (r + 1 < toks[i].ntok && toks[i].tok[r] == a &&
				    toks[i].tok[r + 1] == b) {
					toks[i].tok[w++] = code;
					r += 2;
				} else {
					toks[i].tok[w++] = toks[i].tok[r++];
				}
			}
			toks[i].ntok = w;
		}
	}
	free(count);

	g->token_table_len = 0;
	for (int c = 0; c < 256; c++) {
		memcpy(g->token_table[c], exp[c], explen[c]);
		g->token_table[c][explen[c]] = '\0';
		g->token_index[c] = g->token_table_len;
		g->token_table_len += explen[c] + 1;
	}
	g->names_len = 0;
	for (size_t i = 0; i < g->nsyms; i++)
		g->names_len += toks[i].ntok + (toks[i].ntok >= 0x80 ? 2 : 1);
}

size_t kallsyms_table_size(const struct gen *g, const char *table)
{
	if (!strcmp(table, "kallsyms_offsets"))
		return 4 * g->nsyms;
	if (!strcmp(table, "kallsyms_addresses"))
		return 8 * g->nsyms;
	if (!strcmp(table, "kallsyms_relative_base"))
		return 8;
	if (!strcmp(table, "kallsyms_num_syms"))
		return 4;
	if (!strcmp(table, "kallsyms_names"))
		return g->names_len;
	if (!strcmp(table, "kallsyms_markers"))
		return 4 * ((g->nsyms + 255) / 256);
	if (!strcmp(table, "kallsyms_seqs_of_names"))
		return 3 * g->nsyms;
	if (!strcmp(table, "kallsyms_token_table"))
		return g->token_table_len;
	if (!strcmp(table, "kallsyms_token_index"))
		return 2 * 256;
	die("internal: unknown kallsyms table %s", table);
}

static int leading_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

static int is_weak(char type)
{
	return type == 'w' || type == 'W';
}

static int cmp_addr(const void *pa, const void *pb)
{
	const struct ksym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (is_weak(a->type) != is_weak(b->type))
		return is_weak(a->type) - is_weak(b->type);
	if (leading_underscores(a->name) != leading_underscores(b->name))
		return leading_underscores(a->name) -
		       leading_underscores(b->name);
	return a->input_pos - b->input_pos;
}

static const struct ksym *name_sort_base;

static int cmp_name(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int r = strcmp(name_sort_base[a].name, name_sort_base[b].name);

	return r ? r : (a > b) - (a < b);
}

void kallsyms_emit(struct gen *g)
{
	size_t n = g->nsyms, off = 0;
	struct sym_tokens *sorted_toks = xcalloc(n, sizeof(*sorted_toks));
	uint8_t *names = xcalloc(g->names_len, 1);
	uint8_t *table = xcalloc(8 * n + 1, 1);
	uint32_t nmarkers = (n + 255) / 256;
	uint8_t b[8];

	/* input_pos is the index the tokens were made under */
	qsort(g->syms, n, sizeof(*g->syms), cmp_addr);
	for (size_t i = 0; i < n; i++)
		sorted_toks[i] = toks[g->syms[i].input_pos];

	for (size_t i = 0; i < n; i++) {
		size_t len = sorted_toks[i].ntok;

		if (i % 256 == 0)
			put_le32(table + 4 * (i / 256), off);
		if (len >= 0x80) {
			names[off++] = (len & 0x7f) | 0x80;
			names[off++] = len >> 7;
		} else {
			names[off++] = len;
		}
		memcpy(names + off, sorted_toks[i].tok, len);
		off += len;
	}
	kv_write(g, ksym_addr(g, "kallsyms_markers"), table, 4 * nmarkers);
	kv_write(g, ksym_addr(g, "kallsyms_names"), names, g->names_len);
	put_le32(b, n);
	kv_write(g, ksym_addr(g, "kallsyms_num_syms"), b, 4);
	{
		uint8_t tt[256 * KSYM_TOKEN_MAX], ti[512];

		for (int c = 0; c < 256; c++) {
			size_t l = strlen(g->token_table[c]) + 1;

			memcpy(tt + g->token_index[c], g->token_table[c], l);
			put_le16(ti + 2 * c, g->token_index[c]);
		}
		kv_write(g, ksym_addr(g, "kallsyms_token_table"), tt,
			 g->token_table_len);
		kv_write(g, ksym_addr(g, "kallsyms_token_index"), ti, 512);
	}

	if (g->enc == KSYM_ABSOLUTE) {
		for (size_t i = 0; i < n; i++)
			put_le64(table + 8 * i, g->syms[i].addr);
		kv_write(g, ksym_addr(g, "kallsyms_addresses"), table, 8 * n);
	} else if (g->enc == KSYM_PLACE_RELATIVE) {
		uint64_t base = ksym_addr(g, "kallsyms_offsets");
		uint32_t *order = xcalloc(n, sizeof(*order));

		for (size_t i = 0; i < n; i++) {
			int64_t d = g->syms[i].addr - (base + 4 * i);

			if (d < INT32_MIN || d > INT32_MAX)
				die("internal: %s out of place-relative reach",
				    g->syms[i].name);
			put_le32(table + 4 * i, (uint32_t)d);
		}
		kv_write(g, base, table, 4 * n);

		for (size_t i = 0; i < n; i++)
			order[i] = i;
		name_sort_base = g->syms;
		qsort(order, n, sizeof(*order), cmp_name);
		for (size_t i = 0; i < n; i++) {
			table[3 * i] = order[i] >> 16;
			table[3 * i + 1] = order[i] >> 8;
			table[3 * i + 2] = order[i];
		}
		kv_write(g, ksym_addr(g, "kallsyms_seqs_of_names"), table,
			 3 * n);
		free(order);
	} else {
		uint64_t base = UINT64_MAX;

		for (size_t i = 0; i < n; i++)
			if (g->syms[i].type != 'A' && g->syms[i].addr < base)
				base = g->syms[i].addr;
		for (size_t i = 0; i < n; i++) {
			uint64_t a = g->syms[i].addr;
			int64_t v;

			if (g->enc == KSYM_BASE_RELATIVE) {
				if (a < base || a - base > UINT32_MAX)
					die("internal: %s out of base-relative "
					    "reach", g->syms[i].name);
				put_le32(table + 4 * i, a - base);
				continue;
			}
			v = g->syms[i].type == 'A' ? (int64_t)a
						   : (int64_t)(base - 1 - a);
			if (g->syms[i].type == 'A' ? v > INT32_MAX
						   : v < INT32_MIN)
				die("internal: %s out of kallsyms reach",
				    g->syms[i].name);
			put_le32(table + 4 * i, (uint32_t)v);
		}
		kv_write(g, ksym_addr(g, "kallsyms_offsets"), table, 4 * n);
		kv_write64(g, ksym_addr(g, "kallsyms_relative_base"), base);
	}

	free(names);
	free(table);
	for (size_t i = 0; i < n; i++)
		free(sorted_toks[i].tok);
	free(sorted_toks);
	free(toks);
	toks = NULL;
}

void kallsyms_write_list(struct gen *g, FILE *f)
{
	for (size_t i = 0; i < g->nsyms; i++)
		fprintf(f, "%016" PRIx64 " %c %s\n", g->syms[i].addr,
			g->syms[i].type, g->syms[i].name);
}
