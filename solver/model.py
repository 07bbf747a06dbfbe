"""A compact model of a fully known deal, for search.

Cards are integers (`suit * ranks + rank - 1`); a card that can never be played
any more (already played, or a lower rank of its suit is gone) becomes `TRASH`,
so that trash cards are interchangeable. A position is a plain tuple:

    (player, drawn, fireworks, caps, clues, strikes, final, hands)

`drawn` counts cards taken from the deck, `caps[s]` is the highest rank suit `s`
can still reach, `final` is the number of turns left in the standard final round
(-1 before it), and `hands` holds one sorted tuple of cards per player (with full
information the order of a hand does not matter). With full information a hint
only spends a clue token and passes the turn, so all hints are one move.

The rules are those of `deducer` (RULES.md); `tests/test_solver_model.py` plays
random games through both and compares them. `Rules` also describes reduced
games (fewer suits, ranks or cards in hand) for brute-force cross-checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from deducer.cards import COPIES, Card, Suit, Variant
from deducer.settings import MAX_CLUES, MAX_STRIKES, Ending, Settings, Stuck

TRASH = -1
PLAY, ANNOUNCE, DISCARD, MISPLAY, HINT, PASS = range(6)
WON, LOST, OVER, ONGOING = "won", "lost", "over", "ongoing"

Hands = tuple[tuple[int, ...], ...]
Position = tuple[int, int, tuple[int, ...], tuple[int, ...], int, int, int, Hands]
Move = tuple[int, int]


@dataclass(frozen=True)
class Rules:
    """The rules a search needs: card set, table size and options."""

    suits: int = 5
    ranks: int = 5
    copies: tuple[int, ...] = (3, 2, 2, 2, 1)  # per rank
    single_suits: int = 0  # trailing suits with one copy of each rank (multicolour)
    players: int = 3
    hand_size: int = 5
    ending: Ending = Ending.CROWNING
    choreography: bool = False
    empty_hints: bool = False
    stuck: Stuck = Stuck.LOSE

    @classmethod
    def of(cls, settings: Settings) -> Rules:
        """The rules of a `deducer` game."""
        avalanche = settings.variant is Variant.AVALANCHE
        return cls(
            suits=len(settings.variant.suits),
            copies=tuple(COPIES[rank] for rank in range(1, 6)),
            single_suits=1 if avalanche else 0,
            players=settings.players,
            hand_size=settings.hand_size,
            ending=settings.ending,
            choreography=settings.choreography,
            empty_hints=settings.empty_hints,
            stuck=settings.stuck,
        )

    @property
    def max_score(self) -> int:
        return self.suits * self.ranks

    def copies_of(self, card: int) -> int:
        suit, rank = divmod(card, self.ranks)
        return 1 if suit >= self.suits - self.single_suits else self.copies[rank]


def card_id(card: Card, suits: Sequence[Suit]) -> int:
    """The model's integer for a `deducer` card of a 5-rank variant with these suits."""
    return suits.index(card.suit) * 5 + card.rank - 1


def card_ids(deck: Sequence[Card], variant: Variant) -> list[int]:
    """`card_id` of each card of `deck` (KeyError for a suit not in `variant`)."""
    before = _before(variant)
    return [before[card.suit] + card.rank for card in deck]


@cache
def _before(variant: Variant) -> dict[Suit, int]:
    """Each suit's id of rank 1, less 1 (a dict: a suit hashes at C speed, where `tuple.index` is a call)."""
    return {suit: index * 5 - 1 for index, suit in enumerate(variant.suits)}


@cache
def _rules(settings: Settings) -> Rules:
    """`Rules.of(settings)`, made once per settings (a frozen value)."""
    return Rules.of(settings)


