"""The seat-by-seat bound on the last turns: hand-made answers and soundness near the end of real games."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import islice

import pytest

from deducer import Ending, Settings, Variant
from solver import endgame, race, search
from solver.bounds import arrivals, crowded, excess, explain, upper_bound
from solver.brute import best_score
from solver.climb import best_line
from solver.endgame import all_played, final_round, most_plays, one_a_turn
from solver.greedy import greedy_move
from solver.model import ONGOING, Deal, Position, Rules
from solver.solve import solve
from tests.helpers import late_positions, random_late_cards

M1, M2, M3, M4, M5 = 25, 26, 27, 28, 29  # multicolour cards of the avalanche deck


def test_most_plays_by_hand() -> None:
    # Two players; m2 is drawn by the first of the last three turns that draw, then the final round.
    # m2 can be played at the second of them, m3 (seat 1's) at the third, which makes seat 1 the
    # last drawer: the final round is seat 0 then seat 1. So m4 (anybody's) is played by seat 0,
    # and m5 must be seat 1's: held by seat 0 it is lost; held by seat 1, all four are played.
    tail = ((0, M2),)
    cards = (M2, M3, M4, M5)
    assert most_plays(2, 5, 3, tail, -1, 0, cards, (0, 0b10, 0b11, 0b01)) == 3
    assert most_plays(2, 5, 3, tail, -1, 0, cards, (0, 0b10, 0b11, 0b10)) == 4
    # In the final round itself, the seats go round from the one to play.
    assert most_plays(2, 5, 0, (), 2, 0, (M4, M5), (0b01, 0b10)) == 2
    assert most_plays(2, 5, 0, (), 2, 1, (M4, M5), (0b01, 0b10)) == 1


Tail = tuple[tuple[int, int], ...]
Cards = tuple[int, ...]


def plain_most_plays(players: int, drawing: int, tail: Tail, final: int, player: int, cards: Cards, masks: Cards) -> int:
    """`most_plays` as its docstring says it, by plain recursion over every choice of every turn (no
    memo, no pruning; five ranks). `held[card]`: the seats that may hold it; a played card is gone."""
    everyone = (1 << players) - 1
    arriving = {turn: card for turn, card in tail}
    turns = drawing + (players if final < 0 else final)

    def best(turn: int, held: dict[int, int], previous: int) -> int:
        if turn == turns:
            return 0
        # the next card of each suit, if a seat may hold it
        fronts = [min(card for card in held if card // 5 == suit) for suit in {card // 5 for card in held}]
        fronts = [card for card in fronts if held[card]]
        if turn >= drawing:  # the final round: the seat after `previous` plays a card it holds, or not
            seat = (previous + 1) % players
            plays = [1 + best(turn + 1, _without(held, card), seat) for card in fronts if held[card] >> seat & 1]
            return max([best(turn + 1, held, seat), *plays])
        new = arriving.get(turn, -1)
        last = turn == drawing - 1
        outcomes = []
        for card in fronts:  # a seat holding `card` plays it and draws `new`
            for seat in [seat for seat in range(players) if held[card] >> seat & 1] if last else [-1]:
                taker = 1 << seat if last else held[card]
                outcomes.append(1 + best(turn + 1, _drawing(_without(held, card), new, taker), seat))
        for seat in range(players) if last else [-1]:  # any seat plays nothing and draws `new`
            outcomes.append(best(turn + 1, _drawing(held, new, 1 << seat if last else everyone), seat))
        return max(outcomes)

    start = (player - 1) % players if drawing == 0 else -1
    return best(0, dict(zip(cards, masks)), start)


def _without(held: dict[int, int], card: int) -> dict[int, int]:
    return {other: seats for other, seats in held.items() if other != card}


def _drawing(held: dict[int, int], card: int, seats: int) -> dict[int, int]:
    return held if card not in held else {**held, card: held[card] | seats}


def test_most_plays_agrees_with_plain_recursion_on_small_relaxations() -> None:
    # Random relaxations of 2-3 players, one to three suits of up to three late cards (each a top
    # segment of its suit), up to four turns that draw (each drawing one of the cards, or none), or
    # the deck already empty with 1-3 turns of the final round left.
    rng = random.Random(12)
    checked = 0
    for _ in range(1500):
        players = rng.choice((2, 3))
        cards, masks, drawing, final, tail = random_late_cards(rng, players)
        player = rng.randrange(players)
        relaxation = (players, drawing, tail, final, player, cards, masks)
        expected = plain_most_plays(*relaxation)
        assert most_plays(players, 5, drawing, tail, final, player, cards, masks) == expected, relaxation
        for most in range(expected + 1):  # `most` caps the answer
            assert most_plays(players, 5, drawing, tail, final, player, cards, masks, most) == min(expected, most)
        checked += expected > 0
    assert checked > 1000


def test_one_a_turn_bounds_most_plays() -> None:
    # Five players, m1-m5 needed, m1 the last card of the deck (the one turn that still draws draws
    # it), m2 seat 1's, m3 and m4 anybody's, m5 seat 0's. Six turns are left, but m1 is its drawer's,
    # who takes the very last turn: one play, where the search began at five.
    cards = (M1, M2, M3, M4, M5)
    masks = (0, 2, 31, 31, 1)
    assert one_a_turn(5, 5, 1, ((0, M1),), -1, cards, masks) == 1 == most_plays(5, 5, 1, ((0, M1),), -1, 0, cards, masks)
    # Drawn by the first of three turns that draw, m1 is played at the second, m2-m4 at the next three,
    # m5 at none of the seven turns (it is nobody's); with m4 not held, and no copy drawn, only m1-m3.
    assert one_a_turn(5, 5, 3, ((0, M1),), -1, cards, (0, 2, 31, 31, 0)) == 4
    assert one_a_turn(5, 5, 3, ((0, M1),), -1, cards, (0, 2, 31, 0, 31)) == 3
    # In the final round (deck empty, three turns from the seat to play), three of the cards held.
    assert one_a_turn(5, 5, 0, (), 3, (M3, M4, M5), (1, 2, 4)) == 3
    # Never below the plain recursion on small random relaxations, and as low as it on most.
    rng = random.Random(13)
    tight = 0
    for _ in range(1500):
        players = rng.choice((2, 3))
        late, seats, drawing, final, tail = random_late_cards(rng, players)
        expected = plain_most_plays(players, drawing, tail, final, rng.randrange(players), late, seats)
        bound = one_a_turn(players, 5, drawing, tail, final, late, seats)
        assert bound >= expected, (players, drawing, tail, final, late, seats)
        tight += bound == expected
    assert tight > 1000, tight


def old_bound(deal: Deal, position: Position, *_: object) -> int:
    """Pace and hand capacity only (the bound before the seats were counted; never the copies)."""
    demand = arrivals(deal, position)
    return sum(position[3]) - max(excess(deal, position, demand)[0], crowded(deal, position, demand)[0])


def test_seats_bound_a_small_deal_below_pace() -> None:
    # One suit of five single cards, two players with two cards each: seat 0 holds a1 and a2, seat 1
    # a3 and a4, and a5 is the only card left. Pace allows three plays (the turn that draws a5, then
    # one turn each), but the two of them come from seat 0, so the final round (seat 1, then seat 0)
    # plays at most one after the drawing turn: a1, then a2, for 2 points.
    deal = Deal(Rules(suits=1, copies=(1,) * 5, players=2, hand_size=2, ending=Ending.STANDARD), (1, 3, 0, 2, 4), (0, 1, 0, 1))
    root = deal.start()
    assert old_bound(deal, root) == 3
    assert upper_bound(deal, root) == 2 == best_score(deal)
    reason = explain(deal, root).reason or ""
    assert "seats" in reason and "final round" in reason, reason
    assert best_line(deal).score == 2


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bound_is_sound_near_the_end_of_real_games(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Mostly greedy games of the full avalanche deck, stopped 1-8 draws before the end, where the
    # seats bound is below pace: the search without it never reaches one point more than it allows.
    checked = 0
    for deal, position in islice(late_positions(players, players, 8), 3000):
        if upper_bound(deal, position) == old_bound(deal, position):
            continue
        with monkeypatch.context() as patch:
            patch.setattr(search, "upper_bound", old_bound)
            assert search.Search(deal).reach(position, upper_bound(deal, position) + 1) is None, (deal.deck, position)
        checked += 1
        if checked == 30:
            break
    assert checked == 30


def plain_all_played(cards: list[int], ready: list[int], turns: int) -> bool:
    """Can all of `cards` be played in `turns` turns, by plain recursion: at each, any card held by
    then whose rank below is played (or is not among `cards`), or none (five ranks)?"""

    def all_played(turn: int, played: frozenset[int]) -> bool:
        if len(played) == len(cards):
            return True
        if turn == turns:
            return False
        below = [i == 0 or card % 5 == 0 or cards[i - 1] != card - 1 or i - 1 in played for i, card in enumerate(cards)]
        fronts = [i for i in range(len(cards)) if i not in played and below[i] and ready[i] <= turn]
        return any(all_played(turn + 1, played | {i}) for i in fronts) or all_played(turn + 1, played)

    return all_played(0, frozenset())


def test_all_played_agrees_with_plain_recursion() -> None:
    # Random relaxations: one to three suits of up to four late cards, up to eight turns that draw,
    # each card held from the start or from a random turn (or never). The plain recursion tries every
    # card or none at every turn that draws, and at one turn more (the last card is played in the
    # final round).
    rng = random.Random(7)
    answers = [0, 0]
    for _ in range(3000):
        suits = rng.sample(range(6), rng.randint(1, 3))
        cards = sorted(suit * 5 + rank for suit in suits for rank in range(rng.randint(1, 4), 5))
        drawing = rng.randint(0, 8)
        ready = [0 if rng.random() < 0.5 else rng.randint(1, drawing + 1) for _ in cards]

        expected = plain_all_played(cards, ready, drawing + 1)
        assert all_played(5, cards, ready, drawing) == expected, (cards, ready, drawing)
        answers[expected] += 1
    assert min(answers) > 500, answers


def test_final_round_agrees_with_most_plays() -> None:
    # One suit's late cards in the last turns of the game (the deck empty), 2-5 players, random seats
    # holding each: the walk round the table plays as many as the relaxation searched in full.
    rng = random.Random(5)
    answers = set()
    for _ in range(2000):
        players = rng.randint(2, 5)
        cards = tuple(range(rng.randint(0, 4), 5))  # (a top segment of the first suit)
        masks = tuple(rng.randrange(1 << players) for _ in cards)
        turns, player = rng.randint(1, players), rng.randrange(players)
        expected = most_plays(players, 5, 0, (), turns, player, cards, masks)
        assert final_round(players, player, turns, list(masks)) == expected, (players, player, turns, masks)
        answers.add(expected)
    assert answers == {0, 1, 2, 3, 4, 5}


def plain_plays(deal: Deal, position: Position, holders: dict[int, int], cards: list[int], threshold: int, most: int = 99) -> int:
    """`endgame._plays` with no shortcut: `most_plays` asked for every relaxation."""
    start = max(threshold, position[1]) if position[6] < 0 else deal.size
    masks, tail = endgame.whereabouts(deal, position, holders, cards, start)
    seat = position[0] if position[6] >= 0 else 0
    return most_plays(deal.rules.players, 5, deal.size - start, tail, position[6], seat, tuple(cards), masks, most)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_seats_bound_is_the_same_without_the_shortcuts(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # `late_cards_lost` where `most_plays` is asked for every relaxation, against the one with the
    # shortcuts (`all_played`, `final_round`), at positions of mostly greedy games 1-40 draws before
    # the end, or played on greedily into the final round; each shortcut answers often.
    used = {"all_played": 0, "final_round": 0}
    positions_seen: list[bool] = []  # (in the final round?)
    for name in used:
        shortcut = getattr(endgame, name)

        def counted(*args: object, shortcut: Callable[..., object] = shortcut, name: str = name) -> object:
            answer = shortcut(*args)
            used[name] += answer is True or (name == "final_round")
            return answer

        monkeypatch.setattr(endgame, name, counted)
    for deal, position in islice(late_positions(players, 40 + players, 40), 800):
        for _ in range(200 if len(positions_seen) % 2 else 0):  # (half of them: played on into the final round)
            if deal.status(position) != ONGOING or position[6] >= 0:
                break
            position = deal.play(position, greedy_move(deal, position, deal.moves(position), True))
        if deal.status(position) != ONGOING:
            continue
        positions_seen.append(position[6] >= 0)
        demand = arrivals(deal, position)
        with_shortcuts = endgame.late_cards_lost(deal, position, demand)
        with monkeypatch.context() as patch:
            patch.setattr(endgame, "_plays", plain_plays)
            assert endgame.late_cards_lost(deal, position, demand) == with_shortcuts, (deal.deck, position)
    assert min(used.values()) >= 30 and sum(positions_seen) >= 100, used


def test_three_players_lose_the_last_multicolour_card() -> None:
    # Avalanche deck 19, three players, standard rules: seat 2 is dealt m3 and m5, m4 is deck card
    # 28, m2 card 46 and m1 card 53 of 55. After m1 is drawn only five turns can still play (the
    # turns drawing the last two cards, then one each): they must play m1-m5 in order, m3-m5 in the
    # final round, which seats Z+1, Z+2, Z hold, Z having drawn the last card. Seat 2 cannot be both
    # Z+1 and Z, so a point is lost. The constraint model, which knows nothing of this, agrees.
    settings = Settings(players=3, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    deck = settings.variant.shuffled_deck(19)
    model = Deal.of(settings, deck)
    hands = model.start()[7]
    assert M3 in hands[2] and M5 in hands[2] and model.deck[52] == M3 - 2
    assert old_bound(model, model.start()) == 30 and upper_bound(model, model.start()) == 29
    result = solve(settings, deck)
    assert result.verdict == "loss" and result.score == 29
    assert (result.reason or "").startswith("seats: m1, m2, m3, m4, m5 can only be played after deck card 53")
    assert race.reach(model, 30) is None
