"""The way of an upload: validate -> audit -> store the bytes, the audits and the receipts at once.

Ingest (`records.ingest`) has already validated and split the upload into units;
this module decides when the engine runs and hands the store finished audits,
so storage stays storage and the engine stays a pure function of a document.
The order is the durability promise of docs/trust.md (issue 22.5): the engine
runs outside any transaction, then a batch's bytes, records, first audits and
receipts are committed in one, so a kill at any point leaves all of a batch or
none of it, never a record without its receipt or a receipt of nothing; an
engine failure keeps the bytes and flags the record, until a retry or
`flask reaudit` audits it.

The engine is a value (`Engine`): the auditor function, its version, and
whether it may be told `schema_checked`. The real one comes from `audit.api`;
tests inject others. No Flask here: the web layer and the CLI both use this.
"""
from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from audit import api
from audit.catalogue import Lang, rerender, seat_names
from audit.profiles import Profile
from records import platforms, receipts
from records.ingest import Unit
from records.rows import JUDGED_BY, VERDICTS, now
from records.store import Outcome, Store, Stored, stored_line

Auditor = Callable[..., list[dict[str, Any]]]
"""`audit_document(doc, *, profile=None, options=None[, schema_checked=False]) -> [audit, ...]`."""

UNITS_PER_TRANSACTION = 100
"""Units whose bytes share one write transaction, and whose audits share the next. A commit cost
about 0.5 ms, as much as all of a record's rows, and there were two per record; 100 units hold
the write lock for a few tens of milliseconds, far inside another writer's busy timeout."""


Receipt = Callable[[int, list[list[Stored] | str]], None]
"""Called inside a batch's write transaction with the index of its first unit and what became of
each of its units, so that the receipts of what was sent commit with the records they describe."""


class AuditFailed(RuntimeError):
    """The engine raised or answered something that is not the contract's audit: `code` names
    which (the web layer words it in the asker's language, web/errors.toml), `params` its values;
    the message, in English, is what the logs and the batch report keep."""

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class OptionsRefused(ValueError):
    """A re-audit whose options the engine refused (a `P` finding): such an audit says nothing
    about the game, only about the options, and is never stored as a record's latest. `finding`
    is that finding (contract JSON: the web layer words it in the asker's language); the message
    is its path and code."""

    def __init__(self, finding: dict[str, Any]) -> None:
        self.finding = finding
        self.path = str((finding.get("params") or {}).get("path", "options"))
        """The option's JSON path, as the finding names it."""
        super().__init__(f"{self.path}: {finding.get('code')}")


DATA_ERRORS = (OverflowError, UnicodeError, ValueError, TypeError, sqlite3.IntegrityError, sqlite3.InterfaceError,
               sqlite3.DataError)
"""What a unit's own values can make the store raise (an integer past 64 bits, a string that is not
Unicode, ...): the strict reader refuses them first; these are caught in case one slips past it.
A locked database or a full disk is not among them: that stays an error of the request."""


@dataclass(frozen=True)
class Engine:
    """An auditor and what the store records about it."""

    auditor: Auditor
    version: str
    """Stamped on every audit it makes (`flask reaudit --engine-version-below`)."""
    takes_schema_checked: bool = False
    """Whether to pass `schema_checked=True` for documents `audit.schema` already passed. Said
    by whoever builds the engine, never guessed from a signature: the real engine takes it,
    a test double is called with exactly `profile` and `options`."""

    def run(self, doc: object, *, profile: str | None = None, options: dict[str, Any] | None = None,
            count: int = 1, schema_checked: bool = False, base_profile: Profile | None = None) -> list[dict[str, Any]]:
        """The engine's audits of `doc`, checked to be `count` contract audits; AuditFailed if not.
        `schema_checked` only for a document `audit.schema` passed with nothing to say;
        `base_profile` (a platform's profile in force, issue 36.3) only when there is one."""
        extra: dict[str, Any] = {"schema_checked": True} if schema_checked and self.takes_schema_checked else {}
        if base_profile is not None:
            extra["base_profile"] = base_profile
        try:
            audits = self.auditor(doc, profile=profile, options=options, **extra)
        except Exception as exc:  # the engine promises not to raise; never store half a unit if it does
            raise AuditFailed(f"the audit engine failed: {exc!r}", "engine_failed", error=repr(exc)) from exc
        if not isinstance(audits, list) or len(audits) != count:
            got = type(audits).__name__
            raise AuditFailed(f"the audit engine returned {got}, not {count} audit(s)", "engine_wrong_count",
                              got=got, count=count)
        for audit in audits:
            if not isinstance(audit, dict) or audit.get("verdict") not in VERDICTS:
                raise AuditFailed("the audit engine returned an audit without a known verdict", "engine_no_verdict")
        return audits


