"""Which profile parameters the engine read while it replayed or settled a hand.

A hand's answer (the first illegal move, or the settlement) is a function of the record and of
the parameters the engine read on the way: the engine has no other channel to the profile, and
it never branches on a profile's name. So a parameter the engine did not read cannot change the
answer, and two profiles that agree on every parameter it read give the same answer. The fit
(`fit.search`) leans on that to try a value only on the hands it can change (docs/fit.md).

`Watch(profile).profile` is a copy of a profile (its classes are subclasses of the profile's
own dataclasses, so the compiled engine takes it like the real one, and its fields properties)
whose every read of a parameter sets that parameter's bit in its `reads.mask`. A parameter is its dotted name, as
`rules.options` spells it (`chicken.charge`, `hand_values.ping_hu`); a table (`declared`,
`dealer_bonus`) is a parameter too, read when the engine asks whether it exists. The bits come
from one registry per process (`bit`), so masks of different hands and profiles compare.

Pattern values (`hand_values`) are watched one pattern at a time: their only readers
(`audit.hands.best`, through `score` and `ready_value`) take them as a Mapping and call `get`,
which a dict subclass answers in Python even from compiled code. Any other table of numbers is
counted read whole as soon as the engine reaches it: compiled code tests a dict's keys (`in`,
`get`) in C, past anything a subclass could watch.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from functools import cached_property
from typing import Any, Final

from audit.profiles import Profile

PER_KEY: Final = frozenset({"hand_values"})
"""Tables watched key by key (see the module's docstring for why only these)."""

WORDS_ONLY: Final = frozenset({"chicken_house_rules"})
"""Cached properties that decide only how a payment is worded, never an amount, a payer or a payee
(`Profile.chicken_house_rules`: R17's or R11's words for a 冲锋鸡): the watched copy answers them
with the profile's own value and records no read, so a hand that asks them is not counted as reading
every chicken house rule (the fit would otherwise try each on it, for nothing)."""

_BITS: dict[str, int] = {}


def bit(path: str) -> int:
    """The mask bit of a parameter (assigned on first use, the same for the whole process)."""
    found = _BITS.get(path)
    if found is None:
        found = _BITS[path] = 1 << len(_BITS)
    return found


def names(mask: int) -> list[str]:
    """The parameters of a mask, dotted, in the order their bits were assigned."""
    return [path for path, b in _BITS.items() if mask & b]


class Reads:
    """The parameters read so far, as a mask of `bit`s."""

    __slots__ = ("mask",)

    def __init__(self) -> None:
        self.mask = 0


# ---------------------------------------------------------------- flat values

_ABSENT: Final = object()
"""The flat value of a parameter a profile does not have (an absent pattern, a table left out)."""


def flatten(obj: Any, prefix: str = "") -> dict[str, Any]:
    """Every parameter of a profile (or of one of its tables) by dotted name: scalars as they are,
    a table as whether it is there (None when absent) and each of its parameters, a table of
    numbers as its items and each number."""
    out: dict[str, Any] = {}
    for f in fields(obj):
        path, value = prefix + f.name, getattr(obj, f.name)
        if is_dataclass(value):
            out[path] = True
            out.update(flatten(value, path + "."))
        elif isinstance(value, dict):
            out[path] = tuple(sorted(value.items()))
            out.update({f"{path}.{k}": v for k, v in value.items()})
        else:
            out[path] = value
    return out


def differing(a: dict[str, Any], b: dict[str, Any]) -> int:
    """The mask of the parameters two flat profiles give different values (types count: 1 is not True)."""
    mask = 0
    for path in a.keys() | b.keys():
        x, y = a.get(path, _ABSENT), b.get(path, _ABSENT)
        if type(x) is not type(y) or x != y:
            mask |= bit(path)
    return mask


# ---------------------------------------------------------------- watched copies

def _reader(reads: Reads, b: int, value: Any) -> property:
    """A field that sets bit `b` in `reads` whenever it is read, and answers `value`."""
    def get(self: Any) -> Any:
        reads.mask |= b
        return value
    return property(get)


def _constant(value: Any) -> property:
    """A field that answers `value` (itself watching its reads)."""
    def get(self: Any) -> Any:
        return value
    return property(get)


class _WatchedValues(dict[str, int]):
    """A table of numbers watched key by key (`PER_KEY`); a walk over the whole table reads it all."""

    __slots__ = ("_prefix", "_reads")

    def __init__(self, data: dict[str, int], prefix: str, reads: Reads) -> None:
        super().__init__(data)
        self._prefix = prefix
        self._reads = reads

    def _read(self, key: object) -> None:
        self._reads.mask |= bit(f"{self._prefix}{key}")

    def _read_all(self) -> None:
        self._reads.mask |= bit(self._prefix[:-1])
        for key in dict.keys(self):
            self._read(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._read(key)
        return dict.get(self, key, default)

    def __getitem__(self, key: str) -> int:
        self._read(key)
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        self._read(key)
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[str]:
        self._read_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._read_all()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._read_all()
        return dict.keys(self)

    def values(self) -> Any:
        self._read_all()
        return dict.values(self)

    def items(self) -> Any:
        self._read_all()
        return dict.items(self)


def _copy(obj: Any, prefix: str, reads: Reads, made: list[Any]) -> Any:
    """A watched copy of one parameter dataclass: a class of its own (one instance), a subclass of
    the dataclass's, whose fields are properties answering the values. Each read costs a call, no
    lookup: the engine reads a profile about a hundred times a settlement."""
    cls = type(obj)
    attrs: dict[str, Any] = {"__module__": __name__}
    for f in fields(obj):
        value = getattr(obj, f.name)
        path = prefix + f.name
        if is_dataclass(value):
            value = _copy(value, path + ".", reads, made)
        elif isinstance(value, dict) and path in PER_KEY:
            attrs[f.name] = _constant(_WatchedValues(value, path + ".", reads))
            continue
        attrs[f.name] = _reader(reads, bit(path), value)
    for name in WORDS_ONLY & set(_cached(cls)):
        attrs[name] = _constant(getattr(obj, name))
    out: Any = object.__new__(type(f"Watched{cls.__name__}", (cls,), attrs))
    made.append(out)
    return out


def _cached(cls: type) -> tuple[str, ...]:
    """The cached properties of a class (kept in an instance's __dict__ once computed)."""
    return tuple(name for klass in cls.__mro__ for name, attr in vars(klass).items()
                 if isinstance(attr, cached_property))


class Watch:
    """A watched copy of one profile, made once and used for many hands: `start()` forgets what
    was read and what its cached properties hold (`Profile.chicken_house_rules` must read its parameters again),
    then `profile` records into `reads` until the next `start()`."""

    def __init__(self, prof: Profile) -> None:
        self.reads = Reads()
        made: list[Any] = []
        self.profile: Profile = _copy(prof, "", self.reads, made)
        self._caches = [(vars(obj), names) for obj in made if (names := _cached(type(obj)))]

    def start(self) -> Profile:
        """The watched profile, with nothing read yet."""
        self.reads.mask = 0
        for holder, cached in self._caches:
            for name in cached:
                holder.pop(name, None)
        return self.profile


__all__ = ["PER_KEY", "WORDS_ONLY", "Reads", "Watch", "bit", "differing", "flatten", "names"]
