"""The languages the audit renders text in.

Its own module so that both the message catalogue (`audit.catalogue`) and the
rulebook texts (`audit.rulebook`, which the catalogue imports) can name a
language without an import cycle; `audit.catalogue` re-exports it.
"""
from __future__ import annotations

from enum import Enum


class Lang(str, Enum):
    """A language messages are rendered in."""

    EN = "en"
    """English: the words the audit JSON has always had."""
    ZH = "zh"
    """Chinese, in the players' terms (碰, 点豆, 热炮, 查叫 ...)."""


__all__ = ["Lang"]
