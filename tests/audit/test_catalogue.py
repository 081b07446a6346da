"""The message catalogue (audit/catalogue/*.toml): every code emitted is in it, every entry is
emitted by some case below, every entry has every language with the same placeholders, and
docs/findings.md is what `python -m audit.catalogue` prints."""
from __future__ import annotations

import copy
import itertools
import json
import shutil
from collections.abc import Callable, Iterator
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import pytest

import audit.schema
import audit.schema_marshmallow
from audit import catalogue
from audit.api import audit_document, audit_record, trace_record
from audit.catalogue import CATALOGUE, LANGS, CatalogueError, Lang, render_finding, render_note
from audit.engine import audit_hand
from audit.attribute import Change, Edit
from audit.candidates import parameter_models
from audit.explain import MODELS, not_played_code, settle_under
from audit.house_rules import SECTIONS
from sim.mutate import mutants
from audit.profiles import ProfileError, build, resolve
from audit.replay import replay
from audit.settle import net_scores, settle
from sim.simulate import simulate
from tests.audit.test_declared import HANDS as DECLARED, SOFT_EVENTS
from tests.audit.test_hot_rob import ROB_HANDS, ROB_PLAY
from tests.audit.test_kongs import CLAIMS
from tests.audit.test_pass import HANDS as PASS_HANDS
from tests.audit.test_precedence import HOT, MUST_WIN, PAIR, QUIET, SHOOTER, THREE, after_hot_shot
from tests.audit.test_schema import random_mutants
from tests.audit.test_turns import HANDS, ROUND
from tests.audit import test_r17 as r17_hands
from tests.audit import test_r18 as r18_hands
from tests.audit import test_r19 as r19_hands
from sim.notation import record, with_result
from tests.conftest import variant
from tests.helpers import INERT, quiet_round

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
SAMPLES = ROOT / "samples"
Json = dict[str, Any]
Findings = list[Json]


def load(rel: str) -> Json:
    """A file of the repository, as JSON (spec/... or samples/...)."""
    return json.loads((ROOT / rel).read_text(encoding="utf-8"))


def findings(audits: Json | list[Json]) -> Findings:
    """Every finding of one audit object or of a list of them."""
    return [f for a in (audits if isinstance(audits, list) else [audits]) for f in a["findings"]]


def hand(hands: list[str], events: str, **kw: Any) -> Findings:
    return hand_audit(record(hands, events, **{k: v for k, v in kw.items() if k != "audit_options"}),
                      kw.get("audit_options"))


def hand_audit(rec: Json, options: Json | None = None) -> Findings:
    return audit_hand(rec, options=options).to_json()["findings"]


def doc(mutate: Callable[[Json], Any], rel: str = "spec/reference/ref-weile-90210-0000.json") -> Findings:
    """The findings of a reference record after `mutate`."""
    d = load(rel)
    mutate(d)
    return findings(audit_document(d))


def options(opts: Any, profile: str = "weile") -> Findings:
    return doc(lambda d: d["rules"].update(profile=profile, options=opts))


def profile_error(thunk: Callable[[], Any]) -> Findings:
    """A ProfileError raised by a direct call, as the finding the engine would make of it."""
    try:
        thunk()
    except ProfileError as exc:
        return [{"code": exc.code, "rule": "P", "params": exc.params}]
    raise AssertionError("no ProfileError")


def itemised(rec: Json) -> Json:
    """The record claiming exactly the engine's settlement, items included."""
    return with_result(rec, audit_record(rec)["settlement"])


def extra_item(rec: Json, kind: str, payer: int, payee: int, amount: int) -> Findings:
    """Claim one payment more than the rules give."""
    out = itemised(rec)
    out["result"]["items"].append({"kind": kind, "from": payer, "to": payee, "amount": amount})
    out["result"]["scores"][payer] -= amount
    out["result"]["scores"][payee] += amount
    return findings(audit_record(out))


def explained(rel: str, code: str) -> Findings:
    """Claim the scores a platform with one mistake (the model that names `code`) would compute."""
    d = load(rel)
    prof = resolve(d["rules"]["profile"], d["rules"].get("options"))
    rep = replay(d, prof)
    model = next(m for _, c, m in MODELS if c == code)
    items = model(rep.state, settle(rep.state))
    assert items is not None
    scores = net_scores(items, len(d["seats"]))
    d["result"]["scores"] = [s * d.get("base", 1) for s in scores]
    d["result"].pop("items", None)
    return findings(audit_record(d))


def planted(rel: str, code: str) -> Findings:
    """R16.16: the first single mistake planted in `rel`'s ledger (each item left out, doubled,
    turned round, given to or taken from another seat, a waived item paid, each parameter read
    another way) whose scores-only claim makes the audit emit `code`."""
    d = load(rel)
    rep = replay(d, resolve(d["rules"]["profile"], d["rules"].get("options")))
    st, sett = rep.state, settle(rep.state)
    ledgers: list[list[Any]] = []
    for it in sett.items:
        ledgers += [Edit(ch, it).apply(sett.items) for ch in (Change.MISSING, Change.DOUBLED, Change.REVERSED)]
        for seat in (s for s in range(st.n) if s not in (it.payer, it.payee)):
            ledgers += [Edit(Change.WRONG_PAYER, it, seat).apply(sett.items),
                        Edit(Change.WRONG_PAYEE, it, seat).apply(sett.items)]
    ledgers += [Edit(Change.NOT_OWED, it).apply(sett.items) for it in sett.waived]
    ledgers += [settle_under(st, prof) for _, _, prof in parameter_models(st.profile)]
    for ledger in ledgers:
        claim = copy.deepcopy(d)
        claim["result"].pop("items", None)
        claim["result"]["scores"] = [x * d.get("base", 1) for x in net_scores(ledger, st.n)]
        found = findings(audit_record(claim))
        if any(f["code"] == code for f in found):
            return found
    raise AssertionError(f"no planted mistake in {rel} gives {code}")


