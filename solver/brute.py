"""A plain exhaustive reference, written straight from RULES.md, for small deals.

No bounds, no move ordering, no trash merging, no dominance: every legal action
is tried, until one reaches the maximum score (memoised on the full state, which
is exact). Only for reduced games (`Rules` with few suits, ranks and cards in
hand); the tests compare it with the real search on thousands of random small
deals, from the opening deal and from positions reached by random play
(`Brute.children`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from deducer.settings import MAX_CLUES, MAX_STRIKES, Ending, Stuck
from solver.model import Deal

# (player, drawn, fireworks, clues, strikes, discards (sorted, misplays included), final, hands (sorted))
State = tuple[int, int, tuple[int, ...], int, int, tuple[int, ...], int, tuple[tuple[int, ...], ...]]


class TooBig(Exception):
    """The deal has more states than the brute force was allowed to visit."""


class Brute:
    """Every state of a small deal and its exact value (`most_states`: give up past so many, `TooBig`)."""

    def __init__(self, deal: Deal, most_states: int | None = None) -> None:
        self.deal = deal
        self.value = cache(self._value)
        self.most_states = most_states
        self.visited = 0  # states valued, or being valued

    def start(self) -> State:
        deal = self.deal
        hands: list[list[int]] = [[] for _ in range(deal.rules.players)]
        for position, seat in enumerate(deal.deal_seats):
            hands[seat].append(deal.deck[position])
        start = tuple(tuple(sorted(hand)) for hand in hands)
        return (0, len(deal.deal_seats), (0,) * deal.rules.suits, MAX_CLUES, 0, (), -1, start)

    def result(self, state: State) -> int | None:
        """The score if the game is over in `state`, else None."""
        rules = self.deal.rules
        player, drawn, fireworks, _, strikes, _, final, hands = state
        if sum(fireworks) == rules.max_score:
            return rules.max_score
        if strikes == MAX_STRIKES:
            return 0
        crowning = rules.ending is Ending.CROWNING
        if not crowning and final == 0:
            return sum(fireworks)
        if crowning and drawn == len(self.deal.deck) and not any(hands):
            return 0
        if crowning and not hands[player] and not self._can_hint(state) and rules.stuck is Stuck.LOSE:
            return 0
        return None

    def _can_hint(self, state: State) -> bool:
        player, clues, hands = state[0], state[3], state[7]
        return clues > 0 and (self.deal.rules.empty_hints or any(hand for seat, hand in enumerate(hands) if seat != player))

    def children(self, state: State) -> list[State]:
        """The states after every legal action of an ongoing `state` (0-valued losses left out)."""
        return list(self._children(state))

    def _children(self, state: State) -> Iterator[State]:
        """`children`, one at a time."""
        rules, deck = self.deal.rules, self.deal.deck
        ranks, players = rules.ranks, rules.players
        crowning = rules.ending is Ending.CROWNING
        player, drawn, fireworks, clues, strikes, discards, final, hands = state

        def after(card_out: int | None, fireworks: tuple[int, ...], clues: int, strikes: int, discards: tuple[int, ...]) -> State:
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
            return ((player + 1) % players, new_drawn, fireworks, clues, strikes, discards, new_final, new_hands)

        if crowning and not hands[player] and not self._can_hint(state):
            yield after(None, fireworks, clues, strikes, discards)  # stuck=pass (stuck=lose has ended)
            return
        for card in set(hands[player]):
            suit, rank = divmod(card, ranks)
            lost_if_gone = crowning and rank >= fireworks[suit] and discards.count(card) == rules.copies_of(card) - 1
            gone = tuple(sorted((*discards, card)))
            announces = [None, *range(rules.suits)] if rules.choreography else [None]
            for announce in announces:
                right = announce is None or announce == suit
                if right and fireworks[suit] == rank:
                    bonus = (rank == ranks - 1) + (announce is not None)
                    grown = fireworks[:suit] + (rank + 1,) + fireworks[suit + 1 :]
                    yield after(card, grown, min(MAX_CLUES, clues + bonus) if bonus else clues, strikes, discards)
                elif strikes + 1 == MAX_STRIKES or lost_if_gone:
                    continue  # the game is lost: worth 0
                else:
                    yield after(card, fireworks, clues, strikes + 1, gone)
            if clues < MAX_CLUES and not lost_if_gone:
                yield after(card, fireworks, clues + 1, strikes, gone)
        if self._can_hint(state):
            yield after(None, fireworks, clues - 1, strikes, discards)

    def _value(self, state: State) -> int:
        self.visited += 1
        if self.most_states is not None and self.visited > self.most_states:
            raise TooBig(f"over {self.most_states} states")
        over = self.result(state)
        if over is not None:
            return over
        best, top = 0, self.deal.rules.max_score
        for child in self._children(state):
            best = max(best, self.value(child))
            if best == top:
                break  # (nothing scores more)
        return best


def best_score(deal: Deal) -> int:
    """The best score the team can reach from the opening deal (Crowning Piece: the maximum, or 0)."""
    brute = Brute(deal)
    return brute.value(brute.start())
