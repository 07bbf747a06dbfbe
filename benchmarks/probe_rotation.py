"""Probe a candidate bound for issue 12: the late cards' seats and clue tokens, followed from the deal.

    python benchmarks/probe_rotation.py 5:round-robin:8329 [--threshold 46] [--suits gwm] [--loose 22]
                                        [--compiled | --only-compiled]

Standard rules, Avalanche, the opening deal of the seeded deck. Asks a relaxation whether every needed
card can still be played (a perfect score), for each chain arrival `j` (the latest 8, or `--threshold`):

- tracked: the needed cards that can only be played after deck card `j` is drawn (`solver.bounds.arrivals`),
  of the suits `--suits` (all by default; any subset is a relaxation too). Each is played in its suit's
  order, on the turn of a seat holding a copy. Who holds what is exact from the deal: a card dealt is in
  its seat's hand, a card drawn is in the hand of the seat whose act drew it. `--loose` deck positions
  are instead held by every seat from the start (a further relaxation, to see which draws matter).
- every other needed card is one of `K` "other" plays: any seat may make one at any act, in any order;
  the `F` fives among them earn a clue token.
- an act may also let go of a card (a discard or a misplay; it earns a token) while the pace lasts: the
  acts left, less the cards needed.
- a hint spends a token and passes the turn; tokens start as dealt, 8 at most. Hand size, strikes and
  the lower cards' order are ignored.

Every real line that plays every needed card is a line of the relaxation, so "refuted" proves that 30
cannot be reached. The states are (seat, tracked cards played, seats holding each tracked card) per act,
each with the Pareto front of (tokens, non-earning plays made), more of either being better; the search
goes forward act by act. On the won deals of seeds 0-59 (3 and 4 players, both deal orders, and part of
5 players round-robin), with at most 7 cards tracked, it never refuted.

What it showed (issue 12's note of this stop): on 5p round-robin 8329 (best score 29, which the SAT
solvers take 2.5-13 s to prove), `j` = 46 with m1-m5, g3-g5 and w2-w5 is refuted. Every suit is
needed, and the exact holders of five of the six tracked cards drawn before deck card 46 (all but
`--loose 22`); a prototype started one act after the deal (any seat, 8 tokens) found a line. It takes
3 million states, 40-50 s here: only a compiled core could make it a bound.

What a compiled core gives, measured: `--compiled` builds probe_rotation.c (the same search in C,
`cc -O2`), asks it too and stops if the two disagree on the verdict or the count of states; on
8329 at `j` = 46, 0.32 s against 40-50 s (the same 3,026,232 states), where the SAT solvers take 2.5-13 s.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from deducer.cards import Variant
from deducer.settings import DealOrder, Ending, Settings
from solver.bounds import arrivals
from solver.model import Deal, Position

TOKENS = 8

Key = tuple[int, tuple[int, ...], tuple[int, ...]]  # (seat to act, played per tracked suit, seats holding each tracked card)
Front = list[tuple[int, int]]  # Pareto-best (tokens, non-earning plays made)
K = TypeVar("K")


@dataclass(frozen=True)
class Probe:
    """One question to the relaxation and its answer."""

    threshold: int
    tracked: tuple[int, ...]
    others: int
    line: bool  # the relaxation plays every needed card
    states: int
    seconds: float


def _add(fronts: dict[K, Front], key: K, tokens: int, plain: int) -> None:
    front = fronts.setdefault(key, [])
    if any(t >= tokens and p >= plain for t, p in front):
        return
    front[:] = [(t, p) for t, p in front if not (tokens >= t and plain >= p)]
    front.append((tokens, plain))


@dataclass(frozen=True)
class Problem:
    """The relaxation's question at one chain arrival: what `probe` and the compiled search are given."""

    threshold: int  # the chain arrival asked at
    players: int
    seat: int  # to act first
    tokens: int
    drawing: int  # acts that draw a card (the deck left)
    tracked: tuple[int, ...]  # card ids
    others: int  # the other needed cards
    held: tuple[int, ...]  # per tracked card, the seats holding a copy (a bit each)
    arriving: tuple[tuple[int, ...], ...]  # per act, the tracked cards (indices) its draw brings
    chains: tuple[tuple[int, ...], ...]  # the tracked cards (indices) of each suit, in order
    fives: tuple[bool, ...]  # per tracked card
    earning_fives: int  # among the other plays, those that earn a token
    plain_needed: int  # other plays that earn none
    earning_allowed: int  # discards and other fives, within the pace

    @property
    def steps(self) -> dict[int, tuple[int, int]]:
        """Per tracked card, (its chain, its place in the chain)."""
        return {i: (s, k) for s, chain in enumerate(self.chains) for k, i in enumerate(chain)}

    @property
    def hopeless(self) -> bool:
        """Too few acts left to let go of cards for the other fives: refuted before any search."""
        return self.earning_allowed < self.earning_fives

    def text(self) -> str:
        """The problem as the compiled search reads it (see probe_rotation.c)."""
        step = self.steps
        head = (self.players, self.seat, self.tokens, self.drawing, len(self.tracked), len(self.chains))
        lines = [" ".join(map(str, (*head, self.earning_allowed, self.plain_needed, self.earning_fives)))]
        lines += [f"{self.held[i]} {int(self.fives[i])} {step[i][0]} {step[i][1]}" for i in range(len(self.tracked))]
        lines += [" ".join(map(str, (len(chain), *chain))) for chain in self.chains]
        lines += [" ".join(map(str, (len(cards), *cards))) for cards in self.arriving]
        return "\n".join(lines) + "\n"


