// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The filter config: parsed whole first, so that a syntax error stops the
 * run before anything is written, then resolved against the dump.
 *
 * The file is a stream of whitespace-separated tokens; a command may span
 * lines.  Two things are line-based, as upstream has them: '#' comments to
 * the end of its line, and a line that starts with '[' names the section
 * of the commands that follow.
 *
 * Resolution evaluates each expression as C would, with the dump's BTF
 * for types: a value is an address and a type.  A member of a struct adds
 * its offset; a member of a pointer to a struct reads the pointer first.
 * What "erase EXPR" erases then depends on the type of EXPR, as upstream
 * decided it: a pointer's target (sizeof the target, or the string's
 * length for char *, at most 1024 bytes), anything else the bytes of the
 * value itself.  "size" replaces the length, "nullify" erases the pointer.
 *
 * Everything read from the dump is bounded: strings, sizes read from
 * memory, array lengths, and lists, which also stop at an element seen
 * before.
 */
#include <bpf/btf.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erase/config.h"
#include "erase/erase_set.h"
#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/kernel.h"
#include "kernel/modules.h"
#include "kernel/walkers.h"
#include "memory/reader.h"
#include "util/addr_set.h"
#include "util/message.h"
#include "util/text_file.h"
#include "util/vec.h"

/* x86_64, the architecture this program reads. */
#define POINTER_SIZE 8
/* Upstream's bound on the length of a string erased through a char *. */
#define MAX_STRING 1024
/* A size read from the dump above this is garbage, not a buffer to erase. */
#define MAX_READ_SIZE (16u << 20)
/* Elements of one loop: arrays, lists. */
#define MAX_ELEMENTS (1u << 20)
#define MAX_MEMBERS 32
#define MAX_CAST_POINTERS 4
#define MAX_TYPE_DEPTH 64

/* ---- The parsed config ---- */

/* SYMBOL[.MEMBER...] or (TYPE)SYMBOL[...] or, in a loop, ID[.MEMBER...]. */
struct expr {
	char *text;               /* as written: the eraseinfo names commands by it */
	char *cast;               /* TYPE of (TYPE*...), or NULL */
	unsigned int cast_ptrs;
	char *buf;                /* the names, NUL-separated */
	const char *names[MAX_MEMBERS];
	size_t nr_names;
	bool is_var;              /* names[0] is the loop variable */
};

enum size_kind {
	SIZE_OF_TYPE,             /* no size given: from the type */
	SIZE_LITERAL,             /* size N[K|M] */
	SIZE_EXPR,                /* size EXPR */
	SIZE_NULLIFY,             /* nullify */
};

struct erase_cmd {
	unsigned int line;
	struct expr target;
	enum size_kind size_kind;
	uint64_t size;
	struct expr size_expr;
};

enum loop_kind {
	LOOP_PLAIN,               /* for ID in EXPR */
	LOOP_VIA,                 /* ... via MEMBER */
	LOOP_WITHIN,              /* ... within STRUCT[:MEMBER] */
};

struct loop {
	char *var;
	struct expr list;
	enum loop_kind kind;
	char *member;             /* via's NextMember, within's ListHeadMember */
	char *struct_name;        /* within's */
	struct erase_cmd *cmds;
	size_t nr_cmds, cap_cmds;
};

struct stmt {
	const char *module;       /* its section's module; NULL for vmlinux */
	size_t section;           /* index of its section, for messages once per section */
	unsigned int line;
	bool is_loop;
	struct erase_cmd cmd;
	struct loop loop;
};

struct erase_config {
	char *path;
	char **sections;          /* names of the [sections], in order */
	size_t nr_sections, cap_sections;
	struct stmt *stmts;
	size_t nr_stmts, cap_stmts;
};

/* ---- Reading tokens ---- */

struct token {
	char *text;
	unsigned int line;
	size_t section;           /* 0: before any section header; i + 1: sections[i] */
};

struct parser {
	struct erase_config *cfg;
	struct token *tokens;
	size_t nr_tokens, cap_tokens, pos;
	/* The first syntax error, which erase_config_load returns. */
	struct mdf_error **error;
};

static void syntax_error(const struct parser *p, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void syntax_error(const struct parser *p, unsigned int line, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!*p->error)
		*p->error = mdf_error(-EINVAL, "%s:%u: %s", p->cfg->path, line, text);
}

static int add_token(struct parser *p, const char *text, size_t len, unsigned int line)
{
	struct token *t;

	if (vec_reserve(p->tokens, &p->cap_tokens, p->nr_tokens, 1))
		return -ENOMEM;
	t = &p->tokens[p->nr_tokens];
	t->text = strndup(text, len);
	if (!t->text)
		return -ENOMEM;
	t->line = line;
	t->section = p->cfg->nr_sections;
	p->nr_tokens++;
	return 0;
}

/* "[NAME]" at the start of @line: the section's name, nothing but a comment after it. */
static int add_section(struct parser *p, char *line, unsigned int number)
{
	char *end = strchr(line, ']'), *name;

	if (!end) {
		syntax_error(p, number, "a section header needs its closing ']'");
		return -EINVAL;
	}
	*end = '\0';
	name = line + 1;
	if (!*name || strpbrk(name, " \t")) {
		syntax_error(p, number, "\"[%s]\" is not a module section: the name of vmlinux or of "
			     "a module, with no spaces", name);
		return -EINVAL;
	}
	if (end[1 + strspn(end + 1, " \t\r\n")]) {
		syntax_error(p, number, "nothing but a comment may follow the section header [%s]", name);
		return -EINVAL;
	}
	if (vec_reserve(p->cfg->sections, &p->cfg->cap_sections, p->cfg->nr_sections, 1))
		return -ENOMEM;
	p->cfg->sections[p->cfg->nr_sections] = strdup(name);
	if (!p->cfg->sections[p->cfg->nr_sections])
		return -ENOMEM;
	p->cfg->nr_sections++;
	return 0;
}

static int read_tokens(struct parser *p, FILE *file)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned int number = 0;
	int err = 0;

	while (!err && getline(&line, &cap, file) >= 0) {
		char *hash = strchr(line, '#'), *s;

		number++;
		if (hash)
			*hash = '\0';
		if (line[0] == '[') {
			err = add_section(p, line, number);
			continue;
		}
		for (s = line; !err;) {
			size_t len;

			s += strspn(s, " \t\r\n\v\f");
			len = strcspn(s, " \t\r\n\v\f");
			if (!len)
				break;
			if (*s == '[') {
				syntax_error(p, number, "a section header must start its line");
				err = -EINVAL;
				break;
			}
			err = add_token(p, s, len, number);
			s += len;
		}
	}
	if (!err && ferror(file)) {
		*p->error = mdf_error(-EIO, "%s: read error after line %u", p->cfg->path, number);
		err = -EIO;
	}
	free(line);
	return err;
}

