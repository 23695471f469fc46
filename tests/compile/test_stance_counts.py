"""An opinion that compares two places ("A has more X than B"), met later by counts of the
two ("Heroísmo 174, Fonte Taurina 96"), where the workspace says which street is in which
area ("Rua do Heroísmo 210, Bonfim"). Portuguese and English opinions, counts in English,
French and Portuguese.

Not evidence: an address's house number, counts of the opinion's own day (its basis), a
count of one side when the other was never counted, counts of streets the workspace does
not place in either area.
"""

from __future__ import annotations

from datetime import date

import pytest

from graphmem.compile.counts import comparison, counts, located
from graphmem.compile.opinions import EvidenceIn, OpinionIn, OpinionState, evaluate

SURFACES = {"bonfim": "bonfim", "oakfield": "oakfield"}

PLACES_PT = (
    "Vimos a loja na Rua do Heroísmo 210, Bonfim, e outra na Rua da Fonte Taurina 5, Ribeira."
)
PLACES_FR = "Le local de la Rue Haute 12, Oakfield, et celui de la Rue Basse 3 à Millbrook."

BONFIM = "O Bonfim tem mais movimento de manhã do que a Ribeira; seria melhor para a loja."
OAKFIELD = "Oakfield has more lunchtime customers than Millbrook."


def opinion(text: str, holder: str, c: float = 0.55) -> OpinionIn:
    return OpinionIn("o", text, date(2026, 1, 5), c, (holder,), "memory/2026-01-05.md#L9")


def log(id: str, text: str, day: int) -> EvidenceIn:
    path = f"memory/2026-01-{day:02d}.md"
    return EvidenceIn(id, "log", text, date(2026, 1, day), (), path=path, line_start=3)


def run(op: OpinionIn, *evidence: EvidenceIn) -> OpinionState:
    return evaluate([op], list(evidence), surfaces=SURFACES)[1]["o"]


def test_streets_are_placed_in_areas_and_counted_for_them() -> None:
    places = located([PLACES_PT, PLACES_FR])
    assert places == {
        "heroismo": "bonfim",
        "fonte taurina": "ribeira",
        "haute": "oakfield",
        "basse": "millbrook",
    }
    assert counts("Morning count, 3 May: Fonte Taurina 96, Heroísmo 174.", places) == [
        ("ribeira", 96),
        ("bonfim", 174),
    ]
    assert counts("Contagem: 180 pessoas na Heroísmo.", places) == [("bonfim", 180)]
    assert counts("Heroísmo had 174, Fonte Taurina 96.", places) == [
        ("bonfim", 174),
        ("ribeira", 96),
    ]
    assert located(["the flat on Rua Nova, in São Lázaro"]) == {"nova": "sao lazaro"}
    assert counts("Signed at Rua do Heroísmo 210, Bonfim today.", places) == []  # an address
    assert comparison(BONFIM) == ("ribeira", 1, "movimento de manha")
    assert comparison("Millbrook gets fewer tourists than Oakfield.") == ("oakfield", -1, "tourists")  # fmt: skip


@pytest.mark.parametrize(
    ("op", "places", "first", "second"),
    [
        (opinion(BONFIM, "bonfim"), PLACES_PT,
         "Morning count on the two streets: Fonte Taurina 96, Heroísmo 174.",
         "Contagem das 8h às 9h: 180 pessoas na Heroísmo, sem as escolas."),
        (opinion(OAKFIELD, "oakfield"), PLACES_FR,
         "Comptage de midi : Rue Basse 40 personnes, Rue Haute 85.",
         "Lunch tally again: 91 people on Haute."),
    ],
)  # fmt: skip
def test_later_counts_on_two_days_raise_a_comparison(
    op: OpinionIn, places: str, first: str, second: str
) -> None:
    s = run(op, log("p", places, 2), log("a", first, 9), log("b", second, 20))
    assert s.confidence >= 0.7 and [m.relation for m in s.history] == ["supports", "supports"]
    assert s.history[0].source == "memory/2026-01-09.md#L3"
    assert s.status != "confirmed"  # counts support; they settle nothing


def test_counts_the_other_way_contradict() -> None:
    s = run(
        opinion(OAKFIELD, "oakfield"),
        log("p", PLACES_FR, 2),
        log("a", "Comptage de midi : Rue Basse 70 personnes, Rue Haute 30.", 9),
    )
    assert s.confidence < 0.55 and s.history[0].relation == "contradicts"


@pytest.mark.parametrize(
    "not_evidence",
    [
        ["Contagem: 180 pessoas na Heroísmo."],  # the other side was never counted
        ["Signed at Rua do Heroísmo 210, Bonfim; Fonte Taurina 5 is still empty."],  # addresses
        ["Morning count: Cedofeita 300, Fonte Taurina 96."],  # a street in no known area
    ],
)
def test_one_side_addresses_or_unplaced_streets_are_no_evidence(not_evidence: list[str]) -> None:
    op = opinion(BONFIM, "bonfim")
    evidence = [log("p", PLACES_PT, 2), *(log(f"e{i}", t, 9) for i, t in enumerate(not_evidence))]
    assert run(op, *evidence).history == ()


def test_the_count_an_opinion_is_drawn_from_is_its_basis_not_evidence() -> None:
    op = opinion(BONFIM, "bonfim")
    basis = log("a", "Morning count: Fonte Taurina 96, Heroísmo 174.", 5)  # the opinion's day
    assert run(op, log("p", PLACES_PT, 2), basis).history == ()
