/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sample kernel's types in C, for the DWARF of the vmlinux mkvmcore
 * writes (--vmlinux): tests/gen/vmlinux_types.c is compiled with -g and
 * its debug sections become the vmlinux's.  The tests read the same
 * definitions with the C compiler (offsetof, sizeof) as an oracle.
 *
 * Three groups, each consistent with what the dump holds:
 * - what VMCOREINFO describes, in Debian 6.1's layout (struct page,
 *   pglist_data, zone, the printk ring buffer, ...), with the offsets
 *   the generator's VMCOREINFO lines give (gen_elf.c, gen_mm.c);
 * - the types of the --amdgpu layout's vmlinux BTF (gen_btf.c), each
 *   member at the offset its table gives: padding arrays stand for what
 *   the table leaves out;
 * - struct shapes: what else C and the kernel's types do (bitfields,
 *   arrays of arrays, qualifiers, enums of 8 bytes and negative values,
 *   typedef chains, function pointers, flexible and zero-length arrays),
 *   which no reader of the dump uses.
 */
#ifndef MKVMCORE_VMLINUX_TYPES_H
#define MKVMCORE_VMLINUX_TYPES_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef long long s64;

typedef struct {
	int counter;
} atomic_t;
typedef struct {
	s64 counter;
} atomic64_t;
typedef atomic64_t atomic_long_t;
typedef struct {
	atomic_t refs;
} refcount_t;

/* The x86 spinlock: unions of structs inside a struct, as the kernel has. */
typedef struct qspinlock {
	union {
		atomic_t val;
		struct {
			u8 locked;
			u8 pending;
		};
		struct {
			u16 locked_pending;
			u16 tail;
		};
	};
} arch_spinlock_t;
typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
} raw_spinlock_t;
typedef struct spinlock {
	union {
		struct raw_spinlock rlock;
	};
} spinlock_t;

typedef struct {
	unsigned long pud;
} pud_t;

struct list_head {
	struct list_head *next, *prev;
};

struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
} __attribute__((aligned(sizeof(void *))));

/* ---- What VMCOREINFO describes: Debian 6.1 x86_64 ---- */

#define MAX_NR_ZONES 5
#define MAX_ORDER 11
#define MIGRATE_TYPES 5

enum pageflags {
	PG_locked, PG_referenced, PG_uptodate, PG_dirty, PG_lru, PG_active, PG_workingset, PG_waiters,
	PG_error, PG_slab, PG_owner_priv_1, PG_arch_1, PG_reserved, PG_private, PG_private_2,
	PG_writeback, PG_head, PG_mappedtodisk, PG_reclaim, PG_swapbacked, PG_unevictable, PG_mlocked,
	PG_uncached, PG_hwpoison, PG_young, PG_idle, __NR_PAGEFLAGS,
	PG_readahead = PG_reclaim, PG_checked = PG_owner_priv_1, PG_swapcache = PG_owner_priv_1,
	PG_fscache = PG_private_2, PG_pinned = PG_owner_priv_1, PG_savepinned = PG_dirty,
	PG_foreign = PG_owner_priv_1, PG_xen_remapped = PG_owner_priv_1, PG_slob_free = PG_private,
	PG_double_map = PG_workingset, PG_has_hwpoisoned = PG_error, PG_isolated = PG_reclaim,
	PG_reported = PG_uptodate, PG_vmemmap_self_hosted = PG_owner_priv_1,
};

enum zone_stat_item {
	NR_FREE_PAGES, NR_ZONE_LRU_BASE, NR_ZONE_INACTIVE_ANON = NR_ZONE_LRU_BASE, NR_ZONE_ACTIVE_ANON,
	NR_ZONE_INACTIVE_FILE, NR_ZONE_ACTIVE_FILE, NR_ZONE_UNEVICTABLE, NR_ZONE_WRITE_PENDING, NR_MLOCK,
	NR_BOUNCE, NR_ZSPAGES, NR_FREE_CMA_PAGES, NR_VM_ZONE_STAT_ITEMS,
};

enum node_states {
	N_POSSIBLE, N_ONLINE, N_NORMAL_MEMORY, N_HIGH_MEMORY = N_NORMAL_MEMORY, N_MEMORY, N_CPU,
	N_GENERIC_INITIATOR, NR_NODE_STATES,
};

enum compound_dtor_id {
	NULL_COMPOUND_DTOR, COMPOUND_PAGE_DTOR, HUGETLB_PAGE_DTOR, TRANSHUGE_PAGE_DTOR, NR_COMPOUND_DTORS,
};

