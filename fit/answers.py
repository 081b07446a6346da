"""A record's answer under a profile, and when an answer found under one profile holds under another.

The fit (`fit.search`, docs/fit.md) asks, for thousands of records and a hundred and more
profiles each, whether the record is clean. Asking the engine every time would cost hours; most
of those questions are answered without it:

- the record is replayed and settled once under the current profile, watching which parameters
  the engine read (`audit.reads`): a profile that differs only in parameters the record never read
  gives the same answer, and is not tried on it (`skipped`);
- an answer found under one profile holds under any other that agrees with it on every parameter
  that answer read, so a later pass of the search reuses it (`reused`);
- a profile that differs only in parameters the settlement read, never the replay, is tried by
  settling the replayed table again (`settlements`), not by replaying the hand (`replays`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from audit.api import Profile
from audit.play import GameState, Settlement, Trial, Watch, agrees, differing, flatten, replay, settle
from audit.vocabulary import code


ILLEGAL: Final = frozenset({"illegal"})
"""What is wrong with a record the replay finds an illegal move in (no part of it settles)."""

EVERYTHING: Final = -1
"""The reads of an answer found without watching: every bit set, so it holds under no other profile."""


@dataclass(frozen=True)
class Answer:
    """What the engine made of a record under one profile: whether it is clean, and a digest of
    what it computed (the illegal move, or scores, next dealer, flip and the sum of every kind of
    payment between two seats), which tells the values that change a record from those that do not."""

    clean: bool
    computed: int
    scores: tuple[int, ...] | None = None
    """Each seat's net in units (None after an illegal move): what the fit solves a number from."""
    wrong: frozenset[str] = frozenset()
    """What differs from the claimed result (a settled record not clean): each payment sum
    `kind:payer:payee` that differs, `next_dealer`, `flip`, or `scores` where the record lists no
    items. The fit counts a value that leaves fewer of them wrong, adding none, as fixing part of a
    record (`fit.search.Tally.partial`): what it would fix once another cause is removed."""


class Setting:
    """A profile the fit evaluates: its parameters flat (`audit.reads.flatten`) and a watched copy."""

    def __init__(self, profile: Profile, flat: dict[str, Any]) -> None:
        self.profile = profile
        self.flat = flat
        self._watch: Watch | None = None

    @property
    def watch(self) -> Watch:
        """The watched copy, made when first needed."""
        if self._watch is None:
            self._watch = Watch(self.profile)
        return self._watch


class Settings:
    """Every profile evaluated so far, one `Setting` per distinct set of values, and the masks of
    the parameters two of them set differently."""

    def __init__(self) -> None:
        self._by_values: dict[tuple[tuple[str, str], ...], Setting] = {}
        self._diff: dict[tuple[int, int], int] = {}

    def of(self, prof: Profile) -> Setting:
        """The setting of a profile (its name, title and source do not count)."""
        flat = {k: v for k, v in flatten(prof).items() if k not in ("name", "title", "source")}
        key = tuple(sorted((k, repr(v)) for k, v in flat.items()))
        found = self._by_values.get(key)
        if found is None:
            found = self._by_values[key] = Setting(prof, flat)
        return found

    def diff(self, a: Setting, b: Setting) -> int:
        """The mask of the parameters two settings set differently."""
        if a is b:
            return 0
        key = (id(a), id(b))
        found = self._diff.get(key)
        if found is None:
            found = self._diff[key] = differing(a.flat, b.flat)
        return found


class Eval:
    """One answer and what it rests on: the setting it was found under, every parameter the engine
    read (`reads`), and those the replay alone read (`replay_reads`)."""

    __slots__ = ("setting", "answer", "reads", "replay_reads")

    def __init__(self, setting: Setting, answer: Answer, reads: int, replay_reads: int) -> None:
        self.setting = setting
        self.answer = answer
        self.reads = reads
        self.replay_reads = replay_reads

    def holds(self, setting: Setting, settings: Settings) -> bool:
        """Whether this answer is the answer under `setting` too: they agree on all it read."""
        return self.setting is setting or not settings.diff(self.setting, setting) & self.reads


@dataclass
class Counts:
    """How much work the evaluation did (what `bench/bench_fit.py` reports)."""

    passes: int = 0
    pairs: int = 0
    """(record, value) pairs looked at, over all passes of the search."""
    skipped: int = 0
    """Pairs whose record never read the value's parameter: not tried, the answer cannot change."""
    reused: int = 0
    """Pairs an earlier pass answers (the two profiles agree on every parameter the answer read)."""
    replays: int = 0
    settlements: int = 0
    beat: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    """Called after each record's `Case.fill`: how the search tells its progress
    (`fit.search.Progress`) while it works; not part of the counts."""

    def to_json(self) -> dict[str, int]:
        """The counts as JSON."""
        return {"passes": self.passes, "pairs": self.pairs, "skipped": self.skipped, "reused": self.reused,
                "replays": self.replays, "settlements": self.settlements}


@dataclass
class Option:
    """A trial in one pass of the search: its setting and the parameters it sets otherwise than
    the profile the pass starts from."""

    trial: Trial
    setting: Setting
    diff: int


def _settled(st: GameState, prof: Profile) -> Settlement:
    """The settlement of a replayed table under another profile (the table keeps its own)."""
    own = st.profile
    st.profile = prof
    try:
        return settle(st)
    finally:
        st.profile = own


def _digest(sett: Settlement) -> int:
    sums: dict[tuple[str, int, int], int] = {}
    for it in sett.items:
        key = (it.kind._value_, it.payer, it.payee)  # not the slow .value descriptor
        sums[key] = sums.get(key, 0) + it.amount
    return hash((tuple(sett.scores()), sett.next_dealer, sett.flip, tuple(sorted(sums.items()))))


