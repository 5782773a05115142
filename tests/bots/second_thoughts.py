#!/usr/bin/env python3
"""Test bot: `second_thoughts.py FILE` plays legal[0], except that while FILE exists it plays
legal[-1] from its third request of each match on: a bot that reads a file, and so plays a
match differently when it is played again after the file appeared (`referee rerun` names the
first decision that differs)."""
import os
import sys

from botlib import action, serve

FLAG = sys.argv[1]
turn = 0


def on_request(request):
    global turn
    turn += 1
    legal = request["legal"]
    if turn >= 3 and os.path.exists(FLAG):
        return action(request, legal[-1])
    return action(request, legal[0])


def on_other(message):
    global turn
    if message.get("type") == "match_start":
        turn = 0


serve("second-thoughts", on_request, on_other)
