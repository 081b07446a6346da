"""10,000 hostile bodies against the service (issue 12): 0 answers of 500, 0 partial records.

Runs the WSGI app in-process (no network, one database in a temporary folder) with an admin's
bearer token, and sends bodies carrying the value classes of bench/hostile_bodies.py in every
field and option: single records, JSON lines mixing good and hostile lines, zips and multipart
uploads, re-audit options, what-if options, notes, list queries. After every upload it checks
that the records added are exactly those the answer reports new; after every refused re-audit
that no audit was added. At the end the whole store is verified (`records.verify`: every table
against the keyed trail) and every record must be audited and carry its receipt.

    .venv/bin/python bench/bench_hostile.py [--bodies 10000] [--seed 12] [--readers-share 0.3]
    .venv/bin/python bench/bench_hostile.py --bodies 0 --evidence 5 --kills   # the evidence section

Issue 22's classes (the "readers" section at the end of `Run`, bodies from the same section of
bench/hostile_bodies.py): numbers in the forms int() took (superscript, Arabic-Indic, full-width,
signs, spaces, past 64 bits) in every numeric query parameter, path segment and form field,
hostile JSON bodies of every JSON route (surrogates, nesting, huge integers, repeated keys, `true`
for a number, a BOM), good records with a BOM (.json, .jsonl, zip member: they must be stored) and
conformance answers with hostile lines. Each answer is checked against what it must be (a 400
with a number `code`, 404, a JSON 4xx, a stored record); any other answer is counted as wrong.

The evidence section (issue 22.4, 22.5; `evidence` and `kills` below) tampers every column of up to
N rows of every table verify covers, on copies of a database filled through the service, and
counts what `verify --head` misses; and kills the batch upload at every commit boundary, counting
stored records without the receipt of their creating submission, after the kill and after a retry.

Figures are reported in docs/trust.md.
"""
from __future__ import annotations

import argparse
import io
import json
import random
import sys
import tempfile
import time
from collections import Counter
from urllib.parse import quote
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from bench.hostile_bodies import (BAD_NUMBERS, BAD_SEGMENTS, BOM, HOSTILE_TOKENS, ID_ROUTES,  # noqa: E402
                                  JSON_ROUTES, NUMERIC_FORMS, NUMERIC_QUERIES, good_record, hostile_answers,
                                  hostile_json_body, hostile_note, hostile_options, hostile_record, zip_of)
from kit.build import build_kit, write_kit  # noqa: E402
from records.db import atomic
from records.rows import now  # noqa: E402
from records.security import Accounts  # noqa: E402
from records.store import Store  # noqa: E402
from records.verify import verify  # noqa: E402

SEED_FILES = sorted((ROOT / "spec" / "examples").glob("*.json"))


def seeds() -> list[dict[str, Any]]:
    """The spec's example records (expected audits left out)."""
    return [json.loads(path.read_text(encoding="utf-8")) for path in SEED_FILES if not path.name.endswith(".audit.json")]


