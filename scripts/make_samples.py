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


R17_SAMPLES: list[tuple[str, str, str, str, dict[str, Any], str, str]] = [
    # (name, rule, hands, events, options, flip, arithmetic in words)
    ("r17-1-baoji", "R17.1", "BAOJI_HANDS", "BAOJI", {"chicken.exposed_payers": "all_unready"}, "5s",
     "weile, 包鸡: seat 0 self-draws holding one 1s; seats 1-3 are not ready; seat 1's first discard, a 1s, "
     "is the 冲锋鸡 (normal 1 + extra 2). Seat 0 gets 1 from each of seats 1-3 for its own 1s, 1 from each of "
     "seats 1-3 for seat 1's discarded 1s (every seat that does not qualify pays for it), and the extra 2 "
     "from seat 1 alone: chickens seat 0 +8, seat 1 -4, seats 2 and 3 -2 each (today's rule: seat 1 pays "
     "the whole 3 alone: +6, -4, -1, -1). Hand: 平胡 1 + self-draw 1 from each."),
    ("r17-2-qualified", "R17.2", "HANDS", "CHARGE", {"chicken.qualified_pay_each_other": False}, "9p",
     "weile: seat 1 (ready) discarded the 冲锋鸡 (1 + extra 2); seat 0 won; seats 2 and 3 are not ready and "
     "seat 2 has a 1s discarded. Seats 2 and 3 pay seat 1 its 3; seat 0 qualifies too, so it pays seat 1 only "
     "the extra 2 (R17.2 cancels the 1). Seat 2 pays its exposed 1s, 1, to each of seats 0 and 1 (R11.6)."),
    ("r17-3-claimed-charge", "R17.3", "HANDS", "claimed:9p", {"chicken.claimed_charge": "to_claimer"}, "9p",
     "weile: seat 2 (ready) pongs seat 1's first 1s: it keeps the 冲锋 extra 2, from each other seat, on top "
     "of 3 from each for its three melded 1s, and seat 1 owes it the 责任鸡 2: seat 2 gets 5 from seat 0, "
     "7 from seat 1 and 5 from seat 3 (today's rule: 3, 5, 3)."),
    ("r17-4-any-claim", "R17.4", "ANY_HANDS", "ANY", {"chicken.responsibility_claims": "any"}, "9p",
     "weile: seat 1's first 1s stays on the table (its 冲锋鸡, 3 from each); seat 3 later discards a 1s that "
     "seat 2 (ready) pongs. Under `any` that claim is a 责任鸡 too: seat 3 pays seat 2 3 for the melded 1s "
     "plus 2 (today's rule: 3)."),
    ("r17-5-discarder-ready", "R17.5", "HANDS", "claimed:9p", {"chicken.responsibility_if_discarder_ready": False},
     "9p", "weile: seat 2 (ready) pongs seat 1's first 1s, but seat 1, the discarder, is ready: no 责任鸡 extra. "
     "Seat 2 gets 3 from each other seat for its melded 1s (today's rule: seat 1 pays 5)."),
    ("r17-6-wugu-gold", "R17.6", "GOLD_HANDS", "GOLD", {"wugu_ji": {"normal": 2, "charge": 4}, "chicken.wugu_gold": True},
     "7p", "weile with 乌骨鸡 2 / 4: the flip 7p makes 8p the flip chicken, and under R17.6 8p 金鸡 x2 with no flip "
     "credit: seat 0's 888p is 3 x 2 x 2 = 12 from each other seat; seat 1 (not ready) discarded the first 8p, "
     "its 冲锋乌骨鸡 (2 + extra 2) x 2 = 8 more to seat 0 (today's rule: 3 x 2 + 3 flip credits = 9 from each, "
     "and 4)."),
    ("r17-7-dou-reverse", "R17.7", "KONG_HANDS", "KONG", {"dou_unready": "reverse"}, "9p",
     "weile, 倒赔: seat 3 made a concealed kong of 1p (3 from each) and is not ready at the end: it pays the "
     "3 back to seat 0 (won) and to seat 1 (ready); seat 2 is not ready and gets nothing (today's rule: "
     "the dou is void)."),
    ("r17-8-follow-dealer", "R17.8", "FOLLOW_HANDS", "FOLLOW", {"follow_dealer": 2}, "9p",
     "weile, 跟庄 2: the dealer and seats 1, 2 and 3, in turn, all discard 9s first and the hand ends with a "
     "win: the dealer pays each other seat 2 (item kind follow_dealer)."),
    ("r17-9-wugu-no-responsibility", "R17.9", "WUGU_CLAIM_HANDS", "WUGU_CLAIM",
     {"wugu_ji": {"normal": 2, "charge": 4}, "chicken.wugu_responsibility": False}, "9p",
     "weile with 乌骨鸡 2 / 4: seat 2 (ready) pongs seat 1's first 8p: 3 x 2 = 6 from each other seat and no "
     "责任鸡 (today's rule: seat 1 pays 2 more); seat 3 (not ready) discarded the first 1s, its 冲锋鸡: 3 to "
     "each of seats 0, 1 and 2."),
    ("r17-10-one-charge", "R17.10", "WUGU_CLAIM_HANDS", "WUGU_CLAIM",
     {"wugu_ji": {"normal": 2, "charge": 4}, "chicken.charge_scope": "first_any"}, "9p",
     "weile with 乌骨鸡 2 / 4: the first chicken discarded is seat 1's 8p, ponged by seat 2 (no 冲锋鸡 this "
     "hand; seat 1 owes the 责任鸡 2); seat 3's 1s, discarded later, is a plain exposed chicken: 1 to each "
     "of seats 0, 1 and 2 (per species it would be a 冲锋鸡, 3 to each)."),
]
"""One worked example per R17 parameter (hands from tests/audit/test_r17.py): the clean record
settles under the option; the missettled one claims today's settlement, the option ignored."""


