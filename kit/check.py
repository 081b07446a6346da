"""`python -m kit check`: a client's answers against the kit, case by case, and why each failure fails.

Passing is decided by a plain comparison with the manifest's `expected` (no
replay: a kit of thousands of cases checks in well under a second). Only a
failing settlement case is audited: the case with the client's answer as its
`result` goes through the engine, whose findings say in the catalogue's words
(and codes, and rules) what the client got wrong; a failing rejection case is
named by the finding the engine made of the illegal move when the kit was built.
"""
from __future__ import annotations

import json
import re
import tomllib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from audit.api import JsonTextError, audit_record, read_file
from audit.vocabulary import CATALOGUE, Lang, finding_message, is_digits, section_of
from kit import KIT_FORMAT
from kit.answers import Answer, Answers, check_rejection, check_settlement, parse

LABELS: dict[str, dict[str, str]] = tomllib.loads(Path(__file__).with_name("labels.toml").read_text("utf-8"))


def label(lang: Lang, key: str, **params: Any) -> str:
    """A report word in `lang`, placeholders filled."""
    return LABELS[lang.value][key].format(**params)


class CheckError(Exception):
    """The check cannot run: no kit there, an unreadable manifest or answers file (exit 2). The text
    is the English the command line prints; a broken kit also says what is wrong as data: `code`
    (one of KIT_PROBLEMS, worded by the service in the asker's language: web/errors.toml) and
    `params`, which never hold a path of the machine."""

    def __init__(self, message: str, code: str = "kit_unreadable", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


KIT_PROBLEMS = ("kit_no_manifest", "kit_manifest_unreadable", "kit_manifest_not_json", "kit_manifest_bad",
                "kit_case_bad", "kit_case_repeated", "kit_case_file_missing", "kit_case_file_bad")
"""Why a folder is no kit the check can use (`CheckError.code`)."""


@dataclass
class Kit:
    """A kit folder: its manifest and the cases by id."""

    path: Path
    manifest: dict[str, Any]
    cases: dict[str, dict[str, Any]]

    def record(self, case_id: str) -> dict[str, Any]:
        """The case's record, as the client got it; CheckError `kit_case_file_bad` when its file is
        not a JSON object (the kit is broken, not the answers)."""
        file = self.cases[case_id]["file"]
        try:
            data = read_file(self.path / file, lines=False)[0]
        except (OSError, JsonTextError) as exc:
            raise CheckError(f"{self.path / file}: case {case_id}: cannot read its record: {exc}", "kit_case_file_bad",
                             case=case_id, file=file) from None
        if not isinstance(data, dict):
            raise CheckError(f"{self.path / file}: case {case_id}: not a record", "kit_case_file_bad",
                             case=case_id, file=file)
        return data


def load_kit(path: Path) -> Kit:
    """The kit at `path`, its manifest checked field by field (every field the check reads, every
    case's file there); CheckError naming what is wrong."""
    man = path / "manifest.json"
    try:
        manifest = read_file(man, lines=False)[0]
    except FileNotFoundError:
        raise CheckError(f"{path}: no manifest.json: not a kit folder (build one with `zhuoji-kit build`)",
                         "kit_no_manifest") from None
    except JsonTextError as exc:
        raise CheckError(f"cannot read the manifest: {exc.describe()}", "kit_manifest_not_json") from None
    except (OSError, ValueError) as exc:  # a folder named manifest.json, no permission, a name the OS refuses
        raise CheckError(f"{man}: cannot read the manifest: {exc}", "kit_manifest_unreadable") from None
    cases = _checked_manifest(manifest, man)
    for case in cases.values():
        if not (path / case["file"]).is_file():
            raise CheckError(f"{man}: case {case['id']}: no file {case['file']}", "kit_case_file_missing",
                             case=case["id"], file=case["file"])
    return Kit(path, manifest, cases)


def _checked_manifest(manifest: Any, man: Path) -> dict[str, dict[str, Any]]:
    """The manifest's cases by id, once every field the check reads is there with its type."""
    if not isinstance(manifest, dict) or manifest.get("format") != KIT_FORMAT:
        raise CheckError(f"{man}: not a {KIT_FORMAT} manifest", "kit_manifest_bad", field="format")
    for key in ("kit", "profile", "engine"):
        if not isinstance(manifest.get(key, ""), str):
            raise CheckError(f"{man}: {key}: not a string", "kit_manifest_bad", field=key)
    if not isinstance(manifest.get("cases"), list):
        raise CheckError(f"{man}: cases: not a list", "kit_manifest_bad", field="cases")
    cases: dict[str, dict[str, Any]] = {}
    for index, case in enumerate(manifest["cases"]):
        case_id = case.get("id") if isinstance(case, dict) else None
        if not isinstance(case_id, str) or not CASE_ID.fullmatch(case_id):  # it names a file (issue 34.3)
            raise CheckError(f"{man}: cases[{index}].id: not a case id", "kit_manifest_bad", field=f"cases[{index}].id")
        bad = _case_problem(case)
        if bad is not None:
            raise CheckError(f"{man}: case {case_id}: {bad}: missing or not what a {KIT_FORMAT} manifest holds",
                             "kit_case_bad", case=case_id, field=bad)
        if case_id in cases:
            raise CheckError(f"{man}: case {case_id} is listed twice", "kit_case_repeated", case=case_id)
        cases[case_id] = case
    return cases


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


_ITEM_FIELDS = {"kind": str, "from": int, "to": int, "amount": int, "rule": str}
CASE_ID = re.compile(r"[A-Za-z0-9_.-]{1,100}")
"""A case id: it also names the case's file in the failures folder, so never a path (issue 34.3)."""


def _case_problem(case: dict[str, Any]) -> str | None:
    """The first field of a manifest's case the check could not read, or None."""
    file = case.get("file")
    if not isinstance(file, str) or not file or file.startswith(("/", "\\")) or "\x00" in file \
            or ".." in file.replace("\\", "/").split("/"):
        return "file"  # a file of the kit's own folder, never a path out of it
    if case.get("kind") not in ("settlement", "rejection"):
        return "kind"
    for key in ("sections", "rules", "events"):
        if not _strings(case.get(key)):
            return key
    exp = case.get("expected")
    if not isinstance(exp, dict):
        return "expected"
    if case["kind"] == "settlement":
        scores = exp.get("scores")
        if not isinstance(scores, list) or not scores or not all(_is_int(v) for v in scores):
            return "expected.scores"
        if not _is_int(exp.get("next_dealer")):
            return "expected.next_dealer"
        if "flip" not in exp or not isinstance(exp["flip"], (str, type(None))):
            return "expected.flip"
        items = exp.get("items")
        if not isinstance(items, list) or not all(
                isinstance(it, dict) and all(isinstance(it.get(k), t) and not isinstance(it.get(k), bool)
                                             for k, t in _ITEM_FIELDS.items()) for it in items):
            return "expected.items"
        if not all(0 <= it[k] < len(scores) for it in items for k in ("from", "to")):
            return "expected.items"  # a payment between seats the case has (issue 34.3)
        return None
    if not _is_int(exp.get("rejected_at")):
        return "expected.rejected_at"
    if exp.get("code") not in CATALOGUE.findings:
        return "expected.code"
    if not isinstance(exp.get("rule"), str):
        return "expected.rule"
    if not isinstance(exp.get("params"), dict):
        return "expected.params"
    return None


@dataclass
class CaseResult:
    """One case's verdict: passed or not, what it exercises, and the first difference in words."""

    id: str
    kind: str
    passed: bool
    sections: list[str]
    rules: list[str]
    events: list[str]
    status: str = "pass"
    """`pass`, `fail`, `missing` (no answer) or `malformed`."""
    difference: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)
    """The engine's findings of the failure: code, rule, message."""
    cited: list[str] = field(default_factory=list)
    """The rules the failure is put down to."""
    step_report: str = ""
    kinds_ok: dict[str, bool] = field(default_factory=dict)
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"case": self.id, "kind": self.kind, "status": self.status, "passed": self.passed,
                "sections": self.sections, "rules": self.rules, "events": self.events,
                "difference": self.difference, "findings": self.findings, "cited_rules": self.cited,
                "step_report": self.step_report, "line": self.line}


