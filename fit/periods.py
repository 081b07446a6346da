"""Where a fitted value changes: the fit by period and by client build (issue 36.4, docs/fit.md).

When a client release changes the settlement, one fit of the whole history takes whichever value
most records play and lists the rest as mistakes. This module splits the records into cells, by
the client build that wrote them (`client`) and by the period they were played in (`played_at`:
its day, ISO week or month), fits each cell with the same fit (any `fit.api.fit_records`-shaped
function: the caller may run the cells in parallel), and says where a fitted value differs:
"from 2026-11-20, `dou_unready` = reverse (before: normal); client ios 4.9 only".

What a cell says of a parameter: its fitted value when the fit changed it; its base value when some
value tried changes or fixes a record of the cell (its records read the parameter and keep the
base); nothing when no record of the cell reads it (a cell without a 豆 says nothing of
`dou_unready`). A parameter's usual value is the one the earliest period's cells say (by records;
without periods, the one most records' cells say); the cells saying another value are the change,
told by its first and last date and its clients: "client X only" when cells of other clients say
the usual value over the same dates. Pure: no store, no engine beyond the fit it is given.
"""
from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from audit.vocabulary import Lang, RulebookError, parameter_label, value_label
from fit.search import Record

PERIODS: Final = ("day", "week", "month")
"""How `played_at` groups records: by its date, by ISO week (Monday first), or by month."""
BY: Final = ("period", "client", "client+period")
"""The splits `python -m fit --by` and a fit job offer."""
NO_CLIENT: Final = ""
"""The cell key of records that name no client build."""


@dataclass(frozen=True, order=True)
class Cell:
    """A group of records: one client build (None: not split by client; NO_CLIENT: records without
    one) and one period, by its first day (None: not split by period, or no readable `played_at`)."""

    client: str | None
    period: str | None

    def label(self) -> str:
        """`ios 4.9 2026-11-16` as the command line and the page name a cell."""
        parts = [p for p in (self.client if self.client != NO_CLIENT else "-", self.period) if p is not None]
        return " ".join(parts) or "all"

    def to_json(self) -> dict[str, str | None]:
        return {"client": self.client, "period": self.period}


def played_date(doc: Any) -> str | None:
    """The day a record was played, as its own `played_at` writes it (its own offset: a hand at
    23:30+08:00 was played that evening in Guiyang), or None when it has no readable one."""
    text = doc.get("played_at") if isinstance(doc, dict) else None
    if not isinstance(text, str):
        return None
    try:
        return datetime.datetime.fromisoformat(text).date().isoformat()
    except ValueError:
        return None


def period_start(day: str, unit: str) -> str:
    """The first day of the period of `unit` (PERIODS) holding `day` (YYYY-MM-DD)."""
    date = datetime.date.fromisoformat(day)
    if unit == "week":
        return (date - datetime.timedelta(days=date.weekday())).isoformat()
    if unit == "month":
        return date.replace(day=1).isoformat()
    if unit == "day":
        return day
    raise ValueError(f"unknown period {unit!r}: one of {', '.join(PERIODS)}")


def client_of(doc: Any) -> str:
    """The client build a record names (`ios 4.9`), NO_CLIENT when none."""
    value = doc.get("client") if isinstance(doc, dict) else None
    return value.strip() if isinstance(value, str) and value.strip() else NO_CLIENT


def cell_of(doc: Any, *, by_client: bool, period: str | None) -> Cell:
    """The cell of one record."""
    day = played_date(doc) if period else None
    return Cell(client_of(doc) if by_client else None, period_start(day, period) if day and period else None)


def split(records: Iterable[Record], *, by_client: bool, period: str | None) -> dict[Cell, list[Record]]:
    """The records by cell, cells in order (client, then period; undated cells first)."""
    if period is not None and period not in PERIODS:
        raise ValueError(f"unknown period {period!r}: one of {', '.join(PERIODS)}")
    cells: dict[Cell, list[Record]] = defaultdict(list)
    for record in records:
        cells[cell_of(record.doc, by_client=by_client, period=period)].append(record)
    return dict(sorted(cells.items(), key=lambda kv: (kv[0].client or "", kv[0].period or "")))


