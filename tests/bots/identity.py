#!/usr/bin/env python3
"""Test bot: plays legal[0] and, at its first request, writes who it runs as (ids, capabilities,
no_new_privs, umask) to identity-report.json in its working directory."""
from intruder import serve_attacker

# It attacks nothing: it only reports.
serve_attacker("identity", lambda parent, parent_comm, others: {})
