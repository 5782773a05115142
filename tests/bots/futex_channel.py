#!/usr/bin/env python3
"""Test bot: a covert channel through futexes on a page of a file that every sandbox maps (this
script itself, through the read-only view). A shared futex on a file's page is keyed by the file,
not by the process: one process's FUTEX_WAKE wakes another's wait on the same file, across
sandboxes and uids. The referee's filter refuses shared wakes (docs/security.md).

  futex_channel.py send BITS     wakes word 0 or word 1 of the page for each bit, and waits for
                                 the receiver's acknowledgement on word 2;
  futex_channel.py receive N     waits on words 0 and 1 at once (futex_waitv): the word woken is
                                 the bit; then wakes word 2.

Either plays legal[0] and writes one line to stderr at its first request, "futex-report " and
JSON: the bits it sent or received, and the errors its calls got. With --plain it runs the channel at once,
without the protocol, and prints the JSON on stdout (the control, without the referee).
"""
import ctypes
import json
import mmap
import os
import sys
import threading
import time

from botlib import action, serve

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SYS_FUTEX = 202 if os.uname().machine == "x86_64" else 98
SYS_FUTEX_WAITV = 449
FUTEX_WAIT, FUTEX_WAKE = 0, 1
FUTEX2_SIZE_U32 = 2
CLOCK_MONOTONIC = 1
# How long the channel runs at most: longer as the control, without the referee (where it
# finishes at once), than in a match (where the bot's first answer waits for it).
SECONDS = {"plain": 20.0, "bot": 4.0}


class Timespec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]


class Waitv(ctypes.Structure):
    _fields_ = [("val", ctypes.c_uint64), ("uaddr", ctypes.c_uint64),
                ("flags", ctypes.c_uint32), ("reserved", ctypes.c_uint32)]


def page():
    """This file mapped read-only and shared: the addresses of words 0, 1 and 2, and their values."""
    fd = os.open(os.path.abspath(__file__), os.O_RDONLY)
    mapped = mmap.mmap(fd, 0, mmap.MAP_SHARED, mmap.PROT_READ)
    # CPython's mmap object: the object's header (a reference count and a type), then the
    # address of the mapping. A read-only mapping gives ctypes no buffer to take it from.
    address = ctypes.c_void_p.from_address(id(mapped) + 2 * ctypes.sizeof(ctypes.c_void_p)).value
    words = [address + 4 * i for i in range(3)]
    values = [int.from_bytes(mapped[4 * i:4 * i + 4], "little") for i in range(3)]
    return mapped, words, values


class Channel:
    def __init__(self):
        self.mapped, self.words, self.values = page()
        self.errors = {}

    def call(self, *args):
        rc = libc.syscall(*args)
        if rc < 0:
            e = ctypes.get_errno()
            self.errors[str(e)] = self.errors.get(str(e), 0) + 1
        return rc

    def wake(self, word):
        return self.call(SYS_FUTEX, ctypes.c_void_p(self.words[word]), FUTEX_WAKE, 1,
                         None, None, 0)

    def wait(self, word, seconds):
        timeout = Timespec(int(seconds), int(seconds % 1 * 1e9))
        return self.call(SYS_FUTEX, ctypes.c_void_p(self.words[word]), FUTEX_WAIT,
                         ctypes.c_uint(self.values[word]), ctypes.byref(timeout), None, 0)

    def send(self, bits, deadline):
        sent = 0
        for bit in bits:
            while self.wake(int(bit)) != 1:
                if time.monotonic() > deadline:
                    return sent
            while self.wait(2, 0.2) != 0:
                if time.monotonic() > deadline:
                    return sent
            sent += 1
        return sent

    def receive(self, n, deadline):
        waiters = (Waitv * 2)(*[Waitv(self.values[i], self.words[i], FUTEX2_SIZE_U32, 0)
                                for i in range(2)])
        bits = ""
        while len(bits) < n and time.monotonic() < deadline:
            now = time.clock_gettime(CLOCK_MONOTONIC) + 0.5
            timeout = Timespec(int(now), int(now % 1 * 1e9))
            woken = self.call(SYS_FUTEX_WAITV, waiters, 2, 0, ctypes.byref(timeout),
                              CLOCK_MONOTONIC)
            if woken < 0:
                continue
            bits += str(woken)
            while self.wake(2) != 1 and time.monotonic() < deadline:
                pass
        return bits


def run(mode, arg, seconds):
    channel = Channel()
    deadline = time.monotonic() + seconds
    if mode == "send":
        report = {"sent": channel.send(arg, deadline)}
    else:
        report = {"received": channel.receive(int(arg), deadline)}
    report["errors"] = channel.errors
    return report


def main():
    args = [a for a in sys.argv[1:] if a != "--plain"]
    mode, arg = args[0], args[1]
    if "--plain" in sys.argv:
        print(json.dumps(run(mode, arg, SECONDS["plain"])), flush=True)
        return
    # The channel runs from the start, beside the handshake; the report is written at the
    # bot's first request, once the channel is done (the test gives the match a long limit).
    result = {}
    worker = threading.Thread(target=lambda: result.update(run(mode, arg, SECONDS["bot"])),
                              daemon=True)
    worker.start()
    reported = []

    def on_request(request):
        if not reported:
            worker.join(SECONDS["bot"] + 1)
            sys.stderr.write("futex-report " + json.dumps(result) + "\n")
            sys.stderr.flush()
            reported.append(True)
        return action(request, request["legal"][0])

    serve("futex-" + mode, on_request)


if __name__ == "__main__":
    main()
