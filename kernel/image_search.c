// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Searching the kernel image for the data kallsyms do not list.
 *
 * The image is read a chunk at a time, each chunk with a little of the
 * next one after it so that nothing sought (at most a BTF header) is cut
 * in two; a visitor looks at the positions the chunk owns.  The image ends
 * at the first page that does not translate (the guard page after _end).
 *
 * Every candidate is checked against what only the real thing has: a BTF
 * libbpf parses, a task linked into the task list, a list of struct
 * modules each pointing back to itself through its kobject.
 */
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/btf.h"
#include "kernel/image_search.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"
#include "util/search.h"

#define SCAN_CHUNK (1u << 20)
#define SCAN_OVERLAP 64u
/* Far beyond any kernel image: the search stops there whatever translates. */
#define IMAGE_MAX (1ull << 30)
/* Larger than any freed init section (arm64's: 6.3 MiB on Debian 12). */
#define IMAGE_GAP_MAX (32ull << 20)
#define BTF_HEADER_MAGIC 0xeb9f
#define BTF_HEADER_MIN 24u
#define BTF_MAX (64u << 20)
#define MODULES_MAX 10000
#define MODULE_NAME_MAX 64
#define MODULE_STATES 4      /* enum module_state: LIVE, COMING, GOING, UNFORMED */
/* Modules lie within 2 GiB of the kernel (arm64 randomizes them into that window, x86_64 above it). */
#define MODULE_REACH (4ull << 30)

/* Returns true to end the scan; *@err (NULL) for an error that ends it too. */
typedef bool (*scan_visit)(void *ctx, uint64_t addr, const unsigned char *buf, size_t owned, size_t len,
			   struct mdf_error **err);

/*
 * Fills @buf with the bytes from @addr on, up to @len, that translate
 * without a break, a page at a time once the whole does not: their count.
 */
static size_t read_mapped(struct memory *mem, uint64_t addr, unsigned char *buf, size_t len)
{
	uint32_t page = mem_page_size(mem);
	size_t done = 0;

	if (!mdf_error_drop(mem_read_virt(mem, addr, buf, len)))
		return len;
	while (done < len) {
		size_t piece = len - done < page ? len - done : page;

		if (mdf_error_drop(mem_read_virt(mem, addr + done, buf + done, piece)))
			break;
		done += piece;
	}
	return done;
}

/*
 * The kernel image from @start on, chunk by chunk (@visit NULL: only to
 * learn *@end, where its last mapped byte ends).  Freed init sections
 * leave holes in the image's mapping (arm64 unmaps them): the search goes
 * on past a hole, up to IMAGE_GAP_MAX bytes of it.
 */
static struct mdf_error *scan_image(struct memory *mem, uint64_t start, scan_visit visit, void *ctx, uint64_t *end)
{
	unsigned char *buf = malloc(SCAN_CHUNK + SCAN_OVERLAP);
	uint32_t page = mem_page_size(mem);
	uint64_t addr = start & ~(uint64_t)(page - 1), gap = 0, mapped_end = addr;
	struct mdf_error *err = buf ? NULL : &mdf_error_enomem;

	while (!err && addr - start < IMAGE_MAX && gap < IMAGE_GAP_MAX) {
		size_t len = read_mapped(mem, addr, buf, SCAN_CHUNK + SCAN_OVERLAP), owned;

		if (!len) {
			addr += page;
			gap += page;
			continue;
		}
		gap = 0;
		owned = len < SCAN_CHUNK ? len : SCAN_CHUNK;
		if (visit && visit(ctx, addr, buf, owned, len, &err))
			break;
		addr += owned;
		mapped_end = addr;
		/* A chunk cut short ends at a page that does not translate. */
		addr = (addr + page - 1) & ~(uint64_t)(page - 1);
	}
	if (end)
		*end = mapped_end;
	free(buf);
	return err;
}

/* Values in a buffer read from the dump, in the memory's byte order. */
static uint32_t get32(const struct memory *mem, const unsigned char *p)
{
	return (uint32_t)dump_to_host_bytes(mem_byte_order(mem), p, 4);
}

static uint64_t get64(const struct memory *mem, const unsigned char *p)
{
	return dump_to_host_bytes(mem_byte_order(mem), p, 8);
}

