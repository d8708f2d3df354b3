// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One "erase" command: what it erases is added to the erase set
 * (erase/erase_set.h), as one sample of the command's entry.
 *
 * What "erase EXPR" erases depends on the type of EXPR's value
 * (config_eval.c), as upstream decided it:
 *
 *   type of EXPR       erase EXPR              size N / size EXPR2   nullify
 *   a pointer          what it points to:      N bytes of what it    the pointer
 *                      sizeof the target, or   points to             itself, with
 *                      the string's length                           zeros
 *                      for char * (at most
 *                      1024 bytes)
 *   anything else      its own bytes           N bytes from it       refused
 *   unknown (no BTF)   refused                 N bytes from it       refused
 *
 * A NULL pointer erases nothing, and says so at debug level.  "size
 * EXPR2" reads the integer EXPR2 from the dump; above 16 MiB it is taken
 * for garbage.
 */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "erase/config_internal.h"
#include "erase/erase_set.h"
#include "kernel/btf.h"
#include "memory/reader.h"
#include "util/byte_order.h"
#include "util/error.h"
#include "util/message.h"

/* Upstream's bound on the length of a string erased through a char *. */
#define MAX_STRING 1024
/* A size read from the dump above this is garbage, not a buffer to erase. */
#define MAX_READ_SIZE (16u << 20)

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
		if (mdf_error_drop(mem_read_virt(r->mem, addr + len, buf, (size_t)chunk)))
			break;
		nul = memchr(buf, '\0', (size_t)chunk);
		if (nul)
			return len + (uint64_t)(nul - buf);
		len += chunk;
	}
	return len;
}

/* The integer @v, which "size @e" names: how many bytes to erase. */
static struct mdf_error *read_size(struct resolver *r, const struct expr *e, const struct value *v,
				   uint64_t *size)
{
	unsigned char bytes[8] = { 0 };
	struct mdf_error *err, *unresolved;
	uint64_t n, value;

	if (!v->typed || !ctype_is_integer(v->type))
		return config_unresolved(r, -EINVAL, "the size %s is not an integer%s", e->text,
					 v->typed ? "" : " (the dump's BTF does not say its type)");
	n = ctype_size(v->type, r->pointer_size);
	err = mem_read_virt(r->mem, v->addr, bytes, (size_t)n);
	if (err) {
		unresolved = config_unresolved(r, err->code, "cannot read the size %s at 0x%" PRIx64 ": %s",
					       e->text, v->addr, mdf_error_text(err));
		mdf_error_free(err);
		return unresolved;
	}
	value = dump_to_host_bytes(mem_byte_order(r->mem), bytes, (size_t)n);
	if (value > MAX_READ_SIZE)
		return config_unresolved(r, -ERANGE, "the size %s is %" PRIu64 " bytes, above the %u bytes a "
					 "size read from the dump may be", e->text, value, MAX_READ_SIZE);
	*size = value;
	return NULL;
}

/* Erases @len bytes at @addr as a new sample of @entry. */
static struct mdf_error *add_erasure(struct resolver *r, const struct erase_cmd *c, uint32_t entry,
				     uint64_t addr, uint64_t len)
{
	uint32_t sample;
	struct mdf_error *err = erase_set_sample(r->set, entry, &sample);
	int code;

	if (!err)
		err = erase_set_add_virt(r->set, r->mem, sample, addr, len);
	if (!err) {
		r->erasures++;
		return NULL;
	}
	code = mdf_error_drop(err);
	if (code == -ENOMEM)
		return mdf_error(code, "%s:%u: no memory for the bytes to erase", r->cfg->path, r->line);
	if (code == -E2BIG)
		return mdf_error(code, "%s:%u: more pieces to erase than makedumpfile keeps (a page each)",
				 r->cfg->path, r->line);
	return config_unresolved(r, code, "cannot erase %" PRIu64 " bytes of %s at 0x%" PRIx64 ": %s", len,
				 c->target.text, addr, mdf_strerror(code));
}

/*
 * What the pointer @v points to, for "erase @c" with no size or "size N":
 * its address into *@addr (0: NULL, nothing to erase) and, with no size,
 * its length into *@len.
 */
static struct mdf_error *pointer_target(struct resolver *r, const struct erase_cmd *c, const struct value *v,
					uint64_t *addr, uint64_t *len)
{
	struct ctype target = ctype_pointee(v->type);
	struct mdf_error *err = config_read_pointer(r, v->addr, c->target.text, addr);

	if (err)
		return err;
	if (!*addr) {
		msg_debug("%s:%u: %s is NULL", r->cfg->path, r->line, c->target.text);
		return NULL;
	}
	if (c->size_kind != SIZE_OF_TYPE)
		return NULL;
	if (ctype_is_void(target))
		return config_unresolved(r, -EINVAL, "%s is a void pointer: say how much it points to (size) or "
					 "nullify it", c->target.text);
	*len = ctype_is_char(target) ? string_length(r, *addr) : ctype_size(target, r->pointer_size);
	return NULL;
}

/* The bytes of @v itself, for "erase @c" with no size: into *@len. */
static struct mdf_error *own_size(struct resolver *r, const struct erase_cmd *c, const struct value *v,
				  uint64_t *len)
{
	char label[128];

	if (!v->typed)
		return config_unresolved(r, -EINVAL, "the dump's BTF does not say the type of %s: give a size "
					 "(size N) or the type, as in (TYPE)%s", c->target.text, c->target.text);
	*len = ctype_size(v->type, r->pointer_size);
	if (*len)
		return NULL;
	ctype_describe(v->type, label, sizeof(label));
	return config_unresolved(r, -EINVAL, "%s is %s, which has no size: give one (size N)", c->target.text,
				 label);
}

/* "erase @c nullify": zeros over the pointer @v. */
static struct mdf_error *nullify(struct resolver *r, const struct erase_cmd *c, uint32_t entry,
				 const struct value *v)
{
	char label[128];

	if (v->typed && ctype_is_ptr(v->type))
		return add_erasure(r, c, entry, v->addr, r->pointer_size);
	ctype_describe(v->type, label, sizeof(label));
	return config_unresolved(r, -EINVAL, "%s is %s: only a pointer can be nullified", c->target.text,
				 v->typed ? label : "of a type the dump's BTF does not say");
}

struct mdf_error *config_erase(struct resolver *r, const struct erase_cmd *c, uint32_t entry)
{
	struct mdf_error *err;
	struct value v, size;
	uint64_t addr, len = 0;

	err = config_eval(r, &c->target, NULL, &v);
	if (err || v.null)
		return err;
	if (c->size_kind == SIZE_NULLIFY)
		return nullify(r, c, entry, &v);
	addr = v.addr;
	if (v.typed && ctype_is_ptr(v.type)) {
		/* A pointer's target is erased, not the pointer. */
		err = pointer_target(r, c, &v, &addr, &len);
		if (err || !addr)
			return err;
	} else if (c->size_kind == SIZE_OF_TYPE) {
		err = own_size(r, c, &v, &len);
		if (err)
			return err;
	}
	if (c->size_kind == SIZE_LITERAL)
		len = c->size;
	if (c->size_kind == SIZE_EXPR) {
		err = config_eval(r, &c->size_expr, NULL, &size);
		if (err || size.null)
			return err;
		err = read_size(r, &c->size_expr, &size, &len);
		if (err)
			return err;
	}
	if (!len) {
		msg_debug("%s:%u: %s: nothing to erase", r->cfg->path, r->line, c->target.text);
		return NULL;
	}
	return add_erasure(r, c, entry, addr, len);
}

