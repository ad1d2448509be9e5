"""The live page in headless Chromium (Debian's chromium + chromium-driver, driven by
Selenium): it loads, draws the board as the match has it, follows a replayed
recording without reloading, explains an illegal play, asks for the PIN before a
change, and downloads a .mat that reads back.  A failing test leaves a
screenshot and the page's HTML in its tmp_path."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.board import Board
from engine.game import Rules
from engine.mat import read_mat
from referee.core import Mode, Seen, Settings, Stage
from referee.demo import load_recording
from referee.service import RefereeService
from referee.web import FrameKeeper, WebServer

CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytest.importorskip("starlette", reason="the web page needs starlette (a runtime dependency of bgref)")
pytest.importorskip("uvicorn", reason="the web page needs uvicorn (a runtime dependency of bgref)")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install selenium)")
if not CHROMEDRIVER.exists() or CHROMIUM is None:
    pytest.skip("headless Chromium is not installed (apt-get install chromium chromium-driver)", allow_module_level=True)

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PIN = "271828"
FLAGS = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
_, ITEMS = load_recording(None)
ROLLED_53 = 17  # Ann has rolled 5-3 and has not played yet
PLAYED_53 = 21  # ... Ann played 13/10 13/8
ILLEGAL_AT = 36  # Bob's illegal 2-1 waits for correction or acceptance


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    for flag in FLAGS.split():
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="bgref-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument("--window-size=430,1400")  # a phone's width
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=webdriver.ChromeService(str(CHROMEDRIVER)), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def web(tmp_path: Path) -> Iterator[WebServer]:
    service = RefereeService(Settings(rules=Rules(match_length=3), players=("Ann", "Bob")), tmp_path / "match", None)
    server = WebServer(service, "127.0.0.1", 0, PIN, analysis=False)
    server.start()
    yield server
    server.stop()
    server.service.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """The browser, with a screenshot and the page's HTML saved if the test fails."""
    failed_before = request.session.testsfailed
    yield browser
    if request.session.testsfailed > failed_before:
        browser.save_screenshot(str(tmp_path / "failure.png"))
        (tmp_path / "failure.html").write_text(browser.page_source, encoding="utf-8")
        print(f"screenshot of the failure: {tmp_path / 'failure.png'}")
    browser.execute_script("sessionStorage.clear(); localStorage.clear();")


def feed(web: WebServer, upto: int, start: int = 0) -> None:
    for item in ITEMS[start:upto]:
        web.handle(Seen.from_reading(item["reading"]))


def wait(driver: Any, check: Callable[[Any], Any], what: str, seconds: float = 8.0) -> Any:
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException]).until(check)
    except TimeoutException:
        raise AssertionError(f"the page did not show {what} within {seconds} s") from None


def open_page(driver: Any, web: WebServer, version: int | None = None) -> None:
    """Load the page and wait until it shows the server's latest snapshot."""
    driver.get(web.url)
    wait(driver, lambda d: d.find_element(By.ID, "connection").text == "live", "the live connection")
    target = web.live.snapshot()["version"] if version is None else version
    wait(driver, lambda d: d.execute_script("return window.bgref && window.bgref.version") >= target, f"snapshot {target}")


def drawn_board(driver: Any) -> dict[str, Any]:
    """What the SVG shows: per dark point (signed count, checkers drawn, colours), bar and off."""
    return driver.execute_script(
        """
        const svg = document.getElementById('board');
        const points = {};
        for (const g of svg.querySelectorAll('g.point')) {
          const circles = [...g.querySelectorAll('circle.checker')];
          points[g.dataset.point] = {count: Number(g.dataset.count), drawn: circles.length,
            colours: [...new Set(circles.map(c => c.classList.contains('dark') ? 'dark' : 'light'))],
            label: g.querySelector('text.label').textContent};
        }
        const pick = (sel) => [...svg.querySelectorAll(sel)].map(g => Number(g.dataset.count));
        return {points, bar: pick('g.bar-checkers'), off: pick('g.off'),
                dice: [...svg.querySelectorAll('g.die')].map(g => g.dataset.value),
                cube: svg.querySelector('g.cube').dataset.value, viewer: svg.dataset.viewer};
        """
    )


def expected_board(web: WebServer) -> Board:
    ref = web.service.ref
    return Board.from_position(ref.game.position, ref.game.on_roll)


def assert_board_drawn(driver: Any, board: Board) -> None:
    drawn = drawn_board(driver)
    for p in range(1, 25):
        n = board.points[p - 1]
        shown = drawn["points"][str(p)]
        assert shown["count"] == n, f"point {p}"
        assert shown["drawn"] == min(abs(n), 5), f"checkers drawn on point {p}"
        assert shown["colours"] == ([] if n == 0 else ["dark" if n > 0 else "light"]), f"colour on point {p}"
    assert drawn["bar"] == list(board.bar)


