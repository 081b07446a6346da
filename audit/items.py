"""A settlement's payment (`Item`): one transfer naming its kind, payer, payee, amount and rule.

Its own module, below `audit.settle` and the chicken ledger (`audit.house`), so that the ledger
makes the settlement's items itself; `audit.settle` re-exports it (`from audit.settle import Item`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from audit.catalogue import Lang, note_text
from audit.kinds import ITEM_KINDS, ItemKind
from audit.values import Note, note


@dataclass
class Item:
    """One transfer, in units; the contract's item is this times `base`."""

    kind: ItemKind
    payer: int
    payee: int
    amount: int
    rule: str
    code: str
    """The note's catalogue code (audit/catalogue/notes.toml)."""
    params: dict[str, Any]

    def __init__(self, kind: ItemKind, payer: int, payee: int, amount: int, rule: str, code: str,
                 params: dict[str, Any]) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.kind = kind
        self.payer = payer
        self.payee = payee
        self.amount = amount
        self.rule = rule
        self.code = code
        self.params = params

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "Item":
        """A record's (schema-valid) `result.items` entry, in its points, for sums: it names no rule,
        and its `note` is the platform's own text, which the audit never renders."""
        return cls(ITEM_KINDS[raw["kind"]], raw["from"], raw["to"], raw["amount"], "", "", {})

    def note(self, lang: Lang | str = Lang.EN, names: Sequence[str] = ()) -> str:
        """The working of this payment in words, in `lang`, seats named by the players' `names`."""
        return note_text(self.code, self.params, lang, names)

    def note_json(self) -> Note:
        """The note as data: {code, params}."""
        return note(self.code, self.params)

    def to_json(self, base: int, lang: Lang | str = Lang.EN, note: str | None = None) -> dict[str, Any]:
        """The contract's item object, in points; `note` is rendered in `lang` from `code` and `params`
        (unless the caller already has it)."""
        # `_value_`, not `value` (a Python-level descriptor): read for every item of every audit.
        kind: str = self.kind._value_
        return {"kind": kind, "from": self.payer, "to": self.payee, "amount": self.amount * base,
                "rule": self.rule, "code": self.code, "params": self.params,
                "note": self.note(lang) if note is None else note}
