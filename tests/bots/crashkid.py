#!/usr/bin/env python3
"""Test bot: at its first request starts a child `sleep 1000` that inherits its stdout, then
exits with code 1: the referee never sees end-of-file on the bot's output."""
import subprocess
import sys

from botlib import record_pid, serve


def on_request(request):
    child = subprocess.Popen(["sleep", "1000"])
    record_pid(child.pid)
    print("crashkid: exiting with code 1, my child keeps stdout open", file=sys.stderr, flush=True)
    sys.exit(1)


serve("crashkid", on_request)
