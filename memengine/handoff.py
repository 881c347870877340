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

This module is the client side and what both sides share; the server is ``handoff_server``.
It runs in every handed-over process before anything else, so it imports only what the
interpreter has already loaded (``os``, ``sys``) and, when it connects, the C modules
``_socket`` and ``_sha256`` (``socket``, ``json``, ``pathlib`` and ``hashlib`` cost ~10 ms
of a ~40 ms process on a quiet machine; platformdirs is imported only when neither ``--db``
nor ``MEM_DB`` names the file or ``$XDG_RUNTIME_DIR`` is unset). Messages are a count and
length-prefixed byte strings (see :func:`encode`), not JSON.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # (typing itself costs ~3 ms of a handed-over process: mypy reads this name as typing's)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import IO, Any

PROTOCOL = 2  # 2: length-prefixed fields (1 was JSON)
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
MAX_FIELDS = 1 << 16
MAGIC = b"mem-handoff"
ERRORS = "surrogatepass"  # text travels as UTF-8; a lone surrogate (never valid output) survives the trip as is


class HandoffError(RuntimeError):
    """The socket folder is unsafe, or another server already listens for this database."""


# --------------------------------------------------------------------------- shared by both sides

def config_fingerprint(environ: Any = None) -> dict[str, str]:
    """What, besides argv and the database, can change a command's result: ``MEM_*`` and ``TZ``."""
    env = os.environ if environ is None else environ
    return {k: v for k, v in env.items() if (k.startswith("MEM_") and k not in _ENV_IGNORED) or k == "TZ"}


def build_id() -> str:
    """The version and the code it runs: a server started before an upgrade serves no newer CLI."""
    here = os.path.dirname(os.path.realpath(__file__))
    parts = [VERSION, str(PROTOCOL)]
    for path in (os.path.join(here, "..", "mem.py"), os.path.join(here, "..", "memcli.py"),
                 os.path.join(here, "..", "memory_core.py"), os.path.join(here, "__init__.py")):
        try:
            parts.append(str(os.stat(path).st_mtime_ns))
        except OSError:
            parts.append("-")
    return ":".join(parts)


def _sha256_hex(data: bytes) -> str:
    # the C module behind hashlib's sha256 (hashlib itself loads OpenSSL: ~3 ms)
    for name in ("_sha2", "_sha256"):
        try:
            return str(__import__(name).sha256(data).hexdigest())
        except (ImportError, AttributeError):
            continue
    import hashlib

    return hashlib.sha256(data).hexdigest()


def socket_dir() -> str:
    """The owner-only folder that holds the sockets (created 0700; refused if others can enter)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        folder = os.path.join(runtime, "mem")
    else:
        from memengine.recache import user_cache_folder  # (platformdirs' path, without its import)

        folder = os.path.join(user_cache_folder(), "sockets")
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.stat(folder)
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise HandoffError(f"{folder}: not owner-only (mode {st.st_mode & 0o777:o}); refusing to use it")
    return folder


def resolved(db: str | Path) -> str:
    """A database file's one name: user-expanded, absolute, symlinks resolved (``Path.resolve``'s)."""
    return os.path.realpath(os.path.expanduser(str(db)))


def socket_path(db: str | Path) -> str:
    """The socket of the server for database file ``db`` (one per resolved path)."""
    key = _sha256_hex(resolved(db).encode())[:24]
    return os.path.join(socket_dir(), f"{key}.sock")


def default_db() -> str:
    """``MEM_DB``, else the user data dir's ``memory.db`` (memory_core.default_db_path's rule)."""
    env = os.environ.get("MEM_DB")
    if env:
        return os.path.expanduser(env)
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("mem", appauthor=False), "memory.db")


def stdin_from(data: bytes) -> IO[str]:
    """A text stdin over ``data`` with a ``.buffer`` (the CLI reads stdin as bytes)."""
    import io

    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict")


def encode(fields: list[bytes]) -> bytes:
    """One message: the number of fields, then each field's length and bytes (4-byte big-endian)."""
    out = [len(fields).to_bytes(4, "big")]
    for f in fields:
        out += [len(f).to_bytes(4, "big"), f]
    return b"".join(out)


def send(sock: Any, fields: list[bytes]) -> None:
    """Send one message (see :func:`encode`)."""
    sock.sendall(encode(fields))


