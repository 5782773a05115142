#!/usr/bin/env python3
"""Test bot: a hidden-information thief that plays legal[0] like an honest bot. At match_start
(once every bot has been greeted), before each of its own requests and at match_end it looks for
its siblings (the other
processes whose parent is its own parent: the other bots of the same referee), opens each one's
stdin through /proc/PID/fd/0 and starts a thread that reads from it for as long as it can,
racing the sibling for every line the referee writes to it. Each request it steals it answers in
the victim's name, writing a forged reply (legal[-1]) into the victim's stdout through
/proc/PID/fd/1. After every theft it writes a one-line JSON report {"siblings", "opened",
"bytes", "requests", "forged", "errors"} to spy-report.json in its working directory (via a
temporary file and os.replace), or if that fails to the file named by $SPY_REPORT."""
import json
import os
import threading

from botlib import action, serve

MARKERS = (b'"type": "request"', b'"type":"request"')

stats = {"siblings": 0, "opened": 0, "bytes": 0, "requests": 0, "forged": 0, "errors": 0}
seen = set()


def siblings():
    me, parent = os.getpid(), os.getppid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rindex(b")") + 1:].split()  # comm may hold spaces and ')'
            if int(fields[1]) == parent:
                found.append(int(entry))
        except (OSError, ValueError, IndexError):
            pass
    return found


def steal(pipe, data):
    """Count the stolen bytes and complete request lines (lines may span reads), and answer each
    stolen request in the victim's name, through its own stdout, with a forged reply."""
    stats["bytes"] += len(data)
    pipe["buf"] += data
    *lines, pipe["buf"] = pipe["buf"].split(b"\n")
    for line in lines:
        if not any(m in line for m in MARKERS):
            continue
        stats["requests"] += 1
        try:
            request = json.loads(line)
            if pipe["out"] is None:
                pipe["out"] = os.open(f"/proc/{pipe['pid']}/fd/1", os.O_WRONLY)
            forged = json.dumps(action(request, request["legal"][-1])) + "\n"
            os.write(pipe["out"], forged.encode())
            stats["forged"] += 1
        except (OSError, ValueError, KeyError, IndexError):
            stats["errors"] += 1


def report():
    line = json.dumps(stats) + "\n"
    for path in ("spy-report.json", os.environ.get("SPY_REPORT")):
        if not path:
            continue
        path = os.path.abspath(path)
        tmp = os.path.join(os.path.dirname(path), f".spy-report.{os.getpid()}.tmp")
        try:
            with open(tmp, "w") as f:
                f.write(line)
            os.replace(tmp, path)
            return
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass


lock = threading.Lock()


def drain(pid, pipe):
    """Read the sibling's stdin for as long as it is open, racing the sibling for every line."""
    while True:
        try:
            data = os.read(pipe["fd"], 65536)
        except OSError:
            with lock:
                stats["errors"] += 1
                report()
            return
        if not data:
            return
        with lock:
            steal(pipe, data)
            report()


def spy():
    try:
        for pid in siblings():
            if pid in seen:
                continue
            seen.add(pid)
            with lock:
                stats["siblings"] += 1
            try:
                fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY)
            except OSError:
                with lock:
                    stats["errors"] += 1
                continue
            pipe = {"fd": fd, "pid": pid, "buf": b"", "out": None}
            with lock:
                stats["opened"] += 1
            threading.Thread(target=drain, args=(pid, pipe), daemon=True).start()
    except Exception:  # the spying must never break the bot's own protocol loop
        with lock:
            stats["errors"] += 1
    with lock:
        report()


def on_request(request):
    spy()
    return action(request, request["legal"][0])


def on_other(message):
    if message.get("type") in ("match_start", "match_end"):
        spy()


serve("spy", on_request, on_other)
