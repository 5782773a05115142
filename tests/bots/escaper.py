#!/usr/bin/env python3
"""Test bot: at start, double-forks a `sleep 1000` into a new session (os.setsid), so it is in
another process group and escapes a process-group kill; it keeps the inherited stdin, stdout and
stderr. The intermediate child records the grandchild's PID and exits; the bot waits for it, then
plays legal[0] for every request until goodbye."""
import os

from botlib import action, record_pid, serve

middle = os.fork()
if middle == 0:
    try:
        os.setsid()
        grandchild = os.fork()
        if grandchild == 0:
            try:
                os.execvp("sleep", ["sleep", "1000"])
            finally:
                os._exit(127)
        record_pid(grandchild)
    finally:
        os._exit(0)
os.waitpid(middle, 0)
serve("escaper", lambda request: action(request, request["legal"][0]))