def dates(records: Sequence[Record]) -> tuple[str | None, str | None]:
    """The first and the last day the records were played (None where none says)."""
    days = sorted(d for d in (played_date(r.doc) for r in records) if d is not None)
    return (days[0], days[-1]) if days else (None, None)


@dataclass(frozen=True)
class CellFit:
    """One cell's fit: how many records, over which days, and the fit's JSON (`fit.api`)."""

    cell: Cell
    records: int
    first: str | None
    last: str | None
    fit: Mapping[str, Any]

    def says(self) -> dict[str, Any]:
        """What the cell says of each parameter (the module's docstring): its fitted value where the
        fit changed it or where some value tried changes or fixes one of its records."""
        out: dict[str, Any] = {}
        for e in self.fit.get("evidence", []):
            if e["changed"] or any((v.get("changes") or 0) + (v.get("fixes") or 0) for v in e["values"]):
                out[e["parameter"]] = e["fitted"]
        return out

    def to_json(self) -> dict[str, Any]:
        """The cell, its counts and what its fit changed (the whole fit JSON stays with the caller)."""
        clean = self.fit.get("clean", {})
        return {**self.cell.to_json(), "label": self.cell.label(), "records": self.records, "first": self.first,
                "last": self.last, "options": self.fit.get("options", {}), "clean": clean}


@dataclass(frozen=True)
class Change:
    """A fitted value some cells say instead of the usual one: from `since` (until `until`, when
    cells after it say the usual value again), in clients `clients` only (None: in every client
    build with a say, or not split by client)."""

    parameter: str
    value: Any
    usual: Any
    since: str | None
    until: str | None
    clients: tuple[str, ...] | None
    records: int
    """Records in the cells that say `value`."""
    cells: tuple[Cell, ...]

    def to_json(self, lang: Lang | str = Lang.EN) -> dict[str, Any]:
        return {"parameter": self.parameter, "value": self.value, "usual": self.usual, "since": self.since,
                "until": self.until, "clients": list(self.clients) if self.clients is not None else None,
                "records": self.records, "cells": [c.label() for c in self.cells], "text": change_text(self, lang)}


def _usual(says: list[tuple[CellFit, Any]], dated: bool) -> Any:
    """The reference value of a parameter: what the earliest period's cells say (by records) when
    split by period, else what the most records' cells say; a tie goes to the earlier-sorted value."""
    if dated:
        periods = sorted(c.cell.period for c, _ in says if c.cell.period is not None)
        if periods:
            says = [(c, v) for c, v in says if c.cell.period == periods[0]]
    weight: dict[str, int] = defaultdict(int)
    values: dict[str, Any] = {}
    for cell, value in says:
        key = json.dumps(value, sort_keys=True)
        weight[key] += cell.records
        values[key] = value
    return values[max(sorted(weight), key=lambda k: weight[k])]


def _change(parameter: str, value: Any, usual: Any, odd: list[CellFit], same: list[CellFit],
            by_client: bool) -> Change:
    """The change told by its cells (`odd`) against the cells saying the usual value (`same`)."""
    firsts = sorted(c.first for c in odd if c.first is not None)
    lasts = sorted(c.last for c in odd if c.last is not None)
    since = firsts[0] if firsts and any(c.last is not None and c.last < firsts[0] for c in same) else None
    until = lasts[-1] if lasts and any(c.first is not None and c.first > lasts[-1] for c in same) else None
    clients: tuple[str, ...] | None = None
    if by_client:
        odd_clients = {c.cell.client or NO_CLIENT for c in odd}
        lo, hi = firsts[0] if firsts else None, lasts[-1] if lasts else None
        overlapping = [c for c in same if c.cell.client not in odd_clients
                       and (lo is None or c.last is None or c.last >= lo) and (hi is None or c.first is None or c.first <= hi)]
        if overlapping:
            clients = tuple(sorted(odd_clients))
    return Change(parameter, value, usual, since, until, clients, sum(c.records for c in odd),
                  tuple(c.cell for c in odd))


