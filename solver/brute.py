"""A plain exhaustive reference, written straight from RULES.md, for small deals.

No bounds, no move ordering, no trash merging, no dominance: every legal action
is tried (memoised on the full state, which is exact). Only for reduced games
(`Rules` with few suits, ranks and cards in hand); the tests compare it with the
real search on thousands of random small deals.
"""

from __future__ import annotations

from functools import cache

from deducer.settings import MAX_CLUES, MAX_STRIKES, Ending, Stuck
from solver.model import Deal


def best_score(deal: Deal) -> int:
    """The best score the team can reach (Crowning Piece: the maximum, or 0)."""
    rules, deck = deal.rules, deal.deck
    ranks, top = rules.ranks, rules.max_score
    players = rules.players
    crowning = rules.ending is Ending.CROWNING

    def indispensable(card: int, fireworks: tuple[int, ...], discards: tuple[int, ...]) -> bool:
        suit, rank = divmod(card, ranks)
        return rank >= fireworks[suit] and discards.count(card) == rules.copies_of(card) - 1

    @cache
    def value(
        player: int,
        drawn: int,
        fireworks: tuple[int, ...],
        clues: int,
        strikes: int,
        discards: tuple[int, ...],
        final: int,
        hands: tuple[tuple[int, ...], ...],
    ) -> int:
        if sum(fireworks) == top:
            return top
        if strikes == MAX_STRIKES:
            return 0
        if not crowning and final == 0:
            return sum(fireworks)
        if crowning and drawn == len(deck) and not any(hands):
            return 0
        can_hint = clues > 0 and (rules.empty_hints or any(hand for seat, hand in enumerate(hands) if seat != player))
        if crowning and not hands[player] and not can_hint:
            if rules.stuck is Stuck.LOSE:
                return 0
            return value((player + 1) % players, drawn, fireworks, clues, strikes, discards, final, hands)
        best = 0

        def after(card_out: int | None, fireworks: tuple[int, ...], clues: int, strikes: int, discards: tuple[int, ...]) -> int:
            hand = list(hands[player])
            if card_out is not None:
                hand.remove(card_out)
            new_drawn, new_final = drawn, final - 1 if final > 0 else final
            if card_out is not None and drawn < len(deck):
                hand.append(deck[drawn])
                new_drawn = drawn + 1
                if new_drawn == len(deck) and not crowning:
                    new_final = players
            new_hands = hands[:player] + (tuple(sorted(hand)),) + hands[player + 1 :]
            return value((player + 1) % players, new_drawn, fireworks, clues, strikes, discards, new_final, new_hands)

        for card in set(hands[player]):
            suit, rank = divmod(card, ranks)
            lost_if_gone = crowning and indispensable(card, fireworks, discards)
            gone = tuple(sorted((*discards, card)))
            announces = [None, *range(rules.suits)] if rules.choreography else [None]
            for announce in announces:
                right = announce is None or announce == suit
                if right and fireworks[suit] == rank:
                    bonus = (rank == ranks - 1) + (announce is not None)
                    grown = fireworks[:suit] + (rank + 1,) + fireworks[suit + 1 :]
                    best = max(best, after(card, grown, min(MAX_CLUES, clues + bonus) if bonus else clues, strikes, discards))
                elif strikes + 1 == MAX_STRIKES or lost_if_gone:
                    continue  # the game is lost: worth 0
                else:
                    best = max(best, after(card, fireworks, clues, strikes + 1, gone))
            if clues < MAX_CLUES and not lost_if_gone:
                best = max(best, after(card, fireworks, clues + 1, strikes, gone))
        if can_hint:
            best = max(best, after(None, fireworks, clues - 1, strikes, discards))
        return best

    hands: list[list[int]] = [[] for _ in range(players)]
    for position, seat in enumerate(deal.deal_seats):
        hands[seat].append(deck[position])
    start = tuple(tuple(sorted(hand)) for hand in hands)
    return value(0, len(deal.deal_seats), (0,) * rules.suits, MAX_CLUES, 0, (), -1, start)