def r17_samples() -> list[tuple[str, Doc, dict[str, Any]]]:
    from tests.audit import test_r17 as hands_
    out: list[tuple[str, Doc, dict[str, Any]]] = []
    for name, rule, hands, events, options, flip, words in R17_SAMPLES:
        evs = hands_.claimed(events.split(":")[1]) if events.startswith("claimed:") else getattr(hands_, events)
        hs = getattr(hands_, hands)
        doc = record(hs, evs, options=options, flip=flip)
        plain = record(hs, evs, options={k: v for k, v in options.items() if k == "wugu_ji"}, flip=flip)
        out += house_pair(name, rule, doc, plain, words)
    return out


def house_pair(name: str, rule: str, doc: Doc, plain: Doc, words: str) -> list[tuple[str, Doc, dict[str, Any]]]:
    """The clean sample of a house rule (`doc` settled under it) and the missettled one claiming
    `plain`'s settlement (today's rule), with their intents for the manifest."""
    clean = dress(itemised(doc), f"clean-{name}")
    wrong = dress(with_result(doc, audit_record(plain)["settlement"]), f"missettled-{name}")
    return [(f"clean-{name}", clean, {"verdict": "clean", "rule": None, "step": None,
                                      "covers": f"{rule} {name.split('-', 2)[2]}", "arithmetic": words}),
            (f"missettled-{name}", wrong, {
                "verdict": "missettled", "rule": rule, "step": None,
                "covers": f"{rule} ignored: the record settles by today's rule",
                "arithmetic": f"The same hand claimed as if {rule} were not played; " + words})]


