"""Standing instructions by class of phrasing, in two halves written together before the
detector was tuned: ``TUNING`` (the detector's tests hold it, and it was tuned on it) and
``HELD_OUT`` (never looked at while tuning; reported beside the other half, to see whether
what was tuned generalises). Each class has phrasings in both halves, none shared.

``HELD_OUT`` was then looked at once (23 of 29 found) and the classes it showed missing
were made general (units and amounts, an imperative after a condition, an intolerance with
its qualifier): it is no longer held out. ``HELD_OUT_2`` was written after that, before
being run. Run once (27 of 29 found), its misses were two classes: a rule without a verb
("Answers in two paragraphs max") and an imperative about emphasis ("Put the key point in
bold"). ``HELD_OUT_3`` was written before those were made general and run once (19 of 30
found); ``HELD_OUT_4`` was written then, before the detector was changed for the misses of
``HELD_OUT_2`` and ``HELD_OUT_3``: 17 of 30 found before, 24 of 30 after (its first
look). ``HELD_OUT_5`` was written then, before any change for the misses of
``HELD_OUT_4``: 20 of 30 found before those changes, and 20 of 30 after them (its first
look). ``HELD_OUT_6`` was written then, before any change for the misses of
``HELD_OUT_5``: 22 of 30 found before those changes, 22 of 30 after (its first look),
never tuned on. Two halves in a row gained nothing from the classes made general for the
half before: what one half misses, the next misses differently. ``HELD_OUT_7`` was
written then, before any change for the misses of ``HELD_OUT_6``: 18 of 30 found before
those changes, 19 of 30 after (its first look), never tuned on. Three halves in a row
moved by 0, 0 and 1 phrasing for the classes made general on the half before: patterns
of phrasing do not reach phrasings nobody has seen. The next held-out half must be written
before any change for its misses.

``ORDINARY`` are things people say that set no rule: they must not be carried.
``RULE_IN`` names, for a long turn, the sentence that states its rule: what a request
must carry verbatim (the rest of the turn is talk).
"""

from __future__ import annotations

__all__ = [
    "ALL_HALVES",
    "FIRST_NOT_RULES",
    "FIRST_RULES",
    "HELD_OUT",
    "HELD_OUT_2",
    "HELD_OUT_3",
    "HELD_OUT_4",
    "HELD_OUT_5",
    "HELD_OUT_6",
    "HELD_OUT_7",
    "HELD_OUT_8",
    "HELD_OUT_9",
    "ORDINARY",
    "POLITE_TASKS",
    "POLITE_TASKS_2",
    "REPLIES",
    "REPLIES_2",
    "RULE_IN",
    "TASKS",
    "TASKS_2",
    "TASKS_3",
    "TUNED_HALVES",
    "TUNING",
    "rule_of",
]

