// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The filter config's grammar, over the lexer's tokens (config_lexer.c):
 *
 *   config  := stmt*
 *   stmt    := erase | for
 *   erase   := "erase" EXPR [ "nullify" | "size" SIZE | "size" EXPR ]
 *   for     := "for" ID "in" EXPR [ "via" MEMBER | "within" STRUCT[":"MEMBER] ]
 *              erase* "endfor"
 *   EXPR    := [ "(" TYPE "*"* ")" ] NAME { "." NAME }
 *   SIZE    := DIGITS [ "K" | "M" ]          (either case; not 0)
 *
 * A token is one of the keywords (erase size nullify for in via within
 * endfor) or an operand; an operand is one token, with no blanks inside.
 * Inside a loop, each erase names the loop variable, ID[.MEMBER...], and
 * takes no cast: the variable has the element's type.  Loops do not nest.
 * "within STRUCT" alone links the elements through the member "list", as
 * upstream's default.  A command ends in the section it began in.
 *
 * The config is parsed whole before anything is resolved: the first
 * syntax error stops the run, naming its line, so that a dump is never
 * written with less erased than its config asks.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "erase/config.h"
#include "erase/config_internal.h"
#include "util/error.h"
#include "util/text_file.h"
#include "util/vec.h"

struct parser {
	struct erase_config *cfg;
	const struct token_list *tokens;
	size_t pos;
};

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
	return p->pos < p->tokens->nr ? &p->tokens->tokens[p->pos] : NULL;
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
 * The next token, into *@out, which the command begun at @first needs
 * after @after: present, not a keyword, and in the same section.  @what
 * says what was expected.
 */
static struct mdf_error *operand(struct parser *p, const struct token *first, const struct token *after,
				 const char *what, const struct token **out)
{
	const struct token *t = peek(p);

	if (!t || is_keyword(t->text))
		return config_syntax_error(p->cfg, t ? t->line : after->line, "expected %s after '%s'%s%s%s",
					   what, after->text, t ? ", found '" : "", t ? t->text : "",
					   t ? "'" : "");
	if (t->section != first->section)
		return config_syntax_error(p->cfg, t->line, "a section header inside the command that began "
					   "on line %u", first->line);
	p->pos++;
	*out = t;
	return NULL;
}

/* "(TYPE*...)" at the start of @t's text: the cast of @e; *@rest the text after it. */
static struct mdf_error *parse_cast(const struct parser *p, const struct token *t, struct expr *e,
				    const char **rest)
{
	const char *s = t->text, *close = strchr(s, ')'), *star;
	size_t len;

	if (!close)
		return config_syntax_error(p->cfg, t->line, "'%s': a cast needs its ')'", t->text);
	star = memchr(s, '*', (size_t)(close - s));
	len = (size_t)((star ? star : close) - s - 1);
	e->cast_ptrs = (unsigned int)(close - (star ? star : close));
	if (!is_identifier(s + 1, len) || strspn(star ? star : close, "*") != e->cast_ptrs ||
	    e->cast_ptrs > MAX_CAST_POINTERS)
		return config_syntax_error(p->cfg, t->line, "'%s': a cast is (TYPE) or (TYPE*), TYPE a struct, "
					   "union, typedef or base type name without spaces", t->text);
	e->cast = strndup(s + 1, len);
	if (!e->cast)
		return &mdf_error_enomem;
	*rest = close + 1;
	return NULL;
}

/* [(TYPE[*...])]NAME[.MEMBER...]; @var: the loop variable, or NULL outside a loop. */
static struct mdf_error *parse_expr(const struct parser *p, const struct token *t, const char *var,
				    struct expr *e)
{
	const char *s = t->text;
	struct mdf_error *err;
	char *name, *dot;

