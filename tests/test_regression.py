"""Regression numbers kept in data files (`tests/data`, written by `tests/data/generate.py`), as a chess
engine keeps its "perft" counts: the lines of legal actions from fixed positions, and the solver's
verdicts on seeded decks of every set, each confirmed by a second argument when it was written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from deducer import GameState, Settings
from deducer.actions import Hint, Play, parse_event
from deducer.cards import Card, format_cards, parse_cards
from deducer.dealer import advance, deal
from deducer.schema import SettingsModel, validate
from solver.solve import solve
from tests.data.generate import perft

DATA = Path(__file__).parent / "data"
PERFT: list[dict[str, Any]] = json.loads((DATA / "perft.json").read_text())
VERDICTS: list[dict[str, Any]] = [json.loads(line) for line in (DATA / "verdicts.jsonl").read_text().splitlines()]


def _settings(entry: dict[str, Any]) -> Settings:
    return Settings(**dict(validate(SettingsModel, entry["settings"])))


def _deck(entry: dict[str, Any], settings: Settings) -> list[Card]:
    """The entry's deck, which its seed must still shuffle (`hanabi solve --seed K` is for good)."""
    deck = parse_cards(entry["deck"])
    assert format_cards(settings.variant.shuffled_deck(entry["seed"])) == entry["deck"]
    return deck


def _position(entry: dict[str, Any]) -> tuple[GameState, list[Card]]:
    settings = _settings(entry)
    deck = _deck(entry, settings)
    state = deal(GameState.new(settings), deck)
    for text in entry["moves"]:
        state = advance(state, parse_event(text), deck)
    return state, deck


def test_the_first_count_of_the_first_position_worked_out_by_hand() -> None:
    # Two players, the deck of seed 1 dealt round-robin: Alice to act, 8 clue tokens (no discard).
    # She may play any of her 5 cards, or hint Bob a colour or a rank his hand holds.
    state, _ = _position(PERFT[0])
    bob = [item.card for item in state.hands[1]]
    assert all(card is not None for card in bob)
    colours = {card.suit for card in bob if card is not None}
    ranks = {card.rank for card in bob if card is not None}
    assert state.clues == 8 and PERFT[0]["counts"][0] == 5 + len(colours) + len(ranks) == 11
    plays = [action for action in state.legal_actions() if isinstance(action, Play)]
    hints = [action for action in state.legal_actions() if isinstance(action, Hint)]
    assert (len(plays), len(hints)) == (5, 6)


@pytest.mark.parametrize("index", range(len(PERFT)))
def test_the_lines_of_legal_actions_from_fixed_positions_are_the_recorded_counts(index: int) -> None:
    entry = PERFT[index]
    state, deck = _position(entry)
    assert [perft(state, deck, depth) for depth in range(1, len(entry["counts"]) + 1)] == entry["counts"]


def test_the_verdicts_cover_every_set_with_wins_and_losses() -> None:
    sets = {tuple(row["settings"][key] for key in ("players", "variant", "ending", "deal")) for row in VERDICTS}
    assert len(sets) == 32  # 2-5 players, both variants, both endings, both deal orders
    losses = [row for row in VERDICTS if row["verdict"] == "loss"]
    assert len(losses) >= 20 and all(row["confirmed"].startswith("CaDiCaL finds no line scoring") for row in losses)
    assert all(row["score"] < (30 if row["settings"]["variant"] == "avalanche" else 25) for row in losses)


@pytest.mark.parametrize("index", range(0, len(VERDICTS), 16))
def test_the_solver_gives_the_recorded_verdicts(index: int) -> None:
    for row in VERDICTS[index : index + 16]:
        settings = _settings(row)
        solution = solve(settings, _deck(row, settings), time_limit=30)  # (every line is replayed through the engine)
        assert (solution.verdict, solution.score) == (row["verdict"], row["score"]), (row["settings"], row["seed"])
        assert solution.upper == row["score"]
