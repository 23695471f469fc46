"""graphmem.extract.timex: time expressions resolved to day intervals."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from graphmem.extract.mood import lean
from graphmem.extract.timex import TimeSpan, extract_times, parse_window, question_time

DAY = date(2025, 11, 29)  # the log's day: a Saturday
D = date  # keeps the tables below on one line each


def test_reference_day_is_a_saturday() -> None:
    # Every weekday expectation below is derived from this.
    assert DAY.strftime("%A") == "Saturday"
    assert D(2025, 11, 25).strftime("%A") == "Tuesday"
    assert D(2025, 12, 1).strftime("%A") == "Monday"


def only(text: str, day: date | None = DAY, **kwargs: object) -> TimeSpan:
    spans = extract_times(text, day, **kwargs)  # type: ignore[arg-type]
    assert len(spans) == 1, spans
    return spans[0]


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        ("yesterday", D(2025, 11, 28), D(2025, 11, 28), "day"),
        ("today", DAY, DAY, "day"),
        ("tomorrow", D(2025, 11, 30), D(2025, 11, 30), "day"),
        ("the day before yesterday", D(2025, 11, 27), D(2025, 11, 27), "day"),
        ("last Tuesday", D(2025, 11, 25), D(2025, 11, 25), "day"),
        # a weekday in a clause without tense looks ahead, strictly after the day
        ("Tuesday", D(2025, 12, 2), D(2025, 12, 2), "day"),
        ("on Saturday", D(2025, 12, 6), D(2025, 12, 6), "day"),
        ("this Tuesday", D(2025, 11, 25), D(2025, 11, 25), "day"),  # Tuesday of this week
        ("next Monday", D(2025, 12, 1), D(2025, 12, 1), "day"),
        ("two days ago", D(2025, 11, 27), D(2025, 11, 27), "day"),
        ("2 days ago", D(2025, 11, 27), D(2025, 11, 27), "day"),
        ("in 3 days", D(2025, 12, 2), D(2025, 12, 2), "day"),
        ("a week ago", D(2025, 11, 17), D(2025, 11, 23), "week"),
        ("2 months ago", D(2025, 9, 1), D(2025, 9, 30), "month"),
        ("last week", D(2025, 11, 17), D(2025, 11, 23), "week"),
        ("this week", D(2025, 11, 24), D(2025, 11, 30), "week"),
        ("next week", D(2025, 12, 1), D(2025, 12, 7), "week"),
        ("last month", D(2025, 10, 1), D(2025, 10, 31), "month"),
        ("last year", D(2024, 1, 1), D(2024, 12, 31), "year"),
        ("the past 30 days", D(2025, 10, 30), DAY, "range"),
        ("in the past week", D(2025, 11, 22), DAY, "range"),
        ("on Nov 27", D(2025, 11, 27), D(2025, 11, 27), "day"),
        ("Nov 27", D(2025, 11, 27), D(2025, 11, 27), "day"),
        ("Nov. 27th", D(2025, 11, 27), D(2025, 11, 27), "day"),
        ("27 November", D(2025, 11, 27), D(2025, 11, 27), "day"),
        ("1st of December", D(2025, 12, 1), D(2025, 12, 1), "day"),
        ("November 27, 2024", D(2024, 11, 27), D(2024, 11, 27), "day"),
        ("2025-11-27", D(2025, 11, 27), D(2025, 11, 27), "day"),
        ("Nov 27–Dec 1, 2025", D(2025, 11, 27), D(2025, 12, 1), "range"),
        ("Nov 27 - Dec 1", D(2025, 11, 27), D(2025, 12, 1), "range"),
        ("Nov 27 to Dec 1", D(2025, 11, 27), D(2025, 12, 1), "range"),
        ("Nov 27 until Dec 1", D(2025, 11, 27), D(2025, 12, 1), "range"),
        ("27–30 Nov", D(2025, 11, 27), D(2025, 11, 30), "range"),
        ("Nov 27-30, 2024", D(2024, 11, 27), D(2024, 11, 30), "range"),
        ("Dec 28–Jan 3, 2026", D(2025, 12, 28), D(2026, 1, 3), "range"),
        ("from 2025-11-27 to 2025-12-01", D(2025, 11, 27), D(2025, 12, 1), "range"),
        ("between Nov 1 and Nov 5", D(2025, 11, 1), D(2025, 11, 5), "range"),
        ("in March", D(2025, 3, 1), D(2025, 3, 31), "month"),
        ("in December", D(2025, 12, 1), D(2025, 12, 31), "month"),  # the coming month
        ("in September", D(2025, 9, 1), D(2025, 9, 30), "month"),  # before the day
        ("in November", D(2025, 11, 1), D(2025, 11, 30), "month"),
        ("last November", D(2024, 11, 1), D(2024, 11, 30), "month"),
        ("next March", D(2026, 3, 1), D(2026, 3, 31), "month"),
        ("in November 2025", D(2025, 11, 1), D(2025, 11, 30), "month"),
        ("in 2024", D(2024, 1, 1), D(2024, 12, 31), "year"),
        ("since August", D(2025, 8, 1), DAY, "open"),
        ("since last week", D(2025, 11, 17), DAY, "open"),
        ("around Nov 27", D(2025, 11, 24), D(2025, 11, 30), "range"),
    ],
)
def test_english_expressions(text: str, start: date, end: date, granularity: str) -> None:
    span = only(text)
    assert (span.start, span.end, span.granularity) == (start, end, granularity)
    assert span.text == text


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("hier", D(2025, 11, 28), D(2025, 11, 28)),
        ("avant-hier", D(2025, 11, 27), D(2025, 11, 27)),
        ("il y a 3 jours", D(2025, 11, 26), D(2025, 11, 26)),
        ("il y a trois jours", D(2025, 11, 26), D(2025, 11, 26)),
        ("le 27 novembre", D(2025, 11, 27), D(2025, 11, 27)),
        ("le 1er décembre 2025", D(2025, 12, 1), D(2025, 12, 1)),
        ("du 27 au 30 novembre", D(2025, 11, 27), D(2025, 11, 30)),
        ("mardi dernier", D(2025, 11, 25), D(2025, 11, 25)),
        ("la semaine dernière", D(2025, 11, 17), D(2025, 11, 23)),
        ("semaine dernière", D(2025, 11, 17), D(2025, 11, 23)),
        ("depuis août", D(2025, 8, 1), DAY),
        ("ontem", D(2025, 11, 28), D(2025, 11, 28)),
        ("há 2 dias", D(2025, 11, 27), D(2025, 11, 27)),
        ("há três dias", D(2025, 11, 26), D(2025, 11, 26)),
        ("em março", D(2025, 3, 1), D(2025, 3, 31)),
        ("27 de novembro de 2025", D(2025, 11, 27), D(2025, 11, 27)),
        ("terça-feira passada", D(2025, 11, 25), D(2025, 11, 25)),
        ("segunda que vem", D(2025, 12, 1), D(2025, 12, 1)),
        ("semana passada", D(2025, 11, 17), D(2025, 11, 23)),
        ("昨天", D(2025, 11, 28), D(2025, 11, 28)),
        ("三天前", D(2025, 11, 26), D(2025, 11, 26)),
        ("上周二", D(2025, 11, 18), D(2025, 11, 18)),  # Tuesday of last week
        ("上周", D(2025, 11, 17), D(2025, 11, 23)),
        ("2025年11月27日", D(2025, 11, 27), D(2025, 11, 27)),
        ("11月27日至12月1日", D(2025, 11, 27), D(2025, 12, 1)),
        ("2024年", D(2024, 1, 1), D(2024, 12, 31)),
        ("les 7 derniers jours", D(2025, 11, 22), DAY),
        ("nos últimos 7 dias", D(2025, 11, 22), DAY),
        ("过去7天", D(2025, 11, 22), DAY),
    ],
)
def test_french_portuguese_chinese(text: str, start: date, end: date) -> None:
    span = only(text)
    assert (span.start, span.end, span.text) == (start, end, text)


def test_chinese_inside_running_text() -> None:
    # CJK characters are word characters: a date glued to them must still be found.
    spans = extract_times("我们在2024年迁移，3天前又改了", DAY)
    assert [(s.text, s.start) for s in spans] == [
        ("2024年", D(2024, 1, 1)),
        ("3天前", D(2025, 11, 26)),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "It may work after 3 retries.",
        "we march on",
        "The sun is out now; we ship on mon or sun.",
        "This is the second attempt.",
        "port 8080",
        "version 1.5",
        "c=0.95",
        "13:56",
        "Deploy finished at 13:56.",
        "Nov 13:56",  # a clock time is not a day of the month
        "it may 3x faster",
        "on Mars",
        "for 3 days",  # a duration, not a date
        "5 minutes ago",  # hours and minutes are not days
        "v2025-11-27",
        "2025-02-30",  # not a real date
        "a segunda tentativa",  # "segunda" alone is "second"
        "about 2000 requests after 2000 retries",  # a bare year needs "in", "since"...
        "on the last day of the offsite",  # a window without a number needs "past"
        "sep2 = 1",
    ],
)
def test_false_positives_give_no_span(text: str) -> None:
    assert extract_times(text, DAY) == []


def test_offsets_and_text_point_into_the_passage() -> None:
    text = "Restarted the gateway yesterday; offsite Nov 27–Dec 1, 2025 in Lisbon."
    spans = extract_times(text, DAY)
    assert [s.text for s in spans] == ["yesterday", "Nov 27–Dec 1, 2025"]
    assert all(text[s.char_start : s.char_end] == s.text for s in spans)


def test_a_weekday_before_a_date_is_part_of_it() -> None:
    span = only("Thursday, 27 November 2025", day=D(2025, 12, 10))
    assert (span.start, span.text) == (D(2025, 11, 27), "Thursday, 27 November 2025")


def test_yearless_day_prefers_the_past_with_a_short_lookahead() -> None:
    assert only("Dec 1").start == D(2025, 12, 1)  # two days ahead: a plan
    assert only("Jan 5").start == D(2026, 1, 5)  # five weeks ahead
    assert only("Apr 2").start == D(2025, 4, 2)  # four months ahead is too far: the past one
    assert only("Feb 29").start == D(2024, 2, 29)  # the latest real one


def test_lower_case_ambiguous_month_needs_a_preposition_or_year() -> None:
    assert only("in may").start == D(2025, 5, 1)
    assert only("may 2025").start == D(2025, 5, 1)
    assert only("May 3").start == D(2025, 5, 3)
    assert extract_times("we may 3", DAY) == []


def test_without_a_day_only_dated_expressions_resolve() -> None:
    text = "yesterday, Nov 27, Nov 27–Dec 1, 2025, 2025-11-27, in 2024, since August 2025"
    spans = extract_times(text, None)
    assert [(s.text, s.start, s.end) for s in spans] == [
        ("Nov 27–Dec 1, 2025", D(2025, 11, 27), D(2025, 12, 1)),
        ("2025-11-27", D(2025, 11, 27), D(2025, 11, 27)),
        ("in 2024", D(2024, 1, 1), D(2024, 12, 31)),
        ("since August 2025", D(2025, 8, 1), date.max),  # open, with no day to end at
    ]


def test_a_datetime_day_is_taken_as_its_date() -> None:
    assert only("yesterday", datetime(2025, 11, 29, 23, 59)).start == D(2025, 11, 28)


def test_languages_limit_the_vocabulary() -> None:
    assert extract_times("hier et ontem", DAY, languages=("en",)) == []
    assert [s.text for s in extract_times("hier et ontem", DAY, languages=["fr"])] == ["hier"]
    assert [s.text for s in extract_times("昨天 and yesterday", DAY, languages=("zh",))] == ["昨天"]
    with pytest.raises(ValueError, match="unsupported language"):
        extract_times("yesterday", DAY, languages=("it",))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("30d", D(2025, 10, 30)),
        ("7d", D(2025, 11, 22)),
        ("2w", D(2025, 11, 15)),
        ("6m", D(2025, 5, 29)),
        ("1y", D(2024, 11, 29)),
        ("7 days", D(2025, 11, 22)),
        ("2025-09-01", D(2025, 9, 1)),
        ("yesterday", D(2025, 11, 28)),
        ("last week", D(2025, 11, 17)),
        ("November 2025", D(2025, 11, 1)),
    ],
)
def test_parse_window(value: str, expected: date) -> None:
    assert parse_window(value, DAY) == expected


def test_parse_window_end_gives_the_last_day_of_a_period() -> None:
    assert parse_window("last week", DAY, end=True) == D(2025, 11, 23)
    assert parse_window("30d", DAY, end=True) == D(2025, 10, 30)


def test_parse_window_month_clamps() -> None:
    assert parse_window("1m", D(2025, 3, 31)) == D(2025, 2, 28)


@pytest.mark.parametrize("value", ["fortnight", "", "30x", "yesterday and today", "last week-ish"])
def test_parse_window_rejects_with_the_accepted_forms(value: str) -> None:
    with pytest.raises(ValueError, match="30d, 2w, 6m or 1y"):
        parse_window(value, DAY)


def test_parse_window_names_an_impossible_date() -> None:
    with pytest.raises(ValueError, match="not a real date"):
        parse_window("2025-02-30", DAY)


@pytest.mark.parametrize(
    ("question", "start", "end", "granularity"),
    [
        ("What was true in November 2025?", D(2025, 11, 1), D(2025, 11, 30), "month"),
        ("What did we decide last week?", D(2025, 11, 17), D(2025, 11, 23), "week"),
        ("What happened around Nov 27?", D(2025, 11, 24), D(2025, 11, 30), "range"),
        ("Which hosts did we run in 2024?", D(2024, 1, 1), D(2024, 12, 31), "year"),
        ("What broke yesterday?", D(2025, 11, 28), D(2025, 11, 28), "day"),
        ("What changed in March?", D(2025, 3, 1), D(2025, 3, 31), "month"),
        ("What changed since August?", D(2025, 8, 1), DAY, "open"),
        ("What happened on 2025-11-27?", D(2025, 11, 27), D(2025, 11, 27), "day"),
        ("Qu'avons-nous décidé la semaine dernière ?", D(2025, 11, 17), D(2025, 11, 23), "week"),
    ],
)
def test_question_time(question: str, start: date, end: date, granularity: str) -> None:
    span = question_time(question, DAY)
    assert span is not None
    assert (span.start, span.end, span.granularity) == (start, end, granularity)


def test_question_without_time_is_none() -> None:
    assert question_time("Who prefers tea, and may we ask Bob?", DAY) is None


def test_question_with_several_times_covers_them_all() -> None:
    span = question_time("What changed between our Nov 3 call and yesterday?", DAY)
    assert span is not None
    assert (span.start, span.end, span.text) == (
        D(2025, 11, 3),
        D(2025, 11, 28),
        "Nov 3 call and yesterday",
    )


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("gestern", D(2025, 11, 28), D(2025, 11, 28)),
        ("vorgestern", D(2025, 11, 27), D(2025, 11, 27)),
        ("morgen", D(2025, 11, 30), D(2025, 11, 30)),
        ("vor 3 Tagen", D(2025, 11, 26), D(2025, 11, 26)),
        ("vor zwei Wochen", D(2025, 11, 10), D(2025, 11, 16)),
        ("letzte Woche", D(2025, 11, 17), D(2025, 11, 23)),
        ("nächste Woche", D(2025, 12, 1), D(2025, 12, 7)),
        ("letzten Dienstag", D(2025, 11, 25), D(2025, 11, 25)),
        ("am 19. März 2025", D(2025, 3, 19), D(2025, 3, 19)),
        ("Donnerstag, 27. November", D(2025, 11, 27), D(2025, 11, 27)),
        ("im Februar", D(2025, 2, 1), D(2025, 2, 28)),
        ("Anfang April", D(2025, 4, 1), D(2025, 4, 30)),
        ("seit Oktober", D(2025, 10, 1), DAY),
        ("die letzten 7 Tage", D(2025, 11, 22), DAY),
        ("ayer", D(2025, 11, 28), D(2025, 11, 28)),
        ("anteayer", D(2025, 11, 27), D(2025, 11, 27)),
        ("mañana", D(2025, 11, 30), D(2025, 11, 30)),
        ("hace tres días", D(2025, 11, 26), D(2025, 11, 26)),
        ("la semana pasada", D(2025, 11, 17), D(2025, 11, 23)),
        ("el mes pasado", D(2025, 10, 1), D(2025, 10, 31)),
        ("el martes pasado", D(2025, 11, 25), D(2025, 11, 25)),
        ("el 9 de abril de 2025", D(2025, 4, 9), D(2025, 4, 9)),
        ("en febrero", D(2025, 2, 1), D(2025, 2, 28)),
        ("desde marzo", D(2025, 3, 1), DAY),
        ("del 3 al 9 de abril", D(2025, 4, 3), D(2025, 4, 9)),
        ("2月", D(2025, 2, 1), D(2025, 2, 28)),
        ("十一月份", D(2025, 11, 1), D(2025, 11, 30)),
    ],
)
def test_german_spanish_and_chinese_months(text: str, start: date, end: date) -> None:
    span = only(text)
    assert (span.start, span.end, span.text) == (start, end, text)


@pytest.mark.parametrize(
    "text",
    [
        "heute Morgen war es kalt",  # "this morning": only "heute" is a date
        "esta mañana llovió",
    ],
)
def test_morning_is_not_tomorrow(text: str) -> None:
    assert [s.end for s in extract_times(text, DAY)] in ([DAY], [])


@pytest.mark.parametrize(
    "text",
    ["2个月", "Tag 3 der Konferenz", "once a week", "el puerto 8080", "um 18:40", "dos veces"],
)
def test_german_spanish_false_positives(text: str) -> None:
    assert extract_times(text, DAY) == []


@pytest.mark.parametrize(
    ("text", "day", "expected"),
    [
        # A weekday alone: back by default and in the past tense, ahead in a plan.
        ("On Saturday we will go hiking.", DAY, D(2025, 12, 6)),
        ("On Saturday we went hiking.", DAY, D(2025, 11, 22)),
        ("Last Saturday we hiked.", DAY, D(2025, 11, 22)),
        ("We are going to call him on Tuesday.", DAY, D(2025, 12, 2)),
        ("Samedi, on va randonner.", DAY, D(2025, 12, 6)),
        ("Samedi, nous avons randonné.", DAY, D(2025, 11, 22)),
        ("No sábado vamos jantar fora.", DAY, D(2025, 12, 6)),
        ("No sábado jantaram fora.", DAY, D(2025, 11, 22)),
        ("Am Samstag werden wir wandern.", DAY, D(2025, 12, 6)),
        ("Am Samstag waren wir wandern.", DAY, D(2025, 11, 22)),
        ("El sábado vamos a cenar fuera.", DAY, D(2025, 12, 6)),
        ("El sábado cenaron fuera.", DAY, D(2025, 11, 22)),
        # "until" looks ahead, "since" back.
        ("Théo stays at his parents' until Wednesday.", DAY, D(2025, 12, 3)),
        ("Down since Wednesday.", DAY, D(2025, 11, 26)),
    ],
)
def test_weekdays_follow_the_clause_tense(text: str, day: date, expected: date) -> None:
    assert only(text, day).start == expected


@pytest.mark.parametrize(
    ("text", "day", "start"),
    [
        ("Her mother is coming to visit in November.", D(2025, 9, 10), D(2025, 11, 1)),
        ("We will launch in March.", D(2025, 11, 29), D(2026, 3, 1)),
        ("We launched in March.", D(2025, 11, 29), D(2025, 3, 1)),
        ("We will ship in November.", D(2025, 11, 29), D(2025, 11, 1)),  # this month counts
        ("Ela vai mudar em março.", D(2025, 11, 29), D(2026, 3, 1)),
        ("Er wird im März umziehen.", D(2025, 11, 29), D(2026, 3, 1)),
        ("Va a mudarse en marzo.", D(2025, 11, 29), D(2026, 3, 1)),
        ("我们打算3月去上海", D(2025, 11, 29), D(2026, 3, 1)),
        ("We will fly out on Apr 2.", D(2025, 11, 29), D(2026, 4, 2)),  # past LOOKAHEAD
        ("We flew out on Apr 2.", D(2025, 11, 29), D(2025, 4, 2)),
    ],
)
def test_months_and_dates_look_ahead_in_a_plan(text: str, day: date, start: date) -> None:
    assert only(text, day).start == start


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("Kestrel runs on 8081 until Friday.", D(2025, 12, 5)),
        ("The offer is valid through Dec 15.", D(2025, 12, 15)),
        ("Il reste jusqu'au 3 décembre.", D(2025, 12, 3)),
        ("Fica até sexta-feira.", D(2025, 12, 5)),
        ("Er bleibt bis Freitag.", D(2025, 12, 5)),
        ("Se queda hasta el viernes.", D(2025, 12, 5)),
        ("Pinned till Monday.", D(2025, 12, 1)),
    ],
)
def test_until_through_bound_the_end(text: str, end: date) -> None:
    span = only(text)
    assert (span.bound, span.end) == ("until", end)


def test_since_and_from_bound_the_start() -> None:
    since = only("Running since August.")
    assert (since.bound, since.start, since.granularity) == ("since", D(2025, 8, 1), "open")
    start = only("Théo works there from Dec 15.")
    assert (start.bound, start.start) == ("from", D(2025, 12, 15))
    assert only("Berlin from Nov 27 to Dec 1.").bound == ""  # a range states both ends


ASKED = D(2026, 6, 12)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What port was Kestrel listening on in February?", D(2026, 2, 1), D(2026, 2, 28)),
        ("What port was Kestrel listening on in February 2026?", D(2026, 2, 1), D(2026, 2, 28)),
        ("What database did Kestrel use as of March 1?", D(2026, 3, 1), D(2026, 3, 1)),
        ("Who was Joana's employer on 20 April 2026?", D(2026, 4, 20), D(2026, 4, 20)),
        ("What changed last week?", D(2026, 6, 1), D(2026, 6, 7)),
        ("Qual era o telefone da Graça em fevereiro?", D(2026, 2, 1), D(2026, 2, 28)),
        ("Où habitait Joana en février ?", D(2026, 2, 1), D(2026, 2, 28)),
        ("Welchen Port hatte Kestrel im Februar?", D(2026, 2, 1), D(2026, 2, 28)),
        ("¿Dónde vivía Joana en febrero?", D(2026, 2, 1), D(2026, 2, 28)),
        ("Kestrel 2月用的是哪个端口？", D(2026, 2, 1), D(2026, 2, 28)),
        ("Was hat Joana letzte Woche gemacht?", D(2026, 6, 1), D(2026, 6, 7)),
        ("¿Qué pasó la semana pasada?", D(2026, 6, 1), D(2026, 6, 7)),
        ("What is planned for September?", D(2026, 9, 1), D(2026, 9, 30)),  # it looks ahead
    ],
)
def test_question_windows(question: str, start: date, end: date) -> None:
    span = question_time(question, ASKED)
    assert span is not None
    assert (span.start, span.end) == (start, end)


@pytest.mark.parametrize(
    "question", ["Which port is Kestrel on right now?", "What is Sluice's retry.maxAttempts?"]
)
def test_question_without_a_window(question: str) -> None:
    assert question_time(question, ASKED) is None


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("last weekend", D(2025, 11, 22)),
        ("this weekend", D(2025, 11, 29)),
        ("next weekend", D(2025, 12, 6)),
        ("le week-end dernier", D(2025, 11, 22)),
        ("este fim de semana", D(2025, 11, 29)),
        ("letztes Wochenende", D(2025, 11, 22)),
        ("el próximo fin de semana", D(2025, 12, 6)),
        ("上周末", D(2025, 11, 22)),
    ],
)
def test_weekends_are_saturday_and_sunday(text: str, start: date) -> None:
    span = only(text)
    assert (span.start, span.end, span.text) == (start, start + timedelta(days=1), text)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("L'an dernier nous étions à Lyon.", D(2024, 1, 1)),
        ("On verra l'année prochaine.", D(2026, 1, 1)),
        ("On verra année prochaine.", D(2026, 1, 1)),  # the article dropped
    ],
)
def test_french_years_drop_only_the_article(text: str, start: date) -> None:
    assert only(text).start == start


@pytest.mark.parametrize(
    "text",
    [
        "Le dernier sprint était dur.",  # "dernier" alone was read as "l'an dernier"
        "La dernière version est sortie.",
        "Prochaine étape : la migration.",
        "C'était la fois passée.",
    ],
)
def test_french_last_and_next_alone_are_no_year(text: str) -> None:
    assert extract_times(text, DAY) == []


MAR20 = D(2026, 3, 20)  # the clawd-dev log where "on 21 March" became 2027-03-21
DEC30, JAN2 = D(2026, 12, 30), D(2027, 1, 2)


@pytest.mark.parametrize(
    ("text", "day", "expected"),
    [
        ("I'll put Kestrel in read-only mode at 09:00 on 21 March for the migration.",
         MAR20, D(2026, 3, 21)),  # tomorrow
        ("Coffee with Jonas Richter planned for 17 March.", D(2026, 3, 16), D(2026, 3, 17)),
        ("We will meet on 20 March.", MAR20, MAR20),  # today
        ("We will meet on 19 March.", MAR20, D(2027, 3, 19)),  # yesterday's date is a year on
        ("We will meet on 2 January.", DEC30, D(2027, 1, 2)),
        ("We will meet on 30 December.", JAN2, D(2027, 12, 30)),
        ("We will meet on 29 February.", MAR20, D(2028, 2, 29)),
        ("Nous allons signer le 21 mars.", MAR20, D(2026, 3, 21)),
        ("Nous allons signer le 20 mars.", MAR20, MAR20),
        ("Nous allons signer le 2 janvier.", DEC30, D(2027, 1, 2)),
        ("Vamos assinar em 21 de março.", MAR20, D(2026, 3, 21)),
        ("Vamos assinar em 20 de março.", MAR20, MAR20),
        ("Vamos assinar em 2 de janeiro.", DEC30, D(2027, 1, 2)),
        ("Wir werden am 21. März unterschreiben.", MAR20, D(2026, 3, 21)),
        ("Wir werden am 20. März unterschreiben.", MAR20, MAR20),
        ("Wir werden am 2. Januar unterschreiben.", DEC30, D(2027, 1, 2)),
        ("Vamos a firmar el 21 de marzo.", MAR20, D(2026, 3, 21)),
        ("Vamos a firmar el 20 de marzo.", MAR20, MAR20),
        ("Vamos a firmar el 2 de enero.", DEC30, D(2027, 1, 2)),
        ("我们打算3月21日签约。", MAR20, D(2026, 3, 21)),
    ],
)  # fmt: skip
def test_a_yearless_date_ahead_is_the_nearest_on_or_after_the_day(
    text: str, day: date, expected: date
) -> None:
    assert lean(text) == 1
    assert only(text, day).start == expected


@pytest.mark.parametrize(
    ("text", "day", "expected"),
    [
        ("We met on 19 March.", MAR20, D(2026, 3, 19)),  # yesterday
        ("We met on 20 March.", MAR20, MAR20),  # today
        ("We met on 30 December.", JAN2, D(2026, 12, 30)),
        ("We met on 29 February.", MAR20, D(2024, 2, 29)),
        ("Nous avons signé le 19 mars.", MAR20, D(2026, 3, 19)),
        ("Nous avons signé le 30 décembre.", JAN2, D(2026, 12, 30)),
        ("Ela assinou em 19 de março.", MAR20, D(2026, 3, 19)),
        ("Ela assinou em 30 de dezembro.", JAN2, D(2026, 12, 30)),
        ("Wir haben am 19. März gefeiert.", MAR20, D(2026, 3, 19)),
        ("Wir haben am 30. Dezember gefeiert.", JAN2, D(2026, 12, 30)),
        ("Firmaron el 19 de marzo.", MAR20, D(2026, 3, 19)),
        ("Firmaron el 30 de diciembre.", JAN2, D(2026, 12, 30)),
    ],
)  # fmt: skip
def test_a_yearless_date_back_is_the_nearest_on_or_before_the_day(
    text: str, day: date, expected: date
) -> None:
    assert lean(text) == -1
    assert only(text, day).start == expected


@pytest.mark.parametrize(
    ("text", "day", "expected"),
    [
        ("We met on 21 March.", MAR20, D(2026, 3, 21)),
        # From clawd-dev: past cues ("-ed", "est ...ée") around a date days ahead.
        ("Internet in Porto (MEO fibre) gets installed on Monday 1 June.", D(2026, 5, 25),
         D(2026, 6, 1)),
        ("La revue du design de Sluice est reportée au mardi 27 janvier.", D(2026, 1, 22),
         D(2026, 1, 27)),
        ("Mei moved to a flat in Guillotière (sofa move on 14 February).", D(2026, 2, 9),
         D(2026, 2, 14)),
    ],
)  # fmt: skip
def test_a_past_cue_does_not_send_a_date_days_ahead_a_year_back(
    text: str, day: date, expected: date
) -> None:
    # "Nearest on or before" would date these a year back: a past cue (-ed, was, est +
    # participle) is as often a report of a coming date as a past event. Within
    # LOOKAHEAD_DAYS, a date ahead stays ahead.
    assert lean(text) == -1
    assert only(text, day).start == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A day of the month written after the weekday names the date, ahead or back,
        # whatever the tense ("Tuesday" alone, written on Saturday, is the Tuesday before).
        ("We fly out on Tuesday the 2nd.", D(2025, 12, 2)),
        ("The backup failed on Monday the 24th.", D(2025, 11, 24)),
        ("Tuesday, the 2nd: dentist.", D(2025, 12, 2)),
        ("On part mardi 2 au matin.", D(2025, 12, 2)),
        ("O servidor caiu na segunda-feira dia 24.", D(2025, 11, 24)),
        ("Wir fahren am Dienstag, den 2., los.", D(2025, 12, 2)),
        ("Salimos el martes 2 temprano.", D(2025, 12, 2)),
        # Weekday and day disagree: the day of the month wins (the nearest such date).
        ("Call the bank on Monday the 30th.", D(2025, 11, 30)),
    ],
)
def test_a_day_of_the_month_after_a_weekday_names_the_date(text: str, expected: date) -> None:
    span = only(text)
    assert span.start == span.end == expected
    assert text[span.char_start : span.char_end].rstrip(".,") == span.text.rstrip(".,")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A number after a weekday that is a time, a count or part of a date is no day.
        ("Standup moved to Tuesday 10:30.", D(2025, 11, 25)),
        ("Tuesday 3 pm worked for everyone.", D(2025, 11, 25)),
        ("Tuesday 2 weeks ago", D(2025, 11, 25)),
        ("Terça-feira, 25 de novembro, choveu.", D(2025, 11, 25)),
        ("Tuesday, 25 November was cold.", D(2025, 11, 25)),
    ],
)
def test_a_number_after_a_weekday_that_is_no_day_of_the_month(text: str, expected: date) -> None:
    first = extract_times(text, DAY)[0]
    assert (first.start, first.end) == (expected, expected)


MAY = D(2026, 5, 10)  # the day of writing below


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A month of the next two, in a clause with no tense cue either way, is ahead:
        # a log names what is coming ("off to Osaka in July"), not last year's July.
        ("Flying to Osaka in July.", D(2026, 7, 1)),
        ("Internship starting in June, three days a week.", D(2026, 6, 1)),
        ("Férias em julho, em Porto Covo.", D(2026, 7, 1)),
        ("Vacances en juillet à Annecy.", D(2026, 7, 1)),
        # A past cue keeps it back; a month further ahead stays the latest one.
        ("We visited Osaka in July.", D(2025, 7, 1)),
        ("Fomos a Porto Covo em julho.", D(2025, 7, 1)),
        ("Rent review in November.", D(2025, 11, 1)),
        ("Révision du loyer en novembre.", D(2025, 11, 1)),
        # The month itself and the ones before it are unchanged.
        ("Osaka in May, finally.", D(2026, 5, 1)),
        ("Osaka in April, finally.", D(2026, 4, 1)),
    ],
)
def test_a_coming_month_without_tense_looks_ahead(text: str, expected: date) -> None:
    assert only(text, day=MAY).start == expected


# A weekday that names every such day is a habit, not a date: a line about a weekly routine
# must not be dated to last week's (the routine's change would look older than it is).
@pytest.mark.parametrize(
    "text",
    [
        "Choir rehearses every Thursday in the church hall.",
        "Yoga on Monday evenings, pottery on Saturday mornings.",
        "O coro ensaia todas as quintas na igreja.",
        "Wir gehen jeden Freitag schwimmen.",
        "Le club se retrouve chaque mercredi au stade.",
        "El grupo corre cada domingo por el parque.",
    ],
)
def test_habitual_weekday_gives_no_date(text: str) -> None:
    assert extract_times(text, date(2026, 5, 13)) == []


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Thursday night the choir sang badly.", date(2026, 5, 7)),
        ("Na quinta-feira à noite o coro cantou mal.", date(2026, 5, 7)),
    ],
)
def test_one_weekday_night_is_still_a_date(text: str, day: date) -> None:
    assert [s.start for s in extract_times(text, date(2026, 5, 13))] == [day]


# "from <month>" starts something: in a clause that looks neither way it is the coming month
# when that is near (a plan written in April "from June" is this June), as a bare month is.
@pytest.mark.parametrize(
    "text",
    [
        "Agreed: the bakery delivers from June.",
        "Combinado: a padaria entrega a partir de junho.",
        "Abgemacht: die Bäckerei liefert ab Juni.",
    ],
)
def test_from_a_near_month_looks_ahead(text: str) -> None:
    (span,) = extract_times(text, date(2026, 4, 20))
    assert (span.start, span.bound) == (date(2026, 6, 1), "from")


def test_from_a_month_in_a_past_clause_stays_behind() -> None:
    (span,) = extract_times("The bakery delivered from June, until it closed.", date(2026, 4, 20))
    assert span.start == date(2025, 6, 1)


# A bound ("from", "until", "a partir de", "ab", "jusqu'au") in a clause with no tense either
# way is a boundary still to come, however far: a note written in March that the lease runs
# "until 1 September" or the rent changes "from October" means this year's, not last
# year's. One that ended at most a month ago is the one just gone. Written 2026-03-05.
@pytest.mark.parametrize(
    ("text", "start", "bound"),
    [
        ("The allotment lease runs until 1 September.", D(2026, 9, 1), "until"),
        ("O contrato do quintal vai até 1 de setembro.", D(2026, 9, 1), "until"),
        ("Club fees go up from 1 October.", D(2026, 10, 1), "from"),
        ("Die Vereinsbeiträge steigen ab 1. Oktober.", D(2026, 10, 1), "from"),
        ("Ben joins the choir from October; sopranos meanwhile.", D(2026, 10, 1), "from"),
        ("A Inês muda de turma a partir de outubro.", D(2026, 10, 1), "from"),
        ("Le local est à nous jusqu'en décembre.", D(2026, 12, 1), "until"),
        # just gone: the bound a month back is this year's
        ("Ben on the night shift from 16 February.", D(2026, 2, 16), "from"),
        ("Inês na turma B a partir de fevereiro.", D(2026, 2, 1), "from"),
        # a past clause keeps it behind
        ("The lease ran until 1 September, then we moved.", D(2025, 9, 1), "until"),
    ],
)
def test_a_bound_in_an_untensed_clause_is_still_to_come(text: str, start: date, bound: str) -> None:
    (span,) = extract_times(text, date(2026, 3, 5))
    assert (span.start, span.bound) == (start, bound)


# A weekday with no "last"/"next" in a clause with no tense cue: what is coming is noted in
# the present or with no verb, what happened with a past verb. Written on Wednesday
# 2026-05-20 (the Friday before is the 15th, the one after the 22nd).
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The plumber comes on Friday.", D(2026, 5, 22)),
        ("Dentist on Friday at 9:30.", D(2026, 5, 22)),
        ("O canalizador vem na sexta-feira.", D(2026, 5, 22)),
        ("Le plombier passe vendredi matin.", D(2026, 5, 22)),
        # a past verb, also one opening the note capitalised, or an irregular one: back
        ("The plumber came on Friday.", D(2026, 5, 15)),
        ("Fixed the boiler on Friday.", D(2026, 5, 15)),
        ("- Replaced the tap on Friday.", D(2026, 5, 15)),
        ("The plumber sent the invoice on Friday.", D(2026, 5, 15)),
        ("Le plombier est passé vendredi.", D(2026, 5, 15)),
        ("O canalizador veio na sexta-feira.", D(2026, 5, 15)),
        # a weekday that owns a noun names an event already known: back
        ("Friday's leak is fixed.", D(2026, 5, 15)),
        # the writing day's own weekday, with no preposition, is that day
        ("Busy Wednesday.", D(2026, 5, 20)),
        ("Quarta-feira de inventário.", D(2026, 5, 20)),
    ],
)
def test_a_weekday_without_tense_looks_ahead(text: str, expected: date) -> None:
    assert [s.start for s in extract_times(text, date(2026, 5, 20))] == [expected]


def test_a_participle_before_until_is_a_state_not_a_past_event() -> None:
    # "Closed until Friday" is closed now and until the coming Friday.
    assert only("Closed until Friday.", date(2026, 5, 20)).end == D(2026, 5, 22)


# A day of the month alone, after an article or "dia": the nearest date with that day
# (last, this or next month); "until"/"from" look only ahead, "since" only back. Written
# on 2026-08-03.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The invoice is due on the 12th.", D(2026, 8, 12)),
        ("The parcel came on the 30th.", D(2026, 7, 30)),
        ("A obra acaba no dia 12.", D(2026, 8, 12)),
        ("La réunion est le 12.", D(2026, 8, 12)),
        ("La reunión es el 12.", D(2026, 8, 12)),
        ("Shut until the 28th for the works.", D(2026, 8, 28)),
        ("Fechado até dia 28 para obras.", D(2026, 8, 28)),
    ],
)
def test_a_day_of_the_month_alone_is_the_nearest_such_date(text: str, expected: date) -> None:
    assert [s.end for s in extract_times(text, date(2026, 8, 3))] == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "We live on the 3rd floor.",
        "Art of the 21st century.",
        "All the 3 of us went.",
        "Le 12 bus.",
    ],
)
def test_a_number_after_an_article_that_is_no_day(text: str) -> None:
    assert extract_times(text, date(2026, 8, 3)) == []


def test_a_day_of_the_month_with_its_month_or_weekday_is_read_whole() -> None:
    assert [(s.text, s.start) for s in extract_times("Chega dia 14 de agosto.", D(2026, 7, 1))] == [
        ("dia 14 de agosto", D(2026, 8, 14))
    ]
    assert [s.text for s in extract_times("Match on Sunday the 27th.", D(2026, 9, 25))] == [
        "on Sunday the 27th"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "sexta" alone is also "sixth"; before a part of the day it is Friday
        ("Chegaram sexta à noite, cansados.", [D(2026, 4, 3)]),
        ("Quarta de manhã há reunião com o banco.", [D(2026, 4, 8)]),
        ("Foi a segunda vez que o forno avariou.", []),
    ],
)
def test_a_short_portuguese_weekday_before_a_part_of_the_day_is_a_date(
    text: str, expected: list[date]
) -> None:
    assert [s.start for s in extract_times(text, date(2026, 4, 6))] == expected
