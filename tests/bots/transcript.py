#!/usr/bin/env python3
"""Test bot: plays one seat of a match from a transcript, or records a transcript of a real bot.

A transcript (tests/fixtures/transcripts/, see the README there) holds, in order, every line the
referee wrote to one seat (`> LINE`) and every line the bot wrote back (`< LINE`); lines that
start with `#` are comments. Whatever the mode, this bot copies to standard error, in that same
format, every line it reads (`> `) and every line it writes (`< `), so that with
`referee match --stderr-dir DIR` the file DIR/NAME.stderr is the transcript of what happened.

`transcript.py replay FILE` answers from FILE: after the k-th line it reads, it writes the bot
lines that follow the k-th referee line of FILE, byte for byte, whatever it was sent. It does not
compare what it reads with FILE: the test does, from the copy on standard error.

`transcript.py record COMMAND...` runs COMMAND (a real bot) and passes every line between it and
the referee. It expects the bot to write exactly one line for each `hello` and `request` it is
sent, and nothing else (true of the sample bots); the bot's standard error passes through.

Both modes stop after `goodbye` or at the end of their input.
"""
import json
import subprocess
import sys

from botlib import record_pid


def note(prefix, line):
    """Copy one line to standard error, the test's record of the exchange."""
    sys.stderr.write(prefix + line + "\n")
    sys.stderr.flush()


def write(line):
    """Write one line to the referee and note it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    note("< ", line)


def load(path):
    """The bot lines that follow each referee line of a transcript, in order."""
    answers = []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("> "):
                answers.append([])
            elif line.startswith("< "):
                if not answers:
                    sys.exit(f"{path}: a bot line before any referee line")
                answers[-1].append(line[2:])
            elif line and not line.startswith("#"):
                sys.exit(f"{path}: not a transcript line: {line!r}")
    return answers


def replay(path):
    answers = load(path)
    for k, raw in enumerate(sys.stdin):
        line = raw.rstrip("\n")
        note("> ", line)
        for answer in answers[k] if k < len(answers) else []:
            write(answer)
        if json.loads(line).get("type") == "goodbye":
            return


def record(command):
    bot = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        note("> ", line)
        bot.stdin.write(line + "\n")
        bot.stdin.flush()
        kind = json.loads(line).get("type")
        if kind in ("hello", "request"):
            answer = bot.stdout.readline()
            if not answer:
                sys.exit("the recorded bot closed its output")
            write(answer.rstrip("\n"))
        elif kind == "goodbye":
            break
    bot.stdin.close()
    bot.wait()


def main():
    record_pid()
    if len(sys.argv) == 3 and sys.argv[1] == "replay":
        replay(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "record":
        record(sys.argv[2:])
    else:
        sys.exit("usage: transcript.py replay FILE | transcript.py record COMMAND...")


if __name__ == "__main__":
    main()
