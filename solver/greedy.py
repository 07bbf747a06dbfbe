"""Fast greedy lines: most deals are won by simple sensible play."""

from __future__ import annotations

from solver.model import ANNOUNCE, DISCARD, HINT, MISPLAY, ONGOING, PASS, PLAY, TRASH, Deal, Move, Position


def greedy_move(deal: Deal, position: Position, moves: list[Move], prefer_low: bool) -> Move:
    """Play, else discard what is least needed, else hint; deliberate misplays last."""
    fireworks = position[2]
    ranks = deal.rules.ranks
    plays = [move for move in moves if move[0] in (PLAY, ANNOUNCE)]
    if plays:
        announced = [move for move in plays if move[0] == ANNOUNCE]
        pool = announced or plays
        return min(pool, key=lambda move: move[1] % ranks) if prefer_low else max(pool, key=lambda move: move[1] % ranks)
    discards = [move for move in moves if move[0] == DISCARD]
    if discards:
        if (DISCARD, TRASH) in discards:
            return (DISCARD, TRASH)
        spare = [move for move in discards if deal.available(position, move[1]) > 1]
        if spare:
            # The copy whose twin comes soonest, then the card furthest from being playable.
            drawn = position[1]
            held = [card for hand in position[7] for card in hand]
            return min(
                spare,
                key=lambda move: (
                    held.count(move[1]) < 2,
                    deal.next_at[drawn][move[1]],
                    -(move[1] % ranks - fireworks[move[1] // ranks]),
                ),
            )
    if (HINT, -1) in moves:
        return (HINT, -1)
    for kind in (DISCARD, MISPLAY, PASS):
        options = [move for move in moves if move[0] == kind]
        if options:
            return max(options, key=lambda move: move[1] % ranks if move[1] != TRASH else -1)
    return moves[0]


def greedy_line(deal: Deal, position: Position, prefer_low: bool = True) -> tuple[list[Move], Position]:
    """Follow `greedy_move` to the end of the game."""
    line: list[Move] = []
    while deal.status(position) == ONGOING:
        moves = deal.moves(position)
        if not moves:
            break
        move = greedy_move(deal, position, moves, prefer_low)
        line.append(move)
        position = deal.play(position, move)
    return line, position
