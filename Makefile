# SPDX-License-Identifier: GPL-2.0-or-later
#
# make            build ./makedumpfile
# make demo       build, generate a sample dump and filter it (-d 31 -l)
# make check      build and run every test (ends with "N passed, N failed")
# make check SANITIZE=1   the same under AddressSanitizer and UBSan
# make check-kdump  run this makedumpfile and its extensions inside a real kdump crash
#                 kernel under QEMU (TCG) and check its dumps against host runs and
#                 upstream (tests/kdump/run.sh; a minute or two; skips without QEMU or
#                 a Debian kernel package); not part of make check
# make check-cross  cross-build this makedumpfile and its extensions for arm64, ppc64el,
#                 s390x and riscv64 and run each under qemu-user on the shared dumps: the
#                 host build's files, byte for byte (.ci/cross; CROSS_DUMPS=one-per-arch
#                 for one dump per architecture and byte order, CROSS_ARCHES=s390x for
#                 fewer; skips what lacks a cross compiler, qemu-user or a mirror)
# make fuzz       build the libFuzzer harnesses of tests/fuzz with clang in build/fuzz,
#                 make their seed corpora, replay tests/fuzz/regressions, then fuzz
#                 each for FUZZ_SECONDS (default 10; of its own CPU time with FUZZ_CPU=1);
#                 fails on any crash, hang or leak
# make fuzz-quick the same without fuzzing: the regressions and the seeds, once each
# make layering  check that #includes run down the layers and that no modules
#                 depend on each other in a cycle (part of make check)
# make bench      benchmarks against upstream makedumpfile (RUNS=7 rounds; BENCH_64G=1 adds a
#                 generated 64 GiB dump, about 1.1 GB of disk)
# make extensions build extensions/*.c and eppic_scripts/*.c
# make check-distro  build the Debian and RPM packages, check them (lintian, the file
#                 lists), build dracut and initramfs-tools images with them, and run
#                 Debian 12's own kdump-tools with our .deb end to end in a QEMU VM
#                 (tests/distro/run.sh; minutes; skips without root, QEMU or a mirror)
# make install    DESTDIR, PREFIX, SBINDIR, EXTENSIONDIR, EPPICDIR, MANDIR, PKGCONFIGDIR,
#                 DRACUTMODDIR, INITRAMFSHOOKDIR as usual

CC ?= gcc
CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Werror
PREFIX ?= /usr
SBINDIR ?= $(PREFIX)/sbin
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(PREFIX)/lib/pkgconfig
EXTENSIONDIR ?= /usr/lib64/makedumpfile/extensions
# The erasing extensions: not in EXTENSIONDIR, where every run would load them.
EPPICDIR ?= /usr/lib64/makedumpfile/eppic_scripts
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# The kdump initramfs builders' hooks that carry the extensions (packaging/).
DRACUTMODDIR ?= $(PREFIX)/lib/dracut/modules.d
INITRAMFSHOOKDIR ?= $(DATADIR)/initramfs-tools/hooks
VERSION := $(shell sed -n 's/^\#define MDF_VERSION "\(.*\)"/\1/p' util/version.h)

CPPFLAGS += -D_GNU_SOURCE -I. -Iinclude -DEXTENSION_DIR='"$(EXTENSIONDIR)"' -DEPPIC_DIR='"$(EPPICDIR)"'
LIBS := -lbpf -ldw -lelf -lz -ldeflate -llzo2 -lzstd

ifeq ($(FUZZ),1)
# FUZZ=1 (make fuzz sets it): every object gets libFuzzer's coverage hooks, for tests/fuzz.
CC := clang
BUILD ?= build/fuzz
SAN_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
BIN := $(BUILD)/makedumpfile
else ifeq ($(SANITIZE),1)
BUILD ?= build/asan
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
BIN := $(BUILD)/makedumpfile
else
BUILD ?= build/obj
SAN_FLAGS :=
BIN := makedumpfile
endif

ALL_CFLAGS = -std=gnu11 $(WARNINGS) $(CFLAGS) $(SAN_FLAGS) $(CPPFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS)

