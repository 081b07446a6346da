"""The engine's one vocabulary, for the packages above it: the kinds of things (events, melds, wins,
settlement items), the tiles, the languages, the texts of findings, notes and rules, whole numbers
read from text, the format's integer ranges, and the table as data and as drawings.

A public face, as `audit.api` (audit and trace; profiles; the format's reader) and `audit.play`
(the table, one step, the judge, the settlement) are: a package above the engine imports these
names from here and nothing from the modules behind them (tests/imports.py checks both, and that
every name imported is one of `__all__`), so the engine may rearrange those modules freely.
Re-exports only: nothing here runs when a name is used.
"""
from __future__ import annotations

from audit.catalogue import CATALOGUE, LANGS, CatalogueError, Lang, finding_message, render_finding, render_note, \
    render_value, rerender, seat_label, seat_names
from audit.catalogue import DATA_DIR as CATALOGUE_DIR
from audit.kinds import ITEM_KINDS, KONG_KINDS, EventType, ItemKind, MeldKind, WinKind
from audit.numtext import NumberProblem, argument, is_digits, parse_number
from audit.ranges import BASE, DEALER_STREAK, DIE, POINTS, IntRange
from audit.render import LABEL_W, TILE_H, TILE_W, Picture, compact, discard_slots, hand_svg, meld_layout, table_picture, \
    table_svg, tile_sprite_svg, tile_svg
from audit.rulebook import SECTION_NAMES_ZH, Block, BlockKind, Rule, RulebookError, RuleText, Span, SpanStyle, label, \
    lookup, parameter_label, parameters, rule_text, section_of, term_label, value_label
from audit.tiles import BIRD, CODES, COPIES, NUM_KINDS, SUIT_LETTERS, SUIT_NAMES_ZH, WUGU, code, counts, zh_name
from audit.views import ChickenView, Marker, MarkerKind, MeldView, SeatView, StepView, Trace

__all__ = [
    # kinds (audit.kinds): one enum per kind of thing, and the item kinds by value
    "EventType", "ITEM_KINDS", "ItemKind", "KONG_KINDS", "MeldKind", "WinKind",
    # tiles (audit.tiles): codes `1m`..`9s`, their ints, counts and Chinese names
    "BIRD", "CODES", "COPIES", "NUM_KINDS", "SUIT_LETTERS", "SUIT_NAMES_ZH", "WUGU", "code", "counts", "zh_name",
    # languages and the texts of findings and item notes (audit.catalogue)
    "CATALOGUE", "CATALOGUE_DIR", "CatalogueError", "LANGS", "Lang", "finding_message", "render_finding", "render_note",
    "render_value", "rerender", "seat_label", "seat_names",
    # the rulebook's texts and labels (audit.rulebook)
    "Block", "BlockKind", "Rule", "RuleText", "RulebookError", "SECTION_NAMES_ZH", "Span", "SpanStyle", "label", "lookup",
    "parameter_label", "parameters",
    "rule_text", "section_of", "term_label", "value_label",
    # whole numbers as text, ASCII digits only (audit.numtext); the format's integer ranges (audit.ranges)
    "BASE", "DEALER_STREAK", "DIE", "IntRange", "NumberProblem", "POINTS", "argument", "is_digits", "parse_number",
    # the table after a step as data (audit.views) and as SVG (audit.render)
    "ChickenView", "LABEL_W", "Marker", "MarkerKind", "MeldView", "Picture", "SeatView", "StepView", "TILE_H", "TILE_W",
    "Trace", "compact", "discard_slots", "hand_svg", "meld_layout", "table_picture", "table_svg", "tile_sprite_svg",
    "tile_svg",
]
