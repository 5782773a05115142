"""What the class tournament's student bots share: a Machiavelli bot that draws on every turn,
counting its turns in each match. Each student file changes one thing, the way students do."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from botlib import record_pid, send  # noqa: E402


def draw(request):
    """The reply to `request` that draws a card."""
    return {"type": "action", "id": request["id"], "action": {"draw": True}}


def play(name, on_turn, on_match_start=None):
    """Answer hello with `name`; each request with `on_turn(request, turn, stdin)`, `turn` the
    bot's own turn in the match (1 for its first), which returns the lines to write (a list of
    messages or raw strings); `on_match_start(message)` at each match start. Returns at goodbye
    or the end of input."""
    record_pid()
    turn = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": name})
        elif kind == "match_start":
            turn = 0
            if on_match_start is not None:
                on_match_start(message)
        elif kind == "request":
            turn += 1
            for reply in on_turn(message, turn, sys.stdin):
                if isinstance(reply, str):
                    sys.stdout.write(reply)
                else:
                    sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
        elif kind == "goodbye":
            return
