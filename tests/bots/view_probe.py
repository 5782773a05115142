#!/usr/bin/env python3
"""Test bot: `view_probe.py full|delta` asks for its views whole or as changes (`"view":
"delta"`), keeps the view it holds (merging each patch, RFC 7386), and plays the legal action
chosen by a hash of that view. For every request it writes the hash to stderr; on match_end the
number of requests that came as changes and the bytes of all request lines. Played both ways,
the same match gives the same hashes and the same actions only if every patch rebuilt the view."""
import hashlib
import json
import sys

from botlib import action, record_pid, send

mode = sys.argv[1]
view = None
patches = 0
request_bytes = 0


def merge(target, patch):
    """RFC 7386."""
    if not isinstance(patch, dict):
        return patch
    if not isinstance(target, dict):
        target = {}
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
        else:
            target[key] = merge(target.get(key), value)
    return target


record_pid()
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "hello", "name": "view-probe", "protocol": 1, "view": mode})
    elif kind == "match_start":
        view = None
    elif kind == "request":
        request_bytes += len(line)
        if message.get("delta"):
            assert view is not None, "a patch before any whole view"
            patches += 1
            view = merge(view, message["view"])
        else:
            view = message["view"]
        held = {k: v for k, v in view.items() if v is not None}
        digest = hashlib.sha256(json.dumps(held, sort_keys=True).encode()).hexdigest()
        print(f"view {digest}", file=sys.stderr, flush=True)
        legal = message["legal"]
        send(action(message, legal[int(digest, 16) % len(legal)]))
    elif kind == "match_end":
        print(f"patches: {patches}", file=sys.stderr, flush=True)
        print(f"request bytes: {request_bytes}", file=sys.stderr, flush=True)
    elif kind == "goodbye":
        break
