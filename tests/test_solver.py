"""The solver: brute-force cross-checks, the model against the engine, known deals."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from itertools import pairwise, product

import pytest

from deducer import Card, Ending, GameState, Settings, Stuck, Variant
from deducer.cards import format_cards, parse_cards
from deducer.dealer import advance, deal
from deducer.settings import DealOrder
from solver import climb as climbing
from solver import greedy, probes
from solver.bounds import Bound, clues_bound
from solver.brute import Brute, TooBig, best_score
from solver.climb import best_line
from solver.greedy import greedy_line, greedy_move, greedy_start, quick_move
from solver.model import (
    ANNOUNCE,
    DISCARD,
    HINT,
    LOST,
    MISPLAY,
    ONGOING,
    OVER,
    PLAY,
    TRASH,
    WON,
    Deal,
    Move,
    Position,
    Rules,
    card_id,
)
from solver.probes import PROBE_ORDERS, probe_orders
from solver.replay import to_actions
from solver.search import USUAL, Ordering, OutOfBudget, Search
from solver.solve import Solution, SolverError, position_of, solve
from tests.helpers import full_deck, random_settings, without_the_tight_question


def small_deals(seed: int, count: int) -> list[Deal]:
    """Random reduced games: 2-3 suits, 2-3 ranks, 1-2 cards in hand, every option."""
    rng = random.Random(seed)
    deals: list[Deal] = []
    while len(deals) < count:
        suits, ranks, players, hand = rng.randint(2, 3), rng.randint(2, 3), rng.randint(2, 3), rng.randint(1, 2)
        rules = Rules(
            suits=suits,
            ranks=ranks,
            copies=rng.choice([(2, 1, 1), (1, 1, 1), (2, 2, 1)])[:ranks],
            single_suits=rng.choice([0, 1]),
            players=players,
            hand_size=hand,
            ending=rng.choice(list(Ending)),
            choreography=rng.random() < 0.15,
            empty_hints=rng.random() < 0.3,
            stuck=rng.choice(list(Stuck)),
        )
        deck = [card for card in range(suits * ranks) for _ in range(rules.copies_of(card))]
        if not players * hand < len(deck) <= (7 if rules.choreography else 9):
            continue  # keep the brute force quick
        rng.shuffle(deck)
        seats = [seat for _ in range(hand) for seat in range(players)]
        deals.append(Deal(rules, deck, seats))
    return deals


def replay_model(model: Deal, line: list[tuple[int, int]]) -> int:
    position = model.start()
    for move in line:
        assert move in model.moves(position)
        position = model.play(position, move)
    assert model.status(position) in (WON, OVER) or model.rules.ending is Ending.CROWNING
    return model.score(position)


@pytest.mark.parametrize("seed", range(4))
def test_search_agrees_with_brute_force_on_small_deals(seed: int) -> None:
    # 1400 random reduced deals in all, both rule sets: the best score is the brute force's,
    # and the line found reaches it. Asked only whether the maximum is reachable (`perfect`): a win
    # exactly where the brute force finds one, and otherwise a proven bound below the maximum, at or
    # above the best score, with a line that scores no more than it.
    kinds: dict[tuple[str, bool], int] = {}
    undecided = 0
    for model in small_deals(seed, 350):
        truth, maximum = best_score(model), model.rules.max_score
        outcome = best_line(model)
        assert outcome.score == truth, (model.rules, model.deck)
        assert outcome.verdict == ("win" if truth == maximum else "loss")
        assert replay_model(model, outcome.line) == truth
        key = (model.rules.ending.value, truth == maximum)
        kinds[key] = kinds.get(key, 0) + 1
        perfect = best_line(model, perfect=True)
        assert replay_model(model, perfect.line) == perfect.score <= truth <= perfect.upper, (model.rules, model.deck)
        assert (perfect.score == maximum) == (truth == maximum) == (perfect.upper == maximum)
        assert perfect.verdict == ("win" if truth == maximum else "loss" if perfect.score == perfect.upper else "unknown")
        undecided += perfect.verdict == "unknown"
    assert len(kinds) == 4  # wins and losses under both rule sets were checked
    assert undecided >= 5  # (the best score of a deal that cannot be won is not always sought)


def test_the_brute_force_gives_up_past_its_states_and_answers_alike_below() -> None:
    # `benchmarks/cross_check.py` skips the deals whose brute force would visit too many states.
    for model in small_deals(11, 20):
        states = Brute(model)
        truth = states.value(states.start())
        visited = states.visited
        assert visited == states.value.cache_info().currsize  # (each state valued once)
        capped = Brute(model, visited)
        assert capped.value(capped.start()) == truth
        if visited > 1:
            short = Brute(model, visited - 1)
            with pytest.raises(TooBig):
                short.value(short.start())


def test_every_move_order_decides_the_same(seed: int = 7) -> None:
    # The orders of probes and restarts only change which line is found first: on 300 reduced deals,
    # each decides as the brute force does whether the best score, and one point more, can be reached
    # (Crowning Piece: the win), and its line scores at least the target.
    orders = [Ordering(), Ordering(patient=True), Ordering(burn=True), Ordering(burn=True, patient=True)]
    orders += [Ordering(shuffle=random.Random(1), toss=True), Ordering(burn=True, shuffle=random.Random(2))]
    for model in small_deals(seed, 300):
        truth = best_score(model)
        maximum = model.rules.max_score
        targets = [maximum] if model.rules.ending is Ending.CROWNING else [max(truth, 1), truth + 1]
        for ordering in orders:
            search = Search(model)
            search.ordering = ordering
            for target in targets:
                line = search.reach(model.start(), target)
                assert (line is not None) == (target <= truth), (ordering, model.rules, model.deck, target)
                assert line is None or replay_model(model, line) >= target


def test_the_walk_decides_as_the_search_does() -> None:
    # `Search.walk` follows the first move of the order, asking the bound only at every `every`-th
    # position, and hands over to the search where its line falls short: on 300 reduced deals it
    # decides as the brute force does whether the best score, and one point more, can be reached
    # (Crowning Piece: the win), and its line scores at least the target. Some walks win straight
    # (no position of the search counted), some only once the search took over.
    straight = searched = 0
    for model in small_deals(5, 300):
        truth = best_score(model)
        maximum = model.rules.max_score
        targets = [maximum] if model.rules.ending is Ending.CROWNING else [max(truth, 1), truth + 1]
        for every in (1, 3, 8):
            for target in targets:
                search = Search(model)
                line = search.walk(model.start(), target, every)
                assert (line is not None) == (target <= truth), (every, model.rules, model.deck, target)
                assert line is None or replay_model(model, line) >= target
                if line is not None:
                    straight += search.nodes == 0
                    searched += search.nodes > 0
    assert straight > 100 and searched > 50, (straight, searched)


def test_the_move_found_at_once_is_the_first_the_usual_order_tries() -> None:
    # The walk takes `quick_move`'s choice (lowest rank first) where it answers, for the first move
    # the search tries in the usual order, without ordering every move: on random positions of every
    # option (announced plays included) they agree, at the tight target (every card still needed must be
    # played, so letting go of a last copy is not tried) and below it.
    rng = random.Random(17)
    quick = 0
    for game in range(200):
        settings = random_settings(rng)
        model = Deal.of(settings, settings.variant.shuffled_deck(game))
        search = Search(model)
        position = model.start()
        while model.status(position) == "ongoing" and (moves := model.moves(position)):
            found = quick_move(model, position, True)
            if found is not None:
                quick += 1
                for target in (sum(position[3]), sum(position[3]) - 1, sum(position[2]) + 1):
                    assert next(search._tried(position, target)) == found, (settings, position, target)
            position = model.play(position, rng.choice(moves))
    assert quick > 5_000, quick


def test_the_walk_asks_the_bound_at_every_eighth_position_of_a_straight_win(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, per seat, seed 414: the usual order wins 30 at once (`reach` takes its
    # first move at each of 51 positions). The walk finds that line, asking the bound at 7 of them
    # (the 0th, 8th, ... 48th), and counts no position of the search.
    without_the_tight_question(monkeypatch)
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(414))
    plain = Search(model)
    expected = plain.reach(model.start(), 30)
    assert expected is not None and plain.nodes == len(expected) + 1 == 52
    search, asked = Search(model), []
    bound = search._bound

    def counted(position: Position, target: int) -> int:
        asked.append(position)
        return bound(position, target)

    search._bound = counted  # type: ignore[method-assign]
    assert search.walk(model.start(), 30) == expected
    assert (len(asked), search.nodes) == (7, 0)


def test_the_search_keeps_every_last_copy_when_every_card_is_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    # 2 players, standard rules, seed 202 dealt round-robin: the bounds allow 25 and the best is 24, so
    # the search for 25 goes through every line (230,000 positions before; half of them positions
    # just after a last copy was let go of, each cut by its lowered cap). Where the caps add up to
    # the target, the search now never makes such a move; it still discards spare copies and trash.
    # (The copies bound refutes 25 at the deal, since the last draw counts as one turn: left out here.)
    settings = Settings(players=2, ending=Ending.STANDARD)
    model = Deal.of(settings, Variant.BASE.shuffled_deck(202))
    search = Search(model)
    search.thorough, search.node_limit = False, 20_000
    moves: list[tuple[Position, Move]] = []
    play = model.play

    def recorded(position: Position, move: Move) -> Position:
        moves.append((position, move))
        return play(position, move)

    monkeypatch.setattr(model, "play", recorded)
    with pytest.raises(OutOfBudget):
        search.reach(model.start(), 25)
    tight = [(position, move) for position, move in moves if sum(position[3]) == 25]
    letting_go = [(position, card) for position, (kind, card) in tight if kind in (DISCARD, MISPLAY)]
    assert len(letting_go) > 1000
    assert all(card == TRASH or model.available(position, card) > 1 for position, card in letting_go)
    last_copies = [
        (position, card)
        for position, _ in tight
        for card in position[7][position[0]]
        if card != TRASH and model.available(position, card) == 1
    ]
    assert len(last_copies) > 1000  # (the moves left out were there to make)


def test_burning_misplays_a_spare_card_before_hinting_at_eight_tokens() -> None:
    # Two players, opening deal at 8 clue tokens; Alice holds r3 b5 g4 y4 w3, nothing playable and no
    # discard allowed. The usual order hints first and misplays last; a burning order misplays a
    # spare copy first (r3 g4 y4 w3: the other copy is still in the deck), hints, and keeps the last b5.
    settings = Settings(players=2)
    model = Deal.of(settings, full_deck(settings, ["r3 b5 g4 y4 w3", "w1 w1 w1 r1 r1"]))
    search = Search(model)
    suits = settings.variant.suits
    spare = {card_id(card, suits) for card in parse_cards("r3 g4 y4 w3")}
    usual = search.order(model.start())
    assert usual[0] == (HINT, -1) and {card for kind, card in usual[1:]} == spare | {card_id(Card.parse("b5"), suits)}
    search.ordering = Ordering(burn=True)
    burning = search.order(model.start())
    assert set(burning[:4]) == {(MISPLAY, card) for card in spare}
    assert burning[4:] == [(HINT, -1), (MISPLAY, card_id(Card.parse("b5"), suits))]


def engine_position(model: Deal, state: GameState) -> tuple[object, ...]:
    """The model's view of an engine state, for comparison."""
    suits = state.settings.variant.suits
    hands = []
    for hand in state.hands:
        ids = []
        for item in hand:
            card = item.card
            assert card is not None
            ids.append(TRASH if state.trash(card) else card_id(card, suits))
        hands.append(tuple(sorted(ids)))
    return (state.current, state.drawn, state.fireworks, state.clues, state.strikes, tuple(hands))


