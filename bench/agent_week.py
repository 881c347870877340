"""An agent's week against the real CLI: a soak driver that checks the output contract at every step.

    .venv/bin/python bench/agent_week.py                      # 3 days, 3 agents, hash embedder, in /tmp
    .venv/bin/python bench/agent_week.py --days 5 --agents 4 --embedder real --dir /tmp/week --keep

It drives ``python3 mem.py`` as README.md and SKILL.md tell agents to, with real processes on one real
store file: each day every agent starts with ``brief``, then the agents store and recall concurrently
(shell exec, JSON on a pipe, exit codes), a chat export is imported mid-day, a few memories are
forgotten and one restored, the same fact is stored twice (deduplicated), ``doctor`` and ``backup`` run,
one ``store`` and one ``consolidate`` are killed with SIGKILL in their middle, and at night
``consolidate`` writes the managed block of a MEMORY.md that the "user" edits by hand between nights
(notes above and below the block every night, an edit inside it on some nights). Bad input is given on
purpose (an empty store, an unknown id, a malformed import, a bad date, a missing folder).

The contract checked at every call: stdout is exactly one JSON line; ``ok``/``command``/``took_ms``/``data``
or ``ok``/``error.code``/``error.message``; the exit code is the one README's table gives for the code; an
error's message is one line (no traceback on stderr). And across the week: every memory an agent was told
was stored is there with its exact text, once (by ``export``), a forgotten one is ``forgotten``, nothing
stored twice, the user's text in MEMORY.md is never lost (outside the block: kept; inside: saved to
``MEMORY.md.edited-*``), a killed store or consolidate leaves a store ``doctor`` finds sound and a MEMORY.md
that is whole. Every violation is printed as one FAULT line; the exit status is the number of faults (0: none).
No timing is asserted: the load of a shared machine must not make it fail.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
MEM = [sys.executable, str(REPO / "mem.py")]

# README.md's "Exit codes" table: error.code -> exit status
EXIT_CODES = {"invalid_input": 1, "usage": 2, "not_found": 3, "busy": 4, "model_mismatch": 5, "locked": 6,
              "missing_dependencies": 7, "damaged": 8, "read_only": 9, "disk_full": 10, "newer_schema": 11,
              "io_error": 12, "internal": 70, "aborted": 130, "interrupted": 130}
TOPICS = ("the staging database", "Oscar's travel plans", "the billing migration", "the garden project",
          "the quarterly report", "Lena's onboarding", "the build server", "the Lisbon offsite")
FACTS = ("{who} said {topic} needs a decision by {day}", "{who} fixed a bug in {topic} (ticket {n})",
         "Reminder from {who}: {topic} review moved to {day} at {hour}:00",
         "{who} prefers that {topic} notes go to the shared drive, item {n}",
         "The owner of {topic} is now {who} (handover {n})")
PEOPLE = ("Ana", "Oscar", "Lena", "Tomás", "Priya", "Jun")
REPLIES = ("ok", "yes", "sounds good", "thanks!", "ok 👍")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")


@dataclass
class Week:
    """The store, the log of what agents were told, and the faults found."""

    dir: Path
    env: dict[str, str]
    faults: list[str] = field(default_factory=list)
    stored: dict[int, str] = field(default_factory=dict)  # id -> exact content, as `store` answered
    forgotten: set[int] = field(default_factory=set)
    turns: dict[int, tuple[str, str, str]] = field(default_factory=dict)  # id -> (content, thread, author)
    calls: int = 0
    serve: bool = False  # a `mem.py serve` runs each day (killed with SIGKILL once mid-day)
    lock: threading.RLock = field(default_factory=threading.RLock)

    @property
    def db(self) -> Path:
        return self.dir / "memory.db"

    @property
    def memory_md(self) -> Path:
        return self.dir / "MEMORY.md"

    def fault(self, what: str) -> None:
        with self.lock:
            self.faults.append(what)
        print(f"FAULT {what}", flush=True)

    # ------------------------------------------------------------------ one call and its contract

    def run(self, *args: str, stdin: str | None = None, expect: str | None = "ok",
            timeout: float = 300) -> dict[str, Any] | None:
        """``mem.py --db DB ARGS`` through a pipe; the envelope, checked (None if it could not be read).

        ``expect``: "ok", an error code, or None (either is fine, the contract is still checked)."""
        cmd = [*MEM, "--db", str(self.db), *args]
        proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=self.env, timeout=timeout)
        with self.lock:
            self.calls += 1
        return self.check(args, proc.returncode, proc.stdout, proc.stderr, expect)

    def check(self, args: tuple[str, ...] | list[str], rc: int, out: str, err: str,
              expect: str | None) -> dict[str, Any] | None:
        """The output contract of one finished call (module docstring)."""
        what = "mem.py " + " ".join(a if len(a) < 40 else a[:37] + "..." for a in args)
        lines = out.splitlines()
        if len(lines) != 1:
            self.fault(f"{what}: stdout has {len(lines)} lines, want one JSON line (exit {rc}; "
                       f"stderr {err.strip()[-200:]!r})")
            return None
        try:
            env = json.loads(lines[0])
        except ValueError:
            self.fault(f"{what}: stdout is not JSON: {lines[0][:200]!r}")
            return None
        if "Traceback (most recent call last)" in err:
            self.fault(f"{what}: a traceback on stderr: {err.strip().splitlines()[-1][:200]!r}")
        if env.get("ok") is True:
            data = env.get("data")
            if rc == 1 and isinstance(data, dict) and data.get("ok") is False and "problems" in data:
                self.fault(f"{what}: found problems: {data['problems']}")  # (doctor: exit 1 says so)
            elif rc != 0:
                self.fault(f"{what}: ok true with exit {rc}")
            for key in ("command", "took_ms", "data"):
                if key not in env:
                    self.fault(f"{what}: ok envelope without {key!r}")
            if expect not in ("ok", None):
                self.fault(f"{what}: ok, expected error {expect}")
            return env
        if env.get("ok") is not False or not isinstance(env.get("error"), dict):
            self.fault(f"{what}: envelope neither ok nor an error: {lines[0][:200]!r}")
            return env
        code, message = env["error"].get("code"), env["error"].get("message")
        if code not in EXIT_CODES:
            self.fault(f"{what}: unknown error code {code!r}")
        elif EXIT_CODES[code] != rc:
            self.fault(f"{what}: error {code} exits {rc}, README says {EXIT_CODES[code]}")
        if not isinstance(message, str) or not message.strip() or "\n" in message.strip():
            self.fault(f"{what}: error message is not one line: {message!r}")
        if expect is not None and expect != code:
            self.fault(f"{what}: {code} ({message}), expected {expect}")
        return env

    # ------------------------------------------------------------------ what agents do

    def store(self, content: str, *extra: str) -> int | None:
        """Store ``content`` and log the id the agent was given."""
        env = self.run("store", content, *extra) if content != "-" else None
        if env is None or not env.get("ok"):
            return None
        data = env["data"]
        for key in ("id", "deduplicated"):
            if key not in data:
                self.fault(f"store: data without {key!r}: {sorted(data)}")
                return None
        mid = int(data["id"])
        with self.lock:
            known = self.stored.get(mid)
            if known is not None and known != content and not data["deduplicated"]:
                self.fault(f"store: id {mid} given for {content!r} already held {known!r}")
            if known is None and data["deduplicated"]:
                # deduplicated against something no agent stored: an import's line (fine) or a lost write
                pass
            self.stored.setdefault(mid, content)
        return mid

    def turn(self, content: str, thread: str, author: str) -> int | None:
        """Store a chat turn; a turn merged into another author's or another chat's turn is a lost event."""
        env = self.run("store", content, "--thread", thread, "--author", author, "--type", "episodic")
        if env is None or not env.get("ok"):
            return None
        mid = int(env["data"]["id"])
        with self.lock:
            prev = self.turns.get(mid)
            if prev is not None and prev != (content, thread, author):
                self.fault(f"store turn {content!r} by {author} in {thread}: merged into #{mid}, the turn "
                           f"{prev[0]!r} by {prev[2]} in {prev[1]} (deduplicated: {env['data'].get('deduplicated')})")
            self.turns.setdefault(mid, (content, thread, author))
            self.stored.setdefault(mid, content)
        return mid

    def agent(self, name: str, day: int, rng: random.Random, n: int) -> None:
        """One agent's working day: stores and recalls, interleaved, as shell calls."""
        for i in range(n):
            who, topic = rng.choice(PEOPLE), rng.choice(TOPICS)
            text = rng.choice(FACTS).format(who=who, topic=topic, day=rng.choice(DAYS), hour=rng.randint(8, 17),
                                            n=f"{name}-{day}-{i}")
            kind = rng.choice(("semantic", "episodic", "procedural"))
            mid = self.store(text, "--type", kind, "--tag", name, "--source", "agent", "--importance",
                             f"{rng.choice((0.2, 0.5, 0.8)):.1f}")
            if mid is not None and i % 4 == 3:  # a correction, a pin, a link: the old version stays as history
                fixed = f"{text} (corrected by {name})"
                env = self.run("update", str(mid), fixed)
                if env and env.get("ok"):
                    new_id = int(env["data"].get("id", -1))
                    with self.lock:
                        self.stored.setdefault(new_id, fixed)
                    self.run("pin", str(new_id))
                    self.run("link", str(new_id), str(mid), "--type", "explicit")
                    got = self.run("get", str(mid))
                    if got and got.get("ok") and got["data"].get("valid_to") is None:
                        self.fault(f"get #{mid} after `update`: no valid_to (it should be history)")
            # a turn of the chat the agent takes part in (SKILL.md: --thread, --author, episodic)
            turn = rng.choice(REPLIES) if rng.random() < 0.5 else f"{name} on {topic}: {rng.choice(DAYS)} works"
            self.turn(turn, f"chat-day{day}", name)
            if i % 3 == 2:
                env = self.run("recall", f"what about {topic}?", "-k", "5")
                if env and env.get("ok"):
                    self.check_recall(env)

    def check_recall(self, env: dict[str, Any]) -> None:
        data = env["data"]
        for key in ("query", "strategy", "count", "results"):
            if key not in data:
                self.fault(f"recall: data without {key!r}")
                return
        if data["count"] != len(data["results"]):
            self.fault(f"recall: count {data['count']} but {len(data['results'])} results")
        ids = [r.get("id") for r in data["results"]]
        if len(ids) != len(set(ids)):
            self.fault(f"recall: an id twice in the results: {ids}")
        for r in data["results"]:
            for key in ("id", "content", "memory_type", "score", "weak", "source", "tags", "event_at"):
                if key not in r:
                    self.fault(f"recall: a result without {key!r}")
                    return
            with self.lock:
                if r["id"] in self.forgotten:
                    self.fault(f"recall: forgotten #{r['id']} returned by a default recall")


