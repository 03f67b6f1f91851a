#include <malloc.h>

/// Bytes in use in glibc's heap, counted in whole blocks (a request plus its header, rounded up).
static inline size_t probe_bytes_in_use(void) { return mallinfo2().uordblks; }
