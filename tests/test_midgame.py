"""The solver from any position of a game: brute force on reduced deals, monotone best scores on real ones."""

from __future__ import annotations

import random

import pytest

from deducer import Ending, Settings, Variant
from deducer.dealer import advance
from deducer.playout import playout
from deducer.record import turn_states
from solver.brute import Brute
from solver.climb import best_line
from solver.model import Deal, Position
from solver.solve import SolverError, solve, solve_from
from tests.helpers import random_settings
from tests.test_solver import small_deals


def position_in_play(model: Deal, rng: random.Random, most: int) -> tuple[Position, int] | None:
    """The position the search builds after 1 to `most` random legal actions of the brute force, and
    its best score by brute force (None if the game has ended)."""
    brute = Brute(model)
    state = brute.start()
    for _ in range(rng.randint(1, most)):
        children = brute.children(state)
        if brute.result(state) is not None or not children:
            break
        state = rng.choice(children)
    if brute.result(state) is not None:
        return None
    player, drawn, fireworks, clues, strikes, discards, final, hands = state
    return model.position(player, drawn, fireworks, discards, clues, strikes, final, hands), brute.value(state)


@pytest.mark.parametrize("seed", range(2))
def test_mid_game_positions_agree_with_brute_force(seed: int) -> None:
    # Reduced deals, a few random legal actions in (clue tokens spent, strikes, cards lost): the
    # search from the position the model builds (caps from the discards, trash merged) finds the
    # brute force's best score.
    rng = random.Random(seed)
    checked = 0
    for model in small_deals(100 + seed, 250):
        played = position_in_play(model, rng, 6)
        if played is None:
            continue
        root, truth = played
        assert best_line(model, root=root).score == truth, (model.rules, model.deck, root)
        checked += 1
    assert checked > 150


def test_best_scores_never_rise_and_the_best_line_keeps_them() -> None:
    # At every turn of random full games (every option, noisy bots that waste cards): the best score
    # from turn N is at most the best from turn N-1, and equals it when turn N-1's line was followed;
    # every line replays from its own position to the score it claims.
    rng = random.Random(8)
    drops = 0
    for game in range(40):
        settings = random_settings(rng)
        record = playout(settings, seed=game, noise=rng.choice([0.2, 0.5]))
        assert record.deck is not None
        states = turn_states(record)
        previous = None
        for state in states:
            solution = solve_from(state, record.deck, time_limit=30)
            assert solution.verdict in ("win", "loss")
            end = state
            for action in solution.line:
                end = advance(end, action, record.deck)
            if solution.verdict == "win":
                assert end.won and end.over
            elif settings.ending is Ending.STANDARD:  # (a Crowning Piece loss line may stop where the bound proves it)
                assert (end.score if end.over else state.score) == solution.score
            if previous is not None:
                assert solution.score <= previous.score
                drops += solution.score < previous.score
            if solution.line:
                followed = solve_from(advance(state, solution.line[0], record.deck), record.deck, time_limit=30)
                assert followed.score == solution.score
            previous = solution
        assert solve_from(states[0], record.deck).score == solve(settings, record.deck).score
        assert previous is not None and previous.score == states[-1].score  # the game is over
    assert drops > 10  # the noisy bots did lose points along the way


def test_a_game_over_solves_to_its_score() -> None:
    record = playout(Settings(players=3, ending=Ending.STANDARD), seed=3, noise=0.5)
    assert record.deck is not None
    final = turn_states(record)[-1]
    solution = solve_from(final, record.deck)
    assert solution.line == () and solution.score == final.score and solution.nodes == 0


def test_the_ceiling_of_an_earlier_position_is_kept() -> None:
    settings = Settings(players=4, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    record = playout(settings, seed=11, noise=0.3)
    assert record.deck is not None
    state = turn_states(record)[10]
    free = solve_from(state, record.deck)
    assert solve_from(state, record.deck, ceiling=free.score).score == free.score


def test_a_position_waiting_for_a_draw_is_refused() -> None:
    record = playout(Settings(players=2), seed=1)
    assert record.deck is not None
    from deducer.record import replay

    waiting = next(state for state in replay(record) if state.must_draw is not None and not state.dealing)
    with pytest.raises(SolverError, match="waits for a draw"):
        solve_from(waiting, record.deck)