def test_model_follows_the_engine_on_random_games() -> None:
    # Random model moves are legal in the engine and lead to the same positions and endings.
    rng = random.Random(3)
    for game in range(150):
        settings = random_settings(rng)
        deck = settings.variant.shuffled_deck(game)
        model = Deal.of(settings, deck)
        position = model.start()
        line = []
        while model.status(position) == "ongoing":
            moves = model.moves(position)
            if not moves:
                break
            move = rng.choice(moves)
            line.append(move)
            position = model.play(position, move)
        actions, _ = to_actions(settings, deck, line)
        state = deal(GameState.new(settings), deck)
        replayed = model.start()
        assert position_of(model, state) == replayed  # `solve` takes the model's start for the opening deal
        assert deal(GameState.new(settings), deck, checked=True) == state  # the checked deal, in one step
        for move, action in zip(line, actions):
            state = advance(state, action, deck)
            replayed = model.play(replayed, move)
            player, drawn, fireworks, _, clues, strikes, _, hands = replayed
            assert engine_position(model, state) == (player, drawn, fireworks, clues, strikes, hands) or state.over
            assert position_of(model, state) == replayed or state.over
        status = model.status(position)
        if status == WON:
            assert state.won and state.over
        elif status == OVER:
            assert state.end is not None and state.end.value == "final-round"
        elif status == LOST:
            assert state.over and state.score == 0


