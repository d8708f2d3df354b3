// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_kallsyms: the kallsyms decoder (kernel/kallsyms.h).
 *
 *  - On a dump made by the generator in each of its four address
 *    encodings, against the generator's own symbol list (--kallsyms-out,
 *    table order): the count, every symbol's name, type and address in
 *    order (kallsyms_for_each, kallsyms_address, kallsyms_addresses), and
 *    kallsyms_find of every name in one call, of a few names with absent
 *    ones and near misses among them.
 *  - On a table laid out here in a fake memory (the generator makes no
 *    two symbols of one name): the choice kallsyms.h documents among
 *    symbols of one name (the first global, else the first local;
 *    undefined ones never), names of one and two length bytes, tokens
 *    that hold the type letter.
 *  - Damage: VMCOREINFO pointing the tables elsewhere, counts out of
 *    range, entries that decode to nothing or too much: an error, never
 *    a crash.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kallsyms.h"
#include "unit_check.h"
#include "unit_dump.h"
#include "unit_fake_memory.h"
#include "util/message.h"

/* The generator's list: /proc/kallsyms lines, "%016lx %c %s". */
struct oracle {
	size_t n;
	uint64_t *addr;
	char *type;
	char **name;
};

static void oracle_free(struct oracle *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->name[i]);
	free(o->addr);
	free(o->type);
	free(o->name);
	memset(o, 0, sizeof(*o));
}

static bool oracle_load(const char *path, struct oracle *o)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, room = 0;
	bool ok = f != NULL;

	memset(o, 0, sizeof(*o));
	while (ok && getline(&line, &cap, f) > 0) {
		unsigned long long addr;
		char type;
		int name_at = 0;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%llx %c %n", &addr, &type, &name_at) != 2 || !name_at || !line[name_at]) {
			ok = false;
			break;
		}
		if (o->n == room) {
			room = room ? 2 * room : 1024;
			o->addr = realloc(o->addr, room * sizeof(*o->addr));
			o->type = realloc(o->type, room);
			o->name = realloc(o->name, room * sizeof(*o->name));
			if (!o->addr || !o->type || !o->name)
				abort();
		}
		o->addr[o->n] = addr;
		o->type[o->n] = type;
		o->name[o->n] = strdup(line + name_at);
		o->n++;
	}
	free(line);
	if (f)
		fclose(f);
	return ok && o->n > 0;
}

/* What kallsyms_for_each saw, compared as it goes. */
struct walk {
	const struct oracle *o;
	size_t seen;
	size_t wrong;
	const char *label;
};

static struct mdf_error *compare_symbol(void *ctx, const struct ksym *sym)
{
	struct walk *w = ctx;
	size_t i = w->seen++;

	if (i >= w->o->n || sym->addr != w->o->addr[i] || sym->type != w->o->type[i] ||
	    strcmp(sym->name, w->o->name[i]) || sym->module) {
		if (w->wrong++ < 3)
			printf("  %s: symbol %zu is %016" PRIx64 " %c %s%s, the generator says %016" PRIx64 " %c %s\n",
			       w->label, i, sym->addr, sym->type, sym->name, sym->module ? " (with a module)" : "",
			       i < w->o->n ? w->o->addr[i] : 0, i < w->o->n ? w->o->type[i] : '?',
			       i < w->o->n ? w->o->name[i] : "(none)");
	}
	return NULL;
}

/* A visitor that stops the walk at the third symbol with an error of its own. */
static struct mdf_error *stop_at_third(void *ctx, const struct ksym *sym)
{
	size_t *seen = ctx;

	(void)sym;
	return ++*seen == 3 ? mdf_error(-EINTR, "stop here") : NULL;
}

