#!/usr/bin/env python3
"""Test bot: answers hello, then at its first request spins the CPU forever (`while True: pass`),
never answering."""
from botlib import serve


def on_request(request):
    while True:
        pass


serve("spinner", on_request)