struct btf_search {
	struct memory *mem;
	uint64_t start, size;
	unsigned int rejected;
};

/* The BTF size a header at @p claims, or 0 when the header cannot be one. */
static uint64_t btf_header_size(const struct memory *mem, const unsigned char *p)
{
	uint32_t hdr_len = get32(mem, p + 4), type_off = get32(mem, p + 8), type_len = get32(mem, p + 12);
	uint32_t str_off = get32(mem, p + 16), str_len = get32(mem, p + 20);
	uint64_t types_end = (uint64_t)type_off + type_len, strings_end = (uint64_t)str_off + str_len;

	if (dump_to_host_bytes(mem_byte_order(mem), p, 2) != BTF_HEADER_MAGIC || p[2] != 1 ||
	    hdr_len < BTF_HEADER_MIN || hdr_len > 256 || type_off & 3 || type_len == 0 || str_len == 0 ||
	    types_end > str_off)
		return 0;
	return hdr_len + strings_end > BTF_MAX ? 0 : hdr_len + strings_end;
}

/* libbpf takes it and it has the kernel's types. */
static bool btf_accepted(struct memory *mem, uint64_t addr, uint64_t size)
{
	void *raw = malloc(size);
	struct btf *btf = NULL;
	bool ok = false;

	if (raw && !mdf_error_drop(mem_read_virt(mem, addr, raw, size))) {
		btf = btf__new(raw, (uint32_t)size);
		ok = !libbpf_get_error(btf) && btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT) > 0;
		if (!libbpf_get_error(btf))
			btf__free(btf);
	}
	free(raw);
	return ok;
}

static bool visit_btf(void *ctx, uint64_t addr, const unsigned char *buf, size_t owned, size_t len,
		      struct mdf_error **err)
{
	struct btf_search *s = ctx;

	(void)err;
	for (size_t pos = 0; pos < owned && pos + BTF_HEADER_MIN <= len; pos += 4) {
		uint64_t size;

		if (dump_to_host_bytes(mem_byte_order(s->mem), buf + pos, 2) != BTF_HEADER_MAGIC ||
		    !(size = btf_header_size(s->mem, buf + pos)))
			continue;
		if (btf_accepted(s->mem, addr + pos, size)) {
			s->start = addr + pos;
			s->size = size;
			return true;
		}
		s->rejected++;
	}
	return false;
}

struct mdf_error *image_find_btf(struct memory *mem, uint64_t image_start, uint64_t *start, uint64_t *stop)
{
	struct btf_search s = { .mem = mem };
	uint64_t end;
	struct mdf_error *err = scan_image(mem, image_start, visit_btf, &s, &end);

	if (err)
		return err;
	if (!s.size)
		return mdf_error(-ENOENT, "no BTF header that libbpf accepts in the kernel image (0x%" PRIx64
				 "-0x%" PRIx64 ", %u headers rejected): the kernel has no BTF", image_start, end,
				 s.rejected);
	*start = s.start;
	*stop = s.start + s.size;
	msg_debug("vmlinux BTF found by its header in the kernel image at 0x%" PRIx64 ", %" PRIu64
		  " bytes (%u other headers rejected)", s.start, s.size, s.rejected);
	return NULL;
}

/* Byte offset (and size) of @path in vmlinux's BTF. */
static struct mdf_error *btf_field(struct btf_info *btf, const char *path, uint64_t *offset, uint64_t *size)
{
	struct btf_info_result r;
	struct mdf_error *err = btf_info_lookup(btf, "vmlinux", path, &r);

	if (err)
		return mdf_error_wrap(err, "vmlinux BTF has no %s", path);
	*offset = r.bit_offset / 8;
	if (size)
		*size = (uint64_t)r.size;
	return NULL;
}

struct task_search {
	struct memory *mem;
	uint64_t comm, pid, tasks;
	uint64_t found;
	unsigned int matches;
};

