// Thread-local slots for RxCore, read with a plain TLS load.
//
// Swift has no thread-local variables of its own; `pthread_getspecific` is a library call.
// RxCore reads its per-thread state (the CurrentThreadScheduler trampoline, the trace layer's
// thread state) on every subscription, so it keeps those pointers in a C `__thread` array and
// reads them through these inline functions, which the compiler turns into one load.
// Ownership stays with RxCore's `ThreadLocal`, which also registers a pthread key whose
// destructor releases the object when the thread exits.
#ifndef CRX_THREADS_H
#define CRX_THREADS_H

#define CRX_THREAD_SLOTS 4

extern __thread void *_Nullable crx_thread_slots[CRX_THREAD_SLOTS];

static inline void *_Nullable crx_thread_slot(int index) {
    return crx_thread_slots[index];
}

static inline void crx_set_thread_slot(int index, void *_Nullable value) {
    crx_thread_slots[index] = value;
}

#endif
