"""Reading one sentence for reflection: its topic words and the stance cues it carries.

No model: small cue lists per language (en, fr, pt, de, es, zh), matched on folded,
lower-cased text. `units` cuts free text into sentences with their exact lines; `read`
says what a sentence is about (content stems, a few cross-language concepts, CJK
bigrams) and which cues it carries. graphmem.compile.opinions decides what the cues mean for one
opinion.

| cue         | examples                                                                 |
|-------------|--------------------------------------------------------------------------|
| negation    | not, n't, never, no; ne/pas, jamais; não, nunca; nicht, kein, nie; no, nunca; 不, 没 |
| ended       | no longer, not any more, stopped, done with, never again; ne...plus; já não, deixou de; nicht mehr; ya no, dejó de; 不再 |
| retraction  | turned out, it was actually, I was wrong, isn't what; en fait, s'est avéré; na verdade, afinal; stellte sich heraus; resultó, en realidad; 原来, 其实 |
| revocation  | from now on, always ask (me) first/before, no more; désormais, demande-moi avant; a partir de agora; ab jetzt, von nun an; a partir de ahora; 从现在起, 先问 |
| permission  | is fine, is ok, without asking; sans demander; sem perguntar; ohne zu fragen; sin preguntar; 不用问 |
| future      | will, 'll, going to, won't; va, sera; vai, será; wird, werden; va a, será; 会, 将 |
| on time / late | on time, on schedule, as planned / slipped, delayed, postponed (and per language) |
| arrived     | arrived, came in, delivered; est arrivé; chegou, foi entregue; angekommen, geliefert; llegó; 到了 |
| causal      | is what, comes from, caused by, because of; vient de; vem de; kommt von; viene de; 导致, 来自 |
| rival cause | a different/another/other/local cause, not what, nothing to do with; autre cause; outra causa; andere Ursache; otra causa; 另有原因 |
| hedge       | probably, maybe, I think, looks like; peut-être; talvez; vielleicht; quizás; 可能 |
| reject      | declined, refused, turned down, ignored, let ... go to voicemail; refusé; recusou; abgelehnt; rechazó; 拒绝, 没打 |
| valence     | best, great, worth, glad / worst, mistake, regret (and per language)     |
| travel      | travelling, trip, tour, on the road, away, festival, train (per language); "from home" undoes it |

Every list is a tuple of phrases; a phrase matches at word boundaries (CJK: anywhere).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from graphmem.text.fold import fold, folded
from graphmem.text.stem import stem
from graphmem.text.stopwords import STANCE_TOPIC as _STOP


class Phrases:
    """A compiled alternation of literal phrases (:func:`_rx`) that is only run on a text
    that can hold one of them.

    The alternation starts with a look-behind, so ``re`` tries every phrase at every offset
    of the text: 5-50 µs a list and sentence, 21 lists a sentence, at 100k sentences a
    fifth of a full build. A match is one of the phrases as written, bounded by anything
    but ``[a-z0-9]``: so the text's maximal ``[a-z0-9]`` runs (found once per text) hold the
    phrase's leading run, and a phrase with none, or a CJK one, is a substring. A text that
    fails both cannot match: the answer is the pattern's own, found faster."""

    __slots__ = ("bare", "cjk", "leads", "pattern")

    def __init__(self, pattern: re.Pattern[str], latin: Sequence[str], cjk: Sequence[str]) -> None:
        self.pattern = pattern
        leads = [ALNUM_RUN.match(p) for p in latin]
        self.leads = frozenset(m.group() for m in leads if m is not None)
        self.bare = tuple(p for p, m in zip(latin, leads, strict=True) if m is None)
        self.cjk = tuple(cjk)

    def _may(self, text: str) -> bool:
        if not self.leads.isdisjoint(_alnum_runs(text)):
            return True
        if self.bare and any(map(text.__contains__, self.bare)):
            return True
        return bool(self.cjk) and not text.isascii() and any(map(text.__contains__, self.cjk))

    def search(self, text: str) -> re.Match[str] | None:
        """``pattern.search(text)``."""
        return self.pattern.search(text) if self._may(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """``pattern.finditer(text)``."""
        return self.pattern.finditer(text) if self._may(text) else iter(())

    def sub(self, repl: str, text: str) -> str:
        """``pattern.sub(repl, text)``."""
        return self.pattern.sub(repl, text) if self._may(text) else text


#: A maximal run of [a-z0-9]: what the word-bounded phrase patterns (here and the entity
#: names of graphmem.compile.opinions) match between.
ALNUM_RUN = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=1024)
def _alnum_runs(text: str) -> frozenset[str]:
    """The maximal ``[a-z0-9]`` runs of `text` (the same text is asked of every cue list)."""
    return frozenset(ALNUM_RUN.findall(text))


