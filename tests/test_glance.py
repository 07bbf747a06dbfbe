"""Glucose's glance at the top target (`solver.glance`): its answers, its stop, and how the solver
and the model's question take them."""

from __future__ import annotations

import multiprocessing
import operator
import os
import random
import signal
import sys
import threading
import time
from typing import Any

import pytest

from deducer import DealOrder, Ending, Settings, Variant
from solver import clauses, race, sat, tops
from solver import climb as climbing
from solver import glance as glancing
from solver import helper as helping
from solver import probes as probing
from solver import questions as asking
from solver.endings import Heights
from solver.glance import Anchors, Glance
from solver.greedy import greedy_line
from solver.model import DISCARD, HINT, Deal, Move, Position
from solver.search import OutOfBudget, Search
from solver.solve import solve
from tests.helpers import legal, without_the_tight_question
from tests.test_endings import brute_forced
from tests.test_sat import REAL_QUESTION, line_score, random_line, silent, stand_in


def glanced(
    model: Deal,
    target: int,
    root: Position | None = None,
    ends: tuple[Heights, ...] = (),
    in_helper: bool | None = None,
    ladder: bool = False,
) -> Glance:
    """A glance at `target` (told `ends`; on the `ladder` encoding or not) from `root` (default: the
    opening deal), run to its end (`in_helper`: in the helper process, ready by then, or in a thread;
    None: whichever comes)."""
    if in_helper:
        assert helping.start(wait=30) is not None
    glance = Glance(model, target, model.start() if root is None else root, ends, helper=in_helper is not False, ladder=ladder)
    glance.start()
    assert in_helper is None or glance.in_helper == in_helper
    glance.done.wait()
    return glance


@pytest.mark.parametrize(("in_helper", "ladder"), [(False, False), (True, False), (False, True), (True, True)])
def test_a_glance_agrees_with_brute_force_on_every_target(in_helper: bool, ladder: bool) -> None:
    # Reduced deals under standard rules, at the deal and a few random actions in: for every target,
    # Glucose finds a line (which replays from the position to at least the target) exactly when the
    # brute force says one exists; in a thread, and in the helper process; on the solver's clauses,
    # and with the clue tokens as a ladder.
    found = refuted = in_play = 0
    for model, root, truth in brute_forced()[1::3]:
        if not glancing.glances(model):
            continue
        in_play += root != model.start()
        for target in range(sum(root[2]), model.rules.max_score + 1):
            glance = glanced(model, target, root, in_helper=in_helper, ladder=ladder)
            assert glance.decided
            line = glance.answer()
            assert (line is None) == (target > truth), (model.rules, model.deck, root, target)
            if line is not None:
                assert truth >= line_score(model, line, root) >= target
            found, refuted = found + (line is not None), refuted + (line is None)
    assert found >= 200 and refuted >= 70 and in_play >= 15


def test_a_build_stops_when_asked() -> None:
    # `build` asks its `stop` at every turn of the unrolled game (a glance stopped while its clauses
    # are built lets go there, not at the end of the build): told to stop at the eleventh turn, it
    # has asked eleven times; never told to, it builds the same clauses as without a `stop`.
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(744))
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 10

    with pytest.raises(sat.Stopped):
        clauses.build(model, 28, stop=stop)
    assert len(asked) == 11
    assert clauses.build(model, 28, stop=lambda: False).clauses == clauses.build(model, 28).clauses


@pytest.mark.parametrize("in_helper", [False, True])
def test_a_stopped_glance_has_no_answer(in_helper: bool) -> None:
    # 3 players, Avalanche, round-robin seed 8071: Glucose cannot decide the 30 in a minute. Stopped
    # after a fifth of a second, or at once (while its clauses are built), it lets go at once,
    # undecided; stopped before it starts, it never does. In a thread, and in the helper process.
    if in_helper:
        assert helping.start(wait=30) is not None
    model = Deal.of(THREE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8071))
    for pause in (0.2, 0.0):
        glance = Glance(model, 30, model.start(), helper=in_helper)
        glance.start()
        assert glance.in_helper == in_helper
        time.sleep(pause)
        began = time.perf_counter()
        glance.stop()
        assert time.perf_counter() - began < 1.0
        assert glance.done.is_set() and not glance.decided
        with pytest.raises(OutOfBudget):
            glance.answer()
    never = Glance(model, 30, model.start(), helper=in_helper)
    never.stop()
    assert not never.done.is_set() and not never.decided


def test_the_switch_interval_is_short_while_the_helper_has_a_glance_to_answer() -> None:
    # While the helper has a glance to answer, a thread that wants the interpreter lock takes it within
    # `helping.SWITCH`: the reader of the helper's answers, which waits for it at each of its reads
    # while the search holds it (5 ms each by default: 5p Avalanche per seat 403's refutation was
    # heard 10 ms after it came). Two glances pending (3 players, Avalanche, round-robin 8071, which
    # Glucose cannot decide in a minute, and 5 players, round-robin 1494, a 30 in a few tenths of a
    # second): short while either is; once the second is answered and the first stopped, the caller's
    # interval is back.
    assert helping.start(wait=30) is not None
    before = sys.getswitchinterval()
    model = Deal.of(THREE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8071))
    hard = Glance(model, 30, model.start())
    hard.start()
    assert hard.in_helper and sys.getswitchinterval() == pytest.approx(helping.SWITCH)
    easy = glanced(Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(1494)), 30, in_helper=True)
    assert easy.decided and easy.answer() is not None
    assert sys.getswitchinterval() == pytest.approx(helping.SWITCH)  # (the first still pending)
    hard.stop()
    assert hard.done.is_set() and not hard.decided
    assert sys.getswitchinterval() == pytest.approx(before)