#: The detector's first examples (``tests/test_standing.py``), tuned on. Rules for the rest
#: of a session, stated every way we could think of: with a cue in time,
#: by frequency, by condition, and by form alone (a directive about every answer).
FIRST_RULES: list[str] = [
    "From now on, show me the draft before sending anything.",
    "For the rest of this session, reply in bullet points only.",
    "Going forward, keep code comments in English.",
    "Until I say otherwise, answer in French.",
    "Can you answer in Spanish from now on?",
    "In all your future replies, skip the small talk.",
    "By default, give me Python unless I ask for another language.",
    "Never write my phone number into a file.",
    "Always use metric units.",
    "Don't ever use emojis in your replies.",
    "Always ask me before you run a command that deletes files.",
    "Reply in bullet points only.",
    "Please keep your answers under 100 words.",
    "Call me Sam.",
    "Don't use emojis in your replies.",
    "Make sure you cite your sources.",
    "Please be concise.",
    "I'd like you to ask me before you run any command that deletes files.",
    "When you summarize anything, put the key number first.",
    "If I ask for code, give me Python unless I say otherwise.",
    "Before you send any email, show me the draft.",
    "I prefer you use British spelling.",
    "No more jokes, please.",
    "Remember to double-check the numbers before you give me a total.",
    "Whenever you write SQL, use uppercase keywords.",
]
#: Tasks for this turn, questions and talk: none of them is a rule.
FIRST_NOT_RULES: list[str] = [
    "Write a function that parses this CSV file.",
    "What's the capital of France?",
    "Use the staging database for this query.",
    "Thanks! That helps a lot.",
    "I always go hiking on weekends with my sisters.",
    "My sister never liked the beach.",
    "Never give up on your dreams!",
    "Send me the pictures of all the dogs!",
    "Tell me everything about your trip!",
    "When I went to Paris, I saw the tower.",
    "If you want, we can meet at 5.",
    "I promised to be more careful in the future.",
    "What's pushing you to keep going forward with it?",
    "Whenever I hear this song, I think of home.",
    "Don't forget the details!",
    "I'll never forget the day my son took his first steps.",
    "Fix the failing test in this file, please.",
    "Can you summarise the following paragraph?",
]
TUNING: dict[str, list[str]] = {
    "form": [
        "Keep answers under 100 words.",
        "Use metric units.",
        "Write in a formal tone.",
        "Answer in Spanish.",
        "Please use bullet points when you list things.",
        "Give me the short version first, then details if I ask.",
        "Be concise.",
    ],
    "facts about the user": [
        "I'm allergic to peanuts, so please account for that in any food suggestion.",
        "I'm vegan.",
        "I have a severe shellfish allergy.",
        "My name is Priya, but call me Pri.",
        "I'm in the Europe/Berlin time zone.",
        "I'm diabetic, keep that in mind for meal ideas.",
        "My pronouns are they/them.",
    ],
    "prohibitions": [
        "No emojis please.",
        "Never mention my ex.",
        "Don't recommend chain restaurants.",
        "Please stop apologising.",
        "No spoilers for books I haven't finished.",
    ],
    "conditional": [
        "If I ask for code, use Python.",
        "When I ask about a place, include the local time there.",
        "Whenever you recommend a movie, say how long it is.",
        "If I say 'tl;dr', give me one sentence.",
    ],
    "inside a long turn": [
        "We spent the whole weekend at the lake and the kids loved it, the water was "
        "still cold though. By the way, always give temperatures in Celsius. Then we drove "
        "back on Sunday evening and got stuck in traffic for two hours.",
        "Work has been crazy with the launch and my manager keeps moving deadlines. One "
        "thing: please don't suggest anything with alcohol, I've stopped drinking. Anyway, "
        "I'm hoping things calm down next month.",
    ],
    "other languages": [
        "Réponds toujours en français, s'il te plaît.",
        "Bitte antworte ab jetzt immer auf Deutsch.",
        "De ahora en adelante, respóndeme siempre en español.",
        "Rispondi sempre in italiano.",
    ],
}

HELD_OUT: dict[str, list[str]] = {
    "form": [
        "Limit every reply to three sentences.",
        "Please give distances in kilometres.",
        "Talk to me casually, like a friend would.",
        "Reply in Portuguese from here.",
        "Format lists as numbered items.",
        "Lead with the answer, skip the preamble.",
        "Keep it brief.",
    ],
    "facts about the user": [
        "I can't eat gluten, so bear that in mind when you suggest recipes.",
        "I'm lactose intolerant.",
        "I've got a nut allergy.",
        "Please call me Sam.",
        "I live in Sydney, so give times in AEST.",
        "I'm pregnant, so keep that in mind for any food or activity ideas.",
        "I'm colourblind, so don't describe things only by colour.",
    ],
    "prohibitions": [
        "No swearing.",
        "Never bring up politics.",
        "Don't suggest anything that needs a car.",
        "Quit using exclamation marks.",
        "Please don't use my full name.",
    ],
    "conditional": [
        "If I ask for a recipe, list the ingredients first.",
        "When you mention a price, convert it to euros.",
        "Whenever I share a photo, ask me where it was taken.",
        "If I ask for a word, give me its etymology too.",
    ],
    "inside a long turn": [
        "My sister visited last week and we went to that new bakery downtown, the "
        "croissants were amazing. Also, from now on please keep your answers short, I'm "
        "reading on my phone. She's coming back in June for my birthday.",
        "I finally finished the painting I started in spring, it took forever to get the "
        "sky right. Just so you know, I'm allergic to cats, so leave them out of any pet "
        "ideas. Next I want to try watercolours.",
    ],
    "other languages": [
        "Réponds-moi en anglais simple, s'il te plaît, sans jargon.",
        "Schreib mir bitte immer kurze Antworten.",
        "Nunca me hables de política, por favor.",
        "A partir de agora, responde sempre em português.",
    ],
}

