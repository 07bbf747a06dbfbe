"""The constraint model's question as plain clauses, for a SAT solver (CaDiCaL or Kissat, in a child
process: `solver.cadical`; Glucose's glances: `solver.glance`).

The same unrolled game as `solver.sat` (read it first: turns, let-go and draw booleans, the draw
windows, the restrictions that lose no line), with every counter made boolean: the clue tokens one
of nine values per turn (or a ladder, as the reference SAT encoding has them: `build`'s `ladder`,
on which Glucose asks its questions without endings: `solver.glance`), the sums at most one
(pairwise, or PySAT's sequential counter), the pace and strikes PySAT's cardinality encodings.
CP-SAT, solving its own model, and CaDiCaL, solving these clauses, fail on different deals: on the
deals that took our solver longest, CaDiCaL refuted 30 on 5p Avalanche round-robin 8240 in 2.6 s
(CP-SAT: undecided after 40 s without its linear relaxation) and found the 30 of 3p Avalanche
round-robin 8071 in 85 s (CP-SAT: undecided after 180 s); it does worse on others (see
`solver.race.Question`, where CaDiCaL races CP-SAT). With three players, Kissat on the ladder races
in its place (`RIVALS`).

Standard rules without Timed Choreography only (`applies`), and no floor: a question for a
`target` (or for one of the `ends`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from deducer.settings import MAX_CLUES, MAX_STRIKES, Ending
from solver import cadical, sat
from solver.collector import paused
from solver.endings import Heights
from solver.model import DISCARD, HINT, MISPLAY, ONGOING, PLAY, TRASH, Deal, Move, Position
from solver.sat import Stopped, holders, horizon, most_acts
from solver.windows import drawn_by_now, question_windows

if TYPE_CHECKING:
    from pysat.formula import CNFPlus

PAIRWISE = 6  # at most one of this many literals or fewer: pairwise clauses, beyond: a sequential counter


def applies(deal: Deal) -> bool:
    """True when the clauses cover the deal's rules: standard rules without Timed Choreography (and
    what `solver.sat.applies` asks)."""
    rules = deal.rules
    return rules.ending is Ending.STANDARD and not rules.choreography and sat.applies(deal)


@dataclass(frozen=True)
class Encoding:
    """A question's clauses, and how to read a line back from a model (a set of true variables)."""

    clauses: list[list[int]]
    kinds: list[tuple[int, int, int, int]]  # [t]: the variables of a hint, play, discard, misplay
    let_go: list[dict[int, int]]  # [t][i]: deck card i leaves its hand at turn t (absent: it cannot)

    def line(self, deal: Deal, root: Position, true: set[int]) -> list[Move]:
        """The moves of a solution from `root` (`true`: its true variables), up to the end of the game."""
        position = root
        moves: list[Move] = []
        for t, (hint, play, discard, _) in enumerate(self.kinds):
            if deal.status(position) != ONGOING:
                break
            if hint in true:
                move: Move = (HINT, -1)
            else:
                index = next(i for i, var in self.let_go[t].items() if var in true)
                card = deal.deck[index]
                if card not in position[7][position[0]]:
                    card = TRASH
                move = (PLAY if play in true else DISCARD if discard in true else MISPLAY, card)
            moves.append(move)
            position = deal.play(position, move)
        return moves


class _Builder:
    """Fresh variables and clauses, with the few shapes the model needs."""

    def __init__(self) -> None:
        self.top = 0  # the last variable handed out
        self.clauses: list[list[int]] = []
        self.true: int = self.new()
        self.clauses.append([self.true])

    def new(self) -> int:
        """A fresh variable."""
        self.top += 1
        return self.top

    def at_most_one(self, lits: Sequence[int]) -> None:
        if len(lits) <= PAIRWISE:
            self.clauses.extend([-a, -b] for k, a in enumerate(lits) for b in lits[k + 1 :])
        else:
            self.at_most(lits, 1)

    def at_most(self, lits: Sequence[int], bound: int) -> None:
        if bound <= 0:
            self.clauses.extend([-lit] for lit in lits)
        elif bound == 1 and len(lits) > 2:  # (of two, PySAT writes one clause)
            self._counter_of_one(lits)
        elif bound < len(lits):
            from pysat.card import CardEnc, EncType  # (PySAT takes 0.1 s to import: only the deals that reach it pay)

            self._add(CardEnc.atmost(list(lits), bound, top_id=self.top, encoding=EncType.seqcounter))

    def _counter_of_one(self, lits: Sequence[int]) -> None:
        """At most one of `lits` (three or more): PySAT's sequential counter for a bound of one, clause
        for clause and variable for variable (`tests.test_clauses`), written out here in a third of
        the time. Its fresh variable `top + i` says one of the first i literals is true."""
        top, n = self.top, len(lits)
        self.top += n - 1
        add = self.clauses.append
        add([-lits[0], top + 1])
        for i in range(1, n - 1):
            before, lit = top + i, -lits[i]
            add([-before, before + 1])
            add([lit, -before])
            add([lit, before + 1])
        add([-lits[-1], -(top + n - 1)])

    def at_least(self, lits: Sequence[int], bound: int) -> None:
        """At least `bound` of `lits` (PySAT's sequential counter)."""
        from pysat.card import CardEnc, EncType

        self._add(CardEnc.atleast(list(lits), bound, top_id=self.top, encoding=EncType.seqcounter))

    def _add(self, encoded: CNFPlus) -> None:
        self.clauses.extend(encoded.clauses)
        self.top = max(self.top, encoded.nv)

    def same_as_any(self, var: int, lits: Sequence[int]) -> None:
        """`var` is true exactly when one of `lits` is."""
        self.clauses.append([-var, *lits])
        self.clauses.extend([[-lit, var] for lit in lits])

    def one_of(self, lits: Sequence[int]) -> None:
        self.clauses.append(list(lits))
        self.at_most_one(lits)


