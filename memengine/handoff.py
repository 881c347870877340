"""The warm path for shell agents: a one-shot CLI call handed to a running `mem serve` / `mem mcp`.

A cold `mem recall` spends ~0.3–0.5 s importing numpy, onnxruntime and the engine and
loading the model; a warm process answers in milliseconds. When a server is running for
the same database file, the CLI sends it its call (argv, stdin, the ``MEM_*`` environment)
over a Unix socket before importing anything heavy, and prints what comes back: the same
stdout, stderr and exit code as the in-process run (the server runs the same CLI code,
in-process, on its open store). When no server answers, or it serves another database,
version or configuration, the CLI carries on in-process, silently.

Security: one socket per database file, named by a hash of its resolved path, in a folder
only the user can enter (0700, under ``$XDG_RUNTIME_DIR`` or the user cache dir); the
socket itself is 0600 and the server also checks the caller's uid (``SO_PEERCRED``) where
the platform has it. No network socket is ever opened.

Standard library only (platformdirs when no ``--db``/``MEM_DB`` names the file): the client
side runs before the CLI's imports.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import socket
import stat
import struct
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

PROTOCOL = 1
VERSION = "0.1.0"  # the CLI's version (mem.py's click.version_option)
NO_SERVER_ENV = "MEM_NO_SERVER"  # set to 1: never hand a call over (always run in-process)
# Commands whose result depends only on the database, argv, stdin and the MEM_* environment,
# that read no file relative to the caller's working directory and write none.
HANDOFF_COMMANDS = frozenset({"store", "recall", "get", "forget", "restore", "stats", "brief", "surface", "link",
                              "unlink", "update", "pin", "unpin", "path"})
# Environment that is the caller's, not configuration: never compared.
_ENV_IGNORED = frozenset({"MEM_DB", "MEM_REEXEC", NO_SERVER_ENV})
CONNECT_TIMEOUT = 0.5  # s: a live server accepts at once; a hung one must not stall the CLI for long
MAX_MESSAGE = 64 << 20  # bytes: a request or reply larger than this is refused
_LEN = struct.Struct("!I")


class HandoffError(RuntimeError):
    """The socket folder is unsafe, or another server already listens for this database."""


# --------------------------------------------------------------------------- shared by both sides

def config_fingerprint(environ: dict[str, str] | None = None) -> dict[str, str]:
    """What, besides argv and the database, can change a command's result: ``MEM_*`` and ``TZ``."""
    env = os.environ if environ is None else environ
    return {k: v for k, v in env.items() if (k.startswith("MEM_") and k not in _ENV_IGNORED) or k == "TZ"}


def build_id() -> str:
    """The version and the code it runs: a server started before an upgrade serves no newer CLI."""
    here = Path(__file__).resolve().parent
    parts = [VERSION, str(PROTOCOL)]
    for path in (here.parent / "mem.py", here.parent / "memory_core.py", here / "__init__.py"):
        try:
            parts.append(str(path.stat().st_mtime_ns))
        except OSError:
            parts.append("-")
    return ":".join(parts)


def socket_dir() -> Path:
    """The owner-only folder that holds the sockets (created 0700; refused if others can enter)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        folder = Path(runtime) / "mem"
    else:
        from platformdirs import user_cache_dir

        folder = Path(user_cache_dir("mem", appauthor=False)) / "sockets"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = folder.stat()
    if st.st_uid != os.getuid() or stat.S_IMODE(st.st_mode) & 0o077:
        raise HandoffError(f"{folder}: not owner-only (mode {stat.S_IMODE(st.st_mode):o}); refusing to use it")
    return folder


def socket_path(db: Path) -> Path:
    """The socket of the server for database file ``db`` (one per resolved path)."""
    key = hashlib.sha256(str(db.expanduser().resolve()).encode()).hexdigest()[:24]
    return socket_dir() / f"{key}.sock"


def default_db() -> Path:
    """``MEM_DB``, else the user data dir's ``memory.db`` (memory_core.default_db_path's rule)."""
    env = os.environ.get("MEM_DB")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("mem", appauthor=False)) / "memory.db"


def stdin_from(data: bytes) -> io.TextIOWrapper:
    """A text stdin over ``data`` with a ``.buffer`` (the CLI reads stdin as bytes)."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict")


def _send(sock: socket.socket, obj: Any) -> None:
    data = json.dumps(obj, ensure_ascii=False).encode()
    sock.sendall(_LEN.pack(len(data)) + data)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            raise ConnectionError("connection closed mid-message")
        buf += chunk
    return bytes(buf)


def _recv(sock: socket.socket) -> Any:
    (n,) = _LEN.unpack(_recv_exact(sock, _LEN.size))
    if n > MAX_MESSAGE:
        raise ConnectionError(f"message of {n} bytes is over the limit")
    return json.loads(_recv_exact(sock, n))


