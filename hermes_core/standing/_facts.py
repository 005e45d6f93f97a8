"""Facts a user states about themselves that govern every later answer, found without an
LLM: an allergy or a diet ("I'm allergic to peanuts", "I'm vegan", "I can't eat gluten"),
a condition ("I'm diabetic", "I'm colourblind"), how to name them ("call me Sam", "my
pronouns are they/them"), where their clock is ("I'm in the Europe/Berlin time zone").

Each is said by the user in the first person: "my dog is allergic to chicken" governs
nothing the assistant says to its owner, and "call me when you get home" names no one.
"""

from __future__ import annotations

import re

__all__ = ["states_a_governing_fact"]

_HOW = r"(?:(?:severely|very|really|quite|badly|so|deathly|also|seriously|mildly)\s+)?"
_FACTS = re.compile(
    # allergies and intolerances, said of oneself
    rf"\b(?:i'?m|i am)\s+{_HOW}(?:[a-z]+[ -])?(?:allergic|intolerant|coeliac|celiac)\b"
    r"|\bi(?:'ve got| have got| have|'ve)\s+(?:an?\s+)?(?:(?:severe|bad|mild|serious"
    r"|life-threatening|strong|real)\s+)?(?:[\w-]+\s+){0,2}(?:allergy|allergies|intolerance)\b"
    # diets
    rf"|\b(?:i'?m|i am)\s+(?:a\s+|an\s+|strictly\s+|now\s+)?(?:vegan|vegetarian|pescatarian"
    r"|kosher|halal|teetotal|sober|gluten[- ]free|dairy[- ]free|on a (?:diet|low[- ]\w+ diet))"
    r"\b"
    r"|\bi (?:can'?t|cannot|don'?t|do not|no longer) (?:eat|drink|have)\b"
    r"|\bi(?:'ve| have) (?:stopped|quit|given up) (?:drinking|eating|smoking)\b"
    # conditions that change what to suggest or how to show it
    r"|\b(?:i'?m|i am)\s+(?:[\w-]+\s+)?(?:diabetic|pregnant|colou?r ?blind|deaf|blind"
    r"|dyslexic|epileptic|hard of hearing|visually impaired|in recovery|autistic"
    r"|immunocompromised|on (?:blood thinners|medication|dialysis|chemo\w*))\b"
    # diets said with a verb: "I keep kosher", "I eat halal only", "I follow a keto diet"
    r"|\bi (?:keep|eat|only eat|eat only|follow|stick to|am on|'m on)\s+(?:a\s+|an\s+)?"
    r"(?:strictly\s+)?(?:kosher|halal|vegan|vegetarian|plant[- ]based|keto|paleo"
    r"|gluten[- ]free|dairy[- ]free|low[- ]\w+|[\w-]+ diet)\b"
    r"|\bi (?:have|'ve got|use) (?:diabetes|epilepsy|dyslexia|a screen reader|adhd|add"
    r"|autism|asperger'?s|anxiety|ptsd|ocd|a (?:disability|hearing aid|hearing impairment"
    r"|visual impairment|heart condition)|low vision|tinnitus|migraines|celiac|coeliac)\b"
    # a time zone by its region: "I'm on Pacific time", "I'm on UK time"
    r"|\b(?:i'?m|i am|i live|i work)\s+(?:on|in)\s+(?:[A-Z][\w-]*\s+){1,2}time\b"
    # what the user keeps away from: "I'm trying to avoid sugar", "I avoid caffeine"
    r"|\b(?:i'?m|i am)\s+(?:trying to|meant to|supposed to|told to|having to)\s+"
    r"(?:avoid|cut out|cut down on|stay away from|stay off|limit)\b"
    r"|\bi (?:avoid|can'?t have|stay away from)\s+(?!you\b|him\b|her\b|them\b)\w+"
    # how much the user knows, which sets how to explain: "I'm a beginner at coding"
    r"|\b(?:i'?m|i am)\s+(?:a\s+|an\s+)?(?:complete\s+|total\s+|absolute\s+)?"
    r"(?:beginner|novice|newbie|new to|non-native|not a native)\b"
    # how to name the user
    r"|\bmy pronouns are\b"
    r"|\bmy name(?:'s| is)\s+[A-Z][\w'.-]*.{0,40}\b(?:spell|call|address|pronounce|write)\b"
    r"|\bi go by\s+[A-Z]"
    r"|\b(?:everyone|everybody|people|my friends|friends|most people|folks)\s+calls?\s+me"
    r"\s+[A-Z]"
    r"|\bmy name is\s+[A-Z][\w'.-]*\b.{0,40}\bcall me\b"
    # where the user's clock is
    r"|\b(?:i'?m|i am|i live|i'm based|i am based)\s+in\s+(?:the\s+)?[\w/+ -]{2,40}?"
    r"\s+time ?zone\b"
    r"|\bmy time ?zone is\b",
    re.IGNORECASE,
)
#: "Call me <Name>": a name after it, not "call me when you get home".
_CALL_ME = re.compile(
    r"\b(?:please\s+)?(?:call|address) me\s+(?!when|if|later|back|tomorrow|tonight|at\b|on\b"
    r"|after|before|soon|again|up|maybe|sometime|anytime|asap|once)(?:[A-Z][\w'.-]*|\"[^\"]+\")",
)


def states_a_governing_fact(sentence: str) -> bool:
    """Whether ``sentence`` states a fact about the user that every later answer must
    respect (an allergy, a diet, a condition, a name, a time zone)."""
    return _FACTS.search(sentence) is not None or _CALL_ME.search(sentence) is not None
