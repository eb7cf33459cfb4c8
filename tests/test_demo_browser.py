"""``cardbot demo`` in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``; .ci/run installs them) driven by Selenium through /usr/bin/chromedriver,
never a downloaded browser. Through the page only, as a newcomer would: open a durak table,
join, add a computer, open the private chats from the table's link, start, play the cards
from the private chats until the result is posted; then one preferans hand up to its score
sheet. A failure saves a screenshot and the page's HTML (the path is in the message)."""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path
from typing import Callable

import pytest

from tests.demo_process import GROUP, DemoProcess
from tests.e2e import CARD_LABEL, sensible_choice

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = "no Chromium here: apt-get install chromium chromium-driver (.ci/run does)"
if os.environ.get("CARDBOT_REQUIRE_BROWSER") != "1":
    pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)

ALICE, BOB = 1, 2
STEP = 20.0  # seconds any one thing may take to show up on the page


@pytest.fixture
def browser(tmp_path, monkeypatch):
    assert CHROMIUM and CHROMEDRIVER, MISSING  # CARDBOT_REQUIRE_BROWSER=1: a missing browser fails
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager must not fetch anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def demo():
    process = DemoProcess()
    yield process
    process.stop()


class Page:
    """The demo page as a person uses it: panes, bubbles, buttons, the composer."""

    def __init__(self, driver, url: str) -> None:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By

        self.driver, self.By, self.Stale = driver, By, StaleElementReferenceException
        driver.get(url)
        self.wait(lambda: driver.execute_script("return document.body.dataset.ready") == "1", "the page to load")

    def wait(self, predicate: Callable, what: str, timeout: float = STEP):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = predicate()
            except self.Stale:  # a message was edited while we read it: read again
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}")

    def pane(self, chat_id: int):
        return self.driver.find_element(self.By.CSS_SELECTOR, f'section.chat[data-chat="{chat_id}"]')

    def bot_messages(self, chat_id: int) -> list:
        return self.pane(chat_id).find_elements(self.By.CSS_SELECTOR, ".message.bot")

    def texts(self, chat_id: int) -> list[str]:
        return self.driver.execute_script(TEXTS_JS, chat_id)

    def buttons(self, message) -> list:
        return message.find_elements(self.By.CSS_SELECTOR, ".keyboard button")

    def press(self, chat_id: int, label: Callable[[str], bool] | str, what: str = "") -> None:
        """Press the button (chosen by its text) of the newest bot message in the chat that has it."""
        wanted = (lambda text: text == label) if isinstance(label, str) else label

        def find_and_click() -> bool:
            for message in reversed(self.bot_messages(chat_id)):
                for button in self.buttons(message):
                    if wanted(button.text):
                        button.click()  # stale (edited meanwhile): wait() looks again
                        return True
            return False

        self.wait(find_and_click, f"button {what or label!r} in chat {chat_id}")

    def type(self, chat_id: int, text: str) -> None:
        field = self.pane(chat_id).find_element(self.By.CSS_SELECTOR, ".composer input")
        field.send_keys(text)
        self.pane(chat_id).find_element(self.By.CSS_SELECTOR, ".composer button").click()

    def be(self, person: int) -> None:
        from selenium.webdriver.support.select import Select

        Select(self.driver.find_element(self.By.ID, "person")).select_by_value(str(person))

    def shows(self, chat_id: int, fragment: str, what: str = "", timeout: float = STEP) -> str:
        return self.wait(
            lambda: next((t for t in self.texts(chat_id) if fragment in t), None), what or repr(fragment), timeout
        )

    def play(self, people: list[int], over: Callable[[], bool], choose: Callable, max_presses: int = 400) -> int:
        """Whoever has buttons under their hand presses one, chosen by ``choose``, until
        ``over()``; each press waits for that hand to change. Returns the presses made.
        The page is read with one script per look (Selenium round trips are slow); the
        press itself is a real click."""
        rng, presses = random.Random(3), 0
        deadline = time.monotonic() + 600  # wall clock: generous, a loaded machine presses slowly
        while presses < max_presses and time.monotonic() < deadline:
            if over():
                return presses
            move = self.driver.execute_script(MOVES_JS, people)
            if not move:
                time.sleep(0.05)
                continue
            presses += 1
            data = choose([tuple(label) for label in move["labels"]], rng)
            pane = f'section.chat[data-chat="{move["chat"]}"]'
            message = f'{pane} .message[data-message="{move["message"]}"][data-pressed]'
            try:
                for button in self.driver.find_elements(self.By.CSS_SELECTOR, f"{message} .keyboard button"):
                    if button.get_attribute("data-callback") == data:
                        button.click()
                        break
            except self.Stale:
                # the bot edited this hand between the look and the click (the other
                # player's move changed it): nothing was pressed, look again
                presses -= 1
                continue
            try:  # the page replaces an edited message's element: the marked one goes away
                self.wait(lambda: not self.driver.find_elements(self.By.CSS_SELECTOR, message), "", timeout=5)
            except AssertionError:
                pass  # the same hand again (a refused press shows a toast): choose again
        raise AssertionError(f"the game did not end ({presses} presses)")


