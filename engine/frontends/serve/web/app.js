// The reference page of `engine serve`. It knows no game and no language: the server sends
// every text it shows (the "screen": board, cards, log, question, options, page words) and
// the action behind each option, which the page sends back as it is.
"use strict";

const params = new URLSearchParams(location.search);
const lang = params.get("lang") || "en";
const gameId = params.get("game");
const $ = (id) => document.getElementById(id);
let socket = null;
let shown = -1;          // the decisions count of the screen shown: an older one is ignored
let retry = 0;

document.documentElement.lang = lang;

function seatKey(id) { return "engine-seat:" + id; }
function seat(id) {
  try { return JSON.parse(localStorage.getItem(seatKey(id))); } catch (e) { return null; }
}

async function api(method, path, body, token) {
  const headers = {"Content-Type": "application/json"};
  if (token) headers["Authorization"] = "Bearer " + token;
  const sep = path.includes("?") ? "&" : "?";
  const res = await fetch(path + sep + "lang=" + encodeURIComponent(lang), {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await res.json().catch(() => ({error: res.statusText}));
  return {ok: res.ok, status: res.status, data};
}

function say(text) {
  $("message").textContent = text || "";
  $("message").hidden = !text;
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

function applyWords(words) {
  for (const node of document.querySelectorAll("[data-word]")) {
    node.textContent = words[node.dataset.word] || "";
  }
}

// ---- a new game ---------------------------------------------------------------------------
async function newGame() {
  const {ok, data} = await api("GET", "/api/packs");
  if (!ok) { say(data.error); return; }
  applyWords(data.words);
  $("title").textContent = data.words.new_game;
  document.title = data.words.new_game;
  $("new-game-head").textContent = "";
  const packSelect = $("pack");
  for (const p of data.packs) packSelect.append(new Option(p.name, p.pack));
  const sides = () => data.packs.find((p) => p.pack === packSelect.value).sides;
  const fillSides = () => {
    $("side").replaceChildren(...sides().map((s) => new Option(s.name, s.side)));
  };
  packSelect.onchange = fillSides;
  fillSides();
  $("others").replaceChildren(...["greedy", "mcts", "random", "person"].map(
    (k) => new Option(data.words[k], k)));
  $("new-game").hidden = false;
  $("new-game-form").onsubmit = async (event) => {
    event.preventDefault();
    const side = $("side").value;
    const kind = $("others").value;
    const bots = {};
    if (kind !== "person") for (const s of sides()) if (s.side !== side) bots[s.side] = kind;
    const seed = $("seed").value === "" ? null : Number($("seed").value);
    const res = await api("POST", "/api/games",
                          {pack: packSelect.value, seed, bots, join: side});
    if (!res.ok) { say(res.data.error); return; }
    localStorage.setItem(seatKey(res.data.game),
                         JSON.stringify({token: res.data.token, side}));
    location.search = "?game=" + res.data.game + "&lang=" + encodeURIComponent(lang);
  };
}

// ---- a game -------------------------------------------------------------------------------
function connect() {
  const mine = seat(gameId);
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  let url = `${scheme}//${location.host}/api/games/${gameId}/ws?lang=${encodeURIComponent(lang)}`;
  if (mine) url += "&token=" + encodeURIComponent(mine.token);
  const ws = socket = new WebSocket(url);
  ws.onmessage = (event) => {
    const data = JSON.parse(event.data);
    if (data.error) { say(data.error); return; }
    retry = 0;
    render(data.screen, true);
  };
  ws.onclose = (event) => {
    if (event.code === 4403 && mine) {  // a seat token this game does not know: watch
      localStorage.removeItem(seatKey(gameId));
      setTimeout(connect, 0);
      return;
    }
    if (event.code >= 4000) return;  // refused: the message says why
    if (shown >= 0 && words) say(words.offline);
    retry = Math.min(retry + 1, 10);
    setTimeout(connect, 300 * retry);
  };
}

let words = null;

function render(screen, pushed) {
  if (screen.decisions < shown) return;  // a reply overtaken by a newer push
  shown = screen.decisions;
  words = screen.words;
  if (pushed) say("");
  applyWords(words);
  $("table").hidden = false;
  $("title").textContent = `${screen.title} — ${screen.who}`;
  document.title = screen.title;
  $("seats").textContent = screen.seats.map((s) => `${s.name}: ${s.seat_name}`).join(" · ");
  renderJoin(screen);
  const board = $("board");
  board.replaceChildren();
  for (const section of screen.board) {
    board.append(el("h2", section.head));
    section.lines.forEach((line, i) => {
      const row = el("div", line, "line depth-" + section.depth[i]);
      const text = section.texts && section.texts[i];
      if (text) {  // a card: its rules text under its name
        row.title = text;
        row.classList.add("card");
        row.append(el("div", text, "card-text"));
      }
      board.append(row);
    });
  }
  renderDecision(screen);
  renderMap(screen);
  $("result").hidden = !screen.result;
  $("result").textContent = screen.result || "";
  const log = $("log");
  log.replaceChildren(...screen.log.map((line, i) => logLine(line, screen.log_parts[i])));
  log.scrollTop = log.scrollHeight;
  document.body.dataset.decisions = String(screen.decisions);
}

// ---- the map ------------------------------------------------------------------------------
let mapView = null;
const geometries = {};  // pack -> its map's geometry (the same in every game: fetched once)

let mapScreen = null;  // the newest screen with a map: drawn once its geometry is here

async function renderMap(screen) {
  if (!screen.map) { $("map-box").hidden = true; return; }
  mapScreen = screen;
  if (!(screen.pack in geometries)) {
    geometries[screen.pack] = null;  // asked for once; the screens meanwhile wait for it
    const res = await api("GET", `/api/packs/${encodeURIComponent(screen.pack)}/map`);
    if (!res.ok) { say(res.data.error); return; }
    geometries[screen.pack] = res.data;
  }
  if (geometries[mapScreen.pack]) drawMap(mapScreen);  // the newest, not an older one
}

function drawMap(screen) {
  const geometry = geometries[screen.pack];
  if (!mapView) {
    mapView = new MapView($("map"), $("map-hint"), $("map-legend"));
    $("zoom-in").onclick = () => mapView.zoom(1.25);
    $("zoom-out").onclick = () => mapView.zoom(0.8);
    $("zoom-reset").onclick = () => mapView.reset();
  }
  if (mapView.geometry !== geometry) mapView.setGeometry(geometry);
  // the places that answer the question: each option whose action is a place of the map
  const options = {};
  const d = screen.decision;
  const places = new Set(geometry.spaces.map((s) => s.id));
  if (d && d.mine && d.mode === "pick") {
    for (const o of d.options) {
      if (typeof o.action === "string" && places.has(o.action)) options[o.action] = o;
    }
  }
  mapView.onPick = (o) => send(d.id, o.action);
  const sides = screen.seats.map((s) => s.side);
  const names = {};
  for (const s of screen.seats) names[s.side] = s.name;
  mapView.draw(screen.map, sides, options, {...words, sides: names});
  $("map-box").hidden = false;
  document.body.dataset.mapDecisions = String(screen.decisions);
}

// a log line; a card it names shows its rules text on hover or keyboard focus
function logLine(line, parts) {
  const item = el("li");
  if (!parts) { item.textContent = line; return item; }
  for (const [words, text] of parts) {
    if (!text) { item.append(words); continue; }
    const card = el("span", words, "card-name");
    card.tabIndex = 0;
    card.title = text;
    card.append(el("span", text, "tip"));
    item.append(card);
  }
  return item;
}

// an option's label, and under it the rules text of an option that is a card; an option that
// would do nothing now (its label says so) is shown dimmed
function optionContent(node, o) {
  if (o.idle) node.classList.add("idle");
  node.append(el("span", o.label, "label"));
  if (o.text) {
    node.title = o.text;
    node.append(el("span", o.text, "option-text"));
  }
}

function renderJoin(screen) {
  const join = $("join");
  join.replaceChildren();
  if (screen.side !== null) return;
  for (const s of screen.seats) {
    if (s.seat !== "person" || s.joined) continue;
    const button = el("button", `${words.join}: ${s.name}`);
    button.onclick = async () => {
      const res = await api("POST", `/api/games/${gameId}/join`, {side: s.side});
      if (!res.ok) { say(res.data.error); return; }
      localStorage.setItem(seatKey(gameId),
                           JSON.stringify({token: res.data.token, side: s.side}));
      shown = -1;
      connect();
    };
    join.append(button);
  }
}

let asked = null;  // the id of the decision whose options are shown

function renderDecision(screen) {
  const d = screen.decision;
  // the same question again (a push after the reply, a seat taken): keep what the person
  // has ticked or ordered so far
  if (d && d.mine && d.id === asked) return;
  asked = d && d.mine ? d.id : null;
  $("decision").hidden = !d;
  const options = $("options");
  options.replaceChildren();
  if (!d) return;
  $("prompt").textContent = d.prompt;
  if (!d.mine) return;
  if (d.mode === "pick") {
    for (const o of d.options) {
      const button = el("button");
      optionContent(button, o);
      button.onclick = () => send(d.id, o.action);
      options.append(button);
    }
    return;
  }
  // too many answers to list: tick options (many) or click them in order (order)
  const picked = [];
  const order = el("p");
  d.options.forEach((o) => {
    if (d.mode === "many") {
      const label = el("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.onchange = () => {
        if (box.checked) picked.push(o.action);
        else picked.splice(picked.indexOf(o.action), 1);
      };
      label.append(box, " ");
      optionContent(label, o);
      options.append(label);
    } else {
      const button = el("button");
      optionContent(button, o);
      button.onclick = () => {
        picked.push(o.action);
        button.disabled = true;
        order.textContent = picked.map(
          (a) => d.options.find((x) => x.action === a).label).join(" → ");
      };
      options.append(button);
    }
  });
  options.append(order);
  const submit = el("button", words.send);
  submit.onclick = () => send(d.id, picked.slice());
  options.append(submit);
}

let sending = false;  // an answer on its way: a second click (map or button) waits for it

async function send(decision, action) {
  if (sending) return;
  sending = true;
  try { await answer(decision, action); } finally { sending = false; }
}

async function answer(decision, action) {
  for (const b of $("options").querySelectorAll("button")) b.disabled = true;
  const mine = seat(gameId);
  const res = await api("POST", `/api/games/${gameId}/act`, {decision, action},
                        mine && mine.token);
  if (!res.ok) {
    say(res.data.error);
    asked = null;  // show the question afresh
    const again = await api("GET", `/api/games/${gameId}`, undefined, mine && mine.token);
    if (again.ok) render(again.data.screen, false);
    return;
  }
  say("");
  render(res.data.screen, false);
}

if (gameId) connect(); else newGame();
