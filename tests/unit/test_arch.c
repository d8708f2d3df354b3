// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_arch: arch/arch.c, how a dump says which architecture it is, and
 * the facts the tables give the memory reader.
 *
 *  - an ELF's e_machine, a kdump header's utsname machine, and where
 *    neither says, VMCOREINFO's own lines: inputs made here, each with
 *    the architecture (or the error) it must give; the byte order the
 *    input settled for the memory must be the table's;
 *  - where $SHARED (../shared) holds them, each shared dump's VMCOREINFO text gives
 *    the machine its guest's `uname -a` names (guest/uname-a.txt), or,
 *    for one no table here describes or whose byte order VMCOREINFO
 *    cannot tell (ppc64le), an error;
 *  - the page size VMCOREINFO says must be one of the architecture's;
 *  - the memory reader's typed reads take the dump's byte order: a
 *    big-endian table over the same bytes reads them the other way.
 */
#include <elf.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "input/vmcoreinfo.h"
#include "memory/reader.h"
#include "unit_check.h"
#include "unit_fake_memory.h"
#include "util/error.h"

#define X86_64_LINES "OSRELEASE=6.1.0\nPAGESIZE=4096\nSYMBOL(init_top_pgt)=ffffffff9302a000\nNUMBER(phys_base)=176160768\n"
#define ARM64_LINES "OSRELEASE=6.1.0\nPAGESIZE=4096\nNUMBER(VA_BITS)=48\nNUMBER(kimage_voffset)=0xffffafb70ae00000\n"
#define PPC64_LINES "OSRELEASE=6.12.0\nPAGESIZE=4096\nSYMBOL(mmu_psize_defs)=c00000000276bb28\nNUMBER(RADIX_MMU)=1\n"

#define LE BYTE_ORDER_LITTLE
#define BE BYTE_ORDER_BIG
#define S390X_LINES "OSRELEASE=6.12.0\nPAGESIZE=4096\nSYMBOL(lowcore_ptr)=3fffff48210\nKERNELOFFPHYS=8f4000\n"
#define RISCV64_LINES "OSRELEASE=6.12.0\nPAGESIZE=4096\nNUMBER(phys_ram_base)=2147483648\nNUMBER(VA_BITS)=57\n" \
	"NUMBER(va_kernel_pa_offset)=0xfffffffeffe00000\n"

static struct vmcoreinfo *parse(const char *text)
{
	struct vmcoreinfo *vi = NULL;

	mdf_error_free(vmcoreinfo_parse(text, strlen(text), "test", &vi));
	return vi;
}

/*
 * arch_detect() on an input that says @elf_machine/@elf_data or @machine,
 * its headers in @headers' order and with no notes, and VMCOREINFO @text.
 */
static void expect(const char *what, uint16_t elf_machine, unsigned char elf_data, enum byte_order headers,
		   const char *machine, const char *text, const struct arch_ops *want, const char *error_part)
{
	struct dump_input in = { .path = "dump", .elf_machine = elf_machine, .elf_data = elf_data,
				 .machine = machine, .byte_order = headers };
	struct vmcoreinfo *vi = text ? parse(text) : NULL;
	const struct arch_ops *got = NULL;
	struct mdf_error *err = arch_detect(&in, vi, &got);

	if (want)
		check(!err && got == want, "%s: %s (%s)", what, want->name, err ? mdf_error_text(err) : "");
	else
		check(err && !got && strstr(mdf_error_text(err), error_part), "%s: an error saying \"%s\" (%s)",
		      what, error_part, err ? mdf_error_text(err) : "none");
	mdf_error_free(err);
	vmcoreinfo_free(vi);
}

