"""Every refusal of the web layer has words from a catalogue (issue 23, point 1): web/errors.toml
through `web.errors.fail`, the case words, the number reader's, the upload problems'. A message
written where the refusal is raised (`abort(400, "...")`, `ApiError(404, f"...")`) would be
English on a Chinese page and have no stable code, so this test reads web/ and names each one."""
from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT
from web.errors import words

MESSAGE_ARGUMENT = {"abort": (1, "description"), "ApiError": (1, "message"), "error_response": (2, "message")}
"""The calls that answer a refusal, and where each takes its message (position, keyword)."""


def _called(node: ast.Call) -> str | None:
    """The name a call is made by: `abort(...)`, `errors.ApiError(...)`."""
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _message(node: ast.Call, position: int, keyword: str) -> ast.expr | None:
    """The message argument of a refusal call, if it has one."""
    if len(node.args) > position:
        return node.args[position]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def written_here(node: ast.expr) -> bool:
    """Whether a message holds words written in the code: a string literal, an f-string, text
    joined to one (`"bad: " + ...`, `"...".format()`, `"; ".join(...)`), a choice between such
    (`"a" if token else "b"`), or an exception's own text (`str(exc)`), which no catalogue words."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return written_here(node.left) or written_here(node.right)
    if isinstance(node, ast.IfExp):
        return written_here(node.body) or written_here(node.orelse)
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id == "str":
            return True
        return isinstance(node.func, ast.Attribute) and written_here(node.func.value)
    return False


def _assigned(scope: ast.AST) -> dict[str, list[ast.expr]]:
    """Every value each plain name is given in a function (or module), so that a message built
    in a variable first (`message = f"..."; abort(400, message)`) is read too."""
    values: dict[str, list[ast.expr]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            values.setdefault(node.target.id, []).append(node.value)
    return values


def _words_of(message: ast.expr, values: dict[str, list[ast.expr]]) -> bool:
    """`written_here` of the message, or of any value its variable is given."""
    if isinstance(message, ast.Name):
        return any(written_here(value) for value in values.get(message.id, []))
    return written_here(message)


def refusals_with_their_own_words(source: str, name: str) -> list[str]:
    """`name:line` of each refusal call in the module `source` whose message is written there."""
    tree = ast.parse(source, name)
    scopes: list[ast.AST] = [node for node in ast.walk(tree)
                             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))] or [tree]
    found: set[tuple[int, str]] = set()
    for scope in scopes:
        values = _assigned(scope)
        for node in ast.walk(scope):
            if not isinstance(node, ast.Call) or _called(node) not in MESSAGE_ARGUMENT:
                continue
            message = _message(node, *MESSAGE_ARGUMENT[_called(node) or ""])
            if message is not None and _words_of(message, values):
                found.add((node.lineno, f"{name}:{node.lineno}"))
    return [where for _line, where in sorted(found)]


def test_no_refusal_of_the_web_layer_writes_its_own_words() -> None:
    files = sorted((ROOT / "web").rglob("*.py"))
    assert len(files) > 30
    assert [where for path in files for where in refusals_with_their_own_words(
        path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))] == []


@pytest.mark.parametrize(("source", "caught"), [
    ('abort(400, "the body is empty")', True),
    ('abort(404, f"record {n} does not exist")', True),
    ('raise ApiError(400, "bad note: " + text, details)', True),
    ('raise errors.ApiError(409, str(exc))', True),
    ('raise ApiError(400, message="{} is wrong".format(name))', True),
    ('error_response(401, "Unauthorized", "log in")', True),
    ('def f():\n    message = f"over {n}"\n    abort(413, message)', "probe.py:3"),
    ('def f():\n    text = "a" if x else "b"\n    return error_response(401, "Unauthorized", text)', "probe.py:3"),
    ('def f():\n    text = error_text(code, lang)\n    return error_response(401, "Unauthorized", text)', False),
    ('abort(404)', False),
    ('raise ApiError(400, message, details, error_code=code)', False),
    ('raise ApiError(413, refused.describe(lang), error_code=refused.problem)', False),
    ('error_response(401, "Unauthorized", error_text(code, lang), None, code)', False),
])
def test_the_reader_tells_written_words_from_a_catalogue_s(source: str, caught: bool | str) -> None:
    where = caught if isinstance(caught, str) else "probe.py:1"
    assert refusals_with_their_own_words(source, "probe.py") == ([where] if caught else [])


CODE_ARGUMENT = {"fail": 1, "error_text": 0, "NoteError": 2, "ConformanceError": 2, "AuditFailed": 1}
"""The calls that name a code of web/errors.toml, and the position of the code."""


def codes_named(source: str) -> set[str]:
    """The literal codes a module names to `fail`, `error_text` or a coded lower-layer refusal."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _called(node) in CODE_ARGUMENT:
            position = CODE_ARGUMENT[_called(node) or ""]
            code = node.args[position] if len(node.args) > position else None
            if isinstance(code, ast.Constant):
                found.add(str(code.value))
    return found


def test_every_code_named_has_words_in_both_languages() -> None:
    files = [*sorted((ROOT / "web").rglob("*.py")), *(ROOT / "records" / f for f in ("trail.py", "conformance.py",
                                                                                    "pipeline.py"))]
    named = set().union(*(codes_named(path.read_text(encoding="utf-8")) for path in files))
    assert {"login_required", "csrf_refused", "note_text_missing", "kit_missing", "engine_failed"} <= named
    assert named - set(words()) == set()
