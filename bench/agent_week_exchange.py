"""The week's edges of moving memories between stores and of a store replaced under a server (serve13), run by
bench/agent_week_edges.py (`agent_week.py --edges`); each violation is a FAULT line of the week.

* :func:`exchange_while_storing`: two people's stores, an agent storing into each, while each store imports the
  other's export, three times over; then a quiet exchange both ways, and one more that must add nothing. Every
  text either agent was given an id for is in both stores, as many times as it was stored in either (the one
  text both stored is two memories in each), and doctor finds both sound.
* :func:`restore_under_mcp`: `mem.py mcp` on a store (JSON-RPC on its stdin/stdout, as an agent host speaks it);
  a backup; a store through the server; the backup restored from the command line; the server's next calls see
  the restored file (the memory stored after the backup is gone from it, the one before is there) and a store
  through it lands in the restored file; what the restore replaced is kept (`previous_kept_in`).
* :func:`import_disk_fills`: an import of a few hundred lines into a store whose file may not grow past a cap
  (RLIMIT_FSIZE: the disk is full for that process); then the same import with room: every line once.
"""

from __future__ import annotations

import json
import resource
import signal
import sqlite3
import subprocess
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from agent_week import MEM, Week

SAME_TEXT = "standup moved to 10:00"  # stored in both stores: two memories, in each store after the exchange


def _call(week: Week, db: Path, *args: str, expect: str | None = "ok", what: str = "") -> dict[str, Any] | None:
    p = subprocess.run([*MEM, "--db", str(db), *args], capture_output=True, text=True, env=week.env, timeout=600)
    with week.lock:
        week.calls += 1
    return week.check([*args, what] if what else list(args), p.returncode, p.stdout, p.stderr, expect)


