"""The storage edges of an agent's week (bench/agent_week.py --edges), each checked by the week's output contract.

* doctor while the disk takes no more writes (file size capped for its process: the log's fold fails);
* a MEMORY.md that is a symlink into a dotfiles folder, with CRLF line ends and no trailing newline, written
  by consolidate on two nights with the user's edits between them;
* a store's export imported into a new store while consolidate runs on that store;
* a store's export imported back into the store itself (undoing a mistake from an older export): nothing is
  added twice (serve12: every hand-stored memory was, its ref in the export being a hash of its text);
* two stores whose agents keep storing while each imports the other's export, over and over (serve13): every
  memory of each is in the other once, the same text stored in both is two memories, a last exchange adds nothing;
* a restore while an MCP server (`mem.py mcp`) serves the store: the server's next calls answer from the restored
  file and write into it, never into the file the restore replaced (serve13);
* an import into a store whose disk fills in its middle (the file size capped for its process): one line, a code
  of README's table, nothing half-written, and the same import run again brings every line once (serve13);
* as root only (else skipped, said so): a store on a full disk (a 6 MB tmpfs) and on a read-only mount.

Each violation is a FAULT line of the week (its exit status counts them).
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import threading
from typing import Any

from agent_week import MEM, Week


def edges(week: Week) -> None:
    """Every edge above, in turn."""
    print("-- edges", flush=True)
    doctor_with_writes_capped(week)
    linked_memory_md(week)
    import_while_consolidating(week)
    import_own_export(week)
    from agent_week_exchange import exchange_while_storing, import_disk_fills, restore_under_mcp

    exchange_while_storing(week)
    restore_under_mcp(week)
    import_disk_fills(week)
    if os.geteuid() != 0:
        print("edges: not root: the full disk and the read-only mount are skipped", flush=True)
        return
    full_disk(week)
    read_only_mount(week)


def _capped(size: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def doctor_with_writes_capped(week: Week) -> None:
    size = week.db.stat().st_size
    proc = subprocess.run([*MEM, "--db", str(week.db), "doctor"], capture_output=True, text=True, env=week.env,
                          preexec_fn=lambda: _capped(size + 1000))
    env = week.check(["doctor", "(writes capped)"], proc.returncode, proc.stdout, proc.stderr, None)
    if env is not None and not env.get("ok"):
        week.fault(f"doctor with no room to write: {env['error']['code']}: {env['error']['message']}")


def linked_memory_md(week: Week) -> None:
    dotfiles = week.dir / "dotfiles"
    dotfiles.mkdir(exist_ok=True)
    target = dotfiles / "MEMORY.md"
    target.write_bytes(b"# Agent notes\r\nUser line one\r\nUser line two (no newline at the end)")
    link = week.dir / "LINKED.md"
    link.unlink(missing_ok=True)
    link.symlink_to(target)
    for night in (1, 2):
        week.run("consolidate", "--memory-md", str(link), timeout=900)
        data = target.read_bytes()
        if not link.is_symlink() or link.resolve() != target:
            week.fault(f"MEMORY.md symlink (night {night}): the link was replaced by a file")
            return
        text = data.decode("utf-8")
        for line in ("User line one", "User line two (no newline at the end)", *(["User line three"] * (night > 1))):
            if line not in text:
                week.fault(f"MEMORY.md symlink (night {night}): the user's line {line!r} is gone")
        if text.count("<!-- mem:begin") != 1:
            week.fault(f"MEMORY.md symlink (night {night}): {text.count('<!-- mem:begin')} managed blocks")
        bare = data.count(b"\n") - data.count(b"\r\n")
        if bare:
            week.fault(f"MEMORY.md with CRLF (night {night}): {bare} bare LF line ends written into it")
        target.write_bytes(data + b"User line three")  # the user appends, again with no newline


def import_while_consolidating(week: Week) -> None:
    dump = week.dir / "edges-export.jsonl"
    proc = subprocess.run([*MEM, "--db", str(week.db), "export"], capture_output=True, text=True, env=week.env)
    if proc.returncode != 0:
        week.fault(f"export for the edges: exit {proc.returncode}")
        return
    dump.write_text(proc.stdout, encoding="utf-8")
    lines = sum(1 for line in proc.stdout.splitlines() if line.strip())
    copy = week.dir / "edges-copy.db"
    first = subprocess.run([*MEM, "--db", str(copy), "store", "a note before the import"], capture_output=True,
                           text=True, env=week.env)
    week.check(["store", "(edges copy)"], first.returncode, first.stdout, first.stderr, "ok")
    got: list[dict[str, Any] | None] = []

    def consolidate() -> None:
        p = subprocess.run([*MEM, "--db", str(copy), "consolidate"], capture_output=True, text=True, env=week.env)
        got.append(week.check(["consolidate", "(edges copy)"], p.returncode, p.stdout, p.stderr, None))

    t = threading.Thread(target=consolidate)
    t.start()
    out = subprocess.run([*MEM, "--db", str(copy), "import", "jsonl", str(dump)], capture_output=True, text=True,
                         env=week.env)
    t.join()
    env = week.check(["import", "jsonl", "(while consolidate runs)"], out.returncode, out.stdout, out.stderr, None)
    if env is not None and env.get("ok"):
        import json
        import sqlite3

        rows = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
        conn = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
        have = {r[0] for r in conn.execute("SELECT content FROM memories WHERE status = 'active'")}
        conn.close()
        lost = [r for r in rows if not r.get("level") and r["content"] not in have]
        if lost:
            week.fault(f"import while consolidate runs: {len(lost)} of the export's memories missing, e.g. "
                       f"{lost[0]['content'][:60]!r}")
        # (an archived summary of the exporting store arrives archived: only its active ones must be active here)
        summaries = [r for r in rows if r.get("level") and r.get("status", "active") == "active"
                     and r["content"] not in have]
        if summaries:  # (a summary's ref is its cluster's id in the exporting store: the import keeps it under its
            # own ref, memengine/ingest.py's _summary_ref; 9 of 680 were skipped as duplicates before serve12)
            week.fault(f"import while consolidate runs: {len(summaries)} of the export's {lines} lines are summaries "
                       f"missing after the import, e.g. {summaries[0]['ref']}")
    doctor = subprocess.run([*MEM, "--db", str(copy), "doctor"], capture_output=True, text=True, env=week.env)
    env = week.check(["doctor", "(edges copy)"], doctor.returncode, doctor.stdout, doctor.stderr, "ok")
    if env is not None and env.get("ok") and env["data"].get("ok") is not True:
        week.fault(f"doctor after an import during consolidate: {env['data'].get('problems')}")


def import_own_export(week: Week) -> None:
    import json

    proc = subprocess.run([*MEM, "--db", str(week.db), "export"], capture_output=True, text=True, env=week.env)
    if proc.returncode != 0:
        week.fault(f"export for the re-import: exit {proc.returncode}")
        return
    dump = week.dir / "edges-own-export.jsonl"
    dump.write_text(proc.stdout, encoding="utf-8")
    lines = sum(1 for line in proc.stdout.splitlines() if line.strip())
    for extra in (["--dry-run"], []):
        p = subprocess.run([*MEM, "--db", str(week.db), "import", "jsonl", str(dump), *extra], capture_output=True,
                           text=True, env=week.env)
        env = week.check(["import", "jsonl", "(its own export)", *extra], p.returncode, p.stdout, p.stderr, "ok")
        if env is not None and env["data"]["memories_added"]:
            week.fault(f"the store's own export imported back{' (dry run)' if extra else ''}: "
                       f"{env['data']['memories_added']} of {lines} lines added again")
    again = subprocess.run([*MEM, "--db", str(week.db), "export"], capture_output=True, text=True, env=week.env)
    if again.returncode == 0 and [json.loads(x) for x in again.stdout.splitlines() if x.strip()] != \
            [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]:
        week.fault("the store's own export imported back: the store's export changed")


def _mount(args: list[str]) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def full_disk(week: Week) -> None:
    where = week.dir / "full"
    where.mkdir(exist_ok=True)
    if not _mount(["-t", "tmpfs", "-o", "size=6m", "tmpfs", str(where)]):
        print("edges: cannot mount a tmpfs: the full disk is skipped", flush=True)
        return
    try:
        db = where / "memory.db"
        (where / "filler").write_bytes(bytes(3_500_000))
        stored, refused = 0, None
        for i in range(400):
            p = subprocess.run([*MEM, "--db", str(db), "store", f"note {i} " + os.urandom(3000).hex()],
                               capture_output=True, text=True, env=week.env)
            env = week.check(["store", "(full disk)"], p.returncode, p.stdout, p.stderr, None)
            if env is None or not env.get("ok"):
                refused = env
                break
            stored += 1
        if refused is None or refused.get("error", {}).get("code") != "disk_full":
            week.fault(f"full disk: {stored} stores, then {refused and refused.get('error')} (want disk_full)")
        p = subprocess.run([*MEM, "--db", str(db), "doctor"], capture_output=True, text=True, env=week.env)
        env = week.check(["doctor", "(full disk)"], p.returncode, p.stdout, p.stderr, "ok")
        if env is not None and env.get("ok") and not any("bytes free" in n for n in env["data"].get("notes", [])):
            week.fault("doctor on a full disk: no note of the free space")
        (where / "filler").unlink()
        p = subprocess.run([*MEM, "--db", str(db), "stats"], capture_output=True, text=True, env=week.env)
        env = week.check(["stats", "(disk freed)"], p.returncode, p.stdout, p.stderr, "ok")
        if env is not None and env.get("ok") and env["data"].get("memories") != stored:
            week.fault(f"full disk: {stored} stores answered ok, {env['data'].get('memories')} memories in the file")
        p = subprocess.run([*MEM, "--db", str(db), "store", "after the disk was freed"], capture_output=True,
                           text=True, env=week.env)
        week.check(["store", "(disk freed)"], p.returncode, p.stdout, p.stderr, "ok")
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)


def read_only_mount(week: Week) -> None:
    src, where = week.dir / "ro-src", week.dir / "ro"
    src.mkdir(exist_ok=True)
    where.mkdir(exist_ok=True)
    p = subprocess.run([*MEM, "--db", str(week.db), "backup", str(src / "memory.db")], capture_output=True,
                       text=True, env=week.env)
    if week.check(["backup", "(for the read-only mount)"], p.returncode, p.stdout, p.stderr, "ok") is None:
        return
    if not (_mount(["--bind", str(src), str(where)]) and _mount(["-o", "remount,bind,ro", str(where)])):
        subprocess.run(["umount", str(where)], capture_output=True)
        print("edges: cannot mount read-only: skipped", flush=True)
        return
    try:
        db = str(where / "memory.db")
        for args, want in ((["recall", "Oscar", "-k", "3"], "ok"), (["stats"], "ok"), (["doctor"], "ok"),
                           (["store", "a new fact"], "read_only"), (["forget", "1"], "read_only"),
                           (["consolidate"], "read_only")):
            p = subprocess.run([*MEM, "--db", db, *args], capture_output=True, text=True, env=week.env)
            week.check([*args, "(read-only mount)"], p.returncode, p.stdout, p.stderr, want)
        left = sorted(x.name for x in where.iterdir() if x.name != "memory.db")
        if left:
            week.fault(f"read-only mount: files appeared beside the store: {left}")
    finally:
        subprocess.run(["umount", str(where)], capture_output=True)