def _rx(*phrases: str) -> Phrases:
    """One alternation of folded phrases, longest first; word-bounded unless CJK."""
    latin = sorted({fold(p) for p in phrases if not _is_cjk(p)}, key=len, reverse=True)
    cjk = sorted({p for p in phrases if _is_cjk(p)}, key=len, reverse=True)
    parts = []
    if latin:
        parts.append(r"(?<![a-z0-9])(?:" + "|".join(re.escape(p) for p in latin) + r")(?![a-z0-9])")
    if cjk:
        parts.append("(?:" + "|".join(re.escape(p) for p in cjk) + ")")
    return Phrases(re.compile("|".join(parts) or r"(?!x)x"), latin, cjk)


def _is_cjk(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" for ch in text)


NEGATION = _rx(
    "not", "never", "no", "cannot", "nobody", "nothing", "neither", "nor",
    "ne", "pas", "jamais", "aucun", "aucune", "nao", "nunca", "nem", "nenhum",
    "nicht", "kein", "keine", "keinen", "keiner", "nie", "niemals", "jamas", "tampoco",
    "不", "没", "没有", "别", "未",
)  # fmt: skip
ENDED = _rx(
    "no longer", "not anymore", "not any more", "any more", "anymore", "stopped", "quit",
    "gave up", "given up", "done with", "never again", "no more",
    "ne plus", "plus jamais", "arrete de", "ja nao", "nao mais", "deixou de", "parou de",
    "nunca mais", "nicht mehr", "kein mehr", "nie wieder", "aufgehort", "ya no", "dejo de",
    "nunca mas", "不再", "再也不", "已经不",
)  # fmt: skip
RETRACTION = _rx(
    "turned out", "turns out", "it was actually", "was actually", "were actually",
    "i was wrong", "we were wrong", "was wrong about", "wrong about", "isn't what",
    "wasn't what", "is not what", "was not what", "nothing to do with", "red herring",
    "not the cause", "after all it was", "en fait", "s'est avere", "s'avere", "en realite",
    "je me suis trompe", "je m'etais trompe", "na verdade", "afinal", "acabou por ser",
    "revelou-se", "eu estava errado", "eu estava errada", "stellte sich heraus",
    "in wirklichkeit", "ich habe mich geirrt", "ich lag falsch", "resulto", "resulta que",
    "en realidad", "me equivoque", "estaba equivocado", "estaba equivocada",
    "原来", "其实", "结果是", "我错了", "搞错了",
)  # fmt: skip
REVOCATION = _rx(
    "from now on", "always ask", "ask me first", "ask first", "ask me before", "ask before",
    "check with me first", "check with me before", "not without asking", "no more",
    "desormais", "dorenavant", "a partir de maintenant", "demande-moi avant",
    "toujours demander", "a partir de agora", "daqui em diante", "pergunta-me antes",
    "sempre perguntar", "pergunte antes", "ab jetzt", "von nun an", "ab sofort",
    "frag mich vorher", "immer vorher fragen", "a partir de ahora", "de ahora en adelante",
    "preguntame antes", "siempre preguntar", "从现在起", "从今以后", "先问", "必须先问",
)  # fmt: skip
ATTITUDE = _rx(
    "prefer", "prefers", "likes", "loves", "enjoys", "always", "usually", "every morning",
    "aime", "adore", "prefere", "toujours", "gosta", "adora", "sempre", "mag", "liebt",
    "bevorzugt", "immer", "le gusta", "encanta", "prefiere", "siempre", "喜欢", "爱", "总是",
)  # fmt: skip
PERMISSION = _rx(
    "is fine", "are fine", "is ok", "is okay", "fine to", "ok to", "okay to", "on its own",
    "on your own", "no need to check",
    "without asking", "no need to ask", "allowed to", "can go ahead", "sans demander",
    "c'est bon", "sem perguntar", "tudo bem", "ohne zu fragen", "ohne nachzufragen",
    "in ordnung", "sin preguntar", "esta bien", "不用问", "不必问",
)  # fmt: skip
FUTURE = _rx(
    "will", "'ll", "going to", "won't", "wo not", "is likely to", "va", "vont", "sera",
    "seront", "vai", "vao", "ira", "wird", "werden", "va a", "van a", "会", "将",
)  # fmt: skip
BY_DEADLINE = _rx("before", "by", "ahead of", "avant", "antes de", "antes do", "vor", "bis", "之前")
PAST_DEADLINE = _rx(
    "slip", "slips", "slip past", "miss", "be late", "past the", "after the", "later than",
    "en retard", "rater", "atrasar", "derrapar", "verpassen", "verspaten", "retrasar",
    "推迟", "延期", "赶不上",
)  # fmt: skip
ON_TIME = _rx(
    "on time", "on schedule", "as planned", "on track", "right on time", "a l'heure",
    "comme prevu", "dans les temps", "no prazo", "a tempo", "como previsto", "como planeado",
    "punktlich", "wie geplant", "termingerecht", "a tiempo", "segun lo previsto",
    "como estaba previsto", "按时", "如期", "准时",
    # early is at least on time
    "ahead of schedule", "ahead of time", "a day early", "days early", "arrived early",
    "came early", "came in early", "earlier than planned", "earlier than expected",
    "antes do previsto", "antes do combinado", "antes do prazo", "en avance",
    "plus tot que prevu", "vorzeitig", "fruher als geplant", "fruher als erwartet",
    "antes de lo previsto", "antes de tiempo", "提前",
)  # fmt: skip
LATE = _rx(
    "slipped", "delayed", "postponed", "pushed back", "missed the", "late", "behind schedule",
    "repousse", "reporte", "retarde", "en retard", "adiado", "atrasado", "atrasou",
    "verschoben", "verspatet", "retrasado", "aplazado", "推迟了", "延期了",
)  # fmt: skip
#: The event came about, plainly reported ("the delivery arrived 7:35"): against a prediction
#: of trouble, one more time it passed without any (graphmem.compile.verdicts).
ARRIVED = _rx(
    "arrived", "came in", "delivered", "chegou", "chegaram", "foi entregue", "foram entregues",
    "est arrive", "est arrivee", "a ete livre", "a ete livree", "angekommen", "geliefert",
    "llego", "llegaron", "fue entregado", "fue entregada", "到了", "送到了", "送达",
)  # fmt: skip
#: The predicted event will not happen: it fell through, was called off, died.
FAILED = _rx(
    "fell through", "falls through", "fall through", "fallen through", "called off",
    "fell apart", "collapsed", "is dead", "was dead", "came to nothing", "did not happen",
    "never happened", "was cancelled", "was canceled", "got cancelled", "were cancelled",
    "scrapped", "tombe a l'eau", "tombee a l'eau", "est tombe", "a ete annule",
    "a ete annulee", "a echoue", "caiu", "morreu", "foi cancelado", "foi cancelada",
    "nao aconteceu", "nao avancou", "gescheitert", "geplatzt", "abgesagt", "ist tot",
    "se cayo", "fracaso", "fue cancelado", "fue cancelada", "no salio", "泡汤", "取消了", "黄了",
)  # fmt: skip
#: The event may still come: "not yet", "ainda não", "pas encore", "noch nicht", "todavía no".
NOT_YET = _rx(
    "yet", "still", "so far", "ainda", "encore", "noch", "todavia", "aun", "还", "尚未", "还没",
)  # fmt: skip
#: Something is (to be) replaced or swapped out; who is replaced is read by graphmem.compile.opinions.
REPLACED = _rx(
    "replace", "replaced", "replacing", "swap out", "swapped out",
    "remplacer", "remplace", "remplacee", "substituir", "substituido", "substituida",
    "substituimos", "trocar", "trocado", "trocada", "ersetzen", "ersetzt", "austauschen",
    "ausgetauscht", "reemplazar", "reemplazado", "reemplazada", "sustituir", "sustituido",
    "更换", "换掉", "替换",
)  # fmt: skip
#: An opinion about what its holder is able to do: "could run", "pode gerir", "könnte leiten".
ABILITY = _rx(
    "could", "can", "able to", "capable of", "would make a good", "pourrait", "peut",
    "capable de", "pode", "podia", "poderia", "capaz de", "konnte", "kann", "fahig", "podria",
    "puede", "能", "可以",
)  # fmt: skip
CAUSAL = _rx(
    "is what", "was what", "is probably what", "cause", "causes", "caused", "causing",
    "comes from", "come from", "came from", "because of", "due to", "responsible for",
    "source of", "the reason", "vient de", "viennent de", "venaient de", "a cause de",
    "provient", "vem de", "vem do", "vem da", "vinham de", "por causa de", "causado",
    "kommt von", "kommen von", "kamen von", "liegt an", "verursacht", "ursache", "wegen",
    "viene de", "vienen de", "venian de", "por culpa de", "debido a", "causa", "导致",
    "造成", "来自", "原因", "引起",
)  # fmt: skip
RIVAL = _rx(
    "different cause", "another cause", "other cause", "local cause", "a second",
    "something else", "isn't what", "wasn't what", "not what", "nothing to do with",
    "autre cause", "une autre", "outra causa", "andere ursache", "etwas anderes",
    "otra causa", "另有原因", "别的原因",
)  # fmt: skip
HEDGE = _rx(
    "probably", "maybe", "perhaps", "might", "may be", "seems", "looks like", "i think",
    "i guess", "i suspect", "thinks", "isn't sure", "not sure", "peut-etre", "probablement",
    "sans doute", "pense", "talvez", "provavelmente", "acho", "vielleicht", "wahrscheinlich",
    "wohl", "glaubt", "quizas", "tal vez", "probablemente", "creo", "可能", "也许", "大概",
)  # fmt: skip
REJECT = _rx(
    "declined", "declines", "declining", "refused", "refuses", "turned down", "turns down",
    "ignored", "ignores", "skipped", "rejected", "go to voicemail", "goes to voicemail",
    "went to voicemail", "refuse", "refuse de", "decline", "ignore", "recusou", "recusa",
    "ignorou", "rejeitou", "abgelehnt", "lehnt ab", "ignoriert", "rechazo", "rechaza",
    "ignoro", "拒绝", "没接", "不接", "不打", "没打",
)  # fmt: skip
POSITIVE = _rx(
    "best", "great", "good", "worth", "worth it", "glad", "happy", "love", "loves", "paid off",
    "works well", "no regrets", "right call", "right decision", "smoothest", "excellent",
    "meilleur", "meilleure", "genial", "vaut", "content", "contente", "heureux", "heureuse",
    "melhor", "otimo", "otima", "vale a pena", "feliz", "beste", "besten", "gut", "lohnt",
    "froh", "glucklich", "mejor", "vale la pena", "最好", "值得", "高兴", "满意", "开心",
)  # fmt: skip
NEGATIVE = _rx(
    "worst", "mistake", "regret", "regrets", "bad", "terrible", "awful", "not worth", "mess",
    "a mess", "chaos", "chaotic", "shambles", "disaster", "unreliable", "bagunca", "caos",
    "desastre", "confusao", "pagaille", "catastrophe", "katastrophe", "chaotisch", "lio",
    "pire", "erreur", "regrette", "pior", "erro", "arrependo", "schlimmste", "fehler",
    "bereue", "peor", "error", "arrepiento", "错误", "后悔", "糟糕",
)  # fmt: skip
TRAVEL = _rx(
    "travelling", "traveling", "travels", "travel", "trip", "tour", "touring", "on the road",
    "away", "abroad", "festival", "flight", "train", "airport", "gig", "en voyage",
    "voyage", "en deplacement", "tournee", "em viagem", "viagem", "viajar", "turne",
    "digressao", "unterwegs", "reise", "tournee", "zug", "de viaje", "viaje", "de gira",
    "gira", "出差", "巡演", "旅行", "路上", "在外",
)  # fmt: skip
HOME = _rx(
    "from home", "at home", "a la maison", "de chez", "em casa", "de casa", "zu hause",
    "von zu hause", "desde casa", "en casa", "在家",
)  # fmt: skip
_PREFER_CUE = (
    r"\b(?:prefer\w*|would rather|d rather|rather|prefere\w*|prefiere\w*|lieber|bevorzug\w*)\b"
)
PREFER = re.compile(
    _PREFER_CUE
    + r"(?P<a>.+?)\b(?:over|to|than|rather than|instead of|plutot que|em vez de|als|statt)\b"
    r"(?P<b>.*)"
)
_PREFER_CUE_RX = re.compile(_PREFER_CUE)


def prefer(low: str) -> re.Match[str] | None:
    """``PREFER.search(low)`` in linear time.

    The search tried every cue of a line, each reading the rest of the line for a connector:
    quadratic on a line of "prefer prefer …". If the first cue of a line finds no connector
    after it, no later cue of that line can (its connector would serve the first), so the
    search goes on at the next line.
    """
    pos = 0
    while cue := _PREFER_CUE_RX.search(low, pos):
        if m := PREFER.match(low, cue.start()):
            return m
        pos = low.find("\n", cue.start()) + 1
        if not pos:
            return None
    return None


#: A chat line: "13:41 Theo: ..." (any one- or two-word name) or "Théo: ..." (capitalised).
SPEAKER = re.compile(
    r"^\s*(?:\d{1,2}:\d{2}\s+(?P<name>[^\W\d][\w.'’-]*(?: [^\W\d][\w.'’-]*)?)"
    r"|(?P<cap>[A-ZÀ-Ý][\w.'’-]*(?: [A-ZÀ-Ý][\w.'’-]*)?)):\s"
)
REPORTED = _rx(
    "said", "says", "told", "tells", "asked", "asks", "admitted", "agreed", "i'd", "i'm",
    "i will", "dit", "a dit", "disse", "diz", "sagte", "sagt", "dijo", "dice", "说",
)  # fmt: skip
PRONOUN = _rx(
    "he", "she", "him", "her", "his", "they", "them", "il", "elle", "lui", "ele", "ela",
    "er", "sie", "ihm", "ihn", "el", "ella", "他", "她",
)  # fmt: skip

#: A few everyday concepts that logs name in several languages, so an English opinion meets
#: its French or Chinese evidence. Each phrase becomes the concept's token.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "~call": ("call", "calls", "called", "calling", "phone", "phoned", "phone call", "ring",
              "appel", "appels", "appeler", "telephone", "ligacao", "ligar", "ligou",
              "telefonema", "anruf", "anrufe", "anrufen", "telefonieren", "llamada",
              "llamadas", "llamar", "电话"),
    "~voicenote": ("voice note", "voice notes", "voice message", "voice messages",
                   "note vocale", "notes vocales", "vocal", "vocaux", "audio", "audios",
                   "mensagem de voz", "sprachnachricht", "sprachnachrichten", "nota de voz",
                   "notas de voz", "语音"),
    "~dup": ("duplicate", "duplicates", "duplicated", "twice", "double", "doubled",
             "doublon", "doublons", "duplicado", "duplicados", "duplikat", "duplikate",
             "doppelt", "重复"),
    "~move": ("move", "moves", "moving", "moved", "relocate", "relocating", "demenager",
              "demenagement", "demenagent", "mudar", "mudanca", "mudou", "umziehen", "umzug",
              "mudarse", "mudanza", "搬家", "搬"),
    "~offer": ("offer", "offers", "offered", "offre", "oferta", "angebot", "录用"),
    "~leave": ("leave", "leaving", "left", "quit", "quitter", "partir", "sair", "deixar",
               "verlassen", "kundigen", "dejar", "irse", "离开", "辞职"),
    "~upgrade": ("upgrade", "upgrades", "upgrading", "upgraded", "update", "updates",
                 "mise a jour", "mises a jour", "atualizacao", "atualizacoes", "aktualisierung",
                 "actualizacion", "actualizaciones", "升级", "更新"),
    "~run": ("run", "runs", "ran", "running", "manage", "manages", "managed", "managing",
             "in charge of", "gerer", "gere", "dirige", "diriger", "gerir", "geriu",
             "gerindo", "dirigir", "leiten", "leitet", "leitete", "fuhren", "fuhrt",
             "gestionar", "gestiona", "llevar", "管理", "经营"),
    "~delivery": ("delivery", "deliveries", "deliver", "delivers", "delivered", "livraison",
                  "livraisons", "entrega", "entregas", "entregue",
                  "entregues", "entregado", "entregada", "lieferung", "lieferungen",
                  "geliefert", "liefert", "送货", "交货", "配送"),
    "~ask": ("ask", "asks", "asked", "asking", "demander", "demande", "demande-moi",
             "perguntar", "pergunta", "pergunta-me", "pergunte", "fragen", "frag", "fragt",
             "preguntar", "pregunta", "preguntame", "问", "询问"),
    # to lower a price (matching a rival's price is lowering one's own: _PRICE_MATCH)
    "~lower": ("lower", "lowers", "lowered", "lowering", "reduce", "reduces", "reduced",
               "price cut", "price cuts", "baixar", "baixa", "baixam", "baixou", "baixaram",
               "reduzir", "reduz", "reduziu", "descer o preco", "desce o preco", "desconto",
               "descontos", "drop the price", "drop their price", "drop its price",
               "drop prices", "cut the price", "cut their price", "cut prices", "discount",
               "discounts", "rabais", "remise", "rabatt", "descuento", "descuentos", "baisser", "baisse", "baissent", "baissera",
               "reduire", "reduit", "senken", "senkt", "senkte", "gesenkt", "bajar", "baja",
               "bajan", "bajaron", "rebajar", "rebaja", "reducir", "redujo", "降价", "降低"),
    "~price": ("price", "prices", "priced", "pricing", "preco", "precos", "prix", "tarif",
               "tarifs", "preis", "preise", "precio", "precios", "价格", "价钱"),
}  # fmt: skip
CONCEPT_RX = {name: _rx(*phrases) for name, phrases in CONCEPTS.items()}

