#!/usr/bin/env python3
"""Test bot: a colluder that moves every machine-wide count it can, and plays legal[0]. At its
first request, before it answers, it makes one burst: it creates and deletes 10,000 empty files
in its working directory (its workdir), writes and deletes 8 MiB there (synced to disk), forks
50 children, starts 50 threads, allocates and touches 100 MiB, makes and closes 2,000 pipes,
opens 20 pseudo-terminals and 20 asynchronous I/O contexts. Then, until goodbye, a thread keeps
churning (files, forks, memory, pipes) while the other bots read. It writes
{"burst": {what: count done}, "errors": {what: errno}, "churns": n} to sender-report.json in its
working directory, after the burst and at goodbye."""
import ctypes
import json
import os
import threading

from botlib import action, serve

done = {}
errors = {}
churns = 0
stop = threading.Event()


def attempt(what, count, step):
    """Runs step(i) for i in range(count), counting the steps done under `what`."""
    done.setdefault(what, 0)
    for i in range(count):
        try:
            step(i)
            done[what] += 1
        except OSError as e:
            errors[what] = e.errno
            return


def files(count):
    names = [f"counter-{i}" for i in range(count)]
    attempt("files_created", count, lambda i: os.close(os.open(names[i], os.O_CREAT | os.O_WRONLY, 0o600)))
    attempt("files_deleted", done["files_created"], lambda i: os.unlink(names[i]))


def disk(megabytes):
    def write(_):
        with open("counter-data", "wb") as f:
            for _ in range(megabytes):
                f.write(os.urandom(1 << 20))
            f.flush()
            os.fsync(f.fileno())
        os.unlink("counter-data")
    attempt("disk_mib_written", 1, write)
    done["disk_mib_written"] *= megabytes


def forks(count):
    def fork(_):
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
    attempt("forks", count, fork)


def threads(count):
    release = threading.Event()
    started = []

    def start(_):
        t = threading.Thread(target=release.wait)
        t.start()
        started.append(t)
    attempt("threads", count, start)
    release.set()
    for t in started:
        t.join()


def memory(megabytes):
    def allocate(_):
        block = bytearray(megabytes << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
    attempt("memory_mib", 1, allocate)
    done["memory_mib"] *= megabytes


def pipes(count):
    def pipe(_):
        a, b = os.pipe()
        os.close(a)
        os.close(b)
    attempt("pipes", count, pipe)


def terminals(count):
    held = []
    attempt("ptys", count, lambda _: held.append(os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)))
    for fd in held:
        os.close(fd)


def aio(count):
    libc = ctypes.CDLL(None, use_errno=True)
    contexts = (ctypes.c_ulong * count)()
    made = []

    def setup(i):
        # io_setup(128, &ctx): x86-64 206, arm64 and RISC-V 0.
        number = 206 if os.uname().machine == "x86_64" else 0
        if libc.syscall(number, 128, ctypes.byref(contexts, i * 8)) != 0:
            raise OSError(ctypes.get_errno(), "io_setup")
        made.append(contexts[i])
    attempt("aio_contexts", count, setup)
    destroy = 207 if os.uname().machine == "x86_64" else 1
    for ctx in made:
        libc.syscall(destroy, ctypes.c_ulong(ctx))


def report():
    with open("sender-report.json.tmp", "w") as f:
        json.dump({"burst": done, "errors": errors, "churns": churns}, f)
    os.replace("sender-report.json.tmp", "sender-report.json")


def churn():
    global churns
    while not stop.wait(0.05):
        names = [f"churn-{i}" for i in range(200)]
        for name in names:
            os.close(os.open(name, os.O_CREAT | os.O_WRONLY, 0o600))
        for name in names:
            os.unlink(name)
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        block = bytearray(16 << 20)
        for i in range(0, len(block), 4096):
            block[i] = 1
        del block
        for _ in range(100):
            a, b = os.pipe()
            os.close(a)
            os.close(b)
        churns += 1


burst_done = False


def on_request(request):
    global burst_done
    if not burst_done:
        burst_done = True
        files(10_000)
        disk(8)
        forks(50)
        threads(50)
        memory(100)
        pipes(2_000)
        terminals(20)
        aio(20)
        report()
        threading.Thread(target=churn, daemon=True).start()
    return action(request, request["legal"][0])


def on_goodbye():
    stop.set()
    report()


serve("counter-sender", on_request, on_goodbye=on_goodbye)
