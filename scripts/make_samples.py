"""Build `samples/`: realistic records, clean and faulty, each with its expected audit.

The clean ones are the spec's worked examples and reference games (one per
profile and rare event). Each faulty one is a clean record with exactly one
fault made by hand below; `samples/manifest.json` states the verdict, rule and
step each must get, written here from the fault, not read back from the audit.
`NAME.audit.json` is the engine's output at the time of building (a
regression snapshot); tests/audit/test_samples.py checks both.

Run: `.venv/bin/python scripts/make_samples.py` (rewrites samples/).
"""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.api import audit_document, audit_record  # noqa: E402
from tests.builder import record, with_result  # noqa: E402
from tests.helpers import INERT  # noqa: E402

SPEC = ROOT / "spec"
OUT = ROOT / "samples"
Doc = dict[str, Any]


def load(rel: str) -> Doc:
    return json.loads((SPEC / rel).read_text(encoding="utf-8"))


def itemised(doc: Doc) -> Doc:
    """The record with the engine's settlement as its claimed result (items included)."""
    return with_result(doc, audit_record(doc)["settlement"])


def dress(doc: Doc, game_id: str, platform: str = "sample-platform", client: str = "android 5.0.1") -> Doc:
    doc = copy.deepcopy(doc)
    doc["game_id"] = game_id
    doc.setdefault("played_at", "2026-11-29T20:15:00+08:00")
    doc.setdefault("platform", platform)
    doc.setdefault("client", client)
    names = ["阿明", "小红", "Bo", "Lily"]
    doc["seats"] = [{"name": names[i], "player_id": f"u10{i}"} for i in range(len(doc["seats"]))]
    return doc


CLEAN: dict[str, tuple[str, str]] = {
    "clean-weile-hot-shot": ("examples/hot-shot-weile.json", "R8 热炮 burn all, R11.5 flip"),
    "clean-cuocuo-hot-shot-transfer": ("examples/hot-shot-cuocuo.json", "R8.3 transfer_kong, R6.4 dealer bonus"),
    "clean-weile-charge-gold": ("examples/charge-chicken-gold.json", "R11.3 冲锋鸡, R11.5 金鸡, R11.6 liability"),
    "clean-weile-responsibility": ("examples/responsibility-chicken.json", "R11.4 责任鸡, R14.4 streak"),
    "clean-weile-cha-jiao": ("examples/cha-jiao-declared.json", "R5 报听, R12 查叫, R14.3"),
    "clean-weile-rob-double": ("reference/ref-weile-90210-0001.json", "R9 抢杠 with two robbers, R10.1"),
    "clean-weile-double-hot-shot": ("reference/ref-weile-90210-0004.json", "R5 hard declare, R8 double 热炮"),
    "clean-cuocuo-long": ("reference/ref-cuocuo-90210-0001.json", "cuocuo, two winners"),
    "clean-kuhu-triple": ("reference/ref-kuhu-90210-0000.json", "kuhu, 一炮三响 (R14.2 discarder)"),
    "clean-senyan-kongs": ("reference/ref-senyan-90210-0002.json", "senyan added/exposed kongs, 乌骨鸡"),
    "clean-guizhou-3p": ("reference/ref-guizhou-90210-0003.json", "guizhou, 3 players (R1.1)"),
    "clean-kuhu-draw": ("reference/ref-kuhu-90210-0004.json", "kuhu exhaustive draw, dealer stays"),
}


def fault_wall(doc: Doc) -> tuple[Doc, int]:
    """R2.4: the record's 20th event draws a tile the wall does not give."""
    step = next(i for i, e in enumerate(doc["events"]) if e["type"] == "draw" and i > 20)
    ev = doc["events"][step]
    ev["tile"] = "9m" if ev["tile"] != "9m" else "8m"
    return doc, step