def test_page_loads_and_draws_the_board_of_the_match(page: Any, web: WebServer) -> None:
    feed(web, PLAYED_53 + 1)
    open_page(page, web)
    assert page.title.startswith("bgref")
    assert_board_drawn(page, expected_board(web))
    drawn = drawn_board(page)
    assert drawn["viewer"] == "dark" and drawn["points"]["1"]["label"] == "1"
    assert drawn["cube"] == "1"
    state = web.live.snapshot()
    assert page.find_element(By.CSS_SELECTOR, ".player.dark strong").text == "Ann"
    assert page.find_element(By.CSS_SELECTOR, ".player.light .pips").text == f"pips {state['board']['pips'][1]}"
    assert page.find_element(By.CSS_SELECTOR, "[data-score='0']").text == "0"
    assert "3-point match" in page.find_element(By.ID, "scoreline").text
    # from light's side: the same checkers, light's numbers on the points
    page.find_element(By.CSS_SELECTOR, "#viewer option[value='1']").click()
    drawn = drawn_board(page)
    assert drawn["viewer"] == "light" and drawn["points"]["1"]["label"] == "24"
    assert_board_drawn(page, expected_board(web))


def test_a_replayed_play_appears_without_a_reload(page: Any, web: WebServer) -> None:
    feed(web, ROLLED_53)
    open_page(page, web)
    page.execute_script("window.notReloaded = true;")
    assert sorted(d.get_attribute("data-value") for d in page.find_elements(By.CSS_SELECTOR, "#board g.die")) == ["3", "5"]
    feed(web, PLAYED_53, start=ROLLED_53)
    wait(page, lambda d: d.find_element(By.ID, "verdict-play").text == "13/10 13/8", "Ann's 13/10 13/8")
    assert page.execute_script("return window.notReloaded === true")
    assert "Legal: Ann played 5-3" in page.find_element(By.ID, "verdict-title").text
    arrows = page.find_elements(By.CSS_SELECTOR, "#board path.arrow.play")
    assert {(a.get_attribute("data-from"), a.get_attribute("data-to")) for a in arrows} == {("13", "10"), ("13", "8")}
    wait(page, lambda d: drawn_board(d)["points"]["8"]["count"] == 3, "three checkers on 8")
    assert_board_drawn(page, expected_board(web))
    page.get(web.url + "#moves")
    wait(page, lambda d: "53: 13/10 13/8" in d.find_element(By.ID, "moves").text, "the play in the move list")


def test_an_illegal_play_shows_its_reasons_and_the_closest_plays(page: Any, web: WebServer) -> None:
    feed(web, ILLEGAL_AT)
    assert web.service.ref.stage is Stage.ILLEGAL
    open_page(page, web)
    verdict = page.find_element(By.ID, "verdict")
    assert "illegal" in verdict.get_attribute("class")
    assert page.find_element(By.ID, "verdict-title").text == "Illegal play by Bob (2-1)"
    reasons = [li.text for li in page.find_elements(By.CSS_SELECTOR, "#reasons li")]
    assert reasons == ["checkers moved 6 pips, more than the 3 of 2-1"]
    closest = [b.text for b in page.find_elements(By.CSS_SELECTOR, "#closest button")]
    assert closest[0] == "24/21*" and len(closest) == 3
    hint = page.find_elements(By.CSS_SELECTOR, "#verdict-board path.arrow.hint")
    assert [(a.get_attribute("data-from"), a.get_attribute("data-to")) for a in hint] == [("1", "4")]  # light's 24/21* in dark's numbers
    page.find_elements(By.CSS_SELECTOR, "#closest button")[1].click()
    wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#verdict-board path.arrow.hint")) == 2, "the second closest play")
    assert page.find_elements(By.CSS_SELECTOR, "#board polygon.tri.fault"), "the faulty points are marked"
    assert page.find_element(By.ID, "btn-accept").is_enabled() and page.find_element(By.ID, "btn-correct").is_enabled()
    assert not page.find_element(By.ID, "btn-take").is_enabled()


def enter_pin(driver: Any, pin: str) -> None:
    wait(driver, lambda d: d.find_element(By.ID, "pin-dialog").get_attribute("open") is not None, "the PIN dialog")
    field = driver.find_element(By.ID, "pin-input")
    field.clear()
    field.send_keys(pin)
    driver.find_element(By.ID, "pin-ok").click()


def test_the_pin_guards_a_change(page: Any, web: WebServer) -> None:
    feed(web, ILLEGAL_AT)
    open_page(page, web)
    page.find_element(By.ID, "btn-accept").click()
    enter_pin(page, "000000")
    wait(page, lambda d: "Wrong PIN" in d.find_element(By.ID, "pin-why").text, "that the PIN was wrong")
    page.find_element(By.ID, "pin-cancel").click()
    wait(page, lambda d: "nothing was changed" in d.find_element(By.ID, "message").text, "that nothing changed")
    assert web.service.ref.stage is Stage.ILLEGAL
    page.find_element(By.ID, "btn-accept").click()
    enter_pin(page, PIN)
    wait(page, lambda d: "accepted as made" in d.find_element(By.ID, "verdict-title").text, "the play accepted as made")
    assert web.service.ref.stage is Stage.PLAYING
    assert "accepted as made by the opponent" in page.find_element(By.ID, "notes").text
    # the PIN is remembered for the tab: the next change needs no dialog
    page.get(web.url + "#match")
    page.find_element(By.CSS_SELECTOR, "#mode option[value='teach']").click()
    page.find_element(By.ID, "mode-set").click()
    wait(page, lambda d: "mode teach" in d.find_element(By.ID, "scoreline").get_attribute("textContent"), "teach mode")
    assert web.service.settings.mode is Mode.TEACH


