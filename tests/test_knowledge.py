"""The knowledge tracker: worked examples by hand, oracles, invariants, mistakes."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace
from pathlib import Path

import pytest

from deducer import Card, ContradictionError, GameRecord, RecordError, Settings, Variant
from deducer.actions import Clue, Draw, Hint, Move
from deducer.facts import Facts
from deducer.game import GameState
from deducer.hands import deals, possible_hands
from deducer.knowledge import NO_FACTS, allowed_identities, hidden_cards, knowledge, unseen_copies
from deducer.loader import load_game
from deducer.matching import Violation, _greedy, candidates, violation
from deducer.playout import playout
from deducer.tracker import Tracker
from tests.helpers import dealt, follow

THREE = Settings(players=3)
ALICE, BOB, CATHY = 0, 1, 2


def names(cards: object) -> set[str]:
    return {str(card) for card in cards}  # type: ignore[attr-defined]


OTHER_SLOTS = [(ALICE, 1), (ALICE, 2), (ALICE, 3), (ALICE, 4), (ALICE, 5), (CATHY, 3), (CATHY, 4)]


def _pair_hinted(rank: int) -> tuple[GameState, dict[int, Facts]]:
    """Bob's slots 1 and 2 (w and b of `rank`) are hinted `rank`; red, yellow and green then miss them."""
    state = dealt(THREE, ["r1 r2 y1 g1 b1", f"w{rank} b{rank} r3 y3 g3", "w1 w2 w3 y4 y2"])
    return follow(
        state,
        {},
        f"Alice hints Bob {rank}",
        "Bob hints Cathy 1",
        "Cathy hints Bob red",
        "Alice hints Bob yellow",
        "Bob hints Cathy 2",
        "Cathy hints Bob green",
    )


def test_two_fives_not_red_yellow_green_are_blue_and_white() -> None:
    # Bob's two 5s, not red, yellow or green, are b5 and w5 between them (one copy each), so no
    # other card that a view cannot see may be b5 or w5: not Alice's, not Cathy's unhinted ones.
    state, facts = _pair_hinted(5)
    public = knowledge(state, facts, None)
    for slot in (1, 2):
        card = public.card(BOB, slot)
        assert names(card.candidates) == {"w5", "b5"} and card.probabilities[Card.parse("b5")] == pytest.approx(0.5)
    for owner, slot in OTHER_SLOTS:
        assert not names(public.card(owner, slot).candidates) & {"w5", "b5"}
    bob = knowledge(state, facts, BOB)  # Bob reasons about his own hand the same way
    assert not any(names(bob.card(BOB, slot).candidates) & {"w5", "b5"} for slot in (3, 4, 5))


def test_two_fours_exclude_nothing_elsewhere() -> None:
    # The same with 4s: two copies of w4 and b4 exist, so other cards may still be w4 or b4.
    state, facts = _pair_hinted(4)
    public = knowledge(state, facts, None)
    assert names(public.card(BOB, 1).candidates) == {"w4", "b4"}
    for owner, slot in OTHER_SLOTS:
        assert {"w4", "b4"} <= names(public.card(owner, slot).candidates)


def test_chain_of_fives() -> None:
    # w and g are complete, so the unplayed 5s are r5, y5, b5. A (Bob's b5) misses a yellow hint,
    # then B (a y5 Bob draws later) and A are both hinted 5. In Bob's view A is r5 or b5 and B is r5,
    # y5 or b5. Cathy then draws r5: A must be b5, and so B must be y5.
    base = replace(dealt(THREE, ["r1 r2 y1 g1 b1", "y3 r3 b5 r4 w2", "w1 b2 g2 b3 y4"]), fireworks=(5, 0, 0, 0, 5))
    state, facts = follow(base, {}, "Alice hints Bob yellow", "Bob discards 1", "Bob draws y5", "Cathy hints Bob 5")
    bob = knowledge(state, facts, BOB)
    assert names(bob.card(BOB, 3).candidates) == {"r5", "b5"}  # A
    assert names(bob.card(BOB, 1).candidates) == {"r5", "y5", "b5"}  # B
    state, facts = follow(state, facts, "Alice hints Cathy 1", "Bob hints Cathy 2", "Cathy discards 5", "Cathy draws r5")
    bob = knowledge(state, facts, BOB)
    assert names(bob.card(BOB, 3).candidates) == {"b5"} and "known" in bob.card(BOB, 3).flags
    assert names(bob.card(BOB, 1).candidates) == {"y5"}
    # The public view cannot see Cathy's r5, so it keeps both possibilities open.
    assert names(knowledge(state, facts, None).card(BOB, 3).candidates) == {"r5", "b5"}


