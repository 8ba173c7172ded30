#!/usr/bin/env python3
"""A bounded protocol fuzz of `caracal --listen`: for --seconds, fresh connections send
malformed start-up packets, bad and huge lengths, truncated messages, random bytes and
valid messages with corrupted fields, in random order, and hang up. Meanwhile a canary
connection runs a query every few hundred milliseconds; it must always get its answer,
and the server must be alive (and serve new clients) at the end.

  fuzz_test.py --caracal build/caracal [--seconds 20] [--seed N]
"""
import argparse
import random
import socket
import struct
import sys
import threading
import time

from caracal_server import CaracalServer
from pgwire import Conn, SYNC, bind, describe, execute, msg, parse, query, startup_packet


def attack(rng, host, port):
    s = socket.create_connection((host, port), timeout=3)
    try:
        kind = rng.randrange(9)
        if kind == 0:  # random bytes instead of a start-up packet
            s.sendall(rng.randbytes(rng.randrange(1, 300)))
        elif kind == 1:  # absurd start-up lengths
            s.sendall(struct.pack("!i", rng.choice([-1, 0, 3, 7, 10001, 2**31 - 1])) + rng.randbytes(8))
        elif kind == 2:  # a start-up packet cut short
            p = startup_packet()
            s.sendall(p[:rng.randrange(1, len(p))])
        elif kind == 3:  # a start-up packet with garbage parameters
            body = struct.pack("!i", 196608) + rng.randbytes(rng.randrange(0, 60))
            s.sendall(struct.pack("!i", len(body) + 4) + body)
        else:
            s.sendall(startup_packet())
            stream = [query("SELECT 1"), parse("", "SELECT $1::integer"), bind("", "", ["1"]), describe(b"P", ""),
                      execute(), SYNC, query("SELECT * FROM canary"), parse("x", "CALL nothing($1)")]
            data = b"".join(rng.choice(stream) for _ in range(rng.randrange(1, 6)))
            if kind == 4:  # flipped bytes
                data = bytearray(data)
                for _ in range(rng.randrange(1, 6)):
                    data[rng.randrange(len(data))] = rng.randrange(256)
                data = bytes(data)
            elif kind == 5:  # truncated in the middle of a message
                data = data[:rng.randrange(1, len(data))]
            elif kind == 6:  # a huge declared length
                data += b"Q" + struct.pack("!i", rng.choice([2**31 - 1, 2**30, -5, 2, 3]))
            elif kind == 7:  # random message types and bodies
                data += bytes([rng.randrange(256)]) + struct.pack("!i", 4 + 20) + rng.randbytes(20)
            s.sendall(data)
        s.settimeout(0.2)
        try:
            while s.recv(65536):
                pass
        except OSError:
            pass
    except OSError:
        pass
    finally:
        s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caracal", required=True)
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args()
    failures = []
    with CaracalServer(args.caracal, "--max-message-bytes", "1048576", "--startup-timeout", "2") as srv:
        canary = Conn(srv.host, srv.port)
        canary.startup()
        canary.send(query("CREATE TABLE canary (k integer PRIMARY KEY); INSERT INTO canary VALUES (1)"))
        canary.until_ready()
        stop = time.time() + args.seconds
        attacks = [0]

        def run(seed):
            rng = random.Random(seed)
            while time.time() < stop:
                attack(rng, srv.host, srv.port)
                attacks[0] += 1

        threads = [threading.Thread(target=run, args=(args.seed * 10 + i,)) for i in range(4)]
        for t in threads:
            t.start()
        answers = 0
        while time.time() < stop:
            canary.send(query("SELECT k FROM canary"))
            ms = canary.until_ready()
            if [k for k, _ in ms] != [b"T", b"D", b"C", b"Z"]:
                failures.append(f"canary got {ms}")
            answers += 1
            time.sleep(0.2)
        for t in threads:
            t.join()
        fresh = Conn(srv.host, srv.port)
        fresh.startup()
        fresh.send(query("SELECT k FROM canary"))
        ok = [k for k, _ in fresh.until_ready()] == [b"T", b"D", b"C", b"Z"]
        print(f"{attacks[0]} hostile connections in {args.seconds:.0f}s; canary answered {answers} times")
        print(("ok    " if not failures else "FAIL  ") + "the canary connection was never disturbed")
        print(("ok    " if ok else "FAIL  ") + "a new client is served afterwards")
        print(("ok    " if srv.alive() else "FAIL  ") + "server alive")
        if not ok or not srv.alive():
            failures.append("after")
    for f in failures[:5]:
        print("      " + str(f)[:300])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
