"""The corrected R18.5 (and, to come, R19's chicken variants) in play: small hand-built hands whose
chicken payments are worked out by hand from the rulebook's words, alone and with R17 and R18 (R19.7: R19 applies to their result). Values: weile
(chicken normal 1, charge 3 so a 冲锋 extra of 2, 责任鸡 2, 热炮 bonus 1, burn all, chickens and
dou only for a seat that won or is ready, discards counted) unless said; kuhu (normal 1, charge 2,
责任鸡 1, every seat qualifies). Every hand's scores sum to zero (`settled`).

Items are compared exactly: (payer, payee, amount, rule) of every chicken item, and the waived ones."""
from __future__ import annotations

from typing import Any

import pytest

from audit.engine import audit_hand
from tests.audit.test_r17 import DEALER, HANDS, S1, S2, claimed
from tests.audit.test_r18 import S1_NO_BIRD, settled, waived
from tests.builder import record, with_result
from tests.helpers import INERT, kinds, legal, play

Row = tuple[int, int, int, str]


def chickens(s: dict[str, Any]) -> list[Row]:
    """(from, to, amount, rule) of every chicken item, sorted."""
    return sorted((i["from"], i["to"], i["amount"], i["rule"]) for i in s["items"] if i["kind"] == "chicken")


def waived_chickens(hands: list[str], events: str, options: dict[str, Any], **kw: Any) -> list[Row]:
    return sorted((p, q, a, r) for k, p, q, a, r in waived(hands, events, options, **kw) if k == "chicken")


# ---------------------------------------------------------------- R18.5 corrected

KEEPS = {"chicken.exposed_kong_claim": "keeps_charge"}
KONG_EXAMPLE = (["2m 3m 6m 9m 1p 4p 7p 8p 2s 4s 7s 8s 9s 5m", "1s 1s 1s 2m 6m 9m 1p 4p 7p 2s 4s 7s 8s",
                 "1m 1m 4m 7m 8m 2p 3p 6p 9p 2s 6s 7s 9s", "123m 456m 789m 234p 1s"],
                "0 discard 5m\n1 draw 5s\n1 discard 5s\n2 draw 5s\n2 discard 5s\n3 draw 5p\n3 discard 1s\n"
                "1 kong 1s exposed\n1 draw 9s\n1 discard 9s\n2 draw 6s\n2 discard 6s\n3 draw 2p\n3 win 2p")
"""The rulebook's example of R18.5: seat 3 discards the first 1s (waiting on 2p/5p), seat 1 makes an
exposed kong of it, seat 3 self-draws a 平胡. Flip 2s -> 3s, which nobody holds."""


@pytest.mark.parametrize("options", [{}, {"chicken_counts_discards": False}])
def test_r18_5_the_rulebooks_example(options: dict[str, Any]) -> None:
    """kuhu (normal 1, charge 2, 责任鸡 1; every seat qualifies). R11.4: seat 1's four 1s earn 4 from
    each other seat, and seat 3 owes it the 责任鸡 1 more: (0,1) 4, (2,1) 4, (3,1) 5. keeps_charge:
    "seat 3 receives 2 from each other seat for the 冲锋鸡, and seat 1's kong holds four chickens":
    (0,3) 2, (1,3) 2, (2,3) 2 citing R18.5, (0,1) 4, (2,1) 4, (3,1) 4, the 责任鸡 waived citing R18.5.
    The 冲锋鸡 counts for its discarder whether discards count or not (R11.3): the same with
    `chicken_counts_discards` false ("discards not counted", as the example says). Chickens: seat 0
    -6, seat 1 +12 - 2 = +10, seat 2 -6, seat 3 +6 - 4 = +2."""
    hands, events = KONG_EXAMPLE
    plain = settled(hands, events, options, profile="kuhu", flip="2s")
    assert chickens(plain) == [(0, 1, 4, "R11.6"), (2, 1, 4, "R11.6"), (3, 1, 1, "R11.4"), (3, 1, 4, "R11.6")]
    s = settled(hands, events, {**options, **KEEPS}, profile="kuhu", flip="2s")
    assert chickens(s) == [(0, 1, 4, "R11.6"), (0, 3, 2, "R18.5"), (1, 3, 2, "R18.5"), (2, 1, 4, "R11.6"),
                           (2, 3, 2, "R18.5"), (3, 1, 4, "R11.6")]
    assert waived_chickens(hands, events, {**options, **KEEPS}, profile="kuhu", flip="2s") == [(3, 1, 1, "R18.5")]
    assert kinds(s["items"], "dou") == {(3, 1): 1}  # R4.7: the discarder pays the 点豆, as before


def test_r18_5_with_r17_1_the_tile_is_shared_as_if_on_the_table() -> None:
    """weile, test_r18's KONGED with seat 1 never ready (it draws 5s, not 4p) and 包鸡: seat 2 (ready)
    makes an exposed kong of seat 1's first 1s; the dealer self-draws. R18.5 leaves seat 1 the whole
    冲锋鸡 "as if the tile still lay unclaimed in the discarder's pond": a non-qualifying seat's
    discarded chicken under R17.1, so its tile (1) is paid to each qualifying seat (0 and 2) by every
    seat that does not qualify (1 and 3), its extra (2) by seat 1 alone; seat 2's four 1s earn 4 from
    each other seat. Without 包鸡 seat 1 pays the whole 3 alone."""
    from tests.audit.test_r18 import KONGED, KONGED_HANDS
    events = KONGED.replace("1 draw 4p", "1 draw 5s")
    alone = settled(KONGED_HANDS, events, KEEPS, flip="9p")
    assert chickens(alone) == [(0, 2, 4, "R11.6"), (1, 0, 3, "R18.5"), (1, 2, 3, "R18.5"), (1, 2, 4, "R11.6"),
                               (3, 2, 4, "R11.6")]
    both = settled(KONGED_HANDS, events, {**KEEPS, "chicken.exposed_payers": "all_unready"}, flip="9p")
    assert chickens(both) == [(0, 2, 4, "R11.6"), (1, 0, 3, "R18.5"), (1, 2, 3, "R18.5"), (1, 2, 4, "R11.6"),
                              (3, 0, 1, "R18.5"), (3, 2, 1, "R18.5"), (3, 2, 4, "R11.6")]
