"""The draw windows of the constraint model: every line of small deals, and hand-made deals."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from deducer import Ending, Settings, Variant
from deducer.settings import MAX_CLUES, MAX_STRIKES
from solver import race, sat
from solver.brute import best_score
from solver.model import ANNOUNCE, DISCARD, HINT, MISPLAY, ONGOING, PLAY, Deal, Move, Position, Rules
from solver.search import OutOfBudget
from solver.windows import draw_windows, drawn_by_now
from tests.test_midgame import position_in_play
from tests.test_sat import agrees, targets
from tests.test_solver import small_deals


def every_move(model: Deal, position: Position) -> list[Move]:
    """Every legal move, the dominated ones too (`Deal.moves` leaves some out), but never a third strike."""
    _, _, fireworks, _, clues, strikes, _, hands = position
    player = position[0]
    moves: list[Move] = [(HINT, -1)] if model.can_hint(position) else []
    for card in sorted(set(hands[player])):
        if model.playable(fireworks, card):
            moves.append((PLAY, card))
            if model.rules.choreography:
                moves.append((ANNOUNCE, card))
        if (model.rules.choreography or not model.playable(fireworks, card)) and strikes + 1 < MAX_STRIKES:
            moves.append((MISPLAY, card))
        if clues < MAX_CLUES:
            moves.append((DISCARD, card))
    return moves


def draws(model: Deal, root: Position) -> Iterator[tuple[int, int, int]]:
    """(deck card, turn from `root`, discards and misplays so far) for the draws of every line from
    `root`, turn by turn; of the lines reaching the same position on the same turn, only the one with
    the fewest discards and misplays (its windows are the narrowest: a window only widens with them)."""
    layer = {root: 0}
    turn = 0
    while layer:
        following: dict[Position, int] = {}
        for position, lost in layer.items():
            if model.status(position) != ONGOING:
                continue
            for move in every_move(model, position):
                after = model.play(position, move)
                spent = lost + (move[0] in (DISCARD, MISPLAY))
                if after[1] > position[1]:
                    yield position[1], turn, spent
                following[after] = min(spent, following.get(after, spent))
        layer = following
        turn += 1


def check_every_line(model: Deal, root: Position) -> dict[int, int]:
    """Assert that every draw of every line from `root` is inside its window, the window for the
    discards and misplays made so far (a line that makes more could not have afforded them); return
    the first turn at which some line draws each card."""
    first: dict[int, int] = {}
    windows: dict[int, list[range]] = {}
    for card, turn, lost in draws(model, root):
        if lost not in windows:
            windows[lost] = draw_windows(model, root, lost)
        assert turn in windows[lost][card], (model.rules, model.deck, root, card, turn, lost, windows[lost][card])
        first[card] = min(turn, first.get(card, turn))
    return first


def slow_starts(seed: int, count: int) -> list[Deal]:
    """Small deals (2 players with two cards each, 2 suits of 4 ranks or 3 of 3, every option) whose
    1s are the last cards, so that the first acts can be neither plays nor discards."""
    rng = random.Random(seed)
    deals: list[Deal] = []
    while len(deals) < count:
        suits = rng.randint(2, 3)
        ranks = 6 - suits
        rules = Rules(
            suits=suits,
            ranks=ranks,
            copies=(1,) * ranks,
            players=2,
            hand_size=2,
            ending=rng.choice(list(Ending)),
            choreography=rng.random() < 0.2,
            empty_hints=rng.random() < 0.3,
        )
        deck = list(range(suits * ranks))
        deck.sort(key=lambda card: rng.random() + (card % ranks == 0))
        deals.append(Deal(rules, deck, [0, 1, 0, 1]))
    return deals


def test_every_line_of_small_deals_draws_inside_its_window() -> None:
    # Small deals from the opening deal and from positions a few random actions in (tokens spent,
    # strikes, cards lost): every draw of every legal line, dominated moves included, falls inside
    # its window. Where a window starts later than one draw a turn, many lines draw right at its
    # start: the bound is as tight as it can be there.
    rng = random.Random(5)
    roots = 0
    cut = tight = 0
    for model in small_deals(106, 60) + slow_starts(107, 80):
        if not sat.applies(model):
            continue
        played = position_in_play(model, rng, 4)
        for root in (model.start(), None if played is None else played[0]):
            if root is None:
                continue
            first = check_every_line(model, root)
            roots += 1
            for card, turn in first.items():
                start = draw_windows(model, root, model.size)[card].start
                if start > card - root[1]:
                    cut += 1
                    tight += turn == start
    assert roots >= 170 and cut >= 80 and tight >= 30, (roots, cut, tight)


def hurried() -> Deal:
    """Two players, two cards each, red and blue 1-4 (one copy each): the hands hold r4 b4 r3 b3, the
    deck r2 b2 r1 b1 in that order. Nothing is playable until r1 is drawn."""
    rules = Rules(suits=2, ranks=4, copies=(1, 1, 1, 1), players=2, hand_size=2, ending=Ending.STANDARD)
    r1, r2, r3, r4, b1, b2, b3, b4 = range(8)
    return Deal(rules, [r4, b4, r3, b3, r2, b2, r1, b1], [0, 1, 0, 1])


def test_the_first_discard_waits_for_a_hint() -> None:
    # r2 and b2 can be drawn at once (Alice and Bob misplay: 2 strikes). The third draw, r1, needs a
    # third act: not a misplay (a third strike ends the game), not a play (nothing is playable), so a
    # discard, which at 8 clue tokens needs a hint first: turn 3 at the earliest, and some line draws
    # it then. The bound lets b1 come next, at turn 4, counting r1 as played at once; but r1 went to
    # Bob, who has just acted, and Alice at 8 tokens can only hint: b1 comes at turn 5.
    model = hurried()
    windows = draw_windows(model, model.start(), model.size)
    assert [window.start for window in windows[4:]] == [0, 1, 3, 4]
    assert check_every_line(model, model.start()) == {4: 0, 5: 1, 6: 3, 7: 5}


def test_hints_are_paid_for_by_the_tokens_at_hand_and_those_regained() -> None:
    # The same deal. The k-th draw comes after k acts and the hints before it, at most 8 (the tokens
    # at the start) plus one per discard among the k - 1 acts before (at most the pace: here 1) plus
    # one per top rank played (red can be completed once r1 is drawn): r2 by turn 8, b2 by 10, r1 by
    # 11, b1 by 13. From a position two misplays in, with 2 tokens left, 1 strike and the pace of 3:
    # r1 by turn 2 (two hints, then the act), b1 by turn 4 (a discard drew r1: one hint more).
    model = hurried()
    windows = draw_windows(model, model.start(), 1)
    assert [window.stop - 1 for window in windows[4:]] == [8, 10, 11, 13]
    after = model.play(model.play(model.start(), (MISPLAY, 3)), (MISPLAY, 7))  # r4 and b4 misplayed
    low = after[:4] + (2, 1) + after[6:]
    windows = draw_windows(model, low, 3)
    assert [(window.start, window.stop - 1) for window in windows[6:]] == [(0, 2), (1, 4)]
    check_every_line(model, low)


def test_the_model_with_its_windows_agrees_with_brute_force() -> None:
    # Where the windows cut (the 1s come last), the model still finds a line for every target
    # exactly when the brute force says one exists.
    checked = 0
    for model in slow_starts(108, 20):
        windows = draw_windows(model, model.start(), model.size)
        if all(window.start == card - model.start()[1] for card, window in enumerate(windows) if window):
            continue
        truth = best_score(model)
        assert all(agrees(model, truth, target) for target in targets(model)), (model.rules, model.deck)
        checked += 1
    assert checked >= 15


def test_the_windows_decide_a_loss_the_clue_tokens_make(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, standard rules, seed 839 dealt round-robin (true best 29): with hints free
    # the model finds a 30 at once, and with one clue token short it has none. Without the windows
    # the model had not refuted 30 after 90 s; with them it does in about a second (20 s allowed).
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    deal = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(839))
    assert race.reach(deal, 30, seconds=20) is None
    wide = [range(card - 20, 200) for card in range(deal.size)]  # one draw a turn at most, as before
    monkeypatch.setattr(sat, "question_windows", lambda deal, root, pace, ends: wide)
    with pytest.raises(OutOfBudget):
        race.reach(deal, 30, seconds=5)


def test_a_seat_lets_go_only_of_a_card_drawn_on_an_earlier_turn_of_its_own() -> None:
    # The model has a let-go variable for a deck card at turn t only if the seat acting at t can hold
    # it: some turn of its window, players turns or more before t, belongs to that seat.
    for players in range(2, 6):
        for start in range(12):
            for stop in range(start, start + 15):
                for t in range(32):
                    expected = any(d <= t - players and (t - d) % players == 0 for d in range(start, stop))
                    assert drawn_by_now(range(start, stop), t, players) == expected, (players, start, stop, t)
