"""Post-game analysis: flags worked out by hand, best scores against plain solving, real games end to end."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import count, pairwise
from pathlib import Path
from typing import Any

import pytest

from deducer import GameRecord, Settings
from deducer.actions import Hint, Play, parse_event
from deducer.advice import advise
from deducer.cards import Card
from deducer.complete import fill_unknown, known_deck, missing, unknown_positions
from deducer.errors import RecordError
from deducer.game import GameState
from deducer.hanablive import export_game, import_game
from deducer.loader import load_game
from deducer.playout import playout
from deducer.record import turn_states
from deducer.settings import Ending
from solver import analysis as analysis_module
from solver.analysis import analyze
from solver.solve import Solution, solve_from
from tests.helpers import full_deck

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "real_games"
SUPPORTED_REAL = sorted(path for path in REAL.glob("*.json") if "rainbow" not in path.name)

# Alice: r1 y2 g3 w4 b1, Bob: r3 b5 r1 w2 y3 (slot 1 first); then Alice draws g4, Bob y4, b4, r4, Alice g2.
HANDS = ["r1 y2 g3 w4 b1", "r3 b5 r1 w2 y3"]
ACTIONS = [
    "Alice plays 1",  # 1: r1, a blind play: lucky
    "Bob hints Alice 2",  # 2: touches y2
    "Alice hints Bob 3",  # 3: touches r3 and y3
    "Bob plays 1",  # 4: r3, known to be a 3 with no 2 played: could not be playable
    "Alice hints Bob 1",  # 5: touches r1 (slot 3)
    "Bob plays 3",  # 6: r1, already played: but a 1 with only r1 played is playable 12 times in 14
    "Alice hints Bob 5",  # 7: touches b5 (slot 3)
    "Bob discards 3",  # 8: b5, known to be a 5: critical (and the best score drops)
    "Alice hints Bob 3",  # 9: y3, and the three new cards are not 3s
    "Bob hints Alice 2",  # 10: y2 again, and Alice has drawn nothing since turn 2: nothing new
    "Alice hints Bob 4",  # 11: r4 b4 y4
    "Bob hints Alice 1",  # 12: touches b1 (slot 5)
    "Alice discards 5",  # 13: b1, a 1 that is playable unless it is r1
]


def hand_made() -> GameRecord:
    settings = Settings(players=2, ending=Ending.STANDARD)
    deck = full_deck(settings, HANDS, "g4 y4 b4 r4 g2")
    return GameRecord.from_deck(settings, deck, [parse_event(line, ("Alice", "Bob")) for line in ACTIONS])


def test_unlucky_discards_are_not_mistakes() -> None:
    # Bob discards untouched cards: first r5 (the last copy, critical), then b1 (playable). Neither
    # was likely from his view, so each is flagged unlucky, with the chance he had, not as a mistake.
    settings = Settings(players=2, ending=Ending.STANDARD)
    deck = full_deck(settings, ["r2 y2 g2 w2 b2", "r5 b1 g3 y3 w3"], "g4 y4")
    actions = ["Alice hints Bob 3", "Bob discards 1", "Alice hints Bob 3", "Bob discards 2"]
    record = GameRecord.from_deck(settings, deck, [parse_event(line, ("Alice", "Bob")) for line in actions])
    turns = analyze(record).turns
    critical, playable = turns[1].flags, turns[3].flags
    assert [(flag.kind, flag.severity.value) for flag in critical] == [("critical-discard", "unlucky")]
    assert [(flag.kind, flag.severity.value) for flag in playable] == [("playable-discard", "unlucky")]
    assert 0 < critical[0].chances["p_critical"] < 0.5 and 0 < playable[0].chances["p_playable"] < 0.5
    assert critical[0].reason.startswith("Bob discarded r5, the last copy, with only ")
    assert playable[0].reason.startswith("Bob discarded b1, which was playable, with only ")


def cut_short(
    monkeypatch: pytest.MonkeyPatch, upper: int, which: Callable[[int], bool], solve: Callable[..., Solution] = solve_from
) -> None:
    """Make the analysis's `which` solver calls (by order) undecided: one point less found, `upper` at most."""
    calls = count()

    def solved(*args: Any, **kwargs: Any) -> Solution:
        solution = solve(*args, **kwargs)
        if not which(next(calls)):
            return solution
        return replace(solution, verdict="unknown", score=solution.score - 1, upper=upper, line=solution.line[:0])

    monkeypatch.setattr(analysis_module, "solve_from", solved)


