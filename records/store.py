"""The store's writes: every uploaded hand kept verbatim, with every audit of it.

SQLite through sqlite-utils, no Flask. Design (see docs/service.md):
- `documents` holds bytes exactly as received, with their sha256; rows are
  only ever inserted. They sit apart from `records` so that list queries scan
  small rows and never page through blobs.
- `records` is one row per (platform, game_id, revision), with the parsed
  columns that search needs and a copy of the latest audit's verdict. The same
  bytes uploaded again return the existing row; different bytes for the same
  game become revision n+1 and the older revision stays retrievable.
- `audits` is one row per audit (profile, options, engine version, findings,
  settlement), so a re-audit under another profile or a newer engine adds a
  row and keeps the old ones; `audit_rules` indexes the rule codes of findings.
- `uploads` logs every receipt, duplicates included: who sent what, when.
- One transaction per batch of units (a unit is never split): the engine runs first, outside any
  transaction, then the bytes, records, first audits and (written by the caller inside the same
  `atomic`) the receipts are committed together, so a kill leaves all of a batch or none of it.

Each write method is one `atomic` block (`records.db`), so a caller may put several of them,
and its own writes (a receipt, a note), in one transaction by calling them inside one more; only
`write_units`, the upload's batch, is called inside the pipeline's transaction and savepoint.
`Store` is the handle the service holds: the reads of `records.queries.Queries` and these
writes; the tables come from `records.migrations`, the values of their rows from
`records.rows`. The store never runs the engine: `records.pipeline` takes an upload through
validate -> store bytes -> audit -> store audit and hands the store finished audits,
so the store decides nothing about the game and is tested without the engine.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from records import db as connection
from records import receipts, search_index, trail
from records.ingest import Hand, Unit
from records.migrations import migrate
from records.queries import Queries, UnknownRecord
from records.receipts import Stored, stored_line
from records.rows import JUDGED_BY, audit_digest, now, record_values, rule_codes, section_of, sha256

Outcome = list[dict[str, Any]] | str | None
"""What the engine made of a unit: its audits, why it failed, or None (not run: nothing to audit)."""

_AUDIT_JSON = json.JSONEncoder(ensure_ascii=False, check_circular=False)
"""Findings and settlements as stored: an audit is a tree of JSON values, so the circular-reference
check (a fifth of the encoding time of an audit, since findings and items carry `params`) is skipped."""


class Store(Queries):
    """Records, documents and audits in one SQLite database: the reads of `Queries` and the
    writes below. `trail_key` keys the trail's chain (the web layer and the commands pass the
    configured key; the default empty key is for tools and tests that open a scratch database)."""

    def __init__(self, db: Database, trail_key: bytes = b"") -> None:
        super().__init__(db)
        self.trail_key = trail_key

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> Store:
        """Connect, migrate and wrap; the usual way to get a store."""
        db = connection.connect(path)
        migrate(db)
        return cls(db, **kwargs)

    def close(self) -> None:
        """Close the connection (`records.db.close`: the planner's statistics refreshed first)."""
        connection.close(self.db)

    # ----- writing ---------------------------------------------------------------

    def insert_units(self, units: Sequence[Unit], *, uploader: str | None = None,
                     actor: str | None = None, stamp: str | None = None) -> list[list[Stored]]:
        """The bytes, records, seats and upload log lines of every hand of these units, in one
        transaction (a unit is never split), none audited yet (`records.pipeline` puts this, the
        first audits and the receipts in one outer transaction). `actor` is the
        account named in the trail (default: the uploader); `stamp` the time the rows carry (default: now;
        the pipeline stamps a whole batch, records, audits and receipts, with one)."""
        stamp, texts = stamp or now(), list[tuple[int, str]]()
        with connection.atomic(self.db):
            stored = [self._insert_unit(unit, uploader, actor or uploader, stamp, texts) for unit in units]
            search_index.index(self.db, texts)
            return stored

    def write_units(self, units: Sequence[Unit], outcomes: Sequence[Outcome], engine_version: str, *,
                    uploader: str | None = None, actor: str | None = None,
                    stamp: str | None = None) -> list[list[Stored]]:
        """`insert_units`, then `attach_first_audits` of the same units: the pipeline's write of a
        batch of units. Unlike the other writes it opens no transaction of its own: call it inside
        one, as `records.pipeline` does, whose transaction holds the batch's receipts too and whose
        savepoint around this call a data error undoes whole."""
        stamp, actor, texts = stamp or now(), actor or uploader, list[tuple[int, str]]()
        stored = [self._insert_unit(unit, uploader, actor, stamp, texts) for unit in units]
        attached = [[self._first_audit(item, outcome, engine_version, stamp, actor) for item in items]
                    for items, outcome in zip(stored, outcomes)]
        search_index.index(self.db, texts)
        return attached

    def _insert_unit(self, unit: Unit, uploader: str | None, actor: str | None, stamp: str,
                     texts: list[tuple[int, str]]) -> list[Stored]:
        """The bytes, records, seats and upload log lines of a unit (inside a transaction)."""
        match_id: int | None = None
        results = []
        for hand in unit.hands:
            existing, latest = self._known(hand)
            if existing is not None:
                results.append(self._log_duplicate(hand, existing, uploader, actor, stamp))
                continue
            if unit.is_match and match_id is None:
                match_id = self._insert_match(unit, uploader, stamp)
            results.append(self._insert_hand(hand, match_id, uploader, actor, stamp, latest, texts))
        return results

    def attach_first_audits(self, stored: Sequence[list[Stored]], outcomes: Sequence[Outcome],
                            engine_version: str, actor: str | None = None,
                            stamp: str | None = None) -> list[list[Stored]]:
        """In one transaction (the upload's, when called inside it): give each stored record without an audit
        its first one from its unit's outcome, or flag it when the engine failed on the unit; `stamp` as
        for `insert_units`."""
        if all(outcome is None for outcome in outcomes):
            return list(stored)  # only duplicates of audited records: nothing to write
        stamp = stamp or now()
        with connection.atomic(self.db):
            return [[self._first_audit(item, outcome, engine_version, stamp, actor) for item in items]
                    for items, outcome in zip(stored, outcomes)]

    def _first_audit(self, item: Stored, outcome: Outcome, engine_version: str, stamp: str,
                     actor: str | None) -> Stored:
        """A record's first audit from its unit's outcome (inside the upload's transaction)."""
        if item.verdict is not None:
            return item
        if isinstance(outcome, list):
            return self._attach_audit(item, outcome[item.hand.index], engine_version, stamp, actor)
        if isinstance(outcome, str):  # kept, marked so that lists and `reaudit` find it
            changed = self.db.execute("UPDATE records SET audit_error = ? WHERE id = ? AND latest_audit_id IS NULL",
                                      [outcome, item.record_id]).rowcount
            if changed:  # the flag is evidence too: verify checks it against this entry
                trail.append(self.db, at=stamp, actor=actor, action="audit-failed", record_id=item.record_id,
                             key=self.trail_key, detail={"error": outcome})
            return replace(item, audit_error=outcome)
        row = self.db.execute("SELECT verdict, audit_error FROM records WHERE id = ?", [item.record_id]).fetchone()
        return replace(item, verdict=row[0], audit_error=row[1])  # set by an earlier unit of this batch

    def _attach_audit(self, item: Stored, audit: dict[str, Any], engine_version: str, stamp: str,
                      actor: str | None) -> Stored:
        """The first audit of a record, unless a concurrent upload of the same bytes got there first."""
        row = self.db.execute("SELECT latest_audit_id, verdict FROM records WHERE id = ?", [item.record_id]).fetchone()
        if row[0] is None:
            self._insert_audit(item.record_id, audit, None, engine_version, stamp, actor=actor)
            return replace(item, verdict=audit["verdict"], audit_error=None)
        return replace(item, verdict=row[1], audit_error=None)

    def load_audited(self, pairs: Iterable[tuple[Hand, dict[str, Any]]], *, engine_version: str,
                     uploader: str | None = None) -> int:
        """Bulk-load standalone hands whose audits are already known (imports, benchmarks),
        in one transaction with their receipts (every stored record has the receipt of what created it,
        `verify` asks it); bytes already held are skipped. Returns how many were stored."""
        stamp, lines, texts = now(), list[dict[str, Any]](), list[tuple[int, str]]()
        with connection.atomic(self.db):
            for hand, audit in pairs:
                existing, latest = self._known(hand)
                if existing is None:
                    item = self._insert_hand(hand, None, uploader, uploader, stamp, latest, texts)
                    self._insert_audit(item.record_id, audit, None, engine_version, stamp, actor=uploader)
                    lines.append(stored_line(replace(item, verdict=audit["verdict"])))
            search_index.index(self.db, texts)
            receipts.add(self.db, lines, uploader=uploader, actor=uploader, at=stamp, key=self.trail_key)
        return len(lines)

    def add_audit(self, record_id: int, audit: dict[str, Any], *, options: dict[str, Any] | None,
                  engine_version: str, actor: str | None = None, reason: str | None = None) -> dict[str, Any]:
        """A further audit of a stored record (a re-audit): it becomes the latest, the old ones
        stay, and the trail names `actor` (and the `reason` given, when one is) in the same transaction."""
        self.record(record_id)  # UnknownRecord before any write
        audit_id = self.add_audits([(record_id, audit)], options=options, engine_version=engine_version,
                                   actor=actor, reason=reason)[0]
        return self.audit_row(audit_id)

    def add_audits(self, audits: Sequence[tuple[int, dict[str, Any]]], *, options: dict[str, Any] | None,
                   engine_version: str, actor: str | None = None, reason: str | None = None) -> list[int]:
        """Further audits of stored records in one transaction (`flask reaudit` writes a batch's
        results this way): each becomes its record's latest, the old ones stay, and each has its
        trail entry naming `actor` (and `reason`, when one is given). Returns the new audit ids, in order."""
        stamp = now()
        ids: list[int] = []
        with connection.atomic(self.db):
            for record_id, audit in audits:
                row = self.db.execute("SELECT latest_audit_id FROM records WHERE id = ?", [record_id]).fetchone()
                if row is None:
                    raise UnknownRecord(f"record {record_id} does not exist")
                ids.append(self._insert_audit(record_id, audit, options, engine_version, stamp,
                                              trail_action="reaudit", actor=actor, previous=row[0], reason=reason))
        return ids

    def needs_audit(self, units: Sequence[Unit]) -> list[bool]:
        """Per unit, whether the engine has work for it: a hand of it is not stored with exactly
        these bytes, or is stored without an audit (pending or flagged: a duplicate audits it);
        a unit whose hands an earlier unit of the list already covers has none. Read before the
        write transaction so that the engine runs outside it; only a hint: the transaction reads
        again, and an audit computed for a hand a concurrent upload audited first is dropped."""
        covered: set[tuple[str, str, str]] = set()
        needed: list[bool] = []
        for unit in units:
            keys = [(hand.platform, hand.game_id, hand.sha256) for hand in unit.hands]
            todo = False
            for hand, key in zip(unit.hands, keys):
                if key in covered:
                    continue
                existing, _ = self._known(hand)
                if existing is None or existing["verdict"] is None:
                    todo = True
            if todo:
                covered.update(keys)
            needed.append(todo)
        return needed

    def _known(self, hand: Hand) -> tuple[dict[str, Any] | None, int]:
        """The stored revision of this game with exactly these bytes, if any, and the game's highest
        revision (0 for a new game), in one look-up: the row with these bytes sorts first, else the
        newest (the unique (platform, game_id, revision) index finds the game's few rows)."""
        row = self.db.execute(
            "SELECT id, revision, verdict, audit_error, sha256 = ? AS same FROM records "
            "WHERE platform = ? AND game_id = ? ORDER BY same DESC, revision DESC LIMIT 1",
            [hand.sha256, hand.platform, hand.game_id]).fetchone()
        if row is None:
            return None, 0
        if row[4]:
            return {"id": row[0], "revision": row[1], "verdict": row[2], "audit_error": row[3]}, row[1]
        return None, row[1]

    def _log_duplicate(self, hand: Hand, existing: dict[str, Any], uploader: str | None, actor: str | None,
                       stamp: str) -> Stored:
        """Record the receipt of bytes we already hold, and point at them."""
        self._log_upload(existing["id"], hand, uploader, actor, stamp, "duplicate")
        return Stored(hand, existing["id"], hand.game_id, hand.platform, existing["revision"], "duplicate", existing["verdict"],
                      existing["audit_error"])

    def _insert_document(self, raw: bytes, raw_kind: str, digest: str) -> int:
        """Keep bytes verbatim (`digest` is their sha256); documents are never updated or deleted."""
        return self._insert("documents", {"sha256": digest, "size": len(raw), "raw_kind": raw_kind, "raw": raw})

    def _insert_match(self, unit: Unit, uploader: str | None, stamp: str) -> int:
        """Keep a match document whole so its hands can be re-audited with continuity."""
        digest = sha256(unit.raw)
        document_id = self._insert_document(unit.raw, "file" if unit.origin.member is None else "member", digest)
        row = {"table_id": unit.table_id, "hands": unit.audit_count, "document_id": document_id,
               "sha256": digest, "source": unit.origin.label(), "uploader": uploader,
               "uploaded_at": stamp}
        return self._insert("matches", row)

    def _insert_hand(self, hand: Hand, match_id: int | None, uploader: str | None, actor: str | None,
                     stamp: str, latest: int, texts: list[tuple[int, str]] | None = None) -> Stored:
        """Insert one record as revision `latest` + 1 of its game (`_known`, read inside this
        transaction), not yet audited; its search text is added to `texts`, which the caller
        indexes (`records.search_index`) with the others of its transaction (without `texts`,
        indexed at once)."""
        platform, game_id = hand.platform, hand.game_id
        revision = latest + 1
        columns, seats, text = record_values(hand.doc, platform, game_id)
        row = {"platform": platform, "game_id": game_id, "revision": revision, "is_current": 1,
               "sha256": hand.sha256, "document_id": self._insert_document(hand.raw, hand.raw_kind, hand.sha256),
               "match_id": match_id, "match_index": hand.index if match_id is not None else None,
               "source": hand.source, "uploader": uploader, "uploaded_at": stamp, **columns}
        if latest:  # a first revision has no older one to retire
            self.db.execute("UPDATE records SET is_current = 0 WHERE platform = ? AND game_id = ?",
                            [platform, game_id])
        record_id = self._insert("records", row)
        self._insert_many("record_players", [{"record_id": record_id, **seat} for seat in seats])
        self._insert("record_search", {"record_id": record_id, "text": text})
        self._log_upload(record_id, hand, uploader, actor, stamp, "created" if revision == 1 else "revision")
        if texts is None:
            search_index.index(self.db, [(record_id, text)])  # the trigram index follows by m011's trigger
        else:
            texts.append((record_id, text))
        return Stored(hand, record_id, game_id, platform, revision, "created" if revision == 1 else "revision", None)

    def _insert_audit(self, record_id: int, audit: dict[str, Any], options: dict[str, Any] | None,
                      engine_version: str, stamp: str, *, trail_action: str | None = "audit",
                      actor: str | None = None, previous: int | None = None, reason: str | None = None) -> int:
        """Store an audit and make it the record's latest (verdict and rule codes for search), with
        its trail entry (`audit` for a first audit, `reaudit` later) carrying a digest of the row."""
        findings = audit.get("findings") or []
        row = {"record_id": record_id, "game_id": audit.get("game_id"), "profile": audit.get("profile"),
               "options_json": None if options is None else json.dumps(options, ensure_ascii=False, allow_nan=False),
               "engine_version": engine_version, "verdict": audit["verdict"],
               "findings_json": _AUDIT_JSON.encode(findings),
               "settlement_json": _AUDIT_JSON.encode(audit.get("settlement")), "created_at": stamp}
        judged_by = audit.get(JUDGED_BY)
        if judged_by is not None:  # the platform profile version it was judged under (issue 36.3)
            row["platform_profile_id"] = judged_by
        audit_id = self._insert("audits", row)
        codes = rule_codes(findings)
        sections = list(map(section_of, codes))
        if trail_action is not None:
            trail.append(self.db, at=stamp, actor=actor, action=trail_action, record_id=record_id, key=self.trail_key,
                         detail={"audit_id": audit_id, "profile": audit.get("profile"), "options": options,
                                 "verdict": audit["verdict"], "engine_version": engine_version,
                                 "previous_audit_id": previous, "audit_sha256": audit_digest({**row, "id": audit_id}),
                                 **({"platform_profile_id": judged_by} if judged_by is not None else {}),
                                 **({"reason": reason} if reason else {})})
        self._insert_many("audit_rules", [{"audit_id": audit_id, "rule": code, "section": section}
                                          for code, section in zip(codes, sections)])
        self.db.execute("UPDATE records SET latest_audit_id = ?, verdict = ?, audit_profile = ?, rules = ?, "
                        "findings_count = ?, audit_error = NULL WHERE id = ?",
                        [audit_id, audit["verdict"], audit.get("profile"), " ".join(codes), len(findings), record_id])
        return audit_id

    def _log_upload(self, record_id: int, hand: Hand, uploader: str | None, actor: str | None, stamp: str,
                    outcome: str) -> None:
        """Every receipt is logged, even of bytes already held, in the receipts and in the trail;
        the entry names the receipt and what the record is, for `verify`."""
        digest, source = hand.sha256, hand.source
        upload_id = self._insert("uploads", {"record_id": record_id, "sha256": digest, "source": source,
                                             "uploader": uploader, "uploaded_at": stamp, "outcome": outcome})
        row = self.db.execute("SELECT platform, game_id, revision, document_id, match_id, match_index FROM records "
                              "WHERE id = ?", [record_id]).fetchone()
        detail: dict[str, Any] = {"outcome": outcome, "sha256": digest, "source": source, "uploader": uploader,
                                  "upload_id": upload_id}
        if outcome != "duplicate":
            detail.update(platform=row[0], game_id=row[1], revision=row[2], document_id=row[3], match_id=row[4],
                          match_index=row[5], raw_kind=hand.raw_kind)
            if row[4] is not None:
                match = self.db.execute("SELECT m.sha256, m.document_id, m.source, d.raw_kind FROM matches m "
                                        "JOIN documents d ON d.id = m.document_id WHERE m.id = ?", [row[4]]).fetchone()
                detail.update(match_sha256=match[0], match_document_id=match[1], match_source=match[2],
                              match_raw_kind=match[3])
        trail.append(self.db, at=stamp, actor=actor, action="upload", record_id=record_id, detail=detail,
                     key=self.trail_key)

    def _insert(self, table: str, row: dict[str, Any]) -> int:
        """INSERT one row and return its id. Plain SQL: sqlite-utils' insert() introspects the
        table on every call, which cost more than the audit itself in the upload path."""
        columns = ", ".join(row)
        marks = ", ".join("?" * len(row))
        row_id = self.db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(row.values())).lastrowid
        assert row_id is not None  # always set after a successful INSERT
        return row_id

    def _insert_many(self, table: str, rows: list[dict[str, Any]]) -> None:
        """INSERT rows that share their keys (table and keys come from this module, never from input)."""
        if rows:
            columns = ", ".join(rows[0])
            marks = ", ".join("?" * len(rows[0]))
            self.db.conn.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                                     [list(row.values()) for row in rows])

__all__ = ["Outcome", "Store"]
