#!/usr/bin/env python3
"""Test bot: plays legal[0], but first prints its hand with a plain `print` — to stdout, the
commonest student bug. Python buffers the line and it goes out just before the (correct) reply."""
from botlib import action, serve


def on_request(request):
    print("debug: hand", request["view"]["hand"])
    return action(request, request["legal"][0])


serve("debug-print", on_request)
