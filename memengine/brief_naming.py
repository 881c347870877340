"""The names of the brief's topics, chosen together (split out of memengine/brief.py by brief36: 805 lines).

A topic shown whole takes the label consolidate gave its cluster; a part of a large cluster, a cluster whose label is
an older keyword list, names only a person or the user, or shares a word with a name given is named from the pool's
members of it (memengine/topic_names.py), each name widened when it is one word (memengine/brief_heading.py), and a
short exchange that shares no word named by its opening line (memengine/brief_opener.py). No two topics share a name
while another good name is left. :class:`Shells` is a dict of topics by (cluster, part), each made and named when
first asked for; brief.py says what a topic is (``make``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set
from itertools import chain
from typing import TypeVar

from memengine import brief_heading, brief_headphrase, brief_opener, summarize, topic_names, topic_people, topic_rank
from memengine.brief_pool import Store
from memengine.brief_text import WORD as _WORD

NAME_SOURCE_CHARS = 400  # a topic name is taken from the first this-many characters of its members
LANGUAGE_SAMPLE = 300  # (brief26) members of the pool read to tell its language
MIXED = topic_names.MIXED  # the name of a group whose members share no word run
COMMON_NAME_SHARE = 0.25  # (brief27) a word said in more than this share of the pool names no topic...
COMMON_NAME_MIN = 20  # ...in a pool of at least this many memories (the user's name in an assistant's notes)

T = TypeVar("T")


class Shells(dict[tuple[int | None, int], T]):
    """A Topic per (cluster, part) of the pool, named when first asked for (memengine.topic_names).

    A cluster shown whole takes the label consolidate gave it (named from all its members, and what ``clusters``/
    ``browse`` show); a part of a large cluster, or a cluster whose label is an older keyword list, is named from the
    pool's members of it. No two topics share a name while another good name is left."""

    def __init__(self, store: Store, pool: list[tuple[int, str, str | None, str, int | None, float]],
                 key: list[tuple[int | None, int]], named: Set[str] = frozenset()) -> None:
        super().__init__()
        self.members: dict[tuple[int | None, int], list[str]] = {}
        self.chat: set[tuple[int | None, int]] = set()  # (brief37) the groups holding a chat's turns (a thread)
        for p, k in zip(pool, key):
            # a name comes from what the members begin with (a pasted log can run to megabytes)
            self.members.setdefault(k, []).append(p[1][:NAME_SOURCE_CHARS])
            if p[3].split("/", 1)[-1]:
                self.chat.add(k)
        parts = Counter(k[0] for k in self.members)
        self.parts = parts
        whole = [c for c, n in parts.items() if c is not None and n == 1]
        self.labels: dict[int, tuple[str | None, int]] = {}
        self.conn = store.conn  # (brief35) a topic of no shared word is named by its exchange's opening line
        for chunk in range(0, len(whole), 500):
            part = whole[chunk: chunk + 500]
            self.labels.update((int(r[0]), (r[1], int(r[2] or 0))) for r in store.conn.execute(
                f"SELECT id, label, member_count FROM clusters WHERE id IN ({','.join('?' * len(part))})", part))
        # people (authors, contacts, aliases: known_people's lower-cased keys) and chat roles name no topic
        names = set(store.known_people()) | summarize.ROLE_AUTHORS
        self.exclude = names | {w for a in names for w in a.split()} | named
        # (brief30) and the people the groups' texts name (a title, "X and I", a turn calling them), in a declining
        # language the forms of the people's names ("Aniu" of Ania): memengine/topic_people.py, asked of a name chosen
        self.every = [t for ts in self.members.values() for t in ts]
        self.language: list[str | None] = [summarize.detect_language(self.every[:LANGUAGE_SAMPLE])]
        self.inflected = self.language[0] in topic_people.INFLECTED
        fold = topic_names.fold
        self.word_df: Counter[str] = Counter(chain.from_iterable(
            {fold(w) for w in _WORD.findall(t)} for texts in self.members.values() for t in texts))
        self.rarity = topic_names.idf(lambda w: self.word_df[w], sum(len(t) for t in self.members.values()))
        self.stop: dict[int | None, frozenset[str]] = {}
        self.taken: set[str] = set()
        # (brief27) names are chosen together: in how many groups several members say each word (``_named``); and the
        # words of a large share of the pool (the user's own name in an assistant's notes) name no topic at all
        self._saying: Counter[str] | None = None  # (read when a label overlaps a name given: rare)
        self.taken_words: frozenset[str] = frozenset()  # the content words of the names given
        n_texts = sum(len(t) for t in self.members.values())
        self.common = {w for w, n in self.word_df.items() if n > COMMON_NAME_SHARE * n_texts} \
            if n_texts >= COMMON_NAME_MIN else set()

    def __missing__(self, k: tuple[int | None, int]) -> T:
        texts = self.members[k]
        label, size = self.labels.get(k[0], (None, 0)) if k[0] is not None else (None, 0)
        if k[0] not in self.stop:  # the parts of a cluster share its language ("peuvent varier" is no name)
            # (a small group too short to tell its own language reads the pool's stop words too)
            self.stop[k[0]] = summarize.stopwords_for(texts[:50], self.language[0])
        name = topic_people.without_people(lambda: self._named(k, texts, label), self.every, self.exclude,
                                           self.language[0])
        more = None if k[0] is None or self.parts[k[0]] > 1 or size > brief_opener.EXCHANGE_MAX \
            else brief_heading.member_reader(self.conn, k[0])
        if k[0] is not None and k in self.chat:  # (brief37) a heading said in one turn only, quoted: named anew
            name = brief_headphrase.renamed(name, texts, self.stop[k[0]], self.exclude, self.rarity, self.taken,
                                            self.inflected, self.taken_words, more)
        name = brief_heading.widened(name,  # (brief34) one word: the phrase it is said in
            texts, self.stop[k[0]], self.exclude, self.taken_words, more)
        if topic_rank.RANKED and k[0] is not None:  # (brief38) a learned choice among the candidates (off)
            if self._saying is None:
                self._saying = topic_names.groups_saying(self.members.values())
            name = topic_rank.chosen(name, texts, self.stop[k[0]], self.exclude, self.rarity, self.word_df,
                                     len(self.every), self._saying, self.taken, more)
        if name not in (MIXED, topic_names.UNTITLED):
            self.taken.add(name.lower())
            self.taken_words |= topic_names.content_words(name, self.stop[k[0]])
        topic = self.make(k, name, max(size, len(texts)), self.parts[k[0]])
        self[k] = topic
        return topic

    def make(self, k: tuple[int | None, int], name: str, size: int, parts: int) -> T:
        """The topic of group ``k`` named ``name`` (``size`` members, its cluster shown as ``parts``): the caller's."""
        raise NotImplementedError

    def _named(self, k: tuple[int | None, int], texts: list[str], label: str | None) -> str:
        """(brief27) A group's name, chosen with the names already given: consolidate's label for the whole cluster,
        unless it names only a person or the user (``names_nobody``), or shares a word with a name given ("Lisbon
        trip" beside "camping trip"): then the run that tells this group apart from the others (``topic_names.apart``:
        scored down by the other groups that say it), if one is free of the names given, else the label."""
        stop = self.stop[k[0]]
        exclude = self.exclude | self.common
        fit = bool(label) and label != MIXED and ", " not in str(label) and str(label).lower() not in self.taken
        if fit and not topic_names.names_nobody(str(label), exclude, stop):
            if not topic_names.content_words(str(label), stop) & self.taken_words:
                return str(label)
            if self._saying is None:
                self._saying = topic_names.groups_saying(self.members.values())
            other = topic_names.name(texts, stop, exclude, topic_names.apart(
                self.rarity, self._saying, topic_names.said_twice(texts)), self.taken, self.inflected)
            if other in (MIXED, topic_names.UNTITLED) or topic_names.content_words(other, stop) & self.taken_words:
                return str(label)  # no better name: the stored one ("Ship Inn", the party's new venue)
            return other
        # a label naming only a person or the user is named anew without the store's common words; a group with no
        # label (a part of a large cluster, the memories in no topic) as before
        got = topic_names.name(texts, stop, exclude if fit else self.exclude, self.rarity, self.taken, self.inflected)
        # (brief30) the memories in no topic, shown as one group, are many subjects: named only by what a share of them
        # say (split in parts, each part is a subject of its own: named as a topic is)
        if k[0] is not None:  # (brief35) no word shared: what a short exchange's opening line names (brief_opener)
            return brief_opener.renamed(got, self.labels.get(k[0], (None, 0))[1], self.conn, k[0], texts, stop,
                                        self.exclude, self.rarity, self.taken, self.taken_words)
        return got if self.parts[None] > 1 or topic_names.held_by_share(got, texts, stop) else MIXED