	memset(e, 0, sizeof(*e));
	e->text = strdup(s);
	if (!e->text)
		return &mdf_error_enomem;
	if (*s == '(' && (err = parse_cast(p, t, e, &s)))
		return err;
	e->buf = strdup(s);
	if (!e->buf)
		return &mdf_error_enomem;
	for (name = e->buf; name; name = dot) {
		dot = strchr(name, '.');
		if (dot)
			*dot++ = '\0';
		if (!is_identifier(name, strlen(name)) || e->nr_names == MAX_MEMBERS)
			return config_syntax_error(p->cfg, t->line, "'%s' is not SYMBOL[.MEMBER...]: names are "
						   "C identifiers, at most %d of them", t->text, MAX_MEMBERS);
		e->names[e->nr_names++] = name;
	}
	e->is_var = var && !strcmp(e->names[0], var);
	if (e->is_var && e->cast)
		return config_syntax_error(p->cfg, t->line, "'%s': the loop variable %s has its type already: "
					   "no cast", t->text, var);
	return NULL;
}

/* N, NK or NM (K and M in either case): a positive number of bytes. */
static struct mdf_error *parse_size(const struct parser *p, const struct token *t, uint64_t *size)
{
	char *end;
	uint64_t unit = 1;

	errno = 0;
	*size = strtoull(t->text, &end, 10);
	if (*end && !end[1] && strchr("kKmM", *end))
		unit = *end == 'k' || *end == 'K' ? 1024 : 1024 * 1024;
	else if (*end)
		end = NULL;
	if (!end || errno || !*size || *size > UINT64_MAX / unit)
		return config_syntax_error(p->cfg, t->line, "size '%s' is not a positive number of bytes, with "
					   "K or M for KiB or MiB", t->text);
	*size *= unit;
	return NULL;
}

/* After "erase": EXPR [size N|size EXPR|nullify]. */
static struct mdf_error *parse_erase(struct parser *p, const struct token *kw, const char *var,
				     struct erase_cmd *c)
{
	const struct token *t, *size;
	struct mdf_error *err;

	memset(c, 0, sizeof(*c));
	c->line = kw->line;
	err = operand(p, kw, kw, "what to erase", &t);
	if (!err)
		err = parse_expr(p, t, var, &c->target);
	if (err)
		return err;
	if (var && !c->target.is_var)
		return config_syntax_error(p->cfg, t->line, "'%s': an erase inside the loop over %s erases %s "
					   "or its members", t->text, var, var);
	if (accept(p, "nullify")) {
		c->size_kind = SIZE_NULLIFY;
		return NULL;
	}
	if (!(size = accept(p, "size")))
		return NULL;
	err = operand(p, t, size, "a size", &t);
	if (err)
		return err;
	if (isdigit((unsigned char)t->text[0])) {
		c->size_kind = SIZE_LITERAL;
		return parse_size(p, t, &c->size);
	}
	c->size_kind = SIZE_EXPR;
	return parse_expr(p, t, var, &c->size_expr);
}

/* "via MEMBER" or "within STRUCT[:MEMBER]", if either follows the list of the for at @kw. */
static struct mdf_error *parse_link(struct parser *p, const struct token *kw, struct loop *l)
{
	const struct token *link, *t;
	struct mdf_error *err;
	const char *colon;
	size_t len;

	if ((link = accept(p, "via"))) {
		err = operand(p, kw, link, "the member that links the elements", &t);
		if (err)
			return err;
		if (!is_identifier(t->text, strlen(t->text)))
			return config_syntax_error(p->cfg, t->line, "'%s' is not a member name", t->text);
		l->kind = LOOP_VIA;
		l->member = strdup(t->text);
		return l->member ? NULL : &mdf_error_enomem;
	}
	if (!(link = accept(p, "within")))
		return NULL;
	err = operand(p, kw, link, "STRUCT:MEMBER", &t);
	if (err)
		return err;
	colon = strchr(t->text, ':');
	len = colon ? (size_t)(colon - t->text) : strlen(t->text);
	if (!is_identifier(t->text, len) || (colon && !is_identifier(colon + 1, strlen(colon + 1))))
		return config_syntax_error(p->cfg, t->line, "'%s' is not STRUCT or STRUCT:MEMBER", t->text);
	l->kind = LOOP_WITHIN;
	l->struct_name = strndup(t->text, len);
	/* Upstream's default: the list_head member called "list". */
	l->member = strdup(colon ? colon + 1 : "list");
	return l->struct_name && l->member ? NULL : &mdf_error_enomem;
}

