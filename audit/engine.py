"""One hand from JSON document to the contract's audit JSON: schema, profile, replay, settle, compare."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from audit.catalogue import Lang, seat_names
from audit.attributed import attributed
from audit.compare import compare
from audit.explain import explain
from audit.findings import Finding, Kind, verdict_of
from audit.match import continuity
from audit.profiles import DEFAULT_PROFILE, Profile, ProfileError, apply_options, load_profile
from audit.replay import Observer, Replay, replay
from audit.settle import Settlement, settle
from audit.schema import SchemaError, validate_match, validate_record


@dataclass
class HandAudit:
    """Everything the audit learned about one hand; `to_json` is the contract's shape."""

    game_id: str | None
    profile_name: str
    findings: list[Finding]
    settlement: Settlement | None = None
    replay: Replay | None = None
    profile: Profile | None = None
    base: int = 1
    names: tuple[str, ...] = ()
    """The players' names by seat, for the messages (`2号位 小红`); () before the schema passed."""

    def __init__(self, game_id: str | None, profile_name: str, findings: list[Finding],
                 settlement: Settlement | None = None, replay: Replay | None = None, profile: Profile | None = None,
                 base: int = 1, names: tuple[str, ...] = ()) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.game_id = game_id
        self.profile_name = profile_name
        self.findings = findings
        self.settlement = settlement
        self.replay = replay
        self.profile = profile
        self.base = base
        self.names = names

    def to_json(self, lang: Lang | str = Lang.EN, items: bool = True) -> dict[str, Any]:
        """The audit object of record-format.md, messages and notes in `lang`; `items=False` leaves
        out the settlement's items (see `audit.api.audit_document`)."""
        return {"game_id": self.game_id, "profile": self.profile_name,
                "verdict": verdict_of(self.findings).value,
                "findings": [f.to_json(lang, self.names) for f in self.findings],
                "settlement": self.settlement.to_json(self.base, lang, self.names, items)
                if self.settlement is not None else None}


def _schema_finding(code: str, params: dict[str, Any], rule: str | None, prefix: str = "") -> Finding:
    """A schema or profile finding; its `path` param prefixed with the hand's place in a match (`hands[2].`)."""
    if prefix:
        path = params.get("path", "")
        params = {**params, "path": f"{prefix}.{path}" if path else prefix}
    return Finding(Kind.SCHEMA, rule, code, params)


def _from_schema(e: SchemaError, prefix: str = "") -> Finding:
    return _schema_finding(e.code, e.params, e.rule, prefix)


def resolve_profile(doc: dict[str, Any], profile: str | None, options: dict[str, Any] | None,
                    base: Profile | None = None) -> Profile:
    """The record's profile and options, or a what-if profile (whose options replace the record's).
    `base` (issue 36.3: the platform's profile in force) takes the place of the profile the
    record names; the record's own options still apply on top of it. A what-if `profile`
    replaces both."""
    rules = doc.get("rules", {})
    own = rules.get("profile", DEFAULT_PROFILE)
    name = profile or own
    base_options = rules.get("options") if name == own else None
    start = base if base is not None and not profile else load_profile(name)
    prof = apply_options(start, base_options)
    return apply_options(prof, options) if options else prof


def _game_id(doc: object) -> str | None:
    gid = doc.get("game_id") if isinstance(doc, dict) else None
    return gid if isinstance(gid, str) else None


def _profile_name(doc: object, profile: str | None, base: Profile | None = None) -> str:
    if profile:
        return profile
    if base is not None:
        return base.name
    rules = doc.get("rules") if isinstance(doc, dict) else None
    name = rules.get("profile") if isinstance(rules, dict) else None
    return name if isinstance(name, str) else DEFAULT_PROFILE


