"""Every field and exit code SKILL.md documents, checked against what the CLI does (users31; users32: the MCP
server's tools, their lean and full recall results and error codes, a forgotten value's history, a JSON-lines
import's progress, an error naming the file).

An agent reads only SKILL.md: this runs its commands through the real CLI (JSON through a pipe, a fresh store in
a temporary folder) and checks each field it names and each exit code it lists. One line per check: ``ok`` or
``FAIL`` with what came back; exit 1 if any failed.

    .venv/bin/python bench/users31_skill_contract.py            # the hash embedder (fast; fields do not depend on it)
    .venv/bin/python bench/users31_skill_contract.py --model    # the real model
    .venv/bin/python bench/users31_skill_contract.py --json     # the checks as one JSON object
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


class Contract:
    """A fresh store and the checks made on it."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder, self.env = folder, env
        self.db = folder / "m.db"
        self.results: list[dict[str, Any]] = []

    def run(self, *args: str, db: Path | None = None, env: dict[str, str] | None = None,
            stdin: str | None = None) -> tuple[int, dict[str, Any], str]:
        """(exit code, the reply, stderr) of ``mem.py --db DB ARGS`` with stdout a pipe."""
        proc = subprocess.run([sys.executable, str(REPO / "mem.py"), "--db", str(db or self.db), *args],
                              input=stdin, capture_output=True, text=True, cwd=str(self.folder),
                              env={**self.env, **(env or {})}, timeout=300)
        lines = proc.stdout.splitlines()
        try:
            reply = json.loads(lines[0]) if len(lines) == 1 else {"_lines": len(lines), "_raw": proc.stdout[-300:]}
        except json.JSONDecodeError:
            reply = {"_raw": proc.stdout[-300:]}
        return proc.returncode, reply, proc.stderr

    def data(self, *args: str, **kw: Any) -> dict[str, Any]:
        """The ``data`` of a command that must succeed (a failed one is a failed check, and ``{}``)."""
        rc, reply, err = self.run(*args, **kw)
        self.check(f"{' '.join(args)[:60]}: exit 0, ok", rc == 0 and reply.get("ok") is True,
                   f"rc={rc} {json.dumps(reply)[:200]} {err[-200:]}")
        return dict(reply.get("data") or {})

    def check(self, name: str, passed: bool, seen: Any = "") -> bool:
        self.results.append({"check": name, "ok": bool(passed), "seen": "" if passed else str(seen)[:400]})
        return passed

    def error(self, name: str, args: tuple[str, ...], rc_expected: int, code: str | None = None,
              **kw: Any) -> None:
        """A failure SKILL.md promises: that exit code, one JSON line ``ok: false`` with ``error.code`` and
        ``error.message``, no traceback."""
        rc, reply, err = self.run(*args, **kw)
        err_obj = reply.get("error") or {}
        shape = (reply.get("ok") is False and isinstance(err_obj.get("code"), str)
                 and isinstance(err_obj.get("message"), str) and "Traceback" not in err)
        self.check(f"exit {rc_expected} {name}", rc == rc_expected and shape and (code is None or err_obj["code"] == code),
                   f"rc={rc} {json.dumps(reply)[:250]} {err[-200:]}")


def _has(c: Contract, what: str, d: dict[str, Any], *keys: str) -> None:
    missing = [k for k in keys if k not in d]
    c.check(f"{what} has {', '.join(keys)}", not missing, f"missing {missing}; has {sorted(d)}")


def _envelope(c: Contract) -> None:
    rc, reply, _ = c.run("stats")
    c.check("reply envelope: ok, command, took_ms, data", rc == 0 and set(reply) == {"ok", "command", "took_ms", "data"},
            reply)
    rc, reply, _ = c.run("get", "424242")
    c.check("error envelope: ok false, command, error{code,message}",
            set(reply) == {"ok", "command", "error"} and set(reply.get("error", {})) >= {"code", "message"}, reply)


