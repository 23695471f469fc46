#!/usr/bin/env python3
"""Generate a realistic synthetic graphmem workspace for benchmarks.

Usage::

    python bench/gen_workspace.py OUT_DIR --size 1k|10k|100k [--seed 0] [--start 2016-01-01]
    python bench/gen_workspace.py OUT_DIR --items 2500          # an exact target count
    python bench/gen_workspace.py OUT_DIR --size 10k --force    # replace an earlier run

What it writes (see DESIGN.md, "The workspace")::

    memory.md                 a dozen core bullets and two paragraphs
    SOUL.md                   the agent's persona, one paragraph
    memory/YYYY-MM-DD.md      daily logs: "# YYYY-MM-DD (Weekday)", "### topic" sections of
                              narrative, list items and chat lines ("- 13:56 Name: text"),
                              usually a "## Retain" section of 1-5 typed bullets
    bank/world.md             current objective facts (W bullets)
    bank/experience.md        things the agent did (B bullets)
    bank/opinions.md          current opinions (O bullets) with an "Evidence:" line
    bank/entities/<Name>.md   one page for most entities ("Aliases:" line or YAML front matter)

The log is simulated, not sampled: a small world of people, places, projects, orgs, tools and
things evolves day by day. People move city and change employer, projects switch database,
servers and projects get renamed, settings change (``set relay.maxRetries to 5`` and later
``to 8 (was 5)``), opinions are restated with new confidence or contradicted. The text uses
the cue phrases a memory system has to understand ("moved to", "now lives in", "switched to",
"migrated to", "renamed to", "joined", "no longer"), aliases and possessives instead of
@mentions ("Pete's laptop", "the castle"), time expressions relative to the file's day
("yesterday", "last Tuesday", "on Mar 3", "next week", "since August") and exact strings
(error codes, config keys, paths, versions, issue numbers).

Size is counted in indexable items: typed bullets plus free-text passages (a paragraph, one
list item or one code block), exactly as graphmem's Markdown parser splits the files
(:func:`count_items`). The fixed files are sized first, the daily logs share the rest, and
the last day takes up the slack, so the total normally hits the target exactly.

Output is deterministic: the same arguments give byte-identical files. Everything random
comes from one ``random.Random(seed)``; nothing reads the clock, the locale or the
environment, and no set is ever iterated. Stdlib only, Python 3.11+.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import re
import shutil
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import partial
from pathlib import Path

from graphmem.parse.sentences import split_units

SIZES: dict[str, int] = {"1k": 1_000, "10k": 10_000, "100k": 100_000}
#: Below this the fixed files (memory.md, bank/, entity pages) leave too little for the logs.
MIN_ITEMS = 200

#: Everyday topic kinds and how often a day picks each (see World.routine).
ROUTINE: dict[str, float] = {
    "project": 0.20,
    "work": 0.13,
    "social": 0.15,
    "server": 0.08,
    "home": 0.10,
    "health": 0.06,
    "thing": 0.05,
    "reading": 0.05,
    "chat": 0.08,
    "opinion": 0.04,
    "foreign": 0.03,
}

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
MON = tuple(m[:3] for m in MONTHS)

# ---------------------------------------------------------------------------------------------
# Word lists
# ---------------------------------------------------------------------------------------------

FIRST_M = (
    "Peter Andy Jonas José Björn Søren Joaquín Łukasz Tomás João Raúl Émile Luis Arjun Wei "
    "Kenji Kofi Omar Ivan Dmitri Sven Liam Noah Max Felix Paul David Ben Tom Marco Luca Matteo "
    "Oskar Hugo Théo Mathis Jasper Nils Tariq Samir Hiroshi Minh Diego Mateo Pedro Rui Tiago "
    "Carlos Jakob Lukas Otto Ole Eero Ilkka Bence Gergő Andrés François Jürgen Stefan Rafael "
    "Kwame Emeka Ravi Sanjay Yusuf Mehmet Aleksander Piotr Marek Ondřej Václav Niklas Henrik "
    "Mikkel Anders Lars Rory Cillian Ewan Callum Finn Arne Bram Daan Gabriel Adrián Iñigo Xavier "
    "Quentin Benoît Loïc Cédric Jérôme Angelo Dario Enzo Levi Alexander Sebastian Nicholas"
).split()
FIRST_F = (
    "Marta Lena Zoë Chloé Ingrid Aurélie Noémie Małgorzata Renée Mirela Inês Hélène Ana Priya "
    "Mei Yuki Amara Fatima Leila Nadia Olga Freya Emma Olivia Sophie Hannah Clara Anna Ruth "
    "Sarah Kate Rosa Elena Giulia Chiara Nina Mila Léa Camille Ida Elsa Karin Astrid Yara Aisha "
    "Sakura Linh Thanh Camila Valentina Lucía Beatriz Catarina Filipa Julia Miriam Greta Vera "
    "Pia Maja Siri Aino Kaisa Zsófia Dóra Ágnes Réka Solveig Agnieszka Zuzana Tereza Eliška "
    "Ayşe Elif Zeynep Naledi Ngozi Ananya Deepa Mariam Noor Saoirse Aoife Niamh Isla Maëlle "
    "Margaux Anaïs Françoise Ximena Paula Irene Carmen Lotte Fenna Sanne Jule Katharina Elizabeth"
).split()
NICKNAMES: dict[str, tuple[str, ...]] = {
    "Peter": ("Pete", "P."),
    "Alexander": ("Alex", "Sasha"),
    "Sebastian": ("Basti", "Seb"),
    "Nicholas": ("Nick", "Nico"),
    "Małgorzata": ("Gosia",),
    "Joaquín": ("Quino",),
    "Aleksander": ("Olek",),
    "Zoë": ("Zo",),
    "Valentina": ("Vale",),
    "Gabriel": ("Gabe",),
    "Katharina": ("Kathi", "Kat"),
    "Elizabeth": ("Liz", "Beth"),
    "Jonas": ("Jo",),
    "Andy": ("Andreas", "Andi"),
    "Matteo": ("Teo",),
    "Francisco": ("Paco",),
    "Catarina": ("Cat",),
    "Tomás": ("Tomi",),
    "Benoît": ("Ben",),
    "Jürgen": ("Jürg",),
}
SURNAMES = (
    "Kowalski Fischer Novak Silva Santos Costa Ferreira Müller Schmidt Weber Dubois Moreau "
    "Lefèvre Rossi Bianchi García Fernández López Martín Jensen Nielsen Andersson Lindqvist "
    "Virtanen Nakamura Tanaka Chen Wang Nguyen Tran Okafor Mensah Haddad Khan Patel Sharma "
    "Ivanova Petrov Horváth Kovač Dvořák Šimek Øberg Murphy Walsh Byrne Schneider Becker Wagner "
    "Hoffmann Yılmaz Demir Kaya Popescu Ionescu Almeida Pereira Sousa Carvalho Janssen De-Vries"
).split()

CITIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Lisbon", ("Lisboa", "Lisbonne")),
    ("Porto", ("Oporto",)),
    ("São Paulo", ("Sampa",)),
    ("Kraków", ("Krakow", "Cracow")),
    ("Zürich", ("Zurich",)),
    ("Munich", ("München",)),
    ("Cologne", ("Köln",)),
    ("Vienna", ("Wien",)),
    ("Prague", ("Praha",)),
    ("Reykjavík", ("Reykjavik",)),
    ("Málaga", ("Malaga",)),
    ("Montréal", ("Montreal",)),
    ("Marrakech", ("Marrakesh",)),
    ("Copenhagen", ("København",)),
    ("Gothenburg", ("Göteborg",)),
    ("Seville", ("Sevilla",)),
    ("Florence", ("Firenze",)),
    ("Naples", ("Napoli",)),
    ("Athens", ()),
    ("Istanbul", ()),
    ("Tbilisi", ()),
    ("Berlin", ()),
    ("Hamburg", ()),
    ("Amsterdam", ("Mokum",)),
    ("Rotterdam", ()),
    ("Ghent", ("Gent",)),
    ("Lyon", ()),
    ("Bordeaux", ()),
    ("Marseille", ("Marseilles",)),
    ("Geneva", ("Genève",)),
    ("Milan", ("Milano",)),
    ("Turin", ("Torino",)),
    ("Barcelona", ("BCN",)),
    ("Valencia", ()),
    ("Bilbao", ("Bilbo",)),
    ("Madrid", ()),
    ("Dublin", ()),
    ("Cork", ()),
    ("Edinburgh", ()),
    ("Glasgow", ()),
    ("Bristol", ()),
    ("London", ()),
    ("Oslo", ()),
    ("Bergen", ()),
    ("Stockholm", ()),
    ("Helsinki", ("Helsingfors",)),
    ("Tallinn", ()),
    ("Riga", ()),
    ("Vilnius", ()),
    ("Warsaw", ("Warszawa",)),
    ("Gdańsk", ("Gdansk",)),
    ("Budapest", ()),
    ("Ljubljana", ()),
    ("Zagreb", ()),
    ("Belgrade", ("Beograd",)),
    ("Bucharest", ("București",)),
    ("Thessaloniki", ("Salonica",)),
    ("Tokyo", ()),
    ("Kyoto", ()),
    ("Osaka", ()),
    ("Seoul", ()),
    ("Taipei", ()),
    ("Hanoi", ("Hà Nội",)),
    ("Ho Chi Minh City", ("Saigon", "HCMC")),
    ("Bangkok", ()),
    ("Singapore", ()),
    ("Sydney", ()),
    ("Melbourne", ()),
    ("Auckland", ()),
    ("New York", ("NYC",)),
    ("San Francisco", ("SF",)),
    ("Mexico City", ("CDMX",)),
    ("Bogotá", ("Bogota",)),
    ("Buenos Aires", ()),
    ("Santiago", ()),
    ("Lima", ()),
    ("Cape Town", ()),
    ("Nairobi", ()),
    ("Accra", ()),
    ("Cairo", ()),
    ("Tel Aviv", ()),
    ("Mumbai", ("Bombay",)),
    ("Bangalore", ("Bengaluru",)),
    ("Toronto", ()),
    ("Vancouver", ()),
    ("Chicago", ()),
    ("Boston", ()),
    ("Austin", ()),
    ("Seattle", ()),
    ("Québec City", ("Quebec",)),
    ("Sintra", ()),
    ("Coimbra", ()),
    ("Faro", ()),
    ("Nice", ()),
    ("Leipzig", ()),
    ("Dresden", ()),
    ("Graz", ()),
    ("Salzburg", ()),
    ("Bologna", ()),
    ("Trieste", ()),
    ("Granada", ()),
    ("Córdoba", ("Cordoba",)),
    ("Zaragoza", ()),
    ("San Sebastián", ("Donostia",)),
    ("Aarhus", ()),
    ("Malmö", ("Malmo",)),
    ("Tromsø", ("Tromso",)),
    ("Turku", ("Åbo",)),
)
HOUSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("The Castle", ("the castle", "Château", "le Château")),
    ("The Cabin", ("the cabin",)),
    ("The Barn", ("the barn",)),
    ("The Boathouse", ("the boathouse",)),
    ("The Lighthouse", ("the lighthouse",)),
    ("Old Mill", ("the old mill", "the mill")),
    ("Casa Azul", ("the blue house",)),
    ("The Allotment", ("the allotment",)),
    ("Villa Rosa", ("the villa",)),
    ("The Hive", ("the coworking space", "the coworking")),
    ("Café Lumière", ("Lumière",)),
    ("Tasca do Zé", ("the tasca",)),
)
PROJ_A = (
    "wa tide moss copper lantern night sky drift ink ember hollow quill fern salt iron cinder "
    "gull otter pine rain frost lumen"
).split()
PROJ_B: dict[str, str] = {
    "relay": "WhatsApp relay",
    "sync": "file sync daemon",
    "bot": "chat bot",
    "board": "home dashboard",
    "log": "habit logger",
    "forge": "build service",
    "gate": "API gateway",
    "hook": "webhook router",
    "kit": "home-automation toolkit",
    "mill": "RSS reader",
    "scribe": "note-taking tool",
    "post": "newsletter pipeline",
    "pool": "photo archive",
    "jar": "bookmark keeper",
    "cast": "podcast feed tool",
    "well": "budget tracker",
}
ORGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Acme", ("Acme Corp", "Acme GmbH")),
    ("Northwind", ("Northwind Logistics",)),
    ("Globex", ("Globex Corporation",)),
    ("Initech", ()),
    ("Contoso", ("Contoso Ltd",)),
    ("Fabrikam", ()),
    ("Umbrella Health", ("Umbrella",)),
    ("Hooli", ()),
    ("Vandelay Industries", ("Vandelay",)),
    ("Banco Atlântico", ("the bank",)),
    ("Stadtwerke Nord", ()),
)
ORG_A = "Blue Bright Silver Red Hex Tri Quantum Harbor Vertex Orbit Helix Kestrel Cobalt Granite Juniper Tandem Parallax Fjord".split()
ORG_B = "wave line works stack field point ware loop path beam".split()
INDUSTRIES = (
    "logistics payments health energy media travel insurance games robotics agritech analytics"
).split()
DATABASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("SQLite", ()),
    ("Postgres", ("PostgreSQL", "pg")),
    ("MySQL", ()),
    ("MariaDB", ()),
    ("Redis", ()),
    ("MongoDB", ("Mongo",)),
    ("ClickHouse", ()),
    ("DuckDB", ()),
    ("CockroachDB", ("Cockroach",)),
)
APPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Docker", ()),
    ("Kubernetes", ("k8s",)),
    ("Nginx", ()),
    ("Caddy", ()),
    ("Traefik", ()),
    ("Grafana", ()),
    ("Prometheus", ()),
    ("Tailscale", ()),
    ("WireGuard", ()),
    ("Syncthing", ()),
    ("Jellyfin", ()),
    ("Home Assistant", ("HA",)),
    ("Nextcloud", ()),
    ("Gitea", ()),
    ("Kafka", ("Apache Kafka",)),
    ("RabbitMQ", ()),
    ("Terraform", ()),
    ("Ansible", ()),
    ("Neovim", ("nvim",)),
    ("VS Code", ("vscode",)),
    ("Obsidian", ()),
    ("OpenClaw", ("openclaw", "the gateway")),
    ("Baileys", ("WhiskeySockets Baileys",)),
    ("Sentry", ()),
    ("Restic", ()),
    ("Proxmox", ()),
    ("Vaultwarden", ()),
    ("Immich", ()),
    ("Mosquitto", ()),
    ("Mastodon", ()),
    ("Signal", ()),
    ("Figma", ()),
    ("Zigbee2MQTT", ()),
    ("Paperless", ("paperless-ngx",)),
    ("Uptime Kuma", ("Kuma",)),
    ("Plausible", ()),
    ("Miniflux", ()),
    ("Navidrome", ()),
    ("Forgejo", ()),
    ("Woodpecker CI", ("Woodpecker",)),
    ("Authelia", ()),
    ("Frigate", ()),
    ("ESPHome", ()),
)
SERVERS = "atlas hermes boreas vega orion kepler tycho juno ceres nyx rhea titan io castor".split()
OLD_SERVER_NAMES = "nas01 box2 srv3 pi4 homelab1 nuc01 tower2 mini1".split()
PETS: tuple[tuple[str, str], ...] = (
    ("Miso", "cat"),
    ("Pixel", "dog"),
    ("Biscuit", "dog"),
    ("Mochi", "cat"),
    ("Tofu", "rabbit"),
    ("Pepper", "cat"),
    ("Nugget", "hamster"),
    ("Luna", "dog"),
    ("Kiwi", "parrot"),
    ("Bolota", "dog"),
    ("Pudding", "cat"),
    ("Figo", "dog"),
    ("Chispa", "cat"),
    ("Bao", "tortoise"),
    ("Ziggy", "budgie"),
)
GADGETS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Brompton", "folding bike", ("the Brompton", "the bike")),
    ("Bertha", "camper van", ("the van",)),
    ("Sea Otter", "sailing boat", ("the boat",)),
    ("Moka", "espresso machine", ("the espresso machine",)),
    ("Rocinante", "old Volvo", ("the Volvo",)),
    ("Vespa", "scooter", ("the scooter",)),
    ("Bluebell", "canoe", ("the canoe",)),
    ("Gertrude", "sourdough starter", ("the starter",)),
)

NEIGHBOURHOODS = (
    "the old town",
    "a street near the river",
    "a quiet street behind the station",
    "the hill above the harbour",
    "the university quarter",
    "a block next to the market hall",
    "a courtyard flat near the park",
)
ERRORS: tuple[str, ...] = (
    "Error: ECONNRESET on connection.update",
    "ETIMEDOUT while fetching /api/sync",
    "EADDRINUSE: address already in use :::8080",
    "ENOSPC: no space left on device",
    "EACCES: permission denied, open '/var/lib/app/state.json'",
    "x509: certificate has expired or is not yet valid",
    "HTTP 502 Bad Gateway",
    "ERR_SSL_PROTOCOL_ERROR",
    "ModuleNotFoundError: No module named 'yaml'",
    "panic: runtime error: index out of range [3] with length 3",
    "OOMKilled",
    "fatal: refusing to merge unrelated histories",
)
DB_ERRORS: dict[str, str] = {
    "SQLite": "SQLITE_BUSY: database is locked",
    "Postgres": "FATAL: sorry, too many clients already",
    "MySQL": "ERROR 1040 (HY000): Too many connections",
    "MariaDB": "ERROR 1205 (HY000): Lock wait timeout exceeded",
    "Redis": "OOM command not allowed when used memory > 'maxmemory'",
    "MongoDB": "MongoServerError: WriteConflict",
    "ClickHouse": "Code: 252. DB::Exception: Too many parts",
    "DuckDB": "IO Error: Could not set lock on file",
    "CockroachDB": "ERROR: restart transaction: TransactionRetryWithProtoRefreshError",
}
SETTING_KEYS: tuple[tuple[str, tuple[int, ...]], ...] = (
    ("maxRetries", (3, 5, 8, 10, 12)),
    ("retryBackoffMs", (500, 1000, 2000, 5000)),
    ("timeoutSec", (10, 30, 60, 120)),
    ("poolSize", (4, 8, 16, 32)),
    ("batchSize", (50, 100, 250, 500)),
    ("syncIntervalMin", (5, 10, 15, 30, 60)),
    ("cacheTtlSeconds", (60, 300, 900, 3600)),
    ("workers", (2, 4, 6, 8)),
)
LANGS = ("Python", "Go", "TypeScript", "Rust", "Elixir", "Kotlin")
JOBS = (
    "backend engineer",
    "staff engineer",
    "data engineer",
    "product designer",
    "site reliability engineer",
    "engineering manager",
    "QA lead",
    "frontend developer",
)
TEAMS = ("billing", "platform", "messaging", "payments", "search", "mobile", "data")
SNACKS = (
    "crisps",
    "olives",
    "a cheese board",
    "beer",
    "lemonade",
    "dumplings",
    "cake",
    "wine",
    "nachos",
    "fruit",
)
WEATHER = (
    "It rained all morning; by three the sun finally came out and they sat outside anyway.",
    "Cold and bright; they walked for two hours before lunch.",
    "Too hot to do anything but sit in the shade.",
    "Fog until noon, then a proper summer afternoon.",
    "Wind all day; the umbrella did not survive.",
    "Grey and mild. Nobody checked the weather app once.",
)
BOOKS = (
    "The Left Hand of Darkness",
    "Designing Data-Intensive Applications",
    "Piranesi",
    "The Overstory",
    "A Philosophy of Software Design",
    "Klara and the Sun",
    "Os Maias",
    "The Dispossessed",
    "Thinking in Systems",
    "Der Process",
)
FOODS = (
    "bacalhau com natas",
    "a lentil curry",
    "pasta alla norma",
    "shakshuka",
    "ramen from scratch",
    "a mushroom risotto",
    "pastéis de nata",
    "bibimbap",
    "a tagine",
    "pierogi",
)
PAIRS: tuple[tuple[str, str], ...] = (
    ("phone calls", "voice notes"),
    ("board games", "video games"),
    ("trains", "planes"),
    ("paper notebooks", "note apps"),
    ("the mountains", "the beach"),
    ("cooking at home", "eating out"),
    ("early mornings", "late nights"),
    ("small meetups", "big conferences"),
    ("e-books", "paperbacks"),
    ("running", "cycling"),
)
CHORES = (
    "cancel the old gym membership",
    "renew the car insurance",
    "book the dentist",
    "pay the electricity bill",
    "call the landlord about the boiler",
    "send the invoice",
    "buy a birthday present",
    "back up the phone",
    "renew the passport",
    "water the plants",
)


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def _loglog(x: float, points: Sequence[tuple[float, float]]) -> float:
    """Piecewise log-log interpolation through `points`, extrapolated at both ends."""
    lx = math.log(max(x, 1.0))
    pts = [(math.log(a), math.log(b)) for a, b in points]
    segments = list(itertools.pairwise(pts))
    (x0, y0), (x1, y1) = segments[-1]
    for seg in segments:
        if lx <= seg[1][0]:
            (x0, y0), (x1, y1) = seg
            break
    return math.exp(y0 + (lx - x0) * (y1 - y0) / (x1 - x0))


def calendar_days_for(items: int) -> int:
    """Calendar span for `items` (1k: four months, 10k: two years, 100k: ten years)."""
    return max(7, round(_loglog(items, [(1_000, 120), (10_000, 730), (100_000, 3_650)])))


def entities_for(items: int) -> int:
    """Number of entities for `items` (1k: ~60, 10k: ~200, 100k: ~400)."""
    return max(12, round(_loglog(items, [(1_000, 60), (10_000, 200), (100_000, 400)])))


def fmt_day(d: date) -> str:
    """'Mar 3'."""
    return f"{MON[d.month - 1]} {d.day}"


def fmt_full(d: date) -> str:
    """'Mar 3, 2019'."""
    return f"{MON[d.month - 1]} {d.day}, {d.year}"


def fmt_conf(c: float) -> str:
    """Confidence as written in an O bullet: 0.85, 0.8, 1."""
    return f"{c:.2f}".rstrip("0").rstrip(".")


def fmt_range(a: date, b: date, year: bool = True) -> str:
    """'Nov 27–Dec 1, 2025' (en dash), or 'Mar 3–7, 2019' within a month."""
    tail = f", {b.year}" if year else ""
    if a.month == b.month:
        return f"{MON[a.month - 1]} {a.day}–{b.day}{tail}"
    return f"{fmt_day(a)}–{fmt_day(b)}{tail}"


def possessive(name: str) -> str:
    """ "Pete" -> "Pete's"; "Lukas" -> "Lukas'"."""
    return name + ("'" if name.endswith("s") else "'s")


_LOWER_WORDS = {"the", "he", "she", "they", "his", "her", "their", "no", "some", "too", "a", "an"}


def cap(text: str) -> str:
    """Sentence-case a phrase that starts with a common word ("the castle" -> "The castle").

    Names keep their case: a lower-case project name stays lower-case at a sentence start,
    as people write it ("warelay dropped out twice").
    """
    if text.split(" ", 1)[0] in _LOWER_WORDS:
        return text[:1].upper() + text[1:]
    return text


def article(word: str) -> str:
    """'a' or 'an' for `word` ("an agritech", "an RSS reader", "a backend")."""
    vowel = word[:1].lower() in "aeiou" or word.split(" ")[0] in {"RSS", "SQL", "API", "HTTP"}
    return "an" if vowel else "a"


def upper_first(text: str) -> str:
    """Upper-case the first character ("book the dentist" -> "Book the dentist")."""
    return text[:1].upper() + text[1:]


def page_file(name: str) -> str:
    """The entity page file for a name: "The Castle" -> "The-Castle.md"."""
    return name.replace(" ", "-") + ".md"


# ---------------------------------------------------------------------------------------------
# Documents: built block by block so the item count is known exactly
# ---------------------------------------------------------------------------------------------


class Doc:
    """A Markdown file assembled from blocks separated by blank lines.

    Counts what graphmem's parser will index: every paragraph, code block and list item is
    one passage, except typed bullets (``typed=True``), which count as bullets.
    """

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.passages = 0
        self.bullets = 0
        self._tight = False

    def _gap(self) -> None:
        if self._tight:
            self._tight = False
        elif self.lines and self.lines[-1] != "":
            self.lines.append("")

    def raw(self, *lines: str, tight: bool = False) -> None:
        """Lines that hold no items (front matter); with `tight`, the next block follows."""
        self.lines.extend(lines)
        self._tight = tight

    def heading(self, level: int, text: str, tight: bool = False) -> None:
        """A heading; with `tight`, the next block follows on the very next line."""
        self._gap()
        self.lines.append("#" * level + " " + text)
        self._tight = tight

    def para(self, text: str) -> None:
        """One paragraph (may hold several lines, never a blank one)."""
        self._gap()
        self.lines.extend(text.split("\n"))
        self.passages += len(split_units(text.split("\n"), 1))  # cited sentence by sentence

    def code(self, lines: Sequence[str], fenced: bool) -> None:
        """One code block: fenced, or indented by four spaces."""
        self._gap()
        if fenced:
            self.lines.extend(["```", *lines, "```"])
            self.passages += sum(1 for ln in lines if ln.strip())  # cited line by line
        else:
            self.lines.extend("    " + ln for ln in lines)
            self.passages += len(split_units(list(lines), 1))  # indented: read as free text

    def items(self, items: Sequence[str], typed: bool = False) -> None:
        """A list; an item's extra lines become indented continuation lines."""
        if not items:
            return
        self._gap()
        for item in items:
            first, *rest = item.split("\n")
            self.lines.append("- " + first)
            self.lines.extend("  " + ln for ln in rest)
        if typed:
            self.bullets += len(items)
        else:
            self.passages += sum(len(split_units(item.split("\n"), 1)) for item in items)

    def render(self) -> str:
        """The file's text, ending with one newline."""
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n"


