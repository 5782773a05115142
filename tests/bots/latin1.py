#!/usr/bin/env python3
"""Test bot: writes a line that is not UTF-8 (Latin-1 bytes) before each correct reply."""
import json
import sys

from botlib import action, serve


def on_request(request):
    sys.stdout.buffer.write(b"d\xe9bug\n")
    sys.stdout.buffer.flush()
    return json.dumps(action(request, request["legal"][0])) + "\n"


serve("latin1", on_request)
