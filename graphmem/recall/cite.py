"""The picked candidates as packets: content, the source lines they cite, time, entities,
and for an opinion the evidence that moved it and the passages it came from (cited by
their lines, never an internal id)."""

from __future__ import annotations

from collections import defaultdict

from graphmem.recall.items import Item, Superseded
from graphmem.recall.packets import Packet, source_ref, timestamp
from graphmem.recall.reader import Reader


def packets(picked: list[Item], superseded: Superseded, reader: Reader) -> list[Packet]:
    """One packet per picked candidate, in order."""
    opinions = [it.id for it in picked if it.table == "Opinion"]
    evidence: dict[str, list[str]] = defaultdict(list)
    if opinions:
        for opinion, *ev, relation, _, _ in reader.graph.run(
            "recall/opinion_evidence_cited", ids=opinions
        ).rows:
            evidence[opinion].append(f"{relation.lower()}:{source_ref(*ev)}")
        # Passages an opinion came from, cited by their lines (never an internal id).
        passages = [(c, p) for c, p, _ in reader.evidence(opinions) if c in opinions]
        where = {
            row["id"]: source_ref(row["path"], row["line_start"], row["line_end"])
            for _, row in reader.rows([p for _, p in passages])
        }
        for claim, passage in passages:
            if passage in where:
                evidence[claim].append(where[passage])
    out = []
    for it in picked:
        row = it.row
        day = row.get("day")
        out.append(
            Packet(
                id=it.id,
                kind=it.kind,
                content=str(row.get("text") or ""),
                source=source_ref(row["path"], row["line_start"], row["line_end"]),
                score=it.score,
                timestamp=timestamp(day, row.get("valid_from"), row.get("valid_to")),
                entities=tuple(dict.fromkeys(name for _, name, _ in it.entities)),
                confidence=row.get("confidence"),
                evidence=tuple(evidence.get(it.id, ())),
                via=tuple(dict.fromkeys(it.via)),
                superseded_by=superseded[it.id][0] if it.id in superseded else None,
                valid_from=row.get("valid_from"),
                valid_to=row.get("valid_to"),
            )
        )
    return out