def test_a_helper_that_dies_leaves_its_glances_to_threads() -> None:
    # The helper process killed while it solves (3 players, Avalanche, round-robin 8071, which it
    # cannot decide in a minute): its glance finishes at once, undecided; the next glance runs in a
    # thread and decides (5 players, round-robin 1494: a 30), and a new helper is started for the
    # glances after it.
    first = helping.start(wait=30)
    assert first is not None
    before = sys.getswitchinterval()
    model = Deal.of(THREE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8071))
    glance = Glance(model, 30, model.start())
    glance.start()
    assert glance.in_helper
    time.sleep(0.2)
    os.kill(first.pid, signal.SIGKILL)
    assert glance.done.wait(5.0) and not glance.decided
    assert sys.getswitchinterval() == pytest.approx(before)  # (no glance pending any more)
    after = glanced(Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(1494)), 30)
    assert not after.in_helper and after.decided and after.answer() is not None
    second = helping.start(wait=30)
    assert second is not None and second is not first and second.alive and not first.alive


def test_a_glance_that_fails_in_the_helper_is_undecided_and_the_helper_serves_on() -> None:
    # A glance whose position is nonsense fails in the helper's build: it finishes undecided, the
    # helper stays up, and the next glance (5p round-robin 1494, a 30) is its, and decides.
    helper = helping.start(wait=30)
    assert helper is not None
    model, target, root = _glance_of_1494()
    broken = Glance(model, target, root[:3])  # type: ignore[arg-type]  # (nonsense, on purpose)
    broken.start()
    assert broken.in_helper and broken.done.wait(5.0) and not broken.decided
    after = glanced(model, target, root, in_helper=True)
    assert after.decided and after.answer() is not None and helper.alive and helping.start() is helper


class _Unreadable:
    """Pickles, but its unpickling raises (ZeroDivisionError): a message the other end cannot read."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (operator.truediv, (1, 0))


def test_a_glance_the_helper_cannot_read_ends_it_and_is_undecided(monkeypatch: pytest.MonkeyPatch) -> None:
    # The helper cannot read a glance it is sent (one its own code cannot unpickle, as a helper
    # started after an upgrade might): it ends, rather than leave the glance unanswered for ever, and
    # the glance finishes undecided at once. The next glance runs in a thread, and decides (5p
    # round-robin 1494: a 30); a new helper is started for the glances after it.
    first = helping.start(wait=30)
    assert first is not None
    monkeypatch.setattr(helping, "_started", 1)  # (this death does not count against the tests after it)
    model, target, root = _glance_of_1494()
    glance = Glance(model, target, root)
    glance.deal = _Unreadable()  # type: ignore[assignment]  # (what is sent to the helper)
    glance.start()
    assert glance.in_helper
    assert glance.done.wait(5.0) and not glance.decided and not first.alive
    after = glanced(model, target, root)
    assert not after.in_helper and after.decided and after.answer() is not None
    second = helping.start(wait=30)
    assert second is not None and second is not first and second.alive


def test_an_answer_the_parent_cannot_read_gives_the_helper_up(monkeypatch: pytest.MonkeyPatch) -> None:
    # The helper's answer to a glance cannot be read in the parent: the helper is given up (its pipe
    # closed, so that it ends), the glance finishes undecided, and a new helper serves the glances
    # after it (5p round-robin 1494: a 30).
    first = helping.start(wait=30)
    assert first is not None
    monkeypatch.setattr(helping, "_started", 1)  # (as above)
    monkeypatch.setattr(first._inbox, "recv", _raising(first._inbox.recv))  # (from the next read on)
    model, target, root = _glance_of_1494()
    warm = glanced(model, target, root, in_helper=True)  # (its answer meets the read already waiting)
    assert warm.decided and first.alive
    glance = Glance(model, target, root)
    glance.start()
    assert glance.in_helper
    assert glance.done.wait(30.0) and not glance.decided and not first.alive
    assert first._process.wait(timeout=10.0) is not None  # (its pipe closed, the helper has ended)
    second = helping.start(wait=30)
    assert second is not None and second is not first
    after = glanced(model, target, root, in_helper=True)
    assert after.decided and after.answer() is not None


def _raising(recv: Any) -> Any:
    """`recv`, but the answer to a glance cannot be read (its unpickling fails)."""

    def unreadable() -> Any:
        message = recv()
        if message[0] == "done":
            raise ZeroDivisionError("an answer this end cannot read")
        return message

    return unreadable


def test_a_question_gives_up_a_glance_the_helper_never_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    # The glance that keeps the other configuration's place is stopped when the question's time is up
    # (1 s here: 3p round-robin 8071 at 30, which Glucose cannot decide in a minute, given a lead it
    # never spends). The helper never hears the stop (as if it could not read it): the question waits
    # `helper.STOP_WAIT` for its answer, gives it up (undecided), and ends; the other configuration
    # does not start once the question's time is up.
    helper = helping.start(wait=30)
    assert helper is not None
    model = Deal.of(THREE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8071))
    glance = Glance(model, 30, model.start(), lead=10**9)
    glance.start()
    assert glance.in_helper
    key = glance._key
    monkeypatch.setattr(helping.Helper, "stop", lambda self, key: None)
    question = race.Question(model, 30, 1.0, race=True, glance=glance)
    assert question.glancing
    try:
        began = time.perf_counter()
        question.start()
        assert question.done.wait(1.0 + helping.STOP_WAIT + 10.0)
        assert glance.done.is_set() and not glance.decided and not question.proven
        with pytest.raises(RuntimeError):  # ("solve() has not been called": the other configuration never started)
            _ = question._solvers[1].wall_time
        assert time.perf_counter() - began < 1.0 + helping.STOP_WAIT + 5.0
    finally:
        helper._outbox.send(("stop", key))  # (the helper is free for the tests after this one)


def _glance_in_a_fork() -> tuple[bool, bool, bool]:
    """In a forked child: does a glance decide (5 players, round-robin 1494, a 30), in the helper or
    not, and does a helper of the child's own get ready?"""
    glance = Glance(*_glance_of_1494())
    glance.start()
    decided = glance.done.wait(30.0) and glance.decided
    return decided, glance.in_helper, helping.start(wait=30) is not None


