"""The companion's web layer: JSON over HTTP around the tracker, and one page of plain JavaScript.

Every route is a thin call into `deducer`; a refusal of bad input is a 4xx with `{"error": why}`
(400 illegal or malformed, 404 unknown game, 409 page behind the game, 422 request shape).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from deducer.actions import DEFAULT_SEATS, Event, resolve_seat
from deducer.cards import Card
from deducer.complete import identify
from deducer.errors import HanabiError
from deducer.hanablive import export_game
from deducer.record import event_from_json
from deducer.schema import SettingsModel
from deducer.settings import Settings
from deducer.tracker import Tracker
from hanabi.crash import one_line
from hanabi.web.store import GameStore, Stale, UnknownGame, fill_auto, undo
from hanabi.web.view import advice_view, game_view

HERE = Path(__file__).parent


class Versioned(BaseModel):
    """A request about a game as the page last saw it: `version` is its event count then (unknown fields refused)."""

    model_config = ConfigDict(extra="forbid")
    version: Annotated[int, Field(ge=0)]


class NewGame(SettingsModel):
    """A game to start: the rule options, seats first player first (their number sets `players`), and `me`
    the recording seat (None: an observer who sees every card)."""

    seats: list[str] | None = None
    me: str | None = None


class Change(Versioned):
    """An event as a JSON object (our log format) or in the notation."""

    event: dict[str, Any] | None = None
    text: Annotated[str, Field(max_length=200)] | None = None


class Fix(Change):
    number: Annotated[int, Field(ge=1)]


class Review(Versioned):
    """Identities for the cards never revealed, by deck position (blank: left unknown)."""

    cards: dict[int, str] = {}
    format: str = "hanablive"


def create_app(folder: Path) -> FastAPI:
    """The companion for the games in `folder`."""
    store = GameStore(folder)
    app = FastAPI(title="Hanabi table companion", docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=HERE / "templates")

    @app.exception_handler(HanabiError)
    def refused(_: Request, error: HanabiError) -> JSONResponse:
        status = 404 if isinstance(error, UnknownGame) else 409 if isinstance(error, Stale) else 400
        return JSONResponse({"error": str(error)}, status_code=status)

    @app.exception_handler(RequestValidationError)
    def malformed(_: Request, error: RequestValidationError) -> JSONResponse:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem.get("loc", ()) if part != "body")
        return JSONResponse({"error": f"{where or 'request'}: {problem.get('msg', 'malformed')}"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
        words = {404: "no such page", 405: "this address does not take that method"}
        return JSONResponse({"error": words.get(error.status_code, str(error.detail))}, status_code=error.status_code)

    @app.exception_handler(Exception)
    def internal(_: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"error": one_line(error)}, status_code=500)

    @app.get("/", response_class=HTMLResponse)
    def page(request: Request) -> Response:
        return templates.TemplateResponse(request, "index.html", {"version": _asset_version()})

    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        return store.games()

    @app.post("/api/games")
    def new_game(body: NewGame) -> dict[str, Any]:
        seats = tuple(name.strip() for name in body.seats) if body.seats else DEFAULT_SEATS[: body.players]
        settings = Settings(**body.model_dump(exclude={"seats", "me"}) | {"players": len(seats)})
        recorder = None if body.me in (None, "") else resolve_seat(body.me, seats)
        game = store.create(settings, seats, recorder)
        with store.session(game) as tracker:
            return game_view(game, tracker)

    @app.get("/api/games/{game}")
    def show(game: str) -> dict[str, Any]:
        with store.session(game) as tracker:
            return game_view(game, tracker)

    @app.get("/api/games/{game}/advice")
    def advice(game: str) -> dict[str, Any]:
        with store.session(game) as tracker:
            return advice_view(tracker)

    @app.post("/api/games/{game}/events")
    def add(game: str, body: Change) -> dict[str, Any]:
        with store.session(game, body.version) as tracker:
            tracker.add(_event(tracker, body))
            fill_auto(tracker)
            return game_view(game, tracker)

    @app.post("/api/games/{game}/undo")
    def undo_last(game: str, body: Versioned) -> dict[str, Any]:
        with store.session(game, body.version) as tracker:
            removed = undo(tracker)
            view = game_view(game, tracker)
            view["undone"] = [event.notation(tracker.record.seats) for event in reversed(removed)]
            return view

    @app.post("/api/games/{game}/fix")
    def fix(game: str, body: Fix) -> dict[str, Any]:
        with store.session(game, body.version) as tracker:
            tracker.correct(body.number, _event(tracker, body))
            fill_auto(tracker)
            return game_view(game, tracker)

    @app.post("/api/games/{game}/export")
    def export(game: str, body: Review) -> Response:
        with store.session(game, body.version) as tracker:
            record = tracker.record
        cards = {position: Card.parse(text) for position, text in body.cards.items() if text}
        if cards:
            record = identify(record, cards)
        if body.format == "hanablive":
            data: Any = export_game(record)
        elif body.format == "log":
            data = record.to_json()
        else:
            raise UnknownFormat(f"export format {body.format!r}: choose hanablive or log")
        headers = {"Content-Disposition": f'attachment; filename="{game}-{body.format}.json"'}
        return JSONResponse(data, headers=headers)

    return app


class UnknownFormat(HanabiError):
    """An export format we do not write."""


def _event(tracker: Tracker, body: Change) -> Event | str:
    if (body.event is None) == (body.text is None):
        raise NoEvent("give the event as 'event' (a JSON object) or as 'text' (the notation), not both")
    if body.event is not None:
        return event_from_json(body.event, tracker.record.seats)
    return str(body.text)


class NoEvent(HanabiError):
    """A change request without exactly one event."""


def _asset_version() -> str:
    stamps = [path.stat().st_mtime_ns for path in (HERE / "static").iterdir()]
    return str(max(stamps) % 10**8 if stamps else 0)
