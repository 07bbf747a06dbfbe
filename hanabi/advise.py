"""`hanabi advise`: every legal move of the seat to act, what it tells and risks, ranked."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table

from deducer.actions import resolve_seat
from deducer.advice import TIERS, Option, advise
from deducer.errors import NotationError
from deducer.loader import load_game
from deducer.tracker import Tracker
from hanabi.cli import GameFile, JsonFlag, app, console, reports_errors

_TIER_STYLE = {1: "green", 2: "green", 3: "cyan", 4: "", 5: "yellow", 6: "", 7: "dim", 8: "red"}


@app.command("advise")
@reports_errors
def advise_command(
    game: GameFile,
    turn: Annotated[int | None, typer.Option("--turn", min=0, help="After the first N actions. Default: now.")] = None,
    seat: Annotated[
        str | None, typer.Option("--seat", help="The seat to advise; without --turn, its latest turn to act.")
    ] = None,
    as_json: JsonFlag = False,
) -> None:
    """Rank every legal move of the seat to act: chances for plays and discards, bits and effects for hints."""
    record = load_game(game)
    chosen = None
    if seat is not None:
        try:
            chosen = resolve_seat(seat, record.seats, prefix=True)
        except NotationError as error:
            raise typer.BadParameter(str(error), param_hint="--seat") from None
    tracker = Tracker(record)
    advice = advise(tracker, turn, chosen)
    if as_json:
        typer.echo(json.dumps(advice.to_json(record.seats)))
        return
    state = tracker.state_at(advice.turn)
    console.print(
        f"[bold]{state.name(advice.seat)}[/] to act after {advice.turn} turns: fireworks {state.fireworks_text()}, "
        f"clues {state.clues}, strikes {state.strikes}, deck {state.deck_left}"
        + (" [yellow](approximate: the record does not hold every card)[/]" if advice.approximate else ""),
        highlight=False,
    )
    table = Table(show_lines=False)
    for column in ("#", "move", "chance / bits", "why"):
        table.add_column(column, justify="right" if column in ("#", "chance / bits") else "left")
    for rank, option in enumerate(advice.actions, 1):
        style = _TIER_STYLE[option.tier]
        table.add_row(str(rank), option.action.notation(record.seats), _figure(option), option.reason, style=style)
    console.print(table)
    console.print("[dim]Ranked by tier: " + "; ".join(f"{tier} {name}" for tier, name in TIERS.items()) + ".[/]")
    for note in advice.skipped:
        console.print(f"[dim]not weighed: {note}[/]", highlight=False)


def _figure(option: Option) -> str:
    if option.kind == "play" and option.p_playable is not None:
        return f"{option.p_playable:.0%} playable"
    if option.kind == "discard" and option.p_trash is not None:
        return f"{option.p_trash:.0%} trash"
    if option.kind == "hint":
        return "?" if option.bits is None else f"{option.bits:.2f} bits"
    return ""
