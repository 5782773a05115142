#!/usr/bin/env python3
"""Test bot: answers hello, plays legal[0] for its first 5 requests, then raises an exception
at the 6th (exit code 1, traceback on stderr).

If REFEREE_TEST_PID_DIR is set, it first writes its PID to a new file named after the PID in
that directory. Exits on goodbye or at the end of stdin if it has not crashed by then.
"""
import json
import os
import sys

ANSWERED_BEFORE_CRASH = 5


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    directory = os.environ.get("REFEREE_TEST_PID_DIR")
    if directory:
        with open(os.path.join(directory, str(os.getpid())), "x") as f:
            f.write(f"{os.getpid()}\n")
    answered = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "crasher", "protocol": 1})
        elif kind == "request":
            if answered >= ANSWERED_BEFORE_CRASH:
                raise RuntimeError(f"crasher: deliberate crash at request {message['id']}")
            send({"type": "action", "id": message["id"], "action": message["legal"][0]})
            answered += 1
        elif kind == "goodbye":
            break


if __name__ == "__main__":
    main()