static void test_detection(void)
{
	expect("ELF EM_X86_64", EM_X86_64, ELFDATA2LSB, LE, NULL, ARM64_LINES, &arch_x86_64, NULL);
	expect("ELF EM_AARCH64", EM_AARCH64, ELFDATA2LSB, LE, NULL, X86_64_LINES, &arch_arm64, NULL);
	expect("ELF EM_RISCV", EM_RISCV, ELFDATA2LSB, LE, NULL, X86_64_LINES, &arch_riscv64, NULL);
	expect("ELF EM_MIPS", EM_MIPS, ELFDATA2LSB, LE, NULL, X86_64_LINES, NULL,
	       "dump: ELF machine 8 is not supported (x86_64, aarch64, ppc64le, ppc64, riscv64 and s390x only)");
	expect("kdump header riscv64", EM_NONE, 0, LE, "riscv64", X86_64_LINES, &arch_riscv64, NULL);
	expect("no machine, riscv64's VMCOREINFO", EM_NONE, 0, LE, NULL, RISCV64_LINES, &arch_riscv64, NULL);
	expect("ELF EM_NONE", EM_NONE, ELFDATA2LSB, LE, NULL, X86_64_LINES, NULL, "ELF machine 0 is not supported");
	/*
	 * One machine, two byte orders: the memory's order picks the table
	 * (without CPU notes, the headers'); VMCOREINFO cannot.
	 */
	expect("little-endian EM_PPC64", EM_PPC64, ELFDATA2LSB, LE, NULL, PPC64_LINES, &arch_ppc64le, NULL);
	expect("big-endian EM_PPC64", EM_PPC64, ELFDATA2MSB, BE, NULL, PPC64_LINES, &arch_ppc64, NULL);
	expect("kdump header ppc64le", EM_NONE, 0, LE, "ppc64le", PPC64_LINES, &arch_ppc64le, NULL);
	expect("kdump header ppc64", EM_NONE, 0, BE, "ppc64", PPC64_LINES, &arch_ppc64, NULL);
	expect("no machine, ppc64's VMCOREINFO", EM_NONE, 0, LE, NULL, PPC64_LINES, NULL,
	       "VMCOREINFO is a ppc64le or ppc64 kernel's (SYMBOL(mmu_psize_defs)), and the dump does not say "
	       "which byte order it runs in");
	expect("no machine, ppc64's and x86_64's lines", EM_NONE, 0, LE, NULL, X86_64_LINES PPC64_LINES, NULL,
	       "VMCOREINFO has lines of two architectures");
	expect("big-endian ELF headers of EM_X86_64, its memory little-endian", EM_X86_64, ELFDATA2MSB, BE, NULL,
	       X86_64_LINES, &arch_x86_64, NULL);
	expect("big-endian ELF EM_AARCH64", EM_AARCH64, ELFDATA2MSB, BE, NULL, X86_64_LINES, NULL,
	       "ELF machine 183 (aarch64) with big-endian memory: only little-endian aarch64 is supported");
	expect("big-endian kdump header x86_64", EM_NONE, 0, BE, "x86_64", X86_64_LINES, NULL,
	       "cannot be settled: the dump's header is big-endian, and its utsname says x86_64, which is "
	       "little-endian");
	expect("big-endian kdump header, x86_64's VMCOREINFO", EM_NONE, 0, BE, NULL, X86_64_LINES, NULL,
	       "cannot be settled: the dump's header is big-endian, and VMCOREINFO says x86_64");
	expect("kdump header x86_64", EM_NONE, 0, LE, "x86_64", ARM64_LINES, &arch_x86_64, NULL);
	expect("kdump header aarch64", EM_NONE, 0, LE, "aarch64", X86_64_LINES, &arch_arm64, NULL);
	expect("kdump header mips64", EM_NONE, 0, LE, "mips64", X86_64_LINES, NULL,
	       "a dump of a mips64 machine: not an architecture");
	/* s390x runs big-endian only: little-endian ELF headers misstate it, a kdump header cannot. */
	expect("ELF EM_S390", EM_S390, ELFDATA2MSB, BE, NULL, X86_64_LINES, &arch_s390x, NULL);
	expect("little-endian ELF headers of EM_S390, its memory big-endian", EM_S390, ELFDATA2LSB, LE, NULL,
	       X86_64_LINES, &arch_s390x, NULL);
	expect("kdump header s390x", EM_NONE, 0, BE, "s390x", X86_64_LINES, &arch_s390x, NULL);
	expect("little-endian kdump header s390x", EM_NONE, 0, LE, "s390x", X86_64_LINES, NULL,
	       "cannot be settled: the dump's header is little-endian, and its utsname says s390x, which is "
	       "big-endian");
	expect("no machine, s390x's VMCOREINFO", EM_NONE, 0, BE, NULL, S390X_LINES, &arch_s390x, NULL);
	expect("no machine, x86_64's VMCOREINFO", EM_NONE, 0, LE, NULL, X86_64_LINES, &arch_x86_64, NULL);
	expect("no machine, init_level4_pgt alone (before 4.13)", EM_NONE, 0, LE, NULL,
	       "SYMBOL(init_level4_pgt)=ffffffff81e0a000\n", &arch_x86_64, NULL);
	expect("no machine, arm64's VMCOREINFO", EM_NONE, 0, LE, NULL, ARM64_LINES, &arch_arm64, NULL);
	expect("no machine, both architectures' lines", EM_NONE, 0, LE, NULL, X86_64_LINES ARM64_LINES, NULL,
	       "VMCOREINFO has lines of two architectures");
	expect("no machine, neither's lines", EM_NONE, 0, LE, NULL, "OSRELEASE=6.1.0\nNUMBER(VA_BITS)=39\n", NULL,
	       "dump: the dump names no machine");
	expect("no machine, no VMCOREINFO", EM_NONE, 0, LE, NULL, NULL, NULL, "names no machine and has no VMCOREINFO");
}