static void test_generated_encoding(const char *dir, const char *encoding)
{
	char elf[600], syms[600];
	const char *args[] = { "--kallsyms", encoding, "--kallsyms-out", syms, NULL };
	struct oracle o;
	struct unit_dump d;
	struct kallsyms *ks = NULL;
	struct mdf_error *err;

	snprintf(elf, sizeof(elf), "%s/%s.elf", dir, encoding);
	snprintf(syms, sizeof(syms), "%s/%s.syms", dir, encoding);
	if (!unit_mkvmcore(args, elf))
		return;
	if (!oracle_load(syms, &o)) {
		check(0, "%s: cannot read the generator's symbol list %s", encoding, syms);
		return;
	}
	err = unit_dump_open(elf, NULL, &d);
	if (err) {
		check(0, "%s: the generated dump opens: %s", encoding, mdf_error_text(err));
		mdf_error_free(err);
		oracle_free(&o);
		return;
	}
	err = kallsyms_new(d.mem, d.vi, &ks);
	check(!err, "%s: kallsyms_new%s%s", encoding, err ? ": " : "", err ? mdf_error_text(err) : "");
	mdf_error_free(err);
	if (!ks)
		goto out;

	check(kallsyms_count(ks) == o.n, "%s: kallsyms_count %zu, the generator listed %zu", encoding,
	      kallsyms_count(ks), o.n);

	{
		struct walk w = { &o, 0, 0, encoding };

		err = kallsyms_for_each(ks, compare_symbol, &w);
		check(!err && w.seen == o.n && !w.wrong,
		      "%s: kallsyms_for_each gives each of the %zu symbols' name, type and address in table order "
		      "(%zu seen, %zu wrong)", encoding, o.n, w.seen, w.wrong);
		mdf_error_free(err);
	}
	{
		size_t seen = 0;

		err = kallsyms_for_each(ks, stop_at_third, &seen);
		check(err && err->code == -EINTR && seen == 3,
		      "%s: a visitor's error stops kallsyms_for_each and is what it returns", encoding);
		mdf_error_free(err);
	}
	{
		size_t wrong = 0;
		uint64_t *all = calloc(o.n + 1, sizeof(*all));

		for (size_t i = 0; i < o.n; i++) {
			uint64_t addr = 0;

			err = kallsyms_address(ks, i, &addr);
			wrong += err || addr != o.addr[i];
			mdf_error_free(err);
		}
		check(!wrong, "%s: kallsyms_address of every index (%zu wrong)", encoding, wrong);
		err = all ? kallsyms_addresses(ks, all) : &mdf_error_enomem;
		wrong = 0;
		for (size_t i = 0; !err && i < o.n; i++)
			wrong += all[i] != o.addr[i];
		check(!err && !wrong, "%s: kallsyms_addresses gives every address (%zu wrong)", encoding, wrong);
		mdf_error_free(err);
		free(all);
	}
	{
		/* Every name at once (more than one pass's worth), and two that are not there. */
		const char **names = calloc(o.n + 2, sizeof(*names));
		int64_t *index = calloc(o.n + 2, sizeof(*index));
		size_t wrong = 0;

		for (size_t i = 0; names && i < o.n; i++)
			names[i] = o.name[i];
		if (names) {
			names[o.n] = "no_such_symbol_in_the_table";
			names[o.n + 1] = "";
		}
		err = names && index ? kallsyms_find(ks, names, o.n + 2, index) : &mdf_error_enomem;
		for (size_t i = 0; !err && i < o.n; i++)
			if (index[i] != (int64_t)i && wrong++ < 3)
				printf("  %s: kallsyms_find(\"%s\") = %" PRId64 ", not %zu\n", encoding, o.name[i],
				       index[i], i);
		check(!err && !wrong, "%s: kallsyms_find of all %zu names in one call: each its own index", encoding,
		      o.n);
		check(!err && index[o.n] == -1 && index[o.n + 1] == -1,
		      "%s: in the same call an absent name and the empty name are -1", encoding);
		mdf_error_free(err);
		free(names);
		free(index);
	}
	{
		/* A few names in any order: near misses of real names are not found. */
		size_t longest = 0;

		for (size_t i = 1; i < o.n; i++)
			if (strlen(o.name[i]) > strlen(o.name[longest]))
				longest = i;
		const char *names[] = { "init_uts_ns", "_stex", "_stext", "_stextt", o.name[longest], "init_top_pgt",
					"no_such_symbol", o.name[0] };
		int64_t index[8];
		int64_t want[8] = { -1, -1, -1, -1, (int64_t)longest, -1, -1, 0 };
		bool ok;

		for (size_t i = 0; i < o.n; i++) {
			if (!strcmp(o.name[i], "init_uts_ns"))
				want[0] = (int64_t)i;
			if (!strcmp(o.name[i], "_stext"))
				want[2] = (int64_t)i;
			if (!strcmp(o.name[i], "init_top_pgt"))
				want[5] = (int64_t)i;
		}
		err = kallsyms_find(ks, names, 8, index);
		ok = !err && want[0] >= 0 && want[2] >= 0 && want[5] >= 0;
		for (int i = 0; ok && i < 8; i++)
			ok = index[i] == want[i];
		check(ok, "%s: kallsyms_find of 8 names at once: 3 present, the longest (%zu characters), "
		      "the first, a prefix and an extension of _stext and an absent name (-1)", encoding,
		      strlen(o.name[longest]));
		mdf_error_free(err);
	}
	kallsyms_free(ks);
out:
	unit_dump_close(&d);
	oracle_free(&o);
	unlink(elf);
	unlink(syms);
}

