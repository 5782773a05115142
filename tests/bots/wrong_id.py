#!/usr/bin/env python3
"""Test bot: answers every request with legal[0], but under the id `request id + 1000`, so every
reply is a stale (invented) id and every request times out."""
from botlib import serve

serve("wrong-id", lambda request: {"type": "action", "id": request["id"] + 1000,
                                   "action": request["legal"][0]})
