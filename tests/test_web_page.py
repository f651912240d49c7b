"""The reference web page of `engine serve`, in headless Chromium (Debian's package) driven
by Playwright: a whole game of Ante Portas against the bot, a reload that resumes, two
browsers on one game that never see each other's hands, the page in Hungarian.

Chromium is found at /usr/bin/chromium (or $ENGINE_CHROMIUM); never downloaded. Without
it the tests skip, unless ENGINE_BROWSER_TESTS=required (set by .ci/run): then they fail.
The whole-game test and the card texts' test save the page as test artifacts
(tests/browser.py `shoot`: $ENGINE_ARTIFACTS, default artifacts/).
"""
from __future__ import annotations

import time

import pytest
from browser import WAIT_MS, Server, shoot, start, wait_ready

from engine.i18n.translations import catalog


@pytest.fixture(scope="module")
def server(web_server: Server) -> Server:
    return web_server


def test_a_whole_game_against_the_bot_to_its_result(page, server):
    t0 = time.process_time()
    game_id = start(page, server)
    clicks = 0
    while wait_ready(page) == "mine":
        assert page.inner_text("#prompt").startswith("Carthage")
        buttons = page.locator("#options button")
        buttons.nth(buttons.count() - 1).click()
        clicks += 1
        if clicks == 8:
            wait_ready(page)
            shoot(page, "ante-portas-mid-game")
    game = server.game(game_id)
    assert game.over and clicks > 5
    shown = page.inner_text("#result")
    assert shown.startswith("result: ") and game.result.winner.capitalize() in shown
    assert page.locator("#log li").last.inner_text().startswith("game over")
    print(f"whole game: {clicks} clicks, {time.process_time() - t0:.1f} s CPU in this process")


def test_a_game_against_the_search_bot(page, server):
    """The form offers the search bot, and the game plays on with it in Rome's seat."""
    game_id = start(page, server, others="mcts", seed=5)
    assert "Rome: the search bot (MCTS)" in page.inner_text("#seats")
    for _ in range(4):
        assert wait_ready(page) == "mine"
        page.locator("#options button").first.click()
    wait_ready(page)
    game = server.game(game_id)
    assert server.app.state.tables.get(game_id).seats["rome"] == "mcts"
    assert game.over or len(game.actions) >= 4


def test_a_reload_mid_game_resumes_exactly(page, server):
    start(page, server, seed=11)
    for _ in range(3):
        assert wait_ready(page) == "mine"
        page.locator("#options button").first.click()
    assert wait_ready(page) == "mine"
    parts = ("#title", "#board", "#prompt", "#options", "#log")
    before = {p: page.inner_text(p) for p in parts}
    page.reload()
    assert wait_ready(page) == "mine"
    assert {p: page.inner_text(p) for p in parts} == before
    assert "card 3" in before["#board"] or "march time" in before["#board"]  # values shown


def hidden_names(server: Server, game_id: str, owner: str, viewer: str) -> list[str]:
    """The names of the cards in `owner`'s hand that `viewer` may not see."""
    game = server.game(game_id)
    shown = game.view(viewer)["zones"][f"hand|{owner}"]
    seen = set(shown["revealed"]) if isinstance(shown, dict) else set(shown)
    cat = catalog(game.pack, "en")
    return [cat.name(c) for c in game.zone("hand", owner) if c not in seen]


def test_two_browsers_on_one_game_never_see_each_others_hands(browser, server):
    pages = {}
    for side in ("carthage", "rome"):
        context = browser.new_context()
        pages[side] = context.new_page()
        pages[side].set_default_timeout(WAIT_MS)
    game_id = start(pages["carthage"], server, others="person", seed=21)
    rome = pages["rome"]
    rome.goto(f"{server.url}/?game={game_id}")
    rome.click("#join button")  # the one free seat: Rome
    rome.wait_for_function("() => document.getElementById('title').textContent"
                           ".includes('Rome')")
    other = {"carthage": "rome", "rome": "carthage"}
    moves = {"carthage": 0, "rome": 0}
    checked = 0
    while sum(moves.values()) < 16 and not server.game(game_id).over:
        decider = server.game(game_id).decider
        page = pages[decider]
        page.wait_for_function("() => document.querySelector('#options button:not([disabled])')")
        for side, p in pages.items():
            p.wait_for_function("n => document.body.dataset.decisions == n",
                                arg=str(server.game(game_id).state["decisions"]))
            text = p.inner_text("body")
            secret = hidden_names(server, game_id, other[side], side)
            assert secret and not [n for n in secret if n in text], side
            own = hidden_names(server, game_id, side, other[side])
            assert all(n in text for n in own), side  # a player sees its own hand
            checked += 1
        made = server.game(game_id).state["decisions"]
        page.locator("#options button").first.click()
        page.wait_for_function("n => Number(document.body.dataset.decisions) > n", arg=made)
        moves[decider] += 1
    assert moves["carthage"] and moves["rome"] and checked >= 20
    for p in pages.values():
        p.context.close()


