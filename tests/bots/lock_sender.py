#!/usr/bin/env python3
"""Test bot: a colluder that sends a secret over file locks (see lockchan.py) and plays
legal[0]. Before it answers hello it takes a lock, of every kind, on each carrier file of a bit
set in the secret (argv[2], an integer) under the directory argv[1], and holds them to the end.
It writes {"taken": {kind: count}, "errors": {kind: [errno...]}} to sender-report.json in its
working directory."""
import fcntl
import os
import sys

from botlib import action, serve
from lockchan import carriers, flock_struct, write_report

held = []  # every descriptor stays open: closing one would drop its locks
taken = {"flock": 0, "posix": 0, "ofd": 0, "lease": 0}
errors = {kind: [] for kind in taken}


def attempt(kind, path, lock):
    fd = os.open(path, os.O_RDONLY)
    held.append(fd)
    try:
        lock(fd)
        taken[kind] += 1
    except OSError as e:
        errors[kind].append(e.errno)


secret = int(sys.argv[2])
files = carriers(sys.argv[1])
for bit, path in enumerate(files):
    if secret >> bit & 1:
        attempt("flock", path, lambda fd: fcntl.flock(fd, fcntl.LOCK_SH))
        attempt("posix", path, lambda fd: fcntl.fcntl(fd, fcntl.F_SETLK, flock_struct(fcntl.F_RDLCK)))
        attempt("ofd", path, lambda fd: fcntl.fcntl(fd, fcntl.F_OFD_SETLK, flock_struct(fcntl.F_RDLCK)))
        attempt("lease", path, lambda fd: fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK))
write_report("sender-report.json", {"files": len(files), "taken": taken, "errors": errors})
serve("lock-sender", lambda request: action(request, request["legal"][0]))