@dataclass
class Report:
    """The whole check: per case, and the tallies the report shows."""

    kit: str
    profile: str
    engine: str
    lang: Lang
    results: list[CaseResult]
    extra: list[str]
    errors: list[str]

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def ok(self) -> bool:
        return self.passed == len(self.results) and not self.extra and not self.errors

    def per_section(self) -> list[tuple[str, int, int]]:
        """(section, cases, passed) over the cases that exercise each section."""
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in self.results:
            for s in r.sections:
                tally[s][0] += 1
                tally[s][1] += r.passed
        return [(s, n, p) for s, (n, p) in sorted(tally.items(), key=lambda kv: _code_key(kv[0]))]

    def per_kind(self) -> list[tuple[str, int, int]]:
        """(payment kind, settlement answers with items that had it, passed) for each kind."""
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in self.results:
            for k, ok in r.kinds_ok.items():
                tally[k][0] += 1
                tally[k][1] += ok
        return [(k, n, p) for k, (n, p) in sorted(tally.items())]

    def broken(self) -> list[tuple[str, int]]:
        """Rules the failures are put down to, with how many failing cases cite each, most first."""
        c: Counter[str] = Counter()
        for r in self.results:
            if not r.passed:
                c.update(set(r.cited))
        return sorted(c.items(), key=lambda kv: (-kv[1], _code_key(kv[0])))

    def items_given(self) -> tuple[int, int]:
        settle = [r for r in self.results if r.kind == "settlement" and r.status in ("pass", "fail")]
        return sum(bool(r.kinds_ok) for r in settle), len(settle)

    def to_json(self) -> dict[str, Any]:
        total = len(self.results)
        given, of = self.items_given()
        return {"kit": self.kit, "profile": self.profile, "engine": self.engine, "lang": self.lang.value,
                "total": total, "passed": self.passed, "pass_rate": self.passed / total if total else 1.0,
                "ok": self.ok,
                "sections": [{"section": s, "cases": n, "passed": p} for s, n, p in self.per_section()],
                "item_kinds": [{"kind": k, "cases": n, "passed": p} for k, n, p in self.per_kind()],
                "items_given": {"given": given, "settlement_answers": of},
                "broken_rules": [{"rule": r, "failing_cases": n} for r, n in self.broken()],
                "missing": [r.id for r in self.results if r.status == "missing"],
                "extra": self.extra, "malformed_lines": self.errors,
                "cases": [r.to_json() for r in self.results]}