class Deal:
    """A fully known deal: the rules, the deck order and how the opening hands are dealt."""

    def __init__(self, rules: Rules, deck: Sequence[int], deal_seats: Sequence[int]) -> None:
        self.rules = rules
        self.deck = tuple(deck)
        self.size = len(deck)
        self.deal_seats = tuple(deal_seats)
        self.max_score, self.standard = rules.max_score, rules.ending is Ending.STANDARD  # (read at every position)
        self.ranks, self.players = rules.ranks, rules.players
        cards = rules.suits * rules.ranks
        # after[d][c]: copies of card c at deck positions >= d; next_at[d][c]: the first deck position
        # >= d holding card c (size if none). Both built from the bottom of the deck up.
        copies, first = [0] * cards, [self.size] * cards
        self.after = [tuple(copies)] * (self.size + 1)
        self.next_at = [tuple(first)] * (self.size + 1)
        for position in range(self.size - 1, -1, -1):
            card = self.deck[position]
            copies[card] += 1
            first[card] = position
            self.after[position] = tuple(copies)
            self.next_at[position] = tuple(first)
        # places[c]: the deck positions holding card c, in order; last_at[c]: the last one (-1 if none).
        places: list[list[int]] = [[] for _ in range(cards)]
        for position, card in enumerate(self.deck):
            places[card].append(position)
        self.places = tuple(tuple(row) for row in places)
        self.last_at = tuple(row[-1] if row else -1 for row in places)

    @classmethod
    def of(cls, settings: Settings, deck: Sequence[Card]) -> Deal:
        """The deal of a `deducer` deck (top first)."""
        return cls(_rules(settings), card_ids(deck, settings.variant), settings.deal_seats())

    def card(self, card: int) -> tuple[int, int]:
        """(suit index, rank) of a card id."""
        suit, rank = divmod(card, self.rules.ranks)
        return suit, rank + 1

    # ----- positions -------------------------------------------------------
    def start(self) -> Position:
        """The position after the opening deal."""
        rules = self.rules
        hands: list[list[int]] = [[] for _ in range(rules.players)]
        for position, seat in enumerate(self.deal_seats):
            hands[seat].append(self.deck[position])
        fireworks = (0,) * rules.suits
        caps = (rules.ranks,) * rules.suits
        dealt = len(self.deal_seats)
        final = rules.players if dealt == self.size and self.standard else -1
        return (0, dealt, fireworks, caps, MAX_CLUES, 0, final, tuple(tuple(sorted(hand)) for hand in hands))

    def position(
        self,
        player: int,
        drawn: int,
        fireworks: Sequence[int],
        discarded: Sequence[int],
        clues: int,
        strikes: int,
        final: int,
        hands: Sequence[Sequence[int]],
    ) -> Position:
        """The canonical position of a game in progress (cards as ids, `discarded` with the misplays):
        each suit's cap is the lowest rank above its firework whose copies are all gone, and every
        card that can no longer be played becomes `TRASH`, as `play` would have made it."""
        ranks = self.rules.ranks
        caps = [ranks] * len(fireworks)
        for card, count in Counter(discarded).items():  # (only the cards discarded can lower a cap)
            suit, rank = divmod(card, ranks)
            if fireworks[suit] <= rank < caps[suit] and count >= self.rules.copies_of(card):
                caps[suit] = rank
        heights, tops = tuple(fireworks), tuple(caps)
        canonical = tuple(tuple(sorted(TRASH if self.trash(card, heights, tops) else card for card in hand)) for hand in hands)
        return (player, drawn, heights, tops, clues, strikes, final, canonical)

    def status(self, position: Position) -> str:
        """WON, LOST (strikes, a lost card, stuck), OVER (standard game ended) or ONGOING."""
        player, drawn, fireworks, caps, _, strikes, final, hands = position
        if sum(fireworks) == self.max_score:
            return WON
        if strikes >= MAX_STRIKES:
            return LOST
        if self.standard:
            return OVER if final == 0 else ONGOING
        if any(cap < self.rules.ranks for cap in caps) or (drawn == self.size and not any(hands)):
            return LOST
        if not hands[player] and not self.can_hint(position) and self.rules.stuck is Stuck.LOSE:
            return LOST
        return ONGOING

    def score(self, position: Position) -> int:
        """The score if the game ended here (0 after the third strike; crowning: all or nothing)."""
        if position[5] >= MAX_STRIKES:
            return 0
        total = sum(position[2])
        if not self.standard and total < self.max_score:
            return 0
        return total

    def can_hint(self, position: Position) -> bool:
        player, hands = position[0], position[7]
        if position[4] == 0:
            return False
        return self.rules.empty_hints or any(hands[:player]) or any(hands[player + 1 :])

    def playable(self, fireworks: tuple[int, ...], card: int) -> bool:
        return card != TRASH and fireworks[card // self.rules.ranks] == card % self.rules.ranks

    def available(self, position: Position, card: int) -> int:
        """Copies of `card` still in a hand or in the deck."""
        count = self.after[position[1]][card]
        for hand in position[7]:
            count += hand.count(card)
        return count

    def moves(self, position: Position) -> list[Move]:
        """Every distinct legal move of the player to act (the position must be ongoing)."""
        player, _, fireworks, _, clues, strikes, _, hands = position
        rules = self.rules
        crowning = not self.standard
        result: list[Move] = []
        last: int | None = None
        # Dominance: with a trash card in hand, letting go of any other card (discard or misplay) is
        # never better. Mirror argument: whatever a line does later with the trash card, the line that
        # kept the other card does with it instead (a successful play where the other misplays only
        # adds a point and saves a strike; a later copy it cannot play any more it misplays instead).
        holds_trash = TRASH in hands[player]
        ranks, choreography = rules.ranks, rules.choreography
        may_discard = clues < MAX_CLUES
        may_misplay = clues == MAX_CLUES and strikes + 1 < MAX_STRIKES  # (and only a card not playable: see below)
        for card in hands[player]:
            if card == last:
                continue
            last = card
            playable = card != TRASH and fireworks[card // ranks] == card % ranks
            if playable:
                result.append((PLAY, card))
                if choreography:
                    result.append((ANNOUNCE, card))
            if card != TRASH and (holds_trash or (crowning and self.available(position, card) == 1)):
                continue  # not spare (see above), or lethal: never let go of it
            if may_discard:
                result.append((DISCARD, card))
            # Dominance: below 8 clue tokens, discarding a card is never worse than misplaying it. The
            # discard line mirrors the misplay line with one clue more and one strike less; where the
            # latter discards at 7 clues, the former (at 8) misplays, or plays, that card instead, after
            # which the two positions are the same (or better by a firework and a strike).
            elif may_misplay and (choreography or not playable):
                result.append((MISPLAY, card))
        if self.can_hint(position):
            result.append((HINT, -1))
        elif not hands[player] and crowning and rules.stuck is Stuck.PASS:
            result.append((PASS, -1))
        return result

    def play(self, position: Position, move: Move) -> Position:
        """The position after `move`, its draw and the turn passing."""
        player, drawn, fireworks, caps, clues, strikes, final, hands = position
        kind, card = move
        ranks, players = self.ranks, self.players
        if final > 0:
            final -= 1
        following = player + 1 if player + 1 < players else 0
        if kind in (HINT, PASS):
            return (following, drawn, fireworks, caps, clues - (kind == HINT), strikes, final, hands)
        cards = list(hands[player])
        cards.remove(card)
        suit = card // ranks
        # The cards this move makes trash, ids `dead` to `dead_end` - 1 (none if equal). No hand holds
        # any other card that can never be played (`start`, `position` and `play` keep it so): a play
        # makes trash of the other copies of the card played; a lost last copy, of its suit's cards from
        # it up to the suit's cap.
        dead = dead_end = 0
        if kind in (PLAY, ANNOUNCE):
            fireworks = fireworks[:suit] + (fireworks[suit] + 1,) + fireworks[suit + 1 :]
            bonus = (card % ranks == ranks - 1) + (kind == ANNOUNCE)
            if bonus:
                clues = min(MAX_CLUES, clues + bonus)
            dead, dead_end = card, card + 1
        else:
            if kind == DISCARD:
                clues += 1
            else:
                strikes += 1
            if card != TRASH and self.available(position, card) == 1:
                dead, dead_end = card, suit * ranks + caps[suit]
                caps = caps[:suit] + (card % ranks,) + caps[suit + 1 :]
        if drawn < self.size:
            new = self.deck[drawn]
            new_suit, new_rank = divmod(new, ranks)
            cards.append(TRASH if new_rank < fireworks[new_suit] or new_rank >= caps[new_suit] else new)  # (`trash`)
            drawn += 1
            if drawn == self.size and self.standard:
                final = players
        cards.sort()
        hands = hands[:player] + (tuple(cards),) + hands[player + 1 :]
        if dead_end > dead:
            hands = self._bury(hands, dead, dead_end)
        return (following, drawn, fireworks, caps, clues, strikes, final, hands)

    @staticmethod
    def _bury(hands: Hands, dead: int, dead_end: int) -> Hands:
        """`hands` with each card of an id from `dead` to `dead_end` - 1 made TRASH (most often no hand
        holds any: `hands` itself). Only the hands that hold one are rebuilt."""
        changed: list[tuple[int, ...]] | None = None
        if dead_end == dead + 1:  # (a play: the other copies of the card played)
            for seat, hand in enumerate(hands):
                if dead in hand:
                    changed = changed or list(hands)
                    changed[seat] = (TRASH,) * hand.count(dead) + tuple([other for other in hand if other != dead])
        elif not frozenset(range(dead, dead_end)).isdisjoint(sum(hands, ())):
            dying = range(dead, dead_end)
            changed = list(hands)
            for seat, hand in enumerate(hands):
                kept = tuple([other for other in hand if other not in dying])
                if len(kept) < len(hand):
                    changed[seat] = (TRASH,) * (len(hand) - len(kept)) + kept  # (TRASH sorts first)
        return hands if changed is None else tuple(changed)

    def trash(self, card: int, fireworks: tuple[int, ...], caps: tuple[int, ...]) -> bool:
        """True when `card` can never be played: its firework is past it, or a lower card of its suit is lost."""
        suit, rank = divmod(card, self.rules.ranks)
        return rank < fireworks[suit] or rank >= caps[suit]
