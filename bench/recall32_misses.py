"""Issue 19, round 32: why the held-out chats are harder than the real-chat dev set — every recall@5 miss, classed.

For every question of the held-out chat sets (19-24, 28; 30 only with ``--sets``) and of the real-chat dev set, the
engine's top 10 (k = 10, as every bench scores) and its top 50 (where a missed turn sits); then each evidence turn
outside the first five is classed by what reaching it takes (a turn may have several):

- ``lang``: the turn is in another language than the question (a small stop-word vote per language; a turn too short
  to vote takes its chat's language);
- ``short``: the turn has at most 6 words; ``burst``: a short turn sharing no content word with the question whose
  neighbours (the 3 turns either side, within 30 minutes) do — its meaning lives in its burst;
- ``no shared word``: no content word of the question (first 5 letters) in the turn (a paraphrase);
- ``name``: the question names someone by a relation ("my sister", "the landlord") or by a name the turn lacks;
- ``date``: a "when" question (category temporal, or a when-word);
- ``multi``: a multi-hop question.

A primary class per missed turn (the first that applies, in the order lang, burst, no shared word, name, date,
multi-hop's second hop, words shared but ranked low) gives a table whose shares add up.

    python bench/recall32_misses.py --reuse /tmp/recall32            # stores in DIR/base-hNN, DIR/loo/realchat
    python bench/recall32_misses.py --reuse DIR --json out.json --config FIELD=VALUE
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from bench.common import md_table  # noqa: E402

HELDOUTS = ("19", "20", "21", "22", "23", "24", "28")
_STOP = set("""the and for our who what which where when how why does did are was were is has have with from now that
this there their they them his her him its you your yes not but can will into out new was had been
aan van het een wie wat waar wanneer hoe welke zijn bij met voor naar onze ons zij hij wij jij ook nog niet dat die
que quem qual onde quando como porque para com uma umas uns dos das nos nas pelo pela está são foi vai
chi che cosa dove quando come perché per con una del della dei delle nel nella alla allo sono abbiamo
der die das und ist wer wie was wann wo warum mit für den dem des ein eine auf hat haben wir ihr sie
qué quién cuál dónde cuándo cómo por los las del una unos está son fue
quoi qui quel quelle où quand comment pourquoi pour avec les des une est sont
hva hvem hvor når hvordan hvorfor med til som det den har
""".split())
# function words that vote for a language (short, frequent, rarely shared)
_LANG = {
    "en": "the and is are was to of you it that this what with for my we i have in on at",
    "de": "der die das und ist nicht ich du wir ein eine mit auf für zu den dem sie es auch noch",
    "es": "el la los las y es que de en un una por para con no lo se mi tu del al pero ya",
    "pt": "o a os as e é que de em um uma por para com não do da no na meu minha tu eu vou tá",
    "it": "il lo la gli le e è che di in un una per con non mi ti ci del della sono",
    "fr": "le la les et est que de en un une pour avec pas je tu nous il elle du des sur",
    "nl": "de het een en is dat van in op te met voor niet ik je we wij ook nog",
    "no": "og er det en et på til med som ikke jeg du vi har for av den",
    "pl": "i w na z że nie to jest się do co jak ja ty my za po od już",
}
_LANG_SETS = {lang: set(ws.split()) for lang, ws in _LANG.items()}
_RELATIONS = re.compile(r"\b(my|our|his|her|their|the|mi|mis|meu|minha|mein|meine|ma|mon|mio|mia|mijn|min|moja|"
                        r"mój)\s+(sister|brother|mum|mom|mother|dad|father|parents|wife|husband|partner|boyfriend|"
                        r"girlfriend|son|daughter|aunt|uncle|cousin|grandma|grandpa|granny|nan|landlord|landlady|"
                        r"boss|flatmate|roommate|neighbour|neighbor|friend|teacher|doctor|vet|supervisor|"
                        r"hermana|hermano|madre|padre|mamá|papá|abuela|abuelo|tía|tío|prima|primo|irmã|irmão|mãe|"
                        r"pai|avó|avô|schwester|bruder|mutter|vater|mama|papa|oma|opa|vermieter|chef|soeur|frère|"
                        r"mère|père|sorella|fratello|madre|zus|broer|moeder|vader|søster|bror|siostra|brat|mama|"
                        r"tata|babcia|dziadek)\b", re.I)
_WHEN = re.compile(r"\b(when|what time|what day|which day|how long ago|wann|cuándo|quando|quand|wanneer|når|kiedy|"
                   r"o której|welcher tag|qué día|que dia)\b", re.I)
PRIMARY = ("another language", "meaning in its burst", "no shared word (paraphrase)", "a name said otherwise",
           "a date question", "multi-hop, second hop", "words shared, ranked low")


def words(text: str) -> set[str]:
    """Content words of ``text`` cut to their first 5 letters (a crude stem across the languages)."""
    return {w[:5] for w in re.findall(r"[^\W\d_]{3,}", text.lower()) if w not in _STOP}


def language(text: str) -> str | None:
    """The language whose function words ``text`` uses most (two votes at least, else None)."""
    toks = re.findall(r"[^\W\d_]+", text.lower())
    votes = Counter({lang: sum(t in ws for t in toks) for lang, ws in _LANG_SETS.items()})
    (best, n), *rest = votes.most_common(2) + [("", 0)]
    return best if n >= 2 and n > rest[0][1] else None


def body(content: str, author: str | None) -> str:
    """A turn's text without the "Author: " prefix the importer writes."""
    if author and content.startswith(f"{author}: "):
        return content[len(author) + 2:]
    return content


