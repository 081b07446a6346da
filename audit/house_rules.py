"""Every house-rule parameter of the rulebook (R17, R18, R19) as one record: the one list its consumers read.

A platform convention is one profile parameter whose default is today's rule. What the project needs to
know of it beyond its type (which lives in the dataclasses of `audit.profiles`) is declared here, once:
its rulebook sections and the values each defines, what it needs from the rest of the profile, the values
the fit and the attribution try, whether it acts on an exhaustive draw, the payment kinds it touches, its
simulator row and knob, its mutation class and what a conformance case must show of it. Everything that
used to keep its own list derives from `HOUSE_RULES`: the loader's refusals (`audit.profiles`), the
explanation models and their finding codes (`audit.explain`), the values tried (`audit.candidates`), the
rule lists of `catalogue/findings.toml` (`audit.catalogue`), the kit's coverage rows (`kit.coverage`), the
simulator's tags and knobs (`sim.simulate`, `sim.bots`), the mutator's classes (`sim.mutate`) and the
parameter table of docs/house-rules.md (`python -m audit.house_rules`). Its words are the entry of its
`path` in `catalogue/parameters.toml`. This module imports nothing of the engine but the item kinds, so
that the profiles and the catalogue can read it.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from audit.kinds import ItemKind


class Fault(Enum):
    """How the mutation harness plants a platform that does not play a house rule."""

    LEAVE_OUT = "leave_out"
    """One payment the rule requires is left out of the claimed ledger."""
    PAY_WAIVED = "pay_waived"
    """One payment the rule cancels is paid all the same."""
    OWN = "own"
    """A mutator of its own in sim/mutate.py, named by the section's `mutation`."""


PRESENT: Final = "(present)"
"""A `Need` value: the table the path names must exist in the profile (R18.1 "only where `dealer_bonus`
is set")."""


@dataclass(frozen=True)
class Need:
    """A condition on another parameter: `path` (dotted) must have `value`, or be present (PRESENT)."""

    path: str
    value: Any

    def holds(self, prof: Any) -> bool:
        """Whether the profile meets it (a missing table meets nothing)."""
        holder = value_of(prof, self.path)
        return holder is not None if self.value == PRESENT else bool(holder == self.value)

    def words(self) -> str:
        """The value as the loader's message shows it (`true`, `'all'`)."""
        if isinstance(self.value, bool):
            return "true" if self.value else "false"
        return repr(self.value)


@dataclass(frozen=True)
class Section:
    """One rulebook section of a house-rule parameter: the values it defines and how it shows."""

    rule: str
    values: tuple[Any, ...]
    """The non-default values this section defines; () for a number (any value but absent)."""
    tag: str
    """The simulator's summary row: hands where a payment citing `rule` is paid or waived."""
    mutation: str
    """The mutation class planting a platform that does not play it (sim/mutate.py)."""
    fault: Fault
    shows: str
    """What a conformance case must show to exercise it (kit/coverage.py)."""
    pays: bool = True
    """It makes payments that cite `rule`."""
    waives: bool = False
    """It cancels payments, which the settlement keeps as waived citing `rule`."""


