#!/usr/bin/env python3
"""Test bot: `late_once.py [N]` plays legal[0], but lets N deadlines pass (default 1) at its first
request: it reads on until the referee has sent it N more requests — each is written only once the
one before it has timed out — and then answers all of them, in order. So exactly N of its replies
come late, whatever the time limit and however loaded the machine, and no sleep decides it."""
import json
import sys

from botlib import action, serve

misses = int(sys.argv[1]) if len(sys.argv) > 1 else 1
first = True


def on_request(request):
    global first
    if not first:
        return action(request, request["legal"][0])
    first = False
    asked = [request]
    while len(asked) <= misses:
        line = sys.stdin.readline()
        if not line:
            break
        if line.strip() and json.loads(line).get("type") == "request":
            asked.append(json.loads(line))
    return "".join(json.dumps(action(r, r["legal"][0])) + "\n" for r in asked)


serve("late-once", on_request)
