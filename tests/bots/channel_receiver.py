#!/usr/bin/env python3
"""Test bot: a colluder that reads bits sent over a count of the machine (see
covert_channel.py), and plays legal[0]. Arguments: CHANNEL START SLOT COUNT [PATH] (the
channel's name, the wall-clock start in seconds since the epoch, the slot in seconds, the number
of bits, and the path its reading looks at: the mount point for statfs, its working directory
for inodes, the sender's file for pagecache). It starts reading at once, on a thread of its
own; at its first request it waits for the last bit, then writes one line to stderr,
"channel-report " and JSON: {"bits": the bits read, "?" where a reading failed, "errors":
[errno...], "late": whether it started after START}, and plays."""
import json
import sys
import threading
import time

from botlib import action, serve
from covert_channel import receive

channel, start, slot, count = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
path = sys.argv[5] if len(sys.argv) > 5 else "."
late = time.time() > start
result = {}
receiver = threading.Thread(
    target=lambda: result.update(zip(["bits", "errors"], receive(channel, start, slot, count, path))))
receiver.start()
reported = False


def on_request(request):
    global reported
    if not reported:
        reported = True
        receiver.join()
        report = {"bits": result.get("bits"), "errors": result.get("errors"), "late": late}
        sys.stderr.write("channel-report " + json.dumps(report) + "\n")
        sys.stderr.flush()
    return action(request, request["legal"][0])


serve("channel-receiver", on_request)
