#!/usr/bin/env python3
"""Test bot: tries to make a user namespace, and in it to mount the root of the cgroup2 hierarchy
and read the machine's processes and load from it; plays legal[0]. At its first request it
tries, in this order:
  clone           -- clone(CLONE_NEWUSER) (the child exits at once);
  clone3          -- clone3 with CLONE_NEWUSER (the same);
  unshare_command -- `unshare -U true`: its exit code;
  unshare         -- unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWCGROUP), itself;
  mount           -- mounting cgroup2 on a directory of /tmp (in the new namespaces if made);
  cgroup_procs    -- the processes listed in that mount's cgroup.procs (null if not mounted),
  cpu_stat        -- whether its cpu.stat could be read.
Each failure is "errno N". It writes one line to stderr, "userns-report " and JSON. With
--once, it does the same at once, prints the JSON on stdout and exits (without the protocol)."""
import ctypes
import json
import os
import subprocess
import sys
import tempfile

from botlib import action, serve

CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUSER = 0x00020000, 0x02000000, 0x10000000
SIGCHLD = 17
libc = ctypes.CDLL(None, use_errno=True)


def outcome(rc):
    return "ok" if rc >= 0 else f"errno {ctypes.get_errno()}"


def child_outcome(pid):
    """In the child (0): exits at once; in the parent: waits for it, gives "ok" or the errno."""
    if pid == 0:
        os._exit(0)
    if pid > 0:
        os.waitpid(pid, 0)
    return outcome(pid)


def try_clone():
    number = 56 if os.uname().machine == "x86_64" else 220
    return child_outcome(libc.syscall(number, ctypes.c_ulong(CLONE_NEWUSER | SIGCHLD), 0, 0, 0, 0))


def try_clone3():
    # struct clone_args of Linux 5.3: flags, pidfd, child_tid, parent_tid, exit_signal, stack,
    # stack_size, tls; 435 on every architecture.
    args = (ctypes.c_uint64 * 8)(CLONE_NEWUSER, 0, 0, 0, SIGCHLD, 0, 0, 0)
    return child_outcome(libc.syscall(435, ctypes.byref(args), ctypes.sizeof(args)))


def probe():
    report = {"clone": try_clone(), "clone3": try_clone3()}
    command = subprocess.run(["unshare", "-U", "true"], capture_output=True)
    report["unshare_command"] = command.returncode
    report["unshare"] = outcome(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWCGROUP))
    target = tempfile.mkdtemp()
    report["mount"] = outcome(libc.mount(b"none", target.encode(), b"cgroup2", 0, None))
    report["cgroup_procs"] = None
    report["cpu_stat"] = False
    if report["mount"] == "ok":
        with open(os.path.join(target, "cgroup.procs")) as f:
            report["cgroup_procs"] = sum(1 for _ in f)
        try:
            with open(os.path.join(target, "cpu.stat")) as f:
                report["cpu_stat"] = bool(f.read())
        except OSError:
            pass
    return report


if "--once" in sys.argv:
    print(json.dumps(probe()))
    sys.exit(0)

probed = False


def on_request(request):
    global probed
    if not probed:
        probed = True
        sys.stderr.write("userns-report " + json.dumps(probe()) + "\n")
        sys.stderr.flush()
    return action(request, request["legal"][0])


serve("userns-prober", on_request)
