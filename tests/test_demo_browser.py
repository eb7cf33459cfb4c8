"""``cardbot demo`` in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``; .ci/run installs them) driven by Selenium through /usr/bin/chromedriver,
never a downloaded browser. Through the page only, as a newcomer would: open a durak table
with the empty group's hint, join, add a computer, open the private chats from the table's
link, start, play the cards from the private chats until the result is posted; then a short
Balkan preferans pulka (bula 10, two computers) to its end, whose score-sheet picture shows
in the group and opens enlarged; the /history record and the bridge /export file downloaded
through the page's links, the record replayed with ``cardbot replay``; on a phone-sized
screen the tabs with their unread badge and "your turn" mark. On the way: toasts let clicks
through, and a new message below a scrolled-up view shows the "new messages" chip. A
failure saves a screenshot and the page's HTML (the path is in the message)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from tests.demo_process import GROUP, ROOT, DemoProcess
from tests.e2e import CARD_LABEL, any_move

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = "no Chromium here: apt-get install chromium chromium-driver (.ci/run does)"
if os.environ.get("CARDBOT_REQUIRE_BROWSER") != "1":
    pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason=MISSING)

ALICE, BOB = 1, 2
STEP = 60.0  # seconds any one thing may take to show up on the page (generous: a loaded machine)


@pytest.fixture
def downloads(tmp_path) -> Path:
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


@pytest.fixture
def browser(downloads, monkeypatch):
    assert CHROMIUM and CHROMEDRIVER, MISSING  # CARDBOT_REQUIRE_BROWSER=1: a missing browser fails
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")  # Selenium Manager must not fetch anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(argument)
    # the page's download links save here, without asking
    options.add_experimental_option(
        "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    )
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

    def command(self, chat_id: int, text: str, answered: Callable, what: str, typed: bool = False, tries: int = 6):
        """Type a command (unless just ``typed``) and wait for its answer. A group in
        Telegram's flood wait (the demo emulator keeps 20 messages a minute) may have the bot
        drop a command's reply rather than stall: a person types it again."""
        for attempt in range(tries):
            if attempt or not typed:
                self.type(chat_id, text)
            try:
                return self.wait(answered, what, timeout=20)
            except AssertionError:
                continue
        raise AssertionError(f"no answer to {text} in chat {chat_id}: {what}")

    def newest(self, chat_id: int) -> int:
        """The id of the chat's newest message on the page (0: none)."""
        return self.driver.execute_script(NEWEST_JS, chat_id)

    def after(self, chat_id: int, after: int, selector: str) -> list:
        """The elements matching ``selector`` in the chat's bot messages newer than ``after``.
        A message the page redraws meanwhile (an edit of its buttons) is read again."""
        from selenium.common.exceptions import StaleElementReferenceException

        for attempt in range(5):
            try:
                messages = self.bot_messages(chat_id)
                newer = [m for m in messages if int(m.get_attribute("data-message")) > after]
                return [element for m in newer for element in m.find_elements(self.By.CSS_SELECTOR, selector)]
            except StaleElementReferenceException:
                if attempt == 4:
                    raise
                time.sleep(0.2)
        raise AssertionError("unreachable")

    def buttons_after(self, chat_id: int, after: int, starts: str) -> list:
        """The buttons whose text starts with ``starts`` under bot messages newer than ``after``."""
        return [b for b in self.after(chat_id, after, ".keyboard button") if b.text.startswith(starts)]

    def documents(self, chat_id: int, after: int = 0, suffix: str = "") -> list:
        """The download links of the chat's file messages newer than ``after``."""
        links = self.after(chat_id, after, "a.document")
        return [a for a in links if (a.get_attribute("download") or "").endswith(suffix)]

    def download(self, link, folder: Path) -> Path:
        """Click a file message's link; the file as Chromium saved it."""
        name = link.get_attribute("download")
        assert name and f"token={self.token}" in link.get_attribute("href"), link.get_attribute("href")
        link.click()
        file = folder / name
        self.wait(lambda: file.is_file() and not (folder / f"{name}.crdownload").exists(), f"{name} downloaded")
        return file

    @property
    def token(self) -> str:
        return self.driver.execute_script('return document.querySelector("meta[name=demo-token]").content')

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
NEWEST_JS = """
const ids = [...document.querySelectorAll(`section.chat[data-chat="${arguments[0]}"] .message`)]
  .map((m) => Number(m.dataset.message));
return ids.length ? Math.max(...ids) : 0;
"""
# The group's picture once it has loaded: the <img> of the newest picture message.
PICTURE_JS = """
const pictures = document.querySelectorAll(`section.chat[data-chat="${arguments[0]}"] .message.bot img.photo`);
const img = pictures[pictures.length - 1];
return img && img.complete && img.naturalWidth > 0 ? img : null;
"""
# Whether the element at the centre of the newest toast is the toast (it must not be: a
# toast lets clicks through to what it covers).
TOAST_JS = """
const toast = [...document.querySelectorAll("#toasts .toast")].pop();
if (!toast) return null;
const box = toast.getBoundingClientRect();
const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
return {text: toast.textContent, top: box.top, screen: innerHeight, covered: toast.contains(under),
        under: under ? under.tagName : null};
"""
# A chat's message list: where it is scrolled, and the "new messages" chip.
WIDE_PRE_JS = """
const pane = document.querySelector(`section[data-chat="${arguments[0]}"] .messages`);
const message = document.createElement("div");
message.className = "message";
message.innerHTML = '<div class="bubble"><div class="text"><pre></pre></div></div>';
message.querySelector("pre").textContent = arguments[1];
pane.appendChild(message);
const pre = message.querySelector("pre");
const size = {scroll: pre.scrollWidth, client: pre.clientWidth};
message.remove();
return size;
"""
SCROLL_JS = """
const pane = document.querySelector(`section.chat[data-chat="${arguments[0]}"]`);
const list = pane.querySelector(".messages"), chip = pane.querySelector(".new-chip");
return {top: list.scrollTop, height: list.scrollHeight, client: list.clientHeight,
        chip: chip.hidden ? null : chip.textContent};
"""
# A "🔔 your turn" message from the bot in a private chat, then its deletion, as the feed
# brings them (placed directly: the page's event counter is left alone).
PING_JS = """
place({type: "message", event: arguments[1] ? "deleted" : "sent", chat: arguments[0], id: 999999,
       from: {id: 0, name: "bot", bot: true}, html: "🔔 Your turn", text: "🔔 Your turn", keyboard: [],
       edited: false, deleted: arguments[1], photo: null, document: null}, true);
"""
# Whether the person's private chat has a live move button (callback data "a:…")
HAS_MOVES_JS = """
return document.querySelector(
  `section.chat[data-chat="${arguments[0]}"] .message.bot .keyboard button[data-callback^="a:"]`) !== null;
"""
TEXTS_JS = """
return [...document.querySelectorAll(`section.chat[data-chat="${arguments[0]}"] .message.bot .text`)]
  .map((text) => text.innerText);
"""


