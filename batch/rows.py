"""Audits as table rows: one per hand (`hands/`), one per finding (`findings/`), with their Arrow schemas.

A row holds what a reviewer filters and groups on (platform, client, players, verdict, the
first finding's code, rule and step, the computed and the claimed scores) and where the hand
is (file, zip member, line, hand of a match, record id of the store), so any row leads back to
its record and to `python -m audit FILE` for the full report. Rows depend only on the input
and the engine: no clock, no worker, no partition in them, so the same corpus gives the same
rows however it was split and run.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]  # no stubs; the schema below is the typed part

from audit.api import DEFAULT_PROFILE, ENGINE_VERSION, audit_document
from audit.vocabulary import Lang, finding_message, section_of
from batch.inputs import Document, Origin, Unreadable, parse

UNREADABLE_RULE = "R16.9"
"""The rule of a file that is not JSON at all (the one-hand command exits 2 on it)."""

_WHERE = [("source", pa.string()), ("file", pa.string()), ("member", pa.string()), ("line", pa.int64()),
          ("hand", pa.int64()), ("record_id", pa.int64())]
HANDS_SCHEMA = pa.schema(_WHERE + [
    ("game_id", pa.string()), ("platform", pa.string()), ("client", pa.string()), ("played_at", pa.string()),
    ("played_date", pa.string()), ("table_id", pa.string()),
    ("players", pa.list_(pa.string())), ("player_ids", pa.list_(pa.string())),
    ("profile", pa.string()), ("verdict", pa.string()),
    ("code", pa.string()), ("rule", pa.string()), ("section", pa.string()), ("step", pa.int64()),
    ("message", pa.string()), ("findings", pa.int64()), ("events", pa.int64()),
    ("computed_scores", pa.list_(pa.int64())), ("claimed_scores", pa.list_(pa.int64())),
    ("next_dealer", pa.int64()), ("claimed_next_dealer", pa.int64()),
    ("engine_version", pa.string()),
])
"""One row per hand; `code`/`rule`/`section`/`step`/`message` are the first finding's."""
FINDINGS_SCHEMA = pa.schema(_WHERE + [
    ("game_id", pa.string()), ("platform", pa.string()), ("client", pa.string()), ("verdict", pa.string()),
    ("index", pa.int64()), ("kind", pa.string()), ("rule", pa.string()), ("section", pa.string()),
    ("code", pa.string()), ("step", pa.int64()), ("seat", pa.int64()), ("params", pa.string()),
    ("expected", pa.string()), ("actual", pa.string()), ("message", pa.string()),
])
"""One row per finding; `params`, `expected` and `actual` as JSON text (their types vary by code)."""


@dataclass(frozen=True)
class Settings:
    """How every hand of a batch is audited (the one-hand command's `--profile`, `--option`, `--lang`)."""

    profile: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    lang: str = Lang.EN.value

    @property
    def options_dict(self) -> dict[str, Any] | None:
        return dict(self.options) or None


@dataclass(frozen=True)
class Audited:
    """One hand's audit with the document it came from and where."""

    origin: Origin
    hand: int | None
    doc: Any
    audit: dict[str, Any]
    table_id: str | None = None
    """The match's table, for a hand of a match."""


def audits(documents: Iterator[Document], settings: Settings) -> Iterator[Audited]:
    """Every hand's audit, in order: what `python -m audit --json` prints for the same document
    (same function, same profile, options and language) but for the settlement's items, which no
    row keeps (`audit_document(items=False)`), or an invalid audit for a document that could not
    be read."""
    # (cache key, parsed document, audits) of the last keyed document: the store gives a match once
    # per hand, one hand after the other, and its bytes are parsed and audited once, not per hand.
    last: tuple[str, Any, list[dict[str, Any]]] | None = None
    lang, options = Lang(settings.lang), settings.options_dict
    for document in documents:
        if last is not None and document.cache_key == last[0]:
            _, doc, results = last
        else:
            doc, problem = parse(document)
            if problem is not None:
                yield Audited(document.origin, None, None, unreadable_audit(problem, settings))
                continue
            results = audit_document(doc, profile=settings.profile, options=options, lang=lang, items=False)
            if document.cache_key:
                last = (document.cache_key, doc, results)
        hands = doc.get("hands") if isinstance(doc, dict) and doc.get("format") == "zhuoji-match/1" else None
        is_match = isinstance(hands, list) and len(results) == len(hands)
        table = _text(doc.get("table_id")) if is_match else None
        for index, audit in enumerate(results):
            if document.pick is not None and index != document.pick:
                continue
            hand_doc = hands[index] if is_match and hands is not None else doc
            yield Audited(document.origin, index if is_match else None, hand_doc, audit, table)