def _store(c: Contract) -> None:
    d = c.data("store", "Oscar prefers morning meetings", "--type", "semantic", "--importance", "0.8")
    _has(c, "store", d, "id", "deduplicated", "supersedes")
    c.check("store: supersedes is a list", isinstance(d.get("supersedes"), list), d)
    again = c.data("store", "Oscar prefers morning meetings", "--importance", "0.95", "--pin")
    c.check("store again: same id, deduplicated true", again.get("id") == d.get("id") and again.get("deduplicated") is True,
            again)
    c.check("store again: importance / pinned raised say so", again.get("importance") == 0.95 and "pinned" in again, again)
    got = c.data("get", str(d.get("id")))
    c.check("get: pinned has the shape the store said", type(got.get("pinned")) is type(again.get("pinned")),
            f"store said {again.get('pinned')!r}, get says {got.get('pinned')!r}")
    c.data("store", "To restart the gateway: openclaw gateway restart", "--type", "procedural", "--tag", "infra")
    c.data("store", "We chose Postgres over MySQL for billing", "--type", "episodic", "--at", "yesterday 3pm")
    long = c.data("store", "-", "--source", "agent", "--tag", "notes", stdin="A long note.\nSecond line of it.\n")
    c.check("store -: from stdin", isinstance(long.get("id"), int), long)
    r1 = c.data("store", "Ticket 55 closed by Lea", "--ref", "T-55", "--source", "jira")
    r2 = c.data("store", "Ticket 55 closed by Lea (edited)", "--ref", "T-55", "--source", "jira")
    c.check('store --ref again: "deduplicated": true, "dedup_reason": "ref"',
            r2.get("id") == r1.get("id") and r2.get("deduplicated") is True and r2.get("dedup_reason") == "ref", r2)


def _facts(c: Contract) -> None:
    old = c.data("store", "The wifi password at the office is tiger-42")
    new = c.data("store", "The wifi password at the office is tiger-43")
    c.check("a new value: supersedes [old]", new.get("supersedes") == [old.get("id")], new)
    hist = c.data("recall", "wifi password", "--history")
    ids = [r.get("id") for r in hist.get("results", [])]
    c.check("recall --history: new then old", old.get("id") in ids and new.get("id") in ids
            and ids.index(new["id"]) < ids.index(old["id"]), ids)
    olds = [r for r in hist.get("results", []) if r.get("id") == old.get("id")]
    c.check('recall --history: old says "superseded_by": [new]', bool(olds) and olds[0].get("superseded_by") == [new.get("id")],
            olds[:1])
    cur = c.data("recall", "wifi password")
    c.check("default recall: not the replaced one", old.get("id") not in [r.get("id") for r in cur.get("results", [])],
            [r.get("id") for r in cur.get("results", [])])
    got = c.data("get", str(old.get("id")))
    _has(c, "get of a replaced fact", got, "versions", "superseded_by")
    c.data("recall", "wifi password", "--as-of", "2025-01-01")
    earlier = c.data("store", "The wifi password at the office is tiger-40", "--at", "2024-01-01")
    c.check('store --at OLD: "superseded_by" is a list', isinstance(earlier.get("superseded_by"), list), earlier)
    upd = c.data("update", str(new.get("id")), "The wifi password at the office is tiger-44")
    c.check("update: a new id that supersedes the old", upd.get("supersedes") == [new.get("id")], upd)
    sup = c.data("store", "Office wifi: tiger-45", "--supersede", str(old.get("id")))
    c.check("store --supersede an id already replaced: its current version too",
            upd.get("id") in (sup.get("supersedes") or []), sup)
    a = c.data("store", "Dana's flight lands at 4pm on Friday", "--source", "email")
    b = c.data("store", "Dana's flight lands at 6pm on Friday", "--source", "calendar")
    c.check('two sources disagreeing: "contradicts": [ids]', b.get("contradicts") == [a.get("id")], b)
    rec = c.data("recall", "when does Dana's flight land")
    marked = [r for r in rec.get("results", []) if r.get("id") in (a.get("id"), b.get("id"))]
    c.check("recall marks each side of an open contradiction", len(marked) == 2 and all(r.get("contradicts") for r in marked),
            marked)
    con = c.data("contradictions")
    rows = con.get("contradictions", [])
    c.check("contradictions: each id, memory_a, memory_b", bool(rows) and all({"id", "memory_a", "memory_b"} <= set(x)
                                                                              for x in rows), rows[:1])
    if rows:
        res = c.data("contradictions", "--resolve", str(rows[0]["id"]), "--keep", str(b.get("id")))
        c.check("contradictions --resolve --keep: answered", bool(res), res)
        gone = c.data("recall", "when does Dana's flight land")
        c.check("resolved: the other is not current", a.get("id") not in [r.get("id") for r in gone.get("results", [])],
                [r.get("id") for r in gone.get("results", [])])