def test_the_greedy_move_found_at_once_is_the_one_greedy_move_chooses() -> None:
    # `quick_move` finds plays, trash let go, hints at 8 tokens and a stalling line's hints without
    # listing the moves: on random positions of every option (Timed Choreography's announced plays
    # included), it is `greedy_move`'s choice wherever it answers (patient or not, stalling or not),
    # and it answers for every play `greedy_move` chooses, and for every hint of a stalling line.
    rng = random.Random(11)
    plays = found = stalled = 0
    for game in range(200):
        settings = random_settings(rng)
        model = Deal.of(settings, settings.variant.shuffled_deck(game))
        position = model.start()
        while model.status(position) == "ongoing" and (moves := model.moves(position)):
            for prefer_low, patient, stall in product((True, False), (True, False), (0, *greedy.STALLS)):
                chosen = greedy_move(model, position, moves, prefer_low, patient, stall)
                quick = quick_move(model, position, prefer_low, stall)
                assert chosen == quick if quick is not None else chosen[0] not in (PLAY, ANNOUNCE)
                late = stall and model.size - position[1] <= stall
                assert quick is not None or not late or chosen != (HINT, -1)
                plays += chosen[0] in (PLAY, ANNOUNCE)
                found += quick is not None
                stalled += late and chosen == (HINT, -1) != greedy_move(model, position, moves, prefer_low, patient)
            position = model.play(position, rng.choice(moves))
    assert plays > 20_000 and found > plays + 10_000 and stalled > 1_000
    # At 8 tokens with nobody else holding a card, there is no hint to give: the misplay is not quick.
    rules = Rules(suits=2, ranks=2, copies=(1, 1), players=3, hand_size=1, ending=Ending.STANDARD)
    model = Deal(rules, [0, 1, 2, 3], [0, 1, 2])
    alone: Position = (0, 4, (0, 0), (2, 2), 8, 0, 2, ((1,), (), ()))
    assert greedy_move(model, alone, model.moves(alone), True) == (MISPLAY, 1)
    assert quick_move(model, alone, True) is None


def test_greedy_deck() -> None:
    # All 1s, then 2s, ... in suit order: every card is playable when drawn or soon after, and
    # simple greedy play wins without any search.
    settings = Settings(players=2, ending=Ending.STANDARD)
    deck = sorted(Variant.BASE.full_deck(), key=lambda card: (card.rank, str(card)))
    result = solve(settings, deck)
    assert result.verdict == "win" and result.score == 25 and result.nodes == 0


