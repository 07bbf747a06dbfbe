"""Hand capacity with the choice of copies: which copy of each card a line keeps.

`bounds.crowded` holds each needed card from the draw of its last copy to its
chain arrival (computed from first copies): the least any line can hold it. But
a line that lets an early copy go must wait for a later one, and the cards above
it in the suit wait with it. Here every line is looked at through the copies it
plays: if a line plays card `c` from deck position `k_c` (or from a hand now),
then `c` sits in a hand at every draw from `k_c` until its arrival, the largest
`k` of its suit up to `c`, inclusive (it is played after that draw). While the
deck lasts the hands hold `players * hand_size` cards, so at no draw may more
such cards be held; and before the last draw, if every card in hand is one that
cannot be played before a later draw, no play or discard is safe and the deck
never moves again (the hand lock of `crowded`).

A line that gives up a card plays no card above it in its suit either, and
each card given up costs a point: `least_lost` is the fewest cards a line can
give up with some choice of copies that respects the capacity. (Crowning Piece:
any card given up loses the game.) Every line has such a choice (the copies it
plays), so this is sound; it is never weaker than `crowded`, whose intervals lie
inside those of every choice.

The load of a choice is a vector over the draws, packed into one integer with
`LANE` bits per draw (a lane never exceeds the needed cards, at most 31 here),
so that adding choices and comparing loads is integer arithmetic.
"""

from __future__ import annotations

from solver.model import Deal, Position

LANE = 6
TOP = (1 << (LANE - 1)) - 1  # the largest lane value (31): the top bit of each lane stays free
MOST_STEPS = 100_000  # partial choices tried; beyond, the bound gives up (says 0)

Option = tuple[int, int, int]  # (cards given up, load, strict load), loads packed per draw


def least_lost(deal: Deal, position: Position, most: int) -> int:
    """The fewest needed cards any line from `position` must give up to hand capacity (capped at
    `most + 1`: the caller only needs to know whether more than `most` are lost); 0 if it gives up."""
    drawn, fireworks, caps, hands = position[1], position[2], position[3], position[7]
    size = deal.size
    if drawn >= size:
        return 0
    lanes = size - drawn + 1  # the draws from drawn - 1 (the hands now) to the last card
    capacity = deal.rules.players * deal.rules.hand_size
    if capacity >= TOP or deal.rules.max_score > TOP:
        return 0  # a lane could overflow
    high = _ones(lanes) << (LANE - 1)  # the top bit of every lane
    over = _ones(lanes) * (TOP - capacity)  # a lane plus this reaches the top bit iff it exceeds the capacity
    stuck = _ones(lanes - 1) * (TOP + 1 - capacity)  # ... iff it reaches it (the last draw excepted)
    held = set().union(*hands)
    options = [_suit_options(deal, drawn, held, suit, fireworks[suit], caps[suit], most) for suit in range(len(caps))]
    options.sort(key=len)  # the most constrained suits first
    steps = 0

    def fits(suit: int, allowed: int, load: int, strict: int) -> bool:
        """Can suits `suit`, ... take options giving up at most `allowed` cards, within the capacity?"""
        nonlocal steps
        if suit == len(options):
            return True
        steps += 1
        if steps > MOST_STEPS:
            raise _GiveUp
        for lost, more, stricter in options[suit]:
            if lost > allowed:
                break  # (sorted by cards lost)
            total, total_strict = load + more, strict + stricter
            if (total + over) & high or (total_strict + stuck) & high:
                continue
            if fits(suit + 1, allowed - lost, total, total_strict):
                return True
        return False

    try:
        return next((allowed for allowed in range(most + 1) if fits(0, allowed, 0, 0)), most + 1)
    except _GiveUp:
        return 0


class _GiveUp(Exception):
    pass


def _suit_options(deal: Deal, drawn: int, held: set[int], suit: int, low: int, high: int, most: int) -> list[Option]:
    """Every way to play a bottom segment of the needed cards of `suit`, with its copies: the Pareto-best."""
    ranks = deal.rules.ranks
    cards = range(suit * ranks + low, suit * ranks + high)
    copies = [([drawn - 1] if card in held else []) + [place for place in deal.places[card] if place >= drawn] for card in cards]
    result: list[Option] = []

    def extend(step: int, arrival: int, load: int, strict: int) -> None:
        result.append((len(copies) - step, load, strict))
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
            )

    extend(0, drawn - 1, 0, 0)
    high_bits = _ones(deal.size - drawn + 1) << (LANE - 1)
    return _pareto([option for option in result if option[0] <= most], high_bits)


def _pareto(options: list[Option], high: int) -> list[Option]:
    """The options no other one beats (fewer or as many cards lost, loads no higher at any draw)."""
    options.sort()
    kept: list[Option] = []
    for option in options:
        _, load, strict = option
        if not any(
            ((load | high) - other_load) & high == high and ((strict | high) - other_strict) & high == high
            for _, other_load, other_strict in kept
        ):
            kept.append(option)
    return kept


def _ones(lanes: int) -> int:
    """1 in each of the first `lanes` lanes."""
    return ((1 << LANE * lanes) - 1) // ((1 << LANE) - 1) if lanes > 0 else 0
