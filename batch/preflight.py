"""Before any partition: the scheduler and every worker import the engine and the batch this
command runs, at the same engine version (docs/batch.md, "On a cluster").

Dask ships a partition to a worker as a reference to `batch.work` (a function pickled by name),
and the scheduler reads the task graph: a process that cannot import `audit` and `batch` fails
every partition with "Error during deserialization of the task graph", and one with another
engine version audits by other rules. The probe below is a lambda, so Dask sends it by value:
it runs on a process that has neither package and reports what it could not import.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from audit.api import ENGINE_VERSION

PROBE: Callable[[], str] = lambda: (  # noqa: E731  (a lambda: pickled by value, runs without our packages)
    __import__("batch.work"), str(getattr(__import__("audit.api", fromlist=["ENGINE_VERSION"]), "ENGINE_VERSION")))[1]
"""The engine version a process imports (importing the batch's worker code on the way)."""

HOW_TO: str = ("install the engine where the cluster runs: `make dist`, then `pip install "
               "'dist/zhuoji_audit-*.whl[batch]'` (audit/, sim/, kit/ and batch/, with distributed and pyarrow) "
               "in the environment of the "
               "scheduler and of every worker, or start `dask scheduler` and each `dask worker` with "
               "PYTHONPATH set to a checkout of this version")


class ClusterMismatch(Exception):
    """A process of the cluster cannot run this batch; the message says which and what to do."""


def problems(scheduler: object, workers: Mapping[str, object]) -> list[str]:
    """One line per process whose probe failed or answered another version."""
    out: list[str] = []
    for name, answer in [("the scheduler", scheduler), *((f"worker {w}", a) for w, a in sorted(workers.items()))]:
        if isinstance(answer, BaseException):
            out.append(f"{name} cannot import the engine ({type(answer).__name__}: {answer})")
        elif answer != ENGINE_VERSION:
            out.append(f"{name} runs engine {answer}, this command {ENGINE_VERSION}")
    return out


WAIT_FOR_WORKER_S = 30.0
"""How long the command waits for a first worker to join a scheduler it was pointed at."""


def check(client: Any) -> None:
    """Raise ClusterMismatch unless every process of `client`'s cluster runs this engine (after
    waiting up to WAIT_FOR_WORKER_S for a first worker: one started with the scheduler may still
    be connecting)."""
    try:
        client.wait_for_workers(1, timeout=WAIT_FOR_WORKER_S)
    except Exception:  # noqa: BLE001  (a timeout: reported as no worker below)
        pass
    try:
        scheduler: object = client.run_on_scheduler(PROBE)
    except Exception as exc:  # noqa: BLE001  (whatever the scheduler raised is the answer)
        scheduler = exc
    try:
        workers: dict[str, object] = dict(client.run(PROBE, on_error="return"))
    except Exception as exc:  # noqa: BLE001
        workers = {"(all)": exc}
    if not workers:
        raise ClusterMismatch("the cluster has no worker: start at least one `dask worker`")
    found = problems(scheduler, workers)
    if found:
        raise ClusterMismatch("; ".join(found) + ". " + HOW_TO[0].upper() + HOW_TO[1:] + ".")
