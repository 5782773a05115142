#!/usr/bin/env python3
"""Test bot: exits at once with code 3, reading nothing.

If REFEREE_TEST_PID_DIR is set, it first writes its PID to a new file named after the PID in
that directory.
"""
import os
import sys

directory = os.environ.get("REFEREE_TEST_PID_DIR")
if directory:
    with open(os.path.join(directory, str(os.getpid())), "x") as f:
        f.write(f"{os.getpid()}\n")
print("exits: exiting with code 3", file=sys.stderr, flush=True)
sys.exit(3)
