"""The code page of a text file that is not UTF-8, told from the file: a note, a chat or an address book saved
before UTF-8 by Windows ("ANSI": Windows-1252 in Western Europe, 1250 in Central Europe, 1251 where Cyrillic is
written, 1253 in Greece, 1254 in Turkey, 1257 in the Baltics, 1255 in Israel, 1256 where Arabic is written, 874 in
Thailand), by Linux or old mail (KOI8-R, ISO-8859-2) or by a Japanese, Chinese or Korean system (Shift_JIS, GBK,
Big5, EUC-KR).

Reading every such file as Windows-1252 turned a Russian note into "Íàñîñ äëÿ" and a Polish one into "¯ó³te
p³ytki". Each candidate decodes the sample and is judged by what it makes of it, with no corpus:

* a single-byte code page loses points for what no language writes — a symbol or a superscript inside a word
  ("p³ytki"), a word of two scripts ("Mьller", "cafי"), a mark of one script on a letter of another, a word whose
  letters are mostly accented Latin ones ("Íàñîñ": the Cyrillic of another code page), accented Latin letters no
  one language's alphabet holds together ("õ" beside "ö" and "á" is Hungarian's "ő" misread: :data:`ALPHABETS`),
  a byte the code page does not define — and gains for words with letters beyond ASCII that are common words of
  a language (``stop-words``' lists: "для", "και", "před"; its Hungarian and Turkish lists are themselves stored
  misread as Windows-1252, "elõ", "þey", and are read back, :func:`_stopwords`);
* a multi-byte one counts only when the sample decodes with no error and reads as its script: kana in Japanese,
  Hangul in Korean, the commonest Han characters in Chinese (random bytes make rare ones).

Windows-1252 wins every tie (a file of ASCII and "café" stays what it always was here)."""

from __future__ import annotations

import codecs
import unicodedata
from collections import Counter
from functools import lru_cache

SAMPLE_BYTES = 256 * 1024  # enough words to judge; a 40 MB chat is not read twice for its code page

# (codec, the name said in the warning): tried in this order, the first one wins a tie
SINGLE_BYTE = (("cp1252", "Windows-1252"), ("cp1250", "Windows-1250"), ("cp1251", "Windows-1251"),
               ("cp1253", "Windows-1253"), ("cp1254", "Windows-1254"), ("cp1257", "Windows-1257"),
               ("cp1255", "Windows-1255"), ("cp1256", "Windows-1256"), ("cp874", "Windows-874"),
               ("koi8_r", "KOI8-R"), ("iso8859_2", "ISO-8859-2"))
MULTI_BYTE = (("cp932", "Shift_JIS"), ("gb18030", "GBK"), ("big5", "Big5"), ("cp949", "EUC-KR"))

# The commonest Han characters of running Chinese text (simplified, then traditional forms); about a quarter of a
# Chinese text, a few in a thousand of the Han characters bytes of another code page happen to make.
_COMMON_HAN = frozenset("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年就那要下以生会自着去之过家学对可"
                        "她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同"
                        "這來國個說們為時會過學對裡後麼發當開無見經頭")
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "HEBREW", "ARABIC", "THAI")
_ORDINALS = "ªº"  # letters to Unicode, an ordinal's mark to a reader: "ºi" is Romanian "şi" in another code page
# stop-words' Greek list is Ancient Greek's ("ἀλλά", "καί"): the commonest words of Modern Greek, written here
_MODERN_GREEK = frozenset("και το τα η ο οι θα να με σε για την της του των στο στη στην στον από είναι δεν που αυτό "
                          "μου σου μας σας ένα μια αλλά όταν πολύ".split())