HELD_OUT_2: dict[str, list[str]] = {
    "form": [
        "Answers in two paragraphs max, please.",
        "Use Fahrenheit for temperatures.",
        "Please write in plain English, no fancy words.",
        "Reply to me in German.",
        "Put the key point in bold.",
        "Start every answer with a one-line summary.",
        "Keep your replies friendly and upbeat.",
    ],
    "facts about the user": [
        "I'm allergic to shellfish, keep that in mind when you suggest restaurants.",
        "I'm vegetarian, so no meat dishes.",
        "I have a sesame allergy.",
        "You can call me Alex.",
        "My time zone is UTC-5.",
        "I'm hard of hearing, so don't suggest podcasts.",
        "I am coeliac.",
    ],
    "prohibitions": [
        "No small talk, please.",
        "Never recommend horror films to me.",
        "Don't mention the weather.",
        "Stop asking me follow-up questions.",
        "Please never share my address.",
    ],
    "conditional": [
        "If I ask about a book, tell me the page count.",
        "When I mention a city, give me its population.",
        "Whenever you quote someone, cite the source.",
        "If I ask for a workout, keep it under twenty minutes.",
    ],
    "inside a long turn": [
        "The concert was loud and packed, we barely found a spot near the stage and my "
        "feet still hurt. Please remember to always show prices in pounds for me. Anyway "
        "the band played for almost three hours.",
        "Grandma turned ninety last Saturday and the whole family came, even my cousins "
        "from abroad. From now on, don't suggest gifts that cost more than fifty dollars. "
        "She loved the photo album we made.",
    ],
    "other languages": [
        "Désormais, réponds-moi en espagnol.",
        "Antworte mir immer mit Stichpunkten.",
        "Escríbeme siempre respuestas cortas.",
        "D'ora in poi rispondimi in inglese.",
    ],
}

HELD_OUT_3: dict[str, list[str]] = {
    "form": [
        "Shorter answers, please.",
        "Could you always format code as fenced blocks?",
        "I prefer answers that start with the conclusion.",
        "Use the 24-hour clock for times.",
        "Prices in euros, please.",
        "Respond in French from now on.",
        "Talk to me like a friend, not like a manual.",
    ],
    "facts about the user": [
        "Heads up: I'm lactose intolerant.",
        "I go by Sam.",
        "I live in Tokyo, so give times in JST.",
        "I'm red-green colourblind, so don't rely on colour alone in charts.",
        "I keep kosher.",
        "I'm pregnant, so please flag anything that's unsafe for that.",
        "I don't drink alcohol.",
    ],
    "prohibitions": [
        "Stop using the word 'delve'.",
        "Avoid jargon.",
        "Don't ever round the numbers you give me.",
        "No spoilers for books or films, ever.",
        "Never book anything on a Sunday for me.",
    ],
    "conditional": [
        "If I ask for a recipe, include the prep time.",
        "When you give me code, add type hints.",
        "Any time you cite a study, give the year.",
        "If something is uncertain, say so plainly.",
    ],
    "inside a long turn": [
        "We got back from the lake yesterday and the kids are exhausted. By the way, "
        "please always answer me in short paragraphs. Anyway, the boat rental was a "
        "disaster and we want our money back.",
        "Work has been hectic and I barely slept this week. Going forward, use kilometres "
        "instead of miles with me. The new manager seems nice, though.",
    ],
    "other languages": [
        "Bitte antworte immer auf Deutsch.",
        "Réponds-moi toujours brièvement, s'il te plaît.",
        "Por favor, no uses emojis.",
        "Sono vegetariana, tienine conto quando mi consigli un ristorante.",
        "Sou alérgico a amendoim.",
    ],
}

HELD_OUT_4: dict[str, list[str]] = {
    "form": [
        "Less detail, more bullet points.",
        "Explain things to me like I'm twelve.",
        "Always include a TL;DR at the end.",
        "Weights in kilograms, please.",
        "Use a casual tone with me.",
        "Please answer in Dutch.",
        "One-sentence answers unless I ask for more.",
    ],
    "facts about the user": [
        "FYI, I'm gluten-free.",
        "Everyone calls me Kat.",
        "I'm based in Sydney, so use AEST.",
        "I use a screen reader, so describe images in words.",
        "I eat halal only.",
        "I'm on blood thinners, so check any supplement you suggest.",
        "I can't eat eggs.",
    ],
    "prohibitions": [
        "Quit apologising so much.",
        "Please don't use the passive voice.",
        "No more than three suggestions at a time.",
        "Don't bring up my ex.",
        "Never suggest flying; I take trains.",
    ],
    "conditional": [
        "If you're not sure, tell me rather than guess.",
        "Whenever I share a link, summarise it in two lines.",
        "When I ask about money, show the numbers in a table.",
        "For any travel plan, include the train times.",
    ],
    "inside a long turn": [
        "My brother's wedding was beautiful but the speeches went on forever. Oh, and keep "
        "your answers to a few lines from now on. The food was amazing though.",
        "The garden is finally done and the tomatoes are coming in nicely. Just so you know, "
        "I'm vegan now, so leave out meat and dairy. Next I want to build a shed.",
    ],
    "other languages": [
        "Merci de toujours répondre en anglais.",
        "Ich bin Vegetarier, bitte denk daran.",
        "Nada de emojis, por favor.",
        "Evita il gergo tecnico, per favore.",
        "Nunca me mande respostas longas.",
    ],
}