def _at(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text[:19]) if text else None
    except ValueError:
        return None


def classify(st: Any, q: Any, ref: str, chat_lang: str | None) -> tuple[set[str], str]:
    """(flags, primary class) of one missed evidence turn."""
    row = st.conn.execute("SELECT content, author, thread, position, event_at FROM memories WHERE ref = ?",
                          (ref,)).fetchone()
    content, author, thread, pos, at = row
    text = body(content, author)
    qw, tw = words(q.question), words(text)
    flags: set[str] = set()
    lang_t = language(text) or chat_lang
    if lang_t and q.lang and lang_t != q.lang:
        flags.add("lang")
    if len(re.findall(r"\S+", text)) <= 6:
        flags.add("short")
    if not qw & tw:
        flags.add("noshare")
    if "short" in flags and "noshare" in flags and thread is not None and pos is not None:
        t0 = _at(at)
        near = st.conn.execute("SELECT content, author, event_at FROM memories WHERE thread = ? AND position"
                               " BETWEEN ? AND ? AND position != ? AND ref NOT LIKE 'episode:%'",
                               (thread, pos - 3, pos + 3, pos)).fetchall()
        for c, a, e in near:
            t1 = _at(e)
            if t0 and t1 and abs((t1 - t0).total_seconds()) > 1800:
                continue
            if qw & words(body(c, a)):
                flags.add("burst")
                break
    names = {w for w in re.findall(r"(?<!^)(?<![.?!] )\b([A-ZÀ-Ý][\w'-]+)", q.question)}
    said = tw | words(author or "")  # the turn's own words and its author's name
    if _RELATIONS.search(q.question) or any(n.lower()[:5] not in said for n in names if len(n) > 2):
        flags.add("name")
    if q.category == "temporal" or _WHEN.search(q.question):
        flags.add("date")
    if q.category == "multi-hop":
        flags.add("multi")
    order = [("lang", PRIMARY[0]), ("burst", PRIMARY[1]), ("noshare", PRIMARY[2]), ("name", PRIMARY[3]),
             ("date", PRIMARY[4]), ("multi", PRIMARY[5])]
    primary = next((label for f, label in order if f in flags), PRIMARY[6])
    return flags, primary


def chat_language(st: Any) -> str | None:
    """The language most turns of a store vote for."""
    votes = Counter(language(body(c, a)) for c, a in st.conn.execute(
        "SELECT content, author FROM memories WHERE ref NOT LIKE 'episode:%' AND ref IS NOT NULL"))
    votes.pop(None, None)
    return votes.most_common(1)[0][0] if votes else None


def run_set(name: str, data: Path, questions: Path, reuse: Path, config: Any) -> list[dict[str, Any]]:
    """One row per evidence turn of every question of a set: its rank (top 50) and, when outside the first five,
    its flags and primary class."""
    from bench import realchat
    from embedder import get_embedder

    qs = realchat.load_questions(questions)
    stores = realchat.build_chat_stores(qs, data, reuse, get_embedder(), reuse=True)
    langs = {f: chat_language(st) for f, st in stores.items()}
    out = []
    for q in qs:
        st = stores[q.file]
        deep = [m.ref or "" for m in st.recall(q.question, k=50, touch=False, config=config).results]
        top = [m.ref or "" for m in st.recall(q.question, k=10, touch=False, config=config).results]
        for ref in q.evidence:
            rank = top.index(ref) + 1 if ref in top else (deep.index(ref) + 1 if ref in deep else None)
            row: dict[str, Any] = {"set": name, "id": q.id, "file": q.file, "category": q.category, "ref": ref,
                                   "question": q.question, "rank": rank, "n_evidence": len(q.evidence)}
            flags, primary = classify(st, q, ref, langs[q.file])
            row["all_flags"] = sorted(flags)
            if rank is None or rank > 5:
                row |= {"flags": sorted(flags), "primary": primary}
            out.append(row)
    return out


