"""Loaders for the external datasets the evals measure against.

Each loader takes a path -- the data file itself or the dataset's folder -- and returns plain
frozen dataclasses: :class:`Pair` for the sentence-pair sets (STS-B, MRPC, SICK, PAWS, ScoNe,
CondaQA, Hossain et al.'s negation NLI) and :class:`Conversation` for LoCoMo. Nothing here
talks to a store; the evals turn these into captures and statements themselves.

The files are read as their sources ship them, quirks included (each loader's docstring lists
the ones it copes with). The two gold-label questions the evals ask are answered by
:func:`paraphrase_truth` ("do both sides state the same fact?") and :func:`polarity_truth`
("do both sides keep the same negation polarity?"), so the per-dataset judgement calls live
in one documented place instead of in every eval.

When a folder is given, the loader picks a file by its name: the dev split (names containing
``dev``, ``val``, ``validation`` or ``trial``) unless ``split`` says otherwise, falling back
to ``train`` and then to the folder's only data file. The test split is never picked unless
asked for, so a default run cannot tune on it.

A file that cannot be read or does not have the expected layout raises
:class:`factstore.errors.InvalidInput` naming the dataset, the file, the line (or, inside a
JSON document, the JSON path) and what was expected there.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from factstore.errors import InvalidInput

__all__ = [
    "FORMATS",
    "QA",
    "Conversation",
    "Event",
    "Observation",
    "Pair",
    "Session",
    "Turn",
    "detect_format",
    "load_any",
    "load_condaqa",
    "load_hossain",
    "load_locomo",
    "load_mrpc",
    "load_paws",
    "load_scone",
    "load_sick",
    "load_stsb",
    "negation_inversions",
    "paraphrase_truth",
    "polarity_truth",
]

# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Pair:
    """Two texts and what a dataset says about them.

    ``label`` is normalised across datasets (lower case; the values each loader produces are
    listed in its docstring). ``score`` is the dataset's graded score when it has one (STS-B
    similarity 0-5, SICK relatedness 1-5), else None. ``id`` is unique within one load.
    ``meta`` carries dataset-specific fields the truth functions or an eval may need; it is
    left out of the hash so a Pair stays hashable.
    """

    a: str
    b: str
    label: str
    score: float | None
    source: str
    id: str
    meta: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-able dict (the shape the eval registry's loaders return)."""
        row = asdict(self)
        row["meta"] = dict(self.meta)
        return row


@dataclass(frozen=True)
class Turn:
    """One LoCoMo dialogue turn. ``image_caption`` is the BLIP caption of a shared photo."""

    speaker: str
    dia_id: str
    text: str
    session: int
    image_caption: str | None = None


@dataclass(frozen=True)
class Observation:
    """A LoCoMo gold fact about a speaker, with the turn ids it was drawn from."""

    speaker: str
    text: str
    evidence: tuple[str, ...]
    session: int


@dataclass(frozen=True)
class Event:
    """A LoCoMo event-summary line (the annotated, not generated, per-speaker events)."""

    speaker: str
    text: str


@dataclass(frozen=True)
class Session:
    """A dated LoCoMo session: its turns, gold observations, summary and events.

    ``date_time`` is the string as shipped (``"1:56 pm on 8 May, 2023"``); ``when`` is it
    parsed (naive, no zone is given), or None when it does not parse.
    """

    number: int
    date_time: str | None
    when: datetime | None
    turns: tuple[Turn, ...]
    observations: tuple[Observation, ...] = ()
    summary: str | None = None
    events: tuple[Event, ...] = ()


