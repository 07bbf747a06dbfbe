"""Builders for hand-made positions used across the tests."""

from __future__ import annotations

import importlib.util
import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType

import pytest

from deducer.actions import Draw, parse_event
from deducer.cards import Card, Variant, parse_cards
from deducer.facts import Facts, update
from deducer.game import GameState
from deducer.settings import MAX_CLUES, MAX_STRIKES, DealOrder, Ending, Settings, Stuck
from solver import tight
from solver.brute import Brute, State
from solver.greedy import greedy_move
from solver.model import ANNOUNCE, DISCARD, HINT, MISPLAY, ONGOING, PASS, PLAY, TRASH, Deal, Move, Position, Rules
from tests.companion import chromium


def script(path: Path) -> ModuleType:
    """A script of the repository that is not in a package (`sample_games/`, `benchmarks/`), loaded from its file."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def opening_deck(settings: Settings, hands: Sequence[str]) -> list[Card]:
    """The deal that gives each seat `hands[seat]` (slot 1 first)."""
    cards = [parse_cards(hand) for hand in hands]
    size = settings.hand_size
    dealt: Counter[int] = Counter()
    order = []
    for seat in settings.deal_seats():
        order.append(cards[seat][size - 1 - dealt[seat]])
        dealt[seat] += 1
    return order


def full_deck(settings: Settings, hands: Sequence[str], upcoming: str = "") -> list[Card]:
    """A whole deck: the opening `hands`, then `upcoming` draws, then the remaining cards in a fixed order."""
    top = opening_deck(settings, hands) + parse_cards(upcoming)
    rest = Counter(settings.variant.full_deck())
    rest.subtract(top)
    if any(count < 0 for count in rest.values()):
        raise ValueError("more copies than the deck holds")
    return top + sorted(rest.elements())


def dealt(settings: Settings, hands: Sequence[str]) -> GameState:
    """The state right after dealing `hands` (no deck needed: draws are given)."""
    state = GameState.new(settings)
    for seat, card in zip(settings.deal_seats(), opening_deck(settings, hands)):
        state = state.apply(Draw(seat, card))
    return state


def run(state: GameState, *lines: str) -> GameState:
    """Apply events written in the long notation."""
    for line in lines:
        state = state.apply(parse_event(line, state.seats))
    return state


def follow(state: GameState, facts: dict[int, Facts] | None, *lines: str) -> tuple[GameState, dict[int, Facts]]:
    """Apply events in the long notation, keeping every card's hint facts."""
    known = dict(facts or {})
    for line in lines:
        event = state.complete(parse_event(line, state.seats))
        after = state.apply(event)
        known = update(known, state, event)
        state = after
    return state, known


def random_settings(rng: random.Random) -> Settings:
    """Any settings: every option drawn at random."""
    return Settings(
        players=rng.randint(2, 5),
        variant=rng.choice(list(Variant)),
        ending=rng.choice(list(Ending)),
        empty_hints=rng.random() < 0.3,
        choreography=rng.random() < 0.3,
        deal=rng.choice(list(DealOrder)),
        stuck=rng.choice(list(Stuck)),
    )


def browser_or_skip(what: str) -> str:
    """Debian's chromium for a browser test, with playwright importable: the test is skipped where either
    is missing, and fails in CI (which installs both)."""
    path = chromium()
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        path = None
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI installs chromium and playwright: {what} must be checked in a browser")
        pytest.skip("chromium or playwright is not installed")
    return path


LateCards = tuple[tuple[int, ...], tuple[int, ...], int, int, tuple[tuple[int, int], ...]]


def random_late_cards(rng: random.Random, players: int) -> LateCards:
    """The late cards of a small random relaxation of the last turns (`solver.endgame`, `solver.clues`;
    five ranks): one to three suits of up to three cards (each a top segment of its suit), the seats that
    may hold each, up to four acts that draw (each drawing one of the cards, or none) or the deck already
    empty with 1 to `players` turns of the final round left. As (cards, masks, drawing, final, tail)."""
    suits = rng.sample(range(6), rng.randint(1, 3))
    cards = tuple(sorted(suit * 5 + rank for suit in suits for rank in range(rng.randint(2, 4), 5)))
    masks = tuple(rng.randrange(1 << players) for _ in cards)
    drawing = rng.randint(0, 4)
    final = rng.randint(1, players) if drawing == 0 else -1
    tail = tuple((act, rng.choice(cards)) for act in range(drawing) if rng.random() < 0.5)
    return cards, masks, drawing, final, tail


