"""Tests for the sensitivity gate (sensitivity.py)."""

from __future__ import annotations

import json
import random
import string
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memengine import sensitivity as S  # noqa: E402
from memengine.sensitivity import BLOCK_THRESHOLD, Finding, Sensitivity, score  # noqa: E402

LABELLED = Path(__file__).parent / "data" / "sensitivity_labelled.jsonl"
SHARABLE = ("technical", "procedure")
MUST_BLOCK = ("personal", "secret", "pii")


def labels_of(text: str) -> set[str]:
    return {f.label for f in score(text).findings}


def kinds_of(text: str) -> set[str]:
    return {f.kind for f in score(text).findings}


# --------------------------------------------------------------------------
# API shape
# --------------------------------------------------------------------------


def test_api_shape_and_reason_format() -> None:
    res = score("AWS access key for the deploy user: AKIAIOSFODNN7EXAMPLE")
    assert isinstance(res, Sensitivity)
    assert all(isinstance(f, Finding) for f in res.findings)
    assert res.blocked and res.score >= BLOCK_THRESHOLD
    assert "secret: aws_access_key (AKIA…MPLE)" in res.reasons()
    assert BLOCK_THRESHOLD == 0.5


def test_empty_and_blank_text() -> None:
    for text in ("", "   ", "\n\t"):
        res = score(text)
        assert res.score == 0.0 and res.findings == () and not res.blocked and res.reasons() == []


def test_reasons_sorted_heaviest_first() -> None:
    res = score("I owe my brother 3000 euros, card 4539 1488 0343 6467")
    weights = [f.weight for f in sorted(res.findings, key=lambda f: -f.weight)]
    assert res.reasons()[0].startswith("pii: card_number")
    assert weights == sorted(weights, reverse=True)


def test_every_secret_and_pii_weight_blocks_alone() -> None:
    for name in dir(S):
        if name.startswith("W_") and name not in {
            "W_STRONG", "W_MEDIUM", "W_WEAK", "W_PERSON_CONTEXT", "W_FEELING", "W_FEELING_MILD", "W_I_FEEL",
        }:
            assert getattr(S, name) >= BLOCK_THRESHOLD, name


def test_mask_never_reveals_whole_value() -> None:
    assert S.mask("AKIAIOSFODNN7EXAMPLE") == "AKIA…MPLE"
    assert S.mask("hunter2x") == "hu…2x"
    assert S.mask("abc") == "a…"


# --------------------------------------------------------------------------
# Cards (Luhn) and IBAN (mod 97)
# --------------------------------------------------------------------------


def test_luhn_reference_values() -> None:
    assert S.luhn_valid("79927398713")
    assert not S.luhn_valid("79927398710")
    assert S.luhn_valid("4539148803436467")
    assert not S.luhn_valid("4539148803436468")
    assert not S.luhn_valid("4539x48803436467")


@pytest.mark.parametrize(
    "text",
    ["Paid with 4539 1488 0343 6467 yesterday", "card 4539-1488-0343-6467", "pan=4539148803436467", "Amex 3439 825979 19070"],
)
def test_card_luhn_valid_is_pii(text: str) -> None:
    res = score(text)
    assert "card_number" in labels_of(text) and res.blocked
    assert not any("4539148803436467" in r for r in res.reasons())


@pytest.mark.parametrize(
    "text",
    [
        "Paid with 4539 1488 0343 6468 yesterday",  # Luhn invalid
        "Stripe test card 4242 4242 4242 4242",  # public test PAN
        "epoch ms 1718035200000 and ns 1718035200000000000",  # starts with 1: no card IIN
        "order id 9539148803436467",  # IIN 9 is not a card brand
    ],
)
def test_card_invalid_or_exempt_is_not_pii(text: str) -> None:
    assert "card_number" not in labels_of(text)


