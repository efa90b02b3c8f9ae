// Hints to the caches. A batch lookup asks the processor for the next slot of many rows'
// descents before it reads any of them, so that their waits on memory overlap; a batch
// output asks the kernel to start writing what it has written so far.
#ifndef GEONEWS_MEMORY_HINTS_H
#define GEONEWS_MEMORY_HINTS_H

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

// Starts fetching the cache line that holds `address` for reading, into every cache level.
// Never faults: an address outside any mapping is ignored.
static inline void geonews_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

// Starts writing the file's dirty pages in [offset, offset + length) to its disk and returns
// without waiting for them (sync_file_range with SYNC_FILE_RANGE_WRITE, which Glibc declares
// only for _GNU_SOURCE). Returns 0, or -1 with errno set; elsewhere than Linux, does nothing.
static inline int geonews_write_behind(int fd, long long offset, long long length) {
#if defined(__linux__) && defined(SYS_sync_file_range)
    return (int)syscall(SYS_sync_file_range, fd, offset, length, 2 /* SYNC_FILE_RANGE_WRITE */);
#else
    (void)fd;
    (void)offset;
    (void)length;
    return 0;
#endif
}

#endif
