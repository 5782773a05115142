#!/usr/bin/env python3
"""Test bot: plays legal[0], but waits 20 ms before each read of its stdin (a slow reader). A line
written to it during those 20 ms sits in its pipe, where a process that can open the pipe
through /proc/PID/fd/0 takes it first: the victim of the spy test."""
import json
import os
import time

from botlib import action, record_pid, send

record_pid()
pending = b""
while True:
    time.sleep(0.02)
    data = os.read(0, 65536)
    if not data:
        break
    pending += data
    *lines, pending = pending.split(b"\n")
    for line in lines:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "lazy-reader", "protocol": 1})
        elif kind == "request":
            send(action(message, message["legal"][0]))
        elif kind == "goodbye":
            raise SystemExit(0)
