"""Endings that need the event itself, in two languages each, with their non-cases.

- A prediction with a deadline is confirmed by its event (most of its topic: "lease signed"),
  never by a mention of the topic ("the draft lease arrived"), and refuted when the event
  fell through ("fell through", "caiu").
- An opinion about a thing is contradicted when that thing is to be replaced ("X has to be
  replaced", "X foi substituído", "X ersetzen"); the thing that replaces another is not.
- An opinion on what someone could do is borne out by a decision naming them and the same
  task ("will run the team", "vai gerir a equipa"); a hedge or another person is not.
"""

from __future__ import annotations

from datetime import date

import pytest

from graphmem.compile.opinions import EvidenceIn, OpinionIn, OpinionState, evaluate

SURFACES = {
    "mei": "mei", "sluice": "sluice", "joana": "joana", "rancilio": "rancilio",
    "mazzer": "mazzer", "porto flat": "porto-flat", "loja do porto": "porto-flat",
}  # fmt: skip


def opinion(text: str, holder: str, c: float = 0.6) -> OpinionIn:
    return OpinionIn("o", text, date(2026, 1, 1), c, (holder,), "memory/2026-01-01.md#L9")


def log(text: str, day: int, *entities: str) -> EvidenceIn:
    path = f"memory/2026-01-{day:02d}.md"
    return EvidenceIn("e", "log", text, date(2026, 1, day), entities, path=path, line_start=3)


def newer_opinion(text: str, day: int, holder: str, c: float) -> EvidenceIn:
    source = f"memory/2026-01-{day:02d}.md#L20"
    return EvidenceIn("n", "opinion", text, date(2026, 1, day), (holder,), c, source)


def run(op: OpinionIn, *evidence: EvidenceIn) -> OpinionState:
    return evaluate([op], list(evidence), surfaces=SURFACES)[1]["o"]


LEASE_EN = "We will have the Porto flat lease signed by the end of January."
LEASE_PT = "O contrato da loja do Porto vai estar assinado antes do fim de janeiro."


@pytest.mark.parametrize(
    ("prediction", "mention", "event", "failure"),
    [
        (LEASE_EN, "The draft lease for the Porto flat arrived today.",
         "The Porto flat lease was signed this morning.", "The Porto flat lease fell through."),
        (LEASE_PT, "Chegou a minuta do contrato da loja do Porto.",
         "O contrato da loja do Porto foi assinado hoje.", "O contrato da loja do Porto caiu."),
    ],
)  # fmt: skip
def test_a_dated_prediction_needs_its_event_and_ends_when_it_falls_through(
    prediction: str, mention: str, event: str, failure: str
) -> None:
    op = opinion(prediction, "porto-flat", 0.7)
    assert run(op, log(mention, 10)).confidence == 0.7  # a mention is not the event
    came = run(op, log(event, 20))
    assert came.status == "confirmed" and came.confidence > 0.9
    failed = run(op, log(failure, 25))
    assert failed.status == "refuted" and failed.confidence < 0.15
    assert failed.history[0].source == "memory/2026-01-25.md#L3"


@pytest.mark.parametrize(
    "replacement",
    [
        "O Rancilio foi substituído por um E65S.",
        "Wir müssen den Rancilio ersetzen.",
        "We replaced the old Rancilio with an E65S.",
    ],
)
def test_a_thing_to_be_replaced_contradicts_a_good_opinion_of_it(replacement: str) -> None:
    s = run(opinion("The Rancilio is good enough for another two years.", "rancilio"), log(replacement, 20))  # fmt: skip
    assert s.confidence < 0.6 and s.history[0].reason.startswith("replacement: ")


@pytest.mark.parametrize(
    "not_replaced",
    ["The Rancilio replaced the Mazzer on the bar.", "We replaced the Mazzer with the Rancilio."],
)
def test_the_thing_that_replaces_another_is_not_replaced(not_replaced: str) -> None:
    op = opinion("The Rancilio is good enough for another two years.", "rancilio")
    assert run(op, log(not_replaced, 20)).history == ()


def test_a_newer_opinion_that_it_must_be_replaced_supersedes_it() -> None:
    op = opinion("The Rancilio is good enough for another two years.", "rancilio")
    newer = newer_opinion("The Rancilio has to be replaced before summer.", 20, "rancilio", 0.8)
    s = run(op, newer)
    assert s.superseded_by == "n" and s.status == "superseded"
    assert s.ended_by == "memory/2026-01-20.md#L20"


@pytest.mark.parametrize(
    ("belief", "decision", "hedged"),
    [
        ("Mei could run the Sluice team.", "Mei will run the Sluice team from March.",
         "Mei might run the Sluice team one day."),
        ("A Mei podia gerir a equipa do Sluice.",
         "A Mei vai gerir a equipa do Sluice a partir de março.",
         "A Mei talvez vá gerir a equipa do Sluice."),
    ],
)  # fmt: skip
def test_an_ability_is_borne_out_by_a_decision_naming_the_holder_and_the_task(
    belief: str, decision: str, hedged: str
) -> None:
    op = opinion(belief, "mei", 0.5)
    s = run(op, log(decision, 20, "mei"))
    assert s.status == "confirmed" and s.confidence >= 0.9
    assert run(op, log(hedged, 20, "mei")).history == ()
    other = run(op, log(decision.replace("Mei", "Joana"), 20, "joana"))
    assert other.history == ()  # the same task given to someone else says nothing of Mei