/* ---- Parsing ---- */

static const char *const keywords[] = { "erase", "size", "nullify", "for", "in",
					"via", "within", "endfor" };

static bool is_keyword(const char *text)
{
	for (size_t i = 0; i < sizeof(keywords) / sizeof(*keywords); i++)
		if (!strcmp(text, keywords[i]))
			return true;
	return false;
}

static bool is_identifier(const char *s, size_t len)
{
	if (!len || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

static const struct token *peek(const struct parser *p)
{
	return p->pos < p->nr_tokens ? &p->tokens[p->pos] : NULL;
}

/* The next token if it is @keyword (consumed), else NULL. */
static const struct token *accept(struct parser *p, const char *keyword)
{
	const struct token *t = peek(p);

	if (!t || strcmp(t->text, keyword))
		return NULL;
	p->pos++;
	return t;
}

/*
 * The next token, which a command begun at @first needs: present, not a
 * keyword, and in the same section.  @what says what was expected.
 */
static const struct token *operand(struct parser *p, const struct token *first, const struct token *after,
				   const char *what)
{
	const struct token *t = peek(p);

	if (!t || is_keyword(t->text)) {
		syntax_error(p, t ? t->line : after->line, "expected %s after '%s'%s%s%s", what,
			     after->text, t ? ", found '" : "", t ? t->text : "", t ? "'" : "");
		return NULL;
	}
	if (t->section != first->section) {
		syntax_error(p, t->line, "a section header inside the command that began on line %u",
			     first->line);
		return NULL;
	}
	p->pos++;
	return t;
}

static void free_expr(struct expr *e)
{
	free(e->text);
	free(e->cast);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

/* [(TYPE[*...])]NAME[.MEMBER...]; @var: the loop variable, or NULL outside a loop. */
static int parse_expr(const struct parser *p, const struct token *t, const char *var, struct expr *e)
{
	const char *s = t->text;
	char *name, *dot;

	memset(e, 0, sizeof(*e));
	e->text = strdup(s);
	if (!e->text)
		return -ENOMEM;
	if (*s == '(') {
		const char *close = strchr(s, ')'), *star;
		size_t len;

		if (!close) {
			syntax_error(p, t->line, "'%s': a cast needs its ')'", t->text);
			return -EINVAL;
		}
		star = memchr(s, '*', (size_t)(close - s));
		len = (size_t)((star ? star : close) - s - 1);
		e->cast_ptrs = (unsigned int)(close - (star ? star : close));
		if (!is_identifier(s + 1, len) || strspn(star ? star : close, "*") != e->cast_ptrs ||
		    e->cast_ptrs > MAX_CAST_POINTERS) {
			syntax_error(p, t->line, "'%s': a cast is (TYPE) or (TYPE*), TYPE a struct, union, "
				     "typedef or base type name without spaces", t->text);
			return -EINVAL;
		}
		e->cast = strndup(s + 1, len);
		if (!e->cast)
			return -ENOMEM;
		s = close + 1;
	}
	e->buf = strdup(s);
	if (!e->buf)
		return -ENOMEM;
	for (name = e->buf; name; name = dot) {
		dot = strchr(name, '.');
		if (dot)
			*dot++ = '\0';
		if (!is_identifier(name, strlen(name)) || e->nr_names == MAX_MEMBERS) {
			syntax_error(p, t->line, "'%s' is not SYMBOL[.MEMBER...]: names are C identifiers, "
				     "at most %d of them", t->text, MAX_MEMBERS);
			return -EINVAL;
		}
		e->names[e->nr_names++] = name;
	}
	e->is_var = var && !strcmp(e->names[0], var);
	if (e->is_var && e->cast) {
		syntax_error(p, t->line, "'%s': the loop variable %s has its type already: no cast", t->text,
			     var);
		return -EINVAL;
	}
	return 0;
}

/* N, NK or NM (K and M in either case): a positive number of bytes. */
static int parse_size(const struct parser *p, const struct token *t, uint64_t *size)
{
	char *end;
	uint64_t unit = 1;

	errno = 0;
	*size = strtoull(t->text, &end, 10);
	if (*end && !end[1] && strchr("kKmM", *end))
		unit = *end == 'k' || *end == 'K' ? 1024 : 1024 * 1024;
	else if (*end)
		end = NULL;
	if (!end || errno || !*size || *size > UINT64_MAX / unit) {
		syntax_error(p, t->line, "size '%s' is not a positive number of bytes, with K or M "
			     "for KiB or MiB", t->text);
		return -EINVAL;
	}
	*size *= unit;
	return 0;
}

/* After "erase": EXPR [size N|size EXPR|nullify]. */
static int parse_erase(struct parser *p, const struct token *kw, const char *var, struct erase_cmd *c)
{
	const struct token *t = operand(p, kw, kw, "what to erase");
	int err;

	memset(c, 0, sizeof(*c));
	c->line = kw->line;
	if (!t)
		return -EINVAL;
	err = parse_expr(p, t, var, &c->target);
	if (err)
		return err;
	if (var && !c->target.is_var) {
		syntax_error(p, t->line, "'%s': an erase inside the loop over %s erases %s or its members",
			     t->text, var, var);
		return -EINVAL;
	}
	if (accept(p, "nullify")) {
		c->size_kind = SIZE_NULLIFY;
		return 0;
	}
	if (!(kw = accept(p, "size")))
		return 0;
	t = operand(p, t, kw, "a size");
	if (!t)
		return -EINVAL;
	if (isdigit((unsigned char)t->text[0])) {
		c->size_kind = SIZE_LITERAL;
		return parse_size(p, t, &c->size);
	}
	c->size_kind = SIZE_EXPR;
	return parse_expr(p, t, var, &c->size_expr);
}

/* After "for": ID in EXPR [via MEMBER | within STRUCT[:MEMBER]] (erase ...)* endfor. */
static int parse_for(struct parser *p, const struct token *kw, struct loop *l)
{
	const struct token *t = operand(p, kw, kw, "the loop variable"), *in;
	int err;

	if (!t)
		return -EINVAL;
	if (!is_identifier(t->text, strlen(t->text))) {
		syntax_error(p, t->line, "loop variable '%s' is not a C identifier", t->text);
		return -EINVAL;
	}
	l->var = strdup(t->text);
	if (!l->var)
		return -ENOMEM;
	if (!(in = accept(p, "in"))) {
		syntax_error(p, t->line, "expected 'in' after 'for %s'", l->var);
		return -EINVAL;
	}
	t = operand(p, kw, in, "what to loop over");
	if (!t)
		return -EINVAL;
	err = parse_expr(p, t, NULL, &l->list);
	if (err)
		return err;
	if ((in = accept(p, "via"))) {
		t = operand(p, kw, in, "the member that links the elements");
		if (!t)
			return -EINVAL;
		if (!is_identifier(t->text, strlen(t->text))) {
			syntax_error(p, t->line, "'%s' is not a member name", t->text);
			return -EINVAL;
		}
		l->kind = LOOP_VIA;
		l->member = strdup(t->text);
	} else if ((in = accept(p, "within"))) {
		const char *colon;
		size_t len;

		t = operand(p, kw, in, "STRUCT:MEMBER");
		if (!t)
			return -EINVAL;
		colon = strchr(t->text, ':');
		len = colon ? (size_t)(colon - t->text) : strlen(t->text);
		if (!is_identifier(t->text, len) || (colon && !is_identifier(colon + 1, strlen(colon + 1)))) {
			syntax_error(p, t->line, "'%s' is not STRUCT or STRUCT:MEMBER", t->text);
			return -EINVAL;
		}
		l->kind = LOOP_WITHIN;
		l->struct_name = strndup(t->text, len);
		/* Upstream's default: the list_head member called "list". */
		l->member = strdup(colon ? colon + 1 : "list");
		if (!l->struct_name)
			return -ENOMEM;
	}
	if (l->kind != LOOP_PLAIN && !l->member)
		return -ENOMEM;
	for (;;) {
		t = peek(p);
		if (!t) {
			syntax_error(p, kw->line, "this for has no endfor");
			return -EINVAL;
		}
		p->pos++;
		if (!strcmp(t->text, "endfor"))
			return 0;
		if (strcmp(t->text, "erase")) {
			syntax_error(p, t->line, "expected erase or endfor in the loop that began on line %u, "
				     "found '%s'%s", kw->line, t->text,
				     strcmp(t->text, "for") ? "" : " (loops do not nest)");
			return -EINVAL;
		}
		if (vec_reserve(l->cmds, &l->cap_cmds, l->nr_cmds, 1))
			return -ENOMEM;
		err = parse_erase(p, t, l->var, &l->cmds[l->nr_cmds++]);
		if (err)
			return err;
	}
}

static int parse(struct parser *p)
{
	struct erase_config *cfg = p->cfg;
	const struct token *t;

	while ((t = peek(p))) {
		struct stmt *s;
		int err;

		if (vec_reserve(cfg->stmts, &cfg->cap_stmts, cfg->nr_stmts, 1))
			return -ENOMEM;
		s = memset(&cfg->stmts[cfg->nr_stmts++], 0, sizeof(*s));
		s->line = t->line;
		s->section = t->section;
		if (t->section && strcmp(cfg->sections[t->section - 1], "vmlinux"))
			s->module = cfg->sections[t->section - 1];
		p->pos++;
		if (!strcmp(t->text, "erase")) {
			err = parse_erase(p, t, NULL, &s->cmd);
		} else if (!strcmp(t->text, "for")) {
			s->is_loop = true;
			err = parse_for(p, t, &s->loop);
		} else {
			syntax_error(p, t->line, "expected erase or for, found '%s'", t->text);
			err = -EINVAL;
		}
		if (err)
			return err;
	}
	return 0;
}

static void free_cmd(struct erase_cmd *c)
{
	free_expr(&c->target);
	free_expr(&c->size_expr);
}

void erase_config_free(struct erase_config *cfg)
{
	if (!cfg)
		return;
	for (size_t i = 0; i < cfg->nr_stmts; i++) {
		struct stmt *s = &cfg->stmts[i];

		free_cmd(&s->cmd);
		free(s->loop.var);
		free_expr(&s->loop.list);
		free(s->loop.member);
		free(s->loop.struct_name);
		for (size_t k = 0; k < s->loop.nr_cmds; k++)
			free_cmd(&s->loop.cmds[k]);
		free(s->loop.cmds);
	}
	free(cfg->stmts);
	for (size_t i = 0; i < cfg->nr_sections; i++)
		free(cfg->sections[i]);
	free(cfg->sections);
	free(cfg->path);
	free(cfg);
}

struct mdf_error *erase_config_load(const char *path, struct erase_config **out)
{
	struct mdf_error *error = NULL;
	struct parser p = { .error = &error };
	char *text;
	size_t len;
	FILE *file;
	int err;

	p.cfg = calloc(1, sizeof(*p.cfg));
	if (!p.cfg || !(p.cfg->path = strdup(path))) {
		free(p.cfg);
		return &mdf_error_enomem;
	}
	/* Configs are a few lines; a megabyte is far more than any needs. */
	error = text_file_read(path, 1u << 20, "the filter config", true, &text, &len);
	if (error) {
		erase_config_free(p.cfg);
		return error;
	}
	file = fmemopen(text, len, "r");
	err = file ? read_tokens(&p, file) : -ENOMEM;
	if (file)
		fclose(file);
	free(text);
	if (!err)
		err = parse(&p);
	for (size_t i = 0; i < p.nr_tokens; i++)
		free(p.tokens[i].text);
	free(p.tokens);
	if (err) {
		erase_config_free(p.cfg);
		if (err == -ENOMEM) {
			mdf_error_free(error);
			return mdf_error(-ENOMEM, "%s: no memory to read the filter config", path);
		}
		return error ? error : mdf_error_code(err);
	}
	*out = p.cfg;
	return NULL;
}

/* ---- Types: a BTF type, with the pointer levels a cast adds on top ---- */

struct ctype {
	const struct btf *btf;
	uint32_t id;              /* 0 is void */
	unsigned int ptrs;
};

/* Follows typedefs and qualifiers. */
static struct ctype strip(struct ctype t)
{
	for (int depth = 0; !t.ptrs && t.id && depth < MAX_TYPE_DEPTH; depth++) {
		const struct btf_type *bt = btf__type_by_id(t.btf, t.id);

		if (!bt || !(btf_is_typedef(bt) || btf_is_mod(bt) || btf_is_type_tag(bt)))
			break;
		t.id = bt->type;
	}
	return t;
}

/* The BTF type of a stripped type that is no added pointer, or NULL (void too). */
static const struct btf_type *btf_type(struct ctype t)
{
	return t.ptrs || !t.id ? NULL : btf__type_by_id(t.btf, t.id);
}

static bool is_ptr(struct ctype t)
{
	const struct btf_type *bt;

	t = strip(t);
	bt = btf_type(t);
	return t.ptrs || (bt && btf_is_ptr(bt));
}

static struct ctype pointee(struct ctype t)
{
	t = strip(t);
	if (t.ptrs) {
		t.ptrs--;
		return t;
	}
	return strip((struct ctype){ t.btf, btf_type(t)->type, 0 });
}

static bool is_composite(struct ctype t)
{
	const struct btf_type *bt = btf_type(strip(t));

	return bt && btf_is_composite(bt);
}

static bool is_void(struct ctype t)
{
	t = strip(t);
	return !t.ptrs && !t.id;
}

static bool is_named(struct ctype t, const char *name)
{
	const struct btf_type *bt = btf_type(strip(t));

	return bt && !strcmp(btf__name_by_offset(strip(t).btf, bt->name_off), name);
}

static bool is_char(struct ctype t)
{
	const struct btf_type *bt = btf_type(strip(t));

	return bt && btf_is_int(bt) && bt->size == 1 && is_named(t, "char");
}

static bool is_integer(struct ctype t)
{
	const struct btf_type *bt = btf_type(strip(t));

	return bt && (btf_is_int(bt) || btf_is_any_enum(bt)) &&
	       (bt->size == 1 || bt->size == 2 || bt->size == 4 || bt->size == 8);
}

static bool is_list_head(struct ctype t)
{
	return is_composite(t) && is_named(t, "list_head");
}

/* Bytes of @t; 0 for void and for what has no size (a declaration only). */
static uint64_t type_size(struct ctype t)
{
	long long size;

	t = strip(t);
	if (t.ptrs)
		return POINTER_SIZE;
	if (!t.id)
		return 0;
	size = btf__resolve_size(t.btf, t.id);
	return size > 0 ? (uint64_t)size : 0;
}

/* "struct task_struct", "char *", "an array": for messages. */
static void describe(struct ctype t, char *buf, size_t len)
{
	const struct btf_type *bt;
	const char *keyword = "", *name = "void";
	unsigned int stars = 0;

	while (is_ptr(t) && stars < 8) {
		t = pointee(t);
		stars++;
	}
	bt = btf_type(strip(t));
	if (bt) {
		name = btf__name_by_offset(t.btf, bt->name_off);
		if (btf_is_struct(bt))
			keyword = "struct ";
		else if (btf_is_union(bt))
			keyword = "union ";
		else if (btf_is_any_enum(bt))
			keyword = "enum ";
		else if (btf_is_array(bt))
			name = "an array";
		if (!name || !*name)
			name = "(anonymous)";
	}
	snprintf(buf, len, "%s%s%s%.*s", keyword, name, stars ? " " : "", (int)stars, "********");
}

/* A member of the composite @t, searched inside anonymous members too. */
static bool find_member(struct ctype t, const char *name, uint64_t base, int depth, uint64_t *bit_offset,
			uint32_t *type, uint32_t *bitfield)
{
	const struct btf_type *bt = btf_type(strip(t));
	const struct btf_member *m = btf_members(bt);

	for (uint32_t i = 0; i < btf_vlen(bt); i++) {
		const char *member = btf__name_by_offset(t.btf, m[i].name_off);
		struct ctype inner = { t.btf, m[i].type, 0 };
		uint64_t offset = base + btf_member_bit_offset(bt, i);

		if (member && *member) {
			if (strcmp(member, name))
				continue;
			*bit_offset = offset;
			*type = m[i].type;
			*bitfield = btf_member_bitfield_size(bt, i);
			return true;
		}
		if (depth < MAX_TYPE_DEPTH && is_composite(inner) &&
		    find_member(strip(inner), name, offset, depth + 1, bit_offset, type, bitfield))
			return true;
	}
	return false;
}

/* ---- Resolution ---- */

struct value {
	uint64_t addr;
	bool typed;
	bool null;                /* the expression went through a NULL pointer */
	struct ctype type;
};

/* A type guessed for a symbol (guess_type), kept so that each is guessed and said once. */
struct guess {
	char *key;                /* "MODULE:SYMBOL.MEMBER" */
	bool typed;
	struct ctype type;
};

struct resolver {
	const struct erase_config *cfg;
	struct memory *mem;
	struct kernel *kernel;
	struct modules *modules;  /* NULL when module symbols cannot be read */
	struct btf_info *btf;     /* NULL when the dump has no usable BTF */
	/* What ended the resolving: no memory, too much to erase. */
	struct mdf_error *fatal;
	bool modules_tried;
	struct erase_set *set;
	struct walk_ctx walk;
	uint64_t percpu_start, percpu_end;
	/* The statement being resolved. */
	const char *module;
	unsigned int line;
	/* Inside a loop: the variable and the element it stands for. */
	struct value var;
	/* A loop says each command's problem once: later ones are counted. */
	bool quiet;
	bool warned;
	size_t erasures;
	struct guess *guesses;
	size_t nr_guesses, cap_guesses;
};

static void warn(struct resolver *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void warn(struct resolver *r, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	r->warned = true;
	if (r->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	msg_warn("%s:%u: %s", r->cfg->path, r->line, text);
}

/* The first @n names of @e joined by dots: what the expression has reached. */
static const char *prefix(const struct expr *e, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "." : "", e->names[i]);
	return buf;
}

static int read_pointer(struct resolver *r, uint64_t addr, const char *what, uint64_t *value)
{
	struct mdf_error *err = mem_read_u64(r->mem, addr, value);

	if (err)
		warn(r, "cannot read the pointer %s at 0x%" PRIx64 ": %s", what, addr, mdf_error_text(err));
	return mdf_error_drop(err);
}

/*
 * A type by name: a module's section looks in its module first, then in
 * vmlinux and the other modules; vmlinux's section in vmlinux alone, as
 * upstream's does, which spares reading every module's types.
 */
static int lookup(struct resolver *r, const char *name, struct btf_info_result *res)
{
	struct mdf_error *err = btf_info_lookup(r->btf, r->module ? r->module : "vmlinux", name, res);

	if (err && err->code == -ENOENT && r->module) {
		mdf_error_free(err);
		err = btf_info_lookup(r->btf, NULL, name, res);
	}
	return mdf_error_drop(err);
}

static int lookup_type(struct resolver *r, const char *name, struct ctype *t)
{
	struct btf_info_result res;
	int err = r->btf ? lookup(r, name, &res) : -ENOENT;

	if (!err && res.kind != BTF_INFO_TYPE)
		err = -ENOENT;
	if (err) {
		warn(r, "no type %s in the dump's BTF", name);
		return err;
	}
	*t = (struct ctype){ res.btf, res.type_id, 0 };
	return 0;
}

/*
 * The kernel's table is sorted by address (the kernel's own lookups
 * search it in halves), so the symbol after @addr is found in place.  A
 * table garbled out of order gives a wrong room, never a wrong read: the
 * room only guesses a type.
 */
static uint64_t next_kernel_symbol(struct resolver *r, uint64_t addr)
{
	struct kallsyms *ks;
	uint64_t found = 0;
	size_t lo = 0, hi;

	if (mdf_error_drop(kernel_kallsyms(r->kernel, &ks)))
		return 0;
	for (hi = kallsyms_count(ks); lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t at;

		if (mdf_error_drop(kallsyms_address(ks, mid, &at)))
			return 0;
		if (at <= addr) {
			lo = mid + 1;
		} else {
			found = at;
			hi = mid;
		}
	}
	return found;
}

struct next_module_symbol {
	const char *module;
	uint64_t addr;
	uint64_t found;
};

static struct mdf_error *closer_module_symbol(void *ctx, const struct ksym *sym)
{
	struct next_module_symbol *n = ctx;

	if (sym->addr > n->addr && (!n->found || sym->addr < n->found) && !strcmp(sym->module, n->module))
		n->found = sym->addr;
	return NULL;
}

/* Where the next symbol after @addr starts, or 0: how far a variable at @addr may reach. */
static uint64_t next_symbol(struct resolver *r, uint64_t addr)
{
	struct next_module_symbol n = { r->module, addr, 0 };

	/* A module's variable ends where its module's next symbol starts; failing one, the kernel's. */
	if (r->module && r->modules &&
	    !mdf_error_drop(modules_for_each_symbol(r->modules, closer_module_symbol, &n)) && n.found)
		return n.found;
	return next_kernel_symbol(r, addr);
}

/*
 * The one struct or union of the scope's BTF that is exactly @size bytes
 * and has @member (any, when NULL), or none: a variable's type guessed
 * from the room kallsyms leaves it.
 */
static bool guess_type(struct resolver *r, uint64_t size, const char *member, struct ctype *out)
{
	const struct btf *btf;
	const char *found = NULL;

	if (mdf_error_drop(btf_info_scope_btf(r->btf, r->module, &btf)) &&
	    mdf_error_drop(btf_info_scope_btf(r->btf, NULL, &btf)))
		return false;
	for (uint32_t id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *bt = btf__type_by_id(btf, id);
		struct ctype t = { btf, id, 0 };
		const char *name;
		uint64_t bits;
		uint32_t type, bitfield;

		if (!btf_is_composite(bt) || bt->size != size || !bt->name_off)
			continue;
		name = btf__name_by_offset(btf, bt->name_off);
		if (member && !find_member(t, member, 0, 0, &bits, &type, &bitfield))
			continue;
		/* A type a module's BTF repeats from vmlinux's is the same type. */
		if (found && strcmp(found, name))
			return false;
		found = name;
		*out = t;
	}
	return found != NULL;
}

/*
 * guess_type() for the symbol of @e, in @room bytes, said at info level
 * the first time.  Without memory to remember it, guessed again next time.
 */
static void remembered_guess(struct resolver *r, const struct expr *e, uint64_t room, struct value *v)
{
	const char *member = e->nr_names > 1 ? e->names[1] : NULL;
	struct guess *g, scratch;
	char key[256], label[128];

	snprintf(key, sizeof(key), "%s:%s.%s", r->module ? r->module : "", e->names[0],
		 member ? member : "");
	for (size_t i = 0; i < r->nr_guesses; i++) {
		if (!strcmp(r->guesses[i].key, key)) {
			v->typed = r->guesses[i].typed;
			v->type = r->guesses[i].type;
			return;
		}
	}
	g = &scratch;
	if (!vec_reserve(r->guesses, &r->cap_guesses, r->nr_guesses, 1)) {
		r->guesses[r->nr_guesses].key = strdup(key);
		if (r->guesses[r->nr_guesses].key)
			g = &r->guesses[r->nr_guesses++];
	}
	g->typed = guess_type(r, room, member, &g->type);
	v->typed = g->typed;
	v->type = g->type;
	if (g->typed) {
		describe(g->type, label, sizeof(label));
		msg_info("%s:%u: %s taken to be %s, the only struct or union of its %" PRIu64 " bytes%s%s "
			 "(say (TYPE)%s otherwise)", r->cfg->path, r->line, e->names[0], label, room,
			 member ? " with a member " : "", member ? member : "", e->names[0]);
	}
}

/*
 * The type of the symbol @e names, at @addr: the cast, BTF's variable, a
 * struct or union of the symbol's name that fits before the next symbol,
 * or the one struct or union as large as that room (with the member the
 * expression needs).  Untyped when none.
 */
static int symbol_type(struct resolver *r, const struct expr *e, uint64_t addr, struct value *v)
{
	const char *name = e->names[0];
	struct btf_info_result res;
	uint64_t room;
	int err;

	if (e->cast) {
		err = lookup_type(r, e->cast, &v->type);
		v->type.ptrs = e->cast_ptrs;
		v->typed = !err;
		return err;
	}
	if (!r->btf)
		return 0;
	err = lookup(r, name, &res);
	if (!err && res.kind == BTF_INFO_VARIABLE) {
		v->type = (struct ctype){ res.btf, res.type_id, 0 };
		v->typed = true;
		return 0;
	}
	room = next_symbol(r, addr);
	room = room ? room - addr : 0;
	if (!err && res.kind == BTF_INFO_TYPE && is_composite((struct ctype){ res.btf, res.type_id, 0 }) &&
	    (!room || (uint64_t)res.size <= room)) {
		v->type = (struct ctype){ res.btf, res.type_id, 0 };
		v->typed = true;
		msg_debug("%s:%u: %s taken to be of its namesake type", r->cfg->path, r->line, name);
		return 0;
	}
	if (room)
		remembered_guess(r, e, room, v);
	return 0;
}

static int symbol_value(struct resolver *r, const struct expr *e, struct value *v)
{
	const char *name = e->names[0];
	bool found;

	found = (r->module && !mdf_error_drop(kernel_symbol_address(r->kernel, r->module, name, &v->addr))) ||
		!mdf_error_drop(kernel_symbol_address(r->kernel, "vmlinux", name, &v->addr));
	if (!found) {
		warn(r, "no symbol %s in the kallsyms of %s%s", name, r->module ? r->module : "vmlinux",
		     r->module ? " or vmlinux" : "");
		return -ENOENT;
	}
	if (v->addr >= r->percpu_start && v->addr < r->percpu_end) {
		warn(r, "%s is a per-cpu variable: erasing per-cpu data is not supported", name);
		return -EOPNOTSUPP;
	}
	return symbol_type(r, e, v->addr, v);
}

/*
 * Evaluates @e to an address and, when known, a type.  @untyped: the type
 * of a symbol that has none (a loop "within" knows its list is a
 * list_head).  A NULL pointer on the way sets v->null.  Problems are
 * warned about and returned.
 */
static int eval(struct resolver *r, const struct expr *e, const struct ctype *untyped, struct value *v)
{
	char what[256];
	int err;

	memset(v, 0, sizeof(*v));
	if (e->is_var)
		*v = r->var;
	else if ((err = symbol_value(r, e, v)))
		return err;
	if (!v->typed && untyped) {
		v->type = *untyped;
		v->typed = true;
	}
	for (size_t i = 1; i < e->nr_names; i++) {
		struct ctype t = v->type;
		char label[128];
		uint64_t bits;
		uint32_t type, bitfield;

		prefix(e, i, what, sizeof(what));
		if (!v->typed) {
			warn(r, "the dump's BTF does not say the type of %s, so its member %s is unknown: "
			     "name the type, as in (TYPE)%s", e->names[0], e->names[1], e->text);
			return -ENOENT;
		}
		describe(t, label, sizeof(label));
		if (is_ptr(t)) {
			uint64_t ptr;

			t = pointee(t);
			if (!is_composite(t)) {
				warn(r, "%s is %s: it has no member %s", what, label, e->names[i]);
				return -ENOENT;
			}
			err = read_pointer(r, v->addr, what, &ptr);
			if (err)
				return err;
			if (!ptr) {
				msg_debug("%s:%u: %s is NULL", r->cfg->path, r->line, what);
				v->null = true;
				return 0;
			}
			v->addr = ptr;
		} else if (!is_composite(t)) {
			warn(r, "%s is %s: it has no member %s", what, label, e->names[i]);
			return -ENOENT;
		}
		if (!find_member(strip(t), e->names[i], 0, 0, &bits, &type, &bitfield)) {
			describe(t, label, sizeof(label));
			warn(r, "%s has no member %s", label, e->names[i]);
			return -ENOENT;
		}
		if (bitfield || bits % 8) {
			warn(r, "%s.%s is a bitfield: only whole bytes can be erased", what, e->names[i]);
			return -EINVAL;
		}
		v->addr += bits / 8;
		v->type = (struct ctype){ t.btf, type, 0 };
	}
	return 0;
}

/* The length of the string at @addr, at most MAX_STRING, up to what can be read. */
static uint64_t string_length(struct resolver *r, uint64_t addr)
{
	uint32_t page = mem_page_size(r->mem);
	char buf[MAX_STRING];
	uint64_t len = 0;

	while (len < MAX_STRING) {
		uint64_t chunk = page - (addr + len) % page;
		char *nul;

		if (chunk > MAX_STRING - len)
			chunk = MAX_STRING - len;
		if (mem_read_virt(r->mem, addr + len, buf, (size_t)chunk))
			break;
		nul = memchr(buf, '\0', (size_t)chunk);
		if (nul)
			return len + (uint64_t)(nul - buf);
		len += chunk;
	}
	return len;
}

/* The value of the integer that "size EXPR" names. */
static int eval_size(struct resolver *r, const struct erase_cmd *c, uint64_t *size)
{
	unsigned char bytes[8] = { 0 };
	struct mdf_error *read_err;
	struct value v;
	uint64_t n, value = 0;
	int err = eval(r, &c->size_expr, NULL, &v);

	if (err)
		return err;
	if (v.null)
		return -ENOENT;
	if (!v.typed || !is_integer(v.type)) {
		warn(r, "the size %s is not an integer%s", c->size_expr.text,
		     v.typed ? "" : " (the dump's BTF does not say its type)");
		return -EINVAL;
	}
	n = type_size(v.type);
	read_err = mem_read_virt(r->mem, v.addr, bytes, (size_t)n);
	if (read_err) {
		warn(r, "cannot read the size %s at 0x%" PRIx64 ": %s", c->size_expr.text, v.addr,
		     mdf_error_text(read_err));
		return mdf_error_drop(read_err);
	}
	/* The dumped machine is little-endian, as this program's readers assume. */
	for (uint64_t i = n; i-- > 0;)
		value = value << 8 | bytes[i];
	if (value > MAX_READ_SIZE) {
		warn(r, "the size %s is %" PRIu64 " bytes, above the %u bytes a size read from the "
		     "dump may be", c->size_expr.text, value, MAX_READ_SIZE);
		return -ERANGE;
	}
	*size = value;
	return 0;
}

/* Erases @len bytes at @addr as a new sample of @entry; only growth failures are errors. */
static int add_erasure(struct resolver *r, const struct erase_cmd *c, uint32_t entry, uint64_t addr,
		       uint64_t len)
{
	uint32_t sample;
	int err = erase_set_sample(r->set, entry, &sample);

	if (!err)
		err = erase_set_add_virt(r->set, r->mem, sample, addr, len);
	if (err == -ENOMEM || err == -E2BIG) {
		if (!r->fatal)
			r->fatal = mdf_error(err, "%s:%u: %s", r->cfg->path, r->line, err == -ENOMEM
					     ? "no memory for the bytes to erase"
					     : "more pieces to erase than makedumpfile keeps (a page each)");
		return err;
	}
	if (err) {
		warn(r, "cannot erase %" PRIu64 " bytes of %s at 0x%" PRIx64 ": %s", len, c->target.text,
		     addr, mdf_strerror(err));
		return 0;
	}
	r->erasures++;
	return 0;
}

/* One erase command, for the loop element in r->var when in a loop. */
static int erase_cmd(struct resolver *r, const struct erase_cmd *c, uint32_t entry)
{
	const char *text = c->target.text;
	struct value v;
	uint64_t addr, len = 0;
	char label[128];

	if (eval(r, &c->target, NULL, &v) || v.null)
		return 0;
	describe(v.type, label, sizeof(label));
	addr = v.addr;
	if (c->size_kind == SIZE_NULLIFY) {
		if (!v.typed || !is_ptr(v.type)) {
			warn(r, "%s is %s: only a pointer can be nullified", text,
			     v.typed ? label : "of a type the dump's BTF does not say");
			return 0;
		}
		return add_erasure(r, c, entry, addr, POINTER_SIZE);
	}
	if (v.typed && is_ptr(v.type)) {
		struct ctype target = pointee(v.type);

		/* A pointer's target is erased, not the pointer. */
		if (read_pointer(r, v.addr, text, &addr))
			return 0;
		if (!addr) {
			msg_debug("%s:%u: %s is NULL", r->cfg->path, r->line, text);
			return 0;
		}
		if (c->size_kind == SIZE_OF_TYPE) {
			if (is_void(target)) {
				warn(r, "%s is a void pointer: say how much it points to (size) or nullify it",
				     text);
				return 0;
			}
			len = is_char(target) ? string_length(r, addr) : type_size(target);
		}
	} else if (c->size_kind == SIZE_OF_TYPE) {
		if (!v.typed) {
			warn(r, "the dump's BTF does not say the type of %s: give a size (size N) or the "
			     "type, as in (TYPE)%s", text, text);
			return 0;
		}
		len = type_size(v.type);
		if (!len) {
			warn(r, "%s is %s, which has no size: give one (size N)", text, label);
			return 0;
		}
	}
	if (c->size_kind == SIZE_LITERAL)
		len = c->size;
	if (c->size_kind == SIZE_EXPR && eval_size(r, c, &len))
		return 0;
	if (!len) {
		msg_debug("%s:%u: %s: nothing to erase", r->cfg->path, r->line, text);
		return 0;
	}
	return add_erasure(r, c, entry, addr, len);
}

/* ---- Loops ---- */

/* How each command of a loop fared: warned once, then counted. */
struct loop_run {
	struct resolver *r;
	const struct loop *loop;
	unsigned int line;        /* of the for */
	int fatal;                /* a failure of the set itself: the run stops */
	uint32_t *entries;
	size_t *repeats;
	bool *warned;
	struct ctype element;     /* of list elements (via, within) */
	uint64_t offset;          /* within: of the list_head in the element */
	size_t count;
};

static int run_body(struct loop_run *lr, uint64_t addr, struct ctype type)
{
	struct resolver *r = lr->r;

	if (lr->count++ == MAX_ELEMENTS) {
		warn(r, "the loop over %s stops after %u elements", lr->loop->list.text, MAX_ELEMENTS);
		return 1;
	}
	r->var = (struct value){ .addr = addr, .typed = true, .type = type };
	for (size_t k = 0; k < lr->loop->nr_cmds; k++) {
		int err;

		r->line = lr->loop->cmds[k].line;
		r->quiet = lr->warned[k];
		r->warned = false;
		err = erase_cmd(r, &lr->loop->cmds[k], lr->entries[k]);
		if (r->warned && lr->warned[k])
			lr->repeats[k]++;
		lr->warned[k] |= r->warned;
		if (err) {
			lr->fatal = err;
			return err;
		}
	}
	/* What the loop itself says next is about the loop. */
	r->line = lr->line;
	r->quiet = false;
	return 0;
}

static struct mdf_error *list_element(uint64_t node, void *arg)
{
	struct loop_run *lr = arg;
	int stop = run_body(lr, node - lr->offset, lr->element);

	return stop ? mdf_error_code(stop) : NULL;
}

/* for ID in ARRAY: each element, or each non-NULL pointer of an array of pointers. */
static int loop_array(struct loop_run *lr, const struct value *list)
{
	struct resolver *r = lr->r;
	const struct btf_type *bt = btf_type(strip(list->type));
	struct ctype element = { list->type.btf, btf_array(bt)->type, 0 };
	uint64_t size = type_size(element);

	if (lr->loop->kind != LOOP_PLAIN)
		warn(r, "%s is an array: '%s' is not needed and is ignored", lr->loop->list.text,
		     lr->loop->kind == LOOP_VIA ? "via" : "within");
	for (uint32_t i = 0; i < btf_array(bt)->nelems; i++) {
		uint64_t addr = list->addr + i * size, ptr;

		/* Upstream's rule: an array of pointers loops over those that are set. */
		if (is_ptr(element)) {
			if (read_pointer(r, addr, lr->loop->list.text, &ptr))
				break;
			if (!ptr)
				continue;
		}
		if (run_body(lr, addr, element))
			break;
	}
	return lr->fatal;
}

/* for ID in LIST_HEAD within STRUCT:MEMBER: the elements around the list_heads. */
static int loop_within(struct loop_run *lr, const struct value *list)
{
	struct resolver *r = lr->r;
	const struct loop *l = lr->loop;
	uint64_t bits;
	uint32_t type, bitfield;
	bool found;

	if (l->kind != LOOP_WITHIN) {
		warn(r, "%s is a list_head: say what the list links, with within STRUCT:MEMBER",
		     l->list.text);
		return 0;
	}
	if (lookup_type(r, l->struct_name, &lr->element))
		return 0;
	found = is_composite(lr->element) &&
		find_member(strip(lr->element), l->member, 0, 0, &bits, &type, &bitfield);
	if (!found || !is_list_head((struct ctype){ lr->element.btf, type, 0 })) {
		warn(r, "%s has no list_head member %s", l->struct_name, l->member);
		return 0;
	}
	lr->offset = bits / 8;
	/*
	 * A list_head anchors the list at its address; so does a pointer to
	 * one (upstream's "head.next"), whose value is the first element, as
	 * the anchor's next is.
	 */
	mdf_error_free(walk_list(&r->walk, list->addr, MAX_ELEMENTS, list_element, lr));
	return lr->fatal;
}

/* for ID in STRUCT via MEMBER: a list linked by pointers, to NULL or back to its start. */
static int loop_via(struct loop_run *lr, const struct value *list)
{
	struct resolver *r = lr->r;
	const struct loop *l = lr->loop;
	const char *next_name = l->kind == LOOP_VIA ? l->member : "next";
	struct ctype element = is_ptr(list->type) ? pointee(list->type) : strip(list->type);
	struct addr_set seen = { 0 };
	uint64_t bits, cur = list->addr, first;
	uint32_t type, bitfield;

	if (l->kind == LOOP_WITHIN)
		warn(r, "%s is no list_head: 'within' is ignored", l->list.text);
	if (!find_member(element, next_name, 0, 0, &bits, &type, &bitfield) ||
	    !is_ptr((struct ctype){ element.btf, type, 0 }) ||
	    strip(pointee((struct ctype){ element.btf, type, 0 })).id != element.id) {
		char label[128];

		describe(element, label, sizeof(label));
		warn(r, "%s has no member %s pointing to another %s: say which links the list, with via "
		     "MEMBER", label, next_name, label);
		return 0;
	}
	if (is_ptr(list->type) && read_pointer(r, list->addr, l->list.text, &cur))
		return 0;
	/* Upstream's ends: a NULL link, or one back to the first element. */
	for (first = cur; cur;) {
		int rc = addr_set_add(&seen, cur);

		if (rc < 0)
			lr->fatal = rc;
		if (rc > 0)
			warn(r, "the list %s comes back to the element at 0x%" PRIx64 ": it ends there",
			     l->list.text, cur);
		if (rc || run_body(lr, cur, element) || read_pointer(r, cur + bits / 8, next_name, &cur) ||
		    cur == first)
			break;
	}
	addr_set_free(&seen);
	return lr->fatal;
}

static int run_loop(struct resolver *r, const struct loop *l)
{
	struct loop_run lr = { .r = r, .loop = l, .line = r->line };
	struct ctype list_head;
	const struct ctype *untyped = NULL;
	struct value list;
	int err = 0;

	lr.entries = calloc(l->nr_cmds + 1, sizeof(*lr.entries));
	lr.repeats = calloc(l->nr_cmds + 1, sizeof(*lr.repeats));
	lr.warned = calloc(l->nr_cmds + 1, sizeof(*lr.warned));
	if (!lr.entries || !lr.repeats || !lr.warned)
		err = -ENOMEM;
	for (size_t k = 0; k < l->nr_cmds && !err; k++)
		err = erase_set_entry(r->set, l->cmds[k].target.text, l->cmds[k].size_kind == SIZE_NULLIFY,
				      &lr.entries[k]);
	if (err)
		goto out;
	/* "within" says the list is a list_head: no need for BTF to say it. */
	if (l->kind == LOOP_WITHIN && r->btf) {
		if (lookup_type(r, "list_head", &list_head))
			goto out;
		untyped = &list_head;
	}
	if (eval(r, &l->list, untyped, &list) || list.null)
		goto out;
	if (!list.typed) {
		warn(r, "the dump's BTF does not say the type of %s: name it, as in (TYPE)%s", l->list.text,
		     l->list.text);
		goto out;
	}
	if (btf_type(strip(list.type)) && btf_is_array(btf_type(strip(list.type))))
		err = loop_array(&lr, &list);
	else if (is_list_head(list.type) || (is_ptr(list.type) && is_list_head(pointee(list.type))))
		err = loop_within(&lr, &list);
	else if (is_composite(list.type) || (is_ptr(list.type) && is_composite(pointee(list.type))))
		err = loop_via(&lr, &list);
	else {
		char label[128];

		describe(list.type, label, sizeof(label));
		warn(r, "%s is %s: a loop goes over an array, a list_head list or a linked struct",
		     l->list.text, label);
	}
	r->quiet = false;
	for (size_t k = 0; k < l->nr_cmds; k++) {
		if (!lr.repeats[k])
			continue;
		r->line = l->cmds[k].line;
		warn(r, "the same for %zu more elements", lr.repeats[k]);
	}
out:
	free(lr.entries);
	free(lr.repeats);
	free(lr.warned);
	return err;
}

struct mdf_error *erase_config_resolve(const struct erase_config *cfg, struct memory *mem, struct kernel *kernel,
				       struct erase_set *set)
{
	struct resolver r = { .cfg = cfg, .mem = mem, .kernel = kernel, .set = set };
	size_t skipped_section = SIZE_MAX;
	uint64_t before = erase_set_bytes(set);
	struct mdf_error *error;
	int err = 0;

	if ((error = kernel_symbols_ready(kernel)))
		return mdf_error_wrap(error, "%s: the dump's kallsyms are needed to resolve the filter config",
				      cfg->path);
	if (mdf_error_drop(kernel_btf(kernel, &r.btf))) {
		msg_warn("%s: without the dump's BTF, only commands that give the size of a symbol "
			 "(erase SYMBOL size N) can be resolved", cfg->path);
		r.btf = NULL;
	}
	if (mdf_error_drop(kernel_symbol_address(kernel, "vmlinux", "__per_cpu_start", &r.percpu_start)) ||
	    mdf_error_drop(kernel_symbol_address(kernel, "vmlinux", "__per_cpu_end", &r.percpu_end)))
		r.percpu_start = r.percpu_end = 0;
	r.walk = (struct walk_ctx){ .mem = mem, .kernel = kernel };
	for (size_t i = 0; i < cfg->nr_stmts; i++) {
		const struct stmt *s = &cfg->stmts[i];
		uint32_t entry;

		r.module = s->module;
		r.line = s->line;
		r.quiet = false;
		/* Module symbols are read for the first module section, not for vmlinux's. */
		if (s->module && !r.modules_tried) {
			r.modules_tried = true;
			if (mdf_error_drop(kernel_modules(kernel, &r.modules)))
				r.modules = NULL;
		}
		if (s->module && (!r.modules || !modules_loaded(r.modules, s->module))) {
			if (skipped_section != s->section)
				msg_info("%s:%u: no module %s in the dump: its section is skipped", cfg->path,
					 s->line, s->module);
			skipped_section = s->section;
			continue;
		}
		if (s->is_loop) {
			err = run_loop(&r, &s->loop);
		} else {
			err = erase_set_entry(set, s->cmd.target.text, s->cmd.size_kind == SIZE_NULLIFY,
					      &entry);
			if (!err)
				err = erase_cmd(&r, &s->cmd, entry);
		}
		if (err)
			break;
	}
	if (!err)
		msg_info("%s: %zu commands erase %" PRIu64 " bytes in %zu places", cfg->path,
			 cfg->nr_stmts, erase_set_bytes(set) - before, r.erasures);
	for (size_t i = 0; i < r.nr_guesses; i++)
		free(r.guesses[i].key);
	free(r.guesses);
	if (r.fatal || !err)
		return r.fatal;
	if (err == -ENOMEM)
		return mdf_error(err, "%s:%u: no memory to resolve the filter config", cfg->path, r.line);
	return mdf_error_code(err);
}
