// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * socket_buffers: erases the data queued in TCP, UDP and UNIX sockets, the
 * jobs of upstream's eppic scripts tcp_sk_buf, udp_sk_buf and unix_sk_buff,
 * with the dump's BTF instead of debuginfo.
 *
 * Sockets are found two ways, each socket handled once:
 *   - every open file of every process (task->files->fdt->fd[]) whose
 *     f_op is socket_file_ops: file->private_data is the struct socket,
 *     socket->sk the struct sock;
 *   - the kernel's TCP established hash (tcp_hashinfo.ehash) and UDP port
 *     hash (udp_table.hash), for sockets no process holds any more (an
 *     orphaned TCP connection still sending).  Time-wait and request
 *     sockets there are smaller structs with no queues: skipped by state.
 *
 * A socket's data is in its sk_buffs: the receive, write and error queues
 * (sk_buff_head lists), UDP's reader_queue, and TCP's retransmit queue
 * and out-of-order queue (red-black trees of sk_buffs).  Of each sk_buff
 * the linear data [data, data + len - data_len) is erased, each page
 * fragment of its skb_shared_info (at head + end) through the fragment's
 * page frame, and the sk_buffs on its frag_list likewise.
 *
 * --extension-arg socket_buffers:protocols=tcp,udp,unix (the default)
 * chooses.  Every list, tree, table and count is bounded.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "makedumpfile-extension.h"

#define AF_UNIX 1
#define AF_INET 2
#define AF_INET6 10
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17
#define IPPROTO_UDPLITE 136
/* include/net/tcp_states.h, ABI-stable: sockets of these states have no queues. */
#define TCP_TIME_WAIT 6
#define TCP_NEW_SYN_RECV 12

#define MAX_FDS (1u << 20)
#define MAX_SOCKETS (1u << 20)
#define MAX_SKBS (1u << 20)
#define MAX_BUCKETS (1u << 26)
#define MAX_CHAIN 4096
#define MAX_TREE_DEPTH 64
#define MAX_FRAG_LIST_DEPTH 4
/* An sk_buff's linear part, or a fragment, larger than this is a damaged one. */
#define MAX_SKB_DATA (16u << 20)

enum proto { TCP, UDP, UNIX, NR_PROTOS };

static const char *const what[NR_PROTOS] = { "tcp.sk_buff.data", "udp.sk_buff.data",
					     "unix.sk_buff.data" };

struct job {
	bool wanted[NR_PROTOS];
	/* Layouts from BTF. */
	uint64_t files, fdt, max_fds, fd, f_op, private_data, socket_sk;
	uint64_t family, protocol, state, nulls_node;
	uint64_t receive, write, error, rtx, ofo, reader;
	bool have_rtx, have_ofo, have_reader;
	uint64_t skb_head, skb_data, skb_len, skb_data_len, skb_end;
	uint64_t nr_frags, frags, frag_list, frag_size, frag_page, frag_len, frag_offset;
	uint32_t max_frags;
	uint64_t page_size;
	uint64_t socket_file_ops;
	/* Sockets handled, to handle each once. */
	uint64_t *seen;
	size_t seen_mask, nr_seen;
	uint64_t sockets[NR_PROTOS], bytes[NR_PROTOS], skbs, open_files;
};

/* What a queue walk's callback needs. */
struct queue_walk {
	struct job *job;
	enum proto proto;
};

static int member(const char *type, const char *path, uint64_t *offset)
{
	return mdf_member_offset(NULL, type, path, offset);
}

