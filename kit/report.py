"""The check's report as text (the terminal), JSON, JUnit XML (one test per case), HTML and PDF.

Every writer reads the same `kit.check.Report`; the PDF is the HTML
printed by a headless Chromium when one is installed (the engine carries no
PDF library: the service's WeasyPrint stays in the web layer).
"""
from __future__ import annotations

import html
import json
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from kit.check import CheckError, Report, label
from audit.vocabulary import label as rule_label


def _rate(passed: int, total: int) -> str:
    return f"{100 * passed / total:.1f}%" if total else "-"


def text(rep: Report) -> str:
    """The terminal summary: overall, the broken rules, then one line per failing case."""
    lang = rep.lang
    total = len(rep.results)
    out = [label(lang, "title", kit=rep.kit, profile=rep.profile),
           label(lang, "overall", passed=rep.passed, total=total, rate=_rate(rep.passed, total))]
    broken = rep.broken()
    out.append(f"{label(lang, 'broken')}:" if broken else label(lang, "broken_none"))
    out += [f"  {rule_label(rule)}: {n} {label(lang, 'failing')}" for rule, n in broken]
    out.append(f"{label(lang, 'per_section')}:")
    out += [f"  {s:<4} {p:>4}/{n:<4} {_rate(p, n)}" for s, n, p in rep.per_section()]
    kinds = rep.per_kind()
    if kinds:
        out.append(f"{label(lang, 'per_kind')}:")
        out += [f"  {k:<12} {p:>4}/{n:<4} {_rate(p, n)}" for k, n, p in kinds]
    given, of = rep.items_given()
    out.append(label(lang, "items_given", given=given, total=of))
    fails = [r for r in rep.results if not r.passed]
    if fails:
        out.append(f"{label(lang, 'failures')}:")
        for r in fails:
            out.append(f"  {r.id} [{', '.join(r.cited)}] {r.difference}")
            if r.step_report:
                out.append(f"      {label(lang, 'command', command=r.step_report)}")
    if rep.extra:
        out.append(f"{label(lang, 'extra')}: " + ", ".join(rep.extra))
    if rep.errors:
        out.append(f"{label(lang, 'malformed')}:")
        out += [f"  {e}" for e in rep.errors]
    return "\n".join(out) + "\n"


def to_json(rep: Report) -> str:
    """The report as stable JSON."""
    return json.dumps(rep.to_json(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def junit(rep: Report) -> str:
    """JUnit XML: one testcase per kit case (classname the case's kind and first section), failures with the
    first difference; extra answers and unreadable lines as failing testcases of their own."""
    suite = ET.Element("testsuite", name=f"zhuoji-kit {rep.kit}")
    failures = 0
    for r in rep.results:
        cls = f"{rep.kit}.{r.kind}"
        name = f"{r.id} {' '.join(r.sections)}".strip()
        tc = ET.SubElement(suite, "testcase", classname=cls, name=name, time="0")
        if not r.passed:
            failures += 1
            f = ET.SubElement(tc, "failure", message=r.difference[:500], type=",".join(r.cited) or r.status)
            f.text = "\n".join([r.difference, *[f"{x['rule']} {x['code']}: {x['message']}" for x in r.findings],
                                *([r.step_report] if r.step_report else [])])
    for name, items in (("extra answer", rep.extra), ("malformed line", rep.errors)):
        for item in items:
            failures += 1
            tc = ET.SubElement(suite, "testcase", classname=f"{rep.kit}.answers", name=f"{name}: {item}", time="0")
            ET.SubElement(tc, "failure", message=item, type=name)
    suite.set("tests", str(len(suite)))
    suite.set("failures", str(failures))
    suite.set("errors", "0")
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


_CSS = """body{font-family:"Noto Sans CJK SC","Source Han Sans SC",sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #bbb;padding:.25em .6em;text-align:left;
vertical-align:top}th{background:#eee}.fail{color:#a00}.pass{color:#070}code{font-size:.9em}"""


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def to_html(rep: Report) -> str:
    """A self-contained HTML page of the report."""
    lang, e = rep.lang, html.escape
    total = len(rep.results)
    parts = [f"<!doctype html><html lang=\"{'zh-CN' if lang.value == 'zh' else 'en'}\"><head><meta charset=\"utf-8\">"
             f"<title>{e(label(lang, 'title', kit=rep.kit, profile=rep.profile))}</title><style>{_CSS}</style></head>"
             f"<body><h1>{e(label(lang, 'title', kit=rep.kit, profile=rep.profile))}</h1>",
             f"<p class=\"{'pass' if rep.ok else 'fail'}\"><strong>"
             f"{e(label(lang, 'overall', passed=rep.passed, total=total, rate=_rate(rep.passed, total)))}</strong></p>",
             f"<h2>{e(label(lang, 'broken'))}</h2>"]
    broken = rep.broken()
    parts.append(_table([label(lang, "rule"), label(lang, "failing")],
                        [[e(rule_label(r)), str(n)] for r, n in broken]) if broken
                 else f"<p>{e(label(lang, 'broken_none'))}</p>")
    parts.append(f"<h2>{e(label(lang, 'per_section'))}</h2>")
    parts.append(_table([label(lang, "section"), label(lang, "cases"), label(lang, "passed"), label(lang, "rate")],
                        [[e(rule_label(s)), str(n), str(p), _rate(p, n)] for s, n, p in rep.per_section()]))
    given, of = rep.items_given()
    parts.append(f"<h2>{e(label(lang, 'per_kind'))}</h2><p>{e(label(lang, 'items_given', given=given, total=of))}</p>")
    if rep.per_kind():
        parts.append(_table([label(lang, "kind"), label(lang, "cases"), label(lang, "passed"), label(lang, "rate")],
                            [[f"<code>{e(k)}</code>", str(n), str(p), _rate(p, n)] for k, n, p in rep.per_kind()]))
    fails = [r for r in rep.results if not r.passed]
    if fails:
        parts.append(f"<h2>{e(label(lang, 'failures'))}</h2>")
        parts.append(_table([label(lang, "case"), label(lang, "rule"), label(lang, "what"), label(lang, "report")],
                            [[f"<code>{e(r.id)}</code>", e(", ".join(r.cited)),
                              e(r.difference) + "".join(f"<br><small><code>{e(str(x['rule']))} {e(x['code'])}</code> "
                                                        f"{e(x['message'])}</small>" for x in r.findings[1:]),
                              f"<code>{e(r.step_report)}</code>"] for r in fails]))
    for key, items in (("extra", rep.extra), ("malformed", rep.errors)):
        if items:
            parts.append(f"<h2>{e(label(lang, key))}</h2><ul>" + "".join(f"<li>{e(i)}</li>" for i in items) + "</ul>")
    parts.append("</body></html>\n")
    return "".join(parts)


def to_pdf(rep: Report, out: Path) -> None:
    """The HTML report printed to PDF by headless Chromium; CheckError when none is installed."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        raise CheckError("--pdf needs Chromium (chromium, chromium-browser or google-chrome on PATH); "
                         "use --html instead")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "report.html"
        page.write_text(to_html(rep), encoding="utf-8")
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={tmp}/profile",
               "--no-pdf-header-footer", f"--print-to-pdf={out.resolve()}", page.as_uri()]
        try:
            done = subprocess.run(cmd, capture_output=True, timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise CheckError(f"--pdf: Chromium did not run: {exc}") from None
        if done.returncode != 0 or not out.is_file():
            raise CheckError(f"--pdf: Chromium failed ({done.returncode}): {done.stderr.decode(errors='replace')[-300:]}")