_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d+")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")


@dataclass(frozen=True)
class Unit:
    """One sentence of a text and the lines (1-based, inclusive) it spans."""

    text: str
    line_start: int
    line_end: int


def units(text: str, line_start: int) -> list[Unit]:
    """The sentences of `text` (whose first line is `line_start`), each with its lines. A
    hard-wrapped sentence spans the lines it touches; a line break alone never ends one."""
    out: list[Unit] = []
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    pos = 0
    for m in [*_SENTENCE_END.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[pos:end]
        if piece.strip():
            a = pos + (len(piece) - len(piece.lstrip()))
            b = pos + len(piece.rstrip()) - 1
            la = line_start + bisect_right(starts, a) - 1
            lb = line_start + bisect_right(starts, b) - 1
            out.append(Unit(" ".join(piece.split()), la, lb))
        pos = m.end() if m else len(text)
    return out


class Reading:
    """What one sentence is about and which cues it carries (see the module docstring).

    Each cue is looked for when first asked: reflection asks most sentences only who speaks,
    whether a pronoun carries a name over and what they are about, and only the pairs that
    share a topic word for the rest (finding all 21 cue lists up front in every sentence was
    a fifth of a 100k full build). The values are those of the eager reading."""

    __slots__ = ("__dict__", "folded", "speaker")

    def __init__(self, folded: str, speaker: str) -> None:
        self.folded = folded  # after the speaker's "Name:", if any
        self.speaker = speaker

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in READING_FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Reading) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in READING_FIELDS)
        return f"Reading({shown})"

    @cached_property
    def tokens(self) -> frozenset[str]:
        return topic(self.folded)

    @cached_property
    def negated(self) -> bool:
        return self._negation is not None or bool(self.ended)

    @cached_property
    def _negation(self) -> re.Match[str] | None:
        return NEGATION.search(self.folded)

    @cached_property
    def ended(self) -> str:
        return _first(ENDED, self.folded)

    @cached_property
    def retraction(self) -> str:
        return _first(RETRACTION, self.folded)

    @cached_property
    def revocation(self) -> str:
        return _first(REVOCATION, self.folded)

    @cached_property
    def permission(self) -> bool:
        return bool(PERMISSION.search(self.folded))

    @cached_property
    def future(self) -> bool:
        return bool(FUTURE.search(self.folded))

    @cached_property
    def by_deadline(self) -> bool:
        return bool(BY_DEADLINE.search(self.folded))

    @cached_property
    def past_deadline(self) -> bool:
        return bool(PAST_DEADLINE.search(self.folded))

    @cached_property
    def on_time(self) -> str:
        return _first(ON_TIME, self.folded)

    @cached_property
    def late(self) -> str:
        return _first(LATE, self.folded)

    @cached_property
    def arrived(self) -> str:
        return _first(ARRIVED, self.folded)

    @cached_property
    def failed(self) -> str:
        return _first(FAILED, self.folded)

    @cached_property
    def replaced(self) -> str:
        return _first(REPLACED, self.folded)

    @cached_property
    def ability(self) -> bool:
        return bool(ABILITY.search(self.folded))

    @cached_property
    def causal(self) -> str:
        return _first(CAUSAL, self.folded)

    @cached_property
    def rival(self) -> str:
        return _first(RIVAL, self.folded)

    @cached_property
    def hedged(self) -> bool:
        return bool(HEDGE.search(self.folded))

    @cached_property
    def attitude(self) -> bool:
        return bool(ATTITUDE.search(self.folded))

    @cached_property
    def rejected(self) -> frozenset[str]:
        low = self.folded
        rejected: set[str] = set()
        for m in REJECT.finditer(low):
            rejected |= topic(low[m.end() : m.end() + 40]) | topic(low[max(0, m.start() - 25) : m.start()])  # fmt: skip
        return frozenset(rejected)

    @cached_property
    def valence(self) -> int:
        low = self.folded
        positive, negative = POSITIVE.search(low), NEGATIVE.search(low)
        valence = (1 if positive else 0) - (1 if negative else 0)
        if self._negation and valence:
            valence = -valence  # "not worth it", "not happy"
        return valence

    @cached_property
    def travel(self) -> bool:
        return bool(TRAVEL.search(self.folded))

    @cached_property
    def home(self) -> bool:
        return bool(HOME.search(self.folded))

    @cached_property
    def preference(self) -> tuple[frozenset[str], frozenset[str]] | None:
        if m := prefer(self.folded):
            a, b = topic(m.group("a")), topic(m.group("b"))
            return (a - b, b - a)
        return None

    @cached_property
    def reported(self) -> bool:
        return bool(REPORTED.search(self.folded))

    @cached_property
    def pronoun(self) -> bool:
        return bool(PRONOUN.search(self.folded))


