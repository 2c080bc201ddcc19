#!/usr/bin/env python3
"""A faulty engine for the referee tests: a proxy in front of a real engine that misbehaves on
purpose.

    faulty.py [--mode MODE] [--at K] [--sleep MS] [--log FILE] -- ENGINE [ARGS...]

Every line from the runner is forwarded to ENGINE and every line of ENGINE's output back,
except that, from the K-th `go` on (default 1), MODE does this:

    ok       nothing (a plain proxy; with --log, a recorder of what the runner sends)
    exit     exits with status 3 at start, before reading anything (K is not used)
    crash    exits with status 1 on the K-th go, without answering
    hang     stops answering on the K-th go (keeps reading, never writes again)
    slow     waits MS milliseconds before passing on the K-th bestmove
    illegal  answers the K-th go with an illegal king move (two steps from e0 or e9)
    badword  answers the K-th go with `bestmove zz9z`
    garbage  prints junk before every answer (bytes that are not UTF-8, a 100 kB line, broken
             info lines, blank lines) and otherwise plays normally
    flood    from the K-th go on, prints info lines without pause, between searches too, and
             otherwise plays normally
    partial  answers the K-th go with half a bestmove line (no newline) and exits

--log FILE appends every line received from the runner to FILE.
"""
import os
import subprocess
import sys
import threading
import time


def main():
    args = sys.argv[1:]
    mode, at, sleep_ms, log = "ok", 1, 0, None
    while args and args[0] != "--":
        key = args.pop(0)
        val = args.pop(0)
        if key == "--mode":
            mode = val
        elif key == "--at":
            at = int(val)
        elif key == "--sleep":
            sleep_ms = int(val)
        elif key == "--log":
            log = val
        else:
            sys.exit("faulty.py: unknown argument " + key)
    if args:
        args.pop(0)
    if mode == "exit":
        sys.exit(3)

    child = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    out = sys.stdout.buffer
    lock = threading.Lock()
    state = {"go": 0, "hung": False, "side": "w"}

    def write(data):
        with lock:
            if state["hung"]:
                return
            out.write(data)
            out.flush()

    def pump():
        for raw in child.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line.startswith("bestmove") and state["go"] >= at:
                if mode == "partial":
                    write(("bestmove " + line.split()[1][:2]).encode())
                    time.sleep(0.2)
                    os._exit(1)
                if mode == "slow":
                    time.sleep(sleep_ms / 1000.0)
                elif mode == "illegal":
                    line = "bestmove " + ("e0e2" if state["side"] == "w" else "e9e7")
                elif mode == "badword":
                    line = "bestmove zz9z"
            write((line + "\n").encode())

    def flood():
        n = 0
        pad = "x" * 150
        while True:
            if state["go"] >= at:
                n += 1
                write(("info string flood %d %s\n" % (n, pad)).encode())
            else:
                time.sleep(0.001)

    threading.Thread(target=pump, daemon=True).start()
    if mode == "flood":
        threading.Thread(target=flood, daemon=True).start()
    logf = open(log, "a") if log else None
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        if logf:
            logf.write(line + "\n")
            logf.flush()
        words = line.split()
        if words and words[0] == "position" and "fen" in words:
            i = words.index("fen")
            fen_side = words[i + 2] if len(words) > i + 2 else "w"
            n = len(words) - words.index("moves") - 1 if "moves" in words else 0
            flip = n % 2 == 1
            state["side"] = ("b" if fen_side == "w" else "w") if flip else fen_side
        if words and words[0] == "go":
            state["go"] += 1
            if state["go"] >= at:
                if mode == "crash":
                    os._exit(1)
                if mode == "hang":
                    with lock:
                        state["hung"] = True
            if mode == "garbage":
                write(b"\xff\xfe\x00 not utf-8 \xc3\x28\n")
                write(b"z" * 100000 + b"\n")
                write(b"info depth x score cp notanumber nodes -\n")
                write(b"info score mate\n")
                write(b"bestmov e2e4\n\n   \t\n")
        try:
            child.stdin.write((line + "\n").encode())
            child.stdin.flush()
        except (BrokenPipeError, OSError):
            break
    try:
        child.stdin.close()
    except OSError:
        pass
    try:
        child.wait(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()


if __name__ == "__main__":
    main()