HELD_OUT_5: dict[str, list[str]] = {
    "form": [
        "Keep it brief from here.",
        "Numbers as digits, not words.",
        "Could you use British English with me?",
        "Give me pros and cons whenever you compare things.",
        "Lead with the answer, then explain.",
        "Distances in miles, please.",
        "Write like a journalist: short sentences.",
    ],
    "facts about the user": [
        "My son has a nut allergy, so no nuts in any recipe.",
        "Just so you know, I'm deaf in one ear.",
        "I'm in Mumbai, so IST for any times.",
        "I'm trying to avoid sugar.",
        "I'm a beginner at coding, so explain everything.",
        "My name's Tomás; please spell it with the accent.",
        "I'm Muslim, so no pork or alcohol in suggestions.",
    ],
    "prohibitions": [
        "Hold off on the emojis.",
        "Please stop ending with questions.",
        "Never use my full name.",
        "Nothing about politics, please.",
        "Skip the pleasantries.",
    ],
    "conditional": [
        "When I say 'go', just do it without asking.",
        "If a question is ambiguous, ask me before answering.",
        "Whenever there's a deadline, put it in bold.",
        "Each time you suggest a restaurant, give its price range.",
    ],
    "inside a long turn": [
        "Our flight got delayed six hours and the airline gave us nothing. Please, from now "
        "on, answer me in bullet points only. At least the hotel was nice.",
        "I started the new job on Monday and it's a lot to take in. Also, I'm allergic to "
        "penicillin, keep it in mind for any health question. My team seems friendly.",
    ],
    "other languages": [
        "Réponds en phrases courtes, s'il te plaît.",
        "Bitte keine langen Antworten mehr.",
        "Háblame siempre de tú.",
        "Per favore, usa sempre il sistema metrico.",
        "Não use gírias, por favor.",
    ],
}

HELD_OUT_6: dict[str, list[str]] = {
    "form": [
        "Can you keep things short from now on?",
        "Format everything as a checklist.",
        "I'd like the answers in Markdown tables when there's data.",
        "Be blunt with me.",
        "Always cite your sources.",
        "Times in 24h format please.",
        "Speak to me in Portuguese.",
    ],
    "facts about the user": [
        "I'm lactose-intolerant and gluten-sensitive.",
        "Please call me Dr. Okafor.",
        "I'm on Pacific time.",
        "I'm a wheelchair user, so check accessibility for any place you suggest.",
        "I don't eat red meat.",
        "I have ADHD, so keep instructions in small steps.",
        "I'm recovering from knee surgery, so no hiking plans.",
    ],
    "prohibitions": [
        "Don't sugarcoat anything.",
        "Please no long intros.",
        "Never assume I'm a man.",
        "Leave out the disclaimers.",
        "Cut the small talk.",
    ],
    "conditional": [
        "If I paste an error, explain the cause before the fix.",
        "When you're unsure about a date, say so.",
        "Whenever I mention my mom, be gentle.",
        "Anytime you suggest a book, tell me how long it is.",
    ],
    "inside a long turn": [
        "Spent the whole day moving boxes and my back is killing me. Keep everything you "
        "write for me under 50 words, by the way. Tomorrow I unpack the kitchen.",
        "The kids had a snow day so the house was chaos. Remember I only have Android "
        "phones, so skip iPhone tips. We built a snowman though.",
    ],
    "other languages": [
        "À partir d'aujourd'hui, tutoie-moi.",
        "Schreib bitte ohne Emojis.",
        "Contéstame siempre en inglés.",
        "Non usare mai il punto esclamativo.",
        "Fale comigo de forma informal.",
    ],
}

