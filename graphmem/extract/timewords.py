"""The word tables of the time grammar (graphmem.extract.timex), one entry per language.

Latin-script languages: en, fr, pt, de, es; Chinese forms are patterns in timex itself.
Adding a language is adding its rows here (and its mood cues in graphmem.extract.mood). Keys are
matched case-insensitively, with any run of spaces between words; "|" separates the
values 1, 2, 3... of a numbered table (months, weekdays Monday first, numbers).

Left out on purpose: Spanish "ago" (agosto: English "3 days ago"), "once" (11: English
"once") and "doce" (12: Portuguese "sweet"); German "vor" as a preposition ("vor 3 Tagen"
is "3 days ago", see AGO_BEFORE).
"""

from __future__ import annotations

#: The languages the grammar covers (graphmem.extract.timex_fallback handles others with dateparser).
GRAMMAR_LANGUAGES: tuple[str, ...] = ("en", "fr", "pt", "zh", "de", "es")

MONTHS = {
    "en": "january jan|february feb|march mar|april apr|may|june jun|july jul|august aug|"
    "september sept sep|october oct|november nov|december dec",
    "fr": "janvier janv|février fevrier févr|mars|avril avr|mai|juin|juillet juil|août aout|"
    "septembre sept|octobre oct|novembre nov|décembre decembre déc",
    "pt": "janeiro jan|fevereiro fev|março|abril abr|maio|junho jun|julho jul|agosto|setembro|"
    "outubro|novembro nov|dezembro dez",
    "de": "januar jänner jan|februar feb|märz maerz|april apr|mai|juni jun|juli jul|august aug|"
    "september sept sep|oktober okt|november nov|dezember dez",
    "es": "enero ene|febrero feb|marzo mar|abril abr|mayo|junio jun|julio jul|agosto|"
    "septiembre setiembre sept sep|octubre oct|noviembre nov|diciembre dic",
}
#: English month words that are also common words: dates only after a preposition or with
#: a year, or capitalised.
AMBIGUOUS_MONTHS = frozenset({"may", "march", "mar", "dec"})
WEEKDAYS = {  # Monday first
    "en": "monday|tuesday|wednesday|thursday|friday|saturday|sunday",
    "fr": "lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche",
    "pt": "segunda-feira segunda|terça-feira terça|quarta-feira quarta|quinta-feira quinta|"
    "sexta-feira sexta|sábado|domingo",
    "de": "montag|dienstag|mittwoch|donnerstag|freitag|samstag sonnabend|sonntag",
    "es": "lunes|martes|miércoles miercoles|jueves|viernes|sábado sabado|domingo",
}
PT_SHORT_WEEKDAYS = frozenset({"segunda", "terça", "quarta", "quinta", "sexta"})  # "second"...
#: ... but not before a part of the day: "sexta à noite", "quarta de manhã" is a weekday.
PT_DAY_PARTS = ("à noite", "a noite", "à tarde", "a tarde", "de manhã", "de madrugada",
                "ao almoço", "ao jantar", "ao fim do dia", "ao fim da tarde")  # fmt: skip
#: A weekday after one of these names every such day, not one date: "every Tuesday", "chaque
#: mardi", "todas as terças", "jeden Dienstag", "cada martes" (a habit; graphmem.extract.timex).
EVERY = ("every", "each", "chaque", "tous les", "toutes les", "todas as", "todos os", "cada",
         "jeden", "jede", "jedem", "todos los", "todas las")  # fmt: skip
#: A weekday before a plural part of the day is a habit too: "Tuesday nights", "Sunday
#: mornings" (the singular, "Tuesday night", is one night).
PLURAL_PARTS = frozenset({"mornings", "afternoons", "evenings", "nights", "nachmittags",
                          "abends", "morgens", "vormittags", "nachts"})  # fmt: skip