/* @task's tasks list links back to it both ways, and its pid is 0. */
static bool task_linked(const struct task_search *s, uint64_t task)
{
	uint64_t node = task + s->tasks, next, prev, back;
	uint32_t pid;

	return !mem_read_u32(s->mem, task + s->pid, &pid) && pid == 0 && !mem_read_u64(s->mem, node, &next) &&
	       !mem_read_u64(s->mem, node + 8, &prev) && !(next & 7) && !(prev & 7) &&
	       !mem_read_u64(s->mem, next + 8, &back) && back == node && !mem_read_u64(s->mem, prev, &back) &&
	       back == node;
}

static bool visit_task(void *ctx, uint64_t addr, const unsigned char *buf, size_t owned, size_t len,
		       struct mdf_error **err)
{
	static const char comm[16] = "swapper/0";
	struct task_search *s = ctx;

	(void)err;
	for (size_t pos = 0; pos < owned && pos + sizeof(comm) <= len; pos += 8) {
		uint64_t task = addr + pos - s->comm;

		if (memcmp(buf + pos, comm, sizeof(comm)) || !task_linked(s, task))
			continue;
		if (!s->matches++)
			s->found = task;
	}
	return false;
}

struct mdf_error *image_find_init_task(struct memory *mem, struct btf_info *btf, uint64_t image_start,
				       uint64_t *addr)
{
	struct task_search s = { .mem = mem };
	uint64_t end;
	struct mdf_error *err = btf_field(btf, "task_struct.comm", &s.comm, NULL);

	if (!err)
		err = btf_field(btf, "task_struct.pid", &s.pid, NULL);
	if (!err)
		err = btf_field(btf, "task_struct.tasks", &s.tasks, NULL);
	if (!err && s.comm & 7)
		err = mdf_error(-MDF_ECORRUPT, "vmlinux BTF puts task_struct.comm at %" PRIu64 ", not 8-aligned",
				s.comm);
	if (!err)
		err = scan_image(mem, image_start, visit_task, &s, &end);
	if (err)
		return mdf_error_wrap(err, "searching the kernel image for init_task");
	if (!s.matches)
		return mdf_error(-ENOENT, "no task named \"swapper/0\" with pid 0 and a linked task list in the "
				 "kernel image (0x%" PRIx64 "-0x%" PRIx64 "): init_task not found", image_start, end);
	if (s.matches > 1)
		return mdf_error(-MDF_ECORRUPT, "%u tasks named \"swapper/0\" with pid 0 and a linked task list "
				 "in the kernel image: init_task is not known for sure", s.matches);
	*addr = s.found;
	msg_debug("init_task found in the kernel image at 0x%" PRIx64 ": comm \"swapper/0\", pid 0, its tasks "
		  "list linked both ways", s.found);
	return NULL;
}

struct module_search {
	struct memory *mem;
	uint64_t image_start, image_end;
	uint64_t list, name, name_size, state, state_size, mkobj_mod;
	uint64_t found;
	unsigned int modules;
	unsigned int matches;
};

/* @mod is a struct module: its kobject points back to it, it has a name and a valid state. */
static bool is_module(const struct module_search *s, uint64_t mod)
{
	char name[MODULE_NAME_MAX];
	uint64_t self;
	unsigned char state[4];   /* state_size is 1 to 4 (image_find_modules) */

	if (mem_read_u64(s->mem, mod + s->mkobj_mod, &self) || self != mod ||
	    mem_read_virt(s->mem, mod + s->state, state, s->state_size) ||
	    dump_to_host_bytes(mem_byte_order(s->mem), state, s->state_size) >= MODULE_STATES ||
	    mem_read_virt(s->mem, mod + s->name, name, s->name_size) || !name[0] ||
	    !memchr(name, '\0', s->name_size))
		return false;
	for (const char *c = name; *c; c++)
		if (*c <= ' ' || *c > '~')
			return false;
	return true;
}

static bool in_module_reach(const struct module_search *s, uint64_t addr)
{
	return addr - (s->image_start - MODULE_REACH) < 2 * MODULE_REACH &&
	       !(addr >= s->image_start && addr < s->image_end) && !(addr & 7);
}