def never_answers(question: race.Question, racer: object) -> None:
    """A racer of `question` (CP-SAT's or CaDiCaL's, monkeypatched) that never answers: it waits
    until the question is over or its time is up."""
    question._over.wait(question._seconds)


def _glance_of_1494() -> tuple[Deal, int, Position]:
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(1494))
    return model, 30, model.start()


def test_a_forked_child_has_a_helper_of_its_own() -> None:
    # The parent's helper answers the parent only: a forked child (a process pool's worker) sends
    # its first glance to a thread, and starts a helper of its own. Sent to the parent's helper, the
    # glance would never be answered.
    assert helping.start(wait=30) is not None
    with multiprocessing.get_context("fork").Pool(1) as pool:
        decided, in_helper, own = pool.apply(_glance_in_a_fork)
    assert decided and not in_helper and own


THREE_ROUND_ROBIN = Settings(players=3, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.ROUND_ROBIN)
FIVE_ROUND_ROBIN = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.ROUND_ROBIN)
THREE_PER_SEAT = Settings(players=3, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
FIVE_PER_SEAT = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)


def test_a_racing_question_takes_the_answer_of_its_glance() -> None:
    # 5 players, Avalanche, round-robin seed 1494, a win: Glucose finds the 30 in about 0.1 s, where
    # CP-SAT needs a third of a second. Given 10 ms, the pair alone cannot decide the question; with
    # the glance in the second configuration's place, the question is decided by the glance's line.
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(1494))
    glance = glanced(model, 30)
    assert glance.decided and glance.answer() is not None
    alone = race.Question(model, 30, 0.01, race=True)
    alone.run()
    assert not alone.proven
    question = race.Question(model, 30, 0.01, race=True, glance=glance)
    assert question.glancing
    question.run()
    assert question.proven
    line = question.answer()
    assert line == glance.answer() and line is not None and line_score(model, line) == 30
    # A glance at another question (another target, or other endings) does not race this one.
    assert not race.Question(model, 29, 0.01, race=True, glance=glance).glancing
    assert not race.Question(model, 30, 0.01, race=False, glance=glance).glancing


def test_a_glance_refuting_its_question_decides_it() -> None:
    # 5 players, Avalanche, round-robin seed 744, true best 27 (`test_endings`): told the one ending
    # at 28 the bounds leave open (multicolour stopping at 3), Glucose refutes it in under a second;
    # given 10 ms, the pair alone cannot, and the question takes the glance's refutation as its answer.
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(744))
    ends = ((5, 5, 5, 5, 5, 3),)
    glance = glanced(model, 28, ends=ends)
    assert glance.decided and glance.answer() is None
    alone = race.Question(model, 28, 0.01, race=True, ends=ends)
    alone.run()
    assert not alone.proven
    question = race.Question(model, 28, 0.01, race=True, ends=ends, glance=glance)
    assert question.glancing
    question.run()
    assert question.proven and question.answer() is None


class _SetAfter(threading.Event):
    """An event that is set once it has been asked `asks` times whether it is (a glance that decides
    while the model of its question is being built, which asks once a turn); `asked` counts the
    asks until then."""

    def __init__(self, asks: int) -> None:
        super().__init__()
        self.asks, self.asked = asks, 0

    def is_set(self) -> bool:
        if not super().is_set():
            self.asked += 1
            if self.asked == self.asks:
                self.set()
        return super().is_set()


def test_a_model_whose_glance_decides_its_question_meanwhile_is_not_built_on() -> None:
    # 5p Avalanche round-robin 744 at 28, told the one ending the bounds leave open: Glucose refutes it
    # (`test_a_glance_refuting_its_question_decides_it`); in the solver it did so as the model for 28
    # was being built, and the builds went on to the end (0.3 s). Each build of a question racing
    # its glance asks once a turn whether the glance has finished, and stops there once it has decided.
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(744))
    ends = ((5, 5, 5, 5, 5, 3),)
    turns = sat.horizon(model, 28)
    glance = glanced(model, 28, ends=ends)
    assert glance.decided and glance.answer() is None
    # Decided before the question, or at the eleventh turn of the first configuration's model: no
    # model is left to race, and the question is the glance's refutation.
    for asks in (1, 11):
        glance.done = _SetAfter(asks)
        question = race.Question(model, 28, 3.0, race=True, ends=ends, glance=glance)
        assert question.glancing and question._models == [] and glance.done.asked == asks
        question.run()
        assert question.proven and question.answer() is None
    # Decided at the third turn of the other configuration's model (the question as it is, the first
    # being told the ending: `race.TOLD_FIRST`; built once the first configuration has begun): that
    # model is left unbuilt, and the first is stopped.
    glance.done = _SetAfter(turns + 3)
    question = race.Question(model, 28, 3.0, race=True, ends=ends, glance=glance)
    assert len(question._models) == 1 and glance.done.asked == turns
    began = time.perf_counter()
    question.run()
    assert len(question._models) == 1 and glance.done.asked == turns + 3
    assert question.proven and question.answer() is None
    assert time.perf_counter() - began < 1.5  # (not the question's 3 s: CP-SAT cannot refute 28 in minutes)
    # A glance that finished undecided (stopped at once) leaves both models to be built in full, and
    # the pair to race (10 ms: undecided).
    stopped = Glance(model, 28, model.start(), ends, helper=False)
    stopped.start()
    stopped.stop()
    assert stopped.done.is_set() and not stopped.decided
    question = race.Question(model, 28, 0.01, race=True, ends=ends, glance=stopped)
    assert question.glancing and len(question._models) == 1
    question.run()
    assert len(question._models) == 2 and not question.proven