/* The dump's VMCOREINFO with @line added at its end: the last of duplicate keys wins. */
static char *vmcoreinfo_plus(const struct unit_dump *d, const char *line)
{
	size_t len = strnlen(d->in->vmcoreinfo, d->in->vmcoreinfo_size);
	char *text = malloc(len + strlen(line) + 3);

	if (!text)
		abort();
	memcpy(text, d->in->vmcoreinfo, len);
	text[len] = '\0';
	if (len && text[len - 1] != '\n')
		strcat(text, "\n");
	strcat(text, line);
	strcat(text, "\n");
	return text;
}

/* The dump's VMCOREINFO without the lines that start with @prefix. */
static char *vmcoreinfo_minus(const struct unit_dump *d, const char *prefix)
{
	size_t len = strnlen(d->in->vmcoreinfo, d->in->vmcoreinfo_size);
	char *text = calloc(1, len + 2), *out = text;
	const char *p = d->in->vmcoreinfo, *end = p + len;

	if (!text)
		abort();
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (strncmp(p, prefix, strlen(prefix))) {
			memcpy(out, p, n);
			out += n;
		}
		p += n;
	}
	return text;
}

/* kallsyms_new on the dump @elf with VMCOREINFO @text must fail; prints the error. */
static void expect_open_fails(const char *elf, const char *text, const char *what)
{
	struct unit_dump d;
	struct kallsyms *ks = NULL;
	struct mdf_error *err = unit_dump_open(elf, text, &d);

	if (err) {
		check(0, "%s: the dump opens: %s", what, mdf_error_text(err));
		mdf_error_free(err);
		return;
	}
	err = kallsyms_new(d.mem, d.vi, &ks);
	check(err && !ks && err->code < 0, "%s: kallsyms_new fails (%s)", what,
	      err ? mdf_error_text(err) : "it did not");
	mdf_error_free(err);
	kallsyms_free(ks);
	unit_dump_close(&d);
}

static void test_generated_damage(const char *dir)
{
	char elf[600], facts[600], line[200];
	const char *args[] = { "--facts", facts, NULL };
	struct unit_dump d;
	struct mdf_error *err;
	uint64_t token_table, names, unmapped = 0;
	char *text;
	FILE *f;

	snprintf(elf, sizeof(elf), "%s/damage.elf", dir);
	snprintf(facts, sizeof(facts), "%s/damage.facts", dir);
	if (!unit_mkvmcore(args, elf))
		return;
	f = fopen(facts, "re");
	while (f && fgets(line, sizeof(line), f))
		if (!unmapped && sscanf(line, "vtop_fail %" SCNx64, &unmapped) != 1)
			unmapped = 0;
	if (f)
		fclose(f);
	err = unit_dump_open(elf, NULL, &d);
	if (err) {
		check(0, "damage: the generated dump opens: %s", mdf_error_text(err));
		mdf_error_free(err);
		return;
	}
	if (mdf_error_drop(vmcoreinfo_lookup_symbol(d.vi, "kallsyms_token_table", &token_table)) ||
	    mdf_error_drop(vmcoreinfo_lookup_symbol(d.vi, "kallsyms_names", &names)) || !unmapped) {
		check(0, "damage: the dump's VMCOREINFO locates kallsyms and the facts name an unmapped address");
		unit_dump_close(&d);
		return;
	}

	snprintf(line, sizeof(line), "SYMBOL(kallsyms_names)=%" PRIx64, token_table);
	text = vmcoreinfo_plus(&d, line);
	expect_open_fails(elf, text, "kallsyms_names pointing at the token table");
	free(text);

	snprintf(line, sizeof(line), "SYMBOL(kallsyms_names)=%" PRIx64, unmapped);
	text = vmcoreinfo_plus(&d, line);
	expect_open_fails(elf, text, "kallsyms_names at an unmapped address");
	free(text);

	snprintf(line, sizeof(line), "SYMBOL(kallsyms_token_index)=%" PRIx64, names);
	text = vmcoreinfo_plus(&d, line);
	expect_open_fails(elf, text, "kallsyms_token_index pointing at the names");
	free(text);

	snprintf(line, sizeof(line), "SYMBOL(kallsyms_num_syms)=%" PRIx64, unmapped);
	text = vmcoreinfo_plus(&d, line);
	expect_open_fails(elf, text, "kallsyms_num_syms at an unmapped address");
	free(text);

	text = vmcoreinfo_minus(&d, "SYMBOL(kallsyms_token_table)=");
	expect_open_fails(elf, text, "no SYMBOL(kallsyms_token_table)");
	free(text);

	text = vmcoreinfo_plus(&d, "SYMBOL(_stext)=ffffffff80000000");
	expect_open_fails(elf, text, "SYMBOL(_stext) where no encoding puts it");
	free(text);

	unit_dump_close(&d);
	unlink(elf);
	unlink(facts);
}