HELD_OUT_7: dict[str, list[str]] = {
    "form": [
        "Give it to me straight, no fluff.",
        "Headlines first, details after.",
        "I want everything in bullet form.",
        "Use simple language, I'm not a native speaker.",
        "Reply only in lowercase.",
        "Temperatures in Celsius from here on.",
        "Please be more formal with me.",
    ],
    "facts about the user": [
        "I'm severely allergic to bee stings.",
        "Mind you, I'm a vegetarian.",
        "I'm on the east coast, so Eastern time.",
        "I'm partially sighted, big fonts help.",
        "I don't do spicy food.",
        "You can refer to me as Captain.",
        "I'm an experienced developer, skip the basics.",
    ],
    "prohibitions": [
        "Don't ever send anything without my OK.",
        "Enough with the exclamation marks.",
        "No code unless I ask for it.",
        "Never recommend Amazon.",
        "Please refrain from using slang.",
    ],
    "conditional": [
        "If I ask for directions, assume I'm walking.",
        "When you're listing options, number them.",
        "Whenever something costs money, give the total.",
        "If I say 'short', keep it to one line.",
    ],
    "inside a long turn": [
        "Finally got the car back from the garage and it cost a fortune. Going forward, "
        "please give me costs in euros. The mechanic was nice at least.",
        "My daughter's recital went great and she didn't miss a note. Note that I'm "
        "allergic to pollen, so no flower ideas. We went out for dinner afterwards.",
    ],
    "other languages": [
        "Toujours en français avec moi, merci.",
        "Ich habe eine Nussallergie.",
        "Sin emojis, por favor.",
        "Rispondimi sempre con elenchi puntati.",
        "Me chame de Zé.",
    ],
}

#: Written before the learned scorer was built, with ``TASKS_2``: the halves it is judged on.
HELD_OUT_8: dict[str, list[str]] = {
    "form": [
        "Answer like a pirate from now on, it's fun.",
        "Stick to facts, no opinions.",
        "Could you put a short summary at the end of each answer?",
        "Spell out acronyms the first time.",
        "All amounts in Swiss francs, please.",
        "Keep the tone light.",
        "I'd rather you answered in Italian.",
    ],
    "facts about the user": [
        "I'm a nurse, so you can use medical terms.",
        "I have a peanut and tree-nut allergy.",
        "Heads-up, I'm in Singapore time.",
        "I'm vegan, remember that for recipes.",
        "My partner is Jewish and we keep a kosher kitchen.",
        "I'm left-handed, which matters for the tools you suggest.",
        "Call me Bea, everyone does.",
    ],
    "prohibitions": [
        "Don't ever guess my password hints.",
        "No brand names, please.",
        "Don't lecture me about screen time.",
        "Leave politics out of it.",
        "Never open links I send without asking.",
    ],
    "conditional": [
        "If I ask for a workout, avoid running, my knees are bad.",
        "When you give me a date, add the weekday.",
        "Whenever I say 'later', put it on my to-do list.",
        "If you quote prices, include tax.",
    ],
    "inside a long turn": [
        "We finally adopted the cat from the shelter and she's already hiding under the bed. "
        "Oh, from now on, please keep every reply to three sentences at most. She has such "
        "a tiny meow.",
        "The conference was exhausting and I lost my voice on day two. By the way, I'm "
        "lactose intolerant, so no cheese in recipes. The talks were great though.",
    ],
    "other languages": [
        "Antworte bitte ab jetzt immer auf Englisch.",
        "Je suis allergique aux arachides.",
        "Escríbeme sin tecnicismos, por favor.",
        "Non mandarmi mai messaggi lunghi.",
        "Responda sempre em tópicos, por favor.",
    ],
}

