#!/usr/bin/env python3
"""Class tournament student bot: draws, but on its 5th turn of every match reads a key the view
does not have (`discard_pile`: Machiavelli has none) and crashes with a KeyError traceback."""
from student import draw, play


def on_turn(request, turn, _stdin):
    if turn == 5:
        top = request["view"]["discard_pile"][-1]  # the student's bug
        del top
    return [draw(request)]


play("crasher", on_turn)
