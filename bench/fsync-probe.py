#!/usr/bin/env python3
"""What one small write + fdatasync costs on a file system, by how the file's blocks were made.

A WAL's group commit pays this once per sync. Prints wall and CPU (user+sys of this process)
microseconds per write+fdatasync for: a file that grows with each write ("append"); one whose
blocks were allocated without changing its size (fallocate KEEP_SIZE, RocksDB's WAL preallocation:
"keepsize"); one allocated with its size set ("fallocate"); and one whose blocks were written before
("overwrite", what a recycled WAL file is).

usage: bench/fsync-probe.py DIR [N writes, default 2000] [rounds, default 1]
Writes and removes files named fs-* in DIR (put DIR on the disk the data directory will use).
"""
import ctypes
import os
import sys
import time

RECORD = b"x" * 700  # about one SendMessageBatch's WAL record
libc = ctypes.CDLL("libc.so.6", use_errno=True)
FALLOC_FL_KEEP_SIZE = 1


def run(directory, n, name, prepare):
    path = os.path.join(directory, "fs-" + name)
    if os.path.exists(path):
        os.remove(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        prepare(fd, n)
        os.lseek(fd, 0, os.SEEK_SET)
        wall0, cpu0 = time.perf_counter(), time.process_time()
        for _ in range(n):
            os.write(fd, RECORD)
            os.fdatasync(fd)
        wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    finally:
        os.close(fd)
        os.remove(path)
    print(f"{name:10s} {1e6 * wall / n:8.1f} us/op wall {1e6 * cpu / n:8.1f} us/op cpu")


def grow(fd, n):
    pass


def keep_size(fd, n):
    if libc.fallocate(fd, FALLOC_FL_KEEP_SIZE, ctypes.c_long(0), ctypes.c_long(64 << 20)) != 0:
        raise OSError(ctypes.get_errno(), "fallocate")


def allocate(fd, n):
    os.posix_fallocate(fd, 0, 64 << 20)


def prewrite(fd, n):
    os.write(fd, b"\0" * (n * len(RECORD) + 4096))
    os.fsync(fd)


def main():
    directory = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    for _ in range(rounds):
        for name, prepare in (("append", grow), ("keepsize", keep_size), ("fallocate", allocate),
                              ("overwrite", prewrite)):
            run(directory, n, name, prepare)


if __name__ == "__main__":
    main()
