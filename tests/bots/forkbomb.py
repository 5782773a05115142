#!/usr/bin/env python3
"""Test bot: at its first request forks up to 2000 times (only the bot itself forks, so it is not
exponential); each child sleeps forever, holding the inherited pipes, and can never return to
the protocol loop. The bot records each child's PID, prints "forkbomb: forked N, refused M" to
stderr (M: forks the system refused) and sleeps forever, never answering."""
import os
import sys
import time

from botlib import record_pid, serve


def child():
    try:
        while True:
            time.sleep(3600)
    finally:
        os._exit(0)


def on_request(request):
    forked = refused = 0
    for _ in range(2000):
        try:
            pid = os.fork()
        except OSError:  # BlockingIOError (EAGAIN) included
            refused += 1
            continue
        if pid == 0:
            child()
        forked += 1
        record_pid(pid)
    print(f"forkbomb: forked {forked}, refused {refused}", file=sys.stderr, flush=True)
    while True:
        time.sleep(3600)


serve("forkbomb", on_request)