def test_naked_pair() -> None:
    # Two blue-hinted cards and only b2 and b5 unseen: no other card in that view can be b2 or b5.
    # Alice sees Bob's b3 b4; b1 is played, b1 b1 b2 b3 b4 discarded: one b2 and the b5 are unseen.
    base = dealt(THREE, ["b2 b5 r1 r2 y1", "b3 b4 r3 y3 g3", "w1 w2 w3 g1 g2"])
    base = replace(base, fireworks=(0, 0, 1, 0, 0), discards=tuple(Card.parse(c) for c in ["b1", "b1", "b2", "b3", "b4"]))
    state, facts = follow(base, {}, "Alice hints Cathy 1", "Bob hints Alice blue")
    alice = knowledge(state, facts, ALICE)
    assert names(alice.card(ALICE, 1).candidates) == {"b2", "b5"}
    assert alice.card(ALICE, 1).probabilities[Card.parse("b2")] == pytest.approx(0.5)
    for slot in (3, 4, 5):
        assert not names(alice.card(ALICE, slot).candidates) & {"b2", "b5"}


def test_played_and_discarded_copies_count_and_multicolour_is_single() -> None:
    settings = Settings(players=2, variant=Variant.AVALANCHE)
    base = dealt(settings, ["m3 r1 r1 g1 g1", "r2 b2 y2 w2 g2"])
    base = replace(base, fireworks=(0, 0, 0, 0, 0, 2), discards=(Card.parse("r1"),))
    state, facts = follow(
        base, {}, "Alice hints Bob 2", "Bob hints Alice multicolour", "Alice hints Bob red", "Bob hints Alice 1"
    )
    alice = knowledge(state, facts, ALICE)
    assert names(alice.card(ALICE, 1).candidates) == {"m3", "m4", "m5"}  # m1 and m2 are played
    # Slots 2-5 are 1s and not multicolour. Alice sees no 1 elsewhere; one r1 is discarded, so the
    # unseen 1s are w1 x3, r1 x2, b1 x3, y1 x3, g1 x3: each of her 1s is r1 with probability 2/14.
    for slot in (2, 3, 4, 5):
        assert alice.card(ALICE, slot).probabilities[Card.parse("r1")] == pytest.approx(2 / 14, abs=1e-12)
    assert names(knowledge(state, facts, BOB).card(BOB, 1).candidates) <= {"r2", "w2", "b2", "y2", "g2"}  # no m2: played


def _oracle(allowed: list[frozenset[int]], copies: dict[int, int]) -> tuple[int, list[dict[int, float]]]:
    total, marginals = 0, [dict[int, int]() for _ in allowed]
    for assignment, weight in deals(allowed, copies):
        total += weight
        for index, c in enumerate(assignment):
            marginals[index][c] = marginals[index].get(c, 0) + weight
    return total, [{c: w / total for c, w in m.items()} for m in marginals] if total else []


def test_fast_deduction_agrees_with_brute_force_on_thousands_of_positions() -> None:
    # Random positions of real games (each seat's view, and the public view of small hands), checked
    # against python-constraint's enumeration: candidate sets equal, probabilities equal to 1e-9.
    rng = random.Random(11)
    checked = 0
    for game in range(120):
        settings = Settings(players=rng.randint(2, 5), variant=rng.choice(list(Variant)))
        record = playout(settings, game, noise=0.3)
        tracker = Tracker(record)
        for turn in rng.sample(range(tracker.state.turn + 1), min(12, tracker.state.turn + 1)):
            state = tracker.state_at(turn)
            facts = tracker._facts[tracker.position(turn)]
            for seat in [None, *range(settings.players)]:
                hidden = hidden_cards(state, seat)
                copies = unseen_copies(state, seat)
                allowed = [allowed_identities(facts.get(item.uid, NO_FACTS), settings.variant) for _, _, item in hidden]
                domains = [sum(copies[c] > 0 for c in options) for options in allowed]
                if math.prod(domains) > 4000:
                    continue
                total, exact = _oracle(allowed, copies)
                view = knowledge(state, facts, seat, budget=10**9)
                assert total > 0
                assert candidates(allowed, copies) == [frozenset(m) for m in exact]
                for card, truth in zip(view.cards, exact):
                    cards = settings.variant.cards
                    assert {cards.index(c) for c in card.candidates} == set(truth)
                    for c, p in truth.items():
                        assert card.probabilities[cards[c]] == pytest.approx(p, abs=1e-9)
                checked += 1
    assert checked > 1000