def test_a_patient_greedy_line_wins_where_the_usual_ones_fall_a_point_short(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, standard rules, seed 0 dealt round-robin. On the sixth turn, with 7 clue
    # tokens and nothing to play, the usual greedy line (lowest rank first) lets go of a y3 (the other
    # is deck card 31) and ends at 29, as does the other usual line; the patient line hints instead,
    # keeps it, and scores 30. So the deal is a win without a single position of search; with the
    # usual lines only, the search has to find it.
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(0))
    root = model.start()
    usual = [greedy_line(model, root, low) for low in (True, False)]
    patient, end = greedy_line(model, root, True, patient=True)
    assert [model.score(ending) for _, ending in usual] == [29, 29] and model.score(end) == 30
    position = root
    for move in patient[:5]:
        position = model.play(position, move)
    moves = model.moves(position)
    assert position[4] == 7 and usual[0][0][5] == (DISCARD, card_id(Card.parse("y3"), Variant.AVALANCHE.suits))
    assert greedy_move(model, position, moves, True, patient=True) == (HINT, -1) == patient[5]
    spent = position[:4] + (1,) + position[5:]  # with a single clue token left, it lets go of the y3 too
    assert greedy_move(model, spent, model.moves(spent), True, patient=True) == usual[0][0][5]
    asked: list[int] = []

    def bound() -> int:
        asked.append(30)
        return 30

    assert greedy_start(model, root, bound) == (30, patient) and best_line(model).nodes == 0
    assert asked == [30, 30]  # (the bound is asked after each of the two 29s, and not after the win)
    monkeypatch.setattr(greedy, "GREEDY", ((True, False, 0), (False, False, 0)))
    assert best_line(model).nodes > 0


def test_a_stalling_greedy_line_wins_where_the_others_fall_a_point_short(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, standard rules, seed 390 dealt per seat. At the 41st move, with 3 cards
    # left in the deck, 7 clue tokens, the fireworks at m2 and y4, and only trash besides m4 (Alice,
    # to play), y5 (Bob), m3 (Cathy) and m5 (Emily) in the hands, the first greedy line lets one of
    # Alice's trash cards go: the deck runs out at Cathy's m3, and in the final round Emily's turn
    # comes before Alice plays the m4: 29. Its stalling twin hints instead (and so do Donald and Emily
    # with one card left), Alice's m4 draws the last card, and Emily plays the m5 on the last turn:
    # 30, with no search at all. The usual three lines score 29, as does one of the twins from 10
    # cards left (without the stalling twins, the search has to find the win).
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(390))
    root = model.start()
    lines = [greedy_line(model, root, *kind) for kind in greedy.GREEDY]
    assert [model.score(end) for _, end in lines] == [29, 29, 29, 30, 30, 30, 30, 29, 30]
    usual, stalling = lines[0][0], lines[3][0]
    assert usual[:40] == stalling[:40] and (usual[40], stalling[40]) == ((DISCARD, TRASH), (HINT, -1))
    position = root
    for move in usual[:40]:
        position = model.play(position, move)
    m = [card_id(Card.parse(f"m{rank}"), Variant.AVALANCHE.suits) for rank in (3, 4, 5)]
    assert (model.size - position[1], position[4], position[2]) == (3, 7, (5, 5, 5, 4, 5, 2))
    assert [m[1] in position[7][0], m[0] in position[7][2], m[2] in position[7][4]] == [True] * 3
    assert quick_move(model, position, True) == (DISCARD, TRASH) and quick_move(model, position, True, stall=5) == (HINT, -1)
    assert stalling[-1] == (PLAY, m[2]) and len(stalling) == len(usual) + 2
    assert greedy_start(model, root, lambda: 30) == (30, stalling) and best_line(model).nodes == 0
    monkeypatch.setattr(greedy, "GREEDY", greedy.GREEDY[:3])
    assert best_line(model).nodes > 0


def test_under_crowning_piece_no_greedy_line_stalls(monkeypatch: pytest.MonkeyPatch) -> None:
    # Crowning Piece has no final round to stall for: 2 players, Avalanche, per seat, seed 4, which
    # every greedy line loses (0), is asked of the three lines without a stall, and of no twin.
    settings = Settings(players=2, variant=Variant.AVALANCHE, ending=Ending.CROWNING, deal=DealOrder.PER_SEAT)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(4))
    root = model.start()
    assert [model.score(greedy_line(model, root, *kind)[1]) for kind in greedy.GREEDY] == [0] * 9
    asked: list[int] = []
    real = greedy._branch

    def branch(
        deal: Deal, line: list[Move], trace: greedy.Trace, low: bool, patient: bool, stall: int
    ) -> tuple[list[Move], Position] | None:
        asked.append(stall)
        return real(deal, line, trace, low, patient, stall)

    monkeypatch.setattr(greedy, "_branch", branch)
    assert greedy_start(model, root, lambda: 30)[0] == 0 and asked == [0]  # (the patient line, off the first)


