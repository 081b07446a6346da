"""A platform's stored history re-audited under an adopted profile version (issue 36.3). No Flask.

The records a version judges (`records.platforms.judges_of`: the platform's current records whose
day falls in the version's span) are audited again under it, UNITS_PER_TRANSACTION at a time: the
engine runs outside any transaction, then a batch's audits (`Store.add_audits`: each a new audit
row naming the version, the old ones kept, each with its `reaudit` trail entry) and the run's
progress are committed in one. A kill leaves every record either with its old latest audit or
with the new one, never between, and the run `running` with its progress; starting the re-audit
of that version again resumes it (the records whose latest audit the version already made are
skipped). The counts per verdict and per finding code of those records are taken once before the
first batch and once after the last, kept on the run and in its `platform-reaudit` trail entry.
"""
from __future__ import annotations

import datetime
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from audit.api import loads
from records import platforms, trail
from records.db import atomic
from records.pipeline import UNITS_PER_TRANSACTION, AuditFailed, Pipeline, judged
from records.platforms import Version
from records.refusal import FieldRefusal
from records.rows import now

STALE_SECONDS = 120
"""A run that has written nothing for this long is taken as interrupted (its process was killed):
another may resume it. A live run writes a batch every second or so."""


class ReauditRefused(FieldRefusal):
    """A re-audit that cannot start (`code`: web/errors.toml)."""


@dataclass(frozen=True)
class Run:
    """One re-audit of a platform's records under one version."""

    id: int
    platform: str
    profile_id: int
    who: str
    started_at: str
    updated_at: str | None
    finished_at: str | None
    status: str
    """`running` (or interrupted: see `interrupted`) or `finished`."""
    total: int
    done: int
    failed: int
    before: dict[str, dict[str, int]]
    """{"verdicts": {verdict: records}, "codes": {finding code: findings}} before the first batch."""
    after: dict[str, dict[str, int]] | None

    def interrupted(self, at: str | None = None) -> bool:
        """Running, yet silent for STALE_SECONDS: its process is gone, it may be resumed."""
        if self.status != "running":
            return False
        last = _parse(self.updated_at or self.started_at)
        return (_parse(at or now()) - last).total_seconds() > STALE_SECONDS

    def changes(self) -> dict[str, list[tuple[str, int, int]]]:
        """Per kind (verdicts, codes): (name, before, after) of every name with a count either side."""
        after = self.after or {}
        out: dict[str, list[tuple[str, int, int]]] = {}
        for kind in ("verdicts", "codes"):
            old, new = self.before.get(kind, {}), after.get(kind, {})
            out[kind] = [(name, old.get(name, 0), new.get(name, 0)) for name in sorted(set(old) | set(new))]
        return out


def _parse(stamp: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))


_COLUMNS = ("id, platform, profile_id, who, started_at, updated_at, finished_at, status, total, done, failed, "
            "before_json, after_json")


def _run(row: Any) -> Run:
    return Run(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10],
               loads(row[11]), loads(row[12]) if row[12] else None)


def runs(db: Any, profile_id: int) -> list[Run]:
    """The re-audits under a version, newest first."""
    return [_run(row) for row in db.execute(f"SELECT {_COLUMNS} FROM platform_reaudits WHERE profile_id = ? "
                                            "ORDER BY id DESC", [profile_id])]


def get_run(db: Any, run_id: int) -> Run | None:
    row = db.execute(f"SELECT {_COLUMNS} FROM platform_reaudits WHERE id = ?", [run_id]).fetchone()
    return _run(row) if row else None


def judged_ids(db: Any, version: Version) -> list[int]:
    """The current records of the version's platform that it judges (its span of days), by id."""
    ids = [row[0] for row in db.execute("SELECT id FROM records WHERE platform = ? AND is_current = 1 ORDER BY id",
                                        [version.platform])]
    judges = platforms.judges_of(db, ids)
    return [i for i in ids if i in judges and judges[i].id == version.id]


def counts(db: Any, platform: str, ids: Sequence[int]) -> dict[str, dict[str, int]]:
    """Per verdict (records) and per finding code (findings) of the latest audits of these records
    of the platform (one pass over the platform's current records)."""
    wanted = set(ids)
    verdicts: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    for record_id, verdict, findings in db.execute(
            "SELECT r.id, r.verdict, a.findings_json FROM records r LEFT JOIN audits a ON a.id = r.latest_audit_id "
            "WHERE r.platform = ? AND r.is_current = 1", [platform]):
        if record_id not in wanted:
            continue
        verdicts[verdict or "unaudited"] += 1
        for finding in loads(findings or "[]"):
            code = finding.get("code") if isinstance(finding, dict) else None
            codes[code if isinstance(code, str) else "?"] += 1
    return {"verdicts": dict(verdicts), "codes": dict(codes)}


