"""The rules played in place (`Table`): a whole game on one table is the game of `GameState.apply`, and an
event the rules refuse leaves the table exactly as it was, so a caller that catches the error plays on."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from deducer.actions import Clue, Discard, Draw, Event, Hint, Move, Pass, Play
from deducer.cards import Card, Variant
from deducer.errors import ContradictionError, HanabiError, IllegalActionError, MissingInformationError
from deducer.game import GameState, Table
from deducer.settings import DealOrder, Ending, Settings, Stuck

SETTINGS = [
    Settings(players=2),
    Settings(players=3, variant=Variant.AVALANCHE, deal=DealOrder.PER_SEAT),
    Settings(players=4, ending=Ending.CROWNING),
    Settings(players=5, variant=Variant.AVALANCHE, ending=Ending.CROWNING, stuck=Stuck.PASS, empty_hints=True),
    Settings(players=2, choreography=True, ending=Ending.CROWNING, deal=DealOrder.PER_SEAT),
    Settings(players=3, choreography=True, empty_hints=True),
]
HIDDEN = 0  # the recorder's seat: its cards are unknown until a play or a discard reveals them


def _revealed(state: GameState, event: Event, deck: list[Card]) -> Event:
    """`event` (a legal action of `state.legal_actions()`) with what the table shows once it is played."""
    if isinstance(event, (Play, Discard)) and event.card is None:
        return replace(event, card=deck[state.hands[event.seat][event.slot - 1].uid])
    if isinstance(event, Hint) and event.touched is None:
        hand = state.hands[event.target]
        return replace(event, touched=tuple(slot for slot, item in enumerate(hand, 1) if event.clue.touches(deck[item.uid])))
    return event


def _action(state: GameState, deck: list[Card], rng: random.Random) -> Event:
    """A random legal action, revealed; a misplay only now and then, so that games last."""
    revealed = [_revealed(state, action, deck) for action in state.legal_actions()]
    empty = not state.settings.empty_hints  # a hint at the hidden hand may turn out to touch nothing
    actions = [action for action in revealed if not (empty and isinstance(action, Hint) and not action.touched)]
    good = [action for action in actions if not isinstance(action, Play) or _lands(state, action)]
    return rng.choice(good if good and rng.random() < 0.95 else actions)


def _lands(state: GameState, play: Play) -> bool:
    return play.card is not None and state.playable(play.card) and play.announce in (None, play.card.suit)


def _draw(state: GameState, deck: list[Card]) -> Draw:
    seat = state.must_draw if state.must_draw is not None else state.current
    return Draw(seat, None if seat == HIDDEN else deck[state.drawn])


def _attempts(state: GameState, rng: random.Random) -> list[Event]:
    """Random events, most of them illegal in `state`: every kind, seats and slots out of range included."""
    settings = state.settings
    cards: list[Card | None] = [*settings.variant.cards, Card.parse("m1")]
    suits = [None, *settings.variant.suits]
    events: list[Event] = []
    for _ in range(12):
        seat = state.current if rng.random() < 0.5 else rng.randrange(-1, settings.players + 1)  # often past the turn check
        slot = rng.randrange(0, 7)
        card = None if rng.random() < 0.3 else rng.choice(cards)  # None: the card played is not said
        clue = Clue(suit=rng.choice(settings.variant.suits)) if rng.random() < 0.5 else Clue(rank=rng.randint(1, 5))
        touched = rng.choice([None, None, (), (1,), (1, 3), (2, 2), (5, 6)])
        target = HIDDEN if rng.random() < 0.5 else rng.randrange(-1, settings.players + 1)
        kinds: list[Event] = [
            Play(seat, slot, card, rng.choice(suits)),
            Discard(seat, slot, card),
            Hint(seat, target, clue, touched, rng.random() < 0.3),
            Draw(seat, rng.choice(cards)),
            Pass(seat),
            Move(seat, slot, rng.randrange(0, 7)),
        ]
        events.append(rng.choice(kinds))
    return events


@pytest.mark.parametrize(
    "settings", SETTINGS, ids=lambda settings: f"{settings.players}p-{settings.variant.value}-{settings.ending.value}"
)
def test_a_table_plays_the_game_of_apply_and_a_refused_event_changes_nothing(settings: Settings) -> None:
    refused: Counter[type[HanabiError]] = Counter()
    for seed in range(8):
        rng = random.Random(seed)
        deck = settings.variant.shuffled_deck(seed)
        state = GameState.new(settings)
        table = Table(state)
        while not state.over and len(state.discards) < 20:
            for attempt in _attempts(state, rng):
                try:
                    state.apply(attempt)
                except HanabiError as error:
                    refused[type(error)] += 1
                    with pytest.raises(type(error)) as again:
                        table.apply(attempt)
                    assert str(again.value) == str(error)
                    assert table.state() == state, f"{attempt} was refused but changed the table"
            if state.must_draw is not None:
                event: Event = _draw(state, deck)
            else:
                event = _action(state, deck, rng)
            table.apply(event)
            state = state.apply(event)
            assert table.state() == state
    # The random events reach every kind of refusal, many times over.
    assert {error: refused[error] > 10 for error in (IllegalActionError, ContradictionError, MissingInformationError)} == {
        IllegalActionError: True,
        ContradictionError: True,
        MissingInformationError: True,
    }
