"""How a candidate stands to time: to the time a question names (inside, replaced before
it, written after it), to an ``--as-of`` day, and a stated value's span of holding."""

from __future__ import annotations

from datetime import date, timedelta

from graphmem.recall.items import Item, RecallOptions, Superseded

#: A question's time counts as "the past" (undated current-state lines may be stale) when
#: it ends this many days before now.
PAST_GRACE_DAYS = 14


def before(now: date, latest: date | None) -> bool:
    """`now` lies more than the grace period before `latest`."""
    return latest is not None and (latest - now).days > PAST_GRACE_DAYS


def holds_until(
    item: Item, answering: set[str], overtaken: dict[str, date]
) -> tuple[date | None] | None:
    """For a line that states a value of the type the question asks for (a price, a phone
    number): ``(last,)``, the last day that value held (the day before a later candidate
    gave it another) or ``(None,)`` when nothing changed it; None for any other line. A log
    line that says "Espresso is €1.10" in March states what held in May unless a line
    changed it."""
    if item.id not in answering:
        return None
    changed = overtaken.get(item.id)
    return (None if changed is None else changed - timedelta(days=1),)


def time_factor(
    item: Item,
    superseded: Superseded,
    start: date,
    end: date,
    opts: RecallOptions,
    replacing: frozenset[str] = frozenset(),
    holds: tuple[date | None] | None = None,
) -> float:
    """How an item stands to the time the question names (``start``..``end``).

    A state fact counts inside when its validity overlaps that time and nothing superseded
    it before the time began; an event or a log line when it happened (or is dated) inside
    it. An undated core or bank line states the present: for a question about the past it
    is neutral only when its own text dates it inside that time.
    """
    cfg = opts.config
    row = item.row
    day: date | None = row.get("day")
    valid_from: date | None = row.get("valid_from")
    valid_to: date | None = row.get("valid_to")
    if day is None:
        past = (opts.now - end).days > PAST_GRACE_DAYS
        if valid_from is not None and valid_from <= end and (valid_to or valid_from) >= start:
            return 1 + cfg.time_boost
        return cfg.undated_past_penalty if past else 1.0
    first = valid_from or day
    if (item.table == "Fact" and row.get("kind") == "world") or item.id in replacing:
        # A state, valid until it is itself replaced (a free-text sentence that ended a
        # fact states the new value from its day on).
        last = valid_to
        newer = superseded.get(item.id)
        if newer is not None and newer[1] is not None and newer[1] < start:
            return cfg.time_penalty  # replaced before the time asked about
    elif holds is not None:
        last = valid_to or holds[0]  # a stated value, held until it changed
    else:
        last = valid_to or (day if item.table != "Fact" else None)
    inside = first <= end and (last is None or last >= start)
    if inside:
        return 1 + cfg.time_boost
    return cfg.time_after_penalty if day > end else cfg.time_penalty


def valid_at(item: Item, superseded: Superseded, when: date) -> bool:
    """Was this item true (facts) or already said (everything else) on `when`?"""
    row = item.row
    day = row.get("day")
    if day is not None and day > when:
        return False
    start = row.get("valid_from") or day
    if item.table != "Fact":
        return start is None or start <= when
    end = row.get("valid_to")
    if start is not None and start > when:
        return False
    if end is not None and end < when:
        return False
    newer = superseded.get(item.id)
    return not (newer is not None and newer[1] is not None and newer[1] <= when)
