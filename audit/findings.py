"""What the audit reports: findings, verdicts, and the error raised by the strict policy.

A finding carries a stable `code` and its `params`, never prose: the words are
rendered from the catalogue (`audit.catalogue`) only when asked, in the asked
language, so building a finding costs no formatting.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from collections.abc import Sequence
from typing import Any

from audit.catalogue import Lang, finding_message


class Kind(str, Enum):
    """The `kind` of a finding (record-format.md)."""

    SCHEMA = "schema"
    """The document fails the schema or R1 (verdict invalid)."""
    ILLEGAL = "illegal"
    """A move breaks a rule, or a hand's place in a match does."""
    MISSETTLED = "missettled"
    """Play was legal but the claimed result differs from the computed one."""


class Verdict(str, Enum):
    """The verdict of one hand, worst first."""

    INVALID = "invalid"
    """Fails the schema or R1.2: nothing was replayed."""
    ILLEGAL = "illegal"
    """Replay found an illegal move (or a match continuity break)."""
    MISSETTLED = "missettled"
    """Legal play, wrong result."""
    CLEAN = "clean"
    """Legal play and the result the rules require."""


@dataclass(frozen=True)
class Finding:
    """One problem: the step (event index) or None, the rule section that decides it, and
    what went wrong as a catalogue `code` with its `params` (JSON values)."""

    kind: Kind
    rule: str | None
    code: str
    params: dict[str, Any]
    step: int | None = None
    seat: int | None = None
    expected: Any = None
    actual: Any = None

    def message(self, lang: Lang | str = Lang.EN, names: Sequence[str] = ()) -> str:
        """The finding in words, in `lang`, seats named by the players' `names`."""
        return finding_message(self.code, self.params, self.rule, lang, names)

    def to_json(self, lang: Lang | str = Lang.EN, names: Sequence[str] = ()) -> dict[str, Any]:
        """The contract's finding object, its message in `lang`."""
        return {"step": self.step, "seat": self.seat, "rule": self.rule, "kind": self.kind.value,
                "code": self.code, "params": self.params, "message": self.message(lang, names),
                "expected": self.expected, "actual": self.actual}


def verdict_of(findings: list[Finding]) -> Verdict:
    """The worst kind present decides the verdict."""
    kinds = {f.kind for f in findings}
    if Kind.SCHEMA in kinds:
        return Verdict.INVALID
    if Kind.ILLEGAL in kinds:
        return Verdict.ILLEGAL
    if Kind.MISSETTLED in kinds:
        return Verdict.MISSETTLED
    return Verdict.CLEAN


class IllegalMoveError(ValueError):
    """Raised by the strict replay policy (the simulator) instead of recording a finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(f"illegal move at step {finding.step} ({finding.rule}): {finding.message()}")
        self.finding = finding


def illegal(rule: str, code: str, params: dict[str, Any], step: int | None, seat: int | None = None,
            expected: Any = None, actual: Any = None) -> Finding:
    """Shorthand used by the rules module."""
    return Finding(Kind.ILLEGAL, rule, code, params, step, seat, expected, actual)
