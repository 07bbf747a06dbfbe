"""Fill in the cards a record never identified, turning it into a fully known game.

`known_deck` gives the whole deck order when the record determines it. A game
recorded from one seat (or exported with unidentified cards) leaves
unknown the recorder's own cards that were never played or discarded, and the
cards never drawn. Given their identities in deck order, the record becomes
fully known: the deck is set, every draw shows its card, and every hint's
touched slots are worked out again from the cards (a hint the filled-in cards
cannot have received is refused, naming the event).

>>> from deducer.playout import playout
>>> from deducer.settings import Settings
>>> game = playout(Settings(players=2), seed=4)
>>> seen = game.seen_by(0)
>>> seen.fully_known, fill_unknown(seen, missing(game, seen)).deck == game.deck
(False, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from deducer.actions import Draw, Event, Hint
from deducer.cards import Card, format_cards
from deducer.errors import RecordError
from deducer.record import GameRecord, known_cards, replay


def known_deck(record: GameRecord) -> tuple[Card, ...] | None:
    """The whole deck order when the record determines it: its `deck`, or every card drawn and the
    cards left in the deck (if any) all alike."""
    if record.deck is not None:
        return record.deck
    drawn = [event.card for event in record.events if isinstance(event, Draw)]
    if any(card is None for card in drawn):
        return None
    rest = Counter(record.settings.variant.full_deck())
    rest.subtract(card for card in drawn if card is not None)
    if len(set(rest.elements())) > 1:
        return None
    return tuple(card for card in drawn if card is not None) + tuple(rest.elements())


def unknown_positions(record: GameRecord) -> list[int]:
    """Deck positions (0 = first drawn) whose card the record does not know."""
    if record.deck is not None:
        return []
    return [uid for uid, card in enumerate(known_cards(record, replay(record))) if card is None]


def missing(full: GameRecord, seen: GameRecord) -> list[Card]:
    """The cards `seen` (the same game, partly known) never identified, taken from the fully known `full`."""
    if full.deck is None:
        raise RecordError("this record does not know its whole deck")
    return [full.deck[uid] for uid in unknown_positions(seen)]


def fill_unknown(record: GameRecord, cards: Sequence[Card]) -> GameRecord:
    """The record with its unknown cards given, in deck order; `RecordError` if they do not fit."""
    known = known_cards(record, replay(record)) if record.deck is None else list(record.deck)
    gaps = [uid for uid, card in enumerate(known) if card is None]
    if len(cards) != len(gaps):
        raise RecordError(f"{len(gaps)} card(s) of this game were never identified, but {len(cards)} were given")
    deck = list(known)
    for uid, card in zip(gaps, cards):
        deck[uid] = card
    full = [card for card in deck if card is not None]
    expected = Counter(record.settings.variant.full_deck())
    if Counter(full) != expected:
        extra = Counter(full) - expected
        short = expected - Counter(full)
        raise RecordError(
            f"with the cards given the deck is not a {record.settings.variant.value} deck: "
            f"too many {format_cards(sorted(extra.elements())) or '-'}, missing {format_cards(sorted(short.elements())) or '-'}"
        )
    events: list[Event] = []
    drawn = 0
    for event in record.events:
        if isinstance(event, Draw):
            event = Draw(event.seat, full[drawn])
            drawn += 1
        elif isinstance(event, Hint) and event.partial:
            event = replace(event, touched=None, partial=False)
        events.append(event)
    filled = replace(record, events=tuple(events), deck=tuple(full), recorder=None)
    replay(filled)  # every hint must fit the cards now known
    return filled


def identify(record: GameRecord, cards: Mapping[int, Card]) -> GameRecord:
    """The record with some of its unknown cards given (deck position -> card), the others left unknown.
    Given every one, the game becomes fully known (`fill_unknown`); otherwise the cards drawn are set in
    their draws (the cards never drawn cannot be kept without the whole deck). `RecordError` if they do
    not fit the copies or the hints."""
    gaps = unknown_positions(record)
    stray = sorted(set(cards) - set(gaps))
    if stray:
        raise RecordError(f"deck position(s) {', '.join(str(uid + 1) for uid in stray)} are not unknown cards of this game")
    if set(gaps) <= set(cards):
        return fill_unknown(record, [cards[uid] for uid in gaps])
    events: list[Event] = []
    drawn = 0
    for event in record.events:
        if isinstance(event, Draw):
            if event.card is None and drawn in cards:
                event = Draw(event.seat, cards[drawn])
            drawn += 1
        events.append(event)
    filled = replace(record, events=tuple(events))
    replay(filled)  # copies and hints must fit
    return filled
