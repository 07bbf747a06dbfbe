"""Fast greedy lines: most deals are won by simple sensible play."""

from __future__ import annotations

from collections.abc import Callable

from deducer.settings import MAX_CLUES
from solver.model import ANNOUNCE, DISCARD, HINT, MISPLAY, ONGOING, PASS, PLAY, TRASH, Deal, Move, Position

# Stalling (`greedy_move`): with few cards left in the deck, hint before letting a card go. Near the
# end, a discard draws a card and brings the final round a turn nearer; a hint keeps the deck for the
# seats that hold the last cards needed. Of the deals that the three lines without it lose with the
# first bound at the maximum (seeds 0-299), the three stalling twins won, by the cards left from which
# they stall (3, 4, 5, 6, 8, 10): 5p Avalanche per seat 44 / 53 / 52 / 49 / 51 / 52 of 115,
# round-robin 37 / 47 / 51 / 50 / 54 / 48 of 110; 4p Avalanche per seat 29 / 34 / 39 / 41 / 36 / 32 of
# 92; 5p base per seat 10 / 13 / 13 / 12 / 12 / 11 of 20. Twins at 5 and at 10: 66, 60, 48 and 14.
STALLS = (5, 10)


def greedy_move(
    deal: Deal, position: Position, moves: list[Move], prefer_low: bool, patient: bool = False, stall: int = 0
) -> Move:
    """Play (the lowest rank first, or with `prefer_low` False the highest), else discard trash, else
    discard what is least needed, else hint; deliberate misplays last. `patient`: with two clue tokens
    or more, hint before letting go of a spare copy. `stall`: with this many cards or fewer left in the
    deck (0: never), hint (where one may) before letting go of any card."""
    fireworks = position[2]
    ranks = deal.rules.ranks
    plays = [move for move in moves if move[0] in (PLAY, ANNOUNCE)]
    if plays:
        announced = [move for move in plays if move[0] == ANNOUNCE]
        pool = announced or plays
        return min(pool, key=lambda move: move[1] % ranks) if prefer_low else max(pool, key=lambda move: move[1] % ranks)
    if stall and deal.size - position[1] <= stall and (HINT, -1) in moves:
        return (HINT, -1)
    discards = [move for move in moves if move[0] == DISCARD]
    if discards:
        if (DISCARD, TRASH) in discards:
            return (DISCARD, TRASH)
        if patient and position[4] >= 2 and (HINT, -1) in moves:
            return (HINT, -1)
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


