"""Reflection's stance rules on small hand-written logs: each rule, each kind of ending,
the distractor, a retraction that must not count as support, and bounded, cited moves.

Every case is a few lines of a daily log as graphmem.compile.rows passes them: an opinion
bullet, then passages (kind "log") judged sentence by sentence, with the entity surfaces
of the workspace."""

from __future__ import annotations

from datetime import date

import pytest

from graphmem.compile.opinions import EvidenceIn, OpinionIn, OpinionState, evaluate
from graphmem.compile.stance import read, units
from graphmem.compile.verdicts import frame, negated_over

SURFACES = {
    "theo": "theo", "théo": "theo", "mei": "mei", "林美": "mei", "rook": "rook",
    "magpie": "rook", "sluice": "sluice", "skein": "skein", "kestrel": "kestrel",
    "acme": "acme", "joana": "joana", "porto": "porto",
}  # fmt: skip


def opinion(text: str, holder: str, c: float | None = 0.6, day: int = 1) -> OpinionIn:
    return OpinionIn("o", text, date(2026, 1, day), c, (holder,), "memory/2026-01-01.md#L9")


def log(id: str, text: str, day: int | None, *entities: str, curated: bool = False) -> EvidenceIn:
    when = date(2026, 1, day) if day is not None else None
    path = f"memory/2026-01-{day:02d}.md" if day is not None else "bank/entities/X.md"
    return EvidenceIn(id, "log", text, when, entities, path=path, line_start=3, curated=curated)


def bullet(id: str, text: str, day: int, *entities: str, kind: str = "world") -> EvidenceIn:
    return EvidenceIn(id, kind, text, date(2026, 1, day), entities, source=f"memory/2026-01-{day:02d}.md#L20")  # fmt: skip


def run(op: OpinionIn, *evidence: EvidenceIn) -> OpinionState:
    return evaluate([op], list(evidence), surfaces=SURFACES)[1]["o"]


# --- reading ----------------------------------------------------------------------------------


def test_units_cite_the_lines_a_hard_wrapped_sentence_spans() -> None:
    text = "Théo landed. He sent a voice note and declined\nthe call. Then\nhe slept."
    assert [(u.line_start, u.line_end) for u in units(text, 5)] == [(5, 5), (5, 6), (6, 7)]


@pytest.mark.parametrize(
    ("text", "negated"),
    [
        ("unattended-upgrades has been running and hasn't broken anything", False),
        ("He isn't ready to talk about moving", True),
        ("Il ne veut plus déménager", True),
        ("Ela já não quer mudar", True),
        ("Er will nicht mehr umziehen", True),
        ("Ya no quiere mudarse", True),
        ("她暂时不想搬家", True),
    ],
)
def test_negation_scope_covers_only_the_words_after_it(text: str, negated: bool) -> None:
    topic = frame("He wants to move, and it is running", None, frozenset()).topic
    assert negated_over(read(text).folded, topic) is negated


# --- endings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule",
    [
        "from now on, always ask me before upgrading anything on rook.",
        "Désormais, demande-moi avant les mises à jour sur rook.",
        "A partir de agora, pergunta-me antes de qualquer atualização no rook.",
        "Ab jetzt: frag mich vorher, bevor du auf rook ein Upgrade machst.",
        "De ahora en adelante, pregúntame antes de cada actualización en rook.",
    ],
)
def test_a_rule_revokes_a_permission_to_about_zero(rule: str) -> None:
    op = opinion("Letting unattended upgrades run on magpie without asking is fine.", "rook", 0.7)
    s = run(op, log("p", rule, 5))
    assert s.status == "revoked" and s.confidence <= 0.15
    assert s.ended_by == "memory/2026-01-05.md#L3"
    assert s.history[-1].source == "memory/2026-01-05.md#L3" and "revoked" in s.history[-1].reason


def test_a_prediction_resolved_by_a_later_fact_is_confirmed() -> None:
    op = opinion("I think Acme will make Joana an offer before the end of January.", "acme", 0.55)
    s = run(op, bullet("f", "Offered Joana a staff role on 20 January.", 20, "acme"))
    assert s.status == "confirmed" and s.confidence >= 0.9


def test_a_prediction_of_a_delay_is_refuted_by_shipping_on_time() -> None:
    op = opinion("The Sluice cutover will slip past the 20 January deadline.", "sluice", 1.0)
    early = log("e", "Sluice is on track for the cutover.", 10)  # before the deadline: not yet
    s = run(op, early, bullet("f", "Went live on 20 January, on schedule.", 21, "sluice"))
    assert s.status == "refuted" and s.confidence <= 0.2
    assert [m.source for m in s.history] == ["memory/2026-01-21.md#L20"]


def test_a_future_plan_does_not_confirm_a_prediction() -> None:
    op = opinion("Acme will make Joana an offer before the end of January.", "acme", 0.55)
    s = run(op, bullet("f", "Acme will send an offer next week.", 10, "acme"))
    assert s.status == "" and s.confidence == 0.55


@pytest.mark.parametrize(
    "finding",
    [
        "The duplicate crawls came from two schedulers; it turned out to be a different cause.",
        "Kestrel's duplicates turned out to have another cause, not Skein.",
    ],
)
def test_a_rival_cause_retracts_a_causal_hypothesis(finding: str) -> None:
    op = opinion("Skein's retry path is probably what crawls Kestrel's jobs twice.", "skein")
    s = run(op, log("p", finding, 9, "kestrel"))
    assert s.status == "retracted" and s.confidence <= 0.2


def test_i_was_wrong_is_a_retraction_never_support() -> None:
    op = opinion("Théo prefers calls over voice notes.", "theo", 0.7)
    s = run(op, log("p", "Théo: I was wrong about calls over voice notes.", 5))
    assert s.confidence < 0.2 and s.status == "retracted"
    assert all(m.relation == "contradicts" for m in s.history)


