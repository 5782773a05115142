#!/usr/bin/env python3
"""Test bot: `filler.py COUNT MIB` fills its disk at its first request: it writes COUNT files of
MIB MiB each (`fill-N.bin`, 1 MiB at a time, unbuffered) in its working directory, or in /tmp if
that cannot be written, as fast as it can, printing `filler: writing DIR` and, after each file,
`filler: N MiB` to stderr. When a write fails (ENOSPC in the sandbox's capped /tmp) it prints
`filler: <error> after N MiB` and stops writing. Then it plays legal[0], at that request and
every later one: all it does wrong is fill the disk."""
import os
import sys

from botlib import action, serve

COUNT = int(sys.argv[1])
MIB = int(sys.argv[2])
CHUNK = b"f" * (1 << 20)
filled = False


def directory():
    here = os.getcwd()
    return here if os.access(here, os.W_OK) else "/tmp"


def fill():
    where = directory()
    print(f"filler: writing {where}", file=sys.stderr, flush=True)
    written = 0
    try:
        for n in range(COUNT):
            with open(os.path.join(where, f"fill-{n}.bin"), "wb", buffering=0) as out:
                for _ in range(MIB):
                    view = memoryview(CHUNK)
                    while view:  # unbuffered: a short write leaves the rest to write
                        done = out.write(view)
                        written += done
                        view = view[done:]
            print(f"filler: {written >> 20} MiB", file=sys.stderr, flush=True)
    except OSError as error:
        print(f"filler: {error} after {written >> 20} MiB", file=sys.stderr, flush=True)


def on_request(request):
    global filled
    if not filled:
        filled = True
        fill()
    return action(request, request["legal"][0])


serve("filler", on_request)