def fault_discard_not_held(doc: Doc) -> tuple[Doc, int]:
    """R2.5: a discard of a tile the seat does not hold (the first discard by seat 1 becomes a tile it lacks)."""
    from audit.profiles import resolve
    from audit.replay import start_state, step
    from audit.state import Event
    st = start_state(doc, resolve(doc["rules"]["profile"], doc["rules"].get("options")))
    for i, raw in enumerate(doc["events"]):
        ev = Event.from_json(i, raw)
        if raw["type"] == "discard" and raw["seat"] == 1:
            missing = next(t for t in range(27) if st.seats[1].hand[t] == 0)
            from audit.tiles import code
            raw["tile"] = code(missing)
            return doc, i
        assert step(st, ev) is None
    raise AssertionError("no discard by seat 1")


def fault_burn(doc: Doc) -> tuple[Doc, None]:
    """R8.3 missettled: the shooter (seat 0) is paid a chicken credit although 热炮 burns it."""
    doc = itemised(doc)
    doc["result"]["items"].append({"kind": "chicken", "from": 2, "to": 0, "amount": 1, "note": "鸡: 1x1s 1"})
    doc["result"]["scores"][2] -= 1
    doc["result"]["scores"][0] += 1
    return doc, None


def fault_rob_three_pay(doc: Doc) -> tuple[Doc, None]:
    """R9.3 missettled: the rob is billed to all three others instead of the robbed seat alone."""
    doc = itemised(doc)
    items = [i for i in doc["result"]["items"] if not (i["kind"] == "hand" and i["from"] == 2 and i["to"] == 3)]
    items += [{"kind": "hand", "from": s, "to": 3, "amount": 2, "note": "平胡 1 +自摸 1"} for s in (0, 1, 2)]
    doc["result"]["items"] = items
    net = [0] * 4
    for i in items:
        net[i["from"]] -= i["amount"]
        net[i["to"]] += i["amount"]
    doc["result"]["scores"] = net
    return doc, None


def fault_next_dealer(doc: Doc) -> tuple[Doc, None]:
    """R14.1 missettled: the platform kept the dealer although seat 1 won."""
    doc["result"]["next_dealer"] = doc["dealer"]
    return doc, None


def fault_flip(doc: Doc) -> tuple[Doc, None]:
    """R11.5 missettled: the claimed flip tile is not the front of the wall."""
    doc["result"]["flip"] = "6s"
    return doc, None


def fault_schema(doc: Doc) -> tuple[Doc, int | None]:
    """Schema: a bad tile code, an unknown field, a missing result."""
    doc["events"][2]["tile"] = "10m"
    doc["events"][1]["colour"] = "red"
    del doc["result"]
    return doc, None


def fault_tiles(doc: Doc) -> tuple[Doc, int | None]:
    """R1.2: a fifth 5m replaces a wall tile."""
    doc["wall"][-1] = "5m" if doc["wall"][-1] != "5m" else "6m"
    return doc, None


def built(hands: list[str], events: str, **kw: Any) -> Doc:
    rec = record(hands, events, **kw)
    return rec


PING_HANDS = ["123m 456m 789m 234p 5p 4p", "234s 567s 678m 23p 99m", INERT[1], INERT[2]]
PASS_HANDS = ["123m 456m 789m 234p 5p 9s", "234s 456s 678m 23p 1p 9p", "555s 777p 888s 99p 22m", INERT[2]]


def fault_no_pass() -> tuple[Doc, int]:
    """R7.3: 平胡 by discard, no kong, no 报听, not a 热炮."""
    return built(PING_HANDS, "0 discard 4p\n1 win 4p", flip="4s"), 1


def fault_locked() -> tuple[Doc, int]:
    """R13.1: seat 2 lets the dealer's 2m go (大对子) and wins seat 1's 2m before its own draw."""
    return built(PASS_HANDS, "0 discard 2m\n1 draw 2m\n1 discard 2m\n2 win 2m", flip="4s"), 3


def fault_frozen() -> tuple[Doc, int]:
    """R5.2: the declared dealer keeps its drawn 3m and discards 1m instead."""
    events = ("0 declare\n0 discard 9s\n1 draw 7s\n1 discard 7s\n2 draw 3s\n2 discard 3s\n"
              "3 draw 6m\n3 discard 6m\n0 draw 3m\n0 discard 1m")
    return built(PASS_HANDS, events), 9


