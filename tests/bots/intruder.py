"""What the privilege tests' bots share (tests/e2e/privileges.rs): who the bot runs as, which
processes of the referee and the other bots it can see, and the report it leaves in its working
directory. The bots that attack (signaller.py, ptracer.py) attack nothing when they run as root:
there every attack would succeed and harm the machine, and the test fails on their uid instead."""
import errno
import json
import os

from botlib import action, serve


def identity():
    """The bot's ids, capabilities, no_new_privs and umask, as /proc/self/status tells them."""
    status = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            status[key] = value.split()
    return {
        "uid": [int(x) for x in status["Uid"]],
        "gid": [int(x) for x in status["Gid"]],
        "groups": [int(x) for x in status.get("Groups", [])],
        "caps": {k: status[k][0] for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")},
        "no_new_privs": status["NoNewPrivs"][0],
        "umask": status["Umask"][0],
    }


def is_root():
    return os.geteuid() == 0


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError as e:
        return errno.errorcode[e.errno]


def targets():
    """The bot's parent (the referee, or under bubblewrap the first process of the bot's own PID
    namespace, its sandbox's bwrap), its name, and the parent's other children: the other bots
    when the parent is the referee."""
    parent, me = os.getppid(), os.getpid()
    others = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
            others.append(int(entry))
    return parent, comm(parent), sorted(others)


def outcome(call):
    """"ok" when `call()` succeeds, else the name of its errno (EPERM, EACCES...)."""
    try:
        call()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))


def report(name, data):
    """Writes `data` as JSON to `name` in the working directory, whole or not at all."""
    with open(name + ".tmp", "w") as f:
        json.dump(data, f)
    os.replace(name + ".tmp", name)


def serve_attacker(name, attempts):
    """Plays legal[0] as `name`; at the first request, unless it runs as root, calls
    `attempts(parent, parent_comm, others)` (see `targets`) for {attempt: outcome}, and writes what
    the bot is, what it saw and the outcomes to NAME-report.json."""
    done = False

    def on_request(request):
        nonlocal done
        if not done:
            done = True
            parent, parent_comm, others = targets()
            tried = {"refused": "runs as root"} if is_root() else attempts(parent, parent_comm, others)
            report(f"{name}-report.json", {**identity(), "parent": parent, "parent_comm": parent_comm,
                                            "others": others, "attempts": tried})
        return action(request, request["legal"][0])

    serve(name, on_request)
