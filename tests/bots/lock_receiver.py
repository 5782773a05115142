#!/usr/bin/env python3
"""Test bot: a colluder that reads a secret over file locks (see lockchan.py) and plays
legal[0]. At each of its requests it probes every carrier file under the directory argv[1], by
every kind of lock, and decodes: for each kind, the integer whose bit i is set when file i is
held, or null when a probe failed. It also tries to watch a carrier with inotify (whose events
show another bot's opens). It writes {"decoded": {kind: int or null}, "held": {kind: count},
"errors": {kind: [errno...]}, "inotify": "ok" or an errno, "probes": n} to
receiver-report.json in its working directory after every probe."""
import ctypes
import fcntl
import os
import sys

from botlib import action, serve
from lockchan import CHANNELS, carriers, flock_struct, lock_type, write_report

files = carriers(sys.argv[1])
probes = 0


def held_by_flock(fd):
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    fcntl.flock(fd, fcntl.LOCK_UN)
    return False


def held_by(command):
    def probe(fd):
        asked = fcntl.fcntl(fd, command, flock_struct(fcntl.F_WRLCK))
        return lock_type(asked) != fcntl.F_UNLCK
    return probe


PROBES = {"flock": held_by_flock, "posix": held_by(fcntl.F_GETLK), "ofd": held_by(fcntl.F_OFD_GETLK)}


def inotify():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(0)
    if fd < 0:
        return str(ctypes.get_errno())
    os.close(fd)
    return "ok"


def probe_all():
    global probes
    probes += 1
    report = {"decoded": {}, "held": {}, "errors": {}, "inotify": inotify(), "probes": probes}
    for kind in CHANNELS:
        value, held, errs = 0, 0, []
        for bit, path in enumerate(files):
            fd = os.open(path, os.O_RDONLY)
            try:
                if PROBES[kind](fd):
                    value |= 1 << bit
                    held += 1
            except OSError as e:
                errs.append(e.errno)
            finally:
                os.close(fd)
        report["decoded"][kind] = None if errs else value
        report["held"][kind] = held
        report["errors"][kind] = sorted(set(errs))
    write_report("receiver-report.json", report)


def on_request(request):
    probe_all()
    return action(request, request["legal"][0])


serve("lock-receiver", on_request)
