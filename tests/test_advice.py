"""The move advisor: positions worked out by hand, and its predictions against the tracker on random games."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deducer import GameRecord, Settings
from deducer.actions import Hint, Play, parse_event
from deducer.advice import Advice, Option, advise
from deducer.cards import Card
from deducer.counting import TooLarge
from deducer.errors import RecordError
from deducer.hands import possible_hands
from deducer.playout import playout
from deducer.settings import Ending
from deducer.tracker import Tracker
from hanabi.main import app
from tests.helpers import full_deck, random_settings

ROOT = Path(__file__).resolve().parent.parent
SEATS = ("Alice", "Bob")


def game(hands: list[str], upcoming: str, actions: list[str]) -> GameRecord:
    settings = Settings(players=2, ending=Ending.STANDARD)
    deck = full_deck(settings, hands, upcoming)
    return GameRecord.from_deck(settings, deck, [parse_event(line, SEATS) for line in actions])


def find(advice: Advice, text: str) -> Option:
    return next(option for option in advice.actions if option.action.notation(SEATS) == text)


def test_a_colour_hint_makes_a_card_playable_by_elimination() -> None:
    """Red is at 3; both r1s left and r2, r3 are discarded, r5 is in Alice's hand: the only red card
    Bob cannot see is r4. "Red" on Bob's r4 tells him it is r4, hence playable; "4" does not (b4,
    g4, ... are possible)."""
    record = game(
        ["r1 r2 r3 r1 r1", "r4 b1 g1 y1 w1"],
        "r2 r3 r5",
        [
            "Alice plays 1",  # r1
            "Bob hints Alice 1",
            "Alice plays 2",  # r2
            "Bob hints Alice red",
            "Alice plays 3",  # r3
            "Bob hints Alice 1",
            "Alice discards 5",  # r1
            "Bob hints Alice 1",
            "Alice discards 5",  # r1
            "Bob hints Alice 2",
            "Alice discards 5",  # r2
            "Bob hints Alice 3",
            "Alice discards 5",  # r3
            "Bob hints Alice 5",
        ],
    )
    advice = advise(record)
    assert advice.seat == 0 and advice.turn == 14
    red = find(advice, "Alice hints Bob red (1)")
    assert red.touched == (1,) and red.makes_playable == (1,) and red.tier == 2
    assert "makes slot 1 certainly playable" in red.reason
    assert red.after is not None and dict(red.after.card(1, 1).probabilities) == {Card.parse("r4"): 1.0}
    four = find(advice, "Alice hints Bob 4 (1)")
    assert four.makes_playable == () and four.tier == 4
    ones = find(advice, "Alice hints Bob 1 (2,3,4,5)")  # every r1 is gone: any other 1 is playable
    assert ones.makes_playable == (2, 3, 4, 5)
    assert next(option for option in advice.actions if option.kind == "hint") is ones  # four made playable outrank one
    # Alice's slot 4 (w1, touched by the 1s) is a 1 and no r1 is left: a certain play comes first.
    assert advice.actions[0].action == Play(0, 4) and advice.actions[0].tier == 1


def test_negative_information_makes_a_card_playable() -> None:
    """Bob's slot 1 is b1, known to be a 1; r1 is played but two r1s are unseen by Bob, so it may be
    r1 (trash). "Red" touches only his r3 (slot 2): slot 1 is not red, so it is playable."""
    record = game(
        ["r1 w2 w3 w4 y5", "b1 r3 g3 y3 b4"],
        "",
        ["Alice plays 1", "Bob hints Alice 4", "Alice hints Bob 1", "Bob hints Alice 3"],
    )
    tracker = Tracker(record)
    assert "playable" not in tracker.knowledge(1).card(1, 1).flags
    advice = advise(tracker)
    red = find(advice, "Alice hints Bob red (2)")
    assert red.touched == (2,) and 1 in red.makes_playable and red.tier == 2
    assert red.after is not None and Card.parse("r1") not in red.after.card(1, 1).probabilities


def test_a_discard_that_is_certainly_safe_by_counting() -> None:
    """Alice's slot 5 is known to be a 1; r1 b1 g1 y1 are played, and the three w1s are all in
    Bob's hand: by counting it is no w1, so it is trash."""
    record = game(
        ["r1 b1 g1 y1 r1", "w1 w1 w1 b2 g2"],
        "",
        [
            "Alice plays 1",  # r1
            "Bob hints Alice 1",
            "Alice plays 2",  # b1
            "Bob hints Alice 1",
            "Alice plays 3",  # g1
            "Bob hints Alice 1",
            "Alice plays 4",  # y1
            "Bob hints Alice 1",
        ],
    )
    advice = advise(record)
    safe = find(advice, "Alice discards 5")
    assert safe.tier == 3 and safe.p_trash == 1.0 and safe.p_critical == 0.0 and "certainly trash" in safe.reason
    play = find(advice, "Alice plays 5")
    assert play.p_playable == 0.0 and play.tier == 8
    assert [option.tier for option in advice.actions] == sorted(option.tier for option in advice.actions)


