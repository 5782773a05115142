#!/usr/bin/env python3
"""Machiavelli test bot: deterministic and slow on purpose. It always draws, 20 ms after each
request, so that a tournament of it lasts long enough to be interrupted, and its results do not
depend on timing."""
import time

from botlib import action, serve


def on_request(request):
    time.sleep(0.02)
    return action(request, {"draw": True})


serve("slow-drawer", on_request)