def _wrong(result: dict[str, Any], sett: Settlement, base: int) -> frozenset[str]:
    """The parts of a settlement that differ from the claimed result (as `agrees` reads them)."""
    out: set[str] = set()
    if result["next_dealer"] != sett.next_dealer:
        out.add("next_dealer")
    if "flip" in result and result["flip"] != (code(sett.flip) if sett.flip is not None else None):
        out.add("flip")
    if "items" not in result:
        if list(result["scores"]) != [s * base for s in sett.scores()]:
            out.add("scores")
        return frozenset(out)
    sums: dict[str, int] = {}
    for it in sett.items:
        key = f"{it.kind._value_}:{it.payer}:{it.payee}"
        sums[key] = sums.get(key, 0) + it.amount * base
    for row in result["items"]:
        key = f"{row['kind']}:{row['from']}:{row['to']}"
        sums[key] = sums.get(key, 0) - row["amount"]
    out.update(k for k, v in sums.items() if v)
    if not out and list(result["scores"]) != [s * base for s in sett.scores()]:
        out.add("scores")
    return frozenset(out)


@dataclass
class Case:
    """A record under the fit: its answer under the current profile and the values tried on it
    (by `Trial.key`; an entry is used only where it `holds`)."""

    doc: dict[str, Any]
    current: Eval | None = None
    tried: dict[str, Eval] = field(default_factory=dict)
    index: int = 0
    """The record's place in the set (what an explanation names it by)."""
    table: GameState | None = None
    """The record replayed under the current profile, kept while the replay stays the same (about
    10 kB: settling a value again costs no replay)."""

    @property
    def clean(self) -> bool:
        """Whether the record is clean under the current profile."""
        return self.current is not None and self.current.answer.clean

    def answer(self, sett: Settlement) -> Answer:
        """The answer of a settlement against the record's claimed result (R15)."""
        result, base = self.doc["result"], self.doc.get("base", 1)
        clean = agrees(result, sett, base)
        return Answer(clean, _digest(sett), tuple(sett.scores()), frozenset() if clean else _wrong(result, sett, base))

    @property
    def claimed(self) -> tuple[int, ...] | None:
        """The claimed scores in units (None when they are not whole units of `base`)."""
        base = self.doc.get("base", 1)
        scores = self.doc["result"]["scores"]
        return tuple(s // base for s in scores) if all(s % base == 0 for s in scores) else None

    def run(self, setting: Setting, counts: Counts, watched: bool = True) -> tuple[Eval, GameState | None]:
        """Replay and settle the record under a setting, watching what is read (unless not
        `watched`: the answer then counts as having read everything, `EVERYTHING`); the table too."""
        watch = setting.watch if watched else None
        rep = replay(self.doc, watch.start() if watch is not None else setting.profile)
        counts.replays += 1
        replay_reads = watch.reads.mask if watch is not None else EVERYTHING
        if rep.finding is not None:
            f = rep.finding
            answer = Answer(False, hash((f.rule, f.code, f.step, f.seat)), wrong=ILLEGAL)
            return Eval(setting, answer, replay_reads, replay_reads), None
        sett = settle(rep.state)
        counts.settlements += 1
        reads = watch.reads.mask if watch is not None else EVERYTHING
        return Eval(setting, self.answer(sett), reads, replay_reads), rep.state

    def start(self, setting: Setting, counts: Counts) -> None:
        """Take `setting` as the current profile."""
        self.current, self.table = self.run(setting, counts)

    def fill(self, current: Setting, options: list[Option], settings: Settings, counts: Counts,
             watched: bool = True) -> None:
        """Answer every option the record read, unless an earlier answer holds. Not `watched`:
        faster, but the answers count as having read everything (a later profile never reuses them)."""
        cur = self.current
        assert cur is not None
        for opt in options:
            counts.pairs += 1
            if not opt.diff & cur.reads:
                counts.skipped += 1
                continue
            old = self.tried.get(opt.trial.key)
            if old is not None and old.holds(opt.setting, settings):
                counts.reused += 1
                continue
            if opt.diff & cur.replay_reads:
                self.tried[opt.trial.key] = self.run(opt.setting, counts, watched)[0]
                continue
            if self.table is None:  # (never after an illegal move: the replay read all it read)
                rep = replay(self.doc, current.profile)
                assert rep.finding is None
                self.table = rep.state
                counts.replays += 1
            watch = opt.setting.watch if watched else None
            sett = _settled(self.table, watch.start() if watch is not None else opt.setting.profile)
            counts.settlements += 1
            reads = cur.replay_reads | watch.reads.mask if watch is not None else EVERYTHING
            self.tried[opt.trial.key] = Eval(opt.setting, self.answer(sett), reads, cur.replay_reads)
        if counts.beat is not None:
            counts.beat()

    def under(self, opt: Option) -> Answer:
        """The answer under an option (filled): the current one where the record never read it."""
        cur = self.current
        assert cur is not None
        return cur.answer if not opt.diff & cur.reads else self.tried[opt.trial.key].answer

    def take(self, chosen: Option, back_key: str) -> None:
        """Move to the chosen option's answer where it touched the record; keep the old answer as
        the answer of going back (`back_key`: it holds there)."""
        cur = self.current
        assert cur is not None
        if chosen.diff & cur.reads:
            self.current = self.tried.pop(chosen.trial.key)
            self.tried[back_key] = cur
        if chosen.diff & cur.replay_reads:
            self.table = None


__all__ = ["Answer", "Case", "Counts", "Eval", "Option", "Setting", "Settings"]
