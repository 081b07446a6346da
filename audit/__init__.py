"""The audit engine: tiles, hands, profiles, replayer, settlement (no Flask here)."""
from audit import native as _native

_native.check()