/* The list at @head, whole: every node a module, linked both ways; the number of modules, or 0. */
static unsigned int module_list_length(const struct module_search *s, uint64_t head)
{
	uint64_t node = head, next;
	unsigned int count = 0;

	while (!mem_read_u64(s->mem, node, &next) && count <= MODULES_MAX) {
		uint64_t back;

		if (mem_read_u64(s->mem, next + 8, &back) || back != node)
			return 0;
		if (next == head)
			return count;
		if (!in_module_reach(s, next) || !is_module(s, next - s->list))
			return 0;
		node = next;
		count++;
	}
	return 0;
}

static bool visit_modules(void *ctx, uint64_t addr, const unsigned char *buf, size_t owned, size_t len,
			  struct mdf_error **err)
{
	struct module_search *s = ctx;

	(void)err;
	for (size_t pos = 0; pos < owned && pos + 16 <= len; pos += 8) {
		uint64_t next = get64(s->mem, buf + pos), prev = get64(s->mem, buf + pos + 8);
		unsigned int count;

		if (!in_module_reach(s, next) || !in_module_reach(s, prev) || !is_module(s, next - s->list))
			continue;
		count = module_list_length(s, addr + pos);
		if (!count)
			continue;
		if (!s->matches++) {
			s->found = addr + pos;
			s->modules = count;
		}
	}
	return false;
}

struct mdf_error *image_find_modules(struct memory *mem, struct btf_info *btf, uint64_t image_start,
				     uint64_t *head)
{
	struct module_search s = { .mem = mem, .image_start = image_start };
	uint64_t mkobj = 0, kobject_mod = 0;
	struct mdf_error *err = btf_field(btf, "module.list", &s.list, NULL);

	if (!err)
		err = btf_field(btf, "module.name", &s.name, &s.name_size);
	if (!err)
		err = btf_field(btf, "module.state", &s.state, &s.state_size);
	if (!err)
		err = btf_field(btf, "module.mkobj", &mkobj, NULL);
	if (!err)
		err = btf_field(btf, "module_kobject.mod", &kobject_mod, NULL);
	if (!err && (s.name_size < 2 || s.name_size > MODULE_NAME_MAX || s.state_size > 4 || !s.state_size))
		err = mdf_error(-MDF_ECORRUPT, "vmlinux BTF gives struct module a name of %" PRIu64 " bytes and a "
				"state of %" PRIu64 ": not a kernel's", s.name_size, s.state_size);
	if (err)
		return mdf_error_wrap(err, "searching the kernel image for the modules list");
	s.mkobj_mod = mkobj + kobject_mod;
	/* Where the image ends bounds the candidates: found first. */
	err = scan_image(mem, image_start, NULL, NULL, &s.image_end);
	if (!err)
		err = scan_image(mem, image_start, visit_modules, &s, NULL);
	if (err)
		return mdf_error_wrap(err, "searching the kernel image for the modules list");
	if (!s.matches)
		return mdf_error(-ENOENT, "no list of struct modules in the kernel image (0x%" PRIx64 "-0x%" PRIx64
				 "): no module is loaded, or the modules list was not found", image_start,
				 s.image_end);
	if (s.matches > 1)
		return mdf_error(-MDF_ECORRUPT, "%u lists of struct modules in the kernel image: the modules list "
				 "is not known for sure", s.matches);
	*head = s.found;
	msg_debug("the modules list found in the kernel image at 0x%" PRIx64 ": %u struct modules, each "
		  "pointing back to itself through mkobj.mod, linked both ways", s.found, s.modules);
	return NULL;
}

struct btf_modules_search {
	struct memory *mem;
	uint64_t image_start, image_end;
	uint64_t list, module, btf;  /* struct btf_module's members */
	uint64_t btf_data;           /* struct btf's */
	uint64_t *modules;           /* the struct modules' addresses, sorted */
	size_t nr_modules;
	uint64_t found;
	unsigned int entries;
	unsigned int matches;
};