# ---------------------------------------------------------------------- the days

def chat_export(path: Path, day: int, rng: random.Random) -> int:
    """A WhatsApp export of one day's chat (the format of tests/fixtures/whatsapp); its message count."""
    lines = []
    for i in range(40):
        who = rng.choice(("Ana García", "Oscar Ruiz"))
        lines.append(f"{10 + day:02d}/11/2026, {9 + i // 6:02d}:{(i * 7) % 60:02d} - {who}: "
                     f"day {day} message {i}: {rng.choice(TOPICS)} {rng.choice(('sounds good', 'is late again', 'moved to ' + rng.choice(DAYS)))}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def user_edits(week: Week, night: int, rng: random.Random) -> tuple[list[str], str | None]:
    """The user's hand edits of MEMORY.md before a night: a note above and below the block every night,
    some nights a line written inside the block. What must survive, and the inside line (or None)."""
    md = week.memory_md
    text = md.read_text(encoding="utf-8") if md.exists() else "# My agent's memory\n"
    above = f"User note {night}: call the plumber about the kitchen tap (ref {rng.randint(1000, 9999)})"
    below = f"User footnote {night}: the wifi at the cabin is slow"
    begin = text.find("<!-- mem:")
    if begin >= 0:
        text = text[:begin] + above + "\n\n" + text[begin:]
    else:
        text = text.rstrip("\n") + "\n\n" + above + "\n"
    text = text.rstrip("\n") + "\n\n" + below + "\n"
    inside = None
    if night % 2 == 1 and begin >= 0:
        end = text.find("<!-- /mem")
        if end < 0:
            end = text.find("<!-- mem:end")
        if end > 0:
            inside = f"User line inside the block {night}: do not forget the dentist"
            text = text[:end] + inside + "\n" + text[end:]
    md.write_text(text, encoding="utf-8")
    return [above, below], inside


def kill_in_middle(week: Week, args: list[str], after: float, stdin: str | None = None) -> int | None:
    """Start ``mem.py ARGS``, SIGKILL it ``after`` seconds in; its exit status (None: killed)."""
    proc = subprocess.Popen([*MEM, "--db", str(week.db), *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=week.env)
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
    if proc.stdin is not None:
        proc.stdin.close()
    time.sleep(after)
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        return None
    proc.wait()
    return proc.returncode


def bad_inputs(week: Week) -> None:
    """Mistakes a user makes: each must be one line, naming what was wrong, with README's exit code."""
    week.run("store", "", expect="invalid_input")
    week.run("store", "   \n  ", expect="invalid_input")
    week.run("get", "987654321", expect="not_found")
    week.run("forget", "987654321", expect="not_found")
    week.run("recall", "anything", "--since", "the day after never", expect="invalid_input")
    week.run("store", "x", "--importance", "7", expect="usage")
    bad = week.dir / "broken.jsonl"
    bad.write_text('{"content": "fine line", "memory_type": "semantic"}\n{"content": "broken\n', encoding="utf-8")
    env = week.run("import", "jsonl", str(bad), expect="invalid_input")
    if env and not env.get("ok"):
        msg = env["error"]["message"]
        if "broken.jsonl" not in msg or not re.search(r"line 2\b|:2\b", msg):
            week.fault(f"import of a malformed line: the message does not name the file and line 2: {msg!r}")
    env = week.run("import", str(week.dir / "no-such-export.zip"), expect="invalid_input")
    proc = subprocess.run([*MEM, "--db", str(week.dir / "missing-folder" / "m.db"), "stats"], capture_output=True,
                          text=True, env=week.env)
    week.check(["--db", "missing-folder/m.db", "stats"], proc.returncode, proc.stdout, proc.stderr, "invalid_input")


def day(week: Week, d: int, agents: int, per_agent: int, rng: random.Random) -> None:
    """One working day and its night."""
    print(f"-- day {d}", flush=True)
    for _ in range(agents):  # session start
        env = week.run("brief", "--budget", "800")
        if env and env.get("ok") and not isinstance(env["data"].get("text", env["data"].get("sections")),
                                                     (str, dict, list)):
            week.fault(f"brief: data has neither text nor sections: {sorted(env['data'])}")
    threads = [threading.Thread(target=week.agent, args=(f"agent{a}", d, random.Random(rng.random()), per_agent))
               for a in range(agents)]
    # a daytime consolidate (agents keep storing meanwhile) and a doctor, next to the agents
    threads.append(threading.Thread(target=week.run, args=("consolidate", "--phases", "links,cluster,summarize"),
                                    kwargs={"expect": None}))
    threads.append(threading.Thread(target=week.run, args=("doctor",), kwargs={"expect": None}))
    for t in threads:
        t.start()
    server = start_server(week) if week.serve else None
    # mid-day: a chat export imported while the agents work
    export = week.dir / f"WhatsApp Chat with Ana day{d}.txt"
    n_msgs = chat_export(export, d, rng)
    env = week.run("import", str(export))
    if env and env.get("ok"):
        got = env["data"]
        imported = got.get("memories_added")
        if imported is not None and imported != n_msgs:
            week.fault(f"import: {n_msgs} messages in the export, {imported} imported ({got})")
    env2 = week.run("import", str(export))  # idempotent: nothing new the second time
    if env2 and env2.get("ok"):
        again = env2["data"].get("memories_added")
        if again:
            week.fault(f"import twice: the second run imported {again} again")
    if server is not None:  # killed while the agents' calls are handed to it: they must run on their own
        time.sleep(rng.uniform(0.5, 3.0))
        server.send_signal(signal.SIGKILL)
        server.wait()
        server = start_server(week)
    for t in threads:
        t.join()
    # the same fact twice: one memory, deduplicated
    text = f"Day {d}: the gate code of the Lisbon office is {1000 + d}"
    first = week.store(text, "--type", "semantic")
    env = week.run("store", text, "--type", "semantic")
    if env and env.get("ok") and (env["data"]["id"] != first or env["data"]["deduplicated"] is not True):
        week.fault(f"store twice: {env['data']} (first id {first})")
    # forget two of the day's memories, restore one
    mine = sorted(week.stored)[-6:]
    for mid in mine[:2]:
        env = week.run("forget", str(mid))
        if env and env.get("ok"):
            week.forgotten.add(mid)
    env = week.run("restore", str(mine[0]))
    if env and env.get("ok"):
        week.forgotten.discard(mine[0])
    env = week.run("get", str(mine[1]))
    if env and env.get("ok") and env["data"].get("status") != "deleted":
        week.fault(f"get #{mine[1]} after forget: status {env['data'].get('status')!r}")
    # a store killed in its middle (a long text on stdin), then a check
    long_text = " ".join(f"sentence {i} of the long note on {rng.choice(TOPICS)}." for i in range(400))
    rcs = [kill_in_middle(week, ["store", "-", "--tag", "killed"], after=t, stdin=long_text)
           for t in (rng.uniform(0.2, 0.5), rng.uniform(0.5, 1.0), rng.uniform(1.0, 2.0))]
    rc = rcs[-1]
    env = week.run("recall", "long note sentence", "--tag", "killed", "-k", "50", "--strategy", "keyword")
    if env and env.get("ok"):
        same = [r for r in env["data"]["results"] if r["content"] == long_text]
        half = [r for r in env["data"]["results"] if r["content"] != long_text and "long note" in r["content"]
                and r["content"] not in week.stored.values()]
        if half:
            week.fault(f"store killed (rc {rc}): a half-written memory {half[0]['id']}")
        if len(same) > 1:
            week.fault(f"store killed: the long note is stored {len(same)} times")
        for r in same:
            week.stored.setdefault(r["id"], long_text)
    env = week.run("doctor")
    if env and env.get("ok") and env["data"].get("ok") is not True:
        week.fault(f"doctor after the killed store: {env['data'].get('problems')}")
    kill_in_middle(week, ["backup"], after=rng.uniform(0.3, 1.2))  # a killed backup, then one to the end
    env = week.run("backup")
    if env and env.get("ok"):
        path = Path(env["data"].get("path", ""))
        if not path.is_file():
            week.fault(f"backup: data.path {path} is not a file")
        left = [p.name for p in path.parent.iterdir() if ".mem-tmp" in p.name]
        if left:
            week.fault(f"backup after a killed backup: left in {path.parent}: {left}")
    bad_inputs(week)
    # the whole store put back from the backup just taken, then the restore undone: nothing may be lost
    if env and env.get("ok"):
        backup = env["data"]["path"]
        dry = week.run("restore", backup, "--dry-run")
        res = week.run("restore", backup)
        if res and res.get("ok"):
            if dry and dry.get("ok") and dry["data"].get("memories_after") != res["data"].get("memories_after"):
                week.fault(f"restore --dry-run said {dry['data'].get('memories_after')} memories after, "
                           f"the restore gave {res['data'].get('memories_after')}")
            kept = res["data"].get("previous_kept_in")
            if not kept:
                week.fault(f"restore: no previous_kept_in ({sorted(res['data'])})")
            else:
                week.run("restore", kept)  # undo
    # an import killed in its middle, then run again: every message once
    big = week.dir / f"WhatsApp Chat with Oscar day{d}.txt"
    lines = [f"{10 + d:02d}/11/2026, {8 + i // 60:02d}:{i % 60:02d} - Oscar Ruiz: night {d} line {i} about "
             f"{rng.choice(TOPICS)}" for i in range(600)]
    big.write_text("\n".join(lines) + "\n", encoding="utf-8")
    kill_in_middle(week, ["import", str(big)], after=rng.uniform(0.8, 2.5))
    week.run("import", str(big))
    env = week.run("recall", f"night {d} line", "--strategy", "keyword", "-k", "5")
    import sqlite3

    conn = sqlite3.connect(f"file:{week.db}?mode=ro", uri=True)
    got = conn.execute("SELECT count(*), count(DISTINCT content) FROM memories WHERE content LIKE ? AND status = "
                       "'active' AND ref NOT LIKE 'episode:%'", (f"%: night {d} line %",)).fetchone()
    conn.close()
    if tuple(got) != (600, 600):
        week.fault(f"import killed then run again: {got[0]} memories of {got[1]} distinct lines, want 600 of 600")
    # two consolidates at once: one runs, the other is told another job holds the lock (exit 6)
    both: list[dict[str, Any] | None] = []
    pair = [threading.Thread(target=lambda: both.append(week.run("consolidate", "--phases", "links", expect=None)))
            for _ in range(2)]
    for t in pair:
        t.start()
    for t in pair:
        t.join()
    codes = sorted("ok" if e and e.get("ok") else (e or {}).get("error", {}).get("code", "?") for e in both)
    if codes not in (["locked", "ok"], ["ok", "ok"]):
        week.fault(f"two consolidates at once: {codes}")
    # the night: the user edits MEMORY.md, a consolidate is killed, then one runs to the end
    keep, inside = user_edits(week, d, rng)
    before = week.memory_md.read_text(encoding="utf-8")
    edited_before = set(week.dir.glob("MEMORY.md.edited-*"))
    for after in (rng.uniform(0.5, 1.5), rng.uniform(1.5, 4.0)):
        kill_in_middle(week, ["consolidate", "--memory-md", str(week.memory_md)], after=after)
    after_kill = week.memory_md.read_text(encoding="utf-8")
    for line in keep:
        if line not in after_kill:
            week.fault(f"night {d}: a killed consolidate lost the user's line {line!r} from MEMORY.md")
    if after_kill != before and after_kill.count("<!-- mem:") != before.count("<!-- mem:") and before.count("<!-- mem:"):
        week.fault(f"night {d}: a killed consolidate left MEMORY.md with a different number of block markers")
    env = week.run("consolidate", "--memory-md", str(week.memory_md), timeout=900)
    if env is not None and not env.get("ok") and env["error"]["code"] == "locked":
        week.fault(f"night {d}: consolidate locked after the killed one: {env['error']['message']}")
    text = week.memory_md.read_text(encoding="utf-8")
    for line in keep:
        if line not in text:
            week.fault(f"night {d}: consolidate lost the user's line {line!r} from MEMORY.md")
    if inside is not None:
        saved = [p for p in set(week.dir.glob("MEMORY.md.edited-*")) - edited_before
                 if inside in p.read_text(encoding="utf-8")]
        if inside not in text and not saved:
            week.fault(f"night {d}: the user's line inside the block was replaced and not saved to .edited-*")
    env = week.run("doctor")
    if env and env.get("ok") and env["data"].get("ok") is not True:
        week.fault(f"doctor after night {d}: {env['data'].get('problems')}")
    if server is not None:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            week.fault(f"night {d}: the server did not stop within 60 s of SIGTERM")
            server.kill()
            server.wait()
        if server.returncode not in (0, -signal.SIGTERM, 128 + signal.SIGTERM):
            week.fault(f"night {d}: the server exited {server.returncode} on SIGTERM")


def start_server(week: Week) -> subprocess.Popen[str]:
    """`mem.py serve` for the store; one-shot calls with JSON output hand themselves to it."""
    proc = subprocess.Popen([*MEM, "--db", str(week.db), "serve"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=week.env)
    time.sleep(2.0)  # (not waited for: a call before it listens runs on its own, as it should)
    return proc


def final_check(week: Week) -> None:
    """Every memory an agent was given an id for is there, with its text, once; forgotten ones are forgotten;
    ``export`` then ``import jsonl`` into a new file gives back every exported memory."""
    import sqlite3

    conn = sqlite3.connect(f"file:{week.db}?mode=ro", uri=True)  # read-only: the driver's own look at the file
    rows = {int(r[0]): (r[1], r[2], r[3], r[4], r[5]) for r in conn.execute(
        "SELECT id, content, status, memory_type, thread, author FROM memories")}
    conn.close()
    for mid, text in sorted(week.stored.items()):
        r = rows.get(mid)
        if r is None:
            week.fault(f"final: #{mid} ({text[:40]!r}) is gone from the file")
            continue
        if r[0] != text:
            week.fault(f"final: #{mid} holds {r[0][:40]!r}, was stored as {text[:40]!r}")
        if (mid in week.forgotten) != (r[1] == "deleted"):
            week.fault(f"final: #{mid} status {r[1]!r}, forgotten: {mid in week.forgotten}")
    seen: dict[tuple[Any, ...], int] = {}
    for mid, (content, status, mtype, thread, _author) in rows.items():
        if status == "active" and thread is None and mtype != "episodic":
            key = (content, mtype)
            if key in seen:
                week.fault(f"final: {content[:50]!r} ({mtype}) stored twice: #{seen[key]} and #{mid}")
            seen[key] = mid
    proc = subprocess.run([*MEM, "--db", str(week.db), "export", "--include-deleted"], capture_output=True,
                          text=True, env=week.env)
    if proc.returncode != 0:
        week.fault(f"export: exit {proc.returncode}: {proc.stderr.strip()[-200:]}")
        return
    dump = week.dir / "export.jsonl"
    dump.write_text(proc.stdout, encoding="utf-8")
    exported = sum(1 for line in proc.stdout.splitlines() if line.strip())
    copy = week.dir / "roundtrip.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(copy) + suffix).unlink(missing_ok=True)
    for attempt in (1, 2):  # the second import must add nothing (idempotent)
        out = subprocess.run([*MEM, "--db", str(copy), "import", "jsonl", str(dump)], capture_output=True,
                             text=True, env=week.env)
        env = week.check(["import", "jsonl", "export.jsonl"], out.returncode, out.stdout, out.stderr, "ok")
        if env and env.get("ok"):
            added = env["data"]["memories_added"]
            want = exported if attempt == 1 else 0
            if added != want:
                week.fault(f"export -> import jsonl (run {attempt}): {exported} exported, {added} added")
    env = week.run("stats")
    if env and env.get("ok"):
        print(f"store: {env['data'].get('memories')} memories, {env['data'].get('by_status')}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", help="folder of the store and MEMORY.md (default: a new one in /tmp)")
    ap.add_argument("--days", type=int, default=3)
    ap.add_argument("--agents", type=int, default=3)
    ap.add_argument("--per-agent", type=int, default=8, help="stores per agent per day")
    ap.add_argument("--embedder", default="hash", help="MEM_EMBEDDER (hash: fast and exact; 'real': the model)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", action="store_true", help="keep the folder")
    ap.add_argument("--serve", action="store_true", help="run `mem.py serve` each day (and kill it once mid-day)")
    ap.add_argument("--edges", action="store_true", help="then the storage edges (bench/agent_week_edges.py)")
    args = ap.parse_args()
    directory = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="mem-week-"))
    directory.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, XDG_CACHE_HOME=str(directory / "cache"), XDG_DATA_HOME=str(directory / "data"))
    runtime = None
    if args.serve:
        runtime = Path(tempfile.mkdtemp(prefix="mem-week-rt-", dir="/tmp"))  # (a socket path must be short)
        env["XDG_RUNTIME_DIR"] = str(runtime)
        env.pop("MEM_NO_SERVER", None)
    else:
        env["MEM_NO_SERVER"] = "1"
    if args.embedder != "real":
        env["MEM_EMBEDDER"] = args.embedder
    week = Week(directory, env, serve=args.serve)
    rng = random.Random(args.seed)
    t0 = time.time()
    try:
        for d in range(1, args.days + 1):
            day(week, d, args.agents, args.per_agent, rng)
        if args.edges:
            from agent_week_edges import edges

            edges(week)
        final_check(week)
    finally:
        print(f"{week.calls} calls in {time.time() - t0:.0f} s (load {os.getloadavg()[0]:.1f}); "
              f"{len(week.stored)} memories given ids; {len(week.faults)} faults", flush=True)
        if not args.keep and not args.dir:
            shutil.rmtree(directory, ignore_errors=True)
        if runtime is not None:
            shutil.rmtree(runtime, ignore_errors=True)
    return min(len(week.faults), 100)


if __name__ == "__main__":
    sys.exit(main())
