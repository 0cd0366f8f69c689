"""ipywidgets controls that call the Store: a timeline explorer with as_of / known_at, a
head-to-head card per open conflict, and approve / reject for a candidate root.

Each control keeps what its last call returned (``last``) and shows a refused call's
message instead of raising, so a notebook never stops on a typo in a reasoning box. The
store still checks every input: a refusal writes nothing.
"""

from __future__ import annotations

from html import escape
from typing import Any

from factstore.errors import FactStoreError

__all__ = ["CandidateReview", "ConflictCard", "TimelineExplorer"]


def _widgets() -> Any:
    import ipywidgets

    return ipywidgets


class TimelineExplorer:
    """One subject (and optionally attribute) re-read from the store whenever ``as_of`` or
    ``known_at`` changes: the HTML table and the Gantt chart of that read.

    ``known_at`` offers 'now' and every instant the store recorded one of the key's facts,
    so each step of the slider shows what the store believed right after it learned more.
    """

    def __init__(self, store: Any, subject: str, attribute: str | None = None) -> None:
        w = _widgets()
        self.store, self.subject, self.attribute = store, subject, attribute
        recorded = sorted({f.recorded_at for key in store.facts(subject, attribute).keys
                           for f in key.history})
        self.known_at = w.SelectionSlider(
            options=[(f"{t:%Y-%m-%d %H:%M}", t) for t in recorded] + [("now", "now")],
            value="now", description="known at", continuous_update=False,
            layout=w.Layout(width="600px"))
        self.as_of = w.Text(value="now", description="as of",
                            placeholder="now, 2026, 2026-03 or 2026-03-01")
        self.output = w.Output()
        self.last: Any = None
        self.error: str | None = None
        self.known_at.observe(lambda _change: self.refresh(), names="value")
        self.as_of.observe(lambda _change: self.refresh(), names="value")
        self.widget = w.VBox([w.HBox([self.as_of]), self.known_at, self.output])
        self.refresh()

    def refresh(self) -> None:
        """Read the store again with the controls' values and redraw."""
        from IPython.display import HTML, display

        from factstore.notebook.plots import timeline_gantt

        as_of = self.as_of.value.strip() or "now"
        try:
            answer = self.store.facts(self.subject, self.attribute,
                                      as_of=None if as_of == "now" else as_of,
                                      known_at=None if self.known_at.value == "now"
                                      else self.known_at.value)
        except FactStoreError as exc:
            self.error = str(exc)
            with self.output:
                self.output.clear_output(wait=True)
                display(HTML(f"<p style='color:#c62828'>{escape(self.error)}</p>"))
            return
        self.last, self.error = answer, None
        with self.output:
            self.output.clear_output(wait=True)
            if answer.keys:
                display(timeline_gantt(answer))
            display(answer)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


class ConflictCard:
    """One open conflict head to head, a reasoning box, and three buttons: side A wins,
    side B wins, both stand. A click calls the Store and shows the closed conflict."""

    def __init__(self, store: Any, conflict: Any) -> None:
        w = _widgets()
        self.store, self.conflict = store, conflict
        self.reasoning = w.Textarea(placeholder="why (kept with the resolution)",
                                    layout=w.Layout(width="600px"))
        a, b = conflict.fact_a, conflict.fact_b
        self.a_wins = w.Button(description=f"#{a.id} wins", button_style="success")
        self.b_wins = w.Button(description=f"#{b.id} wins", button_style="success")
        self.both_stand = w.Button(description="both stand", button_style="info")
        self.a_wins.on_click(lambda _b: self._resolve(a.id))
        self.b_wins.on_click(lambda _b: self._resolve(b.id))
        self.both_stand.on_click(lambda _b: self._both())
        self.head = w.HTML(conflict._repr_html_())
        self.status = w.HTML()
        self.last: Any = None
        self.error: str | None = None
        self.widget = w.VBox([self.head, self.reasoning,
                              w.HBox([self.a_wins, self.b_wins, self.both_stand]), self.status])

    def _done(self, call: Any) -> None:
        try:
            self.last = call()
        except FactStoreError as exc:
            self.error = str(exc)
            self.status.value = f"<p style='color:#c62828'>{escape(self.error)}</p>"
            return
        self.error = None
        self.conflict = self.last
        self.head.value = self.last._repr_html_()
        for button in (self.a_wins, self.b_wins, self.both_stand):
            button.disabled = True
        self.status.value = f"<p>closed: {escape(self.last.resolution or '')}</p>"

    def _resolve(self, winner: int) -> None:
        self._done(lambda: self.store.resolve_conflict(self.conflict.id, winner,
                                                       self.reasoning.value))

    def _both(self) -> None:
        self._done(lambda: self.store.resolve_both_stand(self.conflict.id, self.reasoning.value))

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


class CandidateReview:
    """A candidate root with approve / reject buttons and a reason box."""

    def __init__(self, store: Any, candidate: Any) -> None:
        w = _widgets()
        self.store, self.candidate = store, candidate
        self.reason = w.Text(placeholder="reason (optional)", description="reason")
        self.approve = w.Button(description=f"approve {candidate.proposed_tag}",
                                button_style="success")
        self.reject = w.Button(description="reject", button_style="danger")
        self.approve.on_click(lambda _b: self._decide(True))
        self.reject.on_click(lambda _b: self._decide(False))
        self.status = w.HTML(self._describe(candidate))
        self.last: Any = None
        self.error: str | None = None
        self.widget = w.VBox([self.status, w.HBox([self.reason, self.approve, self.reject])])

    @staticmethod
    def _describe(c: Any) -> str:
        return (f"<p><b>{escape(c.proposed_tag)}</b> ({escape(c.status)}, seen {c.seen_count}"
                f" time(s), from {escape(c.origin)}): {escape(c.description or '')}</p>")

    def _decide(self, approve: bool) -> None:
        call = self.store.registry_approve_root if approve else self.store.registry_reject_root
        try:
            self.last = call(self.candidate.proposed_tag, self.reason.value or None)
        except FactStoreError as exc:
            self.error = str(exc)
            self.status.value += f"<p style='color:#c62828'>{escape(self.error)}</p>"
            return
        self.error, self.candidate = None, self.last
        self.approve.disabled = self.reject.disabled = True
        self.status.value = self._describe(self.last)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)
