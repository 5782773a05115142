#!/usr/bin/env python3
"""Test bot: at its first request, four processes take turns at one multiprocessing.Lock (a POSIX
semaphore shared between processes) until the pool's work is done, then it answers legal[0].
Under the referee's filter a process that must wake another at the lock gets EPERM, and glibc
aborts it ("The futex facility returned an unexpected error code."): the pool never finishes
and the bot times out, its fault message saying why (docs/security.md)."""
import multiprocessing
import sys

from botlib import action, serve


def take_turns(lock, rounds):
    for _ in range(rounds):
        with lock:
            pass


def contend():
    context = multiprocessing.get_context("fork")
    lock = context.Lock()
    workers = [context.Process(target=take_turns, args=(lock, 20000)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    sys.stderr.write("shared lock: every turn taken\n")
    sys.stderr.flush()


def on_request(request):
    contend()
    return action(request, request["legal"][0])


serve("shared-lock", on_request)
