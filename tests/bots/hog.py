#!/usr/bin/env python3
"""Test bot: a CPU hog that plays fair on the wire. At its first request it starts 32 busy
processes, each in a session of its own (`setsid`) and allowed on every core
(`sched_setaffinity`), so that they escape its process group and its worker's core; then it
answers every request at once with the first legal action."""
import os

from botlib import action, record_pid, serve

HOGS = 32
started = False


def spin():
    """A child: leaves the bot's session and core, and burns CPU until it is killed."""
    os.setsid()
    try:
        os.sched_setaffinity(0, range(os.cpu_count() or 1))
    except OSError:
        pass  # a cpuset may refuse: it spins where it is allowed
    record_pid()
    while True:
        pass


def on_request(request):
    global started
    if not started:
        started = True
        for _ in range(HOGS):
            if os.fork() == 0:
                spin()
    return action(request, request["legal"][0])


serve("hog", on_request)
