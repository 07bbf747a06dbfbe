"""The `hanabi` command line: a thin shell over the library (replay, knowledge)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.columns import Columns
from rich.console import Console
from rich.table import Table

from deducer.actions import Discard, Draw, Event, Hint, Move, Play, view_seat
from deducer.errors import HanabiError, NotationError
from deducer.game import GameState
from deducer.hands import possible_hands
from deducer.knowledge import CardKnowledge, Knowledge
from deducer.loader import load_game
from deducer.record import GameRecord, replay
from deducer.rules import rating
from deducer.schema import log_schema
from deducer.settings import Ending
from deducer.tracker import Tracker
from hanabi.crash import one_line

app = typer.Typer(
    help="Hanabi deduction assistant and solver.", no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False
)
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
    """Turn library errors into a one-line message and exit status 1; any other error (a bug) into
    one line naming the report file, exit status 70. Never a traceback."""

    @wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (typer.TyperException, typer.Exit, typer.Abort):
            raise
        except (Exception, KeyboardInterrupt) as error:
            raise typer.Exit(report(error)) from None

    return wrapper


def report(error: BaseException) -> int:
    """Print the one line for an error that stops the program and return the exit status: 1 for input
    the library refused, 130 for an interrupt, 70 for a bug (with its report file)."""
    if isinstance(error, HanabiError):
        errors.print(f"[bold red]error:[/] {error}", highlight=False, soft_wrap=True)
        return 1
    if isinstance(error, KeyboardInterrupt):
        errors.print("interrupted")
        return 130
    errors.print(f"[bold red]error:[/] {one_line(error)}", highlight=False, soft_wrap=True)
    return 70


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


_STYLE = {"w": "white", "r": "red", "b": "blue", "y": "yellow", "g": "green", "m": "magenta"}


def card_grid(card: CardKnowledge, state: GameState) -> Table:
    """A colour-by-rank grid of one card's candidates with their probabilities."""
    flags = ", ".join(card.flags)
    title = f"{state.name(card.seat)} slot {card.slot}"
    caption = (
        f"{card.facts}" + (f" [bold]{flags}[/]" if flags else "") + f"\nplayable {card.p_playable:.0%} trash {card.p_trash:.0%}"
    )
    grid = Table(title=title, caption=caption, show_edge=True, padding=(0, 0), caption_justify="left")
    grid.add_column("", justify="left")
    for rank in range(1, 6):
        grid.add_column(str(rank), justify="right", min_width=4)
    for suit in state.settings.variant.suits:
        cells = []
        for rank in range(1, 6):
            probability = next((p for c, p in card.probabilities.items() if c.suit is suit and c.rank == rank), None)
            cells.append(f"{probability:.0%}" if probability is not None else "[dim]·[/]")
        grid.add_row(f"[{_STYLE[suit.letter]}]{suit.letter}[/]", *cells)
    return grid


def _view_seat(record: GameRecord, seat: str) -> int | None:
    try:
        return view_seat(seat, record.seats)
    except NotationError as error:
        raise typer.BadParameter(str(error), param_hint="--seat") from None


@app.command("knowledge")
@reports_errors
def knowledge_command(
    game: GameFile,
    seat: Annotated[str, typer.Option("--seat", help="A seat's name, or 'public' for what everybody knows.")],
    turn: Annotated[
        int | None, typer.Option("--turn", min=0, help="After the first N actions (0: the deal). Default: the end.")
    ] = None,
    hands: Annotated[bool, typer.Option("--hands", help="List every hand the seat could be holding.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """What a view knows about each hidden card: candidates, probabilities, flags."""
    record = load_game(game)
    view_seat = _view_seat(record, seat)
    tracker = Tracker(record)
    view: Knowledge = tracker.knowledge(view_seat, turn)
    state = tracker.state_at(turn)
    if hands:
        if view_seat is None:
            raise typer.BadParameter("--hands needs a seat, not the public view", param_hint="--hands")
        listed = possible_hands(state, tracker.facts_at(turn), view_seat)
        if as_json:
            typer.echo(json.dumps([{"hand": [str(c) for c in hand.cards], "probability": hand.probability} for hand in listed]))
            return
        table = Table(title=f"Every hand {state.name(view_seat)} could be holding ({len(listed)})")
        table.add_column("hand (slot 1 first)")
        table.add_column("probability", justify="right")
        for hand in listed:
            table.add_row(" ".join(str(c) for c in hand.cards), f"{hand.probability:.2%}")
        console.print(table)
        return
    if as_json:
        typer.echo(json.dumps([card.to_json(record.seats) for card in view.cards]))
        return
    header = f"{view.view} view after {state.turn} turns: fireworks {state.fireworks_text()}, "
    header += f"clues {state.clues}, strikes {state.strikes}"
    if view.approximate:
        header += " [yellow](approximate: built from what the recorder could see)[/]"
    if not view.exact_probabilities:
        header += " [yellow](probabilities estimated; candidates exact)[/]"
    console.print(header)
    console.print(Columns([card_grid(card, state) for card in view.cards]))


@app.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of our game log format (also in deducer/record.schema.json)."""
    typer.echo(json.dumps(log_schema(), indent=2, ensure_ascii=False))
