# SPDX-License-Identifier: GPL-2.0-or-later
#
# make            build ./makedumpfile
# make demo       build, generate a sample dump and filter it (-d 31 -l)
# make check      build and run every test (ends with "N passed, N failed")
# make check SANITIZE=1   the same under AddressSanitizer and UBSan
# make bench      benchmarks against upstream makedumpfile

CC ?= gcc
CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Werror
CPPFLAGS += -D_GNU_SOURCE -I.
LIBS := -lbpf -lelf -lz -llzo2 -lsnappy -lzstd

ifeq ($(SANITIZE),1)
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

CORE_SRCS := message.c vmcoreinfo.c input.c elf_input.c kdump_input.c flat.c codec.c \
	memory.c arch/arch.c arch/x86_64.c kallsyms.c outfile.c mem_map.c page_scan.c erase_info.c kdump_writer.c report.c \
	kernel_list.c btf_info.c symbols.c
MAIN_SRCS := makedumpfile.c

CORE_OBJS := $(CORE_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJS := $(MAIN_SRCS:%.c=$(BUILD)/%.o)

TEST_TOOLS := $(BUILD)/tests/dumpread $(if $(wildcard tests/gen/*.c),$(BUILD)/tests/mkvmcore)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(wildcard tests/unit/*.c))

.PHONY: all check bench clean tests demo
all: $(BIN)

$(BIN): $(MAIN_OBJS) $(CORE_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/mkvmcore: $(wildcard tests/gen/*.c tests/gen/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/gen -o $@ $(filter %.c,$^) $(ALL_LDFLAGS) -lelf

$(BUILD)/tests/dumpread: tests/tools/dumpread.c $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LIBS)

$(BUILD)/tests/unit/%: tests/unit/%.c $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LIBS)

tests: $(BIN) $(TEST_TOOLS) $(UNIT_TESTS)

check: tests
	MDF=$(abspath $(BIN)) TOOLS=$(abspath $(BUILD)/tests) tests/run.sh

$(BUILD)/tests/kallsyms_bench: bench/kallsyms_bench.c $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LIBS)

$(BUILD)/tests/btf_bench: bench/btf_bench.c $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LIBS)

bench: $(BIN) $(TEST_TOOLS) $(BUILD)/tests/kallsyms_bench $(BUILD)/tests/btf_bench
	MDF=$(abspath $(BIN)) TOOLS=$(abspath $(BUILD)/tests) bench/run.sh

DEMO := build/demo
demo: $(BIN) $(BUILD)/tests/mkvmcore
	@mkdir -p $(DEMO)
	$(BUILD)/tests/mkvmcore --facts $(DEMO)/sample.facts $(DEMO)/sample.elf
	./$(BIN) -f -l -d 31 --message-level 31 $(DEMO)/sample.elf $(DEMO)/sample.kdump
	@echo
	@echo "The sample dump $(DEMO)/sample.elf, filtered to $(DEMO)/sample.kdump; its first kernel symbols:"
	@./$(BIN) --dump-kallsyms $(DEMO)/sample.elf | head -n 5

clean:
	rm -rf build makedumpfile

-include $(CORE_OBJS:.o=.d) $(MAIN_OBJS:.o=.d)
