#!/usr/bin/env python3
"""Test bot: prints a debug line on stdout before each (correct) reply — the commonest student
bug. Each debug line is a fault, but the reply that follows still counts."""
import json

from botlib import action, serve

serve("chatty", lambda request: f"thinking about request {request['id']}\n"
      + json.dumps(action(request, request["legal"][0])) + "\n")
