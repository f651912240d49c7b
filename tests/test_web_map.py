"""The web page's map (issue 31, item 2), in headless Chromium: a whole game of Hannibal played
by clicking places on the map (buttons only where the question is not a place), screenshots
of Hannibal at set-up and mid-game with a siege and a battle and of Ante Portas, written as
test artifacts and checked for map content; the keyboard; pan and zoom; 1280 x 800 and a
phone's width.

Screenshots go to $ENGINE_ARTIFACTS (default: artifacts/ at the top of the checkout, which
git ignores): tests/browser.py `shoot`.
"""
from __future__ import annotations

import random
import time
from typing import Any

import pytest
from browser import Server, shoot, start, wait_ready

PLACE = "#map .place.option .ring"  # a place that answers the question: its ring is the target


@pytest.fixture(scope="module")
def server(web_server: Server) -> Server:
    return web_server


def map_places(page: Any) -> list[str]:
    return page.eval_on_selector_all("#map .place.option", "ns => ns.map(n => n.dataset.place)")


def battles(game: Any) -> int:
    return sum(1 for e in game.log if e.get("t") == "event" and e["n"] == "battle")


def battle_and_siege() -> Any:
    """A Hannibal game in which Hannibal's 7 CUs have marched from Nola into Capua, beaten the
    3 Roman CUs there in a battle and won a siege point against its walls (seed 002 §8.2, §11,
    §16.4; the position set up by editing the state, as the rules tests do, and played from
    there by the rules with the siege die loaded); Carthage to decide."""
    from hannibal_play import add_cus, answer, answer_until, board, options, prompt, set_leader
    from test_hannibal_siege import garrison, setup, siege_asked

    g = board(3)
    set_leader(g, "hannibal", "nola")
    add_cus(g, "carthage", "nola", 7)
    add_cus(g, "rome", "capua", 3)
    garrison(g, "rome", "capua", 2)
    set_leader(g, "marcellus", "roma")
    add_cus(g, "rome", "roma", 4)
    g.log.clear()  # the position is the game's start: no earlier places to draw paths from
    setup(g)
    answer(g, "bad_weather", "ops", "move", 7, "march", "capua")

    def pick(g: Any) -> Any:
        return "stop" if "what next" in prompt(g) else options(g)[0]
    answer_until(g, lambda g: siege_asked(g) and g.decision.side == "carthage", pick)
    g.load_dice([6])
    answer(g, True)
    answer_until(g, lambda g: g.decision.side == "carthage")
    assert battles(g) == 1 and g.state["f"]["capua"]["siege"] == 1
    return g


def test_a_screenshot_mid_game_with_a_battle_and_a_siege(page, server):
    game_id = start(page, server, side="carthage", others="random", pack="hannibal", seed=3)
    table = server.app.state.tables.get(game_id)
    table.game = battle_and_siege()  # the table now holds that position
    table.screens.clear()
    table.said.clear()
    page.reload()
    assert wait_ready(page) == "mine"
    page.wait_for_function("() => document.body.dataset.mapDecisions == "
                           "document.body.dataset.decisions")
    capua = page.locator('#map .place[data-place="capua"]')
    assert capua.locator(".mark").all_text_contents() == ["Siege marker 1", "besieged by Carthage"]
    assert "Hannibal 7" in capua.locator(".stack text").all_text_contents()
    # Rome's march in the card play since (board `moves:`), drawn as a path
    assert page.eval_on_selector_all("#map .path", "ns => ns.map(n => n.textContent)") == [
        "Marcus Claudius Marcellus"]
    shoot(page, "hannibal-mid-game")


def test_a_whole_hannibal_game_by_clicks_on_the_map(browser, server):
    # seed 002 (Hannibal rules) §8.2: a leader marches space by space; here each step is a
    # click on a highlighted space of the map, and the game goes on to its result (§18)
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_default_timeout(60_000)
    t0 = time.monotonic()
    game_id = start(page, server, side="carthage", others="random", pack="hannibal", seed=7)
    page.wait_for_selector("#map .place")
    assert page.locator("#map .place").count() == 98
    assert page.locator("#map .link").count() == 136
    shoot(page, "hannibal-setup")
    spaces = {s["id"] for s in server.game(game_id).pack.board_map()["spaces"]}
    rng = random.Random(7)
    on_map = buttons = 0
    while wait_ready(page) == "mine":
        page.wait_for_function("() => document.body.dataset.mapDecisions == "
                               "document.body.dataset.decisions")
        made = int(page.evaluate("() => document.body.dataset.decisions"))
        game = server.game(game_id)
        places = map_places(page)
        legal = game.view("carthage")["legal_actions"]
        # every place highlighted is a legal answer, and every legal answer that is a place
        assert set(places) == {a for a in legal if isinstance(a, str) and a in spaces}
        if places:
            place = rng.choice(places)
            page.locator(f'#map .place.option[data-place="{place}"] .ring').click()
            on_map += 1
        else:
            options = page.locator("#options button")
            options.nth(rng.randrange(options.count())).click()
            buttons += 1
        page.wait_for_function("n => Number(document.body.dataset.decisions) > n ||"
                               " !document.getElementById('result').hidden", arg=made)
    game = server.game(game_id)
    assert game.over and page.inner_text("#result").startswith("result: ")
    assert on_map >= 30, (on_map, buttons)
    print(f"Hannibal by the map: {on_map} clicks on the map, {buttons} on buttons, "
          f"{time.monotonic() - t0:.0f} s")
    page.context.close()


