"""Counts of a batch: per partition (small, mergeable), then `summary.json` and `summary.html`.

Each worker counts its own rows (`count`) and the driver adds the counts up (`merge`): the
summary never rereads the Parquet output, so it costs nothing per hand on the driver and a
resumed run adds the counts kept beside the partitions it skipped. The groups are those of the
service's overview page (verdicts by day or month, hands with findings by rule section, by
platform, by client version, and the 热炮 section by client version), plus finding codes and
full rule numbers, and the page draws the overview's own charts (`report.charts`).
"""
from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from audit.vocabulary import Lang, is_digits, render_value
from audit.vocabulary import label as rule_label
from report.charts import Bar, Series, bar_chart_svg

VERDICTS = ("invalid", "illegal", "missettled", "clean")
"""Worst first, as the store and the overview order them."""
COLOURS = {"invalid": "#6d4c41", "illegal": "#c62828", "missettled": "#b26a00", "clean": "#2e7d32"}
"""The overview's verdict colours (static/style.css)."""
FOCUS = "R8"
"""The section of the per-client chart: 热炮, which client builds mis-settle it."""
GROUPS = ("platform", "client", "profile", "section", "rule", "period", "focus")
DAILY_SPAN = 62
"""Up to this many days between the first and the last game, periods are days; beyond, months."""
TOP = 25
"""Most groups a chart shows (the tables of summary.json have them all)."""

SKIPPED_LISTED = 100
"""Files left out (expected audits, junk zip members) listed by name; beyond, only counted."""

Counts = dict[str, Any]


def empty() -> Counts:
    """The counts of no hands."""
    return {"hands": 0, "verdicts": dict.fromkeys(VERDICTS, 0), **{group: {} for group in GROUPS}, "codes": {}}


def _add(group: dict[str, dict[str, int]], key: str | None, verdict: str, amount: int = 1) -> None:
    counts = group.setdefault(key or "", dict.fromkeys(VERDICTS, 0))
    counts[verdict] = counts.get(verdict, 0) + amount


def count(hands: Iterable[Mapping[str, Any]], findings: Iterable[Mapping[str, Any]]) -> Counts:
    """The counts of some rows (one partition's): hands per verdict in each group; a hand counts
    once in each rule section, rule and code its findings name."""
    out = empty()
    for row in hands:
        verdict = row["verdict"]
        out["hands"] += 1
        out["verdicts"][verdict] += 1
        _add(out["platform"], row["platform"], verdict)
        _add(out["client"], row["client"], verdict)
        _add(out["profile"], row["profile"], verdict)
        _add(out["period"], row["played_date"], verdict)
    named: dict[str, dict[str, set[str]]] = {}  # hand -> {"section"|"rule"|"code": names}
    about: dict[str, tuple[str, str | None]] = {}  # hand -> (verdict, client)
    for row in findings:
        hand = row["source"]
        about[hand] = (row["verdict"], row["client"])
        names = named.setdefault(hand, {"section": set(), "rule": set(), "code": set()})
        if row["rule"]:
            names["section"].add(row["section"])
            names["rule"].add(row["rule"])
        names["code"].add(row["code"])
        code = out["codes"].setdefault(row["code"], {"findings": 0, "hands": 0, "kind": row["kind"], "rules": []})
        code["findings"] += 1
        if row["rule"] and row["rule"] not in code["rules"]:
            code["rules"] = sorted([*code["rules"], row["rule"]])
    for hand, names in named.items():
        verdict, client = about[hand]
        for group in ("section", "rule"):
            for name in names[group]:
                _add(out[group], name, verdict)
        for name in names["code"]:
            out["codes"][name]["hands"] += 1
        if FOCUS in names["section"]:
            _add(out["focus"], client, verdict)
    return out


def merge(parts: Iterable[Counts]) -> Counts:
    """The counts of several partitions added up."""
    out = empty()
    for part in parts:
        out["hands"] += part["hands"]
        for verdict, value in part["verdicts"].items():
            out["verdicts"][verdict] += value
        for group in GROUPS:
            for key, counts in part[group].items():
                for verdict, value in counts.items():
                    _add(out[group], key, verdict, value)
        for code, entry in part["codes"].items():
            mine = out["codes"].setdefault(code, {"findings": 0, "hands": 0, "kind": entry["kind"], "rules": []})
            mine["findings"] += entry["findings"]
            mine["hands"] += entry["hands"]
            mine["rules"] = sorted(set(mine["rules"]) | set(entry["rules"]))
    return out


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 6) if whole else 0.0


