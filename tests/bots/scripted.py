#!/usr/bin/env python3
"""Test bot: `scripted.py SCRIPT.json` plays the actions listed in SCRIPT.json, in order.

SCRIPT.json is a JSON list; each item is sent verbatim as the `action` of the next request
(so a script may hold illegal or wrongly shaped actions too). Once the list is exhausted the
bot answers `legal[0]`. It answers hello with the name "scripted", logs each decision and
every event and error it is told to stderr (`scripted: event {...}`, `scripted: error {...}`), and exits on goodbye or at the end of stdin.

If REFEREE_TEST_PID_DIR is set, it first writes its PID to a new file named after the PID
in that directory.
"""
import json
import os
import sys


def record_pid():
    directory = os.environ.get("REFEREE_TEST_PID_DIR")
    if directory:
        with open(os.path.join(directory, str(os.getpid())), "x") as f:
            f.write(f"{os.getpid()}\n")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    record_pid()
    if len(sys.argv) != 2:
        sys.exit("usage: scripted.py SCRIPT.json")
    with open(sys.argv[1]) as f:
        script = json.load(f)
    if not isinstance(script, list):
        sys.exit("scripted.py: the script must be a JSON list of actions")
    step = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "scripted", "protocol": 1})
        elif kind == "request":
            if step < len(script):
                action, source = script[step], f"script[{step}]"
            else:
                action, source = (message.get("legal") or [{}])[0], "legal[0]"
            step += 1
            print(f"scripted: request {message['id']} ({message.get('phase')}): "
                  f"{source} = {json.dumps(action)}", file=sys.stderr, flush=True)
            send({"type": "action", "id": message["id"], "action": action})
        elif kind == "event":
            # Echo every event to stderr, so a test can read what the bot was told.
            print(f"scripted: event {json.dumps(message['event'])}", file=sys.stderr, flush=True)
        elif kind == "error":
            print(f"scripted: error {json.dumps(message)}", file=sys.stderr, flush=True)
        elif kind == "goodbye":
            break


if __name__ == "__main__":
    main()