#: Written after the learned scorer was trained, before any change for the misses of
#: ``HELD_OUT_8``: the half that judges whether training on more examples generalises.
#: First look: 24 of 30 found. Trained on ``HELD_OUT_8`` and ``TASKS_2`` as well (H8 then
#: 30 of 30), it found 23 of 30, and carried 1 of ``TASKS_3``'s 20 tasks (0 before): more
#: examples of the same classes did not reach new phrasings, so that change was not kept.
HELD_OUT_9: dict[str, list[str]] = {
    "form": [
        "Use British spelling with me.",
        "Lead with the answer, explain after.",
        "Talk to me like a friend, not a manual.",
        "Number your steps when you explain how to do something.",
        "Please format any code as a complete file.",
        "Miles per hour, not km/h, thanks.",
        "Write to me in Dutch from here on.",
    ],
    "facts about the user": [
        "I work night shifts, so my mornings are your evenings.",
        "I'm diabetic, keep sugar in mind for any meal idea.",
        "My name's Tomasz, not Tom.",
        "I live in Denver, mountain time.",
        "I'm colour-blind, red and green look the same to me.",
        "I use a wheelchair, so check step-free access for places.",
        "English is my second language, keep the words simple.",
    ],
    "prohibitions": [
        "Skip the pleasantries.",
        "Don't bring up my ex again.",
        "No spoilers for anything I'm watching.",
        "Never book anything without checking with me first.",
        "Hold off on the jokes.",
    ],
    "conditional": [
        "If a recipe needs an oven, suggest a stovetop version too.",
        "Every time you mention a book, give the author.",
        "When I'm stressed, just give me the next step.",
        "If something costs over a hundred, flag it.",
    ],
    "inside a long turn": [
        "Work has been a lot this week, the launch slipped again and my manager is on "
        "holiday. Anyway, please always give me the short version first. I'm going to "
        "bed early tonight.",
        "My sister visited with her twins and they ran the house ragged. Also, I keep "
        "halal, so no pork or alcohol in anything you suggest. We had a lovely picnic "
        "though.",
    ],
    "other languages": [
        "Parle-moi toujours en français, s'il te plaît.",
        "Ich bin Vegetarier.",
        "Usa siempre el sistema métrico conmigo.",
        "Chiamami sempre Giulia.",
        "Nunca me mandes enlaces sin explicarlos.",
    ],
}

#: One-turn tasks and questions written with ``HELD_OUT_8``, before the learned scorer.
TASKS_2: list[str] = [
    "Write a limerick about my cat.",
    "Email the team that the demo moved to Tuesday.",
    "Translate 'good morning' into Japanese.",
    "Give me a recipe for banana bread.",
    "Fix the typo in the title.",
    "Keep this note for the meeting tomorrow.",
    "Make the chart bigger and label the axes.",
    "Use the red template for this slide.",
    "Never mind the last message, it was a mistake.",
    "Find flights from Berlin to Oslo on Friday.",
    "Explain quantum entanglement simply.",
    "Add a row for March to the table.",
    "Tell me what's on my calendar today.",
    "Answer Mark's question about the budget.",
    "List three pros and cons of remote work.",
    "Write the summary in bullet points this time.",
    "Check if the package arrived.",
    "Show me pictures of Iceland.",
    "Call a taxi for six o'clock.",
    "Give me a short answer: is it going to rain?",
    "Rewrite this paragraph in a friendlier tone.",
    "Suggest a movie for tonight.",
    "Put the files in the shared folder.",
    "Please compute the average of these numbers.",
    "Don't send the draft yet, I'll review it first.",
    "Convert this recipe to metric.",
    "Start a timer for twenty minutes.",
    "Describe how photosynthesis works.",
    "Write a thank-you note to my aunt in Spanish.",
    "Always the same error, can you look at the log?",
]

#: Polite one-off requests: "please" (or "kindly", "could you") over a thing of this turn,
#: a numbered item, a named person, a time. The learned scorer trains on them: before
#: them it took "please" for a rule's mark (0.96 for "Please water plant 3 today.").
POLITE_TASKS: list[str] = [
    "Please water plant 3 today.",
    "Please review the pull request.",
    "Please send the invoice to Carla.",
    "Please check the logs for errors.",
    "Please look at ticket 42.",
    "Please book the meeting room for Monday.",
    "Please summarise the meeting notes.",
    "Please restart the server.",
    "Please close issue 17.",
    "Please call the plumber this afternoon.",
    "Please print three copies of the agenda.",
    "Please move the call to four o'clock.",
    "Please update the spreadsheet with the new prices.",
    "Please find the receipt from last week.",
    "Please pick up the dry cleaning tomorrow.",
    "Kindly forward the contract to legal.",
    "Kindly confirm the delivery address.",
    "Could you please rename the folder?",
    "Can you please resend the link?",
    "Would you please proofread my essay?",
    "Send me the slides, please.",
    "Cancel my two o'clock, please.",
    "Order a pizza for the team, please.",
    "Turn off the lights in room 5, please.",
    "Merge branch 12 into main, please.",
    "Step 2: please run the installer.",
    "Task 7: please tidy the inbox.",
    "Day 3: please feed the fish.",
    "Please feed the cat at six.",
    "Please charge my phone.",
    "Please text Jamie that I'm on my way.",
    "Please archive the old emails.",
    "Please translate page 4.",
    "Please count the chairs in hall B.",
    "Please schedule a call with Dr. Okafor.",
    "Please approve request 318.",
    "Please water the tomatoes tonight.",
    "Please add milk to the shopping list.",
    "Please email the photos to grandma.",
    "Please test version 2 of the app.",
]

