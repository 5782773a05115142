#!/usr/bin/env python3
"""Test bot: plays legal[0] for every request, correctly, while a thread of its own writes to
stderr as fast as it can for the whole life of the process — while it thinks, while the others
think, between matches — in writes of 64 KiB (a line of dots). The referee must not pay for it:
past its stderr budget the bot waits on its own writes. With the argument `quiet` it writes
nothing, and plays the same moves."""
import os
import sys
import threading

from botlib import action, serve

CHUNK = b"." * 65535 + b"\n"


def flood():
    while True:
        try:
            os.write(2, CHUNK)
        except OSError:
            return


if sys.argv[1:] != ["quiet"]:
    threading.Thread(target=flood, daemon=True).start()
serve("stderr-firehose", lambda request: action(request, request["legal"][0]))
