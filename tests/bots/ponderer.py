#!/usr/bin/env python3
"""Test bot: ponders off move. At its first request it starts a thread that watches the
monotonic clock in a tight loop and counts the gaps of over 250 ms it sees — moments when none
of its threads ran. At each request it writes `gaps N` to stderr and answers at once. Under turn
isolation the referee freezes it while others are on move, so it sees a gap at each of their
slow turns; otherwise it runs on."""
import sys
import threading
import time

from botlib import action, serve

GAP = 0.25
gaps = 0


def watch():
    global gaps
    last = time.monotonic()
    while True:
        now = time.monotonic()
        if now - last > GAP:
            gaps += 1
        last = now


started = False


def on_request(request):
    global started
    if not started:
        started = True
        threading.Thread(target=watch, daemon=True).start()
    sys.stderr.write(f"gaps {gaps}\n")
    sys.stderr.flush()
    return action(request, request["legal"][0])


serve("ponderer", on_request)
