"""Entity cards and timelines: everything the graph knows about one entity, cited."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from graphmem.errors import GraphmemError
from graphmem.parse.parser import file_role
from graphmem.recall.lookups import entity_gazetteer, rows_by_ids
from graphmem.recall.packets import source_ref, timestamp
from graphmem.store.db import Graph
from graphmem.text.fold import fold

EARLIEST = date(1, 1, 1)
LATEST = date(9999, 12, 31)


class UnknownEntityError(GraphmemError):
    """No entity by that name, slug or alias."""


@dataclass(frozen=True)
class Line:
    """One cited statement on a card or a timeline."""

    id: str
    kind: str
    text: str
    source: str
    when: str | None
    confidence: float | None = None
    note: str | None = None  # e.g. "superseded 2025-11-15 by ... (lives-in: Lisbon -> Porto)"
    evidence: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form (empty optional fields left out)."""
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "source": self.source,
            "when": self.when,
        }
        if self.confidence is not None:
            out["confidence"] = self.confidence
        if self.note:
            out["note"] = self.note
        if self.evidence:
            out["evidence"] = list(self.evidence)
        return out


@dataclass(frozen=True)
class EntityCard:
    """What ``graphmem about NAME`` shows."""

    slug: str
    name: str
    kind: str | None
    aliases: tuple[str, ...]
    page: str | None
    mentions: int
    first_seen: date | None
    last_seen: date | None
    current: tuple[Line, ...] = ()
    history: tuple[Line, ...] = ()
    opinions: tuple[Line, ...] = ()
    recent: tuple[Line, ...] = ()
    timeline: tuple[Line, ...] = ()  # its own facts that happened, or ended, by `now`
    upcoming: tuple[Line, ...] = ()  # its own facts that start after `now`
    related: tuple[tuple[str, str, int], ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "slug": self.slug,
            "name": self.name,
            "kind": self.kind,
            "aliases": list(self.aliases),
            "page": self.page,
            "mentions": self.mentions,
            "first_seen": self.first_seen.isoformat() if self.first_seen else None,
            "last_seen": self.last_seen.isoformat() if self.last_seen else None,
            "current_facts": [x.to_dict() for x in self.current],
            "superseded_facts": [x.to_dict() for x in self.history],
            "opinions": [x.to_dict() for x in self.opinions],
            "recent": [x.to_dict() for x in self.recent],
            "timeline_facts": [x.to_dict() for x in self.timeline],
            "upcoming_facts": [x.to_dict() for x in self.upcoming],
            "related": [{"slug": s, "name": n, "together": c} for s, n, c in self.related],
        }


def resolve_entity(graph: Graph, name: str) -> dict[str, Any]:
    """The entity row for a name, slug or alias (``Pete``, ``@Peter``, ``peter``)."""
    rows = graph.run("entity/list").dicts()
    slug = entity_gazetteer(rows).resolve(name.lstrip("@"))
    by_slug = {r["slug"]: r for r in rows}
    if slug is None or slug not in by_slug:
        near = sorted(r["name"] for r in rows if name.lower()[:3] in r["name"].lower())[:5]
        hint = f"did you mean {', '.join(near)}?" if near else "see `graphmem entities`"
        raise UnknownEntityError(f"no entity named {name!r}", hint=hint)
    return by_slug[slug]


def _rows_by_id(graph: Graph, ids: list[str]) -> dict[str, tuple[str, dict[str, Any]]]:
    return {row["id"]: (table, row) for table, row in rows_by_ids(graph, ids)}


def _line(
    table: str, row: dict[str, Any], note: str | None = None, evidence: tuple[str, ...] = ()
) -> Line:
    kind = {"Opinion": "opinion", "Passage": "log"}.get(table) or str(row.get("kind"))
    return Line(
        id=row["id"],
        kind=kind,
        text=str(row.get("text") or ""),
        source=source_ref(row["path"], row["line_start"], row["line_end"]),
        when=timestamp(row.get("day"), row.get("valid_from"), row.get("valid_to")),
        confidence=row.get("confidence"),
        note=note,
        evidence=evidence,
    )