def test_iban_reference_values() -> None:
    assert S.iban_valid("GB82WEST12345698765432")
    assert S.iban_valid("GB82 WEST 1234 5698 7654 32")
    assert S.iban_valid("DE89370400440532013000")
    assert not S.iban_valid("GB82WEST12345698765433")
    assert not S.iban_valid("DE89370400440532013001")
    assert not S.iban_valid("GB82")


def test_iban_detection_valid_vs_invalid() -> None:
    assert "iban" in labels_of("Refund to IBAN DE89 3704 0044 0532 0130 00 please")
    assert "iban" in labels_of("IBAN: GB82WEST12345698765432")
    assert "iban" not in labels_of("Refund to IBAN DE89 3704 0044 0532 0130 01 please")


# --------------------------------------------------------------------------
# Secrets
# --------------------------------------------------------------------------

_RNG = random.Random(7)
_AN = string.ascii_letters + string.digits


def _r(n: int, alphabet: str = _AN) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


@pytest.mark.parametrize(
    ("text", "label", "value"),
    [
        ("key AKIAIOSFODNN7EXAMPLE", "aws_access_key", "AKIAIOSFODNN7EXAMPLE"),
        ("tmp ASIAY34FZKBOKMUTVV7A", "aws_access_key", "ASIAY34FZKBOKMUTVV7A"),
        (f"token ghp_{'a1B2' * 9}", "github_token", f"ghp_{'a1B2' * 9}"),
        (f"pat github_pat_11ABCDEFG0{'x9Y' * 20}", "github_token", f"github_pat_11ABCDEFG0{'x9Y' * 20}"),
        ("slack xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "slack_token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
        (f"key sk-proj-{'Ab3_' * 12}", "openai_key", f"sk-proj-{'Ab3_' * 12}"),
        (f"key sk-{'Zq9' * 16}", "openai_key", f"sk-{'Zq9' * 16}"),
        (f"key sk-ant-api03-{'Zq9-' * 20}", "anthropic_key", f"sk-ant-api03-{'Zq9-' * 20}"),
        (f"stripe sk_live_{'4eC39HqLyjWDarjtT1zdp7dc'}", "stripe_key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
        (f"maps AIza{'SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBW'}Y", "google_api_key", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
        ("gitlab glpat-Ab12Cd34Ef56Gh78Ij90", "gitlab_token", "glpat-Ab12Cd34Ef56Gh78Ij90"),
    ],
)
def test_vendor_tokens(text: str, label: str, value: str) -> None:
    res = score(text)
    assert label in labels_of(text), res.reasons()
    assert res.blocked
    assert not any(value in r for r in res.reasons()), "excerpt must be masked"


JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0"
    "IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)


def test_jwt() -> None:
    res = score(f"the session token was {JWT} until it expired")
    assert [f.label for f in res.findings if f.kind == "secret"] == ["jwt"]
    assert "eyJh…sw5c" in res.reasons()[0]
    # Two segments is not a JWT (and is base64url JSON header only).
    assert "jwt" not in labels_of("header eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0 only")


def test_pem_private_key_blocks() -> None:
    for kind in ("RSA ", "EC ", "OPENSSH ", "ENCRYPTED ", ""):
        text = f"-----BEGIN {kind}PRIVATE KEY-----\nMIIEowIBAAKCAQEA{_r(40)}\n-----END {kind}PRIVATE KEY-----"
        assert "private_key" in labels_of(text)
    assert "private_key" not in labels_of("-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZI\n-----END PUBLIC KEY-----")
    assert "private_key" not in labels_of("-----BEGIN CERTIFICATE-----")


@pytest.mark.parametrize(
    "text",
    [
        "db password=Tr0ub4dor&3 for staging",
        "PGPASSWORD=winter2024 psql -h 10.0.0.5",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "client_secret: 8Q~xR7.kJ2m_Lp4vN9sT1wY6zB3cF0hD5gA",
        'API_KEY="f3a9c1d2e4b5a6c7"',
        "the wifi password is Blue-Falcon-2291",
        "The Twilio auth token is 7c3f9a2b1e8d4f6a0b5c9e2d7f1a3b8c",
        "router login is admin / Kx9#mP2vL!q",
    ],
)
def test_credential_assignments(text: str) -> None:
    assert "secret" in kinds_of(text), score(text).reasons()
    assert score(text).blocked


@pytest.mark.parametrize(
    "text",
    [
        "The password reset flow uses email templates stored in templates/email/.",
        "Rate limiting uses a token bucket: 100 tokens refilled at 10 per second.",
        "In the sessions table the key is the user id.",
        "password: must be at least 12 characters",
        "Set token_ttl=3600 and password_min_length=12 in config.yaml",
        "DB_PASSWORD=${DB_PASSWORD} is injected by the entrypoint",
        "password=os.environ['DB_PASSWORD']",
        "password = <your password here>",
        "the password is stored hashed with argon2id",
        "To rotate the database password: generate a new one in Vault.",
        "curl -H 'Authorization: Bearer $TOKEN' https://api.example.com",
    ],
)
def test_credential_look_alikes_are_not_secrets(text: str) -> None:
    assert "secret" not in kinds_of(text), score(text).reasons()


def test_connection_strings() -> None:
    assert "connection_string" in labels_of("DATABASE_URL=postgres://app:S3cretPassw0rd@db.internal:5432/app")
    assert "connection_string" in labels_of("mongodb+srv://admin:hunter2hunter2@cluster0.ab1cd.mongodb.net/prod")
    assert "connection_string" in labels_of("redis://:p4ssw0rd!x@cache.internal:6379/0")
    res = score("postgres://app:S3cretPassw0rd@db.internal:5432/app")
    assert not any("S3cretPassw0rd" in r for r in res.reasons())
    # Placeholders in docs and URLs without a password are fine.
    assert not score("postgres://user:password@localhost:5432/app is the default DSN").blocked
    assert not score("postgres://app@db.internal:5432/app uses peer auth").blocked
    # It is reported once, not also as an email.
    assert "email" not in labels_of("mongodb://admin:hunter2hunter2@db.acme.io/prod")


def test_auth_headers() -> None:
    assert "bearer_token" in labels_of("curl -H 'Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddcc'")
    assert "basic_auth" in labels_of("Authorization: Basic YWRtaW46c3VwZXJzZWNyZXQ=")
    assert "basic_auth" not in labels_of("Authorization: Basic aGVsbG8gd29ybGQ=")  # no user:pass inside
    assert not score("Bearer tokens are validated by the gateway").blocked


def test_high_entropy_strings() -> None:
    assert "high_entropy_string" in labels_of("key for backups: q8Vz3LmN0pRt7YwX2bKd9FhJ5sGc1AeU")
    assert "high_entropy_string" in labels_of(f"whatever {_r(40)} here")
    for benign in (
        "Commit 3f9a1c2e8b7d4a6f0e1d2c3b4a5f6e7d8c9b0a1f introduced the regression",
        "digest sha256:4c9d1e0a7b3f5e2d8c6a9b1f0e3d7c5a2b8f4e6d1c9a7b3e5f0d2c8a6b4e1f3d",
        "order 6f1c2d3e-4b5a-4c6d-9e8f-0a1b2c3d4e5f",
        "class TestParsesUtf8HeaderNamesCorrectly2(unittest.TestCase)",
        "see src/auth/TokenStore2Handler/ and --max-old-space-size=8192",
        "model all-MiniLM-L6-v2 and aGVsbG8gd29ybGQ=",
    ):
        assert not score(benign).blocked, (benign, score(benign).reasons())


# --------------------------------------------------------------------------
# PII
# --------------------------------------------------------------------------


def test_email() -> None:
    res = score("Customer contact: maria.gonzalez@gmail.com")
    assert labels_of("Customer contact: maria.gonzalez@gmail.com") == {"email"}
    assert res.blocked
    assert not any("maria.gonzalez@gmail.com" in r for r in res.reasons())
    # Reserved documentation domains (RFC 2606/6761) are not PII.
    for doc in ("alice@example.com", "bob@mail.example.org", "ci@build.test", "a@b.invalid", "me@host.example"):
        assert "email" not in labels_of(f"Use {doc} in fixtures"), doc


@pytest.mark.parametrize(
    "text",
    [
        "Call me on +44 20 7946 0958 tonight",
        "mobile +44 7700 900123",
        "office +1 (415) 555-0132",
        "Jake: (415) 555-0132",
        "Jake: 415-555-0132",
        "Jake: 415.555.0132",
        "+33 6 12 34 56 78",
        "+49 151 23456789",
        "+91 98765 43210",
        "+15551234567",
        "my home number is 06 12 34 56 78",
        "her phone number is 020 7946 0958",
    ],
)
def test_phone_formats(text: str) -> None:
    assert "phone" in labels_of(text), score(text).reasons()


@pytest.mark.parametrize(
    "text",
    [
        "Bumped requests from 2.31.0 to 2.32.3",
        "Backup ran on 2024-03-31 at 02:30 and 31/03/2024",
        "Redis on port 6380, Postgres on 5432, https on 8443",
        "timestamps like 1718035200000 in an INTEGER column",
        "value = 4155550132 in the fixture",
        "Postgres listens on 10.0.3.12:5432",
        "p50 12 ms, p99 180 ms at 2,000 rps",
        "Linux 4.11+ and Node 20.11.1",
    ],
)
def test_phone_look_alikes(text: str) -> None:
    assert not score(text).blocked, score(text).reasons()


@pytest.mark.parametrize(
    "text",
    [
        "Ship it to 742 Evergreen Terrace, Springfield.",
        "He lives at 221B Baker Street",
        "1600 Pennsylvania Avenue NW",
        "She moved to 12 Oak Drive, Portland",
        "15 rue de la Paix",
        "Calle Mayor 5, 28013 Madrid",
        "Hauptstraße 12",
        "PO Box 1234",
        "Austin, TX 78701",
        "London NW1 6XE",
        "Delivery to Wall St, 10115 Berlin",
    ],
)
def test_addresses(text: str) -> None:
    assert kinds_of(text) & {"pii"}, score(text).reasons()
    assert score(text).blocked


@pytest.mark.parametrize(
    "text",
    [
        "The 3-way handshake is skipped with TCP Fast Open",
        "upload 3 Google Drive files to the shared folder",
        "Amazon S3 1TB costs about 23 dollars a month",
        "send 2 via email and 3 via Slack",
        "we merged 4 Pull Requests on Monday",
        "the 2 Way Merge Tool",
    ],
)
def test_address_look_alikes(text: str) -> None:
    assert not score(text).blocked, score(text).reasons()


def test_ssn_and_date_of_birth() -> None:
    assert "ssn" in labels_of("SSN 078-05-1120 in the ticket")
    assert "ssn" not in labels_of("SSN 000-05-1120 or 666-12-1234 are invalid")
    assert "date_of_birth" in labels_of("Born 14/03/1987 in Porto")
    assert "date_of_birth" in labels_of("date of birth: 1990-07-22")
    assert "date_of_birth" not in labels_of("released 1990-07-22")


def test_ip_addresses_rule() -> None:
    assert "public_ip" in labels_of("the client IP from the access log is 81.2.69.160")
    for internal in ("10.0.0.5", "172.16.4.2", "192.168.1.20", "127.0.0.1", "169.254.169.254",
                     "100.64.0.1", "203.0.113.7", "8.8.8.8", "1.1.1.1"):
        assert "public_ip" not in labels_of(f"connect to {internal} from the bastion"), internal
    assert "public_ip" not in labels_of("released v1.2.3.4 and version 4.17.21.3")
    assert "public_ip" not in labels_of("999.1.1.1 is not an address")


# --------------------------------------------------------------------------
# Personal lexicon and feelings
# --------------------------------------------------------------------------


def test_brief_examples() -> None:
    assert not score("the billing service charges money via Stripe API").blocked
    assert score("I owe my brother 3000 euros and can't pay rent").blocked


@pytest.mark.parametrize(
    "text",
    [
        "My therapist says I should set boundaries.",
        "I feel completely burned out.",
        "I'm anxious every Sunday evening.",
        "I was diagnosed with ADHD last spring.",
        "My wife and I are getting a divorce.",
        "I'm gay and not out to my team.",
        "I go to the mosque every Friday.",
        "I think my manager is incompetent.",
        "Sarah on the platform team is lazy.",
        "Dave from accounting is a creep.",
        "I have type 1 diabetes.",
        "My grandmother passed away on Tuesday.",
        "I'm interviewing at another company next week.",
        "I'm terrified of flying.",
    ],
)
def test_personal_blocks(text: str) -> None:
    res = score(text)
    assert res.blocked, res.reasons()
    assert {f.kind for f in res.findings} <= {"personal", "feeling"}


@pytest.mark.parametrize(
    "text",
    [
        "The health check endpoint /healthz returns 503.",
        "Memory leak in the worker; kill the process with SIGTERM.",
        "The parent process forks one child process per CPU.",
        "We deploy from the master branch.",
        "Leader election uses Raft; a node needs a majority vote.",
        "I diagnosed the memory leak in the parser.",
        "I'm struggling with the Rust borrow checker today.",
        "I feel like we should use Postgres instead of Mongo.",
        "I'm worried the migration will lock the table.",
        "I hate YAML.",
        "The kernel panic came from the NIC driver; Go panics are recovered.",
        "We paid down the tech debt in the billing module.",
        "Run brew doctor if libpq fails to link.",
        "Our partner API returns 429 above 50 rps.",
        "pip install -r requirements.txt and raise an error if stale.",
        "std::vector reallocates when capacity is exceeded.",
        "The release came out last week.",
        "Christian fixed the flaky login test.",
    ],
)
def test_technical_near_misses_allowed(text: str) -> None:
    res = score(text)
    assert not res.blocked, res.reasons()


def test_lexicon_accumulates() -> None:
    one = score("I moved the rent column to a decimal type.")
    two = score("I can't pay rent and I owe money to my landlord.")
    assert not one.blocked
    assert two.blocked and two.score > one.score


def test_person_context_halves_domain_vocabulary() -> None:
    domain = score("The app tracks glucose for patients with diabetes.")
    personal = score("I have diabetes.")
    assert not domain.blocked and personal.blocked


def test_repeated_word_does_not_accumulate() -> None:
    assert score("money " * 50).score == score("money").score


# --------------------------------------------------------------------------
# Labelled set: bars and per-label numbers (dev vs held-out every 4th item)
# --------------------------------------------------------------------------


def _load() -> list[dict[str, str]]:
    with LABELLED.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _rates(rows: list[tuple[int, dict[str, str]]]) -> dict[str, tuple[int, int]]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for _, row in rows:
        blocked = score(row["text"]).blocked
        correct = blocked if row["label"] in MUST_BLOCK else not blocked
        counts[row["label"]][0] += int(correct)
        counts[row["label"]][1] += 1
    return {k: (v[0], v[1]) for k, v in counts.items()}


def _check_bars(rates: dict[str, tuple[int, int]]) -> list[str]:
    failures = []
    for label in ("secret", "pii"):
        ok, n = rates[label]
        if ok != n:
            failures.append(f"{label}: {ok}/{n} blocked, need 100%")
    ok, n = rates["personal"]
    if ok < 0.9 * n:
        failures.append(f"personal: {ok}/{n} blocked, need >= 90%")
    ok = sum(rates[k][0] for k in SHARABLE)
    n = sum(rates[k][1] for k in SHARABLE)
    if ok < 0.85 * n:
        failures.append(f"technical+procedure: {ok}/{n} allowed, need >= 85%")
    return failures


def test_labelled_set_is_well_formed() -> None:
    rows = _load()
    assert len(rows) >= 100
    assert {r["label"] for r in rows} == {"technical", "procedure", "personal", "secret", "pii"}
    assert len({r["text"] for r in rows}) == len(rows), "duplicate statements"


def test_labelled_set_bars() -> None:
    rows = list(enumerate(_load()))
    splits = {
        "dev": [r for r in rows if r[0] % 4 != 3],
        "held-out": [r for r in rows if r[0] % 4 == 3],
        "all": rows,
    }
    failures: list[str] = []
    for name, subset in splits.items():
        rates = _rates(subset)
        line = ", ".join(f"{k} {ok}/{n} ({ok / n:.0%})" for k, (ok, n) in sorted(rates.items()))
        print(f"\n[{name}] correct per label: {line}")
        failures += [f"[{name}] {f}" for f in _check_bars(rates)]
    assert not failures, failures


def test_secret_and_pii_items_findings_are_masked() -> None:
    for row in _load():
        if row["label"] not in ("secret", "pii"):
            continue
        res = score(row["text"])
        kinds = {f.kind for f in res.findings}
        assert kinds & {"secret", "pii"}, row["text"]
        for f in res.findings:
            if f.kind in ("secret", "pii"):
                assert f.weight >= BLOCK_THRESHOLD
                # Masked ("AKIA…MPLE"); a PEM header reveals nothing of the key itself.
                assert "…" in f.excerpt or f.label == "private_key", f


# --------------------------------------------------------------------------
# Robustness and speed
# --------------------------------------------------------------------------

_TRICKY = string.ascii_letters + string.digits + " \t\n@+-_.:/=()'\"#~%!,;" + "éßäÀ’…"


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.text(alphabet=_TRICKY, max_size=400)))
def test_score_never_raises_and_is_bounded(text: str) -> None:
    res = score(text)
    assert 0.0 <= res.score <= 1.0
    assert res.blocked == (res.score >= BLOCK_THRESHOLD)
    assert all(0.0 < f.weight <= 1.0 for f in res.findings)
    assert all(f.kind in {"secret", "pii", "personal", "feeling"} for f in res.findings)
    assert len(res.reasons()) == len(res.findings)


def _random_texts() -> list[str]:
    rng = random.Random(1)
    size = 100_000
    return [
        "".join(rng.choice(_TRICKY) for _ in range(size)),
        "".join(rng.choice(string.printable) for _ in range(size)),
        " ".join("".join(rng.choice(_AN) for _ in range(rng.randint(1, 40))) for _ in range(size // 20))[:size],
    ]


def _pathological_texts() -> list[str]:
    """Inputs aimed at each detector's quantifiers (100 kB each)."""
    size = 100_000
    return [
        "a" * size,
        "1 " * (size // 2),
        "+1 " * (size // 3),
        "a.a@a." * (size // 6),
        "password=" * (size // 9),
        "-----BEGIN " * (size // 11),
        "eyJ" * (size // 3),
        "my brother " * (size // 11),
        "12 Aaaaa " * (size // 9),
        "x://a:" * (size // 6),
        "I feel so really very " * (size // 22),
    ]


def test_random_100kb_inputs_score_in_range() -> None:
    # Speed on these inputs is measured by bench/sensitivity_speed.py (tests never time the machine).
    for text in _random_texts():
        res = score(text)
        assert 0.0 <= res.score <= 1.0 and res.blocked == (res.score >= BLOCK_THRESHOLD)


def test_pathological_inputs_score_as_expected() -> None:
    # Inputs aimed at each detector's quantifiers; their timing lives in bench/sensitivity_speed.py.
    results = {text[:12]: score(text) for text in _pathological_texts()}
    assert all(0.0 <= r.score <= 1.0 for r in results.values())
    assert list(results["a" * 12].findings) == []  # one long word is nothing sensitive
    assert score("a" * 100_000) == results["a" * 12]  # deterministic
