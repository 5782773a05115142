#!/usr/bin/env python3
"""Test bot: `slowpoke.py SECONDS` plays legal[0], sleeping SECONDS before every reply (a bot that
spends a steady time per decision, for time-bank tests)."""
import json
import sys
import time

from botlib import action, serve

pause = float(sys.argv[1])


def on_request(request):
    time.sleep(pause)
    return json.dumps(action(request, request["legal"][0])) + "\n"


serve("slowpoke", on_request)
