#!/usr/bin/env python3
"""Test bot: plays legal[0], but on goodbye and at the end of its input it does not exit: it
sleeps for a minute (until the referee kills it)."""
import time

from botlib import action, serve

serve("lingers", lambda request: action(request, request["legal"][0]))
time.sleep(60)
