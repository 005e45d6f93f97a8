"""Finding standing instructions in what a user wrote, without an LLM.

A *standing instruction* is a rule the user sets for the rest of the session
("from now on, show me the draft before sending anything", "reply in bullet
points only", "never write my phone number into a file"), as opposed to a
task for this turn ("write a parser for this file"). Each sentence of a user
message is scored on cues of three kinds:

- **persistence**: a phrase that sets a rule in time ("from now on", "for the
  rest of this session", "going forward", "until I say otherwise", "whenever",
  "every time", "by default");
- **frequency addressed to the assistant**: "always", "never", "don't ever",
  "at all times", "no matter what", in a sentence that tells the assistant
  what to do;
- **a rule about every answer**: a directive (an imperative, "please ...",
  "I want you to ...", "make sure ...", "you must ...") whose object is the
  assistant's answers or conduct in general (replies, answers, responses,
  format, language, length, units, how to address the user, what to ask or
  show first, what never to write), not one thing of this turn.

A sentence that only asks a question, or points at something of this turn
("this", "the following", "below"), needs a persistence cue to count. A
*revocation* ("forget what I said about bullet points", "you can stop
asking before each commit", "no need to use metric anymore") is found the
same way; the ledger (:mod:`.ledger`) decides which earlier instruction it
ends. Code blocks and quoted text are skipped: they are material, not rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from hermes_core.standing._facts import states_a_governing_fact
from hermes_core.standing._languages import foreign_rule
from hermes_core.standing._learned import likelihood

__all__ = ["MAX_RULE_CHARS", "MAX_SENTENCE", "Directive", "find_directives", "sentences"]

Kind = Literal["instruction", "revocation"]


@dataclass(frozen=True)
class Directive:
    """A sentence of a user message that sets (``instruction``) or ends (``revocation``) a
    rule; ``text`` is the sentence verbatim, ``score`` how many cues it carries."""

    kind: Kind
    text: str
    score: int


_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.DOTALL)
# a quoted line: ">" after spaces or tabs (never across lines: "\s*" would make a run of
# blank lines cost its length from every line start)
_QUOTED = re.compile(r"^[ \t]*>.*$", re.MULTILINE)
# a sentence ends at . ! ? or a line break (list items are sentences of their own)
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)", re.MULTILINE)

_PERSISTENCE = re.compile(
    r"\b(?:from now on|from here on(?: out| in)?|from this point(?: on| forward)?|going forward"
    r"|for the rest of (?:this|our|the|today)(?: (?:session|conversation|chat|day|week|project))?"
    r"|for the remainder of(?: (?:this|our|the) (?:session|conversation|chat|day|week|project))?"
    r"|for this (?:whole |entire )?"
    r"(?:session|conversation|chat|project)|for all (?:future |later |subsequent )?"
    r"(?:replies|responses|answers|messages)|in (?:all|every|each) (?:of )?(?:your )?(?:future |"
    r"later |subsequent |following )?(?:replies|responses|answers|messages|reply|response|answer)"
    r"|until (?:i|we) (?:say|tell you) otherwise|until further notice|until i (?:say|tell you)"
    r"|unless (?:i|we) (?:say|ask|tell you) otherwise|unless told otherwise"
    r"|(?:every|each) time (?:you|i|we)|whenever (?:you|i|we)|any ?time (?:you|i|we)"
    r"|by default|as a (?:general |standing )?rule|in (?:the )?future|from today|henceforth"
    r"|(?:for|in) (?:the )?(?:rest|remainder) of (?:the|this|our) (?:session|conversation|chat|"
    r"day|week|project)|(?:this|that) (?:applies|goes) (?:to|for) (?:everything|all|every))\b",
    re.IGNORECASE,
)
_FREQUENCY = re.compile(
    r"\b(?:always|never|ever|at all times|no matter what|under no circumstances|in no case"
    r"|without exception|each and every|every single|consistently|stick to|keep to)\b",
    re.IGNORECASE,
)
_DIRECTIVE_START = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|also|and|but|so|then|oh|hey|actually|one more thing|one thing|"
    r"important(?:ly)?|note|remember|fyi|btw|p\.?s\.?)[,:;!.\-\s]+)*"
    r"(?:(?:please|pls|kindly|just)[,\s]+)?"
    r"(?:(?:i(?:'d| would)? (?:want|need|like|prefer|expect|ask) (?:you )?(?:to )?)"
    r"|(?:i'd rather you|i would rather you|i prefer (?:that )?you|i prefer it when you"
    r"|make sure (?:to |you |that you )?|be sure to"
    r"|remember to|don't forget to|do not forget to|you (?:should|must|need to|have to|will|"
    r"shall|are to|may only|can only)|let's|let us|could you|can you|would you|will you)"
    r"|(?:don'?t|do not|never|always|only|avoid|stop|refrain from|no more|keep|use|reply"
    r"|respond|answer|write|format|call|address|refer|show|ask|check|confirm|tell|put|give"
    r"|include|add|end|start|begin|sign|speak|talk|explain|summari[sz]e|limit|stay|stick"
    r"|prefer|switch|translate|mention|cite|quote|spell|wait|send|run|double-check|be"
    r"|list|convert|round|note|flag|warn|remind|lead|skip|omit|drop|leave|suggest|recommend"
    r"|offer|describe|label|mark|sort|number|give|spare|say so|admit|point out|do it"
    r"|go ahead|proceed|treat|interpret|assume|act))\b",
    re.IGNORECASE,
)
# what a rule about every answer is about: the assistant's output and conduct in general
_GENERAL_OBJECT = re.compile(
    # whatever the assistant does from here: "any number you quote", "everything you write"
    r"\b(?:any|every|each|all|anything|everything|whatever)\b[\w\s']{0,24}?\byou(?:'ll)? \w+"
    r"|\b(?:repl(?:y|ies)|respon(?:se|ses|d)|answers?|messages?|outputs?|emails?|drafts?"
    r"|bullet(?: points?)?|lists?"
    r"|tables?|markdown|json|prose|paragraphs?|sentences?|words?|characters?|emojis?|tone"
    r"|formal(?:ly)?|casual(?:ly)?|concise(?:ly)?|brief(?:ly)?|short|shorter|long(?:er)?"
    r"|detailed|language|english|french|spanish|german|italian|portuguese|japanese|chinese"
    r"|dutch|russian|metric|imperial|celsius|fahrenheit|units?|address me|refer to me"
    r"|call me (?!when|if|later|back|tomorrow|tonight|at\b|on\b|after|before|soon|again|up)"
    r"|my name|first name|before (?:you |sending|running|deleting|committing|pushing|"
    r"executing|making|changing|buying|booking|posting|sharing|submitting|installing|merging)"
    r"|without (?:asking|checking|confirming|my)|unless|ask(?:ing)? (?:me )?(?:first|before)"
    r"|check with me|confirm with me|my (?:phone|number|address|email|password|details)"
    r"|personal|sign off|signature|spoilers?|jargon|code comments?|type hints?|docstrings?"
    r"|semicolons?|tabs|spaces|indentation|commit messages?|timezone|time zone|currency"
    r"|dates?|format(?:ted|ting)?|style|voice|caps|capital letters|exclamation|sources"
    r"|(?:for|give|show|write|use|all|any|the) times|times in|prices|distances|temperatures"
    r"|weights|measurements|amounts|heights"
    r"|kilomet(?:er|re)s|km|miles|met(?:er|re)s|feet|inches|pounds|kilos|kilograms|kg|lbs"
    r"|grams|ounces|lit(?:er|re)s|gallons|euros?|dollars?|pounds sterling|yen"
    r"|preamble|intro(?:duction)?s?|ingredients|etymolog(?:y|ies)|local time"
    r"|citations?|references|links|jokes|apolog(?:y|ies|i[sz]e)|disclaimers?|caveats?"
    r"|filler|small talk|spelling|grammar|british|american|python|typescript|javascript"
    r"|examples?|code blocks?|headings?|summar(?:y|ies)|tl;?dr"
    # emphasis and order: "put the key point in bold", "start with the conclusion"
    r"|bold|italics?|plain text|plain(?:ly)?|simple words|key points?|main points?|conclusion"
    r"|bottom line|headers?"
    # how much of what: "no more than three suggestions", "fewer options"
    r"|suggestions|recommendations|options|ideas|follow-ups?|alternatives|choices"
    r"|numbers|digits|numerals|figures|without asking"
    # manner toward the user: "talk to me like a friend", "explain it as if I were new"
    r"|(?:to|with) me (?:like|as if|as though)|like (?:a|an) (?:friend|teacher|colleague|human"
    r"|person|expert|beginner|child|kid)|like i'?m|as if i"
    r"|(?:blunt|honest|frank|direct|gentle|patient|strict|straight|brief|polite|informal"
    r"|formal|casual)\s+with me)\b"
    # what the assistant gives the user, in general: "the numbers you give me"
    r"|\b(?:the|your)\s+[a-z]+s\s+you\s+(?:give|write|send|show|quote|suggest|recommend|draft"
    r"|make|pick|choose|find|use)\b",
    re.IGNORECASE,
)
# a time zone by its abbreviation, written in capitals: "use AEST", "times in UTC+2"
_TIME_ZONE = re.compile(r"\b(?:[A-Z]{2,4}T|UTC|GMT)(?:[+-]\d{1,2}(?::\d\d)?)?\b")
# a rule by its condition: "when you summarise anything, put the number first"
_CONDITION = re.compile(
    r"^\s*(?:and |also |so )?(?:when(?:ever)?|if|any ?time|each time|every time|before|after"
    r"|for (?:any|every|each|all))"
    r" (?:you|i|we|something|anything|it|there|any|my|your|someone|anyone)"
    r"\b[^,;:?]{1,100}[,;:]\s*(?P<rest>.+)$"
    # "for any travel plan, include the train times"
    r"|^\s*(?:and |also |so )?for (?:any|every|each|all)\b[^,;:?]{1,100}[,;:]\s*(?P<also>.+)$",
    re.IGNORECASE | re.DOTALL,
)
# pointing at this turn's material: a task, not a rule (unless a persistence cue says so)
_THIS_TURN = re.compile(
    r"\b(?:this (?:one|file|function|code|bug|error|question|email|draft|document|page|"
    r"text|message|list|table|script|test)|the following|below|above|attached|right now"
    r"|for now|this time|just this|today's)\b"
    # a named file or path is a thing of this turn: "add type hints to billing/core.py"
    # (a name starts where a run of name characters does, and is read 100 at most: a long
    # run of words and hyphens costs its length once, not from each of its characters)
    r"|\w/[\w.-]|(?<![\w-])[\w-]{1,100}\.(?:py|js|ts|tsx|md|json|ya?ml|txt|csv|go|rs|java|rb|c"
    r"|cpp|h|sql|sh|toml|ini|cfg|html|css)\b",
    re.IGNORECASE,
)
# quoted words are material, whatever they hold ("if I say 'tl;dr', ..."): a quote opens
# after a space or at the start, so an apostrophe ("haven't") opens none
_QUOTE = re.compile(r"(?:(?<=\s)|^)(['\"\u201c\u2018])[^'\"\u201d\u2019\n]{1,40}['\"\u201d\u2019]")
_CONDUCT = (
    r"(?:mention|bring up|bring|use|say|suggest|recommend|include|ask|share|call|write|talk"
    r"|discuss|tell|show|send|post|add|put|give(?! up| in\b)|offer|propose|reply|respond"
    r"|answer|apologi[sz]e"
    r"|swear|curse|repeat|assume|list|quote|link|name|describe|sign|book|order|schedule"
    r"|round|rely|guess|abbreviate|exaggerate|simplify|shorten|truncate|translate|lecture"
    r"|moralize|moralise|judge|remind|contact|email|text|message|spam|push|pester|nag|rush)"
)
# a prohibition addressed to the assistant
_PROHIBITION = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|also|and|but|so|oh|one thing|one more thing|just|important|fyi"
    r"|btw)[,:;!.\s]+)*(?:please\s+|pls\s+|kindly\s+)?"
    rf"(?:(?:don'?t|do not|never|no more)\s+(?:ever\s+)?{_CONDUCT}\w*\b"
    r"|(?:stop|quit)\s+\w+ing\b"
    r"|no\s+(?!idea|problem|worries|way\b|thanks|thank|doubt|kidding|clue|wonder|one\b"
    r"|matter|longer|more than|big deal|rush|need|chance|offen[cs]e|pressure|comment|reason"
    r"|luck|kids|one's|time\b|sir|ma'am|prob)[a-z]+\b)",
    re.IGNORECASE,
)
# a prohibition by a phrasal verb or "nothing about": "hold off on the emojis", "skip the
# pleasantries", "nothing about politics, please"; its object what replies hold, or plural
_LEAVE_OUT = re.compile(
    r"^\s*(?:(?:please|pls|just|and|also|oh|ok(?:ay)?|so|then)[,\s]+)*"
    r"(?:hold off on|go easy on|lay off|ease up on|tone down|cut(?: out| back on| down on)?"
    r"|leave out|skip|drop|ditch|spare me|enough with|easy on|nothing (?:about|on|regarding"
    r"|involving|related to))\s+(?:the\s+|all\s+(?:the\s+)?|your\s+|any\s+)?"
    r"(?P<object>[\w-]+(?:\s+[\w-]+)?)",
    re.IGNORECASE,
)
#: The most words such a prohibition has.
_LEAVE_OUT_WORDS = 8


def _leaves_out(sentence: str) -> bool:
    """Whether ``sentence`` is a short prohibition by a phrasal verb about what replies hold
    ("skip the pleasantries"), not a task ("cut the cake")."""
    match = _LEAVE_OUT.search(sentence)
    if match is None or len(sentence.split()) > _LEAVE_OUT_WORDS:
        return False
    if sentence.rstrip().endswith("?") or _THIS_TURN.search(sentence):
        return False
    thing = match["object"].split()[-1].lower()
    return (
        _GENERAL_OBJECT.search(match["object"]) is not None
        or (thing.endswith("s") and not thing.endswith("ss"))
        or thing in {"talk", "fluff", "filler", "hype", "chit-chat", "chitchat", "politics"}
    )


# a ban on doing anything of a kind: "don't sugarcoat anything", "never hype things up"
_BAN_ON_ANYTHING = re.compile(
    r"^\s*(?:(?:please|pls|just|and|also|oh|ok(?:ay)?)[,\s]+)*(?:don'?t|do not|never)\s+"
    r"(?:ever\s+)?(?!worry|forget|mind|hesitate|stress|panic|be\b|let\b|miss|feel|give up)"
    r"[a-z]+(?:\s+(?:up|down|over|out))?\s+(?:anything|everything|things|stuff)\b",
    re.IGNORECASE,
)
_NO_SOMETHING = re.compile(r"\s*(?:please\s+)?no\b", re.IGNORECASE)
# where a rule can begin inside a sentence: after a comma, a colon or a semicolon, or "so"
_CLAUSE = re.compile(r"[,;:]\s+|\s+(?:so|and so|which means)\s+|\s+-\s+")
_REVOKE = re.compile(
    r"^\s*(?:(?:ok(?:ay)?|actually|also|and|oh|so|now|sorry|wait|please|pls|hey)[,!.\s]+)*"
    r"(?:forget (?:about |what i said|my (?:earlier|previous|last)|that|the )"
    r"|ignore (?:my |what i said|the (?:earlier|previous))|disregard (?:my |what i said|the )"
    r"|cancel (?:my |that|the )|scrap (?:my |that|the )|never ?mind (?:about |the |my )"
    r"|you (?:can|may) (?:stop|drop|forget|skip)|(?:there's |there is )?no (?:more )?need to"
    r"|no longer (?:need|have) to|(?:don't|do not) (?:need|have) to .{0,60}any ?more"
    r"|(?:stop|quit) (?:\w+ing)\b.{0,40}\bany ?more|that (?:rule|instruction) no longer"
    r"|is no longer (?:needed|necessary|required)|(?:doesn't|does not) apply any ?more"
    r"|back to (?:normal|the default|your default|usual))",
    re.IGNORECASE,
)


#: Words without one of which ``_PERSISTENCE`` / ``_FREQUENCY`` cannot match: looked for
#: first, each a substring test at C speed (most sentences hold none: no pattern runs).
_PERSISTENCE_WORDS = (
    "now on", "here on", "this point", "forward", "rest of", "remainder", "for this",
    "for all", "in all", "in every", "in each", "until", "unless", "time", "whenever",
    "default", "rule", "future", "today", "henceforth", "applies", "goes",
)  # fmt: skip
_FREQUENCY_WORDS = (
    "always", "never", "ever", "at all times", "no matter", "circumstances", "no case",
    "exception", "each and every", "every single", "consistently", "stick to", "keep to",
)  # fmt: skip


def _mentions(lowered: str, words: tuple[str, ...], pattern: re.Pattern[str]) -> bool:
    return any(word in lowered for word in words) and pattern.search(lowered) is not None


#: The longest sentence read as one: a longer run without a full stop or a line break is
#: read in pieces of this size, cut at a space where there is one. It bounds what every
#: pattern examines, so detection is linear in the text whatever the text.
MAX_SENTENCE = 2_000
#: The longest sentence that can state a rule (a longer one is material, not a rule).
MAX_RULE_CHARS = 1_000


def _pieces(sentence: str) -> list[str]:
    """``sentence`` in pieces of at most :data:`MAX_SENTENCE` characters (cut by index:
    each character is copied once)."""
    pieces = []
    start = 0
    while len(sentence) - start > MAX_SENTENCE:
        cut = sentence.rfind(" ", start + MAX_SENTENCE // 2, start + MAX_SENTENCE)
        cut = start + MAX_SENTENCE if cut < 0 else cut
        pieces.append(sentence[start:cut])
        start = cut
    pieces.append(sentence[start:])
    return pieces


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` outside code and quotes, stripped, in order; none longer
    than :data:`MAX_SENTENCE`."""
    prose = _QUOTED.sub(" ", _CODE.sub(" ", text))
    found = (
        piece.strip(" \t-*•") for m in _SENTENCE.finditer(prose) for piece in _pieces(m.group(0))
    )
    return [s for s in found if len(s) > 3]


