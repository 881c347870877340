"""Is the session-start brief readable and right on data it was never tuned on? (topic names, key facts)

Stores are built from bench/data/brief_heldout/ (memory sets written for this bench: a coding
agent's notes, a family WhatsApp chat, a personal assistant's memory, a friends' WhatsApp chat;
``dev_*`` were looked at while fixing, ``heldout_*`` only scored at the end), plus, when
../shared is there, the real-world chat exports (dev) and one LoCoMo conversation (held out).
Each store is built once with the real embedder (notes are stored one by one with the clock set
to each note's date, so an update by the same source supersedes as it would live; a fact has no
thread: a thread makes a memory a chat turn, which never supersedes), then for
each code tree (``--before DIR``: e.g. ``git archive main | tar -x -C DIR``; and this tree) a
copy is consolidated and briefed in a subprocess, so before and after run on the same vectors in
one run.

Topic names (every ``T12 · name`` the brief shows, and every cluster label consolidate stores):

* good       a phrase that occurs, word for word after folding case and plural/verb endings,
             in >= 2 members of its topic (or its one member), and none of the faults below
* filler     its content words are all chat filler or stop words ("ok lol", "haha yes")
* bag        a list of keywords: commas, or words that never stand together in any member
* single     (topic of >= 2 members) the phrase occurs in only one member
* generic    one word that occurs in more than GENERIC_SHARE of the store's memories
* fragment   (round 7) starts or ends with a stop word, or stands right after a number in at least half of
             its occurrences ("hour drive" of "a 2 hour drive")
* piece      (round 8) always next to the same content word: a piece of a longer name ("man" of "best man")
* bare       (round 7) one lower-case word ("price", "wall"): the price of what?
* person     only a person's name (the people section says who they are)
* none       no name: "mixed subjects" / "untitled"
* duplicate  the same name as an earlier topic of the same brief

Brief lines: duplicate lines, filler lines (no content word), superseded memories shown as
current, a line's date that is not its memory's date, empty People section with >= 2 authors,
open contradictions not shown; key facts (marked in the sets: the latest version of each key,
or for chats a ``.keys`` file of substrings) shown, and never the replaced version.

    python bench/brief_quality.py --before /tmp/brief/base     # before/after in one run
    python bench/brief_quality.py                             # this tree only
    python bench/brief_quality.py --before DIR --no-shared --data bench/data/brief_heldout2   # the second held-out sets
    python bench/brief_quality.py --before DIR --no-shared --data bench/data/brief_heldout3   # plans, people, chat-heavy
    python bench/brief_quality.py --before DIR --no-shared --data bench/data/brief_heldout4   # round 4: reactions, a vault
    python bench/brief_quality.py --before DIR --no-shared --data bench/data/brief_heldout5   # round 5: a group, a Claude export
    python bench/brief_quality.py --before DIR --no-shared --data bench/data/brief_heldout6   # round 6: titles, cheers, news
    python bench/brief_quality.py --before DIR --no-shared --data bench/data/brief_heldout7   # round 7: exchanges, small talk
    python bench/brief_quality.py --before DIR --no-shared --data bench/data/brief_heldout8   # round 8: trips, moved deadlines

Topic headings (round 5): ``headings say`` counts those that state something (``says_something``: >= 4
content words and a verb or a number) rather than a keyword label; ``name in lines`` those whose name is
in what they show. Round 6: ``leads that react`` (a topic heading's lead line of at most one content word once
"GOOOO" is "go": ``is_reaction_line``), topic names that are a ``title`` ("Mrs", "Herr": ``TITLES``), and ``keys
outside topics``: key facts / plans (``.keys``, ``.expect`` plans, keyed notes) no cluster of >= 3 holds, and how
many of those the brief still shows. ``BRIEF_QUALITY_SET='{"clustering.TOPIC_MIN_SIZE": 2}'`` sets module constants in
the workers (a measurement of a variant; every tree compared gets them). Round 7 (bench/data/brief_heldout7):
``small talk as topic`` (``.expect`` kind ``chat``: small talk that must not head a topic, found in a topic's heading
line), ``mixed topics`` (stored topics in which two expected ``topic`` subjects each hold >= 2 members and >= 20%),
and names judged ``fragment`` ("hour drive" of "a 2 hour drive") and ``bare`` (one lower-case word: "price").
Round 8 (bench/data/brief_heldout8): ``split topics`` (``.expect`` kind ``split``: one subject planned over many days,
counted in every stored topic where it holds >= 2 members and >= a third), ``dates from names`` (kind ``nodate``:
a line holding an event's name must not carry ``→ DAY``, the day the name alone suggests), names judged ``piece``
(always next to the same word: "man" of "best man"), Portuguese and Dutch stop words and chat filler.
Round 13 (bench/data/brief_heldout13): ``.expect`` kind ``goodname`` (a good name that looks odd: "Flat 3B", "Ruta del
Cares", "Windows error 0x80070005"; ``good odd names held`` counts the entries one topic name, shown or stored, is).

Round 17 (bench/data/brief_heldout17): kinds ``dated`` (a line holding the substring carries ``→ DATE``: a plan said
colloquially, "dia 16", "am 3.", "le 12", read as the day it means) and ``notstate`` (the People line of a person holds
none of the substrings: a plan they moved, quoted as their news).

Round 18 (bench/data/brief_heldout18): kinds ``gone`` (a plan placed by its month alone, gone by: no line of People,
Coming up or Key facts presents it without a past mark) and ``newsctx`` (``NAME | needle :: subject || subject``: the
People line of NAME quoting news that means nothing alone, "1:58:41!!!", says what it is about).

Round 19 (bench/data/brief_heldout19): column ``overlapping names`` (pairs of topic names shown in one brief that share a
content word after folding: "Lisbon trip" / "camping trip" do not tell their topics apart).

Round 20 (bench/data/brief_heldout20): a notes file with the header ``# via: cli`` is stored through the command line
(one ``mem.py store`` call per note, in process, the clock at the note's time; 4th field: tags), as an agent stores its
own notes; kinds ``fact`` (a current value's text is shown: column ``current facts``) and ``named | NAME | N`` (a
People line of NAME must not say "named in M memories" with M > N: column ``names counted twice``).

Round 21 (bench/data/brief_heldout21): a notes file with ``# nights: every`` runs consolidate at 03:00 of every night
between its notes (the clock at that night: the decay archives what faded), and each tree compared builds its own store
of such a set; a chat's ``.notes`` file of ``# via: cli`` is stored so with the chat imported at its ``# import: DATE
TIME`` (a MIXED store); kinds ``moved`` (a plan that moved or was called off: its old substring in no line of People,
Coming up or Key facts: column ``moved old as current``) and ``faded`` (a subject whose notes the decay archived: in a
topic heading / block).

Round 22 (bench/data/brief_heldout22): a notes file may carry any number of ``# import: DATE TIME | FILE`` lines, each FILE
(in the folder ``<notes stem>.chats/`` next to it, which is no vault) imported among the notes at its moment: a store
with several imported chats (a family group, a work 1:1, a friend) and months of notes with consolidate every night.

A folder in a data directory is a markdown vault (``mem.py import FOLDER``; ``<folder>.keys`` and
``<folder>.expect`` next to it). A set may carry a ``.expect`` file (plans with dates, past plans, replaced values, people: see
bench/data/brief_heldout3/README.md) and a chat set a ``.notes`` file (facts stored after the import).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import brief_judge23  # noqa: E402  (round 23's judgments, a module of their own)
import brief_judge25  # noqa: E402  (round 25: a People line of their own for the people talked about)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data" / "brief_heldout"
SHARED = ROOT.parent / "shared" / "data"
REALWORLD_CHATS = ("whatsapp/pustur_ios_group_ddmmyy_dots_old_example_chat.txt",
                   "whatsapp/soda_ios_ddmmyyyy_24h_crlf_mixed.txt",
                   "whatsapp/whatsjson_android_group_system_msgs.txt",
                   "whatsapp/whatstk_android_ddmmyyyy_dots_group_e2e.txt",
                   "claude/nexus_real_claude_export_2024_subset.json",
                   "chatgpt/nexus_real_export_2024_fr_subset.json")
LOCOMO_CONV = "conv-30"  # held out: one conversation, scored at the end
GENERIC_SHARE = 0.25
TYPES = {"S": "semantic", "E": "episodic", "P": "procedural"}

# Chat filler and interjections, in the judge only (not shared with the code it judges); round 6 adds
# greetings, thanks and cheers of other languages ("merci", "danke", "gracias", "enfin")
FILLER = set("""ok okay k kk yes yeah yep yup no nope nah lol lmao rofl haha hahaha hehe hihi ahah ahaha omg wow oh
ah uh um hmm thanks thank thx ty pls please sure cool nice great good fine perfect right alright hi hey hello bye
see you yay woohoo ooh aw aww congrats sorry btw idk tbh imo xd xoxo love media omitted message deleted image
video audio sticker gif attached file null
bonjour bonsoir salut merci bravo super top génial parfait enfin allez ouais voilà coucou bisous
hallo danke schön bitte gern genau toll wunderbar super tschüss servus
hola gracias claro vale genial igualmente buenas sí adiós
ciao grazie bene perfetto obrigado obrigada tchau
buongiorno buonanotte buonasera notte evviva brava bravo bravi dai daiii certo grande bellissimo
oi valeu beleza blz tmj rsrs kkk kkkk fechou ufa top amo boa bom
hoi doei dank bedankt graag leuk lekker mooi prima fijn gezellig toppie""".split())
# Dutch stop words (the judge's own short list: the stop_words package's Dutch list holds "man", a word a
# name must not be excused for)
_NL_STOP = set("""de het een en van in op te met voor naar is zijn dat die niet maar ook als bij nog wel om of dan
uit aan tot er was wordt werd""".split())
# Titles and honorifics, the judge's own list: a topic named by one names nobody ("Mrs", "Herr")
TITLES = set("""mr mrs ms miss mx dr doctor prof professor sir dame madam madame mme mlle monsieur m mister
sr sra srta señor señora senor senora don doña dña herr frau fräulein hr fr signor signora sig dott
mevrouw meneer dhr mevr pan pani rev st""".split())
_LAUGH = re.compile(r"^(?:(?:a?ha)+h?|(?:he)+|lo+l|x+d+|(?:ja)+|(?:ke)+|k+)$")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- data


def read_notes(path: Path) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """(header fields, notes) of a ``date time | T imp | key | thread | content`` file."""
    head: dict[str, str] = {}
    notes: list[dict[str, Any]] = []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            k, _, v = line[1:].partition(":")
            head[k.strip()] = v.strip()
            continue
        parts = [p.strip() for p in line.split("|", 4)]
        if len(parts) != 5:
            raise SystemExit(f"{path}:{no}: expected 5 fields separated by '|'")
        kind, imp = parts[1].split()
        notes.append({"at": datetime.strptime(parts[0], "%Y-%m-%d %H:%M"), "type": TYPES[kind],
                      "importance": float(imp), "key": None if parts[2] == "-" else parts[2],
                      "thread": parts[3], "content": parts[4], "line": no})
    return head, notes


def read_imports(path: Path) -> list[tuple[datetime, Path]]:
    """(round 22) The chats a notes file imports among its notes: ``# import: DATE TIME | FILE`` lines (FILE in the
    folder ``<notes stem>.chats/`` next to it), in time order (a store with several imported chats)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# import:") and "|" in line:
            when, _, name = line.split(":", 1)[1].partition("|")
            out.append((datetime.strptime(when.strip(), "%Y-%m-%d %H:%M"),
                        path.parent / f"{path.stem}.chats" / name.strip()))
    return sorted(out)