/* The erase commands of the for at @kw, through its endfor. */
static struct mdf_error *parse_body(struct parser *p, const struct token *kw, struct loop *l)
{
	for (;;) {
		const struct token *t = peek(p);
		struct mdf_error *err;

		if (!t)
			return config_syntax_error(p->cfg, kw->line, "this for has no endfor");
		p->pos++;
		if (!strcmp(t->text, "endfor"))
			return NULL;
		if (strcmp(t->text, "erase"))
			return config_syntax_error(p->cfg, t->line, "expected erase or endfor in the loop that "
						   "began on line %u, found '%s'%s", kw->line, t->text,
						   strcmp(t->text, "for") ? "" : " (loops do not nest)");
		if (vec_reserve(l->cmds, &l->cap_cmds, l->nr_cmds, 1))
			return &mdf_error_enomem;
		err = parse_erase(p, t, l->var, &l->cmds[l->nr_cmds++]);
		if (err)
			return err;
	}
}

/* After "for": ID in EXPR [via MEMBER | within STRUCT[:MEMBER]] (erase ...)* endfor. */
static struct mdf_error *parse_for(struct parser *p, const struct token *kw, struct loop *l)
{
	const struct token *t, *in;
	struct mdf_error *err = operand(p, kw, kw, "the loop variable", &t);

	if (err)
		return err;
	if (!is_identifier(t->text, strlen(t->text)))
		return config_syntax_error(p->cfg, t->line, "loop variable '%s' is not a C identifier", t->text);
	l->var = strdup(t->text);
	if (!l->var)
		return &mdf_error_enomem;
	if (!(in = accept(p, "in")))
		return config_syntax_error(p->cfg, t->line, "expected 'in' after 'for %s'", l->var);
	err = operand(p, kw, in, "what to loop over", &t);
	if (!err)
		err = parse_expr(p, t, NULL, &l->list);
	if (!err)
		err = parse_link(p, kw, l);
	if (!err)
		err = parse_body(p, kw, l);
	return err;
}

static struct mdf_error *parse(struct parser *p)
{
	struct erase_config *cfg = p->cfg;
	const struct token *t;
	struct mdf_error *err = NULL;

	while (!err && (t = peek(p))) {
		struct stmt *s;

		if (vec_reserve(cfg->stmts, &cfg->cap_stmts, cfg->nr_stmts, 1))
			return &mdf_error_enomem;
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
			err = config_syntax_error(cfg, t->line, "expected erase or for, found '%s'", t->text);
		}
	}
	return err;
}

static void free_expr(struct expr *e)
{
	free(e->text);
	free(e->cast);
	free(e->buf);
	memset(e, 0, sizeof(*e));
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
	struct token_list tokens = { 0 };
	struct parser p = { .tokens = &tokens };
	struct mdf_error *err;
	char *text = NULL;
	size_t len;

	p.cfg = calloc(1, sizeof(*p.cfg));
	if (!p.cfg || !(p.cfg->path = strdup(path))) {
		free(p.cfg);
		return &mdf_error_enomem;
	}
	/* Configs are a few lines; a megabyte is far more than any needs. */
	err = text_file_read(path, 1u << 20, "the filter config", true, &text, &len);
	if (err) {
		erase_config_free(p.cfg);
		return err;
	}
	err = config_tokenize(p.cfg, text, len, &tokens);
	if (!err)
		err = parse(&p);
	config_tokens_free(&tokens);
	free(text);
	if (err) {
		erase_config_free(p.cfg);
		if (err->code == -ENOMEM) {
			mdf_error_free(err);
			err = mdf_error(-ENOMEM, "%s: no memory to read the filter config", path);
		}
		return err;
	}
	*out = p.cfg;
	return NULL;
}
