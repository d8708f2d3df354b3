// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * keyring: erases the secret payloads of the kernel's keys, the job of
 * upstream's eppic script keyring, with the dump's BTF instead of
 * debuginfo.
 *
 * Upstream walked keyring_name_hash and each keyring's associative array,
 * both gone or changed in later kernels.  Every key, in a keyring or not,
 * is on the kernel's key_serial_tree (a red-black tree of struct key by
 * serial_node), so this walks that tree instead: depth and count are
 * bounded, as the tree may be damaged.
 *
 * A key's payload depends on its type (key->type->name):
 *   user, logon       payload.data[0] is a struct user_key_payload: its
 *                     datalen bytes of data
 *   asymmetric        payload.data[0] is a struct public_key: keylen bytes
 *                     at key
 *   encrypted         payload.data[0] is a struct encrypted_key_payload:
 *                     decrypted_datalen bytes at decrypted_data
 *   trusted           payload.data[0] is a struct trusted_key_payload:
 *                     key_len bytes of key
 * each handled where the dump's BTF (vmlinux's or its module's) has the
 * struct.  Keyrings and the other types without a secret of their own
 * are left alone; a type not listed is counted and named, not guessed at.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "makedumpfile-extension.h"

/* Of the key_serial_tree: far above any system's number of keys. */
#define MAX_KEYS (1u << 20)
/* A red-black tree of MAX_KEYS nodes is at most 2 * log2(MAX_KEYS + 1) deep. */
#define MAX_DEPTH 48
/* A key's payload: user keys hold at most 32767 bytes, big keys are not read. */
#define MAX_PAYLOAD (1u << 20)
#define MAX_UNHANDLED 8

/* Where a type's secret is: a length member and the data (a pointer, or inline). */
struct secret {
	const char *type;         /* key_type.name */
	const char *payload;      /* the struct payload.data[0] points to */
	const char *len_member;
	const char *data_member;
	bool data_is_pointer;
	char what[96];            /* "STRUCT.MEMBER", for the eraseinfo */
	struct mdf_member len, data;
	bool known;               /* BTF has the struct */
};

static struct secret secrets[] = {
	{ .type = "user", .payload = "user_key_payload", .len_member = "datalen", .data_member = "data" },
	{ .type = "logon", .payload = "user_key_payload", .len_member = "datalen", .data_member = "data" },
	{ .type = "asymmetric", .payload = "public_key", .len_member = "keylen", .data_member = "key",
	  .data_is_pointer = true },
	{ .type = "encrypted", .payload = "encrypted_key_payload", .len_member = "decrypted_datalen",
	  .data_member = "decrypted_data", .data_is_pointer = true },
	{ .type = "trusted", .payload = "trusted_key_payload", .len_member = "key_len",
	  .data_member = "key" },
};

/* Types whose payload is no secret: links to other keys, or nothing. */
static const char *const harmless[] = { "keyring", ".request_key_auth", "blacklist", "id_resolver",
					".id_legacy", "dns_resolver" };

struct job {
	uint64_t serial_node, type, payload, type_name;
	uint64_t keys, erased, bytes;
	char unhandled[MAX_UNHANDLED][32];
	size_t nr_unhandled;
	uint64_t unhandled_keys;
};

/* An unsigned field of @size bytes, in the dumped machine's byte order. */
static int read_uint(uint64_t addr, uint64_t size, uint64_t *value)
{
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;
	uint8_t v8;
	int err;

	switch (size) {
	case 8:
		err = mdf_read_u64(addr, &v64);
		break;
	case 4:
		err = mdf_read_u32(addr, &v32);
		v64 = v32;
		break;
	case 2:
		err = mdf_read_u16(addr, &v16);
		v64 = v16;
		break;
	case 1:
		err = mdf_read_kvaddr(addr, &v8, 1);
		v64 = v8;
		break;
	default:
		return -EINVAL;
	}
	if (!err)
		*value = v64;
	return err;
}

static int erase_secret(struct job *job, const struct secret *s, uint64_t key)
{
	uint64_t payload, len, data;
	int err;

	err = mdf_read_u64(key + job->payload, &payload);
	if (err || !payload)
		return err;
	err = read_uint(payload + s->len.offset, s->len.size, &len);
	if (err)
		return err;
	if (len > MAX_PAYLOAD)
		return -ERANGE;
	data = payload + s->data.offset;
	if (s->data_is_pointer && (err = mdf_read_u64(data, &data)))
		return err;
	if (!data || !len)
		return 0;
	err = mdf_erase_kvaddr(data, len, s->what);
	if (!err) {
		mdf_log(MDF_LOG_DEBUG, "key at 0x%llx (%s): erased %llu bytes at 0x%llx",
			(unsigned long long)key, s->type, (unsigned long long)len,
			(unsigned long long)data);
		job->erased++;
		job->bytes += len;
	}
	return err;
}

