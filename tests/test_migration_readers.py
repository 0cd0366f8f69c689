"""Reading archives into captures and rejects (no database): every row is migrated or
rejected with its file, line and reason, never dropped without a record."""

from __future__ import annotations

from pathlib import Path

import pytest

from factstore.errors import InvalidInput
from factstore.migration import (
    ColumnMap,
    detect_format,
    discover_archives,
    parse_map,
    read_archive,
)
from tests.archives import write_archives

MAPPING = ColumnMap(text="body", said_at="created", lineage="doc", captured_by="who")


@pytest.fixture(scope="module")
def archives(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("archives")
    return folder, write_archives(folder)


def _mapping_for(name: str) -> ColumnMap:
    tabular = name.endswith((".jsonl", ".csv", ".parquet")) and name != "timeline.jsonl"
    if not tabular:
        return ColumnMap()
    return ColumnMap(text="body", said_at="created", lineage="doc")


def test_discovery_lists_each_archive_and_skips_hidden_and_rejects_files(archives):
    folder, expected = archives
    (folder / ".hidden.jsonl").write_text("{}\n")
    (folder / "old.jsonl.rejects.jsonl").write_text("{}\n")
    (folder / "readme.pdf").write_bytes(b"%PDF")
    assert discover_archives(folder) == sorted(expected)


def test_every_row_is_a_capture_or_a_reject_with_its_line_and_reason(archives):
    folder, expected = archives
    for name, want in expected.items():
        scan = read_archive(folder / name, _mapping_for(name))
        if want["rows"] is not None:
            assert len(scan.rows) + len(scan.rejects) == want["rows"], name
        got = {r.line: r.reason for r in scan.rejects}
        assert set(got) == set(want["rejects"]), (name, got)
        for line, words in want["rejects"].items():
            assert words in got[line], (name, line, got[line])


def test_formats_are_told_by_name_and_first_record(archives):
    folder, _ = archives
    assert [detect_format(folder / n) for n in ("chat.jsonl", "tickets.csv", "export.parquet",
                                                 "notes", "dialogue.json", "timeline.jsonl")] \
        == ["jsonl", "csv", "parquet", "text-folder", "locomo", "timeline-v1"]


def test_tabular_rows_carry_their_mapped_fields(archives):
    folder, _ = archives
    scan = read_archive(folder / "chat.jsonl", MAPPING)
    first = scan.captures[0]
    assert first["text"] == "The billing service is healthy."
    assert first["source_ref"] == "ops/0" and first["captured_by"] == "ana"
    assert first["said_at"].isoformat() == "2026-03-01T09:00:00+00:00"
    assert first["source_type"] == "capture"


def test_a_text_folder_gives_one_document_per_file_with_its_path_as_lineage(archives):
    folder, _ = archives
    scan = read_archive(folder / "notes", ColumnMap())
    assert sorted(c["source_ref"] for c in scan.captures) == ["notes/adr-001.md",
                                                              "notes/team/oncall.txt"]
    assert {c["source_type"] for c in scan.captures} == {"file"}


def test_locomo_turns_are_utterances_dated_by_their_session(archives):
    folder, _ = archives
    scan = read_archive(folder / "dialogue.json", ColumnMap())
    assert scan.captures and all(c["source_type"] == "utterance" for c in scan.captures)
    assert all(c["said_at"].utcoffset().total_seconds() == 0 for c in scan.captures)
    assert len({c["source_ref"] for c in scan.captures}) == len(scan.captures)


def test_qmsum_meetings_give_one_capture_per_spoken_turn(tmp_path):
    meeting = {"topic_list": [{"topic": "budget"}], "meeting_transcripts": [
        {"speaker": "PM", "content": "The budget is twelve thousand."},
        {"speaker": "UI", "content": "  "},
        {"speaker": "ME", "content": "We decided on a rubber case."}]}
    folder = tmp_path / "meetings"
    folder.mkdir()
    (folder / "ES2002a.json").write_text(__import__("json").dumps(meeting))
    scan = read_archive(folder, ColumnMap())
    assert scan.format == "qmsum"
    assert [(c["source_ref"], c["captured_by"]) for c in scan.captures] == [
        ("ES2002a:T1", "PM"), ("ES2002a:T3", "ME")]


def test_a_naive_timestamp_is_rejected_unless_a_zone_is_configured(tmp_path):
    archive = tmp_path / "naive.jsonl"
    archive.write_text('{"text": "Ana owns billing.", "said_at": "2026-01-02 10:00:00"}\n')
    refused = read_archive(archive, ColumnMap())
    assert not refused.rows and "no offset" in refused.rejects[0].reason
    read = read_archive(archive, ColumnMap(timezone="Europe/Berlin"))
    assert read.captures[0]["said_at"].isoformat() == "2026-01-02T09:00:00+00:00"  # 10:00 CET


def test_a_number_where_text_belongs_is_rejected_not_migrated_as_digits(tmp_path):
    archive = tmp_path / "mixed.jsonl"
    archive.write_text('{"text": "Ana owns billing."}\n{"text": 42}\n')
    scan = read_archive(archive, ColumnMap())
    assert [c["text"] for c in scan.captures] == ["Ana owns billing."]
    assert scan.rejects[0].line == 2 and "int" in scan.rejects[0].reason


def test_a_mapping_naming_a_missing_column_is_refused_with_the_columns_found(archives):
    folder, _ = archives
    with pytest.raises(InvalidInput, match="body.*lacks|lacks.*nope"):
        read_archive(folder / "chat.jsonl", ColumnMap(text="nope"))


@pytest.mark.parametrize("spec, words", [
    ("text", "FIELD=COLUMN"), ("colour=x", "FIELD=COLUMN"), ("text=a,text=b", "twice"),
    ("lineage=a,source_ref=b", "not both")])
def test_bad_map_specs_say_what_to_write(spec, words):
    with pytest.raises(InvalidInput, match=words):
        parse_map(spec)


def test_an_unknown_zone_or_source_type_is_refused():
    with pytest.raises(InvalidInput, match="timezone"):
        ColumnMap(timezone="Mars/Olympus")
    with pytest.raises(InvalidInput, match="source_type"):
        ColumnMap(source_type="fax")


def test_a_dataset_folder_is_told_by_its_json_not_by_its_readme(tmp_path, archives):
    folder, _ = archives
    shipped = tmp_path / "locomo"
    shipped.mkdir()
    (shipped / "README.md").write_text("# LoCoMo\n\nConversations.\n")
    (shipped / "LICENSE.txt").write_text("CC BY-NC 4.0\n")
    (shipped / "conv.json").write_text((folder / "dialogue.json").read_text())
    assert detect_format(shipped) == "locomo"
    assert read_archive(shipped, ColumnMap()).captures
    (shipped / "notes.md").write_text("Ana owns billing.\n")
    assert detect_format(shipped) == "text-folder"  # a real document among them
