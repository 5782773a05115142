#!/usr/bin/env python3
"""Test bot: a colluder that sends bits over a count of the machine (see covert_channel.py), and
plays legal[0]. Arguments: CHANNEL START SLOT BITS [PATH] (the channel's name, the wall-clock
start in seconds since the epoch, the slot in seconds, the bits as a string of 0 and 1, and the
file the page-cache channel uses). It starts
sending at once, on a thread of its own; at goodbye (or the end of its input) it stops and
writes one line to stderr, "channel-sender " and JSON: {"errors": [errno...]}."""
import json
import sys
import threading

from botlib import action, serve
from covert_channel import send

channel, start, slot, bits = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
path = sys.argv[5] if len(sys.argv) > 5 else "."
errors = []
stop = threading.Event()
sender = threading.Thread(target=lambda: errors.extend(send(channel, start, slot, bits, stop, path)))
sender.start()


def finish():
    stop.set()
    sender.join()
    sys.stderr.write("channel-sender " + json.dumps({"errors": sorted(set(errors))}) + "\n")
    sys.stderr.flush()


if not serve("channel-sender", lambda request: action(request, request["legal"][0]),
             on_goodbye=finish):
    finish()
