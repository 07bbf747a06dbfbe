"""The rules engine: an immutable game state, and the table the rules play events on.

A state is advanced by events (`Draw`, `Hint`, `Play`, `Discard`, `Pass`, `Move`,
`Terminate`); every rule of RULES.md is checked and a broken one raises a typed
error that says what and why. Cards a recorder cannot see are `None` until a play
or discard reveals them. `GameState.apply` gives a new state for each event; a
`Table` plays a run of events in place (the solver's replay of its lines), and is
frozen into a state once at the end.

>>> from deducer.actions import parse_event
>>> state = GameState.new(Settings(players=2))
>>> for card in "r1 b1 r2 b2 r3 b3 r4 b4 r5 b5".split():
...     state = state.apply(Draw(state.must_draw or 0, Card.parse(card)))
>>> state = state.apply(parse_event("Alice plays 5", state.seats))
>>> state.fireworks_text(), state.must_draw
('w0 r1 b0 y0 g0', 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from deducer.actions import DEFAULT_SEATS, Action, Clue, Discard, Draw, Event, Hint, Move, Pass, Play, Terminate
from deducer.cards import Card, Suit
from deducer.errors import ContradictionError, IllegalActionError, MissingInformationError
from deducer.rules import End
from deducer.settings import MAX_CLUES, MAX_STRIKES, Ending, Settings, Stuck


@dataclass(frozen=True)
class HandCard:
    """A card in a hand: `uid` is its position in the deck (0 = first drawn)."""

    uid: int
    card: Card | None


class _Position:
    """What the table shows, asked alike of a frozen `GameState` and of a `Table` in play (whose
    hands, fireworks and discards are lists where the state's are tuples)."""

    __slots__ = ()
    settings: Settings
    hands: Sequence[Sequence[HandCard]]
    fireworks: Sequence[int]
    seats: tuple[str, ...]
    drawn: int
    clues: int
    strikes: int
    discards: Sequence[Card]
    current: int
    turn: int
    must_draw: int | None
    final_turns: int | None
    end: End | None

    @property
    def deck_left(self) -> int:
        return self.settings.variant.deck_size - self.drawn

    @property
    def dealing(self) -> bool:
        return self.drawn < self.settings.players * self.settings.hand_size

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def score(self) -> int:
        """Standard: the fireworks' sum, 0 after the third strike. Crowning: all or nothing."""
        if self.end is End.STRIKES:
            return 0
        if self.settings.ending is Ending.CROWNING and self.end is not None and self.end is not End.COMPLETE:
            return 0
        return sum(self.fireworks)

    @property
    def won(self) -> bool:
        return sum(self.fireworks) == self.settings.variant.max_score

    def name(self, seat: int) -> str:
        return self.seats[seat]

    def firework(self, suit: Suit) -> int:
        return self.fireworks[self.settings.variant.suits.index(suit)]

    def fireworks_text(self) -> str:
        return " ".join(f"{suit.letter}{height}" for suit, height in zip(self.settings.variant.suits, self.fireworks))

    def playable(self, card: Card) -> bool:
        return self.firework(card.suit) == card.rank - 1

    def trash(self, card: Card) -> bool:
        """`card` can never be played: already played, or a lower rank of its suit is all discarded."""
        height = self.firework(card.suit)
        if card.rank <= height:
            return True
        suit, copies = card.suit, self.settings.variant.copies
        lost = [item.rank for item in self.discards if item.suit is suit]  # (attribute tests: no Card.__eq__ per discard)
        return any(lost.count(rank) == copies(Card(suit, rank)) for rank in range(height + 1, card.rank) if rank in lost)

    def critical(self, card: Card) -> bool:
        """`card` is still needed and only one copy of it is left undiscarded."""
        return self.indispensable(card) and not self.trash(card)

    def seen(self, card: Card) -> int:
        """Copies of `card` in sight: played, discarded or known in a hand."""
        played = 1 if card.rank <= self.firework(card.suit) else 0
        suit, rank = card.suit, card.rank  # attribute tests: much cheaper than Card.__eq__ on a hot path
        held = sum(
            1
            for hand in self.hands
            for item in hand
            if item.card is not None and item.card.rank == rank and item.card.suit is suit
        )
        return played + held + self.discards.count(card)

    def indispensable(self, card: Card) -> bool:
        """`card` is still needed and every other copy is already discarded."""
        needed = card.rank > self.firework(card.suit)
        return needed and self.discards.count(card) == self.settings.variant.copies(card) - 1

    def has_legal_hint(self, seat: int) -> bool:
        if self.clues == 0:
            return False
        others = [hand for other, hand in enumerate(self.hands) if other != seat]
        return self.settings.empty_hints or any(others)

    def stuck(self, seat: int) -> bool:
        """An empty hand and no legal hint (only possible under Crowning Piece)."""
        return not self.hands[seat] and not self.has_legal_hint(seat)

    def touched(self, target: int, clue: Clue) -> tuple[int, ...] | None:
        """Slots of `target` that `clue` points at, or None if some card there is unknown."""
        slots = []
        touches = clue.touches
        for slot, item in enumerate(self.hands[target], 1):
            if item.card is None:
                return None
            if touches(item.card):
                slots.append(slot)
        return tuple(slots)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act (hints on unknown hands have touched=None)."""
        if self.end is not None or self.must_draw is not None:
            return []
        seat = self.current
        actions: list[Action] = []
        hand = self.hands[seat]
        announces: list[Suit | None] = [None]
        if self.settings.choreography:
            announces += list(self.settings.variant.suits)
        for slot, item in enumerate(hand, 1):
            actions += [Play(seat, slot, item.card, announce) for announce in announces]
        if self.clues < MAX_CLUES:
            actions += [Discard(seat, slot, item.card) for slot, item in enumerate(hand, 1)]
        if self.clues > 0:
            clues = [Clue(suit=suit) for suit in self.settings.variant.suits] + [Clue(rank=rank) for rank in range(1, 6)]
            for target in range(self.settings.players):
                if target == seat:
                    continue
                for clue in clues:
                    touched = self.touched(target, clue)
                    if touched is None or touched or self.settings.empty_hints:
                        actions.append(Hint(seat, target, clue, touched))
        if self._may_pass(seat):
            actions.append(Pass(seat))
        return actions

    def _may_pass(self, seat: int) -> bool:
        return self.settings.ending is Ending.CROWNING and self.settings.stuck is Stuck.PASS and self.stuck(seat)

    def where(self) -> str:
        return f"turn {self.turn + 1}" if not self.dealing else "the deal"

    def complete(self, event: Event) -> Event:
        """`event` with the facts the table shows filled in (touched slots, known cards)."""
        if isinstance(event, Hint) and event.touched is None and 0 <= event.target < self.settings.players:
            touched = self.touched(event.target, event.clue)
            return replace(event, touched=touched) if touched is not None else event
        if isinstance(event, (Play, Discard)) and event.card is None and 0 <= event.seat < self.settings.players:
            hand = self.hands[event.seat]
            if 1 <= event.slot <= len(hand) and hand[event.slot - 1].card is not None:
                return replace(event, card=hand[event.slot - 1].card)
        return event


@dataclass(frozen=True)
class GameState(_Position):
    """Everything on the table after some events; `apply` gives the next state (the rules are `Table`'s)."""

    settings: Settings
    hands: tuple[tuple[HandCard, ...], ...]
    fireworks: tuple[int, ...]
    seats: tuple[str, ...] = DEFAULT_SEATS
    drawn: int = 0
    clues: int = MAX_CLUES
    strikes: int = 0
    discards: tuple[Card, ...] = ()
    current: int = 0
    turn: int = 0
    must_draw: int | None = 0
    final_turns: int | None = None
    end: End | None = None

    @classmethod
    def new(cls, settings: Settings, seats: Sequence[str] | None = None) -> GameState:
        """The empty table before the deal."""
        names = tuple(seats) if seats is not None else DEFAULT_SEATS[: settings.players]
        if len(names) != settings.players or len(set(name.lower() for name in names)) != len(names):
            raise IllegalActionError(f"need {settings.players} distinct seat names, got {list(names)}")
        return cls(
            settings=settings,
            hands=((),) * settings.players,
            fireworks=(0,) * len(settings.variant.suits),
            seats=names,
            must_draw=settings.deal_seats()[0],
        )

    def apply(self, event: Event) -> GameState:
        """The state after `event`; raises a `HanabiError` saying why if it is not legal."""
        table = Table(self)
        table.apply(event)
        return table.state()

    def deal_checked(self, deck: Sequence[Card | None]) -> GameState:
        """The state after `Table.deal_checked(deck)`: the rest of the opening deal, in one step."""
        table = Table(self)
        table.deal_checked(deck)
        return table.state()

    def to_json(self) -> dict[str, Any]:
        """A plain summary of the position."""
        return {
            "turn": self.turn,
            "current": self.name(self.current),
            "clues": self.clues,
            "strikes": self.strikes,
            "fireworks": {suit.letter: height for suit, height in zip(self.settings.variant.suits, self.fireworks)},
            "deck": self.deck_left,
            "discards": [str(card) for card in self.discards],
            "hands": {
                self.name(seat): [str(item.card) if item.card else "?" for item in hand] for seat, hand in enumerate(self.hands)
            },
        }


class Table(_Position):
    """A game in play: a working copy of a `GameState` that the rules change in place, event by event,
    until `state()` freezes it. The one home of the rules: `GameState.apply` runs them on a table for
    one event, a replay runs a whole line on one table. A refused event raises a `HanabiError` saying
    why, and leaves the table as it was (every check comes before the first change)."""

    __slots__ = (
        "clues",
        "current",
        "discards",
        "drawn",
        "end",
        "final_turns",
        "fireworks",
        "hands",
        "must_draw",
        "seats",
        "settings",
        "strikes",
        "turn",
    )
    hands: list[tuple[HandCard, ...]]  # a list of tuples: a 4-5 card hand is rebuilt cheaper than thawed and frozen
    fireworks: list[int]
    discards: tuple[Card, ...]

    def __init__(self, state: GameState) -> None:
        self.settings = state.settings
        self.hands = list(state.hands)
        self.fireworks = list(state.fireworks)
        self.seats = state.seats
        self.drawn = state.drawn
        self.clues = state.clues
        self.strikes = state.strikes
        self.discards = state.discards
        self.current = state.current
        self.turn = state.turn
        self.must_draw = state.must_draw
        self.final_turns = state.final_turns
        self.end = state.end

    def state(self) -> GameState:
        """The table as it is now, frozen."""
        return _built(
            {
                "settings": self.settings,
                "hands": tuple(self.hands),
                "fireworks": tuple(self.fireworks),
                "seats": self.seats,
                "drawn": self.drawn,
                "clues": self.clues,
                "strikes": self.strikes,
                "discards": self.discards,
                "current": self.current,
                "turn": self.turn,
                "must_draw": self.must_draw,
                "final_turns": self.final_turns,
                "end": self.end,
            }
        )

    def apply(self, event: Event) -> None:
        """Play `event`; raises a `HanabiError` saying why if it is not legal."""
        self.act_checked(event, None)

    def act_checked(self, event: Event, card: Card | None) -> None:
        """Play `event` (refused as `apply` refuses it), then the draw a play or a discard calls for (if
        any) of `card`, from a deck already checked to be the variant's full deck, in one step (as
        `draw_checked` after `apply`; None: no draw). The hot path of replaying the solver's lines: each
        kind of turn is told apart once."""
        seat = event.seat
        if not 0 <= seat < self.settings.players:
            raise IllegalActionError(f"{event.notation(self.seats)}: no seat {seat}")
        if isinstance(event, Play):  # a turn: the commonest first
            self._check_turn(event)
            self._play(event)
            self._end_turn(seat, True, card)
        elif isinstance(event, Discard):
            self._check_turn(event)
            self._discard(event)
            self._end_turn(seat, True, card)
        elif isinstance(event, Hint):
            self._check_turn(event)
            self._hint(event)
            self._end_turn(seat, False, card)
        elif isinstance(event, Pass):
            self._check_turn(event)
            if not self._may_pass(seat):
                raise self._refuse(event, "a player may pass only when stuck under Crowning Piece with option stuck=pass")
            self._end_turn(seat, False, card)
        elif isinstance(event, Move):
            self._move(event)
        elif self.end is not None:
            raise self._over(event, self.end)
        elif isinstance(event, Terminate):
            self.end, self.must_draw = End.TERMINATED, None
        else:
            self._draw(event)

    def draw_checked(self, card: Card) -> None:
        """The draw now due, of `card`, from a deck already checked to be the variant's full deck: as
        `apply(Draw(...))`, but the copies of `card` in sight are not counted again (a checked deck
        cannot hold too many)."""
        if self.must_draw is None:
            self.apply(Draw(self.current, card))  # refused, saying why
        else:
            self._put(self.must_draw, card)

    def deal_checked(self, deck: Sequence[Card | None]) -> None:
        """The rest of the opening deal, of `deck` (top first) already checked to be the variant's full
        deck: as `draw_checked` card by card."""
        seats = self.settings.deal_seats()
        if self.must_draw is None or self.drawn >= len(seats):
            raise IllegalActionError(f"no deal is due at {self.where()}")
        hands = self.hands
        for uid in range(self.drawn, len(seats)):
            hands[seats[uid]] = (HandCard(uid, deck[uid]), *hands[seats[uid]])
        self.drawn, self.must_draw = len(seats), None
        self._settle()  # (no deck is so short that the deal draws its last card)

    # ----- the rules ----------------------------------------------------
    def _check_turn(self, event: Event) -> None:
        """`event` is a turn's action, and it is its player's turn."""
        if self.end is not None:
            raise self._over(event, self.end)
        if self.must_draw is not None:
            raise self._refuse(event, f"{self.name(self.must_draw)} must draw first")
        if event.seat != self.current:
            raise self._refuse(event, f"it is {self.name(self.current)}'s turn")

    def _over(self, event: Event, end: End) -> IllegalActionError:
        return IllegalActionError(f"{event.notation(self.seats)} refused: the game is over ({end.value})")

    def _refuse(self, event: Event, why: str) -> IllegalActionError:
        return IllegalActionError(f"{event.notation(self.seats)} refused at {self.where()}: {why}")

    def _draw(self, event: Draw) -> None:
        if self.must_draw is None:
            raise self._refuse(event, "no draw is due" if self.deck_left else "the deck is empty")
        if event.seat != self.must_draw:
            raise self._refuse(event, f"it is {self.name(self.must_draw)} who draws now")
        if event.card is not None:
            self._check_copies(event, event.card)
        self._put(event.seat, event.card)

    def _put(self, seat: int, card: Card | None) -> None:
        """The draw due, found legal, of `card` by `seat`."""
        self._drawing(seat, card)
        dealing = self.drawn < self.settings.players * self.settings.hand_size  # the opening deal goes on
        self.must_draw = self.settings.deal_seats()[self.drawn] if dealing else None
        self._settle()

    def _drawing(self, seat: int, card: Card | None) -> None:
        """`seat` draws `card`: its hand, the cards drawn, and the final round if it is the last card (standard rules)."""
        self.hands[seat] = (HandCard(self.drawn, card), *self.hands[seat])
        self.drawn += 1
        if self.drawn == self.settings.variant.deck_size and self.settings.ending is Ending.STANDARD:
            self.final_turns = self.settings.players

    def _check_copies(self, event: Event, card: Card) -> None:
        copies = self.settings.variant.copies(card)
        if copies == 0:
            raise ContradictionError(
                f"{event.notation(self.seats)}: there is no {card} in the {self.settings.variant.value} deck"
            )
        if self.seen(card) + 1 > copies:
            raise ContradictionError(
                f"{event.notation(self.seats)} at {self.where()}: all {copies} copies of {card} are already accounted for"
            )

    # Each action's method checks it, then changes the table; `_end_turn` adds the turn's end.
    def _hint(self, event: Hint) -> None:
        if self.clues == 0:
            raise self._refuse(event, "no clue tokens left")
        if event.target == event.seat:
            raise self._refuse(event, "a player cannot hint themselves")
        if not 0 <= event.target < self.settings.players:
            raise self._refuse(event, f"no seat {event.target}")
        if event.clue.suit is not None and event.clue.suit not in self.settings.variant.suits:
            raise self._refuse(event, f"there is no {event.clue.suit.word} suit in the {self.settings.variant.value} game")
        hand = self.hands[event.target]
        touched = event.touched
        if touched is None:  # the slots it touches in a hand the recorder sees whole: nothing to check them against
            touched = self.touched(event.target, event.clue)
            if touched is None:
                raise MissingInformationError(
                    f"{event.notation(self.seats)} at {self.where()}: {self.name(event.target)} holds cards the recorder "
                    "cannot see, so give the slots the hint touched, e.g. '(1,3)'"
                )
        else:
            self._check_touched(event, hand, touched)
        unseen = event.partial and any(item.card is None for item in hand)
        if not touched and not self.settings.empty_hints and not unseen:
            raise self._refuse(event, f"{self.name(event.target)} holds no {event.clue} card and empty hints are off")
        self.clues -= 1

    def _check_touched(self, event: Hint, hand: tuple[HandCard, ...], touched: tuple[int, ...]) -> None:
        """The slots a hint is said to touch are slots of the hand, and agree with the cards known there."""
        if event.partial and any(1 <= slot <= len(hand) and hand[slot - 1].card is None for slot in touched):
            raise self._refuse(event, "a partial hint lists only the touched slots whose cards are known")
        if list(touched) != sorted(set(touched)) or any(not 1 <= slot <= len(hand) for slot in touched):
            raise self._refuse(event, f"touched slots {list(touched)} are not distinct slots of a {len(hand)}-card hand")
        for slot, item in enumerate(hand, 1):
            if item.card is not None and event.clue.touches(item.card) != (slot in touched):
                verb = "is" if slot not in touched else "is not"
                raise ContradictionError(
                    f"{event.notation(self.seats)} at {self.where()}: slot {slot} holds {item.card}, which {verb} {event.clue}"
                )

    def _take(self, event: Play | Discard) -> Card:
        """Check that the card played or discarded is known and is the slot's, then take it from the hand."""
        seat, slot, said = event.seat, event.slot, event.card
        hand = self.hands[seat]
        if not 1 <= slot <= len(hand):
            raise self._refuse(event, f"{self.name(seat)} has no slot {slot} (hand of {len(hand)})")
        known = hand[slot - 1].card
        card = known if known is not None else said
        if card is None:
            raise MissingInformationError(
                f"{event.notation(self.seats)} at {self.where()}: the card is not known to the recorder; "
                "say which card was revealed, e.g. '(r2)'"
            )
        if known is None:
            self._check_copies(event, card)
        elif said is not None and said is not known and said != known:
            raise ContradictionError(f"{event.notation(self.seats)} at {self.where()}: slot {slot} holds {known}")
        self.hands[seat] = hand[: slot - 1] + hand[slot:]
        return card

    def _play(self, event: Play) -> None:
        announce = event.announce
        if announce is not None and not self.settings.choreography:
            raise self._refuse(event, "announcing a colour needs the Timed Choreography option")
        if announce is not None and announce not in self.settings.variant.suits:
            raise self._refuse(event, f"there is no {announce.word} suit in this game")
        card = self._take(event)
        suit = self.settings.variant.suits.index(card.suit)
        if (announce is None or announce is card.suit) and self.fireworks[suit] == card.rank - 1:  # (`playable`)
            self.fireworks[suit] = card.rank
            if card.rank == 5:
                self.clues = min(MAX_CLUES, self.clues + 1)
                if sum(self.fireworks) == self.settings.variant.max_score:  # (only a 5 can complete the fireworks)
                    self.end = End.COMPLETE
            if announce is not None:
                self.clues = min(MAX_CLUES, self.clues + 1)
            return
        self.strikes += 1
        self.end = End.STRIKES if self.strikes >= MAX_STRIKES else self._lost(card)
        self.discards += (card,)

    def _discard(self, event: Discard) -> None:
        if self.clues >= MAX_CLUES:
            raise self._refuse(event, f"no discarding with {MAX_CLUES} clue tokens")
        card = self._take(event)
        self.end = self._lost(card)
        self.discards += (card,)
        self.clues += 1

    def _lost(self, card: Card) -> End | None:
        """How the game ends when `card` is lost (a strike or a discard, not yet among the discards):
        Crowning Piece ends it on an indispensable card."""
        return End.LOST_CARD if self.settings.ending is Ending.CROWNING and self.indispensable(card) else None

    def _end_turn(self, seat: int, lets_go: bool, card: Card | None) -> None:
        """The turn of `seat` passes after its action (`lets_go`: a play or a discard, which calls for a
        draw while the deck lasts): the game may end, and `card` (if given) is drawn (as `_put` draws it)."""
        self.turn += 1
        if self.end is not None:  # the action ended the game
            self.must_draw = None
            return
        settings = self.settings
        draws = lets_go and self.drawn < settings.variant.deck_size
        if self.final_turns is not None:
            self.final_turns -= 1
            if self.final_turns == 0:
                self.end = End.FINAL_ROUND
        self.current = (seat + 1) % settings.players
        if self.end is not None or not draws:
            self.must_draw = None
        elif card is not None:  # a play or a discard, while the deck lasts
            self._drawing(seat, card)
        else:
            self.must_draw = seat
        if settings.ending is not Ending.STANDARD:
            self._settle()

    def _settle(self) -> None:
        """Crowning Piece: end the game when the player to act is stuck."""
        if self.end is not None or self.must_draw is not None or self.settings.ending is not Ending.CROWNING:
            return
        emptied = not any(self.hands) and self.deck_left == 0
        if emptied or (self.settings.stuck is Stuck.LOSE and self.stuck(self.current)):
            self.end = End.STUCK

    def _move(self, event: Move) -> None:
        hand = list(self.hands[event.seat])
        if not (1 <= event.source <= len(hand) and 1 <= event.dest <= len(hand)):
            raise self._refuse(event, f"{self.name(event.seat)} has {len(hand)} cards")
        hand.insert(event.dest - 1, hand.pop(event.source - 1))
        self.hands[event.seat] = tuple(hand)


def _built(fields: dict[str, Any]) -> GameState:
    """The state with these `fields` (every one of them), made without re-running `__init__`."""
    state = object.__new__(GameState)
    object.__setattr__(state, "__dict__", fields)
    return state
