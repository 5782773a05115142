#!/usr/bin/env python3
"""Test bot: at its first request writes 100 MiB of 'x' to stdout with no newline, in 1 MiB chunks
flushed one by one, then sleeps forever. If the pipe breaks (the referee stopped reading and
closed it) it exits quietly with code 0."""
import os
import sys
import time

from botlib import serve

CHUNK = b"x" * (1 << 20)


def on_request(request):
    out = sys.stdout.buffer
    try:
        for _ in range(100):
            out.write(CHUNK)
            out.flush()
    except BrokenPipeError:
        os._exit(0)
    print("hugeline: wrote 100 MiB without a newline; sleeping forever", file=sys.stderr,
          flush=True)
    while True:
        time.sleep(3600)


serve("hugeline", on_request)