def table(rows: list[dict[str, Any]], groups: dict[str, list[str]]) -> str:
    """Shares of the missed evidence turns by primary class and by flag, one column per group of sets."""
    head = ["class", *groups]
    lines = []
    def sel(sets: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        allr = [r for r in rows if r["set"] in sets]
        return allr, [r for r in allr if "primary" in r]
    lines.append(["evidence turns (missed at 5)",
                  *[f"{len(sel(s)[0])} ({len(sel(s)[1])}, {len(sel(s)[1]) / max(1, len(sel(s)[0])):.0%})"
                    for s in groups.values()]])
    for p in PRIMARY:
        lines.append([f"primary: {p}", *[f"{sum(r['primary'] == p for r in sel(s)[1]) / max(1, len(sel(s)[1])):.0%}"
                                         for s in groups.values()]])
    for f, label in (("lang", "another language"), ("short", "a short turn (<= 6 words)"),
                     ("burst", "short, no shared word, a neighbour shares one"), ("noshare", "no shared word"),
                     ("name", "a name / relation"), ("date", "a date question"), ("multi", "multi-hop")):
        lines.append([f"flag: {label}", *[f"{sum(f in r['flags'] for r in sel(s)[1]) / max(1, len(sel(s)[1])):.0%}"
                                          for s in groups.values()]])
    for lo, hi, label in ((6, 10, "rank 6-10"), (11, 50, "rank 11-50")):
        lines.append([f"where: {label}", *[f"{sum(r['rank'] is not None and lo <= r['rank'] <= hi for r in sel(s)[1]) / max(1, len(sel(s)[1])):.0%}"
                                           for s in groups.values()]])
    lines.append(["where: past 50", *[f"{sum(r['rank'] is None for r in sel(s)[1]) / max(1, len(sel(s)[1])):.0%}"
                                      for s in groups.values()]])
    return md_table(head, lines)


def exposure(rows: list[dict[str, Any]], groups: dict[str, list[str]]) -> str:
    """What the sets hold, missed or not: the share of evidence turns with each flag, and recall@5's miss rate among
    them (a class the held-outs hold more of, at the same miss rate, is a gap the dev set never shows)."""
    lines = []
    for f, label in (("lang", "another language"), ("noshare", "no shared word"), ("short", "a short turn"),
                     ("name", "a name / relation"), ("date", "a date question"), ("multi", "multi-hop"),
                     ("", "every evidence turn")):
        cells = []
        for sets in groups.values():
            allr = [r for r in rows if r["set"] in sets]
            has = [r for r in allr if not f or f in r["all_flags"]]
            missed = sum("primary" in r for r in has)
            cells.append(f"{len(has) / max(1, len(allr)):.0%} (missed {missed / max(1, len(has)):.0%})")
        lines.append([label, *cells])
    return md_table(["evidence turns", *groups], lines)


def main(argv: list[str] | None = None) -> int:
    """The miss table of the held-outs and of the real-chat dev set."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reuse", required=True, metavar="DIR",
                    help="DIR/base-hNN holds held-out NN's stores, DIR/loo/realchat the dev set's")
    ap.add_argument("--sets", default=",".join(HELDOUTS), help="held-out numbers (default: %(default)s)")
    ap.add_argument("--no-dev", action="store_true", help="leave the real-chat dev set out")
    ap.add_argument("--config", action="append", default=[], metavar="FIELD=VALUE")
    ap.add_argument("--json", metavar="OUT", help="every evidence turn's row")
    args = ap.parse_args(argv)
    from bench.realchat import DEFAULT_DATA, DEFAULT_QUESTIONS
    from bench.recall_round12 import _config

    config = _config(args.config)
    reuse = Path(args.reuse)
    rows: list[dict[str, Any]] = []
    sets = [s for s in args.sets.split(",") if s]
    for n in sets:
        rows += run_set(f"h{n}", HERE / "bench" / "data" / f"realchat_heldout{n}",
                        HERE / "bench" / "data" / f"realchat_heldout{n}.jsonl", reuse / f"base-h{n}", config)
    if not args.no_dev and DEFAULT_DATA.exists():
        rows += run_set("dev", DEFAULT_DATA, DEFAULT_QUESTIONS, reuse / "loo" / "realchat", config)
    groups = {"held-outs " + "+".join(sets): [f"h{n}" for n in sets]}
    if any(r["set"] == "dev" for r in rows):
        groups["real-chat dev"] = ["dev"]
    print(table(rows, groups))
    print()
    print(exposure(rows, groups))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, ensure_ascii=False, indent=0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
