"""graphmem.extract.mood: plans and hypotheticals, and which way a clause looks in time."""

from __future__ import annotations

import pytest

from graphmem.extract.mood import clauses, lean, mood


@pytest.mark.parametrize(
    "text",
    [
        "If we moved to Montréal, Théo would have to find work.",
        "What if we self-host the queue?",
        "Joana is considering an offer from Maré Labs.",
        "She is thinking about moving to Porto.",
        "Maybe the lease race causes the duplicates.",
        "It might be the scheduler.",
        "Et si on partait à Porto ?",
        "On pourrait déménager l'an prochain.",
        "E se um dia quiséssemos morar lá?",
        "Talvez ela mude de emprego.",
        "Vielleicht ziehen wir nach Berlin.",
        "Wenn wir umziehen würden, bräuchten wir ein Auto.",
        "¿Y si nos mudamos a Valencia?",
        "Quizás cambie de trabajo.",
        "如果我们搬到波尔图，猫怎么办？",
    ],
)
def test_hypotheticals(text: str) -> None:
    assert mood(text) == "hypothetical"


@pytest.mark.parametrize(
    "text",
    [
        "We plan to move to Porto in June.",
        "She is going to ask Mei about the broker CPU.",
        "Théo will call the landlord tomorrow.",
        "Her mother is coming to visit in March.",
        "Joana va déménager en juin.",
        "Ils prévoient un voyage à Berlin.",
        "Ela vai mudar de casa.",
        "Ele pretende voltar para Lisboa.",
        "Jonas wird die Version bald veröffentlichen.",
        "Sie plant einen Umzug.",
        "Joana va a mudarse a Porto.",
        "Lucía planea un viaje.",
        "我们打算下周去上海。",
    ],
)
def test_plans(text: str) -> None:
    assert mood(text) == "plan"


@pytest.mark.parametrize(
    "text",
    [
        "Kestrel listens on port 8080.",
        "I could not reproduce the crash.",  # negated ability: a past fact
        "Joana moved to Porto on Saturday.",
        "Lives in Lyon with her partner Théo.",
        "Run `make will` to rebuild.",  # a cue inside inline code is no cue
        "Rui mora em Arroios com a Marta.",
        "Gestern Abend Kaffee mit Jonas Richter.",
        "Ayer fueron en bici hasta la Albufera.",
        "We may need 3 retries.",  # "may" is left out on purpose
    ],
)
def test_statements(text: str) -> None:
    assert mood(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("On Saturday we will go hiking.", 1),
        ("On Saturday we went hiking.", -1),
        ("We fixed it yesterday.", -1),
        ("Next week the new broker goes live.", 1),
        ("Samedi dernier, nous avons dîné chez eux.", -1),
        ("Na próxima segunda-feira ela começa.", 1),
        ("Sie hat gestern angerufen.", -1),
        ("El sábado cenaron con Pau.", -1),
        ("Kestrel listens on port 8080.", 0),
        # French: "a lieu" (takes place) is no past; an inverted auxiliary is
        ("Le marché a lieu samedi.", 0),
        ("Quand a lieu la fête du quartier ?", 0),
        ("Quand Inès a-t-elle rendu le vélo ?", -1),
        ("Où sont-ils allés dimanche ?", -1),
        ("昨天晚上我们吃了火锅。", -1),
        ("我们打算下周去上海。", 1),
    ],
)
def test_lean(text: str, expected: int) -> None:
    assert lean(text) == expected


def test_lean_with_both_cues_takes_the_nearest() -> None:
    text = "We fixed the build yesterday and will ship on Friday."
    assert lean(text, text.index("Friday")) == 1
    assert lean(text, text.index("yesterday")) == -1


def test_clauses_split_at_sentence_ends_not_ordinals_or_abbreviations() -> None:
    text = "Am Donnerstag, 19. März fliegt sie. Then Nov. 27; done\n- next item"
    parts = [text[a:b].strip() for a, b in clauses(text)]
    assert parts == ["Am Donnerstag, 19. März fliegt sie.", "Then Nov. 27;", "done", "- next item"]


@pytest.mark.parametrize(
    "text",
    [
        "If renewed, the lease runs to 2028.",
        "Unless the landlord objects, the terrace opens in May.",
        "Should the council agree, the market moves to Saturdays.",
        "Se a Câmara autorizar, a esplanada abre em maio.",
        "Se não chover, jantamos lá fora.",
        "Si la mairie accepte, la terrasse ouvre en mai.",
        "Si el ayuntamiento lo permite, abrimos la terraza en mayo.",
        "Caso o senhorio aceite, ficamos até 2028.",
        "Sofern der Vermieter zustimmt, bleiben wir bis 2028.",
        "- If approved: terrace from May.",
        "The quote came in. If accepted, work starts Monday.",
    ],
)
def test_a_sentence_opening_on_a_condition_is_hypothetical(text: str) -> None:
    """Whatever follows the condition: no subject pronoun is needed ("If renewed", "Se a
    Câmara…", "Si el ayuntamiento…")."""
    assert mood(text) == "hypothetical"


@pytest.mark.parametrize(
    "text",
    [
        "She asked if the lease was renewed.",  # "if" inside: a reported question
        "Se mudaron a Valencia en marzo.",  # Spanish reflexive "se", not a condition
        "Shouldn't matter much, the terrace is open.",
        "Sidra is back on the menu.",
        "Iffy weather all morning.",
    ],
)
def test_a_condition_word_that_does_not_open_a_condition(text: str) -> None:
    assert mood(text) is None
