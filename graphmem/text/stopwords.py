"""Stop words: the English list as spaCy 3.8 ships it (MIT licence, Explosion AI), and the
content words of a text (what is left without them); then the lists each reader of text
keeps for its own use, as they were measured there (a word added to one changes only that
reader):

- :data:`QUERY`: what a question's full-text query drops (en, fr, pt; folded);
- :data:`OPINION_TOPIC`: not the topic of an opinion (graphmem.compile.opinions);
- :data:`STANCE_TOPIC`: not the topic of a sentence read for reflection, in six
  languages (graphmem.compile.stance);
- :data:`SUPERSEDE_CONTENT`: not what a supersession fallback compares
  (graphmem.compile.supersede).

Kept here so that matching names against text never imports spaCy: the import alone took
45% of a cold ``graphmem recall`` (docs/decisions/0002-stop-words-shipped-as-data.md). A test
checks the copy against spaCy when spaCy is installed.
"""

import re

from graphmem.text.fold import fold
from graphmem.text.stem import crude_stem

ENGLISH: frozenset[str] = frozenset(
    {
        "'d",
        "'ll",
        "'m",
        "'re",
        "'s",
        "'ve",
        "a",
        "about",
        "above",
        "across",
        "after",
        "afterwards",
        "again",
        "against",
        "all",
        "almost",
        "alone",
        "along",
        "already",
        "also",
        "although",
        "always",
        "am",
        "among",
        "amongst",
        "amount",
        "an",
        "and",
        "another",
        "any",
        "anyhow",
        "anyone",
        "anything",
        "anyway",
        "anywhere",
        "are",
        "around",
        "as",
        "at",
        "back",
        "be",
        "became",
        "because",
        "become",
        "becomes",
        "becoming",
        "been",
        "before",
        "beforehand",
        "behind",
        "being",
        "below",
        "beside",
        "besides",
        "between",
        "beyond",
        "both",
        "bottom",
        "but",
        "by",
        "ca",
        "call",
        "can",
        "cannot",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "done",
        "down",
        "due",
        "during",
        "each",
        "eight",
        "either",
        "eleven",
        "else",
        "elsewhere",
        "empty",
        "enough",
        "even",
        "ever",
        "every",
        "everyone",
        "everything",
        "everywhere",
        "except",
        "few",
        "fifteen",
        "fifty",
        "first",
        "five",
        "for",
        "former",
        "formerly",
        "forty",
        "four",
        "from",
        "front",
        "full",
        "further",
        "get",
        "give",
        "go",
        "had",
        "has",
        "have",
        "he",
        "hence",
        "her",
        "here",
        "hereafter",
        "hereby",
        "herein",
        "hereupon",
        "hers",
        "herself",
        "him",
        "himself",
        "his",
        "how",
        "however",
        "hundred",
        "i",
        "if",
        "in",
        "indeed",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "keep",
        "last",
        "latter",
        "latterly",
        "least",
        "less",
        "made",
        "make",
        "many",
        "may",
        "me",
        "meanwhile",
        "might",
        "mine",
        "more",
        "moreover",
        "most",
        "mostly",
        "move",
        "much",
        "must",
        "my",
        "myself",
        "n't",
        "name",
        "namely",
        "neither",
        "never",
        "nevertheless",
        "next",
        "nine",
        "no",
        "nobody",
        "none",
        "noone",
        "nor",
        "not",
        "nothing",
        "now",
        "nowhere",
        "n‘t",
        "n’t",
        "of",
        "off",
        "often",
        "on",
        "once",
        "one",
        "only",
        "onto",
        "or",
        "other",
        "others",
        "otherwise",
        "our",
        "ours",
        "ourselves",
        "out",
        "over",
        "own",
        "part",
        "per",
        "perhaps",
        "please",
        "put",
        "quite",
        "rather",
        "re",
        "really",
        "regarding",
        "same",
        "say",
        "see",
        "seem",
        "seemed",
        "seeming",
        "seems",
        "serious",
        "several",
        "she",
        "should",
        "show",
        "side",
        "since",
        "six",
        "sixty",
        "so",
        "some",
        "somehow",
        "someone",
        "something",
        "sometime",
        "sometimes",
        "somewhere",
        "still",
        "such",
        "take",
        "ten",
        "than",
        "that",
        "the",
        "their",
        "them",
        "themselves",
        "then",
        "thence",
        "there",
        "thereafter",
        "thereby",
        "therefore",
        "therein",
        "thereupon",
        "these",
        "they",
        "third",
        "this",
        "those",
        "though",
        "three",
        "through",
        "throughout",
        "thru",
        "thus",
        "to",
        "together",
        "too",
        "top",
        "toward",
        "towards",
        "twelve",
        "twenty",
        "two",
        "under",
        "unless",
        "until",
        "up",
        "upon",
        "us",
        "used",
        "using",
        "various",
        "very",
        "via",
        "was",
        "we",
        "well",
        "were",
        "what",
        "whatever",
        "when",
        "whence",
        "whenever",
        "where",
        "whereafter",
        "whereas",
        "whereby",
        "wherein",
        "whereupon",
        "wherever",
        "whether",
        "which",
        "while",
        "whither",
        "who",
        "whoever",
        "whole",
        "whom",
        "whose",
        "why",
        "will",
        "with",
        "within",
        "without",
        "would",
        "yet",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "‘d",
        "‘ll",
        "‘m",
        "‘re",
        "‘s",
        "‘ve",
        "’d",
        "’ll",
        "’m",
        "’re",
        "’s",
        "’ve",
    }
)


