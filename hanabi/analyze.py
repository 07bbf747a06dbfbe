"""`hanabi analyze`: where the perfect game slipped away, and which moves were mistakes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from deducer.actions import view_seat
from deducer.cards import parse_cards
from deducer.complete import fill_unknown
from deducer.errors import NotationError
from deducer.loader import load_game
from deducer.record import atomic_write
from hanabi.cli import GameFile, JsonFlag, app, console, reports_errors
from hanabi.report import render
from solver.analysis import TIME_LIMIT, Analysis, analyze

_SEVERITY_STYLE = {"mistake": "red", "unlucky": "yellow", "note": "dim"}


@app.command("analyze")
@reports_errors
def analyze_command(
    game: GameFile,
    seat: Annotated[str | None, typer.Option("--seat", help="Judge only this seat's actions.")] = None,
    fill: Annotated[
        str | None,
        typer.Option("--fill", help="The cards never revealed, in deck order (e.g. 'r4 b2 ...'): makes the deck known."),
    ] = None,
    as_json: JsonFlag = False,
    html: Annotated[Path | None, typer.Option("--html", dir_okay=False, help="Also write the report as one HTML page.")] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.1, help="Seconds for each position solved.")] = TIME_LIMIT,
) -> None:
    """Best reachable score after every action, the turn the game was lost, and each action judged from its actor's view."""
    record = load_game(game)
    if fill is not None:
        record = fill_unknown(record, parse_cards(fill))
    judged = None
    if seat is not None:
        try:
            judged = view_seat(seat, record.seats)
        except NotationError as error:
            raise typer.BadParameter(str(error), param_hint="--seat") from None
    analysis = analyze(record, judged, time_limit)
    if html is not None:
        atomic_write(html, render(analysis, game.stem))
    if as_json:
        typer.echo(json.dumps(analysis.to_json()))
        return
    show(analysis)
    if html is not None:
        console.print(f"report written to {html}")


def show(analysis: Analysis) -> None:
    """The turn table and the summary, for the terminal."""
    summary = analysis.summary()
    table = Table(
        title=f"{', '.join(summary['players'])}: {summary['settings']['variant']}, {summary['settings']['ending']} rules"
    )
    for column in ("turn", "action", "clues", "strikes", "score", "best", "flags"):
        table.add_column(column, justify="right" if column in ("turn", "clues", "strikes", "score", "best") else "left")
    for turn in analysis.turns:
        best = "" if turn.best_after is None else str(turn.best_after)
        if turn.drop:
            best = f"[bold red]{best}[/]"
        flags = "\n".join(f"[{_SEVERITY_STYLE[flag.severity.value]}]{flag.reason}[/]" for flag in turn.flags)
        table.add_row(str(turn.number), turn.words(), str(turn.after.clues), str(turn.after.strikes),
                      str(sum(turn.after.fireworks)), best, flags)  # fmt: skip
    console.print(table)
    verdict = summary["rating"] or ("won" if summary["won"] else "lost")
    console.print(f"Score [bold]{summary['score']}[/]/{summary['max_score']} ({verdict}).", highlight=False)
    if analysis.deck_note:
        console.print(f"[yellow]{analysis.deck_note}[/]", highlight=False)
    else:
        start = {
            True: "The deck was winnable from the start (full information).",
            False: "The deck was not winnable from the start (full information).",
            None: "Whether the deck was winnable from the start (full information) is left open by the time limit.",
        }[summary["winnable_from_start"]]
        console.print(start, highlight=False)
        for turn in analysis.drops:
            console.print(
                f"turn {turn.number}: {turn.words()}: best score {turn.best_before} -> {turn.best_after}", highlight=False
            )
        if summary["lost_at_turn"]:
            console.print(
                f"Last winnable turn: {summary['last_winnable_turn']}; from there a win was: "
                + "; ".join(summary["continuation"]),
                highlight=False,
            )
        if analysis.undecided:
            console.print(f"[yellow]undecided within the time limit (lower bounds): turns {list(analysis.undecided)}[/]")
        if analysis.unsettled:
            console.print(f"[yellow]a perfect score not ruled out either at turns {list(analysis.unsettled)}[/]")
    mistakes = analysis.mistakes()
    if mistakes:
        console.print("Costliest mistakes:")
        for turn in mistakes[:5]:
            reasons = "; ".join(flag.reason for flag in turn.flags if flag.severity.value == "mistake")
            cost = f" (best score -{turn.drop})" if turn.drop else ""
            console.print(f"  turn {turn.number}: {turn.words()}{cost}{': ' + reasons if reasons else ''}", highlight=False)
            if turn.advice is not None:
                first = turn.advice.action.notation(turn.before.seats)
                console.print(f"    the advisor's first choice: {first} ({turn.advice.reason})", highlight=False)
    console.print(f"Clue tokens spent on hints that told nothing new: {analysis.wasted_clues}", highlight=False)
