"""A platform's own profile from its answers (issue 21, point 4; docs/fit.md).

An operator rarely knows which of the profile's parameters its client plays. Given the platform's
records, each with the result the platform claimed, the fit looks for the parameter values under
which the most records come out clean, starting from a base profile (greedy coordinate ascent):

1. every record is replayed and settled once under the base, watching which parameters the engine
   read (`audit.reads`): a value of a parameter a record never read cannot change its answer, so it
   is never tried on that record (`fit.answers`);
2. every other value of every parameter (`audit.candidates.trials`) is tried on the records that
   are not clean (on 600 of them, evenly spread, when there are more): a record is fixed only if
   it was not clean, so this bounds what each value can gain;
3. the most promising values are then answered on every record they touch, and the one that makes
   the most records clean, net of those it spoils, is taken if it gains `min_gain` or more; 2 runs
   again from the new profile. An answer found under one profile is reused under the next where
   the two agree on every parameter it read. When a pass on a sample finds nothing, one pass on
   every record not clean decides;
4. the evidence is measured against the fitted profile, and every record is audited in full under
   it: those still not clean are the platform's real mistakes, each with the values that would
   make it clean alone (and spoil more than they fix).

A caller may follow it (`fit(progress=...)`): its phase, the values weighed of an estimate, the
values taken (`Progress`).

Everything here is a pure function of the records and the profiles; nothing is stored.
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final

from audit.api import Profile, ProfileError, apply_options, check_profile_name, load_profile, to_data, validate_record
from audit.play import (HandAudit, Trial, Verdict, audit_hand, options_key, setting_options, trial, trials, value_at,
                        verdict_of)
from audit.vocabulary import Lang
from fit.answers import Case, Counts, Option, Settings
from fit.profile_toml import profile_toml

MIN_GAIN: Final = 1
"""Records a value must make clean, beyond those it spoils, to be taken: by default any gain, since
the fit looks for the profile under which the most records are clean (`--min-gain` asks for more)."""

RANK_SAMPLE: Final = 200
"""Records not clean the search tries every value on to order the values, when there are more
(the values it then takes are tallied on every record; `_Search.choose`)."""

PAIR_SAMPLE: Final = 60
"""Records not clean that pairs of values are tried on, when no single value gains."""

PAIR_OPTIONS: Final = 8
"""Pairs tallied in full at most, the ones that fix the most sampled records first."""

PAIRS_PER_RECORD: Final = 24
"""Pairs tried on one record at most."""

SOLVED: Final = 12
"""At most this many solved numbers join the options of one pass (`_Search._solved`)."""

EXPLAINED_BY: Final = 3
"""At most this many values are named beside a record the fitted profile leaves unexplained."""

DECIDING: Final = 5
"""At most this many records are named beside a value taken, of those it fixes and of those it breaks."""

JOINT_SAMPLE: Final = 24
"""Records not clean that values taken together (up to JOINT_SIZE of them) are built on, when no
single value and no pair gains (`_Search.choose_joint`)."""

JOINT_SIZE: Final = 3
"""Values taken together at most."""

JOINT_FIRST: Final = 5
"""Per record, the values that change it tried first, the ones that bring its scores nearest the
claimed scores; each is then tried with the values its answer reads (JOINT_WIDTH of them)."""

JOINT_WIDTH: Final = 24
"""Per value (or pair) of a record's joint search, the values tried with it."""

JOINT_KEEP: Final = 4
"""Per record, the pairs (nearest the claimed scores) tried with a third value."""

JOINT_OPTIONS: Final = 8
"""Joint values tallied in full at most, the ones that fix the most sampled records first."""

BACK_FIXING: Final = 10
"""In the backward pass, the values that fix a record alone (and spoil more) tried with each other
value of a parameter taken earlier (`_Search.choose_back`)."""

PROGRESS_EVERY_S: Final = 0.5
"""Seconds between two reports of the search's progress at most (`Progress`; a report also comes at
each change of phase and each value taken)."""

CLOSING_PASSES: Final = 3
"""What the search is expected to weigh after its last value is taken, in passes of the mean cost of
those that took one: the pass on every record not clean, then the pairs, the backward pass and the
joint search together (`Progress.values_estimate`)."""

PARTIAL_MIN: Final = 2
"""Records a value must fix part of (leaving fewer of their payments wrong, adding none) to be taken
when it fixes none and spoils none (`_Search.choose_partial`)."""


@dataclass(frozen=True)
class Record:
    """One hand of the set: where it came from (`file.jsonl line 3`, `match.json hands[2]`) and its document."""

    source: str
    doc: Any


def records_of(doc: Any, source: str) -> list[Record]:
    """The records of one JSON document: a `zhuoji-match/1` gives one per hand, anything else one."""
    if isinstance(doc, dict) and doc.get("format") == "zhuoji-match/1" and isinstance(doc.get("hands"), list):
        return [Record(f"{source} hands[{i}]", hand) for i, hand in enumerate(doc["hands"])]
    return [Record(source, doc)]


