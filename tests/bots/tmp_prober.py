#!/usr/bin/env python3
"""Test bot: plays legal[0], and at its first request writes on stderr, as one JSON line, what it
finds of /tmp and of where it may write:
  sees_itself   -- whether its own file exists for it;
  beside        -- the entries of its own file's directory;
  write_tmp     -- whether /tmp/tmp-prober-scratch can be written and read back;
  write_beside  -- whether written-beside.txt can be created in its own file's directory;
  write_cwd     -- whether written-in-cwd.txt can be created in its working directory;
  tmp_mib       -- the size of the file system of /tmp, in MiB (its mount's size= option: the
                   system-call filter refuses statvfs);
  home, tmpdir  -- its HOME and TMPDIR.
It leaves what it wrote where it is, for the test to look for on the host. It imports nothing
beside it (not botlib): named by its path under /tmp, its directory is not what it sees."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
probed = False


def can_write(path):
    try:
        with open(path, "w") as f:
            f.write("written by tmp_prober.py\n")
        with open(path) as f:
            return f.read() == "written by tmp_prober.py\n"
    except OSError:
        return False


def tmp_mib():
    """The size= of the topmost mount on /tmp, in MiB (None without one)."""
    size = None
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            if fields[4] != "/tmp":
                continue
            options = line.split(" - ", 1)[1].split()[2].split(",")
            size = next((o[5:] for o in options if o.startswith("size=")), None)
    if size is None:
        return None
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    factor = units.get(size[-1].lower(), 1)
    return int(size.rstrip("kKmMgG")) * factor >> 20


def probe():
    return {
        "sees_itself": os.path.exists(os.path.abspath(__file__)),
        "beside": sorted(os.listdir(HERE)),
        "write_tmp": can_write("/tmp/tmp-prober-scratch"),
        "write_beside": can_write(os.path.join(HERE, "written-beside.txt")),
        "write_cwd": can_write("written-in-cwd.txt"),
        "tmp_mib": tmp_mib(),
        "home": os.environ.get("HOME"),
        "tmpdir": os.environ.get("TMPDIR"),
    }


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line) if line.strip() else {}
    if message.get("type") == "hello":
        send({"type": "hello", "name": "tmp-prober", "protocol": 1})
    elif message.get("type") == "request":
        if not probed:
            probed = True
            sys.stderr.write(json.dumps(probe()) + "\n")
            sys.stderr.flush()
        send({"type": "action", "id": message["id"], "action": message["legal"][0]})
    elif message.get("type") == "goodbye":
        break
