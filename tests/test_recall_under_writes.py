"""Recall while writers supersede what it is reading: one snapshot per recall, so a fact is
never read as a candidate and then, a statement later, as superseded (the load benchmark
found that as a 500 from the server)."""

from __future__ import annotations

import threading

from factstore.extractors.rules import RuleExtractor

SERVICES = [f"svc-{i:02d}" for i in range(6)]


def test_recall_never_tears_while_readings_are_superseded(open_store) -> None:
    store = open_store(extractor=RuleExtractor())
    for service in SERVICES:
        store.remember(f"{service} is green right now", source_ref=f"seed:{service}")
    done, failures = threading.Event(), []

    def write() -> None:
        try:
            for n in range(48):
                service = SERVICES[n % len(SERVICES)]
                state = ("red", "green", "amber")[n % 3]
                store.remember(f"{service} is {state} right now", source_ref=f"w:{n}")
        finally:
            done.set()

    def read() -> None:
        n = 0
        while not done.is_set():
            try:
                result = store.recall(f"is {SERVICES[n % len(SERVICES)]} green?", k=10)
                assert all(i.label.code != "superseded" or i.served_as != "hit"
                           for i in result.items)
            except Exception as exc:  # noqa: BLE001 - collected for the assertion
                failures.append(repr(exc))
            n += 1

    threads = [threading.Thread(target=write), threading.Thread(target=read),
               threading.Thread(target=read)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert failures == []
