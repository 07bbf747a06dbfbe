"""Each member of the solver's portfolio alone on the first question the solver puts to the model.

    python benchmarks/bench_members.py [--players 3 4 5] [--count 200] [--first 0] [--limit 20]
                                       [--variant avalanche] [--deal both] [--set mid|slow] [--seeds 1]
                                       [--ladder] [--kissat] [--only MEMBER ...]

Most deals never reach the model (the bounds, greedy lines and the search decide them in
milliseconds); the portfolio's time is spent on those that do. For each seeded deal (standard rules)
that does, this runs the solver up to its first question to the model (the target, the position, the
endings left open and the best line found, as `solver.questions.ask` receives them), then times each
member alone on that question, one after the other, each with the whole machine:

    cp-sat      CP-SAT with its linear relaxation (seed 1, the best line as its hint)
    cp-sat-nolp CP-SAT without it, told the endings (the second configuration of `solver.race.Question`)
    cadical     CaDiCaL on the question's clauses (`solver.clauses`), in a child process
    glucose     Glucose 4.2 on the same clauses, in this process (interrupted at the limit)

and with `--ladder`, each SAT solver on the clauses with the clue tokens as a ladder, as the
reference SAT encoding has them (`solver.clauses.build(..., ladder=True)`), not the solver's:

    cadical-ladder, glucose-ladder

and with `--kissat`, Kissat in a child process as CaDiCaL is, on both encodings (with three players,
Kissat on the ladder is the solver's rival: `solver.clauses.RIVALS`):

    kissat, kissat-ladder

`--only` keeps the members named (e.g. `--only cadical kissat-ladder`).

Each time includes the member's own build (CP-SAT's model: some 0.4 s; the clauses: some 30 ms).
Prints a row per question (seconds, or - when undecided within `--limit`), then per member the sum
(undecided counted as the limit), the median, and how many took over 1, 2 and 10 s. Use it to choose
the portfolio's schedule from data rather than from the few deals one happens to look at: member
times are heavy-tailed and vary from deal to deal by 100x, and the members fail on different deals.

`--set mid|slow` takes the deals of `bench_hard.py`'s set instead of seeded ones (those of `--players`). `--seeds N` runs
each CP-SAT configuration with seeds 1 to N (a column each: `cp-sat/2` is seed 2): CP-SAT's time on
a question varies severalfold with its seed, which is why the model's later attempts change it.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench_hard import SETS, deals

from deducer.cards import Variant
from deducer.settings import DealOrder, Ending, Settings
from solver import cadical, clauses, race, tops
from solver import climb as climbing
from solver.endings import Heights
from solver.model import Deal, Move, Position
from solver.solve import solve

MEMBERS = ("cp-sat", "cp-sat-nolp", "cadical", "glucose")
LADDERS = ("cadical-ladder", "glucose-ladder")  # (`--ladder`)
KISSAT = ("kissat", "kissat-ladder")  # (`--kissat`)
CP_SAT = MEMBERS[:2]  # the members with a seed (see `--seeds`)


class _Asked(Exception):
    """The solver's first question to the model, caught before it is asked."""

    def __init__(self, root: Position, target: int, line: list[Move], heights: tuple[Heights, ...]) -> None:
        super().__init__("asked")
        self.root, self.target, self.line, self.heights = root, target, line, heights


def _catch(model: Deal, root: Position, target: int, deadline: float | None, line: list[Move], *rest: Any, **named: Any) -> None:
    ends = named.get("ends", rest[2] if len(rest) > 2 else None)
    heights = tuple(ends.open) if ends is not None and ends.score == target else ()
    raise _Asked(root, target, list(line), heights)


def first_question(settings: Settings, seed: int) -> tuple[Deal, _Asked] | None:
    """The deal's model and its first question to the model (None: the deal is decided without it)."""
    deck = settings.variant.shuffled_deck(seed)
    original, glance = vars(climbing)["ask"], tops.GLANCE_AFTER
    setattr(climbing, "ask", _catch)  # noqa: B010 (the benchmark stops the solver where it would ask)
    tops.GLANCE_AFTER = None  # (Glucose's glance would decide some deals before the question)
    try:
        solve(settings, deck, time_limit=60)
    except _Asked as asked:
        return Deal.of(settings, deck), asked
    finally:
        setattr(climbing, "ask", original)  # noqa: B010
        tops.GLANCE_AFTER = glance
    return None


def _cp_sat(deal: Deal, asked: _Asked, limit: float, relaxation: bool, seed: int = 1) -> bool:
    question = race.Question(
        deal, asked.target, limit, asked.root, asked.line, seed, None, False, () if relaxation else asked.heights
    )
    if not relaxation:
        question._solver.parameters.linearization_level = 0  # (the second configuration)
    question.run()
    return question.proven


def _in_child(deal: Deal, asked: _Asked, limit: float, ladder: bool, solver: str = cadical.SOLVER) -> bool:
    """`solver` (CaDiCaL, or Kissat) on the question's clauses in a child process (`solver.cadical.Run`): decided?"""
    run = cadical.Run(clauses.build(deal, asked.target, asked.root, asked.heights, ladder=ladder).clauses, limit, solver)
    try:
        return run.wait(limit + 1) is not None
    finally:
        run.stop()


