"""MEMORY.md managed block: rendering budget, byte-exact splicing, safe writes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memengine.memorymd import (
    BEGIN,
    END,
    HEADING,
    ManagedBlockError,
    render_block,
    splice,
    strip_block,
    write_managed_block,
)

SECTIONS = [
    ("People", ["Ana runs the gateway team", "Oscar prefers email"]),
    ("Projects", ["gateway migration due June", "billing rewrite paused"]),
    ("Habits", ["restart the gateway with `make restart`"]),
]
BLOCK = render_block(SECTIONS, 2000)
OTHER_BLOCK = render_block([("Facts", ["the sky is blue"])], 2000)
EMPTY = f"{BEGIN}\n{HEADING}\n{END}"


# --------------------------------------------------------------------------- render


def test_render_block_format() -> None:
    expected = [
        BEGIN,
        HEADING,
        "### People",
        "- Ana runs the gateway team",
        "- Oscar prefers email",
        "### Projects",
        "- gateway migration due June",
        "- billing rewrite paused",
        "### Habits",
        "- restart the gateway with `make restart`",
        END,
    ]
    assert BLOCK == "\n".join(expected)


def test_render_drops_from_the_end_of_last_sections_first() -> None:
    full = len(BLOCK)
    # Dropping the single Habits item also drops its heading.
    habits_cost = len("### Habits\n- restart the gateway with `make restart`\n")
    block = render_block(SECTIONS, full - 1)
    assert "### Habits" not in block and "- billing rewrite paused" in block
    assert len(block) == full - habits_cost
    block = render_block(SECTIONS, full - habits_cost - 1)
    assert "- billing rewrite paused" not in block
    assert "- gateway migration due June" in block
    assert "### People" in block and "- Oscar prefers email" in block


def test_render_empty_sections_have_no_heading_and_tiny_budget_raises() -> None:
    assert render_block([("Empty", [])], 500) == EMPTY
    with pytest.raises(ValueError, match="budget"):
        render_block(SECTIONS, 20)


def test_render_neutralises_markers_and_newlines_in_items() -> None:
    block = render_block([("Odd", [f"evil {BEGIN}\nsecond line", "  ", END])], 1000)
    assert block.count(BEGIN) == 1 and block.count(END) == 1
    assert "- evil &lt;!-- mem:begin --> second line" in block
    assert "-  " not in block  # whitespace-only item dropped
    # The rendered block splices and re-splices cleanly.
    assert splice(splice("x\n", block), block) == splice("x\n", block)


@given(
    st.lists(
        st.tuples(st.text(max_size=20), st.lists(st.text(max_size=60), max_size=8)),
        max_size=5,
    ),
    st.integers(min_value=len(EMPTY), max_value=800),
)
def test_render_budget_never_exceeded(sections: list[tuple[str, list[str]]], budget: int) -> None:
    block = render_block(sections, budget)
    assert len(block) <= budget
    assert block == render_block(sections, budget)  # deterministic
    assert block.startswith(BEGIN + "\n") and block.endswith("\n" + END)


# --------------------------------------------------------------------------- splice

_user_alphabet = st.characters(
    codec="utf-8", categories=("L", "N", "P", "S", "Zs", "Cc", "Mn", "So")
)
user_text = st.text(alphabet=_user_alphabet, max_size=200).filter(
    lambda t: "mem:begin" not in t and "mem:end" not in t
)


def _norm(block: str, nl: str) -> str:
    return block.replace("\n", nl)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(user_text, user_text, st.booleans(), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_splice_preserves_everything_outside_the_block(
    before: str, after: str, has_block: bool, nl: str, trailing_newline: bool
) -> None:
    before = before.replace("\r", "").replace("\n", nl)
    after = after.replace("\r", "").replace("\n", nl)
    if has_block:
        prefix = before + nl if before else ""
        suffix = nl + after if trailing_newline or after else ""
        original = prefix + _norm(OTHER_BLOCK, nl) + suffix
        result = splice(original, BLOCK)
        file_nl = "\r\n" if nl == "\r\n" and (original.count("\r\n") * 2 > original.count("\n")) else "\n"
        # the end marker always ends its line, even where the original block ended the file
        assert result == prefix + _norm(BLOCK, file_nl) + (suffix or file_nl)
    else:
        original = before + (nl if trailing_newline and before else "")
        result = splice(original, BLOCK)
        assert result.startswith(original)  # byte-identical prefix
        assert result.count(BEGIN) == 1
        assert result.endswith("\n")  # so `echo x >> MEMORY.md` never glues text to the end marker
    # Idempotent: splicing again changes nothing, and the block is findable.
    assert splice(result, BLOCK) == result
    assert BLOCK.replace("\n", "") in result.replace("\r", "").replace("\n", "")
    # Outside text is recovered by strip_block when there was a block to replace.
    if has_block:
        assert strip_block(result) == strip_block(original)


def test_splice_append_separators() -> None:
    b = f"{BEGIN}\nx\n{END}"
    assert splice("", b) == b + "\n"
    assert splice("notes", b) == "notes\n\n" + b + "\n"
    assert splice("notes\n", b) == "notes\n\n" + b + "\n"
    assert splice("notes\n\n", b) == "notes\n\n" + b + "\n"
    assert splice("a\r\nb\r\n", b) == "a\r\nb\r\n\r\n" + b.replace("\n", "\r\n") + "\r\n"


@pytest.mark.parametrize("bad", ["no markers", f"{BEGIN}\nx", f"x\n{BEGIN}\n{END}", f"{BEGIN}\n{END}\n{BEGIN}\n{END}"])
def test_splice_rejects_a_block_that_is_not_one_marker_pair(bad: str) -> None:
    with pytest.raises(ValueError, match="not a managed block"):
        splice("mine\n", bad)


def test_splice_replaces_in_the_middle_and_keeps_crlf() -> None:
    original = f"# Mine\r\n\r\n{BEGIN}\r\nold\r\n{END}\r\ntail \u00e9\u4e2d"
    assert splice(original, f"{BEGIN}\nnew\n{END}") == f"# Mine\r\n\r\n{BEGIN}\r\nnew\r\n{END}\r\ntail \u00e9\u4e2d"


def test_indented_marker_lines_are_markers_but_inline_mentions_are_not() -> None:
    original = f"see {BEGIN} in docs\n  {BEGIN}  \nold\n{END}\n"
    new = f"{BEGIN}\nnew\n{END}"
    assert splice(original, new) == f"see {BEGIN} in docs\n{new}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"a\n{BEGIN}\nb\n", "line 2: <!-- mem:begin --> marker without a matching"),
        (f"{BEGIN}\n{BEGIN}\n{END}\n", "line 2: second <!-- mem:begin --> marker (first one at line 1)"),
        (f"x\ny\n{END}\n{BEGIN}\n", "line 3: <!-- mem:end --> marker without a preceding"),
        (f"{BEGIN}\n{END}\n{BEGIN}\n{END}\n", "line 3: second <!-- mem:begin -->"),
        (f"{BEGIN}\n{END}\n{END}\n", "line 3: second <!-- mem:end -->"),
        (f"x\r\n{END}\r\n", "line 2:"),
    ],
)
def test_malformed_markers_raise_with_line_number(text: str, message: str) -> None:
    with pytest.raises(ManagedBlockError) as err:
        splice(text, BLOCK)
    assert message in str(err.value)
    assert "\n" not in str(err.value)
    with pytest.raises(ManagedBlockError):
        strip_block(text)


def test_strip_block() -> None:
    assert strip_block("plain\n") == "plain\n"
    assert strip_block(f"a\n{BEGIN}\nx\n{END}\nb\n") == "a\nb\n"
    assert strip_block(f"a\r\n{BEGIN}\r\nx\r\n{END}\r\nb") == "a\r\nb"
    assert strip_block(f"a\n\n{BEGIN}\nx\n{END}") == "a\n\n"


# --------------------------------------------------------------------------- write


def _tmp_leftovers(directory: Path) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.endswith(".mem-tmp")]


@settings(max_examples=100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=200).filter(lambda b: b"mem:" not in b), st.booleans())
def test_write_is_byte_exact_and_idempotent(tmp_path: Path, data: bytes, crlf: bool) -> None:
    if crlf:
        data = data.replace(b"\r", b"").replace(b"\n", b"\r\n")
    path = tmp_path / "MEMORY.md"
    path.write_bytes(data)
    assert write_managed_block(path, BLOCK) is True
    first = path.read_bytes()
    assert first.startswith(data)  # invalid UTF-8 included: surrogateescape round trip
    stat_before = path.stat()
    assert write_managed_block(path, BLOCK) is False
    assert path.read_bytes() == first
    assert path.stat().st_mtime_ns == stat_before.st_mtime_ns
    assert path.stat().st_ino == stat_before.st_ino  # not even replaced
    assert write_managed_block(path, OTHER_BLOCK) is True
    assert path.read_bytes().startswith(data)
    assert _tmp_leftovers(tmp_path) == []


def test_write_creates_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    assert write_managed_block(path, BLOCK) is True
    assert path.read_text(encoding="utf-8") == BLOCK + "\n"
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert write_managed_block(path, BLOCK) is False


def test_write_preserves_mode(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    path.write_text("mine\n", encoding="utf-8")
    os.chmod(path, 0o640)
    assert write_managed_block(path, BLOCK)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert path.read_text(encoding="utf-8") == "mine\n\n" + BLOCK + "\n"


def test_write_follows_symlink(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "MEMORY.md"
    real.parent.mkdir()
    real.write_text("mine\n", encoding="utf-8")
    link = tmp_path / "MEMORY.md"
    link.symlink_to(real)
    assert write_managed_block(link, BLOCK)
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8").startswith("mine\n\n" + BEGIN)


def test_concurrent_edit_triggers_retry_and_keeps_other_writers_text(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    path.write_text("mine\n", encoding="utf-8")
    calls = []

    def other_writer() -> None:
        calls.append(1)
        if len(calls) == 1:  # the user saves in their editor mid-write, once
            path.write_text("mine\nadded by the editor\n", encoding="utf-8")

    assert write_managed_block(path, BLOCK, _before_replace=other_writer)
    assert len(calls) == 2
    assert path.read_text(encoding="utf-8") == "mine\nadded by the editor\n\n" + BLOCK + "\n"
    assert _tmp_leftovers(tmp_path) == []


def test_concurrent_creation_of_missing_file_is_detected(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    calls = []

    def other_writer() -> None:
        calls.append(1)
        if len(calls) == 1:
            path.write_text("created by someone else\n", encoding="utf-8")

    assert write_managed_block(path, BLOCK, _before_replace=other_writer)
    assert path.read_text(encoding="utf-8") == "created by someone else\n\n" + BLOCK + "\n"


def test_gives_up_after_max_retries_without_touching_the_file(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    path.write_text("start\n", encoding="utf-8")
    counter = [0]

    def busy_writer() -> None:
        counter[0] += 1
        path.write_text(f"edit {counter[0]}\n", encoding="utf-8")

    with pytest.raises(ManagedBlockError, match="kept changing"):
        write_managed_block(path, BLOCK, max_retries=2, _before_replace=busy_writer)
    assert counter[0] == 3
    assert path.read_text(encoding="utf-8") == "edit 3\n"
    assert _tmp_leftovers(tmp_path) == []


def test_malformed_file_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "MEMORY.md"
    original = f"notes\n{BEGIN}\nmy own text, end marker deleted\n".encode()
    path.write_bytes(original)
    with pytest.raises(ManagedBlockError, match="line 2"):
        write_managed_block(path, BLOCK)
    assert path.read_bytes() == original
    assert _tmp_leftovers(tmp_path) == []
