"""A prediction that someone will do something, met later by "they did not do it".

- "X will E" (also conditional: "if we ask, X will E") is refuted when a later sentence has X,
  then a negation over E, in any language: "a Acme não baixa nada", "Acme no baja los
  precios". The rest of the prediction's words need not be repeated: the event and its
  subject are what the prediction is about.
- Matching a price is lowering it ("will match the Braga quote" / "não baixa"), and a price
  is a price in each language.
- Not a refutation: a question, a hedge, a future ("won't"), "not yet" ("ainda não"), a
  negation before the subject ("não sei se a Acme baixa"), another subject.
"""

from __future__ import annotations

from datetime import date

import pytest

from graphmem.compile.opinions import EvidenceIn, OpinionIn, OpinionState, evaluate
from graphmem.compile.stance import read

SURFACES = {"acme": "acme", "joana": "joana", "braga": "braga", "kiosk": "kiosk"}


def opinion(text: str, holder: str, c: float = 0.6) -> OpinionIn:
    return OpinionIn("o", text, date(2026, 1, 1), c, (holder,), "memory/2026-01-01.md#L9")


def log(text: str, day: int, *entities: str) -> EvidenceIn:
    path = f"memory/2026-01-{day:02d}.md"
    return EvidenceIn("e", "log", text, date(2026, 1, day), entities, path=path, line_start=3)


def run(op: OpinionIn, *evidence: EvidenceIn) -> OpinionState:
    return evaluate([op], list(evidence), surfaces=SURFACES)[1]["o"]


MATCH_EN = "If we show them the Braga quote, Acme will match the price."
LOWER_FR = "Acme va baisser ses prix si on menace de partir."


def test_matching_a_price_is_lowering_it_in_every_language() -> None:
    lower = read("Acme will match the Braga quote").tokens
    assert "~lower" in lower
    for said in ("a Acme não baixa nada", "Acme senkt die Preise", "Acme no baja los precios"):
        assert "~lower" in read(said).tokens, said
    assert read("o preço é o preço").tokens & read("the price").tokens == {"~price"}
    # a football match is not a price
    assert "~lower" not in read("Acme lost the match on Sunday").tokens


@pytest.mark.parametrize(
    ("prediction", "refusal"),
    [
        (MATCH_EN, "- 09:40 Joana: liguei-lhes. a Acme não baixa nada"),
        (MATCH_EN, "Acme did not lower anything, Joana says."),
        (LOWER_FR, "Acme no baja los precios: Joana habló con ellos."),
        (LOWER_FR, "Finalement Acme ne baisse rien."),
        ("Acme will give us a discount if we ask.", "- 10:02 Joana: a Acme não dá desconto nenhum"),
    ],
)
def test_the_holder_not_doing_the_predicted_event_refutes_it(prediction: str, refusal: str) -> None:
    s = run(opinion(prediction, "acme", 0.65), log(refusal, 8))
    assert s.status == "refuted" and s.confidence <= 0.2
    assert s.history[0].source.startswith("memory/2026-01-08.md#L3")


@pytest.mark.parametrize(
    "not_evidence",
    [
        "Acme não baixa nada?",  # a question
        "Acme probably won't lower anything.",  # a hedge and a future
        "A Acme ainda não baixou o preço.",  # not yet
        "Acme hasn't lowered the price yet.",
        "Não sei se a Acme baixa o preço.",  # the negation is not about Acme
        "The kiosk next to Acme did not lower its prices.",  # another subject
    ],
)
def test_a_question_hedge_not_yet_or_other_subject_refutes_nothing(not_evidence: str) -> None:
    for prediction in (MATCH_EN, LOWER_FR):
        s = run(opinion(prediction, "acme", 0.65), log(not_evidence, 8))
        assert s.status == "" and s.confidence >= 0.6, (prediction, not_evidence)


def test_a_deadline_prediction_is_not_refuted_before_its_deadline() -> None:
    op = opinion("Acme will lower the price by the end of March.", "acme", 0.65)
    assert run(op, log("Acme did not lower the price.", 8)).status == ""
