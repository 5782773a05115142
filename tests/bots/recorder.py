#!/usr/bin/env python3
"""Plays the first legal action and copies every line it receives to standard error, so that a
test can check exactly what the referee told it (the hidden-information boundary, the options
echoed in hello)."""
import json
import sys

from botlib import action, record_pid, send

record_pid()
for line in sys.stdin:
    sys.stderr.write(line)
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "hello", "name": "recorder", "protocol": 1})
    elif kind == "request":
        send(action(message, message["legal"][0]))
    elif kind == "goodbye":
        break