/*
 * The table laid out here: absolute addresses, a token table where each
 * printable character stands for itself plus a few longer tokens, one of
 * them starting with a type letter as scripts/kallsyms makes them.
 */
struct fake_sym {
	char type;
	const char *name;
	uint64_t addr;
};

#define T_NUM_SYMS 0x1000u
#define T_ADDRESSES 0x1100u
#define T_TOKEN_INDEX 0x3000u
#define T_TOKEN_TABLE 0x3400u
#define T_NAMES 0x5000u
#define T_SIZE 0x10000u

static const char *const long_tokens[] = { [1] = "dup_", [2] = "name", [3] = "Tsym", [4] = "only_" };

/* Appends one entry for "<type><name>" at @p; returns the bytes written. */
static size_t encode_entry(unsigned char *p, char type, const char *name)
{
	char text[1024];
	unsigned char codes[1024];
	size_t n = 0, at = 0, len, head;

	snprintf(text, sizeof(text), "%c%s", type, name);
	len = strlen(text);
	while (at < len) {
		size_t code = 0;

		for (size_t t = 1; t < sizeof(long_tokens) / sizeof(long_tokens[0]); t++)
			if (!strncmp(text + at, long_tokens[t], strlen(long_tokens[t])))
				code = t;
		if (code) {
			codes[n++] = (unsigned char)code;
			at += strlen(long_tokens[code]);
		} else {
			codes[n++] = (unsigned char)text[at++];
		}
	}
	if (n < 0x80) {
		p[0] = (unsigned char)n;
		head = 1;
	} else {
		p[0] = (unsigned char)(0x80 | (n & 0x7f));
		p[1] = (unsigned char)(n >> 7);
		head = 2;
	}
	memcpy(p + head, codes, n);
	return head + n;
}

/* Lays the table out in @f; returns its VMCOREINFO (static) with @extra lines at its end. */
static const char *layout_table(struct fake_memory *f, const struct fake_sym *syms, uint32_t nr,
				uint32_t num_syms, const char *extra)
{
	static char text[2048];
	uint16_t index[256];
	size_t at = 0, names = 0;

	memset(f->bytes, 0, f->size);
	memcpy(f->bytes + T_NUM_SYMS, &num_syms, sizeof(num_syms));
	for (uint32_t i = 0; i < nr; i++)
		memcpy(f->bytes + T_ADDRESSES + 8 * i, &syms[i].addr, 8);
	for (int c = 0; c < 256; c++) {
		char token[8] = "";

		if (c < (int)(sizeof(long_tokens) / sizeof(long_tokens[0])) && long_tokens[c])
			snprintf(token, sizeof(token), "%s", long_tokens[c]);
		else if (c >= 0x20 && c < 0x7f)
			token[0] = (char)c;
		index[c] = (uint16_t)at;
		memcpy(f->bytes + T_TOKEN_TABLE + at, token, strlen(token) + 1);
		at += strlen(token) + 1;
	}
	memcpy(f->bytes + T_TOKEN_INDEX, index, sizeof(index));
	for (uint32_t i = 0; i < nr; i++)
		names += encode_entry(f->bytes + T_NAMES + names, syms[i].type, syms[i].name);
	snprintf(text, sizeof(text),
		 "OSRELEASE=6.1.0-fake\nPAGESIZE=4096\nSYMBOL(_stext)=%llx\n"
		 "SYMBOL(kallsyms_num_syms)=%llx\nSYMBOL(kallsyms_names)=%llx\n"
		 "SYMBOL(kallsyms_token_table)=%llx\nSYMBOL(kallsyms_token_index)=%llx\n"
		 "SYMBOL(kallsyms_addresses)=%llx\n%s",
		 (unsigned long long)syms[0].addr, FAKE_VIRT_BASE + T_NUM_SYMS, FAKE_VIRT_BASE + T_NAMES,
		 FAKE_VIRT_BASE + T_TOKEN_TABLE, FAKE_VIRT_BASE + T_TOKEN_INDEX, FAKE_VIRT_BASE + T_ADDRESSES,
		 extra ? extra : "");
	return text;
}