def burn_forgotten() -> Findings:
    """test_compare's client that forgot the 热炮 burn (a model of audit.explain), scores only."""
    d = load(HOT_SHOT)
    d["rules"]["profile"] = "kuhu"
    right = audit_record(d)["settlement"]["scores"]
    d["result"]["scores"] = [right[0] + 9, right[1] - 3, right[2] - 3, right[3] - 3]
    return findings(audit_record(d))


def too_many_readings(monkeypatch: pytest.MonkeyPatch) -> Findings:
    """Two readings tie; with at most one reported, the audit says the scores cannot tell."""
    monkeypatch.setattr("audit.attribute.MAX_READINGS", 1)
    return planted("spec/examples/cha-jiao-declared.json", "net_many_readings")


def exhausted(extra: dict[str, Any]) -> Findings:
    """Every tile drawn and discarded (an exhaustive draw, as in tests/audit/test_turns.py), then `extra`."""
    wall = record(HANDS, "0 discard 9s")["wall"]
    events = ["0 discard 9s"] + [f"{(1 + k) % 4} draw {t}\n{(1 + k) % 4} discard {t}" for k, t in enumerate(wall)]
    rec = record(HANDS, "\n".join(events))
    rec["events"].append({**extra, "seat": (1 + len(wall)) % 4})
    return hand_audit(rec)


def kong_on_the_last_tile() -> Findings:
    """R4.5: the seat that draws the last tile may not kong it (tests/audit/test_kongs.py)."""
    hands = ["123m 456m 789m 234p 5p 1s", INERT[0], INERT[1], "555s 1m 3m 4m 7m 8m 2p 3p 4p 6p 9p"]
    wall = [t for t in record(hands, "0 discard 1s")["wall"] if t != "5s"] + ["5s"]
    events = ["0 discard 1s"]
    for k, t in enumerate(wall):
        events.append(f"{(1 + k) % 4} draw {t}")
        if k < len(wall) - 1:
            events.append(f"{(1 + k) % 4} discard {t}")
    rec = record(hands, "\n".join(events) + "\n3 kong 5s concealed")
    rec["wall"] = wall
    return hand_audit(rec)


def no_replacement_tile() -> Findings:
    """R4.5 as the judge sees it: a replacement draw from an empty wall (a state no schema-valid
    record reaches, since R4.5 refuses the kong first; the judge still names it)."""
    from audit.rules import check
    from audit.state import Event

    rec = record(["7777m 123p 456p 78s 99s", *HANDS[1:]], "0 kong 7m concealed\n0 draw 2m")
    prof = resolve("weile", None)
    st = replay({**rec, "events": rec["events"][:1]}, prof).state
    st.front = st.back
    found = check(st, Event.from_json(1, rec["events"][1]))
    assert found is not None
    return [found.to_json()]


def declared_kong() -> Findings:
    """A declared (报听) dealer with four 1m declares their kong: R5.2."""
    hands = ["1111m 23m 456m 789p 5p 9s", *HANDS[1:]]
    return hand(hands, "0 declare\n" + ROUND + "0 draw 6m\n0 kong 1m concealed")