/* The machine `uname -a` names: its second-last word. */
static int uname_machine(const char *path, char *machine, size_t size)
{
	char line[512], *words[32];
	int n = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	for (char *save, *w = strtok_r(line, " \n", &save); w && n < 32; w = strtok_r(NULL, " \n", &save))
		words[n++] = w;
	if (n < 2)
		return -1;
	snprintf(machine, size, "%s", words[n - 2]);
	return 0;
}

static void test_real(void)
{
	const char *shared = getenv("SHARED"), *project = getenv("PROJECT");
	char pattern[1024];
	glob_t dirs;

	if (shared)
		snprintf(pattern, sizeof(pattern), "%s/vmcores/*/guest/uname-a.txt", shared);
	else
		snprintf(pattern, sizeof(pattern), "%s%s../shared/vmcores/*/guest/uname-a.txt",
			 project ? project : "", project ? "/" : "");
	if (glob(pattern, 0, NULL, &dirs)) {
		printf("skip the shared dumps' VMCOREINFO: none at %s\n", pattern);
		return;
	}
	for (size_t i = 0; i < dirs.gl_pathc; i++) {
		char machine[64], path[1200];
		struct vmcoreinfo *vi = NULL;
		const struct arch_ops *got = NULL;
		struct mdf_error *err;
		bool known;

		snprintf(path, sizeof(path), "%.*s/vmcoreinfo.txt",
			 (int)(strlen(dirs.gl_pathv[i]) - strlen("/guest/uname-a.txt")), dirs.gl_pathv[i]);
		if (uname_machine(dirs.gl_pathv[i], machine, sizeof(machine)) ||
		    mdf_error_drop(vmcoreinfo_load_file(path, &vi)))
			continue;
		err = arch_from_vmcoreinfo(vi, &got);
		known = !strcmp(machine, arch_x86_64.name) || !strcmp(machine, arch_arm64.name) ||
			!strcmp(machine, arch_riscv64.name) || !strcmp(machine, arch_s390x.name);
		if (known)
			check(!err && got && !strcmp(got->name, machine), "%s: VMCOREINFO says %s, as uname -a",
			      path, machine);
		else
			check(err && !got, "%s: VMCOREINFO of a %s machine is no architecture's here (%s)", path,
			      machine, err ? mdf_error_text(err) : "none");
		mdf_error_free(err);
		vmcoreinfo_free(vi);
	}
	globfree(&dirs);
}

