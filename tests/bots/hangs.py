#!/usr/bin/env python3
"""Test bot: plays legal[0] for its first 4 requests, then at the 5th request sleeps forever
(without burning CPU), never answering."""
import sys
import time

from botlib import action, serve

answered = 0


def on_request(request):
    global answered
    if answered == 4:
        print(f"hangs: hanging at request {request['id']}", file=sys.stderr, flush=True)
        while True:
            time.sleep(3600)
    answered += 1
    return action(request, request["legal"][0])


serve("hangs", on_request)