def _recall(c: Contract) -> None:
    d = c.data("recall", "when does Oscar like to meet?", "-k", "5")
    _has(c, "recall", d, "query", "strategy", "count", "results")
    res = d.get("results") or [{}]
    _has(c, "recall result", res[0], "id", "content", "memory_type", "score", "weak", "event_at", "tags", "ref", "source")
    c.check("recall: weak is a bool", isinstance(res[0].get("weak"), bool), res[0].get("weak"))
    c.check("recall: count = len(results)", d.get("count") == len(d.get("results", [])), d.get("count"))
    for opt in (("--type", "procedural"), ("--tag", "infra"), ("--since", "last month"), ("--source", "agent"),
                ("--since", "2025", "--until", "Q2 2025"), ("--until", "2025-06-05"), ("--strategy", "keyword"),
                ("--strategy", "graph", "--explain"), ("--strategy", "activation")):
        c.data("recall", "gateway", *opt)
    ctx = c.data("recall", "gateway restart", "--context")
    first = (ctx.get("results") or [{}])[0]
    _has(c, "recall --context result's context", first.get("context") or {}, "cluster", "episode", "siblings", "links")
    deg = c.data("recall", "gateway", env={"MEM_EMBEDDER": "", "MEM_MODEL_PATH": str(c.folder / "missing.onnx")})
    c.check('no model: data.degraded "no-vectors", strategy "keyword"',
            deg.get("degraded") == "no-vectors" and deg.get("strategy") == "keyword",
            {k: deg.get(k) for k in ("degraded", "strategy")})


def _session(c: Contract) -> None:
    c.data("store", "Dentist appointment on 2030-01-15 at 10am", "--type", "episodic")
    b = c.data("brief", "--budget", "1500", "--json")
    _has(c, "brief --json sections", b.get("sections") or {}, "upcoming")
    up = (b.get("sections") or {}).get("upcoming") or []
    c.check("brief: upcoming[].why.day (ISO)", bool(up) and all(len(str((x.get("why") or {}).get("day", ""))) == 10
                                                                 for x in up), up[:1])
    lst = c.data("list")
    _has(c, "list", lst, "memories", "total")
    for args in (("list", "--history"), ("list", "--forgotten"), ("list", "--type", "semantic", "--offset", "1"),
                 ("stats",), ("path",), ("clusters",)):
        c.data(*args)
    s = c.data("surface", "Oscar wants to meet at 9")
    _has(c, "surface", s, "results")
    g = c.data("graph", "1", "--hops", "1")
    c.check("graph: answered", bool(g), g)
    link = c.data("link", "1", "2", "--type", "causal")
    c.check("link: answered", bool(link), link)
    c.data("unlink", "1", "2")
    f = c.data("forget", "2")
    c.check("forget: answered", bool(f), f)
    forgotten = c.data("list", "--forgotten")
    c.check("list --forgotten shows it", 2 in [m.get("id") for m in forgotten.get("memories", [])], forgotten)
    c.data("restore", "2")
    c.data("pin", "3")
    c.data("unpin", "3")


