"""Where the search has no act to spare: can the cards still needed be played, seat by seat, with
the clue tokens at hand?

Pace (`solver.bounds`) counts the acts left; where the target needs every one of them to play a
card, each card must be played on the turn of a seat holding it, and every turn between two of
them spends a clue token on a hint. The search's bounds forget the tokens (the 5p Avalanche deal
5127 dealt per seat is a win whose last 24 acts must all play, and the search asked for 30 from the
deal spent 37,474 positions in lines that run out of tokens there).

`Relaxation` is `solver.clues`' relaxation from the position's own turn, over every needed card:
each turn the seat to act plays the next card of a suit that it holds (a 5 earns a token), or, with
an act to spare, lets go of any other card and earns a token, or hints and spends one; a play or a
letting go draws the next card, which the seat then holds; after the last draw the final round
goes once round the table. Hand size and strikes are forgotten and a card can always be let go, so
the real game is one of its lines; with no act to spare it is the game itself for what decides it.

Its states (the act, the seat to act, the cards played and who holds the rest) do not depend on the
position it is asked from, so one `Relaxation` for each caps answers every question of a search,
and remembers what it has learnt for all of them: most questions end within a few states of one
already known. Asked afresh each time, with `clues.most_plays`, the relaxation took 135 us a
question and did not pay (5p Avalanche round-robin 3785 3.0 -> 29.4 s); shared, 5127 per seat from
the deal takes 4,984 positions and 0.11 s (0.45 s without it), the solver's 6.9 s 0.46 s.

Asked also where one or two acts are to spare (`SPARE`), with letting go, the questions cost more
than they save: 5127 per seat 205 positions, but on 300 fresh 5p Avalanche deals (seeds 6500-6799)
the 95th percentile 52.6 / 84.6 ms (round-robin / per seat) -> 69.9 / 96.6 ms, against 23.9 / 34.9
ms with none to spare.
"""

from __future__ import annotations

from solver.endgame import STEP, STEP_MASK
from solver.model import Deal, Position

MOST_STATES = 5_000  # new states a question may explore before it is given up (answered "yes")
MOST_KEPT = 400_000  # states the relaxations of a search explore before they are all forgotten (about 130 MB)
SPARE = 0  # the acts to spare where the question is asked (see the module)
TOKENS = 8


