"""One test per rule of RULES.md; each names the section it checks."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from deducer import (
    ContradictionError,
    DealOrder,
    End,
    Ending,
    IllegalActionError,
    MissingInformationError,
    Settings,
    Stuck,
    Variant,
)
from deducer.actions import Action, Discard, Draw, Hint, Pass, parse_event
from deducer.cards import Card, Suit
from deducer.dealer import advance, deal
from deducer.game import GameState, Table
from deducer.rules import rating
from tests.helpers import dealt, full_deck, run

TWO = Settings(players=2)
HANDS2 = ["r1 r2 r3 r4 r5", "b1 b2 b3 b4 b5"]


def test_hand_size() -> None:
    # Material: 5 cards with 2 or 3 players, 4 cards with 4 or 5 players.
    assert [Settings(players=n).hand_size for n in (2, 3, 4, 5)] == [5, 5, 4, 4]
    for players in (2, 3, 4, 5):
        settings = Settings(players=players)
        state = deal(GameState.new(settings), settings.variant.shuffled_deck(players))
        assert [len(hand) for hand in state.hands] == [settings.hand_size] * players


def test_deal_orders() -> None:
    # Deal and deck order: round-robin by default, per-seat as an option; draws go to slot 1.
    deck = Variant.BASE.full_deck()
    robin = deal(GameState.new(TWO), deck)
    assert [item.uid for item in robin.hands[0]] == [8, 6, 4, 2, 0]
    seat = deal(GameState.new(TWO.with_(deal=DealOrder.PER_SEAT)), deck)
    assert [item.uid for item in seat.hands[1]] == [9, 8, 7, 6, 5]


def test_clue_tokens_start_at_eight_and_no_discard_at_eight() -> None:
    # Material: 8 clue tokens at the start. A turn, 2: discard only when fewer than 8 are out.
    state = dealt(TWO, HANDS2)
    assert state.clues == 8
    with pytest.raises(IllegalActionError, match="no discarding with 8 clue tokens"):
        run(state, "Alice discards 1")


def test_discard_regains_a_token_up_to_eight() -> None:
    state = run(dealt(TWO, HANDS2), "Alice hints Bob blue", "Bob discards 1", "Bob draws g1")
    assert state.clues == 8 and state.discards == (Card.parse("b1"),)


def test_hint_needs_a_token() -> None:
    # A turn, 1: a hint needs at least one clue token.
    state = dealt(TWO, HANDS2)
    for _ in range(4):
        state = run(state, "Alice hints Bob 1", "Bob hints Alice 1")
    assert state.clues == 0
    with pytest.raises(IllegalActionError, match=r"hint refused at turn 9: no clue tokens left|no clue tokens left"):
        run(state, "Alice hints Bob 2")


def test_five_gains_a_token_but_not_past_eight() -> None:
    # A turn, 3: completing a firework gains one clue token if fewer than 8.
    state = dealt(TWO, ["r5 r4 r3 r2 r1", "b1 b2 b3 b4 b5"])
    for drawn in ("g1", "g2", "g3", "y1"):
        state = run(state, "Alice plays 5", f"Alice draws {drawn}", "Bob hints Alice red")
    assert state.firework(Suit.RED) == 4 and state.clues == 4
    assert run(state, "Alice plays 5").clues == 5
    # At 8 clue tokens the bonus is lost.
    full = replace(dealt(TWO, ["r5 w1 w1 w1 g1", "b1 b2 b3 b4 b5"]), fireworks=(0, 4, 0, 0, 0))
    full = run(full, "Alice plays 1")
    assert full.firework(Suit.RED) == 5 and full.clues == 8


def test_misplay_takes_a_strike_and_third_strike_ends_standard_game_at_zero() -> None:
    # A turn, 3 and End of the game, standard: the third strike ends the game, score 0.
    state = dealt(TWO, ["r1 r2 r3 r4 r5", "y3 y4 y5 b1 b2"])
    state = run(state, "Alice plays 1", "Alice draws w1")
    assert state.score == 1
    state = run(state, "Bob plays 1", "Bob draws w2", "Alice plays 3", "Alice draws w3")
    assert state.strikes == 2 and not state.over and state.discards == (Card.parse("y3"), Card.parse("r3"))
    state = run(state, "Bob hints Alice 1", "Alice plays 5")
    assert state.strikes == 3 and state.end is End.STRIKES and state.score == 0
    with pytest.raises(IllegalActionError, match="game is over"):
        run(state, "Alice hints Bob 1")


def _discard_or_hint(state: GameState) -> Action:
    legal = state.legal_actions()
    return next(action for action in legal if isinstance(action, Discard if state.clues < 8 else Hint))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_final_round_gives_every_player_one_more_turn(players: int) -> None:
    # End of the game, standard: after the last draw every player, that one included, takes one more turn.
    settings = Settings(players=players)
    deck = settings.variant.shuffled_deck(players)
    state = deal(GameState.new(settings), deck)
    while state.deck_left > 0:
        state = advance(state, _discard_or_hint(state), deck)
    drawer = (state.current - 1) % players
    for extra in range(players):
        assert not state.over and state.current == (drawer + 1 + extra) % players
        state = advance(state, _discard_or_hint(state), deck)
    assert state.end is End.FINAL_ROUND and state.deck_left == 0


def test_all_fireworks_complete_ends_at_once() -> None:
    # End of the game: all fireworks complete ends the game at once with the maximum score.
    state = replace(dealt(TWO, ["g5 w1 w1 w1 g1", "b1 b2 b3 b4 b5"]), fireworks=(5, 5, 5, 5, 4), clues=3)
    state = run(state, "Alice plays 1")
    assert state.end is End.COMPLETE and state.score == 25 and state.clues == 4 and state.must_draw is None
    assert rating(state.score) == "legendary"


def test_crowning_play_goes_on_after_the_last_draw() -> None:
    # Crowning Piece: drawing the last card does not start a final round; hands shrink.
    settings = Settings(players=2, ending=Ending.CROWNING)
    deck = settings.variant.full_deck()
    state = deal(GameState.new(settings), deck)
    while state.deck_left:
        state = advance(
            state,
            parse_event("h " + state.seats[1 - state.current] + " 1", state.seats, state.current)
            if state.clues == 8
            else parse_event("p1", state.seats, state.current),
            deck,
        )
        if state.over:
            break
    assert state.final_turns is None


def test_crowning_losing_an_indispensable_card() -> None:
    # Crowning Piece: lost as soon as an indispensable card is discarded or misplayed.
    settings = Settings(players=2, ending=Ending.CROWNING)
    state = dealt(settings, ["r5 r4 w1 w2 w3", "b1 b2 b3 b4 b5"])
    state = run(state, "Alice hints Bob 1")
    assert run(state, "Bob discards 1", "Bob draws g1").end is None  # b1 is not the last copy
    lost = run(state, "Bob discards 5")
    assert lost.end is End.LOST_CARD and lost.score == 0
    misplayed = run(state, "Bob plays 4")  # b4 misplayed; a b4 copy is left
    assert misplayed.end is None
    misplayed = run(misplayed, "Bob draws y1", "Alice plays 1")
    assert misplayed.end is End.LOST_CARD  # r5 misplayed: the only copy
    # The same discard under standard rules only costs the points.
    standard = run(dealt(TWO, ["r5 r4 w1 w2 w3", "b1 b2 b3 b4 b5"]), "Alice hints Bob 1", "Bob discards 5")
    assert standard.end is None


def test_crowning_third_strike_loses() -> None:
    settings = Settings(players=2, ending=Ending.CROWNING)
    state = dealt(settings, ["r3 r3 r4 r4 w1", "b2 b2 g3 g3 y4"])
    state = run(state, "Alice plays 1", "Alice draws g4", "Bob plays 1", "Bob draws y2", "Alice plays 3")
    assert state.end is End.STRIKES and state.score == 0


def _empty_handed(settings: Settings, clues: int) -> GameState:
    """Alice has no card left and the deck is empty; Bob holds b1-b5."""
    base = dealt(settings, ["r1 r2 r3 r4 r5", "b1 b2 b3 b4 b5"])
    return replace(base, hands=((), base.hands[1]), drawn=50, clues=clues)


def test_crowning_stuck_player_loses_by_default() -> None:
    # Crowning Piece: a player with an empty hand and no legal hint loses the game (default).
    settings = Settings(players=2, ending=Ending.CROWNING)
    state = _empty_handed(settings, clues=1)
    state = run(state, "Alice hints Bob blue")
    state = run(state, "Bob plays 1")
    assert state.end is End.STUCK and state.score == 0


def test_crowning_stuck_player_passes_with_the_option() -> None:
    settings = Settings(players=2, ending=Ending.CROWNING, stuck=Stuck.PASS)
    state = run(_empty_handed(settings, clues=1), "Alice hints Bob blue", "Bob plays 1")
    assert state.end is None and Pass(0) in state.legal_actions()
    state = state.apply(Pass(0))
    assert state.current == 1
    with pytest.raises(IllegalActionError, match="may pass only when stuck"):
        state.apply(Pass(1))


def test_choreography_bonus_and_penalty() -> None:
    # Option choreography: right colour and playable gains an extra token (a 5 gains two in all, each capped).
    settings = Settings(players=2, choreography=True)
    state = run(dealt(settings, ["r1 r2 b1 g1 y1", "w1 w2 w3 w4 w5"]), "Alice hints Bob white", "Bob hints Alice red")
    right = run(state, "Alice plays 1 as red")
    assert right.firework(Card.parse("r1").suit) == 1 and right.clues == 7
    wrong = run(state, "Alice plays 3 as red")  # b1 is playable but the colour is wrong
    assert wrong.strikes == 1 and wrong.discards == (Card.parse("b1"),) and wrong.clues == 6
    unplayable = run(state, "Alice plays 2 as red")  # right colour, r2 not playable: an ordinary misplay
    assert unplayable.strikes == 1 and unplayable.clues == 6
    five = replace(dealt(settings, ["r5 r2 b1 g1 y1", "w1 w2 w3 w4 w5"]), fireworks=(0, 4, 0, 0, 0), clues=5)
    assert run(five, "Alice plays 1 as red").clues == 7
    assert run(replace(five, clues=7), "Alice plays 1 as red").clues == 8
    with pytest.raises(IllegalActionError, match="Timed Choreography"):
        run(dealt(TWO, HANDS2), "Alice plays 1 as red")


def test_empty_hints_off_and_on() -> None:
    # A turn, 1: option empty_hints (default off): a hint that touches no card.
    with pytest.raises(IllegalActionError, match="holds no green card and empty hints are off"):
        run(dealt(TWO, HANDS2), "Alice hints Bob green")
    state = run(dealt(TWO.with_(empty_hints=True), HANDS2), "Alice hints Bob green")
    assert state.clues == 7


def test_multicolour_hints() -> None:
    # Material, Avalanche: a multicolour hint touches exactly the multicolour cards; no other colour touches them.
    settings = Settings(players=2, variant=Variant.AVALANCHE)
    state = dealt(settings, ["r1 r2 r3 r4 r5", "m1 r1 m3 b4 m5"])
    assert state.touched(1, parse_event("Alice hints Bob multicolour", state.seats).clue) == (1, 3, 5)  # type: ignore[union-attr]
    assert state.touched(1, parse_event("Alice hints Bob red", state.seats).clue) == (2,)  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="no multicolour suit"):
        run(dealt(TWO, HANDS2), "Alice hints Bob multicolour")


def test_turn_order_and_draws_are_enforced() -> None:
    state = dealt(TWO, HANDS2)
    with pytest.raises(IllegalActionError, match="it is Alice's turn"):
        run(state, "Bob plays 1")
    played = run(state, "Alice plays 5")
    with pytest.raises(IllegalActionError, match="Alice must draw first"):
        run(played, "Bob plays 1")
    with pytest.raises(IllegalActionError, match="it is Alice who draws"):
        run(played, "Bob draws g1")
    with pytest.raises(IllegalActionError, match="no slot 6"):
        run(state, "Alice plays 6")
    with pytest.raises(IllegalActionError, match="cannot hint themselves"):
        run(state, "Alice hints Alice red")
    # The draw from a checked deck (the solver's replay) is refused the same way when none is due.
    with pytest.raises(IllegalActionError, match="no draw is due"):
        Table(state).draw_checked(Card.parse("g1"))
    table = Table(played)
    table.draw_checked(Card.parse("g1"))
    assert table.state() == played.apply(Draw(0, Card.parse("g1")))
    # So is the whole opening deal in one step once it has been dealt.
    with pytest.raises(IllegalActionError, match="no deal is due at turn 1"):
        state.deal_checked(TWO.variant.full_deck())


def test_copies_and_hints_are_checked_against_known_cards() -> None:
    state = dealt(TWO, ["r1 r1 r1 r4 r5", "b1 b2 b3 b4 b5"])
    played = run(state, "Alice plays 1")
    with pytest.raises(ContradictionError, match="all 3 copies of r1"):
        played.apply(Draw(0, Card.parse("r1")))
    with pytest.raises(ContradictionError, match="slot 2 holds b2, which is blue"):
        run(state, "Alice hints Bob blue (1)")
    with pytest.raises(ContradictionError, match="slot 1 holds r1"):
        run(state, "Alice plays 1 (r2)")


def test_unknown_cards_need_the_facts_the_table_shows() -> None:
    state = GameState.new(TWO)
    for seat, card in zip(TWO.deal_seats(), [None, "b1", None, "b2", None, "b3", None, "b4", None, "b5"]):
        state = state.apply(Draw(seat, Card.parse(card) if card else None))
    with pytest.raises(MissingInformationError, match="give the slots"):
        run(state, "Alice hints Bob blue", "Bob hints Alice red")
    with pytest.raises(MissingInformationError, match="say which card"):
        run(state, "Alice plays 1")
    state = run(state, "Alice plays 1 (r1)", "Alice draws ?", "Bob hints Alice red (2,3)")
    assert state.fireworks_text() == "w0 r1 b0 y0 g0" and state.clues == 7


def test_reordering_keeps_the_card() -> None:
    # A turn: a player may reorder the cards of their own hand at any time.
    state = run(dealt(TWO, HANDS2), "Bob moves 5 to 1")
    assert [str(item.card) for item in state.hands[1]] == ["b5", "b1", "b2", "b3", "b4"]
    assert state.hands[1][0].uid == 1  # b5 was dealt second
    assert state.current == 0 and state.turn == 0


def test_rating_words() -> None:
    # End of the game, standard: rating words.
    words = [rating(score) for score in (0, 5, 6, 10, 11, 15, 16, 20, 21, 24, 25)]
    assert words == [
        "horrible",
        "horrible",
        "mediocre",
        "mediocre",
        "honourable",
        "honourable",
        "excellent",
        "excellent",
        "amazing",
        "amazing",
        "legendary",
    ]
    assert rating(29, Variant.AVALANCHE) == "legendary" and rating(30, Variant.AVALANCHE) == "divine"


def test_full_deck_helper_matches_the_deal() -> None:
    deck = full_deck(TWO, HANDS2, "g1 g2")
    state = deal(GameState.new(TWO), deck)
    assert [str(item.card) for item in state.hands[0]] == HANDS2[0].split()
    assert deck[10:12] == [Card.parse("g1"), Card.parse("g2")]


def test_trash_is_a_card_played_or_one_above_a_rank_all_discarded() -> None:
    # By hand: red at 1, both r3 discarded: r1 is trash (played), r4 and r5 too (no r3 can be played);
    # r2 and r3 are not. The multicolour m2, a single copy, discarded: m3 on are trash.
    cards = Card.parse
    state = replace(GameState.new(Settings(variant=Variant.AVALANCHE)), fireworks=(0, 1, 0, 0, 0, 0))
    state = replace(state, discards=(cards("r3"), cards("b1"), cards("r3"), cards("m2")))
    assert [card for card in Variant.AVALANCHE.cards if state.trash(card)] == [
        cards(text) for text in ["r1", "r4", "r5", "m3", "m4", "m5"]
    ]
    # The rule as written, against random fireworks and discards.
    rng = random.Random(11)
    deck = Variant.AVALANCHE.full_deck()
    for _ in range(300):
        fireworks = tuple(rng.randint(0, 5) for _ in Variant.AVALANCHE.suits)
        state = replace(state, fireworks=fireworks, discards=tuple(rng.sample(deck, rng.randint(0, 30))))
        for card in Variant.AVALANCHE.cards:
            height = state.firework(card.suit)
            below = [Card(card.suit, rank) for rank in range(height + 1, card.rank)]
            gone = any(state.discards.count(lower) == Variant.AVALANCHE.copies(lower) for lower in below)
            assert state.trash(card) == (card.rank <= height or gone)
