"""The table view's seat panels as HTML (templates/report/table.html draws the frame).

A panel is drawn in Python rather than by a template macro: a hand of a hundred steps has about
150 distinct panels of some 40 tiles each, and a macro call per tile would cost more than the
rest of the page (`web.report_model.event_words` says the same of the step list). Each tile is an
inline SVG placing the page's tile sprite (`audit.render.tile_sprite_svg`, ids `zj-<code>` and
`zj-<code>-r` sideways), so the page carries each tile's drawing once; CSS sizes the tiles
(static/table.css), which is how the phone layout makes them smaller without a second drawing.
The page draws each distinct panel once (`report.table` numbers them), all of them and the win
screen's tiles in one call (`table_drawings`, issue 35.2), before its template runs.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from audit.vocabulary import TILE_H, TILE_W, MeldView, meld_layout, zh_name
from report.table import Mark, Place, PondTile, SeatPanel, TableView
from web.i18n import gettext as _


@dataclass(frozen=True)
class PanelWords:
    """The words a panel shows, in the page's language (part of the cache key)."""

    declared: str
    locked: str
    won: str
    drawn: str
    claimed: tuple[tuple[str, str], ...]
    """Per claim kind (pong, kong, win): the sentence of a claimed pond tile, with %(seat)s."""
    hand: str
    pond: str
    labels: tuple[str, ...]
    """Each seat as the page names it (`2号位 小红`)."""

    def claim_text(self, claim: str | None, seat: int | None) -> str:
        """The sentence of a tile claimed by `claim` (a pong when the kind is unknown)."""
        texts = dict(self.claimed)
        name = self.labels[seat] if seat is not None and 0 <= seat < len(self.labels) else "?"
        return texts.get(claim or "", texts["pong"]) % {"seat": name}


def panel_words(labels: Sequence[str]) -> PanelWords:
    """The panel's words in the request's language; `labels` names each seat."""
    return PanelWords(_("declared ready"), _("may not win by discard after passing a win"), _("won"),
                      _("drawn"), (("pong", _("ponged by %(seat)s")), ("kong", _("konged by %(seat)s")),
                                   ("win", _("won on by %(seat)s"))),
                      _("Hand"), _("Discards"), tuple(labels))


def tile_html(code: str, rotated: bool = False, mark: bool = False, extra: str = "") -> str:
    """One tile: an inline SVG placing the sprite's drawing; `rotated` lies sideways (a claimed
    meld tile), `mark` outlines it (the tile the step is about)."""
    box = f"{TILE_H} {TILE_W}" if rotated else f"{TILE_W} {TILE_H}"
    classes = "t" + (" r" if rotated else "") + (" mark" if mark else "") + (f" {extra}" if extra else "")
    suffix = "-r" if rotated else ""
    return f'<svg class="{classes}" viewBox="0 0 {box}"><use href="#zj-{code}{suffix}"/></svg>'


def _names(codes: tuple[str, ...]) -> str:
    """The tiles in words, for a screen reader (the drawings carry no text of their own)."""
    return " ".join(zh_name(c) for c in codes)


def _pond_tile(tile: PondTile, marked: bool, words: PanelWords) -> str:
    if not tile.claimed:
        return f"<li>{tile_html(tile.tile, mark=marked)}</li>"
    seat = "" if tile.claimed_by is None else str(tile.claimed_by)
    title = escape(words.claim_text(tile.claim, tile.claimed_by))
    return (f'<li class="claimed claim-{escape(tile.claim or "")}" title="{title}">'
            f'{tile_html(tile.tile, mark=marked)}<small aria-label="{title}">→{seat}</small></li>')


def _melds(panel: SeatPanel, mark: Mark | None, seats: int) -> str:
    out = []
    for i, meld in enumerate(panel.melds):
        layout = meld_layout(meld, panel.seat, seats)
        tiles = "".join(tile_html(code, rotated) for code, rotated in layout)
        marked = " mark" if mark is not None and mark.place is Place.MELD and mark.at == i else ""
        out.append(f'<span class="meld meld-{escape(meld.kind)}{marked}">{tiles}</span>')
    return "".join(out)