class Relaxation:
    """The relaxation of one deal whose needed cards are those below `caps`, for every position."""

    def __init__(self, deal: Deal, caps: tuple[int, ...]) -> None:
        rules = deal.rules
        players, ranks = rules.players, rules.ranks
        self.players, self.ranks, self.size = players, ranks, deal.size
        cards = [suit * ranks + rank for suit, cap in enumerate(caps) for rank in range(cap)]
        self.index = {card: i for i, card in enumerate(cards)}
        self.total = len(cards)
        self.suits = tuple(suit for suit, cap in enumerate(caps) if cap)
        # per suit with needed cards: (its shift in `played`, the shifts in `held` of its cards rank by rank)
        self.suited = tuple(
            (k * STEP, tuple(self.index[suit * ranks + rank] * players for rank in range(caps[suit])))
            for k, suit in enumerate(self.suits)
        )
        self.fives = {self.index[card] * players: card % ranks == ranks - 1 for card in cards}
        # arriving[place]: the card deck card `place` is (its shift in `held`, its suit's in `played`, its rank)
        self.arriving: dict[int, tuple[int, int, int]] = {}
        for k, suit in enumerate(self.suits):
            for rank in range(caps[suit]):
                card = suit * ranks + rank
                for place in deal.places[card]:
                    self.arriving[place] = (self.index[card] * players, k * STEP, rank)
        # A state failed: for each number of clue tokens it failed with, the fewest plays it failed
        # to make; reached: for each, the most it made. Fewer tokens never help (a token is only spent).
        self.failed: dict[tuple[int, int, int, int, int], dict[int, int]] = {}
        self.reached: dict[tuple[int, int, int, int, int], dict[int, int]] = {}
        self.explored = 0  # new states of the question being answered

    def suffice(self, position: Position, need: int) -> bool:
        """Can `need` more needed cards be played from `position` in the relaxation? (True also where
        the question outgrows `MOST_STATES`.)"""
        seat, drawn, fireworks, _, clues, _, final, hands = position
        players, ranks, index = self.players, self.ranks, self.index
        held = 0
        for holder, hand in enumerate(hands):
            for card in hand:
                i = index.get(card)
                if i is not None and card % ranks >= fireworks[card // ranks]:
                    held |= 1 << i * players + holder
        played = 0
        for k, suit in enumerate(self.suits):
            played |= fireworks[suit] << k * STEP
        unplayed = self.total - sum(fireworks[suit] for suit in self.suits)
        act, left = (drawn, -1) if final < 0 else (self.size, final)
        self.explored = 0
        try:
            return self._reach(act, left, seat, clues, played, held, unplayed, need)
        except _TooBig:
            return True

    def _reach(self, act: int, left: int, seat: int, clues: int, played: int, held: int, unplayed: int, need: int) -> bool:
        """Can `need` more cards be played (`unplayed` of them not played yet), the act drawing deck
        card `act` next (or `left` turns of the final round left, -1 while the deck lasts), `seat` to
        act with `clues` tokens?"""
        if need <= 0:
            return True
        players = self.players
        acts = self.size - act + players if left < 0 else left
        if acts < need or unplayed < need:
            return False
        key = (act, left, seat, played, held)
        known = self.failed.get(key)
        if known is not None:
            for tokens, fewest in known.items():  # (a loop, not `any` over a generator: the hot path)
                if tokens >= clues and fewest <= need:
                    return False
        known = self.reached.get(key)
        if known is not None:
            for tokens, most in known.items():
                if tokens <= clues and most >= need:
                    return True
        self.explored += 1
        if self.explored > MOST_STATES:
            raise _TooBig
        bit = 1 << seat
        everyone = (1 << players) - 1
        following = seat + 1 if seat + 1 < players else 0
        # The acts open to `seat`: playing the next card of a suit that it holds, then letting go of another
        # card (only with an act to spare), each as (played, held, clue tokens, unplayed, need) after it.
        options = []
        fives = self.fives
        for at, chain in self.suited:
            step = played >> at & STEP_MASK
            if step < len(chain) and held >> chain[step] & bit:
                shift = chain[step]
                earned = clues + 1 if fives[shift] and clues < TOKENS else clues
                options.append((played + (1 << at), held & ~(everyone << shift), earned, unplayed - 1, need - 1))
        if acts > need:
            options.append((played, held, clues + 1 if clues < TOKENS else TOKENS, unplayed, need))
        if left >= 0:  # the final round: no draw
            after_act, after_left, new = act, left - 1, None
        else:  # the seat draws (a copy of a card already played changes nothing)
            after_act, after_left, new = act + 1, players if act + 1 == self.size else -1, self.arriving.get(act)
        found = False
        for after_played, after_held, after_clues, after_unplayed, after_need in options:
            if new is not None and new[2] >= after_played >> new[1] & STEP_MASK:
                after_held |= bit << new[0]
            if self._reach(after_act, after_left, following, after_clues, after_played, after_held, after_unplayed, after_need):
                found = True
                break
        if not found and clues:  # a hint: no draw
            found = self._reach(act, left - 1 if left >= 0 else -1, following, clues - 1, played, held, unplayed, need)
        memo = self.reached if found else self.failed
        row = memo.setdefault(key, {})
        if found:
            row[clues] = max(row.get(clues, 0), need)
        else:
            row[clues] = min(row.get(clues, need), need)
        return found


class _TooBig(Exception):
    """A question outgrew `MOST_STATES`."""


class Tight:
    """The search's question where pace leaves at most `SPARE` acts to spare (`suffice`), answered by
    a `Relaxation` for each caps."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.relaxations: dict[tuple[int, ...], Relaxation] = {}
        self.explored = 0  # the relaxations' new states, in all
        self.forgotten = 0  # `explored` when they were last forgotten (see `MOST_KEPT`)

    def suffice(self, position: Position, target: int) -> bool:
        """Can `target` still be reached from `position`, as far as the relaxation sees, where at most
        `SPARE` acts are left to spare? True elsewhere, and under rules it does not model (Crowning
        Piece, and Timed Choreography, where an announced play earns a token too)."""
        deal = self.deal
        rules = deal.rules
        if rules.choreography or not deal.standard:
            return True
        final = position[6]
        need = target - sum(position[2])
        acts = final if final >= 0 else deal.size - position[1] + rules.players
        if need <= 0 or acts - need > SPARE:
            return True
        if self.explored - self.forgotten > MOST_KEPT:
            self.relaxations.clear()
            self.forgotten = self.explored
        caps = position[3]
        relaxation = self.relaxations.get(caps)
        if relaxation is None:
            relaxation = self.relaxations[caps] = Relaxation(deal, caps)
        suffice = relaxation.suffice(position, need)
        self.explored += relaxation.explored
        return suffice
