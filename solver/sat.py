"""A CP-SAT model of a fully known deal, for the hard tail of the search.

The depth-first search proves most losses at once but can wander on a narrow
win or a loss with no short argument; a constraint model, solved with clause
learning, fails on other deals. `reach` asks the model the search's question:
can the team score at least `target` from the opening deal?

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
as a hint (`_Turns.hint`): its first dive starts from that line and repairs it.

A question may also ask for the best score between a `floor` and the target (a proven
bound): the model then maximizes the score, and a line found on the way is worth
having even when the time runs out before the model proves it the best.

The game may start from any position of the search (`root`, default the opening
deal): each card in hand is given a deck card it can be (a copy of the same card,
or any card that is trash by now, for a `TRASH`), and the other cards drawn are
out of the game.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from deducer.settings import MAX_CLUES, MAX_STRIKES, Ending, Stuck
from solver import cpsat
from solver.endings import Heights
from solver.model import ANNOUNCE, DISCARD, HINT, MISPLAY, ONGOING, PLAY, TRASH, Deal, Move, Position
from solver.search import OutOfBudget
from solver.windows import drawn_by_now, question_windows

if TYPE_CHECKING:  # OR-Tools takes 0.25 s to import (`solver.cpsat`): only deals that reach the model pay for it
    from ortools.sat.python import cp_model

    from solver.clauses import Rival
    from solver.glance import Glance


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


def reach(deal: Deal, target: int, seconds: float | None = None, root: Position | None = None) -> list[Move] | None:
    """A line from `root` (default: the opening deal) scoring at least `target`, or None if there is none.

    Raises `OutOfBudget` when `seconds` run out first. Only for deals that `applies` accepts."""
    question = Question(deal, target, seconds, root)
    question.run()
    return question.answer()


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


class Question:
    """One question to the model ("a line scoring at least `target`?"), solvable in a thread.

    The model is built in the calling thread: built in the background, its many small calls into
    OR-Tools would wait on the interpreter lock behind a busy search (measured: 8x slower). CP-SAT
    releases the lock while it solves, so the search in the main thread goes on at full speed. (The
    one exception: a racing configuration told the endings, whose model is built in the background
    once the first solver has begun, the search waiting.)

    A question may `race`: a second solver without the linear relaxation (`linearization_level` 0) races
    the first, in its own thread, for the question's whole time (unless CaDiCaL takes its place, below);
    the first to decide the question stops the other. Neither is the faster on every deal, and CP-SAT's
    time on a question varies severalfold with its seed, so the pair is much better than either: on the
    22 model-bound wins of the slowest deals of 4p/5p Avalanche (10 s each, seed 1, the search's line as
    the hint), 28.7 s in all and 6.8 s at most for the usual configuration, 25.6 and 4.0 s for the
    other, 18.1 and 3.7 s for the pair (4p round-robin 1581: 6.8 and 1.9 s alone). (CP-SAT's own
    portfolio of two workers took 27.0 s, 4.2 s at most.)

    A raced question told its endings (`solver.endings`) is asked both ways: as it is by the usual
    configuration, and told the endings by the other. On the 18 losses of 4p/5p Avalanche where the
    model was told endings (the 94 slowest deals of the benchmarks' sets, seed 1, the search's line
    as the hint), told its endings the model decided 5p round-robin 744 (3.0 s, undecided as it is)
    and 4p per seat 301 (1.1 s against 9.9), and as it is 4p round-robin 839 (0.3 s against 2.3):
    the pair took 3.0 s at most, 9.9 s in all.

    CaDiCaL may race too (`rival`), in the other configuration's place: the same question as plain
    clauses (`solver.clauses`), told the endings, solved in a child process (`solver.cadical`) that
    may go on from one question to the next (the question ends with its own time, not the child's).
    It fails on other deals than CP-SAT does, refutations above all: alone on the first question, on
    the slowest deals of fresh seeds, 5p Avalanche round-robin 8240 at 30 in 2.6 s and 8329 in 8.6 s,
    4p per seat 3236 at 28 in 0.04 s, 5p round-robin 744 at 28 in 8.6 s (both CP-SAT configurations
    undecided after 30-40 s on all but 3236: 0.4-0.8 s); but 5p per seat 3785, a win, over 30 s (14.7
    s without the LP). With a floor, it races for the target itself: its line decides the question
    (no line beats the target), and its proof that no line reaches the target (`target_refuted`)
    leaves the question below it undecided, and the target out of reach.

    Glucose's anchored glance (`solver.glance`) may race too, as a third racer: it looks for a line
    that begins as the best line found does, then may ask the whole question (`Anchors.whole`); a
    line it finds decides the question, and so does its refutation (with a floor, it refutes the
    target, as CaDiCaL's does)."""

    def __init__(
        self,
        deal: Deal,
        target: int,
        seconds: float | None = None,
        root: Position | None = None,
        line: list[Move] | None = None,
        seed: int = 1,
        floor: int | None = None,
        race: bool = False,
        ends: Sequence[Heights] = (),
        rival: Callable[[], Rival] | None = None,
        rival_after: float = 0.0,
        glance: Glance | None = None,
        anchored: Glance | None = None,
        anchored_after: float = 0.0,
        first_for: float | None = None,
    ) -> None:
        """`line`, a line from `root` (the best found so far), is where the solver starts looking;
        `seed` is CP-SAT's random seed. With a `floor` below `target` (standard rules), the question
        is the best score from `floor` up to `target`, which no line may beat (see `answer`).
        `race`: rivals race the first configuration (see the class): the other configuration (not
        with a `floor`), and CaDiCaL's run on this question (for `target`, told `ends`) if `rival` is
        given: called once the other configuration has spent `rival_after` of CP-SAT's deterministic
        time undecided (its unit of work: the same on a busy or a slow machine as on an idle one), it
        returns the run (started then, or already running), which races for the rest of the
        question's time and is left running. It takes the other configuration's place: with
        `rival_after` 0, the other never starts; otherwise the other stops after that much work.
        `ends` (standard rules): the question is a line whose fireworks end at one of these heights,
        each summing to `target`, which no line may beat (`solver.endings`); with a `floor`, only
        CaDiCaL's (its question is the target).
        `glance`: Glucose's glance (`solver.glance`), already running; if it is at this very question
        (the target, told `ends`) and the pair races, it keeps the other configuration's place until
        it has had its lead (`led`: its conflicts spent; at once if it has spent them already): its
        answer counts if it decides first; if not, it is stopped, and the other configuration starts.
        The models' builds hear it: one that it decides during stops there (`_unless_glanced`).
        Otherwise the caller stops it.
        `anchored`: Glucose's anchored glance (a `solver.glance.Glance` given `anchors`) at lines
        reaching `target` that begin as the best line found (then at the whole question, for the
        target, told `ends`, if its anchors say so): started once the question has run
        `anchored_after` seconds undecided (unless an earlier question started it), it races for the
        rest of the question's time and is left running (a line it finds decides the question, and
        so does its proof that none exists, as CaDiCaL's does). The caller stops it.
        `first_for`: the first configuration's own work (CP-SAT's deterministic time), if it is to
        stop before the question's time is up: it stops then, and the rivals race on (only where
        CaDiCaL races: see `solver.questions.ask`); with 0 and no pair racing, CP-SAT takes no part."""
        cpsat.load()
        from ortools.sat.python import cp_model

        if not applies(deal):
            raise ValueError("the constraint model needs two or more cards in hand, and no passing (stuck=pass)")
        self.deal = deal
        self.target = target
        self.floor = floor if floor is not None and floor < target and deal.rules.ending is Ending.STANDARD else None
        self.root = deal.start() if root is None else root
        self._seconds = seconds
        self.done = threading.Event()
        ends = ends if deal.rules.ending is Ending.STANDARD else ()
        # The pair of configurations races unless CaDiCaL races from the start (in the other's place).
        racing = race and self.floor is None and (rival is None or rival_after > 0)
        # Each solver's model, and how to read its line: the first is told the endings only when it has no
        # rival (which is told them) and no floor.
        told = not race and self.floor is None
        self._starter = rival if race else None  # CaDiCaL's (see `__init__`)
        # Where the first configuration would yield at once (`first_for` 0) to a rival racing from the
        # start, and no pair races, CP-SAT takes no part: its model is not built (0.25 s on 3p Avalanche,
        # in this thread, before the rival could start).
        idle = first_for is not None and first_for <= 0 and self._starter is not None and not racing
        # Glucose's glance at this very question, already running: in a racing pair, it keeps the
        # other configuration's place until it has had its lead.
        self._glance = glance if glance is not None and racing and (glance.target, glance.ends) == (target, tuple(ends)) else None
        first = None if idle else self._unless_glanced(self.floor, ends if told else (), line)
        self._models = [] if first is None else [first]
        self._rival: Rival | None = None  # CaDiCaL, once racing for the target (told its endings)
        self._true: set[int] | None = None  # CaDiCaL's solution, when it decided the question first
        self._began = 0.0  # when `run` began
        self.target_refuted = False  # CaDiCaL (or the anchored glance) proved that no line reaches the target (see the class)
        self._solver = cp_model.CpSolver()
        self._solver.parameters.num_workers = 1
        self._solver.parameters.random_seed = seed
        self._solver.parameters.cp_model_probing_level = 0  # probing took most of the time on hard deals
        # One round of presolve, not three: the later rounds found almost nothing more and took a third
        # of the time of a win at 5p Avalanche (13 model-bound deals: 60.8 s -> 31.8 s in all).
        self._solver.parameters.max_presolve_iterations = 1
        # No inprocessing (the periodic clause vivification and probing): our questions are answered
        # in seconds, too soon for it to pay back (12 model-bound wins of 4p/5p Avalanche: 38 s -> 23 s).
        self._solver.parameters.use_sat_inprocessing = False
        # A Ctrl-C is the program's, not the model's: CP-SAT's own handler, once a solve had run, left
        # SIGINT killing the process outright (no "interrupted", no cleanup: CaDiCaL's child lived on).
        self._solver.parameters.catch_sigint_signal = False
        if seconds is not None:
            self._solver.parameters.max_time_in_seconds = max(0.01, seconds)
        self._solvers = [] if idle else [self._solver]
        if racing:
            other = cp_model.CpSolver()
            other.parameters.copy_from(self._solver.parameters)
            other.parameters.linearization_level = 0
            self._solvers.append(other)
            if self._starter is not None:  # (CaDiCaL takes its place once it has done this much work)
                other.parameters.max_deterministic_time = rival_after
            if not ends and first is not None:
                self._models.append(first)
        if first_for is not None and self._starter is not None:
            self._solver.parameters.max_deterministic_time = first_for  # (after the other's copy)
        # Told the endings, the other's model differs (its windows too): it is built once the first
        # solver has begun (see `run`), which starts 0.2-0.3 s sooner on 4p/5p Avalanche (the 52 slow
        # losses, best of two alternating runs: 72.1 -> 68.4 s in all, 11 -> 7 over 2 s).
        self._told = (ends, line)
        self._status: cp_model.CpSolverStatus | None = None
        self._winner = self._solver  # the solver whose answer counts
        self._lock = threading.Lock()
        self._decided = threading.Event()  # a racing solver has decided the question
        self._over = threading.Event()  # the question is decided or stopped: CaDiCaL's racer stops waiting
        self._thread: threading.Thread | None = None
        self._spent = threading.Event()  # the other configuration has done its work undecided (or never races)
        self._glanced: list[Move] | None = None  # the glance's line, when it decided the question first
        self._anchored = (anchored, anchored_after) if anchored is not None and race else None
        if self._glance is not None and first is None:  # (it decided the question while the model was built)
            self._solvers, self._starter, self._anchored = [], None, None
            self._take_glance(self._glance)

    def run(self) -> None:
        """Solve, in this thread (the rival, if any, in another)."""
        try:
            if self._decided.is_set():  # (by the glance, while the model was built: nothing to solve)
                return
            if not self.racing:
                self._status = self._solver.solve(self._models[0][0])
                return
            if len(self._solvers) < 2:  # (CaDiCaL races from the start)
                self._spent.set()
            threads = [threading.Thread(target=self._race, args=(solver,), daemon=True) for solver in self._solvers]
            if self._glance is not None:
                threads[1] = threading.Thread(target=self._race_glance, args=(self._glance, self._solvers[1]), daemon=True)
            self._began = time.perf_counter()
            if self._starter is not None:
                threads.append(threading.Thread(target=self._race_clauses, args=(self._starter,), daemon=True))
            if self._anchored is not None:
                threads.append(threading.Thread(target=self._race_anchored, args=self._anchored, daemon=True))
            threads[0].start()  # (the first configuration, or CaDiCaL's racer where CP-SAT takes no part)
            if len(self._models) < len(self._solvers):  # (the search waits meanwhile: see `solver.questions.ask`)
                other = self._unless_glanced(None, *self._told)
                if other is not None:  # (otherwise the glance in its place has decided: `_race_glance`)
                    self._models.append(other)
            for thread in threads[1:]:
                thread.start()
            for thread in threads:
                while thread.is_alive():
                    if self._decided.wait(0.05):  # stop the losers, repeatedly: only heard once a search has begun
                        self._stop_all()
                        thread.join(0.005)
        except BaseException:
            self._stop_all()  # (the first solver may have begun)
            raise
        finally:
            self.done.set()

    def _stop_all(self) -> None:
        for solver in self._solvers:
            solver.stop_search()
        if self._glance is not None:
            self._glance.interrupt()
        self._over.set()

    def _race_glance(self, glance: Glance, other: cp_model.CpSolver) -> None:
        """The glance racing until it has had its lead: if it decides the question first, its answer
        counts; if not, it is stopped, and `other` takes its place for the rest of the question's
        time (none once that is up)."""
        from ortools.sat.python import cp_model

        self._outlasts(glance.led)
        glance.stop()  # (a helper that does not answer within `helper.STOP_WAIT` is given up: undecided)
        if glance.decided:
            with self._lock:
                if self._status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                    self._take_glance(glance)
            return
        left = self._time_left()
        if not self._over.is_set() and (left is None or left > 0):  # (stopped, or its time up: `_outlasts` ended)
            if left is not None:
                other.parameters.max_time_in_seconds = left  # (the question's time, not its own)
            self._race(other)

    def _take_glance(self, glance: Glance) -> None:
        """The glance's answer (it has decided) is the question's (the lock held, once racing)."""
        from ortools.sat.python import cp_model

        self._glanced = glance.answer()
        self._status = cp_model.INFEASIBLE if self._glanced is None else cp_model.OPTIMAL
        self._decided.set()

    def _unless_glanced(
        self, floor: int | None, ends: Sequence[Heights], line: list[Move] | None
    ) -> tuple[cp_model.CpModel, _Turns] | None:
        """The model of the question (`_hinted`), or None if Glucose's glance at it (if any) decides the
        question meanwhile: the build stops there (5p Avalanche round-robin 744's glance refutes 28 as
        the model for 28 is built, twice over: 0.3 s). A glance that finishes undecided (stopped) leaves
        the model to be built in full."""
        glance = self._glance
        try:
            return _hinted(self.deal, self.target, self.root, floor, ends, line, None if glance is None else glance.done.is_set)
        except Stopped:
            if glance is not None and glance.decided:
                return None
            return _hinted(self.deal, self.target, self.root, floor, ends, line)

    def _race(self, solver: cp_model.CpSolver) -> None:
        """One racing solver: the first to decide the question counts (`run` stops the other); if
        neither does, the first solver's status counts (its time limit)."""
        from ortools.sat.python import cp_model

        status = solver.solve(self._models[self._solvers.index(solver)][0])
        limit = solver.parameters.max_deterministic_time
        if solver is not self._solver and status == cp_model.UNKNOWN and solver.deterministic_time >= limit:
            self._spent.set()  # (not stopped, nor out of time: CaDiCaL's turn)
        with self._lock:
            decided = self._status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
            if decided:
                return
            if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE, cp_model.MODEL_INVALID) or solver is self._solver:
                self._status, self._winner = status, solver
            if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                self._decided.set()

    def _joins(self, after: float) -> bool:
        """Wait until a racer joining `after` seconds into the question may start: False if the
        question is decided or stopped by then, or its time is up first."""
        if self._seconds is not None and after >= self._seconds:
            return False
        return not (self._over.wait(after) or self._decided.is_set())

    def _outlasts(self, finished: threading.Event) -> bool:
        """Wait for a racer's `finished`: False if the question is stopped, or its time is up, first."""
        while not finished.wait(0.02):
            left = self._time_left()
            if self._over.is_set() or (left is not None and left <= 0):
                return False
        return True

    def _time_left(self) -> float | None:
        """Seconds left of the question's time (None: no limit)."""
        return None if self._seconds is None else self._began + self._seconds - time.perf_counter()

    def _race_anchored(self, glance: Glance, after: float) -> None:
        """The anchored glance racing, from `after` seconds into the question (at once if an earlier
        question started it) until its time is up (or the question stopped): if it decides first, its
        answer counts as CaDiCaL's does (`_race_clauses`). It is left running."""
        from ortools.sat.python import cp_model

        if not glance.started:
            if not self._joins(after):
                return
            glance.start()
        if not self._outlasts(glance.done) or not glance.decided:
            return
        found = glance.answer()
        with self._lock:
            if self._status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                return
            if found is None:
                self._refuted()
            else:
                self._glanced, self._status = found, cp_model.OPTIMAL
                self._decided.set()

    def _race_clauses(self, start: Callable[[], Rival]) -> None:
        """CaDiCaL racing, once the other configuration has done its work undecided (at once if it does
        not race), until the question's time is up (or the question stopped): if it decides the
        question first, its answer counts."""
        from ortools.sat.python import cp_model

        if not self._outlasts(self._spent) or self._decided.is_set():
            return
        rival = start()
        with self._lock:
            self._rival = rival
        if not self._outlasts(rival.run.finished):
            return
        found = rival.run.wait()
        with self._lock:
            if found is None or self._status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
                return
            if found is False:
                self._refuted()
            else:
                self._status, self._true = cp_model.OPTIMAL, found  # a line reaching the target: the best
                self._decided.set()

    def _refuted(self) -> None:
        """A rival's proof that no line reaches the target (CaDiCaL's or the anchored glance's; the
        lock held): the question's answer, or with a floor, the target out of reach and the question
        below it left undecided (`target_refuted`). Either way the racers stop."""
        from ortools.sat.python import cp_model

        if self.floor is not None:
            self.target_refuted = True
        else:
            self._status = cp_model.INFEASIBLE
        self._decided.set()

    @property
    def glancing(self) -> bool:
        """Does Glucose's glance race for the question's first seconds (see `__init__`)?"""
        return self._glance is not None

    @property
    def racing(self) -> bool:
        """Does a rival race the first configuration (see the class)?"""
        return len(self._solvers) > 1 or self._starter is not None

    def start(self) -> None:
        """Solve in a background thread; `done` is set when it finishes."""
        self._thread = threading.Thread(target=self.run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the background solve (if still running) and wait for it."""
        if self._thread is None:
            return
        while not self.done.wait(0.005):
            self._stop_all()  # only heard once a search has begun: repeat until done
        self._thread.join()

    def answer(self) -> list[Move] | None:
        """The line found, or None if the model proved there is none; `OutOfBudget` if undecided.

        With a `floor`: the best line found (at least the floor; the best there is if `proven`), or
        None if the model proved that no line reaches the floor."""
        from ortools.sat.python import cp_model

        if self._status == cp_model.INFEASIBLE:
            return None
        if self._true is not None and self._rival is not None:
            return self._rival.encoding.line(self.deal, self.root, self._true)
        if self._glanced is not None:
            return self._glanced
        if self._status not in (cp_model.FEASIBLE, cp_model.OPTIMAL, cp_model.MODEL_INVALID):
            raise OutOfBudget("time limit reached")  # (or no CP-SAT, and no rival decided)
        model, turns = self._models[self._solvers.index(self._winner)]
        if self._status == cp_model.MODEL_INVALID:  # a bug, not a time limit
            raise RuntimeError(f"invalid constraint model: {model.validate()}")
        return turns.line(self.deal, self.root, self._winner)

    @property
    def proven(self) -> bool:
        """Did the model decide its question (not only find a line before its time ran out)?"""
        from ortools.sat.python import cp_model

        return self._status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)


class _Turns:
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


def _hinted(
    deal: Deal,
    target: int,
    root: Position,
    floor: int | None,
    ends: Sequence[Heights],
    line: list[Move] | None,
    stop: Callable[[], bool] | None = None,
) -> tuple[cp_model.CpModel, _Turns]:
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
) -> tuple[cp_model.CpModel, _Turns]:
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
    turns = _Turns(size, horizon_, false)
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
