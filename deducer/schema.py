"""The declared shape of every JSON document we read: our game log, a deal line, a hanab.live export.

Readers validate through these pydantic models; a document that does not fit is refused with a
`RecordError` naming the field path, the value found and what was expected:

>>> validate(LogModel, {"format": "hanabi-deducer", "version": 1, "events": [{"play": "Alice", "slot": "x"}]})
Traceback (most recent call last):
deducer.errors.RecordError: events[0].slot: expected a whole number 1-5, got "x"

The JSON Schema of our log format (`deducer/record.schema.json`, `hanabi schema`) is generated from
`LogModel`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    Tag,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from deducer.actions import Clue
from deducer.cards import Card, Suit, Variant, parse_cards
from deducer.errors import HanabiError, RecordError
from deducer.settings import DealOrder, Ending, Stuck

T = TypeVar("T")


def _expected(what: str) -> PydanticCustomError:
    return PydanticCustomError("expected", "expected {what}", {"what": what})


def _expect(what: str) -> WrapValidator:
    """Report any failure of the inner validation as `expected <what>`."""

    def wrap(value: Any, handler: Callable[[Any], Any], _: ValidationInfo) -> Any:
        try:
            return handler(value)
        except ValidationError:
            raise _expected(what) from None

    return WrapValidator(wrap)


def _parsed(parse: Callable[[str], Any], what: str, schema: dict[str, Any]) -> tuple[PlainValidator, WithJsonSchema]:
    """A string field read by one of our notation parsers, its error message included."""

    def validate(value: Any) -> Any:
        if not isinstance(value, str):
            raise _expected(what)
        try:
            return parse(value)
        except HanabiError as error:
            raise PydanticCustomError("notation", "{error}", {"error": str(error)}) from None

    return PlainValidator(validate), WithJsonSchema({"type": "string", **schema, "description": what})


def _clue(value: Any) -> Clue:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise _expected("a colour or a rank 1-5")
    try:
        return Clue.parse(value)
    except HanabiError as error:
        raise PydanticCustomError("notation", "{error}", {"error": str(error)}) from None


Slot = Annotated[int, Field(ge=1, le=5), _expect("a whole number 1-5")]
SeatName = Annotated[str, Field(min_length=1), _expect("a seat's name")]
CardValue = Annotated[Card, *_parsed(Card.parse, "a card such as 'r3'", {"pattern": "^[wrbygmWRBYGM][1-5]$"})]
SuitValue = Annotated[Suit, *_parsed(Suit.parse, "a colour letter or name", {"pattern": "^[a-zA-Z]+$"})]
ClueValue = Annotated[
    Clue,
    PlainValidator(_clue),
    WithJsonSchema(
        {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 1, "maximum": 5}], "description": "a colour or a rank"}
    ),
]
DeckValue = Annotated[
    tuple[Card, ...],
    *_parsed(lambda text: tuple(parse_cards(text)), "cards top first, e.g. 'r1 g3 b5'", {}),
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


class SettingsModel(_Strict):
    """The rule options of RULES.md; a missing key takes its default."""

    players: Annotated[int, Field(ge=2, le=5), _expect("a whole number 2-5")] = 3
    variant: Annotated[Variant, Field(strict=False)] = Variant.BASE
    ending: Annotated[Ending, Field(strict=False)] = Ending.STANDARD
    empty_hints: bool = False
    choreography: bool = False
    deal: Annotated[DealOrder, Field(strict=False)] = DealOrder.ROUND_ROBIN
    stuck: Annotated[Stuck, Field(strict=False)] = Stuck.LOSE


class DrawModel(_Strict):
    """`seat` draws the top card (null: not seen by the recorder)."""

    draw: SeatName
    card: CardValue | None = None


class HintModel(_Strict):
    """`hint` (the giver) hints `target`; `touched` lists the slots pointed at (optional)."""

    hint: SeatName
    target: SeatName
    clue: ClueValue
    touched: list[Slot] | None = None
    partial: bool = False


class PlayModel(_Strict):
    """`play` plays the card in `slot`, revealed as `card`; `announce` is the Timed Choreography colour."""

    play: SeatName
    slot: Slot
    card: CardValue | None = None
    announce: SuitValue | None = None


class DiscardModel(_Strict):
    """`discard` discards the card in `slot`, revealed as `card`."""

    discard: SeatName
    slot: Slot
    card: CardValue | None = None


class MoveModel(_Strict):
    """`move` moves a card of their hand from one slot to another."""

    move: SeatName
    source: Annotated[Slot, Field(alias="from")]
    dest: Annotated[Slot, Field(alias="to")]


class PassModel(_Strict):
    """A stuck player passes (Crowning Piece, stuck=pass)."""

    pass_: Annotated[SeatName, Field(alias="pass")]


class EndModel(_Strict):
    """The game was stopped before its natural end (hanab.live's 'game over')."""

    end: SeatName
    code: Annotated[int, Field(ge=0), _expect("a whole number ≥ 0")] = 0


KINDS = ("draw", "hint", "play", "discard", "move", "pass", "end")


def _kind(value: Any) -> str | None:
    if isinstance(value, BaseModel):
        return next(kind for kind in KINDS if kind in type(value).model_fields or f"{kind}_" in type(value).model_fields)
    if not isinstance(value, dict):
        return None
    present = [kind for kind in KINDS if kind in value]
    return present[0] if len(present) == 1 else None


EventModel = Annotated[
    Annotated[DrawModel, Tag("draw")]
    | Annotated[HintModel, Tag("hint")]
    | Annotated[PlayModel, Tag("play")]
    | Annotated[DiscardModel, Tag("discard")]
    | Annotated[MoveModel, Tag("move")]
    | Annotated[PassModel, Tag("pass")]
    | Annotated[EndModel, Tag("end")],
    Discriminator(
        _kind,
        custom_error_type="expected",
        custom_error_message="expected an object with exactly one of the keys draw, hint, play, discard, move, pass, end",
    ),
]


class LogModel(_Strict):
    """A game in our log format: settings, seats (first player first), events in order, the deck when known."""

    model_config = ConfigDict(title="hanabi-deducer game log")

    format: Literal["hanabi-deducer"]
    version: Literal[1]
    settings: SettingsModel = SettingsModel()
    seats: Annotated[list[SeatName], Field(min_length=2, max_length=5)] | None = None
    recorder: SeatName | None = None
    deck: DeckValue | None = None
    events: list[EventModel] = []
    meta: dict[str, Any] = {}


class DealLineModel(_Strict):
    """One line of a `hanabi solve --batch` file: a deal and its rules."""

    deck: DeckValue | None = None
    seed: Annotated[int, Field(ge=0), _expect("a whole number ≥ 0")] | None = None
    players: Annotated[int, Field(ge=2, le=5), _expect("a whole number 2-5")] = 3
    rules: Annotated[Ending, Field(strict=False)] = Ending.CROWNING
    variant: Annotated[Variant, Field(strict=False)] = Variant.BASE
    deal: Annotated[DealOrder, Field(strict=False)] = DealOrder.ROUND_ROBIN
    choreography: bool = False
    empty_hints: bool = False
    stuck: Annotated[Stuck, Field(strict=False)] = Stuck.LOSE
    time_limit: Annotated[float, Field(ge=0, strict=False), _expect("a number of seconds ≥ 0")] | None = None
    perfect: bool = False  # standard rules: decide only whether a perfect score is reachable


# ----- hanab.live ----------------------------------------------------------
HanabInt = Annotated[int, _expect("a whole number")]


class HanabCardModel(BaseModel):
    """A deck card: suit index into the variant's suits and rank (-1, -1: never identified)."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)
    suitIndex: HanabInt
    rank: HanabInt


class HanabActionModel(BaseModel):
    """An action: type 0 play, 1 discard, 2 colour clue, 3 rank clue, 4 game over."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)
    type: Annotated[int, Field(ge=0, le=4), _expect("an action type 0-4")]
    target: HanabInt
    value: HanabInt | None = None


class HanabOptionsModel(BaseModel):
    """The options we read; the others are kept as they are."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)
    variant: Annotated[str, _expect("a variant name")] = "No Variant"
    allOrNothing: bool | None = None
    emptyClues: bool | None = None
    oneExtraCard: bool | None = None
    oneLessCard: bool | None = None
    detrimentalCharacters: bool | None = None
    startingPlayer: HanabInt | None = None


class HanabGameModel(BaseModel):
    """A hanab.live game export: `players`, `deck`, `actions`; other keys are kept."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)
    players: Annotated[list[SeatName], Field(min_length=2, max_length=5), _expect("a list of 2 to 5 player names")]
    deck: list[HanabCardModel]
    actions: list[HanabActionModel]
    options: HanabOptionsModel | None = None


# ----- errors --------------------------------------------------------------
_EXPECTED = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "bool_type": "true or false",
    "string_type": "a string",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "none_required": "null",
}