def _english(sentence: str) -> int:
    """The cues of an English rule set in time, by frequency or about every answer.

    Most sentences carry no cue at all; they are decided by the three cue patterns
    alone, before the larger patterns of what a rule is about are run."""
    lowered = sentence.lower()
    persistence = _mentions(lowered, _PERSISTENCE_WORDS, _PERSISTENCE)
    condition = _CONDITION.match(_QUOTE.sub("QUOTED", sentence))
    if condition and _DIRECTIVE_START.search(condition["rest"] or condition["also"]):
        return 2 + persistence  # a rule by its condition: it holds whenever that does
    frequency = _mentions(lowered, _FREQUENCY_WORDS, _FREQUENCY)
    directive = _DIRECTIVE_START.search(sentence) is not None
    if persistence and not directive:  # the directive may follow the cue: "From now on, ..."
        rest = _PERSISTENCE.sub(" ", sentence).strip(" ,;:-")
        directive = _DIRECTIVE_START.search(rest) is not None
    if not (persistence or frequency or directive):
        return 0
    general = _GENERAL_OBJECT.search(sentence) is not None or _TIME_ZONE.search(sentence)
    if persistence and (directive or general):  # a directive set in time
        return 3 if (directive and general) or frequency else 2
    question = sentence.rstrip().endswith("?")
    if _THIS_TURN.search(sentence):
        return 0
    if question and not frequency:  # a request put as a question sets a mode, with me
        return 1 if general and directive and _WITH_ME.search(sentence) else 0
    if frequency and general:
        return 2
    if directive and general:
        return 1
    return 0


