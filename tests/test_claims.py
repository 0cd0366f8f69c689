"""The claim layer against the real store: every assertion kept as immutable testimony,
whatever triage made of it, and read back by lineage, document, asserter, time or text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from factstore.errors import ClaimNotFound, FactStoreError, InvalidInput
from tests.helpers import fact, say

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_every_assertion_is_a_claim_whatever_triage_decides(store):
    written = say(store, "The release train ships on Friday.", "DECISION",
                  source_ref="standup-1").outcomes[0].fact
    restated = say(store, "The release train ships on Friday.", "DECISION",
                   source_ref="standup-2").outcomes[0]
    assert restated.outcome == "recaptured"
    contested = say(store, "The release train ships on Monday.", "DECISION",
                    source_ref="standup-3").outcomes[0]
    assert contested.outcome == "contested"
    parked_text = store.extractor.add("the staging gate is not optional", fact(
        "The staging gate is optional.", "DECISION", quote="the staging gate is not optional"))
    parked = store.remember(parked_text, source_ref="standup-4").outcomes[0].fact
    dropped_text = store.extractor.add("the cache is warm", fact(
        "The cache is cold.", "STATE", quote="the cache is frozen solid"))
    store.remember(dropped_text, source_ref="standup-5")
    event_text = ("migrated all 214 pages. Checksum parity verified (214 == 214), link sweep "
                  "found zero broken links")
    store.extractor.add(event_text,
                        fact("The team migrated all 214 pages.", "EVENT",
                             quote="migrated all 214 pages."),
                        fact("Checksum parity was verified (214 == 214).", "EVENT",
                             quote="Checksum parity verified (214 == 214)"))
    event = store.remember(event_text, source_ref="standup-6").outcomes[0].fact

    by_triage = {c.triage: c for c in store.claims()}
    assert set(by_triage) == {"written", "restatement", "contested", "parked", "dropped",
                              "absorbed"}
    assert by_triage["restatement"].fact_id == written.id
    assert by_triage["contested"].fact_id == contested.fact.id
    assert by_triage["parked"].fact_id == parked.id
    assert by_triage["absorbed"].fact_id == event.id
    assert by_triage["absorbed"].statement == "Checksum parity was verified (214 == 214)."
    dropped = by_triage["dropped"]
    assert dropped.fact_id is None and dropped.triage_reason.startswith("anchor")
    assert dropped.quote == "the cache is frozen solid"  # what the extractor claimed it said
    # the new claim that contests also stands against the fact it contradicts
    why = store.why(written.id)
    assert [x.claim.statement for x in why.contradicts] == ["The release train ships on Monday."]
    # the refused fact is still listed where the notebooks read refusals
    assert [d.stage for d in store.dropped_facts()] == ["anchor"]


def test_an_older_reading_is_a_claim_written_already_superseded(store):
    say(store, "svc-7 is healthy", "STATE", subject="svc-7", said_at=T0 + timedelta(hours=1))
    late = say(store, "svc-7 is paused", "STATE", subject="svc-7", said_at=T0).outcomes[0]
    assert late.outcome == "older-reading"
    (claim,) = store.claims(fact_id=late.fact.id)
    assert claim.triage == "superseded" and claim.asserted_at == T0


def test_a_claim_carries_who_when_where_and_which_generation(store):
    text = store.extractor.add(
        "Ana: Bob was CFO from 2019 to 2021",
        fact("Bob was CFO from 2019 to 2021.", "STATE", quote="Bob was CFO from 2019 to 2021",
             asserter="Ana", subject="Bob"))
    store.remember(text, source_ref="board-minutes", said_at=T0)
    untold = store.extractor.add("the vpn gateway is down",
                                 fact("The vpn gateway is down.", subject="vpn gateway"))
    store.remember(untold, source_type="file", source_ref="ops/status.md", said_at=T0)
    anonymous = store.extractor.add("the printer is jammed", fact("The printer is jammed."))
    store.remember(anonymous, said_at=T0)

    cfo, vpn, printer = (store.claims(text=t)[0] for t in ("CFO", "vpn", "printer"))
    assert (cfo.asserter, cfo.asserter_is) == ("Ana", "speaker")
    assert (cfo.valid_from, cfo.valid_to) == ("2019", "2021")
    assert cfo.asserted_at == T0 and cfo.extractor == "scripted/test"
    assert (cfo.lineage, cfo.document_version) == ("utterance:board-minutes", 1)
    assert (vpn.asserter, vpn.asserter_is) == ("file:ops/status.md".split(":", 1)[1], "source")
    assert vpn.lineage == "file:ops/status.md" and vpn.valid_from is None
    assert (printer.asserter, printer.asserter_is) == (None, None)
    assert {c.grain for c in (cfo, vpn, printer)} == {"claim"}
    assert store.claim(cfo.id) == cfo


def test_claims_are_immutable_but_for_their_lifecycle_marks(store):
    say(store, "The release train ships on Friday.", "DECISION")
    (claim,) = store.claims()
    for change in ("statement = 'rewritten'", "quote = 'rewritten'", "asserter = 'someone'",
                   "fact_id = NULL", "triage = 'dropped'", "asserted_at = now()"):
        with pytest.raises(FactStoreError, match="immutable testimony"):
            with store._tx() as cur:
                cur.execute(f"UPDATE claims SET {change} WHERE id = %s", (claim.id,))
    with pytest.raises(FactStoreError, match="never deleted"):
        with store._tx() as cur:
            cur.execute("DELETE FROM claims WHERE id = %s", (claim.id,))
    assert store.claim(claim.id) == claim
    with store._tx() as cur:  # the lifecycle marks are the one thing that changes
        cur.execute("UPDATE claims SET superseded_at = now(), superseded_why = 're-extraction' "
                    "WHERE id = %s", (claim.id,))
    assert store.claim(claim.id).status == "superseded"


def test_rerunning_a_capture_adds_no_claim(store):
    text = store.extractor.add("the cache is warm", fact("The cache is warm."),
                               fact("The cache is cold.", quote="frozen"))
    store.remember(text, source_ref="s-1")
    before = store.claims(historical=True)
    store.remember(text, source_ref="s-1")
    assert store.claims(historical=True) == before and len(before) == 2


def test_claims_are_read_by_lineage_document_asserter_time_and_text(store):
    for n, (speaker, words) in enumerate((("Ana", "the north door is locked"),
                                          ("Bob", "the south door is open"),
                                          ("Ana", "the east door is painted"))):
        text = store.extractor.add(f"{speaker}: {words}",
                                   fact(words.capitalize() + ".", quote=words, asserter=speaker))
        store.remember(text, source_ref=f"walk-{n % 2}", said_at=T0 + timedelta(days=n))
    assert [c.statement for c in store.claims(asserter="Ana")] == [
        "The east door is painted.", "The north door is locked."]
    assert len(store.claims(lineage="utterance:walk-0")) == 2
    first = store.claims(lineage="utterance:walk-1")[0]
    assert [c.id for c in store.claims(document_id=first.document_id)] == [first.id]
    assert len(store.claims(since=T0 + timedelta(days=1))) == 2
    assert len(store.claims(until=T0 + timedelta(days=1))) == 1
    assert [c.statement for c in store.claims(text="SOUTH")] == ["The south door is open."]
    assert store.claims(text="%") == []  # a LIKE wildcard is taken literally
    page = store.claims(limit=2)
    assert len(page) == 2 and page.next_offset == 2
    rest = store.claims(limit=2, offset=page.next_offset)
    assert len(rest) == 1 and rest.next_offset is None


def test_the_frames_carry_every_claim_column(store):
    say(store, "The release train ships on Friday.", "DECISION", source_ref="s-1")
    claims = store.claims()
    frame = claims.to_pandas()
    assert list(frame.columns)[:3] == ["id", "grain", "status"]
    assert frame.loc[0, "statement"] == "The release train ships on Friday."
    assert claims.to_polars()["lineage"].to_list() == ["utterance:s-1"]
    assert "testimony" in claims._repr_html_()
    assert store.claims(text="nothing like this").to_polars().columns[0] == "id"


def test_claim_reads_refuse_bad_input_with_typed_errors(store):
    for kwargs, match in (({"limit": 0}, "limit"), ({"offset": -1}, "offset"),
                          ({"triage": "maybe"}, "triage"), ({"since": "yesterday"}, "since"),
                          ({"document_id": "3"}, "document_id"), ({"historical": 1}, "historical"),
                          ({"text": "a\x00b"}, "NUL"), ({"lineage": ""}, "blank")):
        with pytest.raises(InvalidInput, match=match):
            store.claims(**kwargs)
    with pytest.raises(ClaimNotFound, match="no claim #99"):
        store.claim(99)