/* Opens the table in @f with VMCOREINFO @text; NULL, with the error in *@err, if it does not. */
static struct kallsyms *open_fake(struct fake_memory *f, const char *text, struct mdf_error **err)
{
	struct vmcoreinfo *vi = NULL;
	struct kallsyms *ks = NULL;

	/* The reader reads the bytes afresh: a new memory, whose cache is empty. */
	*err = vmcoreinfo_parse(text, strlen(text), "fake VMCOREINFO", &vi);
	if (!*err)
		*err = fake_memory_open(f, vi);
	if (!*err)
		*err = kallsyms_new(f->mem, vi, &ks);
	vmcoreinfo_free(vi);
	return ks;
}

#define B FAKE_VIRT_BASE
static char long_name[301];

static void test_fake_table(void)
{
	const struct fake_sym syms[] = {
		{ 'T', "_stext", B },
		{ 't', "dup_name", B + 0x100 },
		{ 'T', "dup_name", B + 0x200 },
		{ 't', "only_local", B + 0x300 },
		{ 't', "only_local", B + 0x400 },
		{ 'T', "two_globals", B + 0x500 },
		{ 'T', "two_globals", B + 0x600 },
		{ 'U', "undef_then_def", 0 },
		{ 't', "undef_then_def", B + 0x800 },
		{ 'U', "only_undef", 0 },
		{ 'd', "dup", B + 0xa00 },
		{ 'W', "weak_then_global", B + 0xb00 },
		{ 'T', "weak_then_global", B + 0xc00 },
		{ 'T', long_name, B + 0xd00 },
		{ 'T', "symbolic", B + 0xe00 },
		{ 'b', "x", B + 0xf00 },
	};
	const uint32_t nr = sizeof(syms) / sizeof(syms[0]);
	struct fake_memory *f = fake_memory_new(T_SIZE);
	struct kallsyms *ks;
	struct mdf_error *err;

	if (!f) {
		check(0, "fake memory: no memory");
		return;
	}
	memcpy(long_name, "long_", 5);
	memset(long_name + 5, 'x', sizeof(long_name) - 6);

	ks = open_fake(f, layout_table(f, syms, nr, nr, NULL), &err);
	check(ks != NULL, "fake table: kallsyms_new%s%s", err ? ": " : "", err ? mdf_error_text(err) : "");
	mdf_error_free(err);
	if (ks) {
		struct oracle o = { nr, calloc(nr, 8), calloc(nr, 1), calloc(nr, sizeof(char *)) };
		struct walk w = { &o, 0, 0, "fake table" };

		for (uint32_t i = 0; i < nr; i++) {
			o.addr[i] = syms[i].addr;
			o.type[i] = syms[i].type;
			o.name[i] = strdup(syms[i].name);
		}
		check(kallsyms_count(ks) == nr, "fake table: %u symbols", nr);
		err = kallsyms_for_each(ks, compare_symbol, &w);
		check(!err && w.seen == nr && !w.wrong,
		      "fake table: every symbol decodes (multi-character tokens, one holding the type letter, "
		      "a %zu-character name with a two-byte length)", strlen(long_name));
		mdf_error_free(err);
		oracle_free(&o);

		const char *names[] = { "dup_name", "only_local", "two_globals", "undef_then_def", "only_undef",
					"dup", "weak_then_global", "x", "symbolic", long_name, "_stext",
					"absent_name", "dup_nam", "dup_name_", "du" };
		const int64_t want[] = { 2, 3, 5, 8, -1, 10, 11, 15, 14, 13, 0, -1, -1, -1, -1 };
		const char *what[] = {
			"a local then a global: the global",
			"two locals: the first",
			"two globals: the first",
			"an undefined one then a local: the local",
			"only an undefined one: none",
			"a name that is a prefix of others: its own",
			"a weak (W) then a global (T): the first, W being upper case",
			"a one-character name",
			"a name whose first token holds the type letter",
			"the long name",
			"the first symbol",
			"an absent name",
			"a prefix of a name",
			"a name extended",
			"a shorter prefix",
		};
		int64_t index[sizeof(names) / sizeof(names[0])];

		err = kallsyms_find(ks, names, sizeof(names) / sizeof(names[0]), index);
		check(!err, "fake table: kallsyms_find of %zu names at once", sizeof(names) / sizeof(names[0]));
		for (size_t i = 0; !err && i < sizeof(names) / sizeof(names[0]); i++)
			check(index[i] == want[i],
			      "fake table: kallsyms_find(\"%.20s\"): %s (%" PRId64 ", want %" PRId64 ")",
			      names[i], what[i], index[i], want[i]);
		mdf_error_free(err);
		kallsyms_free(ks);
	}

	/* Damage: each must be an error, not a crash nor a table. */
	{
		struct {
			const char *what;
			uint32_t num_syms;
			const char *extra;
			int patch;   /* 1: an entry of length 0; 2: of length 512; 3: one decoding to a type alone */
		} cases[] = {
			{ "kallsyms_num_syms 0", 0, NULL, 0 },
			{ "kallsyms_num_syms 5000000", 5000000, NULL, 0 },
			{ "kallsyms_num_syms past the last entry", nr + 1, NULL, 0 },
			{ "an entry of length 0", nr, NULL, 1 },
			{ "an entry of length 512", nr, NULL, 2 },
			{ "an entry that decodes to its type letter alone", nr, NULL, 3 },
			{ "SYMBOL(_stext) not where the table puts it", nr, "SYMBOL(_stext)=ffffffff81000010\n", 0 },
			{ "kallsyms_names running off the end of memory", nr,
			  "SYMBOL(kallsyms_names)=ffffffff8100ffff\n", 0 },
			{ "kallsyms_token_index past the end of memory", nr,
			  "SYMBOL(kallsyms_token_index)=ffffffff8100ff00\n", 0 },
			{ "neither kallsyms_addresses nor kallsyms_offsets", nr, "SYMBOL(kallsyms_addresses)=zz\n", 0 },
		};

		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			const char *text = layout_table(f, syms, nr, cases[c].num_syms, cases[c].extra);
			unsigned char *entry3 = f->bytes + T_NAMES;

			/* The fourth entry ("tonly_local": 7 tokens) is the one damaged. */
			for (int i = 0; i < 3; i++)
				entry3 += entry3[0] & 0x80 ? 2 + ((entry3[0] & 0x7f) | (entry3[1] << 7))
							   : 1 + entry3[0];
			if (cases[c].patch == 1)
				entry3[0] = 0;
			if (cases[c].patch == 2) {
				entry3[0] = 0x80;
				entry3[1] = 0x04;
			}
			if (cases[c].patch == 3) {
				/* Length 1, the letter; the rest of the old entry become entries of their own. */
				entry3[0] = 1;
				entry3[1] = 't';
			}
			ks = open_fake(f, text, &err);
			check(!ks && err && err->code < 0, "fake table, %s: kallsyms_new fails (%s)", cases[c].what,
			      err ? mdf_error_text(err) : "it did not");
			mdf_error_free(err);
			kallsyms_free(ks);
		}
	}
	fake_memory_free(f);
}

int main(void)
{
	static const char *const encodings[] = { "abs-percpu", "base-relative", "place-relative", "absolute" };
	const char *dir;

	msg_set_level(ML_ERROR);
	test_fake_table();
	dir = unit_workdir("test_kallsyms");
	if (dir) {
		for (size_t i = 0; i < sizeof(encodings) / sizeof(encodings[0]); i++)
			test_generated_encoding(dir, encodings[i]);
		test_generated_damage(dir);
		rmdir(dir);
	}
	return unit_exit_status();
}