def _glucose(deal: Deal, asked: _Asked, limit: float, ladder: bool) -> bool:
    from pysat.solvers import Glucose42

    solver = Glucose42(bootstrap_with=clauses.build(deal, asked.target, asked.root, asked.heights, ladder=ladder).clauses)
    timer = threading.Timer(limit, solver.interrupt)
    timer.start()
    try:
        return solver.solve_limited(expect_interrupt=True) is not None
    finally:
        timer.cancel()
        solver.delete()


def timed(member: str, deal: Deal, asked: _Asked, limit: float) -> float | None:
    """Seconds for `member` (a CP-SAT configuration may name its seed: `cp-sat/2`) to decide the
    question alone (None: not within `limit`)."""
    name, _, seed = member.partition("/")
    runs: dict[str, Callable[[], bool]] = {
        "cp-sat": lambda: _cp_sat(deal, asked, limit, True, int(seed or 1)),
        "cp-sat-nolp": lambda: _cp_sat(deal, asked, limit, False, int(seed or 1)),
        "cadical": lambda: _in_child(deal, asked, limit, False),
        "glucose": lambda: _glucose(deal, asked, limit, False),
        "cadical-ladder": lambda: _in_child(deal, asked, limit, True),
        "glucose-ladder": lambda: _glucose(deal, asked, limit, True),
        "kissat": lambda: _in_child(deal, asked, limit, False, cadical.KISSAT),
        "kissat-ladder": lambda: _in_child(deal, asked, limit, True, cadical.KISSAT),
    }
    begin = time.perf_counter()
    decided = runs[name]()
    seconds = time.perf_counter() - begin
    return seconds if decided and seconds <= limit else None


def _summary(name: str, times: Sequence[float | None], limit: float) -> str:
    values = [limit if value is None else value for value in times]
    return (
        f"{name:14} sum {sum(values):7.1f} s  median {statistics.median(values):6.2f} s  over 1 s: "
        f"{sum(v > 1 for v in values):3}  over 2 s: {sum(v > 2 for v in values):3}  over 10 s: "
        f"{sum(v > 10 for v in values):3}  undecided: {sum(value is None for value in times)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="first seed (the others follow)")
    parser.add_argument("--limit", type=float, default=20.0, help="seconds per member and question")
    parser.add_argument("--variant", choices=[variant.value for variant in Variant], default="avalanche")
    parser.add_argument("--deal", choices=["round-robin", "per-seat", "both"], default="both")
    parser.add_argument("--set", choices=sorted(SETS), default=None, help="bench_hard.py's deals instead of seeded ones")
    parser.add_argument("--seeds", type=int, default=1, help="run each CP-SAT configuration with seeds 1 to N")
    parser.add_argument("--ladder", action="store_true", help="also each SAT solver on the clue tokens as a ladder")
    parser.add_argument("--kissat", action="store_true", help="also Kissat (in a child process) on both encodings")
    parser.add_argument("--only", nargs="+", default=None, help="only these members (e.g. cadical kissat-ladder)")
    args = parser.parse_args()
    members = [f"{name}/{seed}" if seed > 1 else name for name in CP_SAT for seed in range(1, args.seeds + 1)]
    members += [name for name in MEMBERS if name not in CP_SAT]
    members += list(LADDERS) if args.ladder else []
    members += list(KISSAT) if args.kissat else []
    members = [member for member in members if args.only is None or member in args.only]
    if not members:
        parser.error(f"--only names none of the members asked for ({', '.join(args.only)}): add --ladder or --kissat?")
    width = max(11, *(len(member) for member in members))
    print(f"{'deal':24} {'target':>6} " + " ".join(f"{member:>{width}}" for member in members), flush=True)
    results: dict[str, list[float | None]] = {member: [] for member in members}
    for settings, seed in _deals(args):
        found = first_question(settings, seed)
        if found is None:
            continue
        deal, asked = found
        row = {member: timed(member, deal, asked, args.limit) for member in members}
        for member, seconds in row.items():
            results[member].append(seconds)
        cells = " ".join(f"{'-':>{width}}" if row[m] is None else f"{row[m]:{width}.2f}" for m in members)
        print(f"{settings.players}p {settings.deal.value:12} {seed:6}   {asked.target:4} {cells}", flush=True)
    if not results[members[0]]:
        print("no deal reached the model")
        return
    print(f"\n{len(results[members[0]])} questions, {args.limit:g} s each at most")
    for member in members:
        print(_summary(member, results[member], args.limit))


def _deals(args: argparse.Namespace) -> list[tuple[Settings, int]]:
    """The deals asked for: `bench_hard.py`'s set, or the seeded ones of each table size and deal order."""
    if args.set is not None:
        return [(settings, seed) for settings, seed in deals(SETS[args.set]) if settings.players in args.players]
    orders = [DealOrder.ROUND_ROBIN, DealOrder.PER_SEAT] if args.deal == "both" else [DealOrder(args.deal)]
    variant = Variant(args.variant)
    return [
        (Settings(players=players, variant=variant, ending=Ending.STANDARD, deal=order), seed)
        for players in args.players
        for order in orders
        for seed in range(args.first, args.first + args.count)
    ]


if __name__ == "__main__":
    main()