@dataclass
class Tally:
    """What one value does to the records, against the profile it is tried from: how many it
    changes, how many it makes clean (fixes) and how many clean ones it spoils (breaks)."""

    changes: int = 0
    fixes: int = 0
    breaks: int = 0
    whole: bool = True
    """False while only the records that were not clean have been asked (`fixes` is then exact,
    `changes` and `breaks` are not known)."""
    partial: int = 0
    """Records not clean it leaves not clean with fewer parts wrong and none newly wrong (`Answer.wrong`):
    those it would fix once another cause is removed (the second criterion after the net gain)."""
    spoiled: int = 0
    """Records not clean it makes wrong in a part that was right."""
    fixed: tuple[int, ...] = ()
    """The first DECIDING records it fixes (their places in the set)."""
    broken: tuple[int, ...] = ()
    """The first DECIDING records it breaks."""

    @property
    def gain(self) -> int:
        """Clean records won, net."""
        return self.fixes - self.breaks

    def reversed(self) -> Tally:
        """The same records seen from the other profile (what a value's removal does)."""
        return Tally(self.changes, self.breaks, self.fixes, self.whole, self.spoiled, self.partial, self.broken,
                     self.fixed)

    def add(self, other: Tally) -> Tally:
        """The tallies of two sets of records together."""
        return Tally(self.changes + other.changes, self.fixes + other.fixes, self.breaks + other.breaks,
                     self.whole and other.whole, self.partial + other.partial, self.spoiled + other.spoiled,
                     (self.fixed + other.fixed)[:DECIDING], (self.broken + other.broken)[:DECIDING])

    @property
    def rank(self) -> tuple[int, int, int]:
        """What the search prefers: the net gain, then the records fixed in part, then fewer changes."""
        return self.gain, self.partial - self.spoiled, -self.changes

    def to_json(self) -> dict[str, int | None]:
        """The tally as JSON (`changes` and `breaks` null where they were not measured)."""
        if not self.whole:
            return {"changes": None, "fixes": self.fixes, "breaks": None, "partial": self.partial}
        return {"changes": self.changes, "fixes": self.fixes, "breaks": self.breaks, "partial": self.partial}


def _tally(cases: list[Case], opt: Option, whole: bool) -> Tally:
    """The tally of one option over records it has been answered on (`whole`: all of them)."""
    out = Tally(whole=whole)
    for case in cases:
        cur = case.current
        assert cur is not None
        if not opt.diff & cur.reads:
            continue
        got = case.tried[opt.trial.key].answer
        if got.computed != cur.answer.computed:
            out.changes += 1
        if got.clean and not cur.answer.clean:
            out.fixes += 1
            if len(out.fixed) < DECIDING:
                out.fixed += (case.index,)
        elif cur.answer.clean and not got.clean:
            out.breaks += 1
            if len(out.broken) < DECIDING:
                out.broken += (case.index,)
        elif not got.clean and got.wrong != cur.answer.wrong:
            if got.wrong < cur.answer.wrong:
                out.partial += 1
            elif got.wrong - cur.answer.wrong:
                out.spoiled += 1
    return out


# ---------------------------------------------------------------- the result

class How(str, Enum):
    """How the search came to take a value."""

    SINGLE = "single"
    """It gains alone (coordinate ascent)."""
    PAIR = "pair"
    """With one other value whose moves of the scores add up to the claimed ones (`_Search.choose_pair`)."""
    BACK = "back"
    """With another value of a parameter taken earlier, undone or replaced (`_Search.choose_back`)."""
    JOINT = "joint"
    """With up to two others, built on the records not clean (`_Search.choose_joint`)."""
    PARTIAL = "partial"
    """It fixes no record and spoils none, but leaves fewer parts wrong on some (`_Search.choose_partial`)."""


class Phase(str, Enum):
    """Where a fit is (`Progress`)."""

    REPLAYING = "replaying"
    """Every record replayed and settled once under the base, watching what it reads."""
    SEARCHING = "searching"
    """Values tried on the records and weighed, a pass for each value taken, then the evidence."""
    AUDITING = "auditing"
    """Every record audited in full under the fitted profile."""


PHASE_SHARE: Final = {Phase.REPLAYING: 0.05, Phase.SEARCHING: 0.92, Phase.AUDITING: 0.03}
"""The share of a fit's CPU time each phase takes, measured on the planted benchmark's 2,000 hands
(`bench/bench_fit.py`, docs/fit.md): what `Progress.fraction` weighs the phases by."""


@dataclass(frozen=True)
class Progress:
    """How far a fit has come: its phase, the records done in it, the (record, value) pairs weighed
    and an estimate of how many the search will weigh in all, and the values taken so far."""

    phase: Phase
    records: int
    records_done: int
    """Records replayed (REPLAYING) or audited (AUDITING); all of them while SEARCHING."""
    values_weighed: int
    """(record, value) pairs the search has looked at (`Counts.pairs`)."""
    values_estimate: int
    """The pairs it is expected to look at in all: those weighed, and, for each parameter whose
    values fixed records on the last pass's sample (one fewer after each value taken) and for
    CLOSING_PASSES, a pass of the mean cost of the passes so far; once the search has ended, exactly
    what the evidence weighs. It grows when the search finds more to weigh."""
    taken: int
    """Values (steps) taken so far."""

    @property
    def fraction(self) -> float:
        """The share of the fit done, an estimate in [0, 1]: the phases by PHASE_SHARE, within a
        phase its records done, or the pairs weighed of the estimate."""
        done = 0.0
        for phase in Phase:
            share = PHASE_SHARE[phase]
            if phase is self.phase:
                if phase is Phase.SEARCHING:
                    part = self.values_weighed / self.values_estimate if self.values_estimate else 0.0
                else:
                    part = self.records_done / self.records if self.records else 1.0
                return min(1.0, done + share * min(part, 1.0))
            done += share
        return 1.0  # pragma: no cover - every phase is listed

    def to_json(self) -> dict[str, Any]:
        """The progress as JSON (what a fit job stores)."""
        return {"phase": self.phase.value, "records": self.records, "records_done": self.records_done,
                "values_weighed": self.values_weighed, "values_estimate": self.values_estimate,
                "taken": self.taken, "fraction": round(self.fraction, 4)}


