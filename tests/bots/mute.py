#!/usr/bin/env python3
"""Test bot: reads its input line by line and never writes anything, not even the hello reply;
at end of input it sleeps forever, so it stays alive until killed."""
import sys
import time

from botlib import record_pid

record_pid()
for _line in sys.stdin:
    pass
while True:
    time.sleep(3600)