def read_keys(path: Path) -> list[tuple[str, str, str | None]]:
    """(key, current substring, superseded substring or None) of a chat set's ``.keys`` file."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            # fields split on a single "|": " || " separates alternatives inside a field
            k, cur, old = (p.strip() for p in re.split(r"(?<!\|)\|(?!\|)", line))
            out.append((k, cur, None if old == "-" else old))
    return out


def read_expect(path: Path) -> list[tuple[str, str, list[str]]]:
    """(kind, date or "-", alternative substrings) of a set's ``.expect`` file (plan / past / old / person)."""
    out = []
    for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() and not line.startswith("#"):
            parts = [p.strip() for p in line.split("|", 2)]
            if len(parts) != 3 or parts[0] not in ("plan", "past", "old", "person", "topic", "chat", "nodate", "split",
                                                         "noname", "goodname", "badname", "personfact", "dated",
                                                         "notstate", "gone", "newsctx", "fact", "named", "moved",
                                                         "faded", "oneline", "notperson", "talked"):
                raise SystemExit(f"{path}:{no}: expected 'plan|past|old|person|topic|chat|nodate|split|noname|goodname|badname|"
                                 "personfact|dated|notstate|gone|newsctx|fact|named|moved|faded|oneline|notperson|talked | "
                                 "date | "
                                 "substring'")
            out.append((parts[0], parts[1], [a.strip() for a in parts[2].split(" || ")]))
    return out


def sets(include_shared: bool, data: list[Path] | None = None) -> list[dict[str, Any]]:
    """Every set: name, split (dev/heldout), kind (notes/chat/shared) and paths (+ side files)."""
    out: list[dict[str, Any]] = []
    # a .txt is a notes file or (with .keys) a chat export; a .json with .keys a chat export (ChatGPT, Claude)
    for p in sorted(p for d in (data or [DATA]) for g in ("*.txt", "*.json") for p in d.glob(g)
                    if p.suffix == ".txt" or p.with_suffix(".keys").exists()):
        split = "dev" if p.name.startswith("dev_") else "heldout"
        kind = "chat" if p.with_suffix(".keys").exists() else "notes"
        spec: dict[str, Any] = {"name": p.stem, "split": split, "kind": kind, "path": str(p)}
        for side in ("notes", "expect"):  # stored facts next to a chat; plans / people expected
            if p.with_suffix(f".{side}").exists():
                spec[side] = str(p.with_suffix(f".{side}"))
        out.append(spec)
    for p in sorted(p for d in (data or [DATA]) for p in d.iterdir()
                    if p.is_dir() and p.suffix != ".chats"):  # a markdown vault (not a notes file's chats)
        spec = {"name": p.name, "split": "dev" if p.name.startswith("dev_") else "heldout", "kind": "vault",
                "path": str(p)}
        for side in ("keys", "expect"):
            if p.with_suffix(f".{side}").exists():
                spec[side] = str(p.with_suffix(f".{side}"))
        out.append(spec)
    if include_shared and (SHARED / "realworld").is_dir():
        out.append({"name": "dev_realworld_chats", "split": "dev", "kind": "shared",
                    "paths": [str(SHARED / "realworld" / c) for c in REALWORLD_CHATS]})
    if include_shared and (SHARED / "locomo" / "locomo_dev.json").exists():
        out.append({"name": f"heldout_locomo_{LOCOMO_CONV}", "split": "heldout", "kind": "locomo",
                    "path": str(SHARED / "locomo" / "locomo_dev.json")})
    return out


# --------------------------------------------------------------------------- build (this tree)


def build_with(tree: Path, spec: dict[str, Any], db: Path) -> dict[str, Any]:
    """:func:`build` with ``tree``'s code, in a subprocess: the oldest tree compared writes the raw store,
    so its schema is one every tree can open (a newer tree migrates its own copy)."""
    r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--build-worker", str(tree),
                        json.dumps(spec), str(db)], capture_output=True, text=True, cwd=str(tree))
    if r.returncode != 0:
        raise SystemExit(f"building {spec['name']} with {tree} failed:\n{r.stderr[-2000:]}")
    return dict(json.loads(r.stdout.splitlines()[-1]))


def _set_clock(at: datetime, real: dict[Any, Any]) -> None:
    """Every memengine module's clock (some import utcnow by name) at ``at``; ``real`` keeps the originals."""
    for m in list(sys.modules.values()):
        if getattr(m, "__name__", "").startswith("memengine") and getattr(m, "utcnow", None) is not None:
            real.setdefault(m, m.utcnow)
            m.utcnow = lambda at=at: at  # type: ignore[attr-defined]


def _nightly(db: Path, night: datetime, real: dict[Any, Any]) -> None:
    """(round 21) The nightly ``mem.py consolidate`` of an agent's store, run at ``night`` (its own clock): the
    decay archives what has faded by then, clusters and names are what that night made of them."""
    from memengine import consolidate
    from memory_core import MemoryStore

    _set_clock(night, real)
    store = MemoryStore(db)
    try:
        consolidate.run(store, now=night, keep_backups=0)
    finally:
        store.close()


def _import_at(db: Path, export: Path, at: datetime, real: dict[Any, Any]) -> None:
    """(round 21) ``mem.py import EXPORT`` in process with the clock at ``at``: an export imported in the middle of an
    agent's notes (its turns' decay starts on the day of the import, as it would live)."""
    import contextlib
    import io

    import memcli

    _set_clock(at, real)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        try:
            memcli.main(["--db", str(db), "--json", "import", str(export)])
        except SystemExit as exc:
            if exc.code:
                raise SystemExit(f"{export}: mem.py import failed: {buf.getvalue()[-300:]}") from exc


