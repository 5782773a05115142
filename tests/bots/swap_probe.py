#!/usr/bin/env python3
"""Test bot: a bot whose author swaps its workdir after the run has started. At each start it
says on stderr where it runs and what it finds there (a results directory's tournament.json, and
the seed in it), and tries to append to a matches.jsonl there; at its first start (no `released`
in its directory) it writes `waiting` and waits until the test has swapped the directory's name
and written `released` in it. It plays legal[0] and exits at match_end, so that the pool starts
it again for the next match."""
import json
import os
import sys
import time

from botlib import action, serve

cwd = os.getcwd()
if not os.path.exists("released"):
    with open("waiting", "w") as f:
        f.write("waiting\n")
    deadline = time.monotonic() + 300
    while not os.path.exists("released") and time.monotonic() < deadline:
        time.sleep(0.01)
try:
    listing = sorted(os.listdir("."))
except OSError as e:
    listing = str(e)
try:
    seed = json.load(open("tournament.json"))["seed"]
except Exception as e:
    seed = type(e).__name__
try:
    with open("matches.jsonl", "a") as f:
        f.write('{"forged": true}\n')
    wrote = "appended to matches.jsonl"
except OSError as e:
    wrote = type(e).__name__
sys.stderr.write(f"PROBE cwd={cwd} entries={listing} seed={seed} {wrote}\n")
sys.stderr.flush()


def on_other(message):
    if message.get("type") == "match_end":
        sys.exit(0)


serve("swap-probe", lambda request: action(request, request["legal"][0]), on_other)
