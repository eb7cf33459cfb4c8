// cardbot demo page: plays the people of the emulated Telegram. The server (bot/emulator/demo.py)
// sends the chats' state, then every change as a server-sent event; the page sends what a person
// types or presses. Message HTML comes from the server already reduced to safe tags.
"use strict";

// The page's secret, written into index.html by the server: every /api request carries it
// (POSTs in the X-Demo-Token header, GETs as ?token=), so another web site cannot act here.
const TOKEN = document.querySelector('meta[name="demo-token"]')?.content ?? "";
// the page's own words in the demo's language (bot/locales/<lang>/demo.json), put in by the server
const WORDS = JSON.parse(document.querySelector('meta[name="demo-words"]')?.content || "{}");
function word(key, params = {}) {
  let text = WORDS[key] ?? key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}
const PING = "🔔"; // the bot's "your turn" message in a private chat starts with it
const NEAR_BOTTOM = 40; // px: a list scrolled this close to its end counts as "at the bottom"
const THUMB_BOX = { width: 320, height: 360 }; // a picture in a bubble fits in this box

const view = { bot: "", people: [], chats: new Map(), me: null, seq: 0, started: new Set(), startParam: new Map() };
const main = document.getElementById("chats");
const personSelect = document.getElementById("person");
const sideBySide = document.getElementById("side-by-side");
const tabs = document.getElementById("tabs");
const viewer = document.getElementById("viewer");

function withToken(path, extra = {}) {
  const url = new URL(path, location.href);
  url.searchParams.set("token", TOKEN);
  for (const [key, value] of Object.entries(extra)) url.searchParams.set(key, value);
  return url.pathname + url.search;
}

async function post(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Demo-Token": TOKEN },
      body: JSON.stringify(body),
    });
  } catch {
    toast(word("demo.page.unreachable"));
    return {};
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) toast(answer.error || word("demo.page.failed", { status: response.status }));
  return answer;
}

// ------------------------------------------------------------------ chats
// One entry per chat: its pane, whether the person keeps it scrolled to the end (new
// messages then scroll into view), the new messages below the view (the chip), the bot's
// messages that arrived while the pane was not shown (the tab's badge) and the messages that say it is their turn.
function chatEntry(chat) {
  const pane = document.getElementById("chat-template").content.firstElementChild.cloneNode(true);
  const entry = {
    chat,
    pane,
    list: pane.querySelector(".messages"),
    chip: pane.querySelector(".new-chip"),
    stick: true,
    savedTop: 0,
    below: 0,
    unseen: 0,
    shown: false,
    turns: new Set(),
  };
  pane.classList.add(chat.type);
  pane.dataset.chat = chat.id;
  pane.querySelector(".title .name").textContent =
    chat.type === "group" ? chat.title : `${chat.title} · private chat with the bot`;
  pane.querySelector(".composer").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = event.target.elements.text;
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    post("/api/send", { user: actor(chat), chat: chat.id, text });
  });
  pane.querySelector(".start-button").addEventListener("click", () => {
    const param = view.startParam.get(chat.id);
    post("/api/send", { user: chat.id, chat: chat.id, text: param ? `/start ${param}` : "/start" });
  });
  entry.list.addEventListener("scroll", () => {
    if (!isShown(pane)) return;
    entry.stick = atBottom(entry.list);
    entry.savedTop = entry.list.scrollTop;
    if (entry.stick) hideChip(entry);
  });
  entry.chip.addEventListener("click", () => scrollDown(entry));
  if (chat.type === "group") {
    const hint = document.getElementById("hint-template").content.firstElementChild.cloneNode(true);
    hint.querySelector(".hint-button").addEventListener("click", () => {
      post("/api/send", { user: view.me, chat: chat.id, text: "/durak" });
    });
    entry.list.append(hint);
  }
  return entry;
}

// Who acts in a chat: the owner of a private chat; in the group, the person chosen above.
function actor(chat) {
  return chat.type === "private" ? chat.id : view.me;
}

function isShown(element) {
  return element.getClientRects().length > 0;
}

function atBottom(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < NEAR_BOTTOM;
}

function scrollDown(entry) {
  entry.stick = true;
  entry.list.scrollTop = entry.list.scrollHeight;
  entry.savedTop = entry.list.scrollTop;
  hideChip(entry);
}

