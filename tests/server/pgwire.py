"""A minimal PostgreSQL protocol v3 client for protocol tests: builds frontend messages
and reads backend messages as (type, body) pairs, with helpers to decode the common ones."""
import socket
import struct


def msg(kind, body=b""):
    return kind + struct.pack("!i", len(body) + 4) + body


def cstr(s):
    return (s.encode() if isinstance(s, str) else s) + b"\0"


def startup_packet(user="tester", database="caracal", **params):
    body = struct.pack("!i", 196608)
    for k, v in {"user": user, "database": database, **params}.items():
        body += cstr(k) + cstr(v)
    body += b"\0"
    return struct.pack("!i", len(body) + 4) + body


def parse(name, query, types=()):
    return msg(b"P", cstr(name) + cstr(query) + struct.pack("!h", len(types)) + b"".join(struct.pack("!i", t) for t in types))


def bind(portal, stmt, values=(), formats=(), result_formats=()):
    body = cstr(portal) + cstr(stmt) + struct.pack("!h", len(formats)) + b"".join(struct.pack("!h", f) for f in formats)
    body += struct.pack("!h", len(values))
    for v in values:
        if v is None:
            body += struct.pack("!i", -1)
        else:
            v = v.encode() if isinstance(v, str) else v
            body += struct.pack("!i", len(v)) + v
    body += struct.pack("!h", len(result_formats)) + b"".join(struct.pack("!h", f) for f in result_formats)
    return msg(b"B", body)


def describe(kind, name):
    return msg(b"D", kind + cstr(name))


def execute(portal="", max_rows=0):
    return msg(b"E", cstr(portal) + struct.pack("!i", max_rows))


def close(kind, name):
    return msg(b"C", kind + cstr(name))


SYNC = msg(b"S")
FLUSH = msg(b"H")
TERMINATE = msg(b"X")


def query(text):
    return msg(b"Q", cstr(text))


def fields(body):
    """ErrorResponse / NoticeResponse fields as a dict."""
    out = {}
    for part in body.split(b"\0"):
        if part:
            out[chr(part[0])] = part[1:].decode()
    return out


def data_row(body):
    n = struct.unpack("!h", body[:2])[0]
    pos, values = 2, []
    for _ in range(n):
        ln = struct.unpack("!i", body[pos:pos + 4])[0]
        pos += 4
        if ln < 0:
            values.append(None)
        else:
            values.append(body[pos:pos + ln])
            pos += ln
    return values


def row_description(body):
    n = struct.unpack("!h", body[:2])[0]
    pos, cols = 2, []
    for _ in range(n):
        end = body.index(b"\0", pos)
        name = body[pos:end].decode()
        pos = end + 1
        table, col, oid, size, mod, fmt = struct.unpack("!ihihih", body[pos:pos + 18])
        pos += 18
        cols.append((name, oid, size, mod, fmt))
    return cols


class Conn:
    def __init__(self, host, port, timeout=10):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buf = b""

    def send(self, data):
        self.sock.sendall(data)

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("server closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read_byte(self):
        return self._read(1)

    def read_message(self):
        kind = self._read(1)
        ln = struct.unpack("!i", self._read(4))[0]
        return kind, self._read(ln - 4)

    def until_ready(self):
        """Messages up to and including ReadyForQuery."""
        out = []
        while True:
            m = self.read_message()
            out.append(m)
            if m[0] == b"Z":
                return out

    def startup(self, **params):
        self.send(startup_packet(**params))
        return self.until_ready()

    def closed(self, timeout=5):
        """True if the server closes the connection (after whatever it still sends)."""
        self.sock.settimeout(timeout)
        try:
            while True:
                if not self.sock.recv(65536):
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False

    def close(self):
        self.sock.close()
