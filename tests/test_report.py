"""The HTML report and `hanabi analyze`: the command's outputs, and the page in a real headless browser."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from hanabi.main import app
from tests.helpers import browser_or_skip

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "sample_games" / "5p_base_seat_alice.json"
HANABLIVE = ROOT / "sample_games" / "3p_hanablive.json"
runner = CliRunner()


def test_analyze_json_and_text() -> None:
    result = runner.invoke(app, ["analyze", str(HANABLIVE), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["score"] == 25 and data["max_score"] == 25 and data["winnable_from_start"] is True
    assert data["last_winnable_turn"] == len(data["turn_list"]) == 36
    turn = data["turn_list"][0]
    assert {"turn", "action", "kind", "clues", "score", "best", "flags"} <= set(turn)
    text = runner.invoke(app, ["analyze", str(GAME), "--seat", "Alice"])
    assert text.exit_code == 0 and "the solver part is skipped" in text.output
    bad = runner.invoke(app, ["analyze", str(GAME), "--seat", "Zed"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


def test_solve_a_turn_of_a_game() -> None:
    result = runner.invoke(app, ["solve", "--deck-file", str(HANABLIVE), "--turn", "20", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["verdict"] == "win"
    beyond = runner.invoke(app, ["solve", "--deck-file", str(HANABLIVE), "--turn", "99"])
    assert beyond.exit_code == 1 and "has 36 actions" in " ".join(beyond.output.split())


def test_the_report_in_a_headless_browser(tmp_path: Path) -> None:
    browser = browser_or_skip("the report")
    from playwright.sync_api import sync_playwright

    page_file = tmp_path / "report.html"
    result = runner.invoke(
        app,
        ["analyze", str(ROOT.parent / "shared" / "real_games" / "hanablive_testdata_no_variant.json"), "--html", str(page_file)],
    )
    if result.exit_code != 0:  # the real games are beside the repository in CI; fall back on a bundled one
        result = runner.invoke(app, ["analyze", str(HANABLIVE), "--html", str(page_file)])
    assert result.exit_code == 0, result.output
    html = page_file.read_text()
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in html
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=browser, headless=True, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        page = launched.new_page(viewport={"width": 390, "height": 844})
        problems: list[str] = []
        page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(page_file.as_uri())
        assert page.locator("table tbody tr").count() > 30
        assert page.locator("svg polyline.score").count() == 1 and page.locator("svg polyline.best").count() == 1
        first = page.locator("#hands").inner_text()
        assert page.locator("#turn-label").inner_text() == "the deal"
        page.click("#next")
        page.click("#next")
        assert page.locator("#turn-label").inner_text() == "after turn 2"
        assert page.locator("#hands").inner_text() != first  # the hands shown follow the turn
        page.locator("tr.turn").nth(9).click()
        assert page.locator("#turn-label").inner_text() == "after turn 10"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than a phone
        for button in ("#prev", "#next"):
            box = page.locator(button).bounding_box()
            assert box is not None and box["width"] >= 44 and box["height"] >= 44
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        launched.close()
    assert problems == []
    assert all(url.startswith("file://") for url in requests)
