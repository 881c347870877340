"""Claude.ai parser: out-of-order messages, empty conversations, attachments, content[]."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from importers import ImportReport, claude

FIX = Path(__file__).parent / "fixtures" / "claude" / "conversations.json"


def test_sorted_messages_attachments_and_empty() -> None:
    rep = ImportReport(str(FIX), "claude")
    recs = list(claude.parse(FIX, rep))
    assert [r.content for r in recs] == [
        "User: Here is my plan\n[attachments: plan.txt]",
        "User: How often should I water tomatoes?",
        "Assistant: Water them weekly.",
    ]
    assert [r.ref for r in recs] == ["claude:c-1:m1", "claude:c-1:m2", "claude:c-1:m3"]
    assert recs[0].event_at == datetime(2024, 5, 1, 9, 59, 0, 500000, tzinfo=timezone.utc)
    assert recs[0].metadata["attachments"][0]["excerpt"] == "rows of kale"
    assert recs[0].metadata["title"] == "Garden"
    assert [r.position for r in recs] == [0, 1, 2]
    assert rep.variant["empty_conversations"] == 1
    assert rep.variant["conversations"] == 2
    assert (rep.messages_seen, rep.skipped_media, rep.skipped_empty) == (4, 1, 1)
