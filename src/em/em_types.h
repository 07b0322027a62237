/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * em_types.h - the integer types shared by native and BPF builds of the BPF-safe headers
 * (src/em/em_model.h, src/policy/).  In BPF the kernel's vmlinux.h provides u8..u64, s32, s64
 * and bool; natively we define the same names.
 */
#ifndef GEARBOX_EM_TYPES_H
#define GEARBOX_EM_TYPES_H

#if defined(__bpf__) || defined(__BPF__)
/* vmlinux.h is included by the BPF program before this header. */
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#else
#include <stdbool.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#endif

#endif /* GEARBOX_EM_TYPES_H */
