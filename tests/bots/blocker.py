#!/usr/bin/env python3
"""Test bot: at its first two requests it blocks (sleeps, using no CPU) for 1.2 s, then burns
1.5 s of CPU at its third; it answers each with its first legal action, and every later
request at once. With a 1,000 ms limit on wall time the first two are timeouts; on CPU time
they are not (the wall-clock cap is 3 times the limit), and the third is."""
import time

from botlib import action, serve

asked = 0


def on_request(request):
    global asked
    asked += 1
    if asked <= 2:
        time.sleep(1.2)
    elif asked == 3:
        end = time.process_time() + 1.5
        while time.process_time() < end:
            pass
    return action(request, request["legal"][0])


serve("blocker", on_request)
