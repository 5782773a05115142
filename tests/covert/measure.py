#!/usr/bin/env python3
"""Measures the covert channels between sandboxed bots that remain (docs/security.md, "Covert
channels that remain"): for each channel of tests/bots/covert_channel.py and each slot length,
one `referee match` of a sender (with a working directory of its own), a receiver and a random
bot, under the referee's defaults (the sandbox, bot users as root); a random secret; the bits the
receiver read. Prints a Markdown table: bits per second (one bit per slot), bits read right, and
the error rate (a bit read wrong or not at all).

Usage, from the workspace root, after `cargo build --workspace --bins`:
    python3 tests/covert/measure.py [--bits N] [--referee PATH] [CHANNEL:SLOT ...]
e.g. `python3 tests/covert/measure.py procs:0.1 procs:0.05 cpu:0.2`. Without channels, it
measures every channel at the slots of DEFAULT_RUNS. The directories it makes (under
/tmp/covert-measure-*) are left for inspection."""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOTS = os.path.join(ROOT, "tests", "bots")
# The file of the page-cache channel: one every sandbox can read, which nothing else reads.
PAGECACHE_FILE = "/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1"
DEFAULT_RUNS = ["statfs:0.5", "pagecache:0.05", "pagecache:0.02", "procs:0.1", "procs:0.05", "tcp:0.1", "tcp:0.05",
                "freeram:0.5", "freeram:0.2", "pipes:0.2", "pipes:0.1", "cpu:0.2",
                "cpu:0.1", "inodes:0.5", "inodes:1.0"]


def measure(args, channel, slot, count):
    referee = args.referee
    work = tempfile.mkdtemp(prefix=f"covert-measure-{channel}-")
    os.chmod(work, 0o755)
    bits = "".join(random.choice("01") for _ in range(count))
    start = f"{time.time() + 8:.3f}"
    python = "/usr/bin/python3"
    sender_dir, receiver_dir = os.path.join(work, "sender"), os.path.join(work, "receiver")
    # The receiver gets a working directory only where its channel needs one.
    receiver_path = {"inodes": receiver_dir, "pagecache": args.pagecache_file}.get(channel, "/")
    bots = [
        ("sender", [python, os.path.join(BOTS, "channel_sender.py"), channel, start, str(slot),
                    bits, receiver_path], sender_dir),
        ("receiver", [python, os.path.join(BOTS, "channel_receiver.py"), channel, start,
                      str(slot), str(count), receiver_path],
         receiver_dir if channel == "inodes" else None),
        ("random", [python, os.path.join(ROOT, "sample-bots", "python", "vabanque_random.py")],
         None),
    ]
    config = 'game = "vabanque"\nseed = 7\ntime_limit_ms = 600000\nstartup_limit_ms = 60000\n'
    for name, command, workdir in bots:
        config += f"[[bot]]\nname = {json.dumps(name)}\ncommand = {json.dumps(command)}\n"
        if workdir:
            os.makedirs(workdir)
            config += f"workdir = {json.dumps(workdir)}\n"
    path = os.path.join(work, "match.toml")
    with open(path, "w") as f:
        f.write(config)
    stderr_dir = os.path.join(work, "stderr")
    out = subprocess.run([referee, "match", path, "--stderr-dir", stderr_dir],
                         capture_output=True, text=True, cwd=work)
    if out.returncode != 0:
        sys.exit(f"{channel}: the referee failed: {out.stderr}")
    with open(os.path.join(stderr_dir, "receiver.stderr")) as f:
        line = next(l for l in f if l.startswith("channel-report "))
    report = json.loads(line.split(" ", 1)[1])
    read = report["bits"] or "?" * count
    right = sum(1 for a, b in zip(bits, read) if a == b)
    return right, report


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bits", type=int, default=64)
    parser.add_argument("--referee", default=os.path.join(ROOT, "target", "debug", "referee"))
    parser.add_argument("--pagecache-file", default=PAGECACHE_FILE)
    parser.add_argument("runs", nargs="*", default=DEFAULT_RUNS)
    args = parser.parse_args()
    print("| channel | slot | bits/s | bits read right | error rate | errors |")
    print("|---|---|---|---|---|---|")
    for run in args.runs:
        channel, slot = run.split(":")
        right, report = measure(args, channel, float(slot), args.bits)
        errors = ", ".join(f"errno {e}" for e in report["errors"]) or "none"
        late = " (late)" if report["late"] else ""
        print(f"| {channel} | {slot} s | {1 / float(slot):g} | {right}/{args.bits}{late} | "
              f"{1 - right / args.bits:.0%} | {errors} |", flush=True)


main()
