"""Hand capacity and pace with the choice of copies: which copy of each card a line plays.

`bounds.crowded` holds each needed card from the draw of its last copy to its
chain arrival (computed from first copies): the least any line can hold it. But
a line that lets an early copy go must wait for a later one, and the cards above
it in its suit wait with it. Here every line is looked at through the copies it
plays: if a line plays card `c` from deck position `k_c` (or from a hand now),
then `c` can be played only after the draw of its arrival, the largest `k` of
its suit up to `c`, and it sits in a hand at every draw from `k_c` to then.
- While the deck lasts the hands hold `players * hand_size` cards, so at no draw
  may more such cards be held.
- Before the last draw, if every card in hand is one that cannot be played
  before a later draw, no play or discard is safe and the deck never moves again
  (the hand lock of `crowded`).
- Standard rules: after the draw of deck card `j` at most `(size - 1 - j) +
  players` plays remain, so at most that many cards may arrive at `j` or later
  (pace, with the arrivals of this choice). After the last draw, one at most:
  its drawer takes the very last turn, so of the cards arriving with the last
  card only that card itself can be played (`bounds.excess` says the same of
  the first copies).

A line that gives up a card plays no card above it in its suit either, and each
card given up costs a point: `least_lost` is the fewest cards a line can give up
with some choice of copies within these limits (Crowning Piece: any card given
up loses the game). Every line has such a choice (the copies it plays), so this
is sound; it is never weaker than `crowded` or pace, whose intervals and
arrivals are the least of every choice's.

Example (tests/test_capacity.py): one suit, two cards in each of two hands, a4
a2 and a3 a4, deck a5 a1 a1 a2 a3. Before a1 is drawn two cards must go: the
spare a4, and a2 or a3, whose copies are the last two cards of the deck: too
late for pace to play the rest of the suit after them. The best score is 4.

Each constraint is a vector over the draws, packed into one integer with `LANE`
bits per draw (a lane never exceeds 31), so that adding the vectors of the
suits' choices and comparing them with the limits is integer arithmetic.
"""

from __future__ import annotations

from deducer.settings import Ending
from solver.model import Deal, Position

LANE = 6
TOP = (1 << (LANE - 1)) - 1  # the largest lane value (31): the top bit of each lane stays free
MOST_STEPS = 100_000  # partial choices tried; beyond, the bound gives up (says 0)

Option = tuple[int, int, int, int]  # (cards given up, load, strict load, late), vectors packed per draw


Options = dict[tuple[int, ...], list[Option]]  # a suit's options, by what they depend on (see `least_lost`)


def least_lost(deal: Deal, position: Position, most: int, memo: Options | None = None) -> int:
    """The fewest needed cards any line from `position` must give up to hand capacity (and, standard
    rules, to pace), capped at `most + 1`: the caller only needs to know whether more than `most`
    are lost. 0 if it gives up.

    `memo` keeps each suit's options for the next call on the same deal: they depend only on the
    draw, the suit's firework, cap and cards in hand, and `most` (the search meets the same suit
    state in many positions)."""
    drawn, fireworks, caps, hands = position[1], position[2], position[3], position[7]
    rules, size = deal.rules, deal.size
    if drawn >= size:
        return 0
    lanes = size - drawn + 1  # the draws from drawn - 1 (the hands now) to the last card
    capacity = rules.players * rules.hand_size
    if capacity >= TOP or rules.max_score > TOP:
        return 0  # a lane could overflow
    high = _ones(lanes) << (LANE - 1)  # the top bit of every lane
    over = _ones(lanes) * (TOP - capacity)  # a lane plus this reaches the top bit iff it exceeds the capacity
    stuck = _ones(lanes - 1) * (TOP + 1 - capacity)  # ... iff it reaches it (the last draw excepted)
    # Pace: after the draw of deck card j, at most (size - 1 - j) + players plays remain; after the last
    # draw, one at most of the cards arriving with it (its drawer takes the very last turn, see `bounds.excess`).
    pace = 0
    if rules.ending is Ending.STANDARD:
        for lane in range(lanes):
            remaining = size - 1 - (drawn - 1 + lane)
            pace |= max(0, TOP - (remaining + rules.players if remaining else 1)) << LANE * lane
    held = set().union(*hands)
    memo = {} if memo is None else memo
    options = []
    for suit, (fired, cap) in enumerate(zip(fireworks, caps)):
        base = suit * rules.ranks
        key = (drawn, suit, fired, cap, most, *(card in held for card in range(base + fired, base + cap)))
        found = memo.get(key)
        if found is None:
            found = memo[key] = _suit_options(deal, drawn, held, suit, fired, cap, most, high)
        options.append(found)
    options.sort(key=len)  # the most constrained suits first
    steps = 0

    def fits(suit: int, allowed: int, load: int, strict: int, late: int) -> bool:
        """Can suits `suit`, ... take options giving up at most `allowed` cards, within the limits?"""
        nonlocal steps
        if suit == len(options):
            return True
        steps += 1
        if steps > MOST_STEPS:
            raise _GiveUp
        for lost, more, stricter, later in options[suit]:
            if lost > allowed:
                break  # (sorted by cards lost)
            total, total_strict, total_late = load + more, strict + stricter, late + later
            if (total + over) & high or (total_strict + stuck) & high or (total_late + pace) & high:
                continue
            if fits(suit + 1, allowed - lost, total, total_strict, total_late):
                return True
        return False

    try:
        return next((allowed for allowed in range(most + 1) if fits(0, allowed, 0, 0, 0)), most + 1)
    except _GiveUp:
        return 0


class _GiveUp(Exception):
    pass


def _suit_options(
    deal: Deal, drawn: int, held: set[int], suit: int, fired: int, cap: int, most: int, top_bits: int
) -> list[Option]:
    """Every way to play a bottom segment of the needed cards of `suit`, with its copies: the Pareto-best."""
    ranks = deal.rules.ranks
    cards = range(suit * ranks + fired, suit * ranks + cap)
    copies = [([drawn - 1] if card in held else []) + [place for place in deal.places[card] if place >= drawn] for card in cards]
    result: list[Option] = []

    def extend(step: int, arrival: int, load: int, strict: int, late: int) -> None:
        result.append((len(copies) - step, load, strict, late))
        if step == len(copies):
            return
        for place in copies[step]:
            reached = max(arrival, place)
            start = place - drawn + 1
            extend(
                step + 1,
                reached,
                load + (_ones(reached - place + 1) << LANE * start),
                strict + (_ones(reached - place) << LANE * start),
                late + _ones(reached - drawn + 2),  # counted at every draw up to its arrival
            )

    extend(0, drawn - 1, 0, 0, 0)
    return _pareto([option for option in result if option[0] <= most], top_bits)


def _pareto(options: list[Option], high: int) -> list[Option]:
    """The options no other one beats (fewer or as many cards lost, vectors no higher at any draw)."""
    options.sort()
    kept: list[Option] = []
    for option in options:
        _, load, strict, late = option
        load, strict, late = load | high, strict | high, late | high
        for _, other_load, other_strict, other_late in kept:  # (unrolled: this is most of the bound's time)
            if (load - other_load) & (strict - other_strict) & (late - other_late) & high == high:
                break
        else:
            kept.append(option)
    return kept


def _ones(lanes: int) -> int:
    """1 in each of the first `lanes` lanes."""
    return ((1 << LANE * lanes) - 1) // ((1 << LANE) - 1) if lanes > 0 else 0