@pytest.mark.parametrize("in_helper", [False, True])
def test_a_glance_tells_when_it_has_spent_its_lead_and_goes_on(in_helper: bool) -> None:
    # 5p Avalanche round-robin 744 at 28, told the one ending left open: Glucose refutes it after
    # about 18,000 conflicts. Given a lead of 2,000, the glance says so (`led`) long before it is
    # done, and goes on to the refutation; given a lead larger than it needs, `led` comes with the
    # answer. In a thread, and in the helper process. A question it would race (3 s) hands the other
    # configuration its place back as soon as it begins, the glance having had its lead already.
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(744))
    ends = ((5, 5, 5, 5, 5, 3),)
    if in_helper:
        assert helping.start(wait=30) is not None
    for lead, early in ((2_000, True), (1_000_000, False)):
        glance = Glance(model, 28, model.start(), ends, helper=in_helper, lead=lead)
        glance.start()
        assert glance.in_helper == in_helper
        assert glance.led.wait(60)
        assert glance.done.is_set() != early
        glance.done.wait()
        assert glance.decided and glance.answer() is None
    glance = Glance(model, 28, model.start(), ends, helper=in_helper, lead=2_000)
    glance.start()
    assert glance.led.wait(60) and not glance.done.is_set()
    question = race.Question(model, 28, 3.0, race=True, ends=ends, glance=glance)
    assert question.glancing
    question.start()
    # (stopped as the question began, not at its end: once the other configuration's model is built,
    # 0.05-0.4 s here, over 1 s once on a fresh CI machine with both cores busy)
    assert glance.done.wait(2.0) and not glance.decided
    question.stop()


@pytest.mark.parametrize("in_helper", [False, True])
def test_an_anchored_glance_finds_a_line_from_the_last_anchor_that_has_one(in_helper: bool) -> None:
    # Reduced deals under standard rules, at the deal and a few random actions in, each with a random
    # line from there (most lose points) anchored at each of its moves but the last, the most first.
    # A line that begins with the first k moves reaches the best score exactly when the exhaustive
    # search reaches it from the position after them (`reaching`; a longer anchor reaching it means
    # every shorter one does). The anchored glance finds a line exactly when some anchor has one; the
    # line begins with the moves up to the longest such anchor (it asks the longest first), and
    # replays from the position to the best score.
    if in_helper:
        assert helping.start(wait=30) is not None
    rng = random.Random(1)
    found = missed = kept = 0
    for model, root, truth in brute_forced()[::2]:
        line = random_line(model, root, rng)
        positions = [root]
        for move in line:
            positions.append(model.play(positions[-1], move))
        anchors = tuple(range(len(line) - 1, 0, -1))
        reaching = [k for k in anchors if Search(model).reach(positions[k], truth) is not None]
        glance = Glance(model, truth, root, helper=in_helper, anchors=Anchors(tuple(line), anchors, 10**6))
        glance.start()
        assert glance.in_helper == in_helper
        glance.done.wait()
        if not reaching:
            assert not glance.decided
            missed += 1
            continue
        answer = glance.answer()
        assert answer is not None and answer[: reaching[0]] == line[: reaching[0]], (model.rules, model.deck, root)
        assert line_score(model, answer, root) >= truth
        found, kept = found + 1, kept + reaching[0]
    assert found >= 40 and missed >= 30 and kept >= 90


@pytest.mark.parametrize("in_helper", [False, True])
def test_an_anchored_glance_asked_the_whole_question_last_always_decides(in_helper: bool) -> None:
    # The same deals and random lines, anchored at most of their moves, then the whole question from
    # the position with the clue tokens as a ladder (`Anchors.whole`): at the best score, the glance
    # finds a line reaching it even where no anchor has one (then from the whole question); one
    # point above it, every anchored question fails, and the whole question proves no line exists.
    if in_helper:
        assert helping.start(wait=30) is not None
    rng = random.Random(2)
    unanchored = refuted = 0
    for model, root, truth in brute_forced()[1::2]:
        line = random_line(model, root, rng)
        anchors = Anchors(tuple(line), tuple(range(len(line) - 1, 0, -2)), 10**6, whole=True)
        positions = [root]
        for move in line:
            positions.append(model.play(positions[-1], move))
        anchored = any(Search(model).reach(positions[k], truth) is not None for k in anchors.kept)
        for target in (truth, truth + 1):
            if target > model.rules.max_score:
                continue
            glance = Glance(model, target, root, helper=in_helper, anchors=anchors, ladder=True)
            glance.start()
            assert glance.in_helper == in_helper
            glance.done.wait()
            assert glance.decided, (model.rules, model.deck, root, target)
            answer = glance.answer()
            if target > truth:
                assert answer is None
                refuted += 1
                continue
            assert answer is not None and line_score(model, answer, root) >= truth
            unanchored += not anchored
    assert refuted >= 40 and unanchored >= 30