function hideChip(entry) {
  entry.below = 0;
  entry.chip.hidden = true;
}

function showChip(entry) {
  entry.below += 1;
  entry.chip.textContent = entry.below === 1 ? word("demo.page.new_message") : word("demo.page.n_new_messages", { n: entry.below });
  entry.chip.hidden = false;
}

// A change to the list (an edit, a deletion) that keeps what the person is reading where it
// is: at the bottom it stays at the bottom, else the first message in view does not move.
function keepingPlace(entry, changed, change) {
  const { list } = entry;
  if (entry.stick || !isShown(entry.pane)) {
    change();
    if (entry.stick) scrollDown(entry);
    return;
  }
  const top = list.getBoundingClientRect().top;
  const anchor = [...list.children].find((item) => item !== changed && item.getBoundingClientRect().bottom > top);
  const before = anchor?.getBoundingClientRect().top;
  change();
  if (anchor?.isConnected) list.scrollTop += anchor.getBoundingClientRect().top - before;
  entry.savedTop = list.scrollTop;
}

function render(state) {
  view.bot = state.bot.name;
  view.people = state.people;
  view.seq = state.seq;
  view.me = view.me ?? state.people[0].id;
  personSelect.replaceChildren(...state.people.map((p) => new Option(p.name, p.id, false, p.id === view.me)));
  main.replaceChildren();
  view.chats.clear();
  for (const chat of state.chats) {
    if (chat.started) view.started.add(chat.id);
    const entry = chatEntry(chat);
    view.chats.set(chat.id, entry);
    main.append(entry.pane);
  }
  for (const message of state.messages) place(message, false);
  refreshVisibility();
  for (const entry of view.chats.values()) scrollDown(entry);
}

function refreshVisibility() {
  for (const { chat, pane } of view.chats.values()) {
    if (chat.type !== "private") continue;
    pane.hidden = !sideBySide.checked && chat.id !== view.me;
    const started = view.started.has(chat.id);
    pane.querySelector(".composer").hidden = !started;
    pane.querySelector(".start-button").hidden = started;
  }
  syncShown();
}

// After anything that may show or hide a pane (the person, the tab, the window's width):
// a pane that comes into view continues where it was, and its tab's badge is read.
function syncShown() {
  for (const entry of view.chats.values()) {
    const shown = isShown(entry.pane);
    if (shown && !entry.shown) {
      if (entry.stick) scrollDown(entry);
      else entry.list.scrollTop = entry.savedTop;
      entry.unseen = 0;
    }
    entry.shown = shown;
  }
  refreshMarks();
}

// The phone tabs' unread badges and "your turn" mark, and the private panes' turn marks.
function refreshMarks() {
  const group = [...view.chats.values()].find((entry) => entry.chat.type === "group");
  const mine = view.chats.get(view.me);
  setBadge(tabs.querySelector('[data-tab="group"] .badge'), group?.unseen ?? 0);
  setBadge(tabs.querySelector('[data-tab="private"] .badge'), mine?.unseen ?? 0);
  const turn = Boolean(mine?.turns.size);
  tabs.querySelector('[data-tab="private"] .turn').hidden = !turn;
  tabs.querySelector('[data-tab="private"]').classList.toggle("your-turn", turn);
  for (const entry of view.chats.values()) {
    entry.pane.querySelector(".title .turn").hidden = !entry.turns.size;
    entry.pane.classList.toggle("your-turn", entry.turns.size > 0);
  }
}

function setBadge(badge, count) {
  badge.hidden = count === 0;
  badge.textContent = count > 99 ? "99+" : String(count);
}

// ------------------------------------------------------------------ messages
function bubble(message, entry) {
  const item = document.createElement("div");
  item.className = "message" + (message.from.bot ? " bot" : " mine");
  item.dataset.message = message.id;
  const box = document.createElement("div");
  box.className = "bubble";
  if (entry.chat.type === "group" && !message.from.bot) {
    const who = document.createElement("div");
    who.className = "sender";
    who.textContent = message.from.name;
    box.append(who);
  }
  if (message.photo) {
    box.classList.add("has-photo");
    box.append(photoView(message.photo, entry));
  }
  if (message.document) box.append(documentLink(message.document));
  if (message.html) {
    const body = document.createElement("div");
    body.className = "text";
    body.innerHTML = message.html;
    box.append(body);
  }
  if (message.edited) {
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = word("demo.page.edited");
    box.append(meta);
  }
  item.append(box);
  if (message.keyboard.length) item.append(keyboard(message, entry.chat));
  return item;
}

