#!/usr/bin/env python3
"""Test bot: plays legal[0], and exits as soon as its first match ends (at match_end), instead
of waiting for goodbye: a second match finds it gone."""
import sys

from botlib import action, serve


def on_other(message):
    if message.get("type") == "match_end":
        sys.exit(0)


serve("one-match", lambda request: action(request, request["legal"][0]), on_other)
