#!/usr/bin/env python3
"""Class tournament student bot: draws, but in one match of three (by its seat's seed) thinks too
long on its 4th turn: it answers only once the referee has given up on that request and sent
the next one (or ended the match), so exactly that reply is late however loaded the machine is,
and no sleep decides it. The late reply is dropped; the next is answered at once."""
import json

from student import draw, play

slow_match = False


def on_match_start(message):
    global slow_match
    slow_match = int(message["seed"]) % 3 == 0


def on_turn(request, turn, stdin):
    if not (slow_match and turn == 4):
        return [draw(request)]
    replies = [draw(request)]
    for line in stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("type") == "request":
            replies.append(draw(message))
            break
        if message.get("type") != "event":
            # The match ended (or the bot was stopped) before its next turn: nothing else to
            # answer; the late reply is written anyway, as a real slow bot's would be.
            break
    return replies


play("sometimes-slow", on_match_start=on_match_start, on_turn=on_turn)
