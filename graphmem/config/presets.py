"""Recall configuration as data: one frozen object, with named presets.

Every number that shapes ranking lives here, so a preset can be compared against another
on the benchmark without touching code, and tests can pin behaviour to explicit values.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RecallConfig:
    """How recall finds, expands, scores and trims candidates."""

    #: Seeds taken from each channel before fusion (the per-channel cap).
    lexical_k: int = 60
    vector_k: int = 60
    entity_k: int = 40
    #: Weight of each channel in the fusion. The entity channel has no score of its own
    #: (every fact about a named entity scores 1), so its weight is what each such fact
    #: gets: small, since the entity boost already prefers those facts.
    weights: dict[str, float] = field(
        default_factory=lambda: {
            "lexical": 1.0,
            "vector": 0.7,
            "entity": 0.1,
            "window": 0.2,
            "subject": 0.1,
            "current": 1.0,
        }
    )
    #: Recognise in a question only the entities a person declared (bank pages, @mentions,
    #: chat speakers), not the names NER promoted: NER's guesses ("Casa da Música",
    #: "Lyon" as a person) gave their boosts to every line naming a place or a venue.
    declared_entities_only: bool = True
    #: Two-part and "why" questions: the entity the `bridge_top` best answers name most
    #: (declared, named by at most `bridge_hub_share` of all items) joins the question's
    #: entities for a second pass.
    second_hop: bool = True
    bridge_top: int = 5
    bridge_hub_share: float = 0.2
    #: Current-state channel: the facts that hold now about the bridge entity of a
    #: two-part question whose second part asks about the present ("what is that person's
    #: position now?"), `current_k` per entity at weight `weights["current"]`. (Given to
    #: the entities of every question asking about the present, it cost multilingual.)
    current_k: int = 10
    #: An entity whose bank-page definition line is among this many best lexical or vector
    #: hits counts as named by the question (see recall/channels.py:described); 0 turns it off.
    definition_top: int = 3
    #: Subject channel: items *about* each entity the question names (bullets whose subject
    #: it is, lines of its bank page), per entity.
    subject_k: int = 40
    #: Window channel: the items of this many windows nearest the question (see
    #: :mod:`graphmem.search.windows`).
    window_k: int = 30
    #: "score": sum of weight * the channel's normalised score (see `normalise`);
    #: "rrf": sum of weight / (rrf_k + rank); "rescore": every candidate scored on both
    #: bm25 and cosine. "score" measured best on LoCoMo
    #: (docs/decisions/0003-score-fusion-divided-by-each-channels-best.md).
    fusion: str = "score"
    #: How "score" fusion normalises a channel: "best" divides by the channel's best score
    #: (how far an item is from the best counts), "minmax" stretches its items over
    #: [0.1, 1]. "best" measured better on LoCoMo, on held-out conversations too.
    normalise: str = "best"
    rrf_k: int = 60
    #: Vector channel: embed the question without the names it mentions (its topic). The
    #: entity and speaker boosts already prefer those people's lines; a name in a short
    #: question pulls in every short line that merely names them.
    vector_topic: bool = True
    #: Graph expansion: how many of the best fused seeds expand, and what an expanded node
    #: inherits of its parent's score (reading-order neighbours, evidence links). Its work
    #: is bounded by these counts, not by a clock: the same question gets the same answer
    #: on a busy machine.
    expand_top: int = 30
    neighbor_weight: float = 0.8
    #: How many reading-order steps expansion walks, each further one at neighbor_weight
    #: times this decay (1 hop = the lines just before and after).
    neighbor_hops: int = 2
    neighbor_hop_decay: float = 0.6
    evidence_weight: float = 0.5
    #: What replaced one of the `expand_top` best candidates (its SUPERSEDES successor)
    #: joins them at this share of its score.
    successor_weight: float = 0.6
    #: After ranking: the same-day sentence a top bullet restates (its EVIDENCE) gets at
    #: least this share of the bullet's final score (see recall/carry.py).
    evidence_carry: float = 0.7
    #: ... and what supported or contradicted a top opinion (its history) this share.
    opinion_evidence_carry: float = 0.5
    #: Facts an entity pulls in through the entity channel, per entity (hub control).
    per_entity_cap: int = 15
    #: Multiplicative boosts.
    entity_boost: float = 0.6  # the item mentions an entity the question names
    #: ... once per entity of the question it names, up to this many ("Rafa" and "Rua dos
    #: Lagares": a line naming both outranks one naming Rafa only).
    entity_boost_max: int = 2
    speaker_boost: float = 0.6  # ... and that entity is the item's speaker
    subject_boost: float = 0.2  # ... and the item is about it (its subject, its page)
    kind_boost: float = 0.15  # the item's kind matches a hint in the question
    #: An entity page's declaration lines ("Aliases: …", "Kind: …") count this share of
    #: their score: they name the entity, they say nothing about it (no question of the
    #: dev sets is answered by one), and their names match every question about it. At 0.5
    #: one still ranked between a bullet and the sentence it restates; 0.1 and 0.5 measured
    #: the same on the dev sets.
    declaration_weight: float = 0.1
    #: The item states a value of the type the question asks for (a price for "how much",
    #: a phone number for "telefone"; graphmem.recall.understand.asked_types).
    answer_type_boost: float = 0.5
    time_boost: float = 0.5  # inside the time the question names
    time_penalty: float = 0.5  # outside it (multiplier)
    #: ... and written after that time was over: a later statement of the state
    time_after_penalty: float = 0.25
    #: An opinion counts (1 - w * (1 - confidence)) of its score: at 0.5, a belief held at
    #: c=0.1 keeps 55%, one at 0.9 keeps 95%.
    confidence_weight: float = 0.5
    superseded_penalty: float = 0.65  # a superseded (or overtaken) line when no --as-of is given
    #: A question about a past time ("in February"): undated core and bank lines state the
    #: present, so they count this much unless their own text dates them inside that time.
    undated_past_penalty: float = 0.6
    #: Recency only breaks near-ties: at most +-recency of the score, over recency_days.
    recency: float = 0.05
    recency_days: int = 365
    #: Diversity: MMR trade-off (1 = relevance only) and the similarity above which an item
    #: counts as a near-duplicate of one already taken.
    mmr_lambda: float = 0.85
    duplicate_similarity: float = 0.95


PRESETS: dict[str, RecallConfig] = {
    "default": RecallConfig(),
    # Exact strings, error texts and config keys: trust words over meaning.
    "lexical": RecallConfig(weights={"lexical": 1.0, "vector": 0.0, "entity": 0.1}),
    # Fewer, tighter results: no reading-order context, stronger entity focus.
    "precise": RecallConfig(
        neighbor_weight=0.0, neighbor_hops=0, entity_boost=0.5, mmr_lambda=0.95
    ),
    # More context around each hit.
    "broad": RecallConfig(lexical_k=120, vector_k=120, expand_top=40, neighbor_weight=0.5),
}


def preset(name: str) -> RecallConfig:
    """The named preset, or a ValueError listing the names."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(
            f"unknown recall preset {name!r}; choose from {', '.join(PRESETS)}"
        ) from None
