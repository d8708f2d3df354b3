// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the formats share: reading the file (through mmap windows for
 * /proc/vmcore), the range bookkeeping, VMCOREINFO's copy, and closing.
 * input_open.c picks the format; the formats call these.
 */
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "input/dump_input.h"
#include "input/vmcore_map.h"
#include "util/message.h"
#include "util/search.h"
#include "util/vec.h"

/* The size of a mapped window: upstream's. */
#define MAP_WINDOW (4u << 20)

bool input_map_procfs(struct dump_input *in)
{
	struct statfs fs;

	/* Where the mapping does not work, pread() serves as well: why is not worth saying. */
	if (!in->map && fstatfs(in->fd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC)
		mdf_error_drop(vmcore_map_new(in->fd, in->file_size, MAP_WINDOW, &in->map));
	return in->map != NULL;
}

struct mdf_error *input_pread(struct dump_input *in, void *buf, size_t len, uint64_t offset, const char *what)
{
	size_t done = 0;

	/* What the mapping cannot give, read() says why. */
	if (in->map && !mdf_error_drop(vmcore_map_read(in->map, buf, len, offset)))
		return NULL;

	while (done < len) {
		ssize_t n = pread(in->fd, (char *)buf + done, len - done, (off_t)(offset + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return mdf_error(-errno, "%s: cannot read %s at offset 0x%llx: %s", in->path, what,
					 (unsigned long long)(offset + done), strerror(errno));
		}
		if (n == 0) {
			/* The read may start past the end: the file's size says where it ends. */
			struct stat st;
			unsigned long long end = fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode)
							 ? (unsigned long long)st.st_size
							 : (unsigned long long)(offset + done);

			return mdf_error(-EIO,
					 "%s: file ends at 0x%llx, %s %s (0x%zx bytes at 0x%llx): truncated?",
					 in->path, end, end <= offset ? "before" : "inside", what, len,
					 (unsigned long long)offset);
		}
		done += (size_t)n;
	}
	return NULL;
}

struct mdf_error *input_set_vmcoreinfo(struct dump_input *in, const void *text, size_t size)
{
	char *copy = malloc(size + 1);

	if (!copy)
		return &mdf_error_enomem;
	memcpy(copy, text, size);
	copy[size] = '\0';
	free(in->vmcoreinfo);
	in->vmcoreinfo = copy;
	in->vmcoreinfo_size = size;
	return NULL;
}

/* The value of the line starting "@key=" in the VMCOREINFO text, up to its end; NULL if none. */
static const char *vmcoreinfo_line(const struct dump_input *in, const char *key, size_t *len)
{
	size_t key_len = strlen(key);

	for (const char *line = in->vmcoreinfo; line && *line;) {
		const char *end = strchr(line, '\n');

		if (!end)
			end = line + strlen(line);
		if ((size_t)(end - line) > key_len && !strncmp(line, key, key_len) && line[key_len] == '=') {
			*len = (size_t)(end - line) - key_len - 1;
			return line + key_len + 1;
		}
		line = *end ? end + 1 : end;
	}
	return NULL;
}

uint32_t input_vmcoreinfo_page_size(const struct dump_input *in, uint32_t fallback)
{
	size_t len;
	const char *value = vmcoreinfo_line(in, "PAGESIZE", &len);
	char digits[16];
	unsigned long size;
	char *end;

	if (!value || len == 0 || len >= sizeof(digits))
		return fallback;
	memcpy(digits, value, len);
	digits[len] = '\0';
	size = strtoul(digits, &end, 10);
	if (*end || size < 4096 || size > 65536 || (size & (size - 1)))
		return fallback;
	return (uint32_t)size;
}

struct mdf_error *input_add_range(struct dump_input *in, uint64_t start, uint64_t end)
{
	if (start >= end)
		return NULL;
	if (vec_reserve(in->ranges, &in->cap_ranges, in->nr_ranges, 1))
		return &mdf_error_enomem;
	in->ranges[in->nr_ranges].start = start;
	in->ranges[in->nr_ranges].end = end;
	in->nr_ranges++;
	return NULL;
}

static int compare_ranges(const void *a, const void *b)
{
	const struct phys_range *ra = a, *rb = b;

	if (ra->start != rb->start)
		return ra->start < rb->start ? -1 : 1;
	return 0;
}

void input_normalise_ranges(struct dump_input *in)
{
	size_t kept = 0;

	vec_sort(in->ranges, in->nr_ranges, compare_ranges);
	for (size_t i = 0; i < in->nr_ranges; i++) {
		struct phys_range *last = kept ? &in->ranges[kept - 1] : NULL;

		if (last && in->ranges[i].start <= last->end) {
			if (in->ranges[i].end > last->end)
				last->end = in->ranges[i].end;
			continue;
		}
		in->ranges[kept++] = in->ranges[i];
	}
	in->nr_ranges = kept;
	in->max_pfn = kept ? (in->ranges[kept - 1].end + in->page_size - 1) / in->page_size : 0;
}

struct range_search {
	const struct phys_range *ranges;
	uint64_t paddr;
};

static bool range_ends_before(void *ctx, size_t i)
{
	const struct range_search *s = ctx;

	return s->ranges[i].end <= s->paddr;
}

const struct phys_range *input_find_range(const struct dump_input *in, uint64_t paddr)
{
	struct range_search s = { in->ranges, paddr };
	size_t i = search_partition_point(in->nr_ranges, range_ends_before, &s);

	return i < in->nr_ranges && in->ranges[i].start <= paddr ? &in->ranges[i] : NULL;
}

void input_close(struct dump_input *in)
{
	if (!in)
		return;
	if (in->ops && in->ops->close)
		in->ops->close(in);
	vmcore_map_free(in->map);
	if (in->fd >= 0)
		close(in->fd);
	free(in->ranges);
	free(in->vmcoreinfo);
	free(in->notes);
	free(in);
}