def problem(
    deal: Deal, position: Position, threshold: int, suits: set[int] | None = None, loose: frozenset[int] = frozenset()
) -> Problem:
    """The relaxation's question from `position`, tracking the cards arriving at `threshold` or later (see the module)."""
    rules = deal.rules
    players, ranks = rules.players, rules.ranks
    seat0, drawn, _, _, tokens0, _, final, hands = position
    if final >= 0:
        raise ValueError("the probe starts before the final round")
    demand = arrivals(deal, position)
    tracked = sorted(card for card, arrival in demand if arrival >= threshold and (suits is None or card // ranks in suits))
    others = [card for card, _ in demand if card not in tracked]
    index = {card: i for i, card in enumerate(tracked)}
    held = [0] * len(tracked)
    for seat, hand in enumerate(hands):
        for card in hand:
            if card in index:
                held[index[card]] |= 1 << seat
    drawing = deal.size - drawn
    arriving: list[list[int]] = [[] for _ in range(drawing)]
    for card in tracked:
        for place in deal.places[card]:
            if place in loose:
                held[index[card]] = (1 << players) - 1
            elif place >= drawn:
                arriving[place - drawn].append(index[card])
    suits_tracked = sorted({card // ranks for card in tracked})
    chains = tuple(tuple(i for i, card in enumerate(tracked) if card // ranks == suit) for suit in suits_tracked)
    earning_fives = sum(card % ranks == ranks - 1 for card in others)
    plain_needed = len(others) - earning_fives
    earning_allowed = drawing + players - len(tracked) - plain_needed
    fives = tuple(card % ranks == ranks - 1 for card in tracked)
    return Problem(
        threshold, players, seat0, tokens0, drawing, tuple(tracked), len(others), tuple(held), tuple(map(tuple, arriving)),
        chains, fives, earning_fives, plain_needed, earning_allowed,
    )  # fmt: skip


def probe(question: Problem) -> Probe:
    """Whether the relaxation of the module can play every needed card (`question`)."""
    began = time.perf_counter()
    players, seat0, tokens0, drawing = question.players, question.seat, question.tokens, question.drawing
    tracked, chains, fives, arriving = question.tracked, question.chains, question.fives, question.arriving
    earning_fives, plain_needed, earning_allowed = question.earning_fives, question.plain_needed, question.earning_allowed
    held = question.held
    step = question.steps
    states = 0

    def done(line: bool) -> Probe:
        return Probe(question.threshold, tracked, question.others, line, states, time.perf_counter() - began)

    if question.hopeless:
        return done(False)

    def short(left: int, played: int, plain: int, earned: int) -> bool:
        """Too few acts left for what is still needed."""
        return left < (len(tracked) - played) + (plain_needed - plain) + max(0, earning_fives - earned)

    def moves(key: Key, entries: list[tuple[int, int, int]], left: int, draw: tuple[int, ...]) -> list[tuple[Key, int, int, int]]:
        """(next key, tokens, plain, earned) after each act of `key`'s seat from each of `entries`
        (tokens, plain, earned), with `left` acts or turns after this one."""
        seat, played, hold = key
        bit, following, count = 1 << seat, (seat + 1) % players, sum(played)
        out = []
        for tokens, plain, earned in entries:
            for s, chain in enumerate(chains):
                if played[s] < len(chain) and hold[chain[played[s]]] & bit and not short(left, count + 1, plain, earned):
                    i = chain[played[s]]
                    after = played[:s] + (played[s] + 1,) + played[s + 1 :]
                    hand = _drawn(hold[:i] + (0,) + hold[i + 1 :], after, bit, draw)
                    out.append(((following, after, hand), min(TOKENS, tokens + fives[i]), plain, earned))
            if earned < earning_allowed and not short(left, count, plain, earned + 1):
                out.append(((following, played, _drawn(hold, played, bit, draw)), min(TOKENS, tokens + 1), plain, earned + 1))
            if plain < plain_needed and not short(left, count, plain + 1, earned):
                out.append(((following, played, _drawn(hold, played, bit, draw)), tokens, plain + 1, earned))
        return out

    def _drawn(hold: tuple[int, ...], played: tuple[int, ...], bit: int, draw: tuple[int, ...]) -> tuple[int, ...]:
        for i in draw:
            s, k = step[i]
            if k >= played[s]:  # (a copy of a card already played changes nothing)
                hold = hold[:i] + (hold[i] | bit,) + hold[i + 1 :]
        return hold

    layer: dict[Key, Front] = {}
    _add(layer, (seat0, (0,) * len(chains), tuple(held)), tokens0, 0)
    for act in range(drawing):
        pending = list(layer.items())  # hints before the act: a token each, the turn passes
        while pending:
            hinted = []
            for (seat, played, hold), front in pending:
                for tokens, plain in front:
                    key = ((seat + 1) % players, played, hold)
                    if tokens and not any(t >= tokens - 1 and p >= plain for t, p in layer.get(key, ())):
                        _add(layer, key, tokens - 1, plain)
                        hinted.append((key, [(tokens - 1, plain)]))
            pending = hinted
        states += sum(len(front) for front in layer.values())
        following: dict[Key, Front] = {}
        for key, front in layer.items():
            entries = [(tokens, plain, act - sum(key[1]) - plain) for tokens, plain in front]  # every act so far earned or not
            for after, tokens, plain, _ in moves(key, entries, drawing - act - 1 + players, arriving[act]):
                _add(following, after, tokens, plain)
        layer = following
        if not layer:
            return done(False)
    # The final round: one turn each, from the seat after the last drawer; a hint now uses a turn, so the
    # earning acts are no longer the acts less the plays: they are counted beside the key.
    turns: dict[tuple[Key, int], Front] = {}
    for key, front in layer.items():
        for tokens, plain in front:
            _add(turns, (key, drawing - sum(key[1]) - plain), tokens, plain)
    for turn in range(players):
        left = players - turn - 1
        after_turn: dict[tuple[Key, int], Front] = {}
        for (key, earned), front in turns.items():
            states += len(front)
            seat, played, hold = key
            for later, tokens, plain, now in moves(key, [(t, p, earned) for t, p in front], left, ()):
                _add(after_turn, (later, now), tokens, plain)
            for tokens, plain in front:  # a hint uses the turn
                if tokens and not short(left, sum(played), plain, earned):
                    _add(after_turn, (((seat + 1) % players, played, hold), earned), tokens - 1, plain)
        turns = after_turn
    line = any(
        sum(key[1]) == len(tracked) and earned >= earning_fives and any(p == plain_needed for _, p in front)
        for (key, earned), front in turns.items()
    )
    return done(line)


def compiled(directory: Path) -> Path:
    """probe_rotation.c, compiled (`cc -O2`) into `directory`."""
    binary = directory / "probe_rotation"
    source = Path(__file__).with_suffix(".c")
    subprocess.run(["cc", "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def probe_compiled(binary: Path, question: Problem) -> Probe:
    """`probe`, by the compiled search (its own clock: the search, not the process or the input)."""
    if question.hopeless:
        return Probe(question.threshold, question.tracked, question.others, False, 0, 0.0)
    answer = subprocess.run([str(binary)], input=question.text(), capture_output=True, text=True, check=True).stdout.split()
    return Probe(question.threshold, question.tracked, question.others, answer[0] == "line", int(answer[1]), float(answer[2]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("deals", nargs="+", help="players:deal order:seed, e.g. 5:round-robin:8329")
    parser.add_argument("--threshold", type=int, action="append", help="a chain arrival to ask at (default: the latest 8)")
    parser.add_argument("--suits", help="the tracked suits' letters (e.g. gwm; default: all)")
    parser.add_argument("--loose", default="", help="deck positions whose tracked card every seat holds from the start")
    parser.add_argument("--compiled", action="store_true", help="also ask probe_rotation.c (needs cc), and compare")
    parser.add_argument("--only-compiled", action="store_true", help="ask probe_rotation.c alone")
    args = parser.parse_args()
    loose = frozenset(int(place) for place in args.loose.split(",") if place)
    with tempfile.TemporaryDirectory(prefix="probe_rotation_") as directory:
        binary = compiled(Path(directory)) if args.compiled or args.only_compiled else None
        for spec in args.deals:
            ask(spec, args, loose, binary)


def ask(spec: str, args: argparse.Namespace, loose: frozenset[int], binary: Path | None) -> None:
    """Ask the relaxation about one deal (`players:deal order:seed`) at each threshold, and print the answers."""
    players, order, seed = spec.split(":")
    settings = Settings(players=int(players), variant=Variant.AVALANCHE, ending=Ending.STANDARD, deal=DealOrder(order))
    deal = Deal.of(settings, settings.variant.shuffled_deck(int(seed)))
    position = deal.start()
    letters = [suit.letter for suit in settings.variant.suits]
    suits = None if args.suits is None else {letters.index(letter) for letter in args.suits}
    thresholds = args.threshold or sorted({arrival for _, arrival in arrivals(deal, position)}, reverse=True)[:8]
    for threshold in thresholds:
        question = problem(deal, position, threshold, suits, loose)
        answers = [] if args.only_compiled else [("python", probe(question))]
        if binary is not None:
            answers.append(("compiled", probe_compiled(binary, question)))
        names = " ".join(f"{letters[suit]}{rank}" for suit, rank in map(deal.card, question.tracked))
        for how, found in answers:
            verdict = "a line" if found.line else "refuted"
            size = f"{found.states:9d} states {found.seconds:7.3f} s"
            print(f"{spec} j={threshold:2d} {how:8s} {verdict:7s} {size} others {found.others}, tracked: {names}", flush=True)
        if len({(found.line, found.states) for _, found in answers}) > 1:
            raise SystemExit(f"{spec} j={threshold}: the two searches disagree")


if __name__ == "__main__":
    main()
