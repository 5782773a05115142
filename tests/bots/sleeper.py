#!/usr/bin/env python3
"""Test bot: answers hello, then at its first request starts a child `sleep 1000` (a descendant
in its process group, whose PID it records too) and sleeps forever itself, never answering."""
import subprocess
import sys
import time

from botlib import record_pid, serve


def on_request(request):
    child = subprocess.Popen(["sleep", "1000"])
    record_pid(child.pid)
    print(f"sleeper: started child {child.pid}; sleeping forever", file=sys.stderr, flush=True)
    while True:
        time.sleep(3600)


serve("sleeper", on_request)
