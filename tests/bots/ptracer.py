#!/usr/bin/env python3
"""Test bot: a ptracer that plays legal[0]. At its first request it tries, on the referee (its
parent) unless its parent is its own sandbox and on each other bot it can see: PTRACE_ATTACH,
PTRACE_SEIZE (letting go at once of any it gets), and opening /proc/PID/mem, /proc/PID/environ
and its stdin, /proc/PID/fd/0; and it tries to move itself into the root control group of each
hierarchy it sees (writing its pid into cgroup.procs). It writes what it is, what it saw and each attempt's outcome to
ptracer-report.json in its working directory."""
import ctypes
import glob
import os

from intruder import outcome, serve_attacker

PTRACE_ATTACH, PTRACE_DETACH, PTRACE_SEIZE = 16, 17, 0x4206
WALL = 0x40000000
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
libc.ptrace.restype = ctypes.c_long


def trace(request, pid):
    if libc.ptrace(request, pid, None, None) == -1:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    # It worked: let go at once, so that the test fails instead of hanging.
    if request == PTRACE_ATTACH:
        os.waitpid(pid, WALL)
    libc.ptrace(PTRACE_DETACH, pid, None, None)


def read(path):
    # Opening is what the kernel refuses to another user; reading a pipe could block.
    with open(path, "rb", buffering=0):
        pass


def join_root_group(procs):
    with open(procs, "w") as f:
        f.write(str(os.getpid()))


def attempts(parent, parent_comm, others):
    tried = {}
    victims = ([] if parent_comm == "bwrap" else [("referee", parent)]) + [
        (f"bot {pid}", pid) for pid in others]
    for who, pid in victims:
        tried[f"{who}: PTRACE_ATTACH"] = outcome(lambda: trace(PTRACE_ATTACH, pid))
        tried[f"{who}: PTRACE_SEIZE"] = outcome(lambda: trace(PTRACE_SEIZE, pid))
        for file in ["mem", "environ", "fd/0"]:
            tried[f"{who}: open /proc/PID/{file}"] = outcome(lambda: read(f"/proc/{pid}/{file}"))
    for procs in glob.glob("/sys/fs/cgroup/cgroup.procs") + glob.glob("/sys/fs/cgroup/*/cgroup.procs"):
        tried[f"join {procs}"] = outcome(lambda: join_root_group(procs))
    return tried


serve_attacker("ptracer", attempts)
