#!/usr/bin/env python3
"""Test bot: `slow_once.py [SECONDS]` plays legal[0], but sleeps SECONDS (default 0.45) before
answering its first request, so that reply, and with a long enough sleep the next ones, come
late."""
import json
import sys
import time

from botlib import action, serve

pause = float(sys.argv[1]) if len(sys.argv) > 1 else 0.45
first = True


def on_request(request):
    global first
    if first:
        first = False
        time.sleep(pause)
    return json.dumps(action(request, request["legal"][0])) + "\n"


serve("slow-once", on_request)
