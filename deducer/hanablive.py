"""Import and export of hanab.live game JSON (`players`, `deck`, `actions`).

hanab.live deals each player's whole hand in turn; a play or discard names the
card by its index in the deck; clue values index the variant's colours. Keys we
do not interpret (`id`, `notes`, `options`, ...) are kept so that an imported
game exports unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from deducer.actions import Clue, Discard, Draw, Event, Hint, Move, Play, Terminate
from deducer.cards import Card, Suit, Variant
from deducer.dealer import advance, deal
from deducer.errors import HanabiError, RecordError
from deducer.game import GameState
from deducer.record import GameRecord, known_cards, replay
from deducer.schema import HanabActionModel, HanabCardModel, HanabGameModel, HanabOptionsModel, validate
from deducer.settings import DealOrder, Ending, Settings, Stuck

SUITS: tuple[Suit, ...] = (Suit.RED, Suit.YELLOW, Suit.GREEN, Suit.BLUE, Suit.WHITE, Suit.MULTI)
VARIANTS: dict[str, Variant] = {"No Variant": Variant.BASE, "Black (6 Suits)": Variant.AVALANCHE}
PLAY, DISCARD, COLOUR_CLUE, RANK_CLUE, GAME_OVER = range(5)
# hanab.live options that change the rules in ways we do not model (others are kept as they are).
_UNSUPPORTED = ("oneExtraCard", "oneLessCard", "detrimentalCharacters")


def is_hanablive(data: Any) -> bool:
    """Whether `data` looks like a hanab.live export."""
    return isinstance(data, Mapping) and "players" in data and "deck" in data and "actions" in data


def settings_of(game: HanabGameModel) -> Settings:
    """Our settings for a hanab.live game, refusing variants and options we do not support."""
    options = game.options or HanabOptionsModel()
    if options.variant not in VARIANTS:
        raise RecordError(
            f"options.variant: hanab.live variant {options.variant!r} is not supported: only 'No Variant' and "
            "'Black (6 Suits)' (our Avalanche of Colours) follow the rules this program implements"
        )
    for option in _UNSUPPORTED:
        if getattr(options, option):
            raise RecordError(f"options.{option}: hanab.live option {option!r} is not supported (it changes the rules)")
    if options.startingPlayer not in (0, None):
        raise RecordError(f"options.startingPlayer: {options.startingPlayer} is not supported: the first seat starts")
    return Settings(
        players=len(game.players),
        variant=VARIANTS[options.variant],
        ending=Ending.CROWNING if options.allOrNothing else Ending.STANDARD,
        empty_hints=bool(options.emptyClues),
        deal=DealOrder.PER_SEAT,
    )


def import_game(data: Any) -> GameRecord:
    """A hanab.live game as our record, validated against `deducer.schema.HanabGameModel`; every
    action is checked by the engine."""
    if not is_hanablive(data):
        raise RecordError("not a hanab.live game: expected the keys 'players', 'deck' and 'actions'")
    game = validate(HanabGameModel, data)
    settings = settings_of(game)
    seats = tuple(game.players)
    suits = SUITS[: len(settings.variant.suits)]
    deck = tuple(_card(item, suits, index) for index, item in enumerate(game.deck))
    known = Counter(card for card in deck if card is not None)
    if len(deck) != settings.variant.deck_size or known - Counter(settings.variant.full_deck()):
        raise RecordError(
            f"deck: {len(deck)} cards that are not a full {settings.variant.value} deck of {settings.variant.deck_size}"
        )
    try:
        state = deal(GameState.new(settings, seats), deck)
    except HanabiError as error:
        raise RecordError(f"the deal: {error}") from None
    actions: list[Event] = []
    for index, item in enumerate(game.actions):
        try:
            action = _action(state, item, suits)
            actions.append(action)
            if isinstance(action, Terminate):
                break
            state = advance(state, state.complete(action), deck)
        except HanabiError as error:
            raise RecordError(f"actions[{index}] {item.model_dump()}: {error}", index + 1) from None
    extras = {key: value for key, value in data.items() if key not in ("players", "deck", "actions")}
    record = GameRecord.from_deck(settings, deck, actions, seats)
    meta = {"source": "hanab.live", "hanablive": extras, "keys": list(data)}
    return GameRecord(record.settings, record.seats, record.events, record.deck, meta=meta)


def _card(item: HanabCardModel, suits: tuple[Suit, ...], index: int) -> Card | None:
    """A deck entry; `{"suitIndex": -1, "rank": -1}` (as trackers export a card never identified) is None."""
    if item.suitIndex == -1 and item.rank == -1:
        return None
    if not 0 <= item.suitIndex < len(suits) or not 1 <= item.rank <= 5:
        raise RecordError(
            f"deck[{index}]: {item.model_dump()} is not a card of this variant "
            f"(suitIndex 0-{len(suits) - 1}, rank 1-5; -1, -1 for a card never identified)"
        )
    return Card(suits[item.suitIndex], item.rank)


def _action(state: GameState, item: HanabActionModel, suits: tuple[Suit, ...]) -> Event:
    kind, target, value = item.type, item.target, item.value
    seat = state.current
    if kind in (PLAY, DISCARD):
        slots = [slot for slot, card in enumerate(state.hands[seat], 1) if card.uid == target]
        if not slots:
            raise RecordError(f"card {target} of the deck is not in {state.name(seat)}'s hand (deck plays are not supported)")
        return Play(seat, slots[0]) if kind == PLAY else Discard(seat, slots[0])
    if kind in (COLOUR_CLUE, RANK_CLUE):
        if kind == COLOUR_CLUE:
            if value is None or not 0 <= value < len(suits):
                raise RecordError(f"colour clue value {value!r} is not a colour of this variant (0-{len(suits) - 1})")
            clue = Clue(suit=suits[value])
        else:
            if value is None or not 1 <= value <= 5:
                raise RecordError(f"rank clue value {value!r} is not a rank from 1 to 5")
            clue = Clue(rank=value)
        if 0 <= target < state.settings.players and any(item.card is None for item in state.hands[target]):
            # A card never identified: which of those the clue touched is not in the export.
            hand = state.hands[target]
            touched = tuple(slot for slot, card in enumerate(hand, 1) if card.card is not None and clue.touches(card.card))
            return Hint(seat, target, clue, touched, partial=True)
        return Hint(seat, target, clue)
    return Terminate(target if 0 <= target < state.settings.players else seat, value or 0)


def _deck_card(card: Card | None, suits: tuple[Suit, ...]) -> dict[str, int]:
    if card is None:
        return {"suitIndex": -1, "rank": -1}
    return {"suitIndex": suits.index(card.suit), "rank": card.rank}


def export_game(record: GameRecord) -> dict[str, Any]:
    """Our record as a hanab.live game (inverse of `import_game`); a card never identified is
    `{"suitIndex": -1, "rank": -1}`."""
    settings = record.settings
    if settings.choreography:
        raise RecordError("hanab.live has no Timed Choreography: this game cannot be exported")
    if settings.ending is Ending.CROWNING and settings.stuck is Stuck.PASS:
        raise RecordError("hanab.live's All or Nothing has no 'stuck=pass' option: this game cannot be exported")
    states = replay(record)
    cards = list(record.deck) if record.deck is not None else known_cards(record, states)
    # hanab.live deals per seat: reorder the opening cards so that each seat gets the same hand.
    dealt = settings.players * settings.hand_size
    order = sorted(range(dealt), key=lambda uid: (settings.deal_seats()[uid], uid)) + list(range(dealt, len(cards)))
    position = {uid: index for index, uid in enumerate(order)}
    suits = SUITS[: len(settings.variant.suits)]
    actions: list[dict[str, int]] = []
    for state, event in zip(states, record.events):
        if isinstance(event, (Play, Discard)):
            uid = state.hands[event.seat][event.slot - 1].uid
            actions.append({"type": PLAY if isinstance(event, Play) else DISCARD, "target": position[uid], "value": 0})
        elif isinstance(event, Hint):
            if event.clue.suit is not None:
                actions.append({"type": COLOUR_CLUE, "target": event.target, "value": suits.index(event.clue.suit)})
            else:
                actions.append({"type": RANK_CLUE, "target": event.target, "value": int(event.clue.rank or 0)})
        elif isinstance(event, Terminate):
            actions.append({"type": GAME_OVER, "target": event.seat, "value": event.code})
        elif not isinstance(event, (Move, Draw)):
            raise RecordError(f"{event.notation(record.seats)} has no hanab.live equivalent")
    extras = dict(record.meta.get("hanablive", {}))
    options = dict(extras.get("options") or {})
    if settings.variant is not Variant.BASE or "variant" in options:
        options["variant"] = {variant: name for name, variant in VARIANTS.items()}[settings.variant]
    if settings.empty_hints:
        options["emptyClues"] = True
    if settings.ending is Ending.CROWNING:
        options["allOrNothing"] = True
    if options:
        extras["options"] = options
    body: dict[str, Any] = {
        "players": list(record.seats),
        "deck": [_deck_card(cards[uid], suits) for uid in order],
        "actions": actions,
        **extras,
    }
    original = [key for key in record.meta.get("keys", []) if key in body]
    return {key: body[key] for key in original + [key for key in body if key not in original]}
