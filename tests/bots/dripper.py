#!/usr/bin/env python3
"""Test bot: `dripper.py MODE THINK` plays legal[0] after THINK seconds and, as the red team's
dripper did, writes one byte per `write` while it thinks, in runs of 256 writes a millisecond
apart, never more than the referee's budgets allow (and its whole stderr within the 1 MiB of a
stderr file), so that it plays exactly as it does quiet. The referee must pay a read per pace
gap, not one per byte.

- `quiet`: writes nothing while it thinks (the same bot, silent);
- `stderr`: at request ID, the line `ID:xx…x:COUNT` to stderr, COUNT the number of x (at most
  32 KiB), a byte a write: a reader that lost or reordered a byte sees a line that does not add
  up;
- `reply`: up to 256 KiB of spaces to stdout (the start of its reply's line), then its reply, its
  newline last, a byte a write; then the number of spaces it wrote, in one write, to stderr.
"""
import json
import os
import sys
import time

from botlib import action, serve

mode, think = sys.argv[1], float(sys.argv[2])
RUN = 256


def drip(fd, data):
    """Writes `data` one byte per `write`, RUN writes a millisecond."""
    for i in range(len(data)):
        os.write(fd, data[i : i + 1])
        if i % RUN == RUN - 1:
            time.sleep(0.001)


def drip_until(fd, byte, until, most):
    """Writes `byte` one `write` at a time, as `drip` does, until `until` or `most` writes;
    returns how many it wrote."""
    count = 0
    while count < most and time.monotonic() < until:
        drip(fd, byte * RUN)
        count += RUN
    return count


def on_request(request):
    until = time.monotonic() + think
    reply = action(request, request["legal"][0])
    if mode == "stderr":
        drip(2, f"{request['id']}:".encode())
        count = drip_until(2, b"x", until, 32 << 10)
        drip(2, f":{count}\n".encode())
    elif mode == "reply":
        count = drip_until(1, b" ", until, 256 << 10)
        drip(1, (json.dumps(reply) + "\n").encode())
        os.write(2, f"{count}\n".encode())
        return None
    time.sleep(max(0.0, until - time.monotonic()))
    return reply


serve("dripper-" + mode, on_request)