def _active(db: Path) -> Counter[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return Counter(r[0] for r in conn.execute(
            "SELECT content FROM memories WHERE status = 'active' AND level = 0 "
            "AND (ref IS NULL OR ref NOT LIKE 'episode:%')"))
    finally:
        conn.close()


def _exchange(week: Week, src: Path, dst: Path, tag: str) -> dict[str, Any] | None:
    """``src``'s export imported into ``dst``: the import's data (None if a call failed)."""
    dump = week.dir / f"exchange-{tag}.jsonl"
    p = subprocess.run([*MEM, "--db", str(src), "export"], capture_output=True, text=True, env=week.env, timeout=600)
    if p.returncode != 0:
        week.fault(f"exchange {tag}: export exit {p.returncode}: {p.stderr.strip()[-200:]}")
        return None
    if not p.stdout.strip():  # (a store nothing was stored in yet: an empty export is no file to import)
        return None
    dump.write_text(p.stdout, encoding="utf-8")
    env = _call(week, dst, "import", "jsonl", str(dump), what=f"({tag})")
    return env["data"] if env and env.get("ok") else None


def exchange_while_storing(week: Week) -> None:
    """Two stores importing each other's exports while their agents store (module docstring)."""
    ana, bob = week.dir / "xchg-ana.db", week.dir / "xchg-bob.db"
    for db in (ana, bob):
        for suffix in ("", "-wal", "-shm"):
            Path(str(db) + suffix).unlink(missing_ok=True)
    stored: dict[Path, list[str]] = {ana: [], bob: []}

    def agent(db: Path, who: str) -> None:
        for i in range(24):
            text = SAME_TEXT if i == 5 else f"{who}'s note {i}: the {('build', 'billing', 'garden')[i % 3]} plan"
            env = _call(week, db, "store", text, "--type", ("semantic", "procedural")[i % 2], what=f"({who})")
            if env and env.get("ok") and not env["data"].get("deduplicated"):
                stored[db].append(text)

    def exchanger() -> None:
        for n in range(3):
            _exchange(week, ana, bob, f"ana-to-bob-{n}")
            _exchange(week, bob, ana, f"bob-to-ana-{n}")

    threads = [threading.Thread(target=agent, args=(ana, "ana")), threading.Thread(target=agent, args=(bob, "bob")),
               threading.Thread(target=exchanger)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for tag, (src, dst) in (("quiet-1", (ana, bob)), ("quiet-2", (bob, ana))):
        _exchange(week, src, dst, tag)
    for tag, (src, dst) in (("again-1", (ana, bob)), ("again-2", (bob, ana))):
        got = _exchange(week, src, dst, tag)
        if got is not None and got.get("memories_added"):
            week.fault(f"exchange {tag}: a last exchange with nothing new added {got['memories_added']}")
    want = Counter(stored[ana]) + Counter(stored[bob])
    for db, name in ((ana, "ana"), (bob, "bob")):
        have = _active(db)
        wrong = {t: (have.get(t, 0), n) for t, n in want.items() if have.get(t, 0) != n}
        extra = {t: n for t, n in have.items() if t not in want}
        if wrong or extra:
            some = next(iter(wrong.items())) if wrong else next(iter(extra.items()))
            week.fault(f"exchange: {name}'s store holds {len(wrong)} texts a wrong number of times and {len(extra)} "
                       f"nobody stored, e.g. {some}")
        env = _call(week, db, "doctor", what=f"({name} after the exchange)")
        if env and env.get("ok") and env["data"].get("ok") is not True:
            week.fault(f"doctor after the exchange ({name}): {env['data'].get('problems')}")
    print(f"edges: exchange: {len(stored[ana])} + {len(stored[bob])} memories stored while exchanging", flush=True)


class _Mcp:
    """`mem.py --db DB mcp`, spoken to as an agent host does: newline-delimited JSON-RPC on its stdio."""

    def __init__(self, week: Week, db: Path) -> None:
        self.week = week
        self.proc = subprocess.Popen([*MEM, "--db", str(db), "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=week.env)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "agent-week", "version": "0"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any] | None:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                self.week.fault(f"mcp: the server closed its output during {method} (exit {self.proc.poll()})")
                return None
            msg = json.loads(line)
            if msg.get("id") == self.next_id:
                return msg

    def tool(self, name: str, **args: Any) -> tuple[bool, dict[str, Any]]:
        """(is_error, structured content) of a tool call."""
        with self.week.lock:
            self.week.calls += 1
        msg = self.request("tools/call", {"name": name, "arguments": args})
        if msg is None or "result" not in msg:
            self.week.fault(f"mcp {name}: no result: {msg}")
            return True, {}
        res = msg["result"]
        return bool(res.get("isError")), res.get("structuredContent") or {}

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.week.fault("mcp: the server did not exit within 60 s of its input closing")
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        err = self.proc.stderr.read() if self.proc.stderr else ""
        if "Traceback (most recent call last)" in err:
            self.week.fault(f"mcp: a traceback on stderr: {err.strip().splitlines()[-1][:200]!r}")
        if self.proc.returncode != 0:
            self.week.fault(f"mcp: exit {self.proc.returncode} when its input closed")


def restore_under_mcp(week: Week) -> None:
    """A restore from the command line while `mem.py mcp` serves the store (module docstring)."""
    db = week.dir / "mcp-edge.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    if _call(week, week.db, "backup", str(db), what="(for the MCP edge)") is None:
        return
    mcp = _Mcp(week, db)
    try:
        err, before = mcp.tool("store", content="Kept: the office moves to Rua Augusta in March")
        if err:
            week.fault(f"mcp store before the backup: {before}")
            return
        env = _call(week, db, "backup", str(week.dir / "mcp-edge-backup.db"), what="(while mcp serves)")
        if not env or not env.get("ok"):
            return
        err, after = mcp.tool("store", content="Dropped: the office moves to Avenida da Liberdade instead")
        if err:
            week.fault(f"mcp store after the backup: {after}")
            return
        res = _call(week, db, "restore", env["data"]["path"], what="(while mcp serves)")
        if not res or not res.get("ok"):
            return
        err, got = mcp.tool("get", id=before["id"])
        if err or got.get("content") != "Kept: the office moves to Rua Augusta in March":
            week.fault(f"mcp after a restore: get #{before['id']} (stored before the backup) gave {got}")
        err, got = mcp.tool("recall", query="office moves Avenida da Liberdade", k=5)
        texts = [r.get("content") for r in got.get("results", [])]
        if err or any("Avenida" in (t or "") for t in texts):
            week.fault(f"mcp after a restore: recall still finds the memory the restore took out ({texts[:3]})")
        err, new = mcp.tool("store", content="After the restore: the office keys are with Marta")
        if err:
            week.fault(f"mcp store after the restore: {new}")
            return
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        row = conn.execute("SELECT content FROM memories WHERE id = ?", (new["id"],)).fetchone()
        conn.close()
        if row is None or row[0] != "After the restore: the office keys are with Marta":
            week.fault(f"mcp store after a restore: #{new['id']} is not in the restored file ({row})")
        kept = res["data"].get("previous_kept_in")
        if kept:
            conn = sqlite3.connect(f"file:{kept}?mode=ro", uri=True)
            n = conn.execute("SELECT count(*) FROM memories WHERE content LIKE 'Dropped: the office%'").fetchone()[0]
            conn.close()
            if n != 1:
                week.fault(f"restore under mcp: what the restore replaced ({kept}) lacks the memory stored after the "
                           "backup")
        else:
            week.fault("restore under mcp: no previous_kept_in")
    finally:
        mcp.close()


def import_disk_fills(week: Week) -> None:
    """An import whose disk fills in its middle, then the same import with room (module docstring)."""
    dump = week.dir / "disk-fills.jsonl"
    lines = [{"content": f"imported note {i}: " + " ".join(f"word{(i * 7 + j) % 997}" for j in range(60)),
              "memory_type": "semantic", "source": "disk-fills", "ref": f"note-{i}"} for i in range(400)]
    dump.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    db = week.dir / "disk-fills.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    if _call(week, db, "store", "a note before the import", what="(disk fills)") is None:
        return
    cap = db.stat().st_size + 60_000  # (the lines and their vectors: ~500 kB)

    def capped() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))

    p = subprocess.run([*MEM, "--db", str(db), "import", "jsonl", str(dump)], capture_output=True, text=True,
                       env=week.env, preexec_fn=capped, timeout=600)
    env = week.check(["import", "jsonl", "(the disk fills)"], p.returncode, p.stdout, p.stderr, None)
    if env is not None and env.get("ok"):
        print("edges: disk fills: the import fitted under the cap (nothing to see)", flush=True)
    elif env is not None and env["error"]["code"] not in ("disk_full", "io_error"):
        week.fault(f"import as the disk fills: {env['error']['code']} ({env['error']['message']}), want disk_full")
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    half = conn.execute("SELECT count(*) FROM memories WHERE source = 'disk-fills' AND content NOT IN "
                        f"({','.join('?' * len(lines))})", [x["content"] for x in lines]).fetchone()[0]
    landed = conn.execute("SELECT count(*) FROM memories WHERE source = 'disk-fills'").fetchone()[0]
    conn.close()
    if half:
        week.fault(f"import as the disk fills: {half} memories that are no line of the file (half-written)")
    env = _call(week, db, "import", "jsonl", str(dump), what="(with room again)")
    if env and env.get("ok") and env["data"]["memories_added"] + landed != len(lines):
        week.fault(f"import as the disk fills, then again: {landed} + {env['data']['memories_added']} of "
                   f"{len(lines)} lines")
    have = _active(db)
    twice = [t for t, n in have.items() if n > 1]
    if twice:
        week.fault(f"import as the disk fills, then again: {len(twice)} lines twice, e.g. {twice[0][:50]!r}")
    env = _call(week, db, "doctor", what="(after the disk filled)")
    if env and env.get("ok") and env["data"].get("ok") is not True:
        week.fault(f"doctor after the disk filled mid-import: {env['data'].get('problems')}")
    print(f"edges: disk fills: {landed} of {len(lines)} lines before the disk filled", flush=True)
