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
  log_bytes, config_bytes -- the sizes it sees of log.jsonl and match.toml in the directory
               named by argv[2];
  write_dev_shm_past_cap -- whether it can write 8 MiB to /dev/shm;
  write_run -- whether it can create a file in /run (where the host's sockets live);
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


def can_fill(directory, size):
    """Whether `size` bytes can be written to one file in `directory`."""
    path = os.path.join(directory, f"fill-{os.getpid()}.tmp")
    try:
        with open(path, "wb") as f:
            f.write(b"x" * size)
        return True
    except OSError:
        return False
    finally:
        try:
            os.remove(path)
        except OSError:
            pass


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
    for key, name in (("log_bytes", "log.jsonl"), ("config_bytes", "match.toml")):
        try:
            report[key] = os.path.getsize(os.path.join(sys.argv[2], name))
        except OSError:
            report[key] = None
    report["write_dev_shm_past_cap"] = can_fill("/dev/shm", 8 << 20)
    report["write_run"] = can_create("/run")
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
