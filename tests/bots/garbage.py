#!/usr/bin/env python3
"""Test bot: answers hello properly, then answers every request with a line that is not JSON.

If REFEREE_TEST_PID_DIR is set, it first writes its PID to a new file named after the PID in
that directory. Exits on goodbye or at the end of stdin.
"""
import json
import os
import sys


def main():
    directory = os.environ.get("REFEREE_TEST_PID_DIR")
    if directory:
        with open(os.path.join(directory, str(os.getpid())), "x") as f:
            f.write(f"{os.getpid()}\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            sys.stdout.write(json.dumps({"type": "hello", "name": "garbage", "protocol": 1}) + "\n")
        elif kind == "request":
            sys.stdout.write("this is not json {\n")
        elif kind == "goodbye":
            break
        sys.stdout.flush()


if __name__ == "__main__":
    main()
