"""The step-by-step report of one record, its PDF, and the what-if comparison.

Everything about the game comes from `audit.api` (the audit, the table after
each step, the chickens), `audit.rulebook` (the text and Chinese name of a
rule) and `audit.render` (tile drawings); this module only fetches, groups and
lays them out. The ledger groups payments by (kind, payer, payee) the way the
record format compares them, and never computes an amount.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from flask import Blueprint, Response, abort, current_app, g, render_template, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from audit import render, rulebook
from records.storage import AuditFailed, Store
from web import api, engine
from web.auth import READERS, requires
from web.db import get_store
from web.pages import form_options
from web.errors import ApiError
from web.i18n import gettext as _

bp = Blueprint("report", __name__)

TILE_PX = 20
"""Width of a tile in the step table, in CSS pixels."""
PDF_TILE_PX = 14
"""Width of a tile in the PDF's step table: a step then takes 23 mm, eight steps to a page."""


# ----------------------------------------------------------------- plain data for the templates

@dataclass(frozen=True)
class LedgerRow:
    """Payments of one (kind, payer, payee): what the rules give and what the record claims."""

    kind: str
    payer: int | None
    payee: int | None
    rules: tuple[str, ...]
    notes: tuple[str, ...]
    computed: int | None
    claimed: int | None

    @property
    def difference(self) -> int | None:
        """Claimed minus computed; None when the record has no items (a missing computed side is 0)."""
        return None if self.claimed is None else self.claimed - (self.computed or 0)


def _key(item: dict[str, Any]) -> tuple[str, Any, Any]:
    """How the record format compares items: summed per (kind, from, to)."""
    return (str(item.get("kind")), item.get("from"), item.get("to"))


