#!/usr/bin/env python3
"""Test bot: answers every request with an action of the right shape for the phase but illegal
(a table that does not exist, a move of 9)."""
from botlib import action, serve

ILLEGAL = {
    "chip": {"table": 999},
    "card": {"card": "raise", "table": 999},
    "move": {"steps": 9},
}

serve("illegal", lambda request: action(request, ILLEGAL[request["phase"]]))
