"""The action notation: long and short forms parse and print back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deducer import Card, Clue, Discard, Draw, Hint, Move, NotationError, Pass, Play, Suit, Terminate, parse_event
from deducer.actions import Event

SEATS = ("Alice", "Bob", "Cathy", "Donald")

cards = st.sampled_from(list(Card(suit, rank) for suit in Suit for rank in range(1, 6)))
seats = st.integers(0, 3)
slots = st.integers(1, 5)
clues = st.one_of(st.builds(Clue, suit=st.sampled_from(list(Suit))), st.builds(Clue, rank=st.integers(1, 5)))
events = st.one_of(
    st.builds(Draw, seats, st.none() | cards),
    st.builds(Hint, seats, seats, clues, st.none() | st.lists(slots, unique=True).map(lambda s: tuple(sorted(s)))),
    st.builds(Play, seats, slots, st.none() | cards, st.none() | st.sampled_from(list(Suit))),
    st.builds(Discard, seats, slots, st.none() | cards),
    st.builds(Move, seats, slots, slots),
    st.builds(Pass, seats),
    st.builds(Terminate, seats, st.integers(0, 9)),
)


@given(events)
def test_long_form_round_trips(event: Event) -> None:
    assert parse_event(event.notation(SEATS), SEATS) == event


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("p3", Play(2, 3)),
        ("p3 r2", Play(2, 3, Card.parse("r2"))),
        ("p 3 (r2)", Play(2, 3, Card.parse("r2"))),
        ("p3@m", Play(2, 3, None, Suit.MULTI)),
        ("d1 y4", Discard(2, 1, Card.parse("y4"))),
        ("h bob red", Hint(2, 1, Clue(suit=Suit.RED))),
        ("h al 3 (1,4)", Hint(2, 0, Clue(rank=3), (1, 4))),
        ("+ r3", Draw(2, Card.parse("r3"))),
        ("+?", Draw(2, None)),
        ("+", Draw(2, None)),
        ("m don 4 1", Move(3, 4, 1)),
        ("pass", Pass(2)),
        ("ALICE HINTS bob 5", Hint(0, 1, Clue(rank=5))),
        ("Bob hints Alice red ()", Hint(1, 0, Clue(suit=Suit.RED), ())),
    ],
)
def test_short_and_case_insensitive_forms(text: str, event: Event) -> None:
    assert parse_event(text, SEATS, actor=2) == event


@pytest.mark.parametrize("text", ["Zed plays 1", "Alice juggles 3", "h bob purple", "p3 x9", "Alice hints Bob 7"])
def test_bad_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_event(text, SEATS, actor=0)


def test_short_form_needs_an_actor() -> None:
    with pytest.raises(NotationError, match="whose turn"):
        parse_event("p3", SEATS)


def test_default_names_print() -> None:
    assert str(Hint(0, 1, Clue.parse("r"))) == "Alice hints Bob red"
    assert str(Clue.parse("multicolor")) == "multicolour"
