"""`python -m batch`: rows equal to the one-hand command's audits, the same whatever the
workers and the partition size, bad input as invalid rows, retries, failures, resume after a
kill, a scheduler and workers started as separate processes (one of them killed mid-run)."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from audit.api import ENGINE_VERSION, audit_document
from batch import driver, runner
from batch.cli import run as batch_cli
from batch.inputs import Document, Origin, Plan, Sizes, plan
from batch.rows import FINDINGS_SCHEMA, Settings
from batch.work import FINDINGS_DIR, HANDS_DIR, PARTS_DIR, run_partition
from batch.runner import cluster
from audit.cli import run as one_hand_cli
from tests.conftest import ROOT, SPEC, make_zip
from tests.deadlines import Deadline, scaled, wait_until

SAMPLES = ROOT / "samples"
RECORDS = sorted(p for p in SAMPLES.glob("*.json") if not p.name.endswith(".audit.json")
                 and p.name != "manifest.json" and "match" not in p.name)
BROKEN_LINES = {5: b'{"game_id": "cut-off', 12: b'{"name": "\xff\xfe"}', 20: b"[1, 2]", 33: b"NaN"}
"""Line number -> what stands there instead of a record in records.jsonl."""


def rows(out: Path, dataset: str) -> list[dict[str, Any]]:
    """Every row of a dataset, files in name order (the batch's order)."""
    found: list[dict[str, Any]] = []
    for path in sorted((out / dataset).glob("part-*.parquet")):
        found += pq.read_table(path).to_pylist()
    return found


def build_corpus(root: Path, hands: int = 60) -> list[str]:
    """A .jsonl with broken and blank lines, a folder (records, a match, an expected audit and a
    text file to skip), a zip (json, jsonl, junk members) and a zip of junk. Returns the inputs."""
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in RECORDS]
    lines: list[bytes] = []
    for number in range(1, hands + 1):
        if number in BROKEN_LINES:
            lines.append(BROKEN_LINES[number])
        elif number == 9:
            lines.append(b"   ")
        else:
            doc = dict(docs[number % len(docs)])
            if isinstance(doc.get("game_id"), str):
                doc["game_id"] = f"{doc['game_id']}-{number}"
            lines.append(json.dumps(doc, ensure_ascii=False).encode("utf-8"))
    (root / "records.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    folder = root / "folder"
    folder.mkdir()
    for name in ("illegal-match-dealer.json", "missettled-flip.json", "clean-weile-hot-shot.json"):
        (folder / name).write_bytes((SAMPLES / name).read_bytes())
    (folder / "clean-weile-hot-shot.audit.json").write_bytes((SAMPLES / "clean-weile-hot-shot.audit.json").read_bytes())
    (folder / "notes.txt").write_text("not a record", encoding="utf-8")
    members = {"a/first.json": (SAMPLES / "missettled-burn-not-applied.json").read_bytes(),
               "a/garbage.json": os.urandom(300), "lines.jsonl": b"\n".join(lines[:8]) + b"\n",
               "__MACOSX/._first.json": b"junk", "readme.txt": b"hello", "inner.zip": b"PK"}
    (root / "bundle.zip").write_bytes(make_zip(members))
    (root / "junk.zip").write_bytes(b"this is no zip at all" * 10)
    return [str(root / "records.jsonl"), str(folder), str(root / "bundle.zip"), str(root / "junk.zip")]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return build_corpus(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module")
def reference(corpus: list[str], dask_client: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus audited on the shared 2-worker cluster with partitions of 1,000 hands."""
    out = tmp_path_factory.mktemp("reference") / "out"
    driver.run(plan(corpus, Sizes(hands=1000)), Settings(), out, dask_client, stream=None)
    return out


def test_every_row_is_the_one_hand_audit(reference: Path, corpus: list[str]) -> None:
    hands, findings = rows(reference, "hands"), rows(reference, "findings")
    lines = (Path(corpus[0]).read_bytes()).split(b"\n")
    checked = 0
    for row in hands:
        if row["file"] != corpus[0] or row["line"] in BROKEN_LINES:
            continue
        [audit] = audit_document(json.loads(lines[row["line"] - 1]))
        mine = [f for f in findings if f["source"] == row["source"]]
        assert row["verdict"] == audit["verdict"] and row["game_id"] == audit["game_id"]
        assert [(f["code"], f["rule"], f["step"], f["seat"]) for f in mine] == \
            [(f["code"], f["rule"], f["step"], f["seat"]) for f in audit["findings"]]
        assert [json.loads(f["params"]) for f in mine] == [f["params"] for f in audit["findings"]]
        first = audit["findings"][0] if audit["findings"] else {}
        assert (row["code"], row["rule"], row["step"]) == (first.get("code"), first.get("rule"), first.get("step"))
        settlement = audit["settlement"]
        assert row["computed_scores"] == (settlement["scores"] if settlement else None)
        checked += 1
    assert checked == 60 - len(BROKEN_LINES) - 1  # the blank line gives no row


def test_a_match_file_gives_the_one_hand_commands_json(reference: Path, corpus: list[str]) -> None:
    path = str(Path(corpus[1]) / "illegal-match-dealer.json")
    out = io.StringIO()
    assert one_hand_cli(["--json", path], out=out, err=io.StringIO()) == 1
    printed = json.loads(out.getvalue())
    match_rows = [r for r in rows(reference, "hands") if r["file"] == path]
    assert [(r["hand"], r["verdict"], r["code"]) for r in match_rows] == \
        [(i, a["verdict"], a["findings"][0]["code"] if a["findings"] else None) for i, a in enumerate(printed)]
    assert {r["table_id"] for r in match_rows} == {json.loads(Path(path).read_text(encoding="utf-8"))["table_id"]}
    assert match_rows[0]["source"] == f"{path}#hands[0]"


def test_broken_lines_and_junk_are_invalid_rows_with_their_path(reference: Path, corpus: list[str]) -> None:
    hands = {r["source"]: r for r in rows(reference, "hands")}
    jsonl, folder, bundle, junk = corpus
    assert hands[f"{jsonl}:5"]["code"] == "not_json" and hands[f"{jsonl}:5"]["rule"] == "R16.9"
    assert hands[f"{jsonl}:12"]["code"] == "not_utf8"
    assert hands[f"{jsonl}:20"]["verdict"] == "invalid"  # JSON, but not a record: the schema says why
    assert hands[f"{jsonl}:33"]["verdict"] == "invalid"
    assert f"{jsonl}:9" not in hands  # blank
    assert hands[f"{bundle}!a/garbage.json"]["code"] in {"not_json", "not_utf8"}
    assert hands[f"{bundle}!a/first.json"]["verdict"] == "missettled"
    assert hands[f"{bundle}!lines.jsonl:5"]["code"] == "not_json"
    assert hands[f"{bundle}!lines.jsonl:6"]["verdict"] == audit_document(json.loads(
        Path(jsonl).read_bytes().split(b"\n")[5]))[0]["verdict"]
    assert hands[junk]["code"] == "unreadable_input" and hands[junk]["verdict"] == "invalid"
    assert not any("readme" in s or "MACOSX" in s or "inner.zip" in s or "audit.json" in s for s in hands)
    summary = json.loads((reference / "summary.json").read_text(encoding="utf-8"))
    assert summary["hands"] == len(hands) and summary["skipped"]["count"] == 5
    assert summary["verdicts"]["invalid"]["count"] == sum(r["verdict"] == "invalid" for r in hands.values())


def test_same_rows_and_summary_for_one_or_two_workers_and_any_partition_size(
        reference: Path, corpus: list[str], dask_client: Any, tmp_path: Path) -> None:
    small = tmp_path / "small"
    outcome = driver.run(plan(corpus, Sizes(hands=3)), Settings(), small, dask_client, stream=None)
    assert outcome.partitions > 20 and outcome.workers == 2
    with cluster(workers=1) as one:
        single = tmp_path / "single"
        assert driver.run(plan(corpus, Sizes(hands=7)), Settings(), single, one, stream=None).workers == 1
    for out in (small, single):
        assert rows(out, "hands") == rows(reference, "hands")
        assert rows(out, "findings") == rows(reference, "findings")
        mine, theirs = (json.loads((o / "summary.json").read_text(encoding="utf-8")) for o in (out, reference))
        assert {k: v for k, v in mine.items() if k != "partitions"} == \
            {k: v for k, v in theirs.items() if k != "partitions"}


def test_summary_page_draws_the_overview_charts_in_chinese(corpus: list[str], dask_client: Any,
                                                           tmp_path: Path) -> None:
    out = tmp_path / "zh"
    driver.run(plan(corpus[:2]), Settings(lang="zh"), out, dask_client, stream=None)
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 5 and "批量审计汇总" in page and "各客户端版本结论" in page and "热炮" in page
    assert "<script" not in page
    messages = [r["message"] for r in rows(out, "findings")]
    assert any("【" in m for m in messages)  # the Chinese message leads with its rule's name


# ----- failures, retries, resume -------------------------------------------------------------------


class FlakyPartition:
    """Fails on its first read (leaving a mark), reads one record on the second: a retry saves it."""

    def __init__(self, mark: str, always: bool = False) -> None:
        self.mark, self.always = mark, always

    @property
    def key(self) -> str:
        return f"flaky:{self.mark}"

    @property
    def estimate(self) -> int:
        return 1

    def inputs(self) -> list[str]:
        return [f"flaky input {self.mark}"]

    def read(self) -> Iterator[Document]:
        mark = Path(self.mark)
        if self.always or not mark.exists():
            mark.write_text("tried", encoding="utf-8")
            raise OSError("the disk went away")
        yield Document(Origin("flaky.json"), (SAMPLES / "clean-weile-hot-shot.json").read_bytes())


def test_a_failing_partition_is_retried_then_reported_and_the_others_kept(corpus: list[str], dask_client: Any,
                                                                          tmp_path: Path) -> None:
    good = plan(corpus[:1], Sizes(hands=20)).partitions
    the_plan = Plan([good[0], FlakyPartition(str(tmp_path / "once")), FlakyPartition(str(tmp_path / "always"), True),
                     *good[1:]])
    out = tmp_path / "out"
    outcome = driver.run(the_plan, Settings(), out, dask_client, stream=None, retries=1)
    assert [f.inputs for f in outcome.failures] == [[f"flaky input {tmp_path / 'always'}"]]
    assert "the disk went away" in outcome.failures[0].error and outcome.failures[0].label == "part-00002"
    assert sorted(p.name for p in (out / "parts").glob("*.json")) == \
        [f"part-0000{i}.json" for i in range(len(the_plan.partitions)) if i != 2]
    assert any(r["file"] == "flaky.json" and r["verdict"] == "clean" for r in rows(out, "hands"))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["failed_partitions"][0]["inputs"] == outcome.failures[0].inputs
    again = driver.run(the_plan, Settings(), out, dask_client, stream=None, resume=True, retries=0)
    assert again.ran == 0 and again.skipped == len(the_plan.partitions) - 1 and len(again.failures) == 1


def test_an_output_folder_is_never_mixed(corpus: list[str], dask_client: Any, tmp_path: Path) -> None:
    out = tmp_path / "out"
    driver.run(plan(corpus[:1], Sizes(hands=30)), Settings(), out, dask_client, stream=None)
    with pytest.raises(driver.BatchError, match="--resume"):
        driver.run(plan(corpus[:1], Sizes(hands=30)), Settings(), out, dask_client, stream=None)
    with pytest.raises(driver.BatchError, match="another batch"):
        driver.run(plan(corpus[:1], Sizes(hands=10)), Settings(), out, dask_client, stream=None, resume=True)
    with pytest.raises(driver.BatchError, match="another batch"):
        driver.run(plan(corpus[:1], Sizes(hands=30)), Settings(profile="kuhu"), out, dask_client, stream=None,
                   resume=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "precious.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(driver.BatchError, match="not empty"):
        driver.run(plan(corpus[:1]), Settings(), tmp_path / "other", dask_client, stream=None)


def test_the_command_line_refuses_bad_arguments(tmp_path: Path) -> None:
    err = io.StringIO()
    assert batch_cli(["--out", str(tmp_path / "o")], err=err) == 2 and "INPUT" in err.getvalue()
    assert batch_cli([str(tmp_path), "--out", str(tmp_path / "o"), "--profile", "nope"], err=io.StringIO()) == 2
    assert batch_cli([str(tmp_path), "--out", str(tmp_path / "o"), "--lang", "fr"], err=io.StringIO()) == 2
    err = io.StringIO()
    assert batch_cli([str(tmp_path), "--out", str(tmp_path / "o"), "--from-db", "x.sqlite"], err=err) == 2
    assert "--from-db" in err.getvalue()
    err = io.StringIO()
    assert batch_cli([str(tmp_path / "typo.jsonl"), "--out", str(tmp_path / "o")], err=err) == 2
    assert "typo.jsonl" in err.getvalue() and not (tmp_path / "o").exists()
    for name in ("a" * 300, "../weile"):  # once: a traceback, "File name too long"
        err = io.StringIO()
        assert batch_cli([str(tmp_path), "--out", str(tmp_path / "o"), f"--profile={name}"], err=err) == 2
        assert err.getvalue().startswith("error: --profile: ") and "is not a profile name" in err.getvalue()
    assert not (tmp_path / "o").exists()


def test_a_hand_whose_profile_is_no_name_is_an_invalid_row_not_a_failed_partition(tmp_path: Path) -> None:
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in RECORDS[:3]]
    docs[1]["rules"]["profile"] = "a" * 300
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs), "utf-8")
    [partition] = plan([str(tmp_path / "r.jsonl")]).partitions
    out = tmp_path / "out"
    for folder in (HANDS_DIR, FINDINGS_DIR, PARTS_DIR):
        (out / folder).mkdir(parents=True)
    assert run_partition(0, partition, Settings(), str(out)).hands == 3  # the worker's whole task, in process
    hands = rows(out, "hands")
    assert [r["line"] for r in hands] == [1, 2, 3]
    assert (hands[1]["verdict"], hands[1]["code"], hands[1]["rule"]) == ("invalid", "unknown_profile_name", "P")
    assert hands[0]["verdict"] != "invalid" and hands[2]["verdict"] != "invalid"


# ----- a batch that cannot start says why, exit 2, nothing started or written (issue 34.3) ---------


def _refused(args: list[str], **kwargs: Any) -> str:
    """Run the command in this process; its exit status must be 2 and stderr one `error:` line."""
    err = io.StringIO()
    assert batch_cli(args, err=err, out=io.StringIO(), **kwargs) == 2, err.getvalue()
    assert err.getvalue().startswith("error: ") and err.getvalue().count("\n") == 1, err.getvalue()
    return err.getvalue()


@pytest.mark.parametrize("address", ["nonsense", "tcp://", "tcp://127.0.0.1:99999", "inproc://x", "foo://a:1",
                                     "tcp://[::1"])
def test_a_malformed_scheduler_address_is_refused_before_anything_starts(tmp_path: Path, address: str) -> None:
    message = _refused([str(SAMPLES / "missettled-flip.json"), "--out", str(tmp_path / "o"), "--scheduler", address])
    assert "--scheduler" in message
    assert not (tmp_path / "o").exists()


def test_a_scheduler_nobody_answers_at_is_named_within_the_connect_timeout(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT_S", 3)
    limit = Deadline(60, "the refusal of a scheduler nobody answers at")
    message = _refused([str(SAMPLES / "missettled-flip.json"), "--out", str(tmp_path / "o"),
                        "--scheduler", "tcp://127.0.0.1:1"])
    assert "tcp://127.0.0.1:1" in message
    limit.check()
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("content", [b"", b"not a database, a text file\n" * 20, b"SQLite format 3\x00" + b"x" * 500],
                         ids=["empty", "text", "damaged"])
def test_from_db_on_a_file_that_is_not_the_store_is_refused(tmp_path: Path, content: bytes) -> None:
    from batch.store_source import plan_store

    db = tmp_path / "store.sqlite"
    db.write_bytes(content)
    message = _refused(["--from-db", str(db), "--out", str(tmp_path / "o")], store_planner=plan_store)
    assert "--from-db" in message and str(db) in message
    assert db.read_bytes() == content and sorted(p.name for p in tmp_path.iterdir()) == ["store.sqlite"]


@pytest.mark.parametrize("where", ["a file", "inside a file"])
def test_out_naming_an_existing_file_is_refused_and_the_file_kept(tmp_path: Path, where: str) -> None:
    existing = tmp_path / "results.parquet"
    existing.write_bytes(b"someone's file")
    out = existing if where == "a file" else existing / "out"
    message = _refused([str(SAMPLES / "missettled-flip.json"), "--out", str(out), "--workers", "1"])
    assert "--out" in message and str(existing) in message
    assert existing.read_bytes() == b"someone's file"


def _batch(args: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """`python -m batch ARGS` in its own process group (so a kill takes its cluster too)."""
    return subprocess.Popen([sys.executable, "-m", "batch", *args], cwd=ROOT, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def _kill(process: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=scaled(30))


def test_resume_after_a_killed_run(reference: Path, corpus: list[str], tmp_path: Path, dask_client: Any) -> None:
    out = tmp_path / "out"
    args = [*corpus, "--out", str(out), "--partition-size", "2", "--quiet"]
    process = _batch([*args, "--workers", "1"])
    try:
        wait_until(lambda: len(list((out / "parts").glob("*.json"))) >= 3, 120, "three partitions written")
    finally:
        _kill(process)
    written = {p.name: p.stat().st_mtime_ns for p in (out / "parts").glob("*.json")}
    total = len(plan(corpus, Sizes(hands=2)).partitions)
    assert 3 <= len(written) < total, "the run was killed before it finished"
    resumed = _batch([*args, "--resume", "--scheduler", dask_client.scheduler.address])  # no second start-up
    stdout, stderr = resumed.communicate(timeout=scaled(300))
    assert resumed.returncode == 0, stderr.decode()
    assert f"({len(written)} already written)" in stdout.decode()
    assert {p.name: p.stat().st_mtime_ns for p in (out / "parts").glob("*.json") if p.name in written} == written
    assert rows(out, "hands") == rows(reference, "hands") and rows(out, "findings") == rows(reference, "findings")
    assert not list(out.rglob(".*.tmp"))


def test_a_scheduler_and_workers_as_separate_processes_one_killed_mid_run(reference: Path, corpus: list[str],
                                                                          tmp_path: Path) -> None:
    address_file = tmp_path / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    dask = [sys.executable, "-m", "dask"]
    scheduler = subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(address_file)], cwd=tmp_path, env=env,
                                 start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[subprocess.Popen[bytes]] = []
    try:
        wait_until(address_file.exists, 60, "the scheduler file")
        wait_until(lambda: "address" in address_file.read_text(encoding="utf-8"), 10, "the scheduler's address")
        address = json.loads(address_file.read_text(encoding="utf-8"))["address"]
        assert address.startswith("tcp://127.0.0.1:")
        for _ in range(2):
            workers.append(subprocess.Popen(
                [*dask, "worker", address, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard",
                 "--local-directory", str(tmp_path / "work")], cwd=tmp_path, env=env, start_new_session=True,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        out = tmp_path / "out"
        run = _batch([*corpus, "--out", str(out), "--scheduler", address, "--partition-size", "2", "--quiet"])
        try:
            wait_until(lambda: len(list((out / "parts").glob("*.json"))) >= 2, 120, "two partitions written")
            _kill(workers[0])  # a whole `dask worker` (nanny and worker) dies mid-run
            stdout, stderr = run.communicate(timeout=scaled(300))
        finally:
            _kill(run)
        assert run.returncode == 0, stderr.decode()
        assert rows(out, "hands") == rows(reference, "hands")
        assert rows(out, "findings") == rows(reference, "findings")
    finally:
        for process in [*workers, scheduler]:
            _kill(process)


def test_from_db_audits_the_store_records_with_their_ids(tmp_path: Path, dask_client: Any) -> None:
    from batch.store_source import plan_store
    from records.ingest import read_upload
    from records.pipeline import Pipeline
    from records.store import Store

    store = Store.open(tmp_path / "store.sqlite")
    for path in (SAMPLES / "illegal-match-dealer.json", SAMPLES / "missettled-flip.json",
                 SPEC / "examples" / "hot-shot-weile.json"):
        Pipeline(store).upload(read_upload(path.name, path.read_bytes()).units, uploader="test")
    expected = {row["id"]: row["verdict"] for row in store.db.query("SELECT id, verdict FROM records")}
    store.close()
    address = dask_client.scheduler.address
    out = tmp_path / "out"
    assert batch_cli(["--from-db", str(tmp_path / "store.sqlite"), "--out", str(out), "--scheduler", address,
                      "--partition-size", "2", "--quiet"], store_planner=plan_store, out=io.StringIO()) == 0
    found = rows(out, "hands")
    assert {r["record_id"]: r["verdict"] for r in found} == expected
    assert [r["hand"] for r in found if r["table_id"]] == [0, 1]  # the match's hands, audited with their match
    assert all(r["source"].startswith(f"{tmp_path / 'store.sqlite'}#record/") for r in found)


# ----- the queries of docs/batch.md ---------------------------------------------------------------


def doc_queries() -> dict[str, str]:
    """The SQL blocks of docs/batch.md, by the name in the comment above each."""
    import re

    text = (ROOT / "docs" / "batch.md").read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- query: ([a-z-]+) -->\n```sql\n(.*?)```", text, re.S))


def test_the_documented_queries_run_and_answer_right(reference: Path) -> None:
    import duckdb

    queries = doc_queries()
    assert set(queries) == {"missettled-by-client-and-rule", "worst-tables", "player-history"}
    hands, findings = rows(reference, "hands"), rows(reference, "findings")
    connection = duckdb.connect()

    def answer(name: str) -> list[dict[str, Any]]:
        result = connection.execute(queries[name].replace("DIR", str(reference)))
        columns = [d[0] for d in result.description]
        return [dict(zip(columns, values)) for values in result.fetchall()]

    rates = answer("missettled-by-client-and-rule")
    assert rates
    for row in rates:
        mine = {f["source"] for f in findings if f["kind"] == "missettled" and f["client"] == row["client"]
                and f["rule"] == row["rule"]}
        of_client = [h for h in hands if h["client"] == row["client"]]
        assert (row["missettled_hands"], row["hands"]) == (len(mine), len(of_client))
    assert [r["rate"] for r in rates] == sorted((r["rate"] for r in rates), reverse=True)

    tables = answer("worst-tables")
    groups: dict[tuple[str | None, str], list[str]] = {}
    for h in hands:
        groups.setdefault((h["platform"], h["table_id"] or " / ".join(sorted(h["players"]))), []).append(h["verdict"])
    bad = sorted((sum(v != "clean" for v in verdicts) for verdicts in groups.values() if len(verdicts) >= 2),
                 reverse=True)
    assert [t["not_clean"] for t in tables] == bad[:20] and all(t["hands"] >= 2 for t in tables)

    history = answer("player-history")
    expected = [h for h in hands if "u100" in h["player_ids"] or "阿明" in h["players"]]
    assert len(history) == len(expected) > 0
    for row in history:
        hand = next(h for h in expected if h["source"] == row["source"])
        seat = hand["player_ids"].index("u100") if "u100" in hand["player_ids"] else hand["players"].index("阿明")
        assert row["seat"] == seat
        assert row["claimed"] == (hand["claimed_scores"][seat] if hand["claimed_scores"] else None)


def test_no_input_gives_empty_datasets_the_documented_queries_can_read(dask_client: Any, tmp_path: Path) -> None:
    import duckdb

    (tmp_path / "nothing").mkdir()
    (tmp_path / "nothing" / "readme.txt").write_text("no records here", encoding="utf-8")
    out = tmp_path / "out"
    outcome = driver.run(plan([str(tmp_path / "nothing")]), Settings(), out, dask_client, stream=None)
    assert outcome.partitions == 0 and outcome.hands == 0 and outcome.summary["hands"] == 0
    assert sorted(p.name for p in (out / "hands").iterdir()) == [driver.EMPTY_PART]
    connection = duckdb.connect()
    for name, query in doc_queries().items():
        assert connection.execute(query.replace("DIR", str(out))).fetchall() == [], name
    assert pq.read_table(out / "findings" / driver.EMPTY_PART).schema.names == FINDINGS_SCHEMA.names
    assert pq.read_table(out / "hands" / driver.EMPTY_PART).num_rows == 0


def test_the_empty_file_goes_once_a_partition_is_written(corpus: list[str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    for name in ("hands", "findings"):
        (out / name).mkdir(parents=True)
    driver.write_empty_parts(out)
    assert (out / "hands" / driver.EMPTY_PART).is_file()
    (out / "hands" / "part-00000.parquet").write_bytes(b"")
    driver.write_empty_parts(out)
    assert not (out / "hands" / driver.EMPTY_PART).exists() and (out / "findings" / driver.EMPTY_PART).is_file()


def test_a_worker_without_the_engine_stops_the_batch_before_any_partition(corpus: list[str], tmp_path: Path) -> None:
    """docs/batch.md, "On a cluster": the scheduler started with the checkout on its path, a worker
    started without it (as the README's commands without PYTHONPATH): the command names the worker,
    says what to install or set where, exits 2 and writes no partition."""
    address_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    bare = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    scheduler = subprocess.Popen([*dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(address_file)], cwd=tmp_path,
                                 env={**bare, "PYTHONPATH": str(ROOT)}, start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker: subprocess.Popen[bytes] | None = None
    try:
        wait_until(address_file.exists, 60, "the scheduler file")
        wait_until(lambda: "address" in address_file.read_text(encoding="utf-8"), 10, "the scheduler's address")
        address = json.loads(address_file.read_text(encoding="utf-8"))["address"]
        worker = subprocess.Popen([*dask, "worker", address, "--nthreads", "1", "--host", "127.0.0.1",
                                   "--no-dashboard", "--local-directory", str(tmp_path / "work")], cwd=tmp_path,
                                  env=bare, start_new_session=True, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        out = tmp_path / "out"
        run = _batch([*corpus, "--out", str(out), "--scheduler", address, "--quiet"])
        stdout, stderr = run.communicate(timeout=scaled(180))
        text = stderr.decode()
        assert run.returncode == 2, text
        assert "cannot import the engine" in text and "worker tcp://127.0.0.1:" in text, text
        assert "PYTHONPATH" in text and "pip install" in text and "the scheduler" not in text.split(".")[0]
        assert not list((out / "parts").glob("*.json")) if (out / "parts").exists() else True
    finally:
        if worker is not None:
            _kill(worker)
        _kill(scheduler)


def test_preflight_names_each_process_that_runs_another_engine_or_none() -> None:
    from batch import preflight
    assert preflight.problems(ENGINE_VERSION, {"tcp://a:1": ENGINE_VERSION}) == []
    found = preflight.problems(ImportError("No module named 'audit'"), {"tcp://b:2": "0.9.0", "tcp://a:1": ENGINE_VERSION})
    assert found == ["the scheduler cannot import the engine (ImportError: No module named 'audit')",
                     f"worker tcp://b:2 runs engine 0.9.0, this command {ENGINE_VERSION}"]