def store_notes_cli(path: Path, db: Path, info: dict[str, Any], export: Path | None = None) -> datetime:
    """(round 20) Store a notes file as an agent does: one ``mem.py store`` call per note (the command line's
    own parsing of ``--type``, ``--importance``, ``--source``, ``--tag``, ``--at``; supersession on), run in this
    process with the clock at each note's time (an agent stores on the day it learns); the 4th field holds the
    note's tags (comma-separated). Returns the last note's date."""
    import contextlib
    import io

    import memcli
    from memengine import timeparse  # noqa: F401  (loaded first: its clock is one of those set below)

    head, notes = read_notes(path)
    source = head.get("default", "source=agent").split()[0].split("=", 1)[1]
    real: dict[Any, Any] = {}  # each module's own clock, put back at the end
    auto = 0
    # (round 21) "# nights: every": consolidate at 03:00 of every night from the first note's to the last note's;
    # "# import: DATE TIME": the chat export next to the notes is imported at that moment
    nightly = head.get("nights") == "every"
    night = (notes[0]["at"] + timedelta(days=1)).replace(hour=3, minute=0)
    # (round 22) "# import: DATE TIME | FILE" lines import each chat of the folder <notes>.chats/ at its moment
    imports = read_imports(path)
    if not imports and head.get("import") and export:
        imports = [(datetime.strptime(head["import"], "%Y-%m-%d %H:%M"), export)]
    try:
        for n in notes:
            at = n["at"]
            while nightly and night <= at:
                while imports and imports[0][0] <= night:
                    _import_at(db, imports[0][1], imports[0][0], real)
                    imports.pop(0)
                _nightly(db, night, real)
                night += timedelta(days=1)
            while imports and imports[0][0] <= at:
                _import_at(db, imports[0][1], imports[0][0], real)
                imports.pop(0)
            _set_clock(at, real)
            argv = ["--db", str(db), "--json", "store", n["content"], "--type", n["type"],
                    "--importance", str(n["importance"]), "--source", source, "--at", at.isoformat()]
            for tag in (t.strip() for t in n["thread"].split(",")):
                if tag and tag != "-":
                    argv += ["--tag", tag]
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                try:
                    memcli.main(argv)
                except SystemExit as exc:
                    if exc.code:
                        raise SystemExit(f"{path}:{n['line']}: mem.py store failed: {buf.getvalue()[-300:]}") from exc
            res = json.loads(buf.getvalue().strip().splitlines()[-1])["data"]
            if n["key"]:
                before = info["keys"].setdefault(n["key"], [])
                if before and before[-1] in (res.get("supersedes") or []):
                    auto += 1
                if not before or before[-1] != res["id"]:
                    before.append(res["id"])
        for imp_at, imp_path in imports:
            _import_at(db, imp_path, imp_at, real)
    finally:
        for m, f in real.items():
            m.utcnow = f  # type: ignore[attr-defined]
    info["updates"] = sum(len(v) - 1 for v in info["keys"].values())
    info["auto_superseded"] = auto
    last: datetime = notes[-1]["at"]
    return last


def build(spec: dict[str, Any], db: Path, tree: Path = ROOT) -> dict[str, Any]:
    """Write the raw store of one set (no consolidate); returns what scoring needs to know."""
    sys.path.insert(0, str(tree))
    from memengine import writes
    from memory_core import MemoryStore

    info: dict[str, Any] = {"keys": {}, "chat_keys": []}

    def store_notes(path: Path) -> datetime:
        """Store a notes file one note at a time, the clock at each note's date; returns the last date."""
        head, notes = read_notes(path)
        source = head.get("default", "source=agent").split()[0].split("=", 1)[1]
        store = MemoryStore(db)
        real = writes.utcnow
        auto = 0
        try:
            for n in notes:
                writes.utcnow = lambda at=n["at"]: at  # type: ignore[misc]  # the note's own day
                res = store.store(n["content"], n["type"], source=source, importance=n["importance"],
                                  event_at=n["at"], thread=n["thread"] if n["type"] == "episodic" else None)
                if n["key"]:
                    before = info["keys"].setdefault(n["key"], [])
                    if before and res.supersedes and before[-1] in res.supersedes:
                        auto += 1
                    before.append(res.id)
        finally:
            writes.utcnow = real
        info["updates"] = sum(len(v) - 1 for v in info["keys"].values())
        info["auto_superseded"] = auto
        store.close()
        last: datetime = notes[-1]["at"]
        return last

    if spec["kind"] == "notes":
        head, _ = read_notes(Path(spec["path"]))
        via_cli = head.get("via") == "cli"
        last_at = store_notes_cli(Path(spec["path"]), db, info) if via_cli else store_notes(Path(spec["path"]))
        if read_imports(Path(spec["path"])):  # (round 22) chats imported among the notes: now is after both
            store = MemoryStore(db)
            last = store.conn.execute("SELECT max(coalesce(event_at, created_at)) FROM memories").fetchone()[0]
            store.close()
            last_at = max(last_at, datetime.fromisoformat(str(last)[:19]))
        info["now"] = (last_at + timedelta(days=1)).isoformat()
        return info
    if spec["kind"] == "chat" and spec.get("notes") and read_notes(Path(spec["notes"]))[0].get("via") == "cli":
        # (round 21) a mixed store: the agent's notes through the command line, the chat imported among them
        last_at = store_notes_cli(Path(spec["notes"]), db, info, export=Path(spec["path"]))
        info["chat_keys"] = read_keys(Path(spec["path"]).with_suffix(".keys"))
        store = MemoryStore(db)
        last = store.conn.execute("SELECT max(coalesce(event_at, created_at)) FROM memories").fetchone()[0]
        store.close()
        info["now"] = (max(last_at, datetime.fromisoformat(str(last)[:19])) + timedelta(days=1)).isoformat()
        return info
    if spec["kind"] in ("chat", "shared", "vault"):
        paths = spec.get("paths") or [spec["path"]]
        for p in paths:
            r = subprocess.run([sys.executable, str(tree / "mem.py"), "--db", str(db), "--json", "import", p],
                               capture_output=True, text=True, env={**os.environ, "MEM_DB": str(db)})
            if r.returncode != 0:
                log(f"  import {Path(p).name}: exit {r.returncode}: {r.stderr.strip()[-200:]}")
        if spec["kind"] == "chat" or spec.get("keys"):
            info["chat_keys"] = read_keys(Path(spec["path"]).with_suffix(".keys"))
        if spec.get("notes"):  # the facts an assistant stored next to the imported chat
            store_notes(Path(spec["notes"]))
    else:  # one LoCoMo conversation, one episodic memory per turn
        from bench.common import conversation_items, load_locomo
        from embedder import get_embedder

        convs, _ = load_locomo(Path(spec["path"]))
        conv = next(c for c in convs if c.sample_id == LOCOMO_CONV)
        store = MemoryStore(db, embedder=get_embedder())
        store.store_many(conversation_items(conv), batch_size=512)
        store.close()
    store = MemoryStore(db)
    last = store.conn.execute("SELECT max(coalesce(event_at, created_at)) FROM memories").fetchone()[0]
    store.close()
    info["now"] = (datetime.fromisoformat(str(last)[:19]) + timedelta(days=1)).isoformat()
    return info


# --------------------------------------------------------------------------- worker (any tree)