def start(db: Any, version: Version, *, who: str) -> Run:
    """The run to do now: the unfinished (interrupted) run of this version, resumed, or a new one
    with the counts before. Refused while another re-audit of the platform is at work."""
    with atomic(db):
        for row in db.execute(f"SELECT {_COLUMNS} FROM platform_reaudits WHERE platform = ? AND status = 'running'",
                              [version.platform]):
            other = _run(row)
            if not other.interrupted():
                raise ReauditRefused("platform", f"a re-audit of {version.platform} is running (run {other.id})",
                                     "platform_reaudit_running", platform=version.platform, run=other.id)
            if other.profile_id == version.id:
                db.execute("UPDATE platform_reaudits SET updated_at = ? WHERE id = ?", [now(), other.id])
                found = get_run(db, other.id)
                assert found is not None
                return found
        ids = judged_ids(db, version)
        stamp = now()
        cursor = db.execute("INSERT INTO platform_reaudits (platform, profile_id, who, started_at, updated_at, status, "
                            "total, done, failed, before_json) VALUES (?, ?, ?, ?, ?, 'running', ?, 0, 0, ?)",
                            [version.platform, version.id, who, stamp, stamp, len(ids),
                             json.dumps(counts(db, version.platform, ids), sort_keys=True)])
        found = get_run(db, int(cursor.lastrowid or 0))
    assert found is not None
    return found


def _todo(db: Any, version: Version) -> list[int]:
    """The records the version judges whose latest audit it did not make."""
    ids = judged_ids(db, version)
    made = {row[0] for row in db.execute(
        "SELECT r.id FROM records r JOIN audits a ON a.id = r.latest_audit_id "
        "WHERE r.platform = ? AND r.is_current = 1 AND a.platform_profile_id = ?", [version.platform, version.id])}
    return [i for i in ids if i not in made]


def _audit(pipeline: Pipeline, version: Version, record_id: int,
           cache: dict[int, list[dict[str, Any]]]) -> dict[str, Any] | str:
    """The record's audit under the version (a match hand with its match, once per match), or why not."""
    store = pipeline.store
    record = store.record(record_id)
    try:
        if record["match_id"] is not None and record["match_id"] in cache:
            return cache[record["match_id"]][record["match_index"]]
        doc, index, count = store.audit_target(record)
        audits = judged(pipeline.engine.run(doc, count=count, base_profile=version.profile()), version)
    except AuditFailed as exc:
        return str(exc)
    if record["match_id"] is not None:
        cache.clear()
        cache[record["match_id"]] = audits
    return audits[index]


def run(pipeline: Pipeline, version: Version, *, who: str, key: bytes,
        on_batch: Callable[[Run], None] | None = None) -> Run:
    """Re-audit the records the version judges (starting or resuming its run) and finish the run:
    its counts after, its trail entry. `on_batch` is called after each committed batch (progress;
    the tests stop a run there)."""
    store = pipeline.store
    current = start(store.db, version, who=who)
    todo = _todo(store.db, version)
    reason = f"platform profile {version.platform} version {version.version}"
    cache: dict[int, list[dict[str, Any]]] = {}
    for first in range(0, len(todo), UNITS_PER_TRANSACTION):
        chunk = todo[first:first + UNITS_PER_TRANSACTION]
        results = [(record_id, _audit(pipeline, version, record_id, cache)) for record_id in chunk]
        good = [(record_id, audit) for record_id, audit in results if isinstance(audit, dict)]
        with atomic(store.db):
            if good:
                store.add_audits(good, options=None, engine_version=pipeline.engine.version, actor=who, reason=reason)
            store.db.execute("UPDATE platform_reaudits SET done = done + ?, failed = failed + ?, updated_at = ? "
                             "WHERE id = ?", [len(good), len(results) - len(good), now(), current.id])
        if on_batch is not None:
            progressed = get_run(store.db, current.id)
            assert progressed is not None
            on_batch(progressed)
    return finish(store.db, current.id, version, key=key)


def finish(db: Any, run_id: int, version: Version, *, key: bytes) -> Run:
    """Count after, mark the run finished and write its trail entry, in one transaction."""
    after = counts(db, version.platform, judged_ids(db, version))
    stamp = now()
    with atomic(db):
        db.execute("UPDATE platform_reaudits SET status = 'finished', finished_at = ?, updated_at = ?, after_json = ? "
                   "WHERE id = ?", [stamp, stamp, json.dumps(after, sort_keys=True), run_id])
        done = get_run(db, run_id)
        assert done is not None
        trail.append(db, at=stamp, actor=done.who, action="platform-reaudit", key=key,
                     detail={"platform": version.platform, "version": version.version, "profile_id": version.id,
                             "run_id": run_id, "started_at": done.started_at, "total": done.total, "done": done.done,
                             "failed": done.failed, "before": done.before, "after": after})
    return done


__all__ = ["ReauditRefused", "Run", "STALE_SECONDS", "counts", "finish", "get_run", "judged_ids", "run", "runs",
           "start"]
