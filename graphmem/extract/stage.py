"""The extraction stage: entities and times for every block, cached per file.

Per file, and cached by content hash: time expressions (graphmem.extract.timex, relative to the
file's day) and spaCy NER spans (the expensive part, batched with ``nlp.pipe``). Across the
workspace, every run: the entity table (bank pages, explicit ``@mentions``, and NER names
seen in two independent files), then gazetteer matching of every block against it — cached
per file too, keyed by a hash of the gazetteer, so an unchanged entity table costs nothing.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from graphmem.extract.anaphora import carry_pronouns
from graphmem.extract.dating import DATED_CHARS, Dating, date_block
from graphmem.extract.declared import BlockExtras, EntityInfo, declare, page_aliases
from graphmem.extract.entities import (
    CUE,
    Gazetteer,
    KnownEntity,
    Mention,
    NerModel,
    find_mentions,
    kind_of_name,
    label_kind,
    name_head,
    promote_ner,
    speakers,
)
from graphmem.extract.exonyms import join_exonyms
from graphmem.extract.mood import Mood
from graphmem.extract.timex_fallback import (
    BUDGET_NOTICE,
    FILE_CHARS,
    Budget,
    fallback_notice,
    fallback_times,
    file_language,
    needs_fallback,
)
from graphmem.parse.blocks import Block, EntityPage, Notice, ParsedFile
from graphmem.parse.links import without_link
from graphmem.parse.names import name_probe, slugify
from graphmem.store.beside import Later
from graphmem.store.cache import FileCache, code_version
from graphmem.text.fold import fold
from graphmem.text.stopwords import ENGLISH, QUERY

#: Changes whenever time tagging or mention finding changes, so caches never go stale.
EXTRACT_VERSION = code_version(
    "extract/timex",
    "extract/timewords",
    "extract/mood",
    "extract/dating",
    "extract/anaphora",
    "extract/timex_fallback",
    "extract/entities",
    "extract/stage",
    "parse/names",
    "text/fold",
)
#: NER runs over this many characters of a block at most, cut at a space. A prose block is
#: one sentence (the longest of the Clawd dev sets: 431 characters); the blocks that reach
#: it are long chat turns, and a pasted log is not prose. At 2000, NER over an assistant's
#: long answers was half of a LongMemEval history's index time (bench/stage_profile.py);
#: a name NER misses there is still found wherever the entity table knows it.
NER_MAX_CHARS = 800
#: Characters per NER batch: spaCy's memory grows with a batch's text, not its count
#: (256 blocks of a long chat's answers are 0.5 MB of text).
NER_BATCH_CHARS = 50_000
#: Fewer files to date than this are dated in this process (a fork costs ~10 ms).
DATE_AHEAD_MIN = 64

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class Extraction:
    """What the stage hands to the compiler."""

    extras: dict[str, BlockExtras]
    entities: dict[str, EntityInfo]
    #: Each file's contribution to the entity table, in file order.
    inputs: list[FileEntities] = field(default_factory=list)
    notices: tuple[str, ...] = ()
    #: Seconds spent in spaCy NER (loading the pipeline included).
    ner_seconds: float = 0.0
    #: Blocks whose NER spans came from each place (Extractor.ner_counts).
    ner_counts: dict[str, int] = field(default_factory=dict)


def _known(entities: dict[str, EntityInfo]) -> list[KnownEntity]:
    return [KnownEntity(e.slug, e.name, tuple(e.aliases), e.kind) for e in entities.values()]


def _gazetteer_key(known: list[KnownEntity]) -> str:
    rows = sorted((k.slug, k.name, sorted(k.aliases)) for k in known)
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()[:16]


def _mention_json(m: Mention) -> list[object]:
    return [m.slug, m.surface, m.start, m.end, m.source, m.label]


def _mention(row: list[object]) -> Mention:
    slug, surface, start, end, source, label = row
    return Mention(str(slug), str(surface), int(start), int(end), str(source), label)  # type: ignore[call-overload, arg-type]


class Extractor:
    """Runs the stage over parsed files, reading and filling the per-file cache."""

    def __init__(
        self,
        cache: FileCache,
        hashes: dict[str, str],
        ner_model: str | None,
        force: bool = False,
        fork: bool = True,
        skip_plain: bool = True,
    ) -> None:
        self.cache = cache
        #: Whether blocks where no name can be new (`holds_new_name`) skip the model.
        self.skip_plain = skip_plain
        self.hashes = hashes
        self.ner_model = ner_model
        self.ner_stage = f"ner:{ner_model}"
        self.force = force
        #: Whether :meth:`date_ahead` may date half the files in a forked child (Settings.fork).
        self.fork = fork
        self.notices: list[str] = []
        #: Path -> the warnings dating a file gave (filled by :meth:`times`, cached or not).
        self.warnings: dict[str, tuple[Notice, ...]] = {}
        self._ner: NerModel | None = None
        #: Blocks whose NER spans came from the file cache, the text cache, a run of the model.
        self.ner_counts: Counter[str] = Counter()
        #: When at least this many texts are for the model to run (0: never), :meth:`ner_spans`
        #: leaves them pending (counted as "pending") and returns the cached spans only.
        self.defer_ner = 0
        #: Whether NER's spans are incomplete (pending): the mentions found are not cached.
        self.ner_partial = False
        self._ner_tried = False
        #: Path -> its datings, made ahead by :meth:`date_ahead` (taken by :meth:`times`).
        self._dated: dict[str, dict[str, Any]] = {}

    def _ner_model(self) -> NerModel | None:
        """Load the spaCy pipeline on first need (most incremental runs never need it)."""
        if not self._ner_tried:
            self._ner_tried = True
            self._ner, notice = NerModel.load(self.ner_model)
            if notice:
                self.notices.append(notice)
        return self._ner

    def _get(self, path: str, stage: str) -> object | None:
        if self.force:
            return None
        return self.cache.get(path, stage, self.hashes[path], EXTRACT_VERSION)

    def _put(self, path: str, stage: str, payload: object) -> None:
        self.cache.put(path, stage, self.hashes[path], EXTRACT_VERSION, payload)

    def times(self, pf: ParsedFile) -> dict[str, Dating]:
        """Validity and mood per block id of one file (graphmem.extract.dating); its warnings go to
        :attr:`warnings` (they are cached with the datings, so a cached file says them again).
        """
        cached = self._dated.pop(pf.path, None) or self._get(pf.path, "times")
        if cached is None:
            cached, notice = _dating(pf)
            self._date_noticed(notice)
            self._put(pf.path, "times", cached)
        assert isinstance(cached, dict)
        self.warnings[pf.path] = tuple(
            Notice(pf.path, int(n), str(m)) for n, m in cached["warnings"]
        )
        return {
            bid: Dating(_day(v[0]), _day(v[1]), _mood(v[2])) for bid, v in cached["blocks"].items()
        }

    def date_ahead(self, files: Sequence[ParsedFile], progress: Progress | None = None) -> None:
        """Date the files the cache does not know, half of them in a child forked beside
        this process (graphmem.store.beside), for :meth:`times` to take: a first index of
        a large workspace spends most of its extract stage here."""
        todo = []
        for pf in files:  # the cached ones are read once, here
            cached = self._get(pf.path, "times")
            if cached is None:
                todo.append(pf)
            else:
                assert isinstance(cached, dict)
                self._dated[pf.path] = cached
        if len(todo) < DATE_AHEAD_MIN:
            return
        half = len(todo) // 2
        theirs = Later(lambda: [_dating(pf) for pf in todo[half:]], beside=self.fork)
        mine = []
        for i, pf in enumerate(todo[:half]):
            if progress:
                progress("extract", 2 * i, len(files))
            mine.append(_dating(pf))
        for pf, (payload, notice) in zip(todo, [*mine, *theirs.get()], strict=True):
            self._date_noticed(notice)
            self._put(pf.path, "times", payload)
            self._dated[pf.path] = payload

    def _date_noticed(self, notice: str | None) -> None:
        if notice and notice not in self.notices:
            self.notices.append(notice)  # once per language, not once per file

    def with_warnings(self, files: Sequence[ParsedFile]) -> list[ParsedFile]:
        """`files`, each with the warnings dating it gave added to its parse warnings (dated
        now if :meth:`times` has not seen it yet), so they are kept and reported as those are.
        """
        out = []
        for pf in files:
            if pf.path not in self.warnings:
                self.times(pf)
            more = self.warnings[pf.path]
            out.append(replace(pf, warnings=pf.warnings + more) if more else pf)
        return out

    def ner_spans(
        self, files: Sequence[ParsedFile], progress: Progress | None, *, complete: bool = False
    ) -> dict[str, list[Mention]]:
        """NER mentions per block id (empty when NER is off).

        Cached twice: per file (an unchanged file costs one lookup) and per block text (a
        block unchanged in an edited file, or the same text in two places, is not run again).
        `complete` (every file of the workspace is in `files`) forgets the cached texts no
        file holds any more. :attr:`ner_counts` says where each block's spans came from.
        """
        if self.ner_model is None:
            self.notices.append(
                "NER off (ner_model is none): entities come from names you declared"
            )
            return {}
        out: dict[str, list[Mention]] = {}
        todo: list[ParsedFile] = []
        counts = self.ner_counts
        for pf in files:
            cached = self._get(pf.path, self.ner_stage)
            if cached is None:
                todo.append(pf)
                continue
            assert isinstance(cached, dict)
            counts["file_cached"] += sum(1 for b in pf.blocks if _ner_text(b) is not None)
            out.update({bid: [_mention(r) for r in rows] for bid, rows in cached.items()})
        if complete and not self.force:
            alive = {_text_hash(t) for pf in files for b in pf.blocks if (t := _ner_text(b))}
            self.cache.retain_texts(self.ner_stage, alive)
        blocks = [(pf, b, t) for pf in todo for b in pf.blocks if (t := _ner_text(b)) is not None]
        if self.skip_plain:
            plain = [x for x in blocks if not holds_new_name(x[2])]
            counts["skipped"] += len(plain)
            blocks = [x for x in blocks if holds_new_name(x[2])]
        if not blocks:
            for pf in todo:
                self._put(pf.path, self.ner_stage, {})
            return out
        keys = [_text_hash(t) for _, _, t in blocks]
        known: dict[str, Any] = (
            {} if self.force else self.cache.get_texts(self.ner_stage, EXTRACT_VERSION, keys)
        )
        counts["text_cached"] += sum(1 for k in keys if k in known)
        # each distinct text not cached runs once
        run = {k: t for (_, _, t), k in zip(blocks, keys, strict=True) if k not in known}
        if self.defer_ner and len(run) >= self.defer_ner:
            # published first without them: the cached spans only, nothing cached per file
            counts["pending"] += len(run)
            self.ner_partial = True
            for (_, block, _), key in zip(blocks, keys, strict=True):
                if rows := known.get(key):
                    out[block.id] = [_mention(r) for r in rows]
            return out
        if run and (model := self._ner_model()) is not None:
            texts = list(run.values())
            found: list[list[Mention]] = []
            for start, end in char_batches(texts, NER_BATCH_CHARS):
                if progress:  # a call per batch, so the progress line moves
                    progress("ner", start, len(texts))
                found += model.extract_many(texts[start:end], batch_size=end - start)
            fresh = {k: [_mention_json(m) for m in ms] for k, ms in zip(run, found, strict=True)}
            self.cache.put_texts(self.ner_stage, EXTRACT_VERSION, fresh)
            known.update(fresh)
            counts["run"] += len(texts)
            if progress:
                progress("ner", len(texts), len(texts))
        elif run:
            return out  # the model is missing: nothing cached, the notice says why
        per_file: dict[str, dict[str, list[list[object]]]] = {pf.path: {} for pf in todo}
        for (pf, block, _), key in zip(blocks, keys, strict=True):
            if rows := known[key]:
                out[block.id] = [_mention(r) for r in rows]
                per_file[pf.path][block.id] = rows
        for path, payload in per_file.items():
            self._put(path, self.ner_stage, payload)
        return out

    def mentions(
        self, pf: ParsedFile, gazetteer: Gazetteer, key: str, ner: dict[str, list[Mention]]
    ) -> dict[str, list[Mention]]:
        """Gazetteer + speaker + NER mentions per block id, cached per gazetteer."""
        stage = f"mentions:{key}"
        cached = self._get(pf.path, stage)
        if cached is None:
            payload = {}
            for block in pf.blocks:
                found = find_mentions(block.text, gazetteer, ner.get(block.id))
                if found:
                    payload[block.id] = [_mention_json(m) for m in found]
            if not self.ner_partial:  # found without NER's pending spans: not for later runs
                self._put(pf.path, stage, payload)
            cached = payload
        assert isinstance(cached, dict)
        return {bid: [_mention(r) for r in rows] for bid, rows in cached.items()}


@dataclass(frozen=True)
class FileEntities:
    """What one file contributes to the workspace's entity table (kept per file, so an
    incremental index can recompute the table from the files it did not re-read)."""

    path: str
    page: EntityPage | None = None
    #: Explicit ``@mention`` names as written, in order.
    surfaces: tuple[str, ...] = ()
    #: Chat speakers (slug, name as written), first line of each.
    speakers: tuple[tuple[str, str], ...] = ()
    #: NER names that look like names (slug, surface, label), in order.
    ner: tuple[tuple[str, str, str | None], ...] = ()
    #: Pairs of NER names joined as one list ("Kafka and Redpanda", "Dominique et Alain").
    coordinated: tuple[tuple[str, str], ...] = ()


def file_entities(pf: ParsedFile, ner: dict[str, list[Mention]]) -> FileEntities:
    """The entity names one parsed file declares, speaks or (per NER) mentions."""
    spoken: dict[str, str] = {}
    for block in pf.blocks:
        for m in speakers(block.text):
            slug = slugify(m.surface)
            if slug:
                spoken.setdefault(slug, m.surface)
    return FileEntities(
        path=pf.path,
        page=pf.entity,
        surfaces=tuple(name for block in pf.blocks for name in block.mentions),
        speakers=tuple(spoken.items()),
        ner=tuple(
            (m.slug, m.surface, m.label)
            for block in pf.blocks
            for m in ner.get(block.id, ())
            if _plausible_name(m.surface)
        ),
        coordinated=tuple(
            pair for block in pf.blocks for pair in coordinated(block.text, ner.get(block.id, ()))
        ),
    )


#: What joins two names of one list: "and", "et", "e", "und", "y", "or", "&". Not a comma:
#: ", and Théo asked" joins two clauses, "at Casa da Música, Théo …" a phrase and a clause.
_COORDINATION = re.compile(r"[ \t]+(?:and|&|et|e|und|y|or|ou|oder|o)[ \t]+")


def coordinated(text: str, mentions: Sequence[Mention]) -> list[tuple[str, str]]:
    """(first, second) surfaces of the NER names `text` joins as one list, side by side:
    "between Kafka and Redpanda", "Dominique et Alain". Names in one list are of one kind."""
    named = sorted((m for m in mentions if _plausible_name(m.surface)), key=lambda m: m.start)
    return [
        (one.surface, two.surface)
        for one, two in itertools.pairwise(named)
        if one.end <= two.start and _COORDINATION.fullmatch(text, one.end, two.start)
    ]


def entity_table(inputs: Sequence[FileEntities]) -> dict[str, EntityInfo]:
    """The workspace's entities: bank pages, explicit ``@mentions``, chat speakers, and NER
    names seen in two independent files. `inputs` come in file order."""
    pages = [(fe.path, fe.page) for fe in inputs if fe.page is not None]
    entities = declare(pages, (name for fe in inputs for name in fe.surfaces))
    spoken: dict[str, str] = {}
    for fe in inputs:
        for slug, surface in fe.speakers:
            spoken.setdefault(slug, surface)
    if spoken:
        gazetteer = Gazetteer.build(_known(entities))
        for slug, surface in spoken.items():
            if slug not in entities and gazetteer.resolve(surface) is None:
                # a speaker is named by the line, so it counts as declared
                entities[slug] = EntityInfo(slug, surface, kind="person", declared=True)
    if not any(fe.ner for fe in inputs):
        return join_exonyms(join_first_names(entities))
    gazetteer = Gazetteer.build(_known(entities))
    # NER names nobody declared: promoted after two independent files mention them.
    candidates = []
    #: What NER and the words around them say of the declared names: label and spelling votes.
    labels: dict[str, Counter[str]] = defaultdict(Counter)
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    #: Names seen as a street's tail ("Almirante Reis" in "Avenida Almirante Reis"): no person.
    street_tails: set[str] = set()
    for fe in inputs:
        for slug, surface, label in fe.ner:
            if kind_of_name(surface) == "place" and (tail := name_head(surface)):
                street_tails.add(slugify(tail))
            first, _, rest = surface.partition(" ")
            if rest and (label or "").startswith("PERSON") and (known := gazetteer.resolve(first)):
                labels[known]["PERSON" + CUE] += 1  # "Gonçalo Pires": Gonçalo is a person
            if (known := gazetteer.resolve(surface)) is None:
                candidates.append((Mention(slug, surface, 0, 0, "ner", label), fe.path))
            else:
                labels[known][label or ""] += 1
                spellings[known][surface] += 1
    aliases = page_aliases(page for _, page in pages)
    for slug, promoted in promote_ner(candidates).items():
        if slug not in entities and slug not in aliases:
            kind = "place" if promoted.kind == "person" and slug in street_tails else promoted.kind
            entities[slug] = EntityInfo(slug, promoted.name, kind=kind, declared=False)
    for slug, ent in entities.items():
        if ent.page is None and ent.kind is None:
            entities[slug] = replace(ent, **_evidence(ent, labels[slug], spellings[slug]))
    for mention, _ in candidates:
        labels[mention.slug][mention.label or ""] += 1
    _kinds_from_lists(entities, labels, set(spoken), inputs, Gazetteer.build(_known(entities)))
    counts: Counter[str] = Counter(mention.surface for mention, _ in candidates)
    return join_exonyms(join_forms(join_first_names(entities, counts), counts), counts)


def _kinds_from_lists(
    entities: dict[str, EntityInfo],
    labels: dict[str, Counter[str]],
    speakers: set[str],
    inputs: Sequence[FileEntities],
    gazetteer: Gazetteer,
) -> None:
    """An entity whose kind only NER's guess gave takes the kind of the names it is
    listed with, when those agree and are sure of theirs: a page's, a chat speaker's, the
    name's own words' or the words around it (`CUE`). "between Kafka and Redpanda":
    Redpanda is a tool like Kafka, not the place NER took it for."""

    def sure(slug: str) -> bool:
        ent = entities[slug]
        return (
            ent.page is not None
            or slug in speakers
            or kind_of_name(ent.name) is not None
            or any(label.endswith(CUE) for label in labels.get(slug, ()))
        )

    partners: dict[str, Counter[str]] = defaultdict(Counter)
    for fe in inputs:
        for one, two in fe.coordinated:
            a, b = gazetteer.resolve(one), gazetteer.resolve(two)
            if a and b and a != b and a in entities and b in entities:
                partners[a][b] += 1
                partners[b][a] += 1
    for slug, others in partners.items():
        ent = entities[slug]
        if ent.kind is None or sure(slug):
            continue
        kinds = {entities[o].kind for o in others if sure(o) and entities[o].kind}
        if len(kinds) == 1 and (kind := kinds.pop()) != ent.kind:
            entities[slug] = replace(ent, kind=kind)


def _evidence(ent: EntityInfo, labels: Counter[str], spellings: Counter[str]) -> dict[str, Any]:
    """Kind and name of an entity only ``@mentions`` declared: the kind its name's words
    give ("@Atom75": a model number), else what NER and the words around its mentions say;
    the name as the text spells it most often when that differs only by accents, case or
    spaces ("@Goncalo" written "Gonçalo", "@Atom75" written "Atom 75")."""
    kind = kind_of_name(ent.name) or label_kind(labels)
    key = slugify(ent.name).replace("-", "")
    same = Counter({s: n for s, n in spellings.items() if slugify(s).replace("-", "") == key})
    name = ent.name
    if same and (best := same.most_common(1)[0][0]) != name:
        name = best
    aliases = ent.aliases if name == ent.name else (*ent.aliases, ent.name)
    return {"kind": kind, "name": name, "aliases": aliases}


def _first_word(name: str) -> str | None:
    """The folded first word of a name of two or more capitalised words ("Joana Ferreira"
    -> "joana"), else None."""
    words = name.split()
    if len(words) < 2 or not words[0][:1].isupper() or not words[0].isalpha():
        return None
    return fold(words[0])


def join_first_names(
    entities: dict[str, EntityInfo], counts: Counter[str] | None = None
) -> dict[str, EntityInfo]:
    """One entity for a person's first name and full name ("Joana" and "Joana Ferreira",
    "Nacho" and "Nacho Ferrán", "Corvid" and "Corvid Analytics").

    A one-word name joins the one entity whose name (or alias) of several words starts
    with it, unless the workspace gives that first word to two entities (two people who
    share a first name: then neither takes it). Places never join (Porto is not "Porto
    Alegre"), nor does anything join a page that lists its aliases without that name (the
    page's author chose its names). The declared side keeps its slug: a page, then an
    ``@mention`` or chat speaker; two declared entities never join. Undeclared, the full
    name's slug stays and the name is the more frequent surface (`counts`). A person's
    page with no aliases at all also answers to its first name.
    """
    counts = counts or Counter()
    owners: dict[str, set[str]] = defaultdict(set)
    for ent in entities.values():
        if ent.kind == "place":
            continue
        for name in (ent.name, *ent.aliases):
            if (first := _first_word(name)) is not None:
                owners[first].add(ent.slug)
    singles: dict[str, set[str]] = defaultdict(set)
    for ent in entities.values():
        if len(ent.name.split()) == 1:
            singles[fold(ent.name)].add(ent.slug)

    def authored(ent: EntityInfo) -> bool:  # a page that lists names of its own
        return ent.page is not None and any(slugify(a) != ent.slug for a in ent.aliases)

    def explicit(ent: EntityInfo) -> bool:  # named by an @mention or a speaker, no page
        return ent.declared and ent.page is None

    out = dict(entities)
    for key, slugs in sorted(singles.items()):
        full = owners.get(key, set()) - slugs
        if len(slugs) != 1 or len(full) != 1:
            continue
        short, long = out.get(next(iter(slugs))), out.get(next(iter(full)))
        if short is None or long is None:
            continue
        if short.kind == "place" and (short.declared or long.kind != "person"):
            continue  # NER calls a first name a place often ("Nacho"): only a person joins
        if short.declared and long.declared:
            continue  # both named by the user: two entities, as written
        if short.declared:
            keep, gone = short, long
            if gone.page is not None:
                continue
        else:
            keep, gone = long, short
            if authored(keep) and key not in {fold(a) for a in keep.aliases}:
                continue
        name = keep.name
        if not keep.declared and counts[gone.name] > counts[keep.name]:
            name = gone.name  # undeclared: the most frequent surface names it
        names = (keep.name, gone.name, *keep.aliases, *gone.aliases)
        out[keep.slug] = replace(
            keep,
            name=name,
            # no page chose a kind: the full name's (NER saw "Corvid Analytics" whole)
            kind=keep.kind if keep.page is not None else long.kind or short.kind,
            aliases=tuple(dict.fromkeys(n for n in names if n != name)),
        )
        del out[gone.slug]
    for key, slugs in owners.items():
        page = out.get(next(iter(slugs))) if len(slugs) == 1 else None
        if page is None or page.kind != "person" or page.page is None or authored(page):
            continue
        if key in singles or _first_word(page.name) != key:
            continue
        first = page.name.split()[0]
        if fold(first) not in {fold(a) for a in page.aliases}:
            out[page.slug] = replace(page, aliases=(*page.aliases, first))
    return out


def join_forms(
    entities: dict[str, EntityInfo], counts: Counter[str] | None = None
) -> dict[str, EntityInfo]:
    """One entity for the other forms a name takes, none of them a bank page's own:

    - a street's or a school's name and its tail ("Rua dos Lagares" and "Lagares", "EB Vale
      Formoso" and "Vale Formoso", "Rua Maria Andrade" and "Maria Andrade"), unless a page
      declares the tail (a person the street is named after);
    - a nickname and the one person name it begins ("Rafa" and "Rafael"), a surname and the
      one person's full name it ends ("Amaral" and "Henrique Amaral"), when no other entity
      shares them.

    The side a person declared (a page, then an ``@mention``) keeps its slug; the fuller
    name names it, unless a page chose the name.
    """
    counts = counts or Counter()
    by_fold: dict[str, list[str]] = defaultdict(list)
    for ent in entities.values():
        by_fold[fold(ent.name)].append(ent.slug)
    pairs: list[tuple[str, str, bool]] = []  # (short slug, long slug, a nickname)
    for ent in entities.values():
        tail = name_head(ent.name)
        if tail is not None and len(by_fold.get(fold(tail), ())) == 1:
            pairs.append((by_fold[fold(tail)][0], ent.slug, False))
    people = [e for e in entities.values() if e.kind in ("person", None)]
    for one in entities.values():
        word = one.name
        if one.page is not None or " " in word or len(word) < 3 or not word.isalpha():
            continue
        if one.kind not in ("person", None) and one.declared:
            continue
        low = fold(word)
        longer = [
            e
            for e in people
            if e.slug != one.slug
            and one.kind in ("person", None)
            and (
                (" " not in e.name and fold(e.name).startswith(low))
                or (" " in e.name and fold(e.name.split()[-1]) == low and e.kind == "person")
            )
        ]
        if not longer and not one.declared:
            # "Guji" and the one product "Etiópia Guji" ends with
            longer = [
                e
                for e in entities.values()
                if e.kind == "thing" and " " in e.name and fold(e.name.split()[-1]) == low
            ]
        starts = [e for e in entities.values() if fold(e.name).split()[:1] == [low]]
        if len(longer) == 1 and len(starts) == 1:
            pairs.append((one.slug, longer[0].slug, True))
    out = dict(entities)
    for short_slug, long_slug, nickname in pairs:
        short, long = out.get(short_slug), out.get(long_slug)
        if short is None or long is None or short.slug == long.slug:
            continue
        if short.page is not None or (short.declared and long.declared and not nickname):
            continue  # two names a person wrote, as written; but a chat's "Rafa" is @Rafael
        keep, gone = (short, long) if short.declared and not long.declared else (long, short)
        name = long.name if keep.page is None else keep.name
        kind = keep.kind if keep.page is not None else long.kind or short.kind
        if keep is short and long.kind == "person" and counts[short.name] > counts[long.name]:
            name = short.name
        names = (keep.name, gone.name, *keep.aliases, *gone.aliases)
        out[keep.slug] = replace(
            keep,
            name=name,
            kind=kind,
            aliases=tuple(dict.fromkeys(n for n in names if fold(n) != fold(name))),
        )
        del out[gone.slug]
    return out


def extract(
    files: Sequence[ParsedFile], extractor: Extractor, progress: Progress | None = None
) -> Extraction:
    """Entities, mentions and validity for every block of `files`."""
    ner_started = time.perf_counter()
    ner = extractor.ner_spans(files, progress, complete=True)
    ner_seconds = time.perf_counter() - ner_started
    inputs = [file_entities(pf, ner) for pf in files]
    entities = entity_table(inputs)
    extras = block_extras(files, extractor, entities, ner, progress)
    return Extraction(
        extras=extras,
        entities=entities,
        inputs=inputs,
        notices=tuple(extractor.notices),
        ner_seconds=ner_seconds,
        ner_counts=dict(extractor.ner_counts),
    )


def block_extras(
    files: Sequence[ParsedFile],
    extractor: Extractor,
    entities: dict[str, EntityInfo],
    ner: dict[str, list[Mention]],
    progress: Progress | None = None,
    *,
    narrow: bool = False,
) -> dict[str, BlockExtras]:
    """Mentions (against the entity table), validity and speaker of every block.

    `narrow` (for a few files) builds the matcher from only the entities whose names could
    occur in those files' text: compiling the whole table's pattern costs ~0.1 s at a few
    hundred entities, and the matches are the same.
    """
    known = _known(entities)
    key = _gazetteer_key(known)
    if narrow:
        letters = _letters(pf.blocks for pf in files)
        known = [
            k for k in known if any(name_probe(n) in letters for n in (k.name, k.slug, *k.aliases))
        ]
    gazetteer = Gazetteer.build(known)
    if not narrow:
        extractor.date_ahead(files, progress)
    extras: dict[str, BlockExtras] = {}

    def is_person(slug: str) -> bool:
        return entities[slug].kind == "person"

    for i, pf in enumerate(files):
        if progress:
            progress("extract", i, len(files))
        times = extractor.times(pf)
        file_mentions = extractor.mentions(pf, gazetteer, key, ner)
        known_mentions = {
            block.id: tuple(m for m in file_mentions.get(block.id, ()) if m.slug in entities)
            for block in pf.blocks
        }
        known_mentions = carry_pronouns(pf.blocks, known_mentions, is_person)
        for block in pf.blocks:
            found = known_mentions[block.id]
            dating = times.get(block.id, Dating(pf.day, None))
            spoken = next((m for m in found if m.source == "speaker"), None)
            extras[block.id] = BlockExtras(
                mentions=found,
                valid_from=dating.valid_from,
                valid_to=dating.valid_to,
                speaker=spoken.surface if spoken else None,
                mood=dating.mood,
            )
    if progress:
        progress("extract", len(files), len(files))
    return extras


def _dating(pf: ParsedFile) -> tuple[dict[str, Any], str | None]:
    """Validity and mood per block id of one file, as cached (JSON), with the notice its
    language takes (a fallback dater's, or None)."""
    language = file_language([b.text for b in pf.blocks], [b.heading for b in pf.blocks])
    fallback = needs_fallback(language) and pf.day is not None
    notice = fallback_notice(language) if fallback and language else None
    blocks = {}
    warned: list[list[object]] = []
    budget = Budget()
    for block in pf.blocks:
        extra = []
        # the day in an explicit link ("(replaces memory/2025-11-27.md#L12)") dates the old
        # line, not this one
        text = without_link(block.text)
        if fallback and language and not budget.spent:
            extra = fallback_times(text[:DATED_CHARS], pf.day, language, budget)
            if budget.spent:  # this block's windows did not fit: none later is read
                message = BUDGET_NOTICE.format(chars=FILE_CHARS, lang=language)
                warned.append([block.line_start, message])
        dating = date_block(text, pf.day, block.kind, extra=extra)
        blocks[block.id] = [_iso(dating.valid_from), _iso(dating.valid_to), dating.mood]
    return {"blocks": blocks, "warnings": warned}, notice


def _letters(blocks: Iterable[Sequence[Block]]) -> str:
    """The letters and digits of the blocks' text (folded, and lower-cased), run together:
    every way a name can match leaves its first run of letters somewhere in here."""
    parts = []
    for file_blocks in blocks:
        for block in file_blocks:
            for text in (fold(block.text), block.text.lower()):
                parts.append("".join(ch for ch in text if ch.isalnum()))
    return "\n".join(parts)


def _plausible_name(surface: str) -> bool:
    """Keep NER's code-like and acronym guesses out of the entity table.

    In technical logs the model tags error codes and acronyms (ECONNRESET, API, UI) and
    host names (atlas.castle.lan) as ORG or PERSON; a declared name still matches them.
    """
    words = surface.split()
    if len(words) == 1 and surface.isupper():
        return False
    return not any(ch in surface for ch in "./\\_=:#@<>{}[]()")


def _ner_text(block: Block) -> str | None:
    """The text of `block` NER reads (at most `NER_MAX_CHARS`, ending where a word ends),
    or None for a code block."""
    text = block.text
    if text.lstrip().startswith("```"):
        return None
    if len(text) <= NER_MAX_CHARS:
        return text
    cut = text.rfind(" ", 0, NER_MAX_CHARS + 1)  # not inside a name ("Kenji Ara|kawa")
    return text[: cut if cut > 0 else NER_MAX_CHARS]


#: A word with a letter in it (digits and marks may follow: "B2B", "Ana's").
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
#: "I" and its contractions: capitalised wherever they stand.
_FIRST_PERSON = frozenset("i i'm i've i'd i'll i’m i’ve i’d i’ll".split())
#: Common words that start a sentence (capitalised there, never a name by themselves).
_COMMON = ENGLISH | QUERY
#: What may stand between a sentence's end and its first word.
_OPENERS = " \t\"'“‘(*_[>#"


def holds_new_name(text: str) -> bool:
    """Whether NER could find a name in `text` that nothing else explains.

    NER's mentions are names with a capital letter (``_ner_mention`` drops the rest), so a
    text whose capitalised words are all explained holds none: a chat line's speaker (named
    by the line, a declared entity), "I" and its contractions, and a common word starting a
    sentence ("Thanks, that helps. Could you...", "Obrigado! Amanhã eu ligo"). A word of
    letters without case (Chinese, Arabic, ...) is never explained. Linear in the text.
    """
    heads = {m.start for m in speakers(text)}
    for m in _WORD.finditer(text):
        word = m.group()
        low = word.lower()
        if low == word:
            if word.upper() == word:
                return True  # letters without case: no capital tells a name there
            continue
        start = m.start()
        if start in heads or low in _FIRST_PERSON:
            continue
        before = text[max(0, start - 12) : start].rstrip(_OPENERS)
        initial = not before or before[-1] in ".!?:;\n-•" or before[-1].isdigit()
        if not (initial and fold(word) in _COMMON):
            return True
    return False


def char_batches(texts: Sequence[str], limit: int) -> list[tuple[int, int]]:
    """`(start, end)` ranges over `texts`, each of at most `limit` characters in all (a
    longer text alone) and at most 1,000 texts."""
    out = []
    start, size = 0, 0
    for i, text in enumerate(texts):
        if i > start and (size + len(text) > limit or i - start >= 1000):
            out.append((start, i))
            start, size = i, 0
        size += len(text)
    if start < len(texts):
        out.append((start, len(texts)))
    return out


def _text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _iso(value: date | None) -> str | None:
    return value.isoformat() if value else None


def _day(value: str | None) -> date | None:
    return date.fromisoformat(value) if value else None


def _mood(value: object) -> Mood | None:
    return "plan" if value == "plan" else "hypothetical" if value == "hypothetical" else None
