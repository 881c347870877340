"""A new holder of a role named first: "Mrs. Okafor is now our landlord", "Maria replaced Daniel
as CFO", "Kenji took over the project from Olga", and their French, Spanish, German and
Portuguese forms.

The fact they update names the role first ("Our landlord is Mr. Patel"): its frame is the
role, its value the person. These sentences put the new value (a name) in the subject
position, where memengine/facts.py reads the subject. :func:`reorder` puts the tokens back in
the role-first order before anything else is read:

- an identity stated backwards, a name before a copula and a definite role after it ("X is
  now our landlord") reads "our landlord is now X" (a role with "the", "our", "my", or a bare
  role attached to something: "responsable du projet");
- "X replaced Y as ROLE" reads "ROLE replaced Y with X", and "X took over THING from Y" reads
  "THING replaced Y with X": memengine/fact_change.py then reads Y as the old value and X as
  the new one.

Nothing is reordered when the sentence says "also": a second holder adds, it replaces no one.
Pure functions over tokens: no SQL, no I/O.
"""

from __future__ import annotations

from memengine import fact_lexicon as L
from memengine import fact_when
from memengine.fact_change import ADDITIVE, NOW, REPLACE_VERBS
from memengine.fact_lexicon import _set, fold
from memengine.fact_tokens import Tok

LANGS = ("en", "fr", "es", "de", "pt", "it")
# Words before a name that are part of it: "Dr. Novak", "la doctora Vega", "Herr Braun".
TITLES = _set("dr mr mrs ms miss prof professor doctor", "docteur madame monsieur mme mlle m", "doctora doctor senor "
              "senora don dona", "frau herr", "doutor doutora senhor senhora dona",
              "dottor dottore dottoressa signor signore signora sig")
# Definite determiners and possessives that make the complement one role ("our landlord").
DEFINITE = _set("the our my your", "le la les l notre nos mon ma mes votre", "el la los las nuestro nuestra mi mis "
                "su", "der die das den dem unser unsere unseren unserem unserer mein meine meinen meinem meiner",
                "o a os as nosso nossa meu minha", "il lo la i gli le nostro nostra mio mia")
# A bare role is one only when attached to something: "responsable du projet", "jefe de ventas".
GENITIVE = _set("of", "de du des d", "de del", "von vom der des", "de do da dos das", "di del della dei degli delle")
# (one set for every language: a short sentence's language is often guessed wrong)
AS_WORDS = _set("as comme como als")
FROM_WORDS = _set("from de du d del von vom do da")
AUX = frozenset().union(*L.LANG_AUX.values())
WITH_WORD = dict(zip(LANGS, ("with", "par", "con", "mit", "com", "con")))
# "took over" (two tokens in English), "a repris", "asumió", "übernommen", "assumiu".
TAKE_OVER = _set("repris reprend reprit", "asumio asume", "ubernommen ubernahm ubernimmt", "assumiu assume")
TAKE_EN = _set("took take takes taken taking")
SKIP = _set("now also", "maintenant desormais", "ahora", "jetzt nun", "agora", "adesso ora")
_ADVERBS = NOW | SKIP


def _key(t: Tok) -> str:
    return fold(t.low) if t.kind == "word" else ""


def _is_name_phrase(toks: list[Tok]) -> bool:
    """Only names (and titles, articles) and at least one name: "Dr. Novak", "la doctora Vega"."""
    content = [t for t in toks if t.kind == "word" and _key(t) not in L.STOPWORDS]
    if not content or any(t.kind != "word" for t in toks):
        return False
    return all(t.text[:1].isupper() or _key(t) in TITLES for t in content) and content[-1].text[:1].isupper()


def _copula(toks: list[Tok], lang: str) -> int | None:
    for i, t in enumerate(toks):
        k = _key(t)
        if k in L.LANG_COPULA[lang] and t.orig != "à" and not (k in L.COPULA_NEEDS_ACCENT and t.orig == k):
            return i
    return None


def _inverted_identity(toks: list[Tok], lang: str) -> list[Tok] | None:
    """"X is now our landlord" -> "our landlord is now X"."""
    c = _copula(toks, lang)
    if c is None or c == 0:
        return None
    start = 0
    while start < c and _key(toks[start]) in _ADVERBS:
        start += 1  # "Ahora | la doctora Vega es ..."
    if start == c and c > 0:
        return _adverb_first(toks, c, lang)  # "Jetzt ist Herr Braun mein Chef"
    subject = toks[start:c]
    if not _is_name_phrase(subject):
        return None
    j = c + 1
    while j < len(toks) and _key(toks[j]) in _ADVERBS:
        j += 1
    when = fact_when.trailing(toks)
    role = toks[j:when]
    if not _one_role(role, lang):
        return None
    return toks[:start] + role + toks[c:j] + subject + toks[when:]