_ITEM_LINE = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])(?:\s|$)")
_HEADING_LINE = re.compile(r"^#{1,6}\s")
_FENCE_LINE = re.compile(r"^\s*(```|~~~)")
_TYPED = re.compile(r"^\s*[-*+]\s+(?:[WBS]|O(?:\([^)]*\))?)(?=[\s:@])")
_MENTION = re.compile(r"(?<![\w.@/])@([\w-]+)(?![\w/@])")
_RETAIN = re.compile(r"^(#{1,6})\s+(retain|retenir|reter|保留)\s*:?\s*$", re.IGNORECASE)


_MARKER = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s*")


def count_items(text: str, typed: str = "retain") -> tuple[int, int]:
    """(bullets, passages) in one Markdown file, split the way graphmem's parser splits it.

    Blocks are separated by blank lines and headings; each list item is its own block and a
    non-list line right after one continues it; YAML front matter and headings hold nothing.
    Which list items are typed bullets depends on the file (`typed`): ``"retain"`` (daily
    logs) those with a W/B/O/S prefix in a Retain section; ``"prefix"`` (entity pages) those
    with a prefix anywhere; ``"all"`` (``memory.md``, ``bank/{world,experience,opinions}.md``)
    every list item, since a missing prefix defaults to the file's kind.
    """
    lines = text.split("\n")
    i = 0
    if lines and lines[0].strip() == "---":
        for j in range(1, len(lines)):
            if lines[j].strip() in {"---", "..."}:
                i = j + 1
                break
    bullets = passages = 0
    in_block = False
    retain_level = 0
    fence: str | None = None
    free: list[str] = []  # the lines of the free-text block being read

    def flush() -> int:
        # Free text is cited sentence by sentence (graphmem.parse.sentences).
        n = len(split_units(free, 1)) if free else 0
        free.clear()
        return n

    for line in lines[i:]:
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            elif line.strip():
                passages += 1  # code is cited line by line
            continue
        if m := _FENCE_LINE.match(line):
            passages += flush()
            fence = m.group(1)
            passages += 1 if line.strip().strip("`~") else 0  # "```toml" keeps its words
            in_block = False
            continue
        if not line.strip():
            passages += flush()
            in_block = False
            continue
        if _HEADING_LINE.match(line):
            passages += flush()
            level = len(line) - len(line.lstrip("#"))
            if retain_level and level <= retain_level:
                retain_level = 0
            if m := _RETAIN.match(line.strip()):
                retain_level = len(m.group(1))
            in_block = False
            continue
        if _ITEM_LINE.match(line):
            if (retain_level or typed == "all") and in_block and line.startswith((" ", "\t")):
                continue  # a nested item inside Retain continues its bullet
            passages += flush()
            if typed == "all" or ((retain_level or typed == "prefix") and _TYPED.match(line)):
                bullets += 1
                in_block = True
                continue
            free.append(_MARKER.sub("", line, count=1))
            in_block = True
            continue
        if in_block and not free:
            continue  # a continuation line of a typed bullet
        free.append(line)
        in_block = True
    passages += flush()
    return bullets, passages


def count_workspace(root: Path) -> tuple[int, int]:
    """(bullets, passages) over every ``.md`` file of a workspace (``.memory/`` excluded)."""
    bullets = passages = 0
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".memory/"):
            continue
        if rel in {"memory.md", "bank/world.md", "bank/experience.md", "bank/opinions.md"}:
            typed = "all"
        elif rel.startswith("bank/entities/"):
            typed = "prefix"
        else:
            typed = "retain"
        b, p = count_items(path.read_text(encoding="utf-8"), typed)
        bullets += b
        passages += p
    return bullets, passages


# ---------------------------------------------------------------------------------------------
# The world
# ---------------------------------------------------------------------------------------------


@dataclass(eq=False)
class Entity:
    """One person, place, project, org, tool or thing, and its state as the story unfolds."""

    name: str
    kind: str  # person | place | project | org | tool | thing
    sub: str  # person: owner/friend/colleague/family/contributor; place: city/house; ...
    aliases: list[str] = field(default_factory=list)
    #: Aliases that free text uses in place of the name ("Pete", "the castle").
    text_aliases: list[str] = field(default_factory=list)
    weight: float = 1.0
    pronoun: str = "they"
    #: A rename: the entity was called `old_name` before `renamed` (the name is the new one).
    old_name: str | None = None
    renamed: date | None = None
    # state
    home: Entity | None = None  # person: city; house/org: city; server: house
    employer: Entity | None = None
    job: str = ""
    team: str = ""
    role: str = ""  # relation to the owner: friend, sister, colleague, ...
    surname: str = ""
    owner: Entity | None = None  # project/house/thing/server: whose it is
    db: Entity | None = None  # project: its database
    host: Entity | None = None  # project: the server it runs on
    lang: str = ""
    settings: dict[str, int] = field(default_factory=dict)
    version: tuple[int, int, int] = (0, 1, 0)
    issue: int = 1
    runtime: str = "Docker"  # server
    port: int = 8080
    industry: str = ""
    species: str = ""
    busy_until: int = -1
    has_page: bool = True
    page_list: bool = False  # project pages: a config list under the description
    page_style: str = "aliases"  # aliases | yaml
    page_paras: int = 1
    history: list[tuple[date, str]] = field(default_factory=list)

    @property
    def slug(self) -> str:
        """The mention form of the current name: "The Castle" -> "The-Castle"."""
        return self.name.replace(" ", "-")

    def name_at(self, d: date) -> str:
        """The entity's name on day `d` (its old name before a rename)."""
        if self.old_name and self.renamed and d < self.renamed:
            return self.old_name
        return self.name

    def slug_at(self, d: date) -> str:
        """The ``@mention`` slug on day `d`."""
        return self.name_at(d).replace(" ", "-")

    @property
    def he(self) -> str:
        """Subject pronoun."""
        return self.pronoun

    @property
    def his(self) -> str:
        """Possessive pronoun."""
        return {"he": "his", "she": "her"}.get(self.pronoun, "their")

    @property
    def him(self) -> str:
        """Object pronoun."""
        return {"he": "him", "she": "her"}.get(self.pronoun, "them")

    def is_(self, verb_he: str, verb_they: str) -> str:
        """Verb agreement for the pronoun: is/are, has/have."""
        return verb_they if self.pronoun == "they" else verb_he


@dataclass(eq=False)
class Opinion:
    """A held opinion, its current statement, and where it was stated."""

    holder: Entity
    about: list[Entity]
    text: str
    confidence: float
    first: date
    evidence: list[date] = field(default_factory=list)
    #: What flips it: (W text saying it changed, the new opinion text); None: it only grows.
    flip: tuple[str, str] | None = None
    flipped: bool = False