def _code_key(code: str) -> tuple[int, ...]:
    return tuple(int(p) for p in code.lstrip("RP").split(".") if is_digits(p)) or (999,)


def read_answers(path: Path) -> Answers:
    """The answers file; CheckError when it cannot be read at all."""
    try:
        return parse(path.read_bytes().decode("utf-8"))  # `parse` drops a byte order mark, as everywhere
    except FileNotFoundError:
        raise CheckError(f"{path}: no such answers file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CheckError(f"{path}: cannot read the answers: {exc}") from None


def check(kit: Kit, answers: Answers, lang: Lang = Lang.EN, failures_dir: Path | None = None) -> Report:
    """Every case of the kit against its answer."""
    results = []
    for cid, case in kit.cases.items():
        ans = answers.by_case.get(cid)
        results.append(_check_case(kit, case, ans, lang, failures_dir))
    extra = [f"line {a.line}: {a.case}" for a in answers.by_case.values() if a.case not in kit.cases]
    m = kit.manifest
    return Report(m.get("kit", ""), m.get("profile", ""), m.get("engine", ""), lang, results, extra, answers.errors)


def _check_case(kit: Kit, case: dict[str, Any], ans: Answer | None, lang: Lang,
                failures_dir: Path | None) -> CaseResult:
    r = CaseResult(case["id"], case["kind"], False, case["sections"], case["rules"], case["events"])
    if ans is None:
        r.status, r.difference, r.cited = "missing", label(lang, "no_answer"), list(case["sections"])
        return r
    r.line = ans.line
    exp = case["expected"]
    if case["kind"] == "settlement":
        check_settlement(ans, len(exp["scores"]))
    else:
        check_rejection(ans)
    if ans.problems:
        r.status, r.difference = "malformed", label(lang, "bad_answer", problems="; ".join(
            f"line {ans.line}: {p}" for p in ans.problems))
        r.cited = list(case["sections"])
        return r
    if case["kind"] == "settlement":
        _settlement(kit, case, ans, r, lang, failures_dir)
    else:
        _rejection(kit, case, ans, r, lang, failures_dir)
    return r


def _sums(items: list[dict[str, Any]]) -> dict[tuple[str, int, int], int]:
    out: dict[tuple[str, int, int], int] = defaultdict(int)
    for it in items:
        out[(it["kind"], it["from"], it["to"])] += it["amount"]
    return {k: v for k, v in out.items() if v}


def _settlement(kit: Kit, case: dict[str, Any], ans: Answer, r: CaseResult, lang: Lang,
                failures_dir: Path | None) -> None:
    exp, got = case["expected"], ans.data
    wrong = [f for f in ("scores", "next_dealer", "flip") if got[f] != exp[f]]
    if "items" in got:
        mine, theirs = _sums(exp["items"]), _sums(got["items"])
        for kind in sorted({k[0] for k in mine} | {k[0] for k in theirs}):
            keys = {k for k in set(mine) | set(theirs) if k[0] == kind}
            r.kinds_ok[kind] = all(mine.get(k, 0) == theirs.get(k, 0) for k in keys)
        if not all(r.kinds_ok.values()):
            wrong.append("items")
    if not wrong:
        r.passed = True
        return
    r.status = "fail"
    doc = kit.record(case["id"])
    doc["result"] = {k: got[k] for k in ("scores", "next_dealer", "flip", "items") if k in got}
    audit = audit_record(doc, lang=lang)
    r.findings = [{"code": f["code"], "rule": f["rule"], "message": f["message"]} for f in audit["findings"]]
    if r.findings:
        r.difference = label(lang, "settle_differs", message=r.findings[0]["message"])
        r.cited = list(dict.fromkeys(f["rule"] for f in r.findings if f["rule"]))
        if len(r.cited) > 1 and "R15.1" in r.cited:  # the nets differ because a payment does: name the payment
            r.cited.remove("R15.1")
        if r.cited == ["R15.1"] and "items" not in got:
            found = scaled_rule(exp["items"], exp["scores"], got["scores"])
            if found:
                r.cited = [rule for rule, _ in found]
                r.difference += " " + label(lang, "multiple_of",
                                            hits=" / ".join(f"{rule} x {_factor(f)}" for rule, f in found))
    else:
        r.difference = label(lang, "no_engine_words", fields=", ".join(wrong))
        r.cited = list(case["sections"])
    r.step_report = _step_report(doc, case["id"], failures_dir, lang)


def scaled_rule(items: list[dict[str, Any]], want: list[int], got: list[int]) -> list[tuple[str, Fraction]]:
    """The rule whose payments the client's scores are off by a multiple of (missing: -1, doubled: +1, a wrong
    金鸡 multiplier: +1/2 ...): names the broken rule of a scores-only answer the engine's own mistake models
    (R16.16) do not explain. Only a rule whose payments alone move the scores that way counts; when several
    do, the ones missing or counted twice (factor -1 or 1) are named, else whole multiples, else the rest: two
    rules whose payments move the same seats alike (a hand and a dou both paid by seat 3 to seat 0) are both
    named, since the scores cannot tell them apart."""
    diff = [g - w for g, w in zip(got, want)]
    if not any(diff):
        return []
    by_rule: dict[str, list[int]] = defaultdict(lambda: [0] * len(want))
    for it in items:
        net = by_rule[it["rule"]]
        net[it["from"]] -= it["amount"]
        net[it["to"]] += it["amount"]
    hits = []
    for rule, net in sorted(by_rule.items()):
        pivot = next((i for i, v in enumerate(net) if v), None)
        if pivot is None:
            continue
        factor = Fraction(diff[pivot], net[pivot])
        if factor and all(Fraction(d) == factor * v for d, v in zip(diff, net)):
            hits.append((rule, factor))
    def plain(hit: tuple[str, Fraction]) -> int:
        f = hit[1]
        return 0 if abs(f) == 1 else 1 if f.denominator == 1 else 2
    return [h for h in hits if plain(h) == min(map(plain, hits))]


def _factor(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _rejection(kit: Kit, case: dict[str, Any], ans: Answer, r: CaseResult, lang: Lang,
               failures_dir: Path | None) -> None:
    exp = case["expected"]
    got, step = ans.data["rejected_at"], exp["rejected_at"]
    if got == step:
        r.passed = True
        return
    r.status = "fail"
    message = finding_message(exp["code"], exp["params"], exp["rule"], lang)
    key = "accepted_all" if got is None else ("refused_legal" if got < step else "accepted_illegal")
    r.difference = label(lang, key, step=step, got=got, message=message)
    r.findings = [{"code": exp["code"], "rule": exp["rule"], "message": message}]
    r.cited = [exp["rule"]]
    doc = kit.record(case["id"])
    doc["result"] = {"scores": [0] * len(doc["seats"]), "next_dealer": doc["dealer"], "flip": None}
    r.step_report = _step_report(doc, case["id"], failures_dir, lang)


def _step_report(doc: dict[str, Any], case_id: str, failures_dir: Path | None, lang: Lang) -> str:
    """Write the failing case (with the client's result) where the engine's step report can be made of it,
    and say how: `zhuoji-audit` prints the audit, the service's upload shows it step by step."""
    if failures_dir is None:
        return ""
    failures_dir.mkdir(parents=True, exist_ok=True)
    path = failures_dir / f"{case_id}.json"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return f"zhuoji-audit --lang {lang.value} {path}"


def section_names(rules: list[str]) -> list[str]:
    """The sections of some rule codes, in rulebook order."""
    return sorted({section_of(r) for r in rules}, key=_code_key)