# --------------------------------------------------------------------------- client

def split_db(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--db X`` / ``--db=X`` taken out of ``argv`` (anywhere, as the CLI accepts it), and the rest."""
    db: str | None = None
    rest: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            rest += argv[i:]
            break
        if a == "--db" and i + 1 < len(argv):
            db = argv[i + 1]
            i += 2
            continue
        if a.startswith("--db="):
            db = a[len("--db="):]
        else:
            rest.append(a)
        i += 1
    return db, rest


def _command(argv: list[str]) -> str | None:
    for a in argv:
        if a == "--":
            return None
        if not a.startswith("-"):
            return a
    return None


def try_handoff(argv: list[str]) -> tuple[int, str, str] | None:
    """Run ``argv`` on a warm server for its database, if one answers: (exit code, stdout, stderr).

    ``None`` means "run it in-process": no server, another database/version/configuration,
    a command or output mode that is not handed over, or any failure before the server
    answered. Only JSON output is handed over (agents; people at a terminal get rich tables
    from the in-process run). When stdin was read for ``store -``, ``sys.stdin`` is replaced
    by what was read, so the in-process run sees the same input.
    """
    if os.environ.get(NO_SERVER_ENV, "").strip() not in ("", "0"):
        return None
    db_arg, rest = split_db(argv)
    if _command(rest) not in HANDOFF_COMMANDS or "--plain" in rest or any(a in ("-h", "--help") for a in rest):
        return None
    if "--json" not in rest:
        if sys.stdout.isatty():
            return None
        rest.append("--json")
    try:
        db = (Path(db_arg).expanduser() if db_arg else default_db()).resolve()
        path = socket_path(db)
        if not path.exists():
            return None
    except Exception:  # an unusable socket folder only means no warm path
        return None
    try:
        for a in rest:
            a.encode("utf-8")
    except UnicodeEncodeError:  # invalid UTF-8 in argv: the in-process CLI says so in one line
        return None
    stdin: bytes | None = None
    if "-" in rest:  # store - reads the content from stdin: read it once (as bytes), for either path
        stdin = sys.stdin.buffer.read()
        sys.stdin = stdin_from(stdin)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(CONNECT_TIMEOUT)
            sock.connect(str(path))
            sock.settimeout(None)  # a recall at scale or a large store may take a while: wait for it
            _send(sock, {"protocol": PROTOCOL, "build": build_id(), "db": str(db), "config": config_fingerprint(),
                         "argv": rest, "stdin": None if stdin is None else base64.b64encode(stdin).decode()})
            reply = _recv(sock)
    except (OSError, ConnectionError, ValueError):
        return None
    if not isinstance(reply, dict) or "refused" in reply:
        return None
    return int(reply["exit_code"]), str(reply["stdout"]), str(reply["stderr"])


def run_handoff(argv: list[str]) -> None:
    """Hand ``argv`` to a warm server and exit with its result; return if the call stays in-process."""
    result = try_handoff(argv)
    if result is None:
        return
    code, out, err = result
    if err:
        sys.stderr.write(err)
        sys.stderr.flush()
    try:
        sys.stdout.write(out)
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(code)


# --------------------------------------------------------------------------- server

Runner = Callable[[list[str], bytes | None], tuple[int, str, str]]


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
    warm store (the caller serialises it). One thread accepts; each call gets a thread.
    """

    def __init__(self, db: Path, run: Runner) -> None:
        self.db = db.expanduser().resolve()
        self.path = socket_path(self.db)
        self._run = run
        self._config = config_fingerprint()
        self._build = build_id()
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
        """Accept until :meth:`close`."""
        sock = self._sock
        assert sock is not None
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._handle, args=(conn,), name="mem-handoff-call", daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            try:
                uid = _peer_uid(conn)
                if uid is not None and uid != os.getuid():
                    _send(conn, {"refused": "another user"})
                    return
                req = _recv(conn)
                reason = self._refusal(req)
                if reason:
                    _send(conn, {"refused": reason})
                    return
                stdin = req.get("stdin")
                code, out, err = self._run(list(req["argv"]), None if stdin is None else base64.b64decode(stdin))
                _send(conn, {"exit_code": code, "stdout": out, "stderr": err})
            except (OSError, ConnectionError, ValueError, TypeError, KeyError):
                return  # the caller went away or spoke nonsense: it falls back on its own

    def _refusal(self, req: Any) -> str | None:
        if not isinstance(req, dict) or req.get("protocol") != PROTOCOL:
            return "protocol"
        if req.get("build") != self._build:
            return "version"
        if req.get("db") != str(self.db):
            return "database"
        if req.get("config") != self._config:
            return "configuration"
        argv = req.get("argv")
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            return "argv"
        if _command(argv) not in HANDOFF_COMMANDS or split_db(argv)[0] is not None:
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
