"""The payment counts a table keeps per seat (``ttr_core.rules.payment_counts``): taken
over from another table holding the same hand, they are the ones counting makes, and the
taking table's own memo learns what counting would have taught it."""

from __future__ import annotations

import pytest

from ttr_core.hidden.seat_actions import redacted
from ttr_core.model.cards import NUM_KINDS
from ttr_core.rules.payment_counts import ClaimTables, copy_hand_counts, recount_hand
from ttr_core.rules.table import Table
from ttr_core.testing.play import play_game, ruleset

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")


def _counts(t: Table, p: int) -> tuple[object, ...]:
    """Seat ``p``'s payment counts, its gray counts, and what the table's memo holds."""
    base = p * NUM_KINDS
    tab = t.claims
    gray = tab.gray_values[t.gray_id[p]] if tab.has_gray else ()
    return (
        t.pay_count[base : base + NUM_KINDS],
        t.claim_sum[p],
        gray,
        tab.gray_keys,
        tab.gray_values,
        tab.gray_ids,
    )


@pytest.mark.parametrize("shared", [True, False], ids=["shared tables", "own tables"])
@pytest.mark.parametrize("edition", EDITIONS)
def test_copied_hand_counts_are_the_counted_ones(edition: str, shared: bool) -> None:
    """CLAIM-1: at positions of whole games, a seat's payment counts copied from the
    game's table (``copy_hand_counts``) to a table of another seat's view, once given the
    seat's hand, are those ``recount_hand`` makes from it, on a table whose claim tables
    are shared with the game's and on one with tables of its own; the memo keyed by
    hands, which had not met that hand, ends the same either way."""
    rs = ruleset(edition)
    players = 3
    for actions in (0, 7, 40, 90, 150):
        state = play_game(rs, players, seed=11, actions=actions).state
        game = Table(rs, players)
        game.load(state)
        for p in range(players):
            copied, counted = Table(rs.private_copy(), players), Table(rs.private_copy(), players)
            if not shared:
                copied.claims = ClaimTables(rs)
                counted.claims = ClaimTables(rs)
                assert copied.claims.rows is not game.claims.rows
            seen = redacted(state, (p + 1) % players)  # seat p's hand hidden
            base = p * NUM_KINDS
            for t in (copied, counted):
                t.load(seen)
                t.hands[base : base + NUM_KINDS] = game.hands[base : base + NUM_KINDS]
            copy_hand_counts(game, copied, p)
            recount_hand(counted, p)
            assert _counts(copied, p) == _counts(counted, p)
