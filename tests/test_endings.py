"""The endings of a score: their list, the bounds suit by suit, and the model told the endings left."""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

import pytest

from deducer import Ending, Settings, Variant
from deducer.settings import DealOrder
from solver import climb as climbing
from solver import race, sat, tops
from solver.brute import best_score
from solver.endings import Endings, Heights, capped, endings, open_endings, uncapped
from solver.glance import Glance
from solver.model import DISCARD, HINT, MISPLAY, ONGOING, TRASH, Deal, Position
from solver.search import Search
from solver.solve import solve
from tests.helpers import without_the_tight_question
from tests.test_midgame import position_in_play
from tests.test_sat import Asked, line_score, stand_in
from tests.test_solver import small_deals


def test_the_endings_are_every_height_from_each_firework_to_its_cap() -> None:
    # Against a product of ranges: random fireworks and caps (a lost card), every score between.
    rng = random.Random(1)
    model = Deal.of(Settings(players=3, variant=Variant.AVALANCHE), Variant.AVALANCHE.shuffled_deck(1))
    for _ in range(200):
        fireworks = tuple(rng.randint(0, 5) for _ in range(6))
        caps = tuple(rng.randint(height, 5) for height in fireworks)
        position = (0, 20, fireworks, caps, 8, 0, -1, ((),) * 3)
        for score in range(sum(fireworks) - 1, sum(caps) + 2):
            every = [h for h in itertools.product(*(range(f, c + 1) for f, c in zip(fireworks, caps))) if sum(h) == score]
            assert endings(model, position, score) == every


def test_a_capped_position_makes_trash_of_the_cards_above_its_heights() -> None:
    settings = Settings(players=5, variant=Variant.AVALANCHE, deal=DealOrder.ROUND_ROBIN)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(744))
    root = model.start()
    lowered = capped(model, root, (5, 5, 5, 5, 5, 3))
    assert lowered[3] == (5, 5, 5, 5, 5, 3) and lowered[:3] == root[:3] and lowered[4:7] == root[4:7]
    for before, after in zip(root[7], lowered[7]):
        assert sorted(TRASH if card in (28, 29) else card for card in before) == list(after)  # m4, m5


def test_the_bounds_leave_one_ending_of_744_and_the_model_refutes_it() -> None:
    # 5 players, Avalanche, round-robin seed 744, true best 27. At the deal the bound is 28 (pace): r5,
    # b1, y2 and m1 first come at deck card 47 or later, leaving 13 turns for the 15 cards from them
    # up. Of the 21 ways the fireworks can end at 28 (suits w r b y g m), the 5 that give up a white
    # or green card (never late) still leave 14 or 15 late cards for 13 turns: the pace. The 15 that
    # give up a red, blue or yellow card leave m1-m4 (and r5) to be played after deck card 54, one a
    # turn, each by the seat holding it: the seats. Only multicolour stopping at 3 is left, and the
    # constraint model, told so, proves it cannot be done either (a few seconds), where asked for 28
    # alone it could not decide in minutes.
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.ROUND_ROBIN)
    deck = Variant.AVALANCHE.shuffled_deck(744)
    model = Deal.of(settings, deck)
    ends = open_endings(model, model.start(), 28)
    assert ends is not None and ends.open == ((5, 5, 5, 5, 5, 3),) and ends.refuted == 20
    question = race.Question(model, 28, 120, ends=ends.open)
    question.run()
    assert question.proven and question.answer() is None
    result = solve(settings, deck, time_limit=120)
    assert (result.verdict, result.score, result.upper) == ("loss", 27, 27)
    assert result.reason is not None and result.reason.startswith("no line scores 28: of the 21 ways")