typedef struct page *pgtable_t;
struct address_space;
struct page_pool;
struct dev_pagemap;
struct mm_struct;

struct page {
	unsigned long flags;
	union {
		struct {
			union {
				struct list_head lru;
				struct {
					void *__filler;
					unsigned int mlock_count;
				};
				struct list_head buddy_list;
				struct list_head pcp_list;
			};
			struct address_space *mapping;
			unsigned long index;
			unsigned long private;
		};
		struct {
			unsigned long pp_magic;
			struct page_pool *pp;
			unsigned long _pp_mapping_pad;
			unsigned long dma_addr;
			union {
				unsigned long dma_addr_upper;
				atomic_long_t pp_frag_count;
			};
		};
		struct {
			unsigned long compound_head;
			unsigned char compound_dtor;
			unsigned char compound_order;
			atomic_t compound_mapcount;
			atomic_t compound_pincount;
			unsigned int compound_nr;
		};
		struct {
			unsigned long _compound_pad_1;
			unsigned long _compound_pad_2;
			struct list_head deferred_list;
		};
		struct {
			unsigned long _pt_pad_1;
			pgtable_t pmd_huge_pte;
			unsigned long _pt_pad_2;
			union {
				struct mm_struct *pt_mm;
				atomic_t pt_frag_refcount;
			};
			spinlock_t ptl;
		};
		struct {
			struct dev_pagemap *pgmap;
			void *zone_device_data;
		};
		struct callback_head callback_head;
	};
	union {
		atomic_t _mapcount;
		unsigned int page_type;
	};
	atomic_t _refcount;
	unsigned long memcg_data;
} __attribute__((aligned(16)));

struct mem_section_usage;
struct page_ext;

struct mem_section {
	unsigned long section_mem_map;
	struct mem_section_usage *usage;
	struct page_ext *page_ext;
	unsigned long pad;
};

typedef struct {
	unsigned long bits[16];
} nodemask_t;

struct free_area {
	struct list_head free_list[MIGRATE_TYPES];
	unsigned long nr_free;
};

/* A cache line of its own for what follows: zero bytes, aligned. */
struct zone_padding {
	char x[0];
} __attribute__((aligned(64)));

typedef struct {
	unsigned int sequence;
	spinlock_t lock;
} seqlock_t;

struct pglist_data;

struct zone {
	unsigned long _watermark[4];
	unsigned long watermark_boost;
	unsigned long nr_reserved_highatomic;
	long lowmem_reserve[MAX_NR_ZONES];
	int node;
	struct pglist_data *zone_pgdat;
	void *per_cpu_pageset;
	void *per_cpu_zonestats;
	int pageset_high;
	int pageset_batch;
	unsigned long zone_start_pfn;
	atomic_long_t managed_pages;
	unsigned long spanned_pages;
	unsigned long present_pages;
	unsigned long present_early_pages;
	const char *name;
	unsigned long nr_isolate_pageblock;
	seqlock_t span_seqlock;
	int initialized;
	struct zone_padding _pad1_;
	struct free_area free_area[MAX_ORDER];
	unsigned long flags;
	spinlock_t lock;
	struct zone_padding _pad2_;
	unsigned long percpu_drift_mark;
	unsigned long compact_cached_free_pfn;
	unsigned long compact_cached_migrate_pfn[2];
	unsigned long compact_init_migrate_pfn;
	unsigned long compact_init_free_pfn;
	unsigned int compact_considered;
	unsigned int compact_defer_shift;
	int compact_order_failed;
	_Bool compact_blockskip_flush;
	_Bool contiguous;
	struct zone_padding _pad3_;
	atomic_long_t vm_stat[NR_VM_ZONE_STAT_ITEMS];
	atomic_long_t vm_numa_event[6];
} __attribute__((aligned(64)));

typedef struct pglist_data {
	struct zone node_zones[MAX_NR_ZONES];
	unsigned char __node_zonelists_and_more[171552 - MAX_NR_ZONES * 1536];
	int nr_zones;
	unsigned long node_start_pfn;
	unsigned long node_present_pages;
	unsigned long node_spanned_pages;
	int node_id;
	unsigned char __rest[174208 - 171588];
} pg_data_t;

struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

struct vm_struct {
	struct vm_struct *next;
	void *addr;
	unsigned long size;
	unsigned long flags;
	struct page **pages;
	unsigned int nr_pages;
	unsigned long long phys_addr;
	const void *caller;
};