def fault_must_win() -> tuple[Doc, int]:
    """R8.2 (cuocuo must_win): seat 1 could win the 热炮 and draws instead."""
    doc = load("examples/hot-shot-cuocuo.json")
    doc["events"][3] = {"type": "draw", "seat": 1, "tile": doc["wall"][0]}
    doc["events"].append({"type": "discard", "seat": 1, "tile": doc["wall"][0]})
    return doc, 3


def samples() -> list[tuple[str, Doc, dict[str, Any]]]:
    out: list[tuple[str, Doc, dict[str, Any]]] = []
    for name, (rel, covers) in CLEAN.items():
        out.append((name, dress(load(rel), name), {"verdict": "clean", "rule": None, "step": None,
                                                   "covers": covers}))
    faults: list[tuple[str, Callable[[], tuple[Doc, int | None]], str, str | None, str]] = [
        ("illegal-wall-tampered", lambda: fault_wall(load("reference/ref-weile-90210-0002.json")),
         "illegal", "R2.4", "a draw that is not the wall's tile"),
        ("illegal-discard-not-held", lambda: fault_discard_not_held(load("reference/ref-kuhu-90210-0001.json")),
         "illegal", "R2.5", "discarding a tile not held"),
        ("illegal-ping-hu-no-pass", fault_no_pass, "illegal", "R7.3", "平胡 by discard without 通行证"),
        ("illegal-pass-locked", fault_locked, "illegal", "R13.1", "winning while pass-locked (过胡)"),
        ("illegal-declared-frozen", fault_frozen, "illegal", "R5.2", "a declared hand that changes"),
        ("illegal-must-win-hot-shot", fault_must_win, "illegal", "R8.2", "cuocuo must win a 热炮"),
        ("missettled-burn-not-applied", lambda: fault_burn(load("examples/hot-shot-weile.json")),
         "missettled", "R8.3", "热炮 burn not applied"),
        ("missettled-rob-paid-by-three", lambda: fault_rob_three_pay(load("reference/ref-weile-90210-0001.json")),
         "missettled", "R9.3", "抢杠 billed to three seats"),
        ("missettled-next-dealer", lambda: fault_next_dealer(load("examples/hot-shot-weile.json")),
         "missettled", "R14.1", "wrong next dealer"),
        ("missettled-flip", lambda: fault_flip(load("examples/charge-chicken-gold.json")),
         "missettled", "R11.5", "wrong flip tile"),
        ("invalid-schema", lambda: fault_schema(load("examples/hot-shot-weile.json")),
         "invalid", None, "bad tile, unknown field, missing result: every path listed"),
        ("invalid-tile-count", lambda: fault_tiles(load("examples/responsibility-chicken.json")),
         "invalid", "R1.2", "a fifth copy of a tile"),
    ]
    for name, make, verdict, rule, covers in faults:
        doc, step = make()
        out.append((name, dress(doc, name), {"verdict": verdict, "rule": rule, "step": step, "covers": covers}))
    return out


def match_sample() -> tuple[str, Doc, dict[str, Any]]:
    """A two-hand match whose second hand has the wrong dealer (R14.1, step null)."""
    first = dress(load("examples/hot-shot-weile.json"), "match-hand-1")
    second = dress(load("examples/cha-jiao-declared.json"), "match-hand-2")
    return ("illegal-match-dealer", {"format": "zhuoji-match/1", "table_id": "table-7", "hands": [first, second]},
            {"verdict": ["clean", "illegal"], "rule": [None, "R14.1"], "step": [None, None],
             "covers": "match continuity (dealer after a win)"})


def main() -> None:
    OUT.mkdir(exist_ok=True)
    manifest: dict[str, Any] = {}
    for name, doc, intent in [*samples(), match_sample()]:
        (OUT / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        audits = audit_document(doc)
        payload: Any = audits[0] if len(audits) == 1 else audits
        (OUT / f"{name}.audit.json").write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n",
                                                encoding="utf-8")
        manifest[name] = intent
    (OUT / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(manifest)} samples written to {OUT}")


if __name__ == "__main__":
    main()