def test_a_racing_question_takes_the_refutation_of_its_anchored_glance(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, round-robin 744 at 28, told the one ending left open (see above), with
    # CP-SAT's pair and CaDiCaL never answering: an anchored glance with no anchor, only the whole
    # question, refutes it, and that decides the question. With a floor below the target, it refutes
    # the target, and the question below it is left undecided (as CaDiCaL's refutation leaves it).
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(744))
    ends = ((5, 5, 5, 5, 5, 3),)

    monkeypatch.setattr(race.Question, "_race", never_answers)
    monkeypatch.setattr(race.Question, "_race_clauses", never_answers)
    for floor in (None, 26):
        anchored = Glance(model, 28, model.start(), ends, anchors=Anchors((), (), 0, whole=True), ladder=True)
        question = race.Question(
            model,
            28,
            20.0,
            race=True,
            floor=floor,
            ends=ends,
            rival=lambda: pytest.fail("CaDiCaL never starts"),
            anchored=anchored,
        )
        began = time.perf_counter()
        question.run()
        assert anchored.decided and anchored.answer() is None
        assert time.perf_counter() - began < 15
        assert question.target_refuted == (floor is not None) and question.proven == (floor is None)
        if floor is None:
            assert question.answer() is None
        anchored.stop()


def test_a_racing_question_takes_the_line_of_its_anchored_glance(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, round-robin seed 1494, a win at 30, with CP-SAT's pair never answering:
    # alone, the question is undecided when its time is up. With an anchored glance along the greedy
    # line (which falls short) joining after a tenth of a second, the question is decided by a line
    # that begins as the greedy line does, and wins.
    model, target, root = _glance_of_1494()

    monkeypatch.setattr(race.Question, "_race", never_answers)
    alone = race.Question(model, target, 2.0, race=True)
    alone.run()
    assert not alone.proven
    line, _ = greedy_line(model, root)
    assert line_score(model, line) < target
    anchors = Anchors(tuple(line), asking.anchors_of(model, root, target, line), asking.ANCHOR_CONFLICTS)
    anchored = Glance(model, target, root, anchors=anchors)
    question = race.Question(model, target, 30.0, race=True, anchored=anchored, anchored_after=0.1)
    began = time.perf_counter()
    question.run()
    assert question.proven and time.perf_counter() - began < 20
    answer = question.answer()
    assert answer is not None and line_score(model, answer) == target
    assert answer[: anchors.kept[-1]] == line[: anchors.kept[-1]]
    # Started by an earlier attempt at the question, an anchored glance races the next one at once.
    again = Glance(model, target, root, anchors=anchors)
    again.start()
    later = race.Question(model, target, 30.0, race=True, anchored=again, anchored_after=60.0)
    began = time.perf_counter()
    later.run()
    assert later.proven and later.answer() == again.answer() and time.perf_counter() - began < 20
    # Not racing, a question has no anchored glance.
    assert race.Question(model, target, 0.01, race=False, anchored=anchored)._anchored is None


def test_an_anchored_question_gets_its_conflicts_and_no_more() -> None:
    # 3 players, Avalanche, per seat 8071, a narrow win (CaDiCaL takes 13.5 s from the deal), along
    # the greedy line (a 26 in 63 moves) anchored at 16, 12, 8 and 4 moves: with 100,000 conflicts
    # each, Glucose refutes the first three anchors and finds a 30 from the last (about 4 s in all);
    # with 1,000 each it decides none. The budget counts conflicts, not seconds: the answer is the
    # same on a busy machine.
    model = Deal.of(THREE_PER_SEAT, Variant.AVALANCHE.shuffled_deck(8071))
    root = model.start()
    line, _ = greedy_line(model, root)
    assert line_score(model, line) == 26
    anchors = (16, 12, 8, 4)
    decided, found = glancing.Work(model, 30, root, anchors=Anchors(tuple(line), anchors, 1_000)).run()
    assert not decided and found is None
    decided, found = glancing.Work(model, 30, root, anchors=Anchors(tuple(line), anchors, 100_000)).run()
    assert decided and found is not None and line_score(model, found) == 30 and found[:4] == line[:4]


def test_no_anchor_keeps_a_move_that_loses_the_target() -> None:
    # 5 players, Avalanche, per seat 8001: seat 0 holds the only b5 (the deck's first card). A line
    # of five hints, then seat 0's discard of the b5 (the sixth move), then the greedy line: no line
    # after that discard scores 30, and the bounds see it (every copy of b5 is gone). Anchored at 30,
    # the glance keeps at most five of its moves: the anchors of the usual grid up to five, and none
    # beyond; at 29, which the discard does not rule out, the whole grid.
    model = Deal.of(FIVE_PER_SEAT, Variant.AVALANCHE.shuffled_deck(8001))
    root = model.start()
    b5 = model.deck[0]
    assert model.card(b5) == (2, 5) and b5 in root[7][0]
    position, line = root, []
    for move in [(HINT, -1)] * 5 + [(DISCARD, b5)]:
        assert legal(model, position, move)
        position = model.play(position, move)
        line.append(move)
    line += greedy_line(model, position)[0]
    grid = tuple(range(len(line) // asking.ANCHOR_FROM, 0, -asking.ANCHOR_STEP))
    assert len(grid) >= 3 and grid[-1] <= 5 < grid[0]
    assert asking.anchors_of(model, root, 30, line) == tuple(k for k in grid if k <= 5)
    assert asking.anchors_of(model, root, 29, line) == grid
    assert asking.anchors_of(model, root, 30, line[:3]) == ()  # (too short a line: no anchor)


def test_the_anchored_glance_is_kept_from_one_attempt_at_a_question_to_the_next() -> None:
    # The solver's runs kept across attempts (`solver.questions.Rivals`) hand every attempt at a target the
    # same anchored glance, even given another line; asked for another target, they stop it (at
    # once, while it builds its first clauses) and make a new one; and they stop that one when told.
    model = Deal.of(THREE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8071))
    root = model.start()
    line, _ = greedy_line(model, root)
    kept = asking.Rivals()
    first = kept.anchored(model, root, 30, line)
    assert first is not None and first.anchors is not None and first.anchors.kept == asking.anchors_of(model, root, 30, line)
    first.start()
    assert kept.anchored(model, root, 30, line[:-4]) is first and not first.done.is_set()
    other = kept.anchored(model, root, 29, line)
    assert first.done.is_set() and not first.decided
    assert other is not None and other is not first and other.target == 29
    other.start()
    kept.stop()
    assert other.done.is_set()
    # The solver's anchored glance asks the whole question last, told the endings it was given; a
    # line too short for an anchor leaves it only that.
    assert first.anchors.whole == asking.ANCHORED_WHOLE and first.ladder and other.ends == ()
    told = asking.Rivals().anchored(model, root, 30, line[:3], ((5, 5, 5, 5, 5, 5),))
    assert told is not None and told.anchors is not None and told.anchors.kept == () and told.ends == ((5, 5, 5, 5, 5, 5),)


def test_the_glance_at_the_top_goes_on_in_place_of_a_whole_question_without_anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, round-robin 8329: no line scores 30 (Glucose on the ladder refutes it after
    # about 47,000 conflicts, seconds). The glance at the top, on the ladder as `solver.tops.Glances` makes it
    # (no endings), is handed to the model's first question. Along a line too short for an anchor,
    # the anchored glance would only ask that same question from scratch: the glance at the top takes
    # its place (kept for the next attempts), not the second configuration's, and with CP-SAT and
    # CaDiCaL never answering, its refutation decides the question.
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8329))
    root = model.start()
    line = greedy_line(model, root)[0][:3]

    monkeypatch.setattr(race.Question, "_race", never_answers)
    monkeypatch.setattr(race.Question, "_race_clauses", never_answers)
    monkeypatch.setattr(asking, "RACE", True)
    top = Glance(model, 30, root, lead=tops.GLANCE_LEAD, ladder=True)
    top.start()
    rival = asking.Rivals()
    question = asking.ask(model, root, 30, None, line, rival=rival, glance=top)
    assert not question.glancing and rival.anchored(model, root, 30, line) is top
    assert question.racing and question._solver.parameters.max_deterministic_time == 0  # (CP-SAT's first yields: `ADOPTED_ALONE`)
    assert question.done.wait(60) and question.proven and question.answer() is None
    assert top.decided and top.answer() is None
    rival.stop()
    # Not on the same encoding, or with an anchor to ask first, the glance at the top is not taken.
    made = asking._anchored(model, root, 30, line)
    anchored = asking._anchored(model, root, 29, greedy_line(model, root)[0])
    assert made is not None and anchored is not None and anchored.anchors is not None and anchored.anchors.kept
    running = Glance(model, 30, root, ladder=False)
    running.start()
    assert not asking._whole_only(made, running)
    running.stop()
    at29 = Glance(model, 29, root, ladder=True)
    at29.start()
    assert not asking._whole_only(anchored, at29)
    at29.stop()


def test_a_whole_question_stopped_undecided_goes_on_in_the_next_glance_at_it() -> None:
    # 5 players, Avalanche, round-robin 8329: Glucose on the ladder refutes 30 after about 47,000
    # conflicts. A glance at that whole question, stopped once it has spent a lead of 2,000, keeps its
    # Glucose (`glance._Parked`); a glance at another question (30 on the nine values) lets it go and
    # keeps its own when stopped; the next glance at the first question (a lead of 1,000) starts from
    # scratch, is stopped and kept in turn; and an anchored glance with no anchor, asking that question
    # last, goes on from it: resumed, it refutes 30. It runs in this process (the helper ready or not),
    # where the solver is kept.
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8329))
    root = model.start()

    def stopped_after_lead(ladder: bool, lead: int) -> Glance:
        glance = Glance(model, 30, root, helper=False, lead=lead, ladder=ladder)
        glance.start()
        assert glance.led.wait(60) and not glance.done.is_set()
        glance.stop()
        assert not glance.decided
        return glance

    first = stopped_after_lead(True, 2_000)
    assert not first._work.resumed
    kept = glancing._parked._kept
    assert kept is not None and kept[1].accum_stats()["conflicts"] >= 2_000
    other = stopped_after_lead(False, 1_000)
    assert not other._work.resumed and glancing._parked._kept is not None and glancing._parked._kept[0][-1] is False
    again = stopped_after_lead(True, 1_000)
    assert not again._work.resumed
    assert helping.start(30.0) is not None
    whole = Glance(model, 30, root, anchors=Anchors((), (), 0, True), ladder=True)
    whole.start()
    assert not whole.in_helper
    assert whole.done.wait(120) and whole.decided and whole.answer() is None
    assert whole._work.resumed and glancing._parked._kept is None
    # Nothing kept here, the same glance goes to the helper; a glance at another question going there
    # lets go of the one kept here.
    elsewhere = Glance(model, 30, root, anchors=Anchors((), (), 0, True), ladder=True)
    elsewhere.start()
    assert elsewhere.in_helper
    elsewhere.stop()
    stopped_after_lead(True, 1_000)
    assert glancing._parked._kept is not None
    at29 = Glance(model, 29, root, ladder=True)
    at29.start()
    assert at29.in_helper and glancing._parked._kept is None
    at29.stop()


