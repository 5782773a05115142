#!/usr/bin/env python3
"""Test bot: `dripper.py MODE THINK` plays legal[0] after THINK seconds and, as the red team's
dripper did, writes one byte per `write` — never more than the referee's budgets allow, so that
it plays exactly as it does quiet. The referee must pay a read per pace gap, not one per byte.

- `quiet`: writes nothing while it thinks (the same bot, silent);
- `stderr`: a byte at a time to stderr while it thinks, at most 64 KiB a decision;
- `thread`: a thread of its own writes a byte at a time to stderr for the whole life of the
  process (while the others think too), at most 256 KiB a second; the bot answers after THINK;
- `reply`: spaces a byte at a time to stdout while it thinks (at most 64 KiB: a line's start),
  then its reply a byte at a time, its newline last.
"""
import json
import os
import sys
import threading
import time

from botlib import action, serve

mode, think = sys.argv[1], float(sys.argv[2])
PER_DECISION = 64 << 10


def drip(fd, byte, until):
    """Writes `byte` one `write` at a time until `until` or PER_DECISION writes."""
    for _ in range(PER_DECISION):
        if time.monotonic() >= until:
            return
        os.write(fd, byte)


def drip_forever():
    while True:
        for _ in range(256):
            os.write(2, b"x")
        time.sleep(0.001)


def on_request(request):
    until = time.monotonic() + think
    reply = action(request, request["legal"][0])
    if mode == "stderr":
        drip(2, b"x", until)
    elif mode == "reply":
        drip(1, b" ", until)
        time.sleep(max(0.0, until - time.monotonic()))
        for byte in (json.dumps(reply) + "\n").encode():
            os.write(1, bytes([byte]))
        return None
    time.sleep(max(0.0, until - time.monotonic()))
    return reply


if mode == "thread":
    threading.Thread(target=drip_forever, daemon=True).start()
serve("dripper-" + mode, on_request)