def _backups(c: Contract) -> None:
    b = c.data("backup")
    _has(c, "backup", b, "path", "kept", "deleted")
    doc = c.data("doctor")
    _has(c, "doctor", doc, "last_backup", "notes")
    lst = c.data("restore", "--list")
    rows = lst.get("backups") or [{}]
    _has(c, "restore --list backups[]", rows[0], "name", "kind", "time", "size_bytes", "memories", "active")
    c.data("store", "Stored after the backup")
    dry = c.data("restore", str(rows[0].get("name")), "--dry-run")
    _has(c, "restore --dry-run", dry, "memories_before", "memories_after")
    done = c.data("restore", str(rows[0].get("name")))
    _has(c, "restore NAME", done, "previous_kept_in")
    other = c.folder / "elsewhere"
    other.mkdir(exist_ok=True)
    shutil.copy(rows[0].get("path") or b.get("path"), other / "copy.db")
    c.data("restore", "--list", "--from", str(other))
    exp = subprocess.run([sys.executable, str(REPO / "mem.py"), "--db", str(c.db), "export"], capture_output=True,
                         text=True, env=c.env, cwd=str(c.folder), timeout=120)
    lines = [json.loads(x) for x in exp.stdout.splitlines() if x.strip()]
    c.check("export: JSON lines, one per memory", exp.returncode == 0 and bool(lines), exp.stderr[-200:])
    (c.folder / "all.jsonl").write_text(exp.stdout, encoding="utf-8")
    back = c.data("import", "jsonl", str(c.folder / "all.jsonl"), db=c.folder / "moved.db")
    c.check("import jsonl all.jsonl: every line back", back.get("memories_added") == len(lines), back)
    c.data("compact")


def _errors(c: Contract) -> None:
    c.error("bad input (unreadable date)", ("recall", "x", "--since", "blorp"), 1)
    c.error("usage (no such command)", ("nonsense",), 2)
    c.error("usage (bad --importance)", ("store", "x", "--importance", "7"), 2)
    c.error("not found (get 424242)", ("get", "424242"), 3)
    other = "onnx" if c.env.get("MEM_EMBEDDER") == "hash" else "hash"
    c.error("embedding model changed", ("recall", "gateway"), 5, env={"MEM_EMBEDDER": other})
    c.error("bad input (MEM_EMBEDDER no embedder's name)", ("recall", "gateway"), 1, env={"MEM_EMBEDDER": "fake"})
    bad = c.folder / "damaged.db"
    bad.write_bytes(c.db.read_bytes()[:4096] + b"\0" * 8192)
    c.error("damaged file", ("recall", "gateway"), 8, db=bad)
    c.error("damaged file (doctor: problems)", ("doctor",), 8, db=bad)
    newer = c.folder / "newer.db"
    shutil.copy(c.db, newer)
    with sqlite3.connect(newer) as conn:
        conn.execute("INSERT INTO _mem_migrations(name, applied_at) VALUES ('m999_future', '2099-01-01')")
    c.error("written by a newer mem", ("stats",), 11, db=newer)
    sick = c.folder / "sick.db"  # a problem doctor finds (and --fix repairs): the sign plane out of step
    shutil.copy(c.db, sick)
    with sqlite3.connect(sick) as conn:
        conn.execute("DELETE FROM sign_memories")
    rc, reply, _ = c.run("doctor", db=sick)
    c.check("exit 1 doctor problems_found, the report still in data",
            rc == 1 and (reply.get("error") or {}).get("code") == "problems_found" and "problems" in (reply.get("data") or {}),
            reply)
    c.data("doctor", "--fix", db=sick)
    c.data("doctor", db=sick)
    from filelock import FileLock

    with FileLock(f"{c.db}.consolidate.lock"):  # a nightly consolidate already running
        c.error("another job holds the lock (a second consolidate)", ("consolidate",), 6)
    ro = c.folder / "ro"
    ro.mkdir(exist_ok=True)
    shutil.copy(c.db, ro / "m.db")
    os.chmod(ro / "m.db", 0o444)
    os.chmod(ro, 0o555)
    if os.geteuid() != 0:  # root writes through file modes: the check needs a user
        c.error("read-only (a store)", ("store", "new thing"), 9, db=ro / "m.db")
        rc, reply, _ = c.run("recall", "gateway", db=ro / "m.db")
        c.check("read-only: reads still work", rc == 0, reply)
    os.chmod(ro, 0o755)