_CONTENT_WORD = re.compile(r"[^\W_]+")


def content_words(text: str) -> frozenset[str]:
    """The words of `text` that carry content, folded and crudely stemmed ("moved" and
    "moves", "moving" -> "mov"): what a bullet and the sentence it restates have in common."""
    out = set()
    for word in _CONTENT_WORD.findall(fold(text)):
        if word in ENGLISH or (len(word) < 3 and not word.isdigit()):
            continue
        out.add(crude_stem(word))
    return frozenset(out)


# --- a question's full-text query (graphmem.search.seeds) ---------------------------------

QUERY_EN = """a about above after again against all am an and any are as at be because been
before being below between both but by can could did do does doing down during each few for
from further had has have having he her here hers herself him himself his how i if in into
is it its itself just me more most my myself no nor not now of off on once only or other our
ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through to too under until up very was we were
what when where which while who whom whose why will with would you your yours yourself
yourselves tell please know remember recall anything something ever"""
# Folded (accents removed, as in the index). Left out on purpose: "son", "car", "ete", "sao",
# "era": content words in English ("son", "car", "era") or names ("São Paulo").
QUERY_FR = """a au aux avec c ce ces cet cette d dans de des du elle elles en est et etait
etre eux il ils j je l la le les leur leurs lui m ma mais me meme mes moi mon n ne ni nos
notre nous on ont ou par pas pour qu quand que quel quelle quelles quels qui quoi s sa se
ses sont sur t ta te tes toi ton tu un une vos votre vous y comment pourquoi combien donc"""
QUERY_PT = """a ao aos as com como da das de do dos e ela elas ele eles em entre essa esse
esta este eu foi ha isso isto ja lhe mais mas me meu minha muito na nas nao nem no nos o os
onde ou para pela pelas pelo pelos por porque qual quando que quem se sem ser seu sua tambem
te tem um uma voce"""
QUERY = frozenset((QUERY_EN + " " + QUERY_FR + " " + QUERY_PT).split())

#: Not an opinion's topic (graphmem.compile.opinions).
OPINION_TOPIC = frozenset(
    """a an the and or but of in on at to for from with by as is are was were be been being
    has have had do does did he she it they them his her their its this that these those there
    here i we you me us my our your so than then also still just very much more most far less
    about into over under after before since until while because if when where which who what
    how all any each every everything anything something nothing some other such only own same
    too can will would should could may might must now today tonight yesterday tomorrow again
    ever once up out off get gets got non not no nor never cannot ca wo sha s t
    jan feb mar apr jun jul aug sep sept oct nov dec january february march april june july
    august september october november december monday tuesday wednesday thursday friday saturday
    sunday le la les un une des du de et est il elle en au aux pour par sur dans pas plus ne
    que qui o os um uma da do das dos em no na nos nas e ele ela com por para mais mas""".split()
)

#: Not the topic of a sentence read for reflection (graphmem.compile.stance).
STANCE_TOPIC = frozenset(
    """a an the and or but of in on at to for from with by as is are was were be been being
    has have had do does did he she it they them his her their its this that these those
    there here i we you me us my our your so than then also still just very much more most
    less about into over under after before since until while because if when where which
    who what how all any each every some other such only own same too can will would should
    could may might must now today tonight yesterday tomorrow again ever once up out off get
    got not no nor never cannot don t s ll d re ve m probably really think thinks said says
    le la les un une des du de et est il elle en au aux pour par sur dans pas plus ne que qui
    ce se sa son ses elle ils o os um uma da do das dos em no na nos nas e ele ela com por
    para mais mas der die das ein eine und ist nicht mit von zu den dem des auf fur sich
    auch es el los las y con lo se su sus january february march april june july august
    september october november december janvier fevrier mars avril mai juin juillet aout
    septembre octobre novembre decembre janeiro fevereiro marco abril maio junho julho agosto
    setembro outubro dezembro januar februar marz juni juli oktober dezember enero febrero
    marzo mayo junio julio septiembre diciembre week weeks month year
    antes depois estar esta estao vai vao foi foram ser sera hoje ontem amanha ja muito
    avant apres etre ete va vont sont aujourd'hui hier demain tres
    vor nach heute gestern morgen wird werden wurde sehr schon
    despues hoy ayer manana fue van muy longer""".split()
)

#: Left out of the words a supersession fallback compares (graphmem.compile.supersede).
SUPERSEDE_CONTENT = frozenset(
    "a an the and or but of in on at to for from with by as is are was were be been has have "
    "had he she it they his her their its this that there here not no now longer anymore "
    "instead used switched changed so than then also still just very de da do em no na le la "
    "les et est il elle".split()
)
