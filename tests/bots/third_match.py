#!/usr/bin/env python3
"""Test bot: plays legal[0], and at the first request of its third match (where the check's probes
come later) misbehaves by MODE: `debug` prints a debug line to stdout before its answer,
`slow` answers after 0.5 s."""
import sys
import time

from botlib import action, serve

MODE = sys.argv[1]
state = {"matches": 0, "asked": 0}


def on_request(request):
    state["asked"] += 1
    if state["matches"] == 3 and state["asked"] == 1:
        if MODE == "debug":
            print("debug: match 3 begins", flush=True)
        else:
            time.sleep(0.5)
    return action(request, request["legal"][0])


def on_other(message):
    if message.get("type") == "match_start":
        state["matches"] += 1
        state["asked"] = 0


serve("third-match", on_request, on_other)
