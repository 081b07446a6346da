"""Conformance runs: a client build's answers to a kit, checked by the engine, kept for good.

One row per run in `conformance_runs` (append-only, like the audits): the
kit (its id and the sha256 of its manifest, so two runs compare only when
they answered the very same cases), the platform and client version of the
build, who sent it, the answers' sha256 and the check's report as JSON. The
table comes from migration `m006_conformance` of the store's one migration set
(`records.migrations`), so every database has it.

Kits live in a folder of kit folders (`zhuoji-kit build --out KITS/NAME`);
the service reads them, never writes them.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from audit.vocabulary import LANGS, Lang
from kit.answers import parse
from kit.check import CheckError, Kit, check, load_kit
from records import trail
from records.db import atomic
from records.refusal import FieldRefusal


class ConformanceError(FieldRefusal):
    """A run that cannot be made (unknown kit, bad field): `field` names what to fix, `code` is the
    stable name of the refusal (the web layer words it in the asker's language, web/errors.toml)
    and `params` its values; the message is the English."""


@dataclass(frozen=True)
class KitInfo:
    """A kit the service offers: its folder name, what the manifest says, and the manifest's digest."""

    name: str
    kit: str
    profile: str
    cases: int
    sha256: str
    engine: str


@dataclass(frozen=True)
class BrokenKit:
    """A folder among the kits that is no kit the check can use (issue 34.4): its name and why, as
    `kit.check.CheckError` says it (`code` one of `kit.check.KIT_PROBLEMS`, `params` its values;
    the web layer words them). Listed beside the kits; a run against it is refused."""

    name: str
    code: str
    params: dict[str, Any]


def _digest(path: Path) -> str:
    return hashlib.sha256((path / "manifest.json").read_bytes()).hexdigest()


def scan_kits(folder: Path) -> tuple[list[KitInfo], list[BrokenKit]]:
    """Every folder under `folder` (hidden ones aside), by name: the kits, and the folders that are
    no kit with what is wrong with each. One bad folder never hides the others."""
    kits: list[KitInfo] = []
    broken: list[BrokenKit] = []
    try:
        subs = sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:  # no kits folder (yet), or one the service may not read
        return kits, broken
    for sub in subs:
        try:
            kit = load_kit(sub)
            digest = _digest(sub)
        except CheckError as exc:
            broken.append(BrokenKit(sub.name, exc.code, dict(exc.params)))
            continue
        except OSError:  # the manifest went between the two reads
            broken.append(BrokenKit(sub.name, "kit_manifest_unreadable", {}))
            continue
        m = kit.manifest
        kits.append(KitInfo(sub.name, str(m.get("kit", sub.name)), str(m.get("profile", "")), len(kit.cases),
                            digest, str(m.get("engine", ""))))
    return kits, broken


def list_kits(folder: Path) -> list[KitInfo]:
    """Every kit under `folder` the check can use, by name (`scan_kits` also names the broken ones)."""
    return scan_kits(folder)[0]


def is_kit_name(name: str) -> bool:
    """A kit is asked for by its folder's name: one name, never a path (no `/`, `\\`, leading `.`,
    control character), at most 255 bytes."""
    return (bool(name) and not name.startswith(".") and "/" not in name and "\\" not in name
            and not any(ord(ch) < 32 or ord(ch) == 127 for ch in name) and len(name.encode("utf-8", "replace")) <= 255)


def open_kit(folder: Path, name: str) -> Kit:
    """The kit `name` under `folder`; ConformanceError `kit_name_bad` for what is no folder name,
    `kit_broken` for a folder that is no kit the check can use (its problem's code and params as
    `problem` and `problem_params`), `kit_missing` when there is no such folder."""
    if not is_kit_name(name):
        raise ConformanceError("kit", f"{name!r} is not a kit name", "kit_name_bad", name=name)
    if not (folder / name).is_dir():
        available = [k.name for k in list_kits(folder)]
        raise ConformanceError("kit", f"no kit {name!r}; available: {', '.join(available) or 'none'}",
                               "kit_missing", name=name, available=available)
    try:
        return load_kit(folder / name)
    except CheckError as exc:
        raise broken_kit(name, exc) from None


def broken_kit(name: str, exc: CheckError) -> ConformanceError:
    """The refusal of a run against a kit that is broken (its manifest, or a case's file)."""
    return ConformanceError("kit", f"kit {name!r} is broken: {exc}", "kit_broken", name=name, problem=exc.code,
                            problem_params=dict(exc.params))


def _text(value: Any, field: str, limit: int = 200) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConformanceError(field, "required", "required")
    value = value.strip()
    if len(value) > limit:
        raise ConformanceError(field, f"at most {limit} characters", "too_long", limit=limit)
    return value


def submit(db: Database, folder: Path, *, kit_name: str, platform: str, client_version: str, answers: bytes,
           uploader: str | None, stamp: str, key: bytes) -> int:
    """Check the answers against the kit and store the run (one transaction); its id. The report is kept
    in every language (the engine's messages are rendered at check time), so a page shows either."""
    platform = _text(platform, "platform")
    client_version = _text(client_version, "client_version", 100)
    kit = open_kit(folder, kit_name)
    try:
        text = answers.decode("utf-8-sig")  # a byte order mark is accepted, as by every reader
    except UnicodeDecodeError as exc:
        raise ConformanceError("answers", f"not UTF-8 text (byte {exc.start})", "answers_not_utf8",
                               byte=exc.start) from None
    parsed = parse(text)
    try:
        reports = {lang.value: check(kit, parsed, lang) for lang in LANGS}
    except CheckError as exc:  # a failing case whose own file is broken: the kit is, not the answers
        raise broken_kit(kit_name, exc) from None
    report = reports[Lang.EN.value]
    row = {"kit": kit_name, "kit_sha256": _digest(kit.path), "profile": str(kit.manifest.get("profile", "")),
           "platform": platform, "client_version": client_version, "uploader": uploader, "created_at": stamp,
           "total": len(report.results), "passed": report.passed, "ok": int(report.ok),
           "answers_sha256": hashlib.sha256(answers).hexdigest(),
           "report": json.dumps({k: r.to_json() for k, r in reports.items()}, ensure_ascii=False, sort_keys=True)}
    with atomic(db):
        run_id = db.execute(f"INSERT INTO conformance_runs ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                            list(row.values())).lastrowid
        assert run_id is not None
        trail.append(db, at=stamp, actor=uploader, action="conformance", key=key,
                     detail={"run_id": int(run_id), "kit": kit_name, "platform": platform,
                             "client_version": client_version, "row_sha256": run_digest({"id": int(run_id), **row})})
    return int(run_id)


COLUMNS = ("id", "kit", "kit_sha256", "profile", "platform", "client_version", "uploader", "created_at", "total",
           "passed", "ok", "answers_sha256", "report")
"""Every column of `conformance_runs` (m006)."""


def run_digest(row: dict[str, Any]) -> str:
    """sha256 of a run's row, every column: its `conformance` entry records it, `verify` recomputes it."""
    return trail.digest({name: row.get(name) for name in COLUMNS})


RUN_COLUMNS = ("id", "kit", "kit_sha256", "profile", "platform", "client_version", "uploader", "created_at",
               "total", "passed", "ok")


def runs(db: Database, *, platform: str | None = None, kit: str | None = None, limit: int = 200) -> list[dict[str, Any]]:
    """Runs newest first (without their reports), optionally of one platform or kit."""
    where, args = [], []
    if platform is not None:
        where.append("platform = ?")
        args.append(platform)
    if kit is not None:
        where.append("kit = ?")
        args.append(kit)
    sql = f"SELECT {', '.join(RUN_COLUMNS)} FROM conformance_runs"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY id DESC LIMIT ?"
    return [dict(zip(RUN_COLUMNS, r)) for r in db.execute(sql, [*args, limit]).fetchall()]


def run(db: Database, run_id: int, lang: Lang = Lang.EN) -> dict[str, Any] | None:
    """One run with its report in `lang` (parsed), or None."""
    cols = (*RUN_COLUMNS, "answers_sha256", "report")
    row = db.execute(f"SELECT {', '.join(cols)} FROM conformance_runs WHERE id = ?", [run_id]).fetchone()
    if row is None:
        return None
    out = dict(zip(cols, row))
    out["report"] = json.loads(out["report"])[Lang(lang).value]
    return out


def previous(db: Database, current: dict[str, Any]) -> int | None:
    """The run before this one of the same kit and platform (what a regression is measured against)."""
    row = db.execute("SELECT id FROM conformance_runs WHERE kit_sha256 = ? AND platform = ? AND id < ? "
                     "ORDER BY id DESC LIMIT 1", [current["kit_sha256"], current["platform"], current["id"]]).fetchone()
    return int(row[0]) if row else None


def compare(base: dict[str, Any], head: dict[str, Any]) -> dict[str, Any]:
    """What changed from run `base` to run `head` of the same kit: newly failing and newly passing cases,
    each with the head's (or base's) first difference; ConformanceError for runs of different kits."""
    if base["kit_sha256"] != head["kit_sha256"]:
        raise ConformanceError("kit", f"run {base['id']} answered kit {base['kit']} and run {head['id']} kit "
                               f"{head['kit']}: only runs of the same kit compare", "runs_of_other_kits",
                               base=base["id"], base_kit=base["kit"], head=head["id"], head_kit=head["kit"])
    before = {c["case"]: c for c in base["report"]["cases"]}
    after = {c["case"]: c for c in head["report"]["cases"]}
    failing = [{"case": cid, "cited_rules": c["cited_rules"], "difference": c["difference"]}
               for cid, c in after.items() if not c["passed"] and before.get(cid, {}).get("passed", False)]
    passing = [{"case": cid, "cited_rules": before[cid]["cited_rules"], "difference": before[cid]["difference"]}
               for cid, c in after.items() if c["passed"] and cid in before and not before[cid]["passed"]]
    still = sorted(cid for cid, c in after.items() if not c["passed"] and not before.get(cid, {}).get("passed", True))
    return {"base": base["id"], "head": head["id"], "kit": head["kit"],
            "base_passed": base["passed"], "head_passed": head["passed"], "total": head["total"],
            "newly_failing": failing, "newly_passing": passing, "still_failing": still}
