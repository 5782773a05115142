"""What the class tournament's student bots share: a Machiavelli bot that draws on every turn,
counting its turns in each match. Each student file changes one thing, the way students do."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from botlib import action, serve  # noqa: E402


def draw(request):
    """The reply to `request` that draws a card."""
    return action(request, {"draw": True})


def play(name, on_turn, on_match_start=None):
    """Answer hello with `name`; each request with `on_turn(request, turn, stdin)`, `turn` the
    bot's own turn in the match (1 for its first), which returns the lines to write (a list of
    messages or raw strings); `on_match_start(message)` at each match start. Returns at goodbye
    or the end of input (the loop is botlib's `serve`)."""
    turn = 0

    def on_request(request):
        nonlocal turn
        turn += 1
        replies = on_turn(request, turn, sys.stdin)
        return "".join(r if isinstance(r, str) else json.dumps(r) + "\n" for r in replies)

    def on_other(message):
        nonlocal turn
        if message.get("type") == "match_start":
            turn = 0
            if on_match_start is not None:
                on_match_start(message)

    serve(name, on_request, on_other)
