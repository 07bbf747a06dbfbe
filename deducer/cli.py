"""The `hanabi` command line: a thin shell over the library (replay, knowledge)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from deducer.actions import Discard, Draw, Event, Hint, Move, Play
from deducer.errors import HanabiError
from deducer.game import GameState
from deducer.loader import load_game
from deducer.record import GameRecord, replay
from deducer.rules import rating
from deducer.settings import Ending

app = typer.Typer(help="Hanabi deduction assistant and solver.", no_args_is_help=True, add_completion=False)
console = Console()
errors = Console(stderr=True)


@app.callback()
def _group() -> None:
    """Hanabi deduction assistant and solver."""


P = ParamSpec("P")
R = TypeVar("R")

GameFile = Annotated[Path, typer.Argument(help="Our JSON log or a hanab.live JSON export.", exists=True, dir_okay=False)]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn library errors into a one-line message and exit status 1."""

    @wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except HanabiError as error:
            errors.print(f"[bold red]error:[/] {error}", highlight=False)
            raise typer.Exit(1) from None

    return wrapper


def outcome(record: GameRecord, final: GameState) -> dict[str, Any]:
    """The summary of a replayed game, as `hanabi replay --json` prints it."""
    standard = record.settings.ending is Ending.STANDARD
    return {
        "players": list(record.seats),
        "settings": record.settings.to_json(),
        "turns": final.turn,
        "score": final.score,
        "max_score": record.settings.variant.max_score,
        "end": final.end.value if final.end else None,
        "rating": rating(final.score, record.settings.variant) if standard and final.end else None,
        "won": final.won,
        "strikes": final.strikes,
        "clues": final.clues,
        "fireworks": {suit.letter: height for suit, height in zip(record.settings.variant.suits, final.fireworks)},
        "source": record.meta.get("source", "log"),
    }


def _result(before: GameState, after: GameState, event: Event) -> str:
    if isinstance(event, Play):
        card = event.card
        if after.strikes > before.strikes:
            return f"[red]misplays {card}[/] (strike {after.strikes})"
        return f"[green]plays {card}[/]"
    if isinstance(event, Discard):
        return f"discards {event.card}"
    if isinstance(event, Hint):
        slots = ",".join(str(slot) for slot in event.touched or ()) or "no card"
        return f"{event.clue} → {before.name(event.target)} [{slots}]"
    if isinstance(event, Move):
        return f"moves slot {event.source} to {event.dest}"
    return event.notation(before.seats)


@app.command("replay")
@reports_errors
def replay_command(game: GameFile, as_json: JsonFlag = False) -> None:
    """Replay a game turn by turn and show how it ended."""
    record = load_game(game)
    states = replay(record)
    final = states[-1]
    summary = outcome(record, final)
    if as_json:
        typer.echo(json.dumps(summary))
        return
    table = Table(
        title=f"{game.name}: {', '.join(record.seats)} ({record.settings.variant.value}, {record.settings.ending.value})"
    )
    for column in ("turn", "player", "action", "draws", "clues", "strikes", "score"):
        table.add_column(column, justify="right" if column in ("turn", "clues", "strikes", "score") else "left")
    rows: list[list[str]] = []
    for index, event in enumerate(record.events):
        before, after = states[index], states[index + 1]
        if isinstance(event, Draw):
            if not before.dealing and rows:
                rows[-1][3] = str(event.card) if event.card else "?"
            continue
        rows.append(
            [
                str(after.turn) if after.turn != before.turn else "",
                before.name(event.seat),
                _result(before, after, event),
                "",
                str(after.clues),
                str(after.strikes),
                str(sum(after.fireworks)),
            ]
        )
    for row in rows:
        table.add_row(*row)
    console.print(table)
    if final.end is None:
        console.print(
            f"Game in progress after {final.turn} turns: fireworks {final.fireworks_text()}, score so far {final.score}."
        )
        return
    words = f" ({summary['rating']})" if summary["rating"] else (" (won)" if final.won else " (lost)")
    console.print(
        f"Final score [bold]{final.score}[/]/{summary['max_score']}{words}; the game ended: {_END_WORDS[final.end.value]}."
    )


_END_WORDS = {
    "strikes": "third strike",
    "complete": "every firework complete",
    "final-round": "the final round after the last draw was played",
    "lost-card": "an indispensable card was lost",
    "stuck": "a player was stuck with no card and no legal hint",
    "terminated": "stopped before its end (terminated)",
}
