"""fit.search beyond single values (issue 36.1, docs/fit.md "How it searches"): values that only
together make records clean, a value taken early undone, numbers the base leaves absent solved from
the scores, a value hidden behind another cause, and the explanation of every value taken.

The platforms are simulated as in test_search.py; where a way of the search is to be shown alone, the
records are those that only that way explains (chosen by auditing each under the platform's values
and under every proper part of them).
"""
from __future__ import annotations

import itertools
import json
import tomllib
from typing import Any

from audit.api import audit_document
from audit.profiles import load_profile
from bench.bench_fit import JOINT, platform
from fit.answers import Case
from fit.search import How, _Search, fit
from tests.fit.test_search import _platform, _records


def _clean(doc: dict[str, Any], options: dict[str, Any]) -> bool:
    rules = {"profile": "weile", **({"options": options} if options else {})}
    return bool(audit_document({**doc, "rules": rules}, items=False)[0]["verdict"] == "clean")


def test_absent_numbers_are_solved_from_the_scores() -> None:
    """跟庄 4 (no bundled profile plays it) and 单吊 17 (weile values no 单吊; senyan 30): neither is a
    value any enumeration names; each is solved from two values tried for it."""
    played = {"follow_dealer": 4, "hand_values.dan_diao": 17}
    result = fit(_records(_platform("weile", played, 120, 51)), "weile")
    assert result.options == played and result.clean_after == result.usable
    assert {s.parameter for s in result.steps} == set(played)


TRIPLE = {"chicken.normal": 2, "chicken.charge": 4, "chicken.flip": 2}


def test_three_values_only_together() -> None:
    """Records that no proper part of three chicken values makes clean: the joint search, built on
    them, finds the three as one step, and the fit ends with all three."""
    docs = [d for d in _platform("weile", TRIPLE, 90, 52)
            if not any(_clean(d, dict(part)) for k in range(3) for part in itertools.combinations(TRIPLE.items(), k))]
    assert len(docs) >= 4
    search = _Search([Case(d, index=i) for i, d in enumerate(docs)], load_profile("weile"), 1)
    search.start()
    search.choose(exact=True)
    joint = search.choose_joint()
    assert joint is not None and joint.trial.options == TRIPLE and len(joint.trial.together) == 2
    assert search.tally(joint).fixes == len(docs) and search.tally(joint).breaks == 0
    result = fit(_records(docs), "weile")
    assert result.options == TRIPLE and result.clean_after == len(docs)


def test_a_value_taken_early_is_undone() -> None:
    """kill_declared.value 0 taken first (it fixes the big hands won on a declared seat's discard,
    where `floor` 10 and `add` 0 agree) leaves the small ones wrong; `mode` floor alone changes
    nothing then and the value back at 10 alone spoils the big ones: the backward pass takes the two
    together, fixing every record left and spoiling none (a single value gains less)."""
    docs = _platform("weile", {"kill_declared.mode": "floor"}, 400, 53)
    search = _Search([Case(d, index=i) for i, d in enumerate(docs)], load_profile("weile"), 1)
    search.start()
    early = next(o for o in search.options if o.trial.parameter == "kill_declared.value" and o.trial.value == 0)
    search._complete([early])
    assert search.tally(early).fixes > 0 and search.tally(early).breaks == 0
    search.take(early)
    left = sum(1 for c in search.cases if not c.clean)
    single = search.choose(exact=True)
    back = search.choose_back(["kill_declared.value"])
    assert back is not None and back.trial.options == {"kill_declared.value": 10, "kill_declared.mode": "floor"}
    assert search.tally(back).fixes == left and search.tally(back).breaks == 0
    assert single is None or search.tally(single).gain < left


HIDDEN = {"chicken.charge": 4}


def test_a_value_hidden_behind_another_cause() -> None:
    """Every record the platform's 冲锋鸡 value settles otherwise also names a wrong next dealer (a
    mistake no value explains): the value fixes no record alone, but leaves fewer parts of each wrong
    and spoils none; it is taken for those, and the records stay listed."""
    docs = []
    for doc in _platform("weile", HIDDEN, 60, 54):
        if not _clean(doc, {}):
            doc = {**doc, "result": {**doc["result"], "next_dealer": (doc["result"]["next_dealer"] + 1) % 4}}
        docs.append(doc)
    wrong = {f"hand {i}" for i, d in enumerate(docs) if not _clean(d, HIDDEN)}
    assert len(wrong) >= 3
    result = fit(_records(docs), "weile")
    step = next(s for s in result.steps if s.parameter == "chicken.charge")
    assert step.how is How.PARTIAL and step.value == 4 and step.tally.partial >= 3 and step.tally.breaks == 0
    assert result.options == HIDDEN
    assert {u.record.source for u in result.unexplained} == wrong


def test_every_value_taken_is_explained() -> None:
    """R18.3 ever needs dou_requires_ready, which kuhu leaves false: both are taken in one step, and the
    report, the JSON and the profile file's `# fitted` comments say so for each, with the records that
    decided it."""
    played = {"dou_requires_ready": True, "dou_ready_test": "ever"}
    result = fit(_records(_platform("kuhu", played, 100, 55)), "kuhu", name="club")
    assert result.options == played
    step = next(s for s in result.steps if set(s.options) == set(played))
    named = {step.parameter, *(p for p, _ in step.together)}
    assert named == set(played)
    assert step.decided_by and set(step.decided_by) <= {f"hand {i}" for i in range(100)}
    doc = json.loads(json.dumps(result.to_json()))
    row = next(s for s in doc["steps"] if s["parameter"] == step.parameter)
    assert {t["parameter"] for t in row["together"]} | {row["parameter"]} == set(played)
    assert row["how"] == step.how.value and row["decided_by"] == list(step.decided_by) and "partial" in row
    text = result.profile_text()
    assert tomllib.loads(text)["dou_ready_test"] == "ever"
    comments = {line.split(" = ")[0]: prev for prev, line in itertools.pairwise(text.split("\n"))
                if prev.startswith("# ") and " = " in line}
    for key in played:
        note = comments[key]
        assert all(f"{p} = " in note for p in played) and step.decided_by[0] in note, (key, note)


def test_the_bench_platforms_three_values_only_jointly() -> None:
    """A small version of the benchmark's planted platform (bench/bench_fit.py): a 热炮 multiplied by 3
    (R19.5), its kong paid over to the winner (R8.3) and a burned shooter's own chickens void (R19.4),
    on a platform whose hot shots need all three (`needs_all`). No value alone and no pair makes a
    record clean, so the first step is the joint search's, and it takes the three as one step."""
    docs = list(platform(120, 8, dict(JOINT)))
    planted = {f"hand {i}" for i, d in enumerate(docs) if d.pop("planted", None)}  # the bench's mark, not a field
    touched = [d for d in docs if not _clean(d, {})]
    mimic = {"hot_shot.bonus": 2, "hot_shot.transfer_kong": True, "hot_shot.burn_liabilities": "void_all"}
    assert len(touched) >= 6 and any(_clean(d, JOINT) and not _clean(d, mimic) for d in touched), \
        "the records must tell the multiplier 3 from a bonus of 2 (平胡 x 3 = 1 + 2)"
    result = fit(_records(docs), "weile")
    assert result.options == JOINT
    first, *rest = result.steps
    assert first.how is How.JOINT and first.options == JOINT and not rest
    assert first.tally.fixes == sum(1 for d in touched if _clean(d, JOINT)) and first.tally.breaks == 0
    assert planted and {u.record.source for u in result.unexplained} == planted
