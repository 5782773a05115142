#!/usr/bin/env python3
"""Test bot: exits at once with code 3, without reading anything."""
import sys

from botlib import record_pid

record_pid()
print("exits: exiting with code 3", file=sys.stderr, flush=True)
sys.exit(3)