def tmp_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str) -> Findings:
    (tmp_path / f"{name}.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("ZHUOJI_PROFILE_DIR", str(tmp_path))
    return doc(lambda d: d["rules"].update(profile=name))


WEILE_TOML = (ROOT / "audit" / "profiles" / "weile.toml").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def jds_hands() -> list[Json]:
    """Generated cuocuo hands with 见豆三 (the first 34 of a fixed seed)."""
    return [g.record for g in itertools.islice(simulate("cuocuo", {"jian_dou_san": True}, 34, 77), 34)]


def match_findings(second: Callable[[Json], Any]) -> Findings:
    a = load("spec/examples/responsibility-chicken.json")
    b = copy.deepcopy(a)
    second(b)
    return findings(audit_document({"format": "zhuoji-match/1", "hands": [a, b]})[1])


Trigger = Callable[[Path, pytest.MonkeyPatch], Findings]


def t(f: Callable[[], Findings]) -> Trigger:
    return lambda tmp_path, monkeypatch: f()


ROB = ROB_PLAY + "2 win 5s"
HOT_SHOT = "spec/examples/hot-shot-weile.json"

def r17(hands: list[str], events: str, options: dict[str, Any], flip: str = "9p") -> list[Json]:
    """The items of a tests/audit/test_r17.py hand under R17 options."""
    return items(audit_hand(record(hands, events, options=options, flip=flip)).to_json())



def house_sample(rule: str) -> str:
    """The missettled sample of a house-rule section (`samples/missettled-r19-1-*.json`, by its name)."""
    slug = rule.lower().replace(".", "-")
    found = [p for p in sorted((ROOT / "samples").glob(f"missettled-{slug}-*.json")) if ".audit." not in p.name]
    return f"samples/{found[0].name}" if found else f"samples/missettled-{slug}-(none).json"


def without_items(rel: str) -> Findings:
    """A sample that claims today's settlement under an R17 option, its items left out: the net
    difference is explained by the house rule the platform did not play."""
    d = load(rel)
    d["result"].pop("items")
    return findings(audit_record(d))


def r17_waived() -> list[Json]:
    """A platform that pays the 责任鸡 R17.5 cancels (discarder ready)."""
    opts = {"chicken.responsibility_if_discarder_ready": False}
    plain = audit_hand(record(r17_hands.HANDS, r17_hands.claimed("9p"), flip="9p")).settlement
    assert plain is not None
    rec = with_result(record(r17_hands.HANDS, r17_hands.claimed("9p"), flip="9p", options=opts), plain.to_json(1))
    return findings(audit_hand(rec).to_json())


FINDING_TRIGGERS: dict[str, Trigger] = {
    # R2 turn order
    "out_of_turn_dealer_first": t(lambda: hand(HANDS, "1 discard 9p")),
    "out_of_turn_discard": t(lambda: hand(HANDS, "0 discard 9s\n1 draw 4s\n2 discard 1p")),
    "out_of_turn_replacement": t(lambda: hand(["7777m 123p 456p 78s 99s", *HANDS[1:]], "0 kong 7m concealed\n1 draw 4s")),
    "out_of_turn_rob": t(lambda: hand(ROB_HANDS, ROB_PLAY + "2 draw 6m")),
    "out_of_turn_after_pong": t(lambda: hand(CLAIMS, "0 discard 5s\n1 pong 5s\n1 draw 1p")),
    "out_of_turn_claim": t(lambda: hand(HANDS, "0 discard 9s\n2 draw 4s")),
    "pong_wrong_source": t(lambda: hand(CLAIMS, "0 discard 5s\n1 pong 5s from=2")),
    "kong_wrong_source": t(lambda: after_hot_shot(THREE, "2 kong 3s exposed from=1").to_json()["findings"]),
    "kong_after_pong": t(lambda: hand(CLAIMS, "0 discard 5s\n1 pong 5s\n1 kong 5s added")),
    "pass_outside_window": t(lambda: hand(HANDS, "0 pass")),
    "draw_wrong_tile": t(lambda: doc(lambda d: d["events"][1].update(tile="9p" if d["events"][1]["tile"] != "9p" else "8p"))),
    "discard_not_held": t(lambda: hand(HANDS, "0 discard 9s\n1 draw 4s\n1 discard 5m")),
    "draw_wall_empty": t(lambda: exhausted({"type": "draw", "tile": "1m"})),
    "event_after_win": t(lambda: hand(HANDS, ROUND + "0 draw 5p\n0 win 5p\n1 draw 1m", flip="7p")),
    "win_after_end": t(lambda: hand(HANDS, ROUND + "0 draw 5p\n0 win 5p\n1 win 5p", flip="7p")),
    # R3, R4
    "not_a_winning_hand": t(lambda: hand(HANDS, "0 win 1m")),
    "pong_wrong_tile": t(lambda: hand(CLAIMS, "0 discard 4p\n1 pong 5s")),
    "pong_without_pair": t(lambda: hand(CLAIMS, "0 discard 4p\n1 pong 4p")),
    "exposed_kong_without_three": t(lambda: hand(CLAIMS, "0 discard 5s\n1 kong 5s exposed")),
    "concealed_kong_without_four": t(lambda: hand(CLAIMS, "0 kong 5p concealed")),
    "added_kong_without_pong": t(lambda: hand(CLAIMS, "0 kong 5p added")),
    "no_replacement_tile": t(no_replacement_tile),
    "kong_empty_wall": t(kong_on_the_last_tile),
    # R5 报听
    "declare_not_followed_by_discard": t(lambda: hand(DECLARED, "0 declare\n0 kong 1m concealed")),
    "declare_not_ready": t(lambda: hand(DECLARED, "0 declare\n0 discard 1m")),
    "declare_not_in_profile": t(lambda: hand(DECLARED, "0 declare\n0 discard 9s", profile="senyan")),
    "declare_twice": t(lambda: hand(DECLARED, SOFT_EVENTS + "\n1 draw 8s\n1 declare")),
    "declare_after_discard": t(lambda: hand(HANDS, ROUND + "0 draw 5p\n0 declare")),
    "declare_too_late": t(lambda: hand([MUST_WIN, QUIET, THREE, SHOOTER], HOT + "2 kong 3s exposed\n2 draw 1m\n2 declare",
                                       dealer=3)),
    "declared_must_discard_draw": t(lambda: hand(DECLARED, "0 declare\n0 discard 9s\n" + quiet_round(1, ["7s", "2m", "5m"])
                                                 + "\n0 draw 3m\n0 discard 1m")),
    "pong_when_declared": t(lambda: hand([DECLARED[0], "234s 456s 678m 23p 99p", INERT[1], INERT[2]],
                                         "0 discard 9s\n1 draw 1m\n1 declare\n1 discard 1m\n2 draw 9p\n2 discard 9p\n"
                                         "1 pong 9p")),
    "kong_when_declared": t(declared_kong),
    # R6, R7, R8.2, R9
    "win_kind_mismatch": t(lambda: hand(HANDS, ROUND + "0 draw 5p\n0 win 5p discard", flip="7p")),
    "self_draw_tile_not_held": t(lambda: hand(HANDS, "0 win 1s")),
    "win_wrong_tile": t(lambda: hand(HANDS, ROUND + "0 draw 5p\n0 win 2p", flip="7p")),
    "rob_not_added_kong": t(lambda: hand(["7777m 123p 456p 78s 99s", *HANDS[1:]], "0 kong 7m concealed\n1 win 7m rob")),
    "ping_hu_without_pass": t(lambda: hand(HANDS, "0 discard 9s\n1 draw 4s\n1 discard 4s\n2 draw 9m\n2 discard 9m\n"
                                              "3 draw 7s\n3 discard 5p\n0 win 5p")),
    "must_win_hot_shot": t(lambda: after_hot_shot(PAIR, "2 pong 3s").to_json()["findings"]),
    "must_win_rob": t(lambda: hand(ROB_HANDS, ROB_PLAY + "1 draw 6m", profile="cuocuo")),
    # R10, R13
    "win_twice": t(lambda: doc(lambda d: d["events"].append(dict(d["events"][-1])), HOT_SHOT)),
    "record_stops_before_draw": t(lambda: hand(HANDS, ROUND)),
    "record_stops_before_replacement": t(lambda: hand(["7777m 123p 456p 78s 99s", *HANDS[1:]], "0 kong 7m concealed")),
    "record_stops_before_move": t(lambda: hand(HANDS, "")),
    "win_passed_tile": t(lambda: doc(lambda d: d["events"].insert(3, {"type": "pass", "seat": 1}), HOT_SHOT)),
    "win_pass_locked": t(lambda: hand(PASS_HANDS, "0 discard 2m\n1 draw 2m\n1 discard 2m\n2 win 2m")),
    "win_pass_locked_not_higher": t(lambda: hand(PASS_HANDS, "0 discard 2m\n1 draw 4p\n1 declare\n1 discard 9p\n2 win 9p",
                                                 profile="cuocuo")),
    "pong_locked": t(lambda: hand(PASS_HANDS, "0 discard 2m\n1 draw 2m\n1 discard 2m\n2 pong 2m", profile="cuocuo")),
    # matches
    "match_players_changed": t(lambda: match_findings(lambda b: (b.update(dealer_streak=1),
                                                                 b["seats"][2].update(name="someone else")))),
    "match_wrong_dealer": t(lambda: findings(audit_document(load("samples/illegal-match-dealer.json")))),
    "match_wrong_streak": t(lambda: match_findings(lambda b: None)),
    # R15, R16.16, R16.18
    "scores_sum_not_zero": t(lambda: doc(lambda d: d["result"]["scores"].__setitem__(0, d["result"]["scores"][0] + 1))),
    "seat_net_differs": t(lambda: doc(lambda d: d["result"].update(scores=[-6, 3, 5, -2]), HOT_SHOT)),
    "net_hot_shot_burn_not_applied": t(lambda: explained("spec/reference/ref-guizhou-90210-0001.json",
                                                         "net_hot_shot_burn_not_applied")),
    "net_rob_burn_not_applied": t(lambda: explained("spec/reference/ref-weile-90210-0001.json", "net_rob_burn_not_applied")),
    "net_rob_billed_to_all": t(lambda: explained("spec/reference/ref-guizhou-90210-0005.json", "net_rob_billed_to_all")),
    "net_dealer_bonus_missing": t(lambda: explained("spec/examples/hot-shot-cuocuo.json", "net_dealer_bonus_missing")),
    "net_hot_shot_transfer_missing": t(lambda: explained("spec/examples/hot-shot-cuocuo.json",
                                                         "net_hot_shot_transfer_missing")),
    "net_responsibility_missing": t(lambda: explained("spec/examples/responsibility-chicken.json",
                                                      "net_responsibility_missing")),
    "net_dou_to_unready": t(lambda: explained("spec/reference/ref-cuocuo-90210-0002.json", "net_dou_to_unready")),
    "net_chickens_to_unready": t(lambda: explained("spec/examples/charge-chicken-gold.json", "net_chickens_to_unready")),
    "net_dou_missing": t(lambda: explained("spec/reference/ref-cuocuo-90210-0002.json", "net_dou_missing")),
    "net_chickens_missing": t(lambda: explained("spec/examples/charge-chicken-gold.json", "net_chickens_missing")),
    **{code: t(partial(planted, "spec/examples/cha-jiao-declared.json", code))
       for code in ("net_item_missing", "net_item_doubled", "net_item_reversed", "net_item_wrong_payer",
                    "net_item_wrong_payee", "net_item_amount", "net_item_count", "net_either")},
    "net_item_parameter": t(partial(planted, "spec/examples/charge-chicken-gold.json", "net_item_parameter")),
    "net_item_not_owed": t(partial(planted, "samples/clean-r17-10-one-charge.json", "net_item_not_owed")),
    "net_item_model": t(burn_forgotten),
    "net_many_readings": lambda tmp_path, monkeypatch: too_many_readings(monkeypatch),
    "net_not_explained": t(lambda: doc(lambda d: d["result"].update(scores=[-25, 3, 5, 17]), HOT_SHOT)),
    "burn_not_applied": t(lambda: extra_item(load(HOT_SHOT), "chicken", 3, 0, 1)),
    "robbed_kong_paid": t(lambda: extra_item(record(ROB_HANDS, ROB, profile="kuhu", flip="8s"), "dou", 0, 1, 3)),
    "voided_kong_paid": t(lambda: extra_item({**load(HOT_SHOT), "rules": {"profile": "senyan"}}, "dou", 1, 0, 2)),
    "item_amount_differs": t(lambda: findings(audit_document(load("samples/missettled-rob-paid-by-three.json")))),
    "rob_paid_by_others": t(lambda: extra_item(record(ROB_HANDS, ROB, flip="8s"), "hand", 0, 2, 2)),
    "item_not_owed": t(lambda: extra_item(load(HOT_SHOT), "hand", 2, 1, 1)),
    "item_waived": t(r17_waived),
    **{not_played_code(sec.rule): t(partial(without_items, house_sample(sec.rule))) for sec, _ in SECTIONS},
    "item_not_due": t(lambda: extra_item(load(HOT_SHOT), "dou", 3, 1, 3)),
    "next_dealer_not_winner": t(lambda: doc(lambda d: d["result"].update(next_dealer=3), HOT_SHOT)),
    "next_dealer_several_winners": t(lambda: doc(lambda d: d["result"].update(next_dealer=3),
                                                 "spec/reference/ref-weile-90210-0001.json")),
    "next_dealer_after_draw": t(lambda: doc(lambda d: d["result"].update(next_dealer=(d["result"]["next_dealer"] + 1) % 4),
                                            "spec/reference/ref-kuhu-90210-0004.json")),
    "flip_wrong": t(lambda: doc(lambda d: d["result"].update(flip="9s" if d["result"]["flip"] != "9s" else "8s"), HOT_SHOT)),
    "flip_not_turned": t(lambda: doc(lambda d: d["result"].update(flip="5s"), "spec/reference/ref-kuhu-90210-0004.json")),
    # schema
    "unknown_field": t(lambda: doc(lambda d: d.update(comment=1))),
    "from_not_allowed": t(lambda: doc(lambda d: d["events"][0].update({"from": 1}), HOT_SHOT)),
    "missing_field": t(lambda: doc(lambda d: d.pop("wall"))),
    "wrong_type": t(lambda: doc(lambda d: d.update(dealer="0"))),
    "not_a_tile": t(lambda: doc(lambda d: d["wall"].__setitem__(0, "0z"))),
    "not_one_of": t(lambda: doc(lambda d: d["events"][0].update(type="chow"))),
    "wrong_format": t(lambda: doc(lambda d: d.update(format="zhuoji/2"))),
    "not_positive": t(lambda: doc(lambda d: d.update(base=0))),
    "negative": t(lambda: doc(lambda d: d.update(dealer_streak=-1))),
    "int_out_of_range": t(lambda: doc(lambda d: d.update(base=2**63 - 1))),
    "die_out_of_range": t(lambda: doc(lambda d: d.update(dice=[3, 7]))),
    "dice_count": t(lambda: doc(lambda d: d.update(dice=[3]))),
    "no_hands": t(lambda: findings(audit_document({"format": "zhuoji-match/1", "hands": []}))),
    "game_id_length": t(lambda: doc(lambda d: d.update(game_id="")) + doc(lambda d: d.update(game_id="a" * 129))),
    "game_id_chars": t(lambda: doc(lambda d: d.update(game_id="a b"))),
    "not_iso": t(lambda: doc(lambda d: d.update(played_at="soon"))),
    "empty_string": t(lambda: doc(lambda d: d["rules"].update(profile=""))),
    "seat_out_of_range": t(lambda: doc(lambda d: d["events"][0].update(seat=4))),
    "deal_count": t(lambda: doc(lambda d: d["deal"].pop())),
    "scores_count": t(lambda: doc(lambda d: d["result"]["scores"].pop())),
    "seat_count": t(lambda: doc(lambda d: d["seats"].append({"name": "E"}))),
    "profile_seat_count": t(lambda: doc(lambda d: d["rules"].update(profile="weile"),
                                        "spec/reference/ref-guizhou-90210-0003.json")),
    "hand_size": t(lambda: doc(lambda d: d["wall"].append(d["deal"][1].pop()))),
    "tile_counts": t(lambda: doc(lambda d: d["wall"].__setitem__(0, "5m" if d["wall"][0] != "5m" else "6m"))),
    "internal_validator_error": lambda tmp_path, monkeypatch: (
        monkeypatch.setattr(audit.schema, "_record_problems", lambda doc: 1 / 0), doc(lambda d: None))[1],
    "unexpected_schema_message": lambda tmp_path, monkeypatch: (
        monkeypatch.setattr(audit.schema_marshmallow, "_MARSHMALLOW", {}), doc(lambda d: d.update(comment=1)))[1],
    # profiles and options
    "unknown_profile": t(lambda: doc(lambda d: d["rules"].update(profile="nosuch"))),
    "unknown_profile_name": t(lambda: doc(lambda d: d["rules"].update(profile="bad name!"))),
    # Only a document that skipped the schema can get here (`rules.options` must be an object):
    # the engine still refuses it with a finding rather than a traceback.
    "options_not_object": t(lambda: audit_hand(variant(load(HOT_SHOT), rules={"profile": "weile", "options": [1]}),
                                               schema_checked=True).to_json()["findings"]),
    "variant_not_supported": t(lambda: options({"bao_pai": True})),
    "jian_dou_san_not_supported": t(lambda: options({"jian_dou_san": True})),
    "wugu_ji_without_values": t(lambda: options({"wugu_ji": True})),
    "wugu_ji_bad_value": t(lambda: options({"wugu_ji": 5})),
    "flip_bad_value": t(lambda: options({"flip": "z"})),
    "empty_option_name": t(lambda: options({"": 1})),
    "option_not_table": t(lambda: options({"chicken.charge.x": 1})),
    "unknown_parameter": t(lambda: options({"nope": 1})),
    "missing_parameter": t(lambda: profile_error(lambda: build(type(resolve("weile", None).chicken), {}))),
    "parameter_not_integer": t(lambda: options({"chicken.charge": "x"})),
    "parameter_negative": t(lambda: options({"chicken.charge": -1})),
    "parameter_not_one_of": t(lambda: options({"pass_lock_until": "never"})),
    "parameter_not_list": t(lambda: options({"players": 4})),
    "parameter_not_bool": t(lambda: options({"jian_dou_san": 3}, "cuocuo")),
    "parameter_not_string": t(lambda: options({"name": 3})),
    "parameter_not_int_table": t(lambda: options({"hand_values": 3})),
    "parameter_not_table": t(lambda: options({"chicken": 3})),
    "profile_without_ping_hu": t(lambda: options({"hand_values.ping_hu": None})),
    "profile_bad_players": t(lambda: options({"players": []})),
    "parameter_out_of_range": t(lambda: options({"hot_shot.bonus": 2**63})),
    "kill_without_declared": t(lambda: options({"kill_declared": {"value": 10, "mode": "add"}}, "senyan")),
    "charge_below_normal": t(lambda: options({"chicken.charge": 0})),
    "parameter_needs": t(lambda: options({"dou_unready": "reverse"}, "kuhu")),
    "profile_not_toml": lambda tmp_path, monkeypatch: tmp_profile(tmp_path, monkeypatch, "broken", "name = "),
    "profile_misnamed": lambda tmp_path, monkeypatch: tmp_profile(tmp_path, monkeypatch, "other", WEILE_TOML),
    "players_not_in_profile": t(lambda: profile_error(lambda: next(simulate("weile", {}, 1, 0, players=3)))),
    # R16.9 unreadable input: rows of `python -m batch`
    "not_json": lambda tmp_path, monkeypatch: batch_findings(tmp_path, "broken.jsonl", b'{"game_id": \n'),
    "not_utf8": lambda tmp_path, monkeypatch: batch_findings(tmp_path, "latin1.jsonl", b'{"x": "\xe9"}\n'),
    "json_refused": lambda tmp_path, monkeypatch: batch_findings(tmp_path, "twice.jsonl", b'{"x": 1, "x": 2}\n'),
    "unreadable_input": lambda tmp_path, monkeypatch: batch_findings(tmp_path, "junk.zip", b"PK not a zip"),
}
"""Every finding code of the catalogue and a case that emits it."""

# R18 (issue 21): kept as a block of its own.
FINDING_TRIGGERS |= {
    "house_rule_needs": t(lambda: options({"hot_shot.burn_liabilities": "void"}, "senyan")),
    "house_rule_needs_section": t(lambda: options({"dealer_bonus.on": "dealer_wins"})),
}


def batch_findings(tmp_path: Path, name: str, data: bytes) -> Findings:
    """The findings of the batch's rows for a file holding `data`."""
    from batch.inputs import plan
    from batch.rows import Settings, audits

    (tmp_path / name).write_bytes(data)
    return [f for part in plan([str(tmp_path / name)]).partitions
            for item in audits(part.read(), Settings()) for f in item.audit["findings"]]


def walk_notes(notes: list[Json]) -> Iterator[Json]:
    """Each note and, recursively, its parts."""
    for n in notes:
        yield n
        yield from walk_notes(n["params"].get("parts", []))


def items(audits: Json | list[Json]) -> list[Json]:
    return [i for a in (audits if isinstance(audits, list) else [audits]) if a["settlement"]
            for i in a["settlement"]["items"]]


def sample(name: str) -> Callable[[], list[Json]]:
    return lambda: items(audit_document(load(f"samples/{name}.json")))


NOTE_TRIGGERS: dict[str, Callable[[], list[Json]]] = {
    "win_value": sample("clean-cuocuo-hot-shot-transfer"),
    "win_value_jds": lambda: items(audit_document(jds_hands()[33])),
    "cha_jiao": sample("clean-weile-cha-jiao"),
    "declared_bonus": sample("clean-kuhu-triple"),
    "declared_floor": lambda: items(audit_document(jds_hands()[33])),
    "kill_declared": sample("clean-kuhu-triple"),
    "self_draw_bonus": sample("clean-weile-charge-gold"),
    "kong_flower_bonus": lambda: items(audit_document(load("spec/reference/ref-cuocuo-90210-0003.json"))),
    "hot_shot_bonus": sample("clean-weile-double-hot-shot"),
    "rob_shares": sample("clean-weile-rob-double"),
    "dealer_bonus": sample("clean-cuocuo-hot-shot-transfer"),
    "dealer_bonus_rob": lambda: items(audit_hand(record(ROB_HANDS, ROB, profile="cuocuo", flip="8s")).to_json()),
    "dealer_bonus_draw": lambda: items(audit_document(load("spec/reference/ref-cuocuo-90210-0004.json"))),
    "hot_shot_transfer": sample("clean-cuocuo-hot-shot-transfer"),
    "dou": sample("clean-guizhou-3p"),
    "chicken_credit": sample("clean-cuocuo-hot-shot-transfer"),
    "chicken_owed": sample("clean-cuocuo-long"),
    "chicken_tally": lambda: [{"code": c.code, "params": c.params}
                              for c in trace_record(load("samples/clean-weile-hot-shot.json")).chickens],
    "chicken_count": sample("clean-cuocuo-hot-shot-transfer"),
    "chicken_count_gold": sample("clean-weile-charge-gold"),
    "charge_chicken": sample("clean-kuhu-triple"),
    "charge_chicken_gold": lambda: items(audit_document(load("spec/reference/ref-cuocuo-90210-0002.json"))),
    "exposed_chickens": sample("clean-cuocuo-long"),
    "flip_chicken": sample("clean-cuocuo-hot-shot-transfer"),
    "responsibility_chicken": sample("clean-guizhou-3p"),
    "responsibility_chicken_reverse": lambda: items(audit_document(jds_hands()[15])),
    "charge_extra": lambda: r17(r17_hands.HANDS, r17_hands.CHARGE, {"chicken.qualified_pay_each_other": False}),
    "charge_extra_gold": lambda: r17(r17_hands.GOLD_HANDS, r17_hands.GOLD,
                                     {**r17_hands.WUGU, "chicken.wugu_gold": True}, "7p"),
    "claimed_charge_extra": lambda: r17(r17_hands.HANDS, r17_hands.claimed("9p"),
                                        {"chicken.claimed_charge": "to_claimer"}),
    "shared_discards": lambda: r17(r17_hands.BAOJI_HANDS, r17_hands.BAOJI,
                                   {"chicken.exposed_payers": "all_unready"}, "5s"),
    "dou_reversed": lambda: r17(r17_hands.KONG_HANDS, r17_hands.KONG, {"dou_unready": "reverse"}),
    "follow_dealer": lambda: r17(r17_hands.FOLLOW_HANDS, r17_hands.FOLLOW, {"follow_dealer": 1}),
}
"""Every note code (notes and their parts) and a settlement that uses it."""

# R18 (issue 21): kept as a block of its own.
NOTE_TRIGGERS |= {
    "dou_konger_pays": lambda: r17(r18_hands.EXPOSED_HANDS, r18_hands.EXPOSED, r18_hands.KONGER),
    "dou_was_ready": lambda: r17(r18_hands.BROKEN_HANDS, r18_hands.BROKEN, r18_hands.EVER),
    "dou_reversed_ever": lambda: r17(r18_hands.PAYEE_HANDS, r18_hands.PAYEE,
                                     {**r18_hands.EVER, "dou_unready": "reverse"}),
    "responsibility_to_burned": lambda: r17(*r18_hands.BURNED_CLAIMER, r18_hands.VOID),
    "konged_charge_extra": lambda: r17(r18_hands.KONGED_HANDS, r18_hands.KONGED, r18_hands.KEEPS),
}

# R19: kept as a block of its own.
NOTE_TRIGGERS |= {
    "hot_shot_multiplier": lambda: items(audit_document(
        {**load("spec/examples/hot-shot-weile.json"), "rules": {"profile": "weile",
                                                                "options": {"hot_shot.multiplier": 2}}})),
    "rob_multiple": lambda: r17(ROB_HANDS, ROB_PLAY + "2 win 5s rob", {"rob_kong_multiple": 4}, "8s"),
    "claimed_charge_kept": lambda: r17(r17_hands.HANDS, r17_hands.claimed("4m"), r19_hands.READY_CLAIMER),
    "won_charge_extra": lambda: r17(*r19_hands.FIRST_WON, r19_hands.BOTH),
    "won_discard": lambda: r17(*r19_hands.SECOND_WON, r19_hands.BOTH),
}


# ---------------------------------------------------------------- (b) every entry is emitted

def test_every_finding_code_has_a_trigger() -> None:
    assert set(FINDING_TRIGGERS) == set(CATALOGUE.findings)


def test_every_note_code_has_a_trigger() -> None:
    assert set(NOTE_TRIGGERS) == set(CATALOGUE.notes)


@pytest.mark.parametrize("code", sorted(FINDING_TRIGGERS))
def test_finding_code_is_emitted(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = CATALOGUE.findings[code]
    found = [f for f in FINDING_TRIGGERS[code](tmp_path, monkeypatch) if f["code"] == code]
    assert found, f"{code} not emitted"
    for f in found:
        assert f["rule"] in entry.rules if entry.rules else f["rule"] is None
        assert all(render_finding(f, lang) for lang in LANGS)


@pytest.mark.parametrize("code", sorted(NOTE_TRIGGERS))
def test_note_code_is_emitted(code: str) -> None:
    found = [n for n in walk_notes(NOTE_TRIGGERS[code]()) if n["code"] == code]
    assert found, f"{code} not used"
    # a note renders in every language (a seat without chickens has an empty chicken_tally)
    assert all(render_note(n, lang) or n["params"].get("parts") == [] for n in found for lang in LANGS)


# ---------------------------------------------------------------- (a) every code emitted is in the catalogue

def corpus() -> Iterator[tuple[str, object]]:
    """Samples, worked examples, reference games, mutants of the clean samples, schema-fuzzed documents."""
    for p in sorted(SAMPLES.glob("*.json")):
        if not p.name.endswith(".audit.json") and p.name != "manifest.json":
            yield p.name, json.loads(p.read_text(encoding="utf-8"))
    for p in sorted((SPEC / "examples").glob("*.json")) + sorted((SPEC / "reference").glob("*.json")):
        if not p.name.endswith(".audit.json"):
            yield p.name, json.loads(p.read_text(encoding="utf-8"))
    for p in sorted(SAMPLES.glob("clean-*.json")):
        if not p.name.endswith(".audit.json"):
            for m in mutants(itemised(json.loads(p.read_text(encoding="utf-8")))):
                yield f"{p.name}/{m.mutation}", m.record
    for i, d in enumerate(random_mutants(300, seed=909)):
        yield f"fuzz {i}", d


def players(d: Any, i: int) -> tuple[str, ...]:
    """The names the audit of hand `i` of `d` (a record, or a match) speaks of its seats with."""
    hands = d.get("hands") if isinstance(d, dict) else None
    if isinstance(hands, list):
        return catalogue.seat_names(hands[i]) if i < len(hands) else ()
    return catalogue.seat_names(d)


def check_finding(f: Json, names: tuple[str, ...] = ()) -> None:
    entry = CATALOGUE.findings[f["code"]]  # KeyError: a code the catalogue lacks
    assert f["kind"] == entry.kind and (f["rule"] in entry.rules if entry.rules else f["rule"] is None), f
    assert set(f["params"]) == set(entry.params), f
    json.dumps(f["params"])
    assert render_finding(f, Lang.EN, names) == f["message"]
    assert render_finding(f, Lang.ZH, names)


def check_note(item: Json, names: tuple[str, ...] = ()) -> None:
    entry = CATALOGUE.notes[item["code"]]
    assert entry.kind == "note" and item["kind"] in entry.items and item["rule"] in entry.rules, item
    assert render_note(item, Lang.EN, names) == item["note"]
    for part in walk_notes(item["params"].get("parts", [])):
        assert CATALOGUE.notes[part["code"]].kind == "part"
    assert render_note(item, Lang.ZH)


def test_every_emitted_code_renders_in_every_language() -> None:
    seen: set[str] = set()
    for name, d in corpus():
        for i, a in enumerate(audit_document(d)):
            names = players(d, i)
            for f in a["findings"]:
                check_finding(f, names)
                seen.add(f["code"])
            for item in (a["settlement"] or {}).get("items", []):
                check_note(item, names)
    assert len(seen) > 40  # the corpus is broad: illegal, missettled and schema codes


# ---------------------------------------------------------------- (c) languages and placeholders

def broken_catalogue(tmp_path: Path, file: str, old: str, new: str) -> Path:
    for name in ("forms.toml", "findings.toml", "notes.toml"):
        shutil.copy(catalogue.DATA_DIR / name, tmp_path / name)
    path = tmp_path / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("file", "old", "new"), [
    ("findings.toml", 'zh = "{seat}碰{tile}，但手里没有一对{tile}"\n', ""),                       # a language missing
    ("findings.toml", 'zh = "{seat}碰{tile}，但手里没有一对{tile}"', 'zh = "{seat}碰牌"'),          # fewer placeholders
    ("findings.toml", 'zh = "{seat}碰{tile}，但手里没有一对{tile}"', 'zh = "{seat}碰{tiles}"'),     # an undeclared one
    ("findings.toml", 'params = { seat = "seat", tile = "tile" }', 'params = { seat = "seat", tile = "tyle" }'),
    ("notes.toml", 'zh = "{kong}{tile}"', 'zh = "{kong:short}{tile}"'),                           # an unknown form
    ("forms.toml", 'rob = "抢杠"\n\n[item_kind.en]', '\n[item_kind.en]'),                         # a form missing in zh
])
def test_a_broken_catalogue_is_refused(tmp_path: Path, file: str, old: str, new: str) -> None:
    with pytest.raises(CatalogueError):
        catalogue.load(broken_catalogue(tmp_path, file, old, new))


def test_the_catalogue_loads_and_every_entry_has_both_languages() -> None:
    cat = catalogue.load()
    for entry in [*cat.findings.values(), *cat.notes.values()]:
        assert set(entry.texts) == {lang.value for lang in LANGS}
        assert all(entry.texts.values())


def test_unknown_code_or_params_raise() -> None:
    with pytest.raises(CatalogueError):
        render_finding({"code": "no_such_code", "params": {}, "rule": None})
    with pytest.raises(CatalogueError):
        render_finding({"code": "pong_without_pair", "params": {"seat": 1}, "rule": "R4.1"})
    with pytest.raises(CatalogueError):
        render_note({"code": "dou", "params": {"kong": "pong?", "tile": "5m"}})


# ---------------------------------------------------------------- rendering

def test_zh_messages_use_the_players_terms_and_the_rules_chinese_name() -> None:
    f = {"code": "pong_without_pair", "params": {"seat": 2, "tile": "5m"}, "rule": "R4.1"}
    assert render_finding(f, "zh") == "【碰与杠（豆） R4.1】2号位碰五万，但手里没有一对五万"
    assert render_finding(f, "en") == "seat 2 pongs 5m without a pair of it"
    rob = {"code": "win_kind_mismatch", "params": {"marked": "rob", "kind": "discard"}, "rule": "R9.1"}
    assert "抢杠" in render_finding(rob, "zh") and "点炮" in render_finding(rob, "zh")


def test_a_stored_english_audit_renders_in_chinese() -> None:
    d = load("samples/missettled-burn-not-applied.json")
    en, zh = audit_document(d)[0], audit_document(d, lang="zh")[0]
    names = catalogue.seat_names(d)
    assert catalogue.rerender(en, Lang.ZH, names) == zh
    assert [f["message"] for f in zh["findings"]] == [render_finding(f, "zh", names) for f in en["findings"]]
    assert [i["note"] for i in zh["settlement"]["items"]] == \
        [render_note(i, "zh", names) for i in en["settlement"]["items"]]
    assert {k: v for k, v in zh.items() if k not in ("findings", "settlement")} == \
        {k: v for k, v in en.items() if k not in ("findings", "settlement")}


def test_finding_json_keys_in_contract_order() -> None:
    f = findings(audit_document(load("samples/illegal-discard-not-held.json")))[0]
    assert list(f) == ["step", "seat", "rule", "kind", "code", "params", "message", "expected", "actual"]


# ---------------------------------------------------------------- (d) the document

def test_findings_document_is_up_to_date() -> None:
    """Regenerate with `python -m audit.catalogue > docs/findings.md`."""
    assert (ROOT / "docs" / "findings.md").read_text(encoding="utf-8") == catalogue.document()


# ---------------------------------------------------------------- (e) players, not seat numbers (issue 20, point 4)

def test_every_seat_a_message_names_reads_with_its_player() -> None:
    """A seat in a message is its number and the record's player (`2号位 小红`), in both languages."""
    checked = 0
    for name, d in corpus():
        for i, a in enumerate(audit_document(d)):
            names = players(d, i)
            for f in a["findings"]:
                seats = [v for k, tp in CATALOGUE.findings[f["code"]].params.items()
                         if tp == "seat" and isinstance(v := f["params"].get(k), int) and 0 <= v < len(names)]
                for seat in seats:
                    if names[seat]:
                        checked += 1
                        assert catalogue.seat_label(seat, Lang.EN, names) in f["message"], (name, f["code"])
                        assert catalogue.seat_label(seat, Lang.ZH, names) in render_finding(f, Lang.ZH, names)
    assert checked > 100


def test_a_seat_label_is_the_number_and_the_name_and_the_number_alone_without_one() -> None:
    names = ("阿明", "", "Bo")
    assert catalogue.seat_label(0, Lang.ZH, names) == "0号位 阿明"
    assert catalogue.seat_label(2, Lang.EN, names) == "seat 2 (Bo)"
    assert catalogue.seat_label(1, Lang.ZH, names) == "1号位" and catalogue.seat_label(3, Lang.EN, names) == "seat 3"


def test_a_match_finding_speaks_of_the_hand_by_its_place() -> None:
    """`第2局`, not `hands[1]`, in Chinese; the JSON path stays exact where a path is the point."""
    doc = load("samples/illegal-match-dealer.json")
    audits = audit_document(doc, lang="zh")
    (f,) = [f for a in audits for f in a["findings"] if f["code"] == "match_wrong_dealer"]
    assert "第" in f["message"] and "局" in f["message"] and "hands[" not in f["message"]
    hand = f["params"]["hand"]
    assert catalogue.hand_label(hand, Lang.ZH) in f["message"] and catalogue.hand_label(hand - 1, Lang.ZH) in f["message"]
    bad = copy.deepcopy(doc)
    bad["hands"][1]["events"][0]["tile"] = "10p"
    schema = next(f for a in audit_document(bad, lang="zh") for f in a["findings"] if f["kind"] == "schema")
    assert "第2局 hands[1]." in schema["message"]
