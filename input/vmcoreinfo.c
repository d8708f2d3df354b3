// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel writes VMCOREINFO as one "KEY=VALUE\n" line per fact.  Values
 * are hexadecimal for SYMBOL() and KERNELOFFSET, decimal (possibly negative)
 * for SIZE(), OFFSET(), LENGTH() and most NUMBER()s; a few NUMBER()s, such
 * as VMALLOC_START, are printed with a 0x prefix.  The table is small (about
 * a hundred lines), so a sorted array with binary search is all it needs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/vmcoreinfo.h"
#include "util/error.h"
#include "util/message.h"
#include "util/search.h"
#include "util/text_file.h"
#include "util/vec.h"

struct vmcoreinfo_entry {
	const char *key;
	const char *value;
};

struct vmcoreinfo {
	char *storage;   /* a copy split into NUL-terminated keys and values */
	struct vmcoreinfo_entry *entries;
	size_t nr_entries;
};

static int compare_entries(const void *a, const void *b)
{
	const struct vmcoreinfo_entry *ea = a, *eb = b;
	int order = strcmp(ea->key, eb->key);

	if (order)
		return order;
	/* Among duplicates, the later line sorts last and wins the lookup. */
	return ea->value < eb->value ? -1 : ea->value > eb->value;
}

struct mdf_error *vmcoreinfo_parse(const char *text, size_t len, const char *origin, struct vmcoreinfo **out)
{
	struct mdf_error *err = &mdf_error_enomem;
	struct vmcoreinfo *vi;
	size_t nr_lines = 0, line_no = 0;
	char *line, *next;

	vi = calloc(1, sizeof(*vi));
	if (!vi)
		return &mdf_error_enomem;
	/* The kernel pads the note with NULs: they end it.  A NUL before other text is damage. */
	while (len && !text[len - 1])
		len--;
	vi->storage = malloc(len + 1);
	if (!vi->storage)
		goto fail;
	memcpy(vi->storage, text, len);
	vi->storage[len] = '\0';

	for (size_t i = 0; i < len; i++)
		nr_lines += text[i] == '\n';
	vi->entries = calloc(nr_lines + 1, sizeof(*vi->entries));
	if (!vi->entries)
		goto fail;

	for (line = vi->storage; line < vi->storage + len; line = next) {
		char *end = memchr(line, '\n', (size_t)(vi->storage + len - line)), *eq;
		size_t line_len;

		line_no++;
		if (!end)
			end = vi->storage + len;
		next = end + 1;
		*end = '\0';
		line_len = (size_t)(end - line);
		if (!line_len)
			continue;
		/* A damaged line costs what it says, not the rest: the dump may still be written. */
		if (strlen(line) != line_len) {
			msg_warn("%s: VMCOREINFO line %zu holds a NUL byte: skipped", origin, line_no);
			continue;
		}
		eq = strchr(line, '=');
		if (!eq || eq == line) {
			msg_warn("%s: VMCOREINFO line %zu is not KEY=VALUE, skipped: \"%.60s\"", origin, line_no,
				 line);
			continue;
		}
		*eq = '\0';
		vi->entries[vi->nr_entries].key = line;
		vi->entries[vi->nr_entries].value = eq + 1;
		vi->nr_entries++;
	}
	if (!vi->nr_entries) {
		err = mdf_error(-MDF_ECORRUPT, "%s: VMCOREINFO is empty", origin);
		goto fail;
	}
	vec_sort(vi->entries, vi->nr_entries, compare_entries);
	*out = vi;
	return NULL;
fail:
	vmcoreinfo_free(vi);
	return err;
}

struct mdf_error *vmcoreinfo_load_file(const char *path, struct vmcoreinfo **out)
{
	char *text;
	size_t len;
	/* A real VMCOREINFO is a few KiB. */
	struct mdf_error *err = text_file_read(path, 1u << 20, "the VMCOREINFO file", false, &text, &len);

	if (err)
		return err;
	err = vmcoreinfo_parse(text, len, path, out);
	free(text);
	return err;
}

