"""Names: how two written names of one referent are recognised (tiers T1 and T2).

Pure. Postgres here has no ``pg_trgm`` (and no ``fuzzystrmatch``), so fuzzy matching is
done in two steps: the store finds a bounded snapshot of candidates by **keys** on a
btree (every normalised token of a name, its nickname's canonical form, its Soundex code,
and the whole normalised name), then this module scores each candidate in Python. Soundex
keeps one-letter misspellings ("Preya" / "Priya", "Micheal" / "Michael", "Jonh" / "John")
on the same key, so the btree finds them without a trigram index; Jaro-Winkler then scores
the pair, rewarding a shared beginning, which is how names are usually misspelled. A
character-trigram index would find more distant misspellings, at the cost of an index that
the stock server does not ship; the key table keeps the store on plain Postgres.

- :func:`normalise` folds case, accents, punctuation, titles ("Dr.", "Ms.") and company
  suffixes ("Inc.", "Ltd"), so "Dr. Mei Chen" and "mei chen" are one name (T1).
- :func:`canonical_given` maps a nickname to its given name ("Bobby" -> "robert"); a short
  form ("Sam" of "Samantha") and a plural ("Arc Lab" / "Arc Labs") fit too.
- :func:`name_score` says how well a mention's name fits a candidate's names, and why.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

TITLES = frozenset((
    "dr", "doctor", "mr", "mrs", "ms", "miss", "mx", "prof", "professor", "sir", "dame",
    "lord", "lady", "rev", "fr", "sr", "jr", "capt", "captain", "col", "gen", "sgt", "lt",
    "hon", "judge", "president", "ceo", "cto", "cfo", "coo", "vp", "director", "manager",
    "uncle", "aunt", "auntie", "grandma", "grandpa", "coach",
))
COMPANY_SUFFIXES = frozenset((
    "inc", "incorporated", "corp", "corporation", "co", "company", "llc", "ltd", "limited",
    "plc", "gmbh", "ag", "sa", "bv", "nv", "pty", "group", "holdings", "the",
))
#: Nicknames to given names (the common English ones; both directions are keys).
NICKNAMES: dict[str, str] = {
    "bob": "robert", "bobby": "robert", "rob": "robert", "robbie": "robert", "bert": "robert",
    "bill": "william", "billy": "william", "will": "william", "willy": "william",
    "liam": "william", "liz": "elizabeth", "lizzie": "elizabeth", "beth": "elizabeth",
    "betty": "elizabeth", "eliza": "elizabeth", "libby": "elizabeth", "kate": "katherine",
    "katie": "katherine", "kathy": "katherine", "kat": "katherine", "catherine": "katherine",
    "cathy": "katherine", "jim": "james", "jimmy": "james", "jamie": "james",
    "mike": "michael", "mikey": "michael", "mick": "michael", "tom": "thomas",
    "tommy": "thomas", "dick": "richard", "rick": "richard", "ricky": "richard",
    "rich": "richard", "dan": "daniel", "danny": "daniel", "dave": "david", "davey": "david",
    "joe": "joseph", "joey": "joseph", "jo": "josephine", "sam": "samuel", "sammy": "samuel",
    "alex": "alexander", "sasha": "alexander", "sandy": "alexandra", "lexi": "alexandra",
    "chris": "christopher", "kit": "christopher", "matt": "matthew", "nick": "nicholas",
    "nicky": "nicholas", "tony": "anthony", "andy": "andrew", "drew": "andrew",
    "steve": "steven", "stephen": "steven", "ed": "edward", "eddie": "edward",
    "ted": "edward", "ben": "benjamin", "benny": "benjamin", "greg": "gregory",
    "jen": "jennifer", "jenny": "jennifer", "jess": "jessica", "jessie": "jessica",
    "meg": "margaret", "maggie": "margaret", "peggy": "margaret", "pat": "patricia",
    "patty": "patricia", "trish": "patricia", "sue": "susan", "susie": "susan",
    "val": "valerie", "vicky": "victoria", "tori": "victoria", "becky": "rebecca",
    "abby": "abigail", "gabe": "gabriel", "fred": "frederick", "freddie": "frederick",
    "frank": "francis", "fran": "frances", "gus": "augustus", "hank": "henry",
    "harry": "henry", "jack": "john", "johnny": "john", "jon": "jonathan",
    "nate": "nathan", "nat": "natalie", "pete": "peter", "phil": "philip", "ray": "raymond",
    "ron": "ronald", "ronnie": "ronald", "tim": "timothy", "timmy": "timothy",
    "walt": "walter", "zach": "zachary", "zack": "zachary", "al": "albert",
    "charlie": "charles", "chuck": "charles", "don": "donald", "doug": "douglas",
    "em": "emily", "emmy": "emily", "gina": "regina", "manny": "manuel", "mo": "mohammed",
    "nico": "nicolas", "olly": "oliver", "ollie": "oliver", "rosie": "rose",
    "teddy": "theodore", "theo": "theodore", "vince": "vincent", "xander": "alexander",
    "izzy": "isabel", "bella": "isabella", "lou": "louis", "lucy": "lucia",
    "mandy": "amanda", "mattie": "matilda", "max": "maximilian", "ken": "kenneth",
    "kenny": "kenneth", "larry": "lawrence", "len": "leonard", "lenny": "leonard",
    "marty": "martin", "mel": "melanie", "mitch": "mitchell", "sal": "salvatore",
    "stan": "stanley", "terry": "terence", "tess": "theresa", "wes": "wesley",
}
#: Words an acronym skips ("Bank *of* America" is BoA's 'ba').
_LINKS = frozenset(("of", "the", "and", "for", "de", "la", "du", "von", "van", "&"))
_WORD = re.compile(r"[^\W_]+")


def _ascii(text: str) -> str:
    """Accents folded ('José' -> 'jose'); letters of other scripts kept as they are
    ('李明', 'Алексей'), so every written name has words to match on."""
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize(
        "NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


_POSSESSIVE = re.compile(r"['’]s\b", re.IGNORECASE)


def tokens(name: str) -> list[str]:
    """The name's words, folded, without titles, company suffixes, a leading '@' or a
    possessive ('John's' is John)."""
    words = _WORD.findall(_POSSESSIVE.sub("", _ascii(name)).lower())
    kept = [w for w in words if w not in TITLES and w not in COMPANY_SUFFIXES]
    return kept or words


def normalise(name: str) -> str:
    """The folded name T1 compares: 'Dr. Mei Chen' -> 'mei chen', 'Arc Labs, Inc.' ->
    'arc labs', '@priya' -> 'priya'."""
    return " ".join(tokens(name))


def canonical_given(word: str) -> str:
    """A nickname's given name ('bobby' -> 'robert'); any other word unchanged."""
    return NICKNAMES.get(word, word)


def soundex(word: str) -> str:
    """American Soundex of one word ('' for a word with no letters)."""
    letters = [c for c in word.lower() if c.isalpha()]
    if not letters:
        return ""
    codes = {**dict.fromkeys("bfpv", "1"), **dict.fromkeys("cgjkqsxz", "2"),
             **dict.fromkeys("dt", "3"), "l": "4", **dict.fromkeys("mn", "5"), "r": "6"}
    out, last = letters[0].upper(), codes.get(letters[0], "")
    for c in letters[1:]:
        code = codes.get(c, "")
        if code and code != last:
            out += code
        if c not in "hw":
            last = code
    return (out + "000")[:4]


def keys(name: str) -> set[str]:
    """The btree keys a name is found by: 'n:<normalised>', 't:<token>' for each token
    and its given name, 's:<soundex>' and 'p:<first three letters>' for each token of three
    letters or more."""
    words = tokens(name)
    found = {"n:" + " ".join(words)} if words else set()
    # acronyms meet their expansions: 'IBU' and 'International Business Unit' share 'a:ibu'
    if initials(name):
        found.add("a:" + initials(name))
    raw = name.strip().lstrip("@")
    if 2 <= len(raw) <= 6 and raw.isalpha() and raw.isupper():
        found.add("a:" + raw.lower())
    for word in words:
        found.add("t:" + word)
        found.add("t:" + canonical_given(word))
        if len(word) >= 3 and word.isalpha():
            found.add("s:" + soundex(word))
            found.add("p:" + word[:3])  # a short form: "Sam" of "Samantha"
    return found


def jaro_winkler(a: str, b: str) -> float:
    """Jaro-Winkler similarity in [0, 1] (prefix scale 0.1, up to four characters)."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    reach = max(len(a), len(b)) // 2 - 1
    matched_a = [False] * len(a)
    matched_b = [False] * len(b)
    matches = 0
    for i, ch in enumerate(a):
        for j in range(max(0, i - reach), min(len(b), i + reach + 1)):
            if not matched_b[j] and b[j] == ch:
                matched_a[i] = matched_b[j] = True
                matches += 1
                break
    if not matches:
        return 0.0
    sa = [c for c, m in zip(a, matched_a, strict=True) if m]
    sb = [c for c, m in zip(b, matched_b, strict=True) if m]
    transpositions = sum(x != y for x, y in zip(sa, sb, strict=True)) / 2
    jaro = (matches / len(a) + matches / len(b) + (matches - transpositions) / matches) / 3
    prefix = 0
    for x, y in zip(a[:4], b[:4], strict=False):
        if x != y:
            break
        prefix += 1
    return jaro + prefix * 0.1 * (1 - jaro)


@dataclass(frozen=True)
class NameFit:
    """How a mention's name fits one candidate name: a score in [0, 1], the tier that found
    it, and why ('exact', 'alias', 'nickname', 'part', 'initials', 'spelling')."""

    score: float
    tier: str
    why: str


_NO_FIT = NameFit(0.0, "", "no fit")


def _word_fit(a: str, b: str) -> float:
    """Two words: the same, one the other's nickname, or a close spelling."""
    if a == b:
        return 1.0
    if canonical_given(a) == canonical_given(b) or a.rstrip("s") == b.rstrip("s"):
        return 0.95
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 3 and len(long_) - len(short) >= 2 and long_.startswith(short) \
            and short.isalpha():
        return 0.85  # a short form: "Sam" / "Samantha", "Chris" / "Christina" (not "Tim"/"Time")
    # a close spelling: same sound, at most two letters more or fewer ("Jon" / "Joanna" is
    # two names), and stricter for short words, where one letter is much of the word
    if len(short) >= 3 and len(long_) - len(short) <= 2 and soundex(a) == soundex(b):
        score = jaro_winkler(a, b)
        return score if score >= (0.85 if len(short) >= 5 else 0.9) else 0.0
    return 0.0


def initials(name: str) -> str:
    """The initials of a name of two or more significant words ('International Business
    Unit' -> 'ibu'); '' otherwise."""
    words = [w for w in tokens(name) if w not in _LINKS]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""


def _acronym_of(short: str, long_: str) -> bool:
    """'IBU' written in capitals, and 'International Business Unit' its expansion."""
    word = short.strip().lstrip("@")
    return 2 <= len(word) <= 6 and word.isalpha() and word.isupper() and \
        initials(long_) == word.lower()


def name_fit(mention: str, candidate: str) -> NameFit:
    """How ``mention`` fits ``candidate`` (both as written)."""
    m, c = tokens(mention), tokens(candidate)
    if not m or not c:
        return _NO_FIT
    if _acronym_of(mention, candidate) or _acronym_of(candidate, mention):
        return NameFit(0.8, "T1", "acronym")
    if m == c:
        return NameFit(1.0, "T1", "exact")
    if len(m) == len(c):
        fits = [_word_fit(x, y) for x, y in zip(m, c, strict=True)]
        if all(fits):
            nick = any(x != y for x, y in zip(m, c, strict=True))
            spelled = any(f < 0.95 for f in fits) or any(
                x != y and canonical_given(x) != canonical_given(y)
                and x.rstrip("s") != y.rstrip("s") for x, y in zip(m, c, strict=True))
            score = min(fits)
            if spelled:
                return NameFit(score, "T2", "spelling")
            return NameFit(score, "T1", "nickname" if nick else "exact")
        # "M. Chen" / "Mei Chen", either way round
        for short, long_ in ((m, c), (c, m)):
            if len(short) > 1 and all(len(x) == 1 and y.startswith(x) for x, y in
                                      zip(short[:-1], long_[:-1], strict=True)) and fits[-1]:
                return NameFit(0.85, "T1", "initials")
        return _NO_FIT
    # one name is a part of the other: "Priya" of "Priya Patel", "Chen" of "Mei Chen"
    short, long_ = (m, c) if len(m) < len(c) else (c, m)
    for word in short:
        if not any(_word_fit(word, w) for w in long_):
            return _NO_FIT
    exact = all(any(word == w or canonical_given(word) == canonical_given(w) for w in long_)
                for word in short)
    return NameFit(0.8 if exact else 0.7, "T1" if exact else "T2", "part")


def name_score(mention: str, names: list[str]) -> NameFit:
    """The best fit of ``mention`` against a candidate's canonical name and aliases."""
    best = _NO_FIT
    for name in names:
        fit = name_fit(mention, name)
        if fit.score > best.score:
            best = fit if name == names[0] or fit.why != "exact" else \
                NameFit(fit.score, fit.tier, "alias")
    return best


def surname_clash(a: str, b: str) -> bool:
    """Two full names (two words or more each) whose last words are not one name: positive
    evidence of two people ('Alex Kim' / 'Alex Moreno')."""
    x, y = tokens(a), tokens(b)
    return len(x) >= 2 and len(y) >= 2 and not _word_fit(x[-1], y[-1])


def query_names(query: str) -> list[str]:
    """The normalised word runs (one to four words) of a question, for finding the
    entities it names by their exact names. Pure."""
    words = normalise(query).split()
    return sorted({" ".join(words[i:i + n]) for n in range(1, 5)
                   for i in range(len(words) - n + 1)})