def worker(tree: str, db: str, now: str, budget: int) -> None:
    """Consolidate ``db`` and brief it with the code of ``tree``; print JSON for the scorer."""
    sys.path.insert(0, tree)
    from memengine import consolidate, graph_rank
    from memory_core import MemoryStore

    # constants to try (a measurement, e.g. BRIEF_QUALITY_SET='{"clustering.TOPIC_MIN_SIZE": 2}')
    for k, v in json.loads(os.environ.get("BRIEF_QUALITY_SET", "{}")).items():
        mod, _, name = k.rpartition(".")
        setattr(importlib.import_module(f"memengine.{mod}"), name, v)
    at = datetime.fromisoformat(now)
    store = MemoryStore(Path(db))
    t0 = time.process_time()
    consolidate.run(store, now=at, keep_backups=0)
    t1 = time.process_time()
    out = graph_rank.brief(store, budget, now=at)
    t2 = time.process_time()
    conn = store.conn
    members: dict[int, list[str]] = {}
    member_ids: dict[int, list[int]] = {}
    for cid, mid, content in conn.execute(
            """SELECT cm.cluster_id, m.id, m.content FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
               JOIN memories m ON m.id = cm.memory_id WHERE c.status = 'active' AND c.level = 1
               ORDER BY cm.cluster_id, m.id"""):
        members.setdefault(int(cid), []).append(content)
        member_ids.setdefault(int(cid), []).append(int(mid))
    labels = {int(r[0]): r[1] for r in conn.execute(
        "SELECT id, label FROM clusters WHERE status = 'active' AND level = 1")}
    live = [r[0] for r in conn.execute(
        "SELECT content FROM memories WHERE status = 'active' AND valid_to IS NULL AND level = 0")]
    rows = {int(r[0]): {"date": str(r[1] or "")[:10], "valid_to": r[2], "content": r[3],
                        "plain": r[4] == "active" and r[5] == 0 and not r[6]}
            for r in conn.execute(
        """SELECT id, coalesce(event_at, created_at), valid_to, content, status, level,
                  json_extract(metadata, '$.kind') IS 'episode' FROM memories""")}
    authors = [r[0] for r in conn.execute("SELECT DISTINCT author FROM memories WHERE author IS NOT NULL")]
    unclustered = [r[0] for r in conn.execute(
        """SELECT content FROM memories m WHERE status = 'active' AND valid_to IS NULL AND level = 0
           AND NOT EXISTS (SELECT 1 FROM cluster_members cm JOIN clusters c ON c.id = cm.cluster_id
                           WHERE cm.memory_id = m.id AND c.status = 'active' AND c.level = 1)""")]
    open_contra = conn.execute("SELECT count(*) FROM contradictions WHERE status = 'open'").fetchone()[0]
    print(json.dumps({"brief": out, "members": members, "member_ids": member_ids, "labels": labels, "live": live, "rows": rows,
                      "authors": authors, "unclustered": unclustered, "open_contradictions": open_contra,
                      "cpu": {"consolidate": t1 - t0, "brief": t2 - t1}}))


# --------------------------------------------------------------------------- judge