static void expect_page_size(const struct arch_ops *arch, const char *text, uint32_t want)
{
	struct vmcoreinfo *vi = text ? parse(text) : NULL;
	uint32_t got = 0;
	struct mdf_error *err = arch_page_size(arch, vi, &got);

	if (!text)
		text = "no VMCOREINFO";
	if (want)
		check(!err && got == want, "%s with %.*s: %u-byte pages", arch->name, (int)strcspn(text, "\n"), text,
		      want);
	else
		check(err != NULL, "%s with %.*s: an error (%s)", arch->name, (int)strcspn(text, "\n"), text,
		      err ? mdf_error_text(err) : "none");
	mdf_error_free(err);
	vmcoreinfo_free(vi);
}

static void test_page_sizes(void)
{
	expect_page_size(&arch_x86_64, NULL, 4096);
	expect_page_size(&arch_x86_64, "OSRELEASE=6.1\n", 4096);
	expect_page_size(&arch_x86_64, "PAGESIZE=4096\n", 4096);
	expect_page_size(&arch_x86_64, "PAGESIZE=65536\n", 0);
	expect_page_size(&arch_arm64, "PAGESIZE=16384\n", 16384);
	expect_page_size(&arch_arm64, "PAGESIZE=65536\n", 65536);
	expect_page_size(&arch_arm64, "PAGESIZE=8192\n", 0);
	expect_page_size(&arch_arm64, "PAGESIZE=12288\n", 0);
	expect_page_size(&arch_arm64, "PAGESIZE=4k\n", 0);
	expect_page_size(&arch_ppc64le, "PAGESIZE=4096\n", 4096);
	expect_page_size(&arch_ppc64, "PAGESIZE=65536\n", 65536);
	expect_page_size(&arch_ppc64le, "PAGESIZE=16384\n", 0);
	expect_page_size(&arch_ppc64le, NULL, 65536);
	expect_page_size(&arch_riscv64, "PAGESIZE=4096\n", 4096);
	expect_page_size(&arch_riscv64, "PAGESIZE=65536\n", 0);
}

/* The same bytes read through a little- and a big-endian table. */
static void test_byte_order(void)
{
	static const unsigned char bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct arch_ops big = fake_arch;
	struct fake_memory *f = fake_memory_new(4 * FAKE_PAGE);
	uint64_t u64 = 0;
	uint32_t u32 = 0;
	struct mdf_error *err;

	if (!f) {
		check(0, "fake memory");
		return;
	}
	memcpy(f->bytes + 0x1008, bytes, sizeof(bytes));
	err = fake_memory_open(f, NULL);
	if (!err)
		err = mem_read_u64(f->mem, FAKE_VIRT_BASE + 0x1008, &u64);
	if (!err)
		err = mem_read_u32(f->mem, FAKE_VIRT_BASE + 0x1008, &u32);
	check(!err && u64 == 0x0807060504030201ull && u32 == 0x04030201 && mem_pointer_size(f->mem) == 8 &&
	      mem_byte_order(f->mem) == BYTE_ORDER_LITTLE, "little-endian: 0x%llx, 0x%x",
	      (unsigned long long)u64, u32);
	mdf_error_free(err);

	memory_free(f->mem);
	f->mem = NULL;
	big.byte_order = BYTE_ORDER_BIG;
	err = memory_new(&f->in, &big, NULL, &f->mem);
	if (!err)
		err = mem_read_u64(f->mem, FAKE_VIRT_BASE + 0x1008, &u64);
	if (!err)
		err = mem_read_u32(f->mem, FAKE_VIRT_BASE + 0x1008, &u32);
	check(!err && u64 == 0x0102030405060708ull && u32 == 0x01020304 && mem_byte_order(f->mem) == BYTE_ORDER_BIG,
	      "big-endian: 0x%llx, 0x%x", (unsigned long long)u64, u32);
	mdf_error_free(err);
	fake_memory_free(f);
}

int main(void)
{
	test_detection();
	test_real();
	test_page_sizes();
	test_byte_order();
	return unit_exit_status();
}