@dataclass(frozen=True)
class QA:
    """A LoCoMo question. ``answer`` is None for adversarial (category 5) questions that only
    carry ``adversarial_answer``; numeric answers are kept as strings. ``evidence`` is
    normalised (see :func:`load_locomo`); ``raw_evidence`` is as shipped."""

    question: str
    answer: str | None
    category: int
    evidence: tuple[str, ...]
    adversarial_answer: str | None = None
    raw_evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Conversation:
    """One LoCoMo sample: two speakers, their sessions in order, and the QA annotations."""

    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: tuple[Session, ...]
    qa: tuple[QA, ...] = ()

    def turns(self) -> Iterator[Turn]:
        """Every turn, session by session."""
        for session in self.sessions:
            yield from session.turns

    def observations(self) -> Iterator[Observation]:
        """Every gold observation, session by session."""
        for session in self.sessions:
            yield from session.observations

    @cached_property
    def _by_dia_id(self) -> dict[str, Turn]:
        # cached_property writes the instance __dict__ directly, which a frozen dataclass allows.
        return {t.dia_id: t for t in self.turns()}

    def turn(self, dia_id: str) -> Turn | None:
        """The turn with that dialogue id, or None (LoCoMo's QA evidence has a few dangling ids)."""
        return self._by_dia_id.get(dia_id)

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-able dict; datetimes become ISO strings."""
        row = asdict(self)
        for session in row["sessions"]:
            if session["when"] is not None:
                session["when"] = session["when"].isoformat()
        return row


# --------------------------------------------------------------------------- labels

#: STS-B similarity at or above which a pair counts as the same fact (datasets README).
STSB_SAME = 4.5
#: STS-B similarity at or below which a pair counts as different facts.
STSB_DIFFERENT = 2.0
#: SICK relatedness at or above which an ENTAILMENT pair counts as a restatement.
SICK_SAME = 4.5

PARAPHRASE = "paraphrase"
NOT_PARAPHRASE = "not_paraphrase"
#: STS-B pairs scored strictly between STSB_DIFFERENT and STSB_SAME.
PARTIAL = "partial"
ENTAILMENT = "entailment"
NEUTRAL = "neutral"
CONTRADICTION = "contradiction"
#: RTE's two-way label, kept as shipped rather than folded into neutral/contradiction.
NOT_ENTAILMENT = "not_entailment"
#: a derived pair whose second side is the first with a negation added (negation_inversions).
INVERTED = "inverted"
#: CondaQA edit types, by PassageEditID (0 is the original passage itself).
CONDAQA_EDITS = {1: "paraphrase", 2: "scope", 3: "affirmative"}

_NLI_LABELS = frozenset({ENTAILMENT, NEUTRAL, CONTRADICTION})


def paraphrase_truth(pair: Pair, *, strict: bool = False) -> bool | None:
    """Whether the pair states the same fact (True), different or conflicting facts (False),
    or is too ambiguous to count (None, excluded from the metric).

    - STS-B: score >= 4.5 same, <= 2 different, between excluded (the datasets README's
      calibration bands; the middle is "partly the same", which no threshold should be
      scored on).
    - MRPC, PAWS: the 1/0 paraphrase label as given.
    - SICK: ENTAILMENT with relatedness >= 4.5 is a restatement; CONTRADICTION is False (a
      conflict candidate: the store must never treat it as a restatement); NEUTRAL and
      lower-relatedness ENTAILMENT are excluded. SICK's label is A-to-B only, and about a
      third of the ENTAILMENT >= 4.5 pairs are one-way (B adds or drops a detail), so
      ``strict=True`` also requires SICK's ``entailment_BA`` to say B entails A.
    - CondaQA: a paraphrase edit is the same fact; an affirmative edit (negation removed)
      is an inverted, so different, fact; a scope edit keeps the cue but moves what it
      negates -- neither a restatement nor a clean conflict, so excluded.
    - Hossain: NLI contradiction is False, as for SICK; derived ``inverted`` pairs are
      False; entailment and neutral relate two different sentences, so excluded.
    - ScoNe: premise and hypothesis differ by a hyponym/hypernym swap, which is neither a
      restatement nor a conflict: always None.
    """
    source, label = pair.source, pair.label
    if source == "stsb":
        if pair.score is None:
            return None
        if pair.score >= STSB_SAME:
            return True
        if pair.score <= STSB_DIFFERENT:
            return False
        return None
    if source in ("mrpc", "paws"):
        return {PARAPHRASE: True, NOT_PARAPHRASE: False}.get(label)
    if source == "sick":
        if label == CONTRADICTION:
            return False
        if label == ENTAILMENT and pair.score is not None and pair.score >= SICK_SAME:
            if strict and pair.meta.get("entailment_BA") not in (None, "B_entails_A"):
                return None
            return True
        return None
    if source == "condaqa":
        return {"paraphrase": True, "affirmative": False}.get(label)
    if source == "hossain":
        return False if label in (CONTRADICTION, INVERTED) else None
    if source == "scone":
        return None
    raise InvalidInput(f"paraphrase_truth: unknown pair source {source!r}; "
                       f"expected one of {', '.join(sorted(_PAIR_SOURCES))}")


def polarity_truth(pair: Pair) -> bool | None:
    """Whether both sides keep the same negation polarity (True: a polarity guard must not
    flag it), invert it (False: the guard must catch it), or it is not a polarity test (None).

    - SICK ENTAILMENT: the truth of A carries over to B, so polarity is preserved (the
      issue's "SICK entailment" false-flag set); other SICK labels are None.
    - ScoNe: every pair is True -- premise and hypothesis share the same negations and
      scopes and differ only in one lexical item, whatever the NLI label.
    - CondaQA: paraphrase edit True, affirmative edit False (the negation was undone),
      scope edit None (the cue stays but what it scopes over changes).
    - Hossain: the NLI pairs are None (text and hypothesis are different sentences); the
      derived ``inverted`` pairs from :func:`negation_inversions` are False.
    - STS-B, MRPC, PAWS: None; they are paraphrase sets, not polarity tests.
    """
    source, label = pair.source, pair.label
    if source == "sick":
        return True if label == ENTAILMENT else None
    if source == "scone":
        return True
    if source == "condaqa":
        return {"paraphrase": True, "affirmative": False}.get(label)
    if source == "hossain":
        return False if label == INVERTED else None
    if source in ("stsb", "mrpc", "paws"):
        return None
    raise InvalidInput(f"polarity_truth: unknown pair source {source!r}; "
                       f"expected one of {', '.join(sorted(_PAIR_SOURCES))}")


# --------------------------------------------------------------------------- reading helpers

_SPLITS: dict[str, tuple[str, ...]] = {
    "dev": ("dev", "val", "valid", "validation", "trial"),
    "train": ("train",),
    "test": ("test",),
}
_DOC_NAME = re.compile(r"^(readme|licen[cs]e)", re.IGNORECASE)


def _bad(dataset: str, path: Path, line: int | str | None, msg: str) -> InvalidInput:
    where = f", line {line}" if isinstance(line, int) else (f", at {line}" if line else "")
    return InvalidInput(f"{dataset}: {path}{where}: {msg}")


def _check_split(dataset: str, split: str | None) -> None:
    if split is not None and split not in _SPLITS:
        raise InvalidInput(f"{dataset}: split must be one of {', '.join(_SPLITS)} or None, "
                           f"not {split!r}")


def _name_splits(name: str) -> set[str]:
    """Which splits a file or folder name claims, by whole words (``SICK_train_trial`` is both)."""
    words = set(re.split(r"[^a-z]+", name.lower()))
    return {split for split, tokens in _SPLITS.items() if words & set(tokens)}


def _data_files(folder: Path, exts: Sequence[str]) -> list[Path]:
    return sorted(f for f in folder.iterdir()
                  if f.is_file() and f.suffix.lower() in exts and not _DOC_NAME.match(f.name))


def _existing(path: str | Path, dataset: str) -> Path:
    p = Path(path)
    if not p.exists():
        raise InvalidInput(f"{dataset}: {p} does not exist; pass the dataset's file or its folder")
    return p


def _pick_file(path: str | Path, dataset: str, exts: Sequence[str], split: str | None) -> Path:
    """The one data file to read: ``path`` itself, or the split's file inside the folder."""
    _check_split(dataset, split)
    p = _existing(path, dataset)
    if p.is_file():
        return p
    files = _data_files(p, exts)
    for wanted in (split,) if split else ("dev", "train"):
        hits = [f for f in files if wanted in _name_splits(f.stem)]
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise InvalidInput(f"{dataset}: {p} has several {wanted} files "
                               f"({', '.join(f.name for f in hits)}); pass one of them")
    # A folder holding a single unsplit file (LoCoMo's one JSON) needs no naming convention.
    if split is None and len(files) == 1:
        return files[0]
    found = ", ".join(f.name for f in files) or "none"
    raise InvalidInput(f"{dataset}: no {split or 'dev or train'} file ({'/'.join(exts)}) in {p} "
                       f"(data files found: {found}); pass the file itself or another split")


def _pick_files(path: str | Path, dataset: str, exts: Sequence[str],
                split: str | None) -> list[Path]:
    """All data files of a multi-file dataset (ScoNe, Hossain): ``path`` itself, the files in
    the folder, or those in its split subfolder (ScoNe ships ``train/`` and ``test/``)."""
    _check_split(dataset, split)
    p = _existing(path, dataset)
    if p.is_file():
        return [p]
    subdirs = [d for d in sorted(p.iterdir()) if d.is_dir() and _name_splits(d.name)]
    for wanted in (split,) if split else ("dev", "train"):
        hits = [d for d in subdirs if wanted in _name_splits(d.name)]
        if hits:
            p = hits[0]
            break
    else:
        if split is not None:
            raise InvalidInput(f"{dataset}: {p} has no {split} folder; pass a file or folder")
    files = _data_files(p, exts)
    if not files:
        raise InvalidInput(f"{dataset}: no data files ({'/'.join(exts)}) in {p}")
    return files


def _read_text(path: Path, dataset: str) -> str:
    """The file's text. UTF-8 (a BOM, as on MRPC's train file, is dropped); Hossain's RTE.txt
    is Latin-1, so undecodable UTF-8 falls back to cp1252 and then Latin-1 (which never fails)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise _bad(dataset, path, None, f"cannot read the file ({exc.strerror or exc})") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _tsv_rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of each non-blank line, split on tabs only.

    Not the csv module: STS-B, MRPC, SICK and PAWS put unbalanced double quotes in sentences
    (``"the witness", ...``) and mean them literally; no field holds a tab or a newline.
    """
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if line.strip():
            yield number, line.split("\t")


def _csv_rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of each non-blank record of a quoted CSV (ScoNe, comma STS-B)."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                yield reader.line_num, row
    except csv.Error as exc:
        raise InvalidInput(f"line {reader.line_num}: {exc}") from exc


class _Header:
    """A header row resolved to column positions, with row access that reports bad lines."""

    def __init__(self, dataset: str, path: Path, line: int, names: Sequence[str],
                 required: Mapping[str, Sequence[str]]) -> None:
        self.dataset, self.path = dataset, path
        self.names = [n.strip() for n in names]
        self.index: dict[str, int] = {}
        missing = []
        # ``required`` maps our name to the accepted spellings (SICK's label column is
        # entailment_label in SICK.txt but entailment_judgment in the SemEval-2014 files).
        for key, spellings in required.items():
            pos = next((self.names.index(s) for s in spellings if s in self.names), None)
            if pos is None:
                missing.append(spellings[0])
            else:
                self.index[key] = pos
        if missing:
            found = ", ".join(self.names) or "an empty line"
            if len(found) > 160:  # a data row mistaken for a header: enough to recognise it
                found = found[:157] + "..."
            raise _bad(dataset, path, line,
                       f"missing column(s) {', '.join(missing)}; expected a header with "
                       f"{', '.join(s[0] for s in required.values())}, found {found}")

    def optional(self, key: str, *spellings: str) -> None:
        """Resolve an optional column (absent is fine)."""
        pos = next((self.names.index(s) for s in spellings if s in self.names), None)
        if pos is not None:
            self.index[key] = pos

    def get(self, row: Sequence[str], line: int, key: str) -> str:
        pos = self.index[key]
        if pos >= len(row):
            raise _bad(self.dataset, self.path, line,
                       f"expected {len(self.names)} fields ({', '.join(self.names)}), "
                       f"found {len(row)}")
        return row[pos].strip()

    def maybe(self, row: Sequence[str], line: int, key: str) -> str | None:
        return self.get(row, line, key) if key in self.index else None


def _number(dataset: str, path: Path, line: int, what: str, value: str,
            low: float, high: float) -> float:
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if not low <= number <= high:  # also rejects NaN
        raise _bad(dataset, path, line, f"{what} must be a number from {low:g} to {high:g}, "
                                        f"found {value!r}")
    return number


def _binary(dataset: str, path: Path, line: int, what: str, value: str) -> str:
    if value not in ("0", "1"):
        raise _bad(dataset, path, line, f"{what} must be 0 or 1, found {value!r}")
    return PARAPHRASE if value == "1" else NOT_PARAPHRASE


def _nonempty(dataset: str, path: Path, line: int, **texts: str) -> None:
    for name, text in texts.items():
        if not text:
            raise _bad(dataset, path, line, f"{name} is empty")


# --------------------------------------------------------------------------- STS-B

_STSB_POSITIONAL = ("genre", "filename", "year", "id", "score", "sentence1", "sentence2")


def load_stsb(path: str | Path, *, split: str | None = None) -> list[Pair]:
    """STS Benchmark pairs scored 0-5.

    A folder resolves to ``sts-dev.csv`` (``sts-train.csv`` with ``split="train"``). The
    original files are named ``.csv`` but are TAB-separated with no header: genre, filename,
    year, id, score, sentence1, sentence2, and on some rows two trailing licence fields
    (ignored). Scores are written ``5.000``, ``4`` or ``2.40``. Double quotes are literal
    and often unbalanced. A file whose first row names ``sentence1``, ``sentence2`` and
    ``score`` (GLUE's STS-B, sentence-transformers' export; tab- or comma-separated) is read
    by those names instead.

    ``label`` is the :func:`paraphrase_truth` band: ``paraphrase`` (>= 4.5),
    ``not_paraphrase`` (<= 2) or ``partial``; ``score`` is the similarity. ``id`` is
    ``filename-year-id`` (unique across train and dev), or the file's own id column.
    """
    file = _pick_file(path, "stsb", (".csv", ".tsv"), split)
    text = _read_text(file, "stsb")
    first = text.split("\n", 1)[0]
    names = [n.strip().lower() for n in re.split(r"[\t,]", first)]
    if {"sentence1", "sentence2"} <= set(names):
        return _stsb_named(file, text, tabbed="\t" in first)
    if "\t" not in first:
        raise _bad("stsb", file, 1, "expected tab-separated fields "
                   f"({', '.join(_STSB_POSITIONAL)}) or a header naming sentence1, sentence2 "
                   "and score")
    pairs = []
    for line, row in _tsv_rows(text):
        if len(row) < len(_STSB_POSITIONAL):
            raise _bad("stsb", file, line, f"expected {len(_STSB_POSITIONAL)} tab-separated "
                       f"fields ({', '.join(_STSB_POSITIONAL)}), found {len(row)}")
        genre, filename, year, sid, raw_score, a, b = (f.strip() for f in row[:7])
        score = _number("stsb", file, line, "score (field 5)", raw_score, 0.0, 5.0)
        _nonempty("stsb", file, line, sentence1=a, sentence2=b)
        pairs.append(Pair(a, b, _stsb_band(score), score, "stsb", f"{filename}-{year}-{sid}",
                          {"genre": genre, "filename": filename, "year": year}))
    return pairs


def _stsb_named(file: Path, text: str, *, tabbed: bool) -> list[Pair]:
    rows = _tsv_rows(text) if tabbed else _wrap_csv("stsb", file, text)
    line, names = next(rows)
    header = _Header("stsb", file, line, [n.lower() for n in names],
                     {"a": ("sentence1",), "b": ("sentence2",),
                      "score": ("score", "similarity_score")})
    header.optional("id", "id", "sid", "index")
    header.optional("genre", "genre")
    pairs = []
    for line, row in rows:
        a, b = header.get(row, line, "a"), header.get(row, line, "b")
        score = _number("stsb", file, line, "score", header.get(row, line, "score"), 0.0, 5.0)
        _nonempty("stsb", file, line, sentence1=a, sentence2=b)
        genre = header.maybe(row, line, "genre")
        pairs.append(Pair(a, b, _stsb_band(score), score, "stsb",
                          header.maybe(row, line, "id") or f"line{line}",
                          {"genre": genre} if genre else {}))
    return pairs


def _wrap_csv(dataset: str, file: Path, text: str) -> Iterator[tuple[int, list[str]]]:
    """_csv_rows with the dataset and file put into its error message."""
    try:
        yield from _csv_rows(text)
    except InvalidInput as exc:
        raise InvalidInput(f"{dataset}: {file}, {exc}") from exc


def _stsb_band(score: float) -> str:
    if score >= STSB_SAME:
        return PARAPHRASE
    if score <= STSB_DIFFERENT:
        return NOT_PARAPHRASE
    return PARTIAL


# --------------------------------------------------------------------------- MRPC, PAWS


def load_mrpc(path: str | Path, *, split: str | None = None) -> list[Pair]:
    """Microsoft Research Paraphrase Corpus pairs, label 0/1.

    A folder resolves to the dev file (``msr-para-val.tsv``; ``msr-para-train.tsv`` with
    ``split="train"``). Layout: header ``Quality, #1 ID, #2 ID, #1 String, #2 String``,
    tab-separated, CRLF line ends, a UTF-8 BOM on the train file, no final newline on the
    val file, literal unbalanced double quotes. ``label`` is ``paraphrase`` (1) or
    ``not_paraphrase`` (0); ``id`` is ``"#1 ID-#2 ID"``.
    """
    file = _pick_file(path, "mrpc", (".tsv", ".txt"), split)
    rows = _tsv_rows(_read_text(file, "mrpc"))
    line, names = _first(rows, "mrpc", file)
    header = _Header("mrpc", file, line, names,
                     {"label": ("Quality",), "id1": ("#1 ID",), "id2": ("#2 ID",),
                      "a": ("#1 String",), "b": ("#2 String",)})
    pairs = []
    for line, row in rows:
        label = _binary("mrpc", file, line, "Quality", header.get(row, line, "label"))
        a, b = header.get(row, line, "a"), header.get(row, line, "b")
        _nonempty("mrpc", file, line, **{"#1 String": a, "#2 String": b})
        pair_id = f"{header.get(row, line, 'id1')}-{header.get(row, line, 'id2')}"
        pairs.append(Pair(a, b, label, None, "mrpc", pair_id))
    return pairs


def load_paws(path: str | Path, *, split: str | None = None) -> list[Pair]:
    """PAWS pairs (Wiki or QQP, labelled final), label 0/1.

    A folder resolves to ``dev.tsv`` (``train.tsv`` with ``split="train"``). Layout as
    published: header ``id, sentence1, sentence2, label``, tab-separated, quotes literal.
    ``label`` is ``paraphrase`` (1) or ``not_paraphrase`` (0); ``id`` is the file's id.
    """
    file = _pick_file(path, "paws", (".tsv",), split)
    rows = _tsv_rows(_read_text(file, "paws"))
    line, names = _first(rows, "paws", file)
    header = _Header("paws", file, line, names,
                     {"id": ("id",), "a": ("sentence1",), "b": ("sentence2",),
                      "label": ("label",)})
    pairs = []
    for line, row in rows:
        label = _binary("paws", file, line, "label", header.get(row, line, "label"))
        a, b = header.get(row, line, "a"), header.get(row, line, "b")
        _nonempty("paws", file, line, sentence1=a, sentence2=b)
        pairs.append(Pair(a, b, label, None, "paws", header.get(row, line, "id")))
    return pairs


def _first(rows: Iterator[tuple[int, list[str]]], dataset: str,
           file: Path) -> tuple[int, list[str]]:
    try:
        return next(rows)
    except StopIteration:
        raise _bad(dataset, file, 1, "the file is empty; expected a header row") from None


# --------------------------------------------------------------------------- SICK

_SICK_SETS = {"train": "TRAIN", "dev": "TRIAL", "test": "TEST"}


def load_sick(path: str | Path, *, split: str | None = None) -> list[Pair]:
    """SICK pairs with an entailment label and a 1-5 relatedness score.

    Reads ``SICK.txt``-style files (12 columns, the shared copy holding its TRAIN and TRIAL
    rows) and the SemEval-2014 files (5 columns, label column ``entailment_judgment``). A
    folder resolves to its dev file -- a name with ``trial`` counts, so the shared
    ``SICK_train_trial.tsv`` is picked for either split. Every row is returned unless
    ``split`` is given and the file has a ``SemEval_set`` column: then only that set's rows
    (dev = TRIAL, SemEval's development set).

    Tab-separated with literal quotes: the ``*_original`` columns carry CSV-style doubled
    (even quadrupled) quotes that must not be unescaped -- they are not used here anyway.
    ``label`` is ``entailment``/``neutral``/``contradiction`` (the A-to-B judgement);
    ``score`` is relatedness; ``meta`` has ``entailment_AB``, ``entailment_BA`` and ``set``
    where the file has them.
    """
    file = _pick_file(path, "sick", (".tsv", ".txt"), split)
    rows = _tsv_rows(_read_text(file, "sick"))
    line, names = _first(rows, "sick", file)
    header = _Header("sick", file, line, names,
                     {"id": ("pair_ID",), "a": ("sentence_A",), "b": ("sentence_B",),
                      "label": ("entailment_label", "entailment_judgment"),
                      "score": ("relatedness_score",)})
    for column in ("entailment_AB", "entailment_BA", "SemEval_set"):
        header.optional(column, column)
    wanted = _SICK_SETS[split] if split and "SemEval_set" in header.index else None
    pairs = []
    for line, row in rows:
        semeval_set = header.maybe(row, line, "SemEval_set")
        if wanted and semeval_set != wanted:
            continue
        label = header.get(row, line, "label").lower()
        if label not in _NLI_LABELS:
            raise _bad("sick", file, line, "entailment label must be ENTAILMENT, NEUTRAL or "
                       f"CONTRADICTION, found {header.get(row, line, 'label')!r}")
        score = _number("sick", file, line, "relatedness_score",
                        header.get(row, line, "score"), 1.0, 5.0)
        a, b = header.get(row, line, "a"), header.get(row, line, "b")
        _nonempty("sick", file, line, sentence_A=a, sentence_B=b)
        meta = {key: value for key in ("entailment_AB", "entailment_BA")
                if (value := header.maybe(row, line, key))}
        if semeval_set:
            meta["set"] = semeval_set
        pairs.append(Pair(a, b, label, score, "sick", header.get(row, line, "id"), meta))
    return pairs


# --------------------------------------------------------------------------- ScoNe

#: ScoNe-NLI condition (file stem) -> (negations in the pair, negations scoping over the
#: swapped lexical item). In two_scoped the second negation scopes over the first.
SCONE_CONDITIONS: dict[str, tuple[int, int]] = {
    "no_negation": (0, 0),
    "one_not_scoped": (1, 0),
    "one_scoped": (1, 1),
    "two_not_scoped": (2, 0),
    "two_scoped": (2, 2),
    "one_scoped_one_not_scoped": (2, 1),
}


def load_scone(path: str | Path, *, split: str | None = None) -> list[Pair]:
    """ScoNe-NLI premise/hypothesis pairs, one condition per CSV file.

    A folder resolves to its split subfolder (a dev/val folder if there is one, else
    ``train/``; the shared copy is ``scone/train/``; ``split`` picks another) and every
    ``.csv`` in it is read; a single file reads just that condition. The files are quoted CSVs (commas inside sentences), CRLF,
    with pandas' unnamed index as the first column. The pair is ``sentence1_edited`` /
    ``sentence2_edited`` / ``gold_label_edited`` when the file has edited columns, else
    ``sentence1`` / ``sentence2`` / ``gold_label`` (``one_scoped.csv`` is the unedited
    NMoNLI set). In ``one_scoped_one_not_scoped.csv`` the only label column is
    ``gold_label_edited``, placed right after sentence2. Some edited sentences keep the
    source's find-and-replace typos ("tsunhat"); they are kept verbatim.

    ``label`` is ``entailment`` or ``neutral``; ``id`` is ``condition-index``; ``meta`` has
    ``condition``, ``negations`` and ``scoped`` (from :data:`SCONE_CONDITIONS`, None for an
    unknown file name), ``lex`` (the swapped words) and ``group``.
    """
    pairs: list[Pair] = []
    for file in _pick_files(path, "scone", (".csv",), split):
        pairs.extend(_scone_file(file))
    return pairs


def _scone_file(file: Path) -> list[Pair]:
    rows = _wrap_csv("scone", file, _read_text(file, "scone"))
    line, names = _first(rows, "scone", file)
    if "sentence1_edited" in [n.strip() for n in names]:
        required = {"a": ("sentence1_edited",), "b": ("sentence2_edited",),
                    "label": ("gold_label_edited",)}
    else:
        required = {"a": ("sentence1",), "b": ("sentence2",), "label": ("gold_label",)}
    header = _Header("scone", file, line, names, required)
    header.optional("index", "")
    for column in ("sentence1_lex", "sentence2_lex", "group_index"):
        header.optional(column, column)
    condition = file.stem
    negations, scoped = SCONE_CONDITIONS.get(condition, (None, None))
    pairs = []
    for line, row in rows:
        label = header.get(row, line, "label").lower()
        if label not in _NLI_LABELS:
            raise _bad("scone", file, line, "the gold label must be entailment, neutral or "
                       f"contradiction, found {header.get(row, line, 'label')!r}")
        a, b = header.get(row, line, "a"), header.get(row, line, "b")
        _nonempty("scone", file, line, premise=a, hypothesis=b)
        index = header.maybe(row, line, "index") or f"line{line}"
        lex = (header.maybe(row, line, "sentence1_lex"), header.maybe(row, line, "sentence2_lex"))
        meta = {"condition": condition, "negations": negations, "scoped": scoped,
                "lex": lex if all(lex) else None, "group": header.maybe(row, line, "group_index")}
        pairs.append(Pair(a, b, label, None, "scone", f"{condition}-{index}", meta))
    return pairs


# --------------------------------------------------------------------------- Hossain

_HOSSAIN_LABELS = _NLI_LABELS | {NOT_ENTAILMENT}
#: Within each triple of rows the paper adds a negation to the text, the hypothesis, or both.
_HOSSAIN_NEGATED = ("text", "hypothesis", "both")


def load_hossain(path: str | Path, *, split: str | None = None) -> list[Pair]:
    """Hossain et al. (2020) NLI pairs with negations added (RTE, SNLI, MNLI files).

    A folder reads every data file in it (``RTE.txt``, ``SNLI.txt``; README and LICENSE
    skipped). The set has no splits: a ``split`` names a subfolder to read instead, and is
    an error when there is none.
    Layout: header ``index, Text, Hypothesis, gold_label``, tab-separated, CRLF; RTE.txt is
    Latin-1, not UTF-8. Rows come in triples from one source pair: index 3k has the
    negation added to the text, 3k+1 to the hypothesis, 3k+2 to both. The loader checks
    that shape (row 3k+2 repeats 3k's text and 3k+1's hypothesis) before recording it in
    ``meta["negated"]``; a triple that does not fit gets None.

    ``label`` is ``entailment``/``neutral``/``contradiction`` (SNLI, MNLI) or
    ``entailment``/``not_entailment`` (RTE); ``id`` is ``corpus-index``; ``meta`` has
    ``corpus`` (the file stem), ``index``, ``group`` and ``negated``.
    """
    pairs: list[Pair] = []
    for file in _pick_files(path, "hossain", (".txt", ".tsv"), split):
        pairs.extend(_hossain_file(file))
    return pairs


def _hossain_file(file: Path) -> list[Pair]:
    rows = _tsv_rows(_read_text(file, "hossain"))
    line, names = _first(rows, "hossain", file)
    header = _Header("hossain", file, line, names,
                     {"index": ("index",), "a": ("Text",), "b": ("Hypothesis",),
                      "label": ("gold_label",)})
    corpus = file.stem
    parsed: list[tuple[int, str, str, str]] = []
    for line, row in rows:
        raw_index = header.get(row, line, "index")
        if not raw_index.isdigit():
            raise _bad("hossain", file, line, f"index must be a whole number, found {raw_index!r}")
        label = header.get(row, line, "label").lower()
        if label not in _HOSSAIN_LABELS:
            raise _bad("hossain", file, line, "gold_label must be entailment, neutral, "
                       f"contradiction or not_entailment, found {label!r}")
        a, b = header.get(row, line, "a"), header.get(row, line, "b")
        _nonempty("hossain", file, line, Text=a, Hypothesis=b)
        parsed.append((int(raw_index), a, b, label))
    by_index = {p[0]: p for p in parsed}
    pairs = []
    for index, a, b, label in parsed:
        group = index // 3
        triple = [by_index.get(3 * group + k) for k in range(3)]
        fits = (all(triple) and triple[0][1] == triple[2][1] and triple[1][2] == triple[2][2]
                and triple[0][1] != triple[1][1] and triple[0][2] != triple[1][2])
        meta = {"corpus": corpus, "index": index, "group": group,
                "negated": _HOSSAIN_NEGATED[index % 3] if fits else None}
        pairs.append(Pair(a, b, label, None, "hossain", f"{corpus}-{index}", meta))
    return pairs


def negation_inversions(pairs: Sequence[Pair]) -> list[Pair]:
    """Sentence-versus-its-negation pairs derived from Hossain triples (label ``inverted``).

    Row 3k+1 holds the source text and row 3k its negated text; row 3k holds the source
    hypothesis and row 3k+1 its negated hypothesis. So a triple yields up to two pairs
    (source, negated), ids ``corpus-group-text`` and ``corpus-group-hypothesis``: the
    inversions a polarity guard must catch. Each side is checked on its own (the two
    versions differ, and row 3k+2 repeats the negated one), because the source has a
    triple whose hypothesis was never negated and one where nothing was.
    """
    groups: dict[tuple[str, int], dict[int, Pair]] = {}
    for p in pairs:
        if p.source == "hossain" and isinstance(p.meta.get("index"), int):
            key = (str(p.meta.get("corpus")), p.meta["index"] // 3)
            groups.setdefault(key, {})[p.meta["index"] % 3] = p
    out = []
    for (corpus, group), rows in sorted(groups.items()):
        if len(rows) < 3:
            continue
        meta = {"corpus": corpus, "group": group}
        if rows[0].a != rows[1].a and rows[2].a == rows[0].a:
            out.append(Pair(rows[1].a, rows[0].a, INVERTED, None, "hossain",
                            f"{corpus}-{group}-text", {**meta, "side": "text"}))
        if rows[0].b != rows[1].b and rows[2].b == rows[1].b:
            out.append(Pair(rows[0].b, rows[1].b, INVERTED, None, "hossain",
                            f"{corpus}-{group}-hypothesis", {**meta, "side": "hypothesis"}))
    return out


# --------------------------------------------------------------------------- CondaQA


def load_condaqa(path: str | Path, *, split: str | None = None) -> list[Pair]:
    """CondaQA original-versus-edited passages, one pair per passage edit.

    A folder resolves to ``condaqa_dev.json`` (``condaqa_train.json`` with
    ``split="train"``). Despite the ``.json`` name the file is JSON Lines: one
    question-passage record per line, so each edited passage appears once per question;
    the loader keeps the first record of each (PassageID, PassageEditID). A JSON array of
    the same records is read too. PassageEditID 0 (the original) is not a pair of its own:
    its text is every edit's ``a``. Edits whose passage is unchanged from the original
    (after whitespace normalisation) are dropped -- they carry no edit to test.

    ``a`` is ``original passage``, ``b`` the edited passage (``sentence1``), ``label`` the
    edit type: ``paraphrase``, ``scope`` or ``affirmative`` (negation undone). ``meta`` has
    ``passage_id``, ``edit_id``, ``cue``, ``original_sentence`` and ``edited_sentence``:
    the edited span recovered by stripping the text shared with the original around the
    original sentence, whitespace-normalised (the originals use non-breaking spaces where
    the edits do not). It is None when the worker also changed text outside that sentence.
    """
    file = _pick_file(path, "condaqa", (".json", ".jsonl"), split)
    pairs: list[Pair] = []
    seen: set[tuple[Any, int]] = set()
    for where, record in _json_records("condaqa", file):
        for key in ("PassageID", "PassageEditID", "sentence1", "original passage"):
            if key not in record:
                raise _bad("condaqa", file, where, f"record has no {key!r}; expected the keys "
                           "PassageID, PassageEditID, sentence1, original passage")
        edit = record["PassageEditID"]
        if isinstance(edit, str) and edit.isdigit():
            edit = int(edit)
        if edit not in (0, 1, 2, 3):
            raise _bad("condaqa", file, where, f"PassageEditID must be 0-3, found {edit!r}")
        key = (record["PassageID"], edit)
        if edit == 0 or key in seen:
            continue
        seen.add(key)
        original, edited = str(record["original passage"]), str(record["sentence1"])
        if _norm_ws(original) == _norm_ws(edited):
            continue
        original_sentence = record.get("original sentence")
        meta = {"passage_id": record["PassageID"], "edit_id": edit,
                "cue": record.get("original cue"),
                "original_sentence": original_sentence,
                "edited_sentence": _edited_span(original, original_sentence, edited)}
        pairs.append(Pair(original, edited, CONDAQA_EDITS[edit], None, "condaqa",
                          f"{record['PassageID']}-{edit}", meta))
    return pairs


def _norm_ws(text: str) -> str:
    return " ".join(text.replace("\xa0", " ").split())


def _edited_span(original: str, sentence: Any, edited: str) -> str | None:
    """The edited passage minus the text it shares with the original on both sides of the
    original sentence; None when the edit reached outside that sentence."""
    if not isinstance(sentence, str) or not sentence.strip():
        return None
    original, sentence, edited = _norm_ws(original), _norm_ws(sentence), _norm_ws(edited)
    at = original.find(sentence)
    if at < 0:
        return None
    before, after = original[:at], original[at + len(sentence):]
    if (len(edited) < len(before) + len(after) or not edited.startswith(before)
            or not edited.endswith(after)):
        return None
    span = edited[len(before):len(edited) - len(after)].strip()
    return span or None


def _json_records(dataset: str, file: Path) -> Iterator[tuple[int | str, dict[str, Any]]]:
    """(where, record) from a JSON Lines file (where = line number) or from a JSON array
    (where = the record's JSON path, as json.loads keeps no positions)."""
    text = _read_text(file, dataset)
    if text.lstrip().startswith("["):
        data = _parse_json(dataset, file, text)
        for i, record in enumerate(data):
            if not isinstance(record, dict):
                raise _bad(dataset, file, f"$[{i}]", "expected a JSON object")
            yield f"$[{i}]", record
        return
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _bad(dataset, file, number, f"not valid JSON ({exc.msg}, column "
                       f"{exc.colno}); expected one JSON object per line") from exc
        if not isinstance(record, dict):
            raise _bad(dataset, file, number, "expected a JSON object on each line")
        yield number, record


def _parse_json(dataset: str, file: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _bad(dataset, file, exc.lineno,
                   f"not valid JSON ({exc.msg}, column {exc.colno})") from exc


# --------------------------------------------------------------------------- LoCoMo

_SESSION_KEY = re.compile(r"^session_(\d+)$")
# "D:11:26" is a typo in the source for D11:26; "D8:6; D9:17" packs two ids in one string.
_EVIDENCE_ID = re.compile(r"D:?(\d+):(\d+)")
_LOCOMO_TIME = "%I:%M %p on %d %B, %Y"


def load_locomo(path: str | Path) -> list[Conversation]:
    """LoCoMo conversations: dated sessions of turns, gold observations, QA with evidence.

    A folder resolves to its only ``.json`` file (``locomo10.json`` upstream, the shared
    ``locomo_conv0-4.json``). The file is a JSON array of samples (a single sample object
    is accepted too), each with ``sample_id``, ``conversation`` (``speaker_a``,
    ``speaker_b``, ``session_N`` turn lists, ``session_N_date_time``), ``observation``
    (``session_N_observation``: speaker -> list of ``[text, evidence]``), and optionally
    ``session_summary`` (``session_N_summary``), ``event_summary`` (``events_session_N``:
    speaker -> list of lines, plus a ``date``) and ``qa``.

    Quirks handled: a sample can carry ``session_N_date_time`` keys for sessions it has no
    turns for (conv-26 lists 35 dates for 19 sessions) -- only sessions with turns are
    kept; observation evidence is a string or a list of ids; QA evidence ids are
    normalised (``"D8:6; D9:17"`` split, ``"D:11:26"`` read as ``D11:26``, a bare ``"D"``
    dropped, duplicates removed) with the original in ``raw_evidence``; ids are not
    checked against the turns (one QA id in the shared set points at no turn:
    :meth:`Conversation.turn` returns None); adversarial questions (category 5) have
    ``adversarial_answer`` and usually no ``answer``; some answers are numbers (kept as
    strings).
    """
    file = _pick_file(path, "locomo", (".json",), None)
    data = _parse_json("locomo", file, _read_text(file, "locomo"))
    if isinstance(data, dict) and "conversation" in data:
        data = [data]
    if not isinstance(data, list):
        raise _bad("locomo", file, "$", "expected a JSON array of samples, each with "
                   "'conversation' and 'observation'")
    return [_locomo_sample(file, i, sample) for i, sample in enumerate(data)]


def _need(file: Path, where: str, obj: Any, key: str, kind: type | tuple[type, ...]) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise _bad("locomo", file, where, f"missing {key!r}")
    value = obj[key]
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise _bad("locomo", file, f"{where}.{key}",
                   f"expected {names}, found {type(value).__name__}")
    return value


def _locomo_sample(file: Path, i: int, sample: Any) -> Conversation:
    where = f"$[{i}]"
    if not isinstance(sample, dict):
        raise _bad("locomo", file, where, "expected a sample object")
    sample_id = str(sample.get("sample_id") or f"sample-{i}")
    conv = _need(file, where, sample, "conversation", dict)
    cwhere = f"{where}.conversation"
    speaker_a = _need(file, cwhere, conv, "speaker_a", str)
    speaker_b = _need(file, cwhere, conv, "speaker_b", str)
    observations = sample.get("observation") or {}
    summaries = sample.get("session_summary") or {}
    events = sample.get("event_summary") or {}
    for name, value in (("observation", observations), ("session_summary", summaries),
                        ("event_summary", events)):
        if not isinstance(value, dict):
            raise _bad("locomo", file, f"{where}.{name}", "expected an object keyed by session")
    numbers = sorted(int(m.group(1)) for key in conv if (m := _SESSION_KEY.match(key)))
    sessions = []
    for n in numbers:
        turns = _locomo_turns(file, f"{cwhere}.session_{n}", conv[f"session_{n}"], n)
        date_time = conv.get(f"session_{n}_date_time")
        date_time = date_time.strip() if isinstance(date_time, str) else None
        obs = _locomo_observations(file, f"{where}.observation.session_{n}_observation",
                                   observations.get(f"session_{n}_observation"), n)
        summary = summaries.get(f"session_{n}_summary")
        sessions.append(Session(
            number=n, date_time=date_time, when=_locomo_when(date_time), turns=turns,
            observations=obs, summary=summary if isinstance(summary, str) else None,
            events=_locomo_events(file, f"{where}.event_summary.events_session_{n}",
                                  events.get(f"events_session_{n}"))))
    qa_items = sample.get("qa") or []
    if not isinstance(qa_items, list):
        raise _bad("locomo", file, f"{where}.qa", "expected a list of questions")
    qa = tuple(_locomo_qa(file, f"{where}.qa[{j}]", item) for j, item in enumerate(qa_items))
    return Conversation(sample_id, speaker_a, speaker_b, tuple(sessions), qa)


def _locomo_turns(file: Path, where: str, raw: Any, session: int) -> tuple[Turn, ...]:
    if not isinstance(raw, list):
        raise _bad("locomo", file, where, "expected a list of turns")
    turns = []
    for k, turn in enumerate(raw):
        twhere = f"{where}[{k}]"
        speaker = _need(file, twhere, turn, "speaker", str)
        dia_id = _need(file, twhere, turn, "dia_id", str)
        text = _need(file, twhere, turn, "text", str)
        caption = turn.get("blip_caption")
        turns.append(Turn(speaker, dia_id.strip(), text, session,
                          caption if isinstance(caption, str) else None))
    return tuple(turns)


def _locomo_observations(file: Path, where: str, raw: Any,
                         session: int) -> tuple[Observation, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise _bad("locomo", file, where, "expected an object: speaker -> [[text, evidence]]")
    out = []
    for speaker, items in raw.items():
        if not isinstance(items, list):
            raise _bad("locomo", file, f"{where}.{speaker}", "expected a list of "
                       "[text, evidence] items")
        for k, item in enumerate(items):
            if (not isinstance(item, list) or len(item) < 2 or not isinstance(item[0], str)
                    or not isinstance(item[1], str | list)):
                raise _bad("locomo", file, f"{where}.{speaker}[{k}]",
                           "expected [text, evidence id or list of ids]")
            out.append(Observation(speaker, item[0], _evidence_ids(item[1]), session))
    return tuple(out)


def _locomo_events(file: Path, where: str, raw: Any) -> tuple[Event, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise _bad("locomo", file, where, "expected an object: speaker -> list of events")
    out = []
    for speaker, lines in raw.items():
        if speaker == "date":  # the session's date again, not a speaker
            continue
        if not isinstance(lines, list):
            raise _bad("locomo", file, f"{where}.{speaker}", "expected a list of events")
        out.extend(Event(speaker, line) for line in lines if isinstance(line, str))
    return tuple(out)


def _locomo_qa(file: Path, where: str, item: Any) -> QA:
    question = _need(file, where, item, "question", str)
    category = _need(file, where, item, "category", int)
    raw = item.get("evidence") or []
    raw_list = [str(e) for e in (raw if isinstance(raw, list) else [raw])]
    answer, adversarial = item.get("answer"), item.get("adversarial_answer")
    return QA(question=question,
              answer=None if answer is None else str(answer),
              category=category,
              evidence=_evidence_ids(raw_list),
              adversarial_answer=None if adversarial is None else str(adversarial),
              raw_evidence=tuple(raw_list))


def _evidence_ids(raw: str | list[Any]) -> tuple[str, ...]:
    found: list[str] = []
    for item in raw if isinstance(raw, list) else [raw]:
        for m in _EVIDENCE_ID.finditer(str(item)):
            dia_id = f"D{m.group(1)}:{m.group(2)}"
            if dia_id not in found:
                found.append(dia_id)
    return tuple(found)


def _locomo_when(date_time: str | None) -> datetime | None:
    if not date_time:
        return None
    try:
        return datetime.strptime(date_time, _LOCOMO_TIME)
    except ValueError:
        return None


# --------------------------------------------------------------------------- dispatch

#: format name -> loader. Every loader takes the path (and, except LoCoMo, ``split``).
# --------------------------------------------------------------------------- QMSum


@dataclass(frozen=True)
class Meeting:
    """One QMSum meeting transcript: its turns in order (``dia_id`` is ``T<n>``, from 1)
    and its topic names. QMSum gives no dates."""

    meeting_id: str
    turns: tuple[Turn, ...]
    topics: tuple[str, ...] = ()


def load_qmsum(path: str | Path) -> list[Meeting]:
    """QMSum meetings: a meeting JSON file, or a folder of them (``data/ALL/val`` upstream).

    Each file is an object with ``meeting_transcripts`` (a list of ``speaker`` and
    ``content``) and optionally ``topic_list`` (objects with ``topic``); the meeting id is
    the file name without ``.json``. A turn with empty content is kept out.
    """
    root = _existing(path, "qmsum")
    files = sorted(root.glob("*.json")) if root.is_dir() else [root]
    if not files:
        raise InvalidInput(f"qmsum: {root} holds no .json meeting files")
    return [_qmsum_meeting(file) for file in files]


def _qmsum_meeting(file: Path) -> Meeting:
    data = _parse_json("qmsum", file, _read_text(file, "qmsum"))
    if not isinstance(data, dict):
        raise _bad("qmsum", file, "$", "expected a JSON object with 'meeting_transcripts'")
    raw = _need(file, "$", data, "meeting_transcripts", list)
    turns = []
    for i, turn in enumerate(raw):
        where = f"$.meeting_transcripts[{i}]"
        if not isinstance(turn, dict):
            raise _bad("qmsum", file, where, "expected an object with 'speaker' and 'content'")
        speaker = _need(file, where, turn, "speaker", str)
        content = _need(file, where, turn, "content", str)
        if content.strip():
            turns.append(Turn(speaker, f"T{i + 1}", content, 0))
    topics = tuple(t["topic"] for t in data.get("topic_list") or ()
                   if isinstance(t, dict) and isinstance(t.get("topic"), str))
    return Meeting(file.stem, tuple(turns), topics)


FORMATS: dict[str, Callable[..., list[Any]]] = {
    "stsb": load_stsb,
    "mrpc": load_mrpc,
    "sick": load_sick,
    "paws": load_paws,
    "locomo": load_locomo,
    "scone": load_scone,
    "condaqa": load_condaqa,
    "hossain": load_hossain,
}
_PAIR_SOURCES = frozenset(FORMATS) - {"locomo"}

# How a path names its dataset. Word-ish boundaries keep "sick" out of "sickle" and
# "paws" out of "jigsaws"; the upstream file names (sts-dev.csv, msr-para-val.tsv,
# negation_nli_hossain/) are covered.
_NAME_PATTERNS: dict[str, re.Pattern[str]] = {
    "stsb": re.compile(r"stsb|sts[-_ ]?benchmark|^sts[-_](dev|train|test)"),
    "mrpc": re.compile(r"mrpc|msr[-_ ]?para"),
    "sick": re.compile(r"(^|[^a-z])sick([^a-z]|$)"),
    "paws": re.compile(r"(^|[^a-z])paws([^a-z]|$)"),
    "locomo": re.compile(r"locomo"),
    "scone": re.compile(r"(^|[^a-z])scone([^a-z]|$)"),
    "condaqa": re.compile(r"condaqa"),
    "hossain": re.compile(r"hossain|negation[-_ ]?(and[-_ ]?)?nli"),
}


def detect_format(path: str | Path) -> str:
    """The format a path's name implies, looking at the file name first and then at each
    parent folder upward (``negation_nli_hossain/RTE.txt`` is hossain)."""
    p = Path(path)
    for part in [p.name, *(parent.name for parent in p.parents)]:
        hits = [fmt for fmt, pattern in _NAME_PATTERNS.items() if pattern.search(part.lower())]
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise InvalidInput(f"{p}: the name {part!r} matches several formats "
                               f"({', '.join(hits)}); pass fmt= one of them")
    raise InvalidInput(f"{p}: cannot tell the dataset format from the path; pass fmt= one of "
                       f"{', '.join(FORMATS)}")


def load_any(path: str | Path, fmt: str | None = None, *,
             split: str | None = None) -> list[Pair] | list[Conversation]:
    """Load ``path`` with the loader ``fmt`` names, or the one its name implies.

    ``split`` is passed to the pair loaders (LoCoMo has no splits and rejects one).
    """
    if fmt is None:
        fmt = detect_format(path)
    key = fmt.strip().lower()
    if key not in FORMATS:
        raise InvalidInput(f"unknown dataset format {fmt!r}; expected one of "
                           f"{', '.join(FORMATS)}")
    if key == "locomo":
        if split is not None:
            raise InvalidInput("locomo: the dataset has no splits; pass split=None")
        return load_locomo(path)
    return FORMATS[key](path, split=split)