def _recv_exact(sock: Any, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            raise ConnectionError("connection closed mid-message")
        buf += chunk
    return bytes(buf)


def recv(sock: Any) -> list[bytes]:
    """Receive one message; a count or size over the limits is a ConnectionError."""
    count = int.from_bytes(_recv_exact(sock, 4), "big")
    if count > MAX_FIELDS:
        raise ConnectionError(f"message of {count} fields is over the limit")
    fields, total = [], 0
    for _ in range(count):
        n = int.from_bytes(_recv_exact(sock, 4), "big")
        total += n
        if total > MAX_MESSAGE:
            raise ConnectionError(f"message over {MAX_MESSAGE} bytes")
        fields.append(_recv_exact(sock, n))
    return fields


def text(s: str) -> bytes:
    """A str as a field."""
    return s.encode("utf-8", ERRORS)


def untext(b: bytes) -> str:
    """A field as a str."""
    return b.decode("utf-8", ERRORS)


def encode_config(config: dict[str, str]) -> bytes:
    """The configuration as one field: ``key=value`` pairs split by NUL (which no variable holds)."""
    return "\0".join(f"{k}={v}" for k, v in sorted(config.items())).encode("utf-8", "surrogateescape")


def decode_config(field: bytes) -> dict[str, str]:
    """The inverse of :func:`encode_config`."""
    pairs = field.decode("utf-8", "surrogateescape").split("\0") if field else []
    return dict(p.partition("=")[::2] for p in pairs)


def request(build: str, db: str, config: dict[str, str], argv: list[str], stdin: bytes | None) -> list[bytes]:
    """A call's fields: magic, protocol, build, db, configuration, stdin (``-`` none, ``+`` then the bytes), argv."""
    return [MAGIC, str(PROTOCOL).encode(), text(build), text(db), encode_config(config),
            b"-" if stdin is None else b"+" + stdin, *(text(a) for a in argv)]


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


def command_of(argv: list[str]) -> str | None:
    """The command an argv runs (its first word that is not an option)."""
    for a in argv:
        if a == "--":
            return None
        if not a.startswith("-"):
            return a
    return None


def _memory_restore(rest: list[str]) -> bool:
    """``restore ID`` (a forgotten memory), not ``restore BACKUP`` / ``--list`` / ``--dry-run`` / ``--from`` (the
    whole store)."""
    words = [a for a in rest if not a.startswith("-")]
    return len(words) == 2 and words[1].isdigit() and not any(
        a in ("--list", "--dry-run") or a.startswith("--from") for a in rest)


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
    if command_of(rest) not in HANDOFF_COMMANDS or "--plain" in rest or any(a in ("-h", "--help") for a in rest):
        return None
    if command_of(rest) == "restore" and not _memory_restore(rest):
        return None  # a backup file (named relative to the caller) put back: in-process (memengine/restore.py)
    if "--json" not in rest:
        if sys.stdout.isatty():
            return None
        rest.append("--json")
    try:
        db = resolved(db_arg if db_arg else default_db())
        path = socket_path(db)
        if not os.path.exists(path):
            return None
        args = [text(a) for a in rest]
        for a in args:
            a.decode("utf-8")  # strict: invalid UTF-8 in argv stays in-process, whose CLI says so in one line
    except Exception:  # an unusable socket folder only means no warm path
        return None
    stdin: bytes | None = None
    if "-" in rest:  # store - reads the content from stdin: read it once (as bytes), for either path
        stdin = sys.stdin.buffer.read()
        sys.stdin = stdin_from(stdin)
    try:
        import _socket  # socket.py wraps it in enums and classes: ~3 ms of imports for nothing used here

        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            sock.settimeout(CONNECT_TIMEOUT)
            sock.connect(path)
            sock.settimeout(None)  # a recall at scale or a large store may take a while: wait for it
            send(sock, request(build_id(), db, config_fingerprint(), rest, stdin))
            reply = recv(sock)
        finally:
            sock.close()
    except (OSError, ConnectionError, ValueError, ImportError):
        return None
    if len(reply) != 4 or reply[0] != b"ok":
        return None  # refused (another version, database, configuration) or nonsense
    return int(reply[1]), untext(reply[2]), untext(reply[3])


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
