"""How much a chat turn can answer, and the priors scaled by it (issue 19, round 8).

The person, reply and time priors lift a turn for *who* wrote it, *what* it follows and
*whether* it speaks of time, not for what it says. Asked "how long did Priya say the visa
takes?", Priya's "3 months lol" is right, but her "haha ok" and "omg" climb too, only because
she wrote them: a reaction (brief_reactions.is_reaction: at most one content word and no
digit, the brief's own detector, reused) answers nothing, so it gets none of those priors.
Past that, a turn earns them with its words: ``min(1, words / answer_words)`` (a digit counts:
"3 months lol" is three words). ``RecallConfig.answer_words`` 0 leaves every prior whole.
"""

from __future__ import annotations

from memengine.records import Candidate
from memengine.text import bare_text

# the reaction detector's own length cap: a longer text is never a reaction, and never read here
_REACTION_MAX_CHARS = 160
# A turn without a content word is short ("haha ok", "omg lol", "ok ok see u then"): one of more than this
# many characters (its stamp and "Author: " label aside) is taken to have one, unread (a warm recall reads
# ~70 candidates by the person a question names: ~0.5 ms at 100k without this test).
ANSWERLESS_MAX_CHARS = 60


def answer_share(m: Candidate, answer_words: int) -> float:
    """The share (0..1) of the answer-blind priors ``m`` keeps: its content words over ``answer_words``
    (at most 1; a digit counts as all of them), as the brief's reaction detector counts them
    (brief_reactions.content_words). Only chat turns (a thread) are scaled: a note keeps 1."""
    if answer_words <= 0 or m.thread is None:
        return 1.0
    # a turn longer than the reaction detector's cap has content words (no need to read them); at 1, the
    # only question is whether it has none, and a turn of more than ANSWERLESS_MAX_CHARS has some
    body = len(m.content) - (m.content.find("]") + 1 if m.content.startswith("[") else 0) - len(m.author or "")
    if body > (ANSWERLESS_MAX_CHARS if answer_words == 1 else _REACTION_MAX_CHARS) + 2:
        return 1.0
    bare = bare_text(m.content, m.author)
    if len(bare) > _REACTION_MAX_CHARS:
        return 1.0
    # (imported here: the brief's module loads the summariser's word lists, ~20 ms a cold call;
    # a recall that scales no prior never pays it)
    from memengine.brief_reactions import content_words

    return content_words(bare, answer_words) / answer_words