def quick_move(deal: Deal, position: Position, prefer_low: bool, stall: int = 0) -> Move | None:
    """`greedy_move`'s choice where it is found without listing every move (None elsewhere): a play
    if the player to act holds a playable card (the lowest rank, with `prefer_low` False the highest,
    the first such card in the sorted hand; announced under Timed Choreography), else (with `stall`
    cards or fewer left in the deck) a hint where one may be given, else letting go of a trash card
    below 8 clue tokens, else a hint at 8 tokens."""
    fireworks, ranks = position[2], deal.rules.ranks
    hand = position[7][position[0]]
    chosen = -1
    for card in hand:
        if card != TRASH and fireworks[card // ranks] == card % ranks:
            rank = card % ranks
            if chosen < 0 or (rank < chosen % ranks if prefer_low else rank > chosen % ranks):
                chosen = card
    if chosen >= 0:
        return (ANNOUNCE if deal.rules.choreography else PLAY), chosen
    if stall and deal.size - position[1] <= stall and deal.can_hint(position):
        return (HINT, -1)
    if position[4] < MAX_CLUES:
        return (DISCARD, TRASH) if TRASH in hand else None
    return (HINT, -1) if deal.can_hint(position) else None


Trace = list[tuple[int, Position, list[Move] | None]]  # (moves before it, position, its moves if listed): see `greedy_line`


def greedy_line(
    deal: Deal,
    position: Position,
    prefer_low: bool = True,
    patient: bool = False,
    stall: int = 0,
    trace: Trace | None = None,
) -> tuple[list[Move], Position]:
    """Follow `greedy_move` to the end of the game (found at once by `quick_move` where it can be).
    `trace`, if given, is told each position where `quick_move` had no answer, with its moves, and
    each with `max(STALLS)` cards or fewer left in the deck: the only positions where the line of
    another `patient` or `stall` (of `STALLS`) can differ from this one (`greedy_start`)."""
    line: list[Move] = []
    late = max(STALLS)
    while deal.status(position) == ONGOING:
        move = quick_move(deal, position, prefer_low, stall)
        moves = None
        if move is None:
            moves = deal.moves(position)
            if not moves:
                break
            move = greedy_move(deal, position, moves, prefer_low, patient, stall)
        if trace is not None and (moves is not None or deal.size - position[1] <= late):
            trace.append((len(line), position, moves))
        line.append(move)
        position = deal.play(position, move)
    return line, position


def _branch(
    deal: Deal, line: list[Move], trace: Trace, prefer_low: bool, patient: bool, stall: int
) -> tuple[list[Move], Position] | None:
    """The greedy line of `patient` and `stall` where `line` is the one of other values of those two
    (the same `prefer_low`), with its `trace`: the two follow each other up to the first position of the
    trace where the choice differs, and the new line is played on from there; None if they never part
    (the same line)."""
    for index, position, moves in trace:
        move = quick_move(deal, position, prefer_low, stall)
        if move is None:
            move = greedy_move(deal, position, deal.moves(position) if moves is None else moves, prefer_low, patient, stall)
        if move != line[index]:
            rest, end = greedy_line(deal, deal.play(position, move), prefer_low, patient, stall)
            return line[:index] + [move] + rest, end
    return None


# (prefer_low, patient, stall): see `greedy_start`
GREEDY = tuple(
    (prefer_low, patient, stall)
    for stall in (0, *STALLS)
    for prefer_low, patient in ((True, False), (False, False), (True, True))
)


def greedy_start(deal: Deal, root: Position, bound: Callable[[], int], perfect: bool = False) -> tuple[int, list[Move]]:
    """The best score of the `GREEDY` lines from `root` and its line, trying them in turn until one
    reaches the bound. `bound()` is asked only once a line falls short of the maximum (a line that
    wins has reached any bound; the bound's own cost is then spared). `perfect`: only whether the
    maximum is reachable is asked, so a bound below it ends the lines at once (the question is
    answered; the lines left could only raise the best score below it: 5p Avalanche pace losses,
    answered with no search, take 23% less).

    The patient line (`greedy_move`) wins a tenth to a sixth of the 4p/5p Avalanche deals that the
    usual two lose, with no search at all, so that more than half the deals end here (5p Avalanche
    per seat, seeds 4000-4299: median 4.6 -> 2.2 ms); the stalling twins of the three (`STALLS`;
    standard rules) half of those the three lose. A patient or stalling line counts only when it
    reaches the bound: below it, the usual lines are the better start for the search and the model's
    hint (4p Avalanche round-robin 1208: 1.5 s from their 23, 3-4 s from the patient 26). Each line
    after the first of its `prefer_low` branches off that one (`_branch`): the patient line most often
    follows it for half its moves or more, a stalling line for all but its last few."""
    best, chosen = -1, []
    maximum = deal.rules.max_score
    played: dict[bool, tuple[list[Move], Position, Trace]] = {}  # prefer_low: the line played first with it, its end, its trace
    for prefer_low, patient, stall in GREEDY:
        if stall and not deal.standard:  # (Crowning Piece has no final round to stall for: of the 31 2p
            continue  # Avalanche deals of seeds 0-299, per seat, that the other lines lose, the twins won none)
        if prefer_low in played:
            first, first_end, trace = played[prefer_low]
            line, end = _branch(deal, first, trace, prefer_low, patient, stall) or (first, first_end)
        else:
            trace = []
            line, end = greedy_line(deal, root, prefer_low, patient, stall, trace)
            played[prefer_low] = line, end, trace
        score = deal.score(end)
        if score == maximum:
            return score, line
        target = bound()
        if score > best and (not (patient or stall) or score == target):
            best, chosen = score, line
        if best == target or (perfect and target < maximum):
            break
    return best, chosen