def audit_hand(doc: object, *, profile: str | None = None, options: dict[str, Any] | None = None,
               observer: Observer | None = None, path_prefix: str = "", schema_checked: bool = False,
               base_profile: Profile | None = None) -> HandAudit:
    """Audit one `zhuoji/1` document; never raises on bad input.

    `schema_checked`: the caller already ran `audit.schema.validate_record` on
    this very document and it reported nothing (the service validates every
    upload before storing it), so the engine does not pay for a second pass.
    `base_profile`: judge under this profile instead of the one `rules.profile` names
    (`resolve_profile`).
    """
    out = HandAudit(_game_id(doc), _profile_name(doc, profile, base_profile), [], names=seat_names(doc))
    errors = [] if schema_checked and isinstance(doc, dict) else validate_record(doc)
    if errors:
        out.findings = [_from_schema(e, path_prefix) for e in errors]
        return out
    assert isinstance(doc, dict)
    try:
        prof = resolve_profile(doc, profile, options, base_profile)
    except ProfileError as exc:
        out.findings = [_schema_finding(exc.code, exc.params, "P", path_prefix)]
        return out
    n = len(doc["seats"])
    if n not in prof.players:
        out.findings = [_schema_finding("profile_seat_count", {"path": "seats", "seats": n, "profile": prof.name,
                                                               "players": list(prof.players)}, "R1.1", path_prefix)]
        return out
    out.profile, out.base = prof, doc.get("base", 1)
    rep = replay(doc, prof, observer=observer)
    out.replay = rep
    if rep.finding is not None:
        out.findings = [rep.finding]
        return out
    out.settlement = settle(rep.state)
    out.findings = compare(doc["result"], out.settlement, out.base)
    if "items" not in doc["result"]:
        out.findings = _named(out.findings, rep, out.settlement, doc["result"]["scores"], out.base)
    out.findings = _attributed(out.findings, rep, out.settlement, doc["result"]["scores"], out.base)
    return out


def _attributed(findings: list[Finding], rep: Replay, sett: Settlement, claimed: list[int],
                base: int) -> list[Finding]:
    """R16.16: when the scores are wrong and no item comparison says why (the record has no items,
    or its items are right and its scores are not), findings naming the payment(s) that explain
    them follow the per-seat ones (audit.attributed). Scores that do not sum to 0 (R16.18) are an
    arithmetic error no payment explains: scores_sum_not_zero says so."""
    per_seat = any(f.params.keys() == {"seat", "claimed", "computed"} for f in findings)
    itemised = any("paid" in f.params for f in findings)
    if not per_seat or itemised or sum(claimed) != 0 or any(c % base for c in claimed):
        return findings
    return findings + attributed(rep.state, sett, [c // base for c in claimed], base)


def _named(findings: list[Finding], rep: Replay, sett: Settlement, claimed: list[int], base: int) -> list[Finding]:
    """R16.16: per-seat R15.1 findings cite the payment that explains them, when one does: each
    takes the explanation's code and rule and keeps its own params (audit.explain.Explanation)."""
    seat_findings = [f for f in findings if f.rule == "R15.1" and f.seat is not None]
    if not seat_findings or any(c % base for c in claimed):
        return findings
    why = explain(rep.state, sett, [c // base for c in claimed])
    if why is None:
        return findings
    return [Finding(f.kind, why.rule, why.code, f.params, f.step, f.seat, f.expected, f.actual)
            if f in seat_findings else f for f in findings]


def audit_match_hands(doc: dict[str, Any], *, profile: str | None = None,
                      options: dict[str, Any] | None = None, schema_checked: bool = False,
                      base_profile: Profile | None = None) -> list[HandAudit]:
    """Audit every hand of a `zhuoji-match/1` document, then their continuity.

    `schema_checked`: `audit.schema.validate_match` already found nothing wrong."""
    hands = doc.get("hands")
    envelope = [] if schema_checked else [e for e in validate_match(doc) if not e.path.startswith("hands[")]
    if envelope or not isinstance(hands, list):
        table = doc.get("table_id")
        out = HandAudit(table if isinstance(table, str) else None, _profile_name(doc, profile, base_profile), [])
        out.findings = [_from_schema(e) for e in envelope]
        return [out]
    audits = [audit_hand(h, profile=profile, options=options, path_prefix=f"hands[{i}]", schema_checked=schema_checked,
                         base_profile=base_profile)
              for i, h in enumerate(hands)]
    for i in range(1, len(audits)):
        prev, cur = audits[i - 1], audits[i]
        if prev.profile is None or cur.profile is None:
            continue
        cur.findings = cur.findings + continuity(hands[i - 1], prev.settlement, hands[i], i)
    return audits
