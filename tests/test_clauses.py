"""The model as clauses, solved by CaDiCaL: brute-force and search cross-checks, and its child process."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from random import Random
from typing import TYPE_CHECKING, Any, cast

import pytest
from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from deducer import Ending
from solver import cadical, clauses, race, sat
from solver.brute import best_score
from solver.climb import best_line
from solver.endings import endings, open_endings
from solver.model import Deal, Move, Position
from solver.search import OutOfBudget
from tests.helpers import legal
from tests.test_endings import brute_forced
from tests.test_sat import larger_deals, line_score
from tests.test_solver import small_deals

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


def solved(
    model: Deal, target: int, root: Position | None = None, ends: tuple[tuple[int, ...], ...] = (), ladder: bool = False
) -> list[Move] | None:
    """The line CaDiCaL finds for the question's clauses (in this process; `ladder`: the clue tokens
    as a ladder, `clauses.build`'s option), or None if there is none; every move of the line is legal."""
    root = model.start() if root is None else root
    encoding = clauses.build(model, target, root, ends, ladder=ladder)
    with Solver(name=cadical.SOLVER, bootstrap_with=encoding.clauses) as solver:
        if not solver.solve():
            return None
        line = encoding.line(model, root, {lit for lit in solver.get_model() if lit > 0})
    position = root
    for move in line:
        assert legal(model, position, move), (model.rules, model.deck, root, target, line, move)
        position = model.play(position, move)
    return line


def test_the_counter_of_one_is_pysats_own() -> None:
    # `_Builder` writes out "at most one" of seven or more literals itself: the same clauses, in
    # the same order, on the same fresh variables as PySAT's sequential counter, for every length,
    # sign and first free variable tried; and the bound of one still holds (checked by Glucose).
    rng = Random(12)
    for n in range(2, 40):
        for _ in range(3):
            top = n + rng.randrange(50)
            lits = [var if rng.random() < 0.5 else -var for var in rng.sample(range(1, top + 1), n)]
            builder = clauses._Builder()
            builder.top = top
            builder.clauses.clear()
            builder.at_most(lits, 1)
            theirs = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter)
            assert (builder.clauses, builder.top) == (theirs.clauses, theirs.nv), (n, lits)
            with Solver(name="glucose42", bootstrap_with=builder.clauses) as solver:
                assert solver.solve(assumptions=lits[:1])
                assert not solver.solve(assumptions=lits[-2:])


@pytest.mark.parametrize("ladder", [False, True])
def test_the_clauses_agree_with_brute_force_on_every_target(ladder: bool) -> None:
    # Small deals under standard rules, at the deal and a few random actions in (clue tokens spent,
    # strikes, cards lost, the deck run out): for every target, CaDiCaL finds a line exactly when the
    # brute force says one exists, and the line replays from the position to at least the target.
    # Both encodings of the clue tokens.
    found = refuted = in_play = 0
    for model, root, truth in brute_forced()[::2]:
        assert clauses.applies(model) == (not model.rules.choreography)
        if not clauses.applies(model):
            continue
        in_play += root != model.start()
        for target in range(sum(root[2]), model.rules.max_score + 1):
            line = solved(model, target, root, ladder=ladder)
            if line is None:
                assert target > truth, (model.rules, model.deck, root, target)
                refuted += 1
            else:
                assert truth >= line_score(model, line, root) >= target, (model.rules, model.deck, root, target)
                found += 1
    assert found >= 350 and refuted >= 120 and in_play >= 25


@pytest.mark.parametrize("ladder", [False, True])
def test_the_clauses_told_the_endings_agree_with_brute_force(ladder: bool) -> None:
    # The same positions, for the true best score and one point more (no line beats either): told every
    # ending, or those the bounds leave open, CaDiCaL finds a line exactly for the true best, and it
    # ends at one of them. Both encodings of the clue tokens.
    found = refuted = 0
    for model, root, truth in brute_forced():
        for target in (truth, truth + 1):
            if not clauses.applies(model) or not sum(root[2]) <= target < sum(root[3]):
                continue
            ends = open_endings(model, root, target)
            assert ends is not None
            for heights in {tuple(endings(model, root, target)), ends.open} - {()}:
                line = solved(model, target, root, heights, ladder)
                assert (line is None) == (target > truth), (model.deck, root, target, heights)
                if line is not None:
                    position = root
                    for move in line:
                        position = model.play(position, move)
                    assert position[2] in heights
                found += line is not None
                refuted += line is None
    assert found >= 150 and refuted >= 50