static int layout(struct job *job)
{
	const struct {
		const char *type, *path;
		uint64_t *offset;
	} members[] = {
		{ "task_struct", "files", &job->files },
		{ "files_struct", "fdt", &job->fdt },
		{ "fdtable", "max_fds", &job->max_fds },
		{ "fdtable", "fd", &job->fd },
		{ "file", "f_op", &job->f_op },
		{ "file", "private_data", &job->private_data },
		{ "socket", "sk", &job->socket_sk },
		{ "sock", "__sk_common.skc_family", &job->family },
		{ "sock", "__sk_common.skc_state", &job->state },
		{ "sock", "__sk_common.skc_nulls_node", &job->nulls_node },
		{ "sock", "sk_protocol", &job->protocol },
		{ "sock", "sk_receive_queue", &job->receive },
		{ "sock", "sk_write_queue", &job->write },
		{ "sock", "sk_error_queue", &job->error },
		{ "sk_buff", "head", &job->skb_head },
		{ "sk_buff", "data", &job->skb_data },
		{ "sk_buff", "len", &job->skb_len },
		{ "sk_buff", "data_len", &job->skb_data_len },
		{ "sk_buff", "end", &job->skb_end },
		{ "skb_shared_info", "nr_frags", &job->nr_frags },
		{ "skb_shared_info", "frag_list", &job->frag_list },
	};
	/* skb_frag_t: a struct bio_vec until 6.x, then a struct skb_frag (with a netmem). */
	const char *const frag_types[2][4] = { { "skb_frag", "netmem", "len", "offset" },
					       { "bio_vec", "bv_page", "bv_len", "bv_offset" } };
	struct mdf_member frags;
	uint64_t frag_size = 0;
	int err;

	for (size_t i = 0; i < sizeof(members) / sizeof(*members); i++) {
		err = member(members[i].type, members[i].path, members[i].offset);
		if (err) {
			mdf_log(MDF_LOG_ERROR, "no %s.%s in the dump's BTF", members[i].type, members[i].path);
			return err;
		}
	}
	err = mdf_member(NULL, "skb_shared_info", "frags", &frags);
	if (!err)
		err = mdf_type_size(NULL, "skb_frag_t", &frag_size);
	for (size_t i = 0; !err && i < 2; i++) {
		const char *const *f = frag_types[i];

		err = member(f[0], f[1], &job->frag_page);
		if (!err)
			err = member(f[0], f[2], &job->frag_len);
		if (!err)
			err = member(f[0], f[3], &job->frag_offset);
		if (!err)
			break;
		if (i == 0)
			err = 0;
	}
	if (err || !frag_size) {
		mdf_log(MDF_LOG_ERROR, "the dump's BTF does not describe the fragments of an sk_buff");
		return err ? err : -ENOENT;
	}
	job->frags = frags.offset;
	job->frag_size = frag_size;
	job->max_frags = (uint32_t)(frags.size / frag_size);
	job->have_rtx = !member("sock", "tcp_rtx_queue", &job->rtx);
	job->have_ofo = !member("tcp_sock", "out_of_order_queue", &job->ofo);
	job->have_reader = !member("udp_sock", "reader_queue", &job->reader);
	job->page_size = mdf_page_size();
	return 0;
}

static int read_u8(uint64_t addr, uint8_t *value)
{
	return mdf_read_kvaddr(addr, value, sizeof(*value));
}

