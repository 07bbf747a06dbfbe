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

from solver.endgame import late_groups, whereabouts
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
    fewer can be played (enough to show a card lost)."""
    index = {card: i for i, card in enumerate(cards)}
    arriving: dict[int, list[int]] = {}
    for act, card in tail:
        arriving.setdefault(act, []).append(index[card])
    suits = sorted({card // ranks for card in cards})
    chains = tuple(tuple(i for i, card in enumerate(cards) if card // ranks == suit) for suit in suits)
    place = {i: (s, step) for s, chain in enumerate(chains) for step, i in enumerate(chain)}
    fives = tuple(card % ranks == ranks - 1 for card in cards)
    total = len(cards)
    # A state failed: for each number of clue tokens it failed with, the fewest plays it failed to make. Fewer
    # tokens never help (a token is only ever spent), so it fails with as many tokens or fewer, and as many plays or more.
    failed: dict[tuple[int, int, int, tuple[int, ...], tuple[int, ...]], dict[int, int]] = {}

    class TooBig(Exception):
        pass

    def reach(act: int, left: int, seat: int, clues: int, played: tuple[int, ...], held: tuple[int, ...], need: int) -> bool:
        """Can `need` more cards be played, with `act` acts done and `left` turns of the final round
        left (-1 while the deck lasts), `seat` to act with `clues` tokens?"""
        if need <= 0:
            return True
        acts = drawing - act + players if left < 0 else left
        if acts < need or total - sum(played) < need:
            return False
        key = (act, left, seat, played, held)
        known = failed.get(key)
        if known is not None:
            for tokens, fewest in known.items():  # (a loop, not `any` over a generator: the hot path)
                if tokens >= clues and fewest <= need:
                    return False
        if len(failed) >= MOST_STATES:
            raise TooBig
        bit, following = 1 << seat, (seat + 1) % players

        def then(played: tuple[int, ...], held: tuple[int, ...], clues: int, need: int) -> bool:
            """After an act of `seat`: its draw while the deck lasts, and the next turn."""
            if left >= 0:
                return reach(act, left - 1, following, clues, played, held, need)
            for i in arriving.get(act, ()):
                suit, step = place[i]
                if step >= played[suit]:  # (a copy of a card already played changes nothing)
                    held = held[:i] + (held[i] | bit,) + held[i + 1 :]
            over = act + 1 == drawing
            return reach(act + 1, players if over else -1, following, clues, played, held, need)

        found = False
        for s, chain in enumerate(chains):
            if played[s] < len(chain) and held[chain[played[s]]] & bit:
                i = chain[played[s]]
                after = played[:s] + (played[s] + 1,) + played[s + 1 :]
                if then(after, held[:i] + (0,) + held[i + 1 :], min(TOKENS, clues + fives[i]), need - 1):
                    found = True
                    break
        if not found and acts > need:  # let go of another card: only with an act to spare
            found = then(played, held, min(TOKENS, clues + 1), need)
        if not found and clues:
            found = reach(act, left - 1 if left >= 0 else -1, following, clues - 1, played, held, need)
        if not found:
            failed.setdefault(key, {})[clues] = need
        return found

    played = (0,) * len(chains)
    left = final if drawing == 0 else -1
    try:
        for need in range(min(most, len(cards), drawing + players if drawing else final), 0, -1):
            if any(reach(0, left, seat, tokens, played, masks, need) for seat in seats):
                return need
            if not exact:
                return need - 1  # (or fewer)
        return 0
    except TooBig:
        return None
