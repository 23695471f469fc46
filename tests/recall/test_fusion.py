"""Pure scoring functions of recall, without a database."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from graphmem.config.presets import PRESETS, RecallConfig, preset
from graphmem.extract.entities import Gazetteer, KnownEntity
from graphmem.recall.fusion import jaccard_matrix, mmr, recency_factor, rrf, score_fusion
from graphmem.recall.packets import Packet, source_ref, timestamp, within_budget
from graphmem.recall.understand import asked_types, topic, understand


def test_rrf_sums_weighted_reciprocal_ranks() -> None:
    fused = rrf({"a": [("x", 9.0), ("y", 1.0)], "b": [("y", 0.5)]}, {"a": 1.0, "b": 2.0}, k=10)
    assert fused["x"] == pytest.approx(1 / 11)
    assert fused["y"] == pytest.approx(1 / 12 + 2 / 11)


def test_channel_caps_keep_one_channel_from_crowding_out_the_rest() -> None:
    many = [(f"l{i}", 100.0 - i) for i in range(100)]
    fused = rrf(
        {"lexical": many, "vector": [("v", 1.0)]}, {"lexical": 1, "vector": 1}, caps={"lexical": 5}
    )
    assert len(fused) == 6 and "v" in fused


def test_score_fusion_divides_each_channel_by_its_best() -> None:
    fused = score_fusion(
        {"a": [("x", 50.0), ("y", 10.0)], "b": [("y", 0.9), ("z", 0.3), ("n", -0.2)]},
        {"a": 1, "b": 0.5},
    )
    assert fused["x"] == pytest.approx(1.0)
    assert fused["y"] == pytest.approx(0.2 + 0.5)
    # A weak vector hit keeps its distance from the best, not the pool's floor.
    assert fused["z"] == pytest.approx(0.5 / 3)
    assert fused["n"] == 0.0


def test_score_fusion_minmax_stretches_each_channel_over_its_items() -> None:
    fused = score_fusion(
        {"a": [("x", 50.0), ("y", 10.0)], "b": [("y", 0.9), ("z", 0.3)]},
        {"a": 1, "b": 1},
        normalise="minmax",
    )
    assert fused["x"] == pytest.approx(1.0)
    assert fused["y"] == pytest.approx(0.1 + 1.0)
    assert fused["z"] == pytest.approx(0.1)


def test_score_fusion_rejects_an_unknown_normalisation() -> None:
    with pytest.raises(ValueError, match="best or minmax"):
        score_fusion({"a": [("x", 1.0)]}, {"a": 1}, normalise="zscore")


def test_zero_weight_channels_are_ignored() -> None:
    assert rrf({"a": [("x", 1.0)]}, {"a": 0.0}) == {}
    assert score_fusion({"a": [("x", 1.0)]}, {"a": 0.0}) == {}


@pytest.mark.parametrize(
    ("age", "factor"), [(0, 1.05), (365, 0.95), (3650, 0.95), (182, 1.05 - 0.1 * 182 / 365)]
)
def test_recency_is_bounded_and_linear(age: int, factor: float) -> None:
    now = date(2025, 12, 31)
    day = date.fromordinal(now.toordinal() - age)
    assert recency_factor(day, now, 0.05, 365) == pytest.approx(factor)


def test_evergreen_items_take_no_recency() -> None:
    assert recency_factor(None, date(2025, 1, 1), 0.05, 365) == 1.0


def test_mmr_skips_near_duplicates_and_keeps_order_otherwise() -> None:
    texts = ["peter moved to lisbon", "peter moved to lisbon", "andy adopted a cat"]
    sim = jaccard_matrix(texts)
    picked = mmr([("a", 1.0), ("b", 0.99), ("c", 0.5)], sim, k=3, lam=0.85, duplicate=0.95)
    assert [i for i, _ in picked] == ["a", "c"]
    plain = mmr([("a", 1.0), ("c", 0.5)], np.eye(2), k=2)
    assert [i for i, _ in plain] == ["a", "c"]


def test_budget_packing() -> None:
    packets = [Packet(str(i), "log", "x" * 400, "memory/a.md#L1", 1.0, None) for i in range(5)]
    assert len(within_budget(packets, 250)) == 2  # 112 tokens each
    assert len(within_budget(packets, 10)) == 1  # never empty
    assert len(within_budget(packets, None)) == 5


def test_source_refs_and_timestamps() -> None:
    assert source_ref("memory/a.md", 3, 3) == "memory/a.md#L3"
    assert source_ref("memory/a.md", 3, 5) == "memory/a.md#L3-L5"
    d = date(2025, 11, 27)
    assert timestamp(d, d, None) == "2025-11-27"
    assert timestamp(d, d, date(2025, 12, 1)) == "2025-11-27..2025-12-01"
    assert timestamp(d, date(2025, 8, 1), None) == "2025-08-01.."
    assert timestamp(None, None, None) is None


def test_presets_are_configs_and_unknown_names_are_refused() -> None:
    assert all(isinstance(c, RecallConfig) for c in PRESETS.values())
    assert preset("lexical").weights["vector"] == 0.0
    with pytest.raises(ValueError, match="choose from"):
        preset("nope")


@pytest.mark.parametrize(
    ("question", "entities", "kinds"),
    [
        ("What does Pete prefer for replies?", ("peter",), {"opinion"}),
        ("what did we fix on the relay last week?", (), {"experience"}),
        ("Where does Andy live?", ("andy",), set()),
    ],
)
def test_understand_entities_and_kind_hints(
    question: str, entities: tuple[str, ...], kinds: set[str]
) -> None:
    gazetteer = Gazetteer.build(
        [KnownEntity("peter", "Peter", ("Pete",)), KnownEntity("andy", "Andy")]
    )
    plan = understand(question, gazetteer, date(2025, 12, 15))
    assert plan.entities == entities and plan.kinds == kinds


def test_understand_time_phrases_resolve_against_now() -> None:
    plan = understand("what was true in November 2025?", Gazetteer.build([]), date(2026, 1, 10))
    assert plan.time is not None
    assert (plan.time.start, plan.time.end) == (date(2025, 11, 1), date(2025, 11, 30))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What books has Pete read?", "What books has read?"),
        ("What do Peter's kids like?", "What do kids like?"),
        ("What do Andy and Pete both paint?", "What do and both paint?"),
        ("Who is Peter?", "Who is Peter?"),  # nothing but stop words left: keep the name
        ("Where is the relay config?", "Where is the relay config?"),
    ],
)
def test_topic_is_the_question_without_the_names(question: str, expected: str) -> None:
    gazetteer = Gazetteer.build(
        [KnownEntity("peter", "Peter", ("Pete",)), KnownEntity("andy", "Andy")]
    )
    assert topic(question, gazetteer.find(question)) == expected
    assert understand(question, gazetteer, date(2025, 12, 15)).topic == expected


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Qual é o telefone da Marta agora?", "Qual é o telefone da Marta ?"),
        ("Wo arbeitet Marta jetzt?", "Wo arbeitet Marta ?"),
        ("¿Dónde vive Marta en este momento?", "¿Dónde vive Marta ?"),
        ("Where does Marta live right now?", "Where does Marta live ?"),
        ("Martaは今は何をしていますか？", "Martaは 何をしていますか？"),
    ],
)
def test_a_now_adverb_is_the_questions_time_not_a_word_to_match(question: str, words: str) -> None:
    """'agora', 'jetzt', 'right now' say when, like 'in April': the plan asks about the
    present and the lexical words leave them out, so a line saying 'agora é trabalhar'
    does not match a question about a phone number."""
    plan = understand(question, Gazetteer.build([KnownEntity("marta", "Marta")]), date(2026, 5, 1))
    assert plan.present
    assert plan.words == words


def test_a_question_that_is_only_now_keeps_its_words() -> None:
    plan = understand("now?", Gazetteer.build([]), date(2026, 5, 1))
    assert plan.words == "now?"


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("How much is a flat white these days?", {"price"}),
        ("Quanto custa agora um galão?", {"price"}),
        ("¿Cuánto cuesta el menú del día?", {"price"}),
        ("Was kostet der Cappuccino?", {"price"}),
        ("What's Marta's mobile?", {"phone"}),
        ("Qual é o telemóvel da Marta?", {"phone"}),
        ("Quel est le numéro de portable de Marta ?", {"phone"}),
        ("Which port does the relay listen on?", {"port"}),
        ("What night is choir practice now?", {"weekly"}),
        ("Quel jour a lieu la chorale ?", {"weekly"}),
        ("合唱の練習は何曜日ですか？", {"weekly"}),
        ("Where does Marta live?", set()),
        ("How many people came?", set()),
    ],
)
def test_the_type_of_value_a_question_asks_for(question: str, asks: set[str]) -> None:
    assert asked_types(question) == asks


# "What day" asks a weekly day of a habit, but in the past tense with no time named it asks
# the date of one event: a line about the shop closing on Mondays does not answer it.
@pytest.mark.parametrize(
    ("question", "weekly"),
    [
        ("What day did Marta pick up the keys from the notary?", False),
        ("Em que dia a Marta foi buscar as chaves ao notário?", False),
        ("Quel jour Marta a-t-elle récupéré les clés ?", False),
        ("What day was the boiler replaced?", False),
        # a habit: in the present, or in the past at a time the question names
        ("What day does Marta collect the veg box?", True),
        ("Em que dia vem o cabaz da Marta?", True),
        ("What evening was choir practice in March?", True),
        ("Em que noite era o ensaio do coro em março?", True),
    ],
)
def test_a_past_event_question_asks_for_a_date_not_a_weekly_day(
    question: str, weekly: bool
) -> None:
    plan = understand(question, Gazetteer.build([]), date(2026, 9, 28))
    assert ("weekly" in plan.asks) is weekly