def test_a_certain_five_is_played_before_another_certain_play() -> None:
    """Alice knows slot 5 is r5 (red and 5, red at 4) and slot 2 is a 1 that is not r1 (the other two
    r1s are in Bob's hand, one is played), so any 1 left is playable: both plays are certain, and the 5
    comes first, though its slot is later, for the clue token it gives back."""
    record = game(
        ["r1 r2 r3 r4 r5", "r1 r1 g2 y2 w2"],
        "g3 y3 b1 w3",
        [
            "Alice plays 1",  # r1; g3 drawn into slot 1
            "Bob hints Alice red",
            "Alice plays 2",  # r2; y3
            "Bob hints Alice 5",
            "Alice plays 3",  # r3; b1
            "Bob hints Alice 1",
            "Alice plays 4",  # r4; w3: the hand is w3 b1 y3 g3 r5
            "Bob hints Alice 3",
        ],
    )
    advice = advise(record)
    five, one = advice.actions[:2]
    assert (five.action, five.tier, five.returns_clue) == (Play(0, 5), 1, True)
    assert "a 5 returns a clue token" in five.reason
    assert (one.action, one.tier, one.returns_clue) == (Play(0, 2), 1, False)
    assert advice.actions[2].tier > 1


def test_the_seat_and_turn_are_checked() -> None:
    record = playout(Settings(players=3), 5, max_turns=10)
    tracker = Tracker(record)
    assert advise(tracker, seat=2).seat == 2
    assert advise(tracker, seat=2).turn == 8  # Cathy acts at turns 2, 5, 8
    with pytest.raises(RecordError, match="it is Alice's turn, not Bob's"):
        advise(tracker, 0, seat=1)
    finished = playout(Settings(players=2), 3)
    with pytest.raises(RecordError, match="the game is over"):
        advise(finished)


def _hint_outcome_probability(tracker: Tracker, turn: int, hint: Hint) -> float:
    """Brute force: the receiver's possible hands, summed where the hint would touch exactly these slots."""
    state = tracker.state_at(turn)
    hands = possible_hands(state, tracker.facts_at(turn), hint.target, limit=3_000)
    touched = set(hint.touched or ())
    return sum(
        hand.probability
        for hand in hands
        if {slot for slot, card in enumerate(hand.cards, 1) if hint.clue.touches(card)} == touched
    )


def test_predictions_match_the_tracker_on_random_positions() -> None:
    """After-hint views equal the tracker's after the hint is really recorded; bits are never negative
    and equal -log2 of the outcome's probability over the receiver's possible hands; a certain play
    is always playable and a certain discard always trash."""
    rng = random.Random(7)
    positions = hints = brute = 0
    while positions < 250:
        settings = random_settings(rng).with_(choreography=False)
        record = playout(settings, rng.randrange(10_000), noise=0.3)
        tracker = Tracker(record)
        final = tracker.state.turn
        turn = rng.randrange(final)
        state = tracker.state_at(turn)
        if state.over or state.must_draw is not None:
            continue
        positions += 1
        advice = advise(tracker, turn)
        hand = state.hands[state.current]
        for option in advice.actions:
            if isinstance(option.action, Play) and option.p_playable == 1:
                card = hand[option.action.slot - 1].card
                assert card is not None and state.playable(card)
            if option.kind == "discard" and option.p_trash == 1:
                card = hand[option.slot - 1].card if option.slot else None
                assert card is not None and state.trash(card)
            if not isinstance(option.action, Hint):
                continue
            hints += 1
            assert option.bits is not None and option.bits >= 0
            if hints % 7:
                continue
            events = record.events[: tracker.position(turn)]
            real = Tracker(record.with_events(events))
            real.add(option.action)
            seen = real.knowledge(option.action.target)
            assert option.after is not None
            assert len(seen.cards) == len(option.after.cards)
            for mine, theirs in zip(option.after.cards, seen.cards):
                assert (mine.seat, mine.slot, mine.flags) == (theirs.seat, theirs.slot, theirs.flags)
                assert mine.probabilities.keys() == theirs.probabilities.keys()
                for card, chance in mine.probabilities.items():
                    assert chance == pytest.approx(theirs.probabilities[card], abs=1e-12)
            if brute < 100:
                try:
                    probability = _hint_outcome_probability(tracker, turn, option.action)
                except TooLarge:
                    continue
                brute += 1
                assert option.bits == pytest.approx(-math.log2(probability), abs=1e-9)
    assert hints > 1500 and brute == 100


def test_advise_command(tmp_path: Path) -> None:
    runner = CliRunner()
    path = str(ROOT / "sample_games" / "5p_avalanche.json")
    result = runner.invoke(app, ["advise", path, "--turn", "25", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seat"] == "Alice" and data["turn"] == 25
    record = Tracker(GameRecord.from_json(json.loads((ROOT / "sample_games" / "5p_avalanche.json").read_text())))
    seats = record.record.seats
    kinds = set()
    for item in data["actions"]:
        kinds.add(item["kind"])
        assert parse_event(item["action"], seats).notation(seats) == item["action"]
        assert {"action", "kind", "reason"} <= set(item)
        if item["kind"] in ("play", "discard"):
            assert 0 <= item["p_playable"] <= 1 and 0 <= item["p_trash"] <= 1 and item["slot"] >= 1
        if item["kind"] == "hint":
            assert item["bits"] >= 0 and item["target"] in seats and isinstance(item["makes_playable"], list)
    assert kinds == {"play", "discard", "hint"}
    text = runner.invoke(app, ["advise", path, "--seat", "bob"], env={"COLUMNS": "200"})
    assert text.exit_code == 0 and "Bob to act" in text.output and "bits" in text.output
    wrong = runner.invoke(app, ["advise", path, "--turn", "25", "--seat", "Bob"])
    assert wrong.exit_code == 1 and "it is Alice's turn, not Bob's" in wrong.output
