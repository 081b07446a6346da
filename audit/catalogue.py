"""The message catalogue: what a finding code or an item note code says, in each language.

Findings and settlement items carry a stable `code` and its `params` (JSON
values); their words are rendered only when asked, from the data files in
`audit/catalogue/`:

- `findings.toml`: one table per finding code: its `kind`, the rule section(s)
  it is emitted under, its params with their types, one template per language;
- `notes.toml`: the same for settlement item notes, and for the `parts` a note
  is made of (a win's bonuses, a seat's chickens);
- `forms.toml`: how a value of a named type reads in each language (a win kind
  is `discard (点炮)` in English, 点炮 in Chinese; a kong is 点豆 ...).

A template is `str.format` text whose fields name params: `{seat}` renders the
param by its declared type (a seat is `seat 2 (Bo)` / `2号位 Bo`, named when the
caller passes the record's players, a tile `5m` / 五万);
`{kind:burned}` renders it with another form of its type. The files are loaded
and checked once, at import: every entry has every language, the languages use
the same placeholders, every placeholder is a declared param, every type and
form exists. Rendering an unknown code, or params that are not the declared
ones, raises `CatalogueError`: a missing text is a bug to fix, never a silent
fallback.

`python -m audit.catalogue` prints docs/findings.md (every code, both texts).
"""
from __future__ import annotations

import re
import string
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from audit import house_rules
from audit.lang import Lang  # re-exported: every module names the language from here
from audit.rulebook import label, parameters
from audit.tiles import zh_name

DATA_DIR: Final = Path(__file__).with_name("catalogue")


LANGS: Final = tuple(Lang)
_EN: Final = Lang.EN
_ZH: Final = Lang.ZH  # module constants: an Enum member looked up on its class costs a Python-level call
FINDING_KINDS: Final = ("schema", "illegal", "missettled")


class CatalogueError(LookupError):
    """A catalogue file is malformed, or a code / its params are not in the catalogue."""


@dataclass(frozen=True)
class Entry:
    """One code: what it is, where it is emitted, and its text per language."""

    code: str
    kind: str
    """A finding's kind (schema, illegal, missettled); for notes `note` or `part`."""
    rules: tuple[str, ...]
    """The rule sections it is emitted under (for the document; a finding's own rule decides)."""
    params: Mapping[str, str]
    """Param name -> type (a key of the renderers below or a table of forms.toml)."""
    texts: Mapping[str, str]
    """Language value -> template."""
    join: Mapping[str, str]
    """For a note with `parts`: the separator between rendered parts, per language."""
    items: tuple[str, ...] = ()
    """For a note: the item kinds it is the note of."""
    about: str = ""
    """For the document: where a note that is no item's is used."""
    keys: frozenset[str] = frozenset()
    """The declared param names."""
    forms: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """The tables of forms.toml its templates read (checked at load)."""
    compiled: list[Template | None] = field(default_factory=list, repr=False, compare=False)
    """Per language (in LANGS order) the template as a function of (params, lang, names), built on
    its first use (`template`): a command that renders a few dozen codes does not compile the
    catalogue's four hundred templates (issue 35.6)."""

    def template(self, lang: Lang) -> Template:
        """The compiled template of `lang`, compiled now if this is its first use."""
        i = 0 if lang is _EN else LANGS.index(lang)
        done = self.compiled[i]
        if done is None:
            done = self.compiled[i] = _compile(self.code, self.texts[lang.value], self.params, self.forms,
                                               self.join.get(lang.value, ""), lang)
        return done


# ---------------------------------------------------------------- value renderers

Renderer = Callable[[Any, Lang], str]
"""How one value of a type reads in a language."""
Names = Sequence[str]
"""The players' names by seat (the record's `seats[i].name`), or () when they are not known."""
Template = Callable[[Mapping[str, Any], Lang, Names], str]
"""A compiled template: params, language and the players' names in, the text out."""


