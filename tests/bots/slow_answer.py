#!/usr/bin/env python3
"""Test bot: answers every request with its first legal action after sleeping 300 ms."""
import time

from botlib import action, serve


def on_request(request):
    time.sleep(0.3)
    return action(request, request["legal"][0])


serve("slow-answer", on_request)