def fold(word: str) -> str:
    """A word folded for matching: lower case, plural / verb endings off ("deploys" = "deploy")."""
    w = word.lower().replace("’", "'").removesuffix("'s")
    for suf in ("ies", "ing", "ed", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3 and not w.endswith("ss"):
            return w[: -len(suf)] + ("y" if suf == "ies" else "")
    return w


def folded(text: str) -> list[str]:
    return [fold(w) for w in _WORD.findall(text)]


def _stop() -> set[str]:
    try:
        import stop_words

        out = set()
        for lang in ("english", "german", "french", "italian", "spanish", "portuguese"):  # (round 8: + pt)
            out |= {w.lower() for w in stop_words.get_stop_words(lang)}
        return out | _NL_STOP
    except ImportError:
        return set()


STOP = _stop()


def is_filler(word: str) -> bool:
    w = word.lower()
    return w in FILLER or w in STOP or bool(_LAUGH.match(w)) or not any(ch.isalpha() for ch in w)


def contains(hay: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return any(hay[i: i + n] == needle for i in range(len(hay) - n + 1)) if n else False


def judge_name(name: str | None, texts: list[str], live_texts: list[list[str]], people: set[str],
               seen: set[str]) -> str:
    """One verdict per name (the first fault found, in the order of the module docstring)."""
    if not name or name.strip().lower() in ("mixed subjects", "untitled", "other memories"):
        return "none"
    words = _WORD.findall(name)
    if not words or all(is_filler(w) for w in words):
        return "filler"
    if words[-1].lower() in TITLES or all(w.lower() in TITLES or is_filler(w) for w in words):
        return "title"  # "Mrs", "Dr", "Herr": a title names nobody alone ("Mrs Nguyen" does)
    key = " ".join(folded(name))
    if key in seen:
        return "duplicate"
    seen.add(key)
    docs = [folded(t) for t in texts]
    if "," in name or ";" in name:
        return "bag"
    phrase = folded(name)
    held = sum(contains(d, phrase) for d in docs)
    if held == 0:
        # its words, each somewhere in the members, but never together: a bag of keywords
        return "bag" if all(any(fold(w) in d for d in docs) for w in words) else "single"
    if len(texts) >= 2 and held < 2:
        return "single"
    if {w.lower() for w in words} <= people:
        return "person"
    if len(words) == 1 and sum(phrase[0] in d for d in live_texts) > GENERIC_SHARE * max(1, len(live_texts)):
        return "generic"
    if is_fragment(words, phrase, docs):
        return "fragment"
    if is_piece(phrase, docs):
        return "piece"
    if len(words) == 1 and words[0].islower() and not any(ch.isdigit() for ch in words[0]):
        return "bare"  # one common word ("price", "wall"): the price of what? (round 7)
    return "good"


_NUMBER_WORDS = set("""one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty
hundred half couple few several""".split())


def is_piece(phrase: list[str], docs: list[list[str]]) -> bool:
    """A name that is a piece of a longer fixed name (the judge's rule, round 8): in every one of its >= 2
    occurrences the same content word stands right before it, or the same right after ("man" of "best man",
    "Mud" of "Mud & Co", "Horizonte" of "Clínica Horizonte"); numbers, articles and prepositions around it do not
    count, nor one sentence quoted twice."""
    n = len(phrase)
    at = [(d, i) for d in docs for i in range(len(d) - n + 1) if d[i: i + n] == phrase]
    # the same sentence quoted twice (a chat turn and its episode) is one occurrence: its words around it differ
    # nowhere, so it says nothing of what usually stands next to the name
    if len({(tuple(d[max(0, i - 3): i]), tuple(d[i + n: i + n + 3])) for d, i in at}) < 2:
        return False
    for side in (-1, n):
        near = {d[i + side] if 0 <= i + side < len(d) else None for d, i in at}
        if len(near) == 1:
            w = next(iter(near))
            if w is not None and w not in _ARTICLES and not any(ch.isdigit() for ch in w):
                return True
    return False


# articles, prepositions and possessives that stand next to any noun: no evidence of a longer name (the judge's
# own short list; "best" of "best man" or "co" of "Mud & Co" are stop words elsewhere, but are part of the name)
_ARTICLES = set("""the a an my your his her our their its to of in on at for with and or is was be by from this that
il la le lo gli i un una di da del della dei al alla o os as um uma em no na nos nas do dos das des du et les l d
der die das den dem des ein eine einen und zu von im am het een van en op""".split())


def is_fragment(words: list[str], phrase: list[str], docs: list[list[str]]) -> bool:
    """A name cut out of a longer phrase (the judge's rule, round 7): it starts or ends with a stop word, or
    in at least half of its occurrences the word before it is a number ("hour drive" of "a 2 hour drive")."""
    if is_filler(words[0]) or is_filler(words[-1]):
        return True
    n = len(phrase)
    before = [d[i - 1] for d in docs for i in range(1, len(d) - n + 1) if d[i: i + n] == phrase]
    held = sum(d[i: i + n] == phrase for d in docs for i in range(len(d) - n + 1))
    numbered = sum(any(ch.isdigit() for ch in w) or w in _NUMBER_WORDS for w in before)
    return held > 0 and 2 * numbered >= held


def score_set(spec: dict[str, Any], info: dict[str, Any], out: dict[str, Any]) -> dict[str, Any]:
    """Counts per fault kind for one brief."""
    b = out["brief"]
    rows = {int(k): v for k, v in out["rows"].items()}
    members = {int(k): v for k, v in out["members"].items()}
    people = {w.lower() for a in out["authors"] for w in _WORD.findall(a)}
    live = [folded(t) for t in out["live"]]
    c: Counter[str] = Counter()
    names: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for t in b["topics"]:
        texts = members.get(t["id"], []) if t["id"] is not None else out["unclustered"]
        v = judge_name(t["name"], texts, live, people, seen)
        c[f"name:{v}"] += 1
        names.append((f"T{t['id']}", t["name"], v))
    score_overlap([t["name"] for t in b["topics"]], c)
    seen = set()
    for cid, label in sorted(out["labels"].items(), key=lambda kv: int(kv[0])):
        v = judge_name(label, members.get(int(cid), []), live, people, seen)
        c[f"label:{v}"] += 1
    # lines
    texts_seen: set[str] = set()
    chosen = b["chosen"]
    for item in chosen:
        text = item["text"]
        body = re.sub(r"^\d{4}-\d{2}-\d{2} #\d+ (?:\(shared from [^)]*\) )?", "", text)
        k = " ".join(folded(body))
        if k in texts_seen:
            c["line:duplicate"] += 1
        texts_seen.add(k)
        if item["section"] in ("topics", "facts", "recent", "latest", "procedures") and \
                all(is_filler(w) for w in _WORD.findall(body.split(" (replaces #")[0])):
            c["line:filler"] += 1
            c["tokens:filler"] += item["tokens"]
        mid = item["id"]
        if mid is not None and int(mid) in rows:
            r = rows[int(mid)]
            if r["valid_to"]:
                c["line:superseded_as_current"] += 1
            if r["date"] and not text.startswith(r["date"]):
                c["line:date_wrong"] += 1
    c["lines"] = len(chosen)
    c["tokens"] = b["tokens"]
    real_people = {a for a in out["authors"] if a.lower() not in ("user", "assistant", "system")}
    if len(real_people) >= 2 and not b["sections"].get("people"):
        c["people_missing"] += 1
    if out["open_contradictions"] and not b["sections"].get("contradictions"):
        c["contradictions_hidden"] += 1
    # key facts
    ids = {int(i["id"]) for i in chosen if i["id"] is not None}
    for versions in info.get("keys", {}).values():
        c["key:n"] += 1
        c["key:current_shown"] += versions[-1] in ids
        c["key:old_shown"] += any(v in ids for v in versions[:-1])
    low = b["text"].lower()
    for _k, cur, old in info.get("chat_keys", []):
        c["key:n"] += 1
        now_shown = any(a.strip().lower() in low for a in cur.split(" || "))
        c["key:current_shown"] += now_shown
        if old:
            c["key:old_shown"] += any(a.strip().lower() in low for a in old.split(" || ")) and not now_shown
    for t in b["topics"]:  # a topic of two memories is no topic (round 4)
        c["topic:tiny"] += t["id"] is not None and len(members.get(t["id"], [])) <= 2
    for texts in members.values():
        c["label:tiny"] += len(texts) <= 2
        c["mem:in_topic"] += len(texts) if len(texts) >= 3 else 0  # (a memory is in one level-1 cluster)
    c["mem:live"] += len(out["live"])
    c["warn:no_topics"] += any(w.startswith("no topics yet") for w in b["warnings"])
    score_topic_lines(b, c)
    score_outside(spec, info, out, c)
    if spec.get("expect"):
        score_mixed(read_expect(Path(spec["expect"])), members, c)
        score_split(read_expect(Path(spec["expect"])), members, c)
        score_noname(read_expect(Path(spec["expect"])), [t["name"] for t in b["topics"]] +
                     list(out["labels"].values()), c)
        score_goodname(read_expect(Path(spec["expect"])), [t["name"] for t in b["topics"]] +
                       list(out["labels"].values()), c)
        score_badname(read_expect(Path(spec["expect"])), [t["name"] for t in b["topics"]] +
                      list(out["labels"].values()), c)
        score_gone(read_expect(Path(spec["expect"])), b, rows, c)
        score_newsctx(read_expect(Path(spec["expect"])), b, c)
    if spec.get("expect"):
        score_expect(read_expect(Path(spec["expect"])), b, c)
        brief_judge23.score_people(read_expect(Path(spec["expect"])), b, c)
        brief_judge25.score(read_expect(Path(spec["expect"])), b, c)
    brief_judge23.score_oneword(read_expect(Path(spec["expect"])) if spec.get("expect") else [], b, c)
    return {"counts": c, "names": names, "cpu": out["cpu"]}


def score_outside(spec: dict[str, Any], info: dict[str, Any], out: dict[str, Any], c: Counter[str]) -> None:
    """Key facts and plans (``.keys`` current values, ``.expect`` plans, keyed notes) whose memories sit outside
    every topic (no level-1 cluster of >= 3 holds any of them), and of those, how many the brief still shows."""
    in_topic = {int(m) for ids in out.get("member_ids", {}).values() if len(ids) >= 3 for m in ids}
    rows = {int(k): v for k, v in out["rows"].items() if v.get("plain", True) and not v["valid_to"]}
    text = out["brief"]["text"].lower()
    wanted: list[list[str]] = [cur.split(" || ") for _k, cur, _o in info.get("chat_keys", [])]
    if spec.get("expect"):
        wanted += [alts for kind, _d, alts in read_expect(Path(spec["expect"])) if kind == "plan"]
    for alts in wanted:
        low = [a.strip().lower() for a in alts]
        holders = [m for m, r in rows.items() if any(a in r["content"].lower() for a in low)]
        if not holders:
            continue
        c["keyout:n"] += 1
        if not any(h in in_topic for h in holders):
            c["keyout:outside"] += 1
            c["keyout:outside_shown"] += any(a in text for a in low)
    shown_ids = {int(i["id"]) for i in out["brief"]["chosen"] if i["id"] is not None}
    for versions in info.get("keys", {}).values():
        c["keyout:n"] += 1
        if versions[-1] not in in_topic:
            c["keyout:outside"] += 1
            c["keyout:outside_shown"] += versions[-1] in shown_ids


def score_overlap(names: list[str | None], c: Counter[str]) -> None:
    """(round 19) Topic names of one brief that do not tell their topics apart: pairs of shown names sharing a
    content word after folding ("Lisbon trip" / "camping trip", "cita cardiólogo" / "cita dentista"; filler and stop
    words do not count). Column ``overlapping names`` (pairs; lower is better)."""
    keys = [{fold(w) for w in _WORD.findall(n) if not is_filler(w)} for n in names if n and n.strip().lower() not in
            ("mixed subjects", "untitled", "other memories")]
    c["overlap:pairs"] += sum(bool(a & b) for i, a in enumerate(keys) for b in keys[i + 1:])


def score_split(expect: list[tuple[str, str, list[str]]], members: dict[int, list[str]], c: Counter[str]) -> None:
    """One subject over many days in how many stored topics (the judge's rule, round 8): for each ``split`` subject,
    the level-1 clusters of >= 3 where it holds >= 2 members and >= a third of them (1 is best)."""
    for kind, _d, alts in expect:
        if kind != "split":
            continue
        low = [a.lower() for a in alts]
        c["split:n"] += 1
        for texts in members.values():
            if len(texts) < 3:
                continue
            held = sum(any(re.search(rf"\b{re.escape(a)}", t.lower()) for a in low) for t in texts)
            c["split:topics"] += held >= 2 and 3 * held >= len(texts)


def score_mixed(expect: list[tuple[str, str, list[str]]], members: dict[int, list[str]], c: Counter[str]) -> None:
    """Stored topics (level-1 clusters of >= 3) that mix subjects (the judge's rule, round 7): at least two of the
    set's expected ``topic`` subjects each hold >= 2 of its members and >= 20% of them; and the largest topic."""
    subjects = [[a.lower() for a in alts] for kind, _d, alts in expect if kind == "topic"]
    for texts in members.values():
        if len(texts) < 3:
            continue
        c["mixed:n"] += 1
        c["mixed:largest"] = max(c["mixed:largest"], len(texts))
        low = [t.lower() for t in texts]
        held = [sum(any(re.search(rf"\b{re.escape(a)}", t) for a in alts) for t in low) for alts in subjects]
        big = [h for h in held if h >= 2 and h >= 0.2 * len(texts)]
        if len(big) >= 2:
            c["mixed:mixed"] += 1
            c["mixed:mixed_members"] += len(texts)
        # (round 12) turns a topic absorbed: members that name another expected subject and not the topic's own
        # (the subject most of its members name), however few: "a milk topic that also holds rota turns"
        if subjects and max(held) > 0:
            own = held.index(max(held))
            hits = [[any(re.search(rf"\b{re.escape(a)}", t) for a in alts) for alts in subjects] for t in low]
            c["mixed:absorbed"] += sum(not h[own] and any(h) for h in hits)


def score_noname(expect: list[tuple[str, str, list[str]]], names: list[str], c: Counter[str]) -> None:
    """(round 12) Words that are no subject of the chat ("calendar" of "put it in the calendar", "ahead" of "go
    ahead"): kind ``noname``; counts the topic names (shown or stored) that hold one as a word."""
    for kind, _d, alts in expect:
        if kind != "noname":
            continue
        c["noname:n"] += 1
        c["noname:named"] += sum(any(re.search(rf"\b{re.escape(a.lower())}\b", n.lower()) for a in alts)
                                 for n in names)


def score_goodname(expect: list[tuple[str, str, list[str]]], names: list[str], c: Counter[str]) -> None:
    """(round 13) Good names that look odd ("Windows error 0x8007045D", "Casa Verde", "Flat 3B", "Ruta del Cares"):
    kind ``goodname``; counts the entries of which some topic name (shown or stored) is one of the alternatives,
    case folded: a name a shape test must not take away."""
    have = {" ".join(n.lower().split()) for n in names if n}
    for kind, _d, alts in expect:
        if kind != "goodname":
            continue
        c["goodname:n"] += 1
        c["goodname:held"] += any(" ".join(a.lower().split()) in have for a in alts)


def score_badname(expect: list[tuple[str, str, list[str]]], names: list[str], c: Counter[str]) -> None:
    """(round 16) Names that are a function word or a weak fallback as a whole ("todo", "tudo certo", "rien", "vamos
    ver"): kind ``badname``; counts the topic names (shown or stored) equal to an alternative, case folded (a good
    name that holds the word, "Padaria Todo Dia", is not counted)."""
    bad = {" ".join(a.lower().split()) for kind, _d, alts in expect if kind == "badname" for a in alts}
    c["badname:n"] += sum(kind == "badname" for kind, _d, _a in expect)
    c["badname:named"] += sum(" ".join(n.lower().split()) in bad for n in names if n)


# the sections that present a line as current or to come (a topic's lines are dated history)
_CURRENT_SECTIONS = ("people", "upcoming", "facts")


def score_gone(expect: list[tuple[str, str, list[str]]], b: dict[str, Any], rows: dict[int, dict[str, Any]],
               c: Counter[str]) -> None:
    """(round 18) A plan placed by its month alone that has gone by ("we move in April" in June): kind ``gone``;
    counts the entries some line of People, Coming up or Key facts presents without a mark that it has gone by
    (``_PAST_MARK``): the line holds the substring, or quotes (``#N``) a memory whose whole text holds it (a People
    line shows a cut quote)."""
    lines = [i["text"] for sec in _CURRENT_SECTIONS for i in b["sections"].get(sec, [])]
    for kind, _d, alts in expect:
        if kind != "gone":
            continue
        c["gone:n"] += 1
        low = [a.lower() for a in alts]
        c["gone:shown"] += any(_holds(ln, low, rows) and not _PAST_MARK.search(ln) for ln in lines)


def _holds(line: str, low: list[str], rows: dict[int, dict[str, Any]]) -> bool:
    """Whether ``line`` or a memory it quotes (``#N``) holds one of ``low`` (case folded)."""
    texts = [line] + [rows[int(n)]["content"] for n in re.findall(r"#(\d+)", line) if int(n) in rows]
    return any(a in t.lower() for t in texts for a in low)


def score_newsctx(expect: list[tuple[str, str, list[str]]], b: dict[str, Any], c: Counter[str]) -> None:
    """(round 18) News that means nothing alone ("1:58:41!!!", "GESLAAGD", "¡¡SÍ!!"): kind ``newsctx``, ``NAME |
    needle || needle :: subject || subject``; the People line of NAME that holds a needle should say what it is
    about (a subject word: "half", "rijexamen", "visa"). ``told`` counts entries whose line holds a needle and a
    subject, ``bare`` those whose line holds a needle and no subject (case folded)."""
    for kind, name, alts in expect:
        if kind != "newsctx":
            continue
        needles, _, subjects = " || ".join(alts).partition(" :: ")
        ns = [a.strip().lower() for a in needles.split(" || ")]
        ss = [a.strip().lower() for a in subjects.split(" || ")]
        c["newsctx:n"] += 1
        own = [i["text"].lower() for i in b["sections"].get("people", []) if i["text"].lstrip("- ").startswith(name)]
        with_needle = [t for t in own if any(a in t for a in ns)]
        c["newsctx:told"] += any(any(s in t for s in ss) for t in with_needle)
        c["newsctx:bare"] += bool(with_needle) and not any(any(s in t for s in ss) for t in with_needle)


# the fixed sections' headings (anything else after "### " is a topic)
SECTION_HEADINGS = {"Key facts", "Coming up", "Procedures", "Recently changed", "Open contradictions (please review)",
                    "People", "Latest events"}
# a statement has a verb: auxiliaries and common verbs (any form ending -ed, -s counted by _says), the judge's own list
_VERBS = set("""is are was were be been being am will would won't can can't could should must may might shall has have
had do does did don't doesn't didn't isn't aren't wasn't weren't need needs go goes going went come comes came get gets
got make makes made take takes took give gives gave say says said start starts begin begins began move moves pay pays
costs cost join joins leave leaves left meet meets met sign signs run runs buy buys bought send sends sent keep keeps
kept open opens close closes stay stays find found think know want wants like decided agreed booked works work""".split())
_TOPIC_HEAD = re.compile(r"^T\d+(?:\.\d+)? · ")


def topic_blocks(text: str) -> list[tuple[str, list[str]]]:
    """(heading, lines) of every topic block of a brief's markdown (headings that are no fixed section)."""
    out: list[tuple[str, list[str]]] = []
    cur: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("### "):
            head = line[4:]
            cur = None if head in SECTION_HEADINGS else []
            if cur is not None:
                out.append((head, cur))
        elif line.startswith("- ") and cur is not None:
            cur.append(line[2:])
    return out


def says_something(line: str) -> bool:
    """A line that states a fact, plan or decision, not only nouns: >= 4 content words and a verb or a number.

    Dates, ids and "(N memories)" counts are not what it says."""
    body = re.sub(r"\d{4}-\d{2}-\d{2}|#\d+|\(\d+ memor(?:y|ies)[^)]*\)|^T\d+(?:\.\d+)? · ", " ", line)
    words = _WORD.findall(body)
    content = [w for w in words if not is_filler(w)]
    if len(content) < 4:
        return False
    return any(any(ch.isdigit() for ch in w) or w.lower() in _VERBS or (w.lower().endswith("ed") and len(w) > 4)
               for w in words)


_ELONGATED = re.compile(r"([^\W\d_])\1{2,}")  # "GOOOO", "yesss": a letter said three times or more
_LINE_HEAD = re.compile(r"^\d{4}-\d{2}-\d{2} #\d+ (?:\(shared from [^)]*\) )?(?:[^:\n]{1,40}: )?")


def is_reaction_line(line: str) -> bool:
    """A shown line that only reacts (the judge's rule, round 6): no digit and at most one content word once
    elongations are folded ("LETS GOOOO" = "lets go", "YES FINALLY", "ENFIN", "so proud of you"); the line's date,
    id and a chat author's "Name: " are not what it says."""
    body = _LINE_HEAD.sub("", line).split(" (→ ")[0].split(" (may update")[0]
    body = re.sub(r"<[^<>]{0,80}>", " ", body)
    if any(ch.isdigit() for ch in body):
        return False
    words = [_ELONGATED.sub(r"\1", w.lower()) for w in _WORD.findall(body)]
    return sum(len(w) >= 3 and not is_filler(w) for w in words) <= 1


def score_topic_lines(b: dict[str, Any], c: Counter[str]) -> None:
    """Topic headings that say something (a statement, not a keyword label), and whose name is in their lines;
    lead lines and topic lines that only react."""
    for head, lines in topic_blocks(b["text"]):
        c["topicline:n"] += 1
        c["topicline:says"] += says_something(head)
        if " — " in head:
            c["lead:n"] += 1
            c["lead:reaction"] += is_reaction_line(head.split(" — ", 1)[1])
        c["line:reaction"] += sum(is_reaction_line(ln) for ln in lines)
        bare = _TOPIC_HEAD.sub("", head)
        name = bare.split(" (")[0].split(" — ")[0].split(": ")[0]
        words = [fold(w) for w in _WORD.findall(name) if not is_filler(w)]
        said = folded(" ".join([bare[len(name):]] + lines))
        c["topicline:name_in_lines"] += bool(words) and any(w in said for w in words)


# a line that says its plan has gone by (the judge's own words, not the code's)
_PAST_MARK = re.compile(r"\b(?:past|passed|done|was due|ago|overdue)\b", re.I)


def score_expect(expect: list[tuple[str, str, list[str]]], b: dict[str, Any], c: Counter[str]) -> None:
    """Plans, past plans, replaced values and people of a set's ``.expect`` file, against the brief's text.

    A plan is shown when one of its substrings is in the text; plans are "in order" when the shown ones come
    in the order of their dates (first occurrence). A past plan counts when a line holding it carries no mark
    that it has gone by (``_PAST_MARK``); an ``old`` value counts whenever it is shown."""
    text = b["text"]
    low_text = text.lower()
    lines = text.splitlines()
    people_text = "\n".join(i["text"] for i in b["sections"].get("people", []))
    first: list[tuple[str, int]] = []
    for kind, date, alts in expect:
        pos = min((text.find(a) for a in alts if a in text), default=-1)
        if kind == "plan":
            c["plan:n"] += 1
            if pos >= 0:
                c["plan:shown"] += 1
                first.append((date, pos))
        elif kind == "past":
            c["past:n"] += 1
            c["past:shown_as_open"] += any(a in ln and not _PAST_MARK.search(ln) for ln in lines for a in alts)
        elif kind == "old":
            c["old:n"] += 1
            c["old:shown"] += pos >= 0
        elif kind == "topic":  # a subject the reader must find: in a topic's heading, or anywhere in its block
            blocks = topic_blocks(text)
            c["topic:n"] += 1
            c["topic:in_heading"] += any(a.lower() in h.lower() for h, _ in blocks for a in alts)
            c["topic:in_block"] += any(a.lower() in "\n".join([h] + ls).lower() for h, ls in blocks for a in alts)
        elif kind == "nodate":  # (round 8) a day the brief must not give a line holding the substring: an event's
            c["nodate:n"] += 1  # NAME ("Christmas concert") says no day; the day said for it does
            c["nodate:wrong"] += sum(any(a in ln for a in alts) and f"→ {date}" in ln for ln in lines)
        elif kind == "personfact":  # (round 16) the People line of a person (the date column) says their state
            c["personfact:n"] += 1
            own = [i["text"] for i in b["sections"].get("people", []) if i["text"].lstrip("- ").startswith(date)]
            c["personfact:shown"] += any(a.lower() in t.lower() for t in own for a in alts)
        elif kind == "dated":  # (round 17) a plan said colloquially ("dia 16", "am 3.") shown with the day it means
            c["dated:n"] += 1
            c["dated:right"] += any(a in ln and f"→ {date}" in ln for ln in lines for a in alts)
        elif kind == "notstate":  # (round 17) what the People line of a person must not say (a plan they moved)
            c["notstate:n"] += 1
            own = [i["text"] for i in b["sections"].get("people", []) if i["text"].lstrip("- ").startswith(date)]
            c["notstate:shown"] += any(a.lower() in t.lower() for t in own for a in alts)
        elif kind == "fact":  # (round 20) a current fact (the latest value of something that changed) is shown
            c["fact:n"] += 1
            c["fact:shown"] += any(a.lower() in low_text for a in alts)
        elif kind == "named":  # (round 20) a People line of a person named N times must not count more
            c["named:n"] += 1
            for item in b["sections"].get("people", []):
                head_, _, rest = item["text"].lstrip("- ").partition(":")
                m = re.search(r"\bnamed in (\d+) memor", rest)
                if any(a.lower() in head_.lower() for a in alts) and m and int(m.group(1)) > int(date):
                    c["named:over"] += 1
                    break
        elif kind == "moved":  # (round 21) a plan that moved or was called off: its old place / day as current
            c["moved:n"] += 1
            cur = [i["text"].lower() for sec in _CURRENT_SECTIONS for i in b["sections"].get(sec, [])]
            c["moved:current"] += any(a.lower() in t for t in cur for a in alts)
            c["moved:anywhere"] += any(a.lower() in ln.lower() for ln in lines for a in alts)
        elif kind == "faded":  # (round 21) a subject whose notes the nightly decay archived: still a topic
            blocks = topic_blocks(text)
            c["faded:n"] += 1
            c["faded:in_heading"] += any(a.lower() in h.lower() for h, _ in blocks for a in alts)
            c["faded:in_block"] += any(a.lower() in "\n".join([h] + ls).lower() for h, ls in blocks for a in alts)
        elif kind in ("split", "noname", "goodname", "badname", "gone", "newsctx", "oneline", "notperson", "talked"):  # scored on the stored topics: score_split, score_noname
            pass
        elif kind == "chat":  # small talk that must not head a topic (round 7): in a topic's heading line
            c["chat:n"] += 1
            c["chat:as_topic"] += any(re.search(rf"\b{re.escape(a.lower())}", h.lower())
                                      for h, _ in topic_blocks(text) for a in alts)
        else:
            c["person:n"] += 1
            c["person:shown"] += pos >= 0
            c["person:in_section"] += any(a in people_text for a in alts)
    by_pos = [d for d, _ in sorted(first, key=lambda dp: dp[1])]
    c["plan:in_order_pairs"] += sum(a <= b2 for i, a in enumerate(by_pos) for b2 in by_pos[i + 1:])
    c["plan:pairs"] += len(by_pos) * (len(by_pos) - 1) // 2


# --------------------------------------------------------------------------- main

KINDS = ("good", "filler", "title", "bag", "single", "generic", "fragment", "piece", "bare", "person", "none",
         "duplicate")
LINE_KINDS = ("line:duplicate", "line:filler", "line:superseded_as_current", "line:date_wrong", "people_missing",
              "contradictions_hidden")


def run_tree(tree: Path, raw: Path, work: Path, now: str, budget: int) -> dict[str, Any]:
    db = work / raw.name
    for suffix in ("", "-wal", "-shm"):  # a stale WAL next to a fresh copy would be replayed into it
        Path(f"{db}{suffix}").unlink(missing_ok=True)
        if Path(f"{raw}{suffix}").exists():
            shutil.copy(f"{raw}{suffix}", f"{db}{suffix}")
    r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(tree), str(db), now,
                        str(budget)], capture_output=True, text=True, cwd=str(tree))
    if r.returncode != 0:
        raise SystemExit(f"worker failed on {raw.name} with {tree}:\n{r.stderr[-2000:]}")
    return dict(json.loads(r.stdout.splitlines()[-1]))


