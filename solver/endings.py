"""The fireworks a score can end at: a bound proven suit by suit.

Once no line from a position scores more than `score` (a proven bound), a line scoring `score`
ends with every firework at some height between its height now and its cap, the heights summing
to `score`: an ending. Such a line never plays a card above its ending, so it is a line of the
game in which those cards are trash (the position with its caps lowered to the ending, `capped`),
and there it plays every card still needed. The bounds of `solver.bounds` know that game much
better than the real one: they no longer have to guess which cards to give up. On 5-player
Avalanche round-robin 744, 20 of the 21 ways to end at 28 fall to the pace or the seats at once,
where the bound at the deal allows 28; the constraint model refutes the last (`solver.sat`, told
the endings left) in 2-3 s, where it could not decide 28 in minutes.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.bounds import arrivals, copies_bound, explain
from solver.clues import tokens_lost
from solver.model import DISCARD, MISPLAY, ONGOING, TRASH, Deal, Move, Position

Heights = tuple[int, ...]

ENDINGS = 64  # the most endings checked one by one (6 suits: 56 ways to fall 3 short, 126 for 4)


@dataclass(frozen=True)
class Endings:
    """The endings of `score` the bounds leave open, and how many they refuted."""

    score: int
    open: tuple[Heights, ...]
    refuted: int

    def reason(self) -> str:
        """Why no line scores `score`, once every ending is refuted by the bounds."""
        return (
            f"each of the {self.refuted} ways the fireworks can end at {self.score} fails a bound "
            f"(pace, seats, hand capacity, copies or clue tokens) once the cards above them are trash"
        )


def endings(deal: Deal, position: Position, score: int) -> list[Heights]:
    """Every ending of `score` from `position`: heights between each firework and its cap, summing to `score`."""
    fireworks, caps = position[2], position[3]
    found: list[Heights] = []

    def extend(prefix: Heights, suit: int, left: int) -> None:
        if suit == len(caps):
            if left == 0:
                found.append(prefix)
            return
        room = sum(caps[suit + 1 :]) - sum(fireworks[suit + 1 :])  # the most the later suits can add
        for height in range(fireworks[suit], caps[suit] + 1):
            gained = height - fireworks[suit]
            if 0 <= left - gained <= room:
                extend((*prefix, height), suit + 1, left - gained)

    extend((), 0, score - sum(fireworks))
    return found


def capped(deal: Deal, position: Position, heights: Heights) -> Position:
    """`position` in the game where every card above `heights` is trash (made `TRASH` in hand)."""
    fireworks = position[2]
    hands = tuple(
        tuple(sorted(TRASH if card != TRASH and deal.trash(card, fireworks, heights) else card for card in hand))
        for hand in position[7]
    )
    return (*position[:3], heights, *position[4:7], hands)


def uncapped(deal: Deal, position: Position, heights: Heights, line: list[Move]) -> list[Move] | None:
    """A line of the capped game (`capped(deal, position, heights)`) as the same line of the real game
    from `position`: each card it lets go of as trash is a card in hand that is trash in the capped game,
    really trash if there is one (the real game's moves would let go of nothing else), and for a misplay
    one that cannot be played now. None where no such card is in hand (a misplay, where the only card
    above its ending can be played in the real game); the line keeps every play, so it scores as much."""
    real: list[Move] = []
    for kind, card in line:
        if card == TRASH and kind in (DISCARD, MISPLAY):  # (a hint's card is -1 too)
            fireworks, hand = position[2], position[7][position[0]]
            spare = [held for held in hand if held == TRASH or deal.trash(held, fireworks, heights)]
            if kind == MISPLAY:
                spare = [held for held in spare if not deal.playable(fireworks, held)]
            if not spare:
                return None
            card = TRASH if TRASH in spare else spare[0]
        move = (kind, card)
        if move not in deal.moves(position):
            return None
        real.append(move)
        position = deal.play(position, move)
    return real


def open_endings(deal: Deal, position: Position, score: int) -> Endings | None:
    """The endings of `score` that no bound refutes in the capped game (None: more than `ENDINGS`).

    Only meaningful when no line from `position` scores more than `score` (see the module)."""
    every = endings(deal, position, score)
    if len(every) > ENDINGS:
        return None
    left = tuple(heights for heights in every if _reachable(deal, capped(deal, position, heights)))
    return Endings(score, left, len(every) - len(left))


def _reachable(deal: Deal, position: Position) -> bool:
    """Do the bounds allow every card still needed at `position` to be played? (The clue tokens only
    asked whether any is lost: `bounds.clues_bound` would count them.)"""
    score = sum(position[3])
    bound = explain(deal, position)
    if bound.score >= score:
        bound = copies_bound(deal, position, bound)
    if bound.score < score or deal.status(position) != ONGOING:
        return bound.score >= score
    return not tokens_lost(deal, position, arrivals(deal, position), exact=False)[0]
