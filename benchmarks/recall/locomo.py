"""LoCoMo conversation files, as the recall protocol reads them.

Each file holds ``speaker_a``, ``speaker_b``, sessions ``session_N`` (turns with
``speaker``, ``dia_id``, ``text`` and an optional ``blip_caption``), their
``session_N_date_time``, and ``qa``. A conversation becomes one OpenAI
message list: a system message, then every turn in session order,
``speaker_a`` as ``user`` and ``speaker_b`` as ``assistant``, content
``"[<session date>] <speaker>: <text>"`` plus ``" [shares a photo: <caption>]"``.
Questions of categories 1-4 (those with evidence) are kept; an evidence entry
holding several ids (``"D8:6; D9:17"``) is split, and a question whose
evidence is empty or names a turn that does not exist is left out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Conversation", "Question", "load"]

SYSTEM = "You are a helpful assistant in a long-running conversation between two friends."
#: Characters of an evidence turn that must appear verbatim in a request.
EVIDENCE_CHARS = 200
_SESSION = re.compile(r"session_(\d+)")
_SEPARATORS = re.compile(r"[;,\s]+")


@dataclass(frozen=True)
class Question:
    text: str
    category: int
    #: The first EVIDENCE_CHARS characters of each evidence turn's message content.
    evidence: tuple[str, ...]

    @property
    def message(self) -> dict[str, Any]:
        return {"role": "user", "content": self.text}


@dataclass(frozen=True)
class Conversation:
    name: str
    messages: list[dict[str, Any]]
    questions: list[Question]

    #: The messages that are turns (all but the system message), in order.
    @property
    def turns(self) -> list[dict[str, Any]]:
        return self.messages[1:]


def _content(date: str, turn: dict[str, Any]) -> str:
    text = f"[{date}] {turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def load(path: Path) -> Conversation:
    """One LoCoMo file as a message list and its answerable questions."""
    data = json.loads(path.read_text(encoding="utf-8"))
    sessions = sorted(
        (int(match[1]), key) for key in data if (match := _SESSION.fullmatch(key)) is not None
    )
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM}]
    by_id: dict[str, str] = {}
    for number, key in sessions:
        date = data.get(f"session_{number}_date_time", "")
        for turn in data[key]:
            role = "user" if turn["speaker"] == data["speaker_a"] else "assistant"
            content = _content(date, turn)
            messages.append({"role": role, "content": content})
            by_id[turn["dia_id"]] = content[:EVIDENCE_CHARS]
    questions = []
    for qa in data.get("qa", []):
        if qa.get("category") not in (1, 2, 3, 4):
            continue
        ids = [i for entry in qa.get("evidence", []) for i in _SEPARATORS.split(entry) if i]
        if not ids or any(i not in by_id for i in ids):
            continue
        evidence = tuple(dict.fromkeys(by_id[i] for i in ids))
        questions.append(Question(str(qa["question"]), int(qa["category"]), evidence))
    return Conversation(path.stem, messages, questions)