def test_a_patient_or_stalling_greedy_line_below_the_bound_is_not_the_start() -> None:
    # 4 players, Avalanche, standard rules, seed 1208 dealt round-robin: the greedy lines score 23
    # (lowest rank first), 20 (highest), 26 (patient), their stalling twins 23, 23 and 28 (from 10
    # cards left: 25, 24 and 28), and the bound is 30. The search and the model start from the 23 (see
    # `greedy_start`); were the bound 26 or 28, the line reaching it would be the answer. 5 players,
    # per seat, seed 306: 27, 27, 26, then 27, 28, 27 and 27, 28, 27; the start is the first 27, not a
    # stalling twin's 28.
    settings = Settings(players=4, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(1208))
    root = model.start()
    lines = [greedy_line(model, root, *kind) for kind in greedy.GREEDY]
    assert [model.score(end) for _, end in lines] == [23, 20, 26, 23, 23, 28, 25, 24, 28]
    assert greedy_start(model, root, lambda: 30) == (23, lines[0][0])
    assert greedy_start(model, root, lambda: 26) == (26, lines[2][0])
    assert greedy_start(model, root, lambda: 28) == (28, lines[5][0])
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(306))
    root = model.start()
    lines = [greedy_line(model, root, *kind) for kind in greedy.GREEDY]
    assert [model.score(end) for _, end in lines] == [27, 27, 26, 27, 28, 27, 27, 28, 27]
    assert greedy_start(model, root, lambda: 30) == (27, lines[0][0])


def test_asked_only_for_a_perfect_score_the_greedy_lines_end_once_the_bound_is_below_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, standard rules, seed 413 dealt per seat: the greedy lines score 27, 28
    # and 28, and the pace bound is 28 (m3 comes too late). Asked for the best score, the second
    # line reaches the bound: a loss at 28 with no search. Asked only whether 30 is reachable, the
    # bound after the first line answers it (no), and the other lines are not played: "unknown" at
    # 27, with 28 as the proven upper bound.
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(413))
    root = model.start()
    lines = [greedy_line(model, root, *kind) for kind in greedy.GREEDY]
    assert [model.score(end) for _, end in lines] == [27] + [28] * 8
    played: list[bool] = []

    def counted(
        deal: Deal,
        position: Position,
        prefer_low: bool = True,
        patient: bool = False,
        stall: int = 0,
        trace: greedy.Trace | None = None,
    ) -> tuple[list[Move], Position]:
        played.append(patient or stall > 0)
        return greedy_line(deal, position, prefer_low, patient, stall, trace)

    monkeypatch.setattr(greedy, "greedy_line", counted)
    assert greedy_start(model, root, lambda: 28) == (28, lines[1][0]) and played == [False, False]
    assert greedy_start(model, root, lambda: 28, perfect=True) == (27, lines[0][0]) and played == [False] * 3
    assert greedy_start(model, root, lambda: 30, perfect=True) == (28, lines[1][0])  # (below the maximum only)
    best, perfect = best_line(model), best_line(model, perfect=True)
    assert (best.verdict, best.score, best.upper, best.nodes) == ("loss", 28, 28, 0)
    assert (perfect.verdict, perfect.score, perfect.upper, perfect.nodes) == ("unknown", 27, 28, 0)


def test_a_greedy_line_branches_off_another_where_the_two_part(monkeypatch: pytest.MonkeyPatch) -> None:
    # A greedy line that differs from an earlier one only in `patient` or `stall` is played from the
    # first position of the earlier line's trace where its choice differs (`greedy._branch`): on random
    # deals of every option, from the deal and from positions a few random moves in, the branch is
    # the line played from the start, move for move and to the same end; where none is given, the two
    # are the same line. Both cases occur for each change of `patient`, `stall` or both, and the trace
    # is exactly the positions where `quick_move` has no answer and those with `max(STALLS)` cards or
    # fewer left in the deck.
    rng = random.Random(12)
    parted: Counter[tuple[bool, bool]] = Counter()
    same: Counter[tuple[bool, bool]] = Counter()
    starts = []
    for seed in range(400):
        settings = random_settings(rng)
        model = Deal.of(settings, settings.variant.shuffled_deck(seed))
        root = model.start()
        for _ in range(rng.randrange(6)):
            if model.status(root) == ONGOING and model.moves(root):
                root = model.play(root, rng.choice(model.moves(root)))
        starts.append((model, root))
        for prefer_low, patient, stall in product((True, False), (True, False), (0, *greedy.STALLS)):
            trace: greedy.Trace = []
            line, end = greedy_line(model, root, prefer_low, patient, stall, trace)
            position, traced = root, []
            for index, move in enumerate(line):
                if quick_move(model, position, prefer_low, stall) is None or model.size - position[1] <= max(greedy.STALLS):
                    traced.append(index)
                position = model.play(position, move)
            assert [index for index, _, _ in trace] == traced and position == end
            for other_patient, other_stall in product((True, False), (0, *greedy.STALLS)):
                if (other_patient, other_stall) == (patient, stall):
                    continue
                branch = greedy._branch(model, line, trace, prefer_low, other_patient, other_stall)
                played = greedy_line(model, root, prefer_low, other_patient, other_stall)
                assert (line, end) == played if branch is None else branch == played
                change = (patient != other_patient, stall != other_stall)
                parted[change], same[change] = parted[change] + (branch is not None), same[change] + (branch is None)
    assert min(parted.values()) > 100 and min(same.values()) > 100 and len(parted) == 3

    # So greedy_start answers as it does with every line played from the start, whatever the bound
    # (and with the lines in another order, too).
    def answers() -> list[tuple[int, list[Move]]]:
        asked = [(model, root, top, perfect) for model, root in starts for top in (25, 28, 30) for perfect in (False, True)]
        return [greedy_start(model, root, partial(int, top), perfect) for model, root, top, perfect in asked]

    def alone(
        deal: Deal, _line: list[Move], _trace: greedy.Trace, low: bool, patient: bool, stall: int
    ) -> tuple[list[Move], Position]:
        return greedy_line(deal, root_of[deal], low, patient, stall)

    root_of = {model: root for model, root in starts}
    for lines in (greedy.GREEDY, tuple(reversed(greedy.GREEDY))):
        monkeypatch.setattr(greedy, "GREEDY", lines)
        branched = answers()
        with monkeypatch.context() as unbranched:
            unbranched.setattr(greedy, "_branch", alone)
            assert branched == answers()


