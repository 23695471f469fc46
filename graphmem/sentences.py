"""Free text -> line-exact recall units: sentences, cited by the lines they touch.

A paragraph written one sentence per line becomes one unit per line; a hard-wrapped
paragraph becomes one unit per sentence, citing every line the sentence runs across (a
sentence wrapped over L3–L4 cites ``#L3-L4``). Sentences that sit on the same single line
stay one unit: a citation is made of lines, so splitting a line gains nothing and would
cite it twice.

Pure and linear: one left-to-right scan, no backtracking pattern.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Sentence-final punctuation; the CJK ones end a sentence with no space after them.
_FINAL = frozenset(".!?…")
_FINAL_CJK = frozenset("。！？；")
#: Closers that may follow the final mark and still belong to the sentence.
_CLOSERS = frozenset("\"'”’»)]*_")
#: Words whose trailing period is not a sentence end (lower-cased, without the period).
_ABBREVIATIONS = frozenset(
    "e.g i.e etc vs cf al approx dr mr mrs ms prof st mt jr sr no nr fig ca resp z.b d.h "
    "bzw usw sr sra dra p.ex av ex jan feb mar apr jun jul aug sep sept oct nov dec".split()
)


@dataclass(frozen=True)
class Unit:
    """A recall unit: its text and the first and last (1-based) line it touches."""

    text: str
    line_start: int
    line_end: int


def _ends_sentence(text: str, i: int) -> int:
    """If a sentence ends at ``text[i]``, the index just past it (closers included), else -1."""
    ch = text[i]
    n = len(text)
    if ch in _FINAL_CJK:
        j = i + 1
        while j < n and text[j] in _CLOSERS:
            j += 1
        return j
    if ch not in _FINAL:
        return -1
    j = i + 1
    while j < n and (text[j] in _FINAL or text[j] in _CLOSERS):
        j += 1
    if j < n and not text[j].isspace():
        return -1  # "3.5", "v1.2", "example.com", "e.g.,"
    if ch == ".":
        # The word before the period: an abbreviation or an initial does not end a sentence.
        k = i
        while k > 0 and not text[k - 1].isspace():
            k -= 1
        word = text[k:i].lower().lstrip("(\"'")
        if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
            return -1
    # The next word must look like a sentence start (not "…, and so on. and").
    m = j
    while m < n and text[m].isspace():
        m += 1
    if m < n and text[m].islower():
        return -1
    return j


def split_units(lines: list[str], first_line: int) -> list[Unit]:
    """Units of a run of source lines (one paragraph, item or chat turn).

    `lines` are the block's lines as they appear in the file (list markers may have been
    removed from the first); `first_line` is the 1-based number of ``lines[0]``.
    """
    # Join the lines with one space, remembering where each line starts in the joint text.
    starts: list[int] = []
    parts: list[str] = []
    pos = 0
    for line in lines:
        stripped = line.strip()
        starts.append(pos)
        parts.append(stripped)
        pos += len(stripped) + 1
    text = " ".join(parts)

    def line_of(offset: int) -> int:
        # Binary search: the last line whose start is <= offset.
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    # Sentence boundaries: final punctuation only; a line break is a soft wrap.
    spans: list[tuple[int, int]] = []
    begin = 0
    i = 0
    while i < len(text):
        end = _ends_sentence(text, i)
        if end > 0:
            spans.append((begin, end))
            begin = i = end
            continue
        i += 1
    spans.append((begin, len(text)))

    units: list[Unit] = []
    for a, b in spans:
        sentence = text[a:b].strip()
        if not sentence:
            continue
        while text[a].isspace():
            a += 1
        la, lb = first_line + line_of(a), first_line + line_of(b - 1)
        last = units[-1] if units else None
        if last and la == lb == last.line_start == last.line_end:
            # Another sentence on the same single line: a citation is made of lines.
            sep = "" if last.text[-1] in _FINAL_CJK else " "
            units[-1] = Unit(f"{last.text}{sep}{sentence}", la, lb)
        else:
            units.append(Unit(sentence, la, lb))
    return units