def _group_rows(group: Mapping[str, Mapping[str, int]], order: str = "size") -> list[dict[str, Any]]:
    """A group's table: key, counts per verdict, total and the rates of each bad verdict."""
    rows: list[dict[str, Any]] = []
    for key, counts in group.items():
        total = sum(counts.values())
        rows.append({"key": key or None, "counts": {v: counts.get(v, 0) for v in VERDICTS}, "total": total,
                     "not_clean": _rate(total - counts.get("clean", 0), total),
                     **{f"{v}_rate": _rate(counts.get(v, 0), total) for v in VERDICTS if v != "clean"}})
    if order == "size":
        rows.sort(key=lambda row: (-row["total"], row["key"] or ""))
    elif order == "section":
        rows.sort(key=lambda row: section_order(row["key"] or ""))
    else:
        rows.sort(key=lambda row: (row["key"] is None, row["key"] or ""))
    return rows


def section_order(code: str) -> tuple[int, int, str]:
    """R1 < R2 < ... < R16 < P < anything else; R8.2 < R8.10 inside a section."""
    head, _, tail = code.partition(".")
    if head[:1] == "R" and is_digits(head[1:]):
        return (int(head[1:]), int(tail) if is_digits(tail) else -1, "")
    return (1000, 0, code)


def _periods(group: Mapping[str, Mapping[str, int]]) -> tuple[str, dict[str, dict[str, int]]]:
    """Days, or months when the games span more than DAILY_SPAN days (as the overview does)."""
    days = sorted(key for key in group if key)
    unit = "day"
    try:
        if days and (date.fromisoformat(days[-1]) - date.fromisoformat(days[0])).days > DAILY_SPAN:
            unit = "month"
    except ValueError:
        unit = "day"
    if unit == "day":
        return unit, {key: dict(value) for key, value in group.items()}
    out: dict[str, dict[str, int]] = {}
    for key, counts in group.items():
        for verdict, value in counts.items():
            _add(out, key[:7] if key else "", verdict, value)
    return unit, out


def document(counts: Counts, *, settings: Mapping[str, Any], partitions: int, failed: Sequence[Mapping[str, Any]],
             skipped: Sequence[str], engine_version: str) -> dict[str, Any]:
    """summary.json: every count and rate, groups largest first (rule sections in rulebook order)."""
    total = counts["hands"]
    unit, periods = _periods(counts["period"])
    codes = [{"code": code, "kind": entry["kind"], "rules": entry["rules"], "findings": entry["findings"],
              "hands": entry["hands"], "share": _rate(entry["hands"], total)}
             for code, entry in counts["codes"].items()]
    codes.sort(key=lambda row: (-row["hands"], row["code"]))
    return {"format": "zhuoji-batch-summary/1", "engine_version": engine_version, "settings": dict(settings),
            "hands": total, "partitions": partitions, "failed_partitions": list(failed),
            "skipped": {"count": len(skipped), "first": list(skipped[:SKIPPED_LISTED])},
            "verdicts": {v: {"count": counts["verdicts"][v], "rate": _rate(counts["verdicts"][v], total)}
                         for v in VERDICTS},
            "by_period": {"unit": unit, "rows": _group_rows(periods, "key")},
            "by_section": _group_rows(counts["section"], "section"),
            "by_rule": _group_rows(counts["rule"], "section"),
            "by_code": codes,
            "by_platform": _group_rows(counts["platform"]),
            "by_client": _group_rows(counts["client"]),
            "by_profile": _group_rows(counts["profile"]),
            "focus": {"section": FOCUS, "by_client": _group_rows(counts["focus"])}}


def _word(key: str, lang: Lang) -> str:
    return render_value("batch", key, lang)


def _percent(share: float) -> str:
    """0.125 -> '12.5%' (one decimal below 10%, none above), as the overview writes rates."""
    if share == 0:
        return "0%"
    return f"{share * 100:.1f}%" if share * 100 < 10 else f"{share * 100:.0f}%"


