#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Erasure: the filter config (--config) and the erase jobs of eppic_scripts/,
# through tests/tools/erasetool until makedumpfile's --config and
# --eraseinfo are wired in (it applies the erasure in the writer's
# read_page callback and stores the eraseinfo where upstream does).
#   - syntax errors stop the run, each naming its line;
#   - a config resolves on the shared 6.1 dump as the guest's own facts say
#     (its command line, its iomem, its tasks);
#   - on each shared dump, "erase init_task.comm" and proc_names leave no
#     user task's comm readable (read back through our reader), every
#     other byte unchanged, and the eraseinfo lists what was erased; upstream
#     makedumpfile, filtering our dump again, carries our eraseinfo over;
#   - keyring, dir_names and socket_buffers run on each dump without error.
. "$(dirname "$0")/../lib.sh" || exit 2

ET=$TOOLS/erasetool
DR=$TOOLS/dumpread
WR=$TOOLS/walkread
JOBS=$(dirname "$TOOLS")/eppic_scripts

if [ ! -x "$ET" ]; then
	skip erase "erasetool is not built ($ET)"
	exit 0
fi

# ---- Syntax: each error names its line and stops the run. ----
conf() { printf "$2" >"$WORK/$1.conf"; echo "$WORK/$1.conf"; }
expect_failure erase-syntax-no-operand ':1: expected what to erase after .erase.' \
	"$ET" /dev/null plan --config "$(conf s1 'erase\n')"
expect_failure erase-syntax-no-endfor ':2: this for has no endfor' \
	"$ET" /dev/null plan --config "$(conf s2 '# c\nfor t in init_task.tasks within task_struct:tasks\n\terase t.comm\n')"
expect_failure erase-syntax-size ":1: size '0K' is not a positive number" \
	"$ET" /dev/null plan --config "$(conf s3 'erase foo size 0K\n')"
expect_failure erase-syntax-section ':2: a section header needs its closing' \
	"$ET" /dev/null plan --config "$(conf s4 'erase foo\n[vmlinux\n')"
expect_failure erase-syntax-token ":3: expected erase or for, found 'endfor'" \
	"$ET" /dev/null plan --config "$(conf s5 'erase foo\n\nendfor\n')"
expect_failure erase-syntax-loop-variable ":2: 'bar.x': an erase inside the loop over t erases t" \
	"$ET" /dev/null plan --config "$(conf s6 'for t in foo via next\nerase bar.x\nendfor\n')"
expect_failure erase-syntax-nested ':2: expected erase or endfor .* \(loops do not nest\)' \
	"$ET" /dev/null plan --config "$(conf s7 'for t in foo\nfor u in bar\nendfor\nendfor\n')"
expect_failure erase-syntax-cast ":1: '\(9x\)init_task': a cast is \(TYPE\) or \(TYPE\*\)" \
	"$ET" /dev/null plan --config "$(conf s8 'erase (9x)init_task\n')"
expect_failure erase-syntax-section-inside ':3: a section header inside the command that began on line 1' \
	"$ET" /dev/null plan --config "$(conf s9 'erase foo size\n[vgem]\n12\n')"
expect_failure erase-no-config 'cannot open the filter config' "$ET" /dev/null plan --config "$WORK/none.conf"

# ---- Resolution on the shared 6.1 dump, against the guest's own facts. ----
dump=$(fixture 6.1-qemu.elf)
if [ -n "$dump" ]; then
	guest=$VMCORES/6.1-qemu/guest
	cat >"$WORK/facts.conf" <<'EOF'
# What each erases is known from the guest's own files.
erase init_uts_ns.name size init_task.prio
for c in init_uts_ns.name.release
	erase c
endfor
for r in (resource)iomem_resource.child via sibling
	erase r.name
