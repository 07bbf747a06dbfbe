"""Upper bounds on the score still reachable from a position, and why.

Pace (standard rules): after the draw of deck card `j`, at most
`(size - 1 - j) + players` plays can still happen (one play or discard per later
draw, then one turn each in the final round). A card still needed can only be
played once its first available copy is in a hand and the rank below it has been
played, so it is available from the latest first-arrival along its suit below
it. If `k` needed cards become available at deck position `j` or later, at least `k - ((size - 1 - j) +
players)` of them are never played. Each needed card that is never played costs
exactly one point (the score is the sum of the caps minus the unplayed needed
cards), so the score is at most the sum of the caps minus the largest such excess.
Under Crowning Piece there is no clock: the bound is the maximum unless a card
that is still needed has no copy left.
"""

from __future__ import annotations

from dataclasses import dataclass

from deducer.settings import Ending
from solver.model import Deal, Position


@dataclass(frozen=True)
class Bound:
    """The bound and, when it is below the maximum, the reason in words."""

    score: int
    reason: str | None = None


def needed(deal: Deal, position: Position) -> list[int]:
    """Cards that must still be played to reach every suit's cap."""
    ranks = deal.rules.ranks
    fireworks, caps = position[2], position[3]
    return [suit * ranks + rank for suit in range(deal.rules.suits) for rank in range(fireworks[suit], caps[suit])]


def upper_bound(deal: Deal, position: Position) -> int:
    """A score no line from `position` can beat."""
    caps = sum(position[3])
    if deal.rules.ending is Ending.CROWNING:
        return deal.rules.max_score if caps == deal.rules.max_score else 0
    return caps - excess(deal, position)[0]


def excess(deal: Deal, position: Position) -> tuple[int, int]:
    """(cards that cannot be played in time, deck position that shows it; -1 for the final round)."""
    drawn, final, hands = position[1], position[6], position[7]
    cards = needed(deal, position)
    if final >= 0:
        return max(0, len(cards) - final), -1
    held = set().union(*hands)
    players, size, ranks = deal.rules.players, deal.size, deal.rules.ranks
    # A card is played after the rank below it, so it is "late" whenever any lower needed rank is.
    arrivals = []
    chain, suit_of_chain = drawn - 1, -1
    for card in cards:  # suit by suit, rank by rank
        if card // ranks != suit_of_chain:
            chain, suit_of_chain = drawn - 1, card // ranks
        chain = max(chain, drawn - 1 if card in held else deal.next_at[drawn][card])
        arrivals.append(chain)
    arrivals.sort(reverse=True)
    worst, where = 0, 0
    for count, arrival in enumerate(arrivals, 1):
        late = count - ((size - 1 - arrival) + players)
        if late > worst:
            worst, where = late, arrival
    return worst, where


def explain(deal: Deal, position: Position) -> Bound:
    """The bound at `position` with a sentence saying why when it is below the maximum."""
    rules = deal.rules
    caps = position[3]
    lost = [f"{_name(deal, suit * rules.ranks + cap)}" for suit, cap in enumerate(caps) if cap < rules.ranks]
    if rules.ending is Ending.CROWNING:
        if lost:
            return Bound(0, f"every copy of {', '.join(lost)} is gone")
        return Bound(rules.max_score)
    late, where = excess(deal, position)
    score = sum(caps) - late
    if late == 0:
        return Bound(score, f"every copy of {', '.join(lost)} is gone" if lost else None)
    tail = [
        _name(deal, card)
        for card in needed(deal, position)
        if deal.next_at[position[1]][card] >= where and not any(card in hand for hand in position[7])
    ]
    reason = (
        f"pace: {', '.join(tail)} first appear at deck card {where + 1} or later, and after that draw only "
        f"{deal.size - 1 - where + rules.players} turns remain: {late} needed card(s) can never be played"
    )
    return Bound(score, reason)


def _name(deal: Deal, card: int) -> str:
    suit, rank = deal.card(card)
    letters = "wrbygm" if deal.rules.suits <= 6 else "abcdefghij"
    return f"{letters[suit]}{rank}"
