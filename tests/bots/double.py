#!/usr/bin/env python3
"""Test bot: answers every request twice (legal[0] both times), so the second reply reaches the
referee while the next request is pending: a stale id."""
import json
import os
import sys

if os.environ.get("REFEREE_TEST_PID_DIR"):
    with open(os.path.join(os.environ["REFEREE_TEST_PID_DIR"], str(os.getpid())), "x") as f:
        f.write(f"{os.getpid()}\n")
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "double"}), flush=True)
    elif message["type"] == "request":
        reply = json.dumps({"type": "action", "id": message["id"], "action": message["legal"][0]})
        print(reply + "\n" + reply, flush=True)
    elif message["type"] == "goodbye":
        break
