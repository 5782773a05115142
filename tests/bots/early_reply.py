#!/usr/bin/env python3
"""Test bot: answers every request with legal[0] and, in the same write, answers the next request
too, before the referee has written it (its id guessed: this id + 1). A line written before its
request is stray, never the answer: one `stale_id` fault each, and the decision is timed from the
real request to the real reply."""
import json

from botlib import action, serve


def on_request(request):
    reply = action(request, request["legal"][0])
    guess = dict(reply, id=request["id"] + 1)
    return json.dumps(reply) + "\n" + json.dumps(guess) + "\n"


serve("early-reply", on_request)
