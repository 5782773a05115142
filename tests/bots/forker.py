#!/usr/bin/env python3
"""Test bot: at start, before the hello, starts a child `sleep 1000` that inherits its stdin,
stdout and stderr (so it keeps the pipes open) and records its PID; then plays legal[0] for
every request and on goodbye exits normally, leaving the child running."""
import subprocess

from botlib import action, record_pid, serve

child = subprocess.Popen(["sleep", "1000"])
record_pid(child.pid)
serve("forker", lambda request: action(request, request["legal"][0]))
