"""Re-audits of stored records on the batch path: workers audit, the store takes the audits in batches.

`flask reaudit` selects record ids; they are split into partitions (`batch.store_source`)
which Dask workers read from the database themselves (read-only) and audit with the service's
engine (`records.pipeline.Engine`, pickled to them: the real one is `audit.api.audit_document`).
Only the audits come back, and this process writes them with `Store.add_audits`, up to
UNITS_PER_TRANSACTION at a time: one writer, as SQLite wants, append-only as ever (each
re-audit is a new audit row and a trail entry; the old audits stay). An engine failure on a
record is reported for that record and stores nothing for it, as `Pipeline.reaudit` does.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from batch.inputs import parse
from batch.runner import Failure, Progress, Task, execute
from batch.store_source import StorePartition, selection
from records import platforms
from records.pipeline import UNITS_PER_TRANSACTION, AuditFailed, Engine, judged
from records.platforms import Version
from records.store import Store

PARTITION_RECORDS = 500
"""Records per task: a few seconds of work for a worker, small enough to spread over many."""

Result = tuple[int, dict[str, Any] | str]
"""(record id, its new audit or why the engine failed on it)."""


def reaudit_partition(partition: StorePartition, engine: Engine,
                      judges: Mapping[int, Version] | None = None) -> list[Result]:
    """On a worker: the engine's audit of each record of the partition (a match hand with its match),
    under the platform profile version `judges` names for it, if any (issue 36.3: read by the
    writing process, `records.platforms.judges_of`, and sent with the task)."""
    judges = judges or {}
    results: list[Result] = []
    # (cache key, audits) of the last match: its hands come one after the other, each with the
    # match's bytes, which are parsed and audited once.
    last: tuple[str, list[dict[str, Any]]] | None = None
    for document in partition.read():
        record_id = document.origin.record_id
        if record_id is not None and last is not None and document.cache_key == last[0]:
            results.append((record_id, last[1][document.pick or 0]))
            continue
        doc, problem = parse(document)
        if record_id is None:  # the database itself could not be read: let the task fail and be retried
            raise RuntimeError(f"{document.origin.label()}: {problem.params if problem else 'unreadable'}")
        if problem is not None:
            results.append((record_id, f"the stored bytes cannot be read as JSON ({problem.code})"))
            continue
        hands = doc.get("hands") if document.pick is not None and isinstance(doc, dict) else None
        count = len(hands) if isinstance(hands, list) else 1
        judge = judges.get(record_id)
        try:
            audits = judged(engine.run(doc, count=count, base_profile=judge.profile() if judge else None), judge)
        except AuditFailed as exc:
            results.append((record_id, str(exc)))
            continue
        if document.cache_key:
            last = (document.cache_key, audits)
        results.append((record_id, audits[document.pick or 0]))
    return results


@dataclass
class Reaudit:
    """What a batch re-audit did."""

    written: list[tuple[int, int, str]] = field(default_factory=list)
    """(record id, new audit id, verdict), in the order written."""
    failed: list[tuple[int, str]] = field(default_factory=list)
    """(record id, why the engine failed on it)."""
    failures: list[Failure] = field(default_factory=list)
    """Partitions that failed after their retries (nothing written for their records)."""
    lost: list[int] = field(default_factory=list)
    """The records of those partitions: not re-audited, left as they were."""


def reaudit(store: Store, path: str, ids: Sequence[int], engine: Engine, client: Any, *, actor: str | None,
            on_record: Callable[[int, dict[str, Any] | str], None] | None = None, stream: TextIO | None = None,
            partition_records: int = PARTITION_RECORDS) -> Reaudit:
    """Re-audit records `ids` of the store at `path` on the cluster of `client`, writing back in batches."""
    outcome = Reaudit()
    parts = selection(path, ids, partition_records)
    judges = platforms.judges_of(store.db, ids)
    tasks = [Task(reaudit_partition, (part, engine, {i: judges[i] for i in part.ids if i in judges}), part.estimate,
                  part.inputs(), f"reaudit-{index:05d}")
             for index, part in enumerate(parts)]
    progress = Progress(len(ids), stream)
    progress.tasks = len(tasks)

    def write(task: Task, results: list[Result]) -> int:
        good = [(record_id, audit) for record_id, audit in results if isinstance(audit, dict)]
        for start in range(0, len(good), UNITS_PER_TRANSACTION):
            chunk = good[start:start + UNITS_PER_TRANSACTION]
            audit_ids = store.add_audits(chunk, options=None, engine_version=engine.version, actor=actor)
            outcome.written += [(record_id, audit_id, audit["verdict"])
                                for (record_id, audit), audit_id in zip(chunk, audit_ids)]
        outcome.failed += [(record_id, error) for record_id, error in results if isinstance(error, str)]
        if on_record is not None:
            for record_id, audit in results:
                on_record(record_id, audit)
        return len(results)

    outcome.failures = execute(client, tasks, on_result=write, progress=progress) if tasks else []
    by_label = {task.label: part for task, part in zip(tasks, parts)}
    outcome.lost = [record_id for failure in outcome.failures for record_id in by_label[failure.label].ids]
    return outcome


__all__ = ["PARTITION_RECORDS", "Reaudit", "reaudit", "reaudit_partition"]
