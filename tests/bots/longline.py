#!/usr/bin/env python3
"""Test bot: answers each request with a 4 MiB line (over the referee's 1 MiB cap), then the
proper reply on the next line."""
import json
import os
import sys

if os.environ.get("REFEREE_TEST_PID_DIR"):
    with open(os.path.join(os.environ["REFEREE_TEST_PID_DIR"], str(os.getpid())), "x") as f:
        f.write(f"{os.getpid()}\n")
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "longline"}), flush=True)
    elif message["type"] == "request":
        sys.stdout.write('{"pad": "' + "x" * (4 << 20) + '"}\n')
        print(json.dumps({"type": "action", "id": message["id"], "action": message["legal"][0]}), flush=True)
    elif message["type"] == "goodbye":
        break
