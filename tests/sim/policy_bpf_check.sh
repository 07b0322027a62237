#!/bin/sh
# policy_bpf_check.sh CLANG SRCDIR OUTDIR - TAP: the policy headers build with clang -target bpf.
set -u
clang=$1 src=$2 out=$3
echo "1..1"
if "$clang" -target bpf -O2 -Wall -Werror -I"$src/src/em" -I"$src/src/policy" \
	-c "$src/tests/sim/policy_bpf_check.c" -o "$out/policy_bpf_check.o" 2>"$out/policy_bpf_check.err"; then
	echo "ok 1 - policy_headers_compile_for_bpf"
else
	sed 's/^/# /' "$out/policy_bpf_check.err"
	echo "not ok 1 - policy_headers_compile_for_bpf"
fi