def entity_card(
    graph: Graph, name: str, recent: int = 8, related: int = 8, now: date | None = None
) -> EntityCard:
    """Aliases, current facts, superseded history, opinions with confidence and evidence,
    recent events, the entity's own past and upcoming facts, and related entities.

    The facts, current and replaced ("What changed"), are those whose subject is the
    entity (:func:`is_about`); each is placed by :func:`placement` at `now` (default: no
    end, every fact begun is past or current): current facts are states that hold then;
    events, trips, plans and ended states are its timeline or upcoming. ``about``, ``Memory.about``, MCP and the bank page all show this
    card, so they list the same current facts."""
    ent = resolve_entity(graph, name)
    slug = ent["slug"]
    at = now or date.max
    superseded = {r["id"]: r for r in graph.run("about/superseded", slug=slug).dicts()}
    facts = graph.run("about/facts", slug=slug).dicts()
    names = [ent["name"], *(ent["aliases"] or ())]
    fact_rows = _rows_by_id(graph, [f["id"] for f in facts])
    by_id = {f["id"]: f for f in facts}

    def replaced(fact_id: str) -> bool:  # by `now`, when asked about a day in the past
        row = superseded.get(fact_id)
        return row is not None and (now is None or row["day"] is None or row["day"] <= now)

    def own(f: dict[str, Any]) -> bool:
        mentions = list(zip(f["slugs"], f["hows"], strict=True))
        if ent["page"] and fact_rows[f["id"]][1]["path"] == ent["page"]:
            mentions.append((slug, "page"))
        return is_about(slug, mentions, f["text"], names)

    placed: dict[str, list[Line]] = {"current": [], "timeline": [], "upcoming": []}
    for f in facts:
        if f["id"] in fact_rows and not replaced(f["id"]) and own(f):
            table, row = fact_rows[f["id"]]
            place = placement(row, at)
            line = _line(table, row)
            if place == "upcoming":  # dated by when it starts, as the bank page does
                line = replace(line, when=_from(starts_on(row), row.get("valid_to")))
            placed[place].append(line)
    newer_rows = _rows_by_id(graph, sorted({r["newer_id"] for r in superseded.values()}))

    def cite(i: str) -> str:  # a person reads these: path#Lx-Ly, never an internal id
        if i not in newer_rows:
            return "a newer fact"
        row = newer_rows[i][1]
        return source_ref(row["path"], row["line_start"], row["line_end"])

    history = [
        _line(
            "Fact",
            {**fact_rows[i][1]},
            note=f"superseded {r['day']} by {cite(r['newer_id'])} ({r['cue']})",
        )
        for i, r in superseded.items()
        if i in fact_rows and i in by_id and own(by_id[i])
    ]
    opinion_ids = [o["id"] for o in graph.run("entity/opinions", slug=slug).dicts()]
    evidence: dict[str, list[str]] = {i: [] for i in opinion_ids}
    if opinion_ids:
        found = graph.run("recall/opinion_evidence", ids=opinion_ids).rows
        passages = graph.run("recall/evidence", ids=opinion_ids).rows
        where = _rows_by_id(graph, sorted({r[1] for r in found} | {r[1] for r in passages}))

        def ref(i: str) -> str:
            row = where[i][1] if i in where else None
            return source_ref(row["path"], row["line_start"], row["line_end"]) if row else "?"

        for op, ev, relation, weight, day in found:
            evidence[op].append(f"{relation.lower()} {ref(ev)} (weight {weight:.2f}, {day})")
        for claim, passage, how in passages:
            if claim in evidence:
                evidence[claim].append(f"{how} {ref(passage)}")
    op_rows = _rows_by_id(graph, opinion_ids)
    opinions = [
        _line(*op_rows[i], evidence=tuple(evidence[i])) for i in opinion_ids if i in op_rows
    ]
    recent_ids = [r["id"] for r in graph.run("about/recent", slug=slug, limit=recent).dicts()]
    recent_rows = _rows_by_id(graph, recent_ids)
    return EntityCard(
        slug=slug,
        name=ent["name"],
        kind=ent["kind"],
        aliases=tuple(ent["aliases"] or ()),
        page=ent["page"],
        mentions=int(ent["mentions"] or 0),
        first_seen=ent["first_seen"],
        last_seen=ent["last_seen"],
        current=tuple(placed["current"]),
        history=tuple(history),
        opinions=tuple(opinions),
        recent=tuple(_line(*recent_rows[i]) for i in recent_ids if i in recent_rows),
        # newest first (the query's order); an undated line (memory.md, a page) has no place
        # in time, so it closes the timeline instead of opening it
        timeline=tuple(sorted(placed["timeline"], key=lambda x: not x.when)),
        upcoming=tuple(placed["upcoming"]),
        related=tuple(
            (r["slug"], r["name"], int(r["together"]))
            for r in graph.run("about/related", slug=slug, limit=related).dicts()
        ),
    )


#: Articles a name may follow at the start of a sentence ("The Atom 75 is ...", "O Rui ...").
_ARTICLES = ("the ", "o ", "a ", "le ", "la ", "l'", "der ", "die ", "das ", "el ")