def late_positions(players: int, seed: int, most_draws_left: int) -> Iterator[tuple[Deal, Position]]:
    """Mostly greedy games of the full avalanche deck (standard rules), stopped 1 to `most_draws_left`
    draws before the end, still going on: the search's deal and position, endlessly."""
    rng = random.Random(seed)
    settings = Settings(players=players, variant=Variant.AVALANCHE, ending=Ending.STANDARD)
    while True:
        deal = Deal.of(settings, settings.variant.shuffled_deck(rng.randrange(10**6)))
        position = deal.start()
        stop = deal.size - rng.randint(1, most_draws_left)
        while deal.status(position) == ONGOING and position[1] < stop:
            moves = deal.moves(position)
            move = greedy_move(deal, position, moves, rng.random() < 0.5) if rng.random() < 0.8 else rng.choice(moves)
            position = deal.play(position, move)
        if deal.status(position) == ONGOING:
            yield deal, position


def legal(model: Deal, position: Position, move: Move) -> bool:
    """Do the rules allow `move`, by the solver's model (not only the moves `Deal.moves` keeps: it
    leaves out dominated ones)? A misplay must not be the third strike."""
    kind, card = move
    hand = position[7][position[0]]
    if kind == HINT:
        return model.can_hint(position)
    if kind == PASS:
        return not hand and model.rules.ending is Ending.CROWNING and model.rules.stuck is Stuck.PASS
    clues, strikes = position[4], position[5]
    if card not in hand:
        return False
    playable = card != TRASH and model.playable(position[2], card)
    if kind == PLAY:
        return playable
    if kind == ANNOUNCE:
        return playable and model.rules.choreography
    if kind == DISCARD:
        return clues < MAX_CLUES
    return kind == MISPLAY and (not playable or model.rules.choreography) and strikes + 1 < MAX_STRIKES


def small_position(rng: random.Random) -> tuple[Deal, Position, State] | None:
    """A random reduced standard deal of 3-5 players with one card each, played randomly to a late
    position with few clue tokens; also the brute force's state for it."""
    players = rng.randint(3, 5)
    suits, ranks = rng.randint(1, 2), rng.randint(3, 5)
    rules = Rules(
        suits=suits,
        ranks=ranks,
        copies=rng.choice([(1, 1, 1, 1, 1), (2, 1, 1, 1, 1), (2, 2, 1, 1, 1)])[:ranks],
        players=players,
        hand_size=1,
        ending=Ending.STANDARD,
    )
    deck = [card for card in range(suits * ranks) for _ in range(rules.copies_of(card))]
    if not players < len(deck) <= 12:
        return None
    rng.shuffle(deck)
    deal = Deal(rules, deck, tuple(range(players)))
    brute = Brute(deal)
    state = brute.start()
    state = state[:3] + (rng.randint(0, 3),) + state[4:]  # few tokens from the start
    for _ in range(rng.randint(0, 4)):
        children = brute.children(state)
        if brute.result(state) is not None or not children:
            return None
        state = rng.choice(children)
    if brute.result(state) is not None:
        return None
    player, drawn, fireworks, clues, strikes, discards, final, hands = state
    position = deal.position(player, drawn, fireworks, discards, clues, strikes, final, hands)
    return deal, position, state


def small_positions(rng: random.Random) -> Iterator[tuple[Deal, Position, State]]:
    """`small_position`s still going on, endlessly."""
    while True:
        found = small_position(rng)
        if found is not None and found[0].status(found[1]) == ONGOING:
            yield found


def without_the_tight_question(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn off the search's clue-token question where no act is to spare (`solver.tight`): for the
    tests of the schedule on deals chosen where the search stalled without it (with it, the search
    finds several of their lines sooner, and its states count as positions)."""
    monkeypatch.setattr(tight, "SPARE", -1)
