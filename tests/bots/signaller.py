#!/usr/bin/env python3
"""Test bot: a signaller that plays legal[0]. At its first request it signals the referee (its
parent: SIGTERM) unless its parent is its own sandbox, each other bot it can see (SIGKILL), and
every process it may signal (kill(-1, SIGKILL), which says only whether any other process
exists); it writes what it is, what it saw and each attempt's outcome to signaller-report.json in
its working directory."""
import os
import signal

from intruder import outcome, serve_attacker


def attempts(parent, parent_comm, others):
    tried = {}
    if parent_comm != "bwrap":
        tried["referee: SIGTERM"] = outcome(lambda: os.kill(parent, signal.SIGTERM))
    for pid in others:
        tried[f"bot {pid}: SIGKILL"] = outcome(lambda: os.kill(pid, signal.SIGKILL))
    tried["kill(-1, SIGKILL)"] = outcome(lambda: os.kill(-1, signal.SIGKILL))
    return tried


serve_attacker("signaller", attempts)
