"""`hanabi solve` and `hanabi survey`: the solver on fully known deals."""

from __future__ import annotations

import json
import os
import signal
import statistics
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from deducer.cards import Variant, parse_cards
from deducer.complete import known_deck
from deducer.errors import RecordError
from deducer.loader import load_game
from deducer.record import turn_states
from deducer.settings import DealOrder, Ending, Settings, Stuck
from hanabi.cli import app, console, errors, reports_errors
from solver.batch import Job, read_jobs, run_all, wilson
from solver.solve import Solution, solve, solve_from

progress_console = Console(stderr=True)


@app.command("solve")
@reports_errors
def solve_command(
    deck: Annotated[
        str | None, typer.Argument(help='Cards top first, e.g. "r1 g3 b5 ...", or a game file (as --deck-file)')
    ] = None,
    players: Annotated[int, typer.Option("--players", min=2, max=5)] = 3,
    rules: Annotated[Ending, typer.Option("--rules", help="crowning (win or lose) or standard (best score)")] = Ending.CROWNING,
    variant: Annotated[Variant, typer.Option("--variant")] = Variant.BASE,
    choreography: Annotated[bool, typer.Option("--choreography")] = False,
    empty_hints: Annotated[bool, typer.Option("--empty-hints")] = False,
    deal_order: Annotated[DealOrder, typer.Option("--deal")] = DealOrder.ROUND_ROBIN,
    stuck: Annotated[Stuck, typer.Option("--stuck", help="Crowning Piece: a stuck player loses or passes")] = Stuck.LOSE,
    time_limit: Annotated[float | None, typer.Option("--time-limit", min=0.0, help="Seconds per deal; then 'unknown'")] = None,
    deck_file: Annotated[
        Path | None, typer.Option("--deck-file", exists=True, dir_okay=False, help="Our record or a hanab.live game")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="A deck shuffled reproducibly")] = None,
    turn: Annotated[
        int | None,
        typer.Option("--turn", min=0, help="With --deck-file: the game's position after its first N actions, its own rules"),
    ] = None,
    batch: Annotated[Path | None, typer.Option("--batch", exists=True, dir_okay=False, help="One JSON deal per line")] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", min=1, help="Processes for --batch (default: every core)")] = None,
    perfect: Annotated[
        bool, typer.Option("--perfect", help="Standard rules: stop once a perfect score is found or ruled out")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Prove or refute a perfect score for a fully known deal, with the winning line."""
    if deck is not None and deck_file is None:  # `hanabi solve game.json`: no deck of cards is a file's name
        if Path(deck).is_file():
            deck_file, deck = Path(deck), None
        elif _names_a_file(deck):
            raise typer.BadParameter(f"no such file: {deck}", param_hint="DECK")  # (not "not a card: game.json")
    sources = [deck is not None, deck_file is not None, seed is not None, batch is not None]
    if sum(sources) != 1:
        raise typer.BadParameter("give exactly one of DECK, --deck-file, --seed or --batch")
    if batch is not None:
        _batch(batch, jobs, time_limit, perfect)
        return
    settings = Settings(
        players=players,
        variant=variant,
        ending=rules,
        empty_hints=empty_hints,
        choreography=choreography,
        deal=deal_order,
        stuck=stuck,
    )
    seats: tuple[str, ...] = ()
    if turn is not None:
        if deck_file is None:
            raise typer.BadParameter("--turn needs --deck-file", param_hint="--turn")
        _solve_turn(deck_file, turn, time_limit, as_json, perfect)
        return
    if deck_file is not None:
        record = load_game(deck_file)
        if record.deck is None:
            raise RecordError(f"{deck_file} does not hold the full deck order")
        settings = record.settings.with_(ending=rules, stuck=stuck)
        cards = list(record.deck)
        seats = record.seats
    elif seed is not None:
        cards = settings.variant.shuffled_deck(seed)
    else:
        cards = parse_cards(deck or "")
    with _solving() as report, _ctrl_c_stops() as stopped:
        solution = solve(settings, cards, time_limit, stop=stopped.is_set, report=report, perfect=perfect)
    _answer(solution, settings, seats or tuple(f"P{seat}" for seat in range(settings.players)), as_json, stopped.is_set())


def _names_a_file(deck: str) -> bool:
    """Is the deck argument a file's name rather than cards (a path, or a `.json` name)?"""
    return " " not in deck.strip() and (deck.endswith(".json") or "/" in deck or os.sep in deck)


def _solve_turn(path: Path, turn: int, time_limit: float | None, as_json: bool, perfect: bool) -> None:
    record = load_game(path)
    deck = known_deck(record)
    if deck is None:
        raise RecordError(f"{path} does not know its whole deck (cards never revealed): try `hanabi analyze --fill`")
    positions = turn_states(record)
    if turn >= len(positions):
        raise RecordError(f"{path} has {len(positions) - 1} actions: there is no position after action {turn}")
    with _solving() as report, _ctrl_c_stops() as stopped:
        solution = solve_from(positions[turn], deck, time_limit, stop=stopped.is_set, report=report, perfect=perfect)
    _answer(solution, record.settings, record.seats, as_json, stopped.is_set(), first=turn + 1)


def _answer(solution: Solution, settings: Settings, seats: tuple[str, ...], as_json: bool, stopped: bool, first: int = 1) -> None:
    """Print the solution (as JSON or a table); stopped by a Ctrl-C, say so and exit with status 130."""
    if as_json:
        typer.echo(json.dumps(solution.to_json()))
    else:
        show(solution, settings, seats, first)
    if stopped:
        errors.print("interrupted: the best line found so far is shown")
        raise typer.Exit(130)


@contextmanager
def _solving() -> Iterator[Callable[[int, int], None]]:
    """A spinner on a terminal while one deal is solved, with the best score found, the most not yet
    refuted, what a Ctrl-C does and the time elapsed (the few deals that take seconds, or with no time
    limit minutes, show how far they are); yields the solver's `report` for it."""
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}; Ctrl-C stops it and shows the best line"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=progress_console, transient=True, disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task("solving", total=None)

        def report(best: int, top: int) -> None:
            progress.update(task, description=f"solving: best line found {best}, at most {top}")

        yield report


