"""A throwaway PostgreSQL 15 cluster on loopback TCP (the oracle and benchmark peer),
initialised with trust authentication and removed when the `with` block ends."""
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile

PGBIN = pathlib.Path(os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def available():
    return (PGBIN / "postgres").exists()


class PgCluster:
    def __init__(self, max_connections=100, settings=()):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="caracal-pg."))
        os.chmod(self.work, 0o755)
        self.data = self.work / "data"
        self.port = free_port()
        self.host = "127.0.0.1"
        self.max_connections = max_connections
        self.settings = list(settings)
        self.runas = []
        if os.getuid() == 0:
            self.runas = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.work, "postgres")

    def __enter__(self):
        subprocess.run(self.runas + [str(PGBIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                                     "-E", "UTF8", "--locale=C", "--no-sync"], check=True, capture_output=True)
        opts = f"-k {self.work} -c listen_addresses=127.0.0.1 -p {self.port} -c max_connections={self.max_connections}"
        for s in self.settings:
            opts += f" -c {s}"
        subprocess.run(self.runas + [str(PGBIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.work / "log"), "-w",
                                     "-o", opts, "start"], check=True, capture_output=True)
        return self

    def __exit__(self, *exc):
        subprocess.run(self.runas + [str(PGBIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(self.work, ignore_errors=True)
        return False

    def psql(self, *args, input=None, timeout=120):
        env = dict(os.environ, PGHOST=self.host, PGPORT=str(self.port), PGUSER="postgres", PGDATABASE="postgres")
        return subprocess.run(["psql", "-X", *args], input=input, capture_output=True, text=True, env=env,
                              timeout=timeout)
