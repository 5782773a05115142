#!/usr/bin/env python3
"""Test bot: at every request writes blank lines as fast as it can for the whole time it is given
(`time_left_ms`), then answers with legal[0]. Blank lines cost the referee nothing to skip, but past
a small allowance per request they are one fault: the referee plays for the bot at once, stops
reading, and the flood waits in a full pipe."""
import sys
import time

from botlib import action, serve

CHUNK = "\n" * 65536


def on_request(request):
    until = time.monotonic() + request["time_left_ms"] / 1000
    while time.monotonic() < until:
        sys.stdout.write(CHUNK)
        sys.stdout.flush()
    return action(request, request["legal"][0])


serve("blank-flood", on_request)
