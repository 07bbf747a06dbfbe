"""When each deck card can be drawn: the clue-token economy of the draws.

Every play, discard or misplay (an act) draws the next deck card while the deck lasts, and a hint
draws nothing, so the `k`-th card drawn from a position comes on the turn after `k` acts and the
hints between them. Clue tokens bound those hints from both sides:

- At most as many. Each hint spends a token: one of the `C` at the position, or one regained by
  an earlier act: by a discard (at most `k - 1` of them, and at most the line's pace: the discards
  and misplays it can afford), by a 5 played (at most the suits whose 5 the cards at hand can reach)
  or by an announced play (Timed Choreography: at most one per act).
- At least as many. Tokens never exceed 8, so every discard beyond the `8 - C` missing at the
  position needs a hint before it. Of the `k` acts at most `P` are plays (`P`: the most the fireworks
  can gain with the cards at hand) and at most `M` are misplays (one strike short of the end); the
  other `k - P - M` are discards.

The constraint model (`solver.sat`) draws no card outside its window: most of the unrolled draw
variables go, and the search learns at once what it would otherwise find clause by clause (on the
5-player Avalanche losses the clue tokens decide).
"""

from __future__ import annotations

from collections.abc import Sequence

from deducer.settings import MAX_CLUES, MAX_STRIKES
from solver.bounds import arrivals
from solver.endings import Heights, capped
from solver.model import Deal, Position


def draw_windows(deal: Deal, root: Position, pace: int) -> list[range]:
    """For each deck card, the turns (counted from `root`, whose turn is 0) on which a line from `root`
    that makes at most `pace` discards and misplays can draw it; empty for the cards drawn by `root`.

    A line scoring a target from `root` can afford `pace` = its most acts less the plays still needed
    (see `solver.sat.most_acts`). Each card is drawn after the one above it in the deck, so the
    windows are pushed apart to one turn at least."""
    drawn, clues, strikes = root[1], root[4], root[5]
    misplays = MAX_STRIKES - 1 - strikes
    first = [0] * deal.size
    last = [0] * deal.size
    previous = -1
    for i, (plays, fives) in enumerate(_reachable(deal, root), start=drawn):
        acts = i - drawn + 1
        owed = max(0, acts - plays - misplays - (MAX_CLUES - clues))  # hints before the `acts`-th draw
        regained = min(acts - 1, pace) + fives + (acts - 1 if deal.rules.choreography else 0)
        first[i] = previous = max(previous + 1, acts - 1 + owed)
        last[i] = acts - 1 + clues + regained
    for i in reversed(range(drawn, deal.size - 1)):
        last[i] = min(last[i], last[i + 1] - 1)
    return [range(first[i], last[i] + 1) if i >= drawn else range(0) for i in range(deal.size)]


def question_windows(deal: Deal, root: Position, pace: int, ends: Sequence[Heights] = ()) -> list[range]:
    """The draw windows of a model's question (`solver.sat`, `solver.clauses`): `draw_windows`, or
    with `ends` the span of each card's windows over the endings (a line ending at one of them is a
    line of the game where the cards above it are trash: `solver.endings.capped`)."""
    if not ends:
        return draw_windows(deal, root, pace)
    by_ending = [draw_windows(deal, capped(deal, root, heights), pace) for heights in ends]
    return [_span(windows) for windows in zip(*by_ending)]


def _span(windows: Sequence[range]) -> range:
    """The turns in any of `windows` (with the turns between)."""
    spans = [window for window in windows if window]
    return range(min(w.start for w in spans), max(w.stop for w in spans)) if spans else range(0)


def drawn_by_now(window: range, t: int, players: int) -> bool:
    """Can the seat acting at turn `t` hold a card drawn within `window`: drawn on one of its earlier turns?"""
    latest = min(window.stop - 1, t - players)
    return latest - (latest - t) % players >= window.start


def _reachable(deal: Deal, root: Position) -> list[tuple[int, int]]:
    """For each deck card not drawn by `root`, in deck order: how many cards the fireworks can gain,
    and how many suits they can complete, with the cards in hand at `root` and those drawn before it
    (the needed cards whose chain arrival, `solver.bounds.arrivals`, comes before its draw)."""
    ranks = deal.rules.ranks
    demand = arrivals(deal, root)
    fives = [arrival for card, arrival in demand if card % ranks == ranks - 1]
    return [(sum(arrival < i for _, arrival in demand), sum(arrival < i for arrival in fives)) for i in range(root[1], deal.size)]
