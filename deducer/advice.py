"""What each legal action tells and risks, for the seat to act, from exact knowledge and no convention.

- A play of one's own card: the exact chance it is playable (from the actor's view), and what a
  misplay costs (a strike, the third one ending the game; the chance of losing a critical card).
- A discard: the chances the card is trash and critical.
- A hint: the slots it touches; what the receiver would know afterwards about each card (their exact
  view after the hint); the cards it makes certainly playable or certainly trash; the critical cards
  it touches that no hint had touched; and its information in bits, `log2(W / W')` where `W` and
  `W'` are the weights of the deals the receiver's view allows before and after it: the surprise of
  seeing exactly those slots touched, whose average over the possible outcomes is the drop in
  entropy of the receiver's hand. Never negative.

The default ranking, by tiers, then within a tier as said:

1. certain plays (chance 1), fives first (they return a clue token);
2. hints that make a card certainly playable or touch a critical card for the first time, by the
   number of such cards, then bits;
3. discards of a card certainly trash;
4. other hints that tell something, by bits;
5. plays at least as likely as not to succeed that cannot cost the game, by chance;
6. other discards, least likely critical first, then most likely trash;
7. hints that tell nothing;
8. other plays, by chance (a possible third strike last).

>>> from deducer.record import GameRecord
>>> from deducer.settings import Settings
>>> from deducer.cards import Variant
>>> record = GameRecord.from_deck(Settings(players=2), Variant.BASE.shuffled_deck(4), [])
>>> advice = advise(record)
>>> advice.actions[0].action.notation(record.seats), advice.actions[0].reason
('Alice hints Bob 1 (1,4,5)', 'touches 1,4,5; makes slots 1,4,5 certainly playable; 6.17 bits')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deducer.actions import Action, Discard, Hint, Pass, Play
from deducer.cards import Card
from deducer.errors import RecordError
from deducer.facts import Facts, update
from deducer.game import GameState
from deducer.knowledge import NO_FACTS, CardKnowledge, Knowledge, knowledge
from deducer.record import GameRecord
from deducer.settings import MAX_STRIKES
from deducer.tracker import Tracker

TIERS = {
    1: "certain play",
    2: "hint that makes a card playable or saves a critical card",
    3: "safe discard",
    4: "informative hint",
    5: "good gamble",
    6: "discard",
    7: "empty hint",
    8: "risky play",
}


@dataclass(frozen=True)
class Option:
    """One legal action with what it does; the fields that do not apply are None or empty."""

    action: Action
    kind: str  # play, discard, hint, pass
    tier: int
    reason: str
    p_playable: float | None = None
    p_trash: float | None = None
    p_critical: float | None = None
    loses_game: bool = False  # a misplay would be the third strike
    touched: tuple[int, ...] = ()
    bits: float | None = None
    makes_playable: tuple[int, ...] = ()
    makes_trash: tuple[int, ...] = ()
    saves: tuple[int, ...] = ()
    after: Knowledge | None = None  # the receiver's view after the hint
    returns_clue: bool = False  # a certain play of a 5: it gives a clue token back

    @property
    def slot(self) -> int | None:
        return self.action.slot if isinstance(self.action, (Play, Discard)) else None

    def to_json(self, seats: Sequence[str]) -> dict[str, Any]:
        data: dict[str, Any] = {"action": self.action.notation(seats), "kind": self.kind, "tier": self.tier}
        data["reason"] = self.reason
        if isinstance(self.action, (Play, Discard)):
            data["slot"] = self.action.slot
            data["p_playable"] = _round(self.p_playable)
            data["p_trash"] = _round(self.p_trash)
            data["p_critical"] = _round(self.p_critical)
            if isinstance(self.action, Play):
                data["loses_game"] = self.loses_game
        if isinstance(self.action, Hint):
            data["target"] = seats[self.action.target]
            data["touched"] = list(self.touched)
            data["bits"] = _round(self.bits)
            data["makes_playable"] = list(self.makes_playable)
            data["makes_trash"] = list(self.makes_trash)
            data["saves"] = list(self.saves)
            if self.after is not None:
                data["after"] = [
                    {"slot": card.slot, "candidates": {str(c): round(p, 4) for c, p in card.probabilities.items()}}
                    | {"flags": list(card.flags)}
                    for card in self.after.cards
                    if card.seat == self.action.target
                ]
        return data


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


@dataclass(frozen=True)
class Advice:
    """Every legal action of `seat` after `turn` actions, best first by the default ranking."""

    seat: int
    turn: int
    actions: tuple[Option, ...]
    approximate: bool  # some view lacked cards the record does not know
    skipped: tuple[str, ...] = ()  # hints that could not be weighed, with why

    def to_json(self, seats: Sequence[str]) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": seats[self.seat], "turn": self.turn}
        data["actions"] = [option.to_json(seats) for option in self.actions]
        if self.approximate:
            data["approximate"] = True
        if self.skipped:
            data["skipped"] = list(self.skipped)
        return data


def advise(record: GameRecord | Tracker, turn: int | None = None, seat: int | None = None) -> Advice:
    """The ranked options of the seat to act after the first `turn` actions; without `turn`, now, or
    given `seat`, the latest turn at which that seat was or is to act."""
    tracker = record if isinstance(record, Tracker) else Tracker(record)
    if turn is None and seat is not None:
        turn = latest_turn(tracker, seat)
    state = tracker.state_at(turn)
    if state.over:
        raise RecordError(f"the game is over after {state.turn} turns: there is no move to advise")
    if state.must_draw is not None:
        raise RecordError(f"{state.name(state.must_draw)} must draw first")
    if seat is not None and seat != state.current:
        raise RecordError(f"after {state.turn} turns it is {state.name(state.current)}'s turn, not {state.name(seat)}'s")
    return options(state, tracker.facts_at(turn), tracker.record.recorder)


def latest_turn(tracker: Tracker, seat: int) -> int:
    """The latest turn boundary (actions taken) at which `seat` is to act."""
    for state in reversed(tracker.states):
        if state.current == seat and state.must_draw is None and not state.over and not state.dealing:
            return state.turn
    raise RecordError(f"{tracker.state.name(seat)} has no turn to play in this game yet")


def options(state: GameState, facts: Mapping[int, Facts], recorder: int | None = None) -> Advice:
    """The ranked options of the seat to act in `state`, with the hint `facts` of every card."""
    seat = state.current
    own = knowledge(state, facts, seat, recorder)
    approximate = own.approximate
    found: list[Option] = []
    skipped: list[str] = []
    receivers: dict[int, Knowledge] = {}
    for action in state.legal_actions():
        if isinstance(action, Play):
            found.append(_play(state, own.card(seat, action.slot), Play(seat, action.slot, None, action.announce)))
        elif isinstance(action, Discard):
            found.append(_discard(own.card(seat, action.slot), Discard(seat, action.slot)))
        elif isinstance(action, Hint):
            if action.touched is None:
                skipped.append(f"{action.notation(state.seats)}: the record does not know every card it could touch")
                continue
            if action.target not in receivers:
                receivers[action.target] = knowledge(state, facts, action.target, recorder)
            option = _hint(state, facts, recorder, action, receivers[action.target])
            approximate = approximate or (option.after is not None and option.after.approximate)
            found.append(option)
        elif isinstance(action, Pass):
            found.append(Option(action, "pass", 8, "no card and no hint: passing is the only move"))
    found.sort(key=_order)
    return Advice(seat, state.turn, tuple(found), approximate, tuple(skipped))


def _play(state: GameState, card: CardKnowledge, action: Play) -> Option:
    if action.announce is None:
        p_playable = card.p_playable
    else:
        p_playable = sum(p for c, p in card.probabilities.items() if state.playable(c) and c.suit is action.announce)
    p_critical = sum(p for c, p in card.probabilities.items() if state.critical(c) and not state.playable(c))
    loses = state.strikes == MAX_STRIKES - 1 and p_playable < 1
    chance = f"{p_playable:.0%} playable"
    fives = p_playable >= 1 and all(c.rank == 5 for c in card.probabilities)
    if p_playable >= 1:
        tier, reason = 1, "certainly playable" + (", and a 5 returns a clue token" if fives else "")
    elif p_playable >= 0.5 and not loses:
        tier, reason = 5, f"a gamble: {chance}; a misplay costs a strike" + _critical_text(p_critical)
    else:
        tier = 8
        cost = "the third strike ends the game" if loses else "a misplay costs a strike"
        reason = ("never playable: " if p_playable == 0 else f"risky: {chance}; ") + cost + _critical_text(p_critical)
    return Option(action, "play", tier, reason, p_playable, card.p_trash, p_critical, loses, returns_clue=fives)


def _critical_text(p_critical: float) -> str:
    return f" and may lose a critical card ({p_critical:.0%})" if p_critical > 0 else ""


def _discard(card: CardKnowledge, action: Discard) -> Option:
    p_critical = card.p_critical
    if card.p_trash >= 1:
        return Option(action, "discard", 3, "certainly trash: a safe discard that returns a clue token", None, 1.0, 0.0)
    parts = [f"{card.p_trash:.0%} trash"]
    if p_critical > 0:
        parts.append(f"{p_critical:.0%} critical")
    if card.p_playable > 0:
        parts.append(f"{card.p_playable:.0%} playable")
    return Option(action, "discard", 6, "discard: " + ", ".join(parts), card.p_playable, card.p_trash, p_critical)


def _hint(state: GameState, facts: Mapping[int, Facts], recorder: int | None, action: Hint, before: Knowledge) -> Option:
    target = action.target
    touched = action.touched or ()
    after_state = state.apply(action)
    after_facts = update(facts, state, action)
    after = knowledge(after_state, after_facts, target, recorder)
    hand = state.hands[target]
    was = {card.slot: card for card in before.cards if card.seat == target}
    now = {card.slot: card for card in after.cards if card.seat == target}
    makes_playable = tuple(slot for slot in now if "playable" in now[slot].flags and "playable" not in was[slot].flags)
    makes_trash = tuple(slot for slot in now if "trash" in now[slot].flags and "trash" not in was[slot].flags)
    saves = tuple(slot for slot in touched if _critical(state, hand[slot - 1].card) and _untouched(facts, hand[slot - 1].uid))
    bits = _bits(before, after)
    words = []
    if makes_playable:
        words.append(f"makes slot{'s' * (len(makes_playable) > 1)} {_slots(makes_playable)} certainly playable")
    if saves:
        words.append(f"touches critical {' '.join(str(hand[slot - 1].card) for slot in saves)} for the first time")
    if makes_trash:
        words.append(f"shows slot{'s' * (len(makes_trash) > 1)} {_slots(makes_trash)} to be trash")
    told = f"{bits:.2f} bits" if bits is not None else "bits unknown (estimated view)"
    if makes_playable or saves:
        tier = 2
    elif bits is None or bits > 1e-9:
        tier = 4
    else:
        tier = 7
        words.append("tells nothing new")
    what = f"touches {_slots(touched)}" if touched else "touches no card"
    reason = f"{what}; " + ("; ".join(words) + "; " if words else "") + told
    return Option(action, "hint", tier, reason, None, None, None, False, touched, bits, makes_playable, makes_trash, saves, after)


def _critical(state: GameState, card: Card | None) -> bool:
    return card is not None and state.critical(card)


def _untouched(facts: Mapping[int, Facts], uid: int) -> bool:
    known = facts.get(uid, NO_FACTS)
    return known.suit is None and known.rank is None


def _bits(before: Knowledge, after: Knowledge) -> float | None:
    if before.total is None or after.total is None or after.total == 0:
        return None
    return max(0.0, math.log2(before.total / after.total))


def _slots(slots: Sequence[int]) -> str:
    return ",".join(str(slot) for slot in slots)


def _order(option: Option) -> tuple[float, ...]:
    tier = option.tier
    if tier == 1:
        return (tier, 0 if option.returns_clue else 1, option.slot or 0)
    if tier == 2:
        return (tier, -(len(option.makes_playable) + len(option.saves)), -(option.bits or 0))
    if tier in (4, 7):
        return (tier, -(option.bits or 0), 0)
    if tier == 5:
        return (tier, -(option.p_playable or 0), option.slot or 0)
    if tier == 6:
        return (tier, option.p_critical or 0, -(option.p_trash or 0))
    if tier == 8:
        return (tier, 1 if option.loses_game else 0, -(option.p_playable or 0))
    return (tier, option.slot or 0, 0)
