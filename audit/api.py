"""The engine's public face for auditing: what the CLI, the store, the batch, the web service and
the tools above the engine call to audit or trace a record or a match, to name, load and change a
profile (what-if options included), and to read the input format (the strict JSON reader, the
schema, where an input came from).

Everything here takes a parsed JSON document (whatever the client sent, valid or
not) and returns plain data in the shape fixed by record-format.md, so callers
never need to know the replayer's internals. The words and drawings of a trace
(`Trace`, `StepView`, ...) are `audit.vocabulary`'s; the table and one replay step
are `audit.play`'s.

One of the engine's public modules (tests/imports.py: a package above the engine
imports only names of their `__all__`). It imports only downward; the replayer
itself is imported by each function on first use, so importing this face (for
the version, the profiles or the reader) does not load it.
"""
from __future__ import annotations

from typing import Any

from audit.catalogue import Lang
from audit.jsontext import INT_MAX, JsonTextError, depth, json_lines, line_text, loads, pretty, read_file, utf8_text
from audit.option_check import OptionProblem
from audit.option_check import check as check_what_if
from audit.origin import Origin
from audit.profiles import DEFAULT_PROFILE, PROFILE_DIR, Profile, ProfileError, apply_options, check_profile_name, \
    is_profile_name, list_profiles, load_profile, parameter_range, parse_profile, resolve, to_data
from audit.schema import SchemaError, validate_match, validate_record
from audit.views import Trace

ENGINE_VERSION = "1.0.0"

__all__ = [
    # audit and trace a record or a match
    "ENGINE_VERSION", "audit_document", "audit_record", "is_match", "trace_record",
    # profiles: by name, loaded, parsed from a file, changed by options; a what-if's options checked
    "DEFAULT_PROFILE", "OptionProblem", "PROFILE_DIR", "Profile", "ProfileError", "apply_options", "check_what_if",
    "check_profile_name", "is_profile_name", "list_profiles", "load_profile", "parameter_range",
    "parse_profile", "resolve", "to_data",
    # the input format: the strict JSON reader (audit.jsontext), the schema, an input's origin
    "INT_MAX", "JsonTextError", "Origin", "SchemaError", "depth", "json_lines", "line_text", "loads", "pretty",
    "read_file", "utf8_text", "validate_match", "validate_record",
]


# ------------------------------------------------------------------ functions

def is_match(doc: object) -> bool:
    """Whether a document is a `zhuoji-match/1` file rather than one record."""
    return isinstance(doc, dict) and doc.get("format") == "zhuoji-match/1"


def audit_record(doc: object, *, profile: str | None = None, options: dict[str, Any] | None = None,
                 lang: Lang | str = Lang.EN) -> dict[str, Any]:
    """The contract audit JSON of one `zhuoji/1` record, messages and notes in `lang`. Never raises on bad input."""
    from audit.engine import audit_hand

    return audit_hand(doc, profile=profile, options=options).to_json(Lang(lang))


def audit_document(doc: object, *, profile: str | None = None, options: dict[str, Any] | None = None,
                   schema_checked: bool = False, lang: Lang | str = Lang.EN,
                   items: bool = True, base_profile: Profile | None = None) -> list[dict[str, Any]]:
    """One audit per hand of a record or a match (continuity findings included), in `lang`.
    The batch calls it once per hand, so what it does around the engine is kept to the least.

    `schema_checked=True` only when `audit.schema` already validated this very
    document (record or whole match) and found nothing: the engine then skips
    its own schema pass. A stored audit re-renders in another language with
    `audit.vocabulary`'s `render_finding` / `render_note` (or `rerender`).
    `items=False` leaves out each settlement's `items` (everything else as with
    True): for a caller that keeps only the verdict, findings and totals (the
    batch's rows), whose item notes would be rendered for nothing (about 2% of
    a hand's instructions, docs/batch.md). Never for an audit that is stored or shown.
    `base_profile` (issue 36.3, a platform's adopted profile: `audit.profiles.parse_profile`)
    judges the record under that profile instead of the one its `rules.profile` names; the
    record's `rules.options` still apply on top, and a what-if `profile` replaces both."""
    import audit.engine as engine  # not `from audit.engine import ...`: that form cost 2-3 us a call here

    lang = lang if isinstance(lang, Lang) else Lang(lang)  # Lang(lang) costs 1 us even on a Lang
    if is_match(doc):
        assert isinstance(doc, dict)
        return [a.to_json(lang, items) for a in engine.audit_match_hands(doc, profile=profile, options=options,
                                                                         schema_checked=schema_checked,
                                                                         base_profile=base_profile)]
    hand = engine.audit_hand(doc, profile=profile, options=options, schema_checked=schema_checked,
                             base_profile=base_profile)
    return [hand.to_json(lang, items)]


def trace_record(doc: object, *, profile: str | None = None, options: dict[str, Any] | None = None,
                 lang: Lang | str = Lang.EN, schema_checked: bool = False,
                 base_profile: Profile | None = None) -> Trace:
    """The audit plus the table after every step, for a step-by-step report, in `lang`.
    `schema_checked`: the document is a stored one that passed the schema (audit_hand);
    `base_profile` as in `audit_document`."""
    from audit.trace import trace

    return trace(doc, profile=profile, options=options, lang=Lang(lang), schema_checked=schema_checked,
                 base_profile=base_profile)


