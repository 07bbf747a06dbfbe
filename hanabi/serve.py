"""`hanabi serve`: the table companion, a phone web app on this machine."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated

import typer

from hanabi.cli import app, console, reports_errors


def _lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address: str = probe.getsockname()[0]
            return address
    except OSError:
        return None


@app.command("serve")
@reports_errors
def serve_command(
    host: Annotated[str, typer.Option("--host", help="0.0.0.0 lets a phone on the same network connect.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535)] = 8000,
    games: Annotated[Path | None, typer.Option("--games", file_okay=False, help="Folder of game files.")] = None,
) -> None:
    """Serve the table companion: record a game by taps on a phone, with exact knowledge after every event."""
    import uvicorn  # the web stack loads only for this command

    from hanabi.web.app import create_app
    from hanabi.web.store import default_folder

    folder = games if games is not None else default_folder()
    application = create_app(folder)
    console.print(f"games in {folder}")
    console.print(f"open http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/ on this machine")
    if host in ("0.0.0.0", "::"):
        address = _lan_address()
        if address:
            console.print(f"or http://{address}:{port}/ from a phone on the same network")
    uvicorn.run(application, host=host, port=port, log_level="warning")