def test_what_the_time_limit_leaves_open_is_not_claimed(monkeypatch: pytest.MonkeyPatch) -> None:
    # The hand-made game below: best score 25 up to turn 7, 24 from turn 8 (solved: 0, then the last
    # position, 13, then those bisection asks for). Left open at the last position (23 found, 25 not
    # ruled out by its own call), it is still at most 24, as turn 8 is: undecided, but not unsettled.
    cut_short(monkeypatch, 25, lambda call: call == 1)
    analysis = analyze(hand_made())
    summary = analysis.summary()
    assert (summary["undecided_turns"], summary["unsettled_turns"]) == ([13], [])
    assert summary["best_scores"][13] == 23 and analysis.last_winnable_turn == 7 and summary["lost_at_turn"] == 8
    # Every position but the first left open with 25 not ruled out: the start wins, the rest is unknown.
    cut_short(monkeypatch, 25, lambda call: call > 0)
    summary = analyze(hand_made()).summary()
    assert summary["winnable_from_start"] is True and 0 not in summary["unsettled_turns"]
    assert summary["unsettled_turns"] and summary["last_winnable_turn"] is None and summary["lost_at_turn"] is None
    # Every position left open: nothing is known to win, so whether the start could is unknown. Bisection
    # stops between two positions left open alike: 0 (24-25), 13 (23-25), 6 (like 0), 9 (like 13), 7, 8.
    cut_short(monkeypatch, 25, lambda call: True)
    analysis = analyze(hand_made())
    summary = analysis.summary()
    assert summary["winnable_from_start"] is None and summary["last_winnable_turn"] is None
    assert summary["undecided_turns"] == summary["unsettled_turns"] == list(range(14)) and analysis.solver_calls == 6
    # Every position left open, but each call ruled out 25: the deck was not winnable, for sure.
    cut_short(monkeypatch, 24, lambda call: True)
    summary = analyze(hand_made()).summary()
    assert summary["unsettled_turns"] == [] and summary["undecided_turns"]
    assert summary["winnable_from_start"] is False and summary["last_winnable_turn"] is None


def test_bisection_solves_under_proven_ceilings_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # The opening position left open (24 found, at most 25): the positions after it are solved with no
    # ceiling from it (its 24 is no bound), and they find the 25 up to turn 7, which pins the start.
    ceilings: list[int | None] = []

    def noted(state: GameState, deck: Sequence[Card], time_limit: float | None = None, ceiling: int | None = None) -> Solution:
        ceilings.append(ceiling)
        return solve_from(state, deck, time_limit, ceiling=ceiling)

    cut_short(monkeypatch, 25, lambda call: call == 0, noted)
    summary = analyze(hand_made()).summary()
    assert ceilings[0] is None and all(ceiling in (None, 25) for ceiling in ceilings[1:8])
    assert summary["undecided_turns"] == [] and summary["winnable_from_start"] is True
    assert summary["last_winnable_turn"] == 7 and summary["best_scores"][0] == 25