struct vmap_area {
	unsigned long va_start;
	unsigned long va_end;
	struct rb_node rb_node;
	struct list_head list;
	union {
		unsigned long subtree_max_size;
		struct vm_struct *vm;
	};
};

struct prb_desc_ring {
	unsigned int count_bits;
	struct prb_desc *descs;
	struct printk_info *infos;
	atomic_long_t head_id;
	atomic_long_t tail_id;
	atomic_long_t last_finalized_id;
};

struct prb_data_ring {
	unsigned int size_bits;
	char *data;
	atomic_long_t head_lpos;
	atomic_long_t tail_lpos;
};

struct printk_ringbuffer {
	struct prb_desc_ring desc_ring;
	struct prb_data_ring text_data_ring;
	atomic_long_t fail;
};

struct prb_data_blk_lpos {
	unsigned long begin;
	unsigned long next;
};

struct prb_desc {
	atomic_long_t state_var;
	struct prb_data_blk_lpos text_blk_lpos;
};

struct dev_printk_info {
	char subsystem[16];
	char device[48];
};

struct printk_info {
	u64 seq;
	u64 ts_nsec;
	u16 text_len;
	u8 facility;
	u8 flags : 5;
	u8 level : 3;
	u32 caller_id;
	struct dev_printk_info dev_info;
};

typedef struct seqcount_latch {
	struct {
		unsigned int sequence;
	} seqcount;
} seqcount_latch_t;

struct latched_seq {
	seqcount_latch_t latch;
	u64 val[2];
};

struct new_utsname {
	char sysname[65];
	char nodename[65];
	char release[65];
	char version[65];
	char machine[65];
	char domainname[65];
};

struct ns_common {
	atomic_long_t stashed;
	const struct proc_ns_operations *ops;
	unsigned int inum;
	refcount_t count;
};

struct uts_namespace {
	struct new_utsname name;
	struct user_namespace *user_ns;
	struct ucounts *ucounts;
	struct ns_common ns;
};

/* ---- The --amdgpu layout's vmlinux types (gen_btf.c's table) ---- */

enum module_state {
	MODULE_STATE_LIVE, MODULE_STATE_COMING, MODULE_STATE_GOING, MODULE_STATE_UNFORMED,
};

enum maple_type {
	maple_dense, maple_leaf_64, maple_range_64, maple_arange_64,
};

struct kernel_symbol {
	int value_offset;
	int name_offset;
	int namespace_offset;
};

struct mod_kallsyms {
	void *symtab;
	unsigned int num_symtab;
	char *strtab;
	char *typetab;
	void *percpu;
};

struct module {
	enum module_state state;
	struct list_head list;
	char name[56];
	const struct kernel_symbol *syms;
	const unsigned int *crcs;
	unsigned int num_syms;
	const struct kernel_symbol *gpl_syms;
	unsigned int num_gpl_syms;
	unsigned char __pad_core_layout[128 - 116];
	void *core_layout_base;
	unsigned int core_layout_size;
	unsigned char __pad_kallsyms[640 - 140];
	struct mod_kallsyms *kallsyms;
	struct mod_kallsyms core_kallsyms;
	unsigned char __pad_btf[720 - 688];
	unsigned int btf_data_size;
	void *btf_data;
	unsigned char __rest[1024 - 736];
};

struct btf {
	void *data;
	void *types;
	unsigned int *resolved_ids;
	unsigned int *resolved_sizes;
	const char *strings;
	void *nohdr_data;
	unsigned char __pad_data_size[168 - 48];
	unsigned int data_size;
	unsigned int id;
	unsigned char __pad_name[192 - 176];
	char name[56];
	unsigned char __rest[256 - 248];
};

struct btf_module {
	struct list_head list;
	struct module *module;
	struct btf *btf;
	void *sysfs_attr;
	int flags;
};

struct maple_tree {
	unsigned int ma_lock;
	void *ma_root;
	unsigned int ma_flags;
};

struct maple_metadata {
	unsigned char end;
	unsigned char gap;
};

struct maple_range_64 {
	struct maple_pnode *parent;
	unsigned long pivot[15];
	union {
		void *slot[16];
		struct {
			void *pad[15];
			struct maple_metadata meta;
		};
	};
};

struct maple_arange_64 {
	struct maple_pnode *parent;
	unsigned long pivot[9];
	void *slot[10];
	unsigned long gap[10];
	struct maple_metadata meta;
	unsigned char __rest[256 - 242];
};

struct maple_node {
	union {
		struct {
			struct maple_pnode *parent;
			void *slot[31];
		};
		struct maple_range_64 mr64;
		struct maple_arange_64 ma64;
	};
};

