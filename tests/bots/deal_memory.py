#!/usr/bin/env python3
"""A card-game cheat: it remembers every hand of every match it played (rebuilt from the public
card_played events) and, at each new deal, looks for its new hand among them. A hit means it
knows every other hand of this deal; it says so on stderr ("RECOGNISED ..."). At goodbye it
writes how many matches this process played. Plays legal[0]."""
import json
import sys

from botlib import action, record_pid, send

record_pid()
seen = []  # one {(manche, seat): set of cards} per finished match
current, manche, matches = {}, 0, 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "hello", "name": "deal-memory", "protocol": 1})
    elif kind == "match_start":
        current, matches = {}, matches + 1
    elif kind == "event":
        event = message["event"]
        if event["kind"] == "manche_start":
            manche = event["manche"]
        elif event["kind"] == "card_played":
            current.setdefault((manche, event["seat"]), set()).add(event["card"])
        elif event["kind"] == "dealt":
            hand = set(event["hand"])
            for old in seen:
                if any(m == manche and cards == hand for (m, _), cards in old.items()):
                    sys.stderr.write(f"RECOGNISED manche {manche}: every other hand is known\n")
    elif kind == "request":
        send(action(message, message["legal"][0]))
    elif kind == "match_end":
        seen.append(current)
    elif kind == "goodbye":
        break
sys.stderr.write(f"matches played: {matches}\n")
