#include "CRxThreads.h"

__thread void *_Nullable crx_thread_slots[CRX_THREAD_SLOTS];
