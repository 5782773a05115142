#!/usr/bin/env python3
"""Test bot: answers hello, then answers every request with valid JSON of the wrong shape:
{"type":"action","id":<id>,"action":{"bogus":1}}.

If REFEREE_TEST_PID_DIR is set, it first writes its PID to a new file named after the PID in
that directory. Exits on goodbye or at the end of stdin.
"""
import json
import os
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


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
            send({"type": "hello", "name": "wrong_shape", "protocol": 1})
        elif kind == "request":
            send({"type": "action", "id": message["id"], "action": {"bogus": 1}})
        elif kind == "goodbye":
            break


if __name__ == "__main__":
    main()
