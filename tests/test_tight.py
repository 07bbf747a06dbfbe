"""The search's clue-token question where no act is to spare: a hand-made position, soundness against
the brute force and the plain search, and one relaxation shared by many positions against
`clues.most_plays` asked afresh."""

from __future__ import annotations

import random
from itertools import islice

from deducer import DealOrder, Ending, Settings, Variant
from solver import tight
from solver.bounds import upper_bound
from solver.brute import Brute
from solver.clues import _plays
from solver.endgame import _holders
from solver.model import ONGOING, Deal, Position, Rules
from solver.search import Search
from solver.tight import Relaxation, Tight
from tests.helpers import late_positions, small_positions

A1, A2, A3, A4, A5 = range(5)


def tight_without_a_token(clues: int) -> tuple[Deal, Position]:
    # One suit, one copy of each rank, three players with one card each. a1 is played; seat 0 (to act)
    # holds a4, seat 1 a2, seat 2 a3, and a5 is the last card of the deck. The four acts left (the
    # turn that draws a5, then one each) must all play, for a2-a5. With a token, seat 0 hints, seat 1
    # plays a2 and draws a5, and the final round (seats 2, 0, 1) plays a3, a4 and a5: 5 points.
    # Without, seat 0 cannot wait: a4 is let go, and a1-a3 make 3.
    rules = Rules(suits=1, copies=(1, 1, 1, 1, 1), players=3, hand_size=1, ending=Ending.STANDARD)
    deal = Deal(rules, (A4, A2, A3, A1, A5), (0, 1, 2))
    return deal, deal.position(0, 4, (1,), (), clues, 0, -1, ((A4,), (A2,), (A3,)))


def needed(deal: Deal, position: Position) -> list[int]:
    """The cards still needed, suit by suit, rank by rank."""
    ranks = deal.rules.ranks
    return [suit * ranks + rank for suit, (low, high) in enumerate(zip(position[2], position[3])) for rank in range(low, high)]


def most_plays_now(deal: Deal, position: Position) -> int | None:
    """`clues.most_plays` over every needed card from the position's own turn, asked afresh (None: too big)."""
    start = position[1] if position[6] < 0 else deal.size
    return _plays(deal, position, _holders(position, {}), needed(deal, position), start, 99, True)


def test_a_tight_pace_without_a_token_by_hand() -> None:
    shared = Relaxation(tight_without_a_token(0)[0], (5,))  # (one for both: asked with no token, then with one)
    for clues, best in ((0, 3), (1, 5)):
        deal, position = tight_without_a_token(clues)
        assert upper_bound(deal, position) == 5  # (the other bounds: seats, but no tokens)
        assert Brute(deal).value((0, 4, (1,), clues, 0, (), -1, ((A4,), (A2,), (A3,)))) == best
        assert Tight(deal).suffice(position, 5) is (best == 5)
        assert shared.suffice(position, 4) is (best == 5)
        assert Tight(deal).suffice(position, 4)  # (an act to spare: not asked)
        assert Relaxation(deal, position[3]).suffice(position, 2)  # (a2 and a3, letting a4 go)
        search = Search(deal)
        line = search.reach(position, 5)
        assert (line is not None) is (best == 5)
        if line is None:
            assert search.nodes == 1 and search.tight.explored == 1  # (refuted at the position itself, in one state)


def test_a_five_earns_the_token_a_wait_needs() -> None:
    # Two suits a and b of three ranks, one copy each, two players with one card each. b1 is played;
    # seat 0 (to act) holds b2, seat 1 b3, and the deck is a2, a1, a3, with no clue token: the five
    # acts left must all play. Seat 0 plays b2 and draws a2; seat 1 plays b3, the suit's last card,
    # which earns a token, and draws a1; seat 0 spends it waiting; seat 1 plays a1 and draws a3; and
    # the final round plays a2 and a3. Without that token seat 0 could not wait.
    rules = Rules(suits=2, ranks=3, copies=(1, 1, 1), players=2, hand_size=1, ending=Ending.STANDARD)
    a1, a2, a3, b1, b2, b3 = range(6)
    deal = Deal(rules, (b1, b2, b3, a2, a1, a3), (0, 1))
    position = deal.position(0, 3, (0, 1), (), 0, 0, -1, ((b2,), (b3,)))
    assert Brute(deal).value((0, 3, (0, 1), 0, 0, (), -1, ((b2,), (b3,)))) == 6
    assert Tight(deal).suffice(position, 6)
    assert Search(deal).reach(position, 6) is not None


def test_sound_against_the_brute_force() -> None:
    # Random small deals with one card in hand and few tokens, at every target and however many acts
    # are to spare: where the relaxation says the target cannot be reached, the brute force agrees.
    rng = random.Random(21)
    cut = beyond = 0
    for deal, position, state in islice(small_positions(rng), 150):
        best = Brute(deal).value(state)
        shared = Relaxation(deal, position[3])
        for target in range(sum(position[2]) + 1, sum(position[3]) + 1):
            suffice = shared.suffice(position, target - sum(position[2]))
            assert suffice or best < target, (deal.deck, state, target)
            cut += not suffice
            beyond += not suffice and upper_bound(deal, position) >= target  # (where the other bounds miss it)
    assert cut >= 100 and beyond >= 15, (cut, beyond)


def test_one_relaxation_for_a_whole_game_against_most_plays_asked_afresh() -> None:
    # Random lines of a few 3p-5p Avalanche deals from the opening, each position's question asked
    # of one relaxation kept for the game (its states learnt from every earlier question) and of
    # `clues.most_plays` anew: the same answer at every target, wherever most_plays is small enough.
    rng = random.Random(7)
    compared = 0
    for players in (3, 4, 5):
        settings = Settings(players=players, variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder.PER_SEAT)
        for _ in range(3):
            deal = Deal.of(settings, settings.variant.shuffled_deck(rng.randrange(10**6)))
            position = deal.start()
            kept: dict[tuple[int, ...], Relaxation] = {}
            while deal.status(position) == ONGOING:
                if deal.size - position[1] < 12:
                    most = most_plays_now(deal, position)
                    if most is not None:
                        relaxation = kept.setdefault(position[3], Relaxation(deal, position[3]))
                        for need in range(1, len(needed(deal, position)) + 1):
                            assert relaxation.suffice(position, need) is (most >= need), (deal.deck, position, need)
                        compared += 1
                position = deal.play(position, rng.choice(deal.moves(position)))
    assert compared >= 40, compared


def test_the_search_decides_as_without_it() -> None:
    # Late positions of mostly greedy 3p-5p Avalanche games: the search's best score from each is the
    # same with the question as without it (`SPARE` -1: never asked), and it is asked in most.
    rng = random.Random(3)
    checked = asked = 0
    for players in (3, 4, 5):
        for deal, position in islice(late_positions(players, rng.randrange(10**6), 8), 40):
            best = []
            for spare in (0, -1):
                tight.SPARE = spare
                try:
                    search = Search(deal)
                    score = next(t for t in range(sum(position[3]), -1, -1) if search.reach(position, t) is not None)
                finally:
                    tight.SPARE = 0
                best.append(score)
                asked += spare == 0 and search.tight.explored > 0
            assert best[0] == best[1], (deal.deck, position, best)
            checked += 1
    assert checked == 120 and asked >= 60, (checked, asked)
