// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The extension loader: trust checks, one child process per extension,
 * and the pipe that brings each one's ranges back.
 *
 * Extensions run as root in the kdump kernel, on memory that may be
 * corrupt: they are code we did not write, reading data nobody vouches
 * for.  Isolation is by process: a child inherits the dump reader (copy on
 * write) and everything already decoded, loads one extension, and sends
 * one message: a header with a status and a text, the page ranges, then
 * what it asks to erase (the WHATs, the samples, the physical pieces of
 * each; see erase/erase_set.h).  The parent waits for it with a deadline; a
 * child that dies, hangs or sends a short or inconsistent message is
 * reported and its ranges and erasures are dropped.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "erase/erase_set.h"
#include "extension/child.h"
#include "extension/decision_checks.h"
#include "extension/declarations.h"
#include "extension/host.h"
#include "extension/page_callback.h"
#include "extension/runtime.h"
#include "input/vmcore_map.h"
#include "makedumpfile-extension.h"
#include "scan/page_scan.h"
#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "util/message.h"
#include "util/vec.h"

#define MESSAGE_MAGIC 0x6d646678u   /* "mdfx" */
/* A million ranges is far more than any filter needs; more is a runaway. */
#define MAX_RANGES (1u << 24)
#define MAX_TEXT 1024

/* The WHATs of one extension, NUL-terminated, each at most 127 bytes. */
#define MAX_ENTRIES_LEN (EXTENSION_MAX_ERASE_WHATS * 128)

/* message_header.flags */
#define MESSAGE_HAS_CALLBACK 0x1u

/* Which set of struct page_decisions a range is for. */
enum range_kind {
	RANGE_DISCARD,
	RANGE_KEEP,
	RANGE_INCLUDE,
	RANGE_EXCLUDE,
	NR_RANGE_KINDS,
};

struct message_header {
	uint32_t magic;
	int32_t status;
	uint32_t flags;
	uint32_t text_len;
	uint32_t nr_ranges[NR_RANGE_KINDS];
	uint32_t nr_entries;
	uint32_t entries_len;
	uint32_t nr_samples;
	uint32_t nr_pieces;
};

/*
 * After the header and the text: the ranges of each kind, in enum order,
 * as the child's merged struct pfn_ranges hold them ({start, end}, sorted
 * and disjoint).  The parent reads them straight into the end of its own
 * sets, where they count only once they are checked: a range costs no copy
 * on either side, which matters to an extension that sends a hundred
 * thousand.
 *
 * After the ranges: the WHATs (entries_len bytes, each NUL-terminated),
 * the byte each WHAT's data is overwritten with (nr_entries bytes), the
 * entry of each sample (a uint32_t each), then the pieces.
 */
struct message_piece {
	uint64_t paddr;
	uint32_t len;
	uint32_t sample;
};

/* An extension to run: where it is, its name, or why it may not run. */
struct candidate {
	char *path;
	char *name;
	int fd;                  /* the file checked, to be loaded; -1 when refused */
	struct mdf_error *refusal;
};

/* A child's message past its header, text and ranges, as the parent receives it. */
struct message_body {
	char *entries;
	unsigned char *fills;
	uint32_t *samples;
	struct message_piece *pieces;
};

struct mdf_error *extension_parse_arg(const char *text, struct extension_arg *arg)
{
	const char *colon = strchr(text, ':');
	const char *equals = colon ? strchr(colon, '=') : NULL;

	if (!colon || colon == text || !equals || equals == colon + 1)
		return mdf_error(-EINVAL, "--extension-arg \"%s\" is not NAME:KEY=VALUE", text);
	arg->extension = strndup(text, (size_t)(colon - text));
	arg->key = strndup(colon + 1, (size_t)(equals - colon - 1));
	arg->value = equals + 1;
	if (!arg->extension || !arg->key) {
		free((char *)arg->extension);
		free((char *)arg->key);
		return &mdf_error_enomem;
	}
	return NULL;
}

void extension_args_free(struct extension_arg *args, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		free((char *)args[i].extension);
		free((char *)args[i].key);
	}
	free(args);
}

/* Owned by root or by us, not writable by group or others: NULL, or why not. */
static struct mdf_error *check_trusted(const struct stat *st)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return mdf_error(-EPERM, "owned by uid %u, neither root nor the user running makedumpfile",
				 (unsigned int)st->st_uid);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return mdf_error(-EPERM, "writable by %s (mode %04o)", st->st_mode & S_IWOTH ? "others" : "its group",
				 (unsigned int)(st->st_mode & 07777));
	return NULL;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

