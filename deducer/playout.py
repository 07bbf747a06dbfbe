"""A simple bot that sees every card, for sample games and random playouts.

>>> from deducer.record import replay
>>> record = playout(Settings(players=3), seed=7)
>>> final = replay(record)[-1]
>>> final.over, final.score == sum(final.fireworks)
(True, True)
"""

from __future__ import annotations

import random

from deducer.actions import Action, Discard, Hint, Play
from deducer.dealer import advance, deal
from deducer.game import GameState
from deducer.record import GameRecord
from deducer.settings import Settings


def bot_action(state: GameState, rng: random.Random, noise: float = 0.0) -> Action:
    """A legal action: plays, then safe discards, then hints; a random one with probability `noise`."""
    legal = state.legal_actions()
    if not legal:
        raise ValueError("no action is legal: the game is over or a draw is due")
    if rng.random() < noise:
        return rng.choice(legal)
    hand = state.hands[state.current]
    cards = [item.card for item in hand]
    for slot, card in enumerate(cards, 1):
        if card is not None and state.playable(card):
            return Play(state.current, slot, card)
    if state.clues < 8 and hand:
        ranked = sorted(
            range(len(cards)),
            key=lambda index: (
                not (cards[index] is not None and state.trash(cards[index])),  # type: ignore[arg-type]
                cards[index] is not None and state.indispensable(cards[index]),  # type: ignore[arg-type]
                -index,
            ),
        )
        best = cards[ranked[0]]
        if state.clues == 0 or best is None or state.trash(best) or not state.indispensable(best):
            return Discard(state.current, ranked[0] + 1, best)
    hints = [action for action in legal if isinstance(action, Hint)]
    if hints:
        return rng.choice(hints)
    return rng.choice(legal)


def playout(
    settings: Settings,
    seed: int,
    noise: float = 0.0,
    seats: tuple[str, ...] | None = None,
    max_turns: int | None = None,
) -> GameRecord:
    """A whole game on the deck shuffled from `seed`, played by `bot_action`."""
    rng = random.Random(seed)
    deck = settings.variant.shuffled_deck(seed)
    state = deal(GameState.new(settings, seats), deck)
    actions: list[Action] = []
    while not state.over and (max_turns is None or len(actions) < max_turns):
        action = bot_action(state, rng, noise)
        actions.append(action)
        state = advance(state, action, deck)
    return GameRecord.from_deck(settings, deck, actions, state.seats)
