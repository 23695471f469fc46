"""Opinion evidence rules: one small case per cue, the negatives, the confidence rule, the
supersession rule, embeddings, idempotence, and the sample workspace's opinions."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from graphmem.compile.opinions import (
    A_CONTRA,
    A_SUPPORT,
    WEIGHTS,
    EvidenceIn,
    Link,
    Move,
    OpinionIn,
    OpinionState,
    evaluate,
)

SAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "sample"


def op(id: str, text: str, day: int | None, c: float | None, *entities: str) -> OpinionIn:
    """An opinion on 2025-01-`day` (None: undated) about `entities` (default: peter)."""
    when = date(2025, 1, day) if day is not None else None
    return OpinionIn(id, text, when, c, entities or ("peter",))


def ev(
    id: str,
    text: str,
    day: int | None,
    *entities: str,
    kind: str = "world",
    stated: float | None = None,
) -> EvidenceIn:
    when = date(2025, 1, day) if day is not None else None
    return EvidenceIn(id, kind, text, when, entities or ("peter",), stated)


def links(
    opinions: list[OpinionIn],
    evidence: list[EvidenceIn],
    similarity: Callable[[str, str], float] | None = None,
) -> list[tuple[str, str, str, str]]:
    found, _ = evaluate(opinions, evidence, similarity)
    return [(lk.evidence, lk.opinion, lk.relation, lk.reason) for lk in found]


def state(opinions: list[OpinionIn], evidence: list[EvidenceIn], id: str = "o") -> OpinionState:
    return evaluate(opinions, evidence)[1][id]


# --- supports -------------------------------------------------------------------------------


def test_restatement_with_a_new_explicit_c_pulls_halfway_toward_it() -> None:
    ops = [
        op("o", "Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files.", 1, 0.9),
        op("n", "Prefers concise replies on WhatsApp; anything long belongs in a file.", 5, 0.98),
    ]  # fmt: skip
    found, states = evaluate(ops, [])
    assert found == [Link("n", "o", "supports", 1.0, date(2025, 1, 5), "restatement (c=0.98)")]
    assert states["o"].confidence == pytest.approx(0.94)
    assert states["o"].history == (
        Move(date(2025, 1, 5), 0.9, 0.94, "n", "supports", "restatement (c=0.98)"),
    )
    assert states["n"] == OpinionState("n", 0.98, (), None)  # an older opinion never counts


def test_a_restatement_with_a_lower_c_pulls_down() -> None:
    ops = [op("o", "Prefers tea over coffee.", 1, 0.9), op("n", "Prefers tea over coffee.", 3, 0.5)]
    assert state(ops, []).confidence == pytest.approx(0.7)


def test_restatement_without_c_and_a_fact_with_an_attitude() -> None:
    ops = [op("o", "Prefers voice notes over phone calls.", 1, 0.5)]
    evidence = [
        ev("n", "Prefers voice notes over phone calls, and says so.", 2, kind="opinion"),
        ev("f", "Peter prefers voice notes to phone calls, he told Andy.", 3, "peter", "andy"),
    ]
    found, states = evaluate(ops, evidence)
    assert [(lk.evidence, lk.relation, lk.weight) for lk in found] == [
        ("n", "supports", WEIGHTS["opinion"]),
        ("f", "supports", WEIGHTS["fact"]),
    ]
    after_n = 0.5 + A_SUPPORT * WEIGHTS["opinion"] * 0.5
    after_f = after_n + A_SUPPORT * WEIGHTS["fact"] * (1 - after_n)
    assert states["o"].confidence == pytest.approx(after_f, abs=1e-4)


# --- contradicts ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opinion", "evidence", "reason"),
    [
        ("Drinks a flat white every morning.", "Peter no longer drinks flat whites in the morning.", "negation: no longer"),
        ("Likes the tram rides to the office.", "Peter doesn't like the tram rides to the office any more.", "negation: not"),
        ("Enjoys running in the park every morning.", "Peter stopped running in the park.", "negation: stopped"),
        ("Smokes a pipe on the balcony in the evening.", "Peter quit smoking his pipe on the balcony.", "negation: quit"),
        ("Plays tennis with Andy on Sundays.", "Peter never plays tennis with Andy now.", "negation: never"),
        ("Eats chocolate after dinner.", "Peter gave up chocolate after dinner.", "negation: gave up"),
        ("Reads the news over breakfast.", "Peter cannot read the news over breakfast now.", "negation: cannot"),
        ("Aime le café du matin.", "Peter ne boit plus de café le matin.", "negation: ne"),
        ("Bebe café de manhã todos os dias.", "Peter não bebe mais café de manhã.", "negation: nao"),
        ("Gosta de correr na praia.", "Peter deixou de correr na praia.", "negation: deixou de"),
        ("Loves phone calls with his sister.", "Peter hates phone calls with his sister now.", "polarity flip: hates vs loves"),
        ("Likes long phone calls.", "Peter can't stand long phone calls.", "polarity flip: can't stand vs likes"),
        ("Dislikes long phone calls.", "Peter enjoys long phone calls these days.", "polarity flip: enjoys vs dislikes"),
        ("Doesn't like long phone calls.", "Peter loves long phone calls now.", "polarity flip: loves vs not like"),
        ("Prefers tea over coffee.", "Peter prefers coffee over tea now.", "preference swapped: coffee over tea"),
        ("Prefers board games to video games.", "Peter prefers video games to board games these days.", "preference swapped: video games over board games"),
        ("Likes running everything in Docker on the NAS.", "Peter moved everything off Docker.", "change: moved everything off docker"),
        ("Drinks a flat white every morning; coffee is non-negotiable.", "Gym three times a week, tea instead of coffee.", "change: instead of coffee"),
        ("Loves Vim for quick edits.", "Peter switched from Vim to Helix.", "change: switched from vim to helix"),
        ("Likes Docker for the home server.", "Peter replaced Docker with Podman.", "change: replaced docker with podman"),
    ],
)  # fmt: skip
def test_contradiction_cues(opinion: str, evidence: str, reason: str) -> None:
    found = links([op("o", opinion, 1, 0.8)], [ev("e", evidence, 2)])
    assert found == [("e", "o", "contradicts", reason)]


def test_two_shared_entities_pin_the_subject() -> None:
    about = ("zoe", "quillwell", "miniflux")
    ops = [
        op(
            "o",
            "Miniflux is the right library for quillwell despite the API churn.",
            1,
            0.7,
            *about,
        )
    ]
    gave_up = "Zoë has given up on Miniflux; she no longer thinks it is worth the churn."
    assert links(ops, [ev("e", gave_up, 2, *about)]) == [
        ("e", "o", "contradicts", "negation: no longer")
    ]
    assert links(ops, [ev("e", gave_up, 2, "zoe")]) == []  # one shared entity, one word: unrelated
    cluttered = [op("o", "Zoë finds Syncthing cluttered.", 1, 0.6, "zoe", "syncthing")]
    evidence = [
        ev("e", "Zoë no longer likes Syncthing; she finds it cluttered now.", 2, "zoe", "syncthing")
    ]
    assert links(cluttered, evidence) == [("e", "o", "supports", "restatement")]


def test_the_same_words_about_another_entity_are_neither() -> None:
    ops = [
        op(
            "o",
            "Miniflux is the right library for quillwell despite the API churn.",
            1,
            0.7,
            "quillwell",
            "miniflux",
        )
    ]
    other = "Figma is the right library for quillwell despite the API churn."
    assert links(ops, [ev("e", other, 2, "quillwell", "figma", kind="opinion", stated=0.9)]) == []
    rosa = [op("o", "Prefers trains over planes to Lisbon.", 1, 0.7, "rosa", "lisbon")]
    andy = ev("e", "Prefers planes over trains to Lisbon.", 2, "andy", "lisbon", kind="opinion")
    assert links(rosa, [andy]) == []  # Andy's view is not Rosa's


def test_a_fact_and_an_opinion_swapping_a_preference() -> None:
    ops = [
        op("x1", "Prefers phone calls over voice notes.", 1, 0.8),
        op("new", "Prefers voice notes over phone calls.", 9, 0.85),
    ]
    evidence = [
        ev(
            "w",
            "Peter hates phone calls now; he prefers voice notes unless something is urgent.",
            9,
        )
    ]
    assert links(ops, evidence) == [
        ("new", "x1", "contradicts", "preference swapped: voice notes over phone calls"),
        ("w", "x1", "contradicts", "preference swapped: voice notes over phone calls"),
        ("w", "new", "supports", "restatement"),
    ]  # fmt: skip


def test_a_fact_contradicts_through_the_supersession_of_a_fact_the_opinion_rests_on() -> None:
    ops = [op("o", "SQLite is plenty fast for the warelay state.", 5, 0.7, "warelay", "sqlite")]
    evidence = [
        ev("uses", "warelay uses SQLite for its state.", 1, "warelay", "sqlite"),
        ev("switch", "warelay switched from SQLite to Postgres.", 9, "warelay", "postgres"),
    ]
    found, states = evaluate(ops, evidence)
    assert found == [
        Link("switch", "o", "contradicts", WEIGHTS["basis"], date(2025, 1, 9),
             "rests on superseded fact uses: uses: SQLite -> Postgres"),
    ]  # fmt: skip
    assert states["o"].confidence < 0.7
    assert evaluate(ops, evidence, supersessions=[])[0] == []  # the caller's edges are used


# --- neither --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opinion", "evidence"),
    [
        ("Finds the OpenClaw web UI cluttered.", "The OpenClaw gateway now listens on port 18789 instead of 8080."),
        ("Finds the OpenClaw web UI cluttered.", "I moved the OpenClaw gateway from Peter's laptop to nas01."),
        ("Prefers board games to video games.", "Board-game night at the castle on Sep 27."),
        ("Prefers phone calls over voice notes.", "Peter did not call back the plumber."),
        ("Prefers phone calls over voice notes.", "J'ai noté de rappeler le rendez-vous à Peter."),
        ("Gets more focused work done at the castle than at the Acme office.", "Peter joined Northwind as a staff engineer; he no longer works at Acme."),
        ("Baileys is still the right library despite the API churn.", "I adapted warelay to Baileys' renamed message keys in about an hour."),
        ("Likes running everything in Docker on nas01.", "nas01 renamed to atlas; nas01.castle.lan kept as a CNAME."),
        ("Drinks a flat white every morning.", "Peter had a flat white with Andy this morning."),
        ("Prefers video games over board games.", "Peter hosts a board-game night at the castle."),
    ],
)  # fmt: skip
def test_unrelated_facts_about_the_same_entity_are_neither(opinion: str, evidence: str) -> None:
    assert links([op("o", opinion, 1, 0.5)], [ev("e", evidence, 2)]) == []
    assert state([op("o", opinion, 1, 0.5)], [ev("e", evidence, 2)]).confidence == 0.5


def test_only_shared_entities_and_later_dated_evidence_count() -> None:
    ops = [op("o", "Prefers board games to video games.", 5, 0.55, "andy")]
    evidence = [
        ev("other", "Peter prefers video games to board games.", 6, "peter"),
        ev("before", "Andy prefers video games to board games.", 4, "andy"),
        ev("undated", "Andy prefers video games to board games.", None, "andy"),
        ev("same-day", "Andy prefers video games to board games.", 5, "andy"),
    ]
    assert [lk.evidence for lk in evaluate(ops, evidence)[0]] == ["same-day"]


def test_an_opinion_is_never_its_own_evidence_and_older_opinions_never_count() -> None:
    ops = [
        op("old", "Prefers tea over coffee.", 1, 0.6),
        op("a", "Prefers coffee over tea.", 3, 0.7),
        op("b", "Prefers tea over coffee.", 3, 0.7),
    ]
    found = links(ops, [ev("a", "Prefers coffee over tea.", 3, kind="opinion")])
    # same day: only the later one in `opinions` counts as evidence for the earlier one
    assert [(e, o, r) for e, o, r, _ in found] == [
        ("a", "old", "contradicts"),
        ("b", "old", "supports"),
        ("b", "a", "contradicts"),
    ]


def test_undated_opinions_keep_their_stated_confidence() -> None:
    ops = [op("o", "Prefers tea over coffee.", None, 0.8)]
    evidence = [ev("e", "Peter prefers coffee over tea now.", 9), ev("u", "Prefers coffee.", None)]
    assert state(ops, evidence) == OpinionState("o", 0.8, (), None)


# --- confidence -----------------------------------------------------------------------------


def _days(
    *days: int, text: str = "Peter no longer drinks flat whites in the morning."
) -> list[EvidenceIn]:
    return [ev(f"e{i}", text + f" ({i})", d) for i, d in enumerate(days)]


def test_repeated_independent_contradiction_takes_growing_steps() -> None:
    o = [op("o", "Drinks a flat white every morning.", 1, 0.8)]
    w = WEIGHTS["fact"]
    one_day = state(o, _days(3, 3)).confidence
    two_days = state(o, _days(3, 4)).confidence
    assert one_day == pytest.approx(round(0.8 * (1 - A_CONTRA * w) ** 2, 4), abs=1e-4)
    assert two_days == pytest.approx(0.8 * (1 - A_CONTRA * w) * (1 - 2 * A_CONTRA * w), abs=1e-4)
    assert two_days < one_day
    first = state(o, _days(3)).history[0]
    assert first.old - first.new < 0.1  # one piece of evidence: a small step


def test_confidence_stays_in_bounds_and_history_records_every_move() -> None:
    falling = state([op("o", "Drinks a flat white every morning.", 1, 1.0)], _days(*range(2, 30)))
    assert 0.0 <= falling.confidence < 0.01
    assert len(falling.history) == 28
    assert all(m.new <= m.old for m in falling.history)
    assert all(a.new == b.old for a, b in zip(falling.history, falling.history[1:], strict=False))
    rising = [
        ev(f"n{d}", f"Prefers tea over coffee ({d}).", d, kind="opinion", stated=1.0)
        for d in range(2, 30)
    ]
    assert 0.9 < state([op("o", "Prefers tea over coffee.", 1, 0.9)], rising).confidence <= 1.0


def test_the_same_evidence_never_counts_twice() -> None:
    o = [op("o", "Drinks a flat white every morning.", 1, 0.8)]
    text = "Peter no longer drinks flat whites."
    once = state(o, [ev("e", text, 3)])
    assert state(o, [ev("e", text, 3), ev("e", text, 3)]) == once  # same id
    assert (
        state(o, [ev("e", text, 3), ev("f", "  peter no LONGER drinks flat whites. ", 3)]) == once
    )
    assert len(state(o, [ev("e", text, 3), ev("f", text, 4)]).history) == 2  # another day counts


def test_evaluate_is_idempotent_and_opinions_passed_as_evidence_change_nothing() -> None:
    ops = [
        op("x1", "Prefers phone calls over voice notes.", 1, 0.8),
        op("new", "Prefers voice notes over phone calls.", 9, 0.85),
    ]
    evidence = [ev("w", "Peter hates phone calls now.", 9)]
    first = evaluate(ops, evidence)
    assert evaluate(ops, evidence) == first
    again = [
        *evidence,
        ev("new", "Prefers voice notes over phone calls.", 9, kind="opinion", stated=0.85),
    ]
    assert evaluate([*ops, ops[0]], again) == first


# --- supersession ---------------------------------------------------------------------------


def test_a_newer_opinion_held_more_firmly_supersedes() -> None:
    ops = [
        op("old", "Prefers tea over coffee.", 1, 0.8),
        op("new", "Prefers coffee over tea.", 5, 0.9),
    ]
    assert state(ops, [], "old").superseded_by == "new"
    assert state(ops, [], "new").superseded_by is None


def test_facts_alone_lower_an_opinion_but_never_supersede_it() -> None:
    s = state([op("o", "Drinks a flat white every morning.", 1, 0.9)], _days(*range(2, 8)))
    assert s.confidence < 0.35
    assert s.superseded_by is None


def test_a_weak_newer_opinion_supersedes_only_after_a_second_independent_contradiction() -> None:
    ops = [
        op("old", "Prefers tea over coffee.", 1, 0.8),
        op("new", "Prefers coffee over tea.", 5, 0.3),
    ]
    assert state(ops, [], "old").superseded_by is None
    later = [ev("f", "Peter prefers coffee over tea these days.", 7)]
    assert state(ops, later, "old").superseded_by == "new"


# --- embeddings -----------------------------------------------------------------------------


def table(
    pairs: dict[tuple[str, str], float], calls: list[tuple[str, str]]
) -> Callable[[str, str], float]:
    def similarity(a: str, b: str) -> float:
        calls.append((a, b))
        return pairs.get((a, b), 0.0)

    return similarity


def test_embeddings_rescue_a_paraphrase_sharing_a_word_and_nothing_else() -> None:
    o = [op("o", "Prefers concise replies on WhatsApp.", 1, 0.9)]
    para = "Wants WhatsApp messages kept to a few lines."
    other = "Keeps a reading list for the summer."
    calls: list[tuple[str, str]] = []
    sim = table({(o[0].statement, para): 0.85, (o[0].statement, other): 0.99}, calls)
    found = links(o, [ev("p", para, 2, kind="opinion"), ev("x", other, 3, kind="opinion")], sim)
    assert found == [("p", "o", "supports", "paraphrase (cosine 0.85)")]
    assert calls == [(o[0].statement, para)]  # no shared word: never asked
    low = table({(o[0].statement, para): 0.62}, [])
    assert links(o, [ev("p", para, 2, kind="opinion")], low) == []


def test_embeddings_never_override_a_conflict_or_a_lexical_decision() -> None:
    o = [op("o", "Prefers phone calls over voice notes.", 1, 0.8)]
    flip = "Prefers voice notes over phone calls."
    calls: list[tuple[str, str]] = []
    found = links(
        o, [ev("n", flip, 2, kind="opinion")], table({(o[0].statement, flip): 0.97}, calls)
    )
    assert found == [("n", "o", "contradicts", "preference swapped: voice notes over phone calls")]
    assert calls == []


# --- the sample workspace -------------------------------------------------------------------

_BULLET = re.compile(r"^- (W|B|S|O(\(c=([\d.]+)\))?) ((@\S+\s*)+):\s*(.*)")
_KINDS = {"W": "world", "B": "experience", "S": "observation"}


def sample() -> tuple[list[OpinionIn], list[EvidenceIn]]:
    """Typed bullets of fixtures/sample; ids are `path:line`, @nas01 is atlas."""
    ops: list[OpinionIn] = []
    evidence: list[EvidenceIn] = []
    files = [
        *sorted(SAMPLE.glob("memory/*.md")),
        SAMPLE / "memory.md",
        *sorted(SAMPLE.glob("bank/*.md")),
    ]
    for path in files:
        m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)\.md", path.name)
        day = date(*map(int, m.groups())) if m else None
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            b = _BULLET.match(line)
            if b is None:
                continue
            slugs = (s[1:].lower() for s in b.group(4).split())
            entities = tuple(dict.fromkeys("atlas" if s == "nas01" else s for s in slugs))
            id = f"{path.relative_to(SAMPLE)}:{n}"
            if b.group(1).startswith("O"):
                c = float(b.group(3)) if b.group(3) else None
                ops.append(OpinionIn(id, b.group(6), day, c, entities))
            else:
                evidence.append(EvidenceIn(id, _KINDS[b.group(1)], b.group(6), day, entities))
    return ops, evidence


SAMPLE_LINKS = {
    ("10-10.md:11", "09-09.md:20", "supports"),  # R1 restated, c=0.97
    ("10-20.md:14", "09-11.md:12", "supports"),  # R3 restated, c=0.8
    ("11-13.md:12", "09-18.md:13", "supports"),  # R2 restated, c=0.8
    ("10-23.md:15", "09-26.md:10", "supports"),  # R4 restated, c=0.75
    ("11-07.md:11", "09-16.md:11", "contradicts"),  # X1: hates phone calls, prefers voice notes
    ("11-07.md:12", "09-16.md:11", "contradicts"),  # X1: the opposite opinion
    ("11-07.md:11", "11-07.md:12", "supports"),  # the same day's fact backs the new opinion
    ("11-05.md:11", "09-02.md:16", "contradicts"),  # X2: no longer drinks coffee
    ("11-05.md:12", "09-02.md:16", "contradicts"),  # X2: reminder changed from coffee to tea
    ("12-12.md:13", "09-02.md:16", "contradicts"),  # X2: tea instead of coffee
    ("10-23.md:13", "09-13.md:16", "contradicts"),  # X3: moved everything off Docker
}


def test_sample_workspace_opinions() -> None:
    ops, evidence = sample()
    found, states = evaluate(ops, evidence)
    for lk in found:
        print(f"{lk.evidence} -> {lk.opinion}: {lk.relation} {lk.weight} ({lk.reason})")
    short = {(lk.evidence.removeprefix("memory/2025-"), lk.opinion.removeprefix("memory/2025-"), lk.relation) for lk in found}  # fmt: skip
    assert short == SAMPLE_LINKS

    first = {o.id: o.stated for o in ops}

    def conf(id: str) -> float:
        return states[f"memory/2025-{id}"].confidence

    assert conf("09-09.md:20") > first["memory/2025-09-09.md:20"]  # R1 concise replies
    assert conf("09-11.md:12") > first["memory/2025-09-11.md:12"]  # R3 Marta morning reviews
    assert conf("09-16.md:11") < first["memory/2025-09-16.md:11"]  # X1 phone calls
    assert states["memory/2025-09-16.md:11"].superseded_by == "memory/2025-11-07.md:12"
    assert conf("09-02.md:16") < first["memory/2025-09-02.md:16"]  # X2 flat white
    x3 = states["memory/2025-09-13.md:16"]  # X3 Docker on nas01
    assert x3.confidence < 0.75
    assert [m.evidence for m in x3.history] == ["memory/2025-10-23.md:13"]
    for untouched in ("09-24.md:16", "09-16.md:12"):  # U1 OpenClaw web UI, U2 board games
        assert states[f"memory/2025-{untouched}"] == OpinionState(
            f"memory/2025-{untouched}", first[f"memory/2025-{untouched}"], (), None
        )
    assert sum(s.superseded_by is not None for s in states.values()) == 1
    for undated in ("memory.md:8", "bank/opinions.md:3"):
        assert states[undated].confidence == first[undated] and not states[undated].history


def test_longest_first_matches_as_the_sorted_alternation() -> None:
    """The trie of _Names finds what the alternation sorted longest first found: prefixes
    of one another, word bounds, regex metacharacters, and words past the trie's depth."""
    import random

    from graphmem.compile.opinions import TRIE_DEPTH, longest_first

    def both(words: set[str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
        plain = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
        bound = r"(?<![a-z0-9])(?:{})(?![a-z0-9])"
        return re.compile(bound.format(plain)), re.compile(bound.format(longest_first(words)))

    rng = random.Random(7)
    alphabet = "ab-. *(\né"
    for _ in range(200):
        words = {
            "".join(rng.choices(alphabet, k=rng.randint(2, 7))) for _ in range(rng.randint(1, 15))
        }
        old, new = both(words)
        for _ in range(20):
            text = "".join(rng.choices(alphabet + "c1", k=rng.randint(0, 40)))
            assert [m.span() for m in new.finditer(text)] == [m.span() for m in old.finditer(text)]
    old, new = both({"a" * k for k in range(2, TRIE_DEPTH + 10)})
    for text in ("a" * 50, "a" * (TRIE_DEPTH + 20) + " a", "xa" * 30):
        assert [m.span() for m in new.finditer(text)] == [m.span() for m in old.finditer(text)]


def test_names_found_with_the_run_check_are_those_of_the_plain_pattern() -> None:
    """`names_in(only=…)` skips the lookup on a text holding none of those slugs' surfaces'
    longest runs; it finds the same names of those slugs as the whole lookup, which is the
    pattern's: names inside longer ones, punctuation in names, non-ASCII ones."""
    import random

    from graphmem.compile.opinions import _Names, names_in
    from graphmem.text.fold import folded

    surfaces = {"peter": "peter", "peter pan": "peter-pan", "o'brien": "obrien", "zoë": "zoe",
                "node.js": "node", "--x": "dashx", "小明": "xiaoming", "the lighthouse": "lh",
                "ana": "ana"}  # fmt: skip
    names = _Names(surfaces)
    assert names.rx is not None
    pieces = ["Peter", "Pan", "peter pan", "O'Brien", "Zoë", "zoe", "node.js", "nodejs",
              "--x", "小明", "the", "lighthouse", "The Lighthouse", "Ana", "Anabel", " ", ", ",
              "!", "-"]  # fmt: skip
    rng = random.Random(3)
    texts = ["".join(rng.choices(pieces, k=rng.randint(0, 8))) for _ in range(3000)]
    for text in texts:
        plain = [names.surfaces[m.group()] for m in names.rx.finditer(folded(text))]
        assert names.find(text) == list(dict.fromkeys(plain)), text
    for only in ({"peter"}, {"zoe", "xiaoming"}, {"dashx", "lh"}, set()):
        some = names_in(texts, surfaces, only=only)
        whole = names_in(texts, surfaces)
        assert [s & only for s in some] == [w & only for w in whole], only
