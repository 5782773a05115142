#!/usr/bin/env python3
"""Test bot: answers every request with valid JSON of the wrong shape (an action with no field the
phase expects)."""
from botlib import action, serve

serve("wrong-shape", lambda request: action(request, {"bogus": 1}))