def test_each_flag_of_a_hand_made_game() -> None:
    analysis = analyze(hand_made())
    flags = {turn.number: [(flag.kind, flag.severity.value) for flag in turn.flags] for turn in analysis.turns}
    assert flags[2] == flags[3] == flags[5] == flags[7] == flags[9] == flags[11] == flags[12] == []
    assert flags[1] == [("lucky-play", "note")]
    assert flags[4] == [("misplay", "mistake")]  # Bob knew it was a 3: no chance of being playable
    assert flags[6] == [("gamble", "unlucky")]  # a good gamble that failed: not a mistake
    assert flags[8] == [("critical-discard", "mistake")]  # a known 5
    assert flags[10] == [("empty-hint", "mistake")]  # below 8 clue tokens
    assert flags[13] == [("playable-discard", "mistake")]
    chances = {turn.number: turn.flags[0].chances for turn in analysis.turns if turn.flags}
    assert chances[4]["p_playable"] == 0
    # Bob's slot 3 is a 1, and the "1" hint told him his other four cards are not. Unseen from his view:
    # w1 3, b1 2 (Alice holds one), y1 3, g1 3, all playable, and r1 2 (one played): 11 playable of 13.
    assert chances[6]["p_playable"] == pytest.approx(11 / 13)
    assert chances[8]["p_critical"] == 1
    # Alice's 1 (slot 5) when Bob holds nothing she cannot see as a 1... b1 w1 y1 g1 playable, r1 not.
    assert 0.5 < chances[13]["p_playable"] < 1
    # Full information: the b5 discard is the only drop, 25 -> 24, and it ends every chance of 25.
    drops = [(turn.number, turn.best_before, turn.best_after, turn.words()) for turn in analysis.drops]
    assert drops == [(8, 25, 24, "Bob discards b5, the last b5")]
    assert analysis.last_winnable_turn == 7 and analysis.winnable_from_start is True
    assert analysis.summary()["lost_at_turn"] == 8
    # The continuation from turn 7 wins.
    assert analysis.continuation
    assert analysis.mistakes()[0].number == 8  # the costliest first
    assert analysis.wasted_clues == 1


def test_each_mistake_quotes_the_advisors_first_choice() -> None:
    # The advisor's first choice, from the actor's view, at each mistake of the hand-made game; none at
    # other turns. At turn 8 Bob discarded a card he knew was a 5 (with hints to give): his first
    # choice is a hint; at turn 10 he gave a hint that told nothing: his first choice tells something.
    record = hand_made()
    analysis = analyze(record)
    mistakes = {turn.number: turn for turn in analysis.mistakes()}
    assert sorted(mistakes) == [4, 8, 10, 13]
    for turn in analysis.turns:
        if turn.number not in mistakes:
            assert turn.advice is None
            continue
        first = advise(record, turn.number - 1).actions[0]
        assert turn.advice == first and turn.advice.action.seat == turn.seat
    hint, telling = mistakes[8].advice, mistakes[10].advice
    assert hint is not None and isinstance(hint.action, Hint)
    assert telling is not None and telling.bits is not None and telling.bits > 0
    quoted = {entry["turn"]: entry["advice"] for entry in analysis.summary()["mistakes"]}
    assert quoted[8] == {"action": hint.action.notation(record.seats), "reason": hint.reason}


def test_a_drop_the_advisor_would_have_made_too_quotes_nothing() -> None:
    # A seeded 5-player playout: at turn 36 Alice plays y4, the advisor's own first choice, and yet the
    # best score (full information) drops by one. The analysis quotes no other choice there.
    record = playout(Settings(players=5, ending=Ending.STANDARD), seed=23, noise=0.3)
    turn = analyze(record).turns[35]
    assert (turn.number, turn.words(), turn.drop) == (36, "Alice plays y4", 1)
    first = advise(record, 35).actions[0].action
    assert isinstance(first, Play) and isinstance(turn.event, Play) and first.slot == turn.event.slot
    assert turn.advice is None


