#!/usr/bin/env python3
"""Test bot: answers each request with a 4 MiB line (over the referee's 1 MiB cap), then the proper
reply on the next line."""
import json

from botlib import action, serve


def on_request(request):
    pad = '{"pad": "' + "x" * (4 << 20) + '"}\n'
    return pad + json.dumps(action(request, request["legal"][0])) + "\n"


serve("longline", on_request)