@dataclass(frozen=True)
class HouseRule:
    """One house-rule parameter: its dotted `path` in the profile, today's rule, and its sections."""

    path: str
    default: Any
    sections: tuple[Section, ...]
    tries: tuple[Any, ...]
    """The values the attribution (R16.16) and the fit try where the profile plays today's rule."""
    kinds: frozenset[ItemKind]
    """The payment kinds its payments (paid or waived) are of."""
    needs: tuple[Need, ...] = ()
    """The loader refuses a value other than the default without these (R16.10: an option the profile
    cannot honour)."""
    acts_under: tuple[Need, ...] = ()
    """Its values act only where these hold (a record's options may switch them per hand, so they are
    not refused; the simulator and the kit bring them into play)."""
    on_draw: bool = False
    """It changes an exhaustive draw's settlement."""
    knob: str | None = None
    """The simulator knob (`sim.bots.Knobs`) that makes it happen, asked only where it is played."""

    @property
    def rule(self) -> str:
        """The section that introduces the parameter."""
        return self.sections[0].rule

    def section_of(self, value: Any) -> Section | None:
        """The section defining `value`; None for the default."""
        if value == self.default:
            return None
        for sec in self.sections:
            if not sec.values or value in sec.values:
                return sec
        return None

    def value(self, prof: Any) -> Any:
        """The profile's value (None where its table is absent)."""
        return value_of(prof, self.path)

    def played(self, prof: Any) -> Section | None:
        """The section whose value the profile plays, where it acts; None where it plays today's rule."""
        if not all(need.holds(prof) for need in self.needs + self.acts_under):
            return None
        return self.section_of(self.value(prof))

    @property
    def group(self) -> str:
        """The table it lives in (`chicken`, `dealer_bonus`), or '' for a top-level parameter."""
        return self.path.rpartition(".")[0]


def value_of(prof: Any, path: str) -> Any:
    """A parameter by dotted name (None where a table on the way is absent)."""
    holder = prof
    for part in path.split("."):
        if holder is None:
            return None
        holder = getattr(holder, part, None)
    return holder


_CHICKEN = frozenset({ItemKind.CHICKEN})
_DOU = frozenset({ItemKind.DOU})
_HAND = frozenset({ItemKind.HAND})
_READY_CHICKENS = (Need("chicken_requires_ready", True),)
_READY_DOU = (Need("dou_requires_ready", True),)
_WUGU = (Need("wugu_ji.enabled", True),)