@pytest.mark.parametrize(
    ("prediction", "asked", "approval"),
    [
        ("Montepio will approve the fit-out loan.", "Fit-out loan request filed with Montepio.",
         "Montepio approved the fit-out loan today."),
        ("O Montepio vai aprovar o empréstimo da obra.",
         "Entregámos ao Montepio o pedido de empréstimo da obra.",
         "O Montepio aprovou o empréstimo da obra."),
        ("Montepio va approuver le prêt des travaux.", "Demande de prêt des travaux déposée chez Montepio.",
         "Montepio a approuvé le prêt des travaux."),
    ],
)  # fmt: skip
def test_a_prediction_needs_its_event_word_not_only_its_object(
    prediction: str, asked: str, approval: str
) -> None:
    op = opinion(prediction, "montepio", 0.5)
    surfaces = {**SURFACES, "montepio": "montepio"}
    request_state = evaluate([op], [log(asked, 10)], surfaces=surfaces)[1]["o"]
    assert request_state.history == ()  # the loan asked for is not the loan approved
    approved = evaluate([op], [log(approval, 20)], surfaces=surfaces)[1]["o"]
    assert approved.status == "confirmed"


def test_running_out_of_something_is_not_running_it() -> None:
    op = opinion("Mei could run the stockroom.", "mei", 0.5)
    assert (
        run(op, log("Mei says we keep running out of stockroom labels.", 20, "mei")).history == ()
    )
    assert run(op, log("Mei ran the stockroom alone all week.", 20, "mei")).confidence > 0.5


@pytest.mark.parametrize(
    "narrative",
    [
        "Joana said probably not, because of the April deadline at work; her mother wanted to know.",
        "Joana asked about kernel updates; I said I'd rather let the 03:00 run go and tell her in the morning.",
    ],
)
def test_words_reported_in_a_narrative_need_two_shared_topic_words(narrative: str) -> None:
    op = opinion("Does her best deep work before 11:00; morning focus blocks suit her.", "joana")
    assert run(op, log(narrative, 20, "joana")).history == ()


@pytest.mark.parametrize(
    "delivery",
    [
        "Encomenda da Rancilio chegou um dia antes do previsto.",
        "The Rancilio order was delivered on time this morning.",
        "Die Rancilio-Lieferung kam pünktlich.",
    ],
)
def test_an_event_on_time_contradicts_a_prediction_that_it_would_be_a_mess(delivery: str) -> None:
    op = opinion("Rancilio's deliveries will be a mess for the first few months.", "rancilio", 0.9)
    s = run(op, log(delivery, 20, "rancilio"))
    assert s.confidence < 0.9 and "outcome judged otherwise" in s.history[0].reason
    late = run(op, log("The Rancilio order was delayed again.", 20, "rancilio"))
    assert late.confidence > 0.9  # late, as predicted


@pytest.mark.parametrize(
    "arrival",
    [
        "The third Rancilio delivery came in this morning at 7:40.",
        "A quarta entrega da Rancilio chegou às 7h35, na carrinha pequena.",
        "Die vierte Rancilio-Lieferung ist um 7:35 angekommen.",
    ],
)
def test_a_plain_arrival_counts_a_little_against_a_prediction_of_trouble(arrival: str) -> None:
    mess = opinion(
        "Rancilio's deliveries will be a mess for the first few months.", "rancilio", 0.9
    )
    s = run(mess, log(arrival, 20, "rancilio"))
    assert 0.75 < s.confidence < 0.9 and s.status == ""  # a small move, no ending
    assert "outcome judged otherwise" in s.history[0].reason


@pytest.mark.parametrize(
    "not_evidence",
    [
        "The next Rancilio delivery will arrive on Friday.",  # future
        "A entrega da Rancilio ainda não chegou.",  # it did not arrive
        "Maybe the Rancilio delivery came in while I was out.",  # hedged
        "The Rancilio invoice arrived.",  # another topic: no shared word
    ],
)
def test_an_arrival_that_did_not_happen_or_is_about_something_else_is_no_evidence(
    not_evidence: str,
) -> None:
    mess = opinion(
        "Rancilio's deliveries will be a mess for the first few months.", "rancilio", 0.9
    )
    s = run(mess, log(not_evidence, 20, "rancilio"))
    assert s.confidence >= 0.9


def test_a_plain_arrival_does_not_confirm_a_good_prediction() -> None:
    smooth = opinion("Rancilio's deliveries will be great from the start.", "rancilio", 0.6)
    s = run(smooth, log("The second Rancilio delivery arrived at 7:40.", 20, "rancilio"))
    assert s.history == ()  # it came: that judges nothing as great
