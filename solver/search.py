"""Depth-first search for the best line of a fully known deal.

The question the search answers is a decision: can the team reach at least
`target` points from this position? It explores moves in a good order (plays,
then trash and spare discards, then a hint, then costly moves), cuts every
position whose upper bound is below the target or, where the target leaves no
act to spare, whose clue tokens cannot bring every card needed to its holder's
turn (`solver.tight`), never lets a last copy go where the target needs every
card still playable, and remembers, for every position it has exhausted, the
smallest target it failed (a transposition table on canonical positions: hands
as sorted multisets, trash cards interchangeable). The state graph is acyclic
(every move spends a clue token, advances the deck or shrinks a hand), so this
memo is sound. `solver.solve` probes the bound with small
budgets, then asks the question for one point more than the best line found,
until it fails; Crowning Piece only for the maximum. `deadline`, `node_limit`,
`interrupt`, `ordering` (other move orders, for probes and restarts) and
`thorough` (the costly copies bound too) are set by the caller per question.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from random import Random

from solver.bounds import upper_bound
from solver.capacity import Options
from solver.collector import paused
from solver.greedy import quick_move
from solver.model import ANNOUNCE, DISCARD, HINT, LOST, MISPLAY, ONGOING, OVER, PLAY, TRASH, WON, Deal, Move, Position
from solver.tight import Tight


class OutOfBudget(Exception):
    """The time or node budget ran out (or the search was interrupted) before the question was decided."""


@dataclass(frozen=True)
class Ordering:
    """Which rules of thumb `Search.order` follows: the usual order, or another one for a probe or restart."""

    patient: bool = False  # hint (wait) before letting go of a card that has another copy
    burn: bool = False  # at 8 clue tokens, misplay (burn) a trash card or a spare copy before hinting
    shuffle: Random | None = None  # random order among plays
    toss: bool = False  # with `shuffle`: toss a coin between waiting and letting go at every position


USUAL = Ordering()
# The search looks at the clock, the caller's `stop` and its `interrupt` every 256 positions (2-3 ms;
# a mask): a glance that decides is heard that much sooner. Every 1,024, the answer of a glance that
# had decided waited up to 10 ms more (5p Avalanche per seat 403, refuted by its glance in 40 ms).
CHECK_EVERY = 255
# A state of `solver.tight`'s relaxation takes 3-4 us, a position 8.7 us: its new states are counted
# as positions, two to a position, so that the budgets in positions buy about as much time (`_tight`).
STATES_A_POSITION = 2
_LETTING_GO = (DISCARD, MISPLAY)


class Search:
    """A decision search with a transposition table shared across targets."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.deadline: float | None = None  # time.perf_counter() value
        self.node_limit: int | None = None
        self.interrupt: Callable[[], bool] | None = None  # asked every `CHECK_EVERY + 1` positions (as is the clock): stop now?
        self.stop: Callable[[], bool] | None = None  # the caller's own `interrupt`: the budget is spent (a Ctrl-C)
        self.report: Callable[[int, int], None] | None = None  # the caller's: told (best found, most not refuted)
        self.ordering = USUAL
        self.thorough = False  # add the costly bound of `solver.capacity`
        self.nodes = 0
        self.failed: dict[Position, int] = {}
        self.bounds: dict[tuple[object, ...], tuple[int, bool]] = {}  # see `_bound`
        self.options: Options = {}  # the copies bound's memo (`solver.capacity.least_lost`)
        self.tight = Tight(deal)  # the clue tokens, where no act is to spare

    def reach(self, position: Position, target: int) -> list[Move] | None:
        """A line from `position` scoring at least `target`, or None if there is none."""
        self._check_budget()  # a budget already spent by an earlier question
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10_000))
        try:
            with paused():  # (the search makes no reference cycles; the collector only slowed it, by 11%)
                return self._reach(position, target)
        finally:
            sys.setrecursionlimit(limit)

    def walk(self, position: Position, target: int, every: int = 8) -> list[Move] | None:
        """`reach`, with the bound spared along a straight line: the first move of the order (as `reach`
        would take it) is followed from `position`, the bound asked only at every `every`-th position.
        Where the line falls short, `reach` goes on from the last position where the bound held, and
        if that fails too, from `position`. The line's positions are not counted in `nodes` (a game
        is at most a few hundred moves, and they cost no bound), so a budget buys as much search.

        Where `reach` wins in the usual order, most of its time goes to the bound at each position of
        that line: on 22 such deals of 5p Avalanche (`reach` wins in 49-185 positions), 28.7 -> 18.8 ms
        in all with `every` 8 (4: 21.2 ms, 16: 20.7 ms). In the usual order, the first move is
        `greedy.quick_move`'s where it answers (a play, trash let go, a hint at 8 tokens), found without
        ordering every move: 5p Avalanche deals the dive wins take 9% less."""
        self._check_budget()  # a budget already spent by an earlier question
        deal = self.deal
        line: list[Move] = []
        checkpoint, kept = position, 0  # the last position where the bound held, and the moves to it
        usual = self.ordering == USUAL
        at = position
        while True:
            status = deal.status(at)
            if status != ONGOING:
                if status == WON or (status == OVER and deal.score(at) >= target):
                    return line
                break
            if len(line) % every == 0:
                if self.failed.get(at, target + 1) <= target or self._bound(at, target) < target:
                    break
                checkpoint, kept = at, len(line)
            move = quick_move(deal, at, True) if usual else None  # (the usual order's first, where it is found at once)
            if move is None:
                move = next(self._tried(at, target), None)  # (the move `_reach` tries first)
            if move is None:
                break
            line.append(move)
            at = deal.play(at, move)
        found = self.reach(checkpoint, target)
        if found is not None:
            return line[:kept] + found
        return None if checkpoint is position else self.reach(position, target)

    def _reach(self, position: Position, target: int) -> list[Move] | None:
        self.nodes += 1
        if self.nodes & CHECK_EVERY == 0 or (self.node_limit is not None and self.nodes > self.node_limit):
            self._check_budget()
        deal = self.deal
        status = deal.status(position)
        if status == WON:
            return []
        if status == LOST:
            return None
        if status == OVER:
            return [] if deal.score(position) >= target else None
        if self.failed.get(position, target + 1) <= target:
            return None
        if self._bound(position, target) < target or not self._tight(position, target):
            self.failed[position] = target
            return None
        for move in self._tried(position, target):
            line = self._reach(deal.play(position, move), target)
            if line is not None:
                line.insert(0, move)
                return line
        self.failed[position] = target
        return None

    def _tried(self, position: Position, target: int) -> Iterator[Move]:
        """The moves `_reach` tries at `position`, in `order`: where every card still needed must be
        played, letting go of a last copy falls short at once, and is not tried."""
        deal = self.deal
        tight = sum(position[3]) == target
        for move in self.order(position):
            if not (tight and move[0] in _LETTING_GO and move[1] != TRASH and deal.available(position, move[1]) == 1):
                yield move

    def _bound(self, position: Position, target: int) -> int:
        """`upper_bound`, remembered: it does not depend on clue tokens or strikes, nor before the final
        round on the seat to play, and many positions differ only in those (hints, and their transpositions).
        A bound that stopped below the target it was asked for may be loose: it is recomputed for a lower one."""
        player, drawn, fireworks, caps, _, _, final, hands = position
        board = (drawn, fireworks, caps, final, hands, player if final >= 0 else 0, self.thorough)
        known = self.bounds.get(board)
        if known is not None and (known[1] or known[0] < target):
            return known[0]
        bound = upper_bound(self.deal, position, target, self.thorough, self.options)
        self.bounds[board] = (bound, bound >= target)  # complete: every bound ran
        return bound

    def _tight(self, position: Position, target: int) -> bool:
        """`Tight.suffice`, its relaxations' new states counted as positions (`STATES_A_POSITION` to one,
        up to the node limit), and the budget checked where they pass a check `_reach` would make."""
        tight = self.tight
        explored = tight.explored
        suffice = tight.suffice(position, target)
        counted = tight.explored // STATES_A_POSITION - explored // STATES_A_POSITION
        if counted:
            before = self.nodes
            self.nodes += counted
            limit = self.node_limit
            if limit is not None and self.nodes > limit:
                self.nodes = limit + 1  # (as `_reach` would stop: the first position past the budget)
                self._check_budget()
            elif self.nodes | CHECK_EVERY != before | CHECK_EVERY:
                self._check_budget()
        return suffice

    def _check_budget(self) -> None:
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise OutOfBudget(f"node budget of {self.node_limit} spent")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfBudget("time limit reached")
        if self.stop is not None and self.stop():
            raise OutOfBudget("stopped")
        if self.interrupt is not None and self.interrupt():
            raise OutOfBudget("interrupted")

    def order(self, position: Position) -> list[Move]:
        """Moves most likely to succeed first."""
        deal = self.deal
        moves = deal.moves(position)
        ranks = deal.rules.ranks
        ordering = self.ordering
        shuffle = ordering.shuffle
        drawn, held = position[1], sum(position[7], ())
        after, next_at = deal.after[drawn], deal.next_at[drawn]
        keys: list[tuple[float, float, int]] = []  # (the rule's rank, the tie break, the move's index): a stable sort
        for index, (kind, card) in enumerate(moves):
            if kind in (PLAY, ANNOUNCE):  # (an announced play first)
                keys.append((1 if kind == PLAY else 0, shuffle.random() if shuffle else card % ranks, index))
            elif kind == DISCARD:
                if card == TRASH:
                    keys.append((2, 0, index))
                elif after[card] + held.count(card) > 1:  # a spare copy
                    wait = shuffle.random() < 0.5 if shuffle and ordering.toss else ordering.patient
                    keys.append((5 if wait else 3, next_at[card], index))
                else:
                    keys.append((6, -(card % ranks), index))
            elif kind == HINT:
                keys.append((4, 0, index))
            elif kind == MISPLAY:
                if ordering.burn and (card == TRASH or after[card] + held.count(card) > 1):
                    keys.append((3, card != TRASH, index))
                else:
                    keys.append((7 if card != TRASH else 5, 0, index))
            else:
                keys.append((8, 0, index))
        keys.sort()
        return [moves[key[2]] for key in keys]
