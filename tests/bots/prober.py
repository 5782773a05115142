#!/usr/bin/env python3
"""Test bot: plays legal[0], and at its first request probes its surroundings and writes what it
found as JSON to probe-report.json in its working directory:
  fds       -- its open file descriptors (other than the one listing them);
  pids      -- how many processes it can see in /proc;
  write_cwd -- whether it can create a file in its working directory;
  write_dir -- whether it can create a file in the directory named by argv[1] (outside it);
  read_dir  -- the entries it can list in the directory named by argv[2] (the referee's output);
  network   -- whether it can open a TCP connection to 10.0.0.1:9 (an error other than
               "network unreachable" also counts as reachable);
  log_bytes -- the size it sees of log.jsonl in the directory named by argv[2];
  parent    -- its parent's pid (in a sandbox: the namespace's first process, not the referee)."""
import json
import os
import socket
import sys

from botlib import action, serve

probed = False


def can_create(directory):
    path = os.path.join(directory, f"probe-{os.getpid()}.tmp")
    try:
        with open(path, "w") as f:
            f.write("x")
        os.remove(path)
        return True
    except OSError:
        return False


def network():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(0.2)
    try:
        s.connect(("10.0.0.1", 9))
        return True
    except OSError as e:
        return e.errno not in (101,)  # ENETUNREACH
    finally:
        s.close()


def probe():
    own = os.listdir("/proc/self/fd")
    report = {
        "fds": sorted(int(fd) for fd in own if os.path.exists(f"/proc/self/fd/{fd}")),
        "pids": sum(1 for e in os.listdir("/proc") if e.isdigit()),
        "write_cwd": can_create("."),
        "write_dir": can_create(sys.argv[1]),
        "read_dir": sorted(os.listdir(sys.argv[2])) if os.path.isdir(sys.argv[2]) else None,
        "network": network(),
    }
    report["parent"] = os.getppid()
    try:
        report["log_bytes"] = os.path.getsize(os.path.join(sys.argv[2], "log.jsonl"))
    except OSError:
        report["log_bytes"] = None
    with open("probe-report.json", "w") as f:
        json.dump(report, f)


def on_request(request):
    global probed
    if not probed:
        probed = True
        try:
            probe()
        except Exception as e:  # noqa: BLE001 -- the report says what failed
            with open("probe-report.json", "w") as f:
                json.dump({"error": repr(e)}, f)
    return action(request, request["legal"][0])


serve("prober", on_request)
