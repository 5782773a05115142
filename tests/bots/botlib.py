"""What the test bots share: recording the PID for leak checks, and the protocol loop.

Each test bot misbehaves in one way; everything else it does the ordinary way, here.
"""
import json
import os
import sys


def record_pid(pid=None):
    """If REFEREE_TEST_PID_DIR is set, write `pid` (default: our own) to a file named after it
    there, so a test can check that no process survives the referee. Never raises: if the file
    cannot be written (a read-only sandbox, say), it is silently skipped."""
    directory = os.environ.get("REFEREE_TEST_PID_DIR")
    if directory:
        pid = pid or os.getpid()
        try:
            with open(os.path.join(directory, str(pid)), "x") as f:
                f.write(f"{pid}\n")
        except OSError:
            pass  # e.g. a read-only sandbox: the record is best effort


def send(message):
    """Write one protocol line and flush it."""
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def action(request, act):
    """The action reply to `request`."""
    return {"type": "action", "id": request["id"], "action": act}


def serve(name, on_request, on_other=None, protocol=1, on_goodbye=None):
    """Answer hello with `name`, each request with what `on_request(request)` returns (a message
    to send, a raw string to write as is, or None for no answer), pass every other message to
    `on_other`, call `on_goodbye()` on goodbye, and return on goodbye (True) or at the end of
    input (False)."""
    record_pid()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": name, "protocol": protocol})
        elif kind == "request":
            reply = on_request(message)
            if isinstance(reply, str):
                sys.stdout.write(reply)
                sys.stdout.flush()
            elif reply is not None:
                send(reply)
        elif kind == "goodbye":
            if on_goodbye is not None:
                on_goodbye()
            return True
        elif on_other is not None:
            on_other(message)
    return False
