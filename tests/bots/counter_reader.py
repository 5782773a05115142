#!/usr/bin/env python3
"""Test bot: a colluder that reads every count of the machine it can see, and plays legal[0].
Once before it answers hello, and again at each request and at goodbye, it reads:
  statfs  -- statvfs() of every mount point of /proc/self/mountinfo and fstatvfs() of "/" (free
             and total blocks and inodes, or the errno);
  files   -- every file under /proc (but the directories of processes: its own namespace's)
             and /sys (not with argv[1] = "proc": the host's /sys is big), /proc/self/net,
             /proc/self/cgroup and /proc/self/mountinfo (the content, or the errno);
  sysinfo -- the sysinfo() system call: processes, free memory, loads.
Each reading is compared with the first. At goodbye it writes one line to stderr,
"counter-report " and JSON: {"readings": n, "statfs": {mount: errno or "read"}, "files": {top
directory: files read}, "unreadable": n, "changed": {name: [first, last]} (every file or figure
that ever differed from the first reading; values cut to 200 characters)}."""
import json
import os
import sys

from botlib import action, serve
from covert_channel import sysinfo

WITHOUT_SYS = sys.argv[1:] == ["proc"]
# Not walked: the processes' directories (their own), and files that block or are huge.
SKIP = {"/proc/self", "/proc/thread-self", "/proc/kmsg", "/proc/kcore", "/proc/sysrq-trigger",
        "/proc/pagemap", "/proc/kpagecount", "/proc/kpageflags", "/proc/kpagecgroup"}


def read(path):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        return f"errno {e.errno}"
    try:
        return os.read(fd, 1 << 20).decode("latin1")
    except OSError as e:
        return f"errno {e.errno}"
    finally:
        os.close(fd)


def walk(directory, out, depth=0):
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return
    for name in names:
        path = os.path.join(directory, name)
        if path in SKIP or (directory == "/proc" and name.isdigit()) or os.path.islink(path):
            continue
        if os.path.isdir(path):
            if depth < 8:
                walk(path, out, depth + 1)
        else:
            out[path] = read(path)


def mount_points():
    points = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            point = line.split()[4].encode().decode("unicode_escape")
            if point not in points:
                points.append(point)
    return points


def statfs(call, target):
    try:
        s = call(target)
        return {"blocks": s.f_blocks, "bfree": s.f_bfree, "bavail": s.f_bavail,
                "files": s.f_files, "ffree": s.f_ffree}
    except OSError as e:
        return f"errno {e.errno}"


def machine():
    """The figures of the sysinfo() system call that count the machine's work."""
    info = sysinfo()
    return {"procs": info.procs, "freeram": info.freeram, "sharedram": info.sharedram,
            "bufferram": info.bufferram, "loads": list(info.loads)}


def reading():
    figures = {}
    for point in mount_points():
        figures[f"statvfs {point}"] = statfs(os.statvfs, point)
    fd = os.open("/", os.O_RDONLY)
    figures["fstatvfs /"] = statfs(os.fstatvfs, fd)
    os.close(fd)
    files = {}
    for top in ["/proc", "/proc/self/net"] + ([] if WITHOUT_SYS else ["/sys"]):
        walk(top, files)
    for own in ["/proc/self/cgroup", "/proc/self/mountinfo"]:
        files[own] = read(own)
    figures.update(files)
    for key, value in machine().items():
        figures[f"sysinfo {key}"] = value
    return figures


first = reading()
changed = {}
readings = 1


def compare():
    global readings
    now = reading()
    readings += 1
    for name in sorted(set(first) | set(now)):
        if first.get(name) != now.get(name):
            changed[name] = [str(first.get(name))[:200], str(now.get(name))[:200]]


def on_request(request):
    compare()
    return action(request, request["legal"][0])


def on_goodbye():
    compare()
    tops = {}
    for name, value in first.items():
        if name.startswith("/"):
            top = "/".join(name.split("/")[:3])
            tops[top] = tops.get(top, 0) + 1
    report = {
        "readings": readings,
        "statfs": {name: value if isinstance(value, str) else "read"
                   for name, value in first.items() if "statvfs" in name},
        "files": tops,
        "unreadable": sum(1 for n, v in first.items()
                          if n.startswith("/") and str(v).startswith("errno")),
        "changed": changed,
    }
    sys.stderr.write("counter-report " + json.dumps(report) + "\n")
    sys.stderr.flush()


serve("counter-reader", on_request, on_goodbye=on_goodbye)