@paused()
def build(
    deal: Deal,
    target: int,
    root: Position | None = None,
    ends: Sequence[Heights] = (),
    stop: Callable[[], bool] | None = None,
    ladder: bool = False,
) -> Encoding:
    """The clauses of "a line from `root` (default: the opening deal) scoring at least `target`", or
    with `ends`: "a line whose fireworks end at one of these heights" (`solver.sat._build`, whose
    constraints these mirror one for one, in the same order). `stop`, asked at every turn of the
    unrolled game, abandons the build (`Stopped`). `ladder`: the clue tokens as a ladder (`_ladder`)
    rather than one of nine values (`_values`, the solver's)."""
    root = deal.start() if root is None else root
    rules = deal.rules
    players, ranks = rules.players, rules.ranks
    deck, size = deal.deck, deal.size
    first, drawn, fireworks, _, root_clues, root_strikes, final, _ = root
    cards = rules.suits * ranks
    horizon_ = horizon(deal, target, root)
    b = _Builder()
    true, false = b.true, -b.true
    copies = deal.places

    drawn_before = [true if i < drawn else false for i in range(size)]
    drawn_history = [drawn_before]
    done_before = [true if c % ranks < fireworks[c // ranks] else false for c in range(cards)]
    if ladder:
        clues_before = [true if v < root_clues else false for v in range(MAX_CLUES)]
    else:
        clues_before = [true if v == root_clues else false for v in range(MAX_CLUES + 1)]
    owner = [[b.new() for _ in range(players)] for _ in range(size)]
    holder = holders(deal, root)
    for i, seat in enumerate(holder):
        b.clauses.extend([owner[i][p] if seat == p else -owner[i][p]] for p in range(players))
    for i in range(drawn, size):
        b.at_most_one(owner[i])
    draws_at: list[list[list[int]]] = [[[] for _ in range(players)] for _ in range(size)]
    pace = max(0, most_acts(deal, root) - (target - sum(fireworks)))
    windows = question_windows(deal, root, pace, ends)
    kinds: list[tuple[int, int, int, int]] = []
    let_goes: list[dict[int, int]] = []
    for t in range(horizon_):
        if stop is not None and stop():
            raise Stopped("the build was stopped")
        seat = (first + t) % players
        exhausted = drawn_before[size - 1]
        if final >= 0:
            over = true if t >= final else false
        elif t - players - 1 >= 0:
            over = drawn_history[t - players][size - 1]
        else:
            over = false
        hint, play, discard, misplay, act = (b.new() for _ in range(5))
        b.same_as_any(act, [play, discard, misplay])
        b.at_most_one([play, discard, misplay])
        b.one_of([hint, act, over])
        held = [i for i in range(size) if (holder[i] == seat if i < drawn else drawn_by_now(windows[i], t, players))]
        let_go = {i: b.new() for i in held}
        played = {i: b.new() for i in held}
        for i in held:
            b.clauses.append([-played[i], let_go[i]])
            if i >= drawn:
                b.clauses.append([-let_go[i], owner[i][seat]])
                b.clauses.append([-let_go[i], drawn_before[i]])
        b.same_as_any(act, list(let_go.values()))
        b.at_most_one(list(let_go.values()))
        b.same_as_any(play, list(played.values()))
        # Draws: the next deck card, on every play, discard or misplay while the deck lasts.
        drawn_now: list[int] = []
        drawn_after: list[int] = []
        for i in range(size):
            if t not in windows[i]:
                drawn_after.append(false if t < windows[i].start else drawn_before[i])
                continue
            step, now = b.new(), b.new()
            b.same_as_any(step, [drawn_before[i], now])
            b.clauses.append([-drawn_before[i], -now])
            if i > drawn:
                b.clauses.append([-step, drawn_after[i - 1]])
            draws_at[i][seat].append(now)
            drawn_after.append(step)
            drawn_now.append(now)
        b.clauses.extend([-now, act] for now in drawn_now)
        b.at_most_one(drawn_now)
        b.clauses.append([-act, exhausted, *drawn_now])
        drawn_before = drawn_after
        drawn_history.append(drawn_before)
        # Fireworks: a card is played only onto the rank below it, once; no misplay of a playable card.
        done_after: list[int] = []
        for card in range(cards):
            now_played = [played[i] for i in copies[card] if i in played]
            if not now_played:
                done_after.append(done_before[card])
                continue
            state = b.new()
            b.same_as_any(state, [done_before[card], *now_played])
            b.at_most_one([done_before[card], *now_played])
            done_after.append(state)
            below = [-done_before[card - 1]] if card % ranks else []
            if card % ranks:
                b.clauses.extend([-var, done_before[card - 1]] for var in now_played)
            b.clauses.extend([-let_go[i], -misplay, done_before[card], *below] for i in copies[card] if i in let_go)
        done_before = done_after
        # Clue tokens: one less after a hint, one more after a discard, one more after a 5 played (at
        # most 8), the same after a misplay (at 8 tokens only) or once the game is over.
        fives = [played[i] for i in held if deck[i] % ranks == ranks - 1]
        clues_before = (_ladder if ladder else _values)(b, clues_before, hint, play, discard, misplay, over, fives)
        kinds.append((hint, play, discard, misplay))
        let_goes.append(let_go)
    for i in range(drawn, size):
        for p in range(players):
            b.same_as_any(owner[i][p], draws_at[i][p])
    for i in range(size):
        b.at_most_one([let_go[i] for let_go in let_goes if i in let_go])
    misplays = [kind[3] for kind in kinds]
    b.at_most(misplays, MAX_STRIKES - 1 - root_strikes)
    b.at_most([kind[2] for kind in kinds] + misplays, pace)
    choices = [b.new() for _ in ends] if len(ends) > 1 else [true] * len(ends)
    if len(choices) > 1:
        b.one_of(choices)
    for heights, chosen in zip(ends, choices):
        for card, var in enumerate(done_before):
            b.clauses.append([-chosen, var if card % ranks < heights[card // ranks] else -var])
    if target >= cards:
        b.clauses.extend([var] for var in done_before)
    elif not ends:
        b.at_least(done_before, target)
    return Encoding(b.clauses, kinds, let_goes)


def _values(
    b: _Builder, before: list[int], hint: int, play: int, discard: int, misplay: int, over: int, fives: list[int]
) -> list[int]:
    """The clue tokens after a turn, as one of nine values (`before[v]`: v tokens before it; `fives`:
    the turn's plays of a 5)."""
    after = [b.new() for _ in range(MAX_CLUES + 1)]
    b.one_of(after)
    five = b.new()  # (numbered after the tokens, here and in `_ladder`: the solver's clauses as they were)
    b.same_as_any(five, fives)
    for v, was in enumerate(before):
        if was == -b.true:
            continue
        b.clauses.append([-was, -hint, after[v - 1]] if v else [-was, -hint])
        b.clauses.append([-was, -discard, after[v + 1]] if v < MAX_CLUES else [-was, -discard])
        b.clauses.append([-was, -misplay, after[v]] if v == MAX_CLUES else [-was, -misplay])
        b.clauses.append([-was, -over, after[v]])
        b.clauses.append([-was, -play, five, after[v]])
        b.clauses.append([-was, -play, -five, after[min(v + 1, MAX_CLUES)]])
    return after


def _ladder(
    b: _Builder, before: list[int], hint: int, play: int, discard: int, misplay: int, over: int, fives: list[int]
) -> list[int]:
    """The clue tokens after a turn, as a ladder (`before[v]`: more than v tokens before it), as the
    reference SAT encoding has them: a hint steps down, a discard or a 5 played up (at most 8), any
    other turn stays. With it, each SAT solver decides some questions far sooner and others far later
    (`bench_members.py --ladder` times both; Glucose refutes 30 on 5p Avalanche round-robin 8329 in
    47,371 conflicts instead of 115,333, and has not found per seat 3785's 30 after 190,000 instead of
    114,920): CaDiCaL solves the nine values, and Glucose's anchored glance, racing it, asks its whole
    question on the ladder (`solver.glance.Anchors`)."""
    del over  # (no hint, no card let go: the tokens stay)
    after = [b.new() for _ in range(MAX_CLUES)]
    b.clauses.extend([-after[v + 1], after[v]] for v in range(MAX_CLUES - 1))
    five = b.new()
    b.same_as_any(five, fives)
    gain = b.new()  # a discard, or a 5 played
    b.clauses.extend([[-discard, gain], [-play, -five, gain], [-gain, discard, play], [-gain, discard, five]])
    more = [b.true, *before, -b.true]  # more[v + 1]: more than v tokens before the turn
    b.clauses.extend([[-hint, more[1]], [-discard, -more[MAX_CLUES]], [-misplay, more[MAX_CLUES]]])
    for v, now in enumerate(after):
        b.clauses.append([-hint, -more[v + 2], now])
        b.clauses.append([-hint, more[v + 2], -now])
        b.clauses.append([-gain, -more[v], now])
        b.clauses.append([-gain, more[v], -now])
        b.clauses.append([hint, gain, -more[v + 1], now])
        b.clauses.append([hint, gain, more[v + 1], -now])
        b.clauses.append([-more[v + 2], now])  # (at most one less, at most one more: implied, and kept)
        b.clauses.append([-now, more[v]])
    return after


# The rival's SAT solver (PySAT's name) and whether it asks on the ladder, by the number of players
# (others: CaDiCaL on the nine values). With three, Kissat on the ladder, from the start of the model's
# first question, where CP-SAT's first configuration yields at once (`solver.questions.ask`; its model is
# not even built: `solver.race.Question`): Kissat and Glucose's anchored glance have a core each. In a
# trace of round-robin 3989, the question took 1.92 s with the model built, 1.34 s without (Kissat
# starts about 0.35 s sooner). Alone on the model's first question (`bench_members.py
# --kissat --ladder`, 20 s each), Kissat found the 30 of 3p Avalanche per seat 8071 in 2.4 s and
# round-robin 8071 in 4.0 s, where CaDiCaL (on either encoding) is undecided; round-robin 3989 1.5
# against 1.4-1.6 s, 1581 2.2 against 0.7 s. Those are the only three-player questions among the slow
# deals and seeds 0-4499 of 3p Avalanche (both deal orders; none among 4,000 deals of 3p base): the
# others are decided before the model joins. In the solver (`bench_hard.py --against`, alternating deal
# by deal, two runs): per seat 8071 15.4 / 17.5 -> 4.3 / 4.4 s, round-robin 8071 7.7 / 6.4 -> 5.5 /
# 5.4 s, 1581 0.8 either way, 3989 2.1 -> 2.6-2.7 s. (Kissat in CaDiCaL's place alone, joining
# when CaDiCaL did: per seat 8071 17.4 -> 8.6 s; from the start, beside CP-SAT's first configuration
# for its share: 5.2-6.5 s.) With four or five players Kissat does no better than CaDiCaL: on the
# 19 four-player first questions of the mid set, CaDiCaL 47.3 s in all, Kissat on the nine values 47.6
# s, on the ladder 64.8 s (round-robin 1208 and per seat 301 undecided at 20 s); on the slow deals, on
# the ladder 4p per seat 1730 7.5 against 2.3 s, 5p per seat 3785 40 against 15-17 s (but 5p
# round-robin 3785 5.4 s, undecided by CaDiCaL), on the nine values 4p round-robin 3168 4.0 against 1.9 s.
# With five, Kissat on the ladder alone beats CaDiCaL on the 44 first questions of the mid set (66.9
# against 101.3 s in all, 20 s each) and the 9 of the slow set (97.5 against 109.9 s), but in the solver,
# joining when CaDiCaL does, the 70 five-player deals of both sets took 112.4 s against 102.3 (CP-SAT
# and the glances decide most of them first; per seat 3785, which only CaDiCaL decides, 20.9 s ->
# undecided at 30 s), so five players keep CaDiCaL.
RIVALS: dict[int, tuple[str, bool]] = {3: (cadical.KISSAT, True)}


class Rival:
    """CaDiCaL (or Kissat: `RIVALS`) solving the clauses of one question (`build`) in a child process
    (`solver.cadical`), started at once. It may outlive a `solver.race.Question` it races, and race the
    next ones on the same question (`solver.questions.ask`): neither solver has a seed to vary, and a
    restart would lose what it learnt."""

    def __init__(
        self, deal: Deal, target: int, root: Position | None = None, ends: Sequence[Heights] = (), seconds: float | None = None
    ) -> None:
        self.target = target
        self.ends = tuple(ends)
        solver, ladder = RIVALS.get(deal.rules.players, (cadical.SOLVER, False))
        self.encoding = build(deal, target, root, ends, ladder=ladder)
        self.run = cadical.Run(self.encoding.clauses, seconds, solver)
