#!/usr/bin/env python3
"""Test bot: answers hello, then answers every request, with the right id, by an action of the
right shape for the phase that is illegal: {"table": 999} (chip), {"card": "raise",
"table": 999} (card), {"steps": 9} (move).

If REFEREE_TEST_PID_DIR is set, it first writes its PID to a new file named after the PID in
that directory. Exits on goodbye or at the end of stdin.
"""
import json
import os
import sys

ILLEGAL = {
    "chip": {"table": 999},
    "card": {"card": "raise", "table": 999},
    "move": {"steps": 9},
}


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
            send({"type": "hello", "name": "illegal", "protocol": 1})
        elif kind == "request":
            action = ILLEGAL.get(message.get("phase"), {"table": 999})
            send({"type": "action", "id": message["id"], "action": action})
        elif kind == "goodbye":
            break


if __name__ == "__main__":
    main()
