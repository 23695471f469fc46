"""Free text -> line-exact recall units: sentences, cited by the lines they touch.

A paragraph written one sentence per line becomes one unit per line; a hard-wrapped
paragraph becomes one unit per sentence, citing every line the sentence runs across (a
sentence wrapped over L3–L4 cites ``#L3-L4``). Sentences that sit on the same single line
stay one unit: a citation is made of lines, so splitting a line gains nothing and would
cite it twice.

Pure and linear: one left-to-right scan, no backtracking pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Sentence-final punctuation; the CJK ones end a sentence with no space after them.
_FINAL = frozenset(".!?…")
_FINAL_CJK = frozenset("。！？；")
_MARK = re.compile("[.!?…。！？；]")
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


def _abbreviation(text: str, k: int, i: int) -> bool:
    """Whether the word ``text[k:i]`` before a period is an abbreviation or an initial."""
    while k < i and text[k] in "(\"'":
        k += 1  # the same as lstrip after lower(): lower() never makes a quote or "("
    if i - k > 8:
        return False  # longer than any abbreviation (lower() never shortens a word)
    word = text[k:i].lower()
    return word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha())


def _sentence_ends(text: str) -> list[int]:
    """The offsets just past each sentence end (closers included), in order.

    A sentence ends at a CJK final mark, or at a run of final marks and closers followed by
    a blank (or the end) and a word that does not start in lower case, unless every mark of
    the run is a period after an abbreviation or an initial. Each run is read once: reading
    it again from each of its marks made a long run of periods quadratic.
    """
    ends: list[int] = []
    n = len(text)
    i = 0
    while found := _MARK.search(text, i):
        i = found.start()
        j = i + 1
        if text[i] in _FINAL_CJK:
            while j < n and text[j] in _CLOSERS:
                j += 1
            ends.append(j)
            i = j
            continue
        while j < n and (text[j] in _FINAL or text[j] in _CLOSERS):
            j += 1
        if j < n and not text[j].isspace():
            i = j  # "3.5", "v1.2", "example.com", "e.g.,"
            continue
        m = j
        while m < n and text[m].isspace():
            m += 1
        if m < n and text[m].islower():
            i = j  # the next word must look like a sentence start (not "…, and so on. and")
            continue
        k = i
        while k > 0 and not text[k - 1].isspace():
            k -= 1
        for p in range(i, j):
            if text[p] in _FINAL and not (text[p] == "." and _abbreviation(text, k, p)):
                ends.append(j)
                break
        i = j
    return ends


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
    for end in _sentence_ends(text):
        spans.append((begin, end))
        begin = end
    spans.append((begin, len(text)))

    # Sentences on the same single line join into one unit; their pieces are joined once at
    # the end (appending to the unit's text per sentence was quadratic on one long line).
    groups: list[tuple[list[str], int, int]] = []
    for a, b in spans:
        sentence = text[a:b].strip()
        if not sentence:
            continue
        while text[a].isspace():
            a += 1
        la, lb = first_line + line_of(a), first_line + line_of(b - 1)
        last = groups[-1] if groups else None
        if last and la == lb == last[1] == last[2]:
            # Another sentence on the same single line: a citation is made of lines.
            sep = "" if last[0][-1][-1] in _FINAL_CJK else " "
            last[0].extend((sep, sentence))
        else:
            groups.append(([sentence], la, lb))
    return [Unit("".join(pieces), la, lb) for pieces, la, lb in groups]
