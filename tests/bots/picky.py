#!/usr/bin/env python3
"""Test bot: `picky.py unknown` plays legal[0] but raises at a message type or event kind it does
not know (a bot written against a closed list); `picky.py error` plays legal[0] but exits when the
referee sends it an error message."""
import sys

from botlib import action, serve

MODE = sys.argv[1]
KNOWN_TYPES = {"match_start", "event", "error", "match_end"}
KNOWN_EVENTS = {"round_start", "chip", "card", "move", "payout"}


def on_other(message):
    kind = message["type"]
    if MODE == "unknown" and (kind not in KNOWN_TYPES
                              or kind == "event" and message["event"]["kind"] not in KNOWN_EVENTS):
        raise ValueError(f"picky: unknown message {message}")
    if MODE == "error" and kind == "error":
        sys.exit(f"picky: the referee sent an error: {message['message']}")


serve("picky", lambda request: action(request, request["legal"][0]), on_other)