def _amount(value: Any) -> int:
    """An item's amount; anything that is not a number counts as 0 (the schema rejects it anyway)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def ledger(computed: Sequence[dict[str, Any]] | None, claimed: Sequence[dict[str, Any]] | None) -> list[LedgerRow]:
    """One row per (kind, payer, payee) of either side, computed order first. `claimed` is None
    when the record has no `result.items`; then only the computed side is shown."""
    groups: dict[tuple[str, Any, Any], dict[str, Any]] = {}
    for item in computed or ():
        group = groups.setdefault(_key(item), {"rules": [], "notes": [], "computed": 0, "claimed": None})
        group["computed"] += _amount(item.get("amount"))
        for field, value in (("rules", item.get("rule")), ("notes", item.get("note"))):
            if value and value not in group[field]:
                group[field].append(value)
    for item in claimed or ():
        group = groups.setdefault(_key(item), {"rules": [], "notes": [], "computed": None, "claimed": None})
        group["claimed"] = (group["claimed"] or 0) + _amount(item.get("amount"))
    if claimed is not None:
        for group in groups.values():
            group["claimed"] = group["claimed"] or 0
    return [LedgerRow(kind, payer, payee, tuple(g["rules"]), tuple(g["notes"]), g["computed"], g["claimed"])
            for (kind, payer, payee), g in groups.items()]


@dataclass(frozen=True)
class Compared:
    """One value the audit computes beside what the record claims (a seat's total, the next dealer)."""

    label: Any
    computed: Any
    claimed: Any

    @property
    def differs(self) -> bool:
        """Whether the record claims something else (a value it does not give never differs)."""
        return self.claimed is not None and self.computed is not None and self.claimed != self.computed

    @property
    def difference(self) -> int | None:
        """Claimed minus computed for numbers."""
        if isinstance(self.claimed, int) and isinstance(self.computed, int):
            return self.claimed - self.computed
        return None


def seat_totals(computed: Sequence[int] | None, claimed: Sequence[Any] | None) -> list[Compared]:
    """Net per seat: the audit's `settlement.scores` beside the record's `result.scores`."""
    count = max(len(computed or ()), len(claimed or ()))
    return [Compared(seat, _at(computed, seat), _at(claimed, seat)) for seat in range(count)]


def _at(values: Sequence[Any] | None, index: int) -> Any:
    """values[index], or None past the end or when there are no values."""
    return values[index] if values is not None and index < len(values) else None


def _record_result(document: Any) -> dict[str, Any]:
    """The record's claimed `result` (empty when the document has none)."""
    result = document.get("result") if isinstance(document, dict) else None
    return result if isinstance(result, dict) else {}


# ----------------------------------------------------------------- the engine's trace

def trace_for(document: Any, audit_row: dict[str, Any] | None, record: dict[str, Any]) -> Any:
    """The step views under the rules of the latest audit (a re-audit under another profile
    shows its own pass locks); None when the engine cannot replay the record."""
    from audit.api import trace_record

    profile = options = None
    if audit_row is not None and (audit_row["options"] is not None or audit_row["profile"] != record["profile"]):
        profile, options = audit_row["profile"], audit_row["options"]
    try:
        return trace_record(document, profile=profile, options=options)
    except Exception:  # the engine promises not to raise; a report without steps beats a 500
        current_app.logger.exception("trace of record %s failed", record["id"])
        return None


def report_context(detail: dict[str, Any]) -> dict[str, Any]:
    """Everything the step-by-step body needs beyond the record detail."""
    document = detail["document"]
    audit = detail["audit"] or {}
    trace = trace_for(document, detail["audits"][-1] if detail["audits"] else None, detail)
    settlement = audit.get("settlement") or {}
    result = _record_result(document)
    claimed_items = result.get("items") if isinstance(result.get("items"), list) else None
    steps = trace.steps if trace is not None else []
    return {
        "trace": trace,
        "steps": steps,
        "slots": render.discard_slots(steps),
        "claimed": result,
        "ledger": ledger(settlement.get("items"), claimed_items) if settlement or claimed_items else [],
        "has_claimed_items": claimed_items is not None,
        "totals": seat_totals(settlement.get("scores"), result.get("scores")),
        "next_dealer": Compared("next_dealer", settlement.get("next_dealer"), result.get("next_dealer")),
        "flip": Compared("flip", settlement.get("flip"), result.get("flip")),
        "chickens": trace.chickens if trace is not None else [],
        "trace_verdict": trace.audit.get("verdict") if trace is not None else None,
    }


# ----------------------------------------------------------------- template helpers

def seat_labels(count: int, dealer: Any) -> list[str]:
    """Short seat labels for the drawings: the number, and the dealer's mark."""
    return [f"{seat} {_('D')}" if seat == dealer else str(seat) for seat in range(count)]


@bp.app_template_global()
def tile(code: str, width: float = 16, highlight: bool = False) -> Markup:
    """One tile, standalone (fine for a few; many go through `hand` or `table`)."""
    return Markup(render.tile_svg(code, width=width, highlight=highlight))


PDF_IMAGES = "/_pdf-images/"
"""URL prefix of the drawings a PDF embeds; only the PDF's fetcher answers it (no route)."""


def _pdf_image(svg: str) -> str:
    """The URL path under which the PDF's fetcher hands over an SVG (kept on `g`), named by its
    content: WeasyPrint loads and parses each URL once per document."""
    names: dict[str, str] = g.setdefault("pdf_names", {})
    name = names.get(svg)
    if name is None:
        name = names[svg] = hashlib.sha1(svg.encode("utf-8")).hexdigest()[:16] + ".svg"
        g.setdefault("pdf_images", {})[name] = svg
    return PDF_IMAGES + name


def _embedded(svg: str, css_class: str) -> Markup:
    """An SVG as an <img> for WeasyPrint, kept on `g` and handed over by the PDF's URL fetcher.
    As an image WeasyPrint skips the HTML styling of every SVG node (a third faster, measured)
    and the drawing's ids stay out of the document; by URL rather than as a data: URL its HTML
    parser does not wade through the base64 (0.3 s for a long hand, measured)."""
    return Markup('<img class="{}" alt="" src="{}">').format(css_class, _pdf_image(svg))


@bp.app_template_global()
def hand(codes: Sequence[str], width: float = 16, sprite: bool = True, embed: bool = False) -> Markup:
    """A row of tiles: with `sprite` for a page that has `tile_sprite()`, `embed` for a PDF."""
    if embed:
        return _embedded(render.hand_svg(list(codes), width=width), "hand-image")
    return Markup(render.hand_svg(list(codes), width=width, sprite=sprite))


@bp.app_template_global()
def tile_sprite() -> Markup:
    """The hidden sheet of every tile, once per HTML page."""
    return Markup(render.tile_sprite_svg())


@bp.app_template_global()
def step_table(step: Any, dealer: Any, slots: int, width: float = TILE_PX, embed: bool = False) -> Markup:
    """The table after a step: for a page with the sprite, or embedded as an image for WeasyPrint."""
    labels = seat_labels(len(step.seats), dealer)
    if not embed:
        return Markup(render.table_svg(step, width=width, labels=labels, discard_slots=slots, sprite=True))
    return _embedded(render.table_svg(step, width=width, labels=labels, discard_slots=slots), "table-image")


@bp.app_template_global()
def step_picture(step: Any, dealer: Any, slots: int, width: float = PDF_TILE_PX) -> Markup:
    """The table after a step for the PDF: the same places and tile drawings as `step_table`,
    as one <img> of an SVG that places every piece (tile, seat label) by <image>. The PDF's
    image cache (`_DrawOnce`) draws each distinct piece once and places it by reference."""
    labels = seat_labels(len(step.seats), dealer)
    picture = render.table_picture(step, width=width, labels=labels, discard_slots=slots)
    url = _pdf_image(picture.svg(_pdf_image))
    placed = tuple((_pdf_image(piece.svg), piece.x, piece.y, piece.width, piece.height) for piece in picture.pieces)
    g.setdefault("pdf_pictures", {})[url] = (picture.units, placed)
    return Markup('<img class="table-image" alt="{}" src="{}">').format(picture.label, url)


@bp.app_template_global()
def compact_tiles(codes: Iterable[str]) -> list[tuple[str, str]]:
    """Tile notation groups: [("m", "123"), ("p", "55")]."""
    return render.compact(codes)


@bp.app_template_global()
def rule_label(code: str | None) -> str:
    """A rule as reports name it: Chinese section name and code (`热炮 R8.3`)."""
    return rulebook.label(code)


@bp.app_template_global()
def rule_text(code: str | None) -> rulebook.Rule | None:
    """The rulebook's text of a rule (or of its section)."""
    return rulebook.lookup(code)


# ----------------------------------------------------------------- PDF

def _static_fetcher() -> Any:
    """A WeasyPrint fetcher that reads our stylesheets from disk, the drawings this request made
    (`_pdf_image`) and data: URLs, and refuses everything else: the PDF never touches the
    network, whatever a record contains."""
    from email.message import EmailMessage

    from weasyprint.urls import URLFetcher, URLFetcherResponse

    static = Path(current_app.static_folder or "static").resolve()

    images: dict[str, str] = g.get("pdf_images", {})
    svg_headers = EmailMessage()  # built once: a header set through `email` costs 1 ms (measured)
    svg_headers["Content-Type"] = "image/svg+xml"

    class StaticFetcher(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith("data:"):
                return super().fetch(url, headers)
            if PDF_IMAGES in url and url.split(PDF_IMAGES, 1)[1] in images:
                return URLFetcherResponse(url, images[url.split(PDF_IMAGES, 1)[1]].encode("utf-8"), svg_headers)
            path = url.split("/static/", 1)[1].split("?", 1)[0] if "/static/" in url else ""
            target = (static / path).resolve()
            if not path or static not in target.parents or not target.is_file():
                raise ValueError(f"the PDF may only load files under /static/, not {url!r}")
            kind = "text/css" if target.suffix == ".css" else "application/octet-stream"
            return URLFetcherResponse(url, target.read_bytes(), {"Content-Type": kind})

    return StaticFetcher()


class _DrawnOnce:
    """Mixed into WeasyPrint's SVGImage: the SVG is drawn once into a PDF form XObject and then
    placed by reference. WeasyPrint itself redraws an SVG at every placement (Kozea/WeasyPrint
    #1978, open), which made ten thousand tiles cost a minute. Relies on WeasyPrint 70's drawing
    stream (`add_group`, `draw_x_object`, `_resources`) and image API (`get_intrinsic_size`,
    `draw`); tests/test_pdf.py checks the tiles come out drawn, and once."""

    forms: dict[int, tuple[str, float, float, Any]]
    sizes: dict[tuple[float, float], Any]

    def get_intrinsic_size(self, resolution: float, font_size: float) -> Any:
        """The image's own size, asked for at every layout of every placement: cached."""
        key = (resolution, font_size)
        if key not in self.sizes:
            self.sizes[key] = super().get_intrinsic_size(resolution, font_size)  # type: ignore[misc]
        return self.sizes[key]

    def place(self, stream: Any, x: float, y: float, width: float, height: float) -> None:
        """Draw the image into the box (x, y, width, height) of the stream's coordinates."""
        resources = stream._resources  # pages share theirs; a nested group gets its own forms
        form = self.forms.get(id(resources))
        if form is None:
            own_width, own_height, _ = self.get_intrinsic_size(1, 16)
            group = stream.add_group(-2, -2, own_width + 4, own_height + 4)  # room for an outline
            del group.extra["Group"]  # a plain form: no transparency group needed
            super().draw(group, own_width, own_height, None)  # type: ignore[misc]
            form = self.forms[id(resources)] = (group.id, own_width, own_height, resources)
        name, own_width, own_height, _ = form
        stream.push_state()  # q, cm, Do, Q: nothing in between reads the stream's matrix, so
        stream.set_matrix(width / own_width, 0, 0, height / own_height, x, y)  # not transform()
        stream.draw_x_object(name)
        stream.pop_state()

    def draw(self, stream: Any, width: float, height: float, style: Any) -> None:
        """As an <img> (or an SVG's <image>): the form, scaled to the box."""
        self.place(stream, 0, 0, width, height)


class _PlacedPieces(_DrawnOnce):
    """A step's table (`step_picture`): each piece placed as a form, rather than WeasyPrint
    walking an SVG of a hundred <image>s (0.5 ms each, measured). Falls back to that walk, the
    same drawing but slower, if WeasyPrint no longer exposes what this needs."""

    url: str
    units: tuple[float, float]
    placed: tuple[tuple[str, float, float, float, float], ...]
    loaded: dict[str, Any]

    def draw(self, stream: Any, width: float, height: float, style: Any) -> None:
        load = getattr(getattr(self, "_context", None), "get_image_from_uri", None)
        if load is None:
            pieces: list[Any] = [None]
        else:
            for path in {path for path, *_rest in self.placed} - self.loaded.keys():
                self.loaded[path] = load(url=urljoin(self.url, path))
            pieces = [self.loaded[path] for path, *_rest in self.placed]
        if not all(isinstance(piece, _DrawnOnce) for piece in pieces):
            super(_DrawnOnce, self).draw(stream, width, height, style)  # type: ignore[misc]
            return
        scale_x, scale_y = width / self.units[0], height / self.units[1]
        for piece, (_url, x, y, w, h) in zip(pieces, self.placed):
            piece.place(stream, x * scale_x, y * scale_y, w * scale_x, h * scale_y)


@lru_cache(maxsize=None)
def _svg_image_class(mixin: type) -> type:
    """WeasyPrint's SVGImage with a mixin (imported late: WeasyPrint loads for PDFs only)."""
    from weasyprint.images import SVGImage

    return type(mixin.__name__.lstrip("_") + "SVGImage", (mixin, SVGImage), {})


class _DrawOnce(dict):  # type: ignore[type-arg]
    """WeasyPrint's image cache for one PDF (`write_pdf(cache=...)`, keyed by URL). The SVGs this
    request registered become `_DrawnOnce` or `_PlacedPieces` as they are stored: in place, as
    WeasyPrint goes on with the object it stores (a wrapper would miss each image's first use)."""

    def __init__(self, pictures: dict[str, Any]) -> None:
        super().__init__()
        self.pictures = pictures
        self.loaded: dict[str, Any] = {}

    def __setitem__(self, url: str, image: Any) -> None:
        from weasyprint.images import SVGImage

        if isinstance(image, SVGImage) and PDF_IMAGES in url:
            picture = self.pictures.get(PDF_IMAGES + url.split(PDF_IMAGES, 1)[1])
            image.__class__ = _svg_image_class(_PlacedPieces if picture is not None else _DrawnOnce)
            image.forms, image.sizes = {}, {}
            if picture is not None:
                image.url, (image.units, image.placed), image.loaded = url, picture, self.loaded
        super().__setitem__(url, image)


def pdf_response(html: str, filename: str) -> Response:
    """Typeset HTML with WeasyPrint into an inline PDF download."""
    from weasyprint import HTML

    cache = _DrawOnce(g.get("pdf_pictures", {}))
    pdf = HTML(string=html, base_url=request.url_root, url_fetcher=_static_fetcher()).write_pdf(cache=cache)
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@bp.get("/records/<int:record_id>.pdf")
@requires(*READERS)
def report_pdf(record_id: int) -> ResponseReturnValue:
    """The report as a paginated PDF: same sections, every step's table drawn."""
    detail = api.record_detail(get_store(), record_id)
    html = render_template("pdf/report.html", record=detail, audit=detail["audit"], pdf=True,
                           **report_context(detail))
    return pdf_response(html, f"{detail['game_id']}.r{detail['revision']}.pdf")


# ----------------------------------------------------------------- what-if

def preview_audit(store: Store, record: dict[str, Any], profile: str | None,
                  options: dict[str, Any] | None) -> dict[str, Any]:
    """Audit the stored record under other rules without storing anything. A match hand is
    audited with its whole match, as the store does, so continuity findings stay."""
    doc, index, count = store.audit_target(record)  # the store's own choice of what to audit
    try:
        return store.run_audit(doc, profile=profile, options=options, count=count)[index]
    except AuditFailed as exc:
        current_app.logger.exception("what-if audit of record %s failed", record["id"])
        raise ApiError(502, str(exc)) from exc


def _side(audit: dict[str, Any], profile: Any, options: Any, claimed: dict[str, Any]) -> dict[str, Any]:
    """One column of the comparison."""
    settlement = audit.get("settlement") or {}
    return {"audit": audit, "profile": profile or audit.get("profile"), "options": options,
            "totals": seat_totals(settlement.get("scores"), claimed.get("scores")),
            "next_dealer": settlement.get("next_dealer"), "next_streak": settlement.get("next_dealer_streak"),
            "flip": settlement.get("flip")}


@bp.get("/records/<int:record_id>/whatif")
@requires(*READERS)
def what_if(record_id: int) -> ResponseReturnValue:
    """The latest stored audit beside an audit under another profile or options (nothing stored;
    the page offers to store it through the re-audit form)."""
    store = get_store()
    detail = api.record_detail(store, record_id)
    profiles = engine.profiles()
    profile = request.args.get("profile") or None
    if profile is not None and profile not in profiles:
        abort(400, f"profile: unknown profile {profile!r}; known: {', '.join(profiles)}")
    options_text = request.args.get("options", "")
    options = form_options(options_text)
    claimed = _record_result(detail["document"])
    latest = detail["audits"][-1] if detail["audits"] else {"profile": None, "options": None}
    stored = _side(detail["audit"] or {}, latest["profile"], latest["options"], claimed)
    other = _side(preview_audit(store, detail, profile, options), profile, options, claimed)
    return render_template("report/whatif.html", record=detail, audit=detail["audit"], stored=stored,
                           other=other, profiles=profiles, chosen=profile, options_text=options_text,
                           claimed=claimed)
