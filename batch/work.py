"""The task a worker runs on one partition: read it, audit it, write its two Parquet files.

Output is written where it will stay, by the worker (the driver never holds rows): each file
goes to a hidden temporary name in the dataset folder first and is renamed into place, and the
partition's manifest (`parts/part-NNNNN.json`: its key, its hands, its counts) is written the
same way last. A partition counts as done only when its manifest exists with the plan's key,
so a run killed at any moment leaves either a finished partition or one `--resume` redoes;
readers of the datasets never see a half-written file (pyarrow and DuckDB skip names that
start with a dot).
"""
from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from audit.api import loads
from batch import summary
from batch.inputs import Partition
from batch.rows import FINDINGS_SCHEMA, HANDS_SCHEMA, Settings, audits, tables

HANDS_DIR, FINDINGS_DIR, PARTS_DIR = "hands", "findings", "parts"


def part_name(index: int) -> str:
    """`part-00012`: the file stem of partition 12 (its place in the plan, so stable across runs)."""
    return f"part-{index:05d}"


@dataclass(frozen=True)
class Done:
    """What a worker reports of a finished partition (small: the rows stay in the files)."""

    index: int
    hands: int
    counts: dict[str, Any]


def atomic_write(path: Path, write: Any) -> None:
    """`write(temp_path)`, then rename over `path`: the file is whole or absent, never half there."""
    temp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        write(temp)
        os.replace(temp, path)
    finally:
        if temp.exists():
            temp.unlink()


def write_table(rows: list[dict[str, Any]], schema: pa.Schema, path: Path) -> None:
    """One Parquet file (an empty partition still gets a file with the schema)."""
    table = pa.Table.from_pylist(rows, schema=schema)
    atomic_write(path, lambda temp: pq.write_table(table, temp, compression="zstd"))


def run_partition(index: int, partition: Partition, settings: Settings, out: str) -> Done:
    """Audit one partition and write `hands/part-N.parquet`, `findings/part-N.parquet`, then its manifest."""
    root = Path(out)
    hands, found = tables(audits(partition.read(), settings))
    name = part_name(index)
    write_table(hands, HANDS_SCHEMA, root / HANDS_DIR / f"{name}.parquet")
    write_table(found, FINDINGS_SCHEMA, root / FINDINGS_DIR / f"{name}.parquet")
    counts = summary.count(hands, found)
    manifest = {"index": index, "key": partition.key, "hands": len(hands), "findings": len(found), "counts": counts}
    text = json.dumps(manifest, ensure_ascii=False, sort_keys=True)
    atomic_write(root / PARTS_DIR / f"{name}.json", lambda temp: temp.write_text(text, encoding="utf-8"))
    return Done(index, len(hands), counts)


def read_manifest(out: Path, index: int, key: str) -> Done | None:
    """The finished partition `index`, if its manifest is there and names the same inputs."""
    path = out / PARTS_DIR / f"{part_name(index)}.json"
    try:
        manifest = loads(path.read_bytes())  # its own file, read as strictly as any
    except (OSError, ValueError):
        return None
    files = [out / HANDS_DIR / f"{part_name(index)}.parquet", out / FINDINGS_DIR / f"{part_name(index)}.parquet"]
    if manifest.get("key") != key or not all(f.is_file() for f in files):
        return None
    return Done(index, int(manifest["hands"]), manifest["counts"])


__all__ = ["Done", "FINDINGS_DIR", "HANDS_DIR", "PARTS_DIR", "atomic_write", "part_name", "read_manifest",
           "run_partition", "write_table"]
