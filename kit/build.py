"""`python -m kit build`: a kit of settlement and rejection cases that covers a profile.

Hands are simulated in small seeded chunks, each chunk with one of a few bot
presets (the default play, ready deals that make 一炮多响 and 杀报, kongs that
make 抢杠 and 热炮, sloppy play that makes 荒庄查叫), until every applicable
item of the coverage table has its count or the hand budget runs out. What
a hand exercises is read from the engine (`kit.coverage`); a hand is
kept first when it adds to an item still short, then plain hands fill the
kit to its size. Rejection cases are the mutation harness's one-illegal-move
records, each confirmed by auditing it: exactly one finding, the mutator's
rule at the mutator's step. Nothing reads a clock and only seeded generators
decide, so the same arguments give the same bytes.
"""
from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from audit.api import ENGINE_VERSION, Profile, audit_record, resolve
from audit.vocabulary import is_digits
from sim.bots import Knobs
from kit import KIT_FORMAT
from kit.coverage import Exercised, Requirement, requirements, settlement_case
from sim.mutate import ILLEGAL, Mutant, mutants
from sim.simulate import playable, result_json, simulate

PRESETS: tuple[tuple[str, Knobs], ...] = (
    ("default", Knobs()),
    ("ready", Knobs(ready_deal=0.9, feed=0.3, feed_multi=1.0, declare=1.0, win_discard=0.95, sloppy=0.0)),
    ("kongs", Knobs(rob=1.0, kong_into_rob=1.0, kong=1.0, keep_fourth=10.0, ready_deal=0.4, pong=0.8,
                    feed_hot=0.9)),
    ("sloppy", Knobs(sloppy=0.5, win_self=0.5, win_discard=0.3, late_kong=0.8, explicit_pass=0.9)),
)
"""Bot presets, one per chunk in turn: each makes some rare events common (docs/simulator.md, knobs)."""
CHUNK = 25
"""Hands per simulated chunk (one table, one preset)."""
MIN_COUNT = 5
"""Cases each applicable coverage item needs (issue 15)."""
DEFAULT_CASES = 300
FILLER_POOL = 2
"""Plain hands simulated per settlement slot left, to choose the fillers from (`Selection.fillers`)."""
REJECTION_SHARE = 4
"""At least one case in this many is a rejection case (and every rejection class its count)."""


class KitError(Exception):
    """The kit cannot be built as asked: a usage error (`usage`) or an item under its count."""

    def __init__(self, message: str, usage: bool = False) -> None:
        super().__init__(message)
        self.usage = usage


OPTIONAL_REJECTIONS = ("kong_empty_wall",)
"""Classes taken when the hands offer a site but not required: a kong at hand just as the wall runs out
takes many hundred hands to come by (R4.5; section R4 is covered by the other kong and pong classes)."""


def rejection_classes(prof: Profile) -> tuple[str, ...]:
    """The mutation harness's illegal-move classes this profile can have (`truncated` is no move: left out)."""
    out = []
    for cls in ILLEGAL:
        if cls == "truncated":
            continue
        if cls.startswith("must_win") and not prof.must_win:
            continue
        if cls.startswith("declare") and prof.declared is None:
            continue
        out.append(cls)
    return tuple(out)


@dataclass
class Case:
    """One case as the manifest lists it, and its file."""

    id: str
    kind: str
    record: dict[str, Any]
    items: set[str]
    rules: set[str]
    expected: dict[str, Any]
    source: str
    mutation: str | None = None

    def manifest_entry(self) -> dict[str, Any]:
        """The manifest's row of this case."""
        sections = sorted({i for i in self.items if not i.startswith(("p:", "reject:")) and i[0] in "RP"
                           and "." not in i and is_digits(i[1:])}, key=_rule_key)
        events = sorted(i for i in self.items if not i.startswith(("p:", "reject:", "R")))
        params = sorted(i[2:] for i in self.items if i.startswith("p:"))
        out = {"id": self.id, "file": f"cases/{self.id}.json", "kind": self.kind, "sections": sections,
               "rules": sorted(self.rules, key=_rule_key), "events": events, "parameters": params,
               "expected": self.expected, "source": self.source}
        if self.mutation is not None:
            out["mutation"] = self.mutation
        return out


def _rule_key(code: str) -> tuple[int, ...]:
    """R2.10 after R2.9: rule codes sorted by their numbers."""
    return tuple(int(p) for p in code.lstrip("RP").split(".") if is_digits(p)) or (0,)


