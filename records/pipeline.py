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

from audit.api import ENGINE_VERSION, Profile, audit_document
from audit.vocabulary import Lang, rerender, seat_names
from records import platforms, receipts
from records.db import atomic
from records.ingest import Batch, Limits, Problem, Unit, Validators, read_upload
from records.receipts import Stored
from records.rows import JUDGED_BY, VERDICTS, now, sha256
from records.store import Outcome, Store

Auditor = Callable[..., list[dict[str, Any]]]
"""`audit_document(doc, *, profile=None, options=None[, schema_checked=False]) -> [audit, ...]`."""

UNITS_PER_TRANSACTION = 100
"""Units whose bytes share one write transaction, and whose audits share the next. A commit cost
about 0.5 ms, as much as all of a record's rows, and there were two per record; 100 units hold
the write lock for a few tens of milliseconds, far inside another writer's busy timeout."""


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
    return Engine(audit_document, ENGINE_VERSION, takes_schema_checked=True)


class RequestRefused(ValueError):
    """A request refused whole before anything of it is stored: `problem` is the reader's (the
    record cap of `Limits.max_records`), or `other_platform` names, as (source, platform), every
    hand of a platform other than `own`, the one its uploader is bound to. The web layer answers
    413 or 403 in the asker's language and keeps a receipt per file (`Pipeline.keep_refusal`)."""

    def __init__(self, problem: Problem | None = None, other_platform: Sequence[tuple[str, str]] = (),
                 own: str | None = None) -> None:
        self.problem = problem
        self.other_platform = list(other_platform)
        self.own = own
        super().__init__(problem.describe() if problem is not None else "; ".join(
            f"{source}: platform {platform!r} is not the uploader's ({own!r})" for source, platform in self.other_platform))


