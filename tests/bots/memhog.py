#!/usr/bin/env python3
"""Test bot: at its first request allocates memory without bound: 16 MiB chunks, every page
touched, with the running total on stderr every 256 MiB. It stops at 16 GiB and sleeps forever
(the referee's memory limit should kill it long before). On MemoryError it prints
"memhog: MemoryError at N MiB" to stderr and exits with code 1. Never answers."""
import sys
import time

from botlib import serve

CHUNK = 16 << 20
PAGE = 4096
CAP = 16 << 30


def on_request(request):
    chunks = []
    total = 0
    try:
        while total < CAP:
            block = bytearray(CHUNK)
            block[::PAGE] = b"\x01" * (CHUNK // PAGE)  # touch every page
            chunks.append(block)
            total += CHUNK
            if total % (256 << 20) == 0:
                print(f"memhog: {total >> 20} MiB", file=sys.stderr, flush=True)
    except MemoryError:
        chunks.clear()
        print(f"memhog: MemoryError at {total >> 20} MiB", file=sys.stderr, flush=True)
        raise SystemExit(1)
    print(f"memhog: reached the {CAP >> 20} MiB cap; sleeping forever", file=sys.stderr,
          flush=True)
    while True:
        time.sleep(3600)


serve("memhog", on_request)