def is_about(
    slug: str, mentions: list[tuple[str, str]], text: str | None, names: list[str]
) -> bool:
    """Is a fact about the entity `slug`, not only mentioning it? `mentions`: (slug, how)
    of every entity it mentions (graphmem.compile.rows). Its subject decides: the bullet's
    @subject or the page it is written on; else its explicit @mentions; else, with none,
    the name that opens the sentence ("Théo works at ..."; not "Lives in Porto with Théo").
    The card, ``about`` and the bank pages all decide with this one rule."""
    about = {s for s, how in mentions if how in ("subject", "page")}
    if about:
        return slug in about
    explicit = {s for s, how in mentions if how == "explicit"}
    if explicit:
        return slug in explicit
    low = fold(" ".join(str(text or "").split()))
    for article in _ARTICLES:
        low = low.removeprefix(article)
    for name in names:
        name = fold(name)
        if name and low.startswith(name) and not low[len(name) : len(name) + 1].isalnum():
            return True
    return False


def misdated(path: str) -> bool:
    """Is `path` a daily log whose name is not a real day (``memory/2026-02-30.md``)? The
    index keeps it as undated notes, with a warning; nothing in it is a current fact."""
    return file_role(path)[2] is not None


def holds_at(row: dict[str, Any], now: date) -> bool:
    """Does this fact state something true at `now`? A state (not an event, a trip or a
    plan: graphmem.extract.aspect) whose validity has begun by `now` and not ended before it;
    observations dated to a day are what happened then."""
    from graphmem.extract.aspect import aspect, start_day

    text, day = str(row.get("text") or ""), row.get("day")
    start, end = row.get("valid_from"), row.get("valid_to")
    if (start is not None and start > now) or (end is not None and end < now):
        return False
    if start is not None and start == end:
        return False  # one day: an event
    if row.get("kind") == "observation" and day is not None:
        return False
    begins = start_day(text, day)
    return aspect(text, day) == "state" and (begins is None or begins <= now)


def starts_on(row: dict[str, Any]) -> date | None:
    """The day an upcoming fact starts: its validity, else the day its text names ("il
    commence le 15 juin", "moves to Kafka on 16 June", written weeks before)."""
    from graphmem.extract.aspect import event_day, start_day

    start, day = row.get("valid_from"), row.get("day")
    if start is None or (day is not None and start <= day):
        text = str(row.get("text") or "")
        start = start_day(text, day) or event_day(text, day) or start
    return start if isinstance(start, date) else None


def _from(start: date | None, end: date | None) -> str | None:
    """A validity as packets show it: from `start` on, or to `end` when that is later."""
    if start is None:
        return None
    return f"{start}..{end}" if end is not None and end > start else f"{start}.."


def placement(row: dict[str, Any], now: date) -> str:
    """Where a fact of an entity goes at `now`: "current", "upcoming" or "timeline".

    Upcoming: it starts after `now` (its validity; a state whose text says it begins later,
    "il commence le 15 juin"; an event or plan whose day is ahead). Timeline: what the
    entity did or went through (an experience or observation, a one-day fact, a fact whose
    validity ended before `now`, a plan whose day has passed, an event, a trip:
    graphmem.extract.aspect), and facts of a misdated log. Current: a state that holds."""
    from graphmem.extract.aspect import aspect, event_day, start_day

    text, day, kind = str(row.get("text") or ""), row.get("day"), row.get("kind")
    start, end = row.get("valid_from"), row.get("valid_to")
    shape = aspect(text, day)
    begins = start_day(text, day)
    when = event_day(text, day) if shape != "state" else None
    if start is not None and start > now:
        return "upcoming"
    if shape == "state" and begins is not None and begins > now:
        return "upcoming"  # "hired ...; il commence le 15 juin": not yet a state
    if kind == "world" and shape != "state" and when is not None and when > now:
        return "upcoming"  # an event or a plan still ahead
    if kind == "experience" or (kind == "observation" and day is not None):
        return "timeline"
    if (end is not None and end < now) or (start is not None and start == end):
        return "timeline"
    if start is not None and day is not None and start > day:
        return "timeline"  # planned when written ("premiere on 12 February"), now past
    if shape != "state" or misdated(str(row.get("path") or "")):
        return "timeline"  # it happened, or was planned: "v0.7.0 released on 8 June"
    return "current"


def timeline(
    graph: Graph, name: str, since: date | None = None, until: date | None = None, limit: int = 500
) -> tuple[dict[str, Any], list[Line]]:
    """Every dated statement that mentions the entity, oldest first."""
    ent = resolve_entity(graph, name)
    rows = graph.run(
        "about/timeline",
        slug=ent["slug"],
        since=since or EARLIEST,
        until=until or LATEST,
        limit=limit,
    ).dicts()
    by_id = _rows_by_id(graph, [r["id"] for r in rows])
    return ent, [_line(*by_id[r["id"]]) for r in rows if r["id"] in by_id]