endfor
erase (resource)iomem_resource.name nullify
erase no_such_symbol_anywhere
[vgem]
erase (vgem_device*)vgem_device nullify
[no_such_module]
erase whatever
EOF
	if "$ET" "$dump" plan --config "$WORK/facts.conf" --message-level 7 >"$WORK/facts.plan" \
		2>"$WORK/facts.err"; then
		top=$(grep -c '^[0-9a-f]' "$guest/iomem.txt")
		release=$(grep -c '^erase c size 1$' "$WORK/facts.plan")
		names=$(grep -c '^erase r.name size [0-9]*$' "$WORK/facts.plan")
		problems=""
		grep -qx 'erase init_uts_ns.name size 120' "$WORK/facts.plan" || problems+=" size-expr"
		[ "$release" -eq 65 ] || problems+=" array($release)"
		[ "$names" -eq "$top" ] || problems+=" via($names, iomem has $top)"
		grep -qx 'erase (resource)iomem_resource.name nullify' "$WORK/facts.plan" &&
			grep -q ' 8 0x00$' "$WORK/facts.plan" || problems+=" nullify"
		grep -qx 'erase (vgem_device\*)vgem_device nullify' "$WORK/facts.plan" || problems+=" module"
		grep -q 'facts.conf:10: no symbol no_such_symbol_anywhere' "$WORK/facts.err" || problems+=" warning"
		grep -q 'facts.conf:14: no module no_such_module in the dump' "$WORK/facts.plan" ||
			problems+=" skipped-section"
		[ -z "$problems" ] && pass erase-resolve-facts || fail erase-resolve-facts "wrong:$problems"
	else
		fail erase-resolve-facts "$(tail -n 3 "$WORK/facts.err")"
	fi
	# The shipped sample config resolves, as the guest's command line and task list say.
	if "$ET" "$dump" plan --config "$PROJECT/makedumpfile.conf.sample" >"$WORK/sample.plan" \
		2>"$WORK/sample.err"; then
		cmdline=$(($(wc -c <"$guest/cmdline.txt") - 1))
		tasks=$("$WR" "$dump" tasks | wc -l)
		grep -qx "erase (char\*)saved_command_line size $cmdline" "$WORK/sample.plan" &&
			grep -qx 'erase init_task.comm size 16' "$WORK/sample.plan" &&
			[ "$(grep -c '^erase t.comm size 16$' "$WORK/sample.plan")" -eq "$tasks" ] &&
			[ ! -s "$WORK/sample.err" ] && pass erase-sample-config ||
			fail erase-sample-config "$(grep -v '^piece' "$WORK/sample.plan" | sort | uniq -c | head -n 8; cat "$WORK/sample.err")"
	else
		fail erase-sample-config "$(tail -n 3 "$WORK/sample.err")"
	fi
else
	skip erase-resolve "no $VMCORES/6.1-qemu"
fi

# ---- End to end on each shared dump. ----
if [ ! -s "$JOBS/proc_names.so" ]; then
	skip erase-jobs "the eppic_scripts extensions are not built ($JOBS)"
	exit 0
