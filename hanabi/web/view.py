"""What the companion's page shows, as one JSON object built from the tracker (no thinking of its own)."""

from __future__ import annotations

from typing import Any

from deducer.actions import Draw, Pass
from deducer.advice import advise
from deducer.complete import unknown_positions
from deducer.errors import HanabiError
from deducer.game import GameState
from deducer.knowledge import CardKnowledge
from deducer.rules import rating
from deducer.settings import MAX_CLUES, Ending
from deducer.tracker import Tracker
from hanabi.web.store import is_auto

ADVICE_SHOWN = 8


def game_view(game: str, tracker: Tracker) -> dict[str, Any]:
    """Everything the page needs after the latest event."""
    record, state = tracker.record, tracker.state
    settings = record.settings
    me = record.recorder
    actor = state.must_draw if state.must_draw is not None else state.current
    phase = "over" if state.over else ("deal" if state.dealing else "draw" if state.must_draw is not None else "turn")
    view: dict[str, Any] = {
        "id": game,
        "version": len(record.events),
        "seats": list(record.seats),
        "me": me,
        "settings": settings.to_json(),
        "suits": [suit.letter for suit in settings.variant.suits],
        "phase": phase,
        "actor": actor,
        "state": _numbers(state),
        "hands": [_hand(tracker, seat) for seat in range(settings.players)],
        "pad": {str(card): settings.variant.copies(card) - state.seen(card) for card in settings.variant.cards},
        "log": [
            {"number": number, "text": event.notation(record.seats), "auto": is_auto(event, me), "card": _card_of(event)}
            for number, event in enumerate(record.events, 1)
        ],
        "legal": {
            "hint": state.clues > 0 and state.has_legal_hint(actor),
            "discard": state.clues < MAX_CLUES and bool(state.hands[actor]),
            "play": bool(state.hands[actor]),
            "pass": any(isinstance(action, Pass) for action in state.legal_actions()),
        },
        "advice_due": phase == "turn" and (me is None or actor == me),
        "review": None,
    }
    if phase == "over":
        view["review"] = _review(tracker)
    return view


def advice_view(tracker: Tracker) -> dict[str, Any]:
    """The best moves for the seat to act, by `deducer.advice` (asked for apart: it takes longer than an event)."""
    try:
        options = advise(tracker).actions[:ADVICE_SHOWN]
    except HanabiError as error:
        return {"version": len(tracker.record.events), "advice": [], "why": str(error)}
    return {"version": len(tracker.record.events), "advice": [option.to_json(tracker.record.seats) for option in options]}


def _numbers(state: GameState) -> dict[str, Any]:
    variant = state.settings.variant
    discards: dict[str, list[str]] = {suit.letter: [] for suit in variant.suits}
    for card in sorted(state.discards):
        discards[card.suit.letter].append(str(card))
    over_words = None
    if state.end is not None and state.settings.ending is Ending.STANDARD:
        over_words = rating(state.score, variant)
    elif state.end is not None:
        over_words = "won" if state.won else "lost"
    return {
        "clues": state.clues,
        "strikes": state.strikes,
        "score": state.score,
        "max_score": variant.max_score,
        "deck": state.deck_left,
        "turn": state.turn,
        "fireworks": {suit.letter: height for suit, height in zip(variant.suits, state.fireworks)},
        "discards": discards,
        "end": None if state.end is None else state.end.value,
        "rating": over_words,
    }


def _card_of(event: object) -> str | None:
    card = getattr(event, "card", None)
    return None if card is None else str(card)


def _hand(tracker: Tracker, seat: int) -> dict[str, Any]:
    """A hand with, for each card, what its holder can know about it."""
    state = tracker.state
    try:
        holder = tracker.knowledge(seat)
        cards = {card.slot: card for card in holder.cards if card.seat == seat}
        approximate = holder.approximate
        problem = None
    except HanabiError as error:
        cards, approximate, problem = {}, True, str(error)
    return {
        "seat": seat,
        "name": state.name(seat),
        "approximate": approximate,
        "problem": problem,
        "cards": [
            {"slot": slot, "card": None if item.card is None else str(item.card)} | _knowledge(cards.get(slot))
            for slot, item in enumerate(state.hands[seat], 1)
        ],
    }


def _knowledge(card: CardKnowledge | None) -> dict[str, Any]:
    if card is None:
        return {"top": [], "grid": {}, "flags": [], "p_playable": None, "p_trash": None, "facts": ""}
    ranked = sorted(card.probabilities.items(), key=lambda item: -item[1])
    return {
        "top": [[str(identity), round(p, 4)] for identity, p in ranked[:3]],
        "grid": {str(identity): round(p, 4) for identity, p in card.probabilities.items()},
        "flags": list(card.flags),
        "p_playable": round(card.p_playable, 4),
        "p_trash": round(card.p_trash, 4),
        "p_critical": round(card.p_critical, 4),
        "facts": str(card.facts),
    }


def _review(tracker: Tracker) -> list[dict[str, Any]]:
    """Each card never revealed: where it is and only the identities that fit it."""
    record, state = tracker.record, tracker.state
    gaps = unknown_positions(record)
    if not gaps:
        return []
    where: dict[int, tuple[int, int]] = {
        item.uid: (seat, slot) for seat, hand in enumerate(state.hands) for slot, item in enumerate(hand, 1)
    }
    views: dict[int, dict[int, CardKnowledge]] = {}
    variant = record.settings.variant
    unaccounted = [card for card in variant.cards if variant.copies(card) > state.seen(card)]
    entries = []
    drawn = sum(1 for event in record.events if isinstance(event, Draw))
    for uid in gaps:
        if uid in where:
            seat, slot = where[uid]
            if seat not in views:
                views[seat] = {card.uid: card for card in tracker.knowledge(seat).cards}
            fits = sorted(views[seat][uid].probabilities, key=lambda card: -views[seat][uid].probabilities[card])
            label = f"{state.name(seat)}'s slot {slot}"
        else:
            fits = unaccounted
            label = f"deck card {uid - drawn + 1} (never drawn)"
        entries.append({"position": uid, "where": label, "fits": [str(card) for card in fits]})
    return entries