@contextmanager
def _ctrl_c_stops() -> Iterator[threading.Event]:
    """While one deal is solved: an event that the first Ctrl-C sets (the solver then stops as at its
    time limit, with the best line found so far); a second Ctrl-C interrupts at once. Left unset where
    this program does not hear Ctrl-C (outside the main thread, or SIGINT ignored)."""
    stopped = threading.Event()
    hears = threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
    if not hears:
        yield stopped
        return

    def heard(signum: int, frame: FrameType | None) -> None:
        if stopped.is_set():
            raise KeyboardInterrupt
        stopped.set()

    previous = signal.signal(signal.SIGINT, heard)
    try:
        yield stopped
    finally:
        signal.signal(signal.SIGINT, previous)


def show(solution: Solution, settings: Settings, seats: tuple[str, ...], first: int = 1) -> None:
    """The verdict and the line as a table."""
    colour = {"win": "green", "loss": "red", "unknown": "yellow"}[solution.verdict]
    verdict, score, upper, most = f"[bold {colour}]{solution.verdict}[/]", solution.score, solution.upper, solution.max_score
    head = f"{verdict}: best score {score}/{most}"
    if upper > score:  # undecided: the best found, and the most not yet refuted
        head = f"{verdict}: best score found {score}/{most}, at most {upper}"
        if solution.perfect is False:  # (what `--perfect` asks, answered)
            head = f"[bold red]no perfect score[/]: at most {upper}/{most}, the best line found {score}"
    console.print(
        f"{head} "
        f"({settings.ending.value} rules, {settings.players} players, {settings.variant.value}); "
        f"{solution.nodes} positions searched in {solution.seconds:.3f} s"
    )
    if solution.reason:
        console.print(f"why: {solution.reason}")
    table = Table(title="line of play")
    for column in ("turn", "seat", "action"):
        table.add_column(column)
    for turn, action in enumerate(solution.line, first):
        table.add_row(str(turn), seats[action.seat], action.notation(seats).split(" ", 1)[1])
    console.print(table)


def _batch(path: Path, jobs: int | None, time_limit: float | None, perfect: bool) -> None:
    items = read_jobs(path.read_text().splitlines(), time_limit)
    if perfect:  # (for every line: a line may also ask it alone)
        items = [replace(item, perfect=True) if isinstance(item, Job) else item for item in items]
    with Progress(console=progress_console, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("solving", total=len(items))
        for result in run_all(items, jobs, lambda: bar.advance(task)):
            typer.echo(json.dumps(result))


@app.command("survey")
@reports_errors
def survey_command(
    players: Annotated[int, typer.Option("--players", min=2, max=5)] = 3,
    count: Annotated[int, typer.Option("--count", min=1)] = 100,
    variant: Annotated[Variant, typer.Option("--variant")] = Variant.BASE,
    rules: Annotated[Ending, typer.Option("--rules")] = Ending.CROWNING,
    seed: Annotated[int, typer.Option("--seed", help="First deck seed")] = 0,
    time_limit: Annotated[float | None, typer.Option("--time-limit", min=0.0)] = None,
    jobs: Annotated[int | None, typer.Option("--jobs", min=1)] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Solve COUNT random decks: the share that is winnable, with a 95% interval, and the times."""
    settings = Settings(players=players, variant=variant, ending=rules)
    # (Only winnability is asked: under the standard rules, the best score of a deck that cannot be won is not sought.)
    items: list[Job | str] = [
        Job(settings, tuple(variant.shuffled_deck(seed + index)), time_limit, perfect=True) for index in range(count)
    ]
    with Progress(console=progress_console, transient=True, disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("surveying", total=count)
        results = list(run_all(items, jobs, lambda: bar.advance(task)))
    wins = sum(result.get("perfect") is True for result in results)
    decided = sum(result.get("perfect") is not None for result in results)  # (a win, or a proof that none exists)
    times = [float(result.get("seconds", 0.0)) for result in results]
    low, high = wilson(wins, decided)
    share, median, longest = (wins / decided if decided else None), statistics.median(times), max(times)
    summary: dict[str, object] = {
        "players": players,
        "variant": variant.value,
        "rules": rules.value,
        "count": count,
        "decided": decided,
        "winnable": wins,
        "share": share,
        "ci95": [low, high],
        "median_seconds": median,
        "max_seconds": longest,
    }
    if as_json:
        typer.echo(json.dumps(summary))
        return
    console.print(
        f"{wins}/{decided} decks winnable ({share or 0:.1%}, 95% CI {low:.1%}-{high:.1%}); "
        f"{count - decided} undecided; median {median * 1e3:.1f} ms, max {longest:.2f} s per deck"
    )