def glances_alone(monkeypatch: pytest.MonkeyPatch) -> list[Glance]:
    """The model never joins nor answers: the glances (the first once the search has spent 1,000
    positions on the deal, on two cores) are the solver's only help. Returns the list of the glances started, in order."""
    stand_in(monkeypatch, silent)
    monkeypatch.setattr(tops, "GLANCE_AFTER", 1_000)
    monkeypatch.setattr(climbing, "MODEL_JOINS", 10**9)
    monkeypatch.setattr(asking, "RACE", True)
    started: list[Glance] = []

    def noted(*args: object, **kwargs: object) -> Glance:
        glance = Glance(*args, **kwargs)  # type: ignore[arg-type]
        started.append(glance)
        return glance

    monkeypatch.setattr(tops, "Glance", noted)
    return started


def test_the_helper_answers_a_glance_while_another_still_runs() -> None:
    # 3 players, Avalanche, round-robin 8071: Glucose cannot decide the 30 in a minute. While a glance
    # at it runs in the helper, a glance asked after it (5p round-robin 1494, a 30 in about 0.1 s) is
    # answered at once, each glance in a thread of its own there (`solver.helper`), not after the first.
    assert helping.start(wait=30) is not None
    model = Deal.of(THREE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8071))
    long = Glance(model, 30, model.start())
    long.start()
    try:
        quick = Glance(*_glance_of_1494())
        quick.start()
        assert long.in_helper and quick.in_helper
        assert quick.done.wait(30.0) and quick.decided and quick.answer() is not None
        assert not long.done.is_set()
    finally:
        long.stop()
    assert long.done.is_set() and not long.decided


