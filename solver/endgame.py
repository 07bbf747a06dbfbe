"""The last turns of a standard game, seat by seat: a bound that knows who holds what.

Pace counts the turns left after a deck card is drawn; it does not see that a
card can only be played by the seat holding it, nor that the final round goes
round the table once from the seat after the one who drew the last card. On a
tight finish that decides the game: with two players and m2-m5 as the last four
plays, m3 and m5 must be in the same hand and m4 in the other.

`late_cards_lost` takes the cards that can only be played after the draw of deck
card `j` (their chain arrival is `j` or later) and plays the rest of the game in
a relaxation: hints are free (so any seat can take any turn that draws), the
cards of the deck before `j` may be in any hand, and every other card is
ignored. Each turn still plays at most one card, a card is played by a seat
holding a copy (a copy drawn after `j` is held by the seat that drew it), suits
go up in order, and the final round is the one of the rules. The real game is
one of the relaxation's lines, so the late cards it cannot play are never
played: each costs a point. It is run suit by suit where a suit's cards are
not all in hands early enough to be played in the turns that draw, and for all
late cards together where pace is tight (with 2-3 players: the joint search
grows with the seats), so the relaxation stays small.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache

from solver.model import Deal, Position

SLACK = 0  # the joint relaxation runs where the late cards number at least the turns left, less this
MOST_CARDS = 12  # and where they are this few
JOINT_PLAYERS = 3  # and with this many players at most
MOST_STATES = 20_000  # a relaxation bigger than this is left to `one_a_turn` (pace, and the turns cards arrive)
STEP, STEP_MASK = 4, 15  # bits per suit in `most_plays`' state (a suit's needed cards: 6 at most)


def late_cards_lost(deal: Deal, position: Position, demand: list[tuple[int, int]]) -> tuple[int, int]:
    """(needed cards that can never be played, given who holds them; the deck position `j` showing it).
    `demand`: `bounds.arrivals(deal, position)` (suit by suit, each suit's needed cards rank by rank).

    Suit by suit first (each suit alone may use every turn, so the losses of the suits add up), then
    all the late cards together where pace is nearly tight."""
    rules = deal.rules
    final = position[6]
    holders: dict[int, int] = {}  # card: the seats holding a copy (filled when first needed)
    total, where = 0, -1
    last = deal.size - 1
    end = 0
    for low, high in zip(position[2], position[3]):  # one suit at a time: its needed cards, rank by rank
        begin, end = end, end + high - low
        if begin == end:
            continue
        ready = demand[end - 1][1]  # after the draw of deck card `ready`, every card of the suit is held
        if final < 0 and end - begin <= last - ready:
            continue  # enough turns that draw are left once all are held: they can be played then
        chain = demand[begin:end]
        worst = 0
        for step in range(len(chain) - 1, -1, -1):  # the segments arriving at each threshold or later
            threshold = chain[step][1]
            if step and chain[step - 1][1] == threshold:
                continue  # the segment starts at the lowest card arriving at `threshold`
            if final < 0 and len(chain) - step <= last - ready:
                continue
            segment = [card for card, _ in chain[step:]]
            lost = len(segment) - _plays(deal, position, _holders(position, holders), segment, threshold)
            if lost > worst:
                worst, where_in_suit = lost, threshold
        if worst:
            total, where = total + worst, where_in_suit if where < 0 else min(where, where_in_suit)
    if rules.players > JOINT_PLAYERS:
        return total, where
    if final < 0 and len(demand) < last - max((arrival for _, arrival in demand), default=last) + rules.players - SLACK:
        return total, where  # pace is far from tight at every threshold
    for threshold, group in late_groups(demand, MOST_CARDS):
        count = len(group)
        turns = final if final >= 0 else last - threshold + rules.players
        if count < turns - SLACK or count <= total:
            continue
        cards = sorted(card for card, _ in group)
        lost = count - _plays(deal, position, _holders(position, holders), cards, threshold, count - total)
        if lost > total:
            total, where = lost, threshold
    return total, where


def late_groups(demand: list[tuple[int, int]], most: int) -> Iterator[tuple[int, list[tuple[int, int]]]]:
    """For each chain arrival `j` in `demand` ((card, arrival) per needed card), latest first: `j` and
    the needed cards that can only be played after the draw of deck card `j` (arriving at `j` or
    later), while they number `most` at most."""
    late = sorted(demand, key=lambda item: -item[1])
    for count, (_, threshold) in enumerate(late[:most], 1):
        if count < len(late) and late[count][1] == threshold:
            continue  # the whole group arriving at `threshold` first
        yield threshold, late[:count]


def _holders(position: Position, holders: dict[int, int]) -> dict[int, int]:
    if not holders:
        for seat, hand in enumerate(position[7]):
            for card in hand:
                holders[card] = holders.get(card, 0) | 1 << seat
    return holders


def whereabouts(
    deal: Deal, position: Position, holders: dict[int, int], cards: list[int], start: int
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Where the late `cards` of a relaxation from the draw of deck card `start` are: for each, the seats
    that may hold a copy (those holding one at `position`, and anyone if a copy is drawn before `start`),
    and (draws after `start`, card) for each copy drawn from `start` on. `holders`: a memo, filled
    when first needed."""
    following = deal.next_at[position[1]]
    everyone = (1 << deal.rules.players) - 1
    seats = _holders(position, holders)
    masks = tuple([seats.get(card, 0) | (everyone if following[card] < start else 0) for card in cards])
    tail = [(place - start, card) for card in cards for place in deal.places[card] if place >= start]
    tail.sort()
    return masks, tuple(tail)


def _plays(deal: Deal, position: Position, holders: dict[int, int], cards: list[int], threshold: int, most: int = 99) -> int:
    """`most_plays` for these late cards of `position`."""
    players = deal.rules.players
    player, drawn, final = position[0], position[1], position[6]
    start = max(threshold, drawn) if final < 0 else deal.size
    following = deal.next_at[drawn]
    for card in cards:
        if following[card] >= start:
            break
    else:  # any seat may hold any of them: one a turn
        return min(len(cards), deal.size - start + players if final < 0 else final, most)
    seats, ranks = _holders(position, holders), deal.rules.ranks
    if final < 0:  # (a card held, or drawn before `start`, from the first turn; else from the turn after its draw)
        ready = [0 if card in seats or following[card] < start else following[card] - start + 1 for card in cards]
        if all_played(ranks, cards, ready, deal.size - start):
            return min(len(cards), most)
    elif cards[0] // ranks == cards[-1] // ranks:
        return min(final_round(players, player, final, [seats.get(card, 0) for card in cards]), most)
    masks, tail = whereabouts(deal, position, holders, cards, start)
    seat = player if final >= 0 else 0  # (the seat to play matters only in the final round)
    return most_plays(players, ranks, deal.size - start, tail, final, seat, tuple(cards), masks, most)


def all_played(ranks: int, cards: list[int], ready: list[int], drawing: int) -> bool:
    """Does a relaxation with `drawing` turns that draw surely play every one of `cards` (sorted; a top
    segment of each suit), `ready[i]` the first of those turns at which a seat may hold `cards[i]`?

    Yes if all of them but the last can be played in the turns that draw: any seat may take such a
    turn, so seats do not matter there, and the last card, held by then, is played by its holder in
    the final round, where every seat has a turn. A card may be played from the first turn at which
    it and the ranks below it in `cards` are held, and one card a turn in the order of those turns
    decides it (the ranks of a suit then fall in order by an exchange). Most relaxations of the
    search are answered here, spared `most_plays`; a False proves nothing."""
    times = []
    previous, when = -1, -1  # the card before in `cards`, and the turn from which it may be played
    for card, turn in zip(cards, ready):
        when = max(turn, when) if previous >= 0 and card // ranks == previous // ranks else turn
        times.append(when)
        previous = card
    times.sort()
    turn = -1
    for when in times:
        turn = when if when > turn else turn + 1
    return turn <= drawing  # (the last at `drawing`: in the final round)


def final_round(players: int, player: int, turns: int, masks: list[int]) -> int:
    """The most of one suit's late cards (rank by rank, `masks[i]` the seats holding the i-th) that the
    last `turns` turns of the game, from `player`'s, can play: each seat plays the next of them when it
    holds it (as `most_plays` would: with one suit, a turn has nothing else to choose)."""
    played, seat = 0, player
    for _ in range(turns):
        if played < len(masks) and masks[played] >> seat & 1:
            played += 1
        seat = (seat + 1) % players
    return played


@lru_cache(maxsize=1 << 16)
def most_plays(
    players: int,
    ranks: int,
    drawing: int,
    tail: tuple[tuple[int, int], ...],
    final: int,
    player: int,
    cards: tuple[int, ...],
    masks: tuple[int, ...],
    most: int = 99,
) -> int:
    """The most of `cards` (sorted; a top segment of each suit) the relaxation can play.

    `masks[i]`: the seats holding a copy of `cards[i]` now. `drawing` turns still draw, each by a
    seat of free choice, and `tail` says which of them draw which of `cards` (turn, card); then the
    final round, `players` turns from the seat after the last drawer (if the deck is already empty:
    `final` turns from `player`). The search starts from `one_a_turn`'s bound, and too big a
    relaxation answers that bound.

    A state is two integers: `played`, `STEP` bits per suit (its cards played), and `held`, `players`
    bits per card (the seats that may hold it; cleared when it is played)."""
    everyone = (1 << players) - 1
    suits = sorted({card // ranks for card in cards})
    # shifts[s][k]: where the seats of suit `suits[s]`'s k-th card (rank by rank) are in `held`
    shifts = tuple(tuple(i * players for i, card in enumerate(cards) if card // ranks == suit) for suit in suits)
    suited = [(s * STEP, chain, len(chain)) for s, chain in enumerate(shifts)]
    count = len(cards)
    # arriving[turn]: the card it draws (its shift in `held`, its suit's shift in `played`, its step in the suit)
    arriving = {}
    for turn, card in tail:
        i = cards.index(card)
        s = suits.index(card // ranks)
        arriving[turn] = (i * players, s * STEP, shifts[s].index(i * players))
    turns = drawing + (players if final < 0 else final)
    events = sorted({*arriving, drawing - 1})  # the turns that draw one of `cards`, and the last that draws
    failed: dict[tuple[int, int, int, int], int] = {}  # state: fewest plays it failed

    def reach(turn: int, played: int, held: int, previous: int, left: int, need: int) -> bool:
        """Can `need` more cards be played from here (`left` not played yet)?"""
        if need <= 0:
            return True
        if turns - turn < need or left < need:
            return False
        key = (turn, played, held, previous)
        if failed.get(key, need + 1) <= need:
            return False
        if len(failed) >= MOST_STATES:
            raise _TooBig
        found = _turn(turn, played, held, previous, left, need)
        if not found:
            failed[key] = need
        return found

    def _options(played: int, held: int, seats: int) -> list[tuple[int, int, int]]:
        """(suit's shift in `played`, card's shift in `held`, its seats) for each suit whose next card
        a seat of `seats` may hold."""
        found = []
        for at, chain, length in suited:
            step = played >> at & STEP_MASK
            if step < length:
                mask = held >> chain[step] & everyone
                if mask & seats:
                    found.append((at, chain[step], mask))
        return found

    def _turn(turn: int, played: int, held: int, previous: int, left: int, need: int) -> bool:
        if turn >= drawing:  # the final round goes round the table
            seat = (previous + 1) % players
            options = _options(played, held, 1 << seat)
            for at, shift, _ in options:
                if reach(turn + 1, played + (1 << at), held & ~(everyone << shift), seat, left - 1, need - 1):
                    return True
            return not options and reach(turn + 1, played, held, seat, left, need)
        # A turn that draws: its seat is whoever holds the card it plays (anyone if it plays none),
        # and that seat keeps the card drawn. The seats are not tracked beyond that (a relaxation),
        # except the last drawer's, who starts the final round.
        new = arriving.get(turn)
        drawn = -1
        if new is not None and new[2] >= played >> new[1] & STEP_MASK:
            drawn = new[0]  # (not yet played)
        last = turn == drawing - 1
        options = _options(played, held, everyone)
        if not options and drawn < 0 and not last:  # nothing to play and nothing drawn until the next event
            return reach(events[bisect_right(events, turn)], played, held, -1, left, need)
        for at, shift, mask in options:
            after_played, after_held = played + (1 << at), held & ~(everyone << shift)
            for seat in _seats(mask) if last else (-1,):
                if reach(turn + 1, after_played, _draw(after_held, drawn, 1 << seat if last else mask), seat, left - 1, need - 1):
                    return True
        # Playing nothing keeps every seat open for the card drawn and the final round.
        if options and drawn < 0 and not last:
            return False
        for seat in range(players) if last else (-1,):
            if reach(turn + 1, played, _draw(held, drawn, 1 << seat if last else everyone), seat, left, need):
                return True
        return False

    def _draw(held: int, drawn: int, seats: int) -> int:
        """`held` once `seats` may hold the card drawn (its shift `drawn`; -1: none, or one already played)."""
        return held if drawn < 0 else held | seats << drawn

    def _seats(mask: int) -> list[int]:
        return [seat for seat in range(players) if mask >> seat & 1]

    held = 0
    for i, mask in enumerate(masks):
        held |= mask << i * players
    top = min(one_a_turn(players, ranks, drawing, tail, final, cards, masks), most)
    try:
        for need in range(top, 0, -1):
            if reach(0, 0, held, (player - 1) % players if drawing == 0 else -1, count, need):
                return need
        return 0
    except _TooBig:
        return top


def one_a_turn(
    players: int,
    ranks: int,
    drawing: int,
    tail: tuple[tuple[int, int], ...],
    final: int,
    cards: tuple[int, ...],
    masks: tuple[int, ...],
) -> int:
    """A bound on `most_plays` (its arguments, the seat to play aside) that forgets who holds what:
    one card a turn, each no sooner than a seat may hold it (now, or the turn after a draw of it) and
    than the turn after the card below it in its suit is played. One seat is kept: the card of the
    last draw is its drawer's, who takes the very last turn, so it is played then or never.

    The search asks each number of plays from this bound down until one is reached, and each number
    above the answer costs a search of its own. At the opening deal of 5p Avalanche, where a suit's
    lowest needed card is the deck's last card, pace let the search begin at every card of the suit,
    of which one can be played: `late_cards_lost` took 80-170 us there, 30-80 us with this bound."""
    turns = drawing + (players if final < 0 else final)
    drawn: dict[int, int] = {}  # card: the first turn that draws it
    for turn, card in tail:
        drawn[card] = min(turn, drawn.get(card, turn))
    times = []
    previous = when = -1
    for card, mask in zip(cards, masks):
        first = drawn.get(card)
        ready = 0 if mask else turns if first is None else first + 1 if first < drawing - 1 else turns - 1
        when = max(ready, when + 1) if previous >= 0 and card // ranks == previous // ranks else ready
        times.append(when)
        previous = card
    times.sort()
    played, turn = 0, -1
    for when in times:
        turn = max(when, turn + 1)
        if turn >= turns:
            break
        played += 1
    return played


class _TooBig(Exception):
    """`most_plays`' relaxation outgrew `MOST_STATES`."""
