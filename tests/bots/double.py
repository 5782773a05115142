#!/usr/bin/env python3
"""Test bot: answers every request twice (legal[0] both times), so the second reply reaches the
referee while the next request is pending: a stale id."""
import json

from botlib import action, serve

serve("double", lambda request: (json.dumps(action(request, request["legal"][0])) + "\n") * 2)