# The letters beyond ASCII of the languages written in Latin letters (lowercase): text in one language, or in a
# few that share letters, has its accented letters inside one of these; the misreading of another code page
# mixes letters of several ("Gyõzõ": Hungarian's á, é and ö with Portuguese's õ)
ALPHABETS = tuple(frozenset(letters) for letters in (
    "àâæçéèêëîïôœùûüÿ",  # French
    "äöüß", "áéíñóúü", "àáâãçéêíóôõú", "àèéìíîòóùú", "àçèéíïòóúü", "áéèëïóöü",  # German .. Dutch
    "æøåéó", "åäöé", "äöåšž", "áðéíóúýþæö", "áðíóúýæø",  # Danish/Norwegian, Swedish, Finnish, Icelandic, Faroese
    "äöõüšž", "āčēģīķļņšūž", "ąčęėįšųūž",  # Estonian, Latvian, Lithuanian
    "ąćęłńóśźż", "áčďéěíňóřšťúůýž", "áäčďéíĺľňóôŕšťúýž", "čćđšž", "áéíóöőúüű",  # Polish .. Hungarian
    "ăâîșşțţ", "çë", "çğıöşüâîû", "çəğıöşü", "ċġħżàèìòù",  # Romanian, Albanian, Turkish, Azerbaijani, Maltese
    "áéíóú", "âêîôûŵŷáéíóúäëïöü", "êëïôûéèáóú", "ĉĝĥĵŝŭ", "çêîşû",  # Irish, Welsh, Afrikaans, Esperanto, Kurdish
))
# stop-words' lists stored as Windows-1252 read from their language's code page ("elõ" for "elő")
_MISREAD_LISTS = {"hungarian": "cp1250", "turkish": "cp1254"}


def _read_back(word: str, codec: str) -> str:
    """A word of a list stored misread as Windows-1252, in the code page it was written in."""
    try:
        return word.encode("cp1252").decode(codec)
    except UnicodeError:  # a letter 1252 has not: the word was stored right
        return word


# Common words with letters beyond ASCII of languages stop-words lacks (Croatian, Serbian and Bosnian in Latin
# letters, Slovenian, Lithuanian, Latvian, Estonian)
_MORE_COMMON = frozenset("će ću ćeš ćemo ćete što šta već još čak među može ništa kuća hvala ovdje "
                         "že še če tudi vendar "
                         "į iš už ką čia dėl tačiau būti jį ją šis ši šį aš ačiū tėvas "
                         "arī kā tā jā nē lūdzu vēl būs mēs jūs tās "
                         "ära või üks kõik nüüd täna hästi aitäh mõni".split())
# Thai is written without spaces between words: its commonest words are looked for inside the text
_THAI_COMMON = ("ที่", "และ", "ไม่", "เป็น", "ของ", "จะ", "ได้", "ใน", "มี", "ให้", "แล้ว", "กับ", "นะ", "ครับ", "ค่ะ",
                "ก็", "ว่า", "มา", "ไป", "นี้", "อยู่", "เรา", "ฉัน", "เขา")


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    """The common words of every language ``stop-words`` lists that hold a letter beyond ASCII (its Hebrew
    words come quoted, '"אבל",': the quotes are no letters)."""
    try:
        import stop_words
    except ImportError:  # pragma: no cover - a dependency; without it only the penalties judge
        return _MODERN_GREEK | _MORE_COMMON
    words: set[str] = set()
    for lang in stop_words.AVAILABLE_LANGUAGES:
        codec = _MISREAD_LISTS.get(lang)
        for word in stop_words.get_stop_words(lang):
            word = word.strip("\"',\ufeff ")
            if not word.isascii():
                words.add(_read_back(word, codec).lower() if codec else word.lower())
    return frozenset(words | _MODERN_GREEK | _MORE_COMMON)


@lru_cache(maxsize=4096)  # asked of every letter of a 256 KB sample, eleven times: a few hundred distinct ones
def _script(ch: str) -> str:
    """LATIN, CYRILLIC, GREEK, HEBREW, ARABIC, THAI or "" (other) of a letter or mark, by its Unicode name."""
    if ch.isascii():
        return "LATIN"
    name = unicodedata.name(ch, "")
    return next((s for s in _SCRIPTS if name.startswith(s)), "")


def _words(text: str) -> list[str]:
    """The runs of letters of ``text`` (the words a code page's decoding makes); a format mark between letters
    (U+200F: 1256's byte for Romanian's "ţ") does not end a word."""
    out: list[str] = []
    word: list[str] = []
    for ch in text:
        if ch.isalpha():
            word.append(ch)
        elif word and unicodedata.category(ch) == "Cf":
            continue
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out


def _foreign_letters(text: str) -> int:
    """Accented Latin letters of ``text`` outside the one alphabet (:data:`ALPHABETS`) that holds most of them."""
    latin: dict[str, int] = {}
    for ch, n in Counter(text).items():  # each distinct character once
        if not ch.isascii() and ch.isalpha() and ch not in _ORDINALS and _script(ch) == "LATIN":
            low = ch.lower()
            low = low if len(low) == 1 else ch  # "İ".lower() is two characters
            latin[low] = latin.get(low, 0) + n
    if not latin:
        return 0
    return sum(latin.values()) - max(sum(latin.get(ch, 0) for ch in alphabet) for alphabet in ALPHABETS)


