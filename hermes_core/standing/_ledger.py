"""The standing instructions of one session: found in user messages, carried in every request.

:class:`StandingInstructions` reads the user messages it has not seen
(:meth:`~StandingInstructions.observe`, given the whole history each turn, as
engines get it), keeps the instructions in force, and gives the block an
engine puts in each request and each compaction
(:meth:`~StandingInstructions.carried`), within a share of the budget.

Rules, in order:

- A later instruction on the same slot (language, format, length, units, how
  to address the user, tone) replaces the earlier; so does a restatement (most
  of its words the same).
- A revocation ends the instruction it names: the one on its slot, else the
  one sharing most of its content words (at least a third of them).
- What is carried is the user's text verbatim: the whole message when it is
  short (:data:`WHOLE_MESSAGE_CHARS`), else the sentence that states the rule.
- At most :data:`MAX_IN_FORCE` instructions are in force: past that, the
  weakest, then the oldest, ends (``standing.instruction_evicted``), so that
  reading a message costs the same however many rules came before.
- Over its share of the budget, instructions give way in this order: the
  weakest first (a rule inferred from its form before one the user set in
  time, "from now on ..."), then the oldest. Each one dropped is logged as
  ``standing.instruction_dropped`` and counted in :attr:`dropped`; nothing is
  forgotten: it comes back when there is room.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from hermes_core._log import get_logger
from hermes_core._redaction import redact
from hermes_core._tokens import MESSAGE_OVERHEAD, estimate_text_tokens
from hermes_core.messages import is_users_words, text_of
from hermes_core.standing._block import HEADER, is_block
from hermes_core.standing._detect import find_directives
from hermes_core.standing._placing import with_block, without_blocks
from hermes_core.standing._topics import content_words, overlap, slot

__all__ = [
    "MAX_IN_FORCE",
    "SHARE",
    "WHOLE_MESSAGE_CHARS",
    "Carried",
    "Instruction",
    "StandingInstructions",
]

logger = get_logger("hermes_core.standing")

#: The share of a request's budget the carried instructions may take, by default.
SHARE = 0.2
#: A user message this short that states a rule is carried whole.
WHOLE_MESSAGE_CHARS = 300
#: User messages remembered as read (by digest); past this the oldest are forgotten.
SEEN_MESSAGES = 100_000
#: Instructions in force at most (a person sets a handful; past this, the weakest and
#: oldest end).
MAX_IN_FORCE = 64
#: Ended instructions remembered (so a carried block cannot bring one back); past this the
#: oldest are forgotten.
ENDED_KEPT = 10_000
#: A revocation or restatement matches an instruction sharing this share of its words.
MATCH = 1 / 3
RESTATED = 0.8


@dataclass(frozen=True)
class Instruction:
    """One instruction in force: ``text`` verbatim, in the order the user gave it."""

    text: str
    order: int
    score: int
    slot: str | None
    #: Its content words, read once (revocations and restatements are matched by them).
    words: frozenset[str] = frozenset()

    @classmethod
    def of(cls, text: str, order: int, score: int, slot_of: str | None) -> Instruction:
        return cls(text, order, score, slot_of, content_words(text))

    @property
    def tokens(self) -> int:
        """What its line in the block costs."""
        return estimate_text_tokens(f"- {self.text}\n")


@dataclass(frozen=True)
class Carried:
    """What a request carries: ``message`` (None when there is nothing to carry), the
    instructions in it, and those left out for want of room."""

    message: dict[str, Any] | None
    kept: tuple[Instruction, ...]
    left_out: tuple[Instruction, ...]


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=12).digest()


class StandingInstructions:
    """The standing instructions of one session. Thread-safe.

    ``place(messages, block)`` puts a block after the system messages a list starts
    with, in place of any earlier one; ``strip(messages)`` takes blocks out;
    ``is_block(message)`` tells an engine its own block.
    """

    #: The share of a request's budget the block takes at most, by default.
    SHARE: ClassVar[float] = SHARE
    place = staticmethod(with_block)
    strip = staticmethod(without_blocks)
    is_block = staticmethod(is_block)

    def __init__(self) -> None:
        self._in_force: list[Instruction] = []
        self._seen: OrderedDict[bytes, None] = OrderedDict()
        #: Revoked or replaced texts, never taken again (the latest ENDED_KEPT).
        self._ended: OrderedDict[str, None] = OrderedDict()
        self._order = 0
        #: The list read last: its length, and its first and last message objects. A list
        #: that extends it (an agent hands its whole history every turn) is read from there.
        self._last: tuple[int, int, int] = (0, 0, 0)
        self._lock = threading.Lock()
        #: Instructions left out of a request for want of room, counted per request.
        self.dropped = 0

    @property
    def instructions(self) -> tuple[Instruction, ...]:
        """The instructions in force, oldest first."""
        with self._lock:
            return tuple(self._in_force)

    def shown(self) -> list[str]:
        """The instructions in force as a status may show them: redacted (a user may have
        put a key in one; the request carries it, a status never does)."""
        return [redact(i.text) for i in self.instructions]

    def observe(
        self, messages: Sequence[Any], skip: Callable[[dict[str, Any]], bool] | None = None
    ) -> int:
        """Read the user's own words in ``messages`` not read before; the number of
        instructions set or ended.

        Only ``user`` messages no engine wrote are read (:func:`hermes_core.is_users_words`;
        ``skip`` names more to leave, such as the engine's own summaries), and blocks an
        engine carried (``system`` messages, ``is_block``) are adopted. A tool result,
        a reply or a summary never sets or ends an instruction, whatever it says.

        Costs what is new: a list that starts with the very message objects the last one
        did (first and last, as a host hands them every turn) is read from where that one
        ended; any other list is read whole, each message's text checked against those
        read before by its digest."""
        changes = 0
        count, first, last = self._last
        start = 0
        if (
            0 < count <= len(messages)
            and id(messages[0]) == first
            and id(messages[count - 1]) == last
        ):
            start = count  # the same objects where they were: only what follows is new
        if messages:
            self._last = (len(messages), id(messages[0]), id(messages[-1]))
        for message in itertools.islice(messages, start, None):
            if is_block(message):  # carried before (by this process or another): adopted
                changes += self._adopt(text_of(message))
                continue
            if not is_users_words(message):  # a tool's, the model's or an engine's text
                continue
            if skip is not None and skip(message):
                continue
            text = text_of(message)
            key = _digest(text)
            with self._lock:
                if key in self._seen:
                    continue
                self._seen[key] = None
                while len(self._seen) > SEEN_MESSAGES:
                    self._seen.popitem(last=False)
            changes += self._read(text)
        return changes

    def _adopt(self, block: str) -> int:
        """Take the instructions of a block an engine carried (after a restart, or from a
        compacted history) as in force, unless ended here since."""
        lines = [line[2:] for line in block.splitlines()[1:] if line.startswith("- ")]
        adopted = 0
        with self._lock:
            for text in lines:
                if text in self._ended or self._in_force_text(text):
                    continue
                self._order += 1
                self._add(Instruction.of(text, self._order, 2, slot(text)))
                adopted += 1
        return adopted

    def _read(self, text: str) -> int:
        changes = 0
        directives = find_directives(text)
        instructions = [d for d in directives if d.kind == "instruction"]
        whole = len(text.strip()) <= WHOLE_MESSAGE_CHARS and len(instructions) >= 1
        with self._lock:
            for directive in directives:
                if directive.kind == "revocation":
                    changes += self._revoke(directive.text)
                    continue
                carried = text.strip() if whole else directive.text
                if carried in self._ended or self._in_force_text(carried):
                    continue
                made = Instruction.of(carried, 0, directive.score, slot(directive.text))
                changes += 1 + self._replace(made, slot(carried))
                self._order += 1
                self._add(dataclasses.replace(made, order=self._order))
                if whole:  # one message, carried once, whatever it holds
                    break
        return changes

    def _in_force_text(self, text: str) -> bool:
        return any(i.text == text for i in self._in_force)  # at most MAX_IN_FORCE

    def _add(self, instruction: Instruction) -> None:
        """Put ``instruction`` in force; past :data:`MAX_IN_FORCE`, the weakest and oldest
        ends."""
        self._in_force.append(instruction)
        if len(self._in_force) > MAX_IN_FORCE:
            weakest = min(self._in_force, key=lambda i: (i.score, i.order))
            self._end(weakest, "evicted")

    def _replace(self, new: Instruction, named: str | None) -> int:
        """End what ``new`` replaces: the instruction on its slot (``named``), or a
        restatement."""
        ended = [
            i
            for i in self._in_force
            if (named is not None and i.slot == named) or overlap(i.words, new.words) >= RESTATED
        ]
        for instruction in ended:
            self._end(instruction, "replaced")
        return len(ended)

    def _revoke(self, text: str) -> int:
        named = slot(text)
        candidates = [i for i in self._in_force if named is not None and i.slot == named]
        if not candidates:
            words = content_words(text)
            scored = [(overlap(i.words, words), i) for i in self._in_force]
            best = max((s for s, _ in scored), default=0.0)
            candidates = [i for s, i in scored if s >= MATCH and s == best]
        for instruction in candidates:
            self._end(instruction, "revoked")
        return len(candidates)

    def _end(self, instruction: Instruction, why: str) -> None:
        self._in_force.remove(instruction)
        self._ended[instruction.text] = None
        while len(self._ended) > ENDED_KEPT:
            self._ended.popitem(last=False)
        logger.info("standing.instruction_ended", reason=why, order=instruction.order)

    def carried(self, budget_tokens: int, share: float = SHARE) -> Carried:
        """The block for a request of ``budget_tokens``: as many instructions in force as
        fit ``share`` of it, by the rule of this module (weakest, then oldest, give way)."""
        with self._lock:
            in_force = list(self._in_force)
        if not in_force:
            return Carried(None, (), ())
        room = int(max(0, budget_tokens) * share) - estimate_text_tokens(HEADER) - MESSAGE_OVERHEAD
        keep: list[Instruction] = []
        # strongest first, and of equal strength the newest first, while they fit
        for instruction in sorted(in_force, key=lambda i: (-i.score, -i.order)):
            if instruction.tokens <= room:
                keep.append(instruction)
                room -= instruction.tokens
        kept = tuple(sorted(keep, key=lambda i: i.order))
        left_out = tuple(i for i in in_force if i not in keep)
        if left_out:
            with self._lock:
                self.dropped += len(left_out)
            logger.warning(
                "standing.instruction_dropped",
                left_out=len(left_out),
                kept=len(kept),
                budget_tokens=budget_tokens,
            )
        if not kept:
            return Carried(None, (), left_out)
        lines = "\n".join(f"- {i.text}" for i in kept)
        return Carried({"role": "system", "content": f"{HEADER}\n{lines}"}, kept, left_out)
