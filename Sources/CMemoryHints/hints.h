// Hints to the processor's caches. A batch lookup asks for the next slot of many rows'
// descents before it reads any of them, so that their waits on memory overlap.
#ifndef GEONEWS_MEMORY_HINTS_H
#define GEONEWS_MEMORY_HINTS_H

// Starts fetching the cache line that holds `address` for reading, into every cache level.
// Never faults: an address outside any mapping is ignored.
static inline void geonews_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