// A picture: its small size in the bubble, sized before it loads (the list does not jump),
// a click shows the full picture.
function photoView(photo, entry) {
  const scale = Math.min(1, THUMB_BOX.width / photo.width, THUMB_BOX.height / photo.height);
  const img = document.createElement("img");
  img.className = "photo";
  img.alt = "picture";
  img.width = Math.max(1, Math.round(photo.width * scale));
  img.height = Math.max(1, Math.round(photo.height * scale));
  img.src = withToken(photo.thumb);
  img.addEventListener("load", () => {
    if (entry.stick && isShown(entry.pane)) scrollDown(entry);
  });
  img.addEventListener("click", () => openViewer(photo));
  return img;
}

function openViewer(photo) {
  const img = viewer.querySelector("img");
  img.removeAttribute("src");
  img.src = withToken(photo.url);
  viewer.querySelector(".download").href = withToken(photo.url, { download: "1" });
  viewer.hidden = false;
}

function closeViewer() {
  viewer.hidden = true;
}

function documentLink(file) {
  const link = document.createElement("a");
  link.className = "document";
  link.href = withToken(file.url);
  link.download = file.file_name;
  link.title = word("demo.page.download_file", { name: file.file_name });
  const icon = document.createElement("span");
  icon.className = "icon";
  icon.textContent = "📄";
  const name = document.createElement("span");
  name.className = "file-name";
  name.textContent = file.file_name;
  const size = document.createElement("span");
  size.className = "file-size";
  size.textContent = humanSize(file.size);
  const about = document.createElement("span");
  about.className = "about";
  about.append(name, size);
  link.append(icon, about);
  return link;
}