/* The *.so names of @dir, sorted; none when the directory does not exist. */
static struct mdf_error *list_extensions(const char *dir, char ***names, size_t *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = NULL;
	size_t n = 0, cap = 0;

	*names = NULL;
	*count = 0;
	if (!d)
		return errno == ENOENT ? NULL : mdf_error_code(-errno);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 4 || strcmp(e->d_name + len - 3, ".so"))
			continue;
		if (vec_reserve(list, &cap, n, 1) || !(list[n] = strdup(e->d_name))) {
			free_names(list, n);
			closedir(d);
			return &mdf_error_enomem;
		}
		n++;
	}
	closedir(d);
	vec_sort(list, n, compare_names);
	*names = list;
	*count = n;
	return NULL;
}

/*
 * A trusted directory: itself as check_trusted() says, and every directory
 * above it owned by root or by us and not writable by others unless
 * sticky (as /tmp), as OpenSSH checks the paths of its keys: whoever may
 * rename an ancestor may put another directory in its place.  NULL, or
 * why not.
 */
static struct mdf_error *check_directory(const char *real_dir)
{
	char *path = strdup(real_dir), *slash;
	struct mdf_error *err;
	struct stat st;

	if (!path)
		return &mdf_error_enomem;
	err = stat(path, &st) < 0 ? mdf_error_code(-errno) : check_trusted(&st);
	while (!err && (slash = strrchr(path, '/'))) {
		slash[slash == path] = '\0';
		if (stat(path, &st) < 0)
			err = mdf_error(-errno, "cannot stat %s: %s", path, strerror(errno));
		else if (st.st_uid != 0 && st.st_uid != geteuid())
			err = mdf_error(-EPERM, "%s above it is owned by uid %u, neither root nor the user running "
					"makedumpfile", path, (unsigned int)st.st_uid);
		else if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
			err = mdf_error(-EPERM, "%s above it is writable by others (mode %04o)", path,
					(unsigned int)(st.st_mode & 07777));
		if (slash == path)
			break;
	}
	free(path);
	return err;
}

/*
 * Opens @path for loading, if it may be loaded: it resolves inside
 * @real_dir (any trusted directory when NULL) and is a trusted regular
 * file.  The checks that matter are made on the descriptor, which is what
 * the child loads (/proc/self/fd/N): a file swapped after them is not the
 * one loaded.  *@real becomes its resolved path.  NULL, or why not.
 */
static struct mdf_error *open_file(const char *path, const char *real_dir, int *fd, char **real)
{
	char *slash;
	struct mdf_error *err = NULL;
	struct stat st;

