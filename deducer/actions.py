"""Clues, actions and the other events of a game, with a notation people type.

Slots are numbered from 1, the newest card (where draws go) being slot 1.
Seats are 0-based indices internally and always printed as names.

>>> seats = ("Alice", "Bob", "Cathy")
>>> event = parse_event("Alice hints Bob red (1,3)", seats)
>>> event
Hint(seat=0, target=1, clue=Clue.parse('red'), touched=(1, 3), partial=False)
>>> event.notation(seats)
'Alice hints Bob red (1,3)'
>>> parse_event("p3 r2", seats, actor=2).notation(seats)
'Cathy plays 3 (r2)'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from deducer.cards import RANKS, Card, Suit
from deducer.errors import NotationError

DEFAULT_SEATS: tuple[str, ...] = ("Alice", "Bob", "Cathy", "Donald", "Emily")


@dataclass(frozen=True)
class Clue:
    """A hint's content: one colour or one rank."""

    suit: Suit | None = None
    rank: int | None = None

    def __post_init__(self) -> None:
        if (self.suit is None) == (self.rank is None):
            raise NotationError("a clue names exactly one colour or one rank")
        if self.rank is not None and self.rank not in RANKS:
            raise NotationError(f"rank clue {self.rank} is not between 1 and 5")

    @classmethod
    def parse(cls, text: str) -> Clue:
        """`red`, `r`, `multicolour` or `3`."""
        key = text.strip()
        if key.isdigit():
            return cls(rank=int(key))
        try:
            return cls(suit=Suit.parse(key))
        except NotationError:
            raise NotationError(f"not a clue: {text!r} (expected a colour or a rank 1-5)") from None

    def touches(self, card: Card) -> bool:
        """Whether this clue points at `card`."""
        return card.suit is self.suit if self.suit is not None else card.rank == self.rank

    @property
    def code(self) -> str:
        """Short form: the colour letter or the rank digit."""
        return self.suit.letter if self.suit is not None else str(self.rank)

    def __str__(self) -> str:
        return self.suit.word if self.suit is not None else str(self.rank)

    def __repr__(self) -> str:
        return f"Clue.parse({str(self)!r})"


class _Notated:
    """Events print in the long notation with the default seat names."""

    def notation(self, seats: Sequence[str] = DEFAULT_SEATS) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.notation()


def _name(seats: Sequence[str], seat: int) -> str:
    return seats[seat] if 0 <= seat < len(seats) else f"seat{seat}"


def _revealed(card: Card | None) -> str:
    return f" ({card})" if card is not None else ""


@dataclass(frozen=True)
class Draw(_Notated):
    """`seat` draws the top card; `card` is None when the recorder cannot see it."""

    seat: int
    card: Card | None = None

    def notation(self, seats: Sequence[str] = DEFAULT_SEATS) -> str:
        return f"{_name(seats, self.seat)} draws {self.card if self.card is not None else '?'}"


@dataclass(frozen=True)
class Hint(_Notated):
    """`seat` hints `target`; `touched` lists the slots pointed at (None: derive it).

    `partial`: the record knows only which of the cards it can see were touched (`touched` lists
    those); whether the cards it cannot see were touched is lost (an export with unidentified cards).
    Written `(1,3,?)`."""

    seat: int
    target: int
    clue: Clue
    touched: tuple[int, ...] | None = None
    partial: bool = False

    def notation(self, seats: Sequence[str] = DEFAULT_SEATS) -> str:
        text = f"{_name(seats, self.seat)} hints {_name(seats, self.target)} {self.clue}"
        if self.touched is not None:
            text += " (" + ",".join([str(slot) for slot in self.touched] + (["?"] if self.partial else [])) + ")"
        return text


@dataclass(frozen=True)
class Play(_Notated):
    """`seat` plays the card in `slot`; `announce` is the Timed Choreography colour."""

    seat: int
    slot: int
    card: Card | None = None
    announce: Suit | None = None

    def notation(self, seats: Sequence[str] = DEFAULT_SEATS) -> str:
        announce = f" as {self.announce.word}" if self.announce is not None else ""
        return f"{_name(seats, self.seat)} plays {self.slot}{announce}{_revealed(self.card)}"


@dataclass(frozen=True)
class Discard(_Notated):
    """`seat` discards the card in `slot`."""

    seat: int
    slot: int
    card: Card | None = None

    def notation(self, seats: Sequence[str] = DEFAULT_SEATS) -> str:
        return f"{_name(seats, self.seat)} discards {self.slot}{_revealed(self.card)}"


@dataclass(frozen=True)
class Pass(_Notated):
    """A stuck player passes (Crowning Piece with option stuck=pass)."""

    seat: int

    def notation(self, seats: Sequence[str] = DEFAULT_SEATS) -> str:
        return f"{_name(seats, self.seat)} passes"


@dataclass(frozen=True)
class Move(_Notated):
    """`seat` moves a card of their own hand from one slot to another."""

    seat: int
    source: int
    dest: int

    def notation(self, seats: Sequence[str] = DEFAULT_SEATS) -> str:
        return f"{_name(seats, self.seat)} moves {self.source} to {self.dest}"


@dataclass(frozen=True)
class Terminate(_Notated):
    """The game was stopped before its natural end (hanab.live's 'game over' action)."""

    seat: int
    code: int = 0

    def notation(self, seats: Sequence[str] = DEFAULT_SEATS) -> str:
        return f"{_name(seats, self.seat)} ends the game (code {self.code})"


Action = Hint | Play | Discard | Pass
Event = Draw | Hint | Play | Discard | Pass | Move | Terminate
TURN_ACTIONS = (Hint, Play, Discard, Pass)