def test_the_page_in_hungarian(page, server):
    page.goto(f"{server.url}/?lang=hu")
    page.wait_for_selector("#new-game:not([hidden])")
    assert page.inner_text("#title") == "Új játék"
    assert "Te vagy" in page.inner_text("#new-game-form")
    start(page, server, seed=4, lang="hu")
    assert page.inner_text("#prompt").startswith("Karthágó")
    board = page.inner_text("#board")
    assert "tábla:" in board and "lapszám" in board and "menetidő" in board
    assert page.inner_text("#table h2[data-word=log]") == "Napló"


def test_choices_too_many_to_list_are_ticked_and_put_in_order(page, server):
    game_id = start(page, server, side="red", pack="choicegame", seed=1)
    assert page.inner_text("#prompt") == "red: Pick 2 to 5 tokens"
    page.get_by_label("Ivy").check()
    page.get_by_label("Jar").check()
    page.locator("#options button").last.click()  # send
    page.wait_for_function("() => document.body.dataset.decisions == '1'")
    names = ["Horn", "Gem", "Feather", "Egg", "Die", "Coin", "Bell", "Acorn"]
    for name in names:
        page.locator("#options button", has_text=name).click()
    assert page.inner_text("#options p") == " → ".join(names)
    page.locator("#options button").last.click()
    assert wait_ready(page) == "over"
    assert page.inner_text("#result") == "result: red wins"
    assert server.game(game_id).actions == [["t9", "t10"], [f"t{i}" for i in range(8, 0, -1)]]


def test_cards_show_their_texts_in_the_hand_the_options_and_the_log(page, server):
    # seed 002 (Hannibal rules) §6: a strategy card is played for its event or its ops; a
    # player deciding reads each card's event (our words) in the hand, on an option that
    # plays the card and, on hover or keyboard focus, where the log names a card played
    game_id = start(page, server, side="rome", pack="hannibal", seed=1)
    game = server.game(game_id)
    cat = catalog(game.pack, "en")
    hand = game.zone("hand", "rome")
    cards = page.locator("#board .card")
    assert cards.count() >= 5
    shown = " ".join(cards.locator(".card-text").all_inner_texts())
    for card in hand:
        assert cat.text(card) in shown
        assert cat.name(card) in page.inner_text("#board")
    first = cards.first
    assert first.get_attribute("title") == first.locator(".card-text").inner_text()
    legal = game.view("rome")["legal_actions"]
    card = next(a for a in legal if isinstance(a, str))
    button = page.locator("#options button").first
    assert button.get_attribute("title") == cat.text(card)
    assert button.locator(".label").inner_text().startswith(cat.name(card))
    assert button.locator(".option-text").inner_text() == cat.text(card)
    assert page.locator("#options button").last.locator(".option-text").count() == 0  # pass
    # keyboard: the first option focused, Enter plays the card
    made = game.state["decisions"]
    page.focus("#options button >> nth=0")
    page.keyboard.press("Enter")
    page.wait_for_function("n => Number(document.body.dataset.decisions) > n", arg=made)
    for _ in range(40):
        if page.locator("#log .card-name").count() or wait_ready(page) == "over":
            break
        made = int(page.evaluate("() => document.body.dataset.decisions"))
        page.locator("#options button").first.click()
        page.wait_for_function("n => Number(document.body.dataset.decisions) > n", arg=made)
    named = page.locator("#log .card-name").first
    text = named.get_attribute("title")
    assert text and named.locator(".tip").is_hidden()
    played = next(c for c in game.pack.records if cat.text(c) == text)
    assert named.inner_text() == cat.name(played)  # the name alone, the text not shown
    assert named.evaluate("n => n.closest('li').textContent").startswith("Rome plays")
    named.focus()
    assert named.locator(".tip").is_visible() and named.locator(".tip").inner_text() == text
    shoot(page, "hannibal-card-texts")
