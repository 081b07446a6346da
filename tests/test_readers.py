"""One reader per kind of input (issue 22.1), checked statically over the whole tree.

Every JSON text from outside is read by `audit.jsontext` and every number written as text by
`audit.numtext` (the web layer through `web.numbers`). This reads every module of the project
with `ast` and names each place that reads input another way: `json.loads` / `json.load`,
`str.isdigit()` / `isdecimal()` / `isnumeric()`, `int()` of something taken from the request,
`request.args.get(..., type=...)`, an argparse or click option read with `int` (`--workers ٥` was 5),
and a marshmallow `fields.Integer` / `fields.Float` in a
query-string schema (their int() takes `+5`, ` 5`, `５`). The few `json.loads` left read the
service's own stored JSON (written by `jsontext.dumps` or `json.dumps` after a strict read) and
are listed with that reason; a new one fails here until it reads through the readers or is added
with its reason.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("audit", "sim", "kit", "report", "fit", "records", "batch", "web")

OWN_JSON: dict[str, str] = {
    "audit/jsontext.py": "the strict reader itself",
    "records/queries.py": "the store's own audit JSON and documents already read strictly at upload",
    "records/cases.py": "payments_json the store wrote",
    "records/receipts.py": "errors_json the store wrote",
    "records/trail.py": "trail details the store wrote",
    "records/trail_pages.py": "trail details the store wrote",
    "records/verify.py": "re-reads what the store wrote, to compare it with the trail",
    "records/conformance.py": "the report JSON the store wrote",
    "records/ingest.py": "a JSON string escape of text jsontext already read; a span of a hand it already read",
}
"""Modules whose `json.loads` read the project's own output, with the reason."""

SPLITLINES: dict[str, str] = {
    "audit/rulebook.py": "the rulebook's own Markdown",
    "records/security.py": "the common-passwords list shipped with the service",
}
"""Modules that may cut text with `str.splitlines()`, with the reason: never a JSON-lines text,
whose lines end at "\\n" only and are read by `audit.jsontext.json_lines` (splitlines also cuts at
U+2028, U+2029 and U+0085, which JSON allows inside a string: issue 34.3)."""

DIGIT_TESTS = frozenset({"isdigit", "isdecimal", "isnumeric"})
READERS = frozenset({"audit/numtext.py"})
"""Where digit tests may be (the reader itself)."""


def _modules() -> list[Path]:
    files = [ROOT / "app.py"]
    for package in PACKAGES:
        files += sorted((ROOT / package).rglob("*.py"))
    return files


def _uses_request(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "request" for n in ast.walk(node))


def _problems(path: Path, name: str | None = None) -> list[str]:
    name = name or path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=name)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Attribute) and func.attr in ("loads", "load")
                    and isinstance(func.value, ast.Name) and func.value.id == "json" and name not in OWN_JSON):
                found.append(f"{name}:{node.lineno}: json.{func.attr} (read JSON with audit.jsontext)")
            if isinstance(func, ast.Attribute) and func.attr == "splitlines" and name not in SPLITLINES:
                found.append(f"{name}:{node.lineno}: .splitlines() (read JSON lines with audit.jsontext.json_lines)")
            if isinstance(func, ast.Attribute) and func.attr in DIGIT_TESTS and name not in READERS:
                found.append(f"{name}:{node.lineno}: .{func.attr}() (read numbers with audit.numtext / web.numbers)")
            if isinstance(func, ast.Name) and func.id in ("int", "float") and any(_uses_request(a) for a in node.args):
                found.append(f"{name}:{node.lineno}: {func.id}() of the request (use web.numbers.read_number)")
            if (isinstance(func, ast.Attribute) and func.attr == "get" and _uses_request(func.value)
                    and any(k.arg == "type" for k in node.keywords)):
                found.append(f"{name}:{node.lineno}: request ... .get(type=...) (use web.numbers.read_number)")
            if isinstance(func, ast.Attribute) and func.attr in ("add_argument", "option", "argument"):
                for keyword in node.keywords:
                    value = keyword.value
                    if keyword.arg == "type" and (
                            isinstance(value, ast.Name) and value.id in ("int", "float")
                            or isinstance(value, ast.Attribute) and value.attr in ("INT", "FLOAT", "IntRange", "FloatRange")
                            or isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                            and value.func.attr in ("IntRange", "FloatRange")):
                        found.append(f"{name}:{node.lineno}: a command-line number read with int() "
                                     "(use audit.numtext.argument / web.numbers.CommandNumber)")
        if isinstance(node, ast.ClassDef) and node.name.endswith("QuerySchema"):
            for item in ast.walk(node):
                if (isinstance(item, ast.Call) and isinstance(item.func, ast.Attribute)
                        and item.func.attr in ("Integer", "Int", "Float", "Number", "Decimal")
                        and isinstance(item.func.value, ast.Name) and item.func.value.id == "fields"):
                    found.append(f"{name}:{item.lineno}: fields.{item.func.attr} in {node.name} "
                                 "(a query's numbers are web.numbers.Number)")
    return sorted(found, key=lambda problem: int(problem.split(":")[1]))


def test_every_input_is_read_by_the_one_reader_of_its_kind() -> None:
    problems = [p for path in _modules() for p in _problems(path)]
    assert problems == []


def test_the_check_finds_each_way_of_reading_around_the_readers(tmp_path: Path) -> None:
    """The check itself can fail: each forbidden form in a scratch module is named."""
    sample = tmp_path / "scratch.py"
    sample.write_text(
        "import json\nfrom flask import request\nfrom marshmallow import Schema, fields\n"
        "a = json.loads('1')\nb = '5'.isdigit()\nc = int(request.args['page'])\n"
        "d = request.args.get('page', type=int)\n"
        "e = parser.add_argument('--n', type=int)\n"
        "class PagesQuerySchema(Schema):\n    page = fields.Integer()\n"
        "f = data.decode().splitlines()\n", encoding="utf-8")
    found = _problems(sample, "web/scratch.py")
    assert [p.split(": ", 1)[1].split(" ")[0] for p in found] == [
        "json.loads", ".isdigit()", "int()", "request", "a", "fields.Integer", ".splitlines()"]


def test_the_splitlines_list_names_only_modules_that_still_need_it() -> None:
    for name in SPLITLINES:
        assert ".splitlines(" in (ROOT / name).read_text(encoding="utf-8"), f"{name} no longer uses it: drop it"


def test_the_own_json_list_names_only_modules_that_still_need_it() -> None:
    for name in OWN_JSON:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "json.loads(" in text or "json.load(" in text, f"{name} no longer reads JSON itself: drop it"
