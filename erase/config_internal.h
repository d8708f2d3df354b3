/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the filter config share; erase/config.h is its public
 * face and explains the language.  Each file holds one step:
 *
 *   config_lexer.c    the file as tokens, each with its line and section
 *   config_parser.c   the tokens as statements: the parsed config below
 *   config_types.c    C types over the dump's BTF, with the pointers casts add
 *   config_symbols.c  where a symbol is and what type it has
 *   config_report.c   the resolver's messages, and which errors are fatal
 *   config_eval.c     an expression's value: an address and a type
 *   config_erase.c    what one erase command erases
 *   config_loops.c    the three kinds of loop, each running erase commands
 *   config_run.c      each statement resolved into the erase set, in order
 *
 * Resolving ends in one of three ways, and every function of the resolver
 * says which by what it returns: NULL, done; an error of -ENOMEM or
 * -E2BIG (config_error_is_fatal), which stops the whole config (no memory,
 * an erase set full); any other error, "PATH:LINE: why", which says why
 * the statement erases nothing in this dump: the runner prints it as a
 * warning and goes on to the next.
 */
#ifndef MDF_ERASE_CONFIG_INTERNAL_H
#define MDF_ERASE_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/walkers.h"

struct btf;
struct btf_info;
struct erase_set;
struct kernel;
struct mdf_error;
struct memory;
struct modules;

/* Names in one expression: the symbol and its members. */
#define MAX_MEMBERS 32
/* Pointer levels of a cast: (TYPE****) at most. */
#define MAX_CAST_POINTERS 4

/* ---- The parsed config (config_parser.c) ---- */

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

/* ---- Tokens (config_lexer.c) ---- */

struct token {
	char *text;
	unsigned int line;
	size_t section;           /* 0: before any section header; i + 1: sections[i] */
};

struct token_list {
	struct token *tokens;
	size_t nr, cap;
};

/*
 * The tokens of the config text @text (@len bytes) into @out, and its
 * section headers into @cfg->sections.  A syntax error is an -EINVAL
 * error "PATH:LINE: ...".
 */
struct mdf_error *config_tokenize(struct erase_config *cfg, char *text, size_t len, struct token_list *out);
void config_tokens_free(struct token_list *list);

/* The syntax error "PATH:LINE: @fmt" (-EINVAL) of @cfg's file. */
struct mdf_error *config_syntax_error(const struct erase_config *cfg, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- Types (config_types.c) ---- */

/* A BTF type, with the pointer levels a cast adds on top of it. */
struct ctype {
	const struct btf *btf;
	uint32_t id;              /* 0 is void */
	unsigned int ptrs;
};

struct ctype_member {
	uint64_t bit_offset;
	struct ctype type;
	uint32_t bitfield_size;   /* 0: not a bitfield */
};

struct ctype ctype_strip(struct ctype t);
bool ctype_is_ptr(struct ctype t);
/* What the pointer @t points to. */
struct ctype ctype_pointee(struct ctype t);
bool ctype_is_composite(struct ctype t);
bool ctype_is_void(struct ctype t);
bool ctype_is_char(struct ctype t);
bool ctype_is_integer(struct ctype t);
bool ctype_is_list_head(struct ctype t);
/* True when @t is an array: its element type and count. */
bool ctype_array(struct ctype t, struct ctype *element, uint32_t *count);
uint64_t ctype_size(struct ctype t, uint32_t pointer_size);
void ctype_describe(struct ctype t, char *buf, size_t len);
bool ctype_find_member(struct ctype t, const char *name, struct ctype_member *out);

/* ---- Resolution (config_report.c to config_run.c) ---- */

/* What an expression evaluates to. */
struct value {
	uint64_t addr;
	bool typed;
	bool null;                /* the expression went through a NULL pointer */
	struct ctype type;
};

/* A type guessed for a symbol (config_symbols.c), kept so that each is guessed and said once. */
struct guess {
	char *key;                /* "MODULE:SYMBOL.MEMBER" */
	bool typed;
	struct ctype type;
};

struct resolver {
	const struct erase_config *cfg;
	struct memory *mem;
	struct kernel *kernel;
	struct erase_set *set;
	struct walk_ctx walk;
	/* The dumped kernel's pointers: what a cast's '*' and "nullify" measure. */
	uint32_t pointer_size;
	struct modules *modules;  /* NULL when module symbols cannot be read */
	bool modules_tried;
	struct btf_info *btf;     /* NULL when the dump has no usable BTF */
	uint64_t percpu_start, percpu_end;
	/* The statement being resolved. */
	const char *module;
	unsigned int line;
	/* Inside a loop: the element the variable stands for. */
	struct value var;
	size_t erasures;
	struct guess *guesses;
	size_t nr_guesses, cap_guesses;
};

/* config_report.c.  No memory, or an erase set full: the whole config stops. */
bool config_error_is_fatal(const struct mdf_error *err);
/* Why the statement at r->line erases nothing: an error of @code, "PATH:LINE: @fmt". */
struct mdf_error *config_unresolved(const struct resolver *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A warning about the statement at r->line that does not stop it, printed now. */
void config_warn(const struct resolver *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The pointer at @addr; @what names it in the error. */
struct mdf_error *config_read_pointer(struct resolver *r, uint64_t addr, const char *what, uint64_t *value);
/*
 * @e's value.  @untyped: the type of a symbol that has none (a loop
 * "within" knows its list is a list_head).  A NULL pointer on the way
 * sets v->null, and is no error.
 */
struct mdf_error *config_eval(struct resolver *r, const struct expr *e, const struct ctype *untyped,
			      struct value *v);

/* The type named @name, in the scope of the statement's section. */
struct mdf_error *config_lookup_type(struct resolver *r, const char *name, struct ctype *t);
/* The address of the symbol @e names, and its type when one is known. */
struct mdf_error *config_symbol_value(struct resolver *r, const struct expr *e, struct value *v);
void config_guesses_free(struct resolver *r);

/* One erase command, as a new sample of the erase set's @entry. */
struct mdf_error *config_erase(struct resolver *r, const struct erase_cmd *c, uint32_t entry);
/* One loop; it prints the warnings of its commands and of itself. */
struct mdf_error *config_run_loop(struct resolver *r, const struct loop *l);

#endif
