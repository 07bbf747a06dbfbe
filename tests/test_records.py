"""Our log format, hanab.live import/export, and the bundled samples."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from deducer import GameRecord, RecordError, Settings, Variant
from deducer.actions import Draw, Play
from deducer.hanablive import export_game, import_game
from deducer.loader import load_game
from deducer.record import STALE_AFTER, replay, sweep_temporaries, turn_states
from deducer.rules import End

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_games").glob("*.json"))
REAL = ROOT.parent / "shared" / "real_games"


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: path.name)
def test_every_sample_replays(path: Path) -> None:
    record = load_game(path)
    final = replay(record)[-1]
    assert final.over
    if path.name.endswith("hanablive.json"):
        assert export_game(record) == json.loads(path.read_text())
    else:
        assert record.dumps() == path.read_text()  # written back unchanged


def test_samples_cover_what_the_readme_promises() -> None:
    records = {path.name: load_game(path) for path in SAMPLES}
    players = {record.settings.players for record in records.values()}
    assert {2, 3, 5} <= players
    assert any(record.recorder is not None and not record.fully_known for record in records.values())
    assert any(record.settings.variant is Variant.AVALANCHE for record in records.values())
    assert any(path.name.endswith("hanablive.json") for path in SAMPLES)
    deals = (ROOT / "sample_games" / "deals.jsonl").read_text().splitlines()
    assert len(deals) >= 3


def test_one_seat_record_hides_only_the_recorder() -> None:
    record = load_game(ROOT / "sample_games" / "5p_base_seat_alice.json")
    draws = [event for event in record.events if isinstance(event, Draw)]
    assert all((event.card is None) == (event.seat == 0) for event in draws)
    assert all(event.card is not None for event in record.events if isinstance(event, Play))


def test_bad_record_names_the_event() -> None:
    record = load_game(ROOT / "sample_games" / "2p_base.json")
    events = list(record.events)
    index = next(i for i, event in enumerate(events) if isinstance(event, Play) and i > 12)
    bad = events[index]
    assert isinstance(bad, Play)
    events[index] = Play(bad.seat, 9)
    with pytest.raises(RecordError, match=rf"event {index + 1} \(.* plays 9\): .*no slot 9") as caught:
        replay(record.with_events(events))
    assert caught.value.event == index + 1
    data = record.to_json()
    data["events"][3] = {"draw": "Nobody", "card": "r1"}
    with pytest.raises(RecordError, match=r"events\[3\]\.draw: no seat called .Nobody."):
        GameRecord.from_json(data)


def test_bad_files_are_refused_clearly(tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_game(tmp_path / "x.json")
    (tmp_path / "y.json").write_text('{"format": "hanabi-deducer", "version": 99}')
    with pytest.raises(RecordError, match="version 99"):
        load_game(tmp_path / "y.json")
    with pytest.raises(RecordError, match="cannot read"):
        load_game(tmp_path / "missing.json")


def test_deck_and_draws_must_agree() -> None:
    record = load_game(ROOT / "sample_games" / "2p_base.json")
    assert record.deck is not None
    swapped = (record.deck[1], record.deck[0]) + record.deck[2:]
    if swapped != record.deck:
        with pytest.raises(RecordError, match="the deck says card 1"):
            replay(GameRecord(record.settings, record.seats, record.events, swapped))


def test_save_is_atomic_and_round_trips(tmp_path: Path) -> None:
    record = load_game(ROOT / "sample_games" / "4p_crowning.json")
    target = tmp_path / "game.json"
    record.save(target)
    record.with_events(record.events[:10]).save(target)
    assert load_game(target).events == record.events[:10]
    assert [path.name for path in tmp_path.iterdir()] == ["game.json"]


def test_temporary_files_left_by_a_killed_save_are_swept(tmp_path: Path) -> None:
    # A writer killed between creating its temporary file and the rename leaves `.game.json.XXXX.tmp`.
    # Those older than STALE_AFTER go; a live writer's (fresh), another game's and the game stay.
    load_game(ROOT / "sample_games" / "4p_crowning.json").save(tmp_path / "game.json")
    old = time.time() - STALE_AFTER - 5
    for name in (".game.json.a1b2.tmp", ".game.json.c3d4.tmp", ".other.json.e5f6.tmp"):
        (tmp_path / name).write_text("{")
        os.utime(tmp_path / name, (old, old))
    (tmp_path / ".game.json.live.tmp").write_text("{")
    assert sweep_temporaries(tmp_path / "game.json") == 2
    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == [".game.json.live.tmp", ".other.json.e5f6.tmp", "game.json"]
    assert sweep_temporaries(tmp_path / "game.json") == 0


def test_turn_states_index_by_actions() -> None:
    record = load_game(ROOT / "sample_games" / "3p_avalanche.json")
    positions = turn_states(record)
    assert [state.turn for state in positions] == list(range(len(positions)))
    assert positions[0].drawn == 15 and positions[-1].over


def test_hanablive_game_over_action_stops_the_replay() -> None:
    record = load_game(ROOT / "sample_games" / "3p_hanablive.json")
    data = export_game(record)
    data["actions"] = data["actions"][:10] + [{"type": 4, "target": 1, "value": 4}]
    again = import_game(data)
    final = replay(again)[-1]
    assert final.end is End.TERMINATED and final.turn == 10
    assert export_game(again) == data


def test_hanablive_refuses_unknown_variants_and_bad_actions() -> None:
    data = export_game(load_game(ROOT / "sample_games" / "3p_hanablive.json"))
    with pytest.raises(RecordError, match="variant 'Rainbow"):
        import_game({**data, "options": {"variant": "Rainbow (6 Suits)"}})
    broken = {**data, "actions": [{"type": 0, "target": 40, "value": 0}]}
    with pytest.raises(RecordError, match=r"actions\[0\] .*card 40 of the deck is not in Alice's hand"):
        import_game(broken)
    with pytest.raises(RecordError, match="not a full base deck"):
        import_game({**data, "deck": data["deck"][:-1]})


def test_avalanche_exports_black_suit() -> None:
    record = GameRecord.from_deck(Settings(players=2, variant=Variant.AVALANCHE), Variant.AVALANCHE.shuffled_deck(3), [])
    data = export_game(record)
    assert data["options"] == {"variant": "Black (6 Suits)"}
    assert {card["suitIndex"] for card in data["deck"]} == set(range(6))
    assert import_game(data).settings.variant is Variant.AVALANCHE


@pytest.mark.skipif(not REAL.exists(), reason="shared/real_games not beside the checkout")
def test_real_games() -> None:
    outcomes = {}
    for path in sorted(REAL.glob("*.json")):
        data = json.loads(path.read_text())
        if "Rainbow" in json.dumps(data.get("options", {})):
            with pytest.raises(RecordError, match="not supported"):
                import_game(data)
            continue
        record = import_game(data)
        assert export_game(record) == data
        final = replay(record)[-1]
        outcomes[path.name] = (final.score, final.end)
    # Regression values from our replay; the example game is a 25 that hanab.live ends on the last y5.
    assert outcomes == {
        "cupofjosiah_hanabi-tracker_live-game-4p.json": (20, End.FINAL_ROUND),
        "hanablive_misc_example_game.json": (25, End.COMPLETE),
        "hanablive_testdata_no_variant.json": (23, End.FINAL_ROUND),
    }
