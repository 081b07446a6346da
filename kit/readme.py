"""The kit's README.md: what the client must do, the file formats, the answer format, the coverage table."""
from __future__ import annotations

import json
from typing import Any


def _example_answers(manifest: dict[str, Any]) -> list[str]:
    """One answer line of each kind, taken from the kit's own first cases (so the example is right)."""
    lines = []
    for kind in ("settlement", "rejection"):
        case = next((c for c in manifest["cases"] if c["kind"] == kind), None)
        if case is None:
            continue
        exp = case["expected"]
        if kind == "settlement":
            ans: dict[str, Any] = {"case": case["id"], "scores": exp["scores"], "next_dealer": exp["next_dealer"],
                                   "flip": exp["flip"],
                                   "items": [{k: i[k] for k in ("kind", "from", "to", "amount")} for i in exp["items"]]}
        else:
            ans = {"case": case["id"], "rejected_at": exp["rejected_at"]}
        lines.append(json.dumps(ans, ensure_ascii=False))
    return lines


def coverage_table(manifest: dict[str, Any]) -> list[str]:
    """The coverage rows: item, kind, cases, required (n/a where the profile does not play it)."""
    out = ["| item | kind | cases | required | what counts |", "|---|---|---:|---:|---|"]
    for row in manifest["coverage"]:
        need = str(row["required"]) if row["applies"] else "n/a"
        out.append(f"| `{row['item']}` | {row['group']} | {row['cases']} | {need} | {row['what']} |")
    return out


def readme(manifest: dict[str, Any]) -> str:
    """The README text of a kit."""
    counts = manifest["counts"]
    opts = json.dumps(manifest["options"], ensure_ascii=False, sort_keys=True)
    lines = [
        f"# Conformance kit `{manifest['kit']}` (profile `{manifest['profile']}`)",
        "",
        f"Kit format `{manifest['format']}`, built by the zhuoji-audit engine {manifest['engine']} with profile "
        f"`{manifest['profile']}`, options `{opts}`, seed {manifest['seed']}: {counts['settlement']} settlement "
        f"cases and {counts['rejection']} rejection cases. Rebuild it byte for byte with",
        "",
        "```sh",
        f"zhuoji-kit build --profile {manifest['profile']} " +
        "".join(f"--option {k}={json.dumps(v, ensure_ascii=False)} " for k, v in sorted(manifest["options"].items()))
        + f"--cases {counts['settlement'] + counts['rejection']} --seed {manifest['seed']} "
        + (f"--min-count {manifest['min_count']} " if manifest["min_count"] != 5 else "") + "--out DIR",
        "```",
        "",
        "## What your client must do",
        "",
        "For every file in `cases/`, load the record into your engine and replay its `events` in order.",
        "",
        "- **Settlement case** (`kind: settlement` in the manifest, ids `s0001`...): every move is legal. Settle "
        "the hand under the record's `rules` and answer with the `result` your client would write: each seat's "
        "`scores`, the `next_dealer`, the `flip` tile (or null) and, if you can, the `items`.",
        "- **Rejection case** (`kind: rejection`, ids `r0001`...): exactly one event is illegal. Answer the index "
        "(`step`, counting from 0) of the first event your move validator refuses, or null if it accepts them all.",
        "",
        "Write one JSON object a line (`answers.jsonl`), in any order, then run",
        "",
        "```sh",
        "zhuoji-kit check DIR answers.jsonl --junit junit.xml --html report.html",
        "```",
        "",
        "Exit status: 0 every case passes, 1 some case fails (or an answer is missing or malformed), 2 the check "
        "could not run (no kit, unreadable answers file).",
        "",
        "## Files",
        "",
        "- `manifest.json`: the kit format, engine version, profile and options, seed, the coverage table and, per "
        "case, its `id`, `file`, `kind`, the rule `sections` and `rules`, `events` (rare events) and profile "
        "`parameters` it exercises, and the `expected` outcome (the engine's settlement with each item's rule, or "
        "the step, rule and finding code of the illegal move). Your client must not read `expected`; the check does.",
        "- `cases/ID.json`: a `zhuoji/1` record (spec: record-format.md) without its `result`. `game_id` is the "
        "case's own; nothing else in the record tells the case's kind.",
        "- `schemas/zhuoji-1.json`, `schemas/zhuoji-match-1.json`: JSON Schema (draft 2020-12) of the record "
        "formats, to validate your records before you upload them. A kit case has no `result`, so validate a "
        "case together with your answer as its `result`.",
        "",
        "## Answer format",
        "",
        "A settlement answer is the record format's `result` object plus `case`: `scores` (one integer per seat, "
        "in points: units times `base`), `next_dealer` (a seat index), `flip` (a tile code such as `\"2s\"`, or "
        "null when no tile was turned) and, optional, `items` (`kind`, `from`, `to`, `amount`; `note` is "
        "allowed and ignored). When `items` is given, the check compares the sum of every (`kind`, `from`, `to`) "
        "as well, so a wrong payment is named even when the nets happen to agree. A rejection answer is `case` "
        "and `rejected_at` (an event index, or null). Example lines, answered right:",
        "",
        "```json",
        *_example_answers(manifest),
        "```",
        "",
        "## Coverage",
        "",
        f"Every item that applies to this profile is exercised by at least {manifest['min_count']} cases, by the "
        "engine's own account of each case (its replay and settlement); `n/a` marks items the profile does not "
        "play. `R...` rows are rulebook sections, `p:` rows profile parameters (rulebook table P), `reject:` rows "
        "the illegal-move classes of the rejection cases.",
        "",
        *coverage_table(manifest),
        "",
    ]
    return "\n".join(lines)
