#!/usr/bin/env python3
"""Test bot: at its first request writes an ever-growing file `bigfile.out` in $ZOO_DIR (default:
a new directory under /tmp, removed when it stops, never the working directory, which may be a
repository), 1 MiB at a time, up to 4 GiB, with
progress on stderr every 64 MiB; then sleeps forever. Never answers. When a write fails (EFBIG
"File too large" under a file-size limit: Python ignores SIGXFSZ, so the write raises) it prints
"bigfile: <error> after N MiB" to stderr and exits with code 1."""
import os
import shutil
import sys
import tempfile
import time

from botlib import serve

CHUNK = b"b" * (1 << 20)
CAP = 4 << 30


def open_output():
    directory = os.environ.get("ZOO_DIR") or tempfile.mkdtemp(prefix="bigfile-")
    return open(os.path.join(directory, "bigfile.out"), "wb", buffering=0)


def on_request(request):
    written = 0
    try:
        out = open_output()
        print(f"bigfile: writing {out.name}", file=sys.stderr, flush=True)
        while written < CAP:
            view = memoryview(CHUNK)
            while view:  # unbuffered: a short write leaves the rest to write
                n = out.write(view)
                written += n
                view = view[n:]
            if written % (64 << 20) == 0:
                print(f"bigfile: {written >> 20} MiB", file=sys.stderr, flush=True)
    except OSError as error:
        print(f"bigfile: {error} after {written >> 20} MiB", file=sys.stderr, flush=True)
        if not os.environ.get("ZOO_DIR"):
            # Its own directory: nobody looks at the file, so it goes.
            shutil.rmtree(os.path.dirname(out.name), ignore_errors=True)
        sys.exit(1)
    print(f"bigfile: reached {CAP >> 20} MiB; sleeping forever", file=sys.stderr, flush=True)
    while True:
        time.sleep(3600)


serve("bigfile", on_request)
