"""Regenerate the regression data of `tests/test_regression.py`: `python tests/data/generate.py [perft|verdicts]`.

Two files, in the spirit of a chess engine's "perft" numbers:

- `perft.json`: how many lines of legal actions of each length (1, 2, 3...) the engine allows from
  fixed positions: the opening deal of seeded decks under several rule options, and positions deep
  into bot games (the moves leading there are kept, in our notation).
- `verdicts.jsonl`: the solver's answer on seeded decks of every set (2-5 players, both variants,
  both endings, both deal orders), each confirmed here by a second argument before it is written:
  a win by replaying its line through the engine; a loss under the standard rules at `s` by CaDiCaL
  on the plain clauses of "a line scoring `s + 1`" (`solver.clauses`: none of the search's bounds),
  which must find none; a loss under Crowning Piece by the constraint model alone (`solver.sat`),
  which must find no winning line. A deal whose loss the second argument does not confirm within
  `CONFIRM` seconds is left out, and so is a deal the solver takes more than `FASTEST` seconds on,
  to keep the test quick. (Under Crowning Piece, the seeds held losses only with two players, hand
  locks that the constraint model did not confirm within its time: those sets keep their wins only.)
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from deducer.actions import Action
from deducer.cards import Card, Variant, format_cards
from deducer.dealer import advance, deal
from deducer.game import GameState
from deducer.playout import bot_action
from deducer.settings import DealOrder, Ending, Settings, Stuck

HERE = Path(__file__).parent
FASTEST = 0.3  # seconds: deals the solver takes longer on are left out of the verdicts
PER_KIND = 2  # wins and losses kept per set
SEEDS = range(1000, 1400)  # the seeds looked at, in order, for each set
UNCONFIRMED = 3  # losses left unconfirmed after which a set's search ends
CONFIRM = 60.0  # seconds for the second argument on a loss


def perft(state: GameState, deck: Sequence[Card], depth: int) -> int:
    """The number of lines of `depth` legal actions from `state` (a line that ends the game sooner
    counts for none, as a mate does in chess)."""
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(perft(advance(state, action, deck), deck, depth - 1) for action in actions)


def _perft_entry(
    settings: Settings, seed: int, depth: int, moves: int = 0, before_end: int | None = None, noise: float = 0.3
) -> dict[str, object]:
    """The counts from the position after the first `moves` actions of a bot game on the deck of
    `seed` (or, with `before_end`, that many actions before the game ends)."""
    deck = settings.variant.shuffled_deck(seed)
    state = deal(GameState.new(settings), deck)
    rng = random.Random(seed)
    line: list[Action] = []
    while not state.over and (before_end is not None or len(line) < moves):
        action = bot_action(state, rng, noise)
        line.append(action)
        state = advance(state, action, deck)
    line = line[: len(line) - before_end] if before_end is not None else line
    state = deal(GameState.new(settings), deck)
    for action in line:
        state = advance(state, action, deck)
    return {
        "settings": settings.to_json(),
        "seed": seed,
        "deck": format_cards(deck),
        "moves": [action.notation() for action in line],
        "counts": [perft(state, deck, d) for d in range(1, depth + 1)],
    }


def perft_data() -> list[dict[str, object]]:
    """Positions chosen to meet every rule that changes what is legal: discards at 8 tokens, hints
    that touch nothing (empty hints), Timed Choreography's announced plays, Crowning Piece's
    shrinking hands once the deck is out, and the final round of the standard ending."""
    avalanche = Variant.AVALANCHE
    per_seat, crowning = DealOrder.PER_SEAT, Ending.CROWNING
    return [
        _perft_entry(Settings(players=2), 1, 4),
        _perft_entry(Settings(players=3, choreography=True), 2, 3),
        _perft_entry(Settings(players=4, variant=avalanche, ending=crowning, empty_hints=True, deal=per_seat), 3, 3),
        _perft_entry(Settings(players=5, variant=avalanche, deal=per_seat), 4, 3),
        _perft_entry(Settings(players=3), 5, 3, moves=30),
        _perft_entry(Settings(players=4, variant=avalanche), 6, 3, before_end=3),  # (in the final round)
        _perft_entry(Settings(players=2, variant=avalanche, ending=crowning, stuck=Stuck.PASS), 7, 4, before_end=6, noise=0.0),
        _perft_entry(Settings(players=3, ending=crowning, empty_hints=True), 8, 3, before_end=8, noise=0.0),
    ]


def _confirmed(settings: Settings, deck: Sequence[Card], verdict: str, score: int) -> str | None:
    """The second argument for a verdict (None: not confirmed)."""
    from solver import cadical, clauses, race, sat
    from solver.model import Deal
    from solver.search import OutOfBudget

    model = Deal.of(settings, deck)
    if verdict == "win":
        return "its line replays as a win"  # (`solve` replays every line through the engine)
    if settings.ending is Ending.STANDARD:
        if not clauses.applies(model):
            return None
        answer = cadical.Run(clauses.build(model, score + 1).clauses, CONFIRM).wait(CONFIRM + 1)
        return f"CaDiCaL finds no line scoring {score + 1}" if answer is False else None
    if not sat.applies(model):
        return None
    try:
        found = race.reach(model, model.rules.max_score, CONFIRM)
    except OutOfBudget:
        return None
    return "the constraint model finds no winning line" if found is None else None


def verdict_data() -> list[dict[str, object]]:
    """`PER_KIND` wins and losses of each set, from `SEEDS` (fewer where the seeds hold fewer)."""
    from solver.solve import solve

    rows: list[dict[str, object]] = []
    for players in (2, 3, 4, 5):
        for variant in Variant:
            for ending in Ending:
                for order in DealOrder:
                    settings = Settings(players=players, variant=variant, ending=ending, deal=order)
                    kept, unconfirmed = {"win": 0, "loss": 0}, 0
                    for seed in SEEDS:
                        if min(kept.values()) >= PER_KIND or unconfirmed >= UNCONFIRMED:
                            break
                        deck = variant.shuffled_deck(seed)
                        began = time.perf_counter()
                        solution = solve(settings, deck, time_limit=10)
                        seconds = time.perf_counter() - began
                        if solution.verdict not in kept or kept[solution.verdict] >= PER_KIND or seconds > FASTEST:
                            continue
                        why = _confirmed(settings, deck, solution.verdict, solution.score)
                        if why is None:
                            print(f"not confirmed: {settings} seed {seed}", file=sys.stderr)
                            unconfirmed += 1
                            continue
                        kept[solution.verdict] += 1
                        rows.append(
                            {
                                "settings": settings.to_json(),
                                "seed": seed,
                                "deck": format_cards(deck),
                                "verdict": solution.verdict,
                                "score": solution.score,
                                "confirmed": why,
                            }
                        )
                    print(f"{players}p {variant.value} {ending.value} {order.value}: {kept}", file=sys.stderr)
    return rows


def main() -> None:
    """Both files, or the one named: `python tests/data/generate.py [perft|verdicts]`."""
    which = sys.argv[1:] or ["perft", "verdicts"]
    if "perft" in which:
        (HERE / "perft.json").write_text(json.dumps(perft_data(), indent=1) + "\n")
    if "verdicts" in which:
        rows = verdict_data()
        (HERE / "verdicts.jsonl").write_text("".join(json.dumps(row) + "\n" for row in rows))


if __name__ == "__main__":
    main()
