#!/usr/bin/env python3
"""Test bot: plays legal[0], but sleeps 0.6 s before answering its first request (over a short
time limit), so its first reply arrives late."""
import json
import time

from botlib import action, serve

first = True


def on_request(request):
    global first
    if first:
        first = False
        time.sleep(0.6)
    return json.dumps(action(request, request["legal"][0])) + "\n"


serve("slow-once", on_request)