def _hand(text: str) -> set[str]:
    line = next(line for line in text.splitlines() if line.startswith("Your cards"))
    return set(CARD_LABEL.findall(line))


def durak_choice(labels: list[tuple[str, str]], rng: random.Random) -> str:
    return any_move(None, labels, rng)


def preferans_choice(labels: list[tuple[str, str]], rng: random.Random) -> str:
    """Play a card when one is asked for, pass in the auction and the defence, else the first button."""
    cards = [d for t, d in labels if CARD_LABEL.fullmatch(t)]
    passes = [d for t, d in labels if t == "Pass"]
    return (cards or passes or [labels[0][1]])[0]


def shows_size(shown: str, size: int) -> bool:
    """Whether the size under a file's name ("812 B", "2.1 KB", "15 KB") is ``size`` bytes."""
    number, unit = shown.split()
    scale = {"B": 1, "KB": 1024, "MB": 1024 * 1024}[unit]
    return abs(float(number) * scale - size) <= (0.5 if unit == "B" else 0.051 if "." in number else 0.51) * scale


def test_durak_game_and_a_preferans_pulka_in_the_browser(browser, demo, downloads, tmp_path):
    from selenium.webdriver.common.keys import Keys

    started = time.monotonic()
    page = Page(browser, demo.url)
    By = page.By
    times: list[str] = []

    def mark(what: str) -> None:
        times.append(f"{what} at {time.monotonic() - started:.1f} s")

    try:
        # the empty group says what to type, and its button opens a durak table as Alice
        hint = page.pane(GROUP).find_element(By.CSS_SELECTOR, ".empty-hint")
        assert hint.is_displayed() and "/durak" in hint.text and "/help" in hint.text, hint.text
        hint.find_element(By.CSS_SELECTOR, ".hint-button").click()
        page.shows(GROUP, "Durak", "the durak table")
        assert not hint.is_displayed()
        assert [m.text for m in page.pane(GROUP).find_elements(By.CSS_SELECTOR, ".message.mine .text")] == ["/durak"]
        page.press(GROUP, "+ Computer")
        # the press's toast is on the page, and a click at its centre goes through it
        toast = page.wait(lambda: browser.execute_script(TOAST_JS), "a toast")
        assert not toast["covered"], toast
        assert toast["top"] > toast["screen"] / 2, f"the toast covers the top of the chats: {toast}"
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
        page.pane(BOB).find_element(By.CSS_SELECTOR, ".start-button").click()
        page.shows(BOB, "All set", "the bot's welcome to Bob")
        page.be(ALICE)
        page.press(GROUP, lambda text: "private chat" in text, "open a private chat")
        page.pane(ALICE).find_element(By.CSS_SELECTOR, ".start-button").click()
        page.shows(ALICE, "All set", "the bot's welcome to Alice")
        page.wait(lobby_has("3. ✅ Bob"), "Bob seated with his private chat open")
        page.wait(lobby_has("1. ✅ Alice"), "Alice's private chat open")
        page.press(GROUP, "▶️ Start")
        page.shows(ALICE, "\nYour cards:", "Alice's hand")
        assert not page.pane(BOB).is_displayed()  # one private chat at a time: the person chosen

        # both private chats side by side; each plays from their own hand
        browser.find_element(By.ID, "side-by-side").click()
        assert page.pane(ALICE).is_displayed() and page.pane(BOB).is_displayed()
        bob_hand = page.shows(BOB, "\nYour cards:", "Bob's hand")
        # each private chat shows its owner's cards only, and the group shows neither hand
        alice_cards, bob_cards = _hand(page.shows(ALICE, "\nYour cards:")), _hand(bob_hand)
        assert len(alice_cards) == len(bob_cards) == 6 and not alice_cards & bob_cards
        group_cards = set(CARD_LABEL.findall(page.texts(GROUP)[-1]))
        assert not group_cards & (alice_cards | bob_cards), group_cards
        mark("durak table set up")
        presses = page.play([ALICE, BOB], lambda: any("Game 1 is over" in t for t in page.texts(GROUP)), durak_choice)
        result = page.shows(GROUP, "Game 1 is over")
        assert presses > 5 and ("Durak" in result or "Draw" in result), result
        # the bot's <b> is bold on the page
        titles = browser.find_elements(By.CSS_SELECTOR, f'section[data-chat="{GROUP}"] .bubble b')
        assert titles and int(titles[-1].value_of_css_property("font-weight")) >= 600
        mark(f"durak over ({presses} presses)")
        browser.find_element(By.ID, "side-by-side").click()  # Alice's private chat only

        # a Balkan preferans pulka, bula 10: Alice and two computers, to its end
        page.type(GROUP, "/cancel")
        page.wait(lambda: not any("Game 1 is over" in t for t in page.texts(GROUP)[-1:]), "the table closed")
        # the first time the group is asked which preferans
        page.command(GROUP, "/preferans", lambda: "Which preferans?" in page.texts(GROUP)[-1], "the chooser")
        page.press(GROUP, "Balkan")
        page.shows(GROUP, "Preferans", "the preferans table")
        for shown in ("bula 50", "bula 100", "bula 10"):  # bula 30 -> 50 -> 100 -> 10
            page.press(GROUP, lambda text: text.startswith("bula "), "the bula")
            page.wait(lambda: shown in [b.text for b in page.buttons(page.bot_messages(GROUP)[-1])], shown)
        page.press(GROUP, "+ Computer")
        page.wait(lobby_has("\n2. "), "a computer seated")
        page.press(GROUP, "+ Computer")
        page.wait(lobby_has("\n3. "), "three seats taken")

        # on a phone-sized screen, one chat at a time: the group's tab shown, the start deals
        # Alice her cards in the private chat, and its tab counts the unread message
        browser.set_window_size(390, 844)
        group_tab = browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="group"]')
        private_tab = browser.find_element(By.CSS_SELECTOR, '#tabs [data-tab="private"]')
        group_badge, private_badge = (tab.find_element(By.CSS_SELECTOR, ".badge") for tab in (group_tab, private_tab))
        page.wait(group_tab.is_displayed, "the phone tabs")
        group_tab.click()
        page.wait(lambda: page.pane(GROUP).is_displayed() and not page.pane(ALICE).is_displayed(), "the group tab")
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400, f"the page is {width}px wide on a 390px screen"
        # a score sheet's widest line (40 columns, engine.text.PHONE_WIDTH; a Сочи pulka's
        # deal line) does not scroll sideways there (issue 45)
        pre = browser.execute_script(WIDE_PRE_JS, GROUP, "28. C 10 БК без 10; вист D, вист D, C 0,")
        assert pre["scroll"] <= pre["client"], f"a 40-column sheet line scrolls on a 390px screen: {pre}"
        page.press(GROUP, "▶️ Start")
        page.wait(lambda: private_badge.is_displayed() and private_badge.text == "1", "the private chat's badge")
        assert not group_badge.is_displayed()
        # Alice reads back up the group: what the bot posts below does not pull her down
        browser.execute_script(f"document.querySelector('section[data-chat=\"{GROUP}\"] .messages').scrollTop = 0")
        scrolled = browser.execute_script(SCROLL_JS, GROUP)
        assert scrolled["height"] > scrolled["client"] + 200, f"the group does not scroll: {scrolled}"
        private_tab.click()
        page.wait(lambda: page.pane(ALICE).is_displayed() and not page.pane(GROUP).is_displayed(), "the DM tab")
        page.wait(lambda: not private_badge.is_displayed(), "the badge read")
        page.shows(ALICE, "Your cards", "Alice's preferans hand")
        # her hand with move buttons marks the tab (and the pane's title): her turn
        turn = private_tab.find_element(By.CSS_SELECTOR, ".turn")
        page.wait(lambda: browser.execute_script(HAS_MOVES_JS, ALICE), "Alice's turn")
        page.wait(turn.is_displayed, "the your-turn mark")
        assert page.pane(ALICE).find_element(By.CSS_SELECTOR, ".title .turn").is_displayed()

        # hand 1 from the private chat; its score sheet comes to the group (its tab counts it)
        first_sheet = lambda: any("hand 1" in t and "Soup on" in t for t in page.texts(GROUP))  # noqa: E731
        page.play([ALICE], first_sheet, preferans_choice)
        page.wait(group_badge.is_displayed, "the group's badge")
        group_tab.click()
        sheet = page.shows(GROUP, "Soup on", "the preferans score sheet")
        assert "Bula" in sheet and "Alice" in sheet
        # the group is where Alice left it, and the chip says there is more below
        scrolled = browser.execute_script(SCROLL_JS, GROUP)
        assert scrolled["top"] < 5 and scrolled["chip"] and "new message" in scrolled["chip"], scrolled
        assert not group_badge.is_displayed()
        page.pane(GROUP).find_element(By.CSS_SELECTOR, ".new-chip").click()
        scrolled = browser.execute_script(SCROLL_JS, GROUP)
        assert scrolled["top"] + scrolled["client"] >= scrolled["height"] - 2 and not scrolled["chip"], scrolled
        # the sheet's table is a <pre> block in a monospace font, its columns kept
        grid = browser.find_elements(By.CSS_SELECTOR, f'section[data-chat="{GROUP}"] .bubble pre')[-1]
        assert "Soup on" in grid.text and "mono" in grid.value_of_css_property("font-family").lower()
        assert grid.value_of_css_property("white-space") == "pre"
        mark("preferans hand 1")

        # back on a wide screen, the pulka to its end, which posts the sheet's picture (just
        # before the closing text)
        browser.set_window_size(1400, 1000)
        page.wait(lambda: page.pane(ALICE).is_displayed() and page.pane(GROUP).is_displayed(), "both chats")
        pulka_presses = page.play(
            [ALICE], lambda: browser.execute_script(PICTURE_JS, GROUP), preferans_choice, max_presses=600
        )
        picture = page.wait(lambda: browser.execute_script(PICTURE_JS, GROUP), "the sheet's picture loaded")
        mark(f"pulka over ({pulka_presses} presses)")
        # no move left: no turn mark; the bot's "🔔 your turn" ping marks it while it lives (a
        # real one comes only to a player idle for 45 s: the page is given one)
        title_turn = page.pane(ALICE).find_element(By.CSS_SELECTOR, ".title .turn")
        page.wait(lambda: not browser.execute_script(HAS_MOVES_JS, ALICE), "no move left")
        assert not title_turn.is_displayed()
        browser.execute_script(PING_JS, ALICE, False)
        page.wait(title_turn.is_displayed, "the your-turn mark of the ping")
        browser.execute_script(PING_JS, ALICE, True)
        page.wait(lambda: not title_turn.is_displayed(), "the your-turn mark gone with the ping")
        # the group's messages go out one every few seconds (Telegram's limit): /history is
        # asked for at once, and answered while the picture is looked at
        before = page.newest(GROUP)
        page.type(GROUP, "/history")
        caption = picture.find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, ".text")
        assert caption.text and caption.location["y"] >= picture.location["y"] + picture.size["height"] - 1
        thumb_width = browser.execute_script("return arguments[0].naturalWidth", picture)
        viewer = browser.find_element(By.ID, "viewer")
        big = viewer.find_element(By.CSS_SELECTOR, "img")
        loaded = lambda: browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth", big)  # noqa: E731
        for close in ("Escape", "a click"):  # the full picture, closed with Escape, then a click
            picture.click()
            page.wait(lambda: viewer.is_displayed() and loaded(), "the picture enlarged")
            assert loaded() >= thumb_width and big.size["width"] > picture.size["width"]
            if close == "Escape":
                browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
            else:
                big.click()
            page.wait(lambda: not viewer.is_displayed(), f"the enlarged picture closed with {close}")

        # /history: a finished game's record, downloaded from the page, replays. The files go
        # out with the group's other messages, at its pace (the group may still be busy with
        # the pulka's posts): they may come late, never not at all
        page.command(GROUP, "/history", lambda: page.buttons_after(GROUP, before, "📄"), "the games", typed=True)
        page.buttons_after(GROUP, before, "📄")[0].click()  # the newest game: the pulka
        page.wait(lambda: page.documents(GROUP, before, ".json"), "the record", timeout=70)
        page.wait(lambda: page.documents(GROUP, before, ".txt"), "the deals as text", timeout=70)
        # a bridge table is opened for /export below: asked for now, answered meanwhile
        page.press(GROUP, "Close table")  # the pulka's table
        asked = page.newest(GROUP)
        page.type(GROUP, "/bridge")
        saved = {}
        for link in page.documents(GROUP, before):
            size = link.find_element(By.CSS_SELECTOR, ".file-size").text
            file = page.download(link, downloads)
            assert shows_size(size, file.stat().st_size), (file.name, size, file.stat().st_size)
            saved[file.suffix] = file
        assert ".json" in saved, saved
        record = json.loads(saved[".json"].read_text(encoding="utf-8"))
        assert record["game"] == "preferans" and record["actions"], record
        replay = subprocess.run(
            [sys.executable, "-m", "bot.cli", "replay", str(saved[".json"])],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert replay.returncode == 0, replay.stdout + replay.stderr
        assert "Alice" in saved[".txt"].read_text(encoding="utf-8")
        mark("history files replayed")

        # /export at a bridge table (in its lobby: the PBN file has no board yet)
        page.command(GROUP, "/bridge", lambda: page.buttons_after(GROUP, asked, "+ Computer"), "the bridge table", True)
        before = page.newest(GROUP)
        page.command(GROUP, "/export", lambda: page.documents(GROUP, before, ".pbn"), "the PBN file")
        pbn = page.download(page.documents(GROUP, before, ".pbn")[0], downloads)
        assert pbn.read_text(encoding="utf-8").startswith("% PBN"), pbn.read_text(encoding="utf-8")[:300]
        mark("all done")
        print("\n" + ", ".join(times))
    except BaseException:
        shots = Path(os.environ.get("CARDBOT_SCREENSHOTS") or tmp_path)
        shots.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(shots / "demo-failure.png"))
        (shots / "demo-failure.html").write_text(browser.page_source, encoding="utf-8")
        (shots / "demo-output.txt").write_text("".join(demo.output), encoding="utf-8")
        print("\n" + ", ".join(times) + f"\nscreenshot, page and demo output saved in {shots}")
        raise
