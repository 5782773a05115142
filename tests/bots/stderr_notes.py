#!/usr/bin/env python3
"""Test bot: plays legal[0] (a draw where the game lists no actions), and writes a note to
stderr as a bot author debugging it would: one line at each match_start, and one line per
request, flushed before its reply."""
import sys

from botlib import action, serve


def note(text):
    print(f"notes: {text}", file=sys.stderr, flush=True)


def on_request(request):
    note(f"request {request['id']} in the {request['phase']} phase")
    legal = request.get("legal")
    return action(request, legal[0] if legal else {"draw": True})


def on_other(message):
    if message.get("type") == "match_start":
        note(f"match {message['match_id']} starts, seat {message['seat']}")


serve("stderr-notes", on_request, on_other)
