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

Hand capacity (both rule sets): a card still needed must keep one copy alive
until it can be played. From the draw of its last copy in the deck until (and at)
the draw of its chain arrival, that copy sits in a hand, and while the deck lasts the hands hold
exactly `players * hand_size` cards. If more such cards are locked at one moment,
the surplus is lost for good, each costing a point (Crowning Piece: the game).
And if every slot is taken by such cards that cannot even be played before a
later draw, no play or discard is safe and the deck never advances: one more is lost.
Under Crowning Piece there is no clock, so only this bound and lost cards count.

Seats (standard rules, `solver.endgame`): pace again, but each late card is
played by a seat holding it and the final round goes once round the table.

Copies (`solver.capacity`): hand capacity and pace again, for every choice of
the copy each card is played from. It costs milliseconds, so it runs at the
opening deal when the greedy lines fall short of the other bounds, and with two
players (whose ten cards in hand are most often the limit) at every position of
the exhaustive search.

Clue tokens (`solver.clues`, standard rules): the late cards again, played turn
by turn round the table, with at most 8 clue tokens for the hints that pass the
turn between them. Milliseconds to a tenth of a second: only at the position the
solver is asked about, when the greedy lines fall short of the other bounds.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from deducer.settings import Ending
from solver.capacity import Options, least_lost
from solver.clues import tokens_lost
from solver.endgame import late_cards_lost
from solver.model import ONGOING, Deal, Position


@dataclass(frozen=True)
class Bound:
    """The bound and, when it is below the maximum, the reason in words."""

    score: int
    reason: str | None = None


def upper_bound(deal: Deal, position: Position, target: int = 0, copies: bool = False, memo: Options | None = None) -> int:
    """A score no line from `position` can beat (or any score below `target`, once one is shown).

    `copies` adds the bound of `solver.capacity` (a millisecond, where the others take microseconds;
    `memo` is its memo, see `least_lost`)."""
    caps = sum(position[3])
    if deal.rules.ending is Ending.CROWNING:
        won = caps == deal.rules.max_score and not crowded(deal, position)[0]
        return deal.rules.max_score if won and not (copies and least_lost(deal, position, 0, memo)) else 0
    demand = arrivals(deal, position)
    lost = excess(deal, position, demand)[0]
    if caps - lost >= target:
        lost = max(lost, crowded(deal, position, demand)[0])
    if caps - lost >= target:
        lost = max(lost, late_cards_lost(deal, position, demand)[0])
    if copies and caps - lost >= target:
        lost = max(lost, least_lost(deal, position, caps - target, memo))
    return caps - lost


Demand = list[tuple[int, int]]


def arrivals(deal: Deal, position: Position) -> Demand:
    """(card, arrival) for each needed card: the deck position after whose draw it can first be played."""
    drawn, fireworks, caps, hands = position[1], position[2], position[3], position[7]
    held = set().union(*hands)
    ranks = deal.rules.ranks
    following = deal.next_at[drawn]
    result: Demand = []
    first = 0  # the suit's rank 1
    for low, high in zip(fireworks, caps):  # suit by suit, rank by rank
        chain = drawn - 1
        for card in range(first + low, first + high):
            if card not in held:
                arrival = following[card]
                if arrival > chain:
                    chain = arrival
            result.append((card, chain))
        first += ranks
    return result


def crowded(deal: Deal, position: Position, demand: Demand | None = None) -> tuple[int, int, list[int], bool]:
    """(last copies lost to hand capacity, the deck position where, the cards held then, whether frozen)."""
    drawn = position[1]
    if drawn >= deal.size:
        return 0, -1, [], False
    intervals = []
    last_at = deal.last_at
    for card, arrival in demand if demand is not None else arrivals(deal, position):
        kept_from = last_at[card] if last_at[card] >= drawn else drawn - 1
        if kept_from <= arrival:  # held from the draw of its last copy to (and at) its chain arrival
            intervals.append((kept_from, arrival, card))
    capacity = deal.rules.players * deal.rules.hand_size
    if len(intervals) < capacity:
        return 0, -1, [], False
    worst, where, stalled = 0, -1, False
    starts = sorted(start for start, _, _ in intervals)
    ends = sorted(end for _, end, _ in intervals)
    for moment in sorted(set(starts)):
        begun = bisect_right(starts, moment)
        load = begun - bisect_left(ends, moment)  # held at the draw of `moment`
        # If every slot holds a last copy that cannot be played before a later draw, nobody can play
        # or discard without losing one, so the deck never advances: one at least is lost.
        frozen = begun - bisect_right(ends, moment)
        stuck = frozen - capacity + 1 if moment < deal.size - 1 else 0
        if max(load - capacity, stuck) > worst:
            worst, where, stalled = max(load - capacity, stuck), moment, stuck > load - capacity
    if stalled:
        return worst, where, [card for start, end, card in intervals if start <= where < end], True
    return worst, where, [card for start, end, card in intervals if start <= where <= end], False


