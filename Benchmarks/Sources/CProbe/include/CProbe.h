// What Probe needs from C: malloc's count of bytes in use (glibc's mallinfo2, which Swift's Glibc
// module does not export) and callgrind's client requests (valgrind's own header, installed with
// valgrind: `make bench-deps`), which mark the phases whose instructions are counted. Outside
// valgrind a client request is a few instructions that do nothing.
#pragma once
#include <stddef.h>
#if defined(__linux__)
#include <malloc.h>
#endif
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CPROBE_CALLGRIND 1
#else
#define CPROBE_CALLGRIND 0
#endif

/// Bytes of the blocks malloc has handed out and not taken back, with their headers.
static inline size_t cprobe_heap_bytes_in_use(void) {
#if defined(__linux__)
    return mallinfo2().uordblks;
#else
    return 0;
#endif
}

/// Whether Probe was built with callgrind's client requests.
static inline int cprobe_has_callgrind(void) { return CPROBE_CALLGRIND; }

/// Callgrind: sets the counts to zero (what ran before is not counted).
static inline void cprobe_callgrind_zero(void) {
#if CPROBE_CALLGRIND
    CALLGRIND_ZERO_STATS;
#endif
}

/// Callgrind: writes the counts since the last zero or dump as one more profile, then zeroes them.
static inline void cprobe_callgrind_dump(const char *reason) {
#if CPROBE_CALLGRIND
    CALLGRIND_DUMP_STATS_AT(reason);
#else
    (void)reason;
#endif
}