function humanSize(bytes) {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function keyboard(message, chat) {
  const rows = document.createElement("div");
  rows.className = "keyboard";
  for (const row of message.keyboard) {
    const line = document.createElement("div");
    line.className = "row";
    for (const button of row) {
      const key = document.createElement("button");
      key.type = "button";
      key.textContent = button.text;
      if (button.data) key.dataset.callback = button.data;
      key.addEventListener("click", async () => {
        if (button.url) return openLink(button.url, actor(chat));
        key.classList.add("pending");
        await post("/api/press", { user: actor(chat), chat: chat.id, message_id: message.id, data: button.data });
        key.classList.remove("pending");
      });
      line.append(key);
    }
    rows.append(line);
  }
  return rows;
}

// A t.me link to the bot opens the person's private chat here, as Telegram would (its
// ?start= parameter goes with the START button); other links open in a new tab.
function openLink(url, person) {
  const link = new URL(url);
  if (link.host !== "t.me" || link.pathname.slice(1).toLowerCase() !== view.bot.toLowerCase()) {
    return window.open(url, "_blank", "noopener");
  }
  const param = link.searchParams.get("start");
  if (param) view.startParam.set(person, param);
  view.me = person;
  personSelect.value = String(person);
  showTab("private");
  refreshVisibility();
}

function showTab(tab) {
  main.dataset.tab = tab;
  for (const button of tabs.children) button.classList.toggle("active", button.dataset.tab === tab);
  syncShown();
}

// Whether a bot message in a private chat says it is that person's turn: the "🔔 your turn"
// ping (live until the bot deletes it), or a hand with move buttons (the bot pings only a
// player idle for a while, so during brisk play the hand's buttons are the only sign).
const MOVE_DATA = "a:"; // callback data of a move button (bot/screens.py)
function trackTurn(entry, message) {
  if (entry.chat.type !== "private") return;
  const ping = (message.text || "").trimStart().startsWith(PING);
  const moves = (message.keyboard || []).some((row) => row.some((b) => (b.data || "").startsWith(MOVE_DATA)));
  const live = !message.deleted && message.from.bot && (ping || moves);
  if (live) entry.turns.add(message.id);
  else entry.turns.delete(message.id);
}

// The empty group's first hint: shown while the group has no message.
function refreshHint(entry) {
  const hint = entry.list.querySelector(":scope > .empty-hint");
  if (hint) hint.hidden = Boolean(entry.list.querySelector(":scope > .message"));
}

// A message from the state snapshot (live = false) or the feed: new, edited or deleted.
function place(message, live) {
  const entry = view.chats.get(message.chat);
  if (!entry) return;
  const { list } = entry;
  const old = list.querySelector(`:scope > [data-message="${message.id}"]`);
  trackTurn(entry, message);
  if (live) refreshMarks();
  if (message.deleted) {
    if (old) keepingPlace(entry, old, () => old.remove());
    refreshHint(entry);
    return;
  }
  if (!message.html && !message.document && !message.photo) return; // service messages
  if (!message.from.bot && entry.chat.type === "private" && !view.started.has(entry.chat.id)) {
    view.started.add(entry.chat.id);
    refreshVisibility();
  }
  const fresh = bubble(message, entry);
  if (old) {
    keepingPlace(entry, old, () => old.replaceWith(fresh));
    return;
  }
  list.append(fresh);
  refreshHint(entry);
  if (!live) return; // the snapshot: render() scrolls each list to its end
  if (!message.from.bot || entry.stick) scrollDown(entry); // a person's own message always shows
  else showChip(entry);
  if (message.from.bot && !isShown(entry.pane)) {
    entry.unseen += 1;
    refreshMarks();
  }
}

function toast(text) {
  const box = document.getElementById("toasts");
  const note = document.createElement("div");
  note.className = "toast";
  note.textContent = text;
  box.append(note);
  while (box.children.length > 3) box.firstElementChild.remove();
  setTimeout(() => note.classList.add("leaving"), 2300);
  setTimeout(() => note.remove(), 2700);
}

function answered(answer) {
  if (!answer.text) return;
  const person = view.people.find((p) => p.id === answer.user);
  const text = sideBySide.checked && person ? `${person.name}: ${answer.text}` : answer.text;
  if (!answer.alert) return toast(text);
  document.getElementById("alert-text").textContent = text;
  document.getElementById("alert").hidden = false;
}

function apply(item) {
  if (item.seq <= view.seq) return; // already in the state snapshot
  view.seq = item.seq;
  if (item.type === "message") place(item, true);
  else if (item.type === "answer") answered(item);
}

// Subscribe first, then load the state: nothing that happens in between is lost, and a
// reconnect (the demo was away for a moment) loads everything again. A demo started anew
// has a new token: the old page is refused and says so.
function connect() {
  let loaded = false;
  const pending = [];
  const events = new EventSource(withToken("/api/events"));
  events.onmessage = (event) => {
    const item = JSON.parse(event.data);
    if (loaded) apply(item);
    else pending.push(item);
  };
  events.onopen = async () => {
    loaded = false;
    const response = await fetch(withToken("/api/state"));
    if (!response.ok) {
      events.close();
      document.getElementById("offline").hidden = false;
      return;
    }
    render(await response.json());
    loaded = true;
    pending.splice(0).forEach(apply);
    document.getElementById("offline").hidden = true;
    document.body.dataset.ready = "1";
  };
  events.onerror = () => {
    if (events.readyState === EventSource.CLOSED) document.getElementById("offline").hidden = false;
  };
}

personSelect.addEventListener("change", () => {
  view.me = Number(personSelect.value);
  refreshVisibility();
});
sideBySide.addEventListener("change", refreshVisibility);
document.getElementById("alert-ok").addEventListener("click", () => {
  document.getElementById("alert").hidden = true;
});
document.getElementById("reload").addEventListener("click", () => location.reload());
tabs.addEventListener("click", (event) => {
  const button = event.target.closest("[data-tab]");
  if (button) showTab(button.dataset.tab);
});
main.addEventListener("click", (event) => {
  if (event.target.classList.contains("spoiler")) event.target.classList.add("shown");
});
viewer.addEventListener("click", (event) => {
  if (!event.target.closest(".download")) closeViewer();
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  closeViewer();
  document.getElementById("alert").hidden = true;
});
window.addEventListener("resize", syncShown);
connect();