def unreadable_audit(problem: Unreadable, settings: Settings) -> dict[str, Any]:
    """The audit of bytes that are not a JSON document: invalid, one R16.9 finding."""
    finding = {"step": None, "seat": None, "rule": UNREADABLE_RULE, "kind": "schema", "code": problem.code,
               "params": problem.params,
               "message": finding_message(problem.code, problem.params, UNREADABLE_RULE, settings.lang),
               "expected": None, "actual": None}
    return {"game_id": None, "profile": settings.profile or DEFAULT_PROFILE, "verdict": "invalid",
            "findings": [finding], "settlement": None}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if type(value) is int else None  # not a bool (JSON's integers are exactly int)


def _ints(value: Any) -> list[int] | None:
    if isinstance(value, list) and all(type(v) is int for v in value):
        return list(value)
    return None


_ENCODE = json.JSONEncoder(ensure_ascii=False, sort_keys=True).encode
"""`json.dumps(value, ensure_ascii=False, sort_keys=True)` without a new encoder per call (dumps
builds one whenever an option is given: about half of the findings rows' cost in a profile)."""


def _json(value: Any) -> str | None:
    return None if value is None else _ENCODE(value)


_HAND_COLUMNS = (*(name for name, _ in _WHERE), "game_id", "platform", "client", "verdict")
"""The columns a findings row repeats from its hand's row."""


def _where(item: Audited) -> dict[str, Any]:
    origin = item.origin
    label = origin.label() + (f"#hands[{item.hand}]" if item.hand is not None else "")
    return {"source": label, "file": origin.file, "member": origin.member, "line": origin.line,
            "hand": item.hand, "record_id": origin.record_id}


def hand_row(item: Audited) -> dict[str, Any]:
    """The `hands/` row of one audited hand."""
    doc = item.doc if isinstance(item.doc, dict) else {}
    audit = item.audit
    findings = audit.get("findings") or []
    first = findings[0] if findings else {}
    seats = [s for s in doc.get("seats", []) if isinstance(s, dict)] if isinstance(doc.get("seats"), list) else []
    result: dict[str, Any] = doc["result"] if isinstance(doc.get("result"), dict) else {}
    settlement: dict[str, Any] = audit.get("settlement") or {}
    played = _text(doc.get("played_at"))
    rule = _text(first.get("rule"))
    events = doc.get("events")
    return {**_where(item), "game_id": _text(audit.get("game_id")), "platform": _text(doc.get("platform")),
            "client": _text(doc.get("client")), "played_at": played,
            "played_date": played[:10] if played and len(played) >= 10 and played[4:5] == "-" else None,
            "table_id": item.table_id,
            "players": [str(s.get("name", "")) for s in seats],
            "player_ids": [_text(s.get("player_id")) for s in seats],
            "profile": _text(audit.get("profile")), "verdict": audit["verdict"],
            "code": _text(first.get("code")), "rule": rule, "section": section_of(rule) if rule else None,
            "step": _int(first.get("step")), "message": _text(first.get("message")),
            "findings": len(findings), "events": len(events) if isinstance(events, list) else None,
            "computed_scores": _ints(settlement.get("scores")), "claimed_scores": _ints(result.get("scores")),
            "next_dealer": _int(settlement.get("next_dealer")),
            "claimed_next_dealer": _int(result.get("next_dealer")), "engine_version": ENGINE_VERSION}


def finding_rows(item: Audited, row: dict[str, Any]) -> list[dict[str, Any]]:
    """The `findings/` rows of one audited hand (`row` is its hand row, where the columns of the
    hand, its place included, are taken from rather than worked out again for each finding)."""
    findings = item.audit.get("findings")
    if not findings:
        return []
    hand = {name: row[name] for name in _HAND_COLUMNS}
    out = []
    for index, finding in enumerate(findings):
        rule = _text(finding.get("rule"))
        out.append({**hand, "index": index, "kind": _text(finding.get("kind")), "rule": rule,
                    "section": section_of(rule) if rule else None,
                    "code": _text(finding.get("code")), "step": _int(finding.get("step")),
                    "seat": _int(finding.get("seat")), "params": _json(finding.get("params")),
                    "expected": _json(finding.get("expected")), "actual": _json(finding.get("actual")),
                    "message": _text(finding.get("message"))})
    return out


def tables(items: Iterator[Audited]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The hand rows and finding rows of audited hands, in order."""
    hands: list[dict[str, Any]] = []
    found: list[dict[str, Any]] = []
    for item in items:
        row = hand_row(item)
        hands.append(row)
        found += finding_rows(item, row)
    return hands, found


__all__ = ["Audited", "FINDINGS_SCHEMA", "HANDS_SCHEMA", "Settings", "audits", "finding_rows", "hand_row",
           "tables", "unreadable_audit"]
