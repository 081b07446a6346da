"""Where a document or a hand came from: a file, a member of a zip, a line of JSON lines, a hand
of a match, a record of the store. One value for the upload path (`records.ingest`) and the
batch (`batch`), so both name an item the same way in their messages, receipts and rows."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Origin:
    """Where an item came from, precise enough for a person to find it."""

    file: str
    member: str | None = None
    line: int | None = None
    hand: int | None = None
    """The hand's index in a match, once the match is split into hands."""
    record_id: int | None = None
    """The record of the service's store it was read from (`--from-db`)."""

    def label(self) -> str:
        """`file!member:line#hands[i]`, or `file#record/12` for the store: the short form of messages."""
        text = self.file
        if self.member is not None:
            text += f"!{self.member}"
        if self.line is not None:
            text += f":{self.line}"
        if self.hand is not None:
            text += f"#hands[{self.hand}]"
        if self.record_id is not None:
            text += f"#record/{self.record_id}"
        return text

    def with_hand(self, index: int) -> Origin:
        """The origin of hand `index` of the match found here."""
        return Origin(self.file, self.member, self.line, index, self.record_id)


__all__ = ["Origin"]
