// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The filter config as tokens.
 *
 * The file is a stream of whitespace-separated tokens: a command may span
 * lines, and a token is whatever lies between blanks ("(task_struct)
 * init_task.comm" is two tokens, and a syntax error).  Two things are
 * line-based, as upstream has them:
 *
 *   - '#' starts a comment that runs to the end of its line;
 *   - a line that starts with '[' is a section header, "[NAME]", with
 *     nothing but a comment after it: NAME is vmlinux or a module, and
 *     the commands that follow name its symbols.  A '[' anywhere else
 *     starts no section and is an error.
 *
 * Each token keeps its line, for the messages, and the section it is in,
 * so that the parser can refuse a command that runs across a header.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "erase/config_internal.h"
#include "util/error.h"
#include "util/vec.h"

#define BLANKS " \t\r\n\v\f"

struct mdf_error *config_syntax_error(const struct erase_config *cfg, unsigned int line, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return mdf_error(-EINVAL, "%s:%u: %s", cfg->path, line, text);
}

static struct mdf_error *add_token(struct token_list *list, const struct erase_config *cfg, const char *text,
				   size_t len, unsigned int line)
{
	struct token *t;

	if (vec_reserve(list->tokens, &list->cap, list->nr, 1))
		return &mdf_error_enomem;
	t = &list->tokens[list->nr];
	t->text = strndup(text, len);
	if (!t->text)
		return &mdf_error_enomem;
	t->line = line;
	t->section = cfg->nr_sections;
	list->nr++;
	return NULL;
}

/* "[NAME]" at the start of @line: the section's name, nothing but a comment after it. */
static struct mdf_error *add_section(struct erase_config *cfg, char *line, unsigned int number)
{
	char *end = strchr(line, ']'), *name;

	if (!end)
		return config_syntax_error(cfg, number, "a section header needs its closing ']'");
	*end = '\0';
	name = line + 1;
	if (!*name || strpbrk(name, " \t"))
		return config_syntax_error(cfg, number, "\"[%s]\" is not a module section: the name of "
					   "vmlinux or of a module, with no spaces", name);
	if (end[1 + strspn(end + 1, " \t\r\n")])
		return config_syntax_error(cfg, number, "nothing but a comment may follow the section "
					   "header [%s]", name);
	if (vec_reserve(cfg->sections, &cfg->cap_sections, cfg->nr_sections, 1))
		return &mdf_error_enomem;
	cfg->sections[cfg->nr_sections] = strdup(name);
	if (!cfg->sections[cfg->nr_sections])
		return &mdf_error_enomem;
	cfg->nr_sections++;
	return NULL;
}

/* The tokens of one line, its comment already cut off. */
static struct mdf_error *add_tokens(struct token_list *list, const struct erase_config *cfg, const char *line,
				    unsigned int number)
{
	struct mdf_error *err = NULL;

	for (const char *s = line; !err;) {
		size_t len;

		s += strspn(s, BLANKS);
		len = strcspn(s, BLANKS);
		if (!len)
			break;
		if (*s == '[')
			return config_syntax_error(cfg, number, "a section header must start its line");
		err = add_token(list, cfg, s, len, number);
		s += len;
	}
	return err;
}

struct mdf_error *config_tokenize(struct erase_config *cfg, char *text, size_t len, struct token_list *out)
{
	struct mdf_error *err = NULL;
	unsigned int number = 0;

	for (char *line = text, *end = text + len; !err && line < end; line++) {
		char *newline = memchr(line, '\n', (size_t)(end - line)), *hash;

		number++;
		if (newline)
			*newline = '\0';
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (line[0] == '[')
			err = add_section(cfg, line, number);
		else
			err = add_tokens(out, cfg, line, number);
		line = newline ? newline : end;
	}
	return err;
}

void config_tokens_free(struct token_list *list)
{
	for (size_t i = 0; i < list->nr; i++)
		free(list->tokens[i].text);
	free(list->tokens);
	memset(list, 0, sizeof(*list));
}