class _Reporter:
    """Tells a callback the fit's `Progress`: at each change of phase, each value taken, and, while
    the search works, at most every PROGRESS_EVERY_S seconds (`Counts.beat`, after each record's fill)."""

    def __init__(self, callback: Callable[[Progress], None] | None, records: int, counts: Counts) -> None:
        self.callback = callback
        self.records = records
        self.counts = counts
        self.phase = Phase.REPLAYING
        self.records_done = 0
        self.estimate = 0
        self.taken = 0
        self._last = 0.0
        if callback is not None:
            counts.beat = self.beat

    def enter(self, phase: Phase) -> None:
        self.phase, self.records_done = phase, 0
        self.report()

    def record_done(self) -> None:
        self.records_done += 1
        self.beat()

    def beat(self) -> None:
        if self.callback is not None and time.monotonic() - self._last >= PROGRESS_EVERY_S:
            self.report()

    def report(self) -> None:
        if self.callback is None:
            return
        self._last = time.monotonic()
        done = self.records if self.phase is Phase.SEARCHING else self.records_done
        self.callback(Progress(self.phase, self.records, done, self.counts.pairs,
                               max(self.estimate, self.counts.pairs), self.taken))


@dataclass(frozen=True)
class Step:
    """One value the search took, its tally when taken, the clean records after it, and the other
    values that would have gained as much (the records cannot tell them apart)."""

    parameter: str
    value: Any
    options: dict[str, Any]
    tally: Tally
    clean: int
    ties: tuple[tuple[str, Any], ...] = ()
    together: tuple[tuple[str, Any], ...] = ()
    """The other values taken with it, where only together they gain (`How`)."""
    how: How = How.SINGLE
    decided_by: tuple[str, ...] = ()
    """The first DECIDING records it fixes (by source): those that decided it."""
    broke: tuple[str, ...] = ()
    """The first DECIDING records it spoils."""

    def to_json(self) -> dict[str, Any]:
        """The step as JSON."""
        return {"parameter": self.parameter, "value": self.value, "options": self.options, **self.tally.to_json(),
                "clean": self.clean, "how": self.how.value,
                "ties": [{"parameter": p, "value": v} for p, v in self.ties],
                "together": [{"parameter": p, "value": v} for p, v in self.together],
                "decided_by": list(self.decided_by), "broke": list(self.broke)}

    def note(self, number: int) -> str:
        """The step as the `# fitted` comment of a parameter it set."""
        values = " + ".join(f"{p} = {json.dumps(v, ensure_ascii=False)}"
                            for p, v in ((self.parameter, self.value), *self.together))
        t = self.tally
        out = f"step {number} ({self.how.value}): {values}; fixes {t.fixes}"
        if t.whole:
            out += f", breaks {t.breaks}"
        out += f", in part {t.partial}"
        if self.decided_by:
            out += f"; decided by {', '.join(self.decided_by)}"
        if self.broke:
            out += f"; breaks {', '.join(self.broke)}"
        if self.ties:
            out += "; as good: " + ", ".join(f"{p} = {json.dumps(v, ensure_ascii=False)}" for p, v in self.ties)
        return out


@dataclass(frozen=True)
class Tried:
    """One value of a parameter and what it does against the fitted profile: for the fitted value
    itself (when it is not the base's), what it does against the base's value there."""

    value: Any
    tally: Tally
    fitted: bool = False

    def to_json(self) -> dict[str, Any]:
        """The row as JSON."""
        return {"value": self.value, "fitted": self.fitted, **self.tally.to_json()}


@dataclass(frozen=True)
class Evidence:
    """Every value tried for one parameter, with the base's and the fitted value."""

    parameter: str
    base: Any
    fitted: Any
    values: tuple[Tried, ...]

    @property
    def changed(self) -> bool:
        """Whether the fit moved this parameter off the base's value."""
        return bool(self.base != self.fitted)

    @property
    def touches(self) -> bool:
        """Whether any value tried changes any record."""
        return any(t.tally.changes for t in self.values)

    def to_json(self) -> dict[str, Any]:
        """The parameter's evidence as JSON."""
        return {"parameter": self.parameter, "base": self.base, "fitted": self.fitted, "changed": self.changed,
                "values": [t.to_json() for t in self.values]}


@dataclass(frozen=True)
class Unexplained:
    """A record the fitted profile does not make clean: its audit under that profile, and the values
    that would make it clean on their own (each spoiling more records than it fixes)."""

    record: Record
    audit: HandAudit
    explained_by: tuple[tuple[str, Any, Tally], ...] = ()

    @property
    def verdict(self) -> Verdict:
        """The record's verdict under the fitted profile."""
        return verdict_of(self.audit.findings)

    def to_json(self, lang: Lang | str = Lang.EN) -> dict[str, Any]:
        """The record, its verdict and findings in `lang`, and the values that would explain it."""
        audit = self.audit.to_json(lang)
        return {"source": self.record.source, "game_id": audit["game_id"], "verdict": audit["verdict"],
                "findings": audit["findings"],
                "explained_by": [{"parameter": p, "value": v, **t.to_json()} for p, v, t in self.explained_by]}


@dataclass(frozen=True)
class Fit:
    """The fitted profile and the evidence for it."""

    base: Profile
    profile: Profile
    options: dict[str, Any]
    """The parameters set otherwise than in `base`, as `rules.options`."""
    records: int
    usable: int
    clean_before: int
    clean_after: int
    steps: tuple[Step, ...]
    evidence: tuple[Evidence, ...]
    unexplained: tuple[Unexplained, ...]
    invalid: tuple[Unexplained, ...]
    counts: Counts

    def profile_text(self) -> str:
        """The fitted profile as a profile file (TOML), each changed parameter with its evidence."""
        header = [f"{self.profile.title}: written by python -m fit (docs/fit.md).",
                  f"Base {self.base.name}; {self.usable} records, clean {self.clean_before} under the base, "
                  f"{self.clean_after} under this profile.", "",
                  "Every parameter is here; those the fit changed say so above them."]
        notes: dict[str, str] = {}
        for e in self.evidence:
            if e.changed:
                t = e.values[0].tally
                counts = f"changes {t.changes}, fixes {t.fixes}, breaks {t.breaks}" if t.whole else f"fixes {t.fixes}"
                notes[e.parameter] = (f"fitted: {json.dumps(e.base, ensure_ascii=False)} in {self.base.name}; "
                                      f"{counts} of the records")
        for number, step in enumerate(self.steps, 1):  # every parameter a step set, a value taken with it too
            for key in step.options:
                if key in self.options:
                    said = notes.get(key) or (f"fitted: {json.dumps(value_at(self.base, key), ensure_ascii=False)} "
                                              f"in {self.base.name}")
                    notes[key] = f"{said.split(' | ')[0]} | {step.note(number)}"
        return profile_toml(self.profile, header=header, notes=notes)

    def to_json(self, lang: Lang | str = Lang.EN) -> dict[str, Any]:
        """The fit as JSON (docs/fit.md), messages in `lang`."""
        return {"base": self.base.name, "profile": self.profile.name, "options": self.options,
                "fitted": to_data(self.profile),
                "records": self.records, "usable": self.usable,
                "clean": {"base": self.clean_before, "fitted": self.clean_after},
                "steps": [s.to_json() for s in self.steps],
                "evidence": [e.to_json() for e in self.evidence],
                "unexplained": [u.to_json(lang) for u in self.unexplained],
                "invalid": [u.to_json(lang) for u in self.invalid],
                "search": self.counts.to_json()}