def test_whether_a_deal_fits_is_the_enumerations_answer_greedy_or_not() -> None:
    # The greedy assignment is only a witness. Worked case: identities 0, 1, 3 with 2, 1 and 1 copies;
    # card A allows 0 or 3, cards B and C 0 or 1, card D only 1. The greedy serves D first (1), then A
    # the identity with most copies (0), then B the last 0, and C has nothing left. A deal exists
    # (A 3, B 0, C 0, D 1): the flow finds it.
    allowed = [frozenset({0, 3}), frozenset({0, 1}), frozenset({0, 1}), frozenset({1})]
    copies = {0: 2, 1: 1, 3: 1}
    assert not _greedy(allowed, copies) and violation(allowed, copies) is None
    assert violation([*allowed, frozenset({1, 3})], copies) is not None  # five cards, four copies
    # Random small cases against enumeration: `violation` answers exactly, the greedy never claims a deal
    # that does not exist, and it misses some (so the flow is asked).
    rng = random.Random(17)
    missed = contradictions = 0
    for _ in range(4000):
        identities = rng.randint(1, 4)
        copies = {c: rng.randint(0, 2) for c in range(identities)}
        allowed = [frozenset(c for c in range(identities) if rng.random() < 0.6) for _ in range(rng.randint(1, 5))]
        truth = any(all(deal.count(c) <= copies[c] for c in deal) for deal in itertools.product(*allowed))
        assert (violation(allowed, copies) is None) == truth == (not isinstance(candidates(allowed, copies), Violation))
        greedy = _greedy(allowed, copies)
        assert truth or not greedy
        missed += truth and not greedy
        contradictions += not truth
    assert missed >= 5 and contradictions >= 500


def test_random_playouts_keep_the_truth_and_never_grow() -> None:
    # In every view: the true card is a candidate, probabilities sum to 1, candidates only shrink.
    rng = random.Random(7)
    for game in range(30):
        settings = Settings(players=rng.randint(2, 5), variant=rng.choice(list(Variant)))
        full = playout(settings, 1000 + game, noise=0.2)
        record = full.seen_by(rng.randrange(settings.players)) if game % 3 == 0 else full
        truth = {uid: card for uid, card in enumerate(full.deck or ())}
        tracker = Tracker(record)
        previous: dict[tuple[int | None, int], set[Card]] = {}
        for turn in range(tracker.state.turn + 1):
            for seat in [None, *range(settings.players)]:
                view = tracker.knowledge(seat, turn)
                for card in view.cards:
                    assert truth[card.uid] in card.probabilities
                    assert sum(card.probabilities.values()) == pytest.approx(1.0, abs=1e-9)
                    now = set(card.candidates)
                    assert now <= previous.get((seat, card.uid), now)
                    previous[(seat, card.uid)] = now


def test_one_seat_views_of_others_are_marked_approximate() -> None:
    record = playout(Settings(players=3), 5).seen_by(ALICE)
    tracker = Tracker(record)
    assert not tracker.knowledge(ALICE, 0).approximate
    assert tracker.knowledge(BOB, 0).approximate
    assert not tracker.knowledge(None, 0).approximate
    assert len(tracker.knowledge(BOB, 0).cards) == 10  # Bob's own five and Alice's five, unknown to the recorder


def _deal_to(tracker: Tracker, cards: str) -> None:
    for seat, card in zip(THREE.deal_seats(), cards.split()):
        tracker.add(Draw(seat, None if card == "?" else Card.parse(card)))


def test_contradictory_hint_is_refused_and_the_log_kept(tmp_path: Path) -> None:
    path = tmp_path / "live.json"
    tracker = Tracker(GameRecord.new(THREE, recorder=ALICE), path)
    _deal_to(tracker, "? r1 g1 ? r2 g2 ? r3 g3 ? r4 g4 ? r5 g5")
    tracker.add("Alice hints Bob 1")
    tracker.add("Bob hints Alice 5 (1,2)")
    before = path.read_text()
    # Both r5 and g5 are in sight, so two red 5s in Alice's hand are impossible.
    with pytest.raises(
        ContradictionError,
        match=r"event 18 \(Cathy hints Alice red \(1,2\)\): no card fits the hints on "
        r"Alice's slot 1 and Alice's slot 2",
    ):
        tracker.add("Cathy hints Alice red (1,2)")
    assert path.read_text() == before and len(tracker.record.events) == 17
    tracker.add("Cathy hints Alice blue (1)")  # what was really said
    assert names(tracker.knowledge(ALICE).card(ALICE, 1).candidates) == {"b5"}