class Run:
    """The app, its client and the counts of one run."""

    def __init__(self, folder: Path, rng: random.Random, readers_share: float = 0.0) -> None:
        write_kit(build_kit("weile", {}, cases=30, seed=3, min_count=1), folder / "kits" / "bench")
        self.app = create_app({"TESTING": True, "DATABASE": str(folder / "hostile.sqlite3"),
                               "TRAIL_KEY": "bench-hostile-key", "SESSION_COOKIE_SECURE": False,
                               "CONFORMANCE_KITS": str(folder / "kits")})
        self.readers_share = readers_share
        self.wrong: list[str] = []
        self.rng = rng
        self.seeds = seeds()
        self.counter = 0
        self.statuses: Counter[int] = Counter()
        self.kinds: Counter[str] = Counter()
        self.partial: list[str] = []
        store = self.store()
        try:
            accounts = Accounts(store.db, store.trail_key)
            with atomic(store.db):
                account = accounts.create("bench-admin", "admin", "a long bench password 12", stamp=now())
                token = accounts.create_token(account.id, label="bench", created_by="bench", stamp=now())
        finally:
            store.close()
        self.client = self.app.test_client()
        self.client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        opened = self.client.post("/api/cases", json={"number": "BENCH-1", "platform": "p", "player": "x",
                                                     "complaint": "the case the readers' forms aim at"})
        assert opened.status_code == 201, opened.get_data(as_text=True)

    def store(self) -> Store:
        """A store on the run's database with its trail key."""
        return Store.open(self.app.config["DATABASE"], trail_key=b"bench-hostile-key")

    def count(self, table: str) -> int:
        """Rows of a table."""
        store = self.store()
        try:
            return int(store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        finally:
            store.close()

    def game(self) -> str:
        """A fresh game id."""
        self.counter += 1
        return f"hostile-{self.counter}"

    def good(self) -> bytes:
        return good_record(self.rng.choice(self.seeds), self.game())

    def bad(self) -> bytes:
        return hostile_record(self.rng, self.rng.choice(self.seeds), self.game())

    # ----- one body ---------------------------------------------------------------------------

    def one(self) -> None:
        """Send one body of a random kind and check what it did."""
        if self.rng.random() < self.readers_share:  # issue 22's classes: the readers section below
            self.readers_body()
            return
        roll = self.rng.random()
        if roll < 0.30:
            self.upload("record", self.bad(), "application/json")
        elif roll < 0.55:
            lines = [self.bad() for _ in range(self.rng.randint(1, 2))] + [self.good() for _ in range(self.rng.randint(0, 2))]
            self.rng.shuffle(lines)
            self.upload("lines", b"\n".join(lines), "application/x-ndjson")
        elif roll < 0.62:
            members = {f"m{i}.json": self.bad() for i in range(self.rng.randint(1, 2))}
            members["ok.json"] = self.good()
            self.upload("zip", zip_of(members), "application/zip")
        elif roll < 0.66:
            files = [(io.BytesIO(self.bad()), "bad.json"), (io.BytesIO(self.good()), "good.json")]
            self.upload("multipart", None, None, data={"files": files})
        elif roll < 0.78:
            self.reaudit()
        elif roll < 0.84:
            self.whatif()
        elif roll < 0.94:
            self.note()
        else:
            self.query()

    def answer(self, kind: str, status: int) -> None:
        self.statuses[status] += 1
        self.kinds[kind] += 1

    def upload(self, kind: str, body: bytes | None, content_type: str | None, data: Any = None) -> None:
        """An upload: the records added are exactly those reported created or revision."""
        before = self.count("records")
        if data is not None:
            response = self.client.post("/api/records", data=data)
        else:
            response = self.client.post("/api/records", data=body, content_type=content_type)
        self.answer(kind, response.status_code)
        payload = response.get_json(silent=True) or {}
        new = sum(result["status"] in ("created", "revision") for result in payload.get("results", []))
        if self.count("records") - before != new:
            self.partial.append(f"{kind}: {self.count('records') - before} stored, {new} reported")

    def target(self) -> int:
        """A stored record to aim at (1 before anything is stored: a 404)."""
        return self.rng.randint(1, max(1, self.counter // 3))

    def reaudit(self) -> None:
        """Hostile re-audit options: a 4xx adds no audit."""
        before = self.count("audits")
        response = self.client.post(f"/api/records/{self.target()}/audit", data=hostile_options(self.rng),
                                    content_type="application/json")
        self.answer("reaudit", response.status_code)
        if response.status_code >= 400 and self.count("audits") != before:
            self.partial.append("reaudit: an audit was stored by a refused request")

    def whatif(self) -> None:
        token = self.rng.choice(HOSTILE_TOKENS)
        response = self.client.get(f"/records/{self.target()}/whatif", query_string={"options": '{"x": ' + token + "}"})
        self.answer("whatif", response.status_code)

    def note(self) -> None:
        before = self.count("notes")
        response = self.client.post(f"/api/records/{self.target()}/notes", data=hostile_note(self.rng),
                                    content_type="application/json")
        self.answer("note", response.status_code)
        if response.status_code >= 400 and self.count("notes") != before:
            self.partial.append("note: stored by a refused request")

    def query(self) -> None:
        key = self.rng.choice(["verdict", "player", "client", "page", "_method", "_anchor", "endpoint", "lang"])
        value = self.rng.choice(["%ED%A0%80", "9" * 30, "1e400", "NaN", "%0D%0AX:%20y", "%E5%90%8D" * 50, "%FF"])
        for url in ("/api/records", "/records", f"/records/{self.target()}"):
            response = self.client.get(url, query_string=f"{key}={value}")  # raw: a lone surrogate's bytes too
            self.answer("query", response.status_code)

    # ----- issue 22 (readers): numbers, JSON bodies of every route, BOM, answers ---------------

    def readers_body(self) -> None:
        """One body of issue 22's classes, checked against the answer it must get."""
        roll = self.rng.random()
        if roll < 0.30:
            self.number_query()
        elif roll < 0.45:
            self.number_segment()
        elif roll < 0.60:
            self.number_form()
        elif roll < 0.80:
            self.json_body()
        elif roll < 0.92:
            self.bom_upload()
        else:
            self.answers()

    def expect(self, kind: str, response: Any, ok: bool, what: str) -> None:
        """Count the answer; `ok` says whether it is the one it must be."""
        self.answer(kind, response.status_code)
        if not ok and len(self.wrong) < 1000:
            self.wrong.append(f"{kind}: {what}: {response.status_code} {response.get_data(as_text=True)[:120]!r}")

    def number_query(self) -> None:
        url, name = self.rng.choice(NUMERIC_QUERIES)
        url = url.format(id=self.target())
        bad = self.rng.choice([b for b in BAD_NUMBERS if b])
        response = self.client.get(url, query_string={name: bad})
        body = response.get_json(silent=True) if url.startswith("/api/") else None
        ok = response.status_code == 400 and (body is None and not url.startswith("/api/")
                                              or body is not None and str(body.get("code", "")).startswith("number_"))
        ok = ok or response.status_code == 404 and "/records/" in url  # a record not stored (yet)
        self.expect("n:query", response, ok, f"{url}?{name}={bad!r}")

    def number_segment(self) -> None:
        url = self.rng.choice(ID_ROUTES).format(quote(self.rng.choice(BAD_SEGMENTS)))
        method = self.rng.choice(["GET", "POST"])
        response = self.client.open(url, method=method)
        self.expect("n:segment", response, response.status_code in (404, 405), f"{method} {url}")

    def number_form(self) -> None:
        url, form, field, required = self.rng.choice(NUMERIC_FORMS)
        bad = self.rng.choice([b for b in BAD_NUMBERS if b or required])
        before = self.count("case_records") + self.count("case_decisions")
        response = self.client.post(url, data={**form, field: bad})
        ok = response.status_code == 400 and self.count("case_records") + self.count("case_decisions") == before
        self.expect("n:form", response, ok, f"{url} {field}={bad!r}")

    def json_body(self) -> None:
        url = self.rng.choice(JSON_ROUTES).format(id=self.target())
        response = self.client.post(url, data=hostile_json_body(self.rng), content_type="application/json")
        ok = 400 <= response.status_code < 500 and response.is_json
        self.expect("j:body", response, ok, url)

    def bom_upload(self) -> None:
        """A good record with a byte order mark, as a .json body, a .jsonl body or a zip member: stored."""
        record = self.good()
        shape = self.rng.choice(["json", "jsonl", "zip"])
        if shape == "json":
            response = self.client.post("/api/records", data=BOM + record, content_type="application/json")
        elif shape == "jsonl":
            response = self.client.post("/api/records", data=BOM + record + b"\n", content_type="application/x-ndjson")
        else:
            response = self.client.post("/api/records", data=zip_of({"w/rec.json": BOM + record}),
                                        content_type="application/zip")
        results = (response.get_json(silent=True) or {}).get("results", [])
        ok = response.status_code == 201 and [r["status"] for r in results] == ["created"]
        self.expect("b:upload", response, ok, shape)

    def answers(self) -> None:
        """Conformance answers with a hostile line: a stored failing run (201) naming the line."""
        response = self.client.post("/api/conformance/runs", data={
            "kit": "bench", "platform": "p", "client_version": "1",
            "answers": (io.BytesIO(hostile_answers(self.rng)), "answers.jsonl")})
        body = response.get_json(silent=True) or {}
        ok = response.status_code == 201 and not body.get("report", {}).get("ok", True)
        self.expect("j:answers", response, ok, "answers")

    # ----- the end ----------------------------------------------------------------------------

    def final_check(self) -> list[str]:
        """Every table against the trail; every record audited with its receipt."""
        store = self.store()
        try:
            problems = [mismatch.describe() for mismatch in verify(store.db, store.trail_key)]
            bad = store.db.execute("SELECT count(*) FROM records r WHERE r.verdict IS NULL OR NOT EXISTS "
                                   "(SELECT 1 FROM uploads u WHERE u.record_id = r.id)").fetchone()[0]
            if bad:
                problems.append(f"{bad} records without an audit or a receipt")
            return problems
        finally:
            store.close()


# ----- evidence classes (issue 22.3-22.5): tamperings and kills -------------------------------


def evidence(rows_per_table: int) -> int:
    """Tamper every column of up to `rows_per_table` rows of every table verify covers (and delete
    each row), on copies of a database filled through the service, and count what `verify --head`
    misses; then kill the batch upload at every commit boundary and count stored records without
    the receipt of their creating submission, after the kill and after the retry. Reuses the
    machinery of tests/web/test_evidence_columns.py and tests/records/test_kills.py."""
    from records.verify import NOT_EVIDENCE
    from tests.web.evidence import build
    from tests.web.test_evidence_columns import other, tables, tampered

    with tempfile.TemporaryDirectory() as folder:
        scenario = build(Path(folder))
        tried = missed = 0
        import sqlite3
        for table, columns in tables(scenario.path).items():
            if table in NOT_EVIDENCE:
                continue
            with sqlite3.connect(scenario.path) as db:
                db.row_factory = sqlite3.Row
                counting = "WHERE n != 0" if table in ("record_tally", "record_key_tally") else ""
                keys = [name for name, _, place in sorted(columns, key=lambda c: c[2]) if place] or ["rowid"]
                picked = [dict(row) for row in db.execute(
                    f"SELECT {', '.join(keys)} AS k_, * FROM [{table}] {counting} LIMIT {rows_per_table}")]
            for number, row in enumerate(picked):
                where = " AND ".join(f"[{name}] = ?" if name != "rowid" else "rowid = ?" for name in keys)
                with sqlite3.connect(scenario.path) as db:
                    key = list(db.execute(f"SELECT {', '.join(keys)} FROM [{table}] {counting} LIMIT 1 OFFSET ?",
                                          [number]).fetchone())
                cases = [(f"UPDATE [{table}] SET [{column}] = ? WHERE {where}",
                          [row[column] + 1000 if place and isinstance(row[column], int) else other(row[column], kind),
                           *key]) for column, kind, place in columns]
                cases.append((f"DELETE FROM [{table}] WHERE {where}", key))
                for index, (sql, params) in enumerate(cases):
                    tried += 1
                    if not tampered(scenario, Path(folder) / f"t-{table}-{number}-{index}.sqlite3", sql, params):
                        missed += 1
                        print(f"  missed: {sql} {params[:1]}")
        print(f"tamperings: {tried}, missed by verify --head: {missed}")
    return missed


def kills() -> int:
    """Kill the two-file batch upload of tests/records/test_kills.py (three units per transaction)
    at every commit boundary (`os._exit` in a child process, as kill -9), and count on what it left:
    stored records without exactly one receipt of their creating submission, receipts of records
    that are not there, `verify --head` problems; then retry the submission and count the same."""
    import sqlite3
    from records.trail import Head
    from tests.conftest import api_token, app_config
    from tests.records.test_kills import GAMES, fresh, run_child, state, submission
    from web.db import trail_key

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        config = app_config(folder)
        app = create_app(config)
        headers = api_token(app, "feed", "admin")
        request = {"files": submission(folder), "headers": headers}
        template = folder / "template.sqlite3"
        with app.app_context():
            key = trail_key()
            store = Store.open(config["DATABASE"])
            row = store.db.execute("SELECT id, hash FROM trail ORDER BY id DESC LIMIT 1").fetchone()
            with sqlite3.connect(template) as copy:
                store.db.conn.backup(copy)
            store.close()
        head = Head(*row)
        clean = run_child(folder, {**config, "DATABASE": fresh(template, folder / "clean.sqlite3")}, 0, request)
        assert clean is not None
        boundaries = len(clean["boundaries"])
        left = wrong_after_kill = wrong_after_retry = missing_after_retry = 0
        for kill_at in range(1, boundaries + 1):
            run_config = {**config, "DATABASE": fresh(template, folder / f"kill-{kill_at}.sqlite3")}
            run_child(folder, run_config, kill_at, request)
            stored, wrong = state(run_config["DATABASE"], key, head)
            left += len(stored)
            wrong_after_kill += len(wrong)
            run_child(folder, run_config, 0, request)
            stored, wrong = state(run_config["DATABASE"], key, head)
            wrong_after_retry += len(wrong)
            missing_after_retry += len(GAMES - set(stored))
    print(f"kills: {boundaries} commit boundaries, {left} records left stored by the kills; records without "
          f"their creating receipt or verify problems: {wrong_after_kill} after the kills, {wrong_after_retry} "
          f"after the retries; games without a creating receipt after the retry: {missing_after_retry}")
    return wrong_after_kill + wrong_after_retry + missing_after_retry


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--bodies", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--evidence", type=int, default=0, metavar="ROWS",
                        help="also tamper every column of up to ROWS rows of every table (issue 22.4)")
    parser.add_argument("--kills", action="store_true", help="also kill the batch upload at every commit boundary "
                                                              "(issue 22.5)")
    parser.add_argument("--readers-share", type=float, default=0.3,
                        help="share of bodies of issue 22's classes (numbers, JSON bodies, BOM, answers)")
    args = parser.parse_args()
    failed = 0
    if args.evidence:
        failed += evidence(args.evidence)
    if args.kills:
        failed += kills()
    if not args.bodies:
        return 1 if failed else 0
    with tempfile.TemporaryDirectory() as folder:
        run = Run(Path(folder), random.Random(args.seed), args.readers_share)
        started = time.perf_counter()
        for index in range(args.bodies):
            run.one()
            if (index + 1) % 1000 == 0:
                print(f"{index + 1} bodies, {time.perf_counter() - started:.0f} s", file=sys.stderr)
        elapsed = time.perf_counter() - started
        problems = run.final_check()
        records = run.count("records")
        audits = run.count("audits")
    answers = sum(run.statuses.values())
    print(f"bodies: {args.bodies} ({answers} requests) in {elapsed:.1f} s")
    print("kinds: " + ", ".join(f"{kind} {count}" for kind, count in sorted(run.kinds.items())))
    print("statuses: " + ", ".join(f"{status}: {count}" for status, count in sorted(run.statuses.items())))
    print(f"answers of 500: {sum(count for status, count in run.statuses.items() if status >= 500)}")
    print(f"partial records: {len(run.partial)}")
    print(f"wrong answers (issue 22's classes): {len(run.wrong)}")
    print(f"stored: {records} records, {audits} audits; verify: {len(problems)} problem(s)")
    for problem in (run.partial + run.wrong + problems)[:20]:
        print("  " + problem)
    return 1 if failed or run.partial or run.wrong or problems or any(status >= 500 for status in run.statuses) else 0


if __name__ == "__main__":
    raise SystemExit(main())
