#!/usr/bin/env python3
"""Test bot: plays legal[0] for every request, correctly, but before each reply writes KIB
kibibytes to stderr (its argument, 2048 by default: lines of 1023 characters plus a newline,
flushed): with the default, hundreds of MiB over a match, twice its stderr budget per decision,
so that it waits on its own writes and times out; with 256, within its budget."""
import sys

from botlib import action, serve

KIB = int(sys.argv[1]) if len(sys.argv) > 1 else 2048


def on_request(request):
    head = f"stderr_flood: request {request['id']} line "
    lines = [(head + str(i) + " ").ljust(1023, ".") + "\n" for i in range(KIB)]
    sys.stderr.write("".join(lines))
    sys.stderr.flush()
    return action(request, request["legal"][0])


serve("stderr-flood", on_request)
