#!/usr/bin/env python3
"""A minimal Vabanque bot: random chips and cards, moves to the richest table in reach."""
import json
import random
import sys
import time

rng = random.Random(0)
for line in sys.stdin:                      # one JSON message per line
    msg = json.loads(line)
    if msg["type"] == "hello":
        reply = {"type": "hello", "name": "my-bot", "protocol": 1}
    elif msg["type"] == "match_start":
        rng = random.Random(msg["seed"])    # all randomness from the match's seed
        continue
    elif msg["type"] == "request":
        if msg["id"] == 2:
            time.sleep(0.3)                 # too slow for --time-limit-ms 200
        view, legal = msg["view"], msg["legal"]
        if msg["phase"] == "move":          # legal is [{"steps": 0}, ..., {"steps": 4}]
            here = view["tokens"][view["you"]]
            action = max(legal, key=lambda a: view["table_chips"][(here + a["steps"]) % view["tables"]])
        else:                               # "chip" or "card": any legal action
            action = rng.choice(legal)
        reply = {"type": "action", "id": msg["id"], "action": action}
    elif msg["type"] == "goodbye":
        break
    else:                                   # event, error, match_end: nothing to answer
        continue
    print(json.dumps(reply), flush=True)    # one line, flushed at once
