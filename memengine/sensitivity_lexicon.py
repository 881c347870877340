"""The personal lexicon the sensitivity gate reads (:mod:`memengine.sensitivity`).

Word lists for personal life (health, family, money, relationships, work conflicts)
by strength, first-person feeling phrases, and the person references that anchor
them, compiled once into the patterns ``sensitivity`` runs. Data, not logic: a new
term goes here, and the calibration of the weights is explained next to them.
"""

from __future__ import annotations

import re

# Personal lexicon strengths.  Calibrated so that, when the text is about a
# person (see W_PERSON_CONTEXT), one STRONG term blocks, two MEDIUM terms block,
# and one MEDIUM or any number of a few WEAK terms does not.
W_STRONG = 0.45  # "diagnosed", "divorce", "therapist", "my brother"
W_MEDIUM = 0.25  # "rent", "hospital", "wedding", "kids"
W_WEAK = 0.1  # "money", "health", "family": common in technical prose too

# First-person feelings.  Strong distress statements block alone; mild ones
# ("I'm frustrated with CI") need more evidence; "I feel like we should use
# Postgres" is an opinion, weakest of all.
W_FEELING = 0.5
W_FEELING_MILD = 0.3
W_I_FEEL = 0.15

# --------------------------------------------------------------------------
# Personal lexicon.  These patterns are lowercase and case-sensitive: they run
# on a lower-cased copy of the text (same offsets), and they start with a
# literal rather than \b, with the left word boundary checked in Python
# (_word_matches).  Both keep sre's first-character fast path; with (?i) and a
# leading \b, 100 kB took ~1 s instead of ~0.1 s.
# --------------------------------------------------------------------------

TECH_COMPOUNDS_RE = re.compile(
    r"health[ -]?(?:checks?|checking|endpoints?|probes?|status|monitor\w*|of the \w+)\b|healthz\b"
    r"|(?:cluster|service|node|system|pod|replica|index|disk|database|db|api|app|site) health\b"
    r"|(?:parent|child|children|sibling|siblings|orphan(?:ed)?|zombie|daemon)[ -]"
    r"(?:process(?:es)?|nodes?|elements?|threads?|containers?|class(?:es)?|dags?|tasks?|spans?|"
    r"poms?|tables?|rows?|director(?:y|ies)|windows?|components?|records?|commits?|issues?|"
    r"tickets?|jobs?|categor(?:y|ies)|themes?|keys?|objects?|widgets?|modules?|folders?|"
    r"pages?|frames?|spans?|pipelines?|workflows?|accounts?|orgs?|organi[sz]ations?|span|scope|"
    r"context|logger|selectors?|resources?|entit(?:y|ies)|types?|fields?|projects?|epics?)\b"
    r"|(?:its|their|the node's|the tree's)[ \t]+(?:parent|children|child|siblings)\b"
    r"|sister[ -](?:projects?|compan(?:y|ies)|teams?|repos?|sites?|services?|clusters?|products?|brands?)\b"
    r"|(?:leader|master|raft) elections?\b|election timeouts?\b"
    r"|(?:brew|flutter|npm|yarn|docker|pnpm|react-native) doctor\b"
    r"|(?:kernel|go|goroutine|rust|thread) panics?\b"
    r"|(?:tech(?:nical)?|design|code|architecture) debt\b"
    r"|(?:error|latency|performance|memory|time|token|perf) budgets?\b"
    r"|baby[ -]steps?\b|family of\b|(?:font|instance|product|os|model) famil(?:y|ies)\b"
    r"|scan(?:s|ned|ning)? (?:the )?(?:tables?|index|indexes|ports?|images?|code|repos?)\b"
    r"|(?:table|index|full|seq|sequential|port|security|virus) scans?\b"
    r"|(?:blood|heart)beat\b|heartbeats?\b|master(?:/| and )?slave\b"
    r"|(?:class|prototype|multiple|single) inheritance\b|inheritance (?:chain|hierarchy|tree)\b"
    r"|(?:function|command[- ]line|positional|keyword|cli) arguments?\b"
    r"|(?:depression|stroke) (?:of|width|color|colour|dasharray)\b"
    r"|god (?:objects?|class(?:es)?|mode)\b|parent (?:compan(?:y|ies)|orgs?)\b"
)