# The layers, lowest first (make layering checks that includes follow
# this order); the compatibility surface for extensions is the top level's.
LAYERS := util codec input arch memory kernel scan erase extension output
COMPAT_SRCS := kallsyms.c btf_info.c erase_info.c extension.c
# What an extension written for upstream's API includes and links with.
UPSTREAM_API_FILES := makedumpfile.h kallsyms.h btf_info.h extension.h erase_info.h makedumpfile.ld
CORE_SRCS := $(foreach layer,$(LAYERS),$(wildcard $(layer)/*.c)) $(COMPAT_SRCS)
# The command line (cli/) and the orchestration of each mode's steps.
MAIN_SRCS := makedumpfile.c $(wildcard cli/*.c)

CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJS := $(MAIN_SRCS:%.c=$(BUILD)/%.o)

TEST_TOOLS := $(BUILD)/tests/failio.so $(BUILD)/tests/dumpread $(BUILD)/tests/walkread $(BUILD)/tests/erasetool $(if $(wildcard tests/gen/*.c),$(BUILD)/tests/mkvmcore)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(wildcard tests/unit/*.c))

.PHONY: all check check-kdump check-distro check-cross bench clean tests demo extensions install uninstall layering fuzz fuzz-quick
all: $(BIN)

# Extensions call into the executable: it exports their API, and only that,
# under a symbol version (extension/exports.map says why both flags).
EXPORT_MAP := extension/exports.map
ifeq ($(FUZZ),1)
# clang links the sanitizers' runtime into the executable, and its malloc
# and free must stay visible to the libraries (libc's vasprintf among
# them): the fuzzing build exports the API versioned and keeps the rest.
EXPORT_MAP := $(BUILD)/exports-unhidden.map
$(EXPORT_MAP): extension/exports.map
	@mkdir -p $(dir $@)
	sed '/^[[:space:]]*local:/,/^[[:space:]]*\*;/d' $< >$@
endif
EXPORT_API = -Wl,--export-dynamic -Wl,--version-script=$(EXPORT_MAP)
$(BIN): $(MAIN_OBJS) $(CORE_OBJS) $(EXPORT_MAP)
	$(CC) $(ALL_LDFLAGS) $(EXPORT_API) -o $@ $(MAIN_OBJS) $(CORE_OBJS) $(LIBS)

# Extensions are plain shared objects, never built with the sanitizers:
# the executable that loads them carries the runtime.
EXT_CFLAGS = -std=gnu11 $(WARNINGS) -O2 -g -fPIC -shared -I. -Iinclude -D_GNU_SOURCE
EXTENSIONS := $(patsubst extensions/%.c,$(BUILD)/extensions/%.so,$(wildcard extensions/*.c))
TEST_EXTENSIONS := $(patsubst tests/extensions/%.c,$(BUILD)/tests/extensions/%.so,$(wildcard tests/extensions/*.c))
EPPIC_SCRIPTS := $(patsubst eppic_scripts/%.c,$(BUILD)/eppic_scripts/%.so,$(wildcard eppic_scripts/*.c))

# A pattern rule without a recipe would cancel these: the API header is named in each.
$(BUILD)/extensions/%.so: extensions/%.c $(wildcard extensions/*.h) include/makedumpfile-extension.h
	@mkdir -p $(dir $@)
	$(CC) $(EXT_CFLAGS) -o $@ $<
$(BUILD)/tests/extensions/%.so: tests/extensions/%.c include/makedumpfile-extension.h
	@mkdir -p $(dir $@)
	$(CC) $(EXT_CFLAGS) -o $@ $<
$(BUILD)/eppic_scripts/%.so: eppic_scripts/%.c include/makedumpfile-extension.h
	@mkdir -p $(dir $@)
	$(CC) $(EXT_CFLAGS) -o $@ $<

extensions: $(EXTENSIONS) $(EPPIC_SCRIPTS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The sample vmlinux's DWARF (mkvmcore --vmlinux carries it): the kernel's
# types in C, compiled with -g, never with the sanitizers.
VMLINUX_TYPES := $(BUILD)/tests/vmlinux-types.so
$(VMLINUX_TYPES): tests/gen/vmlinux_types.c tests/gen/vmlinux_types.h
	@mkdir -p $(dir $@)
	$(CC) -g -O0 -fno-eliminate-unused-debug-types -shared -nostdlib -fPIC -o $@ $<

$(BUILD)/tests/mkvmcore: $(filter-out tests/gen/vmlinux_types.c,$(wildcard tests/gen/*.c tests/gen/*.h)) $(VMLINUX_TYPES)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/gen -DMKVMCORE_VMLINUX_TYPES='"$(VMLINUX_TYPES)"' -o $@ $(filter %.c,$^) \
		$(ALL_LDFLAGS) -lelf -lbpf

$(BUILD)/tests/dumpread: tests/tools/dumpread.c $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LIBS)

$(BUILD)/tests/walkread: tests/tools/walkread.c $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LIBS)

$(BUILD)/tests/erasetool: tests/tools/erasetool.c $(CORE_OBJS) $(EXPORT_MAP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(EXPORT_API) -o $@ $(filter-out %.map,$^) $(ALL_LDFLAGS) $(LIBS)

# Preloaded by tests/sh/t-write-failures.sh to make writes fail: never sanitized.
$(BUILD)/tests/failio.so: tests/tools/failio.c
	@mkdir -p $(dir $@)
	$(CC) $(EXT_CFLAGS) -o $@ $< -ldl

# The unit tests' shared headers (unit_check.h, ...) rebuild them all.
$(BUILD)/tests/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter-out %.h,$^) $(ALL_LDFLAGS) $(LIBS)

tests: $(BIN) $(TEST_TOOLS) $(UNIT_TESTS) $(EXTENSIONS) $(TEST_EXTENSIONS) $(EPPIC_SCRIPTS)

# ---- make fuzz: the libFuzzer harnesses of tests/fuzz, built with FUZZ=1 ----
FUZZ_SECONDS ?= 10
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_HARNESSES := $(FUZZ_NAMES:%=$(BUILD)/fuzz_%)

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h tests/unit/*.h) $(CORE_OBJS)
	$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -Itests/unit -o $@ $(filter %.c %.o,$^) $(ALL_LDFLAGS) \
		-fsanitize=fuzzer $(LIBS)
# Their kernel's types are the sample-dump generator's (tests/fuzz/fuzz_kernel.h).
FUZZ_OBJS := $(BUILD)/tests/fuzz/generator_btf.o $(BUILD)/tests/gen/gen_btf.o
$(BUILD)/fuzz_walkers $(BUILD)/fuzz_config: $(FUZZ_OBJS)
$(FUZZ_OBJS): CPPFLAGS += -Itests/gen

ifeq ($(FUZZ),1)
# Seeds from the generator's dumps (tests/fuzz/corpus.py); fuzzing adds its finds beside them.
FUZZ_CORPUS := $(BUILD)/corpus/.made
$(FUZZ_CORPUS): tests/fuzz/corpus.py tests/py/walkersynth.py tests/py/mkkcore.py \
		tests/py/byteordercheck.py tests/py/elfread.py tests/py/testlib.py tests/sh/t-erase.sh \
		makedumpfile.conf.sample \
		$(BIN) $(BUILD)/tests/mkvmcore $(BUILD)/tests/dumpread
	python3 tests/fuzz/corpus.py $(BUILD)/corpus $(BUILD)/tests/mkvmcore $(BIN) $(BUILD)/tests/dumpread
	touch $@

fuzz: $(FUZZ_HARNESSES) $(FUZZ_CORPUS)
	FUZZ_CPU=$(FUZZ_CPU) tests/fuzz/run.sh fuzz $(BUILD) $(FUZZ_SECONDS)
fuzz-quick: $(FUZZ_HARNESSES) $(FUZZ_CORPUS)
	tests/fuzz/run.sh quick $(BUILD) 0
else
fuzz fuzz-quick:
	$(MAKE) FUZZ=1 $@
endif

# The layers and cli/ above them; the link check reads the objects.
layering: $(CORE_OBJS) $(MAIN_OBJS)
	@python3 tests/py/layering.py --objects $(BUILD) $(LAYERS) cli

check: tests layering
	MDF=$(abspath $(BIN)) TOOLS=$(abspath $(BUILD)/tests) MDF_SANITIZE=$(SANITIZE) T="$(T)" tests/run.sh

check-kdump: $(BIN) $(EXTENSIONS)
	@mkdir -p $(BUILD)/tests
	MDF=$(abspath $(BIN)) EXTDIR=$(abspath $(BUILD)/extensions) TOOLS=$(abspath $(BUILD)/tests) tests/kdump/run.sh

check-distro: $(BIN)
	@mkdir -p $(BUILD)/tests
	MDF=$(abspath $(BIN)) TOOLS=$(abspath $(BUILD)/tests) tests/distro/run.sh

CROSS_DUMPS ?= all
# It runs make itself, for the host's build and each architecture's.
check-cross:
	.ci/cross --dumps $(CROSS_DUMPS) $(CROSS_ARCHES)

$(BUILD)/tests/kallsyms_bench: bench/kallsyms_bench.c $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LIBS)

$(BUILD)/tests/btf_bench: bench/btf_bench.c $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LIBS)

bench: $(BIN) $(TEST_TOOLS) $(BUILD)/tests/kallsyms_bench $(BUILD)/tests/btf_bench $(EXTENSIONS) $(TEST_EXTENSIONS)
	MDF=$(abspath $(BIN)) TOOLS=$(abspath $(BUILD)/tests) BENCH_64G=$(BENCH_64G) bench/run.sh

DEMO := build/demo
demo: $(BIN) $(BUILD)/tests/mkvmcore
	@mkdir -p $(DEMO)
	$(BUILD)/tests/mkvmcore --facts $(DEMO)/sample.facts $(DEMO)/sample.elf
	./$(BIN) -f -l -d 31 --message-level 31 $(DEMO)/sample.elf $(DEMO)/sample.kdump
	@echo
	@echo "The sample dump $(DEMO)/sample.elf, filtered to $(DEMO)/sample.kdump; its first kernel symbols:"
	@./$(BIN) --dump-kallsyms $(DEMO)/sample.elf | head -n 5

install: $(BIN) $(EXTENSIONS) $(EPPIC_SCRIPTS)
	install -D -m 0755 $(BIN) $(DESTDIR)$(SBINDIR)/makedumpfile
	install -m 0755 packaging/makedumpfile-R.pl $(DESTDIR)$(SBINDIR)/makedumpfile-R.pl
	install -d -m 0755 $(DESTDIR)$(EXTENSIONDIR)
	$(if $(EXTENSIONS),install -m 0644 $(EXTENSIONS) $(DESTDIR)$(EXTENSIONDIR)/)
	install -D -m 0644 include/makedumpfile-extension.h $(DESTDIR)$(INCLUDEDIR)/makedumpfile-extension.h
	@# Upstream's API: its headers and linker script laid out as in its tree,
	@# so that extensions/X.c finds "../makedumpfile.h" (makedumpfile.pc).
	install -d -m 0755 $(DESTDIR)$(INCLUDEDIR)/makedumpfile/extensions
	install -m 0644 $(UPSTREAM_API_FILES) $(DESTDIR)$(INCLUDEDIR)/makedumpfile/
	@mkdir -p $(DESTDIR)$(PKGCONFIGDIR)
	for pc in makedumpfile-extension makedumpfile; do \
		sed -e 's|@PREFIX@|$(PREFIX)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@EXTENSIONDIR@|$(EXTENSIONDIR)|; s|@VERSION@|$(VERSION)|' \
			include/$$pc.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/$$pc.pc || exit 1; \
	done
	install -d -m 0755 $(DESTDIR)$(EPPICDIR)
	$(if $(EPPIC_SCRIPTS),install -m 0644 $(EPPIC_SCRIPTS) $(DESTDIR)$(EPPICDIR)/)
	install -D -m 0644 man/makedumpfile.8 $(DESTDIR)$(MANDIR)/man8/makedumpfile.8
	install -D -m 0644 man/makedumpfile.conf.5 $(DESTDIR)$(MANDIR)/man5/makedumpfile.conf.5
	install -m 0644 packaging/makedumpfile-R.pl.8 $(DESTDIR)$(MANDIR)/man8/makedumpfile-R.pl.8
	install -D -m 0755 packaging/dracut/99makedumpfile-extensions/module-setup.sh \
		$(DESTDIR)$(DRACUTMODDIR)/99makedumpfile-extensions/module-setup.sh
	install -D -m 0755 packaging/initramfs-tools/makedumpfile $(DESTDIR)$(INITRAMFSHOOKDIR)/makedumpfile
	install -D -m 0644 makedumpfile.conf.sample $(DESTDIR)$(DATADIR)/makedumpfile/makedumpfile.conf.sample
	install -D -m 0644 eppic_scripts/README $(DESTDIR)$(DATADIR)/makedumpfile/eppic_scripts/README
	install -D -m 0644 doc/extension-guide.md $(DESTDIR)$(DATADIR)/doc/makedumpfile/extension-guide.md

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/makedumpfile $(DESTDIR)$(SBINDIR)/makedumpfile-R.pl \
		$(DESTDIR)$(INCLUDEDIR)/makedumpfile-extension.h \
		$(DESTDIR)$(PKGCONFIGDIR)/makedumpfile-extension.pc $(DESTDIR)$(PKGCONFIGDIR)/makedumpfile.pc \
		$(addprefix $(DESTDIR)$(INCLUDEDIR)/makedumpfile/,$(UPSTREAM_API_FILES)) \
		$(patsubst $(BUILD)/extensions/%,$(DESTDIR)$(EXTENSIONDIR)/%,$(EXTENSIONS)) \
		$(patsubst $(BUILD)/eppic_scripts/%,$(DESTDIR)$(EPPICDIR)/%,$(EPPIC_SCRIPTS)) \
		$(DESTDIR)$(MANDIR)/man8/makedumpfile.8 $(DESTDIR)$(MANDIR)/man5/makedumpfile.conf.5 \
		$(DESTDIR)$(MANDIR)/man8/makedumpfile-R.pl.8 \
		$(DESTDIR)$(DRACUTMODDIR)/99makedumpfile-extensions/module-setup.sh \
		$(DESTDIR)$(INITRAMFSHOOKDIR)/makedumpfile \
		$(DESTDIR)$(DATADIR)/makedumpfile/makedumpfile.conf.sample \
		$(DESTDIR)$(DATADIR)/makedumpfile/eppic_scripts/README \
		$(DESTDIR)$(DATADIR)/doc/makedumpfile/extension-guide.md

clean:
	rm -rf build makedumpfile

-include $(CORE_OBJS:.o=.d) $(MAIN_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d)