HOUSE_RULES: Final[tuple[HouseRule, ...]] = (
    HouseRule("chicken.exposed_payers", "owner", (
        Section("R17.1", ("all_unready",), "包鸡", "r17_1_shared_missing", Fault.LEAVE_OUT, "包鸡 (R17.1)",
                waives=True),), ("all_unready",), _CHICKEN, needs=_READY_CHICKENS),
    HouseRule("chicken.qualified_pay_each_other", True, (
        Section("R17.2", (False,), "听牌互不付鸡", "r17_2_qualified_paid", Fault.PAY_WAIVED,
                "qualifying seats not paying each other (R17.2)", waives=True),), (False,), _CHICKEN,
        needs=_READY_CHICKENS),
    HouseRule("chicken.claimed_charge", "none", (
        Section("R17.3", ("to_claimer",), "碰杠冲锋鸡", "r17_3_claimed_extra_missing", Fault.LEAVE_OUT,
                "a claimed 冲锋鸡 (R17.3)"),
        Section("R19.2", ("to_ready_claimer",), "听牌者冲锋", "r19_2_charge_missing", Fault.LEAVE_OUT,
                "a claimed 冲锋鸡, whole, of a ready claimer or its discarder (R19.2)", waives=True),
    ), ("to_claimer", "to_ready_claimer"), _CHICKEN),
    HouseRule("chicken.responsibility_claims", "first", (
        Section("R17.4", ("any",), "后碰责任鸡", "r17_4_responsibility_missing", Fault.LEAVE_OUT,
                "a 责任鸡 of a later claim (R17.4)"),), ("any",), _CHICKEN, knob="feed_claim"),
    HouseRule("chicken.responsibility_if_discarder_ready", True, (
        Section("R17.5", (False,), "听牌免责任鸡", "r17_5_responsibility_paid", Fault.PAY_WAIVED,
                "a 责任鸡 waived for a ready discarder (R17.5)", pays=False, waives=True),), (False,), _CHICKEN),
    HouseRule("chicken.wugu_gold", False, (
        Section("R17.6", (True,), "乌骨金鸡", "r17_6_gold_missing", Fault.OWN, "a golden 8p (R17.6)"),),
        (True,), _CHICKEN, acts_under=_WUGU),
    HouseRule("dou_unready", "void", (
        Section("R17.7", ("reverse",), "倒赔", "r17_7_reverse_missing", Fault.LEAVE_OUT,
                "a kong paid in reverse (倒赔, R17.7)"),), ("reverse",), _DOU, needs=_READY_DOU),
    HouseRule("follow_dealer", None, (
        Section("R17.8", (), "跟庄", "r17_8_follow_missing", Fault.LEAVE_OUT, "跟庄 (R17.8)"),),
        (1,), frozenset({ItemKind.FOLLOW_DEALER}), knob="follow"),
    HouseRule("chicken.wugu_responsibility", True, (
        Section("R17.9", (False,), "乌骨无责任", "r17_9_responsibility_paid", Fault.PAY_WAIVED,
                "a claimed 8p without 责任鸡 (R17.9)", pays=False, waives=True),), (False,), _CHICKEN,
        acts_under=_WUGU),
    HouseRule("chicken.charge_scope", "per_species", (
        Section("R17.10", ("first_any",), "一手一冲锋", "r17_10_second_charge", Fault.OWN,
                "one 冲锋鸡 a hand (R17.10)", waives=True),), ("first_any",), _CHICKEN, acts_under=_WUGU),
    HouseRule("dealer_bonus.on", "both", (
        Section("R18.1", ("dealer_wins",), "庄赢才加", "r18_1_dealer_bonus_paid", Fault.PAY_WAIVED,
                "a dealer bonus only a winning dealer receives (R18.1)", pays=False, waives=True),),
        ("dealer_wins",), frozenset({ItemKind.DEALER}), needs=(Need("dealer_bonus", PRESENT),), on_draw=True),
    HouseRule("dou.exposed_payer", "discarder", (
        Section("R18.2", ("konger",), "点豆反付", "r18_2_paid_by_discarder", Fault.OWN,
                "an exposed kong paid by its konger (R18.2)", waives=True),), ("konger",),
        frozenset({ItemKind.DOU, ItemKind.HOT_SHOT})),
    HouseRule("dou_ready_test", "at_end", (
        Section("R18.3", ("ever",), "听过收豆", "r18_3_ever_dou_missing", Fault.LEAVE_OUT,
                "a kong judged by readiness after a discard (R18.3)", waives=True),), ("ever",), _DOU,
        needs=_READY_DOU, knob="break_ready"),
    HouseRule("hot_shot.burn_liabilities", "kept", (
        Section("R18.4", ("void",), "两边全烧", "r18_4_liability_paid", Fault.PAY_WAIVED,
                "a burned shooter's 冲锋鸡 / 责任鸡 void (R18.4)", waives=True),
        Section("R19.4", ("void_all",), "鸡全烧", "r19_4_liability_paid", Fault.PAY_WAIVED,
                "a burned shooter's own chickens all void (R19.4)", pays=False, waives=True),
    ), ("void", "void_all"), _CHICKEN, needs=(Need("hot_shot.burn", "all"),), knob="liable_shot"),
    HouseRule("chicken.exposed_kong_claim", "responsibility", (
        Section("R18.5", ("keeps_charge",), "点豆冲锋", "r18_5_responsibility_paid", Fault.PAY_WAIVED,
                "an exposed kong of the first 1s keeping the 冲锋鸡 (R18.5)", waives=True),), ("keeps_charge",),
        _CHICKEN, knob="bird_kong"),
    HouseRule("chicken.unready_melded", "pays", (
        Section("R19.1", ("free",), "碰杠鸡不赔", "r19_1_melded_paid", Fault.PAY_WAIVED,
                "the melded chickens of a seat that does not qualify cost nothing (R19.1)", pays=False,
                waives=True),), ("free",), _CHICKEN, needs=_READY_CHICKENS),
    HouseRule("rob_kong_multiple", None, (
        Section("R19.3", (), "抢杠倍数", "r19_3_rob_multiple_missing", Fault.LEAVE_OUT,
                "a robbed kong paid by the robbed seat alone, a multiple of the discard value (R19.3)"),),
        (2, 3, 4), _HAND),
    HouseRule("hot_shot.multiplier", None, (
        Section("R19.5", (), "热炮翻倍", "r19_5_multiplier_missing", Fault.LEAVE_OUT,
                "a hot-shot win multiplied (R19.5)"),), (2, 3), _HAND),
    HouseRule("chicken.won_tile", "winner", (
        Section("R19.6", ("both",), "胡牌鸡两算", "r19_6_pond_chicken_missing", Fault.LEAVE_OUT,
                "a chicken won on a discard counted in its discarder's pond too (R19.6)"),), ("both",), _CHICKEN,
        knob="feed_bird"),
)
"""Every R17, R18 and R19 parameter, in rulebook order of the section that introduces it."""

