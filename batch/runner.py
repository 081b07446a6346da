"""Running tasks on Dask (`dask.distributed`): a local cluster of N worker processes, or an
existing cluster at a scheduler's address, the same code either way.

Tasks are submitted a window at a time (a year of history is hundreds of thousands of
partitions; the scheduler only ever holds a few per worker), each with Dask's retries; a task
that still fails, or whose workers keep dying (Dask's `allowed-failures`), is reported with
its inputs and the run goes on with the others. A worker killed mid-task is replaced by its
nanny on a local cluster and its task rerun elsewhere: results do not depend on which worker
ran what. Progress (hands done, hands/s, time left) goes to the terminal.
"""
from __future__ import annotations

import logging
import os
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

RETRIES = 2
"""Times a failing task is run again before it is reported."""
WINDOW_PER_WORKER = 4
"""Tasks in flight per worker: enough to keep each busy, few enough to bound the scheduler."""


@dataclass(frozen=True)
class Task:
    """One call to run on a worker: `fn(*args)`, with what the progress line and a report need."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    estimate: int
    """Hands expected (for the progress line only)."""
    inputs: list[str]
    """What it reads, as a person names it (for the failure report)."""
    label: str


@dataclass
class Failure:
    """A task that failed after its retries: its inputs and the last error."""

    label: str
    inputs: list[str]
    error: str

    def to_json(self) -> dict[str, Any]:
        return {"partition": self.label, "inputs": self.inputs, "error": self.error}


@dataclass
class Progress:
    """The progress line: hands done out of the estimate, hands/s, time left."""

    total: int
    stream: TextIO | None = None
    interval: float = 1.0
    done: int = 0
    tasks_done: int = 0
    tasks: int = 0
    failed: int = 0
    started: float = field(default_factory=time.monotonic)
    _last: float = 0.0
    _shown: str = ""

    def add(self, hands: int, estimate: int, *, failed: bool = False) -> None:
        """A task finished: its hands count (its estimate leaves the total, its real count enters it)."""
        self.total += hands - estimate
        self.done += hands
        self.tasks_done += 1
        self.failed += failed
        self.show()

    @property
    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.done / elapsed if elapsed > 0 else 0.0

    def line(self) -> str:
        rate = self.rate
        left = max(self.total - self.done, 0)
        eta = f"~{_duration(left / rate)} left" if rate > 0 and left else ("done" if not left else "")
        share = f"{100 * self.done / self.total:.0f}%" if self.total else "100%"
        failed = f", {self.failed} failed" if self.failed else ""
        return (f"{self.done:,} / ~{self.total:,} hands ({share}), {rate:,.0f} hands/s, {eta}; "
                f"partitions {self.tasks_done}/{self.tasks}{failed}")

    def show(self, final: bool = False) -> None:
        if self.stream is None:
            return
        now = time.monotonic()
        tty = self.stream.isatty()
        if not final and now - self._last < (self.interval if tty else 10 * self.interval):
            return
        self._last = now
        line = self.line()
        if final and not tty and line == self._shown:
            return  # the last progress line already said it
        self._shown = line
        self.stream.write(("\r" + line + "\033[K") if tty else line + "\n")
        if final and tty:
            self.stream.write("\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


WORKER_CONFIG: dict[str, Any] = {"distributed.worker.profile.enabled": False}
"""Dask settings of the workers the command starts (a local cluster; docs/batch.md gives the same as
an environment variable for workers started by hand). The statistical profiler samples the task's
stack every 10 ms for the dashboard, which nobody reads here: 0.5% of a core idle, more while the
engine runs deep stacks."""


CONNECT_TIMEOUT_S = 10
"""How long `--scheduler` keeps trying to reach the scheduler before the command gives up (exit 2).
Dask's own default is 30 s; a scheduler that is up answers in milliseconds, and one that is not
should be said at once, not after half a minute of silence."""
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
"""Address schemes of a scheduler in another process (Dask's `inproc://` is reachable only from its own)."""


class SchedulerError(Exception):
    """`--scheduler` names no scheduler this command can use: not an address, or nobody answers there."""


def check_address(scheduler: str) -> None:
    """SchedulerError unless `scheduler` reads as a scheduler's address (`tcp://HOST:PORT`, or
    `HOST:PORT`, which is tcp): checked before anything starts, without connecting."""
    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import get_backend

    def refuse(why: str) -> SchedulerError:
        return SchedulerError(f"--scheduler {scheduler!r} is not a scheduler's address ({why}); "
                              "give tcp://HOST:PORT, as `dask scheduler` prints it")

    try:
        scheme, location = parse_address(scheduler)
        if scheme not in SCHEMES:
            raise refuse(f"scheme {scheme}:// is not one of {', '.join(s + '://' for s in SCHEMES)}")
        backend = get_backend(scheme)
        try:
            _, port = backend.get_address_host_port(location)
        except NotImplementedError:  # a backend that does not say (ucx): its connect will
            return
    except (ValueError, TypeError) as exc:
        raise refuse(str(exc) or type(exc).__name__) from None
    if not 0 < port < 65536:
        raise refuse(f"port {port} is not 1-65535")


def connect(scheduler: str) -> Any:
    """A client of the scheduler at `scheduler`; SchedulerError (naming the address and why) when
    the address is malformed or nobody answers there within CONNECT_TIMEOUT_S."""
    from distributed import Client

    check_address(scheduler)
    try:
        return Client(scheduler, timeout=f"{CONNECT_TIMEOUT_S}s")
    except (OSError, ValueError, TypeError) as exc:  # OSError holds TimeoutError: nobody answered
        raise SchedulerError(f"--scheduler {scheduler}: cannot reach a scheduler there ({exc})") from None


@contextmanager
def cluster(workers: int | None = None, scheduler: str | None = None) -> Iterator[Any]:
    """A Dask client: of the scheduler at `scheduler` (SchedulerError when it cannot be reached),
    or of a new local cluster of `workers` single-threaded worker processes (the engine is pure
    Python or mypyc code holding the GIL: processes, not threads, are what scale), torn down on exit."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler:
        with connect(scheduler) as client:
            yield client
        return
    count = workers or os.cpu_count() or 1
    with dask.config.set(WORKER_CONFIG), LocalCluster(
            n_workers=count, threads_per_worker=1, processes=True, dashboard_address=":0",
            silence_logs=logging.ERROR) as local, Client(local) as client:
        yield client


def worker_count(client: Any) -> int:
    """Workers the scheduler knows now (at least 1, for the window)."""
    try:
        return max(len(client.scheduler_info(n_workers=-1)["workers"]), 1)
    except TypeError:  # an older distributed without n_workers
        return max(len(client.scheduler_info()["workers"]), 1)


RECOMPUTING: frozenset[str] = frozenset({"lost", "pending"})
"""Future states that mean "not done yet" when as_completed hands the future back: its data was
lost with a worker and the scheduler is computing it again (distributed reports such keys as
"Couldn't gather ... rescheduling")."""


def execute(client: Any, tasks: Sequence[Task], *, on_result: Callable[[Task, Any], int],
            progress: Progress | None = None, retries: int = RETRIES) -> list[Failure]:
    """Run every task; `on_result(task, result)` (on this process, in completion order) returns
    the hands the task did. Returns the tasks that failed after their retries, in task order."""
    from distributed import as_completed

    run = uuid.uuid4().hex[:12]
    window = WINDOW_PER_WORKER * worker_count(client)
    pending = iter(enumerate(tasks))
    by_key: dict[str, tuple[int, Task]] = {}
    failures: list[tuple[int, Failure]] = []

    def submit() -> Any | None:
        item = next(pending, None)
        if item is None:
            return None
        index, task = item
        key = f"zhuoji-{task.label}-{run}"
        by_key[key] = (index, task)
        return client.submit(task.fn, *task.args, key=key, retries=retries, pure=False)

    first = [f for f in (submit() for _ in range(window)) if f is not None]
    queue = as_completed(first)
    for future in queue:
        index, task = by_key.pop(future.key)
        if future.status in RECOMPUTING:
            # Its result died with a worker (a kill after the task finished): the scheduler
            # recomputes it, so wait for it again rather than report a failure.
            by_key[future.key] = (index, task)
            queue.add(future)
            continue
        if future.status == "finished":
            hands = on_result(task, future.result())
            if progress:
                progress.add(hands, task.estimate)
        else:
            try:
                error = future.exception()
            except Exception as exc:  # cancelled (a scheduler restart): no exception to fetch
                error = exc
            failures.append((index, Failure(task.label, task.inputs, f"{type(error).__name__}: {error}")))
            if progress:
                progress.add(0, task.estimate, failed=True)
        future.release()
        nxt = submit()
        if nxt is not None:
            queue.add(nxt)
    if progress:
        progress.show(final=True)
    return [failure for _, failure in sorted(failures, key=lambda pair: pair[0])]


def report_failures(failures: Sequence[Failure], stream: TextIO = sys.stderr) -> None:
    """Each failed task with its inputs, for a person to rerun or inspect."""
    for failure in failures:
        stream.write(f"error: {failure.label} failed after its retries: {failure.error}\n")
        for name in failure.inputs:
            stream.write(f"  input: {name}\n")


__all__ = ["Failure", "Progress", "RETRIES", "Task", "cluster", "execute", "report_failures", "worker_count"]