R18_SAMPLES: list[tuple[str, str, str, str, dict[str, Any], dict[str, Any], str]] = [
    # (name, rule, hands, events, options, record arguments, arithmetic in words): tests/audit/test_r18.py
    ("r18-1-dealer-wins", "R18.1", "BONUS_SELF_DRAW", "SELF_DRAW", {"dealer_bonus.on": "dealer_wins"},
     {"profile": "kuhu", "streak": 2, "flip": "9s"},
     "kuhu, dealer streak 2: the dealer bonus is 1 + 1 x 2 = 3. Seat 1 (not the dealer) self-draws a 平胡, "
     "1 from each other seat (kuhu has no self-draw bonus). Under dealer_wins only a payment the dealer "
     "receives as a winner carries the bonus, so the dealer pays seat 1 the 1 alone: seat 1 +3, seats 0, 2 "
     "and 3 -1 each (today's rule, R6.4: the dealer also pays the bonus 3: seat 0 -4, seat 1 +6)."),
    ("r18-2-konger-pays", "R18.2", "EXPOSED_HANDS", "EXPOSED", {"dou.exposed_payer": "konger"}, {"flip": "9p"},
     "weile: seat 1 (ready on 2p/5p) makes an exposed kong of seat 2's 7p. R4.7 has the discarder, seat 2, "
     "pay seat 1 dou.exposed 1; 百科口径: seat 1 pays seat 2 the 1 instead. The dealer self-draws a 平胡, "
     "1 + self-draw 1 = 2 from each: seat 0 +6, seat 1 -3, seat 2 -1, seat 3 -2 (today's rule: seat 1 -1, "
     "seat 2 -3)."),
    ("r18-3-ever-ready", "R18.3", "BROKEN_HANDS", "BROKEN", {"dou_ready_test": "ever"}, {"flip": "9p"},
     "weile: seat 1 is ready after its first discard (step 2), makes a concealed kong of 7p at its first "
     "chance (dou 3 from each other seat), then discards 3p and ends not ready. Under ever it passes the "
     "readiness test of its dou because it was ready right after a discard: seats 0, 2 and 3 pay it 3 each "
     "(today's rule, at_end: the dou is void). The dealer self-draws a 平胡, 2 from each: seat 0 +3, "
     "seat 1 +7, seats 2 and 3 -5 each (today's rule: +6, -2, -2, -2)."),
    ("r18-4-burn-void", "R18.4", "SHOT_HANDS", "SHOT_CHARGE", {"hot_shot.burn_liabilities": "void"},
     {"flip": "9p"},
     "weile: seat 3 discarded the first 1s (its 冲锋鸡, charge 3), later conceals 1111p and shoots the 热炮 "
     "the dealer wins (平胡 1 + 热炮 bonus 1 = 2; seat 3 is burned: its kong and chicken credits score "
     "nothing). R11.7 still makes the burned shooter pay its 冲锋鸡 3 to each qualifying seat (the dealer, "
     "and seat 1, ready); under void (全烧 of both sides) it owes nothing: seat 0 +2, seat 3 -2 (today's "
     "rule: seat 0 +5, seat 1 +3, seat 3 -8)."),
    ("r18-5-konged-charge", "R18.5", "KONGED_HANDS", "KONGED", {"chicken.exposed_kong_claim": "keeps_charge"},
     {"flip": "9p"},
     "weile: seat 2 (ready) makes an exposed kong of seat 1's first 1s. R11.4 makes it a 责任鸡 (seat 1 owes "
     "seat 2 2 more) with no 冲锋鸡. keeps_charge: no 责任鸡, and seat 1 (ready) keeps the whole 冲锋鸡, as if "
     "the 1s still lay in its pond: 3 from every other seat; seat 2's kong still holds four chickens, 4 x 1 "
     "from each other seat. Dou: seat 1 pays seat 2 1; the dealer self-draws a 平胡, 2 from each: seat 0 "
     "+6 - 4 - 3 = -1, seat 1 -2 - 1 - 4 + 9 = +2, seat 2 -2 + 1 + 12 - 3 = +8, seat 3 -2 - 4 - 3 = -9 "
     "(today's rule: +2, -9, +13, -6)."),
]
"""One worked example per R18 parameter (hands from tests/audit/test_r18.py), as R17_SAMPLES."""


def r18_samples() -> list[tuple[str, Doc, dict[str, Any]]]:
    return _house_samples([(n, r, "test_r18", h, e, o, k, w) for n, r, h, e, o, k, w in R18_SAMPLES])