FIRST_PERSON_RE = re.compile(r"(?:i(?!\.\w)|i'm|i’m|im|i've|i’ve|i'd|i’d|i'll|i’ll|me|my|mine|myself)\b")
# Diary/chat style drops the subject: "Haven't slept...", "Spent the weekend...".
IMPLICIT_FIRST_PERSON_RE = re.compile(
    r"(?:^|[.!?;]\s+)(?:haven't|haven’t|hasn't|can't|can’t|cannot|couldn't|didn't|didn’t|"
    r"spent|been|started|going|got|had|feeling|felt|went|took|still|gotta|trying)\b"
)
PERSON_PRONOUN_RE = re.compile(r"(?:he|she|him|her|his|hers|himself|herself)\b")
ROLE_NOUN_RE = re.compile(
    r"(?:manager|boss|colleague|coworker|co-worker|teammate|cto|ceo|cfo|vp|"
    r"cofounder|co-founder|landlord|landlady|neighbou?r|roommate|flatmate|recruiter|"
    r"therapist|doctor)\b"
)
NAMED_PERSON_RE = re.compile(
    r"\b(?:[Cc]olleague|[Mm]anager|[Bb]oss|[Tt]eammate|[Cc]oworker)[ \t]+[A-Z][a-z]{1,15}\b"
    r"|\b[A-Z][a-z]{1,15}[ \t]+(?:from[ \t]+(?:the[ \t]+[a-z]{2,20}[ \t]+team|accounting|finance|sales|"
    r"marketing|hr|HR|legal|support|ops|design|product|engineering|security|IT)|on[ \t]+the[ \t]+[a-z]{2,20}[ \t]+team"
    r"|in[ \t]+(?:accounting|finance|sales|marketing|hr|HR|legal|support|ops))\b"
)

_KIN = (
    r"mom|mum|mommy|mummy|mother|dad|daddy|father|brother|sister|son|daughter|kid|kids|baby|"
    r"grandma|grandmother|granny|grandpa|grandfather|grandparents|aunt|auntie|uncle|cousin|"
    r"nephew|niece|in-laws|mother-in-law|father-in-law|stepmom|stepmother|stepdad|stepfather|"
    r"stepson|stepdaughter|twins?|toddler|newborn|family|parents|children|child"
)
_PARTNER = r"wife|husband|spouse|girlfriend|boyfriend|fianc[ée]e?|partner|ex|ex-wife|ex-husband"
# "my brother", "my wife": a first-person family reference is personal on its own.
_KIN_ADJ = r"(?:(?:little|big|older|younger|late|baby|eldest|youngest|new)[ \t]+)?"
# "our partner" is usually a business partner, so "our" only pairs with family words.
POSSESSIVE_KIN_RE = re.compile(
    rf"(?:my[ \t]+{_KIN_ADJ}(?:{_KIN}|{_PARTNER})|our[ \t]+{_KIN_ADJ}(?:{_KIN}))(?:'s|’s)?(?![\w-])"
)
KIN_ANCHOR_RE = re.compile(
    r"(?:mom|mum|mother|dad|father|brother|sister|son|daughter|kids|grandma|grandmother|"
    r"grandpa|grandfather|aunt|uncle|cousin|wife|husband|girlfriend|boyfriend|fianc[ée]e?)\b"
)

