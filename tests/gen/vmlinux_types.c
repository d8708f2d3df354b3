// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sample vmlinux's DWARF: compiled with -g into an object whose debug
 * sections mkvmcore copies into the vmlinux it writes (gen_vmlinux.c).
 * The variables are the sample kernel's, of the types its symbols have;
 * their addresses here mean nothing (the vmlinux's symbol table says
 * where the kernel has them).
 */
#include "vmlinux_types.h"

struct uts_namespace init_uts_ns;
struct mem_section **mem_section;
struct pglist_data *node_data[1024];
nodemask_t node_online_map;
struct list_head vmap_area_list;
struct printk_ringbuffer printk_rb_static;
struct printk_ringbuffer *prb = &printk_rb_static;
struct latched_seq clear_seq;
char __log_buf[4096];
unsigned long phys_base;
struct task_struct init_task;
struct list_head modules;
struct list_head btf_modules;
atomic_t panic_cpu;
int crashing_cpu;
unsigned long __per_cpu_offset[64];
pud_t sample_pud;
struct page *sample_page;
struct vmap_area sample_vmap_area;
struct printk_info sample_printk_info;
struct prb_desc sample_prb_desc;
struct shapes sample_shapes;