fi
procs=$(extension_dir procs "$JOBS" proc_names)
printf 'erase init_task.comm\n' >"$WORK/comm.conf"
for guest in 6.1-qemu 6.1-kdump 7.2-qemu; do
	dump=$(fixture "$guest.elf") || { skip "erase-$guest" "no $VMCORES/$guest"; continue; }
	t=erase-$guest
	"$MDF" -f -l -d 31 "$dump" "$WORK/base.kdump" >/dev/null 2>"$WORK/$t-base.err" ||
		{ fail "$t" "the dump without erasure: $(tail -n 2 "$WORK/$t-base.err")"; continue; }
	if ! "$ET" "$dump" plan --config "$WORK/comm.conf" --extension-dir "$procs" >"$WORK/$t.plan" \
		2>"$WORK/$t-plan.err" ||
		! "$MDF" -f -l -d 31 --config "$WORK/comm.conf" --extension-dir "$procs" \
			--message-level 7 "$dump" "$WORK/erased.kdump" >"$WORK/$t.out" 2>&1; then
		fail "$t" "$(tail -n 3 "$WORK/$t-plan.err" "$WORK/$t.out")"
		continue
	fi
	# No user task's comm is readable; labprobe's, where it was, is all X.
	comm_off=$("$MDF" --dump-type task_struct.comm "$dump" | sed -n 's/.* offset=\([0-9]*\) .*/\1/p')
	"$WR" "$dump" tasks >"$WORK/tasks.before"
	"$WR" "$WORK/erased.kdump" tasks >"$WORK/tasks.after"
	users=$(awk '$4 != "0x0"' "$WORK/tasks.after" | wc -l)
	readable=$(awk '$4 != "0x0" && $3 != "XXXXXXXXXXXXXXX"' "$WORK/tasks.after" | wc -l)
	labprobe=$(awk '$3 == "labprobe" { print $5 }' "$WORK/tasks.before")
	init_task=$("$DR" "$dump" symbol init_task | awk '{ print $2 }')
	if [ -n "$labprobe" ] && [ "$users" -ge 2 ] && [ "$readable" -eq 0 ] &&
		! grep -q labprobe "$WORK/tasks.after" &&
		[ "$("$DR" "$WORK/erased.kdump" virt $((labprobe + comm_off)) 16)" = XXXXXXXXXXXXXXXX ] &&
		[ "$("$DR" "$WORK/erased.kdump" virt $((init_task + comm_off)) 16)" = XXXXXXXXXXXXXXXX ]; then
		pass "$t-comm-gone"
	else
		fail "$t-comm-gone" "$users user tasks, $readable readable, labprobe at '$labprobe': $(head -n 3 "$WORK/tasks.after")"
	fi
	# The eraseinfo: the config's command, then the job's line, for each name erased; all of
	# them in pages -d 31 keeps, so as planned.
	"$MDF" --eraseinfo "$WORK/erased.kdump" >"$WORK/$t.eraseinfo"
	grep -v '^piece' "$WORK/$t.plan" >"$WORK/$t.want"
	names=$(sed -n 's/^erase proc_names:task_struct.comm size \([0-9]*\)$/\1/p' "$WORK/$t.want")
	if cmp -s "$WORK/$t.eraseinfo" "$WORK/$t.want" && [ "$(head -n 1 "$WORK/$t.want")" = \
		"erase init_task.comm size 16" ] && [ "${names:-0}" -ge $((16 * users)) ] &&
		[ $((names % 16)) -eq 0 ]; then
		pass "$t-eraseinfo"
	else
		fail "$t-eraseinfo" "$(cat "$WORK/$t.eraseinfo") (want $(cat "$WORK/$t.want"))"
	fi
	check "$t-other-bytes-unchanged" $PYTHON "$PROJECT/tests/py/erasecheck.py" "$DR" \
		"$WORK/base.kdump" "$WORK/erased.kdump" "$WORK/$t.plan"
	# Upstream reads our eraseinfo where it expects it, and carries it into its own output.
	if command -v makedumpfile >/dev/null && [ "$guest" = 6.1-qemu ]; then
		if makedumpfile -f -l -d 31 "$WORK/erased.kdump" "$WORK/upstream.kdump" >/dev/null 2>&1 &&
			"$MDF" --eraseinfo "$WORK/upstream.kdump" | cmp -s - "$WORK/$t.eraseinfo"; then
			pass "$t-upstream-keeps-eraseinfo"
		else
			fail "$t-upstream-keeps-eraseinfo" "upstream's output holds: $("$MDF" --eraseinfo "$WORK/upstream.kdump" 2>&1 | head -n 3)"
		fi
	fi

	# The other jobs run without error; what they erase stays inside their pieces.
	jobs=$(extension_dir jobs "$JOBS" keyring dir_names socket_buffers)
	if "$ET" "$dump" plan --extension-dir "$jobs" >"$WORK/$t-jobs.plan" 2>"$WORK/$t-jobs.log" &&
		"$MDF" -f -l -d 31 --extension-dir "$jobs" --message-level 7 "$dump" "$WORK/jobs.kdump" \
			>"$WORK/$t-jobs.out" 2>&1; then
		keys=$(grep -o 'keyring: [0-9]* keys: erased the payloads of [0-9]*' "$WORK/$t-jobs.out")
		dentries=$(grep -o 'dir_names: erased the names of [0-9]* dentries' "$WORK/$t-jobs.out")
		sockets=$(grep -o 'socket_buffers: erased .* UNIX sockets' "$WORK/$t-jobs.out")
		if [ -n "$keys" ] && [ -n "$dentries" ] && [ -n "$sockets" ] &&
			! grep -q 'failed\|cannot\|damaged' "$WORK/$t-jobs.out"; then
			pass "$t-jobs-run"
			echo "    $keys; $dentries; $sockets"
		else
			fail "$t-jobs-run" "$(cat "$WORK/$t-jobs.out" | head -n 5)"
		fi
		check "$t-jobs-other-bytes-unchanged" $PYTHON "$PROJECT/tests/py/erasecheck.py" "$DR" \
			"$WORK/base.kdump" "$WORK/jobs.kdump" "$WORK/$t-jobs.plan"
	else
		fail "$t-jobs-run" "$(tail -n 3 "$WORK/$t-jobs.log" "$WORK/$t-jobs.out")"
	fi
	rm -f "$WORK"/*.kdump
done

# A [vmlinux] section looks in vmlinux's types and symbols alone, as
# upstream's does: the 7.2 dump's 23 modules with BTF are not read, and
# labprobe's comm is still erased.
if dump=$(fixture 7.2-qemu.elf); then
	printf '[vmlinux]\nfor t in init_task.tasks within task_struct:tasks\n\terase t.comm\nendfor\n' \
		>"$WORK/tasks.conf"
	"$MDF" -f -l -d 31 --no-extensions --config "$WORK/tasks.conf" --message-level 31 "$dump" \
		"$WORK/tasks.kdump" >"$WORK/tasks.out" 2>&1
	comm_off=$("$MDF" --dump-type task_struct.comm "$dump" | sed -n 's/.* offset=\([0-9]*\) .*/\1/p')
	labprobe=$("$WR" "$dump" tasks | awk '$3 == "labprobe" { print $5; exit }')
	if grep -v '^BTF of vmlinux' "$WORK/tasks.out" | grep -q '^BTF of \|module kallsyms' || [ -z "$labprobe" ] ||
		[ "$("$DR" "$WORK/tasks.kdump" virt $((labprobe + comm_off)) 16)" != XXXXXXXXXXXXXXXX ]; then
		fail erase-vmlinux-section-alone "labprobe at '$labprobe'; $(grep -m 3 '^BTF of [^v]\|module kallsyms\|erase' "$WORK/tasks.out")"
	else
		pass erase-vmlinux-section-alone
	fi
	rm -f "$WORK/tasks.kdump"
