"""Regenerate the bundled sample games: `python sample_games/generate.py`.

Games are played by the simple bot of `deducer.playout` on seeded decks; the
one-seat recording hides the recorder's own draws, as at a real table.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from deducer.actions import Event, Move
from deducer.cards import Variant, format_cards
from deducer.dealer import advance, deal
from deducer.game import GameState
from deducer.hanablive import export_game
from deducer.playout import bot_action
from deducer.record import GameRecord
from deducer.settings import DealOrder, Ending, Settings

HERE = Path(__file__).parent


def bot_game(settings: Settings, seed: int, seats: tuple[str, ...], noise: float = 0.05, moves: bool = False) -> GameRecord:
    """A bot game; with `moves`, players sometimes rearrange their hands as people do."""
    rng = random.Random(seed)
    deck = settings.variant.shuffled_deck(seed)
    state = deal(GameState.new(settings, seats), deck)
    events: list[Event] = []
    while not state.over:
        hand = state.hands[state.current]
        if moves and len(hand) > 1 and rng.random() < 0.1:
            move = Move(state.current, rng.randint(1, len(hand)), rng.randint(1, len(hand)))
            events.append(move)
            state = state.apply(move)
        action = bot_action(state, rng, noise)
        events.append(action)
        state = advance(state, action, deck)
    return GameRecord.from_deck(settings, deck, events, seats)


def main() -> None:
    samples = {
        "2p_base.json": bot_game(Settings(players=2), 11, ("Alice", "Bob")),
        "3p_avalanche.json": bot_game(Settings(players=3, variant=Variant.AVALANCHE), 12, ("Ann", "Ben", "Cat")),
        "4p_crowning.json": bot_game(Settings(players=4, ending=Ending.CROWNING), 13, ("Ada", "Bea", "Cy", "Dee")),
        "5p_avalanche.json": bot_game(
            Settings(players=5, variant=Variant.AVALANCHE), 14, ("Alice", "Bob", "Cathy", "Donald", "Emily")
        ),
        "5p_base_seat_alice.json": bot_game(
            Settings(players=5), 15, ("Alice", "Bob", "Cathy", "Donald", "Emily"), moves=True
        ).seen_by(0),
        "3p_base_seat_alice.json": bot_game(Settings(players=3), 17, ("Alice", "Bob", "Cathy"), moves=True).seen_by(0),
    }
    for name, record in samples.items():
        record.save(HERE / name)
    live = bot_game(Settings(players=3, deal=DealOrder.PER_SEAT), 16, ("Alice", "Bob", "Cathy"))
    (HERE / "3p_hanablive.json").write_text(json.dumps(export_game(live), indent=1) + "\n")
    deals = []
    for index, (players, variant, rules) in enumerate(
        [
            (2, "base", "crowning"),
            (3, "base", "standard"),
            (4, "avalanche", "crowning"),
            (5, "base", "standard"),
            (3, "avalanche", "standard"),
        ]
    ):
        deck = Variant(variant).shuffled_deck(100 + index)
        deals.append({"deck": format_cards(deck), "players": players, "rules": rules, "variant": variant})
    (HERE / "deals.jsonl").write_text("".join(json.dumps(deal) + "\n" for deal in deals))


if __name__ == "__main__":
    main()