def seat_label(value: Any, lang: Lang | str, names: Names = ()) -> str:
    """A seat as people read it: its number (the record's, 0-based, as in the rulebook, the JSON and
    the CLI, so a page never disagrees with the platform's own log) and the player's name:
    `2号位 小红` / `seat 2 (小红)`; the number alone when the name is not known."""
    zh = lang is _ZH or lang == "zh"
    name = names[value] if type(value) is int and 0 <= value < len(names) else ""
    if zh:
        return f"{value}号位 {name}" if name else f"{value}号位"
    return f"seat {value} ({name})" if name else f"seat {value}"


def _seat(value: Any, lang: Lang) -> str:
    return seat_label(value, lang)


def hand_label(index: int, lang: Lang | str) -> str:
    """A hand of a match by its place, counted from 1 as players count them: 第2局 / hand 2."""
    return f"第{index + 1}局" if lang is _ZH or lang == "zh" else f"hand {index + 1} (hands[{index}])"


def _hand(value: Any, lang: Lang) -> str:
    return hand_label(int(value), lang)


def _step(value: Any, lang: Lang) -> str:
    return f"第{value}步" if lang is _ZH else f"step {value}"


def _tile(value: Any, lang: Lang) -> str:
    if value is None:
        return "无" if lang is _ZH else "None"
    return zh_name(value) if lang is _ZH else str(value)


def _tile_count(value: Any, lang: Lang) -> str:
    if lang is _ZH:
        return f"{value}张"
    return f"{value} tile" if value == 1 else f"{value} tiles"


def _tile_counts(value: Any, lang: Lang) -> str:
    """[[tile, count], ...]: the tiles deal + wall hold a wrong number of (R1.2)."""
    if lang is _ZH:
        return "、".join(f"{zh_name(t)}有{n}张" for t, n in value)
    return ", ".join(f"{t} appears {n} time" + ("" if n == 1 else "s") for t, n in value)


def _listed(value: Any, lang: Lang) -> str:
    return ("、" if lang is _ZH else ", ").join(str(v) for v in value)


def _choices(value: Any, lang: Lang) -> str:
    """The values a field of the format may take: in Chinese each quoted as it is written in the
    JSON (`"draw"、"discard"`), since the record must use those very words."""
    if lang is _ZH:
        return "、".join(f'"{v}"' for v in value)
    return ", ".join(str(v) for v in value)


def _alternatives(value: Any, lang: Lang) -> str:
    return ("或" if lang is _ZH else " or ").join(str(v) for v in value)


@lru_cache(maxsize=1)
def _parameter_words() -> dict[str, dict[str, Any]]:
    """parameters.toml, read once, on the first finding that names a parameter."""
    return parameters()


def _parameter(value: Any, lang: Lang) -> str:
    """A profile parameter by its words in parameters.toml (`热炮烧的范围`), its dotted name otherwise."""
    words = _parameter_words().get(str(value))
    return str(words[lang.value]) if words else str(value)


def _plain(value: Any, lang: Lang) -> str:
    return str(value)


def _notes(value: Any, lang: Lang) -> str:
    """Item notes ({code, params} objects) quoted inside a finding."""
    return ("；" if lang is _ZH else "; ").join(render_note(n, lang) for n in value)


RENDERERS: Final[dict[str, Renderer]] = {
    "int": _plain,
    "text": _plain,
    "path": _plain,
    "seat": _seat,
    "hand": _hand,
    "step": _step,
    "tile": _tile,
    "tile_count": _tile_count,
    "tile_counts": _tile_counts,
    "list": _listed,
    "choices": _choices,
    "alternatives": _alternatives,
    "notes": _notes,
    "parameter": _parameter,
}
"""Types rendered by code; every other type is a table of forms.toml. `parts` is the note's own."""


# ---------------------------------------------------------------- loading and checking

