#!/usr/bin/env python3
"""pgjdbc (Debian's libpostgresql-jdbc-java) against `caracal --listen`: JdbcClient.java is
compiled with the JDK and run; its checks cover server-prepared statements, binary
NUMERIC parameters and results, CALL, errors and transactions. Exit 2 without a JDK or
the driver.

  jdbc_test.py --caracal build/caracal
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from caracal_server import CaracalServer

HERE = pathlib.Path(__file__).resolve().parent
JAR = pathlib.Path("/usr/share/java/postgresql.jar")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--caracal", required=True)
    args = ap.parse_args()
    if not shutil.which("javac") or not JAR.exists():
        print("skip: needs javac (default-jdk-headless) and libpostgresql-jdbc-java")
        return 2
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["javac", "-d", work, "-cp", str(JAR), str(HERE / "JdbcClient.java")], check=True)
        with CaracalServer(args.caracal) as srv:
            p = subprocess.run(["java", "-cp", f"{work}:{JAR}", "JdbcClient", str(srv.port)], capture_output=True,
                               text=True, timeout=120)
            print(p.stdout + p.stderr)
            alive = srv.alive()
            print(("ok    " if alive else "FAIL  ") + "server alive")
            return 0 if p.returncode == 0 and alive else 1


if __name__ == "__main__":
    sys.exit(main())
