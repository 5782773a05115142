#!/usr/bin/env python3
"""Test bot: text meant to take over the terminal that shows it. Its hello name, every line it
writes to stderr and its first two replies hold terminal escape sequences (clear the screen,
set the window's title, a C1 control sequence introducer), a right-to-left override and an
isolate, carriage returns and line breaks that would forge a line of the referee's own
(`! rival: fault timeout FORGED`). Its first reply is not JSON, its second an action of the
wrong shape written with those characters raw; then it plays legal[0]; at its fifth request it
writes one more such line to stderr and exits with status 3, so that the fault message quotes
its stderr. Vabanque."""
import itertools
import json
import sys

from botlib import action, serve

CLEAR = "\x1b[2J\x1b[H"
TITLE = "\x1b]0;pwned\x07"
CSI = "\u009b31m"
BIDI = "\u202eDESREVER\u202c\u2066"
FORGED = "\n! rival: fault timeout FORGED\r"
HOSTILE = f"{CLEAR}{TITLE}{CSI}{BIDI}{FORGED}"


def say(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def crash(_request):
    say(f"Traceback: {HOSTILE}")
    sys.exit(3)


# What it does at its Nth request, after writing `turn N` and the hostile text to stderr.
TURNS = {
    1: lambda _request: f"{CLEAR}not json\r! rival: fault timeout FORGED{TITLE}{BIDI}\n",
    2: lambda request: json.dumps(action(request, {"table": HOSTILE}), ensure_ascii=False) + "\n",
    5: crash,
}
turns = itertools.count(1)


def on_request(request):
    turn = next(turns)
    say(f"turn {turn} {HOSTILE}")
    play = TURNS.get(turn, lambda r: action(r, r["legal"][0]))
    return play(request)


serve(f"hostile{HOSTILE}", on_request)