def test_a_second_glance_at_a_whole_question_waits_for_the_first_and_goes_on_from_it() -> None:
    # 5 players, Avalanche, round-robin 8329: Glucose on the ladder refutes 30 after about 47,000
    # conflicts. The glance at the top asks that whole question (a lead of 1,000 spent, it goes on);
    # an anchored glance with no anchor, asking the same question in the same process, does not load a
    # Glucose of its own while the first runs: it waits (`glance._Parked.claim`), and once the first is
    # stopped (its Glucose kept), it goes on from it and refutes 30. A third one, stopped while it
    # waits, ends at once, undecided.
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8329))
    root = model.start()
    first = Glance(model, 30, root, helper=False, lead=1_000, ladder=True)
    first.start()
    assert first.led.wait(60)
    second = Glance(model, 30, root, helper=False, anchors=Anchors((), (), 0, True), ladder=True)
    second.start()
    third = Glance(model, 30, root, helper=False, anchors=Anchors((), (), 0, True), ladder=True)
    third.start()
    time.sleep(0.3)
    assert not first.done.is_set() and not second.done.is_set() and not third.done.is_set()
    assert second._work._solver is None and third._work._solver is None  # (neither has a Glucose yet)
    began = time.perf_counter()
    third.stop()
    assert time.perf_counter() - began < 1.0 and not third.decided
    first.stop()
    assert not first.decided
    assert second.done.wait(120) and second.decided and second.answer() is None
    assert second._work.resumed


def test_after_the_lead_of_a_glance_on_the_ladder_cadical_takes_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    # The glance at the top keeps the other configuration's place in the model's first question until
    # it has spent its lead. On the ladder (5p Avalanche round-robin 8329 at 30, asked as it is), its
    # lead has had the other configuration's time: CaDiCaL then races in its place at once, and the
    # other configuration never starts (`solver.tops.LADDER_LEAD`). Told its endings (744 at 28, on
    # the nine values), the other configuration takes the place, and CaDiCaL waits for its work.
    # (The racers are stand-ins that never answer: the question ends when it is stopped.)
    ran: list[str] = []

    def cp_sat(question: race.Question, solver: object) -> None:
        ran.append("first" if solver is question._solver else "other")
        question._over.wait(question._seconds)

    def cadical(question: race.Question, start: object) -> None:
        if question._outlasts(question._spent):
            ran.append("cadical")

    def no_run() -> clauses.Rival:
        raise AssertionError("the stand-in for CaDiCaL's racer never starts a run")

    monkeypatch.setattr(race.Question, "_race", cp_sat)
    monkeypatch.setattr(race.Question, "_race_clauses", cadical)
    ladder_model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(8329))
    told_model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(744))
    for model, target, ends, ladder, expected in (
        (ladder_model, 30, (), True, ["cadical", "first"]),
        (told_model, 28, ((5, 5, 5, 5, 5, 3),), False, ["first", "other"]),
    ):
        ran.clear()
        glance = Glance(model, target, model.start(), ends, helper=False, lead=1_000, ladder=ladder)
        glance.start()
        question = race.Question(model, target, 30.0, race=True, ends=ends, rival=no_run, rival_after=1.0, glance=glance)
        assert question.glancing
        question.start()
        deadline = time.perf_counter() + 60
        while len(ran) < 2 and time.perf_counter() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        question.stop()
        assert glance.done.is_set() and not glance.decided
        assert sorted(ran) == expected