def judged(audits: list[dict[str, Any]], judge: platforms.Version | None) -> list[dict[str, Any]]:
    """The audits, each naming the platform profile version that judged them when one did."""
    if judge is None:
        return audits
    return [{**audit, JUDGED_BY: judge.id} for audit in audits]


def default_engine() -> Engine:
    """The real engine of `audit.api`."""
    return Engine(api.audit_document, api.ENGINE_VERSION, takes_schema_checked=True)


class Pipeline:
    """Uploads and re-audits: the store keeps, the engine judges, this decides the order."""

    def __init__(self, store: Store, engine: Engine | None = None) -> None:
        self.store = store
        self.engine = engine or default_engine()

    def upload(self, units: Sequence[Unit], *, uploader: str | None = None,
               actor: str | None = None, receipt: Receipt | None = None) -> list[list[Stored]]:
        """Audit and store every hand of every unit; one list of results per unit, in order. Per
        batch of up to UNITS_PER_TRANSACTION units the engine runs first, outside any transaction,
        then the bytes, the records and their first audits are written in one transaction, with
        whatever `receipt` writes (the upload's receipts: `web.uploads`; by default the stored hands'
        receipts) inside it. A data error
        the store raises is the caller's (see `upload_isolating`)."""
        results: list[list[Stored]] = []
        for start in range(0, len(units), UNITS_PER_TRANSACTION):
            chunk = list(units[start:start + UNITS_PER_TRANSACTION])
            outcomes = self._audit_units(chunk, self.store.needs_audit(chunk))
            with self.store.atomic():
                stored = self.store.insert_units(chunk, uploader=uploader, actor=actor)
                attached = self.store.attach_first_audits(stored, outcomes, self.engine.version,
                                                          actor=actor or uploader)
                (receipt or self._receipts(uploader, actor))(start, list(attached))
            results += attached
        return results

    def upload_isolating(self, units: Sequence[Unit], *, uploader: str | None = None,
                         actor: str | None = None, receipt: Receipt | None = None) -> list[list[Stored] | str]:
        """`upload`, except that a unit the store cannot keep is refused alone: per unit, its results
        or why it was not stored. A batch whose writes raise a data error is rolled back to the
        savepoint before them and its units are written one per savepoint, so the good ones are
        kept and the bad one leaves nothing behind; all of it, receipts included, is still one
        transaction per batch (a kill leaves the whole batch or none of it)."""
        results: list[list[Stored] | str] = []
        for start in range(0, len(units), UNITS_PER_TRANSACTION):
            chunk = list(units[start:start + UNITS_PER_TRANSACTION])
            outcomes = self._audit_units(chunk, self.store.needs_audit(chunk))
            with self.store.atomic():
                try:
                    stored: list[list[Stored] | str] = list(self.store.insert_units(chunk, uploader=uploader,
                                                                                    actor=actor))
                except DATA_ERRORS:
                    stored = [self._insert_alone(unit, uploader, actor) for unit in chunk]
                kept = [(items, outcome) for items, outcome in zip(stored, outcomes) if not isinstance(items, str)]
                audited = iter(self._attach(kept, actor or uploader))
                done = [items if isinstance(items, str) else next(audited) for items in stored]
                (receipt or self._receipts(uploader, actor))(start, done)
            results += done
        return results

    def _receipts(self, uploader: str | None, actor: str | None) -> Receipt:
        """The receipts of the stored hands alone, when the caller keeps none itself (`web.uploads`
        keeps every line's, refused ones too): every stored record has the receipt of what created it."""

        def write(_start: int, done: list[list[Stored] | str]) -> None:
            lines = [stored_line(item) for items in done if not isinstance(items, str) for item in items]
            if lines:
                receipts.add(self.store.db, lines, uploader=uploader, actor=actor or uploader, at=now(),
                             key=self.store.trail_key)

        return write

    def _insert_alone(self, unit: Unit, uploader: str | None, actor: str | None) -> list[Stored] | str:
        """One unit in its own savepoint, or why the store refused it."""
        try:
            return self.store.insert_units([unit], uploader=uploader, actor=actor)[0]
        except DATA_ERRORS as exc:
            return f"the store cannot keep this item ({type(exc).__name__}: {exc}); nothing of it was stored"

    def _attach(self, kept: list[tuple[list[Stored], Outcome]], actor: str | None) -> list[list[Stored]]:
        """Attach the stored units' first audits; an audit the store cannot keep leaves its record
        flagged unaudited instead (the bytes stay, as after an engine failure)."""
        stored = [items for items, _ in kept]
        outcomes = [outcome for _, outcome in kept]
        try:
            return self.store.attach_first_audits(stored, outcomes, self.engine.version, actor=actor)
        except DATA_ERRORS:
            attached = []
            for items, outcome in kept:
                try:
                    attached += self.store.attach_first_audits([items], [outcome], self.engine.version, actor=actor)
                except DATA_ERRORS as exc:
                    reason = f"the audit could not be stored ({type(exc).__name__})"
                    attached += self.store.attach_first_audits([items], [reason], self.engine.version, actor=actor)
            return attached

    def upload_one(self, unit: Unit, *, uploader: str | None = None, actor: str | None = None) -> list[Stored]:
        """Store and audit one unit; see `upload`."""
        return self.upload([unit], uploader=uploader, actor=actor)[0]

    def _audit_units(self, units: Sequence[Unit], needed: Sequence[bool]) -> list[Outcome]:
        """Per unit: the engine's audits, the failure message, or None when the engine has nothing
        to do for it (`Store.needs_audit`: every hand stored and audited, or covered by an earlier
        unit of this batch: the same bytes sent twice in one upload are audited once). Runs
        outside any transaction."""
        outcomes: list[Outcome] = []
        for unit, todo in zip(units, needed):
            if not todo:
                outcomes.append(None)
                continue
            judge = platforms.judge_of(self.store.db, unit.doc)
            try:
                audits = self.engine.run(unit.doc, count=unit.audit_count, schema_checked=unit.schema_checked,
                                         base_profile=judge.profile() if judge is not None else None)
                outcomes.append(judged(audits, judge))
            except AuditFailed as exc:
                outcomes.append(str(exc))
        return outcomes

    def what_if(self, record_id: int, *, profile: str | None = None, options: dict[str, Any] | None = None,
                lang: Lang = Lang.EN) -> dict[str, Any]:
        """The audit a stored record would get (under another profile or options), not stored,
        its messages in `lang`. A match hand is audited with its whole match (continuity matters).
        Without a what-if `profile`, the platform's profile in force on the record's day judges it
        when there is one (issue 36.3), `options` on top; the audit then names that version
        (`records.rows.JUDGED_BY`)."""
        doc, index, count = self.store.audit_target(self.store.record(record_id))
        judge = None if profile else platforms.judges_of(self.store.db, [record_id]).get(record_id)
        audit = self.engine.run(doc, profile=profile, options=options, count=count,
                                base_profile=judge.profile() if judge is not None else None)[index]
        return judged([rerender(audit, lang, seat_names(self.store.document(record_id)))], judge)[0]

    def reaudit(self, record_id: int, *, profile: str | None = None, options: dict[str, Any] | None = None,
                actor: str | None = None, reason: str | None = None) -> dict[str, Any]:
        """Audit a stored record again and keep the audit as its latest, `reason` in the trail;
        AuditFailed stores nothing, and neither does OptionsRefused (the options, not the game,
        made the audit invalid: the audit without them would differ)."""
        audit = self.what_if(record_id, profile=profile, options=options)  # stored in English
        if options and audit.get("verdict") == "invalid":
            refused = [f for f in audit.get("findings") or [] if isinstance(f, dict) and f.get("rule") == "P"]
            if refused and self.what_if(record_id, profile=profile).get("verdict") != "invalid":
                raise OptionsRefused(refused[0])
        return self.store.add_audit(record_id, audit, options=options, engine_version=self.engine.version,
                                    actor=actor, reason=reason)
