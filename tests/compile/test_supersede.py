"""Supersession rules: small hand-written facts per cue class, negatives, the sample workspace."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from graphmem.compile.supersede import FactIn, Supersession, find_supersessions
from graphmem.parse.names import slugify

SAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "sample"


def fact(id: str, text: str, day: int | None, *entities: str, kind: str = "world") -> FactIn:
    """A fact on 2025-01-`day` (None: evergreen) mentioning `entities`."""
    when = date(2025, 1, day) if day is not None else None
    return FactIn(id, text, when, when, entities, kind)


def edges(facts: list[FactIn], aliases: dict[str, str] | None = None) -> list[tuple[str, ...]]:
    return [(s.newer, s.older, s.cue) for s in find_supersessions(facts, aliases)]


# --- one class at a time -------------------------------------------------------------------


def test_location_chain_each_fact_ends_only_the_previous_one() -> None:
    facts = [
        fact("a", "Peter lives in Vienna.", 1, "peter"),
        fact("b", "Peter moved to Lisbon; he rents a flat in Graça.", 5, "peter", "lisbon"),
        fact("c", "Peter now lives in Porto; he is no longer in Lisbon.", 9, "peter", "porto"),
    ]
    assert find_supersessions(facts) == [
        Supersession("b", "a", date(2025, 1, 5), "lives-in: Vienna -> Lisbon"),
        Supersession("c", "b", date(2025, 1, 9), "lives-in: Lisbon -> Porto"),
    ]


@pytest.mark.parametrize(
    ("old", "new", "cue"),
    [
        (
            "Peter lives in Vienna.",
            "Peter moved from Vienna to Lisbon.",
            "lives-in: Vienna -> Lisbon",
        ),
        ("Peter is based in Berlin.", "Peter relocated to Hamburg.", "lives-in: Berlin -> Hamburg"),
        ("Peter lives in Berlin.", "He no longer lives in Berlin.", "lives-in: no longer Berlin"),
        ("Peter lives in Berlin.", "Peter used to live in Berlin.", "lives-in: no longer Berlin"),
        ("Peter mora em Lisboa.", "Peter mudou-se para o Porto.", "lives-in: Lisboa -> Porto"),
        ("Peter habite à Lyon.", "Peter n'habite plus à Lyon.", "lives-in: no longer Lyon"),
    ],
)
def test_location_cues(old: str, new: str, cue: str) -> None:
    facts = [fact("old", old, 1, "peter"), fact("new", new, 2, "peter")]
    assert edges(facts) == [("new", "old", cue)]


@pytest.mark.parametrize(
    ("old", "new", "cue"),
    [
        ("warelay uses SQLite for its state.", "warelay switched from SQLite to Postgres 16.4.", "uses: SQLite -> Postgres"),
        ("warelay uses SQLite.", "warelay migrated to Postgres tonight.", "uses: SQLite -> Postgres"),
        ("warelay uses Redis for queues.", "warelay replaced Redis with NATS.", "uses: Redis -> NATS"),
        ("warelay uses Redis.", "warelay now uses NATS instead of Redis.", "uses: Redis -> NATS"),
        ("warelay uses Redis.", "warelay no longer uses Redis.", "uses: no longer Redis"),
        ("warelay runs on Docker.", "warelay now runs on Podman.", "runs-on: Docker -> Podman"),
    ],
)  # fmt: skip
def test_tool_cues(old: str, new: str, cue: str) -> None:
    facts = [fact("old", old, 1, "warelay"), fact("new", new, 2, "warelay")]
    assert edges(facts) == [("new", "old", cue)]


def test_moved_everything_off_finds_the_value_under_another_entity_of_the_fact() -> None:
    facts = [
        fact("docker", "atlas runs on Docker.", 1, "atlas"),
        fact("off", "Peter moved everything off Docker; services on atlas now run as systemd units.", 2, "atlas", "peter"),
    ]  # fmt: skip
    assert edges(facts) == [("off", "docker", "runs-on: no longer Docker")]


def test_aliases_make_values_the_same_entity() -> None:
    facts = [
        fact("a", "warelay uses Postgres.", 1, "warelay"),
        fact("b", "warelay now uses pg.", 2, "warelay"),  # same value: nothing ends
        fact("c", "warelay migrated to MySQL.", 3, "warelay"),
    ]
    assert edges(facts, {"pg": "postgres"}) == [("c", "b", "uses: pg -> MySQL")]


def test_rename_ends_the_fact_that_introduced_the_old_name() -> None:
    facts = [
        fact("intro", "nas01, Peter's home server, lives in the castle basement.", 1, "atlas"),
        fact("port", "The OpenClaw gateway now runs on nas01.", 2, "openclaw", "atlas"),
        fact("rename", "nas01 renamed to atlas (hostname atlas).", 3, "atlas"),
    ]
    assert edges(facts, {"nas01": "atlas"}) == [("rename", "intro", "renamed: nas01 -> atlas")]


@pytest.mark.parametrize(
    "new", ["atlas is called nova now.", "The box is now called nova.", "Peter renamed it to nova."]
)
def test_rename_without_the_old_name(new: str) -> None:
    facts = [fact("a", "atlas is a NAS in the basement.", 1, "atlas"), fact("b", new, 2, "atlas")]
    assert edges(facts) == [("b", "a", "renamed: atlas -> nova")]


@pytest.mark.parametrize(
    ("old", "new", "cue"),
    [
        ("Peter works at Acme as a backend engineer.", "Peter joined Northwind on Nov 3 as a staff engineer; he no longer works at Acme.", "works-at: Acme -> Northwind"),
        ("Peter works for Acme.", "Peter started at Northwind.", "works-at: Acme -> Northwind"),
        ("Peter works at Acme.", "Peter left Acme.", "works-at: no longer Acme"),
        ("Peter works at Acme.", "He no longer works at Acme.", "works-at: no longer Acme"),
        ("Peter travaille chez Acme.", "Peter travaille maintenant chez Northwind.", "works-at: Acme -> Northwind"),
        ("Peter trabalha na Acme.", "Peter já não trabalha na Acme.", "works-at: no longer Acme"),
    ],
)  # fmt: skip
def test_employer_cues(old: str, new: str, cue: str) -> None:
    facts = [fact("old", old, 1, "peter"), fact("new", new, 2, "peter")]
    assert edges(facts) == [("new", "old", cue)]


def test_role_changes_only_with_a_change_marker() -> None:
    old = fact("old", "Marta Kowalski is Peter's colleague on the Acme billing team.", 1, "marta")
    same_team = fact("plain", "Marta leads the Acme billing team.", 2, "marta")
    now = fact("now", "Marta now leads the Acme billing team (since the reorg).", 2, "marta")
    assert edges([old, same_team]) == []  # roles are many-valued: plain statements add one
    assert edges([old, now]) == [
        ("now", "old", "role: Peter's colleague on the Acme billing team -> leads the Acme billing team")
    ]  # fmt: skip


def test_setting_chain_per_key() -> None:
    facts = [
        fact("a", "Set relay.maxRetries to 3.", 1, "warelay"),
        fact("b", "relay.maxRetries = 5, relay.retryBackoffMs = 2000.", 2, "warelay"),
        fact("c", "`relay.maxRetries` is now 8.", 3, "warelay"),
        fact("d", "Changed relay.maxRetries from 8 to 10.", 4, "warelay"),
        fact("e", "relay.retryBackoffMs = 2000 still.", 5, "warelay"),  # same value
    ]
    assert edges(facts) == [
        ("b", "a", "set relay.maxRetries: 3 -> 5"),
        ("c", "b", "set relay.maxRetries: 5 -> 8"),
        ("d", "c", "set relay.maxRetries: 8 -> 10"),
    ]


@pytest.mark.parametrize(
    ("old", "new", "cue"),
    [
        (
            "House blend = 70% Cerrado + 30% Huila; 18 g in.",
            "House blend from 17 June: 60% Mogiana + 40% Guji.",
            "set House blend: 70% Cerrado + 30% Huila -> 60% Mogiana + 40% Guji",
        ),
        ("Wi-Fi password: cafe2024", "Wi-Fi password: torto-9", "set Wi-Fi password: cafe2024 -> torto-9"),
        (
            "Lote da casa: 70% Cerrado, 30% Huila.",
            "Lote da casa a partir de 17 de junho: 60% Mogiana, 40% Guji.",
            "set Lote da casa: 70% Cerrado, 30% Huila -> 60% Mogiana, 40% Guji",
        ),
        ("Code de la porte : 4512B", "Code de la porte : 7730A", "set Code de la porte: 4512B -> 7730A"),
    ],
)  # fmt: skip
def test_a_labelled_value_ends_the_value_the_label_had(old: str, new: str, cue: str) -> None:
    facts = [fact("old", old, 1, "shop"), fact("new", new, 2, "shop")]
    assert edges(facts) == [("new", "old", cue)]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Decision: keep SQLite for the tests.", "Decision: move the blog to Postgres."),
        ("Update: the roaster is back.", "Update: the new sacks came in."),
        ("House blend: 70% Cerrado.", "Filter coffee: 100% Guji."),  # two labels
        ("Wi-Fi password: cafe2024", "Wi-Fi password: cafe2024"),  # the same value
        ("Status 25 May: open.", "Status 2 June: closed for the boiler."),  # a dated report
        ("Joana said: the deploy can wait.", "Joana said: ship it on Friday."),  # quotes
        ("A Marta disse: fica para sexta.", "A Marta disse: fica para segunda."),
    ],
)
def test_labels_that_head_a_note_or_differ_end_nothing(old: str, new: str) -> None:
    facts = [fact("old", old, 1, "shop"), fact("new", new, 2, "shop")]
    assert edges(facts) == []


def test_free_text_with_a_label_ends_nothing() -> None:
    # a sentence of the log (kind "log") is read strictly: no subject is named
    facts = [
        fact("old", "Wi-Fi password: cafe2024", 1, "shop"),
        fact("new", "Wi-Fi password: torto-9", 2, "shop", kind="log"),
    ]
    assert edges(facts) == []


def test_port_instead_of() -> None:
    facts = [
        fact("a", "The gateway (0.9.3) now runs on nas01, listening on port 8080.", 1, "openclaw"),
        fact("b", "The gateway was upgraded; it now listens on port 18789 instead of 8080.", 2, "openclaw"),
    ]  # fmt: skip
    assert edges(facts) == [("b", "a", "port: 8080 -> 18789")]


def test_fallback_marker_with_similar_text_and_a_changed_name() -> None:
    facts = [
        fact("a", "Peter's favourite editor is Vim.", 1, "peter"),
        fact("b", "Peter's favourite editor is now Helix.", 2, "peter"),
    ]
    assert edges(facts) == [("b", "a", "marker: now (Vim -> Helix)")]


# --- what must not supersede -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Peter moved to Lisbon.", "Peter bought a bike."),
        ("Andy turns 40 on Nov 29.", "Andy adopted a cat named Miso."),
        ("Peter lives in Lisbon.", "Peter is currently in Marrakech (Nov 27–Dec 1) for Andy's birthday."),
        ("Peter lives in Lisbon.", "Peter moved to Marrakech for the weekend."),
        ("Peter lives in Lisbon.", "Peter lives in Marrakech until Dec 1 while visiting Andy."),
        ("Peter lives in Lisbon.", "Peter may move to Porto; if he moved to Porto he would walk to work."),
        ("Peter lives in Lisbon.", "Peter's sister lives in Berlin."),
        ("Peter lives in Lisbon.", "Andy lives in Berlin."),
        ("Peter lives in Lisbon.", "Peter moved to a new flat."),
        ("Peter works at Acme.", "Peter joined Andy for lunch at the castle."),
        ("Peter lives in Lisbon.", "Peter hates phone calls now; he prefers voice notes."),
        ("warelay uses Postgres.", "warelay uses Baileys for WhatsApp."),
        ("Set relay.maxRetries to 5.", "Set relay.retryBackoffMs to 2000."),
        ("Peter lives in Lisbon.", "Peter lives in Lisbon, in Graça."),
        ("Peter lives in Lisbon.", "Peter now lives in Graça, Lisbon."),  # a detail, not a move
        ("Peter lives in Lisbon.", "Andy and Peter moved to Porto."),  # two subjects: unclear
        ("Peter works at Acme.", "Peter met an engineer at Google."),
        ("warelay uses Baileys.", "warelay now uses Postgres."),  # tools add up
        ("Peter works at Acme.", "Peter joined Northwind's Slack as a guest."),
        ("Set relay.maxRetries to 5.", "Tried relay.maxRetries = 7 on staging."),
    ],
)  # fmt: skip
def test_unrelated_facts_about_the_same_entity(old: str, new: str) -> None:
    facts = [fact("old", old, 1, "peter", "andy", "warelay"), fact("new", new, 2, "peter", "andy", "warelay")]  # fmt: skip
    assert edges(facts) == []


@pytest.mark.parametrize(
    "new",
    [
        "Peter moved to Porto in May.",  # "May" the month, not "may" the maybe
        "Peter currently lives in Porto.",  # "currently lives" is no trip
        "Peter now lives in Porto (moved from Lisbon).",  # the old value, named as the old one
        "Peter quickly moved to Porto.",
    ],
)
def test_location_changes_that_look_like_traps(new: str) -> None:
    facts = [fact("old", "Peter lives in Lisbon.", 1, "peter"), fact("new", new, 2, "peter")]
    assert edges(facts) == [("new", "old", "lives-in: Lisbon -> Porto")]


def test_moving_back_ends_the_move_away() -> None:
    facts = [
        fact("a", "Peter lives in Lisbon.", 1, "peter"),
        fact("b", "Peter now lives in Porto; he is no longer in Lisbon.", 2, "peter"),
        fact("c", "Peter moved back to Lisbon.", 3, "peter"),
    ]
    assert edges(facts) == [("b", "a", "lives-in: Lisbon -> Porto"), ("c", "b", "lives-in: Porto -> Lisbon")]  # fmt: skip


def test_promotion_ends_the_previous_role() -> None:
    facts = [
        fact("a", "Marta is a backend engineer at Acme.", 1, "marta"),
        fact("b", "Marta was promoted to team lead.", 2, "marta"),
    ]
    assert edges(facts) == [("b", "a", "role: backend engineer at Acme -> team lead")]


def test_same_predicate_different_entities() -> None:
    facts = [
        fact("p", "Peter lives in Porto.", 1, "peter"),
        fact("a", "Andy lives in Berlin.", 2, "andy"),
        fact("pa", "Andy now lives in Sintra.", 3, "peter", "andy"),  # subject phrase names Andy
    ]
    assert edges(facts) == [("pa", "a", "lives-in: Berlin -> Sintra")]


def test_an_older_fact_never_supersedes_a_newer_one() -> None:
    facts = [
        fact("new", "Peter now lives in Porto.", 9, "peter"),
        fact("old", "Peter moved to Lisbon.", 1, "peter"),
    ]
    assert edges(facts) == [("new", "old", "lives-in: Lisbon -> Porto")]


def test_same_day_follows_input_order() -> None:
    facts = [fact("x", "Peter lives in Lisbon.", 3, "peter"), fact("y", "Peter lives in Porto.", 3, "peter")]  # fmt: skip
    assert edges(facts) == [("y", "x", "lives-in: Lisbon -> Porto")]


def test_a_superseded_fact_is_not_superseded_again() -> None:
    facts = [
        fact("a", "Peter lives in Lisbon.", 1, "peter"),
        fact("b", "Peter now lives in Porto; he is no longer in Lisbon.", 2, "peter"),
        fact("c", "Peter no longer lives in Lisbon.", 3, "peter"),
    ]
    assert edges(facts) == [("b", "a", "lives-in: Lisbon -> Porto")]


def test_valid_from_orders_and_dates_the_edge() -> None:
    stated_early = FactIn("b", "Peter works at Northwind.", date(2025, 10, 29), date(2025, 11, 3), ("peter",))  # fmt: skip
    facts = [fact("a", "Peter works at Acme.", 1, "peter"), stated_early]
    assert find_supersessions(facts)[0].day == date(2025, 11, 3)


def test_evergreen_and_experience_facts_take_no_part() -> None:
    facts = [
        fact("core", "Peter lives in Porto.", None, "peter"),
        fact("a", "Peter lives in Lisbon.", 1, "peter"),
        fact("b", "Peter moved to Porto.", 2, "peter", kind="experience"),
    ]
    assert edges(facts) == []


# --- the sample workspace ---------------------------------------------------------------------

_W = re.compile(r"^- W ((?:@\S+\s*)+):\s*(.*)")
_DAY = re.compile(r"(\d{4})-(\d\d)-(\d\d)")
ALIASES = {"nas01": "atlas"}


def sample_facts() -> list[FactIn]:
    """The W bullets of fixtures/sample: day from the file name, entities from @mentions."""
    facts = []
    for path in sorted(SAMPLE.rglob("*.md")):
        m = _DAY.fullmatch(path.stem)
        day = date(*map(int, m.groups())) if m else None
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if b := _W.match(line):
                slugs = (slugify(name.lstrip("@")) for name in b.group(1).split())
                entities = tuple(ALIASES.get(s, s) for s in slugs)
                rel = path.relative_to(SAMPLE).as_posix()
                facts.append(FactIn(f"{rel}#L{n}", b.group(2), day, day, entities))
    return facts


def test_sample_workspace_chains() -> None:
    found = find_supersessions(sample_facts(), ALIASES)
    for s in found:
        print(f"{s.newer} SUPERSEDES {s.older} ({s.day}): {s.cue}")
    assert [(s.newer, s.older, s.cue) for s in found] == [
        ("memory/2025-10-06.md#L14", "memory/2025-09-13.md#L14", "renamed: nas01 -> atlas"),
        ("memory/2025-10-08.md#L17", "memory/2025-09-02.md#L15", "uses: SQLite -> Postgres"),
        ("memory/2025-10-16.md#L14", "memory/2025-09-09.md#L18", "set relay.maxRetries: 5 -> 8"),
        # his last day at Acme (Oct 31) ends the job, before Northwind's first day
        ("memory/2025-10-31.md#L10", "memory/2025-09-02.md#L14", "works-at: no longer Acme"),
        ("memory/2025-11-15.md#L12", "memory/2025-09-06.md#L10", "lives-in: Lisbon -> Porto"),
        ("memory/2025-12-04.md#L14", "memory/2025-09-24.md#L14", "port: 8080 -> 18789"),
        ("memory/2025-12-09.md#L13", "memory/2025-09-11.md#L11",
         "role: Peter's colleague on the Acme billing team -> leads the Acme billing team"),
    ]  # fmt: skip


def test_twenty_thousand_facts_chain_year_after_year() -> None:
    """The sample's dated W bullets, copied year after year over 50 entity groups, each text
    made unique so no per-text cache helps. (Its speed is measured in bench/, not here.)"""
    base = [f for f in sample_facts() if f.day is not None]
    facts = []
    for k in range(20_000):
        f, year = base[k % len(base)], 2000 + k // len(base)
        assert f.day is not None
        facts.append(FactIn(
            f"{f.id}/{k}", f"{f.text} (ref r{k})", f.day.replace(year=year), None,
            tuple(f"{e}-{year % 50}" for e in f.entities),
        ))  # fmt: skip
    found = find_supersessions(facts)
    assert len(found) > 1000
    by_id = {f.id: f for f in facts}
    assert all(by_id[s.newer].day >= by_id[s.older].day for s in found)  # type: ignore[operator]


# --- employers, teams, databases, plans, undated lines (issue 12 lever 3) ------------------


@pytest.mark.parametrize(
    ("old", "new", "cue"),
    [
        ("Sound engineer at the Opera House.", "Hired as a sound engineer at Radio Nova.", "works-at: Opera House -> Radio Nova"),
        ("Peter is a senior engineer on the billing team at Acme.", "Staff engineer on the platform team at Northwind since 3 November.", "works-at: Acme -> Northwind"),
        ("Peter works at Acme.", "Peter's last day at Acme was 31 October.", "works-at: no longer Acme"),
        ("Ingénieur du son au Théâtre Graslin.", "Embauché comme ingénieur du son à la Cité des Congrès ; il commence le 3 mars.", "works-at: Théâtre Graslin -> Cité des Congrès"),
        ("Peter trabalha na Acme.", "Contratado como engenheiro pela Sonae.", "works-at: Acme -> Sonae"),
        ("Peter arbeitet bei Siemens.", "Eingestellt als Entwickler bei Zalando.", "works-at: Siemens -> Zalando"),
    ],
)  # fmt: skip
def test_employer_changes_in_bullets(old: str, new: str, cue: str) -> None:
    facts = [fact("old", old, 1, "peter"), fact("new", new, 2, "peter")]
    assert edges(facts) == [("new", "old", cue)]


def test_a_full_name_is_the_subject_not_another_entity() -> None:
    # NER may make "Marta Kowalski" an entity of its own; in a bullet about @Marta it is her
    old = fact("old", "Marta Kowalski works on the billing team at Acme.", 1, "marta", "marta-kowalski")  # fmt: skip
    new = fact("new", "Joined the payments team from billing on 2 January.", 2, "marta")
    assert edges([old, new]) == [("new", "old", "team: billing -> payments")]


def test_a_plan_or_a_future_clause_ends_nothing() -> None:
    job = fact("job", "Peter works at Acme.", 1, "peter")
    later = [
        "Plans to accept the Northwind offer and leave Acme.",
        "Decision: Peter leaves Acme; his last day at Acme is on 30 January 2025.",
        "Accepted the offer; last day at Acme on 30 January.",  # written on the 2nd: ahead
    ]
    for text in later:
        assert edges([job, fact("new", text, 2, "peter")]) == [], text
    done = fact("done", "Peter's last day at Acme was 30 January.", 30, "peter")
    assert edges([job, fact("plan", later[2], 2, "peter"), done]) == [
        ("done", "job", "works-at: no longer Acme")
    ]


def test_a_database_change_by_engine_name() -> None:
    facts = [
        fact("a", "The relay keeps its queue in SQLite on atlas.", 1, "relay", "atlas"),
        fact("b", "Decision: migrate from SQLite to Postgres on Saturday.", 2, "relay"),  # a plan
        fact("c", "Runs on Postgres 16 since Saturday; SQLite retired.", 6, "relay"),
        fact("d", "atlas backs up Postgres nightly.", 7, "atlas"),  # another subject
    ]
    assert edges(facts) == [("c", "a", "database: sqlite -> postgresql")]


def test_an_undated_line_with_a_value_the_logs_changed_is_superseded() -> None:
    facts = [
        fact("old", "Mobile +351 910 000 001.", 1, "graca"),
        fact("new", "New number since the 5th: +351 910 000 002.", 5, "graca"),
        fact("core-stale", "Graça: Matosinhos, mobile +351 910 000 001.", None, "graca"),
        fact("core-current", "Graça, mobile +351 910 000 002.", None, "graca"),
        fact("core-unknown", "Rui, mobile +351 910 000 003.", None, "rui"),
    ]
    assert edges(facts) == [
        ("new", "old", "phone: 910000001 -> 910000002"),
        ("new", "core-stale", "phone: 910000001 -> 910000002 (undated line)"),
    ]


# --- free text: a dated sentence may end a bullet's value, never holds one ------------------


def log(id_: str, text: str, day: int, *entities: str) -> FactIn:
    return fact(id_, text, day, *entities, kind="log")


def test_a_sentence_of_free_text_ends_a_value_it_names_with_its_subject() -> None:
    old = fact("old", "Ana is a backend engineer on the billing team at Acme.", 1, "acme", "ana")
    new = log("s", "Lena made it official: from today Ana is the tech lead of Relay.", 9, "ana", "lena", "relay")  # fmt: skip
    assert edges([old, new]) == [
        ("s", "old", "role: backend engineer on the billing team -> tech lead of Relay")
    ]
    moved = log("m", "Ana moved to Porto on Saturday.", 9, "ana", "porto")
    assert edges([fact("home", "Ana lives in Lisbon.", 1, "ana"), moved]) == [
        ("m", "home", "lives-in: Lisbon -> Porto")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "She moved to Porto on Saturday.",  # a pronoun: no default subject in free text
        "Ana is in Porto until Friday for the office week.",  # a stay
        "If we moved to Porto, Ana would need a new job.",  # hypothetical
        "Ana plans to move to Porto next year.",  # a plan
        "Ana and Rui moved to Porto.",  # several people
    ],
)
def test_free_text_that_states_no_change_ends_nothing(text: str) -> None:
    home = fact("home", "Ana lives in Lisbon.", 1, "ana")
    assert edges([home, log("s", text, 9, "ana", "porto", "rui")]) == []


def test_free_text_holds_no_value_and_is_never_superseded() -> None:
    facts = [
        log("s", "Ana lives in Lisbon now.", 1, "ana"),
        fact("b", "Ana moved to Porto.", 5, "ana"),
        log("p", "The relay listens on port 8080.", 1, "relay"),
        fact("q", "Relay port is now 9090.", 5, "relay"),
    ]
    assert edges(facts) == []


def test_free_text_retelling_a_bullet_ends_nothing() -> None:
    lead = fact("lead", "Marta now leads the Acme billing team (since the reorg).", 9, "marta")
    same_day = log("chat", "23:11 me: Marta is the head of billing at Acme now.", 9, "marta", "acme")  # fmt: skip
    other_words = log("next", "Marta leads Acme billing now; she is hiring.", 12, "marta", "acme")
    assert edges([lead, same_day]) == []  # a day's bullets distil its own text
    assert edges([lead, other_words]) == []  # the same value in fewer words


def test_an_undated_line_goes_stale_when_its_number_was_said_without_naming_the_owner() -> None:
    # The logs give the old number in a sentence about someone else ("her number is ...",
    # linked to the shop), the new one in a sentence about the owner: the undated core line
    # holding the old number is as old as that first statement, so the new one ends it.
    facts = [
        fact("said", "If the boiler breaks, her number is 213 554 871.", 2, "shop"),
        fact("new", "A Dona Amélia ligou do 966 120 334 por causa do barulho.", 9, "amelia"),
        fact("core", "Dona Amélia: landlady upstairs; phone 213 554 871.", None, "amelia"),
        fact("other", "Plumber: 211 000 999.", None, "plumber"),
    ]
    assert edges(facts) == [
        ("new", "core", "phone: 213554871 -> 966120334 (undated line)"),
    ]


def test_an_undated_number_nobody_dated_stays() -> None:
    facts = [
        fact("new", "Frau Keller ruft jetzt von 0171 555 0199 an.", 9, "keller"),
        fact("core", "Frau Keller: Vermieterin; Telefon 0171 555 0100.", None, "keller"),
    ]
    assert edges(facts) == []


# --- an undated line that writes the value a dated change left ------------------------------


@pytest.mark.parametrize(
    ("core", "change"),
    [
        (
            "Backups: restic from atlas to Wasabi (bucket atlas-off), nightly.",
            "I moved atlas's offsite backups from Wasabi to a Hetzner Storage Box.",
        ),
        (
            "Cópias: restic do atlas para a Wasabi, todas as noites.",
            "Mudei as cópias do atlas de Wasabi para a Hetzner Storage Box.",
        ),
    ],
)
def test_an_undated_line_naming_the_value_a_change_left_is_superseded(
    core: str, change: str
) -> None:
    facts = [fact("core", core, None, "atlas"), log("move", change, 9, "atlas")]
    assert edges(facts) == [
        ("move", "core", "changed: Wasabi -> Hetzner Storage Box (undated line)")
    ]


def test_an_undated_line_holding_the_new_value_or_another_subject_stays() -> None:
    change = log("move", "We moved atlas off Wasabi today.", 9, "atlas")
    assert edges([fact("core", "Backups of atlas: Wasabi, nightly.", None, "atlas"), change]) == [
        ("move", "core", "changed: no longer Wasabi (undated line)")
    ]
    current = fact("core", "Backups of atlas: Hetzner (was Wasabi).", None, "atlas")
    moved = log("m", "I moved the backups of atlas from Wasabi to Hetzner.", 9, "atlas")
    assert edges([current, moved]) == []  # it already writes the new value
    other = fact("core", "Backups of rook: Wasabi, nightly.", None, "rook")
    assert edges([other, moved]) == []  # another subject's line


@pytest.mark.parametrize(
    "change",
    ["Ana moved from Lisbon to Porto.", "A Ana mudou de Lisboa para o Porto."],
)
def test_a_move_of_home_leaves_an_undated_birthplace_alone(change: str) -> None:
    core = fact("core", "Ana: born in Lisbon, loves the sea.", None, "ana")
    assert edges([core, log("m", change, 9, "ana")]) == []


@pytest.mark.parametrize(
    "told",
    [
        "I switched atlas's mail from Fastmail to Migadu.",
        "Troquei o correio do atlas de Fastmail para Migadu.",
    ],
)
def test_a_change_told_in_the_first_person_dates_the_undated_line_it_left(told: str) -> None:
    core = fact("core", "Mail of atlas: Fastmail, family plan.", None, "atlas")
    bullet = fact("b", told, 9, "atlas", kind="experience")
    found = find_supersessions([core], told=[bullet])
    assert [(s.newer, s.older, s.cue) for s in found] == [
        ("b", "core", "changed: Fastmail -> Migadu (undated line)")
    ]
    # it ends no dated value: an experience is not a world fact
    dated = fact("d", "Mail of atlas: Fastmail.", 2, "atlas")
    assert [s.older for s in find_supersessions([dated], told=[bullet])] == []