def test_the_glance_decides_a_deal_before_the_model_joins(monkeypatch: pytest.MonkeyPatch) -> None:
    # 4 players, Avalanche, seed 148: the search alone has not found the 30 after 100,000 positions
    # (`test_portfolio_finds_a_narrow_win_the_search_alone_misses`). With the model never joining
    # (and never answering), Glucose's glance at the bound, started 1,000 positions into the search,
    # finds the win, and the line is replayed through the engine by `solve`.
    # The helper process ready, the glance is its.
    settings = Settings(players=4, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    decided = glances_alone(monkeypatch)
    assert helping.start(wait=30) is not None
    result = solve(settings, Variant.AVALANCHE.shuffled_deck(148), time_limit=120)
    assert (result.verdict, result.score) == ("win", 30)
    assert [glance.target for glance in decided] == [30] and decided[0].decided and decided[0].in_helper


def test_the_glance_starts_within_the_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    # 4 players, Avalanche, seed 148: the greedy line falls short of the bound, and the probes (3,750
    # positions at the bound, then 625 for each target below it) find no line. The glance is due
    # once the search has spent `GLANCE_AFTER` positions on the deal, probes included: it starts
    # after the probe's move order under way (375 positions each), long before the climb begins.
    without_the_tight_question(monkeypatch)
    settings = Settings(players=4, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    glances_alone(monkeypatch)
    searches: list[Search] = []

    class Noted(Search):
        def __init__(self, model: Deal) -> None:
            super().__init__(model)
            searches.append(self)

    begun: list[tuple[str, int]] = []
    start, climb = tops.Glances.start, climbing.climb

    def glance_noted(glances: tops.Glances, top: int, best: int) -> tuple[int, str | None]:
        begun.append(("glance", searches[-1].nodes))
        return start(glances, top, best)

    def climb_noted(*args: Any) -> tuple[int, list[Move], str | None, int]:
        begun.append(("climb", searches[-1].nodes))
        return climb(*args)

    monkeypatch.setattr(climbing, "Search", Noted)
    monkeypatch.setattr(tops.Glances, "start", glance_noted)
    monkeypatch.setattr(climbing, "climb", climb_noted)
    outcome = climbing.best_line(Deal.of(settings, Variant.AVALANCHE.shuffled_deck(148)), time_limit=120)
    assert (outcome.verdict, outcome.score) == ("win", 30)
    (what, glanced_at), (then, climbed_at) = begun[:2]
    assert (what, then) == ("glance", "climb")
    assert 1_000 <= glanced_at <= 1_000 + climbing.PROBE_TOP // probing.PROBE_ORDERS + 50  # (a slice ends a few over)
    assert climbed_at >= climbing.PROBE_TOP


def test_a_glance_refuting_the_bound_explains_it_as_the_model_would(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, round-robin seed 744, true best 27 (`test_endings`): the bounds leave one
    # way for the fireworks to end at 28. Glucose, told it, refutes it (in about 0.7 s), and glances
    # at once at 27, which it finds (the search has 25 by then); the model never answers. The reason
    # is the one the model's refutation gives.
    glances = glances_alone(monkeypatch)
    result = solve(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(744), time_limit=120)
    assert (result.verdict, result.score, result.upper) == ("loss", 27, 27)
    assert result.reason is not None and result.reason.startswith("no line scores 28: of the 21 ways")
    assert result.reason.endswith("the constraint model proved that the fireworks cannot end at the other 1")
    # One point at a time: 28 told its one open ending, then (unless the search found 27 first) 27.
    assert [(glance.target, glance.ends) for glance in glances[:1]] == [(28, ((5, 5, 5, 5, 5, 3),))]
    assert [glance.target for glance in glances] == [28, 27][: len(glances)]


def test_once_the_model_has_refuted_a_top_glucose_glances_at_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, round-robin seed 744, true best 27: the model joining right after the
    # probes, its question for 28 (told the one ending left open) is decided by the glance at 28 in
    # the other configuration's place (about 1.5 s; CP-SAT cannot in minutes). Glucose then glances
    # at 27 at once, as before the model joins, and that glance races the model's question for 27
    # (it finds the 27 in about 0.3 s; without it, the pair and the anchored glance took 0.5-0.8 s).
    assert helping.start(wait=30) is not None
    monkeypatch.setattr(climbing, "MODEL_JOINS", 1)
    monkeypatch.setattr(climbing, "SHUFFLED_JOINS", 0)
    monkeypatch.setattr(asking, "RACE", True)
    started: list[Glance] = []

    def noted(*args: object, **kwargs: object) -> Glance:
        started.append(Glance(*args, **kwargs))  # type: ignore[arg-type]
        return started[-1]

    asked: list[tuple[int, bool]] = []

    def question(*args: Any, **kwargs: Any) -> race.Question:
        made = REAL_QUESTION(*args, **kwargs)
        asked.append((made.target, made.glancing))
        return made

    monkeypatch.setattr(tops, "Glance", noted)
    monkeypatch.setattr(race, "Question", question)
    result = solve(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(744), time_limit=120)
    assert (result.verdict, result.score, result.upper) == ("loss", 27, 27)
    assert [glance.target for glance in started] == [28, 27]
    assert asked[0] == (28, True) and all(glancing for target, glancing in asked if target == 27)


def test_a_decided_glance_cuts_the_short_search_before_the_model() -> None:
    # 5 players, Avalanche, round-robin seed 1494: just before the model joins, the burning orders
    # search 2,000 positions for the 30 (`solver.climb._short_of_the_model`). Once the glance has decided,
    # they search none: the glance's answer is taken at once, and the model is not built.
    model = Deal.of(FIVE_ROUND_ROBIN, Variant.AVALANCHE.shuffled_deck(1494))
    search = Search(model)
    short = climbing._short_of_the_model(model, search, model.start(), 30, 0, [], None, None, None, True, lambda: True)
    assert short[3] is None and search.nodes == 0
    climbing._short_of_the_model(model, search, model.start(), 30, 0, [], None, None, None, True, lambda: False)
    assert search.nodes >= climbing.BURN_JOIN


def test_a_helper_closed_at_exit_ends_without_an_error_in_its_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    # `close` (run at exit) closes the pipe to the helper, which ends at once; its reader hears that
    # and closes the same pipe. `Connection.close` lets go of the interpreter lock between closing the
    # descriptor and noting it: here that gap is held open for 0.5 s. The two closes take turns, so
    # the reader finds the pipe closed, rather than closing its descriptor again (EBADF, a traceback
    # printed at the exit of every command that had started a helper).
    helper = helping.Helper()
    assert helper.ready.wait(30)
    errors: list[BaseException | None] = []
    monkeypatch.setattr("threading.excepthook", lambda hook: errors.append(hook.exc_value))
    outbox = helper._outbox
    closing = outbox._close  # type: ignore[attr-defined]  # (private: the step that closes the descriptor)

    def slow_close() -> None:
        closing()
        time.sleep(0.5)

    monkeypatch.setattr(outbox, "_close", slow_close)
    helper.close()
    deadline = time.monotonic() + 10.0
    while helper.alive and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)  # (the reader's last steps, after it notes the helper gone)
    assert not helper.alive and errors == []
