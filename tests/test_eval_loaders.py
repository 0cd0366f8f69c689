"""The dataset loaders on the project's own tiny fixtures (tests/fixtures/datasets/, and
evals/data/locomo.json, which is also the locomo-recall eval's default dataset).

The fixtures are invented sentences laid out exactly like the real files, quirks included
(STS-B's headerless tab-separated .csv, MRPC's BOM and CRLF, SICK's doubled quotes, ScoNe's
three header variants, RTE.txt in Latin-1, CondaQA's JSON Lines under a .json name, LoCoMo's
evidence typos). Nothing here reads the external dataset folder.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest

from evals.loaders import (
    FORMATS,
    Conversation,
    Pair,
    detect_format,
    load_any,
    load_condaqa,
    load_hossain,
    load_locomo,
    load_mrpc,
    load_paws,
    load_scone,
    load_sick,
    load_stsb,
    negation_inversions,
    paraphrase_truth,
    polarity_truth,
)
from evals.registry import DATA
from factstore.errors import InvalidInput

FIX = Path(__file__).resolve().parent / "fixtures" / "datasets"
#: the LoCoMo fixture is also the locomo-recall eval's default dataset, so it ships with evals
LOCOMO = DATA / "locomo.json"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- STS-B


def test_stsb_reads_headerless_tab_separated_csv_with_licence_fields():
    pairs = load_stsb(FIX / "stsb-dev.csv")
    assert len(pairs) == 6
    assert [p.score for p in pairs] == [5.0, 4.5, 2.4, 0.0, 4.0, 2.0]
    first = pairs[0]
    assert (first.a, first.b) == ("A cat is sleeping on the sofa.", "A cat sleeps on the sofa.")
    assert first.source == "stsb" and first.id == "MSRvid-2012test-0001"
    assert first.meta == {"genre": "main-captions", "filename": "MSRvid", "year": "2012test"}
    # The trailing licence fields are not glued onto sentence2; quotes stay literal.
    assert pairs[2].a == 'Council delays vote on new "bike lanes'
    assert pairs[2].b == "Council approves budget for road repairs"
    assert pairs[3].a.startswith('"Brew it')
    assert len({p.id for p in pairs}) == 6


def test_stsb_bands_and_truth_use_the_readme_thresholds():
    pairs = load_stsb(FIX / "stsb-dev.csv")
    assert [p.label for p in pairs] == ["paraphrase", "paraphrase", "partial", "not_paraphrase",
                                        "partial", "not_paraphrase"]
    # 4.5 and 2 are inside their bands; 4 and 2.4 are excluded.
    assert [paraphrase_truth(p) for p in pairs] == [True, True, None, False, None, False]
    assert {polarity_truth(p) for p in pairs} == {None}


def test_stsb_reads_a_named_header_comma_csv(tmp_path):
    file = _write(tmp_path / "pairs.csv",
                  'sentence1,sentence2,score\n"A bird sings, loudly.",A bird sings.,4.8\n'
                  "The shop is closed.,The shop is open.,1.0\n")
    pairs = load_stsb(file)
    assert [(p.a, p.score, p.id) for p in pairs] == [("A bird sings, loudly.", 4.8, "line2"),
                                                     ("The shop is closed.", 1.0, "line3")]


# --------------------------------------------------------------------------- MRPC, PAWS


def test_mrpc_reads_bom_crlf_and_literal_quotes():
    pairs = load_mrpc(FIX / "mrpc-dev.tsv")
    assert len(pairs) == 4
    assert [p.label for p in pairs] == ["paraphrase", "not_paraphrase", "paraphrase",
                                        "not_paraphrase"]
    assert pairs[0].id == "100001-100002" and pairs[0].score is None
    assert pairs[1].a == '"We are not selling the plant," the mayor said on Tuesday.'
    # The file has no final newline and CRLF everywhere else: no stray "\r" survives.
    assert pairs[3].b == 'The museum closed in 2021 for a "full renovation.'
    assert not any("\r" in p.a + p.b for p in pairs)
    assert [paraphrase_truth(p) for p in pairs] == [True, False, True, False]


def test_paws_reads_the_published_layout():
    pairs = load_paws(FIX / "paws-dev.tsv")
    assert [p.id for p in pairs] == ["1", "2", "3", "4"]
    assert [paraphrase_truth(p) for p in pairs] == [False, True, False, True]
    assert pairs[2].a == 'The song " Blue Harbour was released as a single .'
    assert all(p.source == "paws" and p.score is None for p in pairs)


# --------------------------------------------------------------------------- SICK


def test_sick_fields_labels_and_meta():
    pairs = load_sick(FIX / "sick.tsv")
    assert len(pairs) == 6
    assert [p.label for p in pairs] == ["entailment", "entailment", "contradiction", "neutral",
                                        "entailment", "contradiction"]
    assert [p.score for p in pairs] == [4.9, 4.6, 4.1, 1.8, 3.9, 4.3]
    assert pairs[0].meta == {"entailment_AB": "A_entails_B", "entailment_BA": "B_entails_A",
                             "set": "TRAIN"}
    assert pairs[2].a == "A boy is not riding a bicycle"


def test_sick_truth_mappings():
    pairs = load_sick(FIX / "sick.tsv")
    assert [paraphrase_truth(p) for p in pairs] == [True, True, False, None, None, False]
    # strict: pair 2 is entailed one way only (B_neutral_A), so it is no restatement.
    assert [paraphrase_truth(p, strict=True) for p in pairs] == [True, None, False, None, None,
                                                                 False]
    assert [polarity_truth(p) for p in pairs] == [True, True, None, None, True, None]


def test_sick_split_filters_semeval_set():
    assert [p.id for p in load_sick(FIX / "sick.tsv", split="dev")] == ["4", "5", "6"]
    assert [p.id for p in load_sick(FIX / "sick.tsv", split="train")] == ["1", "2", "3"]


def test_sick_reads_the_semeval_2014_five_column_layout(tmp_path):
    file = _write(tmp_path / "SICK_trial.txt",
                  "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
                  "9\tA cat naps\tA cat is napping\t4.7\tENTAILMENT\n")
    [pair] = load_sick(file)
    assert (pair.id, pair.label, pair.score, pair.meta) == ("9", "entailment", 4.7, {})
    assert paraphrase_truth(pair, strict=True) is True  # no entailment_BA to contradict it


# --------------------------------------------------------------------------- ScoNe


def test_scone_folder_reads_every_condition_of_the_train_split():
    pairs = load_scone(FIX / "scone")
    assert len(pairs) == 6
    by_id = {p.id: p for p in pairs}
    assert set(by_id) == {f"{c}-{i}" for c in ("one_scoped", "one_scoped_one_not_scoped",
                                               "two_not_scoped") for i in (0, 1)}
    plain = by_id["one_scoped-0"]  # no edited columns: the sentence1/sentence2 pair
    assert plain.a == "A girl is not eating a fruit in the kitchen."
    assert plain.label == "entailment"
    assert plain.meta["negations"] == 1 and plain.meta["scoped"] == 1
    assert plain.meta["lex"] == ("fruit", "apple") and plain.meta["group"] is None
    edited = by_id["two_not_scoped-0"]  # edited columns win, with gold_label_edited
    assert edited.a == "A girl is eating a fruit, not in the kitchen and not at noon."
    assert edited.label == "neutral" and edited.meta["group"] == "0"
    assert (edited.meta["negations"], edited.meta["scoped"]) == (2, 0)
    mixed = by_id["one_scoped_one_not_scoped-1"]  # its only label column is gold_label_edited
    assert mixed.b == "A girl is not eating a fruit, and she is not in the kitchen."
    assert mixed.label == "neutral"


def test_scone_truths_and_single_file():
    pairs = load_scone(FIX / "scone" / "train" / "two_not_scoped.csv")
    assert len(pairs) == 2
    assert {polarity_truth(p) for p in pairs} == {True}
    assert {paraphrase_truth(p) for p in pairs} == {None}


# --------------------------------------------------------------------------- Hossain


def test_hossain_folder_reads_latin1_rte_and_snli():
    pairs = load_hossain(FIX / "hossain")
    assert len(pairs) == 9
    rte = [p for p in pairs if p.meta["corpus"] == "RTE"]
    assert rte[0].a == "The café in Orléans does not open before nine."
    assert [p.label for p in rte] == ["not_entailment", "not_entailment", "entailment"]
    assert [p.meta["negated"] for p in rte] == ["text", "hypothesis", "both"]
    snli = [p for p in pairs if p.meta["corpus"] == "SNLI"]
    assert [p.id for p in snli] == [f"SNLI-{i}" for i in range(6)]
    # The second SNLI triple never negates its hypothesis: the shape check refuses it.
    assert [p.meta["negated"] for p in snli[3:]] == [None, None, None]
    assert [paraphrase_truth(p) for p in snli] == [False, False, None, None, None, None]
    assert {polarity_truth(p) for p in pairs} == {None}


def test_negation_inversions_pair_each_sentence_with_its_negation():
    inversions = negation_inversions(load_hossain(FIX / "hossain"))
    by_id = {p.id: p for p in inversions}
    assert sorted(by_id) == ["RTE-0-hypothesis", "RTE-0-text", "SNLI-0-hypothesis",
                             "SNLI-0-text", "SNLI-1-text"]
    text = by_id["RTE-0-text"]
    assert (text.a, text.b) == ("The café in Orléans opens before nine.",
                                "The café in Orléans does not open before nine.")
    hypothesis = by_id["SNLI-0-hypothesis"]
    assert (hypothesis.a, hypothesis.b) == ("A kid holds a balloon.",
                                            "A kid does not hold a balloon.")
    assert {p.label for p in inversions} == {"inverted"}
    assert {polarity_truth(p) for p in inversions} == {False}
    assert {paraphrase_truth(p) for p in inversions} == {False}


# --------------------------------------------------------------------------- CondaQA


def test_condaqa_one_pair_per_passage_edit():
    pairs = load_condaqa(FIX / "condaqa.json")
    # Edit 1 appears for two questions but once here; passage 8's "scope edit" is identical
    # to its original and is dropped; the originals (edit 0) are every pair's ``a``.
    assert [p.id for p in pairs] == ["7-1", "7-2", "7-3", "8-3"]
    assert [p.label for p in pairs] == ["paraphrase", "scope", "affirmative", "affirmative"]
    assert "\xa0" in pairs[0].a  # the original passage verbatim
    assert pairs[0].b.startswith("The Larkfield ferry runs every hour")
    assert pairs[0].meta["cue"] == "not" and pairs[0].meta["passage_id"] == 7
    assert [p.meta["edited_sentence"] for p in pairs] == [
        "On public holidays there is no ferry service.",
        "It does not run on public holidays before noon.",
        None,  # that edit also changed the next sentence
        "She learned to swim as a child.",
    ]
    assert pairs[3].meta["original_sentence"] == "She never learned to swim as a child."


def test_condaqa_truth_mappings():
    pairs = load_condaqa(FIX / "condaqa.json")
    assert [paraphrase_truth(p) for p in pairs] == [True, None, False, False]
    assert [polarity_truth(p) for p in pairs] == [True, None, False, False]


def test_condaqa_reads_a_json_array_too(tmp_path):
    records = [json.loads(line) for line in (FIX / "condaqa.json").read_text("utf-8").splitlines()]
    file = _write(tmp_path / "condaqa_dev.json", json.dumps(records))
    assert [p.id for p in load_condaqa(file)] == ["7-1", "7-2", "7-3", "8-3"]


# --------------------------------------------------------------------------- LoCoMo


def test_locomo_sessions_turns_and_dates():
    [conv] = load_locomo(LOCOMO)
    assert isinstance(conv, Conversation)
    assert (conv.sample_id, conv.speaker_a, conv.speaker_b) == ("conv-fixture", "Ada", "Ben")
    # session_3 has a date but no turns, as in the real conv-26: not a session.
    assert [s.number for s in conv.sessions] == [1, 2]
    first = conv.sessions[0]
    assert first.date_time == "2:05 pm on 3 March, 2023"
    assert first.when == datetime(2023, 3, 3, 14, 5)
    assert conv.sessions[1].when == datetime(2023, 3, 17, 10, 40)
    assert [t.dia_id for t in conv.turns()] == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2", "D2:3"]
    photo = conv.turn("D1:2")
    assert photo is not None and photo.speaker == "Ben" and photo.session == 1
    assert photo.image_caption == "a photo of a clay bowl on a wheel"
    assert conv.turn("D9:9") is None
    assert first.summary.startswith("Ada and Ben talked on 3 March 2023")
    assert [(e.speaker, e.text) for e in first.events] == [
        ("Ada", "Ada adopts a grey cat named Pixel."), ("Ben", "Ben starts a pottery class.")]


def test_locomo_observations_carry_evidence_turn_ids():
    [conv] = load_locomo(LOCOMO)
    observations = list(conv.observations())
    assert len(observations) == 5
    assert observations[0].speaker == "Ada" and observations[0].evidence == ("D1:1",)
    assert observations[0].text == "Ada adopted a grey cat named Pixel."
    assert observations[-1].evidence == ("D2:1", "D2:3")  # a list in the source
    assert observations[-1].session == 2
    assert all(conv.turn(e) is not None for o in observations for e in o.evidence)


def test_locomo_qa_evidence_is_normalised():
    [conv] = load_locomo(LOCOMO)
    assert len(conv.qa) == 4
    assert conv.qa[0].evidence == ("D1:1",) and conv.qa[0].answer == "Pixel"
    assert conv.qa[1].evidence == ("D1:1", "D2:1")  # "D1:1; D2:1" split
    assert conv.qa[1].raw_evidence == ("D1:1; D2:1",)
    assert conv.qa[2].evidence == ("D2:3",)  # "D:2:3" repaired, bare "D" dropped
    assert conv.qa[2].answer == "1"  # numeric answers become strings
    adversarial = conv.qa[3]
    assert (adversarial.category, adversarial.answer) == (5, None)
    assert adversarial.adversarial_answer == "She goes on Mondays"


def test_locomo_to_dict_is_json_able():
    [conv] = load_locomo(LOCOMO)
    row = conv.to_dict()
    assert json.loads(json.dumps(row))["sessions"][0]["when"] == "2023-03-03T14:05:00"


# --------------------------------------------------------------------------- load_any


@pytest.mark.parametrize(("name", "fmt", "count"), [
    ("stsb-dev.csv", "stsb", 6), ("mrpc-dev.tsv", "mrpc", 4), ("sick.tsv", "sick", 6),
    ("paws-dev.tsv", "paws", 4), (LOCOMO, "locomo", 1), ("scone", "scone", 6),
    ("condaqa.json", "condaqa", 4), ("hossain", "hossain", 9),
])
def test_load_any_dispatches_on_the_name(name, fmt, count):
    path = name if isinstance(name, Path) else FIX / name
    assert detect_format(path) == fmt
    loaded = load_any(path)
    assert len(loaded) == count
    if fmt != "locomo":
        assert all(isinstance(p, Pair) and p.source == fmt for p in loaded)


def test_load_any_detects_from_parent_folders_and_upstream_names(tmp_path):
    assert detect_format(tmp_path / "negation_nli_hossain" / "RTE.txt") == "hossain"
    assert detect_format(tmp_path / "data" / "sts-dev.csv") == "stsb"
    assert detect_format(tmp_path / "msr-para-val.tsv") == "mrpc"
    assert detect_format(tmp_path / "SICK_train_trial.tsv") == "sick"


def test_load_any_fmt_overrides_the_name(tmp_path):
    file = tmp_path / "mine.tsv"
    shutil.copy(FIX / "paws-dev.tsv", file)
    assert [p.source for p in load_any(file, fmt="PAWS")] == ["paws"] * 4


def test_load_any_unknown_format_lists_the_formats():
    with pytest.raises(InvalidInput) as err:
        load_any(FIX / "paws-dev.tsv", fmt="glue")
    for fmt in FORMATS:
        assert fmt in str(err.value)


def test_load_any_without_a_hint_in_the_name(tmp_path):
    file = _write(tmp_path / "pairs.tsv", "id\tsentence1\tsentence2\tlabel\n")
    with pytest.raises(InvalidInput, match="cannot tell the dataset format.*fmt="):
        load_any(file)


# --------------------------------------------------------------------------- folders


def test_folder_picks_dev_then_train_and_honours_split(tmp_path):
    folder = tmp_path / "bench"
    folder.mkdir()
    shutil.copy(FIX / "stsb-dev.csv", folder / "sts-dev.csv")
    _write(folder / "sts-train.csv", "main-news\theadlines\t2016\t0001\t1.0\tA b.\tC d.\n")
    _write(folder / "readme.txt", "not data\n")
    assert len(load_stsb(folder)) == 6
    assert [p.score for p in load_stsb(folder, split="train")] == [1.0]
    with pytest.raises(InvalidInput, match="no test file"):
        load_stsb(folder, split="test")
    with pytest.raises(InvalidInput, match="split must be one of"):
        load_stsb(folder, split="holdout")


def test_folder_with_two_dev_files_is_ambiguous(tmp_path):
    folder = tmp_path / "bench"
    folder.mkdir()
    shutil.copy(FIX / "paws-dev.tsv", folder / "dev.tsv")
    shutil.copy(FIX / "paws-dev.tsv", folder / "dev_small.tsv")
    with pytest.raises(InvalidInput, match="several dev files"):
        load_paws(folder)


def test_scone_split_folder_must_exist():
    with pytest.raises(InvalidInput, match="no test folder"):
        load_scone(FIX / "scone", split="test")


# --------------------------------------------------------------------------- bad files


def test_missing_column_names_file_line_and_expected_header(tmp_path):
    file = _write(tmp_path / "bad.tsv", "id\tsentence1\tsentence2\n1\tA.\tB.\n")
    with pytest.raises(InvalidInput) as err:
        load_paws(file)
    message = str(err.value)
    assert str(file) in message and "line 1" in message
    assert "missing column(s) label" in message and "sentence1" in message


def test_short_row_names_its_line(tmp_path):
    lines = (FIX / "mrpc-dev.tsv").read_text("utf-8-sig").splitlines()
    lines[2] = "1\t42\t43\tOnly one sentence here."
    file = _write(tmp_path / "bad.tsv", "\n".join(lines))
    with pytest.raises(InvalidInput, match=r"bad\.tsv, line 3: expected 5 fields"):
        load_mrpc(file)


def test_bad_values_name_their_line(tmp_path):
    stsb = _write(tmp_path / "a.csv", "g\tf\t2016\t1\t5.0\tA.\tB.\ng\tf\t2016\t2\t7.5\tA.\tB.\n")
    with pytest.raises(InvalidInput, match=r"line 2: score .* from 0 to 5, found '7.5'"):
        load_stsb(stsb)
    short = _write(tmp_path / "b.csv", "g\tf\t2016\t1\t5.0\tA.\n")
    with pytest.raises(InvalidInput, match="line 1: expected 7 tab-separated fields"):
        load_stsb(short)
    sick_lines = (FIX / "sick.tsv").read_text("utf-8").splitlines()
    sick_lines[3] = sick_lines[3].replace("CONTRADICTION", "UNKNOWN")
    sick = _write(tmp_path / "c.tsv", "\n".join(sick_lines))
    with pytest.raises(InvalidInput, match="line 4: entailment label must be"):
        load_sick(sick)
    paws = _write(tmp_path / "d.tsv", "id\tsentence1\tsentence2\tlabel\n1\tA.\tB.\tyes\n")
    with pytest.raises(InvalidInput, match="line 2: label must be 0 or 1"):
        load_paws(paws)


def test_unreadable_json_names_file_and_line(tmp_path):
    broken = _write(tmp_path / "locomo.json", '[\n {"sample_id": "x",\n  "qa": [,]}\n]\n')
    with pytest.raises(InvalidInput) as err:
        load_locomo(broken)
    assert str(broken) in str(err.value) and "line 3" in str(err.value)
    assert "not valid JSON" in str(err.value)
    lines = (FIX / "condaqa.json").read_text("utf-8").splitlines()
    lines[1] = lines[1][:-1]
    jsonl = _write(tmp_path / "condaqa.json", "\n".join(lines))
    with pytest.raises(InvalidInput, match=r"condaqa\.json, line 2: not valid JSON"):
        load_condaqa(jsonl)


def test_locomo_structure_errors_name_the_json_path(tmp_path):
    data = json.loads(LOCOMO.read_text("utf-8"))
    del data[0]["conversation"]["session_2"][1]["text"]
    file = _write(tmp_path / "locomo.json", json.dumps(data))
    with pytest.raises(InvalidInput, match=r"at \$\[0\]\.conversation\.session_2\[1\]: "
                                           r"missing 'text'"):
        load_locomo(file)


def test_condaqa_missing_key_names_line(tmp_path):
    lines = (FIX / "condaqa.json").read_text("utf-8").splitlines()
    record = json.loads(lines[2])
    del record["PassageID"]
    lines[2] = json.dumps(record)
    file = _write(tmp_path / "condaqa.json", "\n".join(lines))
    with pytest.raises(InvalidInput, match="line 3: record has no 'PassageID'"):
        load_condaqa(file)


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(InvalidInput, match="does not exist"):
        load_sick(tmp_path / "nowhere.tsv")
    empty = _write(tmp_path / "empty.tsv", "")
    with pytest.raises(InvalidInput, match="empty.*expected a header"):
        load_mrpc(empty)


def test_pairs_are_frozen_and_hashable():
    pair = load_sick(FIX / "sick.tsv")[0]
    with pytest.raises(AttributeError):
        pair.label = "neutral"  # type: ignore[misc]
    assert len({pair, load_sick(FIX / "sick.tsv")[0]}) == 1
    assert pair.to_dict()["meta"]["set"] == "TRAIN"
