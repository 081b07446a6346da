"""The what-if options as form fields (issue 23, point 1), not a JSON textarea: one field per profile
parameter with a single value (a yes/no, one of the values parameters.toml lists, a number), named
in the page's language by `audit/catalogue/parameters.toml` and set to the chosen profile's value.
Only the fields changed from the profile's value become options (dotted names, which
`rules.options` accepts as well as nested tables); the JSON box stays for what a field cannot say
(a table of values) and is merged under them."""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, g

from audit.api import load_profile, loads, parameter_range, to_data
from audit.vocabulary import IntRange, NumberProblem, parameters, parse_number

PREFIX = "opt."
"""Form field names: `opt.chicken.charge`."""
FIELDS_FOR = "fields_for"
"""The hidden field naming the profile whose values the fields were drawn with: a field is an option
only where it differs from that profile's value, so switching the profile select without touching a
field asks for the other profile as it is (issue 33.1a), not a hybrid of the two."""
SKIPPED = ("players",)
"""Parameters a what-if does not change: the number of seats is the record's own."""


@dataclass(frozen=True)
class Choice:
    """One value a field may take, with its words."""

    value: str
    label: str


@dataclass(frozen=True)
class OptionField:
    """One parameter as a form field: `kind` is bool, choice or int; `value` is what the form
    shows (the chosen option, else the profile's value), `default` the profile's."""

    name: str
    label: str
    kind: str
    value: Any
    default: Any
    choices: tuple[Choice, ...] = ()
    span: IntRange | None = None
    """A number's range (audit/ranges.py), the input's min and max."""

    @property
    def field(self) -> str:
        """The form field's name."""
        return PREFIX + self.name

    @property
    def changed(self) -> bool:
        """Whether the form asks for another value than the profile's."""
        return self.value != self.default


def _at(data: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(data, dict) or part not in data:
            return None
        data = data[part]
    return data


def _flat(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Options as dotted names (nested tables flattened)."""
    out: dict[str, Any] = {}

    def walk(value: Any, prefix: str) -> None:
        named = parameters()
        if isinstance(value, dict) and (prefix not in named or any(key.startswith(prefix + ".") for key in named)):
            for key, inner in value.items():
                walk(inner, f"{prefix}.{key}" if prefix else str(key))
        else:
            out[prefix] = value
    walk(dict(options or {}), "")
    return out


def option_fields(profile: str, options: Mapping[str, Any] | None, lang: str) -> list[OptionField]:
    """The fields of `profile`'s parameters, in parameters.toml's order, showing `options` where
    they set one."""
    data = to_data(load_profile(profile))
    chosen = _flat(options)
    fields: list[OptionField] = []
    for name, words in parameters().items():
        default = _at(data, name)
        if name in SKIPPED or default is None or isinstance(default, (dict, list)):
            continue
        label = str(words[lang])
        value = chosen.get(name, default)
        if isinstance(default, bool):
            fields.append(OptionField(name, label, "bool", value, default))
        elif words.get("values"):
            choices = tuple(Choice(str(key), str(entry[lang])) for key, entry in words["values"].items())
            fields.append(OptionField(name, label, "choice", value, default, choices))
        elif isinstance(default, int):
            fields.append(OptionField(name, label, "int", value, default, span=parameter_range(name)))
    return fields


def form_options(form: Mapping[str, str], profile: str, extra: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The options a submitted form asks for: every field changed from the profile's value, over
    the JSON box's options (`extra`); None when there are none. A number that is not one is left
    to the option check, which names its path."""
    options = dict(_flat(extra))
    for field in option_fields(profile, None, "en"):
        if field.field not in form:
            continue
        text = form[field.field]
        value: Any = text
        if field.kind == "bool":
            value = text == "true"
        elif field.kind == "int":
            value = _number(text)
        elif field.kind == "choice" and isinstance(field.default, bool):
            value = text == "true"
        if value != field.default:
            options[field.name] = value
        else:
            options.pop(field.name, None)
    return options or None


def _number(text: str) -> int | str:
    """A number field's value: ASCII digits as every number the service reads (`audit.numtext`; `int()`
    also read `٥`, `５`, `+5`, `5_0` and 4,000 digits), a minus sign allowed so a negative is refused
    as one; anything else stays text, which the option check refuses naming its path (issue 34.1)."""
    digits = text[1:] if text.startswith("-") else text
    found = parse_number(digits, 0, 2**63 - 1)
    if isinstance(found, NumberProblem):
        return text
    return -found if text.startswith("-") else found


def options_json(options: Mapping[str, Any] | None) -> str:
    """Options as the JSON the re-audit form posts (empty for none)."""
    return json.dumps(dict(options), ensure_ascii=False, sort_keys=True) if options else ""


def page_fields(profile: str | None, options_text: str | None) -> list[OptionField]:
    """Template global: the fields of `profile` (a profile the engine does not have: none) showing
    the options of `options_text`, in the page's language."""
    if not profile:
        return []
    try:
        options = loads(options_text) if options_text else None
        return option_fields(profile, options if isinstance(options, dict) else None, g.get("lang", "zh"))
    except Exception:  # an unknown profile or unreadable options: the JSON box alone, as before
        return []


def init_app(app: Flask) -> None:
    """`whatif_fields(profile, options_text)` for the what-if form, `flat_options(options)` for the
    options it compares (nested tables by their parameters' dotted names, each named in words)."""
    app.jinja_env.globals.update(whatif_fields=page_fields, flat_options=_flat)