static int compare_addresses(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Whether the list node @node is a btf_module's: its module is one of the
 * list's and its struct btf's data starts with BTF's magic.  (Other lists
 * pair a list_head with a module pointer: tracepoints' tp_module.)
 */
static bool names_known_module(const struct btf_modules_search *s, uint64_t node)
{
	uint64_t module, btf, data;
	uint16_t magic;

	return !(node & 7) && !(node >= s->image_start && node < s->image_end) &&
	       !mem_read_u64(s->mem, node - s->list + s->module, &module) &&
	       bsearch(&module, s->modules, s->nr_modules, sizeof(module), compare_addresses) &&
	       !mem_read_u64(s->mem, node - s->list + s->btf, &btf) &&
	       !mem_read_u64(s->mem, btf + s->btf_data, &data) &&
	       !mdf_error_drop(mem_read_virt(s->mem, data, &magic, sizeof(magic))) &&
	       dump_to_host16(mem_byte_order(s->mem), magic) == BTF_HEADER_MAGIC;
}

/* The list at @head, whole: each node a known module's, linked both ways; its entries, or 0. */
static unsigned int btf_module_list_length(const struct btf_modules_search *s, uint64_t head)
{
	uint64_t node = head, next;
	unsigned int count = 0;

	while (!mem_read_u64(s->mem, node, &next) && count <= s->nr_modules) {
		uint64_t back;

		if (mem_read_u64(s->mem, next + 8, &back) || back != node)
			return 0;
		if (next == head)
			return count;
		if (!names_known_module(s, next))
			return 0;
		node = next;
		count++;
	}
	return 0;
}

static bool visit_btf_modules(void *ctx, uint64_t addr, const unsigned char *buf, size_t owned, size_t len,
			      struct mdf_error **err)
{
	struct btf_modules_search *s = ctx;

	(void)err;
	for (size_t pos = 0; pos < owned && pos + 16 <= len; pos += 8) {
		uint64_t next = get64(s->mem, buf + pos), prev = get64(s->mem, buf + pos + 8);
		unsigned int count;

		/* Both links lead out of the image, to kernel memory. */
		if (!(next >> 63) || !(prev >> 63) || (next >= s->image_start && next < s->image_end) ||
		    (prev >= s->image_start && prev < s->image_end) || !names_known_module(s, next))
			continue;
		count = btf_module_list_length(s, addr + pos);
		if (!count)
			continue;
		if (!s->matches++) {
			s->found = addr + pos;
			s->entries = count;
		}
	}
	return false;
}

/* The addresses of the struct modules on the list at @head, sorted. */
static struct mdf_error *module_addresses(struct btf_modules_search *s, uint64_t module_list, uint64_t head)
{
	uint64_t node = head;
	size_t cap = 0;

	while (!mdf_error_drop(mem_read_u64(s->mem, node, &node)) && node != head && s->nr_modules < MODULES_MAX) {
		if (s->nr_modules == cap) {
			uint64_t *grown = realloc(s->modules, (cap = cap ? 2 * cap : 64) * sizeof(*grown));

			if (!grown)
				return &mdf_error_enomem;
			s->modules = grown;
		}
		s->modules[s->nr_modules++] = node - module_list;
	}
	qsort(s->modules, s->nr_modules, sizeof(*s->modules), compare_addresses);
	return NULL;
}

struct mdf_error *image_find_btf_modules(struct memory *mem, struct btf_info *btf, uint64_t image_start,
					 uint64_t modules_head, uint64_t *head)
{
	struct btf_modules_search s = { .mem = mem, .image_start = image_start };
	uint64_t module_list = 0;
	struct mdf_error *err = btf_field(btf, "btf_module.list", &s.list, NULL);

	if (!err)
		err = btf_field(btf, "btf_module.module", &s.module, NULL);
	if (!err)
		err = btf_field(btf, "btf_module.btf", &s.btf, NULL);
	if (!err)
		err = btf_field(btf, "btf.data", &s.btf_data, NULL);
	if (!err)
		err = btf_field(btf, "module.list", &module_list, NULL);
	if (!err)
		err = module_addresses(&s, module_list, modules_head);
	if (!err)
		err = scan_image(mem, image_start, NULL, NULL, &s.image_end);
	if (!err && s.nr_modules)
		err = scan_image(mem, image_start, visit_btf_modules, &s, NULL);
	free(s.modules);
	if (err)
		return mdf_error_wrap(err, "searching the kernel image for btf_modules");
	if (!s.matches)
		return mdf_error(-ENOENT, "no list of struct btf_modules naming the %zu loaded modules in the "
				 "kernel image: no module has BTF", s.nr_modules);
	if (s.matches > 1)
		return mdf_error(-MDF_ECORRUPT, "%u lists of struct btf_modules in the kernel image: btf_modules "
				 "is not known for sure", s.matches);
	*head = s.found;
	msg_debug("btf_modules found in the kernel image at 0x%" PRIx64 ": %u struct btf_modules, each naming "
		  "a loaded module, linked both ways", s.found, s.entries);
	return NULL;
}

/* An export table: @count entries of @entry_size bytes from @start. */
struct export_table {
	uint64_t start;
	uint32_t count;
};

struct image_exports {
	struct memory *mem;
	uint64_t image_start, image_end;
	uint64_t entry_size, value_field, name_field;
	struct export_table *tables;
	size_t nr_tables;
};

/* Shorter runs of entries that look like exports are taken as chance. */
#define EXPORT_TABLE_MIN 64
#define EXPORT_NAME_MAX 128
#define EXPORT_TABLES_MAX 8

/* Entry @entry's name address and value, or false when they are not in the image. */
static bool export_entry(const struct image_exports *ex, uint64_t entry, uint64_t *name, uint64_t *value)
{
	uint32_t offsets[2];

	if (mem_read_u32(ex->mem, entry + ex->value_field, &offsets[0]) ||
	    mem_read_u32(ex->mem, entry + ex->name_field, &offsets[1]))
		return false;
	*value = entry + ex->value_field + (uint64_t)(int64_t)(int32_t)offsets[0];
	*name = entry + ex->name_field + (uint64_t)(int64_t)(int32_t)offsets[1];
	return *name - ex->image_start < ex->image_end - ex->image_start &&
	       *value - ex->image_start < ex->image_end - ex->image_start;
}

/* The C identifier at @addr into @buf; false when there is none. */
static bool export_name(const struct image_exports *ex, uint64_t addr, char *buf)
{
	size_t len = EXPORT_NAME_MAX;

	if (mdf_error_drop(mem_read_prefix(ex->mem, addr, buf, 2, &len)) || !memchr(buf, '\0', len) || !buf[0])
		return false;
	for (const char *c = buf; *c; c++)
		if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (c != buf && ((*c >= '0' && *c <= '9') || *c == '.'))))
			return false;
	return true;
}

