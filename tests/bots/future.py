#!/usr/bin/env python3
"""Test bot: declares protocol version 2 in its hello, which this referee does not speak."""
from botlib import serve

serve("future", lambda request: None, protocol=2)
