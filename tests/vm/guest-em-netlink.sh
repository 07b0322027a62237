# tests/vm/guest-em-netlink.sh - runs in the VM (tests/vm/vm-run, wired in
# tests/profile/meson.build): the dev-energymodel generic netlink family of the sid 7.2
# kernel, read by gb-em-netlink-probe, the profiler's own reader (src/profile/em_netlink.c)
# linked static.  Under x86 TCG no cpufreq driver registers an energy model, so the dump is
# expected to list 0 perf domains; what is tested is that the family resolves, the dump and
# the kernel's error path work, and that netlink agrees with debugfs on the number of domains.
#   guest-em-netlink.sh
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fail=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }

echo "1..5"
gb-em-netlink-probe >/tmp/probe.out 2>/tmp/probe.err
rc=$?
sed 's/^/# /' /tmp/probe.out /tmp/probe.err
if [ $rc = 0 ]; then ok "probe_resolves_the_family_and_dumps_the_perf_domains"
else not_ok "probe_resolves_the_family_and_dumps_the_perf_domains" "exit $rc"; fi

id=$(sed -n 's/^family dev-energymodel id \([0-9]*\) version \([0-9]*\)$/\1 \2/p' /tmp/probe.out)
set -- $id
# generic netlink gives dynamic families ids from GENL_MIN_ID (0x10) up
if [ -n "${1:-}" ] && [ "$1" -ge 16 ] && [ "${2:-}" = 1 ]; then
	ok "family_has_a_dynamic_id_and_version_1 (id $1)"
else not_ok "family_has_a_dynamic_id_and_version_1" "got '$id'"; fi

nl=$(sed -n 's/^perf domains: \([0-9]*\)$/\1/p' /tmp/probe.out)
lines=$(grep -c '^pd ' /tmp/probe.out)
if [ -n "$nl" ] && [ "$nl" = "$lines" ]; then ok "dump_lists_${nl}_perf_domains"
else not_ok "dump_lists_the_perf_domains" "count '$nl', pd lines $lines"; fi

# debugfs (mounted by the guest's /init) shows the same table: CPU and device domains alike
# are directories of /sys/kernel/debug/energy_model
dbg=-1
if [ -d /sys/kernel/debug/energy_model ]; then
	dbg=0
	for d in /sys/kernel/debug/energy_model/*; do [ -d "$d" ] && dbg=$((dbg + 1)); done
fi
if [ "$dbg" = "$nl" ]; then ok "netlink_and_debugfs_agree_on_the_number_of_domains ($dbg)"
else not_ok "netlink_and_debugfs_agree_on_the_number_of_domains" "debugfs $dbg, netlink '$nl'" \
	"$(ls -la /sys/kernel/debug/energy_model 2>&1 | head -5)"; fi

# a table the kernel does not have: its -EINVAL comes back as a clean error
gb-em-netlink-probe table 4242 >/tmp/t.out 2>/tmp/t.err
rc=$?
if [ $rc = 1 ] && grep -q "get-perf-table of domain 4242: Invalid argument" /tmp/t.err; then
	ok "table_of_an_unknown_domain_fails_with_the_kernels_einval"
else not_ok "table_of_an_unknown_domain_fails_with_the_kernels_einval" "exit $rc" "$(cat /tmp/t.err /tmp/t.out)"; fi
exit $fail