/* The entries from @start on that are exports with names in ascending order. */
static uint32_t export_run(const struct image_exports *ex, uint64_t start)
{
	char prev[EXPORT_NAME_MAX], name[EXPORT_NAME_MAX];
	uint64_t name_addr, value;
	uint32_t count = 0;

	for (uint64_t entry = start; export_entry(ex, entry, &name_addr, &value) && export_name(ex, name_addr, name);
	     entry += ex->entry_size) {
		if (count && strcmp(prev, name) >= 0)
			break;
		memcpy(prev, name, sizeof(name));
		count++;
	}
	return count;
}

struct export_search {
	struct image_exports *ex;
	uint64_t resume;      /* past the last table found */
};

static bool visit_exports(void *ctx, uint64_t addr, const unsigned char *buf, size_t owned, size_t len,
			  struct mdf_error **err)
{
	struct export_search *s = ctx;
	struct image_exports *ex = s->ex;

	(void)err;
	for (size_t pos = 0; pos < owned && pos + ex->entry_size <= len; pos += 4) {
		uint64_t entry = addr + pos, size = ex->image_end - ex->image_start, count;
		int32_t value_off, name_off;

		if (entry < s->resume)
			continue;
		value_off = (int32_t)dump_to_host_bytes(mem_byte_order(ex->mem), buf + pos + ex->value_field, 4);
		name_off = (int32_t)dump_to_host_bytes(mem_byte_order(ex->mem), buf + pos + ex->name_field, 4);
		/* The cheap test first: both offsets lead into the image. */
		if (entry + ex->value_field + (uint64_t)(int64_t)value_off - ex->image_start >= size ||
		    entry + ex->name_field + (uint64_t)(int64_t)name_off - ex->image_start >= size)
			continue;
		count = export_run(ex, entry);
		if (count < EXPORT_TABLE_MIN)
			continue;
		if (ex->nr_tables == EXPORT_TABLES_MAX)
			return true;
		ex->tables[ex->nr_tables++] = (struct export_table){ .start = entry, .count = (uint32_t)count };
		s->resume = entry + count * ex->entry_size;
	}
	return false;
}

