"""Benchmark: the fit of a platform's own profile (issue 21.4, 36.1, docs/fit.md) on 10,000 hands.

Two simulated platforms, each weile with conventions of its own, their records saying only
`rules.profile: weile`; one hand in `MISTAKE_EVERY` is replaced by a one-fault mutant
(`sim.mutate`), the platform's real mistakes:

- `--platform six` (issue 21.4, `PLAYED["six"]`): a number no enumeration names, two R17 house
  rules, and a 热炮 paid without its bonus but with the kong transfer, which only a pair explains;
- `--platform planted` (issue 36.1, the default, `PLAYED["planted"]`): a convention of three values
  that only together settle a hand (`JOINT`: a 热炮 multiplied by 3, R19.5, its kong paid over to the
  winner, R8.3 `transfer_kong`, and a burned shooter's own chickens void, R19.4 `void_all`), numbers
  outside every bundled profile (单吊 17 where weile values none, 跟庄 4 where no bundled profile plays
  it) and a value hidden behind another cause (`HIDDEN`: every hand it settles otherwise also names a
  wrong next dealer, a planted mistake, so no record is clean under it alone).

  The three are read by every hot shot (the win's value, the kong's transfer) and, where the shooter
  owes chickens, its liabilities; the platform's hot shots are those where the shooter does
  (`needs_all`: a hand that a proper part of the three already settles right is not among its
  records; the next simulated hand takes its place). So no value alone and no pair of them makes any
  record clean, and each of them alone or in pairs spoils as many records as it fixes (none): only
  the joint search (`fit.search._Search.choose_joint`) can take them, and the benchmark fails unless
  it takes them that way.

The fit runs once, from weile; the benchmark prints its time, what it found against what was
played and planted, every value taken and how (`fit.search.How`), and how much work the search
did (docs/fit.md, "How it searches").

Run: `.venv/bin/python bench/bench_fit.py [--platform planted|six] [--hands 10000] [--records FILE.jsonl]`. The records are
simulated into FILE the first time (a few minutes for 10,000) and read from it after, so the timing
is the fit's alone; `farm-bench -n 1 --timeout 3600 -- .venv/bin/python bench/bench_fit.py ...`
times the whole process from outside.
"""
from __future__ import annotations

import argparse
import itertools
import json
import resource
import sys
import time
from pathlib import Path
from collections.abc import Iterator
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit import native  # noqa: E402  (which modules are compiled: the engine's build, not its face)
from audit.api import audit_document, json_lines  # noqa: E402
from fit.search import Fit, How, Phase, Progress, Record, fit  # noqa: E402
from sim.mutate import mutants  # noqa: E402
from sim.simulate import simulate  # noqa: E402

HIDDEN: dict[str, Any] = {"rob_kong_burn": False}
"""The planted platform's value hidden behind another cause (the records it touches all also name a
wrong next dealer)."""

JOINT: dict[str, Any] = {"hot_shot.multiplier": 3, "hot_shot.transfer_kong": True,
                         "hot_shot.burn_liabilities": "void_all"}
"""The planted platform's three values that only together settle its hot shots (R19.5, R8.3, R19.4)."""

PLAYED: dict[str, dict[str, Any]] = {
    "six": {"chicken.charge": 4, "dou_unready": "reverse", "chicken.claimed_charge": "to_claimer",
            "hot_shot.bonus": 0, "hot_shot.transfer_kong": True, "kong_flower_bonus": 5},
    "planted": {**JOINT, "hand_values.dan_diao": 17, "follow_dealer": 4, **HIDDEN},
}
MISTAKE_EVERY = 200
MISTAKES = ("scores_not_zero", "wrong_next_dealer", "chicken_miscount", "responsibility_missing", "wrong_flip",
            "discard_not_held", "dou_not_ready")


def _clean(doc: dict[str, Any], options: dict[str, Any]) -> bool:
    rules = {"profile": "weile", **({"options": options} if options else {})}
    return bool(audit_document({**doc, "rules": rules}, items=False)[0]["verdict"] == "clean")


