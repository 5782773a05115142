#!/usr/bin/env python3
"""Test bot: plays legal[0], and at the first request of its third match (where the check's probes
come later) misbehaves by MODE: `debug` prints a debug line to stdout before its answer, `slow`
answers only once the referee has moved on — it reads on until its next request has come (written
only after the first one timed out) and then answers both, the first one late whatever the time
limit."""
import json
import sys

from botlib import action, serve

MODE = sys.argv[1]
state = {"matches": 0, "asked": 0}


def on_request(request):
    state["asked"] += 1
    if state["matches"] == 3 and state["asked"] == 1:
        if MODE == "debug":
            print("debug: match 3 begins", flush=True)
        else:
            asked = [request]
            while len(asked) < 2:
                line = sys.stdin.readline()
                if not line:
                    break
                if line.strip() and json.loads(line).get("type") == "request":
                    asked.append(json.loads(line))
            state["asked"] += len(asked) - 1
            return "".join(json.dumps(action(r, r["legal"][0])) + "\n" for r in asked)
    return action(request, request["legal"][0])


def on_other(message):
    if message.get("type") == "match_start":
        state["matches"] += 1
        state["asked"] = 0


serve("third-match", on_request, on_other)