def changes(fits: Sequence[CellFit]) -> list[Change]:
    """Where a fitted value differs between cells: one Change per parameter and value other than
    the usual one, parameters by name."""
    dated = any(f.cell.period is not None for f in fits)
    by_client = any(f.cell.client is not None for f in fits)
    said: dict[str, list[tuple[CellFit, Any]]] = defaultdict(list)
    for f in fits:
        for parameter, value in f.says().items():
            said[parameter].append((f, value))
    out: list[Change] = []
    for parameter in sorted(said):
        says = said[parameter]
        usual = _usual(says, dated)
        same = [c for c, v in says if v == usual]
        others: dict[str, list[CellFit]] = defaultdict(list)
        values: dict[str, Any] = {}
        for cell, value in says:
            if value != usual:
                key = json.dumps(value, sort_keys=True)
                others[key].append(cell)
                values[key] = value
        out += [_change(parameter, values[k], usual, others[k], same, by_client) for k in sorted(others)]
    return out


FitFunction = Callable[[Sequence[Record]], Mapping[str, Any]]
"""A fit of some records to its JSON (`fit.api.fit_records` with its profile and language bound)."""


def fit_cells(records: Sequence[Record], fit: FitFunction, *, by_client: bool, period: str | None,
              min_records: int = 1) -> list[CellFit]:
    """Fit every cell of at least `min_records` records, one after the other (a caller with a
    cluster fits the cells of `split` in parallel and builds the CellFits itself)."""
    out = []
    for cell, members in split(records, by_client=by_client, period=period).items():
        if len(members) >= min_records:
            out.append(CellFit(cell, len(members), *dates(members), fit(members)))
    return out


# ---------------------------------------------------------------- words

WORDS: Final[dict[str, dict[str, str]]] = {
    "en": {"from": "from {date}, ", "until": " until {date}", "before": " (before: {value})",
           "clients": "; client {clients} only", "every": "; every client", "sep": ", "},
    "zh": {"from": "自 {date} 起，", "until": "（至 {date} 止）", "before": "（此前：{value}）",
           "clients": "；仅客户端 {clients}", "every": "；所有客户端", "sep": "、"},
}
"""The words of a change in each language (the numbers and names are the records')."""


def _value_words(parameter: str, value: Any, lang: Lang) -> str:
    raw = json.dumps(value, ensure_ascii=False)
    if isinstance(value, (str, bool)):
        try:
            return raw if lang is Lang.EN else value_label(parameter, value, lang)
        except RulebookError:
            return raw
    return raw


def _parameter_words(parameter: str, lang: Lang) -> str:
    if lang is Lang.EN:
        return parameter
    try:
        return f"{parameter_label(parameter, lang)}（{parameter}）"
    except RulebookError:
        return parameter


def change_text(change: Change, lang: Lang | str = Lang.EN) -> str:
    """`from 2026-11-20, dou_unready = "reverse" (before: "normal"); client ios 4.9 only`."""
    lang = Lang(lang)
    w = WORDS[lang.value]
    text = w["from"].format(date=change.since) if change.since else ""
    text += f"{_parameter_words(change.parameter, lang)} = {_value_words(change.parameter, change.value, lang)}"
    text += w["before"].format(value=_value_words(change.parameter, change.usual, lang))
    if change.until:
        text += w["until"].format(date=change.until)
    if change.clients is not None:
        names = [c if c != NO_CLIENT else "-" for c in change.clients]
        text += w["clients"].format(clients=w["sep"].join(names))
    elif any(c.client is not None for c in change.cells):
        text += w["every"]
    return text


__all__ = ["BY", "Cell", "CellFit", "Change", "FitFunction", "NO_CLIENT", "PERIODS", "cell_of", "change_text",
           "changes", "client_of", "dates", "fit_cells", "period_start", "played_date", "split"]