	*fd = -1;
	*real = realpath(path, NULL);
	if (!*real)
		return mdf_error(-errno, "cannot resolve it: %s", strerror(errno));
	slash = strrchr(*real, '/');
	if (real_dir && (strncmp(*real, real_dir, strlen(real_dir)) || slash != *real + strlen(real_dir)))
		return mdf_error(-EPERM, "it leads to %s, outside the extensions directory", *real);
	if (!real_dir) {
		*slash = '\0';
		err = check_directory(slash == *real ? "/" : *real);
		if (err)
			err = mdf_error_wrap(err, "its directory %s is not trusted", slash == *real ? "/" : *real);
		*slash = '/';
		if (err)
			return err;
	}
	*fd = open(*real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (*fd < 0)
		err = mdf_error(-errno, "cannot open it: %s", strerror(errno));
	else if (fstat(*fd, &st) < 0)
		err = mdf_error(-errno, "cannot stat it: %s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		err = mdf_error(-EPERM, "not a regular file");
	else
		err = check_trusted(&st);
	if (err && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	return err;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static struct pfn_ranges *decision_set(struct page_decisions *d, enum range_kind kind)
{
	switch (kind) {
	case RANGE_KEEP:
		return &d->keep;
	case RANGE_INCLUDE:
		return &d->include;
	case RANGE_EXCLUDE:
		return &d->exclude;
	case RANGE_DISCARD:
	case NR_RANGE_KINDS:
		break;
	}
	return &d->discard;
}

/* Each kind's ranges straight from its set: the child merged them. */
static int send_ranges(int fd, struct page_decisions *d)
{
	for (int kind = 0; kind < NR_RANGE_KINDS; kind++) {
		const struct pfn_ranges *set = decision_set(d, kind);

		if (write_all(fd, set->ranges, set->count * sizeof(*set->ranges)))
			return -1;
	}
	return 0;
}

/* The erase requests: the WHATs and their fill bytes, then each sample's entry, then the pieces. */
static int send_erase(int fd, const struct erase_set *erase, uint32_t entries_len)
{
	size_t size = entries_len + erase->nr_entries + erase->nr_samples * sizeof(uint32_t) +
		      erase->nr_pieces * sizeof(struct message_piece);
	char *buf = malloc(size + 1), *p = buf;
	int err;

	if (!buf)
		return -1;
	for (size_t i = 0; i < erase->nr_entries; i++)
		p = stpcpy(p, erase->entries[i].text) + 1;
	for (size_t i = 0; i < erase->nr_entries; i++)
		*p++ = (char)erase->entries[i].fill;
	for (size_t i = 0; i < erase->nr_samples; i++, p += sizeof(uint32_t))
		memcpy(p, &erase->samples[i].entry, sizeof(uint32_t));
	for (size_t i = 0; i < erase->nr_pieces; i++, p += sizeof(struct message_piece)) {
		struct message_piece piece = { erase->pieces[i].paddr, erase->pieces[i].len,
					       erase->pieces[i].sample };

		memcpy(p, &piece, sizeof(piece));
	}
	err = write_all(fd, buf, size);
	free(buf);
	return err;
}

/*
 * An extension's fault must kill its child with the signal, for the parent
 * to report; handlers inherited from the parent (a sanitizer's, say) would
 * turn it into an exit status instead.
 */
static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

/*
 * In the child: loads the extension and runs what it has, in upstream's
 * order (its declarations resolved before any of its entry points), then
 * its callback over every page.  The error is why it failed.
 */
static struct mdf_error *load_and_run(const char *path, const char *load_path, const struct extension_env *env,
					uint32_t *flags)
{
	void *handle = dlopen(load_path, RTLD_NOW | RTLD_LOCAL);
	int (*mdf_init)(struct mdf_extension *);
	void (*init)(void);
	page_callback_fn callback;
	struct page_decisions *decisions;
	struct erase_set *erase;
	struct mdf_error *err;
	bool declared;

	if (!handle)
		return mdf_error(-ENOEXEC, "cannot load it: %s", dlerror());
	msg_info("Loaded extension: %s", path);
	err = declarations_resolve(handle, load_path, env->kernel, &declared);
	if (err)
		return err;
	*(void **)&mdf_init = dlsym(handle, "mdf_extension_init");
	*(void **)&init = dlsym(handle, "extension_init");
	*(void **)&callback = dlsym(handle, "extension_callback");
	if ((declared || callback) && !init)
		return mdf_error(-ENOEXEC, "written for upstream's extension API, it has no extension_init()");
	if (mdf_init) {
		int status = mdf_init(extension_runtime_handle());

		if (status)
			return mdf_error(status < 0 ? status : -status, "mdf_extension_init() returned %d (%s)",
					 status, strerror(status < 0 ? -status : status));
	}
	if (init)
		init();
	if (!callback)
		return NULL;
	*flags |= MESSAGE_HAS_CALLBACK;
	if (!env->scan)
		return mdf_error(-ENOTSUP, "this run reads no struct pages for its extension_callback()");
	extension_runtime_results(&decisions, &erase);
	return page_callback_run(env->scan, callback, decisions);
}

/* The child: load, run, report.  Never returns. */
static void run_child(int fd, const char *path, const char *load_path, const char *name,
		      const struct extension_options *opt, const struct extension_env *env)
{
	struct message_header h = { .magic = MESSAGE_MAGIC };
	struct page_decisions *decisions;
	struct erase_set *erase;
	char text[MAX_TEXT] = "";
	struct mdf_error *err;

	for (size_t i = 0; i < sizeof(fault_signals) / sizeof(fault_signals[0]); i++)
		signal(fault_signals[i], SIG_DFL);
	/* A page of /proc/vmcore that faults costs the extension that page only. */
	vmcore_map_catch_sigbus_again();
	extension_runtime_begin(env, name, opt->args, opt->nr_args);
	err = load_and_run(path, load_path, env, &h.flags);
	if (err) {
		h.status = err->code < 0 ? err->code : -ECANCELED;
		snprintf(text, sizeof(text), "%s", mdf_error_text(err));
		mdf_error_free(err);
	}
	fflush(NULL);
	extension_runtime_results(&decisions, &erase);
	page_decisions_merge(decisions);
	h.text_len = (uint32_t)strlen(text);
	for (int kind = 0; kind < NR_RANGE_KINDS; kind++)
		h.nr_ranges[kind] = (uint32_t)decision_set(decisions, kind)->count;
	h.nr_entries = (uint32_t)erase->nr_entries;
	for (size_t i = 0; i < erase->nr_entries; i++)
		h.entries_len += (uint32_t)strlen(erase->entries[i].text) + 1;
	h.nr_samples = (uint32_t)erase->nr_samples;
	h.nr_pieces = (uint32_t)erase->nr_pieces;
	if (write_all(fd, &h, sizeof(h)) || write_all(fd, text, h.text_len) ||
	    send_ranges(fd, decisions) || send_erase(fd, erase, h.entries_len))
		_exit(2);
	/* No atexit handlers or destructors of an extension the parent may not trust. */
	_exit(0);
}

/* Why a child ended without a complete report (@code: how reading it failed). */
static struct mdf_error *describe_end(struct ext_child *c, int code, unsigned int timeout)
{
	int status = ext_child_end(c, code == -ETIMEDOUT, NULL);

	if (code == -ETIMEDOUT)
		return mdf_error(code, "did not finish within %u s (killed)", timeout);
	if (status < 0)
		return mdf_error(-ECHILD, "lost");
	if (WIFSIGNALED(status))
		return mdf_error(-ECHILD, "crashed (signal %d, %s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	return mdf_error(-ECHILD, "exited with status %d before reporting its ranges", WEXITSTATUS(status));
}

static uint64_t header_ranges(const struct message_header *h)
{
	uint64_t ranges = 0;

	for (int kind = 0; kind < NR_RANGE_KINDS; kind++)
		ranges += h->nr_ranges[kind];
	return ranges;
}

static bool header_sane(const struct message_header *h)
{
	return h->magic == MESSAGE_MAGIC && h->text_len <= MAX_TEXT && header_ranges(h) <= MAX_RANGES &&
	       h->nr_entries <= EXTENSION_MAX_ERASE_WHATS && h->entries_len <= MAX_ENTRIES_LEN &&
	       h->nr_samples <= ERASE_MAX_PIECES && h->nr_pieces <= ERASE_MAX_PIECES;
}

static void free_body(struct message_body *b)
{
	free(b->entries);
	free(b->fills);
	free(b->samples);
	free(b->pieces);
}

/* The parts after the text: no memory, or ext_child_read()'s error. */
static struct mdf_error *read_body(struct ext_child *c, const struct message_header *h, struct message_body *b)
{
	size_t samples = (size_t)h->nr_samples * sizeof(*b->samples);
	size_t pieces = (size_t)h->nr_pieces * sizeof(*b->pieces);
	struct mdf_error *err;

	b->entries = malloc((size_t)h->entries_len + 1);
	b->fills = malloc((size_t)h->nr_entries + 1);
	b->samples = malloc(samples + 1);
	b->pieces = malloc(pieces + 1);
	if (!b->entries || !b->fills || !b->samples || !b->pieces)
		return &mdf_error_enomem;
	err = ext_child_read(c, b->entries, h->entries_len);
	if (!err)
		err = ext_child_read(c, b->fills, h->nr_entries);
	if (!err)
		err = ext_child_read(c, b->samples, samples);
	if (!err)
		err = ext_child_read(c, b->pieces, pieces);
	return err;
}

/* What makes the message unusable, or NULL when all is well. */
static struct mdf_error *check_body(const struct message_header *h, const struct message_body *b,
				    const struct extension_env *env)
{
	uint32_t names = 0;
	bool empty = false;

	/* The WHATs: nr_entries non-empty strings, each NUL-terminated. */
	for (uint32_t i = 0; i < h->entries_len; i++) {
		if (b->entries[i])
			continue;
		names++;
		empty |= i == 0 || !b->entries[i - 1];
	}
	if (empty || names != h->nr_entries || (h->entries_len && b->entries[h->entries_len - 1]))
		return mdf_error(-EBADMSG, "sent a malformed erase request (%" PRIu32 " names)", h->nr_entries);
	for (uint32_t i = 0; i < h->nr_samples; i++)
		if (b->samples[i] >= h->nr_entries)
			return mdf_error(-EBADMSG, "sent a malformed erase request (sample %" PRIu32 ")", i);
	for (uint32_t i = 0; i < h->nr_pieces; i++) {
		const struct message_piece *p = &b->pieces[i];

		if (p->sample >= h->nr_samples || !p->len || p->paddr % env->page_size + p->len >
		    env->page_size || p->paddr / env->page_size >= env->max_pfn)
			return mdf_error(-ERANGE, "asked to erase %" PRIu32 " bytes at physical address 0x%"
					 PRIx64 ", not inside one page of the dump", p->len, p->paddr);
	}
	if (env->erase && h->nr_pieces > ERASE_MAX_PIECES - env->erase->nr_pieces)
		return mdf_error(-ENOSPC, "asked to erase %" PRIu32 " more pieces of pages than the %u "
				 "makedumpfile keeps in all", h->nr_pieces, ERASE_MAX_PIECES);
	return NULL;
}

/*
 * Adds the erasures to @set, each WHAT named "NAME:WHAT"; entries and
 * samples are made for the pieces there are, so that a request that
 * failed in the child leaves nothing behind.
 */
static struct mdf_error *add_erasures(const char *name, const struct message_header *h,
				      const struct message_body *b, struct erase_set *set, uint64_t *bytes)
{
	uint32_t *entries = malloc(((size_t)h->nr_entries + 1) * sizeof(*entries));
	uint32_t *samples = malloc(((size_t)h->nr_samples + 1) * sizeof(*samples));
	const char **whats = malloc(((size_t)h->nr_entries + 1) * sizeof(*whats));
	struct mdf_error *err = NULL;

	if (!entries || !samples || !whats) {
		err = &mdf_error_enomem;
		goto out;
	}
	for (uint32_t i = 0, at = 0; i < h->nr_entries; i++) {
		whats[i] = b->entries + at;
		at += (uint32_t)strlen(whats[i]) + 1;
		entries[i] = UINT32_MAX;
	}
	for (uint32_t i = 0; i < h->nr_samples; i++)
		samples[i] = UINT32_MAX;
	for (uint32_t i = 0; i < h->nr_pieces && !err; i++) {
		const struct message_piece *p = &b->pieces[i];
		uint32_t entry = b->samples[p->sample];

		if (entries[entry] == UINT32_MAX) {
			char text[MAX_TEXT];

			snprintf(text, sizeof(text), "%s:%s", name, whats[entry]);
			err = erase_set_entry_filled(set, text, b->fills[entry], &entries[entry]);
		}
		if (!err && samples[p->sample] == UINT32_MAX)
			err = erase_set_sample(set, entries[entry], &samples[p->sample]);
		if (!err)
			err = erase_set_add_phys(set, samples[p->sample], p->paddr, p->len);
		*bytes += p->len;
	}
out:
	free(entries);
	free(samples);
	free(whats);
	return err;
}

/*
 * One extension's ranges, read into the spare room past the end of each
 * set of the run's decisions: they count only once take_ranges() has
 * them, so a message that fails leaves the sets as they were.
 */
struct incoming_ranges {
	struct page_decisions *decisions;
	size_t at[NR_RANGE_KINDS];       /* each set's count before them */
	size_t count[NR_RANGE_KINDS];
	bool in_order[NR_RANGE_KINDS];   /* sorted and disjoint, as the child merged them */
};

/* NULL when the set never had room: nothing came. */
static const struct pfn_range *incoming(const struct incoming_ranges *in, int kind)
{
	const struct pfn_ranges *set = decision_set(in->decisions, kind);

	return set->ranges ? set->ranges + in->at[kind] : NULL;
}

/* No memory, or ext_child_read()'s error. */
static struct mdf_error *read_ranges(struct ext_child *c, const struct message_header *h,
				     struct incoming_ranges *in)
{
	for (int kind = 0; kind < NR_RANGE_KINDS; kind++) {
		struct pfn_ranges *set = decision_set(in->decisions, kind);
		struct mdf_error *err;

		in->at[kind] = set->count;
		in->count[kind] = h->nr_ranges[kind];
		if (!in->count[kind])
			continue;
		err = pfn_ranges_reserve(set, in->count[kind]);
		if (!err)
			err = ext_child_read(c, set->ranges + set->count, in->count[kind] * sizeof(*set->ranges));
		if (err)
			return err;
	}
	return NULL;
}

/* What makes the ranges unusable: an empty one, or one past the dump's last pfn. */
static struct mdf_error *check_ranges(struct incoming_ranges *in, uint64_t max_pfn)
{
	for (int kind = 0; kind < NR_RANGE_KINDS; kind++) {
		const struct pfn_range *r = incoming(in, kind);

		in->in_order[kind] = true;
		for (size_t i = 0; i < in->count[kind]; i++) {
			if (r[i].start >= r[i].end)
				return mdf_error(-EBADMSG, "sent a malformed report (an empty range at pfn 0x%"
						 PRIx64 ")", r[i].start);
			if (r[i].end > max_pfn)
				return mdf_error(-ERANGE, "registered pfns 0x%" PRIx64 "-0x%" PRIx64
						 " beyond the dump's last pfn 0x%" PRIx64, r[i].start,
						 r[i].end - 1, max_pfn - 1);
			if (i && r[i].start <= r[i - 1].end)
				in->in_order[kind] = false;
		}
	}
	return NULL;
}

static void take_ranges(struct incoming_ranges *in, struct extension_outcome *out)
{
	uint64_t *pages[NR_RANGE_KINDS] = { [RANGE_DISCARD] = &out->discard_pages, [RANGE_KEEP] = &out->keep_pages,
					    [RANGE_INCLUDE] = &out->include_pages,
					    [RANGE_EXCLUDE] = &out->exclude_pages };

	for (int kind = 0; kind < NR_RANGE_KINDS; kind++) {
		struct pfn_ranges *set = decision_set(in->decisions, kind);

		for (size_t i = 0; i < in->count[kind]; i++)
			*pages[kind] += set->ranges[in->at[kind] + i].end - set->ranges[in->at[kind] + i].start;
		set->count += in->count[kind];
		if (in->count[kind])
			set->merged = false;
	}
}

/*
 * What one extension leaves out, for the warnings of decision_checks.h:
 * its discarded or its excluded ranges where the child merged them and
 * there are only those, else both merged into a set of their own.
 */
static struct mdf_error *check_dropped(struct decision_checks *checks, const char *name,
				       const struct incoming_ranges *in)
{
	static const int dropping[] = { RANGE_DISCARD, RANGE_EXCLUDE };
	struct pfn_ranges dropped = { 0 };
	struct mdf_error *err;

	for (size_t i = 0; i < 2; i++) {
		int kind = dropping[i], other = dropping[1 - i];

		if (in->count[kind] && !in->count[other] && in->in_order[kind]) {
			struct pfn_ranges view = { (struct pfn_range *)incoming(in, kind), in->count[kind],
						   in->count[kind], true };

			decision_checks_warn(checks, name, &view);
			return NULL;
		}
	}
	err = pfn_ranges_reserve(&dropped, in->count[RANGE_DISCARD] + in->count[RANGE_EXCLUDE]);
	for (size_t i = 0; i < 2 && !err; i++) {
		if (!in->count[dropping[i]])
			continue;
		memcpy(dropped.ranges + dropped.count, incoming(in, dropping[i]),
		       in->count[dropping[i]] * sizeof(*dropped.ranges));
		dropped.count += in->count[dropping[i]];
	}
	if (!err) {
		pfn_ranges_merge(&dropped);
		decision_checks_warn(checks, name, &dropped);
	}
	pfn_ranges_free(&dropped);
	return err;
}

/*
 * The parent's side of one extension: its ranges go to @decisions, its
 * erasures to env->erase, only when the whole message
 * arrived and every range lies in the dump.  An extension that fails is
 * out->problem; the error returned is makedumpfile's own (no memory).
 */
static struct mdf_error *collect(struct ext_child *c, const struct extension_options *opt,
				 const struct extension_env *env, struct extension_outcome *out,
				 struct page_decisions *decisions, struct decision_checks *checks)
{
	struct message_header h;
	struct message_body body = { 0 };
	struct incoming_ranges ranges = { .decisions = decisions };
	struct mdf_error *problem = NULL, *err = NULL, *read_err;
	struct rusage usage;

	read_err = ext_child_read(c, &h, sizeof(h));
	if (!read_err && !header_sane(&h)) {
		ext_child_end(c, true, NULL);
		problem = mdf_error(-EBADMSG, "sent a malformed report (%" PRIu64 " ranges)", header_ranges(&h));
		goto failed;
	}
	if (!read_err) {
		char text[MAX_TEXT + 1];

		read_err = ext_child_read(c, text, h.text_len);
		text[read_err ? 0 : h.text_len] = '\0';
		if (!read_err)
			read_err = read_ranges(c, &h, &ranges);
		if (!read_err)
			read_err = read_body(c, &h, &body);
		if (read_err && read_err->code == -ENOMEM) {
			/* makedumpfile's own failure, not the extension's. */
			ext_child_end(c, true, NULL);
			err = read_err;
			goto out;
		}
		if (!read_err && h.status) {
			ext_child_end(c, false, NULL);
			problem = mdf_error(-ECANCELED, "%s", text);
			goto failed;
		}
	}
	if (read_err) {
		problem = describe_end(c, read_err->code, opt->timeout);
		mdf_error_free(read_err);
		goto failed;
	}
	if (ext_child_end(c, false, &usage) >= 0)
		out->child_cpu_ms = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
				    (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
	problem = check_ranges(&ranges, env->max_pfn);
	if (!problem)
		problem = check_body(&h, &body, env);
	if (problem)
		goto failed;
	out->has_callback = h.flags & MESSAGE_HAS_CALLBACK;
	take_ranges(&ranges, out);
	if (out->discard_pages + out->exclude_pages)
		err = check_dropped(checks, out->name, &ranges);
	if (!err && h.nr_pieces && env->erase)
		err = add_erasures(out->name, &h, &body, env->erase, &out->erase_bytes);
	else if (!err && h.nr_pieces)
		msg_warn("extension %s asked to erase data, but this run erases nothing: its erasures "
			 "are dropped", out->name);
	if (err)
		err = mdf_error_wrap(err, "extension %s", out->name);
	else
		out->ok = true;
	goto out;
failed:
	out->problem = strdup(mdf_error_text(problem));
	mdf_error_free(problem);
	if (!out->problem)
		err = &mdf_error_enomem;
out:
	free_body(&body);
	return err;
}

/* This thread's CPU time since @start, in milliseconds. */
static double cpu_ms_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	return (now.tv_sec - start->tv_sec) * 1e3 + (now.tv_nsec - start->tv_nsec) / 1e6;
}

/* What the child needs to run one extension. */
struct child_job {
	const char *path;
	int fd;                  /* the file checked: what is loaded */
	const char *name;
	const struct extension_options *opt;
	const struct extension_env *env;
};

static void run_child_job(int report_fd, void *arg)
{
	const struct child_job *job = arg;
	char load_path[64];

	/* Without /proc (an initramfs may lack it), the path checked is all there is. */
	snprintf(load_path, sizeof(load_path), "/proc/self/fd/%d", job->fd);
	run_child(report_fd, job->path, access(load_path, R_OK) ? job->path : load_path, job->name, job->opt,
		  job->env);
}

static struct mdf_error *run_one(const struct candidate *cand, const struct extension_options *opt,
				 const struct extension_env *env, struct extension_outcome *out,
				 struct page_decisions *decisions, struct decision_checks *checks)
{
	struct child_job job = { cand->path, cand->fd, out->name, opt, env };
	struct timespec start;
	struct ext_child child;
	struct mdf_error *err;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
	err = ext_child_start(&child, out->name, opt->timeout, run_child_job, &job);
	if (err)
		return err;
	err = collect(&child, opt, env, out, decisions, checks);
	out->parent_cpu_ms = cpu_ms_since(&start);
	return err;
}

struct candidates {
	struct candidate *list;
	size_t count, cap;
};

static void free_candidates(struct candidates *c)
{
	for (size_t i = 0; i < c->count; i++) {
		free(c->list[i].path);
		free(c->list[i].name);
		if (c->list[i].fd >= 0)
			close(c->list[i].fd);
		mdf_error_free(c->list[i].refusal);
	}
	free(c->list);
}

/*
 * Takes @path (malloc'ed; NULL: no memory), @fd (the file opened, or -1)
 * and @refusal; the name is the file's without ".so".
 */
static struct mdf_error *add_candidate(struct candidates *c, char *path, const char *file, int fd,
				       struct mdf_error *refusal)
{
	size_t len = strlen(file);
	char *name = strndup(file, len > 3 && !strcmp(file + len - 3, ".so") ? len - 3 : len);

	if (!path || !name || vec_reserve(c->list, &c->cap, c->count, 1)) {
		free(name);
		free(path);
		if (fd >= 0)
			close(fd);
		mdf_error_free(refusal);
		return &mdf_error_enomem;
	}
	for (size_t i = 0; i < c->count && !refusal; i++)
		if (!strcmp(c->list[i].name, name))
			refusal = mdf_error(-EEXIST, "an extension named %s runs already, from %s", name,
					    c->list[i].path);
	if (refusal && fd >= 0) {
		close(fd);
		fd = -1;
	}
	c->list[c->count++] = (struct candidate){ path, name, fd, refusal };
	return NULL;
}

/* Opens and adds @path (malloc'ed) as open_file() checks it. */
static struct mdf_error *add_checked(struct candidates *c, char *path, const char *file, const char *real_dir)
{
	char *real = NULL;
	int fd;
	struct mdf_error *refusal = path ? open_file(path, real_dir, &fd, &real) : NULL;

	free(real);
	return add_candidate(c, path, file, path ? fd : -1, refusal);
}

/* The *.so of @dir, in name order, each checked; nothing when @dir is not there. */
static struct mdf_error *add_directory(struct candidates *c, const char *dir)
{
	struct mdf_error *err, *refusal;
	char **names = NULL, *real_dir = NULL;
	size_t count = 0;
	bool trusted;

	refusal = list_extensions(dir, &names, &count);
	if (refusal) {
		msg_warn("cannot read the extensions directory %s: %s; its extensions do not run", dir,
			 mdf_error_text(refusal));
		mdf_error_free(refusal);
		return NULL;
	}
	if (!count)
		return NULL;
	real_dir = realpath(dir, NULL);
	refusal = real_dir ? check_directory(real_dir) : mdf_error_code(-errno);
	trusted = !refusal;
	if (refusal) {
		msg_warn("extensions directory %s is not trusted (%s): its extensions do not run", dir,
			 mdf_error_text(refusal));
		mdf_error_free(refusal);
	}
	err = NULL;
	for (size_t i = 0; i < count && trusted && !err; i++) {
		char *path;

		if (asprintf(&path, "%s/%s", real_dir, names[i]) < 0)
			err = &mdf_error_enomem;
		else
			err = add_checked(c, path, names[i], real_dir);
	}
	free_names(names, count);
	free(real_dir);
	return err;
}

/*
 * --extension @name: a path as given, a bare name in --extension-dir,
 * then in EXTENSION_DIR (never in the current directory).
 */
static struct mdf_error *add_named(struct candidates *c, const char *name, const char *dir)
{
	const char *dirs[] = { dir, EXTENSION_DIR };
	const char *file = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	size_t len = strlen(file);
	const char *found_in = NULL;
	char *path = NULL, *real_dir;
	struct mdf_error *refusal, *err;

	if (len <= 3 || strcmp(file + len - 3, ".so"))
		return add_candidate(c, strdup(name), file, -1,
				     mdf_error(-EINVAL, "not an extension's file name (NAME.so)"));
	if (file != name)
		return add_checked(c, strdup(name), file, NULL);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !path; i++) {
		struct stat st;

		if (!dirs[i])
			continue;
		if (asprintf(&path, "%s/%s", dirs[i], name) < 0)
			return &mdf_error_enomem;
		if (lstat(path, &st) == 0) {
			found_in = dirs[i];
			break;
		}
		free(path);
		path = NULL;
	}
	if (!path)
		return add_candidate(c, strdup(name), file, -1,
				     mdf_error(-ENOENT, "not found in %s%s%s", dir ? dir : "", dir ? " nor in " : "",
					       EXTENSION_DIR));
	real_dir = realpath(found_in, NULL);
	refusal = real_dir ? check_directory(real_dir) : mdf_error_code(-errno);
	if (refusal) {
		free(real_dir);
		return add_candidate(c, path, file, -1,
				     mdf_error_wrap(refusal, "its directory %s is not trusted", found_in));
	}
	err = add_checked(c, path, file, real_dir);
	free(real_dir);
	return err;
}

struct mdf_error *extensions_run(const struct extension_options *opt, const struct extension_env *env,
				 struct page_decisions *decisions, struct extension_results *results)
{
	struct candidates c = { 0 };
	struct decision_checks checks;
	struct mdf_error *err = NULL;
	size_t runnable = 0;
	bool prepared = false;
	struct timespec start;
	double children_ms = 0;

	memset(results, 0, sizeof(*results));
	if (opt->disabled)
		return NULL;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
	decision_checks_init(&checks, env);
	/* Named extensions replace the default directory, as upstream's --extension runs only those. */
	if (opt->dir || !opt->nr_names)
		err = add_directory(&c, opt->dir ? opt->dir : EXTENSION_DIR);
	for (size_t i = 0; i < opt->nr_names && !err; i++)
		err = add_named(&c, opt->names[i], opt->dir);
	if (err || !c.count)
		goto out;
	for (size_t i = 0; i < c.count; i++)
		runnable += !c.list[i].refusal;
	/*
	 * With several extensions, what every child would read the same way
	 * is read once, before the children inherit it; a single one's child
	 * reads only what its extension asks for.
	 */
	if (runnable > 1) {
		extension_runtime_prepare(env);
		prepared = true;
	}
	results->outcomes = calloc(c.count, sizeof(*results->outcomes));
	if (!results->outcomes) {
		err = &mdf_error_enomem;
		goto out;
	}
	for (size_t i = 0; i < c.count && !err; i++) {
		const struct candidate *cand = &c.list[i];
		struct extension_outcome *o = &results->outcomes[results->count++];

		o->name = strdup(cand->name);
		if (!o->name) {
			err = &mdf_error_enomem;
			break;
		}
		if (cand->refusal) {
			o->problem = strdup(mdf_error_text(cand->refusal));
			msg_warn("extension %s refused: %s", cand->path, mdf_error_text(cand->refusal));
			continue;
		}
		err = run_one(cand, opt, env, o, decisions, &checks);
		if (!err && o->ok)
			msg_debug("extension %s: %.1f ms of CPU in its process, %.1f ms in makedumpfile's",
				  o->name, o->child_cpu_ms, o->parent_cpu_ms);
		else if (!err)
			msg_warn("extension %s failed: %s; its page ranges are dropped", cand->path, o->problem);
		children_ms += o->child_cpu_ms;
	}
	page_decisions_merge(decisions);
out:
	if (prepared)
		extension_runtime_finish(env);
	if (results->count)
		msg_debug("extensions: %.1f ms of CPU in their processes, %.1f ms in makedumpfile's", children_ms,
			  cpu_ms_since(&start));
	free_candidates(&c);
	decision_checks_free(&checks);
	return err;
}

void extension_results_free(struct extension_results *results)
{
	for (size_t i = 0; i < results->count; i++) {
		free(results->outcomes[i].name);
		free(results->outcomes[i].problem);
	}
	free(results->outcomes);
	memset(results, 0, sizeof(*results));
}
