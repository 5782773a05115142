#!/usr/bin/env python3
"""Test bot: plays legal[0] for every request, correctly, but before each reply writes 2 MiB to
stderr (2048 lines of 1023 characters plus a newline, flushed): hundreds of MiB over a match,
which the referee must drain and cap."""
import sys

from botlib import action, serve


def on_request(request):
    head = f"stderr_flood: request {request['id']} line "
    lines = [(head + str(i) + " ").ljust(1023, ".") + "\n" for i in range(2048)]
    sys.stderr.write("".join(lines))
    sys.stderr.flush()
    return action(request, request["legal"][0])


serve("stderr-flood", on_request)
