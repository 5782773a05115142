#!/usr/bin/env python3
"""Test bot: plays legal[0], and says "gg" on stdout when a match ends — a line that is not
protocol, written between matches."""
import sys

from botlib import action, serve


def on_other(message):
    if message.get("type") == "match_end":
        sys.stdout.write("gg\n")
        sys.stdout.flush()


serve("gg", lambda request: action(request, request["legal"][0]), on_other)