# a mode the user asks for in their dealings with the assistant: "use British English with
# me", "be honest with me", "talk to me like a friend"
_WITH_ME = re.compile(r"\b(?:with|to|for) me\b", re.IGNORECASE)
# a rule without a verb: "Shorter answers, please.", "Prices in euros, please.", "Answers
# in two paragraphs max", "Less detail, more bullet points." A statement has a subject and
# a verb first; a short line about the assistant's output with a request or a limit is a rule
_ELLIPTICAL_MARK = re.compile(
    r"\b(?:please|pls|max(?:imum)?|at most|tops|only|no more than|ideally|preferably"
    r"|less|more|fewer|for (?:any|all|every|each)|rather than|instead of)\b"
    r"|,\s*not\b",
    re.IGNORECASE,
)
_STATEMENT = re.compile(
    r"^\s*(?:i|i'm|i've|i'd|we|we're|he|she|they|it|it's|you|you're|my|our|his|her|their"
    r"|this|that|there|these|those|what|how|why|who|where|when|which|thanks|thank)\b"
    r"|\b(?:was|were|is|are|am|had|did|has|have|got|went|made|said|thought|felt|seems?)\b",
    re.IGNORECASE,
)
#: The most words a rule without a verb has.
_ELLIPTICAL_WORDS = 10