def test_a_deal_won_by_the_first_greedy_line_needs_no_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # 3 players, base, seed 0: the first greedy line scores 25, so the solve answers (a win, as the
    # engine's replay confirms) without the bound, whose cost (about a tenth of such a solve) is spared.
    settings = Settings(players=3)
    deck = Variant.BASE.shuffled_deck(0)
    model = Deal.of(settings, deck)
    assert model.score(greedy_line(model, model.start())[1]) == 25

    def unused(*_: object) -> Bound:
        raise AssertionError("the bound was computed")

    monkeypatch.setattr(climbing, "explain", unused)
    told: list[tuple[int, int]] = []
    solution = solve(settings, deck, report=lambda best, top: told.append((best, top)))
    assert (solution.verdict, solution.score, solution.nodes, told) == ("win", 25, 0, [(25, 25)])


def test_a_short_dive_at_the_bound_spares_the_finer_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, standard rules, seed 367 dealt per seat: the greedy lines score 28-29,
    # the first bound is 30, and the search in its usual order reaches 30 in 13 positions. The dive
    # (`DIVE` positions at the first bound) finds that line before the copies and clue-token bounds
    # are computed (they never cut here, and cost more than the 13 positions): the answer is a win
    # with neither computed, replayed through the engine as a win.
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
    deck = Variant.AVALANCHE.shuffled_deck(367)
    model = Deal.of(settings, deck)
    scores = [model.score(greedy_line(model, model.start(), *kind)[1]) for kind in greedy.GREEDY]
    assert scores == [29, 28, 28, 29, 29, 28, 29, 29, 29]

    def unused(*_: object) -> Bound:
        raise AssertionError("a finer bound was computed")

    monkeypatch.setattr(climbing, "copies_bound", unused)
    monkeypatch.setattr(climbing, "clues_bound", unused)
    result = solve(settings, deck, perfect=True)
    assert (result.verdict, result.score) == ("win", 30) and 0 < result.nodes <= climbing.DIVE
    state = deal(GameState.new(settings), deck)
    for action in result.line:
        state = advance(state, action, deck)
    assert state.won and state.over


def test_the_dive_is_the_usual_orders_share_of_the_probe_at_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # 5 players, Avalanche, standard rules, seed 339 dealt per seat: the greedy lines score 29 and
    # every bound is 30; the dive does not reach 30, the probe at 30 does, in another order. The probe
    # then skips the usual order, which has had its share in the dive: each move order of the probes
    # searches once, and their budgets add up to `PROBE_TOP`, as without the dive. Only the dive
    # begins with a walk (`Search.walk`).
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(339))
    asked: list[tuple[int, int, list[Ordering], bool]] = []
    real = probes.probe

    def probe(
        model: Deal,
        search: Search,
        root: Position,
        target: int,
        budget: int,
        deadline: float | None,
        node_limit: int | None,
        orders: Sequence[Ordering] = (),
        interrupt: Callable[[], bool] | None = None,
        between: Callable[[], None] | None = None,
        walk: bool = False,
    ) -> list[Move] | None:
        asked.append((target, budget, list(orders) or probe_orders(), walk))
        return real(model, search, root, target, budget, deadline, node_limit, orders, interrupt, between, walk)

    monkeypatch.setattr(climbing, "probe", probe)
    outcome = best_line(model)
    assert (outcome.verdict, outcome.score) == ("win", 30) and outcome.nodes > climbing.DIVE
    (dive, dive_budget, dive_orders, dive_walks), (top, budget, orders, walks) = asked
    assert (dive, dive_budget, dive_orders, dive_walks) == (30, climbing.DIVE, [USUAL], True)
    assert (top, budget, len(orders), walks) == (30, climbing.PROBE_TOP - climbing.DIVE, PROBE_ORDERS - 1, False)
    assert USUAL not in orders