@dataclass
class Selection:
    """The build's running state: kept hands, fillers, rejection cases and the counts per item."""

    targets: dict[str, int]
    n_settle: int
    rejection_quota: dict[str, int]
    optional: dict[str, int] = field(default_factory=dict)
    """Optional rejection classes (OPTIONAL_REJECTIONS) and how many to take when they come."""
    useful: list[tuple[int, dict[str, Any], Exercised]] = field(default_factory=list)
    filler: list[tuple[int, dict[str, Any], Exercised]] = field(default_factory=list)
    rejections: dict[str, list[tuple[Mutant, dict[str, Any]]]] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    rejection_order: list[tuple[Mutant, dict[str, Any]]] = field(default_factory=list)
    """Every kept mutant in the order it was made (the rejection cases' order)."""

    def short(self) -> list[str]:
        """Settlement items still under their count."""
        return [k for k, n in self.targets.items() if self.counts[k] < n]

    def rejections_short(self) -> list[str]:
        return [c for c, q in self.rejection_quota.items() if len(self.rejections.get(c, [])) < q]

    def done(self) -> bool:
        return not self.short() and not self.rejections_short() and \
            len(self.useful) + len(self.filler) >= FILLER_POOL * self.n_settle

    def offer(self, k: int, rec: dict[str, Any], ex: Exercised) -> None:
        """Keep a hand that adds to a short item; else keep it as a filler while the kit needs one."""
        if any(self.counts[i] < self.targets[i] for i in ex.items if i in self.targets):
            self.useful.append((k, rec, ex))
            self.counts.update(i for i in ex.items if i in self.targets)
        elif len(self.filler) < FILLER_POOL * self.n_settle:
            self.filler.append((k, rec, ex))

    def fillers(self, room: int) -> list[tuple[int, dict[str, Any], Exercised]]:
        """The plain hands that fill the kit: those with the rarest items first (more cases of 抢杠 or
        一炮多响 find more faults than more plain 点炮), ties in the order they were played."""
        pool: Counter[str] = Counter()
        for _, _, ex in self.useful + self.filler:
            pool.update(i for i in ex.items if i in self.targets)

        def rarity(entry: tuple[int, dict[str, Any], Exercised]) -> tuple[float, int]:
            return (-sum(1 / pool[i] for i in entry[2].items if i in self.targets), entry[0])
        return sorted(self.filler, key=rarity)[:max(room, 0)]