R19_SAMPLES: list[tuple[str, str, str, str, str, dict[str, Any], dict[str, Any], str]] = [
    # (name, rule, test module, hands, events, options, record arguments, arithmetic in words)
    ("r19-1-melded-free", "R19.1", "test_r19", "MELD_HANDS", "MELD", {"chicken.unready_melded": "free"},
     {"flip": "9p"},
     "weile: seat 3 (never ready) discards the first 1s, its 冲锋鸡 (3 to each qualifying seat); seat 2 pongs "
     "seat 1's second 1s and ends not ready; seat 1 self-draws a 平胡 (2 from each); the dealer is ready. "
     "R11.6 has seat 2 pay each qualifying seat (0 and 1) 3 for its pong's three 1s; under unready_melded "
     "free the pong costs nothing: seat 0 +1, seat 1 +9, seat 2 -2, seat 3 -8 (today's rule: +4, +12, -8, "
     "-8)."),
    ("r19-2-ready-claimer", "R19.2", "test_r19", "HANDS", "claimed:4m",
     {"chicken.claimed_charge": "to_ready_claimer"}, {"flip": "9p"},
     "weile: seat 2 pongs seat 1's first 1s and ends not ready; seat 1 is ready; the dealer self-draws a 平胡 "
     "(2 from each). Under to_ready_claimer a claimer that does not qualify leaves the 1s its discarder's "
     "whole 冲锋鸡: seat 1 receives its charge 3 from every other seat; the claimed tile costs seat 2 "
     "nothing, its other two melded 1s 2 to each of seats 0 and 1; no 责任鸡: seat 0 +5, seat 1 +9, seat 2 "
     "-9, seat 3 -5 (today's rule, R11.4, no 冲锋鸡: +9, +1, -8, -2)."),
    ("r19-4-void-all", "R19.4", "test_r19", "SHOT_HANDS", "SHOT", {"hot_shot.burn_liabilities": "void_all"},
     {"flip": "2m"},
     "weile: seat 3 discards the first 1s (its 冲锋鸡) and later a second 1s, conceals 1111p and shoots the "
     "热炮 the dealer wins (平胡 1 + 热炮 bonus 1 = 2); seat 3 is burned and not ready, seat 1 is ready. The "
     "flip 2m makes 3m the flip chicken: the dealer's 2 from every other seat. R11.7 and R16.3 have seat 3 "
     "pay each qualifying seat (0 and 1) its 冲锋鸡 3 and its other 1s 1; under void_all it pays nothing "
     "for its own chickens (the flip credit it still pays): seat 0 +8, seat 1 -2, seat 2 -2, seat 3 -4 "
     "(today's rule: +12, +2, -2, -12)."),
    ("r19-6-won-tile-both", "R19.6", "test_r19", "FIRST_WON_HANDS", "FIRST_WON_EVENTS",
     {"chicken.won_tile": "both"}, {"flip": "9p"},
     "weile: seat 1 discards the first 1s (ready after it) and the dealer wins on it, 大对子 5 from seat 1. "
     "R11.3: a first 1s won on is no 冲锋鸡, a normal chicken in the dealer's hand (its two 1s, 2 from every "
     "other seat). Under won_tile both the 1s also stays in seat 1's pond, where it is seat 1's 冲锋鸡: 3 "
     "from every other seat; the dealer still counts it: seat 0 +8, seat 1 +2, seats 2 and 3 -5 each "
     "(today's rule: +11, -7, -2, -2)."),
    ("r19-3-rob-multiple", "R19.3", "test_r19_hand", "ROB_HANDS", "ROB", {"rob_kong_multiple": 4}, {"flip": "8s"},
     "weile: seat 2 (平胡, waiting on 2s/5s) robs seat 1's added kong of 5s. R9.3 values it as a self-draw "
     "(1 + self-draw 1 = 2) paid three times by the robbed seat, 6; with rob_kong_multiple 4 the robbed seat "
     "alone pays 4 times the hand's value on a discard (平胡 1): seat 1 -4, seat 2 +4 (today's rule: -6, +6). "
     "The kong does not stand, and rob_kong_burn burns seat 1 as before."),
    ("r19-5-hot-shot-multiplier", "R19.5", "test_r19_hand", "HOT_HANDS", "HOT", {"hot_shot.multiplier": 2},
     {"flip": "9p"},
     "weile: the dealer conceals a kong of 5s, draws 3s and discards 2m; seat 1 wins it, 大对子 5, a 热炮. "
     "R8.3 adds the bonus 1 (6); with hot_shot.multiplier 2 the value is 5 x 2 = 10 and the bonus is not "
     "added: seat 0 -10, seat 1 +10 (today's rule: -6, +6)."),
]
"""One worked example per R19 parameter (hands from its test module), as R17_SAMPLES."""


def r19_samples() -> list[tuple[str, Doc, dict[str, Any]]]:
    return _house_samples(R19_SAMPLES)


def _house_samples(rows: list[tuple[str, str, str, str, str, dict[str, Any], dict[str, Any], str]],
                   ) -> list[tuple[str, Doc, dict[str, Any]]]:
    """The clean and missettled pair of each (name, rule, test module, hands, events, options, record
    arguments, words): hands and events by name from the module (`claimed:T` its `claimed(T)`)."""
    import importlib
    out: list[tuple[str, Doc, dict[str, Any]]] = []
    for name, rule, module, hands, events, options, kw, words in rows:
        hands_ = importlib.import_module(f"tests.audit.{module}")
        hs = getattr(hands_, hands)
        evs = hands_.claimed(events.split(":")[1]) if events.startswith("claimed:") else getattr(hands_, events)
        out += house_pair(name, rule, record(hs, evs, options=options, **kw), record(hs, evs, **kw), words)
    return out


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
    for name, doc, intent in [*samples(), match_sample(), *r17_samples(), *r18_samples(), *r19_samples()]:
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
