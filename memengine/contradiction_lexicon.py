"""The word lists and patterns contradiction detection reads (:mod:`memengine.contradictions`).

Stopwords, negations, multi-word rewrites, past-state clauses, opposition axes
(likes/hates, enabled/disabled, morning/evening ...), attribute words for slots and
the tokenizer. Data, not logic: a new antonym pair goes here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ---------------------------------------------------------------------------
# Lexicons
# ---------------------------------------------------------------------------


def _words(text: str) -> tuple[str, ...]:
    """Split a whitespace-separated word list (keeps the lexicons readable)."""
    return tuple(text.split())


# Function words carry no subject information.
STOPWORDS: frozenset[str] = frozenset(
    _words("""a an the this that these those it its it's he she they them his her their
    our we you your i me my mine of in on at to from for with by about as into
    onto over under and or but so if then than also too very really just still
    is are was were be been being am has have had do does did will would shall
    should can could may might must there here where when which who whom whose
    what how all every each any some much many more most less own same such
    now currently usually normally typically always only even both either
    per via up out off set stay get got keep kept whole other""")
)

# Words (after contraction handling) that flip the polarity of a statement.
# "never" is a negation too; "always" vs "never" is reported as an antonym.
NEGATION_WORDS: frozenset[str] = frozenset(
    {"not", "no", "never", "none", "nobody", "nothing", "neither", "nor",
     "cannot", "without", "quit", "stopped", "stop", "quits", "stops"}
)

# Multi-word expressions rewritten before tokenising, so that e.g. the "can't"
# in "can't stand" is not counted as a negation on top of a dislike.
PHRASES: tuple[tuple[str, str], ...] = (
    (r"\bcan(?:'|’)?t\s+stand\b", "hates"),
    (r"\bcannot\s+stand\b", "hates"),
    (r"\bno\s+longer\b", "not"),
    (r"\bnot\s+any\s*more\b", "not"),
    (r"\bany\s*more\b", ""),
    (r"\bgave\s+up\b", "quit"),
    (r"\bfan\s+of\b", "likes"),
    (r"\bis\s+keen\s+on\b", "likes"),
    (r"\bturned\s+on\b", "on"),
    (r"\bturned\s+off\b", "off"),
)

# A clause starting with one of these describes a superseded past state; it is
# removed up to the next clause boundary.  "is used to" (purpose) is excluded.
PAST_CLAUSE_RE = re.compile(
    r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )"
    r"\b(?:used\s+to|previously|formerly|once)\b[^,;.]*?(?=(?:[,;.]|\bbut\b|\bnow\b|$))",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Axis:
    """A set of mutually exclusive values ("enabled"/"disabled")."""

    name: str
    kind: str  # "preference" or "antonym"
    values: dict[str, str]
    binary: bool  # two opposite poles: a negation swaps them


def _axis(name: str, kind: str, groups: dict[str, tuple[str, ...]]) -> _Axis:
    values = {word: value for value, words in groups.items() for word in words}
    return _Axis(name, kind, values, binary=len(groups) == 2)


# Opposition axes.  Sentiment words are the "preference" kind; other
# opposites are "antonym".  Surface forms are listed rather than stemmed so
# that e.g. "light" (mode) never matches "lights".
AXES: tuple[_Axis, ...] = (
    _axis("prefers", "preference", {
        "+": ("like", "likes", "liked", "love", "loves", "loved", "enjoy",
              "enjoys", "enjoyed", "prefer", "prefers", "preferred", "adore",
              "adores", "favourite", "favorite", "fond"),
        "-": ("dislike", "dislikes", "disliked", "hate", "hates", "hated",
              "avoid", "avoids", "avoided", "detest", "detests", "loathe",
              "loathes"),
    }),
    _axis("time of day", "preference", {
        "morning": ("morning", "mornings"),
        "afternoon": ("afternoon", "afternoons"),
        "evening": ("evening", "evenings"),
        "night": ("night", "nights", "nighttime"),
    }),
    _axis("indentation", "preference", {
        "tabs": ("tab", "tabs"), "spaces": ("space", "spaces")}),
    _axis("theme", "preference", {"dark": ("dark",), "light": ("light",)}),
    _axis("verbosity", "preference", {
        "short": ("concise", "short", "brief", "terse", "succinct"),
        "long": ("detailed", "verbose", "long", "lengthy", "thorough"),
    }),
    _axis("enabled", "antonym", {
        "+": ("enabled", "enable", "enables", "active", "activated"),
        "-": ("disabled", "disable", "disables", "inactive", "deactivated"),
    }),
    _axis("switch", "antonym", {"+": ("on",), "-": ("off",)}),
    _axis("allowed", "antonym", {
        "+": ("allowed", "permitted", "allow", "allows", "permit", "permits"),
        "-": ("forbidden", "prohibited", "banned", "disallowed", "forbid",
              "forbids", "prohibit", "prohibits", "ban", "bans"),
    }),
    _axis("truth", "antonym", {"+": ("true", "yes"), "-": ("false",)}),
    _axis("visibility", "antonym", {
        "+": ("public",), "-": ("private", "internal")}),
    _axis("marital status", "antonym", {
        "+": ("married",), "-": ("single", "unmarried", "divorced")}),
    _axis("automation", "antonym", {
        "+": ("automatic", "automatically", "automated", "auto"),
        "-": ("manual", "manually", "by hand"),
    }),
    _axis("required", "antonym", {
        "+": ("mandatory", "required", "compulsory"), "-": ("optional",)}),
    _axis("success", "antonym", {
        "+": ("passed", "passes", "succeeded", "succeeds"),
        "-": ("failed", "fails", "failing")}),
    _axis("frequency", "antonym", {"+": ("always",)}),
)
AXIS_BY_WORD: dict[str, _Axis] = {w: ax for ax in AXES for w in ax.values}
AXIS_BY_NAME: dict[str, _Axis] = {ax.name: ax for ax in AXES}

# "on"/"off" are only switch states after a copula; elsewhere "on" is a
# preposition ("runs on Tuesdays").
SWITCH_CONTEXT: frozenset[str] = frozenset(
    {"is", "are", "was", "were", "be", "been", "stays", "stay", "left",
     "turned", "switched", "set", "kept"})

# A number after one of these identifies *which* thing is meant ("version 2"
# vs "version 3" are different subjects, not a contradiction).
IDENTIFIER_WORDS: frozenset[str] = frozenset(
    {"version", "v", "release", "issue", "ticket", "pr", "room", "floor",
     "step", "phase", "sprint", "chapter", "section", "line", "item", "case",
     "node", "build", "iteration", "no", "number", "#", "apartment", "flat",
     "building", "gate", "platform", "season", "episode", "level", "tier"})

# Words introducing a place name when followed by a capitalised word.
PLACE_PREPOSITIONS: frozenset[str] = frozenset(
    {"in", "at", "to", "from", "near", "into", "outside"})
# Words introducing a bare year ("in 2019").
YEAR_PREPOSITIONS: frozenset[str] = frozenset(
    {"in", "since", "from", "until", "till", "by", "of", "before", "after",
     "during", "around", "circa", "year", "early", "late", "mid"})

MONTHS: dict[str, int] = {}
for _i, _m in enumerate(
        _words("january february march april may june july august september october "
        "november december"), start=1):
    MONTHS[_m] = _i
    MONTHS[_m[:3]] = _i
MONTHS["sept"] = 9
WEEKDAYS: dict[str, int] = {}
for _i, _d in enumerate(
        _words("monday tuesday wednesday thursday friday saturday sunday")):
    WEEKDAYS[_d] = _i
    WEEKDAYS[_d + "s"] = _i
    WEEKDAYS[_d[:3]] = _i

WORD_NUMBERS: dict[str, float] = {
    w: float(i) for i, w in enumerate(
        _words("zero one two three four five six seven eight nine ten eleven "
        "twelve"))
}
WORD_NUMBERS.update({"twenty": 20.0, "thirty": 30.0, "forty": 40.0,
                     "fifty": 50.0, "hundred": 100.0, "dozen": 12.0})

# Unit words: canonical unit class and multiplier to a base unit, so that
# "60 seconds" equals "1 minute" and "5 GB" equals "5000 MB".
UNITS: dict[str, tuple[str, float]] = {}
for _names, _cls, _mult in (
        (("s", "sec", "secs", "second", "seconds"), "duration", 1.0),
        (("ms", "millisecond", "milliseconds"), "duration", 0.001),
        (("min", "mins", "minute", "minutes"), "duration", 60.0),
        (("h", "hr", "hrs", "hour", "hours"), "duration", 3600.0),
        (("day", "days"), "duration", 86400.0),
        (("week", "weeks"), "duration", 604800.0),
        (("month", "months"), "duration", 2629800.0),
        (("year", "years"), "duration", 31557600.0),
        (("%", "percent", "pct"), "%", 1.0),
        (("$", "usd", "dollar", "dollars", "bucks"), "usd", 1.0),
        (("€", "eur", "euro", "euros"), "eur", 1.0),
        (("£", "gbp", "pound", "pounds"), "gbp", 1.0),
        (("kb",), "bytes", 1e3), (("mb",), "bytes", 1e6),
        (("gb",), "bytes", 1e9), (("tb",), "bytes", 1e12),
        (("km", "kilometres", "kilometers"), "metres", 1000.0),
        (("m", "metres", "meters"), "metres", 1.0),
        (("kg", "kilos", "kilograms"), "grams", 1000.0),
        (("g", "grams"), "grams", 1.0),
):
    for _n in _names:
        UNITS[_n] = (_cls, _mult)
# Words that turn a following unit into a rate ("100 requests per minute").
RATE_WORDS: frozenset[str] = frozenset({"per", "a", "an", "each", "every", "/"})

# Irregular forms the suffix stripper cannot handle.
IRREGULAR: dict[str, str] = {
    "grew": "grow", "grown": "grow", "children": "child", "kids": "child",
    "kid": "child", "went": "go", "gone": "go", "left": "leave", "ran": "run",
    "met": "meet", "paid": "pay", "bought": "buy", "made": "make",
    "took": "take", "taken": "take", "held": "hold", "spoke": "speak",
    "wrote": "write", "written": "write", "drove": "drive", "ate": "eat",
    "drank": "drink", "sent": "send", "built": "build", "knew": "know",
    "people": "person", "men": "man", "women": "woman", "wife": "spouse",
    "husband": "spouse", "partner": "spouse", "daily": "day",
    "nightly": "night", "weekly": "week", "monthly": "month",
}
# Synonyms mapped onto one stem so paraphrases share content words.
SYNONYMS: dict[str, str] = {
    "requir": "need", "resid": "live", "base": "live", "begin": "start",
    "join": "start", "employ": "work", "auto": "automat", "dish": "food",
    "meal": "food", "talk": "meet", "call": "meet", "repo": "repository",
    "db": "database", "postgr": "postgres", "postgresql": "postgres",
    "config": "configuration", "2fa": "two-factor", "mfa": "two-factor",
    "gonna": "go",
}

# Lexical verbs that end the subject phrase ("Lena's sister | moved ...").
VERBS: frozenset[str] = frozenset(
    _words("""live lives work works move moves grow grows use uses run runs drink
    drinks smoke smokes listen listens last lasts happen happens require
    requires need needs pay pays want wants join joins start starts expire
    expires leave leaves land lands come comes celebrate celebrates review
    reviews host hosts hold holds send sends meet meets eat eats own owns
    speak speaks study studies teach teaches play plays drive drives take
    takes go goes visit visits call calls know knows wear wears write writes
    read reads build builds prefer prefers like likes love loves hate hates
    enjoy enjoys dislike dislikes avoid avoids quit stop stops cost costs
    earn earns weigh weighs support supports allow allows store stores
    point points listen connect connects deploy deploys""")
)
AUX: frozenset[str] = frozenset(
    _words("""is are was were be been am has have had do does did will would shall
    should can could may might must""")
)

TOKEN_RE = re.compile(
    r"""
    (?P<iso>\d{4}-\d{1,2}-\d{1,2})
  | (?P<clock>\d{1,2}:\d{2}(?:\s?[ap]\.?m\b\.?)?)
  | (?P<ampm>\d{1,2}\s?[ap]\.?m\b\.?)
  | (?P<money>[$€£]\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[kKmM]?\b)
  | (?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:%|[kK]\b)?)
  | (?P<word>[^\W\d_][\w'’-]*|[#/])
    """,
    re.VERBOSE,
)
