"""Standing instructions: rules a user sets for the rest of a session, found without an
LLM and carried verbatim into every request and every compaction, within a share of the
budget (see :mod:`hermes_core.standing._ledger` for the rules)."""

from hermes_core.standing._block import HEADER, is_block
from hermes_core.standing._detect import Directive, find_directives
from hermes_core.standing._ledger import SHARE, Carried, Instruction, StandingInstructions
from hermes_core.standing._placing import with_block, without_blocks
from hermes_core.standing._sessions import KEPT_SESSIONS, SessionInstructions

__all__ = [
    "HEADER",
    "KEPT_SESSIONS",
    "SHARE",
    "Carried",
    "Directive",
    "Instruction",
    "SessionInstructions",
    "StandingInstructions",
    "find_directives",
    "is_block",
    "with_block",
    "without_blocks",
]
