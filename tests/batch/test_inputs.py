"""batch.inputs: a lines partition gives back every line as written, however long, with its number."""
from __future__ import annotations

from pathlib import Path

from batch.inputs import LINE_BUFFER, Sizes, plan


def test_lines_around_the_read_buffer_come_back_whole_with_their_numbers(tmp_path: Path) -> None:
    sizes = [10, LINE_BUFFER - 1, LINE_BUFFER, LINE_BUFFER + 1, 3 * LINE_BUFFER + 7, 5]
    lines = [bytes([0x61 + i]) * size for i, size in enumerate(sizes)]
    blank = [b"", b"   ", b"\t \r", b"\r"]  # blank lines (a CR of CRLF too) give no document
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"\n".join(lines[:3] + blank + lines[3:]) + b"\r\n")
    documents = [doc for part in plan([str(path)], Sizes(hands=2)).partitions for doc in part.read()]
    assert [doc.raw for doc in documents] == lines
    assert [doc.origin.line for doc in documents] == [1, 2, 3, 8, 9, 10]
    assert all(doc.problem is None for doc in documents)
