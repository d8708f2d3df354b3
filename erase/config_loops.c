// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The filter config's loops: "for ID in LIST ... endfor" runs its erase
 * commands once per element, ID standing for the element.  What LIST is
 * decides how the elements are found, as upstream's loops do:
 *
 *   an array             each element; of an array of pointers, each
 *                        pointer that is set ("via" and "within" are not
 *                        needed, and are ignored with a warning)
 *   a list_head, or a    the elements of the kernel's circular list it
 *   pointer to one       anchors, "within STRUCT:MEMBER" saying which
 *                        struct they are and which member links them
 *   a struct, or a       the struct and those linked from it through the
 *   pointer to one       member "next", or "via MEMBER": to a NULL link,
 *                        or one back to the first element
 *
 * What is read from the dump may be damaged, so every loop is bounded: at
 * most MAX_ELEMENTS elements, a linked list ends at an element seen
 * before, and the kernel's lists are walked by kernel/walkers.c with its
 * own checks.
 *
 * A command that cannot be resolved for one element usually cannot for
 * the next: its warning is said for the first element, then counted, and
 * "the same for N more elements" ends the loop.  What ends a loop early
 * (a pointer it cannot read, a list that comes back on itself) is a
 * warning on the for's line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "erase/config_internal.h"
#include "erase/erase_set.h"
#include "util/addr_set.h"
#include "util/error.h"

/* Elements of one loop: arrays, lists. */
#define MAX_ELEMENTS (1u << 20)

/* One run of a loop: how each of its commands fared so far. */
struct loop_run {
	struct resolver *r;
	const struct loop *loop;
	unsigned int line;        /* of the for */
	uint32_t *entries;        /* each command's entry in the erase set */
	size_t *repeats;          /* elements each command warned about again */
	bool *warned;
	struct ctype element;     /* of list elements (via, within) */
	uint64_t offset;          /* within: of the list_head in the element */
	size_t count;
	/* What ended a walk of kernel/walkers.c early: its callback's stop is no error of the list. */
	struct mdf_error *stopped;
};

/* A command's warning: said for its first element, counted for the others. */
static void command_warning(struct loop_run *lr, size_t k, struct mdf_error *err)
{
	if (lr->warned[k]) {
		lr->repeats[k]++;
		mdf_error_free(err);
	} else {
		mdf_error_print(err, true);
	}
	lr->warned[k] = true;
}

/* The loop's commands for the element at @addr; an error ends the loop. */
static struct mdf_error *run_body(struct loop_run *lr, uint64_t addr, struct ctype type)
{
	struct resolver *r = lr->r;

	if (lr->count++ == MAX_ELEMENTS)
		return config_unresolved(r, -ERANGE, "the loop over %s stops after %u elements",
					 lr->loop->list.text, MAX_ELEMENTS);
	r->var = (struct value){ .addr = addr, .typed = true, .type = type };
	for (size_t k = 0; k < lr->loop->nr_cmds; k++) {
		struct mdf_error *err;

		r->line = lr->loop->cmds[k].line;
		err = config_erase(r, &lr->loop->cmds[k], lr->entries[k]);
		if (config_error_is_fatal(err))
			return err;
		if (err)
			command_warning(lr, k, err);
	}
	/* What the loop itself says next is about the loop. */
	r->line = lr->line;
	return NULL;
}

/* for ID in ARRAY: each element, or each non-NULL pointer of an array of pointers. */
static struct mdf_error *loop_array(struct loop_run *lr, const struct value *list)
{
	struct resolver *r = lr->r;
	struct ctype element;
	uint32_t count;
	uint64_t size;

	ctype_array(list->type, &element, &count);
	size = ctype_size(element, r->pointer_size);
	if (lr->loop->kind != LOOP_PLAIN)
		config_warn(r, "%s is an array: '%s' is not needed and is ignored", lr->loop->list.text,
			    lr->loop->kind == LOOP_VIA ? "via" : "within");
	for (uint32_t i = 0; i < count; i++) {
		uint64_t addr = list->addr + i * size, ptr;
		struct mdf_error *err;

		/* Upstream's rule: an array of pointers loops over those that are set. */
		if (ctype_is_ptr(element)) {
			err = config_read_pointer(r, addr, lr->loop->list.text, &ptr);
			if (err)
				return err;
			if (!ptr)
				continue;
		}
		err = run_body(lr, addr, element);
		if (err)
			return err;
	}
	return NULL;
}

static struct mdf_error *list_element(uint64_t node, void *arg)
{
	struct loop_run *lr = arg;

	lr->stopped = run_body(lr, node - lr->offset, lr->element);
	return lr->stopped ? mdf_error_code(-ECANCELED) : NULL;
}

/* for ID in LIST_HEAD within STRUCT:MEMBER: the elements around the list_heads. */
static struct mdf_error *loop_within(struct loop_run *lr, const struct value *list)
{
	struct resolver *r = lr->r;
	const struct loop *l = lr->loop;
	struct ctype_member m;
	struct mdf_error *err;

	if (l->kind != LOOP_WITHIN)
		return config_unresolved(r, -EINVAL, "%s is a list_head: say what the list links, with within "
					 "STRUCT:MEMBER", l->list.text);
	err = config_lookup_type(r, l->struct_name, &lr->element);
	if (err)
		return err;
	if (!ctype_is_composite(lr->element) || !ctype_find_member(ctype_strip(lr->element), l->member, &m) ||
	    !ctype_is_list_head(m.type))
		return config_unresolved(r, -ENOENT, "%s has no list_head member %s", l->struct_name, l->member);
	lr->offset = m.bit_offset / 8;
	/*
	 * A list_head anchors the list at its address; so does a pointer to
	 * one (upstream's "head.next"), whose value is the first element, as
	 * the anchor's next is.  The walk's own failures end the loop quietly.
	 */
	mdf_error_free(walk_list(&r->walk, list->addr, MAX_ELEMENTS, list_element, lr));
	return lr->stopped;
}