# The newest message with callback buttons in the first of the given private chats that has
# one; it is marked (data-pressed) so that its replacement by an edit can be seen.
MOVES_JS = """
for (const person of arguments[0]) {
  const messages = [...document.querySelectorAll(`section.chat[data-chat="${person}"] .message.bot`)];
  for (const message of messages.reverse()) {
    const buttons = [...message.querySelectorAll(".keyboard button[data-callback]")];
    if (!buttons.length) continue;
    message.dataset.pressed = "1";
    return {chat: person, message: message.dataset.message,
            labels: buttons.map((b) => [b.textContent, b.dataset.callback])};
  }
}
return null;
"""
TEXTS_JS = """
return [...document.querySelectorAll(`section.chat[data-chat="${arguments[0]}"] .message.bot .text`)]
  .map((text) => text.innerText);
"""


def _hand(text: str) -> set[str]:
    line = next(line for line in text.splitlines() if line.startswith("Your cards"))
    return set(CARD_LABEL.findall(line))


def durak_choice(labels: list[tuple[str, str]], rng: random.Random) -> str:
    return sensible_choice(None, labels, rng)


def preferans_choice(labels: list[tuple[str, str]], rng: random.Random) -> str:
    """Play a card when one is asked for, pass in the auction and the defence, else the first button."""
    cards = [d for t, d in labels if CARD_LABEL.fullmatch(t)]
    passes = [d for t, d in labels if t == "Pass"]
    return (cards or passes or [labels[0][1]])[0]


