"""Random playouts: the engine's invariants hold at every step of thousands of games."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from deducer import Ending, GameRecord, GameState, Settings, Stuck, Variant
from deducer.dealer import advance, deal
from deducer.hanablive import export_game, import_game
from deducer.playout import bot_action
from deducer.record import replay
from deducer.settings import DealOrder
from tests.helpers import random_settings

GAMES = 2000


def check_invariants(state: GameState) -> None:
    settings = state.settings
    in_hands = sum(len(hand) for hand in state.hands)
    assert in_hands + state.deck_left + len(state.discards) + sum(state.fireworks) == settings.variant.deck_size
    assert 0 <= state.clues <= 8 and 0 <= state.strikes <= 3
    assert all(len(hand) <= settings.hand_size for hand in state.hands)
    counts = Counter(item.card for hand in state.hands for item in hand)
    counts.update(state.discards)
    for card, count in counts.items():
        assert card is not None and count + (card.rank <= state.firework(card.suit)) <= settings.variant.copies(card)


def test_random_playouts_keep_every_invariant() -> None:
    rng = random.Random(2026)
    endings: Counter[str] = Counter()
    for game in range(GAMES):
        settings = random_settings(rng)
        deck = settings.variant.shuffled_deck(game)
        state = deal(GameState.new(settings), deck)
        trusted = deal(GameState.new(settings), deck, checked=True)  # the solver's replay: draws not recounted
        noise = rng.choice([0.0, 0.1, 0.5, 1.0])
        actions = []
        best = 0
        while not state.over:
            assert state.turn < 300, "the game must end"
            assert trusted == state
            action = bot_action(state, rng, noise)
            actions.append(action)
            state = advance(state, action, deck)
            trusted = advance(trusted, action, deck, checked=True)
            check_invariants(state)
            assert sum(state.fireworks) >= best
            best = sum(state.fireworks)
        assert trusted == state
        endings[state.end.value if state.end else "?"] += 1
        if game % 10 == 0:
            record = GameRecord.from_deck(settings, deck, actions)
            assert GameRecord.from_json(record.to_json()) == record
            assert replay(record)[-1] == state
            if not settings.choreography and not (settings.ending is Ending.CROWNING and settings.stuck is Stuck.PASS):
                again = import_game(export_game(record))
                assert replay(again)[-1].fireworks == state.fireworks
                assert export_game(again) == export_game(record)
    # The playouts reach every way a game can end except by hand.
    assert {"strikes", "complete", "final-round", "lost-card"} <= set(endings)


def test_per_seat_records_round_trip_through_hanablive_exactly() -> None:
    for seed, players in itertools.product(range(25), (2, 3, 4, 5)):
        settings = Settings(players=players, deal=DealOrder.PER_SEAT, variant=Variant.AVALANCHE if seed % 2 else Variant.BASE)
        rng = random.Random(seed)
        deck = settings.variant.shuffled_deck(seed)
        state = deal(GameState.new(settings), deck)
        actions = []
        while not state.over:
            actions.append(bot_action(state, rng, 0.2))
            state = advance(state, actions[-1], deck)
        record = GameRecord.from_deck(settings, deck, actions)
        assert import_game(export_game(record)).events == record.events


def test_crowning_games_with_shrinking_hands_end() -> None:
    # Random hints and discards under Crowning Piece, either stuck option: every game ends.
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    for game in range(300):
        settings = Settings(
            players=rng.randint(2, 5), ending=Ending.CROWNING, stuck=rng.choice(list(Stuck)), empty_hints=rng.random() < 0.5
        )
        deck = settings.variant.shuffled_deck(game)
        state = deal(GameState.new(settings), deck)
        while not state.over:
            legal = state.legal_actions()
            safe = [action for action in legal if type(action).__name__ in ("Hint", "Discard", "Pass")] or legal
            action = rng.choice(safe)
            state = advance(state, action, deck)
            check_invariants(state)
        seen[state.end.value if state.end else "?"] += 1
    assert sum(seen.values()) == 300 and "?" not in seen