/* 1 when @addr was seen before, 0 when it was added. */
static int seen_add(struct job *job, uint64_t addr)
{
	size_t i;

	if (2 * (job->nr_seen + 1) > job->seen_mask + 1 || !job->seen) {
		size_t cap = job->seen ? 2 * (job->seen_mask + 1) : 256;
		uint64_t *slots = calloc(cap, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (i = 0; job->seen && i <= job->seen_mask; i++) {
			size_t j = (size_t)(job->seen[i] * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);

			if (!job->seen[i])
				continue;
			while (slots[j])
				j = (j + 1) & (cap - 1);
			slots[j] = job->seen[i];
		}
		free(job->seen);
		job->seen = slots;
		job->seen_mask = cap - 1;
	}
	for (i = (size_t)(addr * 0x9e3779b97f4a7c15ull >> 20) & job->seen_mask; job->seen[i];
	     i = (i + 1) & job->seen_mask)
		if (job->seen[i] == addr)
			return 1;
	job->seen[i] = addr;
	job->nr_seen++;
	return 0;
}

static int erase_skb(struct job *job, enum proto proto, uint64_t skb, int depth);

/* The page fragments and the frag_list of the sk_buff whose skb_shared_info is at @shinfo. */
static int erase_shared(struct job *job, enum proto proto, uint64_t shinfo, int depth)
{
	uint64_t list;
	uint8_t nr;
	int err = read_u8(shinfo + job->nr_frags, &nr);

	if (err)
		return err;
	if (nr > job->max_frags)
		return -EBADMSG;
	for (uint8_t i = 0; i < nr; i++) {
		uint64_t frag = shinfo + job->frags + i * job->frag_size, page, pfn;
		uint32_t len, offset;

		err = mdf_read_u64(frag + job->frag_page, &page);
		if (!err)
			err = mdf_read_u32(frag + job->frag_len, &len);
		if (!err)
			err = mdf_read_u32(frag + job->frag_offset, &offset);
		if (err)
			return err;
		/* A netmem with bit 0 set is a net_iov (device memory), no page of the dump. */
		if (!len || (page & 1))
			continue;
		if (len > MAX_SKB_DATA)
			return -EBADMSG;
		err = mdf_page_to_pfn(page, &pfn);
		if (!err)
			err = mdf_erase_paddr(pfn * job->page_size + offset, len, what[proto]);
		if (err)
			return err;
		job->bytes[proto] += len;
	}
	err = mdf_read_u64(shinfo + job->frag_list, &list);
	for (unsigned int n = 0; !err && list && n < MAX_SKBS; n++) {
		if (depth >= MAX_FRAG_LIST_DEPTH)
			return -EBADMSG;
		err = erase_skb(job, proto, list, depth + 1);
		if (!err)
			err = mdf_read_u64(list, &list);
	}
	return err;
}

static int erase_skb(struct job *job, enum proto proto, uint64_t skb, int depth)
{
	uint64_t head, data;
	uint32_t len, data_len, end;
	int err;

	if (++job->skbs > MAX_SKBS)
		return -E2BIG;
	err = mdf_read_u64(skb + job->skb_head, &head);
	if (!err)
		err = mdf_read_u64(skb + job->skb_data, &data);
	if (!err)
		err = mdf_read_u32(skb + job->skb_len, &len);
	if (!err)
		err = mdf_read_u32(skb + job->skb_data_len, &data_len);
	if (!err)
		err = mdf_read_u32(skb + job->skb_end, &end);
	if (err)
		return err;
	/* The linear part: what data_len, the fragments' share of len, leaves. */
	if (data_len > len || len - data_len > MAX_SKB_DATA || end > MAX_SKB_DATA)
		return -EBADMSG;
	if (len > data_len) {
		err = mdf_erase_kvaddr(data, len - data_len, what[proto]);
		if (err)
			return err;
		job->bytes[proto] += len - data_len;
	}
	/* 64-bit kernels keep end as an offset from head. */
	return head ? erase_shared(job, proto, head + end, depth) : 0;
}

static int erase_queue_entry(uint64_t skb, void *arg)
{
	struct queue_walk *q = arg;

	return erase_skb(q->job, q->proto, skb, 0);
}

/* An sk_buff_head: its sk_buffs are linked as a list_head is, next and prev first. */
static int erase_queue(struct job *job, enum proto proto, uint64_t head)
{
	struct queue_walk q = { job, proto };

	return mdf_list_for_each(head, MAX_SKBS, erase_queue_entry, &q);
}

/* A red-black tree of sk_buffs (rbnode first in struct sk_buff), in order. */
static int erase_tree(struct job *job, enum proto proto, uint64_t root_addr)
{
	uint64_t stack[MAX_TREE_DEPTH], node;
	size_t depth = 0, count = 0;
	int err = mdf_read_u64(root_addr, &node);

	while (!err && (node || depth)) {
		if (node) {
			if (depth == MAX_TREE_DEPTH || node % 8)
				return -EBADMSG;
			stack[depth++] = node;
			/* struct rb_node: __rb_parent_color, rb_right, rb_left */
			err = mdf_read_u64(node + 16, &node);
			continue;
		}
		node = stack[--depth];
		if (++count > MAX_SKBS)
			return -EBADMSG;
		err = erase_skb(job, proto, node, 0);
		if (!err)
			err = mdf_read_u64(node + 8, &node);
	}
	return err;
}

static int erase_socket(struct job *job, uint64_t sk)
{
	uint16_t family, protocol;
	uint8_t state;
	enum proto proto;
	int err, seen = seen_add(job, sk);

	if (seen)
		return seen < 0 ? seen : 0;
	if (job->nr_seen > MAX_SOCKETS)
		return -E2BIG;
	err = mdf_read_u16(sk + job->family, &family);
	if (!err)
		err = read_u8(sk + job->state, &state);
	if (!err)
		err = mdf_read_u16(sk + job->protocol, &protocol);
	if (err)
		return err;
	if (family == AF_UNIX)
		proto = UNIX;
	else if ((family == AF_INET || family == AF_INET6) && protocol == IPPROTO_TCP)
		proto = TCP;
	else if ((family == AF_INET || family == AF_INET6) &&
		 (protocol == IPPROTO_UDP || protocol == IPPROTO_UDPLITE))
		proto = UDP;
	else
		return 0;
	if (!job->wanted[proto] || (proto == TCP && (state == TCP_TIME_WAIT || state == TCP_NEW_SYN_RECV)))
		return 0;
	job->sockets[proto]++;
	err = erase_queue(job, proto, sk + job->receive);
	if (!err)
		err = erase_queue(job, proto, sk + job->write);
	if (!err)
		err = erase_queue(job, proto, sk + job->error);
	if (!err && proto == TCP && job->have_rtx)
		err = erase_tree(job, proto, sk + job->rtx);
	if (!err && proto == TCP && job->have_ofo)
		err = erase_tree(job, proto, sk + job->ofo);
	if (!err && proto == UDP && job->have_reader)
		err = erase_queue(job, proto, sk + job->reader);
	return err;
}

/* A socket that cannot be read is reported and passed over; only running out of room stops. */
static int handle_socket(struct job *job, uint64_t sk)
{
	int err = erase_socket(job, sk);

	if (err && err != -ENOMEM && err != -E2BIG) {
		mdf_log(MDF_LOG_ERROR, "socket 0x%llx: its buffers are damaged (%s); passed over",
			(unsigned long long)sk, strerror(-err));
		return 0;
	}
	return err;
}

static int scan_files(const struct mdf_task *task, void *arg)
{
	struct job *job = arg;
	uint64_t files, fdt, fds;
	uint32_t max_fds;
	int err;

	if (mdf_read_u64(task->task + job->files, &files) || !files ||
	    mdf_read_u64(files + job->fdt, &fdt) || mdf_read_u32(fdt + job->max_fds, &max_fds) ||
	    mdf_read_u64(fdt + job->fd, &fds) || max_fds > MAX_FDS)
		return 0;
	for (uint32_t i = 0; i < max_fds; i++) {
		uint64_t file, f_op, socket, sk;

		if (mdf_read_u64(fds + i * 8ull, &file) || !file)
			continue;
		job->open_files++;
		if (mdf_read_u64(file + job->f_op, &f_op) || f_op != job->socket_file_ops ||
		    mdf_read_u64(file + job->private_data, &socket) || !socket ||
		    mdf_read_u64(socket + job->socket_sk, &sk) || !sk)
			continue;
		err = handle_socket(job, sk);
		if (err)
			return err;
	}
	return 0;
}

/*
 * A hash table of @count buckets of @stride bytes at @table, each an hlist
 * (or nulls list: an odd pointer ends it) of sockets linked at @link.
 */
static int scan_hash(struct job *job, uint64_t table, uint64_t count, uint64_t stride, uint64_t link)
{
	for (uint64_t b = 0; b < count; b++) {
		uint64_t node;
		unsigned int n = 0;
		int err;

		if (mdf_read_u64(table + b * stride, &node))
			return 0;
		for (; node && !(node & 1) && n < MAX_CHAIN; n++) {
			err = handle_socket(job, node - link);
			if (err)
				return err;
			if (mdf_read_u64(node, &node))
				break;
		}
	}
	return 0;
}

static int scan_tables(struct job *job)
{
	uint64_t hashinfo, udp, table, ehash, ehash_mask, hash, mask, slot_size, bucket_size;
	uint32_t value;
	int err = 0;

	if (job->wanted[TCP] && !mdf_symbol_addr("vmlinux", "tcp_hashinfo", &hashinfo) &&
	    !member("inet_hashinfo", "ehash", &ehash) && !member("inet_hashinfo", "ehash_mask", &ehash_mask) &&
	    !mdf_type_size(NULL, "inet_ehash_bucket", &bucket_size) &&
	    !mdf_read_u64(hashinfo + ehash, &table) && !mdf_read_u32(hashinfo + ehash_mask, &value) &&
	    table && value < MAX_BUCKETS)
		err = scan_hash(job, table, (uint64_t)value + 1, bucket_size, job->nulls_node);
	if (!err && job->wanted[UDP] && !mdf_symbol_addr("vmlinux", "udp_table", &udp) &&
	    !member("udp_table", "hash", &hash) && !member("udp_table", "mask", &mask) &&
	    !mdf_type_size(NULL, "udp_hslot", &slot_size) && !mdf_read_u64(udp + hash, &table) &&
	    !mdf_read_u32(udp + mask, &value) && table && value < MAX_BUCKETS)
		err = scan_hash(job, table, (uint64_t)value + 1, slot_size, job->nulls_node);
	return err;
}

static int parse_protocols(struct job *job, const char *arg)
{
	static const char *const names[NR_PROTOS] = { "tcp", "udp", "unix" };
	const char *p = arg ? arg : "tcp,udp,unix";

	while (*p) {
		size_t len = strcspn(p, ","), i;

		for (i = 0; i < NR_PROTOS; i++)
			if (len == strlen(names[i]) && !strncmp(p, names[i], len))
				break;
		if (i == NR_PROTOS) {
			mdf_log(MDF_LOG_ERROR, "protocols=%s: each is tcp, udp or unix", arg);
			return -EINVAL;
		}
		job->wanted[i] = true;
		p += len + (p[len] == ',');
	}
	return 0;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	struct job job = { 0 };
	int err = parse_protocols(&job, mdf_extension_arg(ext, "protocols"));

	if (err)
		return err;
	err = layout(&job);
	if (err)
		return err;
	err = mdf_symbol_addr("vmlinux", "socket_file_ops", &job.socket_file_ops);
	if (!err)
		err = mdf_task_for_each(scan_files, &job);
	if (err >= 0)
		err = scan_tables(&job);
	free(job.seen);
	mdf_log(MDF_LOG_DEBUG, "%llu open files looked at", (unsigned long long)job.open_files);
	if (err == -E2BIG)
		mdf_log(MDF_LOG_ERROR, "more than %u sockets or sk_buffs: stopped there", MAX_SOCKETS);
	else if (err)
		return err;
	mdf_log(MDF_LOG_INFO, "erased %llu bytes of %llu TCP, %llu bytes of %llu UDP, %llu bytes of "
		"%llu UNIX sockets", (unsigned long long)job.bytes[TCP],
		(unsigned long long)job.sockets[TCP], (unsigned long long)job.bytes[UDP],
		(unsigned long long)job.sockets[UDP], (unsigned long long)job.bytes[UNIX],
		(unsigned long long)job.sockets[UNIX]);
	return 0;
}