def _elliptical(sentence: str) -> bool:
    """Whether ``sentence`` is a short verbless rule about the assistant's output."""
    if sentence.rstrip().endswith("?") or len(sentence.split()) > _ELLIPTICAL_WORDS:
        return False
    if _STATEMENT.search(sentence) or _DIRECTIVE_START.search(sentence):
        return False  # a statement, or a directive already judged by its cues
    return _ELLIPTICAL_MARK.search(sentence) is not None and (
        _GENERAL_OBJECT.search(sentence) is not None or _TIME_ZONE.search(sentence) is not None
    )


def _prohibited(sentence: str) -> bool:
    """Whether ``sentence`` forbids the assistant something ("never mention my ex", "no
    emojis please", "stop apologising"), and is neither a question nor about this turn."""
    if _PROHIBITION.search(sentence) is None or sentence.rstrip().endswith("?"):
        return False
    return _THIS_TURN.search(sentence) is None


#: A sentence the learned scorer rates at least this likely is a rule, whatever its cues.
LEARNED_RULE = 0.9
#: The fewest words a sentence needs to be a rule on the learned scorer's word alone: a
#: reply of a word or two ("No.", "No thanks") states nothing to keep.
LEARNED_FEWEST_WORDS = 3
#: A sentence found by one weak cue alone (a form named in a directive, a verbless line) is
#: a rule only when the learned scorer rates it at least this likely: "Write a short poem
#: about the sea" names a form and is a task.
LEARNED_WEAK_CUE = 0.5