@pytest.mark.parametrize("ladder", [False, True])
def test_the_clauses_agree_with_the_search_on_larger_deals(ladder: bool) -> None:
    # Up to 4 suits, 4 ranks, 4 players and 24 cards, standard rules: CaDiCaL reaches the search's best
    # score and proves that one point more is out of reach. Both encodings of the clue tokens.
    checked = 0
    for model in larger_deals(17, Ending.STANDARD, 50):
        if not clauses.applies(model):
            continue
        truth = best_line(model).score
        line = solved(model, truth, ladder=ladder)
        assert line is not None and line_score(model, line) >= truth, (model.rules, model.deck)
        assert truth == model.rules.max_score or solved(model, truth + 1, ladder=ladder) is None, (model.rules, model.deck)
        checked += 1
    assert checked >= 30


def test_cadical_races_a_question_with_a_floor_for_its_target() -> None:
    # Small deals, standard rules: the best score from one point below a target up to it, raced by
    # CaDiCaL for the target itself, CP-SAT given no time. Where the brute force reaches the target,
    # CaDiCaL's line (from its child process, read from its own variables) decides the question;
    # where it does not, CaDiCaL proves the target out of reach and the question below it is left
    # undecided.
    found = refuted = 0
    for model in small_deals(107, 120):
        if not clauses.applies(model):
            continue
        truth = best_score(model)
        for target in range(max(1, truth), min(truth + 1, model.rules.max_score) + 1):
            rival = clauses.Rival(model, target)
            question = race.Question(model, target, floor=target - 1, race=True, rival=_given(rival))
            question._solver.parameters.max_time_in_seconds = 1e-9
            question.run()
            rival.run.stop()
            if target <= truth:
                line = question.answer()
                assert line is not None and truth >= line_score(model, line) >= target, (model.deck, target)
                assert question.proven and not question.target_refuted
                found += 1
            else:
                assert question.target_refuted and not question.proven, (model.deck, target)
                refuted += 1
    assert found >= 10 and refuted >= 3


def test_a_run_stopped_or_out_of_time_is_undecided_and_its_child_gone() -> None:
    # A hard question (3-player Avalanche round-robin 8071 at 30, a win CaDiCaL takes over a minute
    # on): given 0.2 s, the run answers None soon after; stopped, at once; either way its child
    # process has ended.
    from deducer import DealOrder, Settings, Variant

    settings = Settings(players=3, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.ROUND_ROBIN)
    model = Deal.of(settings, tuple(settings.variant.shuffled_deck(8071)))
    encoding = clauses.build(model, 30)
    begin = time.perf_counter()
    run = cadical.Run(encoding.clauses, 0.2)
    assert run.wait() is None
    assert time.perf_counter() - begin < 1.5 and run._process.poll() is not None
    run = cadical.Run(encoding.clauses, 60)
    begin = time.perf_counter()
    run.stop()
    assert run.wait() is None and time.perf_counter() - begin < 1 and run._process.poll() is not None


def test_a_rival_outlives_a_question_and_decides_the_next() -> None:
    # Small deals, standard rules, at the brute force's best score and one point above it. CP-SAT
    # given no time, and the first question 10 ms (CaDiCaL's child takes longer to start): it ends
    # undecided (where CP-SAT's presolve does not decide it), and leaves its rival running: the run
    # goes on to an answer (a run stopped has none; it may come before the first question has
    # returned, as on small deals the child takes some 50 ms in all). The next question on the same
    # run is decided by it: the line, or the proof that no line reaches the target.
    asked = 0
    for model, target, truth in _at_and_above_the_best(131, 100):
        rival = clauses.Rival(model, target)
        first = _without_cp_sat(race.Question(model, target, 0.01, race=True, rival=_given(rival)))
        if first.proven:  # (CP-SAT's presolve decides some small deals before it looks at the time)
            rival.run.stop()
            continue
        assert rival.run.wait(30) is not None, (model.deck, target)
        second = _without_cp_sat(race.Question(model, target, race=True, rival=_given(rival)))
        rival.run.stop()
        _assert_decided(second, truth)
        asked += 1
    assert asked >= 30