def describe(error: ValidationError) -> str:
    """The first problem of a validation error, as `path: expected what, got value`."""
    problem = error.errors(include_url=False)[0]
    path = _path(problem["loc"])
    where = f"{path}: " if path else ""
    kind, context = problem["type"], problem.get("ctx") or {}
    got = _shown(problem.get("input"))
    if kind == "missing":
        return f"{where}required, but missing"
    if kind == "extra_forbidden":
        return f"{where}unknown field (set to {got})"
    if kind == "notation":
        return f"{where}{context['error']}"
    if kind == "expected":
        return f"{where}{problem['msg']}, got {got}"
    if kind in ("enum", "literal_error"):
        return f"{where}expected {context.get('expected', 'one of the listed values')}, got {got}"
    if kind in _EXPECTED:
        return f"{where}expected {_EXPECTED[kind]}, got {got}"
    return f"{where}{problem['msg'][:1].lower()}{problem['msg'][1:]}, got {got}"


def _path(location: tuple[int | str, ...]) -> str:
    text = ""
    for part in location:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part in KINDS and text.endswith("]"):
            continue  # the union's tag, not a field
        else:
            text += f".{part}" if text else str(part)
    return text


def _shown(value: Any, limit: int = 60) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _adapter(kind: Any) -> TypeAdapter[Any]:
    if kind not in _ADAPTERS:
        _ADAPTERS[kind] = TypeAdapter(kind)
    return _ADAPTERS[kind]


def validate(kind: type[T], data: Any, where: str = "") -> T:
    """`data` read as `kind` (a model, or a type such as `EventModel`), or a `RecordError` saying
    where and why it does not fit."""
    try:
        value: T = _adapter(kind).validate_python(data)
        return value
    except ValidationError as error:
        raise RecordError(f"{where}{describe(error)}") from None


def log_schema() -> dict[str, Any]:
    """The JSON Schema of our log format."""
    schema = LogModel.model_json_schema(by_alias=True)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