def report(spec: dict[str, Any], info: dict[str, Any], out: dict[str, Any], tag: str,
           totals: dict[tuple[str, str], Counter[str]], cpu: dict[str, list[float]], args: Any) -> None:
    """Score one brief, add it to the totals and print its lines."""
    res = score_set(spec, info, out)
    cpu[tag].append(out["cpu"]["brief"])
    totals.setdefault((spec["split"], tag), Counter()).update(res["counts"])
    c = res["counts"]
    print(f"\n## {spec['name']} ({spec['split']}) — {tag}: {c['lines']} lines, {c['tokens']} tokens; "
          f"key facts {c['key:current_shown']}/{c['key:n']} current shown, {c['key:old_shown']} replaced "
          f"shown; updates auto-superseded {info.get('auto_superseded', '-')}/{info.get('updates', '-')}")
    if c["plan:n"] or c["person:n"]:
        print(f"   plans {c['plan:shown']}/{c['plan:n']} shown ({c['plan:in_order_pairs']}/{c['plan:pairs']} "
              f"pairs in date order), past shown as open {c['past:shown_as_open']}/{c['past:n']}, "
              f"replaced shown {c['old:shown']}/{c['old:n']}, people {c['person:shown']}/{c['person:n']} "
              f"({c['person:in_section']} in People), "
              f"filler lines {c['line:filler']}")
    print(f"   topic headings that say something {c['topicline:says']}/{c['topicline:n']}, name in its lines "
          f"{c['topicline:name_in_lines']}/{c['topicline:n']}; expected topics in a heading "
          f"{c['topic:in_heading']}/{c['topic:n']}, in a topic block {c['topic:in_block']}/{c['topic:n']}")
    print(f"   lead lines that react {c['lead:reaction']}/{c['lead:n']}, topic lines that react "
          f"{c['line:reaction']}; key facts / plans outside every topic {c['keyout:outside']}/{c['keyout:n']} "
          f"({c['keyout:outside_shown']} of them shown); topic names that are titles {c['name:title']}")
    print(f"   small talk heading a topic {c['chat:as_topic']}/{c['chat:n']}; stored topics that mix subjects "
          f"{c['mixed:mixed']}/{c['mixed:n']} ({c['mixed:mixed_members']} members), largest topic "
          f"{c['mixed:largest']}, turns absorbed {c['mixed:absorbed']}; no-subject names {c['noname:named']}; "
          f"good odd names held {c['goodname:held']}/{c['goodname:n']}; "
          f"function words / fallbacks as names {c['badname:named']}; "
          f"people lines with their state {c['personfact:shown']}/{c['personfact:n']}; "
          f"colloquial plans dated right {c['dated:right']}/{c['dated:n']}; "
          f"moved plans quoted as a person's state {c['notstate:shown']}/{c['notstate:n']}; "
          f"plans of a month gone by quoted as current {c['gone:shown']}/{c['gone:n']}; "
          f"people's news told with its subject {c['newsctx:told']}/{c['newsctx:n']} "
          f"({c['newsctx:bare']} bare); overlapping names {c['overlap:pairs']}; "
          f"current facts shown {c['fact:shown']}/{c['fact:n']}; "
          f"names counted more than said {c['named:over']}/{c['named:n']}; "
          f"moved / called-off plans shown with the old place or day as current {c['moved:current']}/"
          f"{c['moved:n']} (anywhere {c['moved:anywhere']}); subjects of faded notes in a topic heading "
          f"{c['faded:in_heading']}/{c['faded:n']}, in a topic block {c['faded:in_block']}/{c['faded:n']}; "
          f"one subject in {c['split:topics']} stored topics ({c['split:n']} "
          f"subjects); dates read from an event's name {c['nodate:wrong']}")
    print(f"   memories in a cluster of >= 3 {c['mem:in_topic']}/{c['mem:live']}; "
          f"topics of <= 2 memories shown {c['topic:tiny']}, stored {c['label:tiny']}; "
          f"'no topics yet' warning {c['warn:no_topics']}")
    print(brief_judge23.line(c))
    print(brief_judge25.line(c))
    print("   topic names: " + "; ".join(f"{t} «{n}» {v}" for t, n, v in res["names"]))
    if args.dump:
        args.dump.mkdir(parents=True, exist_ok=True)
        (args.dump / f"{spec['name']}.{tag}.md").write_text(out["brief"]["text"], encoding="utf-8")
        (args.dump / f"{spec['name']}.{tag}.topics.json").write_text(json.dumps(
            {"labels": out["labels"], "members": out["members"]}, ensure_ascii=False, indent=1),
            encoding="utf-8")
    if args.show and spec["split"] == "dev":
        print(out["brief"]["text"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", help="a code tree to compare with (e.g. git archive main | tar -x -C DIR)")
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--split", choices=("dev", "heldout", "all"), default="all")
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "brief_quality"),
                    help="where raw stores are kept between runs (rebuilt when the data file changed)")
    ap.add_argument("--show", action="store_true", help="print every brief (dev sets only)")
    ap.add_argument("--no-shared", action="store_true", help="only the sets of --data")
    ap.add_argument("--dump", type=Path, help="write every brief's text to DIR/<set>.<tree>.md (for reading)")
    ap.add_argument("--data", type=Path, action="append",
                    help="a folder of sets (repeatable; default bench/data/brief_heldout; bench/data/brief_heldout2 "
                         "holds four more held-out sets, in English, Spanish, French and German)")
    ap.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("--build-worker", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.build_worker:
        tree = Path(args.build_worker[0])
        print(json.dumps(build(json.loads(args.build_worker[1]), Path(args.build_worker[2]), tree)))
        return 0
    if args.worker:
        worker(args.worker[0], args.worker[1], args.worker[2], int(args.worker[3]))
        return 0
    cache = Path(args.cache)
    (cache / "work").mkdir(parents=True, exist_ok=True)
    trees = ([("before", Path(args.before).resolve())] if args.before else []) + [("after", ROOT)]
    log(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    totals: dict[tuple[str, str], Counter[str]] = {}
    cpu: dict[str, list[float]] = {t: [] for t, _ in trees}
    for spec in sets(not args.no_shared, [d.resolve() for d in args.data] if args.data else None):
        if args.split != "all" and spec["split"] != args.split:
            continue
        raw = cache / f"{spec['name']}.db"
        side = raw.with_suffix(".json")
        notes_file = spec.get("notes") or (spec["path"] if spec["kind"] == "notes" else None)
        if notes_file and read_notes(Path(notes_file))[0].get("nights"):
            # (round 21) the nightly consolidate is part of how the store came to be: each tree builds its own
            # (its decay and clusters every night), always afresh (the tree's code may have changed since)
            for tag, tree in trees:
                own = cache / f"{spec['name']}.{tag}.db"
                for p in cache.glob(f"{spec['name']}.{tag}.db*"):
                    p.unlink()
                log(f"building {spec['name']} with {tag} (consolidate every night) ...")
                t0 = time.time()
                info = build_with(tree, spec, own)
                log(f"  built in {time.time() - t0:.1f} s (wall)")
                out = run_tree(tree, own, cache / "work", info["now"], args.budget)
                report(spec, info, out, tag, totals, cpu, args)
            continue
        # (the tree that builds is part of the stamp: a store built by a newer schema cannot be briefed by older code)
        inputs = list(spec.get("paths") or [spec["path"]]) + ([spec["notes"]] if spec.get("notes") else [])
        if spec["kind"] == "vault":
            inputs = sorted(str(f) for f in Path(spec["path"]).rglob("*") if f.is_file())  # (a Keep export: .json)
        stamp = [os.stat(p).st_mtime for p in inputs] + [str(trees[0][1])]
        got = json.loads(side.read_text()) if side.exists() else {}
        if not raw.exists() or got.get("stamp") != stamp:
            for p in cache.glob(f"{spec['name']}.db*"):
                p.unlink()
            log(f"building {spec['name']} ...")
            info = build_with(trees[0][1], spec, raw)
            side.write_text(json.dumps({"stamp": stamp, "info": info}))
        else:
            info = got["info"]
        for tag, tree in trees:
            out = run_tree(tree, raw, cache / "work", info["now"], args.budget)
            report(spec, info, out, tag, totals, cpu, args)
    print("\n## totals (topic names shown in the brief; cluster labels consolidate stores; brief lines)\n")
    head = ["split", "tree"] + [f"name {k}" for k in KINDS] + ["label good", "label bag", "labels"] + \
        [k.split(":")[-1] for k in LINE_KINDS] + ["key current", "key replaced shown", "plans", "in order",
                                                 "past as open", "old shown", "people", "in People",
                                                 "tiny shown", "no-topics warning", "headings say", "name in lines",
                                                 "topics in heading", "topics in block", "in a topic",
                                                 "leads that react", "lines that react", "keys outside topics",
                                                 "outside shown", "small talk as topic", "mixed topics",
                                                 "split topics", "dates from names", "absorbed turns",
                                                 "no-subject names", "good odd names held", "function-word names",
                                                 "people's state", "dated right", "stale state",
                                                 "gone month quoted", "news with subject", "bare news",
                                                 "overlapping names", "current facts", "names counted twice",
                                                 "moved old as current", "moved old anywhere", "faded in heading",
                                                 "faded in block", *brief_judge23.COLUMNS, *brief_judge25.COLUMNS]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for (split, tag), c in sorted(totals.items()):
        n_names = sum(c[f"name:{k}"] for k in KINDS)
        n_labels = sum(v for k, v in c.items() if k.startswith("label:"))
        row = [split, tag] + [f"{c[f'name:{k}']}" + (f" ({c[f'name:{k}'] / n_names:.0%})" if k == "good" and n_names
                                                     else "") for k in KINDS]
        row += [str(c["label:good"]), str(c["label:bag"]), str(n_labels)]
        row += [str(c[k]) for k in LINE_KINDS] + [f"{c['key:current_shown']}/{c['key:n']}", str(c["key:old_shown"])]
        row += [f"{c['plan:shown']}/{c['plan:n']}", f"{c['plan:in_order_pairs']}/{c['plan:pairs']}",
                f"{c['past:shown_as_open']}/{c['past:n']}", f"{c['old:shown']}/{c['old:n']}",
                f"{c['person:shown']}/{c['person:n']}", f"{c['person:in_section']}/{c['person:n']}",
                str(c["topic:tiny"]), str(c["warn:no_topics"]), f"{c['topicline:says']}/{c['topicline:n']}",
                f"{c['topicline:name_in_lines']}/{c['topicline:n']}", f"{c['topic:in_heading']}/{c['topic:n']}",
                f"{c['topic:in_block']}/{c['topic:n']}", f"{c['mem:in_topic']}/{c['mem:live']}",
                f"{c['lead:reaction']}/{c['lead:n']}", str(c["line:reaction"]),
                f"{c['keyout:outside']}/{c['keyout:n']}", f"{c['keyout:outside_shown']}/{c['keyout:outside']}",
                f"{c['chat:as_topic']}/{c['chat:n']}", f"{c['mixed:mixed']}/{c['mixed:n']}",
                f"{c['split:topics']}/{c['split:n']}", str(c["nodate:wrong"]), str(c["mixed:absorbed"]),
                str(c["noname:named"]), f"{c['goodname:held']}/{c['goodname:n']}", str(c["badname:named"]),
                f"{c['personfact:shown']}/{c['personfact:n']}", f"{c['dated:right']}/{c['dated:n']}",
                f"{c['notstate:shown']}/{c['notstate:n']}", f"{c['gone:shown']}/{c['gone:n']}",
                f"{c['newsctx:told']}/{c['newsctx:n']}", str(c["newsctx:bare"]), str(c["overlap:pairs"]),
                f"{c['fact:shown']}/{c['fact:n']}", f"{c['named:over']}/{c['named:n']}",
                f"{c['moved:current']}/{c['moved:n']}", f"{c['moved:anywhere']}/{c['moved:n']}",
                f"{c['faded:in_heading']}/{c['faded:n']}", f"{c['faded:in_block']}/{c['faded:n']}",
                *brief_judge23.cells(c), *brief_judge25.cells(c)]
        print("| " + " | ".join(row) + " |")
    for tag, vals in cpu.items():
        if vals:
            print(f"\nbrief CPU ({tag}): {sum(vals):.2f} s over {len(vals)} stores (in process, after consolidate)")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