def test_with_three_players_the_rival_is_kissat_on_the_ladder() -> None:
    # `clauses.RIVALS`: a three-player question's rival runs Kissat, in its child process, on the
    # clauses with the clue tokens as a ladder; other tables keep CaDiCaL on the nine values. Raced
    # alone (CP-SAT given no work) on small deals at the brute force's best score and one point
    # above it, each rival decides the question as the brute force says.
    asked = {2: 0, 3: 0}
    for model in small_deals(137, 300):
        players = model.rules.players
        if not clauses.applies(model) or (players == 2 and asked[2] >= 10):
            continue
        truth = best_score(model)
        for target in sorted({truth, min(truth + 1, model.rules.max_score)}):
            rival = clauses.Rival(model, target)
            command = cast("list[str]", rival.run._process.args)  # (the child's: `solver.cadical`'s last argument)
            assert command[-1] == (cadical.KISSAT if players == 3 else cadical.SOLVER), command
            assert rival.encoding.clauses == clauses.build(model, target, ladder=players == 3).clauses
            question = _without_cp_sat(race.Question(model, target, race=True, rival=_given(rival)))
            rival.run.stop()
            _assert_decided(question, truth)
            asked[players] += 1
    assert asked[2] >= 10 and asked[3] >= 30, asked


def test_where_cp_sat_yields_at_once_to_a_rival_it_builds_no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    # With three players `solver.questions.ask` has the first configuration yield at once (`first_for`
    # 0) to Kissat racing from the start, with no pair racing: CP-SAT takes no part, so its model is
    # never built (it took 0.25 s before the rival could start). On small deals at the brute force's
    # best score and one point above it, the rival alone decides each question as the brute force
    # says; a rival that never answers leaves the question undecided once its time is up.
    built: list[int] = []
    hinted = sat.hinted

    def noted(deal: Deal, target: int, *rest: Any) -> tuple[cp_model.CpModel, Any]:
        built.append(target)
        return hinted(deal, target, *rest)

    monkeypatch.setattr(sat, "hinted", noted)
    asked = 0
    for model, target, truth in _at_and_above_the_best(139, 40):
        rival = clauses.Rival(model, target)
        question = race.Question(model, target, 60, race=True, rival=_given(rival), first_for=0.0)
        question.run()
        rival.run.stop()
        _assert_decided(question, truth)
        asked += 1
    silent = race.Question(model, target, 0.2, race=True, rival=lambda: cast(clauses.Rival, _Silent()), first_for=0.0)
    silent.run()
    assert not silent.proven and time.perf_counter() - silent._began >= 0.2
    with pytest.raises(OutOfBudget):
        silent.answer()
    assert asked >= 15 and built == []


