#!/usr/bin/env python3
"""Test bot: declares protocol version 2 in its hello, which this referee does not speak."""
import json
import os
import sys

if os.environ.get("REFEREE_TEST_PID_DIR"):
    with open(os.path.join(os.environ["REFEREE_TEST_PID_DIR"], str(os.getpid())), "x") as f:
        f.write(f"{os.getpid()}\n")
for line in sys.stdin:
    if json.loads(line)["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "future", "protocol": 2}), flush=True)
