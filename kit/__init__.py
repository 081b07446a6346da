"""The conformance kit: cases that cover a profile's rules, and the check of a client's answers.

`python -m kit build` plays seeded hands with the simulator, keeps the
ones the engine says exercise what is still under its count (every rule
section, rare event and profile parameter that applies to the profile), adds
one-illegal-move records from the mutation harness, and writes a folder a
client team can run its own engine over. `python -m kit check` compares
the team's answers with the engine's and says, per failing case, which rule
was broken, in the engine's own finding codes and messages.
"""
from __future__ import annotations

KIT_FORMAT = "zhuoji-kit/1"
"""The kit's format: the manifest's fields and the answer lines (docs/conformance.md)."""

__all__ = ["KIT_FORMAT"]
