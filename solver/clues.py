"""The last turns of a standard game, turn by turn: the seats in order, and clue tokens for the hints.

Pace counts the acts (plays and discards) left after a deck card is drawn, and
`solver.endgame` who holds which late card; neither sees that the turns go round
the table in order. When the late cards take nearly every act left, each of them
must be played on the turn of a seat holding it; between two such plays the
other seats either hint, which spends one of at most 8 clue tokens, or let go of
another card, which spends an act. With five players that rotation is costly
(5p Avalanche round-robin 301: the 19 cards that can only be played after deck
card 41 is drawn fit the 19 plays and discards left then, but not the tokens:
one is lost, where the constraint model took 4 s to refute 30).

`tokens_lost` takes the cards that can only be played after the draw of deck card
`j` (their chain arrival is `j` or later) and plays the rest of the game in a
relaxation, from the turn that draws `j` on: the seat to act then is any (the
position's own if that turn is the next), with 8 clue tokens (or the position's).
Each turn, the seat to act plays one of those cards that it holds, whose rank
below among them is played (a 5 earns a token); or lets go of any other card
(every seat is assumed to have one, and it always earns a token); or hints,
spending a token. A play or a letting go draws the next card while the deck
lasts, which the seat then holds; after the last draw the final round goes once
round the table. Cards drawn before `j` since the position may be in any hand;
cards in hand stay where they are. Everything else (the cards below the late
ones, hand size, strikes) is relaxed, so the real game is one of the
relaxation's lines: the late cards it cannot play are never played.

The relaxation from an earlier draw, with more late cards, loses at least as
many: a line of it, from the turn that draws the later `j` on, is a line of the
later relaxation (whose late cards it cannot have played before that draw), its
plays of the other cards turned into letting go of a card, with as many tokens
or more. Whether any card is lost is asked of the relaxation with the most late
cards (small enough to be searched) alone; the count, of each from the fewest
cards up, each asked only whether it loses more than the ones before (a
quicker search).
"""

from __future__ import annotations

from solver.endgame import STEP, STEP_MASK, late_groups, one_a_turn, whereabouts
from solver.model import Deal, Position

SLACK = 3  # run where the late cards number at least the acts left less this (from the act drawing `j`)
MOST_CARDS = 24  # and this many at most
MOST_STATES = 20_000  # a relaxation bigger than this is left to the other bounds
TOKENS = 8


def tokens_lost(
    deal: Deal, position: Position, demand: list[tuple[int, int]], known: int = 0, exact: bool = True
) -> tuple[int, int]:
    """(needed cards the relaxation cannot play, the deck position `j` showing it), when more than
    `known` (a number of lost cards already shown by another bound); else (`known`, -1). Not `exact`:
    only whether more than `known` are lost (the count is then `known + 1`).

    `demand`: (card, chain arrival) for each needed card, as `bounds.arrivals` gives it."""
    rules = deal.rules
    if rules.choreography:  # (an announced play earns a token too: not modelled)
        return known, -1
    final, last = position[6], deal.size - 1
    best, where = known, -1
    holders: dict[int, int] = {}  # (see `endgame.whereabouts`)
    groups = list(late_groups(demand, MOST_CARDS))
    for threshold, group in groups if exact else reversed(groups):
        count = len(group)
        start = max(threshold, position[1]) if final < 0 else deal.size
        acts = final if final >= 0 else last - start + 1 + rules.players
        if count < acts - SLACK or count <= best:
            continue
        cards = sorted(card for card, _ in group)
        plays = _plays(deal, position, holders, cards, start, count - best, exact)
        if plays is None:
            continue  # too big a relaxation: it shows nothing
        if count - plays > best:
            best, where = count - plays, threshold
        if not exact:
            break  # the later cards lose no more than these (see the module)
    return best, where


def _plays(
    deal: Deal, position: Position, holders: dict[int, int], cards: list[int], start: int, most: int, exact: bool
) -> int | None:
    """`most_plays` for these late cards of `position`, from the turn that draws deck card `start`."""
    rules = deal.rules
    players, drawn, final = rules.players, position[1], position[6]
    masks, tail = whereabouts(deal, position, holders, cards, start)
    now = start == drawn or final >= 0  # the next turn is the relaxation's first: its seat and tokens are known
    seats = (position[0],) if now else tuple(range(players))
    tokens = position[4] if now else TOKENS
    return most_plays(players, rules.ranks, deal.size - start, tail, final, seats, tokens, tuple(cards), masks, most, exact)


