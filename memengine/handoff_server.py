"""The server side of the warm path (see ``handoff``): the socket a `mem serve` / `mem mcp` listens on.

Calls are answered one at a time on the thread that accepts them: the store serves one
call at a time anyway (the caller's lock), and a thread started per call cost a thread
start and a wake-up (~0.1 ms idle, ms on a busy host) on every call. A client that
connects and then stalls holds the others back for at most ``IO_TIMEOUT``.
"""

from __future__ import annotations

import os
import socket
import struct
import threading
from collections.abc import Callable
from pathlib import Path

from memengine import handoff
from memengine.handoff import CONNECT_TIMEOUT, HandoffError

Runner = Callable[[list[str], bytes | None], tuple[int, str, str]]
IO_TIMEOUT = 10.0  # s: reading a request, writing a reply (a live client does either at once)


def _peer_uid(conn: socket.socket) -> int | None:
    """The connecting process's uid, where the platform tells (Linux SO_PEERCRED)."""
    opt = getattr(socket, "SO_PEERCRED", None)
    if opt is None:
        return None
    creds = conn.getsockopt(socket.SOL_SOCKET, opt, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", creds)
    return uid


class Server:
    """Listens on the database's socket and runs each handed-over call through ``run``.

    ``run(argv, stdin) -> (exit code, stdout, stderr)`` is the CLI run in-process on the
    warm store (the caller serialises it); ``after_reply()``, when given, runs once each reply is
    sent (what the call left for then: memengine/serving.py).
    """

    def __init__(self, db: Path, run: Runner, after_reply: Callable[[], None] | None = None) -> None:
        self.db = Path(handoff.resolved(db))
        self.path = Path(handoff.socket_path(self.db))
        self._run = run
        self._after_reply = after_reply
        self._config = handoff.config_fingerprint()
        self._build = handoff.build_id()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._inode: int | None = None

    def bind(self) -> Path:
        """Take the socket (a stale one left by a killed server is replaced; a live one is not)."""
        if len(str(self.path).encode()) > 100:  # sun_path is 104-108 bytes
            raise HandoffError(f"{self.path}: path too long for a Unix socket")
        if self.path.exists():
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            probe.settimeout(CONNECT_TIMEOUT)
            try:
                probe.connect(str(self.path))
            except OSError:
                self.path.unlink(missing_ok=True)  # nobody listens: left by a killed server
            else:
                raise HandoffError(f"another server already listens for {self.db} ({self.path})")
            finally:
                probe.close()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)  # the socket is created 0600: no window where others may connect
        try:
            sock.bind(str(self.path))
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        sock.listen(16)
        self._inode = self.path.stat().st_ino
        self._sock = sock
        return self.path

    def start(self) -> None:
        """Accept calls on a background thread."""
        if self._sock is None:
            self.bind()
        self._thread = threading.Thread(target=self.serve_forever, name="mem-handoff", daemon=True)
        self._thread.start()

    def serve_forever(self) -> None:
        """Accept and answer calls until :meth:`close`."""
        sock = self._sock
        assert sock is not None
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return  # closed
            self._handle(conn)

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            try:
                conn.settimeout(IO_TIMEOUT)
                uid = _peer_uid(conn)
                if uid is not None and uid != os.getuid():
                    handoff.send(conn, [b"refused", b"another user"])
                    return
                req = handoff.recv(conn)
                refusal = self._refusal(req)
                if refusal:
                    handoff.send(conn, [b"refused", refusal.encode()])
                    return
                argv = [handoff.untext(a) for a in req[6:]]
                stdin = None if req[5] == b"-" else req[5][1:]
                code, out, err = self._run(argv, stdin)
                handoff.send(conn, [b"ok", str(code).encode(), handoff.text(out), handoff.text(err)])
            except (OSError, ConnectionError, ValueError, TypeError, IndexError):
                return  # the caller went away or spoke nonsense: it falls back on its own
            finally:
                if self._after_reply is not None:
                    self._after_reply()

    def _refusal(self, req: list[bytes]) -> str | None:
        if len(req) < 6 or req[0] != handoff.MAGIC or req[1] != str(handoff.PROTOCOL).encode():
            return "protocol"
        if handoff.untext(req[2]) != self._build:
            return "version"
        if handoff.untext(req[3]) != str(self.db):
            return "database"
        if handoff.decode_config(req[4]) != self._config:
            return "configuration"
        if req[5][:1] not in (b"-", b"+"):
            return "stdin"
        try:
            argv = [a.decode("utf-8") for a in req[6:]]
        except UnicodeDecodeError:
            return "argv"
        if handoff.command_of(argv) not in handoff.HANDOFF_COMMANDS or handoff.split_db(argv)[0] is not None:
            return "command"
        return None

    def close(self) -> None:
        """Stop accepting and remove the socket (if it is still ours)."""
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._sock.close()
            self._sock = None
        try:
            if self._inode is not None and self.path.stat().st_ino == self._inode:
                self.path.unlink()
        except OSError:
            pass