def test_two_slots_that_must_both_be_the_only_r5() -> None:
    tracker = Tracker(GameRecord.new(THREE, recorder=ALICE))
    _deal_to(tracker, "? b1 g1 ? b2 g2 ? b3 g3 ? b4 g4 ? y5 g5")
    tracker.add("Alice hints Bob 1")
    tracker.add("Bob hints Alice 5 (1,2)")
    with pytest.raises(ContradictionError, match="Alice's slot 1 and Alice's slot 2 can only be r5, of which 1 copy is unseen"):
        tracker.add("Cathy hints Alice red (1,2)")
    tracker.add("Cathy hints Alice red (1)")
    view = tracker.knowledge(ALICE)
    assert names(view.card(ALICE, 1).candidates) == {"r5"}
    assert names(view.card(ALICE, 2).candidates) == {"w5", "b5"}  # a 5, not red; y5 and g5 are in sight


def test_undo_and_correct(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record = playout(THREE, 9, noise=1.0)  # random legal actions: hints among the first 30 events
    tracker = Tracker(record.with_events(record.events[:30]), path)
    event = tracker.undo()
    assert event == record.events[29] and len(tracker.record.events) == 29
    assert load_game(path).events == record.events[:29]
    tracker.add(event)
    index = next(i for i, e in enumerate(tracker.record.events) if isinstance(e, Hint))
    original = tracker.record.events[index]
    assert isinstance(original, Hint)
    with pytest.raises(RecordError, match=f"event {index + 1} .*cannot hint themselves"):
        tracker.correct(index + 1, Hint(original.seat, original.seat, original.clue))
    assert tracker.record.events[index] == original and load_game(path).events == tracker.record.events
    # A real correction: the hint named the rank of the target's slot 1 instead.
    target_card = tracker._states[index].hands[original.target][0].card
    assert target_card is not None
    tracker.correct(index + 1, Hint(original.seat, original.target, Clue(rank=target_card.rank)))
    assert tracker.record.events[index].clue == Clue(rank=target_card.rank)  # type: ignore[union-attr]
    assert len(tracker.record.events) == 30 and load_game(path).events == tracker.record.events
    with pytest.raises(RecordError, match="nothing to undo"):
        Tracker(GameRecord.new(THREE)).undo()


def test_knowledge_follows_the_card_when_the_hand_is_reordered() -> None:
    state = dealt(THREE, ["r1 r2 y1 g1 b1", "w5 b5 r3 y3 g3", "w1 w2 w3 w4 y2"])
    state, facts = follow(state, {}, "Alice hints Bob 5")
    before = knowledge(state, facts, None).card(BOB, 1)
    state = state.apply(Move(BOB, 1, 5))
    after = knowledge(state, facts, None).card(BOB, 5)
    assert after.uid == before.uid and after.candidates == before.candidates and after.facts.rank == 5


def test_possible_hands_match_the_probabilities() -> None:
    state = dealt(THREE, ["b2 b5 r1 r2 y1", "b3 b4 r3 y3 g3", "w1 w2 w3 g1 g2"])
    state = replace(state, fireworks=(0, 0, 1, 0, 0), discards=tuple(Card.parse(c) for c in ["b1", "b1", "b2", "b3", "b4"]))
    state, facts = follow(
        state, {}, "Alice hints Bob 3", "Bob hints Alice blue", "Cathy hints Alice 1", "Alice hints Cathy 1", "Bob hints Alice 2"
    )
    hands = possible_hands(state, facts, ALICE)
    assert sum(hand.probability for hand in hands) == pytest.approx(1.0)
    # Slot 1 is a blue 2 (b2), slot 2 blue and not 1 or 2 with b3 b4 all in sight: b5.
    assert {hand.cards[:2] for hand in hands} == {(Card.parse("b2"), Card.parse("b5"))}
    view = knowledge(state, facts, ALICE)
    for slot in range(1, 6):
        for card, p in view.card(ALICE, slot).probabilities.items():
            assert sum(h.probability for h in hands if h.cards[slot - 1] == card) == pytest.approx(p, abs=1e-9)


def test_flags() -> None:
    state = replace(dealt(THREE, ["r1 r2 y1 g1 b5", "w5 b4 r3 y3 g3", "w1 w2 w3 w4 y2"]), fireworks=(0, 1, 0, 0, 0))
    state, facts = follow(state, {}, "Alice hints Bob 5", "Bob hints Alice 1", "Cathy hints Alice red")
    view = knowledge(state, facts, ALICE)
    r1 = view.card(ALICE, 1)  # red and 1 with r1 played: known trash
    assert r1.flags == ("known", "trash") and r1.p_trash == 1.0 and r1.p_playable == 0.0
    r2 = view.card(ALICE, 2)  # red, not 1: r2 r3 r4 r5, weighted 2 1 2 1 (Bob's r3 in sight)
    assert r2.p_playable == pytest.approx(2 / 6) and "critical" in r2.flags  # it could be r5
    assert "critical" not in view.card(ALICE, 3).flags  # a 1 other than red: never the last copy
