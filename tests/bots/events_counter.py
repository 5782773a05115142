#!/usr/bin/env python3
"""Test bot: `events_counter.py true|false` says `"events": true|false` in its hello, plays
legal[0], and on match_end writes to stderr how many event messages it received."""
import json
import sys

from botlib import action, record_pid, send

wanted = sys.argv[1] == "true"
events = 0
record_pid()
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "hello", "name": "events-counter", "protocol": 1, "events": wanted})
    elif kind == "request":
        send(action(message, message["legal"][0]))
    elif kind == "event":
        events += 1
    elif kind == "match_end":
        print(f"events received: {events}", file=sys.stderr, flush=True)
    elif kind == "goodbye":
        break
