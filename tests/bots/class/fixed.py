#!/usr/bin/env python3
"""Class tournament student bot: the crasher, fixed (it no longer reads `discard_pile`)."""
from student import draw, play


def on_turn(request, _turn, _stdin):
    return [draw(request)]


play("crasher", on_turn)