def score(sentence: str) -> int:
    """How many cues make ``sentence`` a standing instruction (0: none, or a task): a rule
    in English by its cues, a prohibition, a fact about the user that governs later
    answers (:mod:`.facts`), a rule in another language (:mod:`.languages`), or a rule in
    a clause after the first ("I live in Sydney, so give times in AEST"). A sentence with
    one weak cue is weighed by :mod:`.learned` too, and one with none that it rates as a
    rule is one."""
    likely = likelihood(sentence)
    english = _english(sentence)
    if english > 1 or (english == 1 and likely >= LEARNED_WEAK_CUE):
        return english
    found = _cued(sentence, likely)
    if found:
        return found
    if likely >= LEARNED_RULE and len(sentence.split()) >= LEARNED_FEWEST_WORDS:
        return 1
    return 0


def _cued(sentence: str, likely: float) -> int:
    """The cues of ``sentence`` past the English ones of :func:`_english`."""
    if _prohibited(sentence) or _leaves_out(sentence) or states_a_governing_fact(sentence):
        return 2
    if _BAN_ON_ANYTHING.search(sentence) and not sentence.rstrip().endswith("?"):
        return 2
    if likely >= LEARNED_WEAK_CUE and _elliptical(sentence) and not _THIS_TURN.search(sentence):
        return 1
    foreign = foreign_rule(sentence)
    if foreign:
        return foreign
    for clause in _CLAUSE.split(sentence)[1:]:  # "no ..." after a comma is mostly talk
        if _english(clause) or (_prohibited(clause) and not _NO_SOMETHING.match(clause)):
            return 1
        if _elliptical(clause) and _THIS_TURN.search(clause) is None:
            return 1  # "I'm in Mumbai, so IST for any times"
        if _leaves_out(clause):
            return 1  # "I only have Android phones, so skip iPhone tips"
    return 0


def find_directives(text: str) -> list[Directive]:
    """The instructions and revocations ``text`` (a user message) states, sentence by
    sentence, verbatim."""
    found = []
    for sentence in sentences(text):
        if len(sentence) > MAX_RULE_CHARS:
            continue  # no rule a person sets runs this long: a pasted text, not a rule
        if _REVOKE.search(sentence):
            found.append(Directive("revocation", sentence, 1))
            continue
        points = score(sentence)
        if points:
            found.append(Directive("instruction", sentence, points))
    return found