def _wrong_then_forgotten(c: Contract) -> None:
    """users32: SKILL's "wrong: `mem.py forget ID` (… the value it had replaced is current again: `current_again`)",
    and what recall says of that value afterwards."""
    right = c.data("store", "The door code of the lab is 4471")
    wrong = c.data("store", "The door code of the lab is 9012")
    c.check("a misheard new value supersedes the right one", wrong.get("supersedes") == [right.get("id")], wrong)
    gone = c.data("forget", str(wrong.get("id")))
    c.check('forget the wrong one: "current_again": [right]', gone.get("current_again") == [right.get("id")], gone)
    hist = c.data("recall", "door code of the lab", "--history")
    mine = [r for r in hist.get("results", []) if r.get("id") == right.get("id")]
    c.check("recall --history: the current value names no forgotten id in superseded_by",
            bool(mine) and wrong.get("id") not in (mine[0].get("superseded_by") or []), mine[:1])


def _progress_and_names(c: Contract) -> None:
    """users32: a JSON-lines import's progress (SKILL: `done` and `total`, the last line `done` = `total`) and an
    error's message naming the file (SKILL's last line)."""
    export = c.folder / "all.jsonl"
    export.write_text("".join(json.dumps({"content": f"Server {i} patched on Tuesday", "source": "ops"}) + "\n"
                              for i in range(300)), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(REPO / "mem.py"), "--db", str(c.folder / "moved.db"), "import", str(export),
                           "--progress", "json"], capture_output=True, text=True, cwd=str(c.folder), env=c.env, timeout=300)
    lines = [json.loads(x) for x in proc.stderr.splitlines() if x.startswith("{")]
    c.check("import jsonl --progress json: a total on every line", proc.returncode == 0 and bool(lines)
            and all(x.get("total") == 300 for x in lines), lines[:2])
    c.check("import jsonl --progress json: the last line done = total, eta 0",
            bool(lines) and lines[-1].get("done") == lines[-1].get("total") and lines[-1].get("eta_s") == 0, lines[-1:])
    for args in (("get", "424242"), ("forget", "9999"), ("link", "1", "9999")):
        rc, reply, _ = c.run(*args)
        message = str((reply.get("error") or {}).get("message", ""))
        c.check(f"exit 3 {' '.join(args)}: the message names the file", rc == 3 and str(c.db) in message, reply)


MCP_TOOLS = {"store", "recall", "get", "forget", "restore", "update", "pin", "unpin", "brief", "surface", "link", "stats"}
MCP_LEAN = {"id", "content", "memory_type", "score", "weak", "source", "importance", "event_at", "tags"}
MCP_LEAN_IF_SET = {"author", "thread", "status", "valid_to", "pinned"}
MCP_ERROR_CODES = {"not_found", "invalid_input", "usage", "busy", "model_mismatch", "locked"}