def test_durak_game_and_a_preferans_hand_in_the_browser(browser, demo, tmp_path):
    started = time.monotonic()
    page = Page(browser, demo.url)
    try:
        # Alice opens a durak table in the group and adds a computer
        page.type(GROUP, "/durak")
        page.shows(GROUP, "Durak", "the durak table")
        page.press(GROUP, "+ Computer")
        lobby_has = lambda line: lambda: line in page.texts(GROUP)[-1]  # noqa: E731
        # every press edits the table and its buttons: a press on the old ones is refused
        page.wait(lobby_has("\n2. "), "the computer seated")
        # the short game: 24 cards (36 -> 52 -> 24)
        page.press(GROUP, "36 cards")
        page.press(GROUP, "52 cards")
        page.wait(lobby_has("24 cards"), "the 24-card deck")
        # Bob joins; nobody opened the private chat yet, so the table links to it
        page.be(BOB)
        page.press(GROUP, "Join")
        page.press(GROUP, lambda text: "private chat" in text, "open a private chat")
        page.pane(BOB).find_element(page.By.CSS_SELECTOR, ".start-button").click()
        page.shows(BOB, "All set", "the bot's welcome to Bob")
        page.be(ALICE)
        page.press(GROUP, lambda text: "private chat" in text, "open a private chat")
        page.pane(ALICE).find_element(page.By.CSS_SELECTOR, ".start-button").click()
        page.shows(ALICE, "All set", "the bot's welcome to Alice")
        page.wait(lobby_has("3. ✅ Bob"), "Bob seated with his private chat open")
        page.wait(lobby_has("1. ✅ Alice"), "Alice's private chat open")
        page.press(GROUP, "▶️ Start")
        page.shows(ALICE, "\nYour cards:", "Alice's hand")
        assert not page.pane(BOB).is_displayed()  # one private chat at a time: the person chosen

        # both private chats side by side; each plays from their own hand
        browser.find_element(page.By.ID, "side-by-side").click()
        assert page.pane(ALICE).is_displayed() and page.pane(BOB).is_displayed()
        bob_hand = page.shows(BOB, "\nYour cards:", "Bob's hand")
        # each private chat shows its owner's cards only, and the group shows neither hand
        alice_cards, bob_cards = _hand(page.shows(ALICE, "\nYour cards:")), _hand(bob_hand)
        assert len(alice_cards) == len(bob_cards) == 6 and not alice_cards & bob_cards
        group_cards = set(CARD_LABEL.findall(page.texts(GROUP)[-1]))
        assert not group_cards & (alice_cards | bob_cards), group_cards
        set_up = time.monotonic() - started
        presses = page.play([ALICE, BOB], lambda: any("Game 1 is over" in t for t in page.texts(GROUP)), durak_choice)
        result = page.shows(GROUP, "Game 1 is over")
        assert presses > 5 and ("Durak" in result or "Draw" in result), result
        # the bot's <b> is bold on the page
        titles = browser.find_elements(page.By.CSS_SELECTOR, f'section[data-chat="{GROUP}"] .bubble b')
        assert titles and int(titles[-1].value_of_css_property("font-weight")) >= 600
        durak_seconds = time.monotonic() - started

        # one preferans hand: Alice and two computers, up to the score sheet
        page.type(GROUP, "/cancel")
        page.wait(lambda: not any("Game 1 is over" in t for t in page.texts(GROUP)[-1:]), "the table closed")
        # the first time the group is asked which preferans. After a whole game the group may
        # be in Telegram's flood wait (the demo emulator keeps 20 messages a minute): the bot
        # then drops a command's reply rather than stall, and a person types it again
        for _ in range(6):
            page.type(GROUP, "/preferans")
            try:
                page.shows(GROUP, "Which preferans?", "the preferans chooser", timeout=12)
                break
            except AssertionError:
                continue
        page.press(GROUP, "Balkan")
        page.shows(GROUP, "Preferans", "the preferans table")
        page.press(GROUP, "+ Computer")
        page.wait(lobby_has("\n2. "), "a computer seated")
        page.press(GROUP, "+ Computer")
        page.wait(lobby_has("\n3. "), "three seats taken")
        page.press(GROUP, "▶️ Start")
        page.play([ALICE], lambda: any("hand 1" in t and "Soup on" in t for t in page.texts(GROUP)), preferans_choice)
        sheet = page.shows(GROUP, "Soup on", "the preferans score sheet")
        assert "Bula" in sheet and "Alice" in sheet
        # the sheet's table is a <pre> block in a monospace font, its columns kept
        grid = browser.find_elements(page.By.CSS_SELECTOR, f'section[data-chat="{GROUP}"] .bubble pre')[-1]
        assert "Soup on" in grid.text and "mono" in grid.value_of_css_property("font-family").lower()
        assert grid.value_of_css_property("white-space") == "pre"
        total = time.monotonic() - started
        print(
            f"\ndurak table set up in {set_up:.1f} s, game over at {durak_seconds:.1f} s ({presses} presses),"
            f" preferans sheet at {total:.1f} s"
        )

        # a phone-sized screen: one chat at a time, tabs switch between them
        browser.set_window_size(390, 844)
        page.wait(lambda: browser.find_element(page.By.ID, "tabs").is_displayed(), "the phone tabs")
        browser.find_element(page.By.CSS_SELECTOR, '#tabs [data-tab="group"]').click()
        page.wait(lambda: page.pane(GROUP).is_displayed() and not page.pane(ALICE).is_displayed(), "the group tab")
        browser.find_element(page.By.CSS_SELECTOR, '#tabs [data-tab="private"]').click()
        page.wait(lambda: page.pane(ALICE).is_displayed() and not page.pane(GROUP).is_displayed(), "the DM tab")
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400, f"the page is {width}px wide on a 390px screen"
    except BaseException:
        shots = Path(os.environ.get("CARDBOT_SCREENSHOTS") or tmp_path)
        shots.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(shots / "demo-failure.png"))
        (shots / "demo-failure.html").write_text(browser.page_source, encoding="utf-8")
        (shots / "demo-output.txt").write_text("".join(demo.output), encoding="utf-8")
        print(f"\nscreenshot, page and demo output saved in {shots}")
        raise