def test_deck_lost_in_standard_but_won_under_crowning() -> None:
    # Every w1 is among the last three cards. Under standard rules w1..w5 need five plays after
    # deck card 48 is drawn, but only 49 - 47 + 2 = 4 turns remain for them: at most 24 points.
    # Under Crowning Piece there is no final round and the team can wait for them.
    settings = Settings(players=2)
    rest = [card for card in Variant.BASE.full_deck() if card != Card.parse("w1")]
    deck = random.Random(4).sample(rest, len(rest)) + [Card.parse("w1")] * 3
    standard = solve(settings.with_(ending=Ending.STANDARD), deck)
    assert standard.verdict == "loss" and standard.score <= 24
    crowning = solve(settings.with_(ending=Ending.CROWNING), deck)
    assert crowning.verdict == "win" and crowning.score == 25


def test_hand_lock_loses_even_under_crowning(monkeypatch: pytest.MonkeyPatch) -> None:
    # Avalanche, 2 players. Alice holds the five 5s; Bob holds m2-m5 and a w4, and the next card is
    # the other w4. Every card in hand is the last copy of a card not yet playable, except Bob's w4.
    # Once Bob lets go of it (discard or misplay) the second w4 arrives and is the last copy too:
    # nobody can do anything but hint, and when the clues run out someone must lose a card.
    settings = Settings(players=2, variant=Variant.AVALANCHE, ending=Ending.CROWNING)
    deck = full_deck(settings, ["w5 r5 b5 y5 g5", "m2 m3 m4 m5 w4"], "w4")
    result = solve(settings, deck)
    assert result.verdict == "loss" and result.score == 0
    assert (result.reason or "").startswith("hand lock: after deck card 11 is drawn all 10 cards in hand")
    # Without the bounds, the search (and the constraint model) prove it too.
    monkeypatch.setattr("solver.search.upper_bound", lambda deal, position, *_: deal.rules.max_score)
    monkeypatch.setattr("solver.climb.explain", lambda deal, position: Bound(deal.rules.max_score))
    monkeypatch.setattr("solver.climb.copies_bound", lambda deal, position, bound: bound)
    outcome = best_line(Deal.of(settings, deck))
    assert outcome.verdict == "loss" and outcome.nodes > 0