#: What a Reading holds, as the eager dataclass had it.
READING_FIELDS = (
    "folded", "tokens", "negated", "ended", "retraction", "revocation", "permission",
    "future", "by_deadline", "past_deadline", "on_time", "late", "arrived", "failed", "replaced",
    "ability", "causal", "rival", "hedged",
    "attitude", "rejected", "valence", "travel", "home", "preference", "speaker", "reported",
    "pronoun",
)  # fmt: skip


def _first(rx: Phrases, text: str) -> str:
    m = rx.search(text)
    return " ".join(m.group().split()) if m else ""


#: Matching a price is lowering one's own to it: "will match the Seville price", "igualar o
#: preço", "s'aligner sur le prix" read as "lower ..." (the verb with a price among the next
#: few words; "won the match on Sunday" stays a match).
_PRICE_MATCH = re.compile(
    r"\b(?:match|matches|matched|matching|igualar|iguala|igualou|igualam|aligner|aligne|"
    r"alignera|igualara|igualo)\b(?=(?:\s+[\w'-]+){0,3}?\s+(?:price|prices|quote|quotes|"
    r"offer|preco|precos|prix|tarif|tarifs|preis|preise|precio|precios)\b)"
)


def _normal(text: str) -> str:
    low = folded(text).replace("’", "'")
    low = re.sub(r"n't\b", " not", low)
    if "match" in low or "igual" in low or "align" in low:
        low = _PRICE_MATCH.sub("lower", low)
    return low.replace("can not", "cannot")


