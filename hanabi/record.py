"""`hanabi record`: keep a game at the table, one typed line at a time."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.columns import Columns

from deducer.actions import DEFAULT_SEATS, resolve_seat, view_seat
from deducer.cards import Variant
from deducer.errors import HanabiError, NotationError
from deducer.loader import load_game
from deducer.record import GameRecord, sweep_temporaries
from deducer.settings import Ending, Settings
from deducer.tracker import Tracker
from hanabi.cli import app, card_grid, console, reports_errors

HELP = """Type an event, long form or short (for the player to act):
  Alice hints Bob red (1,3)   |  h bob red (1,3)
  Bob plays 3 (r2)            |  p3 r2        (p3@r: announce red)
  Cathy discards 1 (y4)       |  d1 y4
  Alice draws ?  / Bob draws r3  |  +?  / + r3
  Alice moves 4 to 1          |  m alice 4 1
Commands: show [seat|public], undo, fix N <event>, log, help, quit."""


@app.command("record")
@reports_errors
def record_command(
    game: Annotated[Path, typer.Argument(help="The game file: resumed if it exists, created otherwise.", dir_okay=False)],
    players: Annotated[int, typer.Option("--players", min=2, max=5)] = 3,
    seats: Annotated[str | None, typer.Option("--seats", help="Names, comma separated, first player first.")] = None,
    me: Annotated[str | None, typer.Option("--me", help="Your seat: your own cards are unknown until revealed.")] = None,
    variant: Annotated[Variant, typer.Option("--variant")] = Variant.BASE,
    rules: Annotated[Ending, typer.Option("--rules")] = Ending.STANDARD,
) -> None:
    """Record a game as it is played; saved after every event, resumable, undoable."""
    if game.exists():
        tracker = Tracker(load_game(game), game)
        swept = sweep_temporaries(game)
        note = f"; removed {swept} temporary file{'s' * (swept != 1)} left by an interrupted save" if swept else ""
        console.print(f"resumed {game}: {len(tracker.record.events)} events, turn {tracker.state.turn}{note}")
    else:
        names = tuple(name.strip() for name in seats.split(",")) if seats else DEFAULT_SEATS[:players]
        settings = Settings(players=len(names), variant=variant, ending=rules)
        recorder = None
        if me is not None:
            try:
                recorder = resolve_seat(me, names)
            except NotationError as error:
                raise typer.BadParameter(str(error), param_hint="--me") from None
        tracker = Tracker(GameRecord.new(settings, names, recorder), game)
        tracker.record.save(game)
        console.print(f"new game in {game}: {', '.join(names)}. Type 'help' for the notation.")
    while True:
        state = tracker.state
        who = state.name(tracker.actor())
        prompt = f"[{len(tracker.record.events) + 1}] {who}{' draws' if state.must_draw is not None else ''}> "
        try:
            line = input(prompt).strip()
        except EOFError:
            break
        if not line:
            continue
        if line in ("quit", "exit"):
            break
        try:
            _command(tracker, line)
        except HanabiError as error:
            console.print(f"[red]refused:[/] {error}", highlight=False)
    console.print(f"saved {game} ({len(tracker.record.events)} events)")


def _command(tracker: Tracker, line: str) -> None:
    words = line.split(maxsplit=2)
    record = tracker.record
    if words[0] == "help":
        console.print(HELP, highlight=False)
    elif words[0] == "undo":
        console.print(f"undone: {tracker.undo().notation(record.seats)}")
    elif words[0] == "fix" and len(words) == 3 and words[1].isdigit():
        tracker.correct(int(words[1]), words[2])
        console.print(f"event {words[1]} is now: {tracker.record.events[int(words[1]) - 1].notation(record.seats)}")
    elif words[0] == "log":
        for number, event in enumerate(record.events, 1):
            console.print(f"{number:3} {event.notation(record.seats)}", highlight=False)
    elif words[0] == "show":
        target = words[1] if len(words) > 1 else None
        seat = _seat(tracker, target)
        view = tracker.knowledge(seat)
        console.print(
            f"{view.view} view: fireworks {tracker.state.fireworks_text()}, clues {tracker.state.clues}, "
            f"strikes {tracker.state.strikes}, deck {tracker.state.deck_left}"
        )
        console.print(Columns([card_grid(card, tracker.state) for card in view.cards if seat is None or card.seat == seat]))
    else:
        state = tracker.add(line)
        event = tracker.record.events[-1]
        status = f"clues {state.clues}, strikes {state.strikes}, fireworks {state.fireworks_text()}"
        if state.over and state.end is not None:
            status += f" - game over ({state.end.value}), score {state.score}"
        console.print(f"{event.notation(record.seats)}   [dim]{status}[/]", highlight=False)


def _seat(tracker: Tracker, name: str | None) -> int | None:
    record = tracker.record
    if name is None:
        return record.recorder if record.recorder is not None else tracker.actor()
    return view_seat(name, record.seats)
