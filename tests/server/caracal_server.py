"""A throwaway `caracal --listen` for tests: started on a free loopback port (port 0,
read back from its "listening on" line), stopped with SIGTERM (SIGKILL if it hangs) when
the `with` block ends, whatever happened inside it.

    with CaracalServer(caracal_binary, "--max-connections", "5") as srv:
        subprocess.run(["psql", "-h", srv.host, "-p", str(srv.port), ...])
"""
import os
import re
import signal
import subprocess
import tempfile
import time


class CaracalServer:
    def __init__(self, caracal, *args, env=None, workers=2):
        self.caracal = str(caracal)
        self.args = list(args)
        self.env = env
        self.workers = workers
        self.host = "127.0.0.1"
        self.port = None
        self.proc = None
        self.log = tempfile.TemporaryFile(mode="w+")

    def __enter__(self):
        env = dict(os.environ, **(self.env or {}))
        self.proc = subprocess.Popen([self.caracal, "--workers", str(self.workers), "--listen", f"{self.host}:0",
                                      *self.args], stdout=subprocess.DEVNULL, stderr=self.log, env=env,
                                     start_new_session=True)
        deadline = time.time() + 30
        while time.time() < deadline:
            self.log.seek(0)
            m = re.search(r"listening on [^\s]*:(\d+)", self.log.read())
            if m:
                self.port = int(m.group(1))
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("caracal --listen did not start:\n" + self.output())

    def __exit__(self, *exc):
        self.stop()
        return False

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def output(self):
        self.log.seek(0)
        return self.log.read()

    def dsn(self, **extra):
        parts = {"host": self.host, "port": self.port, "user": "tester", "dbname": "caracal", **extra}
        return " ".join(f"{k}={v}" for k, v in parts.items())

    def psql(self, *args, input=None, env=None, timeout=120):
        """psql 15 against the server; returns the CompletedProcess (text, stdout+stderr apart)."""
        e = dict(os.environ)
        e.pop("PGPASSWORD", None)
        e.update(PGHOST=self.host, PGPORT=str(self.port), PGUSER="tester", PGDATABASE="caracal", PGCONNECT_TIMEOUT="10")
        e.update(env or {})
        return subprocess.run(["psql", "-X", *args], input=input, capture_output=True, text=True, env=e,
                              timeout=timeout)