# ---------------------------------------------------------------- the search

def _usable(record: Record, base: Profile) -> bool:
    doc = record.doc
    return not validate_record(doc) and len(doc["seats"]) in base.players


def _without_own_rules(doc: dict[str, Any], base: Profile) -> dict[str, Any]:
    """The record as the fit reads it: under `base`, its own `rules.options` left out (as a what-if's)."""
    return {**doc, "rules": {"profile": base.name}}


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _solve(s0: tuple[int, ...], s1: tuple[int, ...] | None, claimed: tuple[int, ...], v0: int, v1: int) -> int | None:
    """The value v0 + k (v1 - v0) for which the move s0 -> s1, scaled by k, reaches `claimed`; None
    where no whole non-negative value other than v0 does."""
    if s1 is None or s1 == s0:
        return None
    d = [b - a for a, b in zip(s0, s1)]
    t = [c - a for a, c in zip(s0, claimed)]
    i = next(j for j, x in enumerate(d) if x)
    num = t[i] * (v1 - v0)
    if num % d[i]:
        return None
    value = v0 + num // d[i]
    if value < 0 or value == v0 or any(t[j] * (v1 - v0) != (value - v0) * d[j] for j in range(len(d))):
        return None
    return value


def _pairs(case: Case, options: list[Option]) -> list[tuple[Option, Option]]:
    """Pairs of values, of two parameters, whose moves of a record's scores add up to what it
    claims: where each value alone moves the scores from s0 by d_a and d_b, and s0 + d_a + d_b are
    the claimed scores (the pair is then answered for real: its payments, not only its sums)."""
    cur, claimed = case.current, case.claimed
    assert cur is not None
    s0 = cur.answer.scores
    if s0 is None or claimed is None:
        return []
    by_move: dict[tuple[int, ...], list[Option]] = {}
    for opt in options:
        if not opt.diff & cur.reads or opt.trial.together:
            continue
        got = case.tried[opt.trial.key].answer.scores
        if got is not None and got != s0:
            by_move.setdefault(tuple(g - s for g, s in zip(got, s0)), []).append(opt)
    target = tuple(c - s for c, s in zip(claimed, s0))
    out: list[tuple[Option, Option]] = []
    for move, firsts in by_move.items():
        rest = tuple(t - m for t, m in zip(target, move))
        for a in firsts:
            out += [(a, b) for b in by_move.get(rest, []) if a.trial.parameter < b.trial.parameter]
    return out[:PAIRS_PER_RECORD]


