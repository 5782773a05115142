#!/usr/bin/env python3
"""Test bot: answers hello and plays legal[0] for 2 requests, then closes its stdout (fd 1) and
keeps running: it reads and discards its input until end of input, then sleeps forever, so it
stays alive until killed."""
import os
import sys
import time

from botlib import action, send, serve

answered = 0


def on_request(request):
    global answered
    send(action(request, request["legal"][0]))
    answered += 1
    if answered == 2:
        sys.stdout.flush()
        os.close(1)
        sys.stdout = open(os.devnull, "w")
        print("closes_stdout: closed stdout, still running", file=sys.stderr, flush=True)
        for _line in sys.stdin:
            pass
        while True:
            time.sleep(3600)
    return None


serve("closes-stdout", on_request)