def test_the_download_is_a_valid_mat(page: Any, web: WebServer, tmp_path: Path) -> None:
    feed(web, 60)
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    page.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    open_page(page, web)
    page.get(web.url + "#moves")
    link = wait(page, lambda d: d.find_element(By.CSS_SELECTOR, "a.download[download='match.mat']"), "the .mat link")
    link.click()
    deadline = time.monotonic() + 10
    while not (downloads / "match.mat").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    record = read_mat((downloads / "match.mat").read_text(encoding="utf-8"))
    assert record.players == ("Ann", "Bob") and record.length == 3
    played = [(m.player, m.dice, m.play) for m in web.service.record().games[0].moves()]
    assert [(m.player, m.dice, m.play) for m in record.games[0].moves()] == played


def test_missing_camera_and_leds_are_said(page: Any, web: WebServer) -> None:
    open_page(page, web)
    devices = page.find_element(By.ID, "devices").text
    assert "no camera" in devices and "no LED controller" in devices
    page.get(web.url + "#camera")
    wait(page, lambda d: "no camera" in d.find_element(By.ID, "camera-text").text, "that there is no camera")


def test_a_new_match_from_the_page(page: Any, web: WebServer) -> None:
    open_page(page, web)
    page.get(web.url + "#match")
    form = page.find_element(By.ID, "new-match")
    assert form.find_element(By.NAME, "dark").get_attribute("value") == "Ann"  # the current players to start with
    for name, value in (("dark", "Cleo"), ("light", "Dan")):
        form.find_element(By.NAME, name).clear()
        form.find_element(By.NAME, name).send_keys(value)
    length = form.find_element(By.NAME, "match_length")
    length.clear()
    length.send_keys("7")
    form.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
    enter_pin(page, PIN)
    wait(page, lambda d: d.find_element(By.CSS_SELECTOR, ".player.dark strong").text == "Cleo", "the new match")
    assert "7-point match" in page.find_element(By.ID, "scoreline").text
    assert web.service.settings.players == ("Cleo", "Dan") and web.service.settings.rules.match_length == 7


def test_teaching_lists_the_legal_plays(page: Any, web: WebServer) -> None:
    feed(web, ROLLED_53)
    web.set_mode(Mode.TEACH)
    open_page(page, web)
    assert page.find_element(By.ID, "teach-toggle").is_selected()
    plays = page.find_elements(By.CSS_SELECTOR, "#legal-plays button")
    assert "13/10 13/8" in [p.text for p in plays]
    next(p for p in plays if p.text == "13/10 13/8").click()
    previews = page.find_elements(By.CSS_SELECTOR, "#board path.arrow.preview")
    assert {(a.get_attribute("data-from"), a.get_attribute("data-to")) for a in previews} == {("13", "10"), ("13", "8")}


def corner_calibration(frame: Any, corners: Any) -> Any:
    """A calibration from four corners alone (no lens bending): the grid without vision's judgement."""
    import numpy as np

    from vision.board import Lens, homography_from_corners, order_corners
    from vision.calibrate import Calibration
    from vision.geometry import BoardGeometry, Layout

    h, w = frame.shape[:2]
    hom = homography_from_corners(order_corners(np.asarray(corners, np.float64)), BoardGeometry())
    return Calibration((w, h), Lens(0.0, (w / 2, h / 2), float(max(w, h))), hom, Layout(), {}, (), (0.0, 0.0, 0.0), 0.0)


def test_calibration_view_with_draggable_corners(page: Any, tmp_path: Path) -> None:
    import numpy as np

    keeper = FrameKeeper(frame=np.full((720, 1280, 3), 100, np.uint8))
    service = RefereeService(Settings(), tmp_path / "match", None)
    web = WebServer(service, "127.0.0.1", 0, PIN, calibration_source=keeper, analysis=False, calibrator=corner_calibration)
    web.start()
    try:
        page.get(web.url + "#camera")
        wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#camera-grid circle.corner")) == 4, "four corner handles")
        wait(page, lambda d: d.execute_script("return document.getElementById('camera-img').naturalWidth") == 1280, "the camera picture")
        page.find_element(By.ID, "calibrate-corners").click()
        enter_pin(page, PIN)
        wait(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#camera-grid polyline.grid-line")) == 27, "the board grid")
        assert keeper.calibration() is not None
        handle = page.find_element(By.CSS_SELECTOR, "#camera-grid circle.corner[data-corner='0']")
        before = float(handle.get_attribute("cx"))
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(page).click_and_hold(handle).move_by_offset(30, 10).release().perform()
        after = float(page.find_element(By.CSS_SELECTOR, "#camera-grid circle.corner[data-corner='0']").get_attribute("cx"))
        assert after > before + 20
    finally:
        web.stop()
        service.close()