def single_byte_score(text: str) -> int:
    """Points of a single-byte decoding (see the module's docstring): common words gained, oddities lost."""
    bad = text.count("\ufffd") * 3 + _foreign_letters(text)
    for i, ch in enumerate(text):
        if ch.isascii() or (ch.isalpha() and ch not in _ORDINALS):
            continue
        cat = unicodedata.category(ch)
        if cat == "Mn":
            before = text[i - 1] if i else " "
            if before.isalpha() and _script(before) != _script(ch):
                bad += 2  # a Thai vowel on a Latin letter ("caf้"): another code page's letter
            continue
        if cat == "Cc":
            bad += 3  # a C1 control: a byte this code page leaves undefined
        elif cat[0] == "S" or cat == "No" or ch in _ORDINALS or ch in "¶§":  # (¶ and § are punctuation to Unicode)
            before = text[i - 1] if i else " "
            after = text[i + 1] if i + 1 < len(text) else " "
            if (before.isalpha() and before not in _ORDINALS) or (after.isalpha() and after not in _ORDINALS):
                bad += 2  # "p³ytki", "¯ółte", "ºi": a symbol against a letter (after a digit, "1º" is an ordinal)
    common = _stopwords()
    good = lone = wide = 0
    for word in _words(text):
        if word.isascii():
            continue
        wide += 1
        if len(word) == 1:
            lone += 1
        scripts = {_script(ch) for ch in word}
        if len(scripts - {""}) > 1:
            bad += 2
        bad += sum(1 for a, b in zip(word, word[1:]) if a.islower() and b.isupper())  # "рсщЯ", "еїЎ"
        accented = sum(1 for ch in word if not ch.isascii() and _script(ch) == "LATIN")
        if accented >= 2 and accented * 2 > len(word):
            bad += 1
        if word.lower() in common:
            good += 3
    if lone * 2 > wide:
        bad += lone  # letters standing alone between symbols: the halves of another code page's characters
    if any("\u0e01" <= ch <= "\u0e5b" for ch in text):  # Thai: its common words, or it is some other text misread
        found = sum(text.count(word) for word in _THAI_COMMON)
        good, bad = (good + 3 * found, bad) if found else (good, bad + 2)
    return good - bad


def _multi_byte_score(codec: str, text: str) -> int | None:
    """Points of a multi-byte decoding, or None when it does not read as its script."""
    wide = [ch for ch in text if not ch.isascii() and ch.isalpha()]
    if len(wide) < 2:
        return None
    kana = sum(1 for ch in wide if "\u3040" <= ch <= "\u30ff")
    hangul = sum(1 for ch in wide if "\uac00" <= ch <= "\ud7a3")
    han = sum(1 for ch in wide if "\u4e00" <= ch <= "\u9fff")
    common = sum(1 for ch in wide if ch in _COMMON_HAN)
    if codec == "cp932":
        return kana + common if kana * 10 >= len(wide) and kana + han == len(wide) else None
    if codec == "cp949":
        return hangul if hangul * 10 >= len(wide) * 6 else None
    return common if han == len(wide) and common * 20 >= han else None


def guess(sample: bytes) -> tuple[str, str]:
    """(codec, name) to read a file that is not UTF-8 with, judged from ``sample`` (its first bytes)."""
    sample = sample[:SAMPLE_BYTES]
    scored: list[tuple[int, str, str]] = []
    for codec, name in SINGLE_BYTE:
        scored.append((single_byte_score(sample.decode(codec, "replace")), codec, name))
    best = max(scored, key=lambda s: s[0])  # max keeps the first of a tie
    if best[0] >= 0:
        return best[1], best[2]  # a single-byte code page reads it without an oddity
    for codec, name in MULTI_BYTE:
        decoder = codecs.getincrementaldecoder(codec)("strict")
        try:
            text = decoder.decode(sample, final=len(sample) < SAMPLE_BYTES)  # a cut sample may end mid-character
        except UnicodeDecodeError:
            continue
        points = _multi_byte_score(codec, text)
        if points is not None and points > 0:
            return codec, name  # the first that reads as its script: kana are Japanese only, Han alone Chinese
    return best[1], best[2]
