#!/usr/bin/env python3
"""Test bot: plays legal[0] for its first 5 requests, then raises an exception (exit code 1 with a
traceback on stderr)."""
from botlib import action, serve

answered = 0


def on_request(request):
    global answered
    if answered == 5:
        raise RuntimeError(f"crasher: deliberate crash at request {request['id']}")
    answered += 1
    return action(request, request["legal"][0])


serve("crasher", on_request)