class Pipeline:
    """Uploads and re-audits: the store keeps, the engine judges, this decides the order."""

    def __init__(self, store: Store, engine: Engine | None = None) -> None:
        self.store = store
        self.engine = engine or default_engine()

    def upload_files(self, files: Sequence[tuple[str, bytes]], *, uploader: str | None, actor: str | None = None,
                     limits: Limits | None = None, validators: Validators | None = None,
                     platform: str | None = None) -> list[dict[str, Any]]:
        """One request's files, (name, bytes): every file read before any is stored, so that the
        request-wide record cap and the uploader's `platform` (None: any) refuse the whole upload
        with nothing stored (RequestRefused); then `upload_batches`. Result lines in file order."""
        batches, seen = [], 0
        for name, data in files:
            batch = read_upload(name, data, limits=limits, validators=validators, records_before=seen)
            if batch.refused is not None:
                raise RequestRefused(batch.refused)
            seen += batch.records
            batches.append(batch)
        lines = receipts.Lines(batches)
        if platform is not None:
            other = [(hand.source, hand.platform) for unit in lines.units for hand in unit.hands
                     if hand.platform != platform]
            if other:
                raise RequestRefused(other_platform=other, own=platform)
        return self._upload_lines(lines, uploader, actor)

    def upload_file(self, filename: str, data: bytes, *, uploader: str | None, actor: str | None = None,
                    limits: Limits | None = None, validators: Validators | None = None) -> list[dict[str, Any]]:
        """Read, audit and store one file (`flask load-samples`); a file over the record cap stores
        nothing and its one line says why."""
        batch = read_upload(filename, data, limits=limits, validators=validators)
        return self.upload_batches([batch], uploader=uploader, actor=actor)

    def upload_batches(self, batches: Sequence[Batch], *, uploader: str | None,
                       actor: str | None = None) -> list[dict[str, Any]]:
        """Store what was read from every file of a request; result lines in file order. The units
        of all files are stored together (`upload_isolating`: one transaction per batch of units, not
        per record), and the receipt of every line is written in the transaction of the batch its
        unit belongs to (a refused line: the transaction of the next batch, or of the last), so that
        a kill at any point leaves no stored record without the receipt of the submission that
        created it, and no receipt of a record that is not there (issue 22.5)."""
        return self._upload_lines(receipts.Lines(batches), uploader, actor)

    def _upload_lines(self, lines: receipts.Lines, uploader: str | None, actor: str | None) -> list[dict[str, Any]]:
        """`upload_batches` of the batches `lines` were read from."""
        if lines.units:
            self._upload(lines.units, uploader, actor, lines.take)
        else:
            stamp = now()
            with atomic(self.store.db):
                self._receipts(lines.take(0, []), uploader, actor, stamp)
        return lines.lines

    def keep_refusal(self, files: Sequence[tuple[str, bytes]], error: dict[str, Any], *, uploader: str | None,
                     actor: str | None) -> None:
        """One receipt per file of a request refused whole (RequestRefused, or a refusal of the
        web layer), with `error` as the web layer words it: nothing else of it is stored."""
        refused = [{"source": name, "file": name, "status": "refused", "sha256": sha256(data), "errors": [error]}
                   for name, data in files]
        stamp = now()
        with atomic(self.store.db):
            self._receipts(refused, uploader, actor, stamp)

    def upload(self, units: Sequence[Unit], *, uploader: str | None = None,
               actor: str | None = None) -> list[list[Stored]]:
        """Audit and store every hand of every unit; one list of results per unit, in order. Per
        batch of up to UNITS_PER_TRANSACTION units the engine runs first, outside any transaction,
        then the bytes, the records, their first audits and the stored hands' receipts are written
        in one transaction, stamped with one time. A data error the store raises is the caller's
        (see `upload_isolating`)."""
        results: list[list[Stored]] = []
        for start in range(0, len(units), UNITS_PER_TRANSACTION):
            chunk = list(units[start:start + UNITS_PER_TRANSACTION])
            outcomes = self._audit_units(chunk)
            stamp = now()
            with atomic(self.store.db):
                attached = self.store.write_units(chunk, outcomes, self.engine.version, uploader=uploader, actor=actor,
                                                  stamp=stamp)
                receipts.add(self.store.db, receipts.stored_lines(start, list(attached)), uploader=uploader,
                             actor=actor or uploader, at=stamp, key=self.store.trail_key)
            results += attached
        return results

    def upload_isolating(self, units: Sequence[Unit], *, uploader: str | None = None,
                         actor: str | None = None) -> list[list[Stored] | str]:
        """`upload`, except that a unit the store cannot keep is refused alone: per unit, its results
        or why it was not stored. A batch whose writes raise a data error is rolled back to the
        savepoint before them and its units are written one per savepoint, so the good ones are
        kept and the bad one leaves nothing behind; all of it, receipts included, is still one
        transaction per batch (a kill leaves the whole batch or none of it)."""
        return self._upload(units, uploader, actor, receipts.stored_lines)

    def _upload(self, units: Sequence[Unit], uploader: str | None, actor: str | None,
                lines: Callable[[int, list[list[Stored] | str]], list[dict[str, Any]]]) -> list[list[Stored] | str]:
        """`upload_isolating`, each batch's receipts being the `lines(start, done)` of its units."""
        results: list[list[Stored] | str] = []
        for start in range(0, len(units), UNITS_PER_TRANSACTION):
            chunk = list(units[start:start + UNITS_PER_TRANSACTION])
            outcomes = self._audit_units(chunk)
            stamp = now()
            with atomic(self.store.db):
                try:
                    with atomic(self.store.db):  # the savepoint a data error rolls back
                        done: list[list[Stored] | str] = list(self.store.write_units(
                            chunk, outcomes, self.engine.version, uploader=uploader, actor=actor, stamp=stamp))
                except DATA_ERRORS:  # the batch's writes undone: each unit alone, in its own savepoint
                    done = [self._write_alone(unit, outcome, uploader, actor, stamp)
                            for unit, outcome in zip(chunk, outcomes)]
                receipts.add(self.store.db, lines(start, done), uploader=uploader, actor=actor or uploader, at=stamp,
                             key=self.store.trail_key)  # the receipts of what this transaction stores
            results += done
        return results

    def _receipts(self, lines: list[dict[str, Any]], uploader: str | None, actor: str | None, stamp: str) -> None:
        """A receipt for every result line (`records.receipts`), inside the caller's transaction."""
        receipts.add(self.store.db, lines, uploader=uploader, actor=actor or uploader, at=stamp,
                     key=self.store.trail_key)

    def _write_alone(self, unit: Unit, outcome: Outcome, uploader: str | None, actor: str | None,
                     stamp: str) -> list[Stored] | str:
        """One unit in its own savepoint: its records and first audits; or, when those raise a data
        error, its records alone with `_attach`'s fallback; or why the store refused it."""
        try:
            with atomic(self.store.db):
                return self.store.write_units([unit], [outcome], self.engine.version, uploader=uploader,
                                              actor=actor, stamp=stamp)[0]
        except DATA_ERRORS:
            pass
        try:
            items = self.store.insert_units([unit], uploader=uploader, actor=actor, stamp=stamp)[0]
        except DATA_ERRORS as exc:
            return f"the store cannot keep this item ({type(exc).__name__}: {exc}); nothing of it was stored"
        return self._attach(items, outcome, actor or uploader, stamp)

    def _attach(self, items: list[Stored], outcome: Outcome, actor: str | None, stamp: str) -> list[Stored]:
        """Attach a stored unit's first audits; an audit the store cannot keep leaves its record
        flagged unaudited instead (the bytes stay, as after an engine failure)."""
        try:
            return self.store.attach_first_audits([items], [outcome], self.engine.version, actor=actor,
                                                  stamp=stamp)[0]
        except DATA_ERRORS as exc:
            reason = f"the audit could not be stored ({type(exc).__name__})"
            return self.store.attach_first_audits([items], [reason], self.engine.version, actor=actor, stamp=stamp)[0]

    def upload_one(self, unit: Unit, *, uploader: str | None = None, actor: str | None = None) -> list[Stored]:
        """Store and audit one unit; see `upload`."""
        return self.upload([unit], uploader=uploader, actor=actor)[0]

    def _audit_units(self, units: Sequence[Unit]) -> list[Outcome]:
        """Per unit: the engine's audits, the failure message, or None when the engine has nothing
        to do for it (`Store.needs_audit`: every hand stored and audited, or covered by an earlier
        unit of this batch: the same bytes sent twice in one upload are audited once). Runs
        outside any transaction."""
        outcomes: list[Outcome] = []
        judges = platforms.judges_of_documents(self.store.db, [unit.doc for unit in units])
        for unit, todo, judge in zip(units, self.store.needs_audit(units), judges):
            if not todo:
                outcomes.append(None)
                continue
            try:
                audits = self.engine.run(unit.doc, count=unit.audit_count, schema_checked=unit.schema_checked,
                                         base_profile=judge.profile() if judge is not None else None)
                outcomes.append(audits if judge is None else judged(audits, judge))
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