def _chart(title: str, rows: Sequence[Mapping[str, Any]], lang: Lang, *, label: Any, note: Any) -> str:
    """One chart of the overview (stacked verdict bars) and its table, as HTML."""
    series = [Series(v, render_value("verdict", v, lang), COLOURS[v]) for v in VERDICTS]
    bars = [Bar(label(row), row["counts"], note=note(row)) for row in rows[:TOP]]
    svg = bar_chart_svg(bars, series=series, title=title)
    head = "".join(f"<th>{html.escape(render_value('verdict', v, lang))}</th>" for v in VERDICTS)
    body = "".join(
        f"<tr><td>{html.escape(label(row))}</td>"
        + "".join(f"<td class=n>{row['counts'][v]}</td>" for v in VERDICTS)
        + f"<td class=n>{row['total']}</td><td class=n>{html.escape(note(row))}</td></tr>" for row in rows)
    more = f"<p>{html.escape(_word('more', lang).format(n=len(rows) - TOP))}</p>" if len(rows) > TOP else ""
    return (f"<section><h2>{html.escape(title)}</h2>{svg}{more}<table><thead><tr><th></th>{head}"
            f"<th>{html.escape(_word('total', lang))}</th><th></th></tr></thead><tbody>{body}</tbody></table>"
            "</section>")


def page(summary: Mapping[str, Any], lang: Lang | str = Lang.EN) -> str:
    """summary.html: the overview's charts and tables over the batch, self-contained (no script,
    no external file), in `lang`."""
    lang = Lang(lang)
    total = summary["hands"]
    not_clean = lambda row: _word("not_clean", lang).format(rate=_percent(row["not_clean"]))  # noqa: E731
    share = lambda row: _word("of_hands", lang).format(rate=_percent(row["total"] / total if total else 0))  # noqa: E731
    none = lambda key: lambda row: row["key"] or _word(key, lang)  # noqa: E731
    periods = summary["by_period"]
    charts = [
        _chart(_word("by_day" if periods["unit"] == "day" else "by_month", lang), periods["rows"], lang,
               label=none("no_date"), note=not_clean),
        _chart(_word("by_section", lang), summary["by_section"], lang, label=lambda row: rule_label(row["key"]),
               note=share),
        _chart(_word("by_platform", lang), summary["by_platform"], lang, label=none("no_platform"), note=not_clean),
        _chart(_word("by_client", lang), summary["by_client"], lang, label=none("no_client"), note=not_clean),
        _chart(_word("focus", lang).format(rule=rule_label(summary["focus"]["section"])),
               summary["focus"]["by_client"], lang, label=none("no_client"), note=not_clean),
    ]
    codes = "".join(f"<tr><td><code>{html.escape(row['code'])}</code></td><td>{html.escape(' '.join(row['rules']))}"
                    f"</td><td class=n>{row['hands']}</td><td class=n>{row['findings']}</td>"
                    f"<td class=n>{_percent(row['share'])}</td></tr>" for row in summary["by_code"])
    verdicts = " · ".join(f"{html.escape(render_value('verdict', v, lang))} {summary['verdicts'][v]['count']} "
                          f"({_percent(summary['verdicts'][v]['rate'])})" for v in VERDICTS)
    failed = summary["failed_partitions"]
    warning = (f"<p class=warn>{html.escape(_word('failed', lang).format(n=len(failed)))}</p>" if failed else "")
    title = _word("title", lang)
    return ("<!doctype html>\n"
            f"<html lang=\"{'zh-CN' if lang is Lang.ZH else 'en'}\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{html.escape(title)}</h1>"
            f"<p>{html.escape(_word('hands', lang).format(n=total, engine=summary['engine_version']))}</p>"
            f"<p>{verdicts}</p>{warning}{''.join(charts)}"
            f"<section><h2>{html.escape(_word('by_code', lang))}</h2><table><thead><tr>"
            f"<th>{html.escape(_word('code', lang))}</th><th>{html.escape(_word('rules', lang))}</th>"
            f"<th>{html.escape(_word('hands_column', lang))}</th><th>{html.escape(_word('findings', lang))}</th>"
            f"<th></th></tr></thead><tbody>{codes}</tbody></table></section></body></html>\n")


STYLE = ("body{font-family:'WenQuanYi Micro Hei','Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif;"
         "color:#1d2228;margin:2em auto;max-width:62em;padding:0 1em}table{border-collapse:collapse;margin:.5em 0 2em}"
         "td,th{border-bottom:1px solid #d9dee3;padding:.2em .6em;text-align:left}td.n{text-align:right;"
         "font-variant-numeric:tabular-nums}.warn{color:#c62828;font-weight:bold}svg{max-width:100%;height:auto}")
"""Inline, so the page opens anywhere (a mail attachment, a file share) as it was written."""