void image_exports_free(struct image_exports *ex)
{
	if (!ex)
		return;
	free(ex->tables);
	free(ex);
}

struct mdf_error *image_find_exports(struct memory *mem, struct btf_info *btf, uint64_t image_start,
				     struct image_exports **out)
{
	struct image_exports *ex = calloc(1, sizeof(*ex));
	struct export_search s = { .ex = ex };
	struct btf_info_result r;
	struct mdf_error *err = ex ? NULL : &mdf_error_enomem;
	uint32_t entries = 0;

	if (!err && (err = btf_info_lookup(btf, "vmlinux", "kernel_symbol.value_offset", &r)))
		err = mdf_error_wrap(err, "vmlinux BTF has no kernel_symbol.value_offset (exports with "
				     "PREL32 offsets, as x86_64 and arm64 have)");
	if (!err) {
		ex->value_field = r.bit_offset / 8;
		err = btf_field(btf, "kernel_symbol.name_offset", &ex->name_field, NULL);
	}
	if (!err && !(err = btf_info_lookup(btf, "vmlinux", "kernel_symbol", &r)))
		ex->entry_size = (uint64_t)r.size;
	if (!err && (ex->entry_size < 8 || ex->entry_size > 64 || ex->value_field + 4 > ex->entry_size ||
		     ex->name_field + 4 > ex->entry_size))
		err = mdf_error(-MDF_ECORRUPT, "vmlinux BTF gives struct kernel_symbol %" PRIu64 " bytes: not a "
				"kernel's", ex->entry_size);
	if (!err && !(ex->tables = calloc(EXPORT_TABLES_MAX, sizeof(*ex->tables))))
		err = &mdf_error_enomem;
	if (!err) {
		ex->mem = mem;
		ex->image_start = image_start;
		err = scan_image(mem, image_start, NULL, NULL, &ex->image_end);
	}
	if (!err)
		err = scan_image(mem, image_start, visit_exports, &s, NULL);
	if (!err && !ex->nr_tables)
		err = mdf_error(-ENOENT, "no export table in the kernel image");
	if (err) {
		image_exports_free(ex);
		return mdf_error_wrap(err, "searching the kernel image for its export tables");
	}
	for (size_t i = 0; i < ex->nr_tables; i++)
		entries += ex->tables[i].count;
	msg_debug("the kernel's export tables found in its image: %zu tables, %" PRIu32 " exports, each name "
		  "in the image and the names in ascending order", ex->nr_tables, entries);
	*out = ex;
	return NULL;
}

struct export_name_search {
	const struct image_exports *ex;
	const struct export_table *table;
	const char *name;
	bool unreadable;
};

/* Whether the export at @i sorts before the name; an unreadable one ends the search. */
static bool export_name_before(void *ctx, size_t i)
{
	struct export_name_search *s = ctx;
	uint64_t name_addr, value;
	char found[EXPORT_NAME_MAX];

	if (s->unreadable || !export_entry(s->ex, s->table->start + i * s->ex->entry_size, &name_addr, &value) ||
	    !export_name(s->ex, name_addr, found)) {
		s->unreadable = true;
		return false;
	}
	return strcmp(found, s->name) < 0;
}

struct mdf_error *image_exports_lookup(const struct image_exports *ex, const char *name, uint64_t *addr)
{
	char found[EXPORT_NAME_MAX];

	for (size_t i = 0; i < ex->nr_tables; i++) {
		struct export_name_search s = { ex, &ex->tables[i], name, false };
		size_t at = search_partition_point(ex->tables[i].count, export_name_before, &s);
		uint64_t name_addr, value;

		/* A table that cannot be read where the search went is passed over, as one without the name. */
		if (!s.unreadable && at < ex->tables[i].count &&
		    export_entry(ex, ex->tables[i].start + at * ex->entry_size, &name_addr, &value) &&
		    export_name(ex, name_addr, found) && !strcmp(found, name)) {
			*addr = value;
			return NULL;
		}
	}
	return &mdf_error_not_found;
}
