// cardbot demo page: plays the people of the emulated Telegram. The server (bot/emulator/demo.py)
// sends the chats' state, then every change as a server-sent event; the page sends what a person
// types or presses. Message HTML comes from the server already reduced to safe tags.
"use strict";

const view = { bot: "", people: [], chats: new Map(), me: null, seq: 0, started: new Set(), startParam: new Map() };
const main = document.getElementById("chats");
const personSelect = document.getElementById("person");
const sideBySide = document.getElementById("side-by-side");

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) toast(answer.error || "request failed");
  return answer;
}

function chatPane(chat) {
  const pane = document.getElementById("chat-template").content.firstElementChild.cloneNode(true);
  pane.classList.add(chat.type);
  pane.dataset.chat = chat.id;
  pane.querySelector(".title").textContent = chat.type === "group" ? chat.title : `${chat.title} · private chat with the bot`;
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
  return pane;
}

// Who acts in a chat: the owner of a private chat; in the group, the person chosen above.
function actor(chat) {
  return chat.type === "private" ? chat.id : view.me;
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
    const pane = chatPane(chat);
    view.chats.set(chat.id, { chat, pane });
    main.append(pane);
  }
  for (const message of state.messages) place(message);
  refreshVisibility();
  for (const { pane } of view.chats.values()) scrollDown(pane, true);
}

function refreshVisibility() {
  for (const { chat, pane } of view.chats.values()) {
    if (chat.type !== "private") continue;
    pane.hidden = !sideBySide.checked && chat.id !== view.me;
    const started = view.started.has(chat.id);
    pane.querySelector(".composer").hidden = !started;
    pane.querySelector(".start-button").hidden = started;
  }
}

function scrollDown(pane, force) {
  const list = pane.querySelector(".messages");
  if (force || list.scrollHeight - list.scrollTop - list.clientHeight < 80) list.scrollTop = list.scrollHeight;
}

function bubble(message, chat) {
  const item = document.createElement("div");
  item.className = "message" + (message.from.bot ? " bot" : " mine");
  item.dataset.message = message.id;
  const box = document.createElement("div");
  box.className = "bubble";
  if (chat.type === "group" && !message.from.bot) {
    const who = document.createElement("div");
    who.className = "sender";
    who.textContent = message.from.name;
    box.append(who);
  }
  const body = document.createElement("div");
  body.className = "text";
  body.innerHTML = message.html;
  if (message.document) body.prepend(`📄 ${message.document.file_name}\n`);
  box.append(body);
  if (message.edited) {
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = "edited";
    box.append(meta);
  }
  item.append(box);
  if (message.keyboard.length) item.append(keyboard(message, chat));
  return item;
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
  for (const button of document.getElementById("tabs").children) {
    button.classList.toggle("active", button.dataset.tab === tab);
  }
}

function place(message) {
  const entry = view.chats.get(message.chat);
  if (!entry) return;
  const list = entry.pane.querySelector(".messages");
  const old = list.querySelector(`:scope > [data-message="${message.id}"]`);
  if (message.deleted) return old?.remove();
  if (!message.html && !message.document) return; // service messages
  if (!message.from.bot && entry.chat.type === "private") {
    view.started.add(entry.chat.id);
    refreshVisibility();
  }
  const fresh = bubble(message, entry.chat);
  if (old) return old.replaceWith(fresh);
  list.append(fresh);
  scrollDown(entry.pane, !message.from.bot);
}

function toast(text) {
  const note = document.createElement("div");
  note.className = "toast";
  note.textContent = text;
  document.getElementById("toasts").append(note);
  setTimeout(() => note.remove(), 3500);
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
  if (item.type === "message") place(item);
  else if (item.type === "answer") answered(item);
}

// Subscribe first, then load the state: nothing that happens in between is lost, and a
// reconnect (the demo restarted) loads everything again.
function connect() {
  let loaded = false;
  const pending = [];
  const events = new EventSource("/api/events");
  events.onmessage = (event) => {
    const item = JSON.parse(event.data);
    if (loaded) apply(item);
    else pending.push(item);
  };
  events.onopen = async () => {
    loaded = false;
    render(await (await fetch("/api/state")).json());
    loaded = true;
    pending.splice(0).forEach(apply);
    document.body.dataset.ready = "1";
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
document.getElementById("tabs").addEventListener("click", (event) => {
  if (event.target.dataset.tab) showTab(event.target.dataset.tab);
});
main.addEventListener("click", (event) => {
  if (event.target.classList.contains("spoiler")) event.target.classList.add("shown");
});
connect();