def most_plays(
    players: int,
    ranks: int,
    drawing: int,
    tail: tuple[tuple[int, int], ...],
    final: int,
    seats: tuple[int, ...],
    tokens: int,
    cards: tuple[int, ...],
    masks: tuple[int, ...],
    most: int,
    exact: bool = True,
) -> int | None:
    """The most of `cards` (sorted; a top segment of each suit) the relaxation can play, up to `most`.

    `masks[i]`: the seats that may hold a copy of `cards[i]` now. `drawing` acts still draw, and
    `tail` says which of them draw which of `cards` (act, card); then the final round, `players` turns
    (if the deck is already empty: `final` turns). The first turn is taken by one of `seats` with
    `tokens` clue tokens. Too big a relaxation answers None. Not `exact`: `most`, or `most - 1` when
    fewer can be played (enough to show a card lost).

    The cards are held in a state of two integers, as in `endgame.most_plays`: `played`, `STEP` bits
    per suit (its cards played), and `held`, `players` bits per card (the seats that may hold it;
    cleared when it is played)."""
    everyone = (1 << players) - 1
    suits = sorted({card // ranks for card in cards})
    # shifts[s][k]: where the seats of suit `suits[s]`'s k-th card (rank by rank) are in `held`
    shifts = tuple(tuple(i * players for i, card in enumerate(cards) if card // ranks == suit) for suit in suits)
    suited = [(s * STEP, chain, len(chain)) for s, chain in enumerate(shifts)]
    fives = {i * players: int(card % ranks == ranks - 1) for i, card in enumerate(cards)}  # (by shift in `held`)
    # arriving[act]: the card it draws (its shift in `held`, its suit's shift in `played`, its step in the suit)
    arriving = {}
    for act, card in tail:
        i = cards.index(card)
        s = suits.index(card // ranks)
        arriving[act] = (i * players, s * STEP, shifts[s].index(i * players))
    # A state failed: for each number of clue tokens it failed with, the fewest plays it failed to make. Fewer
    # tokens never help (a token is only ever spent), so it fails with as many tokens or fewer, and as many plays or more.
    failed: dict[tuple[int, int, int, int, int], dict[int, int]] = {}

    def reach(act: int, left: int, seat: int, clues: int, played: int, held: int, unplayed: int, need: int) -> bool:
        """Can `need` more cards be played (`unplayed` of them not played yet), with `act` acts done and
        `left` turns of the final round left (-1 while the deck lasts), `seat` to act with `clues` tokens?"""
        if need <= 0:
            return True
        acts = drawing - act + players if left < 0 else left
        if acts < need or unplayed < need:
            return False
        key = (act, left, seat, played, held)
        known = failed.get(key)
        if known is not None:
            for tokens, fewest in known.items():  # (a loop, not `any` over a generator: the hot path)
                if tokens >= clues and fewest <= need:
                    return False
        if len(failed) >= MOST_STATES:
            raise _TooBig
        bit = 1 << seat
        following = seat + 1 if seat + 1 < players else 0
        # The acts open to `seat`: playing the next card of a suit that it holds, then letting go of another
        # card (only with an act to spare), each as (played, held, clue tokens, unplayed, need) after it.
        options = []
        for at, chain, length in suited:
            step = played >> at & STEP_MASK
            if step < length and held >> chain[step] & bit:
                shift = chain[step]
                earned = clues + fives[shift]
                after = earned if earned < TOKENS else TOKENS
                options.append((played + (1 << at), held & ~(everyone << shift), after, unplayed - 1, need - 1))
        if acts > need:
            options.append((played, held, clues + 1 if clues < TOKENS else TOKENS, unplayed, need))
        if left >= 0:  # the final round: no draw
            for after_played, after_held, after_clues, after_unplayed, after_need in options:
                if reach(act, left - 1, following, after_clues, after_played, after_held, after_unplayed, after_need):
                    return True
        else:  # the seat draws (a copy of a card already played changes nothing), and the next turn
            new, over = arriving.get(act), players if act + 1 == drawing else -1
            for after_played, after_held, after_clues, after_unplayed, after_need in options:
                if new is not None and new[2] >= after_played >> new[1] & STEP_MASK:
                    after_held |= bit << new[0]
                if reach(act + 1, over, following, after_clues, after_played, after_held, after_unplayed, after_need):
                    return True
        if clues and reach(act, left - 1 if left >= 0 else -1, following, clues - 1, played, held, unplayed, need):
            return True
        failed.setdefault(key, {})[clues] = need
        return False

    held = 0
    for i, mask in enumerate(masks):
        held |= mask << i * players
    left = final if drawing == 0 else -1
    top = min(most, len(cards), drawing + players if drawing else final)
    bound = one_a_turn(players, ranks, drawing, tail, final, cards, masks)  # (the seats forgotten, and the tokens)
    if bound < top:
        if not exact:
            return top - 1
        top = bound
    try:
        for need in range(top, 0, -1):
            for seat in seats:
                if reach(0, left, seat, tokens, 0, held, len(cards), need):
                    return need
            if not exact:
                return need - 1  # (or fewer)
        return 0
    except _TooBig:
        return None


class _TooBig(Exception):
    """`most_plays`' relaxation outgrew `MOST_STATES`."""
