"""Who a sentence that opens with "she" or "he" is about: the one person the sentence
before it named.

Free text names someone once and goes on with pronouns: "Yara Mendes started Monday.
She's from Belo Horizonte, worked two years at a roastery in Savassi." The second
sentence is about Yara, and a question about her ("Where was Yara working before?")
should find it as it finds the first. :func:`carry_pronouns` gives such a sentence a
mention of that person (source "pronoun"), when:

- it opens with a personal subject pronoun (He, She, Ele, Ela, Él, Ella, Er, Elle, Il,
  他, 她; "Il" not as the impersonal "il y a", "il faut", "il pleut");
- the block before it in the same file runs on from it: the sentence before on the same
  line, or on the line just above (no blank line between: the same paragraph or list);
- that block mentions exactly one person, and names it first (its own mention or one it
  carried itself, so a paragraph of "She … She …" stays with its person): "Berlin was
  cold; Théo picked her up. She's tired" names a place first, and the "she" is someone
  the text does not name. Two people, or none, carry nothing;
- that block holds no pronoun of the other gender ("Joana tried to call him and he
  answered. She said …": "she" may be anyone but the "he").

German "Sie" is left out (she, they and the polite "you" are one word), as are "it",
"they" and object pronouns: the rule is about whom a sentence is about, not every
reference in it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from graphmem.extract.entities import Mention
from graphmem.parse.blocks import Block

#: Sentence-initial subject pronouns of one person (after an optional list marker).
_OPENING = re.compile(
    r"[-*+]?\s*(?P<p>(?:He|She)(?:['’](?:s|d|ll))?|Ele|Ela|Él|Ella|Er|Elle|Il"
    r"(?!\s+(?:y|faut|pleut|neige|s['’]agit|semble|paraît|vaut|suffit|reste)\b)|[他她](?!们))"
    r"(?:\b|(?<=[他她]))"
)


#: Third-person pronouns by gender, lower case (German "sie"/"ihr" and the possessives of
#: the Romance languages say nothing of it).
_GENDERED = {
    "m": frozenset("he him his himself il lui ele dele er ihm ihn él 他".split()),
    "f": frozenset("she her hers herself elle ela dela ella 她".split()),
}
_WORDS = re.compile(r"\w+")


def opening_pronoun(text: str) -> tuple[int, int] | None:
    """Where `text`'s opening subject pronoun is (start, end), or None."""
    m = _OPENING.match(text)
    return (m.start("p"), m.end("p")) if m else None


def _gender(pronoun: str) -> str:
    word = _WORDS.match(pronoun.lower())
    first = word.group() if word else pronoun
    return "m" if first in _GENDERED["m"] else "f"


def _genders(text: str) -> set[str]:
    """The genders of the third-person pronouns in `text`."""
    words = set(_WORDS.findall(text.lower()))
    words |= {ch for ch in ("他", "她") if ch in text and ch + "们" not in text}
    return {g for g, forms in _GENDERED.items() if words & forms}


def _runs_on(before: Block, block: Block) -> bool:
    """`block` continues the paragraph `before` is in (same line, or the next one)."""
    return before.line_end <= block.line_start <= before.line_end + 1


def carry_pronouns(
    blocks: Sequence[Block],
    mentions: Mapping[str, tuple[Mention, ...]],
    is_person: Callable[[str], bool],
) -> dict[str, tuple[Mention, ...]]:
    """Block id -> its mentions, plus a "pronoun" mention of the one person the block
    before it named, for each free-text block that opens with a subject pronoun. `blocks`
    are one file's, in order; `mentions` what each already has."""
    out = dict(mentions)
    previous: Block | None = None
    for block in blocks:
        before, previous = previous, block
        if before is None or not block.is_passage or not _runs_on(before, block):
            continue
        where = opening_pronoun(block.text)
        if where is None:
            continue
        named = out.get(before.id, ())
        people = {m.slug for m in named if is_person(m.slug)}
        if len(people) != 1 or named[0].slug not in people:
            continue
        start, end = where
        other = "f" if _gender(block.text[start:end]) == "m" else "m"
        if other in _genders(before.text):
            continue
        (slug,) = people
        own = out.get(block.id, ())
        if any(m.slug == slug for m in own):
            continue
        carried = Mention(slug, block.text[start:end], start, end, "pronoun")
        out[block.id] = tuple(sorted((*own, carried), key=lambda m: (m.start, m.end)))
    return out
