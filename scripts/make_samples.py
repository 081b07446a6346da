"""Build `samples/` from the plain recipes of `scripts/samples.toml`: records clean and faulty, each
with its expected audit.

The recipes are data (issue 35.3): the spec's worked examples and reference games, records written
in the notation of `sim/notation.py`, and edits that make exactly one fault in each. What the audit
must say (`samples/manifest.json`) is written in the recipe from the fault, never read back from
the audit; `NAME.audit.json` is the engine's output at the time of building (a regression
snapshot). The generator reads the engine only through `audit.api`; tests/audit/test_samples.py
checks that every committed file is what `build()` gives.

Run: `.venv/bin/python scripts/make_samples.py` (rewrites samples/).
"""
from __future__ import annotations

import copy
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audit.api import audit_document, audit_record  # noqa: E402
from sim.notation import record, with_result  # noqa: E402

RECIPES = ROOT / "scripts" / "samples.toml"
SPEC = ROOT / "spec"
OUT = ROOT / "samples"
Doc = dict[str, Any]
NAMES = ("阿明", "小红", "Bo", "Lily")
"""The seats' names every sample carries (the messages speak of the seats by them)."""
NOTATION_KEYS = ("profile", "flip", "streak", "dealer", "base")
"""The keys of a recipe passed to `sim.notation.record` as they are."""


def load(rel: str) -> Doc:
    loaded: Doc = json.loads((SPEC / rel).read_text(encoding="utf-8"))
    return loaded


def dress(doc: Doc, game_id: str) -> Doc:
    """The record as a platform would send it: its game id, a time, a platform, a client, named seats."""
    doc = copy.deepcopy(doc)
    doc["game_id"] = game_id
    doc.setdefault("played_at", "2026-11-29T20:15:00+08:00")
    doc.setdefault("platform", "sample-platform")
    doc.setdefault("client", "android 5.0.1")
    doc["seats"] = [{"name": NAMES[i], "player_id": f"u10{i}"} for i in range(len(doc["seats"]))]
    return doc


def itemised(doc: Doc) -> Doc:
    """The record with the engine's settlement as its claimed result (items included)."""
    return with_result(doc, audit_record(doc)["settlement"])


def built(recipe: dict[str, Any], options: dict[str, Any] | None = None) -> Doc:
    """The record a recipe writes in the notation (`hands`, `events` one per line)."""
    kw = {k: recipe[k] for k in NOTATION_KEYS if k in recipe}
    return record(recipe["hands"], "\n".join(recipe["events"]), options=options, **kw)


def base_of(recipe: dict[str, Any]) -> Doc:
    return load(recipe["source"]) if "source" in recipe else built(recipe)


def _walk(doc: Any, path: str) -> tuple[Any, str | int]:
    """The container holding `path`'s last step, and that step (a list index as an int)."""
    *parents, last = path.split(".")
    node = doc
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node, int(last) if isinstance(node, list) else last


def edited(doc: Doc, recipe: dict[str, Any]) -> Doc:
    """`doc` with the recipe's edits applied, in the order scripts/samples.toml states."""
    doc = itemised(doc) if recipe.get("itemise") else copy.deepcopy(doc)
    for pattern in recipe.get("remove_items", []):
        doc["result"]["items"] = [it for it in doc["result"]["items"]
                                  if any(it.get(k) != v for k, v in pattern.items())]
    for path, value in recipe.get("append", []):
        node, key = _walk(doc, path)
        node[key].append(copy.deepcopy(value))
    for path, value in recipe.get("set", []):
        node, key = _walk(doc, path)
        node[key] = copy.deepcopy(value)
    for path, amount in recipe.get("add", []):
        node, key = _walk(doc, path)
        node[key] += amount
    for path in recipe.get("delete", []):
        node, key = _walk(doc, path)
        del node[key]
    if recipe.get("rescore"):
        net = [0] * len(doc["seats"])
        for it in doc["result"]["items"]:
            net[it["from"]] -= it["amount"]
            net[it["to"]] += it["amount"]
        doc["result"]["scores"] = net
    return doc


def intent(verdict: str, rule: str | None, step: int | None, covers: str) -> dict[str, Any]:
    return {"verdict": verdict, "rule": rule, "step": step, "covers": covers}


def house_pair(recipe: dict[str, Any]) -> list[tuple[str, Doc, dict[str, Any]]]:
    """The clean sample of a house-rule parameter (settled under its options) and the missettled
    one claiming the settlement under `plain_options` (today's rule when absent)."""
    name, rule, words = recipe["name"], recipe["rule"], recipe["words"]
    doc = built(recipe, recipe["options"])
    plain = built(recipe, recipe.get("plain_options") or None)
    clean = dress(itemised(doc), f"clean-{name}")
    wrong = dress(with_result(doc, audit_record(plain)["settlement"]), f"missettled-{name}")
    return [(f"clean-{name}", clean, {**intent("clean", None, None, f"{rule} {name.split('-', 2)[2]}"),
                                      "arithmetic": words}),
            (f"missettled-{name}", wrong, {
                **intent("missettled", rule, None, f"{rule} ignored: the record settles by today's rule"),
                "arithmetic": f"The same hand claimed as if {rule} were not played; " + words})]


def samples(recipes: dict[str, Any]) -> list[tuple[str, Doc, dict[str, Any]]]:
    """(name, document, what its audit must say) of every recipe, in the file's order."""
    out: list[tuple[str, Doc, dict[str, Any]]] = []
    for r in recipes["clean"]:
        out.append((r["name"], dress(load(r["source"]), r["name"]), intent("clean", None, None, r["covers"])))
    for r in recipes["fault"]:
        out.append((r["name"], dress(edited(base_of(r), r), r["name"]),
                    intent(r["verdict"], r.get("rule"), r.get("step"), r["covers"])))
    for m in recipes["match"]:
        hands = [dress(load(h["source"]), h["game_id"]) for h in m["hands"]]
        doc = {"format": "zhuoji-match/1", "table_id": m["table_id"], "hands": hands}
        out.append((m["name"], doc, {"verdict": [h["verdict"] for h in m["hands"]],
                                     "rule": [h.get("rule") for h in m["hands"]],
                                     "step": [h.get("step") for h in m["hands"]], "covers": m["covers"]}))
    for r in recipes["house"]:
        out += house_pair(r)
    return out


def text(value: Any) -> str:
    """A sample file's text: JSON, indent 1, Chinese as it is, one newline at the end."""
    return json.dumps(value, ensure_ascii=False, indent=1) + "\n"


def build(recipes_path: Path = RECIPES) -> dict[str, str]:
    """Every file of samples/ by name: the records, their audits and the manifest."""
    recipes = tomllib.loads(recipes_path.read_text(encoding="utf-8"))
    files: dict[str, str] = {}
    manifest: dict[str, Any] = {}
    for name, doc, wanted in samples(recipes):
        audits = audit_document(doc)
        files[f"{name}.json"] = text(doc)
        files[f"{name}.audit.json"] = text(audits[0] if len(audits) == 1 else audits)
        manifest[name] = wanted
    files["manifest.json"] = text(manifest)
    return files


def main() -> None:
    OUT.mkdir(exist_ok=True)
    files = build()
    for name, body in files.items():
        (OUT / name).write_text(body, encoding="utf-8")
    print(f"{len(files) // 2} samples written to {OUT}")


if __name__ == "__main__":
    main()