BY_PATH: Final[dict[str, HouseRule]] = {h.path: h for h in HOUSE_RULES}
"""A house rule by its dotted parameter name."""

SECTIONS: Final[tuple[tuple[Section, HouseRule], ...]] = tuple(
    sorted(((sec, h) for h in HOUSE_RULES for sec in h.sections),
           key=lambda p: tuple(int(x) for x in p[0].rule[1:].split("."))))
"""Every house-rule section with its parameter, in rulebook order (R17.1 ... R19.6)."""

BY_RULE: Final[dict[str, tuple[Section, HouseRule]]] = {sec.rule: (sec, h) for sec, h in SECTIONS}
"""A house-rule section (`R19.2`) and its parameter."""


def rules(*, pays: bool | None = None, waives: bool | None = None) -> list[str]:
    """The house-rule sections, in rulebook order; `pays`/`waives` keep those that do (or do not)."""
    return [sec.rule for sec, _ in SECTIONS
            if (pays is None or sec.pays == pays) and (waives is None or sec.waives == waives)]


def is_house_rule(rule: str) -> bool:
    """Whether a cited rule is a house-rule section."""
    return rule in BY_RULE


def played(prof: Any) -> list[tuple[Section, HouseRule]]:
    """The house-rule sections a profile plays (where they act)."""
    out = []
    for h in HOUSE_RULES:
        sec = h.played(prof)
        if sec is not None:
            out.append((sec, h))
    return out


def off_default(prof: Any, kind: ItemKind) -> bool:
    """Whether a house rule whose payments are of `kind` is set off today's rule (where it acts or not)."""
    for h in HOUSE_RULES:
        if kind in h.kinds:
            value = h.value(prof)
            if value is not None and value != h.default:
                return True
    return False


def refusal(prof: Any) -> tuple[HouseRule, Need] | None:
    """The first house rule the profile sets off its default without what it needs, and that need."""
    for h in HOUSE_RULES:
        value = h.value(prof)
        if value is None or value == h.default:
            continue
        for need in h.needs:
            if not need.holds(prof):
                return h, need
    return None


def _cell(value: Any) -> str:
    if value is None:
        return "absent"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value}`"


def _need(need: Need) -> str:
    return f"`{need.path}` set" if need.value == PRESENT else f"`{need.path}` = `{need.words()}`"


def table() -> str:
    """The parameter table of docs/house-rules.md (generated: `python -m audit.house_rules`)."""
    lines = ["| section | parameter | today's rule | value | needs (refused without) | acts on a draw | payments |",
             "|---|---|---|---|---|---|---|"]
    for sec, h in SECTIONS:
        values = ", ".join(_cell(v) for v in sec.values) if sec.values else "an integer (ranged: docs/trust.md)"
        needs = ", ".join([*(_need(n) for n in h.needs), *(f"acts only where {_need(n)}" for n in h.acts_under)])
        what = [w for w, on in (("paid", sec.pays), ("waived", sec.waives)) if on]
        kinds = ", ".join(sorted(k.value for k in h.kinds))
        lines.append(f"| {sec.rule} | `{h.path}` | {_cell(h.default)} | {values} | {needs or '-'} | "
                     f"{'yes' if h.on_draw else 'no'} | {kinds} ({' and '.join(what)}) |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover - the docs' generator, checked by tests/audit/test_house_rules.py
    sys.stdout.write(table())