def test_a_hand_lock_past_the_hands_capacity_loses_one_card_more() -> None:
    # Avalanche, 2 players, 10 cards in hand. Alice holds five 5s; Bob m2-m5 and a w4; then come
    # w4, b4, b4, m1, and the 1s to 3s after them. Once deck card 13 (the second b4) is drawn, 11
    # last copies are out, none playable before a later draw (m1 is deck card 14): the hands keep
    # 10 at most, so one is lost by then, and the 10 left fill every hand, so the next play or
    # discard loses one more. The bound is 28, and a line reaches it.
    settings = Settings(players=2, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    deck = full_deck(settings, ["w5 r5 b5 y5 g5", "m5 m4 m3 m2 w4"], "w4 b4 b4 m1")
    result = solve(settings, deck)
    assert (result.verdict, result.score, result.upper) == ("loss", 28, 28)
    assert result.reason == (
        "hand lock: after deck card 13 is drawn the hands (10 cards) must keep 11 last copies that cannot be played "
        "before a later draw (w4, w5, r5, b4, b5, y5, g5, m2, m3, m4, m5): 1 of them is lost by then, and the 10 "
        "left fill every hand, where no play or discard is safe: one more is lost"
    )


def test_every_win_line_replays_as_a_win() -> None:
    for seed in range(30):
        settings = Settings(
            players=2 + seed % 4,
            variant=Variant.AVALANCHE if seed % 3 else Variant.BASE,
            ending=Ending.CROWNING if seed % 2 else Ending.STANDARD,
        )
        deck = settings.variant.shuffled_deck(seed)
        result = solve(settings, deck, time_limit=10)
        if result.verdict == "win":
            state = deal(GameState.new(settings), deck)
            for action in result.line:
                state = advance(state, action, deck)
            assert state.won and state.over and state.score == settings.variant.max_score


def test_solver_refuses_an_incomplete_deck() -> None:
    with pytest.raises(SolverError, match="whole base deck"):
        solve(Settings(), Variant.BASE.full_deck()[:-1])
    # The deck's cards are checked as ids (`card_ids`, sorted): each way a deck can be wrong is refused,
    # saying how, and a full deck in any order is not.
    deck = Variant.BASE.shuffled_deck(4)
    swapped = [Card.parse("r1") if card == Card.parse("g5") else card for card in deck]
    with pytest.raises(SolverError, match=r"\(50 cards given, too many r1, 1 missing\)"):
        solve(Settings(), swapped)
    multicolour = [Card.parse("m1") if card == Card.parse("g5") else card for card in deck]
    with pytest.raises(SolverError, match=r"\(50 cards given, too many m1, 1 missing\)"):
        solve(Settings(), multicolour)
    with pytest.raises(SolverError, match=r"\(51 cards given, too many w1\)"):
        solve(Settings(), [*deck, Card.parse("w1")])
    assert solve(Settings(), deck).max_score == 25


def test_budget_gives_unknown() -> None:
    # A deal whose proof takes the search tens of thousands of positions (the constraint model decides it).
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    result = solve(settings, Variant.AVALANCHE.shuffled_deck(5), node_limit=2000)
    assert result.verdict == "unknown" and result.nodes == 2001  # the first position past the budget stops it
    assert 0 < result.score < 30 and result.reason is None  # the best line found so far, still replayed
    assert result.upper == 30 and result.perfect is None  # nothing refuted yet


def test_the_search_hears_an_interrupt_within_256_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    # A glance that decides interrupts the search (`Search.interrupt`); it is asked every 256
    # positions, with the clock (and once before the first). 5p Avalanche seed 5 takes the search
    # tens of thousands of positions (see above): interrupted once it has begun, it stops at its
    # 256th position, not its 1,024th.
    without_the_tight_question(monkeypatch)
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    model = Deal.of(settings, Variant.AVALANCHE.shuffled_deck(5))
    search = Search(model)
    asked: list[int] = []

    def interrupt() -> bool:
        asked.append(search.nodes)
        return search.nodes > 0

    search.interrupt = interrupt
    with pytest.raises(OutOfBudget, match="interrupted"):
        search.reach(model.start(), 30)
    assert search.nodes == 256 and asked == [0, 256]


def test_a_stop_gives_unknown_with_the_best_line_found() -> None:
    # The caller's `stop` is a budget spent: true from the start, the deal of the test above answers at
    # once with its greedy line, not one position searched; a deal the greedy line wins needs no
    # search, and is a win all the same.
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    stopped = solve(settings, Variant.AVALANCHE.shuffled_deck(5), stop=lambda: True)
    assert stopped.verdict == "unknown" and stopped.nodes == 0 and 0 < stopped.score < 30 and stopped.upper == 30
    assert solve(Settings(players=3), Variant.BASE.shuffled_deck(1), stop=lambda: True).verdict == "win"


def test_the_time_limit_counts_the_bounds_at_the_deal_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # The deal of the tests above, whose greedy line falls short of the bound, and which the dive at
    # the bound (`DIVE` positions) does not win. Its last bound at the deal made to take 0.3 s, a time
    # limit of 0.25 s is spent before the probes begin: the search looks at the clock before their
    # first position and stops there, not 0.25 s of positions later (thousands). The answer is the
    # greedy line's, replayed, with the bound.

    def slow(model: Deal, root: Position, bound: Bound) -> Bound:
        time.sleep(0.3)
        return clues_bound(model, root, bound)

    monkeypatch.setattr(climbing, "clues_bound", slow)
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    began = time.perf_counter()
    result = solve(settings, Variant.AVALANCHE.shuffled_deck(5), time_limit=0.25)
    assert (result.verdict, result.nodes, result.upper) == ("unknown", climbing.DIVE + 1, 30) and 0 < result.score < 30
    assert time.perf_counter() - began < 1.0


def test_the_perfect_question_is_answered_by_a_bound_at_the_deal() -> None:
    # 5 players, Avalanche, round-robin, seed 744: pace caps it at 28 (the true best is 27, which takes
    # the model seconds to prove). Asked only whether 30 is reachable, the solver answers at once:
    # no position searched, the greedy line's score, the bound and its reason.
    settings = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    told: list[tuple[int, int]] = []
    result = solve(
        settings, Variant.AVALANCHE.shuffled_deck(744), perfect=True, report=lambda best, top: told.append((best, top))
    )
    assert (result.verdict, result.perfect, result.upper, result.nodes) == ("unknown", False, 28, 0)
    assert result.score < 28 and told == [(result.score, 28)]
    assert result.reason is not None and result.reason.startswith("pace: r5, b1, y2, m1 first appear at deck card 47")
    assert result.to_json()["perfect"] is False
    won = solve(Settings(players=3), Variant.BASE.shuffled_deck(1), perfect=True)  # (Crowning Piece asks nothing else)
    assert (won.verdict, won.perfect, won.to_json()["perfect"]) == ("win", True, True)


def test_the_reports_close_in_on_the_answer() -> None:
    # What `report` is told as a solve goes on: the best found never falls, the most not refuted never
    # rises, the first never passes the second, and the last report is the answer's score and bound.
    # Deals decided by the greedy line, by the search, and by the model (5p Avalanche 5, above).
    cases = [(Settings(players=3), Variant.BASE.shuffled_deck(1))]
    avalanche = Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    cases += [(avalanche, Variant.AVALANCHE.shuffled_deck(seed)) for seed in (5, 11, 12, 13)]
    for settings, deck in cases:
        told: list[tuple[int, int]] = []
        solution = solve(settings, deck, time_limit=60, report=lambda best, top: told.append((best, top)))  # noqa: B023
        assert told and told[-1] == (solution.score, solution.upper), (told, solution.verdict)
        assert all(best <= top for best, top in told)
        assert all(a[0] <= b[0] and a[1] >= b[1] for a, b in pairwise(told)), told


def test_solution_json() -> None:
    result = solve(Settings(players=3), Variant.BASE.shuffled_deck(1))
    data = result.to_json()
    assert data["verdict"] == "win" and data["score"] == 25 and len(data["line"]) == len(result.line)
    assert {"seat", "type"} <= set(data["line"][0])
    assert isinstance(result, Solution) and format_cards(Variant.BASE.shuffled_deck(1))