struct xarray {
	unsigned int xa_lock;
	unsigned int xa_flags;
	void *xa_head;
};

struct xa_node {
	unsigned char shift;
	unsigned char offset;
	unsigned char count;
	unsigned char nr_values;
	struct xa_node *parent;
	struct xarray *array;
	struct list_head private_list;
	void *slots[64];
	unsigned long marks[3];
};

struct idr {
	struct xarray idr_rt;
	unsigned int idr_base;
	unsigned int idr_next;
};

struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	struct mm_struct *vm_mm;
	unsigned long vm_page_prot;
	unsigned long vm_flags;
	unsigned char __pad_anon_vma_chain[88 - 40];
	struct list_head anon_vma_chain;
	struct anon_vma *anon_vma;
	const struct vm_operations_struct *vm_ops;
	unsigned long vm_pgoff;
	struct file *vm_file;
	void *vm_private_data;
	unsigned char __rest[152 - 144];
};

struct mm_struct {
	struct maple_tree mm_mt;
	unsigned char __pad_mmap_base[32 - 24];
	unsigned long mmap_base;
	unsigned char __pad_task_size[48 - 40];
	unsigned long task_size;
	unsigned char __pad_pgd[80 - 56];
	void *pgd;
	int mm_users;
	int mm_count;
	int map_count;
	unsigned char __pad_total_vm[200 - 100];
	unsigned long total_vm;
	unsigned char __pad_start_code[264 - 208];
	unsigned long start_code;
	unsigned long end_code;
	unsigned long start_data;
	unsigned long end_data;
	unsigned long start_brk;
	unsigned long brk;
	unsigned long start_stack;
	unsigned long arg_start;
	unsigned char __pad_owner[400 - 328];
	struct task_struct *owner;
	unsigned char __rest[1024 - 408];
};

struct signal_struct {
	int sigcnt;
	int live;
	int nr_threads;
	struct list_head thread_head;
	unsigned char __rest[512 - 32];
};

struct task_struct {
	unsigned char __pad_state[24];
	unsigned int __state;
	void *stack;
	unsigned char __pad_flags[44 - 40];
	unsigned int flags;
	unsigned char __pad_on_cpu[64 - 48];
	int on_cpu;
	unsigned char __pad_prio[112 - 68];
	int prio;
	unsigned char __pad_tasks[1000 - 116];
	struct list_head tasks;
	unsigned char __pad_mm[1040 - 1016];
	struct mm_struct *mm;
	struct mm_struct *active_mm;
	unsigned char __pad_exit_state[1064 - 1056];
	int exit_state;
	unsigned char __pad_pid[1300 - 1068];
	int pid;
	int tgid;
	struct task_struct *real_parent;
	struct task_struct *parent;
	struct list_head children;
	struct list_head sibling;
	struct task_struct *group_leader;
	unsigned char __pad_thread_node[1376 - 1368];
	struct list_head thread_node;
	unsigned char __pad_comm[1560 - 1392];
	char comm[16];
	unsigned char __pad_files[1600 - 1576];
	struct files_struct *files;
	unsigned char __pad_signal[1640 - 1608];
	struct signal_struct *signal;
	unsigned char __rest[2048 - 1648];
};

/* ---- What else C says, for the DWARF reader ---- */

enum shape_wide {
	SHAPE_WIDE_LOW = 1,
	SHAPE_WIDE_HIGH = 0x100000000ULL,
};

enum shape_signed {
	SHAPE_NEGATIVE = -129,
	SHAPE_POSITIVE = 7,
};

typedef unsigned int shape_u32;
typedef shape_u32 shape_u32_again;
struct shape_incomplete;

struct shapes {
	char c;
	_Bool b;
	short s;
	const volatile int cv;
	unsigned long long ull;
	shape_u32_again chained;
	unsigned int bf_low : 3;
	unsigned int bf_mid : 13;
	int bf_signed : 7;
	unsigned long long bf_wide : 40;
	unsigned char grid[3][5];
	int cube[2][3][4];
	double d;
	float f;
	enum shape_wide wide;
	enum shape_signed sign;
	struct shape_incomplete *opaque;
	void (*callback)(struct shapes *self, int (*inner)(void), ...);
	const char *const names[2];
	union {
		struct {
			unsigned int lo, hi;
		};
		unsigned long long both;
	};
	struct {
		int x;
		struct {
			int y;
			union {
				int z;
				char zz[3];
			};
		};
	} nested;
	char empty[0];
	long flex[];
};

#endif
