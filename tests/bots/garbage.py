#!/usr/bin/env python3
"""Test bot: answers hello properly, then every request with a line that is not JSON."""
from botlib import serve

serve("garbage", lambda request: "this is not json {\n")
