#!/usr/bin/env python3
"""Test bot: an honest bot that thinks. For each request it burns up to THINK_MS of its own CPU
time, but stops thinking once WALL_MS of wall time have passed since the request arrived, and
then answers with a legal action drawn from the match seed. With a 1,000 ms limit it never
times out on a machine that gives it its share of a core."""
import random
import time

from botlib import action, serve

THINK_MS = 200
WALL_MS = 900
rng = random.Random(0)


def on_request(request):
    wall_end = time.monotonic() + WALL_MS / 1000
    cpu_end = time.process_time() + THINK_MS / 1000
    while time.process_time() < cpu_end and time.monotonic() < wall_end:
        for _ in range(1000):
            pass
    return action(request, rng.choice(request["legal"]))


def on_other(message):
    global rng
    if message.get("type") == "match_start":
        rng = random.Random(message["seed"])


serve("thinker", on_request, on_other)