def _fields(template: str, where: str) -> list[tuple[str, str]]:
    """(param, form) of every placeholder of a template."""
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise CatalogueError(f"{where}: bad template: {exc}") from None
    out = []
    for _, name, form, conversion in parsed:
        if name is None:
            continue
        if not name.isidentifier() or conversion:
            raise CatalogueError(f"{where}: bad placeholder {{{name}}}")
        out.append((name, form or ""))
    return out


def _check_forms(forms: dict[str, Any]) -> dict[str, dict[str, dict[str, str]]]:
    """Each form table holds every language with the same keys."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for name, table in forms.items():
        if set(table) != {lang.value for lang in LANGS}:
            raise CatalogueError(f"forms.{name}: needs exactly the languages {[lang.value for lang in LANGS]}")
        keys = {lang: set(table[lang]) for lang in table}
        if len({frozenset(k) for k in keys.values()}) != 1:
            raise CatalogueError(f"forms.{name}: the languages name different values: {keys}")
        out[name] = {lang: {str(k): str(v) for k, v in table[lang].items()} for lang in table}
    return out


def _entry(code: str, raw: dict[str, Any], forms: Mapping[str, Any], where: str) -> Entry:
    """One checked entry of findings.toml or notes.toml."""
    known = {"kind", "rules", "house_rules", "params", "items", "join", "about", *(lang.value for lang in LANGS)}
    if set(raw) - known:
        raise CatalogueError(f"{where}: unknown keys {sorted(set(raw) - known)}")
    missing = [lang.value for lang in LANGS if not isinstance(raw.get(lang.value), str) or not raw[lang.value]]
    if missing:
        raise CatalogueError(f"{where}: no text in {', '.join(missing)}")
    params = {str(k): str(v) for k, v in raw.get("params", {}).items()}
    used: dict[str, set[str]] = {}
    for lang in LANGS:
        fields = _fields(raw[lang.value], f"{where}.{lang.value}")
        used[lang.value] = {name for name, _ in fields}
        for name, form in fields:
            if name not in params:
                raise CatalogueError(f"{where}.{lang.value}: placeholder {{{name}}} is not a declared param")
            tp = params[name]
            if form and f"{tp}:{form}" not in forms:
                raise CatalogueError(f"{where}.{lang.value}: {tp} has no form {form!r}")
    if len({frozenset(u) for u in used.values()}) != 1:
        raise CatalogueError(f"{where}: the languages use different placeholders: {used}")
    for name, tp in params.items():
        if tp not in RENDERERS and tp not in forms and tp != "parts":
            raise CatalogueError(f"{where}: param {name} has unknown type {tp!r}")
    join = raw.get("join", {})
    if "parts" in params.values() and set(join) != {lang.value for lang in LANGS}:
        raise CatalogueError(f"{where}: a note with parts needs `join` in every language")
    return Entry(code, str(raw.get("kind", "")), _rules(raw, where), params,
                 {lang.value: raw[lang.value] for lang in LANGS}, dict(join), tuple(raw.get("items", ())),
                 str(raw.get("about", "")), frozenset(params), forms, [None] * len(LANGS))


HOUSE_RULE_LISTS: Final[dict[str, Callable[[], list[str]]]] = {
    "all": house_rules.rules, "paid": lambda: house_rules.rules(pays=True),
    "waived": lambda: house_rules.rules(waives=True),
}
"""`house_rules = "..."` in a findings.toml entry: its rules go on with these house-rule sections (the
registry's, audit/house_rules.py), so that a new house rule needs no list kept in step here."""


def _rules(raw: dict[str, Any], where: str) -> tuple[str, ...]:
    """An entry's `rules`, then the house-rule sections its `house_rules` names."""
    which = raw.get("house_rules")
    if which is None:
        return tuple(raw.get("rules", ()))
    if which not in HOUSE_RULE_LISTS:
        raise CatalogueError(f"{where}: house_rules must be one of {sorted(HOUSE_RULE_LISTS)}")
    return (*raw.get("rules", ()), *HOUSE_RULE_LISTS[str(which)]())


_INLINE: Final = {
    "en": {"int": "{V}", "text": "{V}", "path": "{V}", "tile": "{V}", "step": "step {V}"},
    "zh": {"int": "{V}", "text": "{V}", "path": "{V}", "step": "第{V}步"},
}
"""Types whose rendering is the value itself in a fixed frame (`tile` in English: None reads None)."""


def _compile(code: str, template: str, params: Mapping[str, str], forms: Mapping[str, Any], join: str,
             lang: Lang) -> Template:
    """A checked template as one function `(params, lang) -> str`, built on its first use (`Entry.template`).

    Rendering runs for every item of every audit JSON, so each template becomes a single
    f-string: its literals, the values of simple types inline, a renderer call for the others
    (tables of forms.toml, parts, lists). Every name in the generated source is bound in its
    namespace (no text of the catalogue is ever part of the source)."""
    ns: dict[str, Any] = {}
    pieces: list[str] = []
    inline = _INLINE[lang.value]
    for i, (literal, name, form, _) in enumerate(string.Formatter().parse(template)):
        if literal:
            ns[f"L{i}"] = literal
            pieces.append(f"{{L{i}}}")
        if name is None:
            continue
        ns[f"K{i}"] = name
        frame = None if form else inline.get(params[name])
        if frame is not None:
            pieces.append(frame.replace("{V}", f"{{p[K{i}]}}"))
        else:
            ns[f"R{i}"] = _renderer(code, name, params[name], form or "", forms, join, lang)
            pieces.append(f"{{R{i}(p[K{i}], lang, names)}}")
    exec(f"def render(p, lang, names):\n    return f{''.join(pieces)!r}\n", ns)  # noqa: S102 - source built from names only
    render: Template = ns["render"]
    return render


NamedRenderer = Callable[[Any, Lang, Names], str]
"""A renderer inside a compiled template: it is also given the players' names."""


def _parts(join: str) -> NamedRenderer:
    def render(value: Any, lang: Lang, names: Names) -> str:
        return join.join([render_note(p, lang, names) for p in value])
    return render


def _quoted_notes(value: Any, lang: Lang, names: Names) -> str:
    """Item notes ({code, params} objects) quoted inside a finding, their seats named too."""
    return ("；" if lang is _ZH else "; ").join(render_note(n, lang, names) for n in value)


def _unnamed(fixed: Renderer) -> NamedRenderer:
    def render(value: Any, lang: Lang, names: Names) -> str:
        return fixed(value, lang)
    return render


def _renderer(code: str, name: str, tp: str, form: str, forms: Mapping[str, Any], join: str,
              lang: Lang) -> NamedRenderer:
    if tp == "parts":
        return _parts(join)
    if tp == "seat" and not form:
        return seat_label
    if tp == "notes":
        return _quoted_notes
    fixed = RENDERERS.get(tp)
    if fixed is not None:
        return _unnamed(fixed)
    table: dict[str, str] = forms[f"{tp}:{form}" if form else tp][lang.value]

    def lookup(value: Any, lang: Lang, names: Names) -> str:
        try:
            return table[value if type(value) is str else str(value)]
        except KeyError:
            raise CatalogueError(f"{code}: {name}={value!r} is not a {tp}") from None
    return lookup


def _read(name: str, directory: Path) -> dict[str, Any]:
    try:
        return tomllib.loads((directory / name).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CatalogueError(f"{name}: cannot load: {exc}") from None


@dataclass(frozen=True)
class Catalogue:
    """The three checked files."""

    findings: Mapping[str, Entry]
    notes: Mapping[str, Entry]
    forms: Mapping[str, dict[str, dict[str, str]]]


def load(directory: Path = DATA_DIR) -> Catalogue:
    """Read and check the catalogue files; CatalogueError names the first problem."""
    forms = _check_forms(_read("forms.toml", directory))
    findings = {code: _entry(code, raw, forms, f"findings.{code}")
                for code, raw in _read("findings.toml", directory).items()}
    for code, entry in findings.items():
        if entry.kind not in FINDING_KINDS or not entry.rules and entry.kind != "schema":
            raise CatalogueError(f"findings.{code}: needs a kind of {FINDING_KINDS} and its rules")
    notes = {code: _entry(code, raw, forms, f"notes.{code}") for code, raw in _read("notes.toml", directory).items()}
    for code, entry in notes.items():
        if entry.kind not in ("note", "part"):
            raise CatalogueError(f"notes.{code}: kind must be note or part")
    return Catalogue(findings, notes, forms)


CATALOGUE: Final = load()


# ---------------------------------------------------------------- rendering

def _lang(lang: Lang | str) -> Lang:
    return lang if type(lang) is Lang else Lang(lang)


def render_value(tp: str, value: Any, lang: Lang | str = Lang.EN) -> str:
    """One value of a catalogue type in `lang` (a seat, a tile, a verdict, a word of the CLI)."""
    lang = _lang(lang)
    renderer = RENDERERS.get(tp)
    if renderer is not None:
        return renderer(value, lang)
    try:
        return CATALOGUE.forms[tp][lang.value][str(value)]
    except KeyError:
        raise CatalogueError(f"{value!r} is not a {tp} of the catalogue") from None


def _render(table: Mapping[str, Entry], code: str, params: Mapping[str, Any], lang: Lang | str,
            names: Names = ()) -> str:
    entry = table.get(code)
    if entry is None:
        raise CatalogueError(f"no catalogue entry for code {code!r}")
    if len(params) != len(entry.keys):  # with every placeholder found below: exactly the declared params
        raise CatalogueError(f"{code}: params {sorted(params)} are not the declared {sorted(entry.params)}")
    lang = _lang(lang)
    try:
        return entry.template(lang)(params, lang, names)
    except KeyError as exc:
        raise CatalogueError(f"{code}: params {sorted(params)} are not the declared {sorted(entry.params)}") \
            from exc


_HAND_PATH: Final = re.compile(r"hands\[(\d+)\]")


def _path_text(path: str, lang: Lang) -> str:
    """A JSON path as it leads a message: exactly as written (it names where to look), and in a
    match the hand's place as players count it first (`第3局 hands[2].events[4].tile`)."""
    hand = _HAND_PATH.match(path)
    return f"{hand_label(int(hand.group(1)), lang)} {path}" if hand else path


def finding_message(code: str, params: Mapping[str, Any], rule: str | None, lang: Lang | str = Lang.EN,
                    names: Names = ()) -> str:
    """A finding's message: the code's text; a schema or profile path first (`events[2].tile: ...`);
    in Chinese the rule's Chinese name leads (`【热炮 R8.2】...`). With the players' `names` a seat
    reads with its player (`2号位 小红`)."""
    lang = _lang(lang)
    text = _render(CATALOGUE.findings, code, params, lang, names)
    path = params.get("path")
    if path:
        text = f"{_path_text(str(path), lang)}{'：' if lang is _ZH else ': '}{text}"
    if lang is _ZH and rule:
        text = f"【{label(rule)}】{text}"
    return text


def render_finding(finding: Mapping[str, Any], lang: Lang | str = Lang.EN, names: Names = ()) -> str:
    """The message of a finding object of the audit JSON (code, params, rule), in `lang`:
    a stored audit can be shown in another language than it was rendered in."""
    return finding_message(finding["code"], finding["params"], finding.get("rule"), lang, names)


def render_note(note: Mapping[str, Any], lang: Lang | str = Lang.EN, names: Names = ()) -> str:
    """The note of a settlement item object (or of a part of one: {code, params}) in `lang`."""
    return _render(CATALOGUE.notes, note["code"], note["params"], lang, names)


def note_text(code: str, params: Mapping[str, Any], lang: Lang | str = Lang.EN, names: Names = ()) -> str:
    """The note of `code` with `params` in `lang` (render_note without building the object)."""
    return _render(CATALOGUE.notes, code, params, lang, names)


def rerender(audit: dict[str, Any], lang: Lang | str, names: Names = ()) -> dict[str, Any]:
    """A copy of an audit object (record-format.md) whose messages and notes are in `lang`, seats
    named by `names` (the record's players). A finding or item without a `code` (an audit stored
    before format 1.1) keeps its words."""
    out = dict(audit)
    out["findings"] = [{**f, "message": render_finding(f, lang, names)} if "code" in f else f
                       for f in audit.get("findings") or []]
    sett = audit.get("settlement")
    if sett is not None:
        out["settlement"] = {**sett, "items": [{**i, "note": render_note(i, lang, names)} if "code" in i else i
                                               for i in sett.get("items") or []]}
    return out


def seat_names(doc: Any) -> tuple[str, ...]:
    """The players' names of a record (`seats[i].name`), '' where a seat has none; () when the
    document has no readable seats (a schema failure is reported elsewhere)."""
    seats = doc.get("seats") if isinstance(doc, dict) else None
    if not isinstance(seats, list):
        return ()
    return tuple(s["name"].strip() if isinstance(s, dict) and isinstance(s.get("name"), str) else ""
                 for s in seats)


# ---------------------------------------------------------------- the document

def _example_text(entry: Entry, lang: str) -> str:
    return entry.texts[lang].replace("|", "\\|").replace("\n", " ")


def _params_text(entry: Entry) -> str:
    return ", ".join(f"`{name}` ({tp})" for name, tp in entry.params.items()) or "-"


def document(cat: Catalogue = CATALOGUE) -> str:
    """docs/findings.md: every finding code and every note code with both texts."""
    lines = ["# Finding and note codes", "",
             "Generated by `python -m audit.catalogue > docs/findings.md` from `audit/catalogue/*.toml`;",
             "tests/audit/test_catalogue.py fails when this file is out of date. Do not edit it by hand.", "",
             "Every finding of the audit JSON has a `code` (below) and `params`, the named values its",
             "`message` is rendered from; tools match on `code` and `rule`, never on the words. A placeholder",
             "`{name}` renders the param by its type (a seat reads `seat 2 (Bo)` / `2号位 Bo` with the record's",
             "player name, `seat 2` / `2号位` without; a hand of a match `hand 3 (hands[2])` / 第3局; a tile `5m` / 五万, a",
             "step `step 40` / 第40步); `{name:form}` uses another form of the type (forms.toml). A schema or",
             "profile finding's message starts with its `path`; a Chinese message starts with the rule's",
             "Chinese name (`【热炮 R8.2】`).", ""]
    for kind in FINDING_KINDS:
        entries = [e for e in cat.findings.values() if e.kind == kind]
        lines += [f"## {kind} ({len(entries)} codes)", ""]
        for e in sorted(entries, key=lambda e: e.code):
            lines += [f"### `{e.code}`", "", f"- rule: {', '.join(e.rules) or 'none (schema)'}",
                      f"- params: {_params_text(e)}", f"- en: {_example_text(e, 'en')}",
                      f"- zh: {_example_text(e, 'zh')}", ""]
    lines += ["## Settlement item notes", "",
              "A settlement item has `code` and `params` too, and `note` rendered from them. A note with a",
              "`parts` param (a list of `{code, params}` objects, kind `part`) renders each part and joins them.", ""]
    for e in sorted(cat.notes.values(), key=lambda e: (e.kind != "note", e.code)):
        where = f"items: {', '.join(e.items)}" if e.items else (e.about or "a part of a note")
        lines += [f"### `{e.code}` ({e.kind})", "", f"- {where}; rule: {', '.join(e.rules) or '-'}",
                  f"- params: {_params_text(e)}", f"- en: {_example_text(e, 'en')}",
                  f"- zh: {_example_text(e, 'zh')}", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(document())