def needs_all(doc: dict[str, Any], played: dict[str, Any]) -> bool:
    """Whether the hand is one of the platform's: JOINT changes nothing in it, or only all of JOINT
    together settles it (no proper part of JOINT, with the rest of `played`, makes it clean)."""
    if not set(JOINT) <= set(played):
        return True
    rest = {k: v for k, v in played.items() if k not in JOINT}
    if _clean(doc, rest):
        return True
    parts = [dict(c) for n in range(1, len(JOINT)) for c in itertools.combinations(JOINT.items(), n)]
    return not any(_clean(doc, {**rest, **part}) for part in parts)


def _hidden(doc: dict[str, Any], played: dict[str, Any]) -> dict[str, Any] | None:
    """The hand with a wrong next dealer planted, where HIDDEN settles it otherwise (None elsewhere)."""
    if _clean(doc, {k: v for k, v in played.items() if k not in HIDDEN}):
        return None
    seats = len(doc["seats"])
    result = {**doc["result"], "next_dealer": (doc["result"]["next_dealer"] + 1) % seats}
    return {**doc, "result": result, "planted": "hidden"}


def as_platform(k: int, doc: dict[str, Any], played: dict[str, Any]) -> dict[str, Any]:
    """Hand `k` as the platform records it: its rules say weile only; one hand in MISTAKE_EVERY is
    a one-fault mutant (planted under the platform's own rules), marked `planted`; a hand HIDDEN
    settles otherwise gets a wrong next dealer, marked too."""
    if k % MISTAKE_EVERY == MISTAKE_EVERY // 2:
        cls = MISTAKES[(k // MISTAKE_EVERY) % len(MISTAKES)]
        found = [m for m in mutants(doc, seed=k) if m.mutation == cls]
        if found:
            doc = {**found[0].record, "planted": cls}  # not a zhuoji/1 field: removed before the fit
    elif set(HIDDEN) <= set(played) and (hidden := _hidden(doc, played)) is not None:
        doc = hidden
    return {**doc, "rules": {"profile": "weile"}}


def platform(hands: int, seed: int, played: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The platform's `hands` records: simulated hands that `needs_all` keeps, as the platform
    records them (`as_platform`)."""
    kept = 0
    for gen in simulate("weile", played, 4 * hands, seed):
        if kept == hands:
            return
        if needs_all(gen.record, played):
            yield as_platform(kept, gen.record, played)
            kept += 1
    raise RuntimeError(f"{hands} hands asked, {kept} kept of {4 * hands} simulated")


def make_records(path: Path, hands: int, seed: int, played: dict[str, Any]) -> None:
    """Simulate the platform's hands into `path`."""
    with path.open("w", encoding="utf-8") as out:
        for doc in platform(hands, seed, played):
            out.write(json.dumps(doc, ensure_ascii=False) + "\n")


def how_taken(result: Fit, parameter: str) -> str:
    """How the fit took a parameter's value (`How`), by the last step that set it ("-" if none)."""
    for step in reversed(result.steps):
        if parameter in step.options:
            return step.how.value
    return "-"


def progress_lines(seen: list[tuple[float, Progress]], pairs: int) -> list[str]:
    """What the fit told of its progress (`fit.search.Progress`): each phase's share of the fit's CPU
    time, and the search's estimate of the pairs it would weigh when it had weighed a quarter, half
    and three quarters of those it did."""
    if not seen:
        return []
    first: dict[Phase, float] = {}
    for cpu, prog in seen:
        first.setdefault(prog.phase, cpu)
    end = seen[-1][0]
    starts = sorted(first.items(), key=lambda kv: kv[1])
    shares = [f"{phase.value} {(nxt - at) / max(end - seen[0][0], 1e-9):.0%}"
              for (phase, at), (_, nxt) in zip(starts, [*starts[1:], (None, end)])]
    out = [f"progress: {len(seen)} reports; phases' share of the fit's CPU time: {', '.join(shares)}"]
    for q in (0.25, 0.5, 0.75):
        at = next((prog for _, prog in seen if prog.phase is Phase.SEARCHING and prog.values_weighed >= q * pairs), None)
        if at is not None:
            out.append(f"  at {at.values_weighed} pairs weighed ({q:.0%} of {pairs}): estimated {at.values_estimate}, "
                       f"fraction {at.fraction:.2f}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--platform", choices=sorted(PLAYED), default="planted")
    p.add_argument("--hands", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--records", type=Path, help="the platform's records (.jsonl); simulated there when the file "
                   "is missing (default build/bench-fit-PLATFORM-HANDS.jsonl; the six's build/bench-fit-10000.jsonl)")
    args = p.parse_args(argv)
    played = PLAYED[args.platform]
    if args.records is None:
        name = "bench-fit-10000" if args.platform == "six" else f"bench-fit-{args.platform}-{args.hands}"
        args.records = ROOT / "build" / f"{name}.jsonl"
    if not args.records.exists():
        args.records.parent.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        make_records(args.records, args.hands, args.seed, played)
        print(f"simulated {args.hands} hands into {args.records} in {time.perf_counter() - start:.0f} s")
    records, planted, hidden = [], set(), set()
    lines = json_lines(args.records.read_text(encoding="utf-8"))  # "\n" only, as every .jsonl reader
    for n, line in itertools.islice(lines, args.hands):
        doc = json.loads(line)
        if cls := doc.pop("planted", None):
            planted.add(f"line {n}")
            if cls == "hidden":
                hidden.add(f"line {n}")
        records.append(Record(f"line {n}", doc))
    engine = f"compiled ({len(native.compiled())} modules)" if native.compiled() else "plain Python"
    start, cpu = time.perf_counter(), time.process_time()
    seen: list[tuple[float, Progress]] = []
    result = fit(records, "weile", progress=lambda prog: seen.append((time.process_time(), prog)))
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    c = result.counts
    listed = {u.record.source for u in result.unexplained}
    print(f"engine: {engine}")
    print(f"records: {result.records}, clean under weile {result.clean_before}, under the fit {result.clean_after}")
    print(f"fit: {seconds:.1f} s wall, {cpu_seconds:.1f} s cpu, {result.records / seconds:.0f} records/s, "
          f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(f"options found {result.options}")
    for name, value in played.items():
        got = result.options.get(name, "(not changed)")
        print(f"  {name} = {json.dumps(value)}: {'recovered' if got == value else 'NOT recovered, ' + json.dumps(got)}"
              f" ({how_taken(result, name)})")
    print(f"options played {played}: {'found exactly' if result.options == played else 'NOT found exactly'}")
    print(f"mistakes planted {len(planted)} ({len(hidden)} behind the hidden value), listed {len(listed)}, "
          f"planted and listed {len(planted & listed)}, planted not listed {sorted(planted - listed)[:5]}, "
          f"listed but not planted {sorted(listed - planted)[:5]}")
    print("steps:")
    for s in result.steps:
        print(f"  {s.how.value}: {s.parameter}={json.dumps(s.value)}"
              + "".join(f" + {q}={json.dumps(v)}" for q, v in s.together)
              + f" (+{s.tally.gain}, in part {s.tally.partial}; decided by {', '.join(s.decided_by[:3]) or '-'})")
    print(f"search: {c.passes} passes, {c.pairs} (record, value) pairs, {c.skipped} skipped "
          f"({100 * c.skipped / max(c.pairs, 1):.0f}%: the record never read the parameter), {c.reused} reused, "
          f"{c.replays} replays ({c.replays / result.records:.1f} a record), "
          f"{c.settlements} settlements ({c.settlements / result.records:.1f} a record)")
    print("\n".join(progress_lines(seen, c.pairs)))
    joint = all(how_taken(result, name) == How.JOINT.value for name in JOINT) if set(JOINT) <= set(played) else True
    print(f"the three values of JOINT taken together by the joint search: {'yes' if joint else 'NO'}")
    return 0 if result.options == played and planted == listed and joint else 1


if __name__ == "__main__":
    sys.exit(main())
