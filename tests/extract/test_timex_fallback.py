"""graphmem.extract.timex_fallback: dates in languages the grammar does not read, via dateparser."""

from __future__ import annotations

from datetime import date

import pytest

from graphmem.extract import timex_fallback
from graphmem.extract.timex_fallback import (
    fallback_notice,
    fallback_times,
    file_language,
    needs_fallback,
)

DAY = date(2026, 3, 18)  # a Wednesday
HAS_DATEPARSER = timex_fallback._search() is not None
needs_dateparser = pytest.mark.skipif(not HAS_DATEPARSER, reason="dateparser not installed")


@pytest.mark.parametrize(
    ("texts", "headings", "expected"),
    [
        ([], ["Retenir"], "fr"),
        ([], ["Notes > Behalten"], "de"),
        (["Ieri siamo andati al mare con gli amici e anche lei era contenta."], [], "it"),
        (["Gisteren was ik in Utrecht met de fiets, en het was niet koud."], [], "nl"),
        (["Yesterday she was at the office and we fixed the build."], [], "en"),
        (["Ayer fueron en bici y comieron con Pau, que es muy simpático."], [], "es"),
        (["ok"], [], None),  # too little to tell
        # German "am" ("am Montag") is also Romanian "am" ("I have"): it is not counted.
        (["Am Montag war ich am See und am Abend am Strand mit den Kindern."], [], "de"),
        (["Ieri am fost la mare cu prietenii și a fost frumos, nu am lucrat."], [], "ro"),
    ],
)
def test_file_language(texts: list[str], headings: list[str], expected: str | None) -> None:
    assert file_language(texts, headings) == expected


def test_only_languages_outside_the_grammar_need_the_fallback() -> None:
    assert needs_fallback("it") and needs_fallback("nl")
    assert not any(needs_fallback(x) for x in ("en", "fr", "pt", "zh", "de", "es", None))


@needs_dateparser
@pytest.mark.parametrize(
    ("text", "surface", "start", "end"),
    [
        ("Ieri siamo andati al mare.", "Ieri", date(2026, 3, 17), date(2026, 3, 17)),
        ("Domani parto per Roma.", "Domani", date(2026, 3, 19), date(2026, 3, 19)),
        ("Il 3 marzo abbiamo traslocato.", "3 marzo", date(2026, 3, 3), date(2026, 3, 3)),
        ("Lei lavora qui da marzo.", "marzo", date(2026, 3, 1), date(2026, 3, 31)),
    ],
)
def test_italian_dates(text: str, surface: str, start: date, end: date) -> None:
    spans = fallback_times(text, DAY, "it")
    assert [(s.text, s.start, s.end) for s in spans] == [(surface, start, end)]
    assert all(text[s.char_start : s.char_end] == s.text for s in spans)


@needs_dateparser
@pytest.mark.parametrize(
    "text",
    [
        "La porta 8080 è aperta, versione 1.5.",  # numbers are not years
        "Lavoro da 3 giorni.",  # a bare duration
    ],
)
def test_dateparser_traps_are_guarded(text: str) -> None:
    assert fallback_times(text, DAY, "it") == []


def test_no_day_no_dates() -> None:
    assert fallback_times("Ieri siamo andati al mare.", None, "it") == []


def test_without_dateparser_it_degrades_with_a_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(timex_fallback, "_search", lambda: None)
    assert fallback_times("Ieri siamo andati al mare.", DAY, "it") == []
    assert (
        fallback_notice("it")
        == "dateparser not installed: dates in it logs come only from ISO dates"
    )


@needs_dateparser
def test_with_dateparser_there_is_no_notice() -> None:
    assert fallback_notice("it") is None


@needs_dateparser
def test_dateparser_reads_only_windows_around_date_words(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    search = timex_fallback._search()

    def spy(text: str, **kwargs: object) -> object:
        read.append(text)
        return search(text, **kwargs)

    monkeypatch.setattr(timex_fallback, "_search", lambda: spy)
    prose = "Siamo andati al mare con gli amici e anche lei era contenta della passeggiata. "
    assert fallback_times(prose * 20, DAY, "it") == []
    assert read == []  # no digit, no date word: dateparser is not asked
    text = prose * 5 + "Poi ieri sera siamo tornati. " + prose * 5
    spans = fallback_times(text, DAY, "it")
    assert [(s.text, s.start) for s in spans] == [("ieri", date(2026, 3, 17))]
    assert text[spans[0].char_start : spans[0].char_end] == "ieri"
    # The window around "ieri" (six words either side), then the guards' reads of "ieri".
    assert (
        read[0]
        == "lei era contenta della passeggiata. Poi ieri sera siamo tornati. Siamo andati al"
    )
    assert read[1:] == ["ieri"] * (len(read) - 1)


@needs_dateparser
def test_date_words_come_from_dateparsers_locale() -> None:
    vocabulary = timex_fallback.date_words("it")
    assert vocabulary is not None
    words, connectors, _ = vocabulary
    assert {"ieri", "oggi", "domani", "marzo", "mar", "lunedì", "lun", "settimana"} <= words
    assert {"fa", "alle"} <= connectors
    assert timex_fallback.date_words("xx-unknown") is None


@needs_dateparser
def test_a_budget_stops_dateparser_for_the_rest_of_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    search = timex_fallback._search()

    def spy(text: str, **kwargs: object) -> object:
        read.append(text)
        return search(text, **kwargs)

    monkeypatch.setattr(timex_fallback, "_search", lambda: spy)
    line = "Ieri siamo andati al mare."
    budget = timex_fallback.Budget(2 * len(line) + 5)
    assert [s.text for s in fallback_times(line, DAY, "it", budget)] == ["Ieri"]
    assert budget.left == len(line) + 5 and not budget.spent
    assert [s.text for s in fallback_times(line, DAY, "it", budget)] == ["Ieri"]
    read.clear()
    assert fallback_times(line, DAY, "it", budget) == []  # 26 characters do not fit in 5
    assert budget.spent and read == []
    assert fallback_times("Ieri.", DAY, "it", budget) == []  # spent: nothing later is read
    assert read == []
    prose = "Siamo andati al mare con gli amici."  # no candidate: costs nothing
    empty = timex_fallback.Budget(0)
    assert fallback_times(prose, DAY, "it", empty) == [] and not empty.spent
    assert timex_fallback.FILE_CHARS >= 4 * 3_205  # the densest daily log measured (note)
