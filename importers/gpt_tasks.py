"""ChatGPT's scheduled tasks, read for :mod:`importers.chatgpt`.

A task ("Remind me every Monday at 8 to put the bins out") is set by the assistant calling the
``automations.create`` tool with JSON: a ``title``, the ``prompt`` the task will run and a ``schedule``
written as an iCalendar VEVENT (``DTSTART``, ``RRULE:FREQ=WEEKLY;BYDAY=MO;BYHOUR=8``);
``automations.update`` changes one (any of the three, and a ``jawbone_id`` naming it). What the user
asked to be reminded of, and when, is a memory of theirs: :func:`read` gives the task's fields and
:func:`schedule_words` its schedule in words ("weekly on Monday at 08:00", "once on 2025-03-28 at 15:30").
"""

from __future__ import annotations

import json
import re
from typing import Any

TASK_CALLS = frozenset({"automations.create", "automations.update"})
_DAYS = {"MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday", "FR": "Friday", "SA": "Saturday",
         "SU": "Sunday"}
_FREQ = {"HOURLY": ("hourly", "hours"), "DAILY": ("daily", "days"), "WEEKLY": ("weekly", "weeks"),
         "MONTHLY": ("monthly", "months"), "YEARLY": ("yearly", "years")}
_DTSTART_RE = re.compile(r"^DTSTART(?:;[^:\n]*)?:(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2}))?", re.MULTILINE | re.IGNORECASE)
_RRULE_RE = re.compile(r"^RRULE:(.+)$", re.MULTILINE | re.IGNORECASE)
MAX_FIELD_CHARS = 2000  # a title, prompt or schedule longer than this is no task the user wrote


def read(text: str) -> dict[str, str] | None:
    """The fields a task call (or its receipt) gives (``title``, ``prompt``, ``schedule`` in words, ``id``),
    or None when its text is no JSON object holding any of them."""
    try:
        call = json.loads(text)
    except (ValueError, RecursionError):  # a text nested past json's depth is no task call
        return None
    if not isinstance(call, dict):
        return None
    out: dict[str, str] = {}
    for key in ("title", "prompt", "schedule", "jawbone_id"):
        value = call.get(key)
        if isinstance(value, str) and value.strip() and len(value) <= MAX_FIELD_CHARS:
            out["id" if key == "jawbone_id" else key] = value.strip()
    if "schedule" in out:
        out["schedule"] = schedule_words(out["schedule"])
    return out or None


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _rule(rule: str) -> dict[str, str]:
    parts: dict[str, str] = {}
    for item in rule.strip().split(";"):
        key, _, value = item.partition("=")
        parts[key.strip().upper()] = value.strip()
    return parts


def schedule_words(schedule: str) -> str:
    """A VEVENT schedule in words; a schedule of another form as written (one line)."""
    start = _DTSTART_RE.search(schedule)
    rule_m = _RRULE_RE.search(schedule)
    if rule_m is None:
        if start is None:
            return " ".join(schedule.split())
        y, mo, d, h, mi = start.groups()
        return f"once on {y}-{mo}-{d}" + (f" at {h}:{mi}" if h else "")
    rule = _rule(rule_m.group(1))
    every, unit = _FREQ.get(rule.get("FREQ", "").upper(), ("repeating", ""))
    interval = rule.get("INTERVAL", "1")
    words = f"every {interval} {unit}" if interval.isdigit() and int(interval) > 1 and unit else every
    days = [_DAYS[d[-2:].upper()] for d in rule.get("BYDAY", "").split(",") if d[-2:].upper() in _DAYS]
    if days:
        words += " on " + _and(days)
    elif rule.get("BYMONTHDAY", "").lstrip("-").isdigit():
        words += f" on day {rule['BYMONTHDAY']}"
    hour, minute = rule.get("BYHOUR", ""), rule.get("BYMINUTE", "")
    if not hour.isdigit() and start is not None and start.group(4):
        hour, minute = start.group(4), start.group(5)
    if hour.isdigit():
        words += f" at {int(hour):02d}:{int(minute) if minute.isdigit() else 0:02d}"
    return words


def content(task: dict[str, Any]) -> str:
    """A task as a memory: "ChatGPT task: <title> (<schedule>): <prompt>"."""
    text = f"ChatGPT task: {task.get('title') or task.get('prompt', '')}"
    if task.get("schedule"):
        text += f" ({task['schedule']})"
    if task.get("prompt") and task.get("title"):
        text += f": {task['prompt']}"
    return text
