#!/usr/bin/env python3
"""Class tournament student bot: draws, but prints its hand to stdout first (`print` debugging,
the commonest student bug): each such line is the answer the referee reads, a malformed one."""
from student import draw, play


def on_turn(request, turn, _stdin):
    return [f"turn {turn}: my hand is {' '.join(request['view']['hand'])}\n", draw(request)]


play("debug-printer", on_turn)
