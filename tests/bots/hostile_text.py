#!/usr/bin/env python3
"""Test bot: text meant to break a page that shows it. Its hello name, every line it writes to
stderr and its first action (a wrongly shaped one, which the referee echoes in the fault
message) hold markup that would run a script if a page wrote it as HTML; otherwise it plays
legal[0]."""
import sys

from botlib import action, serve

HOSTILE = "</script><img src=x onerror=alert(1)><!--"
turns = 0


def on_request(request):
    global turns
    turns += 1
    sys.stderr.write(f"{HOSTILE} turn {turns} & <b>bold</b>\n")
    sys.stderr.flush()
    if turns == 1:
        return action(request, {"table": HOSTILE})
    return action(request, request["legal"][0])


serve(HOSTILE, on_request)
