#!/usr/bin/env python3
"""Test bot: answers hello, then at its first request starts a child `sleep 1000` (a
descendant in its process group) and sleeps forever itself, never answering.

If REFEREE_TEST_PID_DIR is set, it writes its PID to a new file named after the PID in that
directory at start-up, and likewise the child's PID once the child is started, so a test can
check that neither survives.
"""
import json
import os
import subprocess
import sys
import time


def record_pid(pid):
    directory = os.environ.get("REFEREE_TEST_PID_DIR")
    if directory:
        with open(os.path.join(directory, str(pid)), "x") as f:
            f.write(f"{pid}\n")


def main():
    record_pid(os.getpid())
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("type") == "hello":
            sys.stdout.write(json.dumps({"type": "hello", "name": "sleeper", "protocol": 1}) + "\n")
            sys.stdout.flush()
        elif message.get("type") == "request":
            child = subprocess.Popen(["sleep", "1000"])
            record_pid(child.pid)
            print(f"sleeper: started child {child.pid}; sleeping forever", file=sys.stderr, flush=True)
            while True:
                time.sleep(3600)


if __name__ == "__main__":
    main()
