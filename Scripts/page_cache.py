#!/usr/bin/env python3
"""How many pages of each file the kernel's page cache holds (mincore on a mapping of it).

    python3 Scripts/page_cache.py FILE...                # "NAME: CACHED of PAGES pages cached"
    python3 Scripts/page_cache.py --below 1 FILE...      # exit 1 unless each has under 1 % cached

GeoNews leaves its indexes out of the page cache after an install (see docs/first-run.md): the
Debian package's test and Benchmarks/resolve/resident.sh check it with this.
"""
import argparse
import ctypes
import mmap
import os
import sys


def cached_pages(path):
    """(cached, pages) for the file at `path`."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
        if size == 0:
            return 0, 0
        addr = libc.mmap(None, ctypes.c_size_t(size), mmap.PROT_READ, mmap.MAP_PRIVATE, fd, 0)
        if addr in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), f"mmap of {path} failed")
        vector = (ctypes.c_ubyte * pages)()
        if libc.mincore(ctypes.c_void_p(addr), ctypes.c_size_t(size), vector) != 0:
            raise OSError(ctypes.get_errno(), f"mincore of {path} failed")
        libc.munmap(ctypes.c_void_p(addr), ctypes.c_size_t(size))
        return sum(v & 1 for v in vector), pages
    finally:
        os.close(fd)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--below", type=float, help="fail unless under this percentage of each file is cached")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    ok = True
    for path in args.files:
        cached, pages = cached_pages(path)
        print(f"{os.path.basename(path)}: {cached} of {pages} pages cached")
        if args.below is not None and cached * 100 >= args.below * max(pages, 1):
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
