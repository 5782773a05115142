#!/usr/bin/env python3
"""Test bot: a reader of other bots' control groups that plays legal[0]. At its first request
it walks /sys/fs/cgroup and reads every pids.current it finds (each bot's process count, which
a bot can change and another read: a covert channel), and tries the files of /proc that show
other processes' locks and timers. It writes {"sys_entries": entries listed directly under
/sys, "pids_files": pids.current files read, "bot_groups": directories named bot-N, "proc":
{file: bytes read or an errno}} to cgroup-report.json in its working directory."""
import json
import os
import re

from botlib import action, serve

done = False


def look():
    report = {"sys_entries": len(os.listdir("/sys")), "pids_files": 0, "bot_groups": 0, "proc": {}}
    for root, dirs, files in os.walk("/sys/fs/cgroup"):
        report["bot_groups"] += sum(1 for d in dirs if re.fullmatch(r"bot-\d+", d))
        if "pids.current" in files:
            try:
                with open(os.path.join(root, "pids.current")) as f:
                    int(f.read())
                report["pids_files"] += 1
            except (OSError, ValueError):
                pass
    for name in ["locks", "timer_list", "kpagecgroup"]:
        try:
            with open(f"/proc/{name}", "rb") as f:
                report["proc"][name] = len(f.read(65536))
        except OSError as e:
            report["proc"][name] = f"errno {e.errno}"
    with open("cgroup-report.json.tmp", "w") as f:
        json.dump(report, f)
    os.replace("cgroup-report.json.tmp", "cgroup-report.json")


def on_request(request):
    global done
    if not done:
        done = True
        look()
    return action(request, request["legal"][0])


serve("cgroup-reader", on_request)