def excess(deal: Deal, position: Position, demand: Demand | None = None) -> tuple[int, int]:
    """(cards that cannot be played in time, deck position that shows it; -1 for the final round)."""
    final = position[6]
    demand = demand if demand is not None else arrivals(deal, position)
    if final >= 0:
        return max(0, len(demand) - final), -1
    players, size = deal.rules.players, deal.size
    # A card is played after the rank below it, so it is "late" whenever any lower needed rank is.
    late_from = sorted([arrival for _, arrival in demand], reverse=True)
    # The last card of the deck is drawn by the player who takes the very last turn: of the cards
    # that can only be played after it (it and what its suit needs above it), one at most is played.
    skipped = max(0, late_from.count(size - 1) - 1)
    worst, where = skipped, size - 1
    offset = skipped - (size - 1) - players  # late = count - ((size - 1 - arrival) + players) + skipped
    for count, arrival in enumerate(late_from[skipped:], 1):
        if count + arrival + offset > worst:
            worst, where = count + arrival + offset, arrival
    return worst, where


def explain(deal: Deal, position: Position) -> Bound:
    """The bound at `position` with a sentence saying why when it is below the maximum."""
    rules = deal.rules
    caps = position[3]
    lost = [f"{_name(deal, suit * rules.ranks + cap)}" for suit, cap in enumerate(caps) if cap < rules.ranks]
    demand = arrivals(deal, position)
    surplus, moment, locked, stalled = crowded(deal, position, demand)
    names = ", ".join(_name(deal, card) for card in locked)
    slots = rules.players * rules.hand_size
    if stalled and len(locked) > slots:
        gone = len(locked) - slots
        capacity = (
            f"hand lock: after deck card {moment + 1} is drawn the hands ({slots} cards) must keep {len(locked)} last "
            f"copies that cannot be played before a later draw ({names}): {gone} of them {'is' if gone == 1 else 'are'} "
            f"lost by then, and the {slots} left fill every hand, where no play or discard is safe: one more is lost"
        )
    elif stalled:
        capacity = (
            f"hand lock: after deck card {moment + 1} is drawn all {slots} cards in hand are "
            f"last copies that cannot be played before a later draw ({names}): no play or discard is safe"
        )
    else:
        capacity = (
            f"hand capacity: after deck card {moment + 1} is drawn the hands must keep {len(locked)} last copies that "
            f"cannot be played yet ({names}) but hold only {slots} cards"
        )
    if rules.ending is Ending.CROWNING:
        if lost:
            return Bound(0, f"every copy of {', '.join(lost)} is gone")
        if surplus:
            return Bound(0, capacity)
        return Bound(rules.max_score)
    late, where = excess(deal, position, demand)
    seated, after = late_cards_lost(deal, position, demand)
    if seated > max(late, surplus):
        names = ", ".join(_name(deal, card) for card, arrival in demand if arrival >= after)
        reason = (
            f"seats: {names} can only be played after deck card {after + 1} is drawn, one a turn, each by a seat "
            f"holding it, and the final round goes once round the table: {seated} of them can never be played"
        )
        return Bound(sum(caps) - seated, reason)
    if surplus > late:
        return Bound(sum(caps) - surplus, capacity)
    score = sum(caps) - late
    if late == 0:
        return Bound(score, f"every copy of {', '.join(lost)} is gone" if lost else None)
    held, following = set().union(*position[7]), deal.next_at[position[1]]
    tail = [_name(deal, card) for card, _ in demand if following[card] >= where and card not in held]
    reason = (
        f"pace: {', '.join(tail)} first appear at deck card {where + 1} or later, and after that draw only "
        f"{deal.size - 1 - where + rules.players} turns remain: {late} needed card(s) can never be played"
    )
    return Bound(score, reason)


def copies_bound(deal: Deal, position: Position, bound: Bound) -> Bound:
    """`bound`, or the lower one that hand capacity and pace give with every choice of copies, with its reason."""
    caps = sum(position[3])
    crowning = deal.rules.ending is Ending.CROWNING
    lost = least_lost(deal, position, 0 if crowning else caps)
    score = (0 if lost else bound.score) if crowning else caps - lost
    if score >= bound.score:
        return bound
    given_up = "a needed card" if crowning else f"{lost} needed card(s)"
    pace = "" if crowning else ", or too few turns would remain after the copies kept are drawn"
    return Bound(
        score,
        f"copies: whichever copy of each needed card is kept until it can be played, at some draw the hands "
        f"({deal.rules.players * deal.rules.hand_size} cards) would overflow or hold only cards that cannot be played "
        f"yet{pace}: {given_up} must be given up",
    )


def clues_bound(deal: Deal, position: Position, bound: Bound) -> Bound:
    """`bound`, or the lower one that the seats in turn and the clue tokens give (`solver.clues`;
    standard rules), with its reason."""
    if deal.rules.ending is not Ending.STANDARD or deal.status(position) != ONGOING:
        return bound
    caps = sum(position[3])
    demand = arrivals(deal, position)
    lost, after = tokens_lost(deal, position, demand, caps - bound.score)
    if after < 0:
        return bound
    names = ", ".join(_name(deal, card) for card, arrival in demand if arrival >= after)
    reason = (
        f"clue tokens: {names} can only be played after deck card {after + 1} is drawn, each on the turn of a "
        f"seat holding it; the turns go round the table, and each turn between two of them spends a clue token "
        f"(8 at most) or one of the few plays and discards left: {lost} of them can never be played"
    )
    return Bound(caps - lost, reason)


def _name(deal: Deal, card: int) -> str:
    suit, rank = deal.card(card)
    letters = "wrbygm" if deal.rules.suits <= 6 else "abcdefghij"
    return f"{letters[suit]}{rank}"
