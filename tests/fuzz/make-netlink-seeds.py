#!/usr/bin/env python3
# make-netlink-seeds.py - writes seeds-netlink/*.bin for fuzz_netlink: the replies a 7.2
# kernel's dev-energymodel family sends (kernel/power/em_netlink.c), framed as fuzz_netlink.c
# reads them (per datagram a 2-byte little-endian length, then its bytes).
import os
import struct

FAM = 0x1f
NLM_F_MULTI = 2
NLMSG_DONE = 3
GENL_ID_CTRL = 0x10


def attr(t, data):
    a = struct.pack('<HH', 4 + len(data), t) + data
    return a + b'\0' * (-len(a) % 4)


def u32(t, v):
    return attr(t, struct.pack('<I', v))


def u64(t, v):
    return attr(1, b'') + attr(t, struct.pack('<Q', v))   # PAD, as nla_put_u64_64bit


def msg(typ, flags, cmd, version, attrs):
    body = struct.pack('<BBH', cmd, version, 0) + attrs
    return struct.pack('<IHHII', 16 + len(body), typ, flags, 0, 0) + body


def done():
    return struct.pack('<IHHIIi', 20, NLMSG_DONE, NLM_F_MULTI, 0, 0, 0)


def error(e):
    return struct.pack('<IHHIIi', 36, 2, 0, 0, 0, e) + b'\0' * 16   # NLMSG_ERROR, request echo


def frame(dgrams):
    return b''.join(struct.pack('<H', len(d)) + d for d in dgrams)


def conversation(domains, table_error=0):
    """domains: (id, flags, cpus, [(perf, khz, uw), ...]); table_error: the tables' reply"""
    d = [msg(GENL_ID_CTRL, 0, 1, 2, attr(1, struct.pack('<H', FAM)) + u32(3, 1))]
    for pid, flags, cpus, _ in domains:
        a = u32(2, pid) + u64(3, flags) + b''.join(u64(4, c) for c in cpus)
        d.append(msg(FAM, NLM_F_MULTI, 1, 1, a))
    d.append(done())
    for pid, _, _, states in domains:
        if table_error:
            d.append(error(table_error))
            continue
        a = u32(1, pid)
        for perf, khz, uw in states:
            inner = u64(2, perf) + u64(3, khz) + u64(4, uw) + u64(5, uw * 10 // perf) + u64(6, 0)
            a += attr(2 | 0x8000, inner)
        d.append(msg(FAM, 0, 2, 1, a))
    return frame(d)


here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, 'seeds-netlink')
os.makedirs(out, exist_ok=True)
little = [(100, 500000, 30000), (200, 1000000, 80000), (300, 1500000, 160000)]
big = [(400, 800000, 150000), (700, 1400000, 400000), (1024, 2000000, 900000)]
with open(os.path.join(out, 'two-domains.bin'), 'wb') as f:
    f.write(conversation([(0, 1, [0, 1, 2, 3], little), (1, 3, [4, 5, 6, 7], big)]))
with open(os.path.join(out, 'gpu-and-cpu.bin'), 'wb') as f:
    f.write(conversation([(0, 1, [0, 1], little), (1, 1, [], [(1024, 600000, 500000)])]))
with open(os.path.join(out, 'table-error.bin'), 'wb') as f:   # -EINVAL for the table
    f.write(conversation([(0, 1, [0], little)], table_error=-22))
with open(os.path.join(out, 'no-domain.bin'), 'wb') as f:
    f.write(conversation([]))