def test_a_narrow_loss_is_found_by_its_open_endings() -> None:
    # 4 players, Avalanche, per seat seed 301: the pace allows 29 (w4, r3, b5, y2, y5, g1, m2 late).
    # The clue tokens refute 4 of the 6 ways to end at 29 (giving up w5, r5, b5 or y5); green or
    # multicolour stopping at 4 is left, and the model finds a line for the first.
    settings = Settings(players=4, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
    deck = Variant.AVALANCHE.shuffled_deck(301)
    model = Deal.of(settings, deck)
    ends = open_endings(model, model.start(), 29)
    assert ends is not None and ends.open == ((5, 5, 5, 5, 4, 5), (5, 5, 5, 5, 5, 4))
    result = solve(settings, deck, time_limit=120)
    assert (result.verdict, result.score) == ("loss", 29)


def test_the_endings_of_a_top_are_bounded_once_for_the_glance_and_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, per seat seed 301, true best 29: the clue tokens refute 30 at the deal, and
    # of the 6 ways to end at 29 they refute 4 (the relaxation of each takes up to 0.4 s here). Where
    # two cores let Glucose glance at 29 before the model asks for it, both are told the 2 endings left
    # (those of green or multicolour stopping at 4): the bounds are run once, not once for each.
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
    deck = Variant.AVALANCHE.shuffled_deck(301)
    model = Deal.of(settings, deck)
    ends = open_endings(model, model.start(), 29)
    assert ends is not None and ends.open == ((5, 5, 5, 5, 4, 5), (5, 5, 5, 5, 5, 4)) and ends.refuted == 4
    bounded: list[int] = []

    def counted(model: Deal, root: Position, top: int) -> Endings | None:
        bounded.append(top)
        return open_endings(model, root, top)

    monkeypatch.setattr(tops, "open_endings", counted)
    result = solve(settings, deck, time_limit=60)
    assert (result.verdict, result.score, result.upper) == ("loss", 29, 29)
    assert bounded == [29]


@cache
def brute_forced() -> list[tuple[Deal, Position, int]]:
    """Reduced deals under standard rules that the model covers, at the deal and a few random actions
    in (caps from lost cards), each with its best score (brute force; computed once, for the tests
    of `solver.clauses` too)."""
    rng = random.Random(0)
    found: list[tuple[Deal, Position, int]] = []
    for model in small_deals(300, 500):
        if model.rules.ending is not Ending.STANDARD or not sat.applies(model):
            continue
        played = position_in_play(model, rng, 8)
        found += [(model, model.start(), best_score(model))] + ([(model, *played)] if played else [])
    return found


def test_the_endings_agree_with_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    # Reduced deals under standard rules, at the deal and a few random actions in (caps from lost
    # cards). For the true best score and one point more (no line beats either), the model told every
    # ending finds a line exactly for the true best; the bounds leave an ending of the true best open,
    # and the model told the endings they leave finds a line there too. Each question is asked alone,
    # then raced by the question as it is, which is given no time: the answer and its
    # line come from the model told the endings (built once the first solver has begun). Then raced
    # with Glucose's glance at it (stopped before it starts, undecided) in the other configuration's place:
    # the first configuration is the one told the endings, without the linear relaxation, and the
    # question as it is, with it, given no time once the glance is stopped (`race.TOLD_FIRST`).
    built: list[tuple[Heights, ...]] = []  # the endings each model of a question was told, in order (built in full)
    hinted = sat.hinted

    def noted(*args: Any) -> tuple[Any, sat.Turns]:
        model = hinted(*args)
        built.append(tuple(args[4]))
        return model

    monkeypatch.setattr(sat, "hinted", noted)
    found = refuted = by_bounds = 0
    for model, root, truth in brute_forced():
        for target in (truth, truth + 1):
            if not sum(root[2]) <= target < sum(root[3]):
                continue  # (the caps themselves: one ending, the root's own bound)
            ends = open_endings(model, root, target)
            assert ends is not None and (ends.open or target > truth), (model.deck, root, target)
            for heights in {tuple(endings(model, root, target)), ends.open}:
                if not heights:
                    by_bounds += 1
                    continue
                for raced in (False, True, "glanced"):  # alone, raced by the question as it is, or with a glance
                    glance = Glance(model, target, root, heights, helper=False) if raced == "glanced" else None
                    if glance is not None:  # (stopped before it starts: undecided, no clauses built)
                        glance.interrupt()
                        glance.start()
                    built.clear()
                    question = race.Question(model, target, root=root, ends=heights, race=bool(raced), glance=glance)
                    assert question.glancing == (glance is not None)
                    first, other = question._solvers[0], question._solvers[-1]
                    if raced:  # the question as it is, given no time: told the endings, its solver decides
                        (other if glance is not None else first).parameters.max_time_in_seconds = 1e-9
                        assert len(question._models) == 1  # (the other's is built once the first has begun)
                        levels = [solver.parameters.linearization_level for solver in question._solvers]
                        assert levels == ([0, 1] if glance is not None else [1, 0])
                    question.run()
                    assert built == ([heights, ()] if glance is not None else [(), heights] if raced else [heights])
                    line = question.answer()
                    assert (line is None) == (target > truth), (model.deck, root, target, heights, raced)
                    assert line is None or line_score(model, line, root) >= target
                    if raced:
                        assert (question._winner is first) == (glance is not None)
                found += line is not None
                refuted += line is None
    assert found >= 150 and refuted >= 50 and by_bounds >= 50


def test_a_line_of_a_capped_game_is_a_line_of_the_real_one() -> None:
    # Reduced deals under standard rules, at the deal and a few random actions in. For the true best
    # score, the search finds a line in the capped game of at least one of its endings (the best line
    # ends at one), and `uncapped` makes each line found a legal line of the real game scoring as much
    # (or gives up, rarely: a misplay whose every spare card can be played in the real game). One
    # point more, no capped game has a line (the real game would have it).
    converted = given_up = 0
    for model, root, truth in brute_forced():
        if not sum(root[2]) <= truth < sum(root[3]):
            continue
        lines = []
        for heights in endings(model, root, truth):
            line = Search(model).reach(capped(model, root, heights), truth)
            if line is None:
                continue
            real = uncapped(model, root, heights, line)
            given_up += real is None
            if real is not None:
                lines.append(real)
                position = root
                for move in real:
                    assert move in model.moves(position), (model.deck, root, heights, line)
                    position = model.play(position, move)
                assert model.status(position) != ONGOING and model.score(position) >= truth
        assert lines, (model.deck, root, truth)  # the best line ends at one of them
        converted += len(lines)
        for heights in endings(model, root, truth + 1) if truth + 1 <= sum(root[3]) else []:
            assert Search(model).reach(capped(model, root, heights), truth + 1) is None
    assert converted >= 200 and given_up <= converted // 20


def test_a_capped_line_lets_go_of_real_trash_first_and_keeps_its_hints() -> None:
    # 3 players, Avalanche, round-robin seed 3236: the first seat holds w2, w4, r3, g2 and m4 (ids 1,
    # 3, 7, 21 and 28); with multicolour stopping at 2, m3-m5 are trash. A hint stays a hint (its card,
    # -1, is the trash id's). The capped game's discard of trash is the discard of m4, or of a card
    # that is trash in the real game if the hand has one. Once m1 and m2 are played, m3 can be played in
    # the real game: a misplay of trash is of m4 if the hand has it, else it is given up.
    settings = Settings(players=3, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.ROUND_ROBIN)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(3236))
    root = model.start()
    heights = (5, 5, 5, 5, 5, 2)
    assert capped(model, root, heights)[7][0] == (TRASH, 1, 3, 7, 21) and root[7][0] == (1, 3, 7, 21, 28)
    assert uncapped(model, root, heights, [(HINT, -1)]) == [(HINT, -1)]
    with_tokens = (*root[:4], 7, *root[5:])
    assert uncapped(model, with_tokens, heights, [(DISCARD, TRASH)]) == [(DISCARD, 28)]
    trash_in_hand = (*root[:4], 7, *root[5:7], ((TRASH, 1, 3, 7, 28), *root[7][1:]))
    assert uncapped(model, trash_in_hand, heights, [(DISCARD, TRASH)]) == [(DISCARD, TRASH)]
    m3_only = (0, root[1], (0, 0, 0, 0, 0, 2), root[3], 8, 0, -1, ((1, 3, 7, 21, 27), *root[7][1:]))
    assert uncapped(model, m3_only, heights, [(MISPLAY, TRASH)]) is None
    m3_and_m4 = (*m3_only[:7], ((1, 3, 7, 27, 28), *root[7][1:]))
    assert uncapped(model, m3_and_m4, heights, [(MISPLAY, TRASH)]) == [(MISPLAY, 28)]


def test_a_capped_game_finds_the_line_of_a_loss_before_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    # 3 players, Avalanche, round-robin seed 3236, true best 27: the bounds leave one way to end at 27
    # (multicolour stopping at 2), and in its capped game the search finds a line in under 100
    # positions, where the model took about 3 s. The model is never asked; without the capped games
    # it is, for 27 told that ending. (No shuffled restarts before the model: they find it too.)
    settings = Settings(players=3, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.ROUND_ROBIN)
    deck = Variant.AVALANCHE.shuffled_deck(3236)
    asked = Asked(set(), real=False)
    stand_in(monkeypatch, asked)
    monkeypatch.setattr(climbing, "SHUFFLED_JOINS", 0)
    result = solve(settings, deck, node_limit=100_000)
    assert (result.verdict, result.score, result.upper, asked.targets) == ("loss", 27, 27, [])
    monkeypatch.setattr(climbing, "CAPPED_PROBE", 0)
    without_the_tight_question(monkeypatch)  # (the search finds the line with it, too)
    solve(settings, deck, node_limit=30_000)
    assert asked.targets[:1] == [27] and asked.ends[0] == ((5, 5, 5, 5, 5, 2),)