# label -> strength -> alternation.  Multi-word phrases allow one whitespace run.
_LEXICON: dict[str, dict[float, str]] = {
    "health": {
        W_STRONG: (
            r"diagnosed with|therapist|psychiatrist|psychologist|counsell?or|depression|"
            r"depressive|anxiety|adhd|autism|autistic|asperger'?s?|bipolar|schizophreni\w*|ocd|ptsd|"
            r"cancer|chemo|chemotherapy|radiotherapy|tumou?r|diabetes|diabetic|pregnant|pregnancy|"
            r"miscarriage|medication|meds|antidepressants?|sertraline|prozac|fluoxetine|xanax|"
            r"adderall|ritalin|lexapro|zoloft|ssris?|suicidal|suicide|self-harm|rehab|sober|sobriety|"
            r"alcoholic|alcoholism|addiction|addicted|hiv|ivf|fertility|chronic pain|"
            r"panic attacks?|eating disorder|anorexia|bulimia|heart racing|chest pains?|"
            r"mental health|nervous breakdown|mental breakdown|dementia|alzheimer'?s?|epilepsy|seizures?|"
            r"surgery|operation on my|biopsy|mri|ct scan|dose|dosage"
        ),
        W_MEDIUM: (
            r"therapy|hospital|hospitali[sz]ed|clinic|er visit|a&e|doctor|gp appointment|prescription|"
            r"migraines?|insomnia|haven't slept|haven’t slept|can't sleep|can’t sleep|sleepless|"
            r"burnout|relapse|drinking|injury|injured|illness|sick leave|stroke|heart attack|"
            r"blood sugar|blood pressure|blood tests?|symptoms|physio|physiotherapy|dentist|"
            r"allergic reaction|flu|covid|infection|pain ?killers|weight loss|disability|"
            r"medical"
        ),
        W_WEAK: r"health|healthy|sick|ill|diagnosis|diagnosed|prescribed|scans?|sleep|slept|tired|pain|diet|insurance|allergy|allergic",
    },
    "finance": {
        W_STRONG: (
            r"evict(?:ed|ion)?|overdraft|overdrawn|bankrupt\w*|alimony|child support|"
            r"can't pay|can’t pay|cannot pay|can't afford|can’t afford|cannot afford|"
            r"how i'll (?:pay|cover|afford)|how i’ll (?:pay|cover|afford)|behind on (?:rent|payments|bills)|"
            r"in debt|debt collectors?|payday loan|repossess\w*|foreclos\w*"
        ),
        W_MEDIUM: (
            r"salary|salaries|debts?|owe|owes|owed|owing|loans?|mortgage|rent|rent's|payday|paycheck|"
            r"paycheque|savings|credit score|net worth|payment plan|inheritance|pension|"
            r"tax return|(?:i'm|i’m|i am|flat) broke|lent (?:him|her|me)|pay raise|a raise"
        ),
        W_WEAK: r"money|pay|paid|bank|bills?|afford|budget|taxes|credit card|payment|expensive|cost|euros?|dollars?|pounds|bucks",
    },
    "relationships": {
        W_STRONG: (
            r"divorce|divorced|divorcing|affair|cheated on|cheating on|custody|(?:he|she|they) moved out|"
            r"seeing someone|my ex|broke up|breakup|break-up|domestic violence|abusive"
        ),
        W_MEDIUM: (
            r"wife|husband|spouse|girlfriend|boyfriend|fianc[ée]e?|dating|married|marriage|wedding|"
            r"honeymoon|moved out|separated|tinder|bumble|hinge date|crush on"
        ),
        W_WEAK: r"partner|relationship|argument|fight|date night",
    },
    "family": {
        W_STRONG: r"passed away|funeral|grief|grieving|bereavement|foster care|(?:was|were|got) adopted|adoption",
        W_MEDIUM: (
            r"mom|mum|mommy|mummy|mother|dad|daddy|father|brother|sister|son|daughter|kid|kids|"
            r"baby|grandma|grandmother|granny|grandpa|grandfather|grandparents|aunt|auntie|uncle|"
            r"cousin|nephew|niece|in-laws|stepmom|stepmother|stepdad|stepfather|twins|toddler|"
            r"newborn|daycare|nanny|babysitter|pta|parental leave|maternity|paternity"
        ),
        W_WEAK: r"family|parents|parent|children|child|sibling|siblings|died|school|home",
    },
    "religion_politics_sexuality": {
        W_STRONG: (
            r"gay|lesbian|bisexual|transgender|trans|queer|nonbinary|non-binary|asexual|"
            r"(?:came|coming) out (?:to|as)|not out to|sexual orientation|sexuality|"
            r"mosque|church|synagogue|catholic|christianity|(?:a|as a|i'm|i’m|i am) christian|muslim|jewish|hindu|buddhist|sikh|"
            r"atheist|mormon|evangelical|ramadan|(?:during|for|observe|observing) lent|passover|yom kippur|pray|praying|prayers?|bible|quran|torah"
        ),
        W_MEDIUM: (
            r"voted|vote for|voting for|republicans?|democrats?|labour|tory|tories|greens|"
            r"left-wing|right-wing|abortion|immigration status|undocumented|visa status|"
            r"god|faith|religion|religious|political views?|politics"
        ),
        W_WEAK: r"election|vote|liberal|conservative|union|protest",
    },
    "career": {
        W_STRONG: (
            r"interviewing (?:at|with|for)|job interview|looking for (?:another|a new) job|"
            r"job hunt\w*|lose my job|lost (?:my|his|her|their) job|laid off|got fired|been fired|"
            r"fired me|performance improvement plan|quit(?:ting)? my job|resign(?:ing|ed)?|"
            r"leave the company|leaving the company|counteroffer|counter-offer"
        ),
        W_MEDIUM: r"performance review|on a pip|promotion|promoted|demoted|demotion|disciplinary",
        W_WEAK: r"interview|review",
    },
}
# Opinions about people only count when a person is referenced; otherwise
# "this library is useless" would be personal.
_OPINION_TERMS = (
    r"incompetent|lazy|idiot|idiots|stupid|moron|useless|creep|creepy|toxic|arrogant|rude|jerk|"
    r"liar|narcissist|narcissistic|psycho|clueless|can't stand|can’t stand|"
    r"hate|hates|don't trust|don’t trust|untrustworthy|backstab\w*|bully|bullies|bullying|sexist|"
    r"racist|harass\w*|drunk|talks down|takes credit|condescending|passive-aggressive|manipulative|"
    r"sleazy|awful person|terrible person"
)
OPINION_RE = re.compile(rf"(?:{_OPINION_TERMS})\b")