def build_kit(profile: str, options: dict[str, Any], *, cases: int = DEFAULT_CASES, seed: int = 1,
              min_count: int = MIN_COUNT, max_hands: int | None = None) -> dict[str, bytes]:
    """Every file of the kit, by path relative to the kit folder (bytes, so the caller writes them as they are).
    Options that act only under 乌骨鸡 bring it into play, as in the simulator (`sim.simulate.playable`):
    the kit's options are the ones its hands are played under."""
    try:
        options, _ = playable(profile, options)
        prof = resolve(profile, options)
    except ValueError as exc:
        raise KitError(f"profile {profile!r}: {exc}", usage=True) from None
    classes = rejection_classes(prof)
    reqs = requirements(prof, classes)
    required = [c for c in classes if c not in OPTIONAL_REJECTIONS]
    n_rej = max(min_count * len(required), cases // REJECTION_SHARE)
    if cases - n_rej < min_count:
        raise KitError(f"--cases {cases} is too few: the rejection cases alone need {n_rej}", usage=True)
    quota = {c: n_rej // len(required) + (1 if i < n_rej % len(required) else 0) for i, c in enumerate(required)}
    optional = {c: min_count for c in classes if c in OPTIONAL_REJECTIONS}
    targets = {r.item: min_count for r in reqs if r.group != "rejection" and r.applies(prof)}
    sel = Selection(targets, cases - n_rej, quota, optional)
    budget = max_hands if max_hands is not None else max(4000, 12 * cases)
    _simulate_until_covered(sel, prof, profile, options, seed, budget)
    problems = [f"{i}: {sel.counts[i]} of {min_count} cases" for i in sel.short()]
    problems += [f"reject:{c}: {len(sel.rejections.get(c, []))} of {quota[c]} cases" for c in sel.rejections_short()]
    if problems:
        raise KitError(f"coverage not reached within {budget} simulated hands (seed {seed}): " + "; ".join(problems))
    sel.n_settle = cases - sum(len(v[:sel.rejection_quota.get(c, sel.optional.get(c, 0))])
                               for c, v in sel.rejections.items())
    if len(sel.useful) > sel.n_settle:
        raise KitError(f"covering every item takes {len(sel.useful)} settlement cases but the kit has room for "
                       f"{sel.n_settle}: raise --cases to at least {len(sel.useful) + n_rej}")
    return _files(sel, prof, profile, options, seed, reqs, min_count)


def _simulate_until_covered(sel: Selection, prof: Profile, profile: str, options: dict[str, Any], seed: int,
                            budget: int) -> None:
    hands = 0
    chunk = 0
    while hands < budget and not sel.done():
        preset, knobs = PRESETS[chunk % len(PRESETS)]
        players = prof.players[(chunk // len(PRESETS)) % len(prof.players)]
        for g in simulate(profile, options, CHUNK, seed * 100003 + chunk, players=players, knobs=knobs):
            rec = g.record
            rec["extra"] = {"preset": preset}
            sel.offer(hands, rec, settlement_case(rec, prof))
            if sel.rejections_short():
                _offer_mutants(sel, rec, seed)
            hands += 1
        chunk += 1


def _offer_mutants(sel: Selection, rec: dict[str, Any], seed: int) -> None:
    """The mutants of a clean record for classes still short, each kept only if the audit confirms it."""
    short = set(sel.rejections_short()) | {c for c in OPTIONAL_REJECTIONS if c in sel.optional
                                            and len(sel.rejections.get(c, [])) < sel.optional[c]}
    for m in mutants(rec, seed):
        if m.mutation not in short or m.expected.step is None:
            continue
        audit = audit_record(m.record)
        found = audit["findings"]
        if len(found) != 1 or found[0]["kind"] != "illegal" or found[0]["rule"] != m.expected.rule \
                or found[0]["step"] != m.expected.step:
            continue
        sel.rejections.setdefault(m.mutation, []).append((m, found[0]))
        sel.rejection_order.append((m, found[0]))


def _case_record(rec: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The record a client replays: its own game_id, no `result` (the client computes it), no `extra`."""
    out = copy.deepcopy(rec)
    out["game_id"] = game_id
    out.pop("result", None)
    out.pop("extra", None)
    return out


def _files(sel: Selection, prof: Profile, profile: str, options: dict[str, Any], seed: int,
           reqs: list[Requirement], min_count: int) -> dict[str, bytes]:
    from kit.readme import readme
    from kit.schemas import schema_files

    kit_id = f"{profile}-{seed}"
    chosen = sorted(sel.useful + sel.fillers(sel.n_settle - len(sel.useful)), key=lambda t: t[0])
    out: list[Case] = []
    for n, (_, rec, ex) in enumerate(chosen, 1):
        cid = f"s{n:04d}"
        res = result_json(ex.settlement, rec.get("base", 1))
        res["items"] = [{"kind": i["kind"], "from": i["from"], "to": i["to"], "amount": i["amount"],
                         "rule": it.rule} for i, it in zip(res["items"], ex.settlement.items)]
        out.append(Case(cid, "settlement", _case_record(rec, f"kit-{kit_id}-{cid}"), ex.items, ex.rules, res,
                        rec["game_id"]))
    n = 0
    taken: Counter[str] = Counter()
    for m, finding in sel.rejection_order:
        cls = m.mutation
        if taken[cls] < sel.rejection_quota.get(cls, sel.optional.get(cls, 0)):
            taken[cls] += 1
            n += 1
            cid = f"r{n:04d}"
            rule = finding["rule"]
            expected = {"rejected_at": finding["step"], "rule": rule, "code": finding["code"],
                        "params": finding["params"], "seat": finding["seat"]}
            section = rule.split(".")[0]
            out.append(Case(cid, "rejection", _case_record(m.record, f"kit-{kit_id}-{cid}"),
                            {section, f"reject:{cls}"}, {rule}, expected, m.record["game_id"].split(".m-")[0], cls))
    counts: Counter[str] = Counter()
    for c in out:
        counts.update(c.items)
    optional = {f"reject:{c}" for c in OPTIONAL_REJECTIONS}
    coverage = [{"item": r.item, "group": r.group, "applies": r.applies(prof),
                 "what": r.what + (" (optional: taken when the hands offer one)" if r.item in optional else ""),
                 "required": min_count if r.applies(prof) and r.item not in optional else 0,
                 "cases": counts[r.item]} for r in reqs]
    manifest = {"format": KIT_FORMAT, "engine": ENGINE_VERSION, "kit": kit_id, "profile": profile,
                "options": options, "seed": seed, "min_count": min_count, "resolved_profile": prof.name,
                "counts": {"settlement": sum(c.kind == "settlement" for c in out),
                           "rejection": sum(c.kind == "rejection" for c in out)},
                "coverage": coverage, "cases": [c.manifest_entry() for c in out]}
    files = {"manifest.json": _dump(manifest)}
    for c in out:
        files[f"cases/{c.id}.json"] = _dump(c.record)
    files.update(schema_files())
    files["README.md"] = readme(manifest).encode("utf-8")
    return files


def _dump(doc: Any) -> bytes:
    """Stable JSON: sorted keys, no clock, one trailing newline."""
    return (json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")


def write_kit(files: dict[str, bytes], out: Path) -> None:
    """Write the kit into `out`, replacing an earlier kit's cases there (so a smaller kit leaves no stale case)."""
    out.mkdir(parents=True, exist_ok=True)
    cases = out / "cases"
    if cases.is_dir():
        for old in cases.glob("*.json"):
            old.unlink()
    for rel, data in sorted(files.items()):
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