@pytest.mark.parametrize(
    "later",
    [
        "Théo said he no longer wants to move to Porto.",
        "Théo is done with the idea of moving to Porto.",
        "Théo: never again will I move to Porto.",
    ],
)
def test_ended_cues_contradict_an_affirmative_opinion(later: str) -> None:
    op = opinion("Théo wants to move to Porto.", "theo", 0.7)
    s = run(op, log("p", later, 5))
    assert s.confidence < 0.7 and s.history[0].relation == "contradicts"


def test_the_holders_own_contrary_words_supersede_an_opinion_about_them() -> None:
    op = opinion("Théo isn't ready to talk about moving to Porto.", "theo", 0.75)
    s = run(op, log("p", "13:41 Théo: I'd move to Porto for the right job", 9))
    assert s.status == "superseded" and s.ended_by == "memory/2026-01-09.md#L3"


def test_repeated_independent_days_reinforce_a_conditional_preference() -> None:
    op = opinion("Prefers voice notes over calls when he is travelling.", "theo", 0.8)
    days = [
        log("a", "On tour, Théo sent six voice notes and declined both calls.", 3),
        log("b", "Théo巡演期间只发语音，不打电话。", 5),
        log("c", "From the train Théo sent voice notes and let her call go to voicemail.", 7),
    ]
    s = run(op, *days)
    assert s.confidence >= 0.85 and s.status == "reinforced"
    assert len({m.day for m in s.history}) == 3
    steps = [m.new - m.old for m in s.history]
    assert max(steps) < 0.05  # small per piece of evidence


def test_a_preference_outside_its_condition_and_another_holder_count_for_nothing() -> None:
    op = opinion("Prefers voice notes over calls when he is travelling.", "theo", 0.8)
    s = run(
        op,
        log("home", "Théo sent a voice note from home and declined a call.", 3),
        log("mei", "Mei prefers voice notes over calls when she is travelling, she says.", 4),
    )
    assert s.confidence == 0.8 and s.history == ()


def test_an_invalid_stated_c_is_clamped_then_moved_by_evidence() -> None:
    op = opinion("The Sluice cutover will slip past the 20 January deadline.", "sluice", 1.4)
    s = run(op, bullet("f", "Sluice went live on 20 January as planned.", 21, "sluice"))
    assert s.history[0].old == 1.0 and s.confidence <= 0.2


def test_curated_text_counts_once_after_the_logs() -> None:
    op = opinion("Skein's retry path is probably what crawls Kestrel's jobs twice.", "skein")
    page = log("pg", "Kestrel's duplicate crawls turned out to have a different cause.", None,
               "skein", curated=True)  # fmt: skip
    s = run(op, page)
    assert s.status == "retracted" and s.history[0].day is None
    assert s.history[0].source == "bank/entities/X.md#L3"


def test_evaluation_is_deterministic() -> None:
    op = opinion("Prefers voice notes over calls when he is travelling.", "theo", 0.8)
    evidence = [log("a", "On tour, Théo sent voice notes and declined calls.", 3)]
    assert evaluate([op], evidence, surfaces=SURFACES) == evaluate(
        [op], evidence, surfaces=SURFACES
    )


def test_a_rule_that_names_no_one_still_revokes() -> None:
    op = opinion("Merging dependency updates on kestrel without asking is fine.", "kestrel", 0.7)
    s = run(op, log("p", "From now on, ask me first before merging dependency updates.", 4))
    assert s.status == "revoked"


def test_a_rule_about_another_holder_revokes_nothing() -> None:
    op = opinion("Merging dependency updates on kestrel without asking is fine.", "kestrel", 0.7)
    s = run(op, log("p", "For sluice, from now on ask me first before merging updates.", 4))
    assert s.status == "" and s.confidence == 0.7


def test_a_dateless_prediction_that_happened_is_confirmed_and_one_that_did_not_refuted() -> None:
    op = opinion("Mei will get the Sluice lead role.", "mei", 0.5)
    assert run(op, log("p", "Mei got the Sluice lead role today.", 9)).status == "confirmed"
    assert run(op, log("p", "Mei did not get the Sluice lead role.", 9)).status == "refuted"


def test_a_habit_is_reinforced_by_doing_it_again_and_ended_by_no_longer() -> None:
    op = opinion("Théo always drinks oat milk cappuccino.", "theo", 0.6)
    again = [log(str(d), "Théo drank an oat milk cappuccino at the station.", d) for d in (3, 5)]
    assert run(op, *again).confidence > 0.6
    s = run(op, log("n", "Théo no longer drinks oat milk cappuccino.", 4))
    assert s.confidence < 0.6 and "no longer" in s.history[0].reason


def test_a_newer_opinion_that_retracts_the_old_one_never_supports_it() -> None:
    op = opinion("Théo prefers calls over voice notes.", "theo", 0.7)
    newer = EvidenceIn(
        "n", "opinion", "I was wrong about Théo: he prefers voice notes over calls.",
        date(2026, 1, 8), ("theo",), 0.8, "memory/2026-01-08.md#L12",
    )  # fmt: skip
    s = run(op, newer)
    assert s.confidence < 0.2 and all(m.relation == "contradicts" for m in s.history)


def test_choosing_the_favoured_option_under_the_condition_supports() -> None:
    op = opinion("Prefers voice notes over calls when he is travelling.", "theo", 0.8)
    s = run(op, log("a", "On tour in Lisbon, Théo sent voice notes all week.", 3))
    assert s.confidence > 0.8 and s.history[0].reason == "chose the favoured option"
    s = run(op, log("b", "Théo sent a voice note from the booth at the theatre.", 3))
    assert s.history == ()
