#!/usr/bin/env python3
"""Machiavelli test bot: always draws, and copies every line it receives to standard error, so
that a test can check exactly what the referee told it."""
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
        send(action(message, {"draw": True}))
    elif kind == "goodbye":
        break
