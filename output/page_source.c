// SPDX-License-Identifier: GPL-2.0-or-later
/* What the writers share of reading a page source: page_source.h. */
#include <inttypes.h>
#include <string.h>

#include "output/page_source.h"

struct mdf_error page_source_unreadable = { .code = -MDF_EUNREADABLE, .shared = true };

struct mdf_error *page_source_read_dumped(const struct page_source *src, uint64_t pfn, void *buf,
					  const char *path, bool *unreadable)
{
	struct mdf_error *err = src->read_page(src->ctx, pfn, buf);
	int code = err ? err->code : 0;

	*unreadable = code == -MDF_EUNREADABLE;
	if (!*unreadable && code != -MDF_EEXCLUDED && code != -MDF_ENOTDUMPED)
		return err;
	mdf_error_free(err);
	if (*unreadable)
		return NULL;
	return mdf_error(code, "%s: pfn 0x%" PRIx64 " is to be dumped but the input %s", path, pfn,
			 code == -MDF_EEXCLUDED ? "excluded it" : "does not hold it");
}

struct mdf_error *page_source_read_dumped_pages(const struct page_source *src, const uint64_t *pfns,
						size_t count, size_t page_size, void *buf,
						const char *path, bool *unreadable)
{
	unsigned char *pages = buf;
	size_t i = 0;

	while (i < count) {
		size_t n = src->read_pages ? src->read_pages(src->ctx, pfns + i, count - i,
							     pages + i * page_size) : 0;
		struct mdf_error *err;

		memset(unreadable + i, 0, n * sizeof(*unreadable));
		i += n;
		if (i == count)
			break;
		err = page_source_read_dumped(src, pfns[i], pages + i * page_size, path, &unreadable[i]);
		if (err)
			return err;
		i++;
	}
	return NULL;
}
