"""Facts that change, fifth round: five kinds of update a probe of unseen pairs still left as two
equal truths, and the look-alikes that must not supersede. Rules in memengine/fact_mood.py (a
question, a plan, an anecdote asserts nothing), memengine/fact_dropped.py (a possessor or a
frequency dropped when an event changes), memengine/fact_handover.py (a role handed over in two
clauses), "from now on" markers in memengine/fact_lexicon.py and memengine/fact_cue.py (an owner
only the new sentence names)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import memory_core as core
from memengine import fact_cue, fact_mood, facts
from memengine.fact_lexicon import fold

DATA = Path(__file__).parent / "data"
DEV7 = [json.loads(line) for line in (DATA / "fact_pairs_dev7.jsonl").read_text(encoding="utf-8").splitlines()]
HELD7 = [json.loads(line) for line in
         (DATA / "fact_pairs_dev7_heldout.jsonl").read_text(encoding="utf-8").splitlines()]
CLASSES = {"recurring", "place", "marker", "elliptic", "role"}


def test_dev7_shape() -> None:
    for rows in (DEV7, HELD7):
        assert {r["lang"] for r in rows} == {"en", "fr", "es", "de", "pt"}
        assert {r["class"] for r in rows} == CLASSES
        for r in rows:
            assert set(r) == {"a", "b", "label", "kind", "lang", "class"} and (r["kind"] is None) == (not r["label"])
        for cls in CLASSES:  # at least 8 updates and 8 look-alikes of every kind
            assert sum(1 for r in rows if r["class"] == cls and r["label"]) >= 8
            assert sum(1 for r in rows if r["class"] == cls and not r["label"]) >= 8
    assert (len(HELD7), sum(bool(r["label"]) for r in HELD7)) == (102, 51)


def flagged(rows: list[dict[str, object]]) -> tuple[int, int, int]:
    """(updates found, updates, false supersessions) of the rules a write asks before the cue rule."""
    def rules(r: dict[str, object]) -> bool:
        return (facts.compare(str(r["a"]), str(r["b"])) or facts.restated(str(r["a"]), str(r["b"]))) is not None

    found = sum(1 for r in rows if r["label"] and rules(r))
    false = sum(1 for r in rows if not r["label"] and rules(r))
    return found, sum(1 for r in rows if r["label"]), false


def test_dev7_recall_floors() -> None:
    # tuned on dev7 (before this round: 8 of 58 by the rules alone); dev7_heldout never tuned on
    # (before: 6 of 51 by the rules, 21 with the cue rule and 7 false; after: 45 of 51 by the rules)
    assert flagged(DEV7) == (54, 58, 0)
    found, updates, false = flagged(HELD7)
    assert (updates, false) == (51, 0) and found >= 45


@pytest.mark.parametrize("cls", sorted(CLASSES))
def test_dev7_no_false_supersession_in_any_class(cls: str) -> None:
    for r in DEV7 + HELD7:
        if r["class"] == cls and not r["label"]:
            assert facts.compare(r["a"], r["b"]) is None and facts.restated(r["a"], r["b"]) is None, r
            assert fact_cue.detect(r["a"], r["b"], 0.95) is None, r


# --------------------------------------------------------------------------- what is not asserted

@pytest.mark.parametrize(("text", "mood"), [
    ("Has the team sync been moved to Thursday?", "question"),
    ("Was the board meeting pushed to April", "question"),
    ("Est-ce que la piscine ouvre désormais à 7h", "question"),
    ("¿La clase se ha cambiado al viernes", "question"),
    ("Yoga class could be changed to Fridays if enough people agree", "hypothesis"),
    ("We might move the printer to the living room", "hypothesis"),
    ("Quizás a partir de ahora la reunión sea los miércoles", "hypothesis"),
    ("Vielleicht ist die Sprechstunde künftig mittwochs", "hypothesis"),
    ("Se o João se reformar, a Ana será a minha contabilista", "hypothesis"),
    ("The all-hands was once moved to Thursday", "anecdote"),
    ("We used to put the wedding photos in the living room", "anecdote"),
    ("Letztes Jahr wurde der Jour fixe einmal verschoben", "anecdote"),
    ("Antigamente a aula era às quintas", "anecdote"),
    ("The team sync has been moved to Thursdays at 11am", ""),
    ("The class is once a week now, on Fridays", ""),  # a frequency, not an anecdote
    ("La clase de yoga se ha cambiado a los viernes", ""),  # reflexive "se", not "if"
    ("Sí, ahora la reunión es los miércoles", ""),  # "sí" is yes
    ("O João reformou-se, e agora a Ana é a minha contabilista", ""),
])
def test_mood(text: str, mood: str) -> None:
    assert fact_mood.unasserted(text) == mood


def test_what_is_not_asserted_never_supersedes() -> None:
    old = "Our weekly team sync is on Tuesdays at 10am"
    assert facts.compare(old, "Team sync has been moved to Thursdays at 11am") is not None
    for new in ("Has the team sync been moved to Thursdays at 11am?", "Team sync might be moved to Thursdays",
                "Team sync was once moved to Thursdays at 11am"):
        assert facts.compare(old, new) is None and fact_cue.detect(old, new, 0.95) is None, new


# --------------------------------------------------------------------------- "from now on"

@pytest.mark.parametrize(("old", "new", "kind"), [
    ("Der Yogakurs ist donnerstags um 19 Uhr", "Ab sofort ist der Yogakurs freitags um 18 Uhr", "date"),
    ("Die Bibliothek schließt um 20 Uhr", "Künftig schließt die Bibliothek um 18 Uhr", "time"),
    ("Die Sprechstunde ist montags", "Ab jetzt ist die Sprechstunde mittwochs", "date"),
    ("La piscine ouvre à 8h", "À partir de maintenant, la piscine ouvre à 7h", "time"),
    ("Le bureau est à Lyon", "Dorénavant le bureau est à Grenoble", "place"),
    ("El alquiler es de 700 euros", "A partir de ahora el alquiler es de 750 euros", "number"),
    ("La clase de inglés es los lunes", "Desde ahora la clase de inglés es los martes", "date"),
    ("O ginásio abre às 7h", "A partir de agora o ginásio abre às 6h", "time"),
])
def test_from_now_on_in_five_languages_supersedes(old: str, new: str, kind: str) -> None:
    v = facts.compare(old, new)
    assert v is not None and v.kind == kind, v


@pytest.mark.parametrize(("old", "new"), [
    ("Der Yogakurs ist donnerstags um 19 Uhr", "Ab sofort gibt es auch einen Pilateskurs freitags"),
    ("Die Bibliothek schließt um 20 Uhr", "Künftig schließt das Café um 18 Uhr"),
    ("Le cours de danse est le mardi", "Désormais le cours de danse de ma sœur est le jeudi"),
    ("La clase de inglés es los lunes", "Desde ahora la clase de alemán es los martes"),
    ("O ginásio abre às 7h", "A partir de agora a piscina abre às 6h"),
])
def test_from_now_on_about_something_else_does_not(old: str, new: str) -> None:
    assert facts.compare(old, new) is None and fact_cue.detect(old, new, 0.95) is None


def test_a_ligature_folds_like_its_letters() -> None:
    assert fold("sœur") == "soeur" and fold("Cæsar") == "caesar" and fold("Straße") == "straße"


# --------------------------------------------------------------------------- a shorter name for the event

@pytest.mark.parametrize(("old", "new"), [
    ("Mum's physio appointment is on Tuesdays at 11am", "Physio appointment has been changed to Wednesdays at 9am"),
    ("Our weekly staff meeting is on Mondays at 9am", "Staff meeting has been moved to Tuesdays at 10am"),
    ("Jake's guitar lesson is on Thursdays at 6pm", "Guitar lesson has been moved to Fridays at 6pm"),
    ("La clase de natación de mi hija es los martes a las 17:00",
     "La clase de natación se ha cambiado a los jueves a las 18:00"),
    ("Le cours de judo de Léa est le mercredi à 14h", "Le cours de judo a été déplacé au vendredi à 17h"),
    ("Die wöchentliche Teambesprechung ist montags um 9 Uhr", "Die Teambesprechung wurde auf Dienstag 10 Uhr verschoben"),
])
def test_a_possessor_or_frequency_dropped_by_a_change_supersedes(old: str, new: str) -> None:
    assert facts.compare(old, new) is not None


@pytest.mark.parametrize(("old", "new"), [
    ("Mum's physio appointment is on Tuesdays at 11am", "Dad's physio appointment has been changed to Wednesdays"),
    ("Mum's physio appointment is on Tuesdays at 11am", "My physio appointment has been changed to Wednesdays"),
    ("Jake's guitar lesson is on Thursdays at 6pm", "Piano lesson has been moved to Fridays at 6pm"),
    ("La clase de natación de mi hija es los martes a las 17:00",
     "La clase de natación de mi hijo se ha cambiado a los jueves"),
    ("The weekly report is due on Mondays", "The monthly report has been moved to Tuesdays"),
    ("Our weekly staff meeting is on Mondays at 9am", "Finance meeting has been moved to Tuesdays at 10am"),
    ("Unser Teammeeting ist montags um 10 Uhr", "Das Teammeeting der Nachbarabteilung wurde auf Dienstag verlegt"),
])
def test_another_owner_or_another_event_does_not(old: str, new: str) -> None:
    assert facts.compare(old, new) is None and fact_cue.detect(old, new, 0.95) is None


# --------------------------------------------------------------------------- a role handed over

@pytest.mark.parametrize(("old", "new", "was", "now"), [
    ("Dr. Patel is my GP", "Dr. Patel retired, so now Dr. Okoro is my GP", "Dr Patel", "Dr Okoro"),
    ("Anna is our scrum master", "Anna moved on and now Ben is our scrum master", "Anna", "Ben"),
    ("My therapist is Dr. Green", "Dr. Green was replaced, and now Dr. Hill is my therapist", "Dr Green", "Dr Hill"),
    ("Our cleaner is Maria", "Maria went back to Portugal, so now Sofia is our cleaner", "Maria", "Sofia"),
    ("Mon coach est Julien", "Julien est parti, donc maintenant Karim est mon coach", "Julien", "Karim"),
    ("Frau Keller ist meine Chefin", "Frau Keller ist gegangen, und jetzt ist Herr Braun mein Chef", "Frau Keller",
     "Herr Braun"),
    ("O Pedro é o nosso treinador", "O Pedro saiu, e agora o Rui é o nosso treinador", "Pedro", "Rui"),
    ("Mi jefe es Andrés Gil", "Andrés Gil se jubiló y ahora mi jefa es Carmen Vidal", "Andres Gil", "Carmen Vidal"),
])
def test_a_holder_who_left_and_the_new_one_supersedes(old: str, new: str, was: str, now: str) -> None:
    v = facts.compare(old, new)
    assert v is not None and v.kind == "slot" and v.reason.endswith(f"{was} -> {now}"), v


@pytest.mark.parametrize(("old", "new"), [
    ("Dr. Patel is my GP", "Dr. Patel retired, so now Dr. Okoro is my mother's GP"),
    ("Anna is our scrum master", "Anna moved on and now Ben is our tech lead"),
    ("Our cleaner is Maria", "Maria was sick, so Sofia cleaned for us last week"),
    ("Mon coach est Julien", "Julien est parti, donc maintenant Karim est le coach de mon frère"),
    ("Frau Keller ist meine Chefin", "Frau Keller ist gegangen, und jetzt ist Herr Braun der Chef meiner Frau"),
    ("O Pedro é o nosso treinador", "O Pedro saiu, e agora o Rui é o nosso fisioterapeuta"),
    ("Our cleaner is Maria", "Tom left, so now Sofia is our cleaner"),  # someone else left
])
def test_another_role_or_a_holder_away_does_not(old: str, new: str) -> None:
    assert facts.compare(old, new) is None and fact_cue.detect(old, new, 0.95) is None


def test_a_name_after_a_copula_is_no_participle() -> None:
    # "Green" ends like a participle ("-en"): it is the name the identity states, not a passive verb
    assert facts.analyse("My therapist is Dr. Green").predicate is None
    assert facts.compare("My therapist is Dr. Green", "Dr. Hill is now my therapist") is not None


def test_a_leaving_and_a_move_is_left_to_the_cue_rule() -> None:
    old, new = "Stefan arbeitet bei Siemens.", "Stefan hat Siemens verlassen und ist zu Bosch gegangen."
    v = fact_cue.detect(old, new, 0.8)
    assert v is not None and "bosch" in v.reason


# --------------------------------------------------------------------------- the store

def test_round5_updates_supersede_at_write_time(store: core.MemoryStore) -> None:
    gp = store.store("Dr. Patel is my GP").id
    physio = store.store("Mum's physio appointment is on Tuesdays at 11am").id
    gym = store.store("Das Training ist dienstags um 18 Uhr").id
    assert store.store("Dr. Patel retired, so now Dr. Okoro is my GP").supersedes == [gp]
    assert store.store("Physio appointment has been changed to Wednesdays at 9am").supersedes == [physio]
    assert store.store("Ab sofort ist das Training donnerstags um 19 Uhr").supersedes == [gym]


def test_round5_look_alikes_never_supersede_at_write_time(store: core.MemoryStore) -> None:
    ids = [store.store(t).id for t in ("Dr. Patel is my GP", "Mum's physio appointment is on Tuesdays at 11am",
                                       "Das Training ist dienstags um 18 Uhr")]
    for text in ("Dr. Patel retired, so now Dr. Okoro is my mother's GP",
                 "Dad's physio appointment has been changed to Wednesdays at 9am",
                 "Has the physio appointment been changed to Wednesdays?",
                 "Ab sofort gibt es auch ein Training donnerstags um 19 Uhr"):
        res = store.store(text)
        assert res.supersedes == [] and res.superseded_by is None, text
    assert all(store.get(i).valid_to is None for i in ids)


# --------------------------------------------------------------------------- an object put elsewhere

@pytest.mark.parametrize(("old", "new", "was", "now"), [
    ("The spare key is kept under the doormat", "I put the spare key in the mailbox now", "doormat", "mailbox"),
    ("My laptop stays in the office", "I keep my laptop at home now", "office", "home"),
    ("The ladder is in the shed", "I moved the ladder to the basement", "shed", "basement"),
    ("Le vélo est dans la cave", "Je garde le vélo dans le garage maintenant", "cave", "garage"),
    ("Las llaves de casa están en el cajón", "Ahora guardo las llaves de casa en la mochila", "cajón", "mochila"),
    ("Das Fahrrad steht im Flur", "Das Fahrrad stelle ich jetzt in den Keller", "Flur", "Keller"),
    ("Der Werkzeugkasten steht im Keller", "Den Werkzeugkasten bewahre ich jetzt in der Garage auf", "Keller",
     "Garage"),
    ("A bicicleta fica na garagem", "Agora guardo a bicicleta na varanda", "garagem", "varanda"),
])
def test_an_object_put_elsewhere_supersedes(old: str, new: str, was: str, now: str) -> None:
    v = facts.compare(old, new)
    assert v is not None and v.kind == "place" and v.reason.endswith(f"{was} -> {now}"), v


@pytest.mark.parametrize(("old", "new"), [
    ("The car keys are kept on the hook by the door", "I put the house keys in the bowl on the shelf now"),
    ("My laptop stays in the office", "My colleague keeps her laptop at home now"),
    ("The cat's food is in the pantry", "We also keep some cat food in the garage"),
    ("The spare key is kept under the doormat", "I put the spare key in the garage for the winter"),
    ("The bike is in the garage", "I keep the bike in the garage now"),  # the same place
    ("The keys are on the hook", "I put the keys on the table"),  # once, not where they are kept now
    ("The wine is in the cellar", "I moved some of the wine to the kitchen"),
    ("Das Fahrrad steht im Flur", "Den Kinderwagen stelle ich jetzt in den Keller"),
    ("Las llaves de casa están en el cajón", "Ahora guardo las llaves del coche en la mochila"),
])
def test_another_thing_someone_elses_or_a_while_does_not(old: str, new: str) -> None:
    assert facts.compare(old, new) is None and fact_cue.detect(old, new, 0.95) is None


# --------------------------------------------------------------------------- a number without its subject

@pytest.mark.parametrize(("old", "new", "what"), [
    ("I weigh 95 kg", "Down to 88 kg now", "95 -> 88 kg"),
    ("My commute takes 50 minutes", "Down to 30 minutes since we moved", "50 -> 30 min"),
    ("Our internet speed is 100 Mbps", "Up to 500 Mbps since the upgrade", "100 -> 500 mbps"),
    ("The cat weighs 4 kg", "Now at 5 kg", "4 -> 5 kg"),
    ("Mon poids est de 80 kg", "Descendu à 76 kg", "80 -> 76 kg"),
    ("Mi sueldo es de 2000 euros", "Ahora en 2300 euros", "2000 -> 2300 eur"),
    ("Mein Ruhepuls liegt bei 70 bpm", "Jetzt bei 62 bpm", "70 -> 62 bpm"),
    ("O meu peso é 70 kg", "Subiu para 74 kg", "70 -> 74 kg"),
])
def test_a_number_restated_without_its_subject_supersedes(old: str, new: str, what: str) -> None:
    v = facts.restated(old, new)
    assert v is not None and v.kind == "number" and v.reason.endswith(what), v
    assert facts.compare(old, new) is None  # (a write asks, seeing every candidate; consolidate does not)


@pytest.mark.parametrize(("old", "new"), [
    ("My commute takes 50 minutes", "Up to 70 minutes on rainy days"),
    ("I weigh 95 kg", "My brother is down to 88 kg now"),
    ("I weigh 95 kg", "Down to 88 kg during the fast"),
    ("I weigh 95 kg", "Now at 95 kg"),
    ("I weigh 95 kg", "Down to 30 km of range left"),
    ("A typical adult weighs 70 kg", "Now at 78 kg"),  # nobody's number
    ("I weigh 82 kg and my son weighs 30 kg", "Now at 78 kg"),  # whose?
    ("Mein Ruhepuls liegt bei 70 bpm", "Beim Laufen bei 150 bpm"),
])
def test_a_fragment_about_something_else_does_not(old: str, new: str) -> None:
    assert facts.restated(old, new) is None and fact_cue.detect(old, new, 0.95) is None


def test_a_number_without_its_subject_supersedes_only_an_unambiguous_owner(store: core.MemoryStore) -> None:
    me = store.store("I weigh 82 kg").id
    assert store.store("Now at 78 kg").supersedes == [me]
    other = core.MemoryStore(store.path.parent / "two.db", embedder=store.embedder)
    ids = [other.store(t).id for t in ("I weigh 82 kg", "My suitcase weighs 23 kg")]
    res = other.store("Now at 78 kg")
    assert res.supersedes == [] and all(other.get(i).valid_to is None for i in ids)
    other.close()


# --------------------------------------------------------------------------- the duplicate path

@pytest.mark.parametrize(("a", "b"), [
    ("Mi jefe se llama Ivan", "Mi jefe se llama Ivana"),
    ("Mon médecin est le docteur Anna", "Mon médecin est le docteur Annabel"),
    ("Our landlord is Daniel", "Our landlord is Daniela"),
    ("The wifi password is tigertwo", "The wifi password is tigerthree"),
    ("My PIN is dos", "My PIN is tres"),
    ("The rent is 42 dollars a month", "The rent is 43 dollars a month"),
    ("The rent is two dollars a month", "The rent is three dollars a month"),
    ("Ich wohne in Paris", "Ich wohne in Parisi"),
])
def test_a_sentence_differing_in_one_value_is_not_the_same_fact(a: str, b: str) -> None:
    assert not facts.same_fact(a, b) and not facts.same_fact(b, a)


@pytest.mark.parametrize(("a", "b"), [
    ("I'm allergic to peanuts", "I am allergic to peanuts"),
    ("The team is led by Keiko", "The team is led by Keiko Tanaka"),
    ("We deploy on Fridays", "We deploy on Friday"),
])
def test_a_restatement_is_still_the_same_fact(a: str, b: str) -> None:
    assert facts.same_fact(a, b)


def test_a_rate_keeps_its_digits() -> None:
    # "a month" divides by 2.6 million seconds: six decimals made 42 and 43 dollars one value
    v = facts.compare("The rent is 42 dollars a month", "The rent is now 43 dollars a month")
    assert v is not None and v.kind == "number"


def test_minimal_pairs_are_never_merged_with_the_real_model(tmp_path: Path) -> None:
    """Near-identical sentences the shipped model puts past the duplicate bar (cosine >= 0.95):
    each differs in one value, so the second is stored, never merged into the first."""
    from embedder import OnnxEmbedder

    emb = OnnxEmbedder(cache_dir=tmp_path / "model-cache")
    pairs = [("Mi jefe se llama Ivan", "Mi jefe se llama Ivana"),
             ("Mon médecin est le docteur Ivan", "Mon médecin est le docteur Ivana"),
             ("Meine Ärztin heißt Ivan", "Meine Ärztin heißt Ivana"),
             ("Mon médecin est le docteur Anna", "Mon médecin est le docteur Annabel"),
             ("The wifi password is tigertwo", "The wifi password is tigerthree"),
             ("Ich wohne in Paris", "Ich wohne in Parisi")]
    above = 0
    for i, (a, b) in enumerate(pairs):
        va, vb = emb.embed([a, b])
        above += float(va @ vb) >= core.NEAR_DUP_COSINE
        s = core.MemoryStore(tmp_path / f"d{i}.db", embedder=emb)
        first = s.store(a).id
        res = s.store(b)
        assert not res.deduplicated and res.id != first, (a, b)
        s.close()
    assert above >= 4  # (the pairs do reach the cosine bar: same_fact alone keeps them apart)


@pytest.mark.parametrize(("old", "new"), [
    ("I weigh 82 kg", "Down to 90 kg"),  # "down to" a larger number
    ("I weigh 82 kg", "Up to 78 kg this month"),
    ("Our rent is 1200 euros", "Up to 130 euros since the winter"),  # too far off to be the rent
    ("Our rent is 1200 euros", "Now at 6500 euros"),
])
def test_a_fragment_going_the_wrong_way_or_too_far_does_not(old: str, new: str) -> None:
    assert facts.restated(old, new) is None
