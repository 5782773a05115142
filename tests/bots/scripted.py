#!/usr/bin/env python3
"""Test bot: `scripted.py SCRIPT.json` plays the actions listed in SCRIPT.json, in order.

SCRIPT.json is a JSON list; each item is sent verbatim as the `action` of the next request (so a
script may hold illegal or wrongly shaped actions too). Once the list is exhausted the bot
answers `legal[0]`. It logs each decision, and every event and error it is told, to stderr
(`scripted: event {...}`, `scripted: error {...}`), so a test can read what the bot was told.
"""
import json
import sys

from botlib import action, serve

if len(sys.argv) != 2:
    sys.exit("usage: scripted.py SCRIPT.json")
with open(sys.argv[1]) as f:
    script = json.load(f)
step = 0


def on_request(request):
    global step
    if step < len(script):
        act, source = script[step], f"script[{step}]"
    else:
        act, source = request["legal"][0], "legal[0]"
    step += 1
    print(f"scripted: request {request['id']} ({request['phase']}): {source} = {json.dumps(act)}",
          file=sys.stderr, flush=True)
    return action(request, act)


def on_other(message):
    if message["type"] in ("event", "error"):
        shown = message["event"] if message["type"] == "event" else message
        print(f"scripted: {message['type']} {json.dumps(shown)}", file=sys.stderr, flush=True)


serve("scripted", on_request, on_other)