def _mcp(c: Contract) -> None:
    """users32: SKILL's MCP promises (`mem mcp`: recall results carry only the lean fields, `full: true` every field)
    and the server's instructions (errors carry a code), through the SDK's stdio client as a host runs it."""
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=[str(REPO / "mem.py"), "--db", str(c.db), "mcp",
                                                                  "--no-socket"], env=c.env, cwd=str(c.folder))

    async def session() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with Client(params, read_timeout_seconds=300) as client:
            out["tools"] = {t.name: t for t in (await client.list_tools()).tools}

            async def call(name: str, args: dict[str, Any]) -> tuple[bool, Any, str]:
                r = await client.call_tool(name, args)
                text = r.content[0].text if r.content else ""  # type: ignore[union-attr]
                return bool(r.is_error), r.structured_content, text

            out["store"] = await call("store", {"content": "Mira's standup moved to 9:30", "tags": ["team"]})
            out["again"] = await call("store", {"content": "Mira's standup moved to 9:30"})
            out["recall"] = await call("recall", {"query": "when is Mira's standup", "k": 5})
            out["full"] = await call("recall", {"query": "when is Mira's standup", "k": 5, "full": True})
            out["missing"] = await call("get", {"id": 987654})
            out["bad_k"] = await call("recall", {"query": "x", "k": 0})
            out["brief"] = await call("brief", {"budget": 500})
        return out

    got = anyio.run(session)
    c.check("mcp: the tools SKILL and `mem mcp --help` name", set(got["tools"]) == MCP_TOOLS, sorted(got["tools"]))
    err, st, text = got["store"]
    c.check("mcp store: id, deduplicated, supersedes (a list)", not err and isinstance(st, dict)
            and {"id", "deduplicated", "supersedes"} <= set(st) and isinstance(st["supersedes"], list), st)
    err2, again, _ = got["again"]
    c.check("mcp store again: same id, deduplicated true", not err2 and again.get("id") == st.get("id")
            and again.get("deduplicated") is True, again)
    c.check("mcp: the text block is the structured content as JSON", json.loads(text) == st, text[:200])
    err, rec, _ = got["recall"]
    results = (rec or {}).get("results") or []
    c.check("mcp recall: query, strategy, count, results", not err and {"query", "strategy", "count", "results"} <= set(rec or {}),
            rec)
    extra = [sorted(set(r) - MCP_LEAN - MCP_LEAN_IF_SET) for r in results]
    c.check("mcp recall: each result has the lean fields and no other", bool(results)
            and all(MCP_LEAN <= set(r) for r in results) and not any(extra), extra or results[:1])
    c.check("mcp recall: weak is a bool", bool(results) and all(isinstance(r.get("weak"), bool) for r in results), results[:1])
    _, full, _ = got["full"]
    cli = c.data("recall", "when is Mira's standup", "-k", "5", "--no-touch")
    fr, cr = (full or {}).get("results") or [{}], cli.get("results") or [{}]
    c.check("mcp recall full: every field the CLI's JSON has", set(fr[0]) == set(cr[0]), sorted(set(cr[0]) ^ set(fr[0])))
    err, body, _ = got["missing"]
    error = (body or {}).get("error") or {}
    c.check("mcp get of no such id: an error with code not_found, exit_code 3, the file named",
            err and error.get("code") == "not_found" and error.get("exit_code") == 3 and str(c.db) in str(error.get("message")),
            body)
    err, body, _ = got["bad_k"]
    c.check("mcp recall k=0: a usage error", err and ((body or {}).get("error") or {}).get("code") == "usage", body)
    for name in ("missing", "bad_k"):
        code = ((got[name][1] or {}).get("error") or {}).get("code")
        c.check(f"mcp {name}: the error code is one the server's instructions list", code in MCP_ERROR_CODES, code)
    err, brief, _ = got["brief"]
    c.check("mcp brief: text and sections", not err and isinstance((brief or {}).get("text"), str)
            and isinstance((brief or {}).get("sections"), dict), brief)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", action="store_true", help="the real model (default: MEM_EMBEDDER=hash)")
    ap.add_argument("--json", action="store_true", help="print the checks as one JSON object")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="mem-contract-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEM_")}
    env.update(XDG_DATA_HOME=str(folder / "xdg"), XDG_CONFIG_HOME=str(folder / "xdgc"))
    if not args.model:
        env["MEM_EMBEDDER"] = "hash"
    c = Contract(folder, env)
    steps: list[Callable[[Contract], None]] = [_envelope, _store, _facts, _recall, _session, _backups, _errors,
                                               _wrong_then_forgotten, _progress_and_names, _mcp]
    for step in steps:
        step(c)
    failed = [r for r in c.results if not r["ok"]]
    if args.json:
        print(json.dumps({"checks": len(c.results), "failed": len(failed), "results": c.results}, ensure_ascii=False))
    else:
        for r in c.results:
            print(("ok   " if r["ok"] else "FAIL ") + r["check"] + ("" if r["ok"] else f"\n       {r['seen']}"))
        print(f"{len(c.results)} checks, {len(failed)} failed")
    if args.keep:
        print(f"kept {folder}", file=sys.stderr)
    else:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