#: Polite one-off requests kept apart: nothing trains or tunes on them.
POLITE_TASKS_2: list[str] = [
    "Please walk the dog at noon.",
    "Please file expense report 9.",
    "Please rebook my flight to Tuesday.",
    "Please fix bug 204 before the release.",
    "Kindly pay the electricity bill.",
    "Could you please refill the printer?",
    "Please take the bins out tonight.",
    "Please ping Sam about the budget.",
    "Vacuum the living room, please.",
    "Please grade quiz 6.",
    "Please back up the photos now.",
    "Please reserve seats 14 and 15.",
    "Please deploy build 77 to staging.",
    "Please lock the front door.",
    "Please ask Priya for the keys.",
    "Chapter 8: please check the footnotes.",
    "Please renew my library books.",
    "Please defrost the chicken for dinner.",
    "Would you kindly sign form 3?",
    "Please clean up the test data.",
]

#: One-turn tasks and questions written with ``HELD_OUT_9``: nothing trains on them.
TASKS_3: list[str] = [
    "Write a toast for my brother's wedding.",
    "Always wanted to know: how do tides work?",
    "Put together a packing list for a week in Iceland.",
    "Summarise the email thread from this morning.",
    "Give me the short version of the French Revolution.",
    "Make this paragraph sound more formal.",
    "Translate my CV into Dutch.",
    "Check the code below for bugs, no need to rewrite it.",
    "Suggest a vegetarian dinner for six.",
    "When does the pharmacy on Main Street close?",
    "If it's not too much trouble, draft a complaint to the airline.",
    "Number these items by priority.",
    "Use the data from the attached sheet to make a chart.",
    "No rush, but can you find me a dentist near work?",
    "Keep an eye out for cheap flights to Lisbon this month.",
    "Call the answer 'final' once we agree on it.",
    "Skip to the last chapter and tell me how it ends.",
    "Don't forget the milk on the list.",
    "Every slide needs a title, can you add them?",
    "Give me metric and imperial for this recipe.",
]

#: Short replies and corrections in a conversation: "No, not that one." sets no rule. The
#: learned scorer trains on them: before them it took a leading "no" for a ban (0.97 for
#: "No, not that one.").
REPLIES: list[str] = [
    "No, not that one.",
    "No, not today.",
    "No thanks.",
    "Nope, the other file.",
    "No, I meant the blue one.",
    "Not yet, give me a minute.",
    "Never mind, it works now.",
    "No, that's wrong, try again.",
    "Not that Paris, the one in Texas.",
    "No worries, take your time.",
    "Yes, that one.",
    "Okay, go ahead.",
    "No, the second option.",
    "Not bad at all!",
    "No, it was on Tuesday.",
    "Never heard of it.",
    "No, just the summary.",
    "Not now, maybe later.",
    "Yes please, send it.",
    "No idea, you tell me.",
]

#: Short replies and corrections kept apart: nothing trains or tunes on them.
REPLIES_2: list[str] = [
    "No, the newer version.",
    "Nope, still broken.",
    "No, I said Thursday.",
    "Not quite, closer to ten.",
    "Never mind that, what about the budget?",
    "No, leave it as it was.",
    "Not the red one, the green one.",
    "No, my sister, not my mother.",
    "Yes, exactly that.",
    "No thanks, I'm full.",
    "Not sure, let me check.",
    "No, the meeting got cancelled.",
    "Nah, skip it this time.",
    "No, you misunderstood me.",
    "Not that I know of.",
]

ORDINARY: list[str] = [
    "Yesterday I went hiking with my brother.",
    "Can you help me plan a trip to Lisbon?",
    "I love pizza, especially with mushrooms.",
    "My sister lives in Boston.",
    "What's the weather like in July?",
    "I'm so tired today, work was long.",
    "I always wanted to learn the piano.",
    "We never went to the beach that summer.",
    "Call me when you get home!",
    "I'm reading a book about the Roman empire.",
    "Do you think I should take the job?",
    "My dog is allergic to chicken, poor thing.",
    "The kids keep asking me to read the same story every night.",
    "Don't you think the ending was weird?",
    "If it rains tomorrow we'll stay in.",
]