void vmcoreinfo_free(struct vmcoreinfo *vi)
{
	if (!vi)
		return;
	free(vi->storage);
	free(vi->entries);
	free(vi);
}

struct key_search {
	const struct vmcoreinfo *vi;
	const char *key;
};

static bool key_at_or_before(void *ctx, size_t i)
{
	const struct key_search *s = ctx;

	return strcmp(s->vi->entries[i].key, s->key) <= 0;
}

const char *vmcoreinfo_get(const struct vmcoreinfo *vi, const char *key)
{
	struct key_search s = { vi, key };
	/* The last entry with this key: duplicates sort in line order, and the last one wins. */
	size_t after = search_partition_point(vi->nr_entries, key_at_or_before, &s);

	return after && !strcmp(vi->entries[after - 1].key, key) ? vi->entries[after - 1].value : NULL;
}

static const char *get_wrapped(const struct vmcoreinfo *vi, const char *kind, const char *name)
{
	char key[256];

	if ((size_t)snprintf(key, sizeof(key), "%s(%s)", kind, name) >= sizeof(key))
		return NULL;
	return vmcoreinfo_get(vi, key);
}

static bool parse_unsigned(const char *s, int base, uint64_t *value)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*value = strtoull(s, &end, base);
	return !errno && *end == '\0';
}

static bool parse_decimal(const char *s, int64_t *value)
{
	char *end;
	uint64_t u;

	if (!s || !*s)
		return false;
	/* NUMBER(VMALLOC_START) and friends are printed as 0x... */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!parse_unsigned(s + 2, 16, &u))
			return false;
		*value = (int64_t)u;
		return true;
	}
	errno = 0;
	*value = strtoll(s, &end, 10);
	if (errno == ERANGE && *s != '-' && parse_unsigned(s, 10, &u)) {
		*value = (int64_t)u;
		return true;
	}
	return !errno && *end == '\0';
}

bool vmcoreinfo_has(const struct vmcoreinfo *vi, const char *kind, const char *name)
{
	return get_wrapped(vi, kind, name) != NULL;
}

/* Parses the line @kind(@name) (or the plain line @name, @kind NULL) with @parse. */
static struct mdf_error *lookup(const struct vmcoreinfo *vi, const char *kind, const char *name,
				bool (*parse)(const char *line, void *value), void *value)
{
	const char *line = kind ? get_wrapped(vi, kind, name) : vmcoreinfo_get(vi, name);

	if (!line)
		return &mdf_error_not_found;
	if (!parse(line, value))
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO's %s%s%s%s=%s is not a number", kind ? kind : "",
				 kind ? "(" : "", name, kind ? ")" : "", line);
	return NULL;
}

static bool parse_address(const char *line, void *value)
{
	return parse_unsigned(line, 16, value);
}

static bool parse_number(const char *line, void *value)
{
	return parse_decimal(line, value);
}

struct mdf_error *vmcoreinfo_lookup_symbol(const struct vmcoreinfo *vi, const char *name, uint64_t *value)
{
	return lookup(vi, "SYMBOL", name, parse_address, value);
}

struct mdf_error *vmcoreinfo_lookup_size(const struct vmcoreinfo *vi, const char *type, int64_t *value)
{
	return lookup(vi, "SIZE", type, parse_number, value);
}

struct mdf_error *vmcoreinfo_lookup_offset(const struct vmcoreinfo *vi, const char *type_member,
					   int64_t *value)
{
	return lookup(vi, "OFFSET", type_member, parse_number, value);
}

struct mdf_error *vmcoreinfo_lookup_length(const struct vmcoreinfo *vi, const char *name, int64_t *value)
{
	return lookup(vi, "LENGTH", name, parse_number, value);
}

struct mdf_error *vmcoreinfo_lookup_number(const struct vmcoreinfo *vi, const char *name, int64_t *value)
{
	return lookup(vi, "NUMBER", name, parse_number, value);
}

struct mdf_error *vmcoreinfo_lookup_plain(const struct vmcoreinfo *vi, const char *key, int64_t *value)
{
	return lookup(vi, NULL, key, parse_number, value);
}
