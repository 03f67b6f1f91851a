// Thread-local slots for RxCore, read with a plain TLS load; and the CPU's counter (below).
//
// Swift has no thread-local variables of its own; `pthread_getspecific` is a library call.
// RxCore reads its per-thread state (the CurrentThreadScheduler trampoline, the trace layer's
// thread state) on every subscription, so it keeps those pointers in a C `__thread` array and
// reads them through these inline functions, which the compiler turns into one load.
// Ownership stays with RxCore's `ThreadLocal`, which also registers a pthread key whose
// destructor releases the object when the thread exits.
#ifndef CRX_THREADS_H
#define CRX_THREADS_H

#include <stdint.h>

#define CRX_THREAD_SLOTS 4

extern __thread void *_Nullable crx_thread_slots[CRX_THREAD_SLOTS];

static inline void *_Nullable crx_thread_slot(int index) {
    return crx_thread_slots[index];
}

static inline void crx_set_thread_slot(int index, void *_Nullable value) {
    crx_thread_slots[index] = value;
}

// The CPU's own counter, for the trace layer's event times (`EventClock`).
//
// `clock_gettime(CLOCK_MONOTONIC)` goes through the vDSO: it reads this same counter and scales
// it, which costs two to three times the read itself, and a traced pipeline reads the clock once
// an element. RxCore keeps the raw count in each record and turns it into nanoseconds only when a
// recording is read. Whether the count is a sound clock (the same rate on every CPU, never
// stopping or jumping) is for Swift to decide, from the clocksource the kernel itself uses:
// these functions only read.

/// Whether this CPU has a counter `crx_cycle_counter` reads (x86_64 and aarch64).
static inline int crx_has_cycle_counter(void) {
#if defined(__x86_64__) || defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}

/// The counter: x86_64's time-stamp counter (`rdtsc`), aarch64's virtual count (`cntvct_el0`,
/// after an `isb` so that the read is not taken ahead of the code before it); 0 elsewhere.
static inline uint64_t crx_cycle_counter(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    uint64_t value;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(value));
    return value;
#else
    return 0;
#endif
}

#endif
