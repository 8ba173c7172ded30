#!/usr/bin/env python3
"""Crash test: kill -9 a durable database at random moments, restart it, check it.

Runs durability_crash_driver (crash_driver.cc) against one data directory, over and
over: each life recovers the directory, checks the recovered state against everything
acknowledged so far (the driver prints "ack I" once item I's outcome is in), resumes
its statement stream, and is sent SIGKILL after a random delay: during recovery, during
an epoch, during an fsync, during a checkpoint, wherever it happens to be. The last
life runs with --verify: the recovered state's hash must equal an uncrashed in-memory
run of the same prefix of the stream.

    crash_test.py --driver PATH [--cycles 50] [--seed 1] [--max-delay 0.6] [--keep DIR]

Exit status 0 if every life's checks passed.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time


def run_life(cmd, delay, timeout, after_recovery):
    """Starts the driver and kills it `delay` seconds after it started or (with
    `after_recovery`) after it finished recovering; delay None: lets it finish.
    Returns (acks, lines, returncode, stderr, killed)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    acks = []
    lines = []
    recovered = threading.Event()

    def reader():
        for line in proc.stdout:
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith("ack "):
                acks.append(int(line.split()[1]))
            elif line.startswith("resume "):
                recovered.set()
        recovered.set()

    t = threading.Thread(target=reader)
    t.start()
    killed = False
    try:
        if delay is not None and after_recovery:
            recovered.wait(timeout)
        proc.wait(timeout=delay if delay is not None else timeout)
    except subprocess.TimeoutExpired:
        if delay is None:
            proc.kill()
            t.join()
            raise RuntimeError("the driver did not finish in %.0f s" % timeout)
        proc.send_signal(signal.SIGKILL)
        killed = True
        proc.wait()
    t.join()
    err = proc.stderr.read()
    return acks, lines, proc.returncode, err, killed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--cycles", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-delay", type=float, default=0.02)
    ap.add_argument("--max-delay", type=float, default=0.6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--keep", help="use (and keep) this directory instead of a temporary one")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    base = args.keep or tempfile.mkdtemp(prefix="caracal-crash-")
    data = os.path.join(base, "data")
    files = os.path.join(base, "files")
    if args.keep and os.path.exists(data):
        shutil.rmtree(data)
    started = time.time()
    acked = -1
    killed_lives = 0
    during_checkpoint = 0  # lives killed while a checkpoint was being written
    try:
        for cycle in range(args.cycles + 1):
            last = cycle == args.cycles
            cmd = [args.driver, data, "--files", files, "--acked", str(acked), "--seed", str(args.seed),
                   "--workers", str(args.workers)]
            if last:
                # The final life: verify against an uncrashed run, run a little more, stop.
                cmd += ["--verify", "--items", str(max(acked, 0) + 300)]
                delay = None
            else:
                delay = rng.uniform(args.min_delay, args.max_delay)
            # Most lives are killed while they run the stream; one in five while (or
            # soon after) it recovers.
            after_recovery = rng.random() >= 0.2
            acks, lines, code, err, killed = run_life(cmd, delay, 120, after_recovery)
            if not killed and code != 0:
                sys.stderr.write("life %d failed (exit %d):\n%s\n%s\n" % (cycle, code, "\n".join(lines[-5:]), err))
                return 1
            if err.strip() and "CHECK FAILED" in err:
                sys.stderr.write("life %d: %s\n" % (cycle, err))
                return 1
            ckpt_dir = os.path.join(data, "checkpoint")
            if killed and os.path.isdir(ckpt_dir) and any(f.endswith(".tmp") for f in os.listdir(ckpt_dir)):
                during_checkpoint += 1
            resumed = next((l for l in lines if l.startswith("resume ")), None)
            if acks:
                if acks != sorted(acks) or acks[0] <= acked:
                    sys.stderr.write("life %d acknowledged out of order: %s\n" % (cycle, acks[:10]))
                    return 1
                acked = acks[-1]
            killed_lives += killed
            print("life %2d: %s, %d acks (last %d)%s" % (
                cycle, (resumed or "killed during recovery")[:160], len(acks), acked,
                ", killed %.2f s after %s" % (delay, "recovery" if after_recovery else "start") if killed else ""))
            for l in lines:
                if l.startswith("verified "):
                    print("  " + l)
        print("%d lives (%d killed, %d of them while a checkpoint was being written) in %.1f s; "
              "the last acknowledged item was %d" % (
                  args.cycles + 1, killed_lives, during_checkpoint, time.time() - started, acked))
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