def test_bisection_equals_solving_every_position() -> None:
    for seed in range(6):
        settings = Settings(players=2 + seed % 4, ending=Ending.STANDARD if seed % 3 else Ending.CROWNING)
        record = playout(settings, seed=seed, noise=0.3)
        assert record.deck is not None
        analysis = analyze(record)
        every = [solve_from(state, record.deck).score for state in turn_states(record)]
        assert list(analysis.best) == every
        assert all(later <= earlier for earlier, later in pairwise(every))


@pytest.mark.parametrize("path", SUPPORTED_REAL + sorted((ROOT / "sample_games").glob("*.json")), ids=lambda path: path.name)
def test_real_and_bundled_games_end_to_end(path: Path) -> None:
    record = load_game(path)
    analysis = analyze(record)
    data = json.loads(json.dumps(analysis.to_json()))
    assert {"score", "max_score", "winnable_from_start", "last_winnable_turn", "turn_list"} <= set(data)
    assert len(data["turn_list"]) == analysis.final.turn
    if known_deck(record) is None:
        assert data["winnable_from_start"] is None and data["last_winnable_turn"] is None
        return
    best = data["best_scores"]
    assert all(later <= earlier for earlier, later in pairwise(best))
    assert best[-1] == analysis.final.score
    last = data["last_winnable_turn"]
    if analysis.final.won:
        assert last == len(data["turn_list"])
    elif last is not None:
        assert best[last] == data["max_score"] and best[last + 1] < data["max_score"]
        # The continuation from the last winnable turn wins.
        assert data["continuation"]


def test_a_hanablive_export_and_our_log_give_the_same_analysis(tmp_path: Path) -> None:
    record = load_game(ROOT / "sample_games" / "3p_hanablive.json")
    ours = tmp_path / "ours.json"
    record.save(ours)
    assert analyze(load_game(ours)).to_json() == analyze(record).to_json()
    assert analyze(import_game(export_game(record))).to_json() == analyze(record).to_json()


def test_unidentified_cards_are_unknown_and_can_be_filled_in(tmp_path: Path) -> None:
    # A phone tracker's export: the cards left in one hand at the end were never identified.
    original = json.loads((ROOT / "sample_games" / "3p_hanablive.json").read_text())
    record = import_game(original)
    final = turn_states(record)[-1]
    blank = [item.uid for item in final.hands[1]]
    for uid in blank:
        original["deck"][uid] = {"suitIndex": -1, "rank": -1}
    partial = import_game(original)
    # (The cards never drawn are not kept once the deck is incomplete: they are unknown too.)
    undrawn = list(range(final.drawn, len(original["deck"])))
    assert partial.deck is None and unknown_positions(partial) == sorted(blank) + undrawn
    drawn = export_game(partial)["deck"][: final.drawn]
    assert drawn == original["deck"][: final.drawn]  # exported back as they came
    analysis = analyze(partial)
    assert analysis.winnable_from_start is None and analysis.deck_note
    assert analysis.turns  # the knowledge part still judges every action
    assert record.deck is not None
    cards = [record.deck[uid] for uid in unknown_positions(partial)]
    filled = fill_unknown(partial, cards)
    assert filled.deck == record.deck
    assert analyze(filled).summary()["best_scores"] == analyze(record).summary()["best_scores"]
    with pytest.raises(RecordError, match="never identified"):
        fill_unknown(partial, cards[:-1])
    cards[0], cards[-1] = cards[-1], cards[0]
    if cards[0] != cards[-1]:
        with pytest.raises(RecordError):  # the hints Bob was given do not fit these cards
            fill_unknown(partial, [cards[0]] * len(cards))


def test_a_one_seat_recording_filled_in_is_the_full_game() -> None:
    record = playout(Settings(players=3, ending=Ending.STANDARD), seed=9, noise=0.2)
    seen = record.seen_by(1)
    assert known_deck(seen) is None
    assert analyze(seen).deck_note is not None
    filled = fill_unknown(seen, missing(record, seen))
    assert filled.deck == record.deck
    assert analyze(filled).best == analyze(record).best
