"""Standing instructions in French, German, Spanish, Italian and Portuguese, found by the same
three kinds of cue as in English (:mod:`.detect`): a phrase that sets a rule in time
("à partir de maintenant", "ab jetzt", "de ahora en adelante", "d'ora in poi", "a partir
de agora"), "always" or "never" ("toujours", "immer", "siempre", "sempre", "jamais",
"nie", "nunca", "mai"), and a directive addressed to the assistant ("réponds", "antworte",
"responde", "rispondi", "escreva"...). A sentence is a rule when it holds a directive and
either of the other two, or a directive about the reply's language or length.
"""

from __future__ import annotations

import re

__all__ = ["foreign_rule"]

_PERSISTENCE = re.compile(
    r"\b(?:à partir de maintenant|désormais|dorénavant|à l'avenir|ab jetzt|von nun an"
    r"|ab sofort|in zukunft|künftig|de ahora en adelante|a partir de ahora|desde ahora"
    r"|d'ora in poi|da ora in poi|d'ora in avanti|a partir de agora|daqui em diante"
    r"|de agora em diante)\b",
    re.IGNORECASE,
)
_FREQUENCY = re.compile(
    r"\b(?:toujours|jamais|immer|nie|niemals|stets|siempre|nunca|jamás|sempre|mai|nunca)\b",
    re.IGNORECASE,
)
# what the assistant is told to do: answer, write, speak, call, use, avoid, keep, tell
_DIRECTIVE = re.compile(
    r"\b(?:r[ée]ponds?|r[ée]pondez|[ée]cris|[ée]crivez|parle|parlez|appelle|appelez|utilise"
    r"|utilisez|[ée]vite|[ée]vitez|garde|gardez|dis|dites|ne me parle"
    r"|antworte|antwortet|antworten sie|schreib|schreibe|schreibt|sprich|sprecht|nenn|nenne"
    r"|verwende|benutze|vermeide|halte"
    r"|responde|respóndeme|respondeme|contesta|contéstame|escribe|escríbeme|habla|háblame"
    r"|hables|llámame|usa|utiliza|evita|mantén|dime"
    r"|rispondi|rispondimi|scrivi|scrivimi|parla|parlami|chiamami|usa|evita|dimmi"
    r"|responda|responde-me|escreva|fale|chame-me|me chame|use|evite|diga"
    # the infinitive a polite request takes: "merci de répondre", "bitte immer antworten"
    r"|r[ée]pondre|[ée]crire|parler|utiliser|[ée]viter|antworten|schreiben|sprechen"
    r"|verwenden|benutzen|vermeiden|responder|escribir|hablar|usar|evitar|rispondere"
    # how to address the user: "tutoie-moi", "duz mich", "tutéame", "dammi del tu"
    r"|tutoie|tutoyez|vouvoie|vouvoyez|duz|duze|sieze|tut[ée]ame|tr[áa]tame|dammi"
    r"|scrivere|parlare|usare|evitare|escrever|falar)\b",
    re.IGNORECASE,
)
# the reply's language or length, whatever the word for "answer"
_ABOUT_THE_REPLY = re.compile(
    r"\b(?:en|in|auf|em)\s+(?:français|francais|anglais|allemand|espagnol|italien|portugais"
    r"|englisch|deutsch|französisch|spanisch|italienisch|portugiesisch"
    r"|inglés|ingles|alemán|francés|español|espanol|italiano|portugués"
    r"|inglese|tedesco|francese|spagnolo|portoghese|inglês|alemão|francês|espanhol|português)"
    r"\b|\b(?:courte?s?|brèves?|kurze?n?|knapp|corta?s?|breves?|brevi|curte?s?)\b"
    # what a reply holds or how it sounds: jargon, emojis, answers, tone, plain words
    r"|\b(?:jargon|fachjargon|gergo|jerga|jarg[ãa]o|g[íi]rias?|emojis?|r[ée]ponses|antworten"
    r"|respuestas|risposte|respostas|phrases|s[äa]tze|frasi|frases|ton|tono|tom|vocabulaire"
    r"|wortwahl|vocabolario|vocabulario|vocabul[áa]rio|formel(?:le)?|förmlich|formal[e]?"
    r"|informel(?:le)?|informal[e]?|locker|moi|mich|comigo|conmigo|con me|mit mir|avec moi"
    r"|simple|einfach|semplice|sencill[oa]|simples|m[ée]trique|metrisch|m[ée]trico"
    r"|sistema metrico|syst[èe]me m[ée]trique)\b",
    re.IGNORECASE,
)
#: A request made politely: with a directive, enough to make a rule about the reply.
_POLITE = re.compile(
    r"\b(?:s'il (?:te|vous) pla[îi]t|merci de|bitte|por favor|per favore|pfv)\b", re.IGNORECASE
)