def to_a_place_question(page: Any) -> None:
    """Answer with the first button until a question is answered by places on the map."""
    for _ in range(200):
        assert wait_ready(page) == "mine"
        page.wait_for_function("() => document.body.dataset.mapDecisions == "
                               "document.body.dataset.decisions")
        if page.locator(PLACE).count():
            return
        made = page.evaluate("() => document.body.dataset.decisions")
        page.locator("#options button").first.click()
        page.wait_for_function("n => document.body.dataset.decisions != n", arg=made)
    raise AssertionError("no question answered on the map")


def test_a_march_is_drawn_and_a_place_tells_what_is_there(page, server):
    start(page, server, side="carthage", others="random", pack="hannibal", seed=7)
    to_a_place_question(page)  # Hannibal's first march
    first = map_places(page)[0]
    made = page.evaluate("() => document.body.dataset.decisions")
    page.locator(PLACE).first.click()
    page.wait_for_function("n => document.body.dataset.decisions != n", arg=made)
    page.wait_for_function("() => document.body.dataset.mapDecisions == "
                           "document.body.dataset.decisions")
    # the step just made is drawn, from where the leader stood to the place clicked
    paths = page.eval_on_selector_all("#map .path", "ns => ns.map(n => n.textContent)")
    assert any("Hannibal" in p for p in paths), paths
    place = page.locator(f'#map .place[data-place="{first}"]')
    title = place.locator(":scope > title").text_content()
    assert "Hannibal" in title  # the place's tooltip: what stands there
    assert "Carthage" in place.locator(".stack title").first.text_content()


def test_the_keyboard_answers_on_the_map_and_moves_it(page, server):
    start(page, server, side="carthage", others="random", pack="ante_portas", seed=2)
    # seed 000 (Ante Portas) §5: Carthage chooses its secret target among the cities
    to_a_place_question(page)
    made = page.evaluate("() => document.body.dataset.decisions")
    page.focus("#map")
    before = page.get_attribute("#map", "viewBox")
    page.keyboard.press("+")
    zoomed = page.get_attribute("#map", "viewBox")
    assert float(zoomed.split()[2]) < float(before.split()[2])
    page.keyboard.press("ArrowRight")
    assert float(page.get_attribute("#map", "viewBox").split()[0]) > float(zoomed.split()[0])
    page.keyboard.press("0")
    assert page.get_attribute("#map", "viewBox") == before
    page.keyboard.press("Tab")  # from the map to its first highlighted place
    focused = page.evaluate("() => document.activeElement.dataset.place")
    assert focused in map_places(page)
    page.keyboard.press("Enter")
    page.wait_for_function("n => document.body.dataset.decisions != n", arg=made)
    tokens = page.eval_on_selector_all("#map .token", "ns => ns.map(n => n.dataset.var)")
    assert "hannibal" in tokens and "target" in tokens  # Carthage sees its own target


def test_pan_and_zoom_with_the_mouse_and_the_buttons(page, server):
    start(page, server, side="rome", others="random", pack="hannibal", seed=3)
    page.wait_for_selector("#map .place")
    width = lambda: float(page.get_attribute("#map", "viewBox").split()[2])  # noqa: E731
    home = width()
    page.click("#zoom-in")
    assert width() < home
    page.click("#zoom-reset")
    assert width() == home
    box = page.locator("#map").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    assert width() < home
    x0 = float(page.get_attribute("#map", "viewBox").split()[0])
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 100, box["y"] + box["height"] / 2, steps=5)
    page.mouse.up()
    assert float(page.get_attribute("#map", "viewBox").split()[0]) > x0  # dragged leftwards


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
def test_the_map_fits_a_laptop_and_a_phone(browser, server, size):
    width, height = size
    page = browser.new_context(viewport={"width": width, "height": height},
                               has_touch=width < 600).new_page()
    page.set_default_timeout(60_000)
    start(page, server, side="carthage", others="random", pack="ante_portas", seed=4)
    to_a_place_question(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width  # no sideways
    box = page.locator("#map").bounding_box()
    assert box["width"] >= width * 0.8 if width < 600 else box["width"] >= 600
    assert box["y"] + box["height"] <= height  # the whole map in the first screen
    shoot(page, f"ante-portas-{width}x{height}")
    made = page.evaluate("() => document.body.dataset.decisions")
    page.locator(PLACE).first.click()  # a tap on a phone
    page.wait_for_function("n => document.body.dataset.decisions != n", arg=made)
    page.context.close()