NUMBERS = {
    "en": "a an one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve",
    "fr": "un une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze",
    "pt": "um uma|dois duas|três tres|quatro|cinco|seis|sete|oito|nove|dez|onze|doze",
    "de": "ein eine einem einer einen|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf",
    "es": "un una uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez",
}
UNITS = {
    "en": {"day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month",
           "months": "month", "year": "year", "years": "year"},
    "fr": {"jour": "day", "jours": "day", "semaine": "week", "semaines": "week", "mois": "month",
           "an": "year", "ans": "year", "année": "year", "années": "year"},
    "pt": {"dia": "day", "dias": "day", "semana": "week", "semanas": "week", "mês": "month",
           "meses": "month", "ano": "year", "anos": "year"},
    "de": {"tag": "day", "tage": "day", "tagen": "day", "woche": "week", "wochen": "week",
           "monat": "month", "monate": "month", "monaten": "month", "jahr": "year",
           "jahre": "year", "jahren": "year"},
    "es": {"día": "day", "días": "day", "semana": "week", "semanas": "week", "mes": "month",
           "meses": "month", "año": "year", "años": "year"},
}  # fmt: skip
# Direction words around a weekday or month name: -1 before, 0 this one, 1 after.
PREFIX_MODS = {
    "en": {"last": -1, "past": -1, "previous": -1, "this": 0, "next": 1, "coming": 1},
    "fr": {"ce": 0},
    "pt": {"esta": 0, "este": 0, "nesta": 0, "neste": 0, "próxima": 1, "próximo": 1},
    "de": {"letzten": -1, "letzte": -1, "letzter": -1, "letztes": -1, "vorigen": -1,
           "vergangenen": -1, "diesen": 0, "diese": 0, "dieser": 0, "nächsten": 1,
           "nächste": 1, "kommenden": 1, "kommende": 1},
    "es": {"este": 0, "esta": 0, "próximo": 1, "próxima": 1},
}  # fmt: skip
SUFFIX_MODS = {
    "fr": {"dernier": -1, "dernière": -1, "prochain": 1, "prochaine": 1},
    "pt": {"passada": -1, "passado": -1, "que vem": 1},
    "es": {"pasado": -1, "pasada": -1, "que viene": 1, "próximo": 1, "próxima": 1},
}
REL_DAYS = {
    "en": {"today": 0, "yesterday": -1, "tomorrow": 1, "the day before yesterday": -2,
           "day before yesterday": -2, "the day after tomorrow": 2, "day after tomorrow": 2,
           "last night": -1},
    "fr": {"aujourd'hui": 0, "hier": -1, "demain": 1, "avant-hier": -2, "après-demain": 2},
    "pt": {"hoje": 0, "ontem": -1, "amanhã": 1, "anteontem": -2, "depois de amanhã": 2},
    "de": {"heute": 0, "gestern": -1, "vorgestern": -2, "morgen": 1, "übermorgen": 2},
    "es": {"hoy": 0, "ayer": -1, "anteayer": -2, "antes de ayer": -2, "anoche": -1,
           "mañana": 1, "pasado mañana": 2},
    "zh": {"今天": 0, "今日": 0, "昨天": -1, "昨日": -1, "明天": 1, "明日": 1, "前天": -2, "后天": 2},
}  # fmt: skip
#: "morgen" / "mañana" is also "morning": not a day after these words ("heute Morgen").
MORNING_BEFORE = frozenset(
    {"heute", "gestern", "vorgestern", "am", "jeden", "guten", "den", "diesen", "la", "esta",
     "cada", "toda", "una", "de"}
)  # fmt: skip
PERIODS = {  # phrase -> (unit, offset in units)
    "en": {f"{w} {u}": (u, n) for w, n in (("last", -1), ("previous", -1), ("this", 0),
           ("next", 1)) for u in ("week", "month", "year", "weekend")},
    "fr": {"la semaine dernière": ("week", -1), "la semaine passée": ("week", -1),
           "cette semaine": ("week", 0), "la semaine prochaine": ("week", 1),
           "le mois dernier": ("month", -1), "le mois passé": ("month", -1),
           "ce mois-ci": ("month", 0), "ce mois": ("month", 0), "le mois prochain": ("month", 1),
           "l'année dernière": ("year", -1), "l'an dernier": ("year", -1),
           "l'année passée": ("year", -1), "cette année": ("year", 0),
           "l'année prochaine": ("year", 1), "l'an prochain": ("year", 1),
           "le week-end dernier": ("weekend", -1), "ce week-end": ("weekend", 0),
           "le week-end prochain": ("weekend", 1)},
    "pt": {"semana passada": ("week", -1), "esta semana": ("week", 0),
           "nesta semana": ("week", 0), "semana que vem": ("week", 1),
           "próxima semana": ("week", 1), "mês passado": ("month", -1), "este mês": ("month", 0),
           "neste mês": ("month", 0), "mês que vem": ("month", 1), "próximo mês": ("month", 1),
           "ano passado": ("year", -1), "este ano": ("year", 0), "neste ano": ("year", 0),
           "ano que vem": ("year", 1), "próximo ano": ("year", 1),
           "fim de semana passado": ("weekend", -1), "este fim de semana": ("weekend", 0),
           "neste fim de semana": ("weekend", 0), "próximo fim de semana": ("weekend", 1)},
    "de": {"letzte woche": ("week", -1), "letzten woche": ("week", -1),
           "vorige woche": ("week", -1), "vergangene woche": ("week", -1),
           "diese woche": ("week", 0), "dieser woche": ("week", 0),
           "nächste woche": ("week", 1), "nächsten woche": ("week", 1),
           "kommende woche": ("week", 1), "letzten monat": ("month", -1),
           "letzter monat": ("month", -1), "vorigen monat": ("month", -1),
           "diesen monat": ("month", 0), "nächsten monat": ("month", 1),
           "letztes jahr": ("year", -1), "letzten jahr": ("year", -1),
           "voriges jahr": ("year", -1), "dieses jahr": ("year", 0),
           "diesem jahr": ("year", 0), "nächstes jahr": ("year", 1),
           "nächsten jahr": ("year", 1), "letztes wochenende": ("weekend", -1),
           "letzten wochenende": ("weekend", -1), "dieses wochenende": ("weekend", 0),
           "diesem wochenende": ("weekend", 0), "nächstes wochenende": ("weekend", 1),
           "nächsten wochenende": ("weekend", 1)},
    "es": {"la semana pasada": ("week", -1), "esta semana": ("week", 0),
           "la próxima semana": ("week", 1), "la semana que viene": ("week", 1),
           "el mes pasado": ("month", -1), "este mes": ("month", 0),
           "el próximo mes": ("month", 1), "el mes que viene": ("month", 1),
           "el año pasado": ("year", -1), "este año": ("year", 0),
           "el próximo año": ("year", 1), "el año que viene": ("year", 1),
           "el fin de semana pasado": ("weekend", -1), "este fin de semana": ("weekend", 0),
           "el próximo fin de semana": ("weekend", 1)},
}  # fmt: skip
# Preposition -> role. "license" lets a bare month or year count as a date ("in March");
# "until" closes a validity ("through D", "jusqu'au D", "bis D"), "from" opens one at D,
# "open" opens one at D and keeps it open ("since D").
PRE_ROLES = {
    "en": {"since": "open", "around": "around", "about": "around", "circa": "around",
           "approximately": "around", "in": "license", "during": "license",
           "throughout": "license", "until": "until", "till": "until", "through": "until",
           "thru": "until", "up to": "until", "up until": "until", "by": "license",
           "before": "license", "after": "license", "for": "license", "from": "from",
           "starting": "from",
           "starting on": "from", "starting from": "from", "as of": "from", "beginning": "from",
           "beginning on": "from",
           "effective": "from", "early": "license", "late": "license", "mid-": "license",
           "end of": "license", "beginning of": "license", "start of": "license",
           "on": "neutral", "between": "between"},
    "fr": {"depuis": "open", "vers": "around", "vers le": "around", "autour du": "around",
           "en": "license", "pendant": "license", "jusqu'à": "until", "jusqu'au": "until",
           "jusqu'en": "until", "avant": "license", "après": "license",
           "à partir de": "from", "à partir du": "from", "dès": "from", "dès le": "from",
           "début": "license", "fin": "license", "mi-": "license", "dans": "license", "le": "neutral",
           "du": "neutral", "entre": "between"},
    "pt": {"desde": "open", "por volta de": "around", "cerca de": "around", "em": "license",
           "durante": "license", "até": "until", "antes de": "license",
           "a partir de": "from", "a partir do": "from", "início de": "license",
           "fim de": "license", "meados de": "license", "de": "license", "daqui a": "license",
           "dia": "neutral", "no": "neutral", "na": "neutral", "entre": "between"},
    "de": {"seit": "open", "gegen": "around", "etwa": "around",
           "in": "license", "im": "license", "während": "license", "bis": "until",
           "bis zum": "until", "bis zur": "until", "bis am": "until", "ab": "from",
           "ab dem": "from", "vom": "neutral", "anfang": "license", "ende": "license",
           "mitte": "license", "am": "neutral", "den": "neutral", "zum": "neutral",
           "nach": "license", "zwischen": "between"},
    "es": {"desde": "open", "alrededor del": "around", "hacia": "around", "en": "license",
           "durante": "license", "hasta": "until", "hasta el": "until",
           "a partir de": "from", "a partir del": "from", "antes de": "license",
           "después de": "license", "a principios de": "license", "a finales de": "license",
           "a mediados de": "license", "el": "neutral", "del": "neutral",
           "entre": "between"},
}  # fmt: skip
ROLLING_ARTICLES = ("the", "os", "nos", "dos", "as", "nas", "das", "les", "ces", "los", "las",
                    "die", "den")  # fmt: skip
ROLLING_WORDS = ("past", "last", "previous", "últimos", "últimas", "letzten", "vergangenen")
AGO_BEFORE = ("il y a", "há", "ha", "faz", "hace", "vor")  # "il y a 3 jours", "vor 3 Tagen"
AGO_AFTER = ("ago", "from now")  # "3 days ago"; "3 weeks later" counts from another event
FUTURE_PRE = frozenset({"in", "dans", "em", "daqui a", "en"})  # "in 3 days", "dans 3 jours"
# Only these make a bare year a date: "about 2000 requests", "after 2000 retries" are counts.
YEAR_PRE = frozenset({"in", "during", "throughout", "since", "en", "pendant", "depuis", "em",
                      "durante", "desde", "im", "seit"})  # fmt: skip