static void note_unhandled(struct job *job, const char *type)
{
	job->unhandled_keys++;
	for (size_t i = 0; i < job->nr_unhandled; i++)
		if (!strcmp(job->unhandled[i], type))
			return;
	if (job->nr_unhandled < MAX_UNHANDLED)
		snprintf(job->unhandled[job->nr_unhandled++], sizeof(job->unhandled[0]), "%s", type);
}

static int visit_key(struct job *job, uint64_t key)
{
	char type[32];
	uint64_t type_ptr, name;
	int err;

	job->keys++;
	err = mdf_read_u64(key + job->type, &type_ptr);
	if (!err)
		err = mdf_read_u64(type_ptr + job->type_name, &name);
	if (!err)
		err = mdf_read_string(name, type, sizeof(type));
	if (err)
		return err;
	for (size_t i = 0; i < sizeof(harmless) / sizeof(*harmless); i++)
		if (!strcmp(type, harmless[i]))
			return 0;
	for (size_t i = 0; i < sizeof(secrets) / sizeof(*secrets); i++) {
		if (strcmp(type, secrets[i].type))
			continue;
		if (!secrets[i].known)
			break;
		err = erase_secret(job, &secrets[i], key);
		if (err)
			mdf_log(MDF_LOG_ERROR, "key at 0x%llx (%s): cannot erase its payload: %s",
				(unsigned long long)key, type, strerror(-err));
		return 0;
	}
	note_unhandled(job, type);
	return 0;
}

/* In order, with a stack of at most MAX_DEPTH nodes. */
static int walk_tree(struct job *job, uint64_t root)
{
	uint64_t stack[MAX_DEPTH], node = root;
	size_t depth = 0;
	uint64_t visited = 0;
	int err;

	while (node || depth) {
		if (node) {
			if (depth == MAX_DEPTH || node % sizeof(uint64_t)) {
				mdf_log(MDF_LOG_ERROR, "key_serial_tree: node 0x%llx %s",
					(unsigned long long)node, depth == MAX_DEPTH ? "is too deep for a "
					"red-black tree" : "is misaligned");
				return -EBADMSG;
			}
			stack[depth++] = node;
			/* struct rb_node: __rb_parent_color, rb_right, rb_left */
			err = mdf_read_u64(node + 16, &node);
			if (err)
				return err;
			continue;
		}
		node = stack[--depth];
		if (++visited > MAX_KEYS) {
			mdf_log(MDF_LOG_ERROR, "key_serial_tree: more than %u keys: a loop?", MAX_KEYS);
			return -EBADMSG;
		}
		err = visit_key(job, node - job->serial_node);
		if (!err)
			err = mdf_read_u64(node + 8, &node);
		if (err)
			return err;
	}
	return 0;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	struct job job = { 0 };
	uint64_t tree, root;
	char list[MAX_UNHANDLED * 34] = "";
	int err;

	(void)ext;
	err = mdf_symbol_addr("vmlinux", "key_serial_tree", &tree);
	if (err) {
		mdf_log(MDF_LOG_INFO, "no key_serial_tree: the kernel was built without keys");
		return 0;
	}
	err = mdf_member_offset(NULL, "key", "serial_node", &job.serial_node);
	if (!err)
		err = mdf_member_offset(NULL, "key", "type", &job.type);
	if (!err)
		err = mdf_member_offset(NULL, "key", "payload", &job.payload);
	if (!err)
		err = mdf_member_offset(NULL, "key_type", "name", &job.type_name);
	if (err) {
		mdf_log(MDF_LOG_ERROR, "struct key or key_type is not in the dump's BTF");
		return err;
	}
	for (size_t i = 0; i < sizeof(secrets) / sizeof(*secrets); i++) {
		struct secret *s = &secrets[i];

		s->known = !mdf_member(NULL, s->payload, s->len_member, &s->len) &&
			   !mdf_member(NULL, s->payload, s->data_member, &s->data);
		snprintf(s->what, sizeof(s->what), "%s.%s", s->payload, s->data_member);
	}
	err = mdf_read_u64(tree, &root);
	if (!err)
		err = walk_tree(&job, root);
	if (err)
		return err;
	for (size_t i = 0; i < job.nr_unhandled; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 job.unhandled[i]);
	mdf_log(MDF_LOG_INFO, "%llu keys: erased the payloads of %llu (%llu bytes)",
		(unsigned long long)job.keys, (unsigned long long)job.erased,
		(unsigned long long)job.bytes);
	if (job.unhandled_keys)
		mdf_log(MDF_LOG_INFO, "left %llu keys of types not handled: %s",
			(unsigned long long)job.unhandled_keys, list);
	return 0;
}
