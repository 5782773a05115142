#!/usr/bin/env python3
"""Test bot: writes its whole environment to stderr as one line, `env: {JSON}` — what a bot could
take from the referee's environment — then plays legal[0]."""
import json
import os
import sys

from botlib import action, serve

sys.stderr.write("env: " + json.dumps(dict(os.environ)) + "\n")
sys.stderr.flush()
serve("env-reader", lambda request: action(request, request["legal"][0]))
