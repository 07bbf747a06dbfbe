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

from collections.abc import Iterator
from functools import lru_cache

from solver.model import Deal, Position

SLACK = 0  # the joint relaxation runs where the late cards number at least the turns left, less this
MOST_CARDS = 12  # and where they are this few
JOINT_PLAYERS = 3  # and with this many players at most
MOST_STATES = 20_000  # a relaxation bigger than this is left to pace


def late_cards_lost(deal: Deal, position: Position, demand: list[tuple[int, int]]) -> tuple[int, int]:
    """(needed cards that can never be played, given who holds them; the deck position `j` showing it).

    Suit by suit first (each suit alone may use every turn, so the losses of the suits add up), then
    all the late cards together where pace is nearly tight."""
    rules = deal.rules
    final = position[6]
    holders: dict[int, int] = {}  # card: the seats holding a copy (filled when first needed)
    total, where = 0, -1
    ranks, last = rules.ranks, deal.size - 1
    begin = 0
    while begin < len(demand):  # one suit at a time (`demand` goes suit by suit, rank by rank)
        end = begin + 1
        while end < len(demand) and demand[end][0] // ranks == demand[begin][0] // ranks:
            end += 1
        chain, begin = demand[begin:end], end
        ready = chain[-1][1]  # after the draw of deck card `ready`, every card of the suit is held
        if final < 0 and len(chain) <= last - ready:
            continue  # enough turns that draw are left once all are held: they can be played then
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
    masks = tuple(seats.get(card, 0) | (everyone if following[card] < start else 0) for card in cards)
    tail = tuple(sorted((place - start, card) for card in cards for place in deal.places[card] if place >= start))
    return masks, tail


def _plays(deal: Deal, position: Position, holders: dict[int, int], cards: list[int], threshold: int, most: int = 99) -> int:
    """`most_plays` for these late cards of `position`."""
    players = deal.rules.players
    player, drawn, final = position[0], position[1], position[6]
    start = max(threshold, drawn) if final < 0 else deal.size
    following = deal.next_at[drawn]
    if all(following[card] < start for card in cards):  # any seat may hold any of them: one a turn
        return min(len(cards), deal.size - start + players if final < 0 else final, most)
    masks, tail = whereabouts(deal, position, holders, cards, start)
    seat = player if final >= 0 else 0  # (the seat to play matters only in the final round)
    return most_plays(players, deal.rules.ranks, deal.size - start, tail, final, seat, tuple(cards), masks, most)


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
    `final` turns from `player`). Too big a relaxation answers what pace alone allows."""
    index = {card: i for i, card in enumerate(cards)}
    arriving = {turn: index[card] for turn, card in tail}
    suits = sorted({card // ranks for card in cards})
    # chains[s]: the positions in `cards` of suit `suits[s]`, rank by rank
    chains = tuple(tuple(i for i, card in enumerate(cards) if card // ranks == suit) for suit in suits)
    place = {i: (s, step) for s, chain in enumerate(chains) for step, i in enumerate(chain)}
    everyone = (1 << players) - 1
    turns = drawing + (players if final < 0 else final)
    failed: dict[tuple[int, tuple[int, ...], tuple[int, ...], int], int] = {}  # state: fewest plays it failed

    class TooBig(Exception):
        pass

    def reach(turn: int, played: tuple[int, ...], held: tuple[int, ...], previous: int, need: int) -> bool:
        """Can `need` more cards be played from here? `held[i]`: the seats that may hold `cards[i]`."""
        if need <= 0:
            return True
        if min(turns - turn, len(cards) - sum(played)) < need:
            return False
        key = (turn, played, held, previous)
        if failed.get(key, need + 1) <= need:
            return False
        if len(failed) >= MOST_STATES:
            raise TooBig
        found = _turn(turn, played, held, previous, need)
        if not found:
            failed[key] = need
        return found

    def _turn(turn: int, played: tuple[int, ...], held: tuple[int, ...], previous: int, need: int) -> bool:
        if turn >= drawing:  # the final round goes round the table
            seat = (previous + 1) % players
            bit = 1 << seat
            options = [s for s, chain in enumerate(chains) if played[s] < len(chain) and held[chain[played[s]]] & bit]
            for s in options:
                if reach(turn + 1, *_play(played, held, s), seat, need - 1):
                    return True
            return not options and reach(turn + 1, played, held, seat, need)
        # A turn that draws: its seat is whoever holds the card it plays (anyone if it plays none),
        # and that seat keeps the card drawn. The seats are not tracked beyond that (a relaxation),
        # except the last drawer's, who starts the final round.
        new = arriving.get(turn, -1)
        if new >= 0 and place[new][1] < played[place[new][0]]:
            new = -1  # already played
        last = turn == drawing - 1
        options = [s for s, chain in enumerate(chains) if played[s] < len(chain) and held[chain[played[s]]]]
        for s in options:
            mask = held[chains[s][played[s]]]
            after_played, after_held = _play(played, held, s)
            for seat in _seats(mask) if last else (-1,):
                if reach(turn + 1, after_played, _draw(after_held, new, 1 << seat if last else mask), seat, need - 1):
                    return True
        # Playing nothing keeps every seat open for the card drawn and the final round.
        if options and new < 0 and not last:
            return False
        for seat in range(players) if last else (-1,):
            if reach(turn + 1, played, _draw(held, new, 1 << seat if last else everyone), seat, need):
                return True
        return False

    def _draw(held: tuple[int, ...], new: int, seats: int) -> tuple[int, ...]:
        return held if new < 0 else held[:new] + (held[new] | seats,) + held[new + 1 :]

    def _play(played: tuple[int, ...], held: tuple[int, ...], s: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        card = chains[s][played[s]]
        return played[:s] + (played[s] + 1,) + played[s + 1 :], held[:card] + (0,) + held[card + 1 :]

    def _seats(mask: int) -> list[int]:
        return [seat for seat in range(players) if mask >> seat & 1]

    start = (0,) * len(chains)
    try:
        for need in range(min(turns, len(cards), most), 0, -1):
            if reach(0, start, masks, (player - 1) % players if drawing == 0 else -1, need):
                return need
        return 0
    except TooBig:
        return min(turns, len(cards), most)