_CARD = r"\(?\s*(?P<card>[a-z]\d|\?)\s*\)?"
_LONG = [
    (Draw, re.compile(r"(?P<who>\S+)\s+draws\s+" + _CARD, re.I)),
    (Hint, re.compile(r"(?P<who>\S+)\s+hints\s+(?P<target>\S+)\s+(?P<clue>\w+)(?:\s*\((?P<slots>[\d,\s?]*)\))?", re.I)),
    (Play, re.compile(r"(?P<who>\S+)\s+plays\s+(?P<slot>\d+)(?:\s+as\s+(?P<announce>\w+))?(?:\s*" + _CARD + ")?", re.I)),
    (Discard, re.compile(r"(?P<who>\S+)\s+discards\s+(?P<slot>\d+)(?:\s*" + _CARD + ")?", re.I)),
    (Move, re.compile(r"(?P<who>\S+)\s+moves\s+(?P<source>\d+)\s+to\s+(?P<dest>\d+)", re.I)),
    (Pass, re.compile(r"(?P<who>\S+)\s+passes", re.I)),
    (Terminate, re.compile(r"(?P<who>\S+)\s+ends\s+the\s+game(?:\s*\(code\s+(?P<code>\d+)\))?", re.I)),
]
_SHORT = [
    (Draw, re.compile(r"\+\s*(?:" + _CARD + ")?", re.I)),
    (Hint, re.compile(r"h\s+(?P<target>\S+)\s+(?P<clue>\w+)(?:\s*\((?P<slots>[\d,\s]*)\))?", re.I)),
    (Play, re.compile(r"p\s*(?P<slot>\d+)(?:\s*@\s*(?P<announce>\w+))?(?:\s+" + _CARD + ")?", re.I)),
    (Discard, re.compile(r"d\s*(?P<slot>\d+)(?:\s+" + _CARD + ")?", re.I)),
    (Move, re.compile(r"m\s+(?P<who>\S+)\s+(?P<source>\d+)\s+(?P<dest>\d+)", re.I)),
    (Pass, re.compile(r"pass", re.I)),
]


def resolve_seat(name: str, seats: Sequence[str], *, prefix: bool = False) -> int:
    """The index of the seat called `name` (case-insensitive; a unique prefix if allowed)."""
    key = name.lower()
    exact = [index for index, seat in enumerate(seats) if seat.lower() == key]
    if exact:
        return exact[0]
    if prefix:
        matches = [index for index, seat in enumerate(seats) if seat.lower().startswith(key)]
        if len(matches) == 1:
            return matches[0]
    raise NotationError(f"no seat called {name!r}: the seats are {', '.join(seats)}")


def view_seat(name: str, seats: Sequence[str]) -> int | None:
    """A view by name: None for `public`, else the seat (as `resolve_seat`)."""
    if name.lower() == "public":
        return None
    try:
        return resolve_seat(name, seats)
    except NotationError:
        raise NotationError(f"no seat called {name!r}: choose public or one of {', '.join(seats)}") from None


def _slots(text: str | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    return tuple(int(token) for token in text.replace(",", " ").replace("?", " ").split())


def _card(text: str | None) -> Card | None:
    return None if text in (None, "?") else Card.parse(str(text))


def parse_event(text: str, seats: Sequence[str] = DEFAULT_SEATS, actor: int | None = None) -> Event:
    """Parse the long form (`Bob plays 3 (r2)`) or, given `actor`, the short form (`p3 r2`).

    Short forms: `p3`, `p3@r` (announce red), `d1 y4`, `h bob red`, `+ r3` / `+?` (draw),
    `m bob 4 1` (move), `pass`.
    """
    stripped = " ".join(text.split())
    for kind, pattern in _LONG:
        match = pattern.fullmatch(stripped)
        if match and _is_seat(match.group("who"), seats):
            return _build(kind, match, resolve_seat(match.group("who"), seats), seats)
    for kind, pattern in _SHORT:
        match = pattern.fullmatch(stripped)
        if match:
            if "who" in match.groupdict():
                return _build(kind, match, resolve_seat(match.group("who"), seats, prefix=True), seats)
            if actor is None:
                raise NotationError(f"{text!r}: a short form needs to know whose turn it is")
            return _build(kind, match, actor, seats)
    raise NotationError(
        f"cannot read {text!r}: try 'Alice hints Bob red', 'Bob plays 3 (r2)', 'Cathy discards 1 (y4)', "
        "'Alice draws ?', or the short forms p3, d1, h bob red, + r3"
    )


def _is_seat(name: str, seats: Sequence[str]) -> bool:
    return any(seat.lower() == name.lower() for seat in seats)


def _build(kind: type, match: re.Match[str], seat: int, seats: Sequence[str]) -> Event:
    groups = match.groupdict()
    if kind is Draw:
        return Draw(seat, _card(groups.get("card")))
    if kind is Hint:
        target = resolve_seat(groups["target"], seats, prefix=True)
        slots = groups.get("slots")
        return Hint(seat, target, Clue.parse(groups["clue"]), _slots(slots), partial=slots is not None and "?" in slots)
    if kind is Play:
        announce = groups.get("announce")
        return Play(seat, int(groups["slot"]), _card(groups.get("card")), Suit.parse(announce) if announce else None)
    if kind is Discard:
        return Discard(seat, int(groups["slot"]), _card(groups.get("card")))
    if kind is Move:
        return Move(seat, int(groups["source"]), int(groups["dest"]))
    if kind is Pass:
        return Pass(seat)
    return Terminate(seat, int(groups.get("code") or 0))