@dataclass
class Topic:
    """One chunk of a day: an optional ``###`` title, blocks of free text, typed bullets."""

    title: str | None
    blocks: list[tuple[str, str]] = field(default_factory=list)  # (p|li|code|icode, text)
    bullets: list[str] = field(default_factory=list)
    #: Event topics keep their bullets and are never trimmed below two blocks.
    event: bool = False

    def p(self, text: str) -> Topic:
        """Add a paragraph."""
        self.blocks.append(("p", text))
        return self

    def li(self, *texts: str) -> Topic:
        """Add list items."""
        self.blocks.extend(("li", t) for t in texts)
        return self

    @property
    def size(self) -> int:
        """Items this topic will index (bullets not included)."""
        return len(self.blocks)


Step = Callable[[date], Topic]


class World:
    """The simulated world and the text generators that narrate it."""

    def __init__(self, rng: random.Random, n_entities: int, days: list[date]) -> None:
        self.rng = rng
        self.days = days
        self.entities: list[Entity] = []
        self._slugs: dict[str, Entity] = {}
        self.opinions: list[Opinion] = []
        self._opinion_keys: dict[tuple[object, ...], Opinion] = {}
        self.agenda: dict[int, list[Step]] = {}
        #: Log-day index of the owner's last move / job change (they are rare for the owner).
        self.owner_last: dict[str, int] = {}
        self.experience: list[tuple[date, str]] = []
        self.code_counter = rng.randint(10_000, 80_000)
        self._build(n_entities)

    # -- building --------------------------------------------------------------------------

    def _add(self, e: Entity) -> bool:
        key = _fold(e.name)
        if key in self._slugs or (e.old_name and _fold(e.old_name) in self._slugs):
            return False
        self._slugs[key] = e
        if e.old_name:
            self._slugs[_fold(e.old_name)] = e
        self.entities.append(e)
        return True

    def _build(self, n: int) -> None:
        rng = self.rng
        quotas = {
            "person": max(4, round(n * 0.40)),
            "place": max(3, round(n * 0.20)),
            "project": max(2, round(n * 0.11)),
            "org": max(2, round(n * 0.09)),
            "tool": max(4, round(n * 0.15)),
            "thing": max(1, round(n * 0.05)),
        }
        # places: a handful of houses/venues, the rest cities
        houses = list(HOUSES)
        rng.shuffle(houses)
        n_houses = min(len(houses), max(1, quotas["place"] // 6))
        for name, aliases in houses[:n_houses]:
            self._add(
                Entity(name, "place", "house", list(aliases), [a for a in aliases if a.islower()])
            )
        cities = list(CITIES)
        rng.shuffle(cities)
        for name, aliases in cities[: quotas["place"] - n_houses]:
            self._add(Entity(name, "place", "city", list(aliases), list(aliases[:1])))
        self.cities = [e for e in self.entities if e.sub == "city"]
        self.houses = [e for e in self.entities if e.sub == "house"]

        # people: the owner first
        names = [(f, "he") for f in FIRST_M] + [(f, "she") for f in FIRST_F]
        rng.shuffle(names)
        with_nick = [x for x in names if x[0] in NICKNAMES]
        owner_name, owner_pron = with_nick[0]
        names.remove((owner_name, owner_pron))
        people: list[tuple[str, str]] = [(owner_name, owner_pron), *names]
        roles = ["friend"] * 5 + ["colleague"] * 5 + ["family"] * 2 + ["contributor", "neighbour"]
        for i, (first, pron) in enumerate(people):
            if len([e for e in self.entities if e.kind == "person"]) >= quotas["person"]:
                break
            surname = rng.choice(SURNAMES).replace("-", " ")
            full = i > 0 and rng.random() < 0.2
            name = f"{first} {surname}" if full else first
            aliases: list[str] = []
            text_aliases: list[str] = []
            nick = NICKNAMES.get(first, ())
            if full:
                aliases.append(first)
                text_aliases.append(first)
            else:
                aliases.append(f"{first} {surname}")
                if rng.random() < 0.4:
                    text_aliases.append(f"{first} {surname}")
            aliases.extend(nick)
            text_aliases.extend(nick[:1])
            if rng.random() < 0.3:
                aliases.append(f"{first[0]}.{surname[0]}.")
            e = Entity(name, "person", "owner" if i == 0 else "", aliases, text_aliases)
            e.pronoun, e.surname = pron, surname
            if i > 0:
                e.role = rng.choice(roles)
                e.sub = e.role if e.role in {"friend", "colleague", "family"} else "other"
                if e.role == "family":
                    e.role = {"he": rng.choice(["brother", "cousin", "father"])}.get(
                        pron, rng.choice(["sister", "cousin", "mother"])
                    )
            if self._add(e) and i == 0:
                self.owner = e
        self.people = [e for e in self.entities if e.kind == "person"]

        # orgs
        orgs = list(ORGS)
        generated = [a + b for a in ORG_A for b in ORG_B]
        rng.shuffle(generated)
        rng.shuffle(orgs)
        pool = orgs + [(g, ()) for g in generated]
        count = 0
        for name, aliases in pool:
            if count >= quotas["org"]:
                break
            industry = rng.choice(INDUSTRIES)
            al = list(aliases) or [f"{name} {cap(industry)}"]
            e = Entity(name, "org", "company", al, [])
            e.industry = industry
            if self._add(e):
                count += 1
        self.orgs = [e for e in self.entities if e.kind == "org"]

        # tools: databases, servers, apps
        n_tools = quotas["tool"]
        n_db = max(2, min(len(DATABASES), n_tools // 4))
        dbs = [DATABASES[0], DATABASES[1], *rng.sample(DATABASES[2:], n_db - 2)]
        for name, aliases in dbs:
            e = Entity(name, "tool", "db", list(aliases), list(aliases[:1]))
            e.version = (rng.randint(3, 16), rng.randint(0, 9), rng.randint(0, 12))
            self._add(e)
        n_srv = max(1, min(len(SERVERS), n_tools // 5))
        servers = rng.sample(SERVERS, n_srv)
        old_names = list(OLD_SERVER_NAMES)
        rng.shuffle(old_names)
        for name in servers:
            e = Entity(name, "tool", "server", [], [])
            e.aliases = ["the home server"] if not self._by_sub("tool", "server") else []
            e.runtime = rng.choice(["Docker", "Docker", "systemd", "Kubernetes"])
            if old_names and rng.random() < 0.5:
                e.old_name = old_names.pop()
                e.aliases.insert(0, e.old_name)
                e.aliases.append("the NAS")
            self._add(e)
        apps = list(APPS)
        rng.shuffle(apps)
        for name, aliases in apps:
            if len([e for e in self.entities if e.kind == "tool"]) >= n_tools:
                break
            e = Entity(name, "tool", "app", list(aliases), list(aliases[-1:]))
            e.version = (rng.randint(0, 3), rng.randint(0, 20), rng.randint(0, 9))
            e.port = rng.choice([3000, 8000, 8080, 8096, 9000, 18789])
            self._add(e)
        self.dbs = self._by_sub("tool", "db")
        self.servers = self._by_sub("tool", "server")
        self.apps = self._by_sub("tool", "app")

        # projects
        combos = [(a, b) for a in PROJ_A for b in PROJ_B]
        rng.shuffle(combos)
        made = 0
        for a, b in combos:
            if made >= quotas["project"]:
                break
            e = Entity(a + b, "project", b, [f"the {b}", f"{a}-{b}"], [f"the {b}"])
            if self._add(e):
                made += 1
        self.projects = [e for e in self.entities if e.kind == "project"]

        # things: pets and gadgets
        things: list[Entity] = []
        for name, species in PETS:
            things.append(Entity(name, "thing", "pet", [], []))
            things[-1].species = species
        for name, what, aliases in GADGETS:
            things.append(Entity(name, "thing", "gadget", list(aliases), list(aliases[:1])))
            things[-1].species = what
        rng.shuffle(things)
        for e in things[: quotas["thing"]]:
            self._add(e)
        self.things = [e for e in self.entities if e.kind == "thing"]

        self._wire()

    def _by_sub(self, kind: str, sub: str) -> list[Entity]:
        return [e for e in self.entities if e.kind == kind and e.sub == sub]

    def _wire(self) -> None:
        """Initial state: homes, employers, databases, hosts, owners; popularity; pages."""
        rng = self.rng
        home = rng.choice(self.cities)
        self.owner.home = home
        self.owner.employer = rng.choice(self.orgs)
        self.owner.job, self.owner.team = rng.choice(JOBS[:5]), rng.choice(TEAMS)
        for p in self.people[1:]:
            near = p.sub in {"friend", "family", "colleague"} and rng.random() < 0.5
            p.home = home if near else rng.choice(self.cities)
            if p.sub == "colleague":
                p.employer = self.owner.employer
            elif rng.random() < 0.6:
                p.employer = rng.choice(self.orgs)
            p.job, p.team = rng.choice(JOBS), rng.choice(TEAMS)
        for h in self.houses:
            h.owner = rng.choice(self.people[1:] or self.people)
            h.home = rng.choice(self.cities)
        for o in self.orgs:
            o.home = rng.choice(self.cities)
        for s in self.servers:
            s.owner = self.owner
            s.home = rng.choice(self.houses) if self.houses else self.owner.home
        for pr in self.projects:
            pr.owner = self.owner if rng.random() < 0.7 else rng.choice(self.people)
            pr.db = self.dbs[0] if rng.random() < 0.5 else rng.choice(self.dbs)
            pr.host = rng.choice(self.servers)
            pr.lang = rng.choice(LANGS)
            keys = rng.sample(SETTING_KEYS, 3)
            pr.settings = {f"{pr.sub}.{k}": vals[0] for k, vals in keys}
            pr.version = (0, rng.randint(1, 4), 0)
            pr.issue = rng.randint(5, 120)
        for t in self.things:
            t.owner = self.owner if rng.random() < 0.4 else rng.choice(self.people)
        # popularity: Zipf within each kind, the owner above everyone
        by_kind: dict[str, list[Entity]] = {}
        for e in self.entities:
            by_kind.setdefault(e.kind, []).append(e)
        for group in by_kind.values():
            order = list(group)
            rng.shuffle(order)
            for rank, e in enumerate(order):
                e.weight = 1.0 / (rank + 1.5) ** 0.9
        self.owner.weight = 5.0
        self.owner.home.weight += 1.0
        # pages: most entities, in one of two styles
        for e in self.entities:
            e.has_page = e is self.owner or rng.random() < 0.85
            e.page_style = "yaml" if rng.random() < 0.45 else "aliases"
            e.page_paras = 1 if rng.random() < 0.6 else 2
            e.page_list = e.kind == "project" and rng.random() < 0.5
        self._cum: dict[str, tuple[list[Entity], list[float]]] = {}
        for kind, group in by_kind.items():
            self._cum[kind] = (group, list(itertools.accumulate(e.weight for e in group)))
        for sub_list, key in ((self.people[1:], "others"), (self.apps, "apps")):
            self._cum[key] = (sub_list, list(itertools.accumulate(e.weight for e in sub_list)))

    # -- picking ---------------------------------------------------------------------------

    def pick(self, kind: str, exclude: Sequence[Entity] = (), free_at: int | None = None) -> Entity:
        """A weighted random entity of `kind` ("person", ..., or "others"/"apps")."""
        group, cum = self._cum[kind]
        for _ in range(12):
            e = self.rng.choices(group, cum_weights=cum)[0]
            if e in exclude:
                continue
            if free_at is not None and e.busy_until >= free_at:
                continue
            return e
        candidates = [e for e in group if e not in exclude]
        return self.rng.choice(candidates or group)

    def other(self) -> Entity:
        """Someone other than the owner."""
        return self.pick("others")

    # -- naming ----------------------------------------------------------------------------

    def tn(self, e: Entity, d: date, alias: float = 0.25) -> str:
        """How free text names `e` on day `d`: the name, or now and then an alias."""
        name = e.name_at(d)
        if name != e.name:
            return name
        if e.sub == "house":
            return self.rng.choice(e.text_aliases or [name])
        if e.text_aliases and self.rng.random() < alias:
            return self.rng.choice(e.text_aliases)
        return name

    def first(self, e: Entity, d: date) -> str:
        """A person's everyday name in text (first name or nickname)."""
        if e.kind == "person" and " " in e.name and self.rng.random() < 0.7:
            return e.name.split(" ")[0]
        return self.tn(e, d)

    def bullet(
        self, prefix: str, ents: Sequence[Entity], text: str, d: date, c: float | None = None
    ) -> str:
        """A typed bullet ``W @A @B: text`` (without the list marker); counts mentions."""
        if prefix == "O" and c is not None:
            prefix = f"O(c={fmt_conf(c)})"
        slugs: list[str] = []
        for e in ents:
            s = e.slug_at(d)
            if s not in slugs:
                slugs.append(s)
        return f"{prefix} {' '.join('@' + s for s in slugs)}: {text}"

    def note_experience(self, d: date, text: str) -> None:
        """Remember a B bullet for bank/experience.md."""
        self.experience.append((d, text))

    # -- time ------------------------------------------------------------------------------

    def past(self, d: date, t: date) -> str:
        """A phrase for day `t` (before `d`) as written on day `d`."""
        rng = self.rng
        delta = (d - t).days
        wd = WEEKDAYS[t.weekday()]
        if delta <= 0:
            return rng.choice(["today", "this morning", "earlier today"])
        if delta == 1:
            return rng.choice(["yesterday", "yesterday evening", "last night", "yesterday"])
        if delta == 2:
            return rng.choice(["two days ago", "the day before yesterday"])
        if delta < 7 and t.weekday() < d.weekday():
            return rng.choice([f"on {wd}", f"on {wd}", f"this {wd}"])
        monday = d - timedelta(days=d.weekday())
        if monday - timedelta(days=7) <= t < monday:
            return rng.choice([f"last {wd}", f"last {wd}", f"on {wd}, {fmt_day(t)}"])
        if delta < 75:
            return rng.choice([f"on {fmt_day(t)}", f"on {fmt_day(t)}", f"on {wd}, {fmt_day(t)}"])
        if t.year == d.year:
            return f"in {MONTHS[t.month - 1]}"
        return rng.choice([f"in {MONTHS[t.month - 1]} {t.year}", f"on {fmt_full(t)}"])

    def future(self, d: date, t: date) -> str:
        """A phrase for day `t` (after `d`) as written on day `d`."""
        rng = self.rng
        delta = (t - d).days
        wd = WEEKDAYS[t.weekday()]
        if delta <= 0:
            return "today"
        if delta == 1:
            return rng.choice(["tomorrow", "tomorrow", "first thing tomorrow"])
        if delta < 7 and t.weekday() > d.weekday():
            return rng.choice([f"on {wd}", f"this {wd}", f"on {wd}, {fmt_day(t)}"])
        monday = d - timedelta(days=d.weekday()) + timedelta(days=7)
        if monday <= t < monday + timedelta(days=7):
            return rng.choice([f"next {wd}", f"next week, on {wd}", f"on {wd}, {fmt_day(t)}"])
        if delta < 120:
            return rng.choice([f"on {fmt_day(t)}", f"on {wd}, {fmt_day(t)}"])
        if t.year == d.year:
            return f"in {MONTHS[t.month - 1]}"
        return rng.choice([f"on {fmt_full(t)}", f"in {MONTHS[t.month - 1]} {t.year}"])

    def since(self, d: date) -> str:
        """A loose past anchor: 'since August', 'since last week', 'since 2017'."""
        rng = self.rng
        back = d - timedelta(days=rng.randint(20, 400))
        options = ["since last week", "since last month", f"since {MONTHS[back.month - 1]}"]
        if back.year < d.year:
            options.append(f"since {MONTHS[back.month - 1]} {back.year}")
        return rng.choice(options)

    def later(self, d: date) -> str:
        """A loose future anchor: 'next week', 'in two weeks', 'next month'."""
        return self.rng.choice(
            ["next week", "in two weeks", "next month", "later this week", "by the weekend"]
        )

    def clock(self, lo: int = 7, hi: int = 23) -> tuple[int, int]:
        """A random time of day."""
        return self.rng.randint(lo, hi - 1), self.rng.randint(0, 59)

    def chat(self, speaker: str, lines: Sequence[str], lo: int = 7, hi: int = 23) -> list[str]:
        """Chat lines ``HH:MM Name: text``; lines starting with ">" are the agent's ("me")."""
        h, m = self.clock(lo, hi)
        out = []
        for text in lines:
            who = "me" if text.startswith(">") else speaker
            out.append(f"{h:02d}:{m:02d} {who}: {text.lstrip('> ')}")
            m += self.rng.randint(0, 4)
            if m >= 60:
                h, m = min(h + 1, 23), m - 60
        return out

    def code(self) -> str:
        """A confirmation code: 'A-77812'."""
        self.code_counter += self.rng.randint(7, 900)
        return f"{self.rng.choice('ABCKMRTZ')}-{self.code_counter}"

    # -- scheduling ------------------------------------------------------------------------

    def schedule(self, index: int, step: Step) -> None:
        """Run `step` on the log day with this index (dropped when past the end)."""
        if 0 <= index < len(self.days):
            self.agenda.setdefault(index, []).append(step)

    def start_storyline(self, i: int, kind: str | None = None) -> None:
        """Start a storyline of changing facts at log day `i` (of `kind`, or a random one)."""
        starters: dict[str, tuple[float, Callable[[int], None]]] = {
            "move": (0.16, self.sl_move),
            "job": (0.12, self.sl_job),
            "db": (0.10, self.sl_db),
            "setting": (0.24, self.sl_setting),
            "runtime": (0.08, self.sl_runtime),
            "upgrade": (0.10, self.sl_upgrade),
            "trip": (0.10, self.sl_trip),
            "role": (0.06, self.sl_role),
            "rename": (0.04, self.sl_project_rename),
            "opinion": (0.0, self.sl_opinion),
        }
        if kind is None:
            names = list(starters)
            kind = self.rng.choices(names, weights=[starters[k][0] for k in names])[0]
        starters[kind][1](i)

    def sl_opinion(self, i: int) -> None:
        """An opinion stated on day `i` (and, maybe, restated or contradicted later)."""
        self.schedule(i, partial(self.new_opinion, i))

    def plan_renames(self) -> None:
        """Servers with an old name get renamed a third of the way into the log or later."""
        n = len(self.days)
        for s in self.servers:
            if not s.old_name:
                continue
            i = self.rng.randint(n // 4, max(n // 4, n * 4 // 5))
            if n < 8:
                s.aliases.remove(s.old_name)
                s.old_name = None
                continue
            s.renamed = self.days[i]
            self.schedule(i, partial(self.st_server_rename, s))

    # -- storylines: changing facts --------------------------------------------------------

    def _subject(self, what: str, i: int, owner_share: float) -> Entity:
        """Who a move or job change happens to: now and then the owner, at most every ~300 days."""
        if self.rng.random() < owner_share and i - self.owner_last.get(what, -(10**9)) > 300:
            if self.owner.busy_until < i:
                self.owner_last[what] = i
                return self.owner
        return self.pick("others", free_at=i)

    def sl_move(self, i: int) -> None:
        """Someone moves city: plan -> move ("moved to", "now lives in") -> settling in."""
        rng = self.rng
        p = self._subject("move", i, 0.25)
        if p.busy_until >= i:
            return
        dest = self.pick("place", exclude=[p.home] if p.home else [])
        if dest.sub != "city":
            dest = rng.choice([c for c in self.cities if c is not p.home] or self.cities)
        j = i + rng.randint(2, 12)
        if j >= len(self.days):
            return
        self.schedule(i, partial(self.st_move_plan, p, dest, self.days[j]))
        self.schedule(j, partial(self.st_move, p, dest))
        k = j + rng.randint(1, 8)
        self.schedule(k, partial(self.st_move_after, p, dest, self.days[j]))
        p.busy_until = k

    def st_move_plan(self, p: Entity, dest: Entity, when: date, d: date) -> Topic:
        rng = self.rng
        P, C = self.first(p, d), self.tn(dest, d)
        old = self.tn(p.home, d) if p.home else "the old place"
        fut = self.future(d, when)
        t = Topic(rng.choice([f"Moving to {dest.name}", "The move", possessive(P) + " move"]))
        t.event = True
        t.p(
            rng.choice(
                [
                    f"{P} has decided to move to {C}. The flight is {fut}; {p.he} has been looking at flats there {self.since(d)}.",
                    f"Boxes are arriving for {possessive(P)} move to {C}. The big day is {fut}.",
                    f"It is official: {P} is moving from {old} to {C} {fut}. We may need a second van if the bookshelf comes along.",
                ]
            )
        )
        t.li(
            f"Cancel the {old} internet contract (ref {self.code()})",
            f"Movers booked for {rng.randint(8, 30)} boxes plus the desk",
        )
        if p is self.owner:
            t.li(
                *self.chat(
                    P, [f"remind me {WEEKDAYS[when.weekday()].lower()} to cancel the {old} gym"]
                )
            )
        t.bullets.append(
            self.bullet(
                "W", [p, dest], f"{p.name} is moving to {dest.name} on {fmt_full(when)}.", d
            )
        )
        return t

    def st_move(self, p: Entity, dest: Entity, d: date) -> Topic:
        rng = self.rng
        old_e = p.home
        old = old_e.name if old_e else "the old place"
        p.home = dest
        p.history.append((d, f"moved from {old} to {dest.name}"))
        P, C = self.first(p, d), self.tn(dest, d)
        hood = rng.choice(NEIGHBOURHOODS)
        t = Topic(None if rng.random() < 0.5 else f"Moving day: {dest.name}", event=True)
        t.p(
            rng.choice(
                [
                    f"{P} moved to {C} today. Landed at {rng.randint(8, 21)}:{rng.choice(['05', '25', '40', '55'])}, keys picked up an hour later, and the flat in {hood} is smaller than the photos.",
                    f"Moving day. {P} now lives in {C}, in {hood}; {p.he} {p.is_('is', 'are')} no longer in {old}. The old flat was handed back this morning.",
                    f"{P} moved to {C}. The movers were two hours late and one box of plates did not survive, but {p.he} {p.is_('was', 'were')} in bed in {hood} by midnight.",
                ]
            )
        )
        helper = self.other()
        t.p(
            f"{self.first(helper, d)} helped carry boxes and stayed for dinner. {cap(p.his)} internet comes {self.future(d, d + timedelta(days=rng.randint(2, 6)))}."
        )
        t.li(
            "Post redirect from the old address: done",
            f"Deposit due within {rng.choice([14, 30])} days",
        )
        text = rng.choice(
            [
                f"{p.name} moved to {dest.name}; {p.he} rents a flat in {hood}.",
                f"{p.name} now lives in {dest.name} ({hood}); {p.he} {p.is_('is', 'are')} no longer in {old}.",
                f"{p.name} moved from {old} to {dest.name} on {fmt_full(d)}.",
            ]
        )
        t.bullets.append(self.bullet("W", [p, dest], text, d))
        return t

    def st_move_after(self, p: Entity, dest: Entity, moved: date, d: date) -> Topic:
        rng = self.rng
        P, C = self.first(p, d), self.tn(dest, d)
        t = Topic(rng.choice([f"Settling in {dest.name}", None, "Small things"]))
        t.p(
            rng.choice(
                [
                    f"{possessive(P)} first days in {C}: the move {self.past(d, moved)} still feels recent, and {p.he} keeps walking to the wrong bus stop.",
                    f"{P} now lives in {C} and, since the move {self.past(d, moved)}, has found a bakery, a gym and a bar with decent wifi.",
                    f"{P} now lives in {C} and says it is quieter than expected. The plants survived the move {self.past(d, moved)}; the desk lamp did not.",
                ]
            )
        )
        if rng.random() < 0.5:
            t.bullets.append(
                self.bullet(
                    "S", [p, dest], f"{p.name} is settling into {dest.name}; the move went fine.", d
                )
            )
        return t

    def sl_job(self, i: int) -> None:
        """Someone changes employer: interview -> offer and notice -> first day ("joined")."""
        rng = self.rng
        p = self._subject("job", i, 0.3)
        if p.busy_until >= i:
            return
        new = self.pick("org", exclude=[p.employer] if p.employer else [])
        a = i + rng.randint(4, 15)
        b = a + rng.randint(3, 12)
        if b >= len(self.days):
            return
        self.schedule(i, partial(self.st_interview, p, new, self.days[a]))
        self.schedule(a, partial(self.st_offer, p, new, self.days[b]))
        self.schedule(b, partial(self.st_joined, p, new))
        p.busy_until = b

    def st_interview(self, p: Entity, org: Entity, when: date, d: date) -> Topic:
        rng = self.rng
        P, who = self.first(p, d), self.tn(org, d)
        job = rng.choice(JOBS)
        t = Topic(f"{org.name} interview", event=True)
        t.p(
            rng.choice(
                [
                    f"{P} had a first interview with {who} ({org.industry}, {job}) this afternoon. It went well; the second round is {self.later(d)}.",
                    f"A recruiter from {who} wrote to {P} last week, and today was the call: {job}, {org.home.name if org.home else 'remote'}, a team of {rng.randint(4, 12)}.",
                ]
            )
        )
        if p.employer:
            t.p(
                f"Nobody at {self.tn(p.employer, d)} knows yet. {P} wants a decision {self.future(d, when)}."
            )
        t.bullets.append(
            self.bullet(
                "W",
                [p, org],
                f"{p.name} interviewed at {org.name} for {article(job)} {job} role.",
                d,
            )
        )
        return t

    def st_offer(self, p: Entity, org: Entity, start: date, d: date) -> Topic:
        rng = self.rng
        P, who = self.first(p, d), self.tn(org, d)
        t = Topic(None, event=True)
        last = start - timedelta(days=rng.randint(3, 5))
        if p.employer:
            t.p(
                f"{who} made an offer {self.past(d, d - timedelta(days=1))} and {P} accepted it this morning. {cap(p.he)} gave notice at {self.tn(p.employer, d)} right after: the last day there is {WEEKDAYS[last.weekday()]}, {fmt_day(last)}, and {p.he} {p.is_('starts', 'start')} at {who} {self.future(d, start)}."
            )
            t.bullets.append(
                self.bullet(
                    "W",
                    [p, p.employer],
                    f"{p.name} gave notice at {p.employer.name}; the last day is {fmt_full(last)}.",
                    d,
                )
            )
        else:
            t.p(
                f"{who} made an offer and {P} accepted. {cap(p.he)} {p.is_('starts', 'start')} {self.future(d, start)}."
            )
        t.bullets.append(
            self.bullet(
                "W",
                [p, org],
                f"{p.name} accepted {possessive(org.name)} offer; {p.he} {p.is_('starts', 'start')} on {fmt_full(start)}.",
                d,
            )
        )
        return t

    def st_joined(self, p: Entity, org: Entity, d: date) -> Topic:
        rng = self.rng
        old = p.employer
        p.employer, p.job, p.team = org, rng.choice(JOBS), rng.choice(TEAMS)
        p.history.append(
            (d, f"joined {org.name} as {p.job}" + (f" (left {old.name})" if old else ""))
        )
        P, who = self.first(p, d), self.tn(org, d)
        t = Topic(f"First day at {org.name}", event=True)
        t.p(
            f"First day at {who} for {P}. Onboarding calls from 9 to 5: laptop setup, security training, a welcome call with the {p.team} team."
        )
        t.li(
            f"The {who} stack is {rng.choice(LANGS)} plus a lot of {rng.choice(['Kafka', 'Postgres', 'YAML', 'Terraform'])}"
        )
        tail = f"; {p.he} no longer {p.is_('works', 'work')} at {old.name}" if old else ""
        t.bullets.append(
            self.bullet(
                "W",
                [p, org],
                f"{p.name} joined {org.name} on {fmt_full(d)} as {article(p.job)} {p.job}{tail}.",
                d,
            )
        )
        return t

    def sl_db(self, i: int) -> None:
        """A project switches database: trouble -> migration ("migrated to") -> follow-up."""
        rng = self.rng
        pr = self.pick("project", free_at=i)
        if pr.busy_until >= i or pr.db is None:
            return
        new = rng.choice([x for x in self.dbs if x is not pr.db])
        j = i + rng.randint(3, 20)
        if j >= len(self.days):
            return
        self.schedule(i, partial(self.st_db_trouble, pr, new))
        self.schedule(j, partial(self.st_db_migrate, pr, new))
        k = j + rng.randint(2, 25)
        self.schedule(k, partial(self.st_db_after, pr, new, self.days[j]))
        pr.busy_until = k

    def st_db_trouble(self, pr: Entity, new: Entity, d: date) -> Topic:
        rng = self.rng
        assert pr.db is not None
        X = self.tn(pr, d)
        err = DB_ERRORS.get(pr.db.name, rng.choice(ERRORS))
        t = Topic(f"{pr.name_at(d)} and {pr.db.name}", event=True)
        t.p(
            f"{cap(X)} fell over {rng.randint(2, 9)} times since {self.past(d, d - timedelta(days=1))}; every time the log ends in the same line:"
        )
        t.blocks.append(("icode", err))
        t.p(
            f"{pr.db.name} does not like {rng.randint(3, 12)} writers at once. We may need to move {pr.name_at(d)} to {new.name}; {self.first(pr.owner or self.owner, d)} wants to try it {self.later(d)}."
        )
        t.bullets.append(
            self.bullet(
                "W",
                [pr, pr.db],
                f"{pr.name_at(d)} keeps hitting `{err}`; moving to {new.name} is on the table.",
                d,
            )
        )
        return t

    def st_db_migrate(self, pr: Entity, new: Entity, d: date) -> Topic:
        rng = self.rng
        old = pr.db
        assert old is not None
        pr.db = new
        pr.history.append((d, f"switched from {old.name} to {new.name}"))
        X = pr.name_at(d)
        ver = ".".join(map(str, new.version[:2]))
        script = f"scripts/migrate_{_fold(old.name)}_to_{_fold(new.name)}.py"
        t = Topic(f"{X}: {old.name} → {new.name}", event=True)
        t.p(
            rng.choice(
                [
                    f"{X} migrated to {new.name} tonight. The copy took {rng.randint(4, 90)} minutes and nothing was lost.",
                    f"Big evening: we switched {X} from {old.name} to {new.name} {ver}.",
                ]
            )
        )
        t.li(
            f"Wrote `{script}`",
            f"{rng.randint(10, 900):,},{rng.randint(100, 999)} rows copied",
            f"`DATABASE_URL` now points at {new.name} on {pr.host.name_at(d) if pr.host else 'localhost'}",
        )
        t.bullets.append(
            self.bullet("W", [pr, new], f"{X} switched from {old.name} to {new.name} {ver}.", d)
        )
        b = f"I migrated {X} from {old.name} to {new.name} with `{script}`."
        t.bullets.append(self.bullet("B", [pr, new], b, d))
        self.note_experience(d, self.bullet("B", [pr, new], b, d))
        return t

    def st_db_after(self, pr: Entity, new: Entity, when: date, d: date) -> Topic:
        X = self.tn(pr, d)
        t = Topic(None)
        t.p(
            self.rng.choice(
                [
                    f"No lock errors on {X} since the migration {self.past(d, when)}. {new.name}-only storage from now on; the old code path can go.",
                    f"{cap(X)} has been on {new.name} since {fmt_day(when)} and the nightly backup is twice as fast.",
                ]
            )
        )
        return t

    def sl_setting(self, i: int) -> None:
        """A config value changes ("set relay.maxRetries to 8 (was 5)")."""
        pr = self.pick("project", free_at=i)
        if not pr.settings:
            return
        self.schedule(i, partial(self.st_setting, pr))

    def st_setting(self, pr: Entity, d: date) -> Topic:
        rng = self.rng
        key = rng.choice(sorted(pr.settings))
        old = pr.settings[key]
        name = key.split(".", 1)[1]
        choices = next(vals for k, vals in SETTING_KEYS if k == name)
        new = rng.choice([v for v in choices if v != old])
        pr.settings[key] = new
        pr.history.append((d, f"set {key} to {new} (was {old})"))
        X = pr.name_at(d)
        cfg = f"/etc/{X}/{pr.sub}.yaml"
        who = self.first(pr.owner or self.owner, d)
        t = Topic(rng.choice([f"{X} config", f"The {name} thing", X]), event=True)
        if rng.random() < 0.5:
            t.p(
                f"{cap(self.tn(pr, d))} was flaky again {self.past(d, d - timedelta(days=rng.randint(1, 3)))}. {who} wants it to try harder before giving up."
            )
            t.li(
                *self.chat(
                    who,
                    [
                        f"bump {name}. {new} is fine for now",
                        f"> done, {key} is {new} in {cfg}, restarted",
                    ],
                )
            )
        else:
            t.p(
                f"Set {key} to {new} (was {old}) in `{cfg}` and restarted {X}. {rng.choice(['Quiet since.', 'Watching it for a few days.', 'The graphs look calmer already.'])}"
            )
        t.bullets.append(self.bullet("W", [pr], f"Set {key} to {new} in `{cfg}` (was {old}).", d))
        return t

    def sl_runtime(self, i: int) -> None:
        """A server changes how it runs things ("moved everything off Docker")."""
        s = self.rng.choice(self.servers)
        if s.busy_until >= i:
            return
        self.schedule(i, partial(self.st_runtime, s))

    def st_runtime(self, s: Entity, d: date) -> Topic:
        rng = self.rng
        old = s.runtime
        new = rng.choice([r for r in ("Docker", "systemd", "Kubernetes") if r != old])
        s.runtime = new
        s.history.append((d, f"moved from {old} to {new}"))
        S, who = s.name_at(d), self.first(self.owner, d)
        how = {
            "systemd": "plain systemd units",
            "Docker": "Docker containers",
            "Kubernetes": "a single-node k3s cluster",
        }[new]
        t = Topic(f"Off {old}" if old == "Docker" else f"{S}: {new}", event=True)
        t.p(
            f"{who} moved everything off {old} on {S}: the services now run as {how}. {rng.choice(['The old setup had drifted from reality anyway.', 'It was a layer ' + self.owner.he + ' kept debugging instead of using.', 'Boot time went from two minutes to forty seconds.'])}"
        )
        t.li(
            "each service has a unit file under `/etc/systemd/system/`"
            if new == "systemd"
            else f"manifests live in `~/infra/{S}/`"
        )
        t.bullets.append(
            self.bullet(
                "W", [s], f"{who} moved everything off {old}; services on {S} now run as {how}.", d
            )
        )
        return t

    def st_server_rename(self, s: Entity, d: date) -> Topic:
        old, new = s.old_name or s.name, s.name
        s.history.append((d, f"renamed from {old} to {new}"))
        house = s.home.name if s.home else "home"
        dns = f"{new}.{_fold(house).split()[-1]}.lan"
        who = self.first(self.owner, d)
        t = Topic(f"{old} → {new}", event=True)
        t.p(f"{who} renamed the box to {new} (it was {old}); DNS is `{dns}` now.")
        t.li(
            "Updated `/etc/hosts` and the Tailscale machine name",
            f"the NAS is called {new} now; {old} no longer resolves",
        )
        t.bullets.append(f"W @{old} @{new}: {old} renamed to {new} (DNS `{dns}`).")
        b = f"I updated every config that pointed at {old} to use {new}."
        t.bullets.append(f"B @{old} @{new}: {b}")
        self.note_experience(d, self.bullet("B", [s], b, d))
        return t

    def sl_project_rename(self, i: int) -> None:
        """A project gets a new name ("renamed to")."""
        pr = self.pick("project", free_at=i)
        if pr.old_name or pr.busy_until >= i or i >= len(self.days):
            return
        names = [a + pr.sub for a in PROJ_A if _fold(a + pr.sub) not in self._slugs]
        if not names:
            return
        new = self.rng.choice(names)
        self._slugs.pop(_fold(pr.name), None)
        pr.old_name, pr.name, pr.renamed = pr.name, new, self.days[i]
        self._slugs[_fold(new)] = pr
        self._slugs[_fold(pr.old_name)] = pr
        pr.aliases.insert(0, pr.old_name)
        self.schedule(i, partial(self.st_project_rename, pr))
        pr.busy_until = i + 1

    def st_project_rename(self, pr: Entity, d: date) -> Topic:
        old, new = pr.old_name or pr.name, pr.name
        pr.history.append((d, f"renamed from {old} to {new}"))
        who = self.first(pr.owner or self.owner, d)
        t = Topic(f"{old} is now {new}", event=True)
        t.p(
            f"{who} renamed {old} to {new}: there was a name clash on the package index. The repo moved to `github.com/{_fold(who)}/{new}`."
        )
        t.bullets.append(f"W @{old} @{new}: {old} renamed to {new}; the repo is now `{new}`.")
        t.bullets.append(f"B @{old}: I updated the {old} paths and remotes to {new}.")
        return t

    def sl_upgrade(self, i: int) -> None:
        """An app is upgraded; sometimes its port changes ("now listens on 18789 instead of 8080")."""
        self.schedule(i, partial(self.st_upgrade, self.pick("apps")))

    def st_upgrade(self, a: Entity, d: date) -> Topic:
        rng = self.rng
        old_v = ".".join(map(str, a.version))
        major, minor, _ = a.version
        a.version = (
            (major + 1, 0, rng.randint(0, 3)) if rng.random() < 0.3 else (major, minor + 1, 0)
        )
        new_v = ".".join(map(str, a.version))
        s = rng.choice(self.servers)
        S = s.name_at(d)
        t = Topic(f"{a.name} {new_v}", event=True)
        t.li(f"{_fold(a.name).replace(' ', '-')} {old_v} → {new_v}")
        text = f"{a.name} on {S} was upgraded from {old_v} to {new_v}."
        if rng.random() < 0.4:
            old_p = a.port
            a.port = rng.choice([p for p in (3000, 8000, 8080, 8096, 9000, 18789) if p != old_p])
            t.li(f"The port changed: it now listens on {a.port} instead of {old_p}")
            t.li(
                *self.chat(
                    self.first(self.owner, d),
                    ["still there?", f"> yes, answering on {S}:{a.port}."],
                    18,
                    23,
                )
            )
            text = f"{a.name} was upgraded to {new_v}; it now listens on port {a.port} instead of {old_p}."
        a.history.append((d, text))
        t.bullets.append(self.bullet("W", [a, s], text, d))
        return t

    def sl_trip(self, i: int) -> None:
        """A trip: plan with a date range -> away -> back."""
        rng = self.rng
        p = self.owner if rng.random() < 0.6 else self.pick("person", free_at=i)
        if p.busy_until >= i:
            return
        dest = rng.choice([c for c in self.cities if c is not p.home] or self.cities)
        a = i + rng.randint(5, 30)
        length = rng.randint(3, 9)
        b = a + 1
        if b >= len(self.days):
            return
        go = self.days[a]
        back = go + timedelta(days=length)
        friend = self.other()
        self.schedule(i, partial(self.st_trip_plan, p, dest, friend, go, back))
        self.schedule(a, partial(self.st_trip_away, p, dest, friend, go, back))
        p.busy_until = a + 1

    def st_trip_plan(
        self, p: Entity, dest: Entity, friend: Entity, go: date, back: date, d: date
    ) -> Topic:
        rng = self.rng
        P, C, F = self.first(p, d), self.tn(dest, d), self.first(friend, d)
        t = Topic(f"Trip to {dest.name}", event=True)
        t.p(
            f"{P} booked the trip to {C}: {fmt_range(go, back)}, with {F}. Flight {self.future(d, go)} at {rng.randint(6, 21):02d}:{rng.choice(['05', '20', '35', '50'])}."
        )
        t.li(
            f"Save the booking to `trips/{_fold(dest.name).replace(' ', '-')}-{go.year}.md`",
            f"Passports: both valid until {d.year + rng.randint(2, 9)}",
        )
        t.bullets.append(
            self.bullet(
                "W",
                [p, dest],
                f"{p.name} travels to {dest.name} {fmt_range(go, back)} with {friend.name}.",
                d,
            )
        )
        return t

    def st_trip_away(
        self, p: Entity, dest: Entity, friend: Entity, go: date, back: date, d: date
    ) -> Topic:
        rng = self.rng
        P, C, F = self.first(p, d), self.tn(dest, d), self.first(friend, d)
        t = Topic(None, event=True)
        t.p(
            f"Landed in {C} at {rng.randint(8, 22)}:{rng.choice(['10', '20', '45'])}. {rng.choice(['Warm, loud, wonderful.', 'Cold and grey, but the food makes up for it.', 'The hotel is exactly as promised.'])} {F} found the rooftop bar within ten minutes."
        )
        t.li(*self.chat(P, ["anything on fire?", "> nothing. two lines max, as agreed."], 12, 22))
        t.bullets.append(
            self.bullet("W", [p, dest], f"Currently in {dest.name} ({fmt_range(go, back)}).", d)
        )
        return t

    def sl_role(self, i: int) -> None:
        """Someone gets promoted ("now leads the billing team")."""
        p = self.pick("others", free_at=i)
        if p.employer is None:
            return
        self.schedule(i, partial(self.st_role, p))

    def st_role(self, p: Entity, d: date) -> Topic:
        rng = self.rng
        assert p.employer is not None
        team = p.team or rng.choice(TEAMS)
        p.job = f"{team} team lead"
        p.history.append((d, f"became lead of the {team} team at {p.employer.name}"))
        P = self.first(p, d)
        t = Topic(None, event=True)
        t.p(
            f"News from {self.tn(p.employer, d)}: {P} leads the {team} team now, since the reorg {self.past(d, d - timedelta(days=rng.randint(8, 40)))}. {cap(p.he)} still {p.is_('reviews', 'review')} everything before 9."
        )
        t.bullets.append(
            self.bullet(
                "W", [p, p.employer], f"{p.name} now leads the {p.employer.name} {team} team.", d
            )
        )
        return t

    # -- opinions --------------------------------------------------------------------------

    def new_opinion(self, i: int, d: date) -> Topic:
        """An opinion: a new one (its reinforcement or contradiction scheduled for later),
        or, when the holder already has it, the old one restated with a new confidence."""
        rng = self.rng
        holder = self.owner if rng.random() < 0.5 else self.other()
        H = self.first(holder, d)
        r = rng.random()
        flip: tuple[str, str] | None = None
        key: tuple[object, ...]
        if r < 0.4:
            a, b = rng.choice(PAIRS)
            key = ("pair", holder, a)
            about = [holder]
            text = f"Prefers {a} over {b}."
            flip = (
                f"{holder.name} hates {a} now; {holder.he} {holder.is_('prefers', 'prefer')} {b}.",
                f"Prefers {b} over {a}.",
            )
            prose = f"{H} said, not for the first time, that {holder.he} would much rather have {a} than {b}. Noted."
        elif r < 0.6:
            tool, pr = self.pick("apps"), self.pick("project")
            key = ("tool", holder, tool, pr)
            about = [pr, tool] if holder is self.owner else [holder, pr, tool]
            text = f"{tool.name} is the right library for {pr.name_at(d)} despite the API churn."
            flip = (
                f"{holder.name} has given up on {tool.name}; {holder.he} no longer {holder.is_('thinks', 'think')} it is worth the churn.",
                f"{tool.name} is no longer worth it for {pr.name_at(d)}.",
            )
            prose = f"{H} grumbled about {tool.name} breaking things again, but said {holder.he} would still pick it for {self.tn(pr, d)}."
        elif r < 0.8:
            place = rng.choice(self.houses or self.cities)
            key = ("place", holder, place)
            about = [holder, place]
            text = f"Gets more focused work done at {self.tn(place, d)} than at the office."
            flip = None
            prose = f"{H} worked from {self.tn(place, d)} the whole day and got twice as much done as at the office."
        else:
            thing = rng.choice(self.apps + self.dbs)
            key = ("likes", holder, thing)
            about = [holder, thing]
            text = f"{holder.name} likes {thing.name}."
            flip = (
                f"{holder.name} no longer likes {thing.name}; {holder.he} finds it cluttered now.",
                f"{holder.name} finds {thing.name} cluttered.",
            )
            prose = f"{H} spent the evening with {self.tn(thing, d)} and said it is the best tool {holder.he} {holder.is_('has', 'have')} used in years."
        if (old := self._opinion_keys.get(key)) is not None:
            return self.restate(old, d)
        c = round(rng.uniform(0.5, 0.9), 2)
        op = Opinion(holder, about, text, c, d, [d], flip)
        self.opinions.append(op)
        self._opinion_keys[key] = op
        later = i + rng.randint(10, 250)
        if flip and rng.random() < 0.3:
            self.schedule(later, partial(self.st_contradict, op))
        elif rng.random() < 0.45:
            self.schedule(later, partial(self.st_reinforce, op))
        t = Topic(None)
        t.p(prose)
        t.bullets.append(self.bullet("O", about, text, d, c))
        return t

    def restate(self, op: Opinion, d: date) -> Topic:
        """An opinion said again, a little more or less sure than last time."""
        rng = self.rng
        op.confidence = round(min(0.99, max(0.3, op.confidence + rng.uniform(-0.1, 0.12))), 2)
        op.evidence.append(d)
        H = self.first(op.holder, d)
        t = Topic(None)
        t.p(
            f"{H} brought it up again, {rng.choice(['half joking', 'quite firmly', 'in passing', 'twice'])}: {op.text[:1].lower() + op.text[1:] if op.text.startswith('Prefers') else op.text}"
        )
        t.bullets.append(self.bullet("O", op.about, op.text, d, op.confidence))
        return t

    def st_reinforce(self, op: Opinion, d: date) -> Topic:
        op.confidence = min(0.99, round(op.confidence + self.rng.uniform(0.04, 0.15), 2))
        op.evidence.append(d)
        H = self.first(op.holder, d)
        t = Topic(None, event=True)
        t.p(
            f"Same as {self.past(d, op.first)}: {H} {self.rng.choice(['still feels the same', 'agrees more now than then', 'brought it up again unprompted'])}. {op.text}"
        )
        t.bullets.append(self.bullet("O", op.about, op.text, d, op.confidence))
        return t

    def st_contradict(self, op: Opinion, d: date) -> Topic:
        assert op.flip is not None
        changed, new_text = op.flip
        H = self.first(op.holder, d)
        t = Topic(None, event=True)
        t.p(
            f"{H} changed {op.holder.his} mind: {changed[len(op.holder.name) + 1 :] if changed.startswith(op.holder.name) else changed}"
        )
        t.bullets.append(self.bullet("W", [op.holder, *op.about], changed, d))
        op.text, op.flipped = new_text, True
        op.confidence = round(self.rng.uniform(0.7, 0.9), 2)
        op.evidence.append(d)
        t.bullets.append(self.bullet("O", op.about, new_text, d, op.confidence))
        return t

    # -- routine topics --------------------------------------------------------------------
    #
    # A routine topic is one subject (a project, a friend, a server, ...) narrated in parts;
    # parts are added in random order until the topic holds the items the day wants from it.

    def routine(self, i: int, d: date, kind: str, want: int) -> Topic:
        """An everyday topic of `kind` (see ROUTINE), about `want` items long."""
        makers: dict[str, Callable[[date], tuple[Topic, list[Callable[[Topic], None]]]]] = {
            "project": self.t_project,
            "work": self.t_work,
            "social": self.t_social,
            "server": self.t_server,
            "home": self.t_home,
            "health": self.t_health,
            "thing": self.t_thing,
            "reading": self.t_reading,
        }
        if kind == "opinion":
            return self.new_opinion(i, d)
        if kind == "foreign":
            return self.t_foreign(d)
        if kind == "chat":
            return self.t_chat(d)
        t, parts = makers[kind](d)
        self.rng.shuffle(parts)
        for part in parts:
            if t.size >= want and t.bullets:  # every topic offers at least one Retain fact
                break
            part(t)
        return t

    def t_project(self, d: date) -> tuple[Topic, list[Callable[[Topic], None]]]:
        rng = self.rng
        pr = self.pick("project")
        X, who = pr.name_at(d), self.first(pr.owner or self.owner, d)
        owner = pr.owner or self.owner
        t = Topic(rng.choice([X, f"{X} maintenance", f"{X} evening", f"The {pr.sub}"]))

        def bug(t: Topic) -> None:
            err = rng.choice(ERRORS)
            t.p(
                f"{cap(self.tn(pr, d))} dropped out {rng.randint(2, 6)} times overnight. Every time, the log ends in the same line:"
            )
            t.blocks.append(("icode", err))
            pr.issue += rng.randint(1, 6)
            t.li(
                f"Reproduced it on {rng.choice(self.servers).name_at(d)} in {rng.randint(3, 50)} minutes",
                f"Opened issue #{pr.issue} with the full stack trace ({rng.randint(20, 400)} lines)",
                f"Logs saved to `/var/log/{X}/error.log`",
            )
            b = f"I restarted {X} after `{err}` and opened issue #{pr.issue}."
            t.bullets.append(self.bullet("B", [pr], b, d))
            if rng.random() < 0.2:
                self.note_experience(d, t.bullets[-1])

        def release(t: Topic) -> None:
            major, minor, patch = pr.version
            r = rng.random()
            pr.version = (
                (major + 1, 0, 0)
                if r < 0.05
                else (major, minor + 1, 0)
                if r < 0.45
                else (major, minor, patch + 1)
            )
            v = "v" + ".".join(map(str, pr.version))
            feats = rng.sample(
                [
                    "retry backoff",
                    "a metrics endpoint",
                    f"{pr.db.name if pr.db else 'storage'} fixes",
                    "a new CLI flag",
                    f"the #{pr.issue} fix",
                    "faster startup",
                    "multi-device support",
                    "a dark mode nobody asked for",
                    "better logs",
                ],
                3,
            )
            t.p(f"{X} {v} is out. Highlights: {', '.join(feats)}.")
            t.li(
                f"Tagged {v} and pushed",
                f"Release notes for {v} in `CHANGELOG.md` ({rng.randint(3, 40)} entries)",
                f"Deployed {v} to {pr.host.name_at(d) if pr.host else 'the server'} at {rng.randint(18, 23)}:{rng.randint(10, 59)}",
            )
            t.bullets.append(self.bullet("W", [pr], f"{X} {v} released: {', '.join(feats)}.", d))

        def review(t: Topic) -> None:
            rev = self.other()
            R = self.first(rev, d)
            t.p(
                f"{R} reviewed the {X} PR that {who} opened {self.past(d, d - timedelta(days=rng.randint(1, 4)))} and left {rng.randint(3, 30)} comments, most of them right."
            )
            t.li(
                f"Fixed: {rng.choice(['rounding on VAT lines', 'a race in the reconnect loop', 'timezone handling in the scheduler', 'CSV encoding for Polish names', 'a leak in the websocket pool'])} ({possessive(R)} catch)",
                f"Open: {rng.choice(['flaky test on CI', 'the config migration', 'docs for the new flag'])}; {rev.he} will pair on it {self.future(d, d + timedelta(days=rng.randint(1, 6)))}",
            )
            t.bullets.append(
                self.bullet(
                    "S",
                    [rev, pr],
                    f"{rev.name} reviews {X} PRs carefully; {rev.he} found a real bug this time.",
                    d,
                )
            )

        def dep(t: Topic) -> None:
            dep = rng.choice(self.apps + self.dbs)
            v = ".".join(map(str, dep.version))
            t.p(
                f"{X} maintenance evening. {dep.name} {v} came out with a fix we needed, and {who} asked me to upgrade. I read the changelog so {owner.he} doesn't have to."
            )
            t.li(
                f"Pinned {dep.name} to {v} in `{rng.choice(['package.json', 'pyproject.toml', 'go.mod', 'Cargo.toml'])}`",
                f"Ran {X} against the test setup for an hour: no drops",
            )
            t.bullets.append(
                self.bullet(
                    "B",
                    [pr, dep],
                    f"I upgraded {X} to {dep.name} {v} and ran it for an hour without errors.",
                    d,
                )
            )

        def state(t: Topic) -> None:
            where = f" on {pr.host.name_at(d)}" if pr.host else ""
            db = (
                f"keeps its state in {pr.db.name} (`~/code/{X}/data/{X}.db`)"
                if pr.db
                else "keeps its state in flat files"
            )
            t.p(
                f"Quick state of {self.tn(pr, d)}, for my own notes: it is {possessive(owner.name)} {PROJ_B.get(pr.sub, 'side project')}, written in {pr.lang}, it {db} and runs{where}. {who} started it {self.past(d, d - timedelta(days=rng.randint(40, 700)))} as a weekend hack; it has quietly become the thing {owner.he} uses most."
            )

        def plan(t: Topic) -> None:
            t.p(f"{who} wrote down what {owner.he} wants from {X} next year:")
            host = pr.host.name_at(d) if pr.host else "the server"
            wishes = [
                "multi-device support without the QR dance",
                f"proper metrics (lag, reconnects) on {host}",
                f"revisit the {pr.db.name if pr.db else 'storage'} setup in {MONTHS[(d.month + rng.randint(1, 5)) % 12]}",
                f"a {pr.lang} rewrite of the {rng.choice(['scheduler', 'parser', 'sync loop', 'CLI'])}",
                f"cut startup time below {rng.randint(1, 9)} seconds",
                f"move CI off {rng.choice(['Travis', 'Jenkins', 'the old runner'])}",
                f"close the {rng.randint(5, 60)} oldest issues",
            ]
            t.li(*rng.sample(wishes, 3))
            t.bullets.append(
                self.bullet(
                    "W",
                    [pr],
                    f"{possessive(who)} plans for {X}: multi-device support, metrics, a storage review.",
                    d,
                )
            )

        def contrib(t: Topic) -> None:
            c = self.pick("others")
            pr.issue += 1
            t.p(
                f"{self.first(c, d)} opened a PR against {X} adding {rng.choice(['webhook retries', 'a Docker image', 'Windows support', 'a config linter', 'Prometheus metrics'])} (#{pr.issue}). CI is red on the {pr.lang} lint, nothing serious."
            )
            t.bullets.append(
                self.bullet("W", [c, pr], f"{c.name} contributed #{pr.issue} to {X}.", d)
            )

        def metrics(t: Topic) -> None:
            t.p(
                f"{X} handled {rng.randint(1, 900):,},{rng.randint(100, 999)} messages and {rng.randint(100, 4000):,} chats this week; p95 latency {rng.randint(40, 900)} ms."
            )

        def config(t: Topic) -> None:
            if pr.settings:
                key = rng.choice(sorted(pr.settings))
                t.li(
                    f"{key} is still {pr.settings[key]} in `/etc/{X}/{pr.sub}.yaml`; leaving it alone"
                )

        def check(t: Topic) -> None:
            t.li(
                *self.chat(
                    who,
                    [
                        f"can you check {X}? nothing came through since last night",
                        f"> {X} is up, reconnected at 0{rng.randint(1, 5)}:{rng.randint(10, 59)} and is healthy now.",
                        "ok good. leave it alone",
                    ],
                )
            )

        return t, [bug, release, review, dep, state, plan, contrib, metrics, config, check]

    def t_work(self, d: date) -> tuple[Topic, list[Callable[[Topic], None]]]:
        rng = self.rng
        o = self.owner
        org = o.employer or rng.choice(self.orgs)
        who, Org = self.first(o, d), self.tn(org, d)
        col = self.other()
        C = self.first(col, d)
        t = Topic(rng.choice([f"{org.name} day", "Work", org.name]))

        def tickets(t: Topic) -> None:
            t.p(
                f"{rng.choice([Org + ' day. ', '', 'Long day. ', 'Remote day. '])}{who} spent the morning on {o.team or 'team'} tickets ({rng.choice(['the export again', 'the quarterly report', 'an on-call follow-up', 'the API deprecation'])}) and the afternoon in meetings, which is not what {o.he} wanted to be doing."
            )
            t.li(
                f"Standup moves to {rng.choice(['9:30', '10:00', '10:15'])} from {self.future(d, d + timedelta(days=rng.randint(1, 7)))}",
                f"{C} is out {self.later(d)}",
            )
            t.bullets.append(
                self.bullet(
                    "W",
                    [o, org],
                    f"{o.name} owns the {rng.choice(['export', 'report', 'on-call rota', 'deploy pipeline'])} work at {org.name} this quarter.",
                    d,
                )
            )

        def deadline(t: Topic) -> None:
            t.p(
                f"Deadline for the {rng.choice(['migration', 'release', 'audit', 'launch'])} is {self.future(d, d + timedelta(days=rng.randint(3, 40)))}. {C} thinks it is tight; {who} thinks it is fine if nobody adds scope."
            )
            t.li(
                *self.chat(
                    who,
                    [
                        f"can you block {rng.choice(['Thursday', 'Friday', 'tomorrow'])} morning for deep work",
                        "> done, calendar blocked 9 to 12",
                    ],
                    8,
                    18,
                )
            )
            t.bullets.append(
                self.bullet(
                    "S",
                    [o, col],
                    f"{o.name} and {col.name} disagree about the deadline; {o.name} thinks it is fine.",
                    d,
                )
            )

        def oncall(t: Topic) -> None:
            t.p(
                f"On-call week. One page at {rng.randint(1, 5)}:{rng.randint(10, 59)} for `{rng.choice(ERRORS)}`; {who} fixed it in {rng.randint(5, 50)} minutes and went back to sleep."
            )
            t.bullets.append(
                self.bullet(
                    "B",
                    [o],
                    f"I wrote up the on-call page for {who} in `oncall/{d.isoformat()}.md`.",
                    d,
                )
            )

        def one_on_one(t: Topic) -> None:
            team = rng.choice(TEAMS)
            t.p(
                f"{C} and {who} had their 1:1. {cap(col.he)} {col.is_('wants', 'want')} to move to the {team} team {self.later(d)}, and asked {who} for a reference."
            )
            t.bullets.append(
                self.bullet(
                    "W",
                    [col, org],
                    f"{col.name} wants to move to the {team} team at {org.name}.",
                    d,
                )
            )

        def office(t: Topic) -> None:
            city = org.home.name if org.home else "town"
            t.p(
                f"Office day at {Org} in {city}: {rng.randint(4, 40)} people in, the coffee machine broken again, and a fire drill at {rng.randint(10, 16)}:00."
            )
            t.li(
                f"Desk booked {self.future(d, d + timedelta(days=rng.randint(1, 8)))}",
                f"Expense report for {MONTHS[(d.month - 2) % 12]} sent ({rng.randint(40, 900)} euros)",
            )

        def hiring(t: Topic) -> None:
            t.p(
                f"{Org} is hiring {rng.choice(['a backend engineer', 'an engineering manager', 'a product designer', 'a QA lead'])}; {who} did {rng.randint(2, 6)} interviews this week and liked one candidate a lot."
            )

        return t, [tickets, deadline, oncall, one_on_one, office, hiring]

    def t_social(self, d: date) -> tuple[Topic, list[Callable[[Topic], None]]]:
        rng = self.rng
        o, f = self.owner, self.other()
        who, F = self.first(o, d), self.first(f, d)
        where = rng.choice([*self.houses, f.home or o.home or self.cities[0]])
        W = self.tn(where, d)
        t = Topic(rng.choice([f.name, "Evening", "Weekend", None]))

        def dinner(t: Topic) -> None:
            if rng.random() < 0.3:
                t.p(f"Went to {W} with @{f.slug_at(d)} in the afternoon; {f.he} drove.")
            t.p(
                f'{F} came over for dinner. They ate at a tasca around the corner; {who} tried to order in Portuguese and got as far as "obrigado".'
            )
            t.p(
                f"{possessive(F)} {rng.choice(['new job', 'sister', 'renovation', 'marathon training', 'cat', 'band'])} was the main topic. {cap(f.he)} {f.is_('wants', 'want')} to meet again {self.later(d)}."
            )
            t.bullets.append(
                self.bullet(
                    "S",
                    [o, f],
                    f"{o.name} and {f.name} had dinner; they plan to meet again soon.",
                    d,
                )
            )

        def weekend(t: Topic) -> None:
            night = d + timedelta(days=rng.randint(3, 20))
            when = "Weekend" if d.weekday() >= 5 else f"{WEEKDAYS[d.weekday()]} evening"
            t.p(f"{when} at {W} with {F}. {rng.choice(WEATHER)}")
            t.li(
                f"{F} is organising a board-game night at {W} {self.future(d, night)}",
                f"{F} wants {rng.choice(SNACKS)} and {rng.choice(SNACKS)}; {rng.randint(3, 9)} people so far",
            )
            t.bullets.append(
                self.bullet(
                    "W",
                    [f, where],
                    f"{f.name} hosts a board-game night at {where.name} on {fmt_day(night)}.",
                    d,
                )
            )

        def call(t: Topic) -> None:
            t.p(
                f"{F} called twice today. {who} picked up both times; it was about {rng.choice(['the holiday plans', possessive(F) + ' birthday', 'a flat viewing', 'a broken bike'])}."
            )
            t.li(
                *self.chat(
                    F,
                    [
                        f"tell {who} the thing is {self.future(d, d + timedelta(days=rng.randint(1, 6)))}",
                        f"> passed on. {cap(o.he)} says yes.",
                    ],
                    9,
                    22,
                )
            )
            if f.home:
                t.bullets.append(
                    self.bullet("W", [f, f.home], f"{f.name} lives in {f.home.name}.", d)
                )

        def birthday(t: Topic) -> None:
            age = rng.randint(25, 70)
            t.p(
                f"{possessive(F)} birthday: {f.he} turned {age} {self.past(d, d - timedelta(days=rng.randint(0, 3)))}, pretended not to care, and then teared up at the cake."
            )
            t.bullets.append(
                self.bullet(
                    "W", [f], f"{f.name} turned {age} in {MONTHS[d.month - 1]} {d.year}.", d
                )
            )

        def favour(t: Topic) -> None:
            t.p(
                f"{F} asked {who} for help with {rng.choice(['a leaking tap', 'moving a sofa', 'a CV', 'the tax return', 'a wedding speech'])}; {who} said yes for {self.future(d, d + timedelta(days=rng.randint(1, 10)))}."
            )

        def news(t: Topic) -> None:
            t.li(
                f"{F} sent {rng.randint(2, 14)} photos of {rng.choice(['the garden', 'the new flat', 'a very small dog', 'a sunset', 'the renovation'])}",
                f"{F} {f.is_('has', 'have')} been {rng.choice(['thinking about a new job', 'learning Portuguese', 'training for a half marathon', 'renovating the kitchen', 'volunteering at the food bank', 'playing in a band'])} {self.since(d)}",
            )

        return t, [dinner, weekend, call, birthday, favour, news]

    def t_server(self, d: date) -> tuple[Topic, list[Callable[[Topic], None]]]:
        rng = self.rng
        s = rng.choice(self.servers)
        S, who = s.name_at(d), self.first(self.owner, d)
        t = Topic(S)
        n = rng.randint(3, 14)

        def maint(t: Topic) -> None:
            names = ", ".join(
                x.name_at(d) for x in rng.sample(self.projects, min(2, len(self.projects)))
            )
            t.p(
                f"{who} spent {rng.choice(['an hour', 'two hours', 'the evening'])} with {S}{' in ' + self.tn(s.home, d) if s.home else ''}. Everything on it runs in {s.runtime}: {names}, the backups."
            )
            t.li(
                rng.choice(
                    [
                        f"Replaced a case fan that sounded like a {rng.choice(['moped', 'hair dryer', 'small plane'])}",
                        f"Swapped disk {rng.randint(1, 4)} (SMART errors, serial WX{rng.randint(10**7, 10**8 - 1)})",
                        f"Cleaned up {rng.randint(5, 90)} old snapshots ({rng.randint(20, 900)} GB)",
                    ]
                ),
                f"all {n} services healthy; disk at {rng.randint(40, 95)}% of {rng.choice(['2', '3.1', '4', '8'])} TB",
            )
            t.bullets.append(
                self.bullet("B", [s], f"I checked all {n} services on {S}; all healthy.", d)
            )

        def uptime(t: Topic) -> None:
            t.blocks.append(
                (
                    "code",
                    f"$ ssh {S} uptime\n {rng.randint(10, 23)}:{rng.randint(10, 59)}:01 up {rng.randint(2, 300)} days,  load average: 0.{rng.randint(10, 99)}",
                )
            )

        def backup(t: Topic) -> None:
            t.li(
                f"Nightly backup of {S} to the offsite disk: {rng.randint(20, 300)} GB in {rng.randint(1, 5)}h{rng.randint(10, 59)}m",
                f"Restore test of `/srv/{rng.choice(['photos', 'mail', 'db', 'music', 'paperless'])}`: {rng.randint(100, 90000):,} files OK",
            )
            t.bullets.append(
                self.bullet(
                    "B", [s], f"I verified the nightly backup of {S} with a restore test.", d
                )
            )

        def alert(t: Topic) -> None:
            t.p(
                f"{S} paged at {rng.randint(0, 6)}:{rng.randint(10, 59)} with `ENOSPC: no space left on device`. Old logs under `/var/log/journal` were {rng.randint(8, 90)} GB; vacuumed to 2 GB."
            )

        def network(t: Topic) -> None:
            host = f"{S}.{_fold(s.home.name).split()[-1] if s.home else 'home'}.lan"
            t.li(
                f"`{host}` resolves again after the router reboot",
                f"Tailscale on {S}: {rng.choice(['updated', 'reauthenticated', 'fine'])}",
            )

        return t, [maint, uptime, backup, alert, network]

    def t_home(self, d: date) -> tuple[Topic, list[Callable[[Topic], None]]]:
        rng = self.rng
        o = self.owner
        who = self.first(o, d)
        t = Topic(rng.choice(["Errands", "Admin", "Home"]))

        def chores(t: Topic) -> None:
            code = self.code()
            chore = rng.choice(CHORES)
            t.li(
                f"{upper_first(chore)}: done (confirmation {code})",
                f"{rng.choice(['Paid', 'Disputed', 'Split'])} the {rng.choice(['electricity', 'water', 'phone', 'internet'])} bill ({rng.randint(18, 140)} euros)",
            )
            t.bullets.append(
                self.bullet("B", [o], f'I handled "{chore}" for {who} (confirmation {code}).', d)
            )

        def remind(t: Topic) -> None:
            t.li(
                *self.chat(
                    who,
                    [
                        f"remind me {rng.choice(['thursday', 'friday', 'monday', 'tomorrow'])} to {rng.choice(CHORES)}"
                    ],
                    8,
                    22,
                )
            )

        def table(t: Topic) -> None:
            place = (
                self.tn(rng.choice(self.houses), d)
                if self.houses and rng.random() < 0.3
                else "the usual place"
            )
            t.li(
                f"Booked a table at {place}, {self.future(d, d + timedelta(days=rng.randint(1, 9)))}"
            )

        def flat(t: Topic) -> None:
            t.p(
                f"The {rng.choice(['boiler', 'washing machine', 'router', 'fridge'])} {rng.choice(['died', 'made a new noise', 'needs a technician'])}. The landlord says someone comes {self.later(d)}; {who} is not holding {o.his} breath."
            )

        def cook(t: Topic) -> None:
            t.p(f"Cooked {rng.choice(FOODS)}; saved the recipe to `recipes/{d.isoformat()}.md`.")

        return t, [chores, remind, table, flat, cook]

    def t_health(self, d: date) -> tuple[Topic, list[Callable[[Topic], None]]]:
        rng = self.rng
        o = self.owner
        who = self.first(o, d)
        t = Topic(rng.choice(["Health", "Gym", None]))

        def dentist(t: Topic) -> None:
            appt = d + timedelta(days=rng.randint(2, 30))
            t.p(
                f"{who} has a dentist appointment {self.future(d, appt)} at {rng.randint(8, 17)}:{rng.choice(['00', '30'])}. {cap(o.he)} {o.is_('was', 'were')} not thrilled."
            )
            t.bullets.append(self.bullet("W", [o], f"Dentist appointment on {fmt_full(appt)}.", d))

        def run(t: Topic) -> None:
            km = rng.randint(4, 21)
            t.p(
                f"Ran {km} km along the river before work. {rng.choice(['No sun, no wind, perfect.', 'Knee is fine now.', 'Slowest run in a month, and happy about it.'])}"
            )
            t.bullets.append(self.bullet("B", [o], f"I logged {possessive(who)} {km} km run.", d))

        def gym(t: Topic) -> None:
            t.li(
                f"Gym on {WEEKDAYS[d.weekday()]}: {rng.choice(['legs', 'back and shoulders', 'a spin class', 'swimming', 'yoga'])}, {rng.randint(30, 90)} minutes",
                f"Sleep: {rng.randint(5, 8)}h{rng.choice(['00', '15', '30', '45'])} average this week",
            )

        return t, [dentist, run, gym]

    def t_thing(self, d: date) -> tuple[Topic, list[Callable[[Topic], None]]]:
        rng = self.rng
        th = rng.choice(self.things)
        T = self.tn(th, d)
        ow = th.owner or self.owner
        W = self.first(ow, d)
        t = Topic(None)

        def news(t: Topic) -> None:
            if th.sub == "pet":
                t.p(
                    f"{T} ({possessive(W)} {th.species}) {rng.choice(['knocked a plant off the windowsill again', 'has won the negotiation with the dog next door', 'needs the vet ' + self.later(d), 'caused eleven photos worth of chaos before 8 am'])}."
                )
                t.bullets.append(
                    self.bullet(
                        "W", [th, ow], f"{th.name} is {possessive(ow.name)} {th.species}.", d
                    )
                )
            else:
                t.p(
                    f"{cap(T)} {rng.choice(['has not left the garage in weeks', 'needs a repair', 'passed its inspection', 'is back from the repair shop'])}. {W} says {ow.he} will {rng.choice(['use it more', 'sell it', 'fix it properly'])} {self.later(d)}."
                )
                t.bullets.append(
                    self.bullet(
                        "W",
                        [th, ow],
                        f"{possessive(ow.name)} {th.species} {th.name} {rng.choice(['needs a repair', 'is back from repair', 'is mostly unused'])}.",
                        d,
                    )
                )

        def more(t: Topic) -> None:
            t.li(
                f"{possessive(cap(T))} {rng.choice(['food', 'insurance', 'service', 'check-up'])} is due {self.future(d, d + timedelta(days=rng.randint(3, 60)))}"
            )

        return t, [news, more]

    def t_reading(self, d: date) -> tuple[Topic, list[Callable[[Topic], None]]]:
        rng = self.rng
        o = self.owner
        who = self.first(o, d)
        book = rng.choice(BOOKS)
        t = Topic(rng.choice(["Reading", "Evening", None]))

        def read(t: Topic) -> None:
            t.p(
                f"{who} read {rng.randint(20, 120)} pages of *{book}*. {rng.choice(['Slow going but worth it.', 'Better than the reviews said.', f'{cap(o.he)} wants to talk about it with someone.'])}"
            )
            t.bullets.append(self.bullet("W", [o], f"{o.name} is reading {book}.", d))

        def quote(t: Topic) -> None:
            t.li(
                f"Finish *{book}* by {MONTHS[(d.month) % 12]}",
                f"Next: *{rng.choice([b for b in BOOKS if b != book])}*",
            )

        return t, [read, quote]

    def t_chat(self, d: date) -> Topic:
        """A loose WhatsApp exchange with the agent."""
        rng = self.rng
        o = self.owner
        who = self.first(o, d)
        pr = self.pick("project")
        X = pr.name_at(d)
        t = Topic(None)
        lines = rng.choice(
            [
                [
                    f"summary of today pls. {rng.choice(['three', 'two'])} lines",
                    f"> {X} fine. {rng.randint(1, 9)} messages from {self.first(self.other(), d)}. nothing urgent.",
                    "perfect",
                ],
                [
                    f"what was the {rng.choice(['wifi password', 'booking code', 'ticket number'])} again?",
                    f"> {self.code()}, it's in `notes/{d.year}.md`.",
                    "thx",
                ],
                ["is it fixed? don't tell me details", "> fixed. details in a file."],
            ]
        )
        t.li(*self.chat(who, lines, 7, 23))
        t.p(
            rng.choice(
                [
                    f"Noted, once more: {who} reads me on the phone, so short answers ({rng.randint(400, 2500)} characters was too long).",
                    f"{who} was in a hurry all day ({rng.choice(['meetings', 'a deadline', 'a train', 'guests'])}); replies kept to two lines.",
                    f"Quiet otherwise: {rng.randint(2, 30)} messages, none urgent.",
                ]
            )
        )
        if rng.random() < 0.5:
            t.bullets.append(
                self.bullet("B", [o, pr], f"I checked {X} for {who}; it was healthy.", d)
            )
        return t

    def t_foreign(self, d: date) -> Topic:
        """A paragraph in another language (French, Portuguese, German, Spanish, Chinese)."""
        rng = self.rng
        o, f = self.owner, self.other()
        who, F = self.first(o, d), self.first(f, d)
        C = self.tn(rng.choice(self.cities), d)
        monate = [
            "Januar",
            "Februar",
            "März",
            "April",
            "Mai",
            "Juni",
            "Juli",
            "August",
            "September",
            "Oktober",
            "November",
            "Dezember",
        ]
        t = Topic(None)
        t.p(
            rng.choice(
                [
                    f"Le matin, {who} a fait un tour au marché de {C} ; {'elle' if o.pronoun == 'she' else 'il'} a acheté {rng.randint(2, 5)} kilos de tomates pour {rng.randint(4, 12)} euros. Le soir, dîner avec {F}.",
                    f"O {who} passou a tarde em {C} com {F}; jantaram numa tasca perto do rio e só voltaram depois da meia-noite.",
                    f"{who} hat heute mit {F} telefoniert; das Treffen in {C} ist jetzt am {d.day}. {monate[d.month - 1]}.",
                    f"{who} y {F} cenaron en {C}; la reserva era a las {rng.randint(19, 22)}:{rng.choice(['00', '30'])} y llegaron tarde.",
                    f"{F}（{C}的一位开发者）在 GitHub 上报告了一个问题，编号 #{rng.randint(100, 999)}。我在测试号上复现了。",
                ]
            )
        )
        t.bullets.append(self.bullet("S", [o, f], f"{o.name} and {f.name} were in touch ({C}).", d))
        return t

    def small_item(self, d: date, r: int) -> str:
        """One short, self-contained list item of flavour `r` (0-9)."""
        rng = self.rng
        if r == 0:
            return f"Paid the {rng.choice(['electricity', 'water', 'gas'])} bill ({rng.randint(18, 140)} euros)"
        if r == 1:
            return f"Reminder set: {rng.choice(CHORES)}, {self.future(d, d + timedelta(days=rng.randint(1, 20)))}"
        if r == 2:
            return f"{self.first(self.other(), d)} sent {rng.randint(2, 14)} photos of {rng.choice(['the garden', 'the new flat', 'a very small dog', 'a sunset'])}"
        if r == 3:
            return f"Backups on {rng.choice(self.servers).name_at(d)} finished in {rng.randint(5, 180)} minutes"
        if r == 4:
            return f"Renewed the domain for {self.pick('project').name_at(d)} until {d.year + rng.randint(1, 5)}"
        if r == 5:
            return f"Parcel arrived (tracking {self.code()})"
        if r == 6:
            return f"{rng.choice(self.apps).name} asked for an update again; I will do it {self.later(d)}"
        if r == 7:
            return f"Watered the plants; {rng.choice(['the basil', 'the lemon tree', 'the cactus', 'the monstera', 'the tomatoes', 'the orchid'])} {rng.choice(['is dying', 'has two new leaves', 'is thriving', 'needs a bigger pot'])}"
        if r == 8:
            return f"{upper_first(rng.choice(['no', 'some', 'too much']))} sun today; {rng.randint(4, 33)} °C"
        return f"{rng.choice(['Booked', 'Moved', 'Cancelled'])} the {rng.choice(['haircut', 'car service', 'call with the bank', 'plumber'])}: {self.future(d, d + timedelta(days=rng.randint(1, 14)))}"

    def t_small(self, d: date, n: int) -> Topic:
        """A 'Small things' list of `n` items, no two of the same flavour in a row of ten."""
        t = Topic(self.rng.choice(["Small things", "Misc", "Odds and ends"]))
        flavours: list[int] = []
        while len(flavours) < n:
            flavours += self.rng.sample(range(10), 10)
        t.li(*(self.small_item(d, r) for r in flavours[:n]))
        return t

    def intro(self, d: date) -> str:
        """A one-paragraph opening for a day."""
        rng = self.rng
        who = self.first(self.owner, d)
        return rng.choice(
            [
                f"{WEEKDAYS[d.weekday()]}. {rng.choice(['Quiet day.', 'Busy day.', 'Back into the routine.', 'A slow start.'])} {who} {rng.choice(['spent the morning on email', 'was out most of the afternoon', 'worked from home', 'had back-to-back calls'])}.",
                f"{rng.choice(['Rain all day.', 'Sunny and cold.', 'Grey morning, bright evening.', 'Too hot to think.'])} {who} {rng.choice(['stayed in', 'went for a long walk', 'cleared the inbox', 'tidied the flat'])}.",
                f"Short log today; {who} was {rng.choice(['travelling', 'offline most of the day', 'with family', 'deep in a bug'])} and sent {rng.randint(1, 12)} messages in total.",
            ]
        )


def _fold(name: str) -> str:
    """Lower-case ASCII-ish key of a name ("São Paulo" -> "sao paulo"), for uniqueness checks."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


# ---------------------------------------------------------------------------------------------
# Days
# ---------------------------------------------------------------------------------------------


def _trim(topics: list[Topic], budget: int) -> None:
    """Cut blocks from the back until the topics hold `budget` items (events keep two)."""
    total = sum(t.size for t in topics)
    for t in reversed(topics):
        keep = 2 if t.event else 1
        while total > budget and t.size > keep:
            t.blocks.pop()
            total -= 1
    while total > budget:
        # Drop whole topics, those that offer no Retain fact first.
        victims = [t for t in topics if not t.event and not t.bullets] or [
            t for t in topics if not t.event
        ]
        if not victims:
            break
        total -= victims[-1].size
        topics.remove(victims[-1])
    # A paragraph that introduces what was cut ("... the same line:") goes too.
    for t in list(topics):
        while t.blocks and t.blocks[-1][0] == "p" and t.blocks[-1][1].endswith(":"):
            t.blocks.pop()
        if not t.blocks:
            topics.remove(t)


def render_day(world: World, i: int, d: date, budget: int) -> Doc:
    """The daily log for log day `i`, holding about `budget` items."""
    rng = world.rng
    events = [step(d) for step in world.agenda.pop(i, [])]
    event_bullets = [b for t in events for b in t.bullets]
    if not event_bullets and rng.random() < 0.08:
        n_bullets = 0
    else:
        n_bullets = max(min(5, len(event_bullets)), rng.choice([1, 2, 2, 3, 3, 4, 5]))
    n_bullets = min(n_bullets, max(0 if not event_bullets else 1, budget - 1))
    free = max(1, budget - n_bullets)
    topics = list(events)
    intro: Topic | None = None
    if rng.random() < 0.55 and free - sum(t.size for t in topics) >= 4:
        intro = Topic(None).p(world.intro(d))
        topics.insert(0, intro)
    rest = free - sum(t.size for t in topics)
    if rest > 0:
        # Enough topics to offer the planned Retain facts, each a few items long.
        n_topics = round(rest / rng.uniform(2.5, 5.5))
        n_topics = max(1, min(7, rest, max(n_topics, n_bullets - len(event_bullets))))
        kinds = list(ROUTINE)
        weights = [ROUTINE[k] for k in kinds]
        for _ in range(min(n_topics, len(kinds))):
            k = rng.choices(range(len(kinds)), weights=weights)[0]
            kind = kinds.pop(k)
            weights.pop(k)
            topics.append(world.routine(i, d, kind, max(1, rest // n_topics)))
    _trim(topics, free)

    bullets = list(event_bullets[:5])
    pool = [b for t in topics if not t.event for b in t.bullets]
    rng.shuffle(pool)
    for b in pool:
        if len(bullets) >= n_bullets:
            break
        bullets.append(b)
    # Too little text, or too few facts for the planned bullets: a list of small things
    # keeps the day at its size.
    filler = free - sum(t.size for t in topics) + n_bullets - len(bullets)
    if filler > 0:
        topics.append(world.t_small(d, filler))

    doc = Doc()
    doc.heading(1, f"{d.isoformat()} ({WEEKDAYS[d.weekday()]})")
    # Untitled topics go first (intro, loose paragraphs), titled ones become ### sections.
    untitled = [t for t in topics if t.title is None]
    titled = [t for t in topics if t.title is not None]
    seen_titles: list[str] = []
    for t in [*untitled, *titled]:
        if t.title is not None:
            title = t.title
            if title in seen_titles:
                title += f" ({seen_titles.count(title) + 1})"
            seen_titles.append(t.title)
            doc.heading(3, title, tight=rng.random() < 0.5 and t.blocks[0][0] == "p")
        _emit_blocks(doc, t.blocks)

    if bullets:
        r = rng.random()
        heading = (
            "Retain"
            if r < 0.985
            else ("Retenir" if r < 0.99 else ("Reter" if r < 0.995 else "保留"))
        )
        doc.heading(2, heading, tight=True)
        if rng.random() < 0.1:  # a continuation line on the last bullet
            bullets[-1] += (
                f"\nContext: see the notes above; {rng.choice(['confirmed twice', 'not yet verified', 'as discussed'])}."
            )
        doc.items(bullets, typed=True)
    return doc


def _emit_blocks(doc: Doc, blocks: list[tuple[str, str]]) -> None:
    """Write blocks, grouping consecutive list items into one list."""
    run: list[str] = []
    for kind, text in blocks:
        if kind == "li":
            run.append(text)
            continue
        if run:
            doc.items(run)
            run = []
        if kind == "p":
            doc.para(text)
        elif kind == "icode":
            doc.code(text.split("\n"), fenced=False)
        else:
            doc.code(text.split("\n"), fenced=True)
    if run:
        doc.items(run)


# ---------------------------------------------------------------------------------------------
# Bank, core and entity pages
# ---------------------------------------------------------------------------------------------


def entity_page(world: World, e: Entity, end: date) -> Doc:
    """``bank/entities/<Name>.md``: a heading, aliases and kind, then a short description."""
    doc = Doc()
    aliases = ", ".join(e.aliases)
    if e.page_style == "yaml":
        doc.raw("---")
        if e.aliases:
            doc.raw(f"aliases: [{aliases}]")
        doc.raw(f"kind: {e.kind}", "---", tight=True)
        doc.heading(1, e.name)
    else:
        doc.heading(1, e.name, tight=True)
        doc.para("\n".join([*([f"Aliases: {aliases}"] if e.aliases else []), f"Kind: {e.kind}"]))
    paras = _describe(world, e, end)
    for text in paras[: e.page_paras]:
        doc.para(text)
    if e.page_list:
        doc.items(
            [
                f"Config: `/etc/{e.name}/{e.sub}.yaml`",
                *(f"`{k}` = {v}" for k, v in e.settings.items()),
            ]
        )
    return doc


def _describe(world: World, e: Entity, end: date) -> list[str]:
    """One or two paragraphs describing `e` as of `end`, from its state and history."""
    o = world.owner
    hist = "; ".join(f"{text.rstrip('.')} on {fmt_full(d)}" for d, text in e.history[-4:])
    tail = f" History: {hist}." if hist else ""
    if e.kind == "person":
        if e is o:
            first = f"{e.name} is the human I work for: {article(e.job or 'developer')} {e.job or 'developer'}{' at ' + e.employer.name if e.employer else ''}, living in {e.home.name if e.home else 'town'}."
        else:
            paper = "" if " " in e.name else f" ({e.name} {e.surname} on paper)"
            first = (
                f"{e.name}{paper} is {possessive(o.name)} {e.role or 'acquaintance'}. {cap(e.he)} {e.is_('lives', 'live')} in {e.home.name if e.home else 'town'}"
                + (
                    f" and {e.is_('works', 'work')} at {e.employer.name} as {article(e.job)} {e.job}."
                    if e.employer
                    else "."
                )
            )
        second = (
            f"{cap(e.he)} {e.is_('has', 'have')} been around since the start of these notes.{tail}"
        )
        return [first, second]
    if e.kind == "place":
        if e.sub == "house":
            owner = e.owner.name if e.owner else "a friend"
            first = f"{possessive(owner)} place in {e.home.name if e.home else 'the countryside'}: walls too thick for wifi, hence the jokes. Weekends often happen here."
        else:
            residents = [p.name for p in world.people if p.home is e][:4]
            first = f"A city. {', '.join(residents) + (' live' if len(residents) > 1 else ' lives') + ' here.' if residents else 'Visited on trips.'}"
        return [first, f"Notes about {e.name} collect here.{tail}"]
    if e.kind == "project":
        owner = e.owner.name if e.owner else o.name
        first = f"{possessive(owner)} {PROJ_B.get(e.sub, 'side project')}, written in {e.lang}. It runs on {e.host.name if e.host else 'a server'} and stores its state in {e.db.name if e.db else 'files'}; the latest release is v{'.'.join(map(str, e.version))}."
        return [first, f"Changes so far: {hist}." if hist else "No big changes yet."]
    if e.kind == "org":
        staff = [p.name for p in world.people if p.employer is e][:4]
        first = (
            f"{upper_first(article(e.industry))} {e.industry} company in {e.home.name if e.home else 'Europe'}."
            + (f" {', '.join(staff)} work{'s' if len(staff) == 1 else ''} here." if staff else "")
        )
        return [first, f"Mentioned in the logs when someone joins or leaves.{tail}"]
    if e.kind == "tool":
        if e.sub == "server":
            first = (
                f"{possessive(o.name)} home server{' in ' + e.home.name if e.home else ''}. Services run as {e.runtime}."
                + (
                    f" It was called {e.old_name} until {fmt_full(e.renamed)}."
                    if e.old_name and e.renamed
                    else ""
                )
            )
        elif e.sub == "db":
            users = [p.name for p in world.projects if p.db is e][:4]
            first = f"A database, version {'.'.join(map(str, e.version[:2]))}." + (
                f" Used by {', '.join(users)}." if users else " Nothing uses it at the moment."
            )
        else:
            first = f"A tool {o.name} uses, version {'.'.join(map(str, e.version))}, listening on port {e.port}."
        return [first, tail.strip() or "Nothing remarkable so far."]
    owner = e.owner.name if e.owner else o.name
    return [f"{possessive(owner)} {e.species}.", f"Shows up in the logs now and then.{tail}"]


def core_memory(world: World, end: date) -> Doc:
    """``memory.md``: a dozen core bullets about the owner, between two paragraphs."""
    o = world.owner
    doc = Doc()
    doc.heading(1, "Memory")
    doc.para(
        f"Durable facts and preferences about {o.name}. Kept short on purpose; the daily logs have the details."
    )
    typed: list[str] = []
    if o.home:
        typed.append(world.bullet("W", [o, o.home], f"Lives in {o.home.name}.", end))
    if o.employer:
        typed.append(
            world.bullet(
                "W",
                [o, o.employer],
                f"{upper_first(o.job or 'engineer')} at {o.employer.name}.",
                end,
            )
        )
    for pr in [p for p in world.projects if p.owner is o][:3]:
        typed.append(
            world.bullet(
                "W",
                [o, pr],
                f"Builds {pr.name}, {article(PROJ_B.get(pr.sub, 's'))} {PROJ_B.get(pr.sub, 'side project')}, in {pr.lang}.",
                end,
            )
        )
    for op in [op for op in world.opinions if op.holder is o][-3:]:
        typed.append(world.bullet("O", op.about, op.text, end, op.confidence))
    friends = [p for p in world.people if p.sub == "friend"][:2]
    for f in friends:
        typed.append(world.bullet("W", [o, f], f"{f.name} is a close friend.", end))
    typed = typed[:8]
    while len(typed) < 7:
        typed.append(world.bullet("W", [o], f"{o.name} reads me on the phone; short answers.", end))
    plain = [
        f"Timezone: local time in {o.home.name if o.home else 'Lisbon'}.",
        "Prefers WhatsApp; long content goes into files.",
        "Weekends are off-limits for work topics.",
        f"Backups run nightly on {world.servers[0].name}.",
        "Never book anything without asking first.",
    ][: 12 - len(typed)]
    doc.items(typed, typed=True)
    # In memory.md every list item is a fact: graphmem reads unprefixed ones as W bullets.
    doc.items(plain, typed=True)
    doc.para(
        f"{possessive(o.name)} personal laptop and home server are mine to work with. Work machines are not."
    )
    return doc


def soul(world: World) -> Doc:
    """``SOUL.md``: the persona, one paragraph."""
    o = world.owner
    doc = Doc()
    doc.heading(1, "Soul")
    doc.para(
        f"I am {possessive(o.name)} agent. I live on {o.his} home server, talk to {o.him} mostly over WhatsApp, and keep {o.his} memory in plain Markdown {o.he} can read and fix {o.him}self. I am brief in chat and thorough in files; I say what I did, in the first person, and I say when I am unsure. I fix what is broken, leave alone what is working, and never make a decision about {o.his} life that {o.he} should make."
    )
    return doc


def bank_world(world: World, end: date, n: int) -> Doc:
    """``bank/world.md``: current objective facts."""
    doc = Doc()
    doc.heading(1, "World")
    facts: list[str] = []
    for pr in world.projects:
        if pr.db and pr.host:
            facts.append(
                world.bullet(
                    "W",
                    [pr, pr.db],
                    f"{pr.name} stores its state in {pr.db.name} and runs on {pr.host.name}.",
                    end,
                )
            )
        if pr.settings:
            cur = ", ".join(f"{k} = {v}" for k, v in pr.settings.items())
            facts.append(world.bullet("W", [pr], f"Current settings: {cur}.", end))
    for p in sorted(world.people, key=lambda e: -e.weight)[: max(3, n // 2)]:
        if p.home:
            facts.append(world.bullet("W", [p, p.home], f"{p.name} lives in {p.home.name}.", end))
    for s in world.servers:
        facts.append(world.bullet("W", [s], f"{s.name} runs its services as {s.runtime}.", end))
    doc.items(facts[:n], typed=True)
    return doc


def bank_experience(world: World, n: int) -> Doc:
    """``bank/experience.md``: things the agent did."""
    doc = Doc()
    doc.heading(1, "Experience")
    chosen = world.experience[-n:]
    items: list[str] = []
    for d, text in chosen:
        body = text if text.startswith("B ") else world.bullet("B", [world.owner], text, d)
        items.append(f"{body} (memory/{d.isoformat()}.md)")
    if not items:
        items.append(world.bullet("B", [world.owner], "I set up this memory.", world.days[0]))
    doc.items(items, typed=True)
    return doc


def bank_opinions(world: World, end: date, n: int) -> Doc:
    """``bank/opinions.md``: current opinions with their evidence."""
    doc = Doc()
    doc.heading(1, "Opinions")
    ops = sorted(world.opinions, key=lambda op: (-len(op.evidence), -op.confidence))[:n]
    items = []
    for op in ops:
        ev = ", ".join(f"memory/{d.isoformat()}.md" for d in op.evidence[-3:])
        items.append(world.bullet("O", op.about, op.text, end, op.confidence) + f"\nEvidence: {ev}")
    doc.items(items, typed=True)
    return doc


# ---------------------------------------------------------------------------------------------
# Generate
# ---------------------------------------------------------------------------------------------


def _page_items(e: Entity) -> int:
    """Items on the entity page of `e`: the Aliases/Kind block, paragraphs, config list."""
    head = 1 if e.page_style == "aliases" else 0
    config = 1 + len(e.settings) if e.page_list else 0
    return head + e.page_paras + config


def _log_days(rng: random.Random, start: date, span: int) -> list[date]:
    """Calendar days that get a log: most weekdays, fewer weekend days."""
    out = []
    for k in range(span):
        d = start + timedelta(days=k)
        if rng.random() < (0.96 if d.weekday() < 5 else 0.86):
            out.append(d)
    return out or [start]


def generate(
    out_dir: Path,
    items: int,
    seed: int = 0,
    start: date = date(2016, 1, 1),
    overwrite: bool = False,
) -> dict[str, int]:
    """Write a workspace of about `items` indexable items into `out_dir`; return the summary.

    The summary holds ``files``, ``days`` (daily logs), ``entities``, ``pages``, ``bullets``,
    ``passages``, ``items`` (bullets + passages) and ``bytes``. Raises FileExistsError when
    `out_dir` is not empty, unless `overwrite` (then the generated paths are replaced).
    """
    if items < MIN_ITEMS:
        raise ValueError(f"items must be at least {MIN_ITEMS} (got {items})")
    out_dir = Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()):
        if not overwrite:
            raise FileExistsError(
                f"{out_dir} is not empty; pass overwrite=True (--force) to replace it"
            )
        for name in ("memory", "bank"):
            shutil.rmtree(out_dir / name, ignore_errors=True)
        for name in ("memory.md", "SOUL.md"):
            (out_dir / name).unlink(missing_ok=True)

    rng = random.Random(seed)
    days = _log_days(rng, start, calendar_days_for(items))
    world = World(rng, entities_for(items), days)
    world.plan_renames()
    end = days[-1]
    n_ent = len(world.entities)

    # The fixed files are sized up front, the logs share what is left, and the last day,
    # written after everything else, takes up the slack. An entity without a page gets one
    # after all unless it is @mentioned twice, so the estimate follows the mention counts.
    n_world = max(4, min(80, n_ent // 4))
    n_exp = max(2, min(40, n_ent // 8))
    n_ops = max(3, min(60, n_ent // 5))
    mentions: dict[str, int] = {}

    def static_items() -> int:
        pages = sum(
            _page_items(e)
            for e in world.entities
            if e.has_page or mentions.get(_fold(e.slug), 0) < 2
        )
        return 14 + 1 + n_world + n_exp + n_ops + pages

    remaining = max(len(days) * 3, items - static_items())

    files: dict[str, str] = {}
    bullets = passages = 0
    # A storyline costs about 9 items; together they get at most a quarter of the logs.
    per_day = remaining / len(days)
    storyline_rate = min(0.12 + 10 / len(days), 0.25 * per_day / 9)
    # Every kind of change happens at least once, as far as a small workspace has room.
    must = ["opinion", "move", "setting", "db", "job", "rename", "opinion", "upgrade"]
    must += ["runtime", "trip", "setting", "role", "opinion"]
    must = must[: max(4, int(0.3 * remaining / 9))]
    forced: dict[int, list[str]] = {}
    for k, kind in enumerate(must):
        forced.setdefault(int((k + 0.5) * 0.8 * len(days) / len(must)), []).append(kind)
    last = len(days) - 1
    for i, d in enumerate(days[:last]):
        for kind in forced.get(i, []):
            world.start_storyline(i, kind)
        if rng.random() < storyline_rate:
            world.start_storyline(i)
        remaining = items - bullets - passages - static_items()
        mean = remaining / (len(days) - i)
        doc = render_day(world, i, d, max(2, round(mean * rng.uniform(0.6, 1.4))))
        text = doc.render()
        files[f"memory/{d.isoformat()}.md"] = text
        bullets += doc.bullets
        passages += doc.passages
        for m in _MENTION.finditer(text):
            key = _fold(m.group(1))
            mentions[key] = mentions.get(key, 0) + 1
    world.agenda.pop(last, None)  # storylines still open at the end are cut off

    # Entities without a page must be @mentioned at least twice; otherwise they get one.
    for e in world.entities:
        if not e.has_page and mentions.get(_fold(e.slug), 0) < 2:
            e.has_page = True

    statics: dict[str, Doc] = {
        "memory.md": core_memory(world, end),
        "SOUL.md": soul(world),
        "bank/world.md": bank_world(world, end, n_world),
        "bank/experience.md": bank_experience(world, n_exp),
        "bank/opinions.md": bank_opinions(world, end, n_ops),
    }
    for e in world.entities:
        if e.has_page:
            statics[f"bank/entities/{page_file(e.name)}"] = entity_page(world, e, end)
    for path, doc in statics.items():
        files[path] = doc.render()
        bullets += doc.bullets
        passages += doc.passages

    doc = render_day(world, last, end, max(2, items - bullets - passages))
    files[f"memory/{end.isoformat()}.md"] = doc.render()
    bullets += doc.bullets
    passages += doc.passages

    size = 0
    for path in sorted(files):
        target = out_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        data = files[path].encode("utf-8")
        target.write_bytes(data)
        size += len(data)
    # The exact count of what the parser indexes (sentences of a paragraph are units of
    # their own, so the writer's running count is only the sizing estimate).
    bullets, passages = count_workspace(out_dir)
    return {
        "files": len(files),
        "days": len(days),
        "entities": n_ent,
        "pages": sum(1 for e in world.entities if e.has_page),
        "bullets": bullets,
        "passages": passages,
        "items": bullets + passages,
        "bytes": size,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(
        description="Generate a synthetic graphmem workspace (daily logs, bank, entity pages)."
    )
    ap.add_argument("out_dir", type=Path, help="workspace directory to write")
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument(
        "--size", choices=sorted(SIZES, key=SIZES.__getitem__), help="target size in items"
    )
    group.add_argument("--items", type=int, help=f"exact target number of items (>= {MIN_ITEMS})")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    ap.add_argument(
        "--start",
        type=date.fromisoformat,
        default=date(2016, 1, 1),
        help="first day, YYYY-MM-DD (default 2016-01-01)",
    )
    ap.add_argument(
        "--force",
        action="store_true",
        help="replace memory/, bank/, memory.md and SOUL.md in a non-empty OUT_DIR",
    )
    args = ap.parse_args(argv)
    target = args.items if args.items is not None else SIZES[args.size]
    t0 = time.perf_counter()
    try:
        summary = generate(
            args.out_dir, target, seed=args.seed, start=args.start, overwrite=args.force
        )
    except (FileExistsError, ValueError) as exc:
        print(f"gen_workspace: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - t0
    print(
        f"gen_workspace: {args.out_dir}: target {target} items -> "
        f"files={summary['files']} days={summary['days']} entities={summary['entities']} "
        f"pages={summary['pages']} bullets={summary['bullets']} passages={summary['passages']} "
        f"items={summary['items']} bytes={summary['bytes']} ({elapsed:.1f}s)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