# a prohibition addressed to the assistant: a negated directive, or "none of X"
_PROHIBITION = re.compile(
    r"\b(?:ne\s+(?:me\s+)?\w+\s+(?:pas|jamais|plus)|n'\w+\s+(?:pas|jamais|plus)|pas de"
    r"|benutze keine?n?|verwende keine?n?|schreib(?:e)? keine?n?|keine\s+\w+\s+bitte"
    r"|bitte keine?n?|no (?:uses|utilices|pongas|menciones|digas|escribas|hables|me hables"
    r"|me mandes|me envíes|sugieras|recomiendes)|nada de"
    r"|non (?:usare|dire|scrivere|parlare|menzionare|mettere|suggerire|consigliare|mandare)"
    r"|niente|nessun[oa]?\s+\w+,?\s+per favore"
    r"|não (?:use|usa|diga|escreva|fale|mencione|coloque|mande|me mande|sugira|recomende)"
    r"|nada de"
    # "never" with the assistant's verb toward the user: "nunca me mande", "mai mi dire"
    r"|(?:nunca|jam[áa]s|jamais|mai|nie|niemals)\s+(?:me|mi|mir|m')\s*\w+)\b",
    re.IGNORECASE,
)
# a fact about the user, said of oneself: a diet, an allergy or intolerance, a condition
_FACT = re.compile(
    r"\b(?:je suis|ich bin|soy|estoy|sono|sou|estou)\s+(?:(?:très|sehr|muy|molto|muito"
    r"|strikt|estrictamente|stretta?mente|estritamente)\s+)?"
    r"(?:v[ée]g[ée]tarien(?:ne)?|v[ée]gane?|vegetarier(?:in)?|veganer(?:in)?|vegetarian[oa]"
    r"|vegan[oa]|vegetarian[oa]|allergique|allergisch|al[ée]rgic[oa]|allergic[oa]|c[œoe]liaque"
    r"|z[öo]liakie|cel[íi]ac[oa]|celiac[oa]|diab[ée]tique|diabetiker(?:in)?|diab[ée]tic[oa]"
    r"|enceinte|schwanger|embarazada|incinta|gr[áa]vida|intol[ée]rant[e]?|laktoseintolerant"
    r"|intolerante)\b"
    r"|\b(?:denk daran|tienine conto|tenlo en cuenta|tiens-en compte|leve isso em conta)\b",
    re.IGNORECASE,
)


def foreign_rule(sentence: str) -> int:
    """How many cues make ``sentence`` a standing instruction in one of these languages
    (0: none)."""
    if _PROHIBITION.search(sentence) or _FACT.search(sentence):
        return 2
    if _DIRECTIVE.search(sentence) is None:
        return 0
    persistence = _PERSISTENCE.search(sentence) is not None
    frequency = _FREQUENCY.search(sentence) is not None
    about_reply = _ABOUT_THE_REPLY.search(sentence) is not None
    if persistence or frequency:
        return 2 + persistence
    if about_reply and _POLITE.search(sentence) and not sentence.rstrip().endswith("?"):
        return 2
    return 1 if about_reply else 0