#: Phrasal verbs that mean something else than their verb: "running out of", "ran into".
_PHRASAL = re.compile(r"\b(?:run|runs|ran|running)\s+(?:out|into|late|over|away|across)\b")


@lru_cache(maxsize=65536)
def topic(text: str) -> frozenset[str]:
    """Content stems, concept tokens (``~call``) and CJK bigrams of `text`."""
    low = _PHRASAL.sub(" ", _normal(text))
    found: set[str] = set()
    for name, rx in CONCEPT_RX.items():
        if rx.search(low):
            found.add(name)
            low = rx.sub(" ", low)
    low = POSITIVE.sub(" ", NEGATIVE.sub(" ", low))  # a judgement is a stance, not a topic
    for run in _CJK_RUN.findall(low):
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    for w in _WORD.findall(_CJK_RUN.sub(" ", low)):
        w = w.strip("'-")
        if len(w) < 3 or w in _STOP or (w.isdigit() and len(w) <= 2):
            continue
        found.add(stem(w))
    return frozenset(found)


#: A sentence is read by its first this many characters (as a block is dated by its first
#: 4,000: graphmem.extract.dating.DATED_CHARS): a pasted 1 MB line is no sentence, and
#: the cue patterns cost 1–5 s a megabyte.
READ_CHARS = 4000


@lru_cache(maxsize=65536)
def read(text: str) -> Reading:
    """The reading of one sentence (its first `READ_CHARS` characters)."""
    text = text[:READ_CHARS]
    low = _normal(text)
    speaker = ""
    if m := SPEAKER.match(text):
        speaker = fold((m.group("name") or m.group("cap")).strip())
        low = _normal(text[m.end() :])
    return Reading(low, speaker)
