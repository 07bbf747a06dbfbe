"""The HTML report of an analysis: one self-contained page (inline style, script, SVG; nothing to load).

>>> svg = plot([0, 1, 2], [25, 25, 24], [8, 7, 7], 25)
>>> svg.startswith("<svg") and svg.count("<polyline") == 3
True
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from solver.analysis import Analysis

_ENVIRONMENT = Environment(loader=PackageLoader("hanabi"), autoescape=select_autoescape(["html"]))
WIDTH, HEIGHT, PAD = 640, 240, 32
SUIT_COLOURS = {"w": "#9aa0a6", "r": "#d93025", "b": "#1a73e8", "y": "#f9ab00", "g": "#188038", "m": "#a142f4"}


def render(analysis: Analysis, title: str = "Hanabi game") -> str:
    """The report as one HTML page."""
    turns = analysis.turns
    scores = [sum(turns[0].before.fireworks) if turns else 0] + [sum(turn.after.fireworks) for turn in turns]
    clues = [turns[0].before.clues if turns else 8] + [turn.after.clues for turn in turns]
    page: str = _ENVIRONMENT.get_template("report.html").render(
        title=title,
        summary=analysis.summary(),
        turns=[turn.to_json() for turn in turns],
        plot=Markup(plot(scores, list(analysis.best), clues, analysis.max_score)),
        data={
            "positions": positions(analysis),
            "suits": [suit.letter for suit in analysis.record.settings.variant.suits],
            "plot": {"pad": PAD, "width": WIDTH, "count": max(1, len(turns))},
        },
        colours=SUIT_COLOURS,
    )
    return page


def positions(analysis: Analysis) -> list[dict[str, Any]]:
    """For each position (after N actions): every hand, each card with its identity (when the record
    knows it) and what its holder knew of it."""
    states = [analysis.turns[0].before] if analysis.turns else [analysis.final]
    states += [turn.after for turn in analysis.turns]
    result = []
    for number, state in enumerate(states):
        hands = []
        for seat, hand in enumerate(state.hands):
            view = {card.uid: card for card in analysis.reviewer.view(seat, number).cards}
            cards = []
            for item in hand:
                known = view[item.uid]
                cards.append(
                    {
                        "card": str(item.card) if item.card is not None else "?",
                        "p": {str(candidate): round(p, 3) for candidate, p in known.probabilities.items()},
                        "flags": list(known.flags),
                        "facts": str(known.facts),
                    }
                )
            hands.append({"seat": state.name(seat), "cards": cards})
        result.append(
            {
                "hands": hands,
                "fireworks": state.fireworks_text(),
                "clues": state.clues,
                "strikes": state.strikes,
                "deck": state.deck_left,
                "discards": " ".join(str(card) for card in sorted(state.discards)),
            }
        )
    return result


def plot(scores: list[int], best: list[int | None], clues: list[int], maximum: int) -> str:
    """Score, best reachable score and clue tokens over the turns, as an SVG string."""
    count = max(1, len(scores) - 1)

    def x(turn: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * turn / count

    def y(value: float, top: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * value / top

    def line(values: list[int | None], top: float, colour: str, name: str, dash: str = "") -> str:
        points = " ".join(f"{x(turn):.1f},{y(value, top):.1f}" for turn, value in enumerate(values) if value is not None)
        style = f' stroke-dasharray="{dash}"' if dash else ""
        return f'<polyline class="{name}" fill="none" stroke="{colour}" stroke-width="2.5"{style} points="{points}"/>'

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-label="score, best reachable score and clue tokens per turn">'
    ]
    for value in range(0, maximum + 1, 5):
        parts.append(
            f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(value, maximum):.1f}" y2="{y(value, maximum):.1f}" stroke="#ddd"/>'
        )
        parts.append(f'<text x="{PAD - 6}" y="{y(value, maximum) + 4:.1f}" text-anchor="end" font-size="11">{value}</text>')
    for clue in (0, 4, 8):
        parts.append(f'<text x="{WIDTH - PAD + 6}" y="{y(clue, 8) + 4:.1f}" font-size="11" fill="#1a73e8">{clue}</text>')
    for turn in range(0, count + 1, 10):
        parts.append(f'<text x="{x(turn):.1f}" y="{HEIGHT - PAD + 16}" text-anchor="middle" font-size="11">{turn}</text>')
    if any(value is not None for value in best):
        parts.append(line(best, maximum, "#d93025", "best", "6 3"))
    parts.append(line([int(value) for value in scores], maximum, "#188038", "score"))
    parts.append(line([int(value) for value in clues], 8, "#1a73e8", "clues"))
    parts.append(f'<line id="cursor" x1="{PAD}" x2="{PAD}" y1="{PAD}" y2="{HEIGHT - PAD}" stroke="#555" stroke-width="1"/>')
    parts.append("</svg>")
    return "".join(parts)