def _one_role(role: list[Tok], lang: str) -> bool:
    """Whether ``role`` names one role: "our landlord", "responsable du projet", "my GP"."""
    if not role or role[0].kind != "word":
        return False
    acronym = role[-1].text.isupper() and 2 <= len(role[-1].text) <= 4 and not any(_key(t) in GENITIVE for t in role)
    if any(t.kind != "word" or t.text[:1].isupper() and lang != "de" and not (acronym and t is role[-1])
           for t in role):
        return False  # "X is the manager of Acme": two names, no single role (German writes nouns so)
    # ("Ana is a doctor", "Ana es médica": a kind, not the one role)
    return _key(role[0]) in DEFINITE or any(_key(t) in GENITIVE for t in role[1:])


def _adverb_first(toks: list[Tok], c: int, lang: str) -> list[Tok] | None:
    """"Jetzt ist Herr Braun mein Chef" (an adverb, the copula, the name, the role) -> "mein Chef ist jetzt Herr
    Braun"."""
    j = c + 1
    while j < len(toks) and toks[j].kind == "word" and (toks[j].text[:1].isupper() or _key(toks[j]) in TITLES
                                                         or _key(toks[j]) in ("a", "o", "le", "la", "el")):
        j += 1
        if j < len(toks) and _key(toks[j]) in DEFINITE and _key(toks[j]) not in ("a", "o", "le", "la", "el"):
            break  # "Herr Braun | mein Chef"
    subject = toks[c + 1:j]
    when = fact_when.trailing(toks)
    role = toks[j:when]
    if not subject or not _is_name_phrase(subject) or not _one_role(role, lang):
        return None
    return role + [toks[c]] + toks[:c] + subject + toks[when:]


def _replaced_as(toks: list[Tok], lang: str) -> list[Tok] | None:
    """"X replaced Y as ROLE" -> "ROLE replaced Y with X"; "X took over T from Y" -> "T replaced Y with X"."""
    n = len(toks)
    for v, t in enumerate(toks):
        k = _key(t)
        take_en = k in TAKE_EN and v + 1 < n and _key(toks[v + 1]) == "over"
        if k not in REPLACE_VERBS and k not in TAKE_OVER and not take_en:
            continue
        link = AS_WORDS if k in REPLACE_VERBS else FROM_WORDS  # "as ROLE" / "from OLD"
        end = v
        while end > 0 and _key(toks[end - 1]) in AUX:
            end -= 1  # "a remplacé", "has replaced"
        if v == n - 1 and end == v:  # verb last: "Lena hat | Jonas als Teamleiter | ersetzt"
            aux = next((j for j in range(v) if _key(toks[j]) in AUX), None)
            a = next((j for j in range(aux + 1, v) if _key(toks[j]) in link), None) if aux is not None else None
            if aux is None or a is None:
                return None
            first, second, subject = toks[aux + 1:a], toks[a + 1:v], toks[:aux]
        else:
            after = v + 2 if take_en else v + 1
            a = next((j for j in range(after, min(n, after + 6)) if _key(toks[j]) in link), None)
            if a is None:
                continue
            first, second, subject = toks[after:a], toks[a + 1:], toks[:end]
        if link is AS_WORDS:  # replaced OLD as ROLE
            return _as_replacement(second, first, subject, lang)
        return _as_replacement(first, second, subject, lang)  # took over THING from OLD
    return None


def _as_replacement(role: list[Tok], old: list[Tok], new: list[Tok], lang: str) -> list[Tok] | None:
    old = [t for t in old if _key(t) != "a" or lang != "es"]  # (Spanish "sustituyó a Andrés": the personal "a")
    if not role or not old or not _is_name_phrase(new) or not _is_name_phrase(old):
        return None
    replaced = Tok("word", "replaced", "replaced", orig="replaced")
    with_ = Tok("word", WITH_WORD[lang], WITH_WORD[lang], orig=WITH_WORD[lang])
    return role + [replaced] + old + [with_] + new


def reorder(toks: list[Tok], lang: str, keys: frozenset[str] | None = None) -> list[Tok]:
    """The tokens in role-first order (see the module docstring); ``toks`` itself when no rule applies.
    ``keys``: the folded words of ``toks``, when the caller has them."""
    keys = keys if keys is not None else frozenset(_key(t) for t in toks)
    if lang not in WITH_WORD or keys & ADDITIVE:
        return toks
    if keys & _ROLE_VERBS:
        replaced = _replaced_as(toks, lang)
        if replaced is not None:
            return replaced
    if not keys & _COPULAS or not any(t.kind == "word" and t.text[:1].isupper() for t in toks[:1]):
        return toks  # (an inverted identity starts with a name and has a copula)
    return _inverted_identity(toks, lang) or toks


_ROLE_VERBS = REPLACE_VERBS | TAKE_OVER | TAKE_EN
_COPULAS = frozenset().union(*L.LANG_COPULA.values())
