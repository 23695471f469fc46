"""Stance reading stays linear on hostile text: the two-span patterns (preference, change)
are skipped on clauses longer than any a person writes. Pure: no database."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Mapping

import pytest

from graphmem.compile import opinions


def _finishes(text: str, seconds: float = 60.0) -> bool:
    done = threading.Event()

    def run() -> None:
        opinions._read(text, ())
        done.set()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    return done.is_set()


def test_a_long_clause_skips_the_two_span_patterns() -> None:
    long = "prefers " + "tea " * 50_000 + "over coffee"
    assert len(long) > opinions.MAX_CUE_SEGMENT
    assert _finishes(long)
    assert _finishes("moved everything from " + "x " * 100_000 + "to y")


def test_the_stance_rules_visit_only_pairs_that_share_an_entity_and_a_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each opinion is judged against the items about its entities that share a topic word
    with it, not against everything said about those entities; every text is scanned for
    names once however many opinions it is weighed against. Counts, no clock."""
    from datetime import date, timedelta

    day = date(2025, 1, 1)
    ops = [
        opinions.OpinionIn(f"o{k}", f"Rosa loves {w}", day, 0.7, ("rosa",))
        for k, w in enumerate(["hiking", "chess", "pottery", "sailing", "climbing"])
    ]
    unrelated = [
        opinions.EvidenceIn(f"u{k}", "world", f"Rosa bought bread number {k} at the bakery",
                            day + timedelta(days=k + 1), ("rosa",))
        for k in range(200)
    ]  # fmt: skip
    related = [
        opinions.EvidenceIn("r1", "world", "Rosa no longer loves hiking",
                            day + timedelta(days=300), ("rosa",)),
        opinions.EvidenceIn("r2", "log", "Rosa said she hates chess now.",
                            day + timedelta(days=301), ("rosa",), path="memory/x.md",
                            line_start=1),
    ]  # fmt: skip
    calls: list[tuple[str, str]] = []
    real = opinions._rules

    def counted(op, ev, *rest):  # type: ignore[no-untyped-def]
        calls.append((op.id, ev.id))
        return real(op, ev, *rest)

    monkeypatch.setattr(opinions, "_rules", counted)
    scans: list[str] = []

    class Scanned:
        def __init__(self, rx: re.Pattern[str]) -> None:
            self.rx = rx

        def finditer(self, text: str) -> Iterator[re.Match[str]]:
            scans.append(text)
            return self.rx.finditer(text)

    class Names(opinions._Names):
        def __init__(self, surfaces: Mapping[str, str]) -> None:
            super().__init__(surfaces)
            assert self.rx is not None
            self.rx = Scanned(self.rx)  # type: ignore[assignment]

    monkeypatch.setattr(opinions, "_Names", Names)
    found, _ = opinions.evaluate(ops, [*unrelated, *related], surfaces={"rosa": "rosa"})
    assert {ev for _, ev in calls} <= {"r1", "r2@L1"}
    assert ("o0", "r1") in calls and ("o1", "r2@L1") in calls
    assert len(calls) <= 4  # at most the two related items against the two opinions they name
    monkeypatch.undo()
    assert found == opinions.evaluate(ops, related, surfaces={"rosa": "rosa"})[0]
    # a name scan per distinct text: not one per (opinion, item) pair
    assert len(scans) == len(set(scans))


def _judged(n: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many (opinion, item) pairs the rules judge for `n` opinions about one person,
    written in three dozen words (every pair shares a word with many others)."""
    import random
    from datetime import date

    rng = random.Random(7)
    words = """coffee tea replies voice notes calls morning evening trains flights hotels books
    music cycling chess pizza sushi rain snow meetings email chat github docker postgres kafka
    linux windows vim emacs python rust java""".split()
    forms = ("Prefers {} over {}.", "Likes {} and {}.", "Thinks {} is better than {}.")
    ops = [
        opinions.OpinionIn(f"o{k}", rng.choice(forms).format(*rng.sample(words, 2)),
                           date(2025, 1, 1), 0.5, ("peter",))
        for k in range(n)
    ]  # fmt: skip
    count = [0]
    real_rules, real_word = opinions._rules, opinions._word_link

    def rules(*args):  # type: ignore[no-untyped-def]
        count[0] += 1
        return real_rules(*args)

    def word(*args):  # type: ignore[no-untyped-def]
        count[0] += 1
        return real_word(*args)

    monkeypatch.setattr(opinions, "_rules", rules)
    monkeypatch.setattr(opinions, "_word_link", word)
    opinions.evaluate(ops, [], surfaces={"peter": "peter"})
    monkeypatch.undo()
    return count[0]


def test_many_opinions_about_one_person_cost_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """20,000 opinion bullets about one person were quadratic (each judged against every
    other sharing a word). Each opinion now meets at most MAX_CANDIDATES items: four times
    the opinions is about four times the judgements. Counts, no clock."""
    small, big = _judged(400, monkeypatch), _judged(1600, monkeypatch)
    assert small > 0
    assert big <= 4.6 * small, (small, big)
    assert big <= 1600 * 2 * opinions.MAX_CANDIDATES
