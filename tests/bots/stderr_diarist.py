#!/usr/bin/env python3
"""Test bot: writes a line to stderr for each request, naming its match, and answers the second
request of each match with an action of the wrong shape (a `wrong_shape` fault, once per match;
everything else legal[0]). Deterministic, and the same in every match a process plays: what it
writes shows which match each part of its stderr file belongs to."""
import sys

from botlib import action, serve

state = {"match": None, "asked": 0}


def on_other(message):
    if message.get("type") == "match_start":
        state["match"] = message["match_id"]
        state["asked"] = 0


def on_request(request):
    state["asked"] += 1
    match = state["match"]
    print(f"diarist: match {match}, request {state['asked']}", file=sys.stderr, flush=True)
    if state["asked"] == 2:
        print(f"diarist: a bogus action in match {match}", file=sys.stderr, flush=True)
        return action(request, {"bogus": match})
    return action(request, request["legal"][0])


serve("stderr-diarist", on_request, on_other)
