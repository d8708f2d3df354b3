/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For the callback tests: the pfns of one kind in a marker-pfns.txt
 * ("KIND PFN" lines), named by the environment (MDF_TEST_PFNS, the file;
 * MDF_TEST_KIND, the kind), as a sorted array the callback searches.
 * Uses only what makedumpfile.h brings in.
 */
static unsigned long *listed;
static size_t nr_listed;

static int compare_pfns(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static bool read_pfn_list(void)
{
	const char *path = getenv("MDF_TEST_PFNS"), *kind = getenv("MDF_TEST_KIND");
	char line[128], word[64];
	unsigned long pfn;
	size_t cap = 0;
	FILE *f;

	if (!path || !kind || !(f = fopen(path, "r")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %lx", word, &pfn) != 2 || strcmp(word, kind))
			continue;
		if (nr_listed == cap) {
			unsigned long *more = reallocarray(listed, cap ? 2 * cap : 256, sizeof(*listed));

			if (!more)
				break;
			listed = more;
			cap = cap ? 2 * cap : 256;
		}
		listed[nr_listed++] = pfn;
	}
	fclose(f);
	qsort(listed, nr_listed, sizeof(*listed), compare_pfns);
	return nr_listed > 0;
}

static bool is_listed(unsigned long pfn)
{
	return bsearch(&pfn, listed, nr_listed, sizeof(*listed), compare_pfns) != NULL;
}
