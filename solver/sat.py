"""A CP-SAT model of a fully known deal, for the hard tail of the search.

The depth-first search proves most losses at once but can wander on a narrow
win or a loss with no short argument; a constraint model, solved with clause
learning, fails on other deals. The model asks the search's question: can the
team score at least `target` from the opening deal? (`solver.race` asks it,
the solvers racing.)

The game is unrolled over a fixed horizon of turns; turn `t` belongs to seat
`t % players`. Each turn is exactly one of: a hint, a play, a discard, a
misplay, or nothing (after the final round, or once won under Crowning Piece,
where hands shrink after the last draw and a hint needs a teammate's card).
Per turn and deck card, a boolean says the card is let go of (played or not);
per deck card and turn, a staircase of booleans says it has been drawn by then.
Every play, discard or misplay draws the next deck card while the deck lasts,
so hand sizes take care of themselves, and a card can only be let go of by the
seat that drew it, after the draw (the let-go booleans exist only for the cards
the seat to act can hold then).

Restrictions that lose no line (each proven where it is stated): misplays only
at 8 clue tokens and only with 2 strikes at most, as in `solver.model`. The
horizon is long enough for every line reaching the target (see `horizon`).
No card is drawn outside its window of turns (`solver.windows`: the clue
tokens bound the hints before each draw from both sides); this drops most of
the draw variables and decides some losses at once that clause learning finds
only after minutes (5-player Avalanche seed 839 dealt round-robin: 0.9 s).

The best line found so far (scoring less than the target) is given to the solver
as a hint (`Turns.hint`): its first dive starts from that line and repairs it.

A question may also ask for the best score between a `floor` and the target (a proven
bound): the model then maximizes the score, and a line found on the way is worth
having even when the time runs out before the model proves it the best.

The game may start from any position of the search (`root`, default the opening
deal): each card in hand is given a deck card it can be (a copy of the same card,
or any card that is trash by now, for a `TRASH`), and the other cards drawn are
out of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from deducer.settings import MAX_CLUES, MAX_STRIKES, Ending, Stuck
from solver import cpsat
from solver.endings import Heights
from solver.model import ANNOUNCE, DISCARD, HINT, MISPLAY, ONGOING, PLAY, TRASH, Deal, Move, Position
from solver.windows import drawn_by_now, question_windows

if TYPE_CHECKING:  # OR-Tools takes 0.25 s to import (`solver.cpsat`): only deals that reach the model pay for it
    from ortools.sat.python import cp_model


def applies(deal: Deal) -> bool:
    """True when the model covers the deal's rules: at least two cards in hand, a deck beyond the
    deal, and under Crowning Piece the default that a player who cannot act loses (no passes)."""
    rules = deal.rules
    crowning_ok = rules.ending is Ending.STANDARD or rules.stuck is Stuck.LOSE
    return crowning_ok and rules.hand_size >= 2 and deal.size > len(deal.deal_seats)


def horizon(deal: Deal, target: int, root: Position | None = None) -> int:
    """Turns enough for every line from `root` (default: the opening deal) that scores `target` (or more).

    Standard rules: plays, discards and misplays number at most D + P (D cards still to
    draw, then one turn each in the final round; or the turns left in a final round under way);
    Crowning Piece: at most the cards left in hands and deck (each act takes one out of the game).
    At least N of them are plays (N: `target` less the score at `root`). Every hint spends a clue
    token: C at `root` (8 at the start), one per discard, and one per 5 played (plus one per
    announced play with choreography). So hints number at most C + (acts - N) + suits (+ N).
    """
    root = deal.start() if root is None else root
    rules = deal.rules
    needed = max(0, target - sum(root[2]))
    acts = most_acts(deal, root)
    bonus = rules.suits + (needed if rules.choreography else 0)
    return acts + root[4] + max(0, acts - needed) + bonus


def most_acts(deal: Deal, root: Position | None = None) -> int:
    """The most plays, discards and misplays a game can have from `root` (see `horizon`)."""
    root = deal.start() if root is None else root
    drawn, final, hands = root[1], root[6], root[7]
    if deal.rules.ending is Ending.CROWNING:
        return deal.size - drawn + sum(len(hand) for hand in hands)
    if final >= 0:
        return final
    return deal.size - drawn + deal.rules.players


def holders(deal: Deal, root: Position) -> list[int | None]:
    """For each deck card drawn by `root`, the seat that holds it there (None: out of the game): each
    card in hand is matched to a drawn deck card of the same id, and a `TRASH` to a card already played
    or above a lost one (copies of one card are interchangeable, and so are such cards: the model can
    never play them). Not to a copy of the lost card itself (a suit's cap): all of them stay out of
    the game, or the model would play it."""
    drawn, fireworks, caps, hands = root[1], root[2], root[3], root[7]
    free: dict[int, list[int]] = {}
    for index in range(drawn):
        card = deal.deck[index]
        suit, rank = divmod(card, deal.rules.ranks)
        free.setdefault(TRASH if rank < fireworks[suit] or rank > caps[suit] else card, []).append(index)
    held: list[int | None] = [None] * drawn
    for seat, hand in enumerate(hands):
        for card in hand:
            held[free[card].pop()] = seat
    return held


class Stopped(Exception):
    """A build abandoned on request (the `stop` of `_build`, and of `solver.clauses.build`)."""


class Turns:
    """The variables of the unrolled game, and how to read a line back."""

    def __init__(self, size: int, horizon: int, never: cp_model.IntVar) -> None:
        self.size = size
        self.horizon = horizon
        self.never = never  # the constant false of every let-go variable left out (hinted once at most)
        self.let_go: list[list[cp_model.IntVar]] = []  # [t][i]: deck card i leaves its hand at turn t
        self.kind: list[dict[int, cp_model.IntVar]] = []  # [t][HINT / PLAY / DISCARD / MISPLAY / ANNOUNCE]

    def hint(self, m: cp_model.CpModel, deal: Deal, root: Position, line: list[Move]) -> None:
        """Give the solver `line` (from `root`) as a hint: the kind of each turn and the card let go of.

        A line scoring less than the target often shares most of its turns with one that reaches it:
        CP-SAT's first dive follows the hint and repairs it (5p Avalanche round-robin 629: 9.4 s -> 2.0 s)."""
        hands: list[list[int]] = [[] for _ in range(deal.rules.players)]  # the deck cards each seat holds
        for index, seat in enumerate(holders(deal, root)):
            if seat is not None:
                hands[seat].append(index)
        position = root
        for t, move in enumerate(line[: self.horizon]):
            kind, card = move
            for k, var in self.kind[t].items():
                m.add_hint(var, k == kind or (k == PLAY and kind == ANNOUNCE))
            if kind != HINT:
                seat, drawn, fireworks, caps = position[:4]
                hand = hands[seat]
                if card == TRASH:
                    index = next(i for i in hand if deal.trash(deal.deck[i], fireworks, caps))
                else:
                    index = next(i for i in hand if deal.deck[i] == card)
                hand.remove(index)
                if self.let_go[t][index] is not self.never:  # (a line below the target may leave its window)
                    m.add_hint(self.let_go[t][index], True)
                if drawn < deal.size:
                    hand.append(drawn)
            position = deal.play(position, move)

    def line(self, deal: Deal, root: Position, solver: cp_model.CpSolver) -> list[Move]:
        """The moves of the solution from `root`, up to the end of the game."""
        position = root
        moves: list[Move] = []
        for t in range(self.horizon):
            if deal.status(position) != ONGOING:
                break
            kind = next(k for k, var in self.kind[t].items() if k != ANNOUNCE and solver.boolean_value(var))
            if kind == HINT:
                move: Move = (HINT, -1)
            else:
                index = next(i for i in range(self.size) if solver.boolean_value(self.let_go[t][i]))
                card = deal.deck[index]
                if card not in position[7][position[0]]:
                    card = TRASH
                if kind == PLAY and solver.boolean_value(self.kind[t][ANNOUNCE]):
                    kind = ANNOUNCE
                move = (kind, card)
            moves.append(move)
            position = deal.play(position, move)
        return moves


def hinted(
    deal: Deal,
    target: int,
    root: Position,
    floor: int | None,
    ends: Sequence[Heights],
    line: list[Move] | None,
    stop: Callable[[], bool] | None = None,
) -> tuple[cp_model.CpModel, Turns]:
    """`_build`'s model, with `line` (if any) as the solver's hint."""
    model, turns = _build(deal, target, root, floor, ends, stop)
    if line:
        turns.hint(model, deal, root, line)
    return model, turns


def _build(
    deal: Deal,
    target: int,
    root: Position,
    floor: int | None = None,
    ends: Sequence[Heights] = (),
    stop: Callable[[], bool] | None = None,
) -> tuple[cp_model.CpModel, Turns]:
    """The model of "a line from `root` scoring at least `target`", or with a `floor`: "the best line
    scoring from `floor` to `target`" (standard rules only), or with `ends`: "a line whose fireworks
    end at one of these heights" (each summing to `target`, which no line beats: `solver.endings`).
    `stop`, asked before each turn is unrolled (about a millisecond each), abandons the build
    (`Stopped`)."""
    cpsat.load()
    from ortools.sat.python import cp_model

    rules = deal.rules
    players, ranks = rules.players, rules.ranks
    deck, size = deal.deck, deal.size
    first, drawn, fireworks, _, root_clues, root_strikes, final, hands = root
    cards = rules.suits * ranks
    crowning = rules.ending is Ending.CROWNING
    if crowning:
        target = rules.max_score  # all or nothing
    least = target if floor is None else floor
    horizon_ = horizon(deal, least, root)
    m = cp_model.CpModel()
    true = m.new_constant(1)
    false = m.new_constant(0)
    turns = Turns(size, horizon_, false)
    copies = deal.places  # [card]: its deck positions

    # drawn_before[t][i]: deck card i has been drawn before turn t (so drawn_before[0] is the root's).
    drawn_before: list[list[cp_model.IntVar]] = [[true if i < drawn else false for i in range(size)]]
    # done_before[t][c]: card c has been played before turn t.
    done_before: list[list[cp_model.IntVar]] = [[true if c % ranks < fireworks[c // ranks] else false for c in range(cards)]]
    clues_before: cp_model.IntVar | int = root_clues
    strikes_before: cp_model.IntVar | int = root_strikes
    owner = [[m.new_bool_var(f"own{i}_{p}") for p in range(players)] for i in range(size)]
    holder = holders(deal, root)
    for i, seat in enumerate(holder):  # (a card out of the game has no owner)
        for p in range(players):
            m.add(owner[i][p] == int(seat == p))
    for i in range(drawn, size):
        m.add_at_most_one(owner[i])
    draws_at: list[list[list[cp_model.IntVar]]] = [[[] for _ in range(players)] for _ in range(size)]
    pace = max(0, most_acts(deal, root) - (least - sum(fireworks)))
    windows = question_windows(deal, root, pace, ends)  # the turns on which each deck card can be drawn
    # Crowning Piece: cards each seat has let go of since the deck ran out (its hand was full then).
    emptied: list[cp_model.IntVar | int] = [rules.hand_size - len(hand) if drawn == size else 0 for hand in hands]
    for t in range(horizon_):
        if stop is not None and stop():
            raise Stopped("the build was stopped")
        seat = (first + t) % players
        exhausted = drawn_before[t][size - 1]
        over: cp_model.IntVar
        if crowning:  # over: every firework is complete
            over = m.new_bool_var(f"won{t}")
            m.add_bool_and(done_before[t]).only_enforce_if(over)
            m.add_bool_or([over, *(var.Not() for var in done_before[t])])
        elif final >= 0:  # a final round under way at the root: `final` turns left
            over = true if t >= final else false
        elif t - players - 1 >= 0:  # over: the last card was drawn at turn t - players - 1 or before
            over = drawn_before[t - players][size - 1]
        else:
            over = false
        kind = {k: m.new_bool_var(f"k{t}_{k}") for k in (HINT, PLAY, DISCARD, MISPLAY, ANNOUNCE)}
        act = m.new_bool_var(f"act{t}")
        m.add(kind[PLAY] + kind[DISCARD] + kind[MISPLAY] == act)
        m.add(kind[HINT] + act + over == 1)
        if not rules.choreography:
            m.add(kind[ANNOUNCE] == 0)
        else:
            m.add_implication(kind[ANNOUNCE], kind[PLAY])
        if crowning:
            # Hands shrink once the deck is out; a hint must touch a teammate's card (or be empty).
            late = m.new_bool_var(f"late{t}")
            m.add_bool_and([act, exhausted]).only_enforce_if(late)
            m.add_bool_or([late, act.Not(), exhausted.Not()])
            holding = []
            for other in range(players):
                if other != seat:
                    holds = m.new_bool_var(f"h{t}_{other}")
                    m.add(emptied[other] <= rules.hand_size - 1).only_enforce_if(holds)
                    holding.append(holds)
            if not rules.empty_hints:
                m.add_bool_or(holding).only_enforce_if(kind[HINT])
            count = m.new_int_var(0, rules.hand_size, f"e{t}")
            m.add(count == emptied[seat] + late)
            emptied[seat] = count
        # Only a card this seat can hold is let go of: one of its cards at `root`, or one it drew on a
        # turn of its own before this one, within the card's window.
        held = [i for i in range(size) if (holder[i] == seat if i < drawn else drawn_by_now(windows[i], t, players))]
        let_go = [false] * size
        played = [false] * size
        for i in held:
            let_go[i] = m.new_bool_var(f"u{t}_{i}")
            played[i] = m.new_bool_var(f"p{t}_{i}")
            m.add_implication(played[i], let_go[i])
            if i >= drawn:
                m.add_implication(let_go[i], owner[i][seat])
                m.add_implication(let_go[i], drawn_before[t][i])
        m.add(sum(let_go[i] for i in held) == act)
        m.add(sum(played[i] for i in held) == kind[PLAY])
        # Draws: the next deck card, on every play, discard or misplay while the deck lasts.
        drawn_now = []
        new_drawn: list[cp_model.IntVar] = []
        for i in range(size):
            if t not in windows[i]:  # (an empty window for the cards drawn by the root)
                new_drawn.append(false if t < windows[i].start else drawn_before[t][i])
                drawn_now.append(false)
                continue
            step = m.new_bool_var(f"d{t}_{i}")
            now = m.new_bool_var(f"dn{t}_{i}")
            m.add(step == drawn_before[t][i] + now)
            if i > drawn:
                m.add_implication(step, new_drawn[i - 1])
            draws_at[i][seat].append(now)
            new_drawn.append(step)
            drawn_now.append(now)
        m.add(sum(drawn_now) <= act)
        m.add(sum(drawn_now) >= 1).only_enforce_if([act, exhausted.Not()])
        drawn_before.append(new_drawn)
        # Fireworks: a card is played only onto the rank below it, once.
        before = done_before[t]
        after: list[cp_model.IntVar] = []
        for card in range(cards):
            now_played = [played[i] for i in copies[card]]
            state = m.new_bool_var(f"f{t}_{card}")
            m.add(state == before[card] + sum(now_played))
            after.append(state)
            if card % ranks:
                for var in now_played:
                    m.add_implication(var, before[card - 1])
            # No misplay of a playable card (without choreography: playing it is the only way).
            if not rules.choreography:
                for i in (i for i in copies[card] if i in held):
                    below = [before[card - 1].Not()] if card % ranks else []
                    m.add_bool_or([let_go[i].Not(), kind[MISPLAY].Not(), before[card], *below])
        done_before.append(after)
        # Clue tokens and strikes.
        clues = m.new_int_var(0, MAX_CLUES, f"c{t}")
        fives = sum(played[i] for i in range(size) if deck[i] % ranks == ranks - 1)
        at_cap = m.new_bool_var(f"cap{t}")
        m.add(clues == clues_before - 1).only_enforce_if(kind[HINT])
        m.add(clues == clues_before + 1).only_enforce_if(kind[DISCARD])
        m.add(clues == clues_before).only_enforce_if(kind[MISPLAY])
        m.add(clues_before == MAX_CLUES).only_enforce_if(kind[MISPLAY])
        m.add(clues == clues_before).only_enforce_if(over)
        m.add(clues == clues_before + fives + kind[ANNOUNCE]).only_enforce_if([kind[PLAY], at_cap.Not()])
        m.add(clues == MAX_CLUES).only_enforce_if(at_cap)
        m.add(clues <= clues_before + fives + kind[ANNOUNCE]).only_enforce_if(kind[PLAY])
        m.add_implication(at_cap, kind[PLAY])
        strikes = m.new_int_var(0, MAX_STRIKES - 1, f"s{t}")
        m.add(strikes == strikes_before + kind[MISPLAY])
        clues_before, strikes_before = clues, strikes
        turns.let_go.append(let_go)
        turns.kind.append(kind)
    for i in range(drawn, size):
        for p in range(players):
            m.add(owner[i][p] == sum(draws_at[i][p]))
    for i in range(size):
        m.add(sum(turns.let_go[t][i] for t in range(horizon_)) <= 1)
    # Pace: at most `most_acts` cards leave the hands, and those still needed for `least` are played.
    m.add(sum(kind[DISCARD] + kind[MISPLAY] for kind in turns.kind) <= pace)
    final_done = done_before[-1]
    choices = [m.new_bool_var(f"end{k}") for k in range(len(ends))] if len(ends) > 1 else [true] * len(ends)
    if len(choices) > 1:
        m.add_exactly_one(choices)
    for heights, chosen in zip(ends, choices):
        for card, var in enumerate(final_done):
            m.add(var == int(card % ranks < heights[card // ranks])).only_enforce_if(chosen)
    if floor is not None:
        m.add_linear_constraint(sum(final_done), floor, target)
        m.maximize(sum(final_done))
    elif target >= cards:
        for var in final_done:
            m.add(var == 1)
    else:
        m.add(sum(final_done) >= target)
    return m, turns