def test_a_run_answers_every_waiter_alike() -> None:
    # One run, awaited by several threads at once and again after: all get the same true variables;
    # a wait with a timeout shorter than the child's start returns None, and leaves the run going.
    model = next(model for model in small_deals(5, 20) if clauses.applies(model))
    encoding = clauses.build(model, 1)
    run = cadical.Run(encoding.clauses, 60)
    assert run.wait(0.001) is None and not run.finished.is_set()
    answers: list[object] = []
    threads = [threading.Thread(target=lambda: answers.append(run.wait())) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    found = run.wait()
    assert isinstance(found, set) and answers == [found] * 3
    assert line_score(model, encoding.line(model, model.start(), found)) >= 1


def test_cadical_joins_a_racing_pair_late_and_decides_what_it_cannot() -> None:
    # Small deals, standard rules, at the brute force's best score and one point above it; the pair
    # of configurations racing, both given no work (undecided unless CP-SAT's presolve decides the
    # deal). CaDiCaL is started once the other configuration has done its work, and decides the
    # question: the line, or the proof that no line reaches the target. When the other is to do more
    # work (60) than the question's time allows (50 ms), CaDiCaL is never started.
    asked = 0
    for model, target, truth in _at_and_above_the_best(137, 100):
        started: list[clauses.Rival] = []
        start = partial(_started, model, target, started)
        question = _without_cp_sat(race.Question(model, target, 5.0, race=True, rival=start, rival_after=0.05))
        for rival in started:
            rival.run.stop()
        if not started:  # (decided by the presolve, before CaDiCaL was to join)
            assert question.proven
            continue
        _assert_decided(question, truth)
        asked += 1
        question = race.Question(model, target, 0.05, race=True, rival=start, rival_after=60)
        question._solver.parameters.max_deterministic_time = 1e-9  # (the first configuration given no work)
        question.run()
        assert len(started) == 1
    assert asked >= 20


def test_cadical_takes_the_other_configurations_place_once_it_has_done_its_work() -> None:
    # 3-player Avalanche round-robin 8071 at 30, a narrow win that neither configuration decides in
    # minutes, the pair racing for 3 s. CaDiCaL (a stand-in run that never answers) takes the other
    # configuration's place once the other has done 0.2 of CP-SAT's deterministic time: the other's
    # solve ends having done that much work and little more (however long it took on this machine),
    # and CaDiCaL starts then. The first configuration goes on to the question's end, or, given its
    # own work (0.4), stops after that much. Given more work than the question has time for, the
    # other races to the end, and CaDiCaL never starts. (Counted in seconds instead, 0.2 s, the
    # other's work would be far less: about 0.1 on an idle machine.)
    from deducer import DealOrder, Settings, Variant

    settings = Settings(players=3, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.ROUND_ROBIN)
    model = Deal.of(settings, tuple(settings.variant.shuffled_deck(8071)))
    for work, first_for in ((0.2, None), (0.2, 0.4), (60.0, None)):
        started: list[float] = []
        rival = partial(_noted, started)
        question = race.Question(model, 30, 3.0, race=True, rival=rival, rival_after=work, first_for=first_for)
        ended = _timed_races(question)
        question.run()
        with pytest.raises(OutOfBudget):
            question.answer()
        first, other = (ended[index] - question._began for index in (0, 1))
        done = [solver.deterministic_time for solver in question._solvers]
        if work < 60:
            assert work <= done[1] <= work * 1.5, done
            assert len(started) == 1 and -0.05 <= started[0] - ended[1] <= 0.2, (started, ended)
        else:
            assert not started and done[1] < work and 2.8 <= other <= 4.0, (done, other)
        if first_for is None:
            assert 2.8 <= first <= 4.0, first
        else:
            assert first_for <= done[0] <= first_for * 1.5 and first < 2.8, (done, first)
        assert time.perf_counter() - question._began >= 2.9


def _timed_races(question: race.Question) -> dict[int, float]:
    """When each racing configuration of `question` (by index) ends its solve, once the question has run."""
    ended: dict[int, float] = {}
    original = question._race

    def timed(solver: cp_model.CpSolver) -> None:
        original(solver)
        ended[question._solvers.index(solver)] = time.perf_counter()

    question._race = timed  # type: ignore[method-assign]
    return ended


def _noted(started: list[float]) -> clauses.Rival:
    """A stand-in for CaDiCaL's run (`_Silent`), started now and noted in `started`."""
    started.append(time.perf_counter())
    return cast(clauses.Rival, _Silent())


class _Silent:
    """A stand-in for CaDiCaL's run on a question (`clauses.Rival`) that never answers."""

    def __init__(self) -> None:
        self.run = self
        self.finished = threading.Event()

    def wait(self, timeout: float | None = None) -> None:
        return None


def _started(model: Deal, target: int, started: list[clauses.Rival]) -> clauses.Rival:
    """CaDiCaL's run on the question, started now and noted in `started`."""
    started.append(clauses.Rival(model, target))
    return started[-1]


def _given(run: clauses.Rival) -> Callable[[], clauses.Rival]:
    """What hands a question CaDiCaL's run `run`, already started."""
    return lambda: run


def _without_cp_sat(question: race.Question) -> race.Question:
    """`question`, run with CP-SAT given no work (CaDiCaL, if it races, has the question's time)."""
    for solver in question._solvers:
        solver.parameters.max_deterministic_time = 1e-9
    question.run()
    return question


def _assert_decided(question: race.Question, truth: int) -> None:
    """`question` is decided, as the brute force's best score `truth` says: the line, or none."""
    assert question.proven, (question.deal.deck, question.target)
    line = question.answer()
    assert (line is not None) == (question.target <= truth), (question.deal.deck, question.target)
    assert line is None or line_score(question.deal, line) >= question.target


def _at_and_above_the_best(seed: int, count: int) -> Iterator[tuple[Deal, int, int]]:
    """Small deals under the standard rules (those the clauses cover), each at the brute force's best
    score and one point above it (at most the maximum): (the deal, the target, the best score)."""
    for model in small_deals(seed, count):
        if clauses.applies(model):
            truth = best_score(model)
            for target in sorted({truth, min(truth + 1, model.rules.max_score)}):
                yield model, target, truth
