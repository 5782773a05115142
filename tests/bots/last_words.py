#!/usr/bin/env python3
"""Test bot: plays legal[0], and misbehaves at the end of a match or of its input, by MODE:

- `quit N`: exits with code 3 when match N ends (at its match_end), before goodbye;
- `crash-on-goodbye`: raises on goodbye (a traceback on stderr, exit code 1);
- `print-on-goodbye`: writes "bye" to stdout on goodbye, then exits;
- `print-after-answers N`: writes "done" to stdout right after each of its answers in match N,
  the last one included (that one comes after its last request of the match);
- `spin-at-eof`: exits on goodbye, but when its input ends without goodbye it spins forever.
"""
import json
import sys

from botlib import action, serve

MODE = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 0
matches = [0]


def on_request(request):
    reply = json.dumps(action(request, request["legal"][0])) + "\n"
    if MODE == "print-after-answers" and matches[0] == N:
        reply += "done\n"
    return reply


def on_other(message):
    kind = message.get("type")
    if kind == "match_start":
        matches[0] += 1
    elif kind == "match_end" and MODE == "quit" and matches[0] == N:
        sys.exit(3)


def on_goodbye():
    if MODE == "crash-on-goodbye":
        raise RuntimeError("goodbye is not a message I know")
    if MODE == "print-on-goodbye":
        print("bye", flush=True)


if not serve("last-words", on_request, on_other, on_goodbye=on_goodbye) and MODE == "spin-at-eof":
    while True:
        pass