def _spread(cases: list[Case], n: int) -> list[Case]:
    """`n` of the records, evenly spread over the set (the same ones for the same set)."""
    if len(cases) <= n:
        return cases
    return [cases[i * len(cases) // n] for i in range(n)]


class _Search:
    """The state of the search: the records, the current profile, its options and their tallies."""

    def __init__(self, cases: list[Case], base: Profile, min_gain: int, sample: int = RANK_SAMPLE,
                 progress: Callable[[Progress], None] | None = None) -> None:
        self.cases = cases
        self.base = base
        self.min_gain = min_gain
        self.sample = sample
        self.settings = Settings()
        self.counts = Counts()
        self.reporter = _Reporter(progress, len(cases), self.counts)
        self._pass_costs: list[int] = []
        """(record, value) pairs of each pass that took a value (`Progress.values_estimate`)."""
        self._pass_from = 0
        self._ahead = 0
        """Parameters whose values fixed records on the last pass's sample (the passes still to come)."""
        self.current = self.settings.of(base)
        self.options = self._options()
        self.tallies: dict[str, Tally] = {}
        self._whole: set[str] = set()
        """Options tallied over every record against the current profile."""

    def _options(self) -> list[Option]:
        out = []
        for trial in trials(self.current.profile, self.base):
            setting = self.settings.of(trial.profile)
            out.append(Option(trial, setting, self.settings.diff(self.current, setting)))
        return out

    def start(self) -> None:
        """Every record answered under the base, watching what it reads; then the search begins."""
        self.counts.passes = 1
        self.reporter.enter(Phase.REPLAYING)
        for case in self.cases:
            case.start(self.current, self.counts)
            self.reporter.record_done()
        unclean = sum(1 for c in self.cases if not c.clean)
        self.reporter.estimate = len(self.options) * min(unclean, self.sample) * (1 + CLOSING_PASSES)
        self._pass_from = self.counts.pairs
        self.reporter.enter(Phase.SEARCHING)

    def _estimate(self) -> None:
        """The pairs still to weigh, from the passes so far (`Progress.values_estimate`)."""
        costs = self._pass_costs or [self.counts.pairs - self._pass_from]
        per = sum(costs) // len(costs)
        self.reporter.estimate = self.counts.pairs + (self._ahead + CLOSING_PASSES) * per

    def _complete(self, opts: list[Option], watched: bool = True) -> None:
        """Answer options on every record and tally them over all."""
        for case in self.cases:
            case.fill(self.current, opts, self.settings, self.counts, watched=watched)
        for opt in opts:
            self.tallies[opt.trial.key] = _tally(self.cases, opt, True)
            self._whole.add(opt.trial.key)

    def _weigh(self, opt: Option, below: int) -> Tally | None:
        """An option's tally over every record, or None as soon as its net gain is sure to stay
        below `below`: the records not clean first (they give its fixes), then the clean ones, each
        a break or not, until the breaks leave less than `below`."""
        out = Tally()
        cur_clean = [c for c in self.cases if c.clean]
        for case in [c for c in self.cases if not c.clean]:
            case.fill(self.current, [opt], self.settings, self.counts)
            out = out.add(_tally([case], opt, True))
        for case in cur_clean:
            if out.fixes - out.breaks < below:
                return None
            case.fill(self.current, [opt], self.settings, self.counts)
            out = out.add(_tally([case], opt, True))
        self.tallies[opt.trial.key] = out
        self._whole.add(opt.trial.key)
        return out

    def choose(self, exact: bool) -> Option | None:
        """The value that makes the most records clean, net (fewer changes first when two tie).

        A value cannot gain more than it fixes, and only a record that is not clean can be fixed:
        every value is first tried on those records alone (on `sample` of them, evenly spread, when
        there are more and not `exact`), and the values are then answered on every record, most
        fixes first, while their fixes could still beat the best net gain found (sampled: half of
        it, a margin for the estimate). The answer is exact for the values it tallies in full; the
        sample only orders them, and a search that finds nothing on a sample asks again `exact`."""
        unclean = [c for c in self.cases if not c.clean]
        asked = unclean if exact else _spread(unclean, self.sample)
        for case in asked:
            case.fill(self.current, self.options, self.settings, self.counts)
        solved = self._solved(asked)
        for case in asked:
            case.fill(self.current, solved, self.settings, self.counts)
        self.options += solved
        scale = len(unclean) / len(asked) if asked else 0.0
        self.tallies = {opt.trial.key: _tally(asked, opt, False) for opt in self.options}
        self._whole = set()
        estimate = {key: t.fixes * scale for key, t in self.tallies.items()}
        if not exact:
            self._ahead = len({o.trial.parameter for o in self.options if estimate[o.trial.key] >= self.min_gain})
            self._estimate()
        order = sorted(self.options, key=lambda o: -estimate[o.trial.key])
        return self._best(order, estimate, 1.0 if asked is unclean else 0.5)

    def _best(self, order: list[Option], estimate: dict[str, float], margin: float) -> Option | None:
        """Tally options in full, most promising first, while their estimated fixes could still beat
        `margin` times the best net gain so far; the best (fewer changes first on a tie)."""
        best: Option | None = None
        for opt in order:
            bar = self.min_gain if best is None else max(self.min_gain, self.tallies[best.trial.key].gain * margin)
            if estimate[opt.trial.key] < bar:
                break
            # Weighed only as far as it could still be taken: a value no better than the best is
            # dropped the moment its breaks say so (it stays tallied over the unclean records only).
            need = self.min_gain if best is None else max(self.min_gain, self.tallies[best.trial.key].gain)
            t = self._weigh(opt, need)
            if t is not None and (best is None or t.rank > self.tallies[best.trial.key].rank):
                best = opt
        return best

    def choose_pair(self) -> Option | None:
        """Two values taken together, where neither gains alone (a 热炮 paid without its bonus and
        with the kong transfer: either alone still settles that hand wrong). Asked only when no
        single value gains, of `PAIR_SAMPLE` records not clean: the pairs whose single moves add up
        to the record's claimed scores (`_pairs`), tried on it, then those that fix the most
        tallied in full as above."""
        unclean = _spread([c for c in self.cases if not c.clean], PAIR_SAMPLE)
        made: dict[str, Option | None] = {}
        fixes: dict[str, int] = {}
        for case in unclean:
            pairs = [p for p in (self._pair(a, b, made) for a, b in _pairs(case, self.options)) if p is not None]
            case.fill(self.current, pairs, self.settings, self.counts)
            for opt in pairs:
                if case.under(opt).clean:
                    fixes[opt.trial.key] = fixes.get(opt.trial.key, 0) + 1
        order = sorted((o for o in made.values() if o is not None and o.trial.key in fixes),
                       key=lambda o: -fixes[o.trial.key])
        for opt in order:
            self.tallies[opt.trial.key] = Tally(whole=False)
        return self._best(order[:PAIR_OPTIONS], {k: float(v) for k, v in fixes.items()}, 0.0)

    def _pair(self, a: Option, b: Option, made: dict[str, Option | None]) -> Option | None:
        return self._combo([a, b], made)

    def _combo(self, opts: list[Option], made: dict[str, Option | None]) -> Option | None:
        """Values of different parameters taken together, as one option (None where the loader refuses
        them together, or two of them set one parameter otherwise)."""
        options: dict[str, Any] = {}
        for o in opts:
            if any(options.get(k, v) != v for k, v in o.trial.options.items()):
                return None
            options.update(o.trial.options)
        key = options_key(options)
        if key not in made:
            try:
                prof = apply_options(self.current.profile, options)
            except ProfileError:
                made[key] = None
            else:
                setting = self.settings.of(prof)
                first, *rest = opts
                made[key] = Option(Trial(first.trial.parameter, first.trial.value, options, prof, together=tuple(
                    (o.trial.parameter, o.trial.value) for o in rest)), setting, self.settings.diff(self.current, setting))
        return made[key]

    def _singles(self) -> list[Option]:
        return [o for o in self.options if not o.trial.together]

    def choose_back(self, taken: list[str]) -> Option | None:
        """The backward pass: a value taken earlier undone or replaced, given every value taken since.
        A value taken early may be wrong in a way only a later one shows (`kill_declared.value` taken
        before `kill_declared.mode` is seen): each other value of a parameter already taken (its base
        value, a way back, among them) is tried together with each value that fixes records not clean
        alone (BACK_FIXING of them, the most fixes first), and, on JOINT_SAMPLE of those records, with
        each value the record's answer under it reads (a `kill_declared.mode` that changes nothing
        until the value is undone); the pairs that fix the most are tallied in full. Asked when no
        single value and no pair gains."""
        singles = self._singles()
        fixing = sorted((o for o in singles if self.tallies.get(o.trial.key, Tally()).fixes > 0),
                        key=lambda o: -self.tallies[o.trial.key].fixes)[:BACK_FIXING]
        others = [o for o in singles if o.trial.parameter in taken]
        made: dict[str, Option | None] = {}
        combos = [c for a in others for b in fixing if a.trial.parameter != b.trial.parameter
                  for c in [self._combo([b, a], made)] if c is not None]
        for case in _spread([c for c in self.cases if not c.clean], JOINT_SAMPLE):
            cur = case.current
            assert cur is not None
            case.fill(self.current, others, self.settings, self.counts)
            for a in others:
                if a.diff & cur.reads and case.under(a).computed != cur.answer.computed:
                    grown = [c for b in self._read_under(case, [a], singles, made) for c in [self._combo([b, a], made)]
                             if c is not None]
                    case.fill(self.current, grown, self.settings, self.counts)
                    combos += [c for c in grown if case.under(c).clean]
        return self._joint_best(combos)

    def _joint_best(self, combos: list[Option]) -> Option | None:
        """Combined options tried on the records not clean, those that fix the most tallied in full."""
        unclean = [c for c in self.cases if not c.clean]
        fixes: dict[str, int] = {}
        seen: dict[str, Option] = {}
        for opt in combos:
            seen.setdefault(opt.trial.key, opt)
        for case in unclean:
            case.fill(self.current, list(seen.values()), self.settings, self.counts)
            for opt in seen.values():
                if case.under(opt).clean:
                    fixes[opt.trial.key] = fixes.get(opt.trial.key, 0) + 1
        order = sorted((o for o in seen.values() if o.trial.key in fixes), key=lambda o: -fixes[o.trial.key])
        for opt in order:
            self.tallies[opt.trial.key] = Tally(whole=False)
        return self._best(order[:JOINT_OPTIONS], {k: float(v) for k, v in fixes.items()}, 0.0)

    def choose_joint(self) -> Option | None:
        """Up to JOINT_SIZE values that only together make records clean (R17.4 and R17.5's 责任鸡 with
        its value: a claimed 1s owes 1 only where its discarder is not ready). Built on JOINT_SAMPLE
        records not clean, each on its own: the values that change it, nearest its claimed scores
        first (JOINT_FIRST); each with the values its answer under it reads (JOINT_WIDTH); the pairs
        nearest with a third the same way (JOINT_KEEP). The combinations that make a sampled record
        clean are tried on every record not clean and tallied in full as above."""
        made: dict[str, Option | None] = {}
        found: list[Option] = []
        singles = self._singles()
        for case in _spread([c for c in self.cases if not c.clean], JOINT_SAMPLE):
            level = self._nearest(case, [[o] for o in singles], JOINT_FIRST, made)
            for size in range(2, JOINT_SIZE + 1):
                grown = [[*combo, o] for combo in level for o in self._read_under(case, combo, singles, made)]
                level = self._nearest(case, grown, JOINT_KEEP, made)
                found += [c for combo in grown for c in [self._combo(combo, made)]
                          if c is not None and case.under(c).clean]
        return self._joint_best(found)

    def _read_under(self, case: Case, combo: list[Option], singles: list[Option],
                    made: dict[str, Option | None]) -> list[Option]:
        """The values (of other parameters) a record's answer under `combo` read, JOINT_WIDTH at most."""
        opt = self._combo(combo, made)
        if opt is None:
            return []
        reads = case.tried[opt.trial.key].reads if opt.trial.key in case.tried else 0
        cur = case.current
        assert cur is not None
        params = {o.trial.parameter for o in combo}
        tables = {p.split(".")[0] for p in params}

        def rank(o: Option) -> int:
            # first what the combination made the record read anew (the 责任鸡 value under `any`), then
            # the parameters of the same table (`kill_declared.mode` beside its value), then the rest
            return 0 if o.diff & reads & ~cur.reads else 1 if o.trial.parameter.split(".")[0] in tables else 2

        near = [o for o in singles if o.trial.parameter not in params and o.diff & reads]
        return sorted(near, key=rank)[:JOINT_WIDTH]

    def _nearest(self, case: Case, combos: list[list[Option]], keep: int,
                 made: dict[str, Option | None]) -> list[list[Option]]:
        """The `keep` combinations, of those that change the record, that bring it nearest its claimed
        result: fewest parts wrong, then the scores' distance from the claimed ones (order kept on a tie)."""
        cur, claimed = case.current, case.claimed
        assert cur is not None
        opts = [(combo, o) for combo in combos for o in [self._combo(combo, made)] if o is not None]
        case.fill(self.current, [o for _, o in opts], self.settings, self.counts)

        def distance(o: Option) -> tuple[int, int]:
            got = case.under(o)
            far = sum(abs(a - b) for a, b in zip(got.scores, claimed)) if got.scores and claimed else 1 << 30
            return len(got.wrong), far

        moved = [(combo, o) for combo, o in opts if case.under(o).computed != cur.answer.computed]
        moved.sort(key=lambda co: distance(co[1]))
        return [combo for combo, _ in moved[:keep]]

    def choose_partial(self) -> Option | None:
        """A value hidden behind another cause: it fixes no record and spoils none, but on PARTIAL_MIN
        records or more it leaves fewer parts wrong and none newly wrong (`Tally.partial`): what it
        would fix once the other cause is removed (`rob_kong_burn` false where every hand it touches
        is wrong for another reason too). The most such records first; asked last."""
        order = sorted((o for o in self._singles() if self.tallies[o.trial.key].partial >= max(PARTIAL_MIN, self.min_gain)
                        and not self.tallies[o.trial.key].spoiled and not self.tallies[o.trial.key].fixes),
                       key=lambda o: -self.tallies[o.trial.key].partial)
        for opt in order:
            t = self._weigh(opt, 0)
            if t is not None and t.breaks == 0 and t.fixes == 0 and not t.spoiled:
                return opt
        return None

    def _solved(self, asked: list[Case]) -> list[Option]:
        """Numbers no enumeration names (kong_flower_bonus 5 where the base pays 3), solved from the
        records: where a value v1 of a number parameter moves a record's scores from s0 (at the
        current v0) by d, the value v0 + k (v1 - v0) with claimed - s0 = k d would give the claimed
        scores if the payments grow in step with the number. Each value so solved becomes an option
        like the others, answered and tallied in full before it can be taken (SOLVED of them, the
        most often solved first)."""
        known = {o.trial.key for o in self.options}
        absent = {o.trial.parameter for o in self.options if value_at(self.current.profile, o.trial.parameter) is None}
        found: dict[tuple[str, int], int] = {}
        for case in asked:
            cur, claimed = case.current, case.claimed
            if cur is None or cur.answer.scores is None or claimed is None:
                continue
            mine: set[tuple[str, int]] = set()
            for opt in self.options:
                v0, v1 = value_at(self.current.profile, opt.trial.parameter), opt.trial.value
                if opt.trial.together or not (_number(v1) and opt.diff & cur.reads):
                    continue
                if _number(v0):
                    value = _solve(cur.answer.scores, case.tried[opt.trial.key].answer.scores, claimed, v0, v1)
                elif v0 is None and opt.trial.parameter in absent and (other := self._second(opt, case)) is not None:
                    # absent: the line through two values tried (`audit.candidates.PROBES`)
                    s1 = case.tried[opt.trial.key].answer.scores
                    value = _solve(s1, case.tried[other.trial.key].answer.scores, claimed, v1,
                                   other.trial.value) if s1 is not None else None
                else:
                    continue
                if value is not None:
                    mine.add((opt.trial.parameter, value))
            for key in mine:
                found[key] = found.get(key, 0) + 1
        out: list[Option] = []
        for (parameter, value), _ in sorted(found.items(), key=lambda kv: -kv[1]):
            made = trial(self.current.profile, parameter, value)
            if made is not None and made.key not in known:
                setting = self.settings.of(made.profile)
                out.append(Option(made, setting, self.settings.diff(self.current, setting)))
                known.add(made.key)
            if len(out) == SOLVED:
                break
        return out

    def _second(self, opt: Option, case: Case) -> Option | None:
        """Another number tried for the same absent parameter on this record, after `opt` in order."""
        cur = case.current
        assert cur is not None
        return next((o for o in self.options if o is not opt and o.trial.parameter == opt.trial.parameter
                     and _number(o.trial.value) and not o.trial.together and o.diff & cur.reads
                     and o.trial.key in case.tried), None)

    def ties(self, chosen: Option) -> tuple[tuple[str, Any], ...]:
        """The other values tallied in full that gain as much, with as many fixes."""
        t = self.tallies[chosen.trial.key]
        return tuple((o.trial.parameter, o.trial.value) for o in self.options if o is not chosen
                     and o.trial.key in self._whole and self.tallies[o.trial.key].gain == t.gain
                     and self.tallies[o.trial.key].fixes == t.fixes
                     and self.tallies[o.trial.key].partial == t.partial)

    def take(self, chosen: Option) -> None:
        """Move to the chosen value."""
        parameter = chosen.trial.parameter
        back = options_key(setting_options(parameter, value_at(self.current.profile, parameter)))
        for case in self.cases:
            case.take(chosen, back)
        self.current = chosen.setting
        self.options = self._options()
        self.counts.passes += 1
        self._pass_costs.append(self.counts.pairs - self._pass_from)
        self._pass_from = self.counts.pairs
        self._ahead = max(self._ahead - 1, 0)
        self._estimate()
        self.reporter.taken += 1
        self.reporter.report()

    def finish(self) -> None:
        """The evidence against the fitted profile. The last `choose` was exact: every value has been
        tried on every record still not clean (what it fixes). What it does to the clean ones is
        measured, per parameter, for going back to the base's value and for the value that fixes
        the most (the first of a tie), without watching (nothing is reused after this)."""
        by: dict[str, list[Option]] = {}
        for opt in self.options:
            by.setdefault(opt.trial.parameter, []).append(opt)
        wanted: list[Option] = []
        for parameter, opts in by.items():
            theirs = value_at(self.base, parameter)
            back = [o for o in opts if o.trial.value == theirs and theirs != value_at(self.current.profile, parameter)]
            best = max(opts, key=lambda o: self.tallies[o.trial.key].fixes)
            wanted += [o for o in {id(o): o for o in [*back, best]}.values() if o.trial.key not in self._whole]
        self.reporter.estimate = self.counts.pairs + len(self.cases) * len(wanted)  # what `_complete` weighs
        self.reporter.report()
        self._complete(wanted, watched=False)
        self.reporter.report()  # the search's last word: every pair it weighs weighed

    def tally(self, opt: Option) -> Tally:
        """An option's tally against the current profile."""
        return self.tallies[opt.trial.key]


def _fitted_options(steps: list[Step], base: Profile, search: _Search) -> dict[str, Any]:
    """The options that make the fitted profile from the base: the steps' own, less those back at
    the base's value, checked to give that very profile."""
    out: dict[str, Any] = {}
    for step in steps:
        out.update(step.options)
    out = {k: v for k, v in out.items() if value_at(base, k) != v or type(value_at(base, k)) is not type(v)}
    if search.settings.of(apply_options(base, out)) is not search.current:  # pragma: no cover - a bug
        raise RuntimeError(f"the fitted options {out!r} do not give the fitted profile")
    return out


def _step_of(parameter: str, steps: list[Step]) -> Step | None:
    """The last step that set a parameter: itself, its table, or as the parameter another needed."""
    for step in reversed(steps):
        for key in step.options:
            if key == parameter or key.startswith(parameter + ".") or parameter.startswith(key + "."):
                return step
    return None


def _evidence(search: _Search, steps: list[Step]) -> list[Evidence]:
    """Per parameter, every value tried against the fitted profile; the fitted value (when not the
    base's) by what going back to the base's value would undo, else (no way back is tried: a table
    taken whole, a parameter another needs) by the tally of the step that set it."""
    by: dict[str, list[Option]] = {}
    for opt in search.options:
        by.setdefault(opt.trial.parameter, []).append(opt)
    out = []
    for parameter, opts in by.items():
        theirs, mine = value_at(search.base, parameter), value_at(search.current.profile, parameter)
        rows = [Tried(o.trial.value, search.tally(o)) for o in opts]
        if theirs != mine:
            back = next((o for o in opts if o.trial.value == theirs), None)
            step = _step_of(parameter, steps)
            tally = search.tally(back).reversed() if back is not None else step.tally if step else Tally(whole=False)
            rows.insert(0, Tried(mine, tally, fitted=True))
        out.append(Evidence(parameter, theirs, mine, tuple(rows)))
    return out


def _explained_by(case: Case, search: _Search) -> tuple[tuple[str, Any, Tally], ...]:
    found = [o for o in search.options if case.under(o).clean]
    found.sort(key=lambda o: -search.tally(o).gain)
    return tuple((o.trial.parameter, o.trial.value, search.tally(o)) for o in found[:EXPLAINED_BY])


def _together(made: Trial) -> tuple[tuple[str, Any], ...]:
    """The values taken with a trial's own: those it was combined with, and any parameter the loader
    needed set with it (`dou_ready_test` "ever" needs `dou_requires_ready` true: both are taken)."""
    mine = {made.parameter, *(p for p, _ in made.together)}
    needed = tuple((k, v) for k, v in made.options.items()
                   if not any(k == p or k.startswith(p + ".") for p in mine))
    return made.together + needed


def _next(search: _Search, steps: list[Step]) -> tuple[Option, How] | None:
    """The next value to take, in a fixed order of ways (`How`): a single value (on a sample, then on
    every record not clean), a pair, a value taken earlier undone or replaced, up to three values
    together, a value that fixes records only in part; None when none gains."""
    if (one := search.choose(exact=False) or search.choose(exact=True)) is not None:
        return one, How.SINGLE
    if (pair := search.choose_pair()) is not None:
        return pair, How.PAIR
    taken = sorted({p for s in steps for p in (s.parameter, *(q for q, _ in s.together))})
    if taken and (back := search.choose_back(taken)) is not None:
        return back, How.BACK
    if (joint := search.choose_joint()) is not None:
        return joint, How.JOINT
    if (part := search.choose_partial()) is not None:
        return part, How.PARTIAL
    return None


def fit(records: list[Record], base_name: str, *, name: str | None = None, min_gain: int = MIN_GAIN,
        progress: Callable[[Progress], None] | None = None) -> Fit:
    """The profile under which the most of `records` are clean, searched from the profile
    `base_name` (ProfileError when there is none); `name` names the fitted profile (default
    `<base>_fit`). Each record is read as the platform's answer under its own conventions: its own
    `rules.profile` and `rules.options` are not read (as a what-if under `base_name` would not).
    `progress`, when given, is told how far the fit has come (`Progress`) as it works, from the
    thread that runs it."""
    base = load_profile(base_name)
    fitted_name = check_profile_name(name or f"{base.name}_fit", "name")  # a profile file is named after it
    usable: list[Record] = []
    invalid: list[Unexplained] = []
    for record in records:
        if _usable(record, base):
            usable.append(record)
        else:
            invalid.append(Unexplained(record, audit_hand(record.doc, profile=base.name)))
    search = _Search([Case(r.doc, index=i) for i, r in enumerate(usable)], base, min_gain, progress=progress)
    search.start()
    clean = clean_before = sum(1 for c in search.cases if c.clean)
    steps: list[Step] = []
    while (found := _next(search, steps)) is not None:
        chosen, how = found
        t = search.tally(chosen)
        clean += t.gain
        steps.append(Step(chosen.trial.parameter, chosen.trial.value, chosen.trial.options, t, clean,
                          search.ties(chosen), _together(chosen.trial), how,
                          tuple(usable[i].source for i in t.fixed), tuple(usable[i].source for i in t.broken)))
        search.take(chosen)
    search.finish()
    for case in search.cases:
        case.table = None  # (about 10 kB a record, not needed by the audit below)
    options = _fitted_options(steps, base, search)
    fitted = replace(search.current.profile, name=fitted_name,
                     title=f"{base.title}, fitted to {len(usable)} records",
                     source=f"fit.cli of {len(usable)} records from {base.name} ({base.source})")
    unexplained = []
    clean_after = 0
    search.reporter.enter(Phase.AUDITING)
    for record, case in zip(usable, search.cases):
        audit = audit_hand(_without_own_rules(record.doc, base), profile=base.name, options=options or None,
                           schema_checked=True)
        if verdict_of(audit.findings) is Verdict.CLEAN:
            clean_after += 1
        else:
            unexplained.append(Unexplained(record, audit, _explained_by(case, search)))
        search.reporter.record_done()
    search.reporter.report()
    return Fit(base, fitted, options, len(records), len(usable), clean_before, clean_after, tuple(steps),
               tuple(_evidence(search, steps)), tuple(unexplained), tuple(invalid), search.counts)