_INTENSIFIERS = (
    r"(?:(?:so|really|very|completely|totally|a bit|a little|kind of|kinda|pretty|super|extremely|"
    r"increasingly|constantly|always|still|just|quite|too|honestly|genuinely|absolutely|utterly|"
    r"feeling|getting|becoming|growing)\s+){0,3}"
)
_EMOTIONS_STRONG = (
    r"anxious|depressed|lonely|scared|afraid|terrified|ashamed|worthless|hopeless|"
    r"heartbroken|miserable|suicidal|burn(?:ed|t)[ -]out|overwhelmed|devastated|unsafe|"
    r"humiliated|helpless|desperate|broken|numb|empty inside|grieving|traumati[sz]ed|"
    r"crying|not okay|not ok|falling apart|a failure|not good enough"
)
_EMOTIONS_MILD = (
    r"worried|stressed(?: out)?|frustrated|nervous|upset|angry|furious|annoyed|tired|exhausted|"
    r"sad|embarrassed|guilty|jealous|insecure|hurt|unhappy|bored|confused|drained|fed up|struggling|panicking|useless"
)
_FEELING_SUBJECT = (
    r"(?:i'm|i’m|im|i am|i feel|i felt|i've been|i’ve been|i have been|i was|i get|i got|"
    r"feeling|makes me(?: feel)?|made me(?: feel)?|leaves me|left me)\s+"
)
_FEELING_PHRASES = (
    r"(?:my (?:therapist|psychiatrist|psychologist|counsell?or|meds|medication|diagnosis)|"
    r"i cried|i've been crying|i’ve been crying|i keep crying|i can't stop crying|i hate myself|"
    r"i can't cope|i can’t cope|i'm not okay|i’m not okay|i broke down|"
    r"i feel like (?:a failure|nobody|no one)|not good enough for|i want to die|i wish i was dead)"
)
# One pass for all three kinds; the group name says which one matched.
FEELING_RE = re.compile(
    rf"(?P<phrase>{_FEELING_PHRASES})"
    rf"|(?P<strong>{_FEELING_SUBJECT}{_INTENSIFIERS}(?:{_EMOTIONS_STRONG})\b)"
    rf"|(?P<mild>{_FEELING_SUBJECT}{_INTENSIFIERS}(?:{_EMOTIONS_MILD})\b)"
)
FEELING_WEIGHTS = {"phrase": W_FEELING, "strong": W_FEELING, "mild": W_FEELING_MILD}
I_FEEL_RE = re.compile(r"i (?:feel|felt)\b")


def _compile_lexicon() -> tuple[re.Pattern[str], dict[str, tuple[str, float]]]:
    """One alternation with a named group per (label, strength), strongest first.

    Alternation is ordered, so listing strong phrases first lets "sick leave"
    win over "sick" and "can't pay" over "pay" at the same position.
    """
    groups: list[tuple[float, str, str]] = []
    for label, by_strength in _LEXICON.items():
        for strength, alternation in by_strength.items():
            groups.append((strength, label, alternation))
    groups.sort(key=lambda g: -g[0])
    meaning: dict[str, tuple[str, float]] = {}
    parts = []
    for i, (strength, label, alternation) in enumerate(groups):
        meaning[f"g{i}"] = (label, strength)
        parts.append(f"(?P<g{i}>{alternation})")
    return re.compile(rf"(?:{'|'.join(parts)})(?![\w-])"), meaning


LEXICON_RE, LEXICON_GROUPS = _compile_lexicon()
WORD_START_RE = re.compile(r"\b[a-z]")
