#!/usr/bin/env python3
"""Test bot: reads exactly one line (the hello, byte by byte from fd 0 so that nothing more is
consumed), answers it, then never reads its input again and sleeps forever: the referee's
writes fill the pipe."""
import os
import time

from botlib import record_pid, send

record_pid()
while os.read(0, 1) not in (b"\n", b""):
    pass
send({"type": "hello", "name": "deaf", "protocol": 1})
while True:
    time.sleep(3600)