else
	skip erase-vmlinux-section-alone "no $VMCORES/7.2-qemu"
fi

# ---- The erase API: what it refuses, and what an extension's erasures look like. ----
dump=$(fixture 6.1-kdump.elf) || { skip erase-api "no $VMCORES/6.1-kdump"; exit 0; }
api=$(extension_dir api "$TOOLS/extensions" erase_api)
if "$ET" "$dump" plan --extension-dir "$api" --message-level 7 >"$WORK/api.plan" 2>"$WORK/api.err"; then
	grep -q 'refusals: zero -22, what -22, unmapped -14, beyond -34, big -7$' "$WORK/api.err" &&
		grep -qx 'erase erase_api:uts_namespace.name.nodename size 65' "$WORK/api.plan" &&
		grep -qx 'erase erase_api:paddr size 16' "$WORK/api.plan" &&
		pass erase-api || fail erase-api "$(cat "$WORK/api.err") $(head -n 3 "$WORK/api.plan")"
else
	fail erase-api "$(tail -n 3 "$WORK/api.err")"
fi
# Bytes of a page the dump level leaves out are not in the dump: not listed.
# labprobe's anonymous pages are user data, which -d 8 excludes.
pfn=$(awk '$1 == "anon" { print $2; exit }' "$VMCORES/6.1-kdump/marker-pfns.txt")
for level in 0 8; do
	"$MDF" -f -l -d $level --extension-dir "$api" --extension-arg "erase_api:paddr=$((pfn * 4096))" \
		"$dump" "$WORK/api.kdump" >/dev/null 2>"$WORK/api-$level.err" &&
		"$MDF" --eraseinfo "$WORK/api.kdump" >"$WORK/api-$level.eraseinfo" ||
		fail "erase-api-d$level" "$(tail -n 3 "$WORK/api-$level.err")"
	[ $level = 0 ] && page=$("$DR" "$WORK/api.kdump" pages "$pfn")
done
if [ -n "$pfn" ] && grep -qx 'erase erase_api:arg size 16' "$WORK/api-0.eraseinfo" &&
	! grep -q 'erase_api:arg' "$WORK/api-8.eraseinfo" &&
	grep -qx 'erase erase_api:paddr size 16' "$WORK/api-8.eraseinfo"; then
	pass erase-eraseinfo-only-pages-written
else
	fail erase-eraseinfo-only-pages-written "pfn $pfn ($page): -d 0 $(cat "$WORK/api-0.eraseinfo"); -d 8 $(cat "$WORK/api-8.eraseinfo")"
fi
rm -f "$WORK"/*.kdump
