"""fit.periods: the fit by period and by client build, and where a fitted value changes (issue 36.4).

The platform is simulated: `sim.simulate` plays hands under weile with or without a convention and
writes the engine's settlement as the claimed result; each record then says only `weile` and gets
the client build and the day it was "played". The planted change: client `ios 4.9`, released on
2026-11-20, settles the kongs of a seat not ready in reverse (R17.7 `dou_unready` reverse); the
other builds keep weile's. The cell logic is also checked on hand-made fits, cheaply.
"""
from __future__ import annotations

import datetime
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from audit.catalogue import Lang
from fit.api import fit_records
from fit import cli as fit_cli
from fit.cli import run
from fit.periods import (NO_CLIENT, Cell, CellFit, Change, cell_of, change_text, changes, fit_cells, period_start,
                         played_date, split)
from fit.search import Record
from sim.simulate import simulate

START = datetime.date(2026, 11, 1)
RELEASE = datetime.date(2026, 11, 20)


def _hands(options: dict[str, Any], count: int, seed: int, client: str, first: datetime.date,
           days: int) -> list[Record]:
    """`count` hands of weile + `options`, saying only weile, spread over `days` days from `first`."""
    out = []
    for i, gen in enumerate(simulate("weile", options, count, seed)):
        doc = gen.record
        doc["rules"] = {"profile": "weile"}
        doc["client"] = client
        doc["played_at"] = f"{(first + datetime.timedelta(days=i * days // count)).isoformat()}T20:15:00+08:00"
        out.append(Record(f"{client} {i}", doc))
    return out


@pytest.fixture(scope="module")
def history() -> list[Record]:
    """android 5.0 for five weeks, ios 4.8 until the 19th, ios 4.9 (reverse) from the 20th."""
    return (_hands({}, 36, 11, "android 5.0", START, 35)
            + _hands({}, 36, 12, "ios 4.8", START, (RELEASE - START).days)
            + _hands({"dou_unready": "reverse"}, 36, 13, "ios 4.9", RELEASE, 15))


def _fit(records: Sequence[Record]) -> dict[str, Any]:
    return fit_records([(r.source, r.doc) for r in records])


def test_the_client_that_changed_the_settlement_is_named_with_its_date(history: list[Record]) -> None:
    found = changes(fit_cells(history, _fit, by_client=True, period=None))
    assert [(c.parameter, c.value, c.usual, c.since, c.clients) for c in found] == [
        ("dou_unready", "reverse", "void", "2026-11-20", ("ios 4.9",))]
    assert change_text(found[0]).startswith("from 2026-11-20, dou_unready")
    assert "ios 4.9" in change_text(found[0], Lang.ZH) and "2026-11-20" in change_text(found[0], Lang.ZH)


def test_one_fit_of_the_whole_history_hides_the_change(history: list[Record]) -> None:
    """The reason for 36.4: the whole fit keeps weile's value (most records play it)."""
    assert "dou_unready" not in _fit(history)["options"]


def test_by_client_and_week_the_change_stays_in_its_client(history: list[Record]) -> None:
    """Every record from the release on plays reverse only in ios 4.9, so by month the value
    is mixed; by client and week the change lands in ios 4.9's weeks only."""
    cells = fit_cells(history, _fit, by_client=True, period="week", min_records=3)
    found = [c for c in changes(cells) if c.parameter == "dou_unready"]
    assert [(c.value, c.clients) for c in found] == [("reverse", ("ios 4.9",))]
    assert found[0].since is not None and found[0].since >= "2026-11-20"
    assert all(cell.client == "ios 4.9" for cell in found[0].cells)


# ---------------------------------------------------------------- the cell logic, on hand-made fits

def _cell(client: str | None, period: str | None, first: str, last: str, says: dict[str, Any],
          base: dict[str, Any], records: int = 10) -> CellFit:
    """A cell whose fit changed the parameters in `says` off `base` and touched those of `base`."""
    evidence = [{"parameter": p, "base": base.get(p, v), "fitted": v, "changed": base.get(p, v) != v,
                 "values": [{"value": "x", "fitted": False, "changes": 1, "fixes": 1, "breaks": 0}]}
                for p, v in {**base, **says}.items()]
    return CellFit(Cell(client, period), records, first, last, {"evidence": evidence, "options": says})


BASE = {"dou_unready": "normal"}


def test_a_change_for_every_client_from_a_date() -> None:
    cells = [_cell(c, w, w, end, {"dou_unready": "reverse"} if w >= "2026-11-23" else {}, BASE)
             for c in ("a", "b") for w, end in (("2026-11-09", "2026-11-15"), ("2026-11-16", "2026-11-22"),
                                                ("2026-11-23", "2026-11-29"), ("2026-11-30", "2026-12-06"))]
    [change] = changes(cells)
    assert (change.since, change.until, change.clients, change.records) == ("2026-11-23", None, None, 40)
    assert change_text(change).endswith("; every client")


