"""The solver against the brute force on reduced deals larger than the tests' (up to 18 cards).

    python benchmarks/cross_check.py [--count 500] [--seed 0] [--most-cards 18] [--most-states 300000]
                                     [--time-limit 60]

The tests compare `best_line` with `solver.brute` on decks of 9 cards at most, where the bounds seldom
bite. Here the decks are random reduced games of 2-4 suits, 3-5 ranks, 2-5 players and 2-4 cards in hand,
every option drawn at random (both rule sets, both deal orders, Timed Choreography, empty hints, a
stuck player's fate), with up to `--most-cards` cards: the pace, capacity, seats and clue-token bounds
cut there, and the models join. A deal whose brute force would visit more than `--most-states` states is
skipped. Each deal's best score and verdict must be the brute force's (a mismatch is printed with the
deal); an undecided deal is printed too.

Prints the deals checked, skipped, undecided and mismatched (bar 0), and the seconds.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deducer.settings import Ending, Stuck
from solver.brute import Brute, TooBig
from solver.climb import best_line
from solver.model import Deal, Rules

COPIES = ((3, 2, 2, 2, 1), (2, 2, 2, 2, 1), (2, 1, 1, 1, 1), (1, 1, 1, 1, 1))


def medium_deal(rng: random.Random, most_cards: int) -> Deal:
    """A random reduced deal with at least 3 cards beyond the deal and at most `most_cards` in all."""
    while True:
        suits, ranks, players = rng.randint(2, 4), rng.randint(3, 5), rng.randint(2, 5)
        hand = rng.randint(2, 4 if players <= 3 else 3)
        rules = Rules(
            suits=suits,
            ranks=ranks,
            copies=rng.choice(COPIES)[:ranks],
            single_suits=rng.choice([0, 0, 1]),
            players=players,
            hand_size=hand,
            ending=rng.choice(list(Ending)),
            choreography=rng.random() < 0.1,
            empty_hints=rng.random() < 0.2,
            stuck=rng.choice(list(Stuck)),
        )
        deck = [card for card in range(suits * ranks) for _ in range(rules.copies_of(card))]
        if players * hand + 3 <= len(deck) <= most_cards:
            rng.shuffle(deck)
            if rng.random() < 0.5:
                seats = [seat for _ in range(hand) for seat in range(players)]  # round-robin
            else:
                seats = [seat for seat in range(players) for _ in range(hand)]  # per seat
            return Deal(rules, deck, seats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=500, help="deals to check (skipped ones not counted)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--most-cards", type=int, default=18)
    parser.add_argument("--most-states", type=int, default=300_000)
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds for the solver, per deal")
    args = parser.parse_args()
    sys.setrecursionlimit(10_000)  # (the brute force recurses once per turn, a few frames each)
    rng = random.Random(args.seed)
    checked = skipped = undecided = wrong = 0
    begin = time.perf_counter()
    while checked < args.count:
        deal = medium_deal(rng, args.most_cards)
        brute = Brute(deal, args.most_states)
        try:
            truth = brute.value(brute.start())
        except TooBig:
            skipped += 1
            continue
        outcome = best_line(deal, args.time_limit)
        checked += 1
        if outcome.verdict == "unknown":
            undecided += 1
            print(f"undecided: {deal.rules} {deal.deck} {deal.deal_seats} (brute force: {truth})", flush=True)
        elif outcome.score != truth or outcome.upper != truth:
            wrong += 1
            print(f"MISMATCH: {deal.rules} {deal.deck} {deal.deal_seats}: brute force {truth}, solver {outcome}", flush=True)
        if checked % 100 == 0:
            print(f"{checked} checked, {skipped} skipped, {time.perf_counter() - begin:.0f} s", flush=True)
    seconds = time.perf_counter() - begin
    print(f"checked {checked}, skipped {skipped} (over {args.most_states} states), undecided {undecided}, mismatched {wrong}")
    print(f"total {seconds:.0f} s")


if __name__ == "__main__":
    main()