def panel_html(panel: SeatPanel, seats: int, words: PanelWords) -> Markup:
    """One seat's panel: badges, the concealed tiles (the drawn tile apart), the melds, the tile
    won on, and the pond in order, claimed tiles marked with the seat that took them."""
    mark = panel.mark
    badges = []
    if panel.won is not None:
        badges.append(f'<span class="badge badge-won" title="{escape(words.won)}">胡</span>')
    if panel.declared:
        badges.append(f'<span class="badge badge-declared" title="{escape(words.declared)}">听</span>')
    if panel.locked:
        badges.append(f'<span class="badge badge-locked" title="{escape(words.locked)}">过</span>')
    hand = "".join(tile_html(code, mark=mark is not None and mark.place is Place.HAND and mark.at == i)
                   for i, code in enumerate(panel.concealed))
    if panel.drawn is not None:
        hand += f'<span class="drawn" title="{escape(words.drawn)}">{tile_html(panel.drawn, mark=mark is not None)}</span>'
    melds = _melds(panel, mark, seats)
    melds_html = f'<span class="melds">{melds}</span>' if melds else ""
    if panel.won is not None:
        won_mark = mark is not None and mark.place is Place.WON
        hand += f'<span class="won" title="{escape(words.won)}">{tile_html(panel.won, mark=won_mark)}</span>'
    pond_mark = mark.at if mark is not None and mark.place is Place.POND else -1
    pond = "".join(_pond_tile(t, i == pond_mark, words) for i, t in enumerate(panel.pond))
    label = escape(f"{words.hand}: {_names(panel.concealed + ((panel.drawn,) if panel.drawn else ()))}")
    pond_label = escape(f"{words.pond}: {_names(tuple(t.tile for t in panel.pond))}")
    acting = " acting" if panel.acting else ""
    return Markup(
        f'<div class="seat-panel{acting}" data-seat="{panel.seat}">'
        f'<p class="badges">{"".join(badges)}</p>'
        f'<div class="hand" role="img" aria-label="{label}">{hand}'
        f'{melds_html}</div>'
        f'<ol class="pond" aria-label="{pond_label}">{pond}</ol></div>')


def tiles_html(codes: tuple[str, ...] | list[str], mark_last: bool = False) -> Markup:
    """A row of tiles in the table view's size (the win screen's hand, the chickens)."""
    codes = tuple(codes)
    return Markup("".join(tile_html(c, mark=mark_last and i == len(codes) - 1) for i, c in enumerate(codes)))


def meld_row(panel_seat: int, melds: tuple[MeldView, ...], seats: int) -> Markup:
    """Melds as the panel lays them out, for the win screen."""
    out = []
    for meld in melds:
        layout = meld_layout(meld, panel_seat, seats)
        out.append('<span class="meld">' + "".join(tile_html(c, r) for c, r in layout) + "</span>")
    return Markup("".join(out))


@dataclass(frozen=True)
class TableDrawings:
    """Everything the table view draws (templates/report/table.html), drawn in one call."""

    panels: tuple[Markup, ...]
    """Each distinct panel (`TableView.panels`), by its number."""
    chicken_tiles: Markup
    flip: Markup | None
    flip_chickens: Markup | None
    winners: tuple[Markup, ...]
    """Each winner's hand: the concealed tiles, the melds and the tile won on."""
    win_chickens: tuple[Markup, ...]
    """The tiles of each seat's chickens on the win screen."""


def table_drawings(view: TableView, words: PanelWords) -> TableDrawings:
    """The table view's drawings, each panel once (issue 35.2: a page enters this module a fixed
    number of times, whatever the hand's length)."""
    win = view.win
    winners = tuple(Markup("{} {} <span class=\"won\">{}</span>").format(
        tiles_html(w.concealed), meld_row(w.seat, w.melds, view.seats), tiles_html([w.tile], True))
        for w in (win.winners if win else ()))
    return TableDrawings(
        tuple(panel_html(panel, view.seats, words) for panel in view.panels), tiles_html(view.chicken_tiles),
        tiles_html([win.flip]) if win and win.flip else None,
        tiles_html(win.flip_chickens) if win and win.flip_chickens else None, winners,
        tuple(tiles_html(tiles) for _seat, tiles, _value, _reason in (win.chickens if win else ())))


__all__ = ["PanelWords", "TableDrawings", "meld_row", "panel_html", "panel_words", "table_drawings", "tile_html",
           "tiles_html"]