def test_a_change_that_was_undone_has_an_end() -> None:
    cells = [_cell(None, w, w, end, {"chicken.charge": 4} if w == "2026-11-16" else {}, {"chicken.charge": 2})
             for w, end in (("2026-11-09", "2026-11-15"), ("2026-11-16", "2026-11-22"), ("2026-11-23", "2026-11-29"))]
    [change] = changes(cells)
    assert (change.value, change.usual, change.since, change.until) == (4, 2, "2026-11-16", "2026-11-22")
    assert "until 2026-11-22" in change_text(change)


def test_a_cell_without_a_say_is_not_counted() -> None:
    """A cell whose records never read the parameter says nothing: no change from it."""
    quiet = CellFit(Cell("c", None), 5, "2026-11-01", "2026-11-30",
                    {"evidence": [{"parameter": "dou_unready", "base": "normal", "fitted": "normal", "changed": False,
                                   "values": [{"value": "reverse", "fitted": False, "changes": 0, "fixes": 0,
                                               "breaks": 0}]}]})
    assert quiet.says() == {}
    assert changes([quiet, _cell("d", None, "2026-11-01", "2026-11-30", {}, BASE)]) == []


def test_no_change_when_every_cell_agrees() -> None:
    cells = [_cell(c, None, "2026-11-01", "2026-11-30", {"dou_unready": "reverse"}, BASE) for c in ("a", "b")]
    assert changes(cells) == []


def test_cells_and_periods() -> None:
    assert period_start("2026-11-20", "week") == "2026-11-16"
    assert period_start("2026-11-20", "month") == "2026-11-01"
    assert played_date({"played_at": "2026-11-20T23:30:00+08:00"}) == "2026-11-20"
    assert played_date({"played_at": "yesterday"}) is None and played_date({}) is None
    assert cell_of({"client": " ios 4.9 "}, by_client=True, period="week") == Cell("ios 4.9", None)
    assert cell_of({}, by_client=True, period=None) == Cell(NO_CLIENT, None)
    records = [Record(str(i), {"client": c, "played_at": f"2026-11-{d:02d}T10:00:00+08:00"})
               for i, (c, d) in enumerate([("b", 20), ("a", 2), ("a", 20)])]
    assert [(k.label(), len(v)) for k, v in split(records, by_client=True, period="week").items()] == [
        ("a 2026-11-02", 1), ("a 2026-11-16", 1), ("b 2026-11-16", 1)]
    with pytest.raises(ValueError):
        split(records, by_client=False, period="fortnight")


def test_the_change_as_json() -> None:
    change = Change("dou_unready", "reverse", "normal", "2026-11-20", None, ("ios 4.9",), 36,
                    (Cell("ios 4.9", None),))
    j = change.to_json(Lang.ZH)
    assert (j["clients"], j["cells"], j["since"]) == (["ios 4.9"], ["ios 4.9"], "2026-11-20")
    assert j["text"] != change.to_json(Lang.EN)["text"]


def test_the_command_line_fits_by_client(history: list[Record], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m fit --by client`: the change in the text and in the JSON. The command runs three times on
    the same records; each cell's search runs once (a search is the same whatever language its answer is
    written in: the command reads, splits, writes and words everything itself each time)."""
    searched: dict[tuple[Any, ...], Any] = {}

    def once(records: list[Record], base_name: str, **kw: Any) -> Any:
        key = (tuple(r.source for r in records), base_name, tuple(sorted(kw.items())))
        if key not in searched:
            searched[key] = real_fit(records, base_name, **kw)
        return searched[key]

    real_fit = fit_cli.fit
    monkeypatch.setattr(fit_cli, "fit", once)
    path = tmp_path / "history.jsonl"
    path.write_text("".join(json.dumps(r.doc, ensure_ascii=False) + "\n" for r in history), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    run([str(path), "--by", "client", "--json"], out=out, err=err)
    found = json.loads(out.getvalue())["by"]
    assert [(c["parameter"], c["value"], c["since"], c["clients"]) for c in found["changes"]] == [
        ("dou_unready", "reverse", "2026-11-20", ["ios 4.9"])]
    assert [c["client"] for c in found["cells"]] == ["android 5.0", "ios 4.8", "ios 4.9"]
    text = io.StringIO()
    run([str(path), "--by", "client", "--lang", "zh"], out=text, err=err)
    assert "2026-11-20" in text.getvalue() and "ios 4.9" in text.getvalue()
    assert len(searched) == 4  # the whole history and each client build, shared by the JSON and the Chinese text
    with pytest.raises(SystemExit) as excinfo:  # argparse refuses a split it does not know
        run([str(path), "--by", "colour"], out=io.StringIO(), err=io.StringIO())
    assert excinfo.value.code == 2
