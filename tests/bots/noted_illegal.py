#!/usr/bin/env python3
"""Test bot: writes a line to stderr as it starts (before its hello) and one at each request,
and answers every request with an illegal action (a table that does not exist)."""
import sys

from botlib import action, serve

print("noted-illegal: loading at start", file=sys.stderr, flush=True)

ILLEGAL = {
    "chip": {"table": 999},
    "card": {"card": "raise", "table": 999},
    "move": {"steps": 9},
}


def on_request(request):
    print(f"noted-illegal: request {request['id']}", file=sys.stderr, flush=True)
    return action(request, ILLEGAL[request["phase"]])


serve("noted-illegal", on_request)