#: What an agent is asked for one turn: tasks and questions that set no rule. The learned
#: scorer trains on them; ``TASKS_2`` is the half it is measured on.
TASKS: list[str] = [
    "Write a short poem about the sea.",
    "Fix the failing test in the parser.",
    "Send the report to Maria before noon.",
    "Summarise this article for me.",
    "Translate the second paragraph into German.",
    "Book a table for two at eight tonight.",
    "Find me a cheap flight to Rome next month.",
    "Explain how a hash map works.",
    "What's the capital of Australia?",
    "Draft an email to my landlord about the leak.",
    "Give me three ideas for a birthday present for my dad.",
    "Convert 5 miles to kilometres.",
    "Add a docstring to the main function.",
    "Remind me to call the dentist tomorrow at nine.",
    "List the files in the current folder.",
    "Make the button blue and a bit bigger.",
    "Check whether the server is up.",
    "Tell me a joke about cats.",
    "Rename the variable to total_count.",
    "Can you help me write a cover letter?",
    "Show me the last five commits.",
    "Use the staging database for this test run.",
    "Keep the second paragraph and delete the rest.",
    "Put the meeting on Thursday at three.",
    "Suggest a name for my new puppy.",
    "Compare these two laptops for me.",
    "Run the migrations and tell me what failed.",
    "Don't forget to attach the invoice this time.",
    "Please order more printer paper.",
    "Write the answer in the comment box below.",
    "How long does it take to boil an egg?",
    "Start the download now.",
    "Never mind, I found the file.",
    "Explain the difference between TCP and UDP.",
    "Recommend a good pizza place near the office.",
    "Answer the last question on the form with yes.",
    "Give me the weather for Lisbon this weekend.",
    "Sort these numbers from smallest to largest.",
    "Write a haiku about autumn in French.",
    "Call the function with an empty list and see what happens.",
    "Be quick, the train leaves in ten minutes, where is platform four?",
    "Open the spreadsheet and add a column for dates.",
    "Make a shopping list for a lasagne.",
    "Describe the picture I just sent.",
    "Tell Tom I'll be late.",
    "Plan a three-day trip to Kyoto.",
    "Check my spelling in this paragraph.",
    "Shorten this sentence a little.",
    "Reply to Anna that Friday works.",
    "Add eggs and milk to the list.",
    "What time is it in Tokyo right now?",
    "Write a SQL query that counts the orders per customer.",
    "Delete the old backups from last year.",
    "Use a bigger font on the title slide.",
    "Give the dog his medicine at six.",
    "Write tests for the new endpoint.",
    "Find the cheapest option and book it.",
    "Explain it again, more slowly this time.",
    "Can you keep an eye on the build and tell me when it finishes?",
    "Please print the second page only.",
]

#: The rule sentences of the long turns above (each found in its turn by rule_of).
RULE_SENTENCES = (
    "By the way, always give temperatures in Celsius.",
    "One thing: please don't suggest anything with alcohol, I've stopped drinking.",
    "Also, from now on please keep your answers short, I'm reading on my phone.",
    "Just so you know, I'm allergic to cats, so leave them out of any pet ideas.",
    "Please remember to always show prices in pounds for me.",
    "From now on, don't suggest gifts that cost more than fifty dollars.",
    "By the way, please always answer me in short paragraphs.",
    "Going forward, use kilometres instead of miles with me.",
    "Oh, and keep your answers to a few lines from now on.",
    "Just so you know, I'm vegan now, so leave out meat and dairy.",
    "Please, from now on, answer me in bullet points only.",
    "Also, I'm allergic to penicillin, keep it in mind for any health question.",
    "Keep everything you write for me under 50 words, by the way.",
    "Remember I only have Android phones, so skip iPhone tips.",
    "Going forward, please give me costs in euros.",
    "Note that I'm allergic to pollen, so no flower ideas.",
    "Oh, from now on, please keep every reply to three sentences at most.",
    "By the way, I'm lactose intolerant, so no cheese in recipes.",
    "Anyway, please always give me the short version first.",
    "Also, I keep halal, so no pork or alcohol in anything you suggest.",
)
#: The halves tuned and trained on, in the order they were written.
TUNED_HALVES = (
    TUNING, HELD_OUT, HELD_OUT_2, HELD_OUT_3, HELD_OUT_4, HELD_OUT_5, HELD_OUT_6, HELD_OUT_7
)  # fmt: skip
#: Every half of rules, the ones kept apart last.
ALL_HALVES = (*TUNED_HALVES, HELD_OUT_8, HELD_OUT_9)
RULE_IN: dict[str, str] = {
    turn: next(rule for rule in RULE_SENTENCES if rule in turn)
    for half in ALL_HALVES
    for turn in half["inside a long turn"]
}


def rule_of(text: str) -> str:
    """What a request must carry of ``text`` verbatim: the rule's sentence of a long turn,
    else the whole text."""
    return RULE_IN.get(text, text).strip()