/* The member that links the elements of a "via" list (or "next"), checked to point to another element. */
static struct mdf_error *via_link(struct loop_run *lr, const char *name, struct ctype element, uint64_t *offset)
{
	struct ctype_member m;
	char label[128];

	if (ctype_find_member(element, name, &m) && ctype_is_ptr(m.type) &&
	    ctype_strip(ctype_pointee(m.type)).id == element.id) {
		*offset = m.bit_offset / 8;
		return NULL;
	}
	ctype_describe(element, label, sizeof(label));
	return config_unresolved(lr->r, -ENOENT, "%s has no member %s pointing to another %s: say which links "
				 "the list, with via MEMBER", label, name, label);
}

/* for ID in STRUCT via MEMBER: a list linked by pointers, to NULL or back to its start. */
static struct mdf_error *loop_via(struct loop_run *lr, const struct value *list)
{
	struct resolver *r = lr->r;
	const struct loop *l = lr->loop;
	const char *next_name = l->kind == LOOP_VIA ? l->member : "next";
	struct ctype element = ctype_is_ptr(list->type) ? ctype_pointee(list->type) : ctype_strip(list->type);
	struct addr_set seen = { 0 };
	uint64_t next = 0, cur = list->addr, first;
	struct mdf_error *err;

	if (l->kind == LOOP_WITHIN)
		config_warn(r, "%s is no list_head: 'within' is ignored", l->list.text);
	err = via_link(lr, next_name, element, &next);
	if (!err && ctype_is_ptr(list->type))
		err = config_read_pointer(r, list->addr, l->list.text, &cur);
	/* Upstream's ends: a NULL link, or one back to the first element. */
	for (first = cur; !err && cur;) {
		bool added;

		err = addr_set_add(&seen, cur, &added);
		if (!err && !added)
			err = config_unresolved(r, -ELOOP, "the list %s comes back to the element at 0x%" PRIx64
						": it ends there", l->list.text, cur);
		if (!err)
			err = run_body(lr, cur, element);
		if (!err)
			err = config_read_pointer(r, cur + next, next_name, &cur);
		if (cur == first)
			break;
	}
	addr_set_free(&seen);
	return err;
}

/* The loop's elements, by what its list is (the table above). */
static struct mdf_error *loop_elements(struct loop_run *lr, const struct value *list)
{
	struct ctype t = list->type, element;
	char label[128];
	uint32_t count;

	if (ctype_array(t, &element, &count))
		return loop_array(lr, list);
	if (ctype_is_list_head(t) || (ctype_is_ptr(t) && ctype_is_list_head(ctype_pointee(t))))
		return loop_within(lr, list);
	if (ctype_is_composite(t) || (ctype_is_ptr(t) && ctype_is_composite(ctype_pointee(t))))
		return loop_via(lr, list);
	ctype_describe(t, label, sizeof(label));
	return config_unresolved(lr->r, -EINVAL, "%s is %s: a loop goes over an array, a list_head list or a "
				 "linked struct", lr->loop->list.text, label);
}

/* The loop's list: evaluated, and typed. */
static struct mdf_error *loop_list(struct resolver *r, const struct loop *l, struct value *list)
{
	struct ctype list_head;
	const struct ctype *untyped = NULL;
	struct mdf_error *err;

	/* "within" says the list is a list_head: no need for BTF to say it. */
	if (l->kind == LOOP_WITHIN && r->btf) {
		err = config_lookup_type(r, "list_head", &list_head);
		if (err)
			return err;
		untyped = &list_head;
	}
	err = config_eval(r, &l->list, untyped, list);
	if (err || list->null || list->typed)
		return err;
	return config_unresolved(r, -ENOENT, "the dump's BTF does not say the type of %s: name it, as in "
				 "(TYPE)%s", l->list.text, l->list.text);
}

struct mdf_error *config_run_loop(struct resolver *r, const struct loop *l)
{
	struct loop_run lr = { .r = r, .loop = l, .line = r->line };
	struct mdf_error *err = NULL;
	struct value list;

	lr.entries = calloc(l->nr_cmds + 1, sizeof(*lr.entries));
	lr.repeats = calloc(l->nr_cmds + 1, sizeof(*lr.repeats));
	lr.warned = calloc(l->nr_cmds + 1, sizeof(*lr.warned));
	if (!lr.entries || !lr.repeats || !lr.warned)
		err = &mdf_error_enomem;
	for (size_t k = 0; k < l->nr_cmds && !err; k++)
		err = erase_set_entry(r->set, l->cmds[k].target.text, l->cmds[k].size_kind == SIZE_NULLIFY,
				      &lr.entries[k]);
	if (!err)
		err = loop_list(r, l, &list);
	if (!err && !list.null)
		err = loop_elements(&lr, &list);
	if (err && !config_error_is_fatal(err)) {
		mdf_error_print(err, true);
		err = NULL;
	}
	for (size_t k = 0; lr.repeats && k < l->nr_cmds; k++) {
		if (!lr.repeats[k])
			continue;
		r->line = l->cmds[k].line;
		config_warn(r, "the same for %zu more elements", lr.repeats[k]);
	}
	free(lr.entries);
	free(lr.repeats);
	free(lr.warned);
	return err;
}
