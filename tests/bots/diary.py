#!/usr/bin/env python3
"""Test bot: plays legal[0]; at its first request it appends its uid to diary.txt and to
author.txt in its working directory (author.txt made by the test, as root), and writes the
outcomes to diary-report.json: every process of a bot, each a uid of its own, must be able to
write what the others wrote there."""
import os

from intruder import outcome, serve_attacker


def attempts(parent, parent_comm, others):
    def append(name):
        with open(name, "a") as f:
            f.write(f"{os.getuid()}\n")

    return {name: outcome(lambda: append(name)) for name in ["diary.txt", "author.txt"]}


serve_attacker("diary", attempts)
