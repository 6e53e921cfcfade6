// The play page. It holds no rules: every placement is checked by the server's rules engine
// (POST /api/games/{id}/check) before it is offered, and every move is made by the server
// (POST /api/games/{id}/moves). This file only turns clicks into requests and draws answers.
"use strict";

const ui = {
  game: null,       // the server's state of the game
  card: null,       // {text, index}: the hand card clicked
  target: null,     // {row, slot, to_row, to_slot}: where it goes
  cost: null,       // discards owed (after a check), or 2 for a discard turn
  mode: "idle",     // idle | card | campfire-to | discards
  discards: [],     // indices into the hand of the player to move
  revealStep: 0,
  revealTotal: 0,
};

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  if (!res.ok) {
    const err = new Error(data.error || `HTTP ${res.status}`);
    err.data = data;
    err.status = res.status;
    throw err;
  }
  return data;
}

function say(text, kind, ruling) {
  const m = $("message");
  m.textContent = text;
  m.className = kind || "";
  if (ruling) m.dataset.ruling = ruling; else delete m.dataset.ruling;
}

function hand() { return ui.game.hands[ui.game.to_move - 1]; }

function resetChoice() {
  ui.card = null; ui.target = null; ui.cost = null; ui.mode = "idle"; ui.discards = [];
  $("pending").textContent = "";
}

function render(state) {
  ui.game = state;
  const g = state;
  document.title = `${g.title}: The Ascent`;
  $("title").textContent = g.title;
  $("goal").textContent = `Goal: ${g.goal}`;
  const par = g.par === null ? "" : ` · par ${g.par}${g.par_proven ? " (proven)" : ""}`;
  $("counter").textContent = `Cards out: ${g.cards_out}${par}`;
  $("turn").textContent = g.outcome ? `${g.turn} turns` :
    `Turn ${g.turn + 1} · player ${g.to_move} to move · ${g.filled}/${g.slots} slots`;
  $("rules").textContent = g.rules_text === "standard" ? "" : `rules: ${g.rules_text}`;
  $("mountain").innerHTML = g.svg;
  const svg = $("mountain").querySelector("svg");  // small mountains drawn larger, up to 760 px
  if (svg) svg.style.width = `${Math.min(svg.width.baseVal.value * 1.6, 760)}px`;
  for (const el of document.querySelectorAll("#mountain .slot")) {
    el.addEventListener("click", () => slotClicked(+el.dataset.row, +el.dataset.slot, el.dataset.card));
    el.addEventListener("keydown", (ev) => {  // keyboard: Tab to a slot, Enter or Space
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); el.dispatchEvent(new Event("click")); }
    });
  }
  const hands = $("hands");
  hands.innerHTML = "";
  g.hands.forEach((cards, p) => {
    const row = document.createElement("div");
    row.className = "hand";
    row.dataset.player = p + 1;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = (p + 1 === g.to_move && !g.outcome ? "▶ " : "") + `P${p + 1}`;
    row.appendChild(who);
    cards.forEach((text, i) => {
      const b = document.createElement("button");
      b.className = "card";
      b.dataset.card = text;
      b.dataset.index = i;
      b.title = text;
      b.setAttribute("aria-label", `card ${text}`);
      b.innerHTML = g.card_svgs[text];
      b.disabled = p + 1 !== g.to_move || !!g.outcome;
      b.addEventListener("click", () => cardClicked(text, i));
      row.appendChild(b);
    });
    const deck = document.createElement("span");
    deck.className = "deck";
    deck.textContent = `deck: ${g.decks[p]}`;
    row.appendChild(deck);
    hands.appendChild(row);
  });
  const moves = $("moves");
  moves.innerHTML = "";
  for (const m of g.moves) {
    const li = document.createElement("li");
    li.textContent = m.text;
    moves.appendChild(li);
  }
  moves.scrollTop = moves.scrollHeight;
  const out = $("outcome");
  out.hidden = !g.outcome;
  out.className = g.outcome || "";
  out.textContent = g.message;
  $("undo").disabled = !g.can_undo;
  $("discard-two").disabled = !!g.outcome;
  $("hint").disabled = !!g.outcome;
  resetChoice();
  refreshChoice();
  if (window.ascentFirstRender === undefined) {
    window.ascentFirstRender = performance.now();
    document.body.dataset.ready = "1";
  }
  document.body.dataset.turn = g.turn;
}

function refreshChoice() {
  for (const b of document.querySelectorAll("#hands button.card")) {
    const mine = +b.closest(".hand").dataset.player === ui.game.to_move;
    const i = +b.dataset.index;
    b.classList.toggle("selected", mine && ui.card !== null && ui.card.index === i);
    b.classList.toggle("discard", mine && ui.discards.includes(i));
  }
  for (const el of document.querySelectorAll("#mountain .slot")) {
    el.classList.remove("legal", "target");
  }
  if (ui.card && ui.mode === "card") {
    for (const t of ui.game.targets[ui.card.text] || []) {
      const el = document.getElementById(`slot-${t.row}-${t.slot}`);
      if (el) el.classList.add("legal");
    }
  }
  if (ui.target) {
    const el = document.getElementById(`slot-${ui.target.row}-${ui.target.slot}`);
    if (el) el.classList.add("target");
  }
  const ready = ui.mode === "discards" && ui.discards.length === ui.cost;
  $("confirm").disabled = !ready;
  $("cancel").disabled = ui.mode === "idle";
}

function cardClicked(text, index) {
  if (ui.game.outcome) return;
  if (ui.mode === "discards") {
    if (ui.card && ui.card.index === index) {
      say(`${text} is the card being played; choose the discards among the others.`, "info");
      return;
    }
    const at = ui.discards.indexOf(index);
    if (at >= 0) ui.discards.splice(at, 1);
    else if (ui.discards.length < ui.cost) ui.discards.push(index);
    else say(`Already ${ui.cost} chosen; click one again to put it back.`, "info");
    showPending();
    refreshChoice();
    return;
  }
  resetChoice();
  ui.card = { text, index };
  ui.mode = "card";
  const isCampfire = text[0] === "C";
  say(isCampfire ? `${text} selected: click the card of its colour it replaces.`
                 : `${text} selected: click a slot on the mountain.`, "info");
  refreshChoice();
}

async function slotClicked(row, slot, occupant) {
  if (ui.game.outcome) return;
  if (!ui.card || ui.mode === "discards") {
    say(ui.mode === "discards" ? "Choose the discards in your hand, then Confirm."
                               : "Choose a card from your hand first.", "info");
    return;
  }
  const isCampfire = ui.card.text[0] === "C";
  if (isCampfire && ui.mode === "card") {
    ui.target = { row, slot };
    ui.mode = "campfire-to";
    say(`${ui.card.text} on row ${row} slot ${slot}: now click the slot in a higher row where ${occupant || "that card"} moves.`, "info");
    refreshChoice();
    return;
  }
  const req = { card: ui.card.text, row, slot };
  if (isCampfire) { req.row = ui.target.row; req.slot = ui.target.slot; req.to_row = row; req.to_slot = slot; }
  let ans;
  try {
    ans = await api("POST", `/api/games/${ui.game.id}/check`, req);
  } catch (e) { say(e.message, "error"); return; }
  if (!ans.legal) {
    say(`Refused (${ans.ruling}): ${ans.reason}`, "error", ans.ruling);
    const keep = ui.card;
    resetChoice();
    ui.card = keep; ui.mode = "card";
    refreshChoice();
    return;
  }
  ui.target = { row: req.row, slot: req.slot, to_row: req.to_row || 0, to_slot: req.to_slot || 0 };
  ui.cost = ans.cost;
  ui.mode = "discards";
  ui.discards = [];
  say(`${ans.text}: costs ${ans.cost} discard${ans.cost === 1 ? "" : "s"}.`, "info");
  showPending();
  refreshChoice();
}

function showPending() {
  const left = ui.cost - ui.discards.length;
  const what = ui.card ? `Play ${ui.card.text}` : "Discard turn";
  const cost = ui.card ? ` (cost ${ui.cost})` : "";
  $("pending").textContent = left > 0
    ? `${what}${cost}: click ${left} more card${left === 1 ? "" : "s"} of your hand to discard.`
    : `${what}${cost}: press Confirm.`;
}

async function confirmMove() {
  const h = hand();
  const discard = ui.discards.map((i) => h[i]);
  const body = ui.card
    ? { card: ui.card.text, row: ui.target.row, slot: ui.target.slot, discard }
    : { kind: "discard", discard };
  if (ui.card && ui.target.to_row) { body.to_row = ui.target.to_row; body.to_slot = ui.target.to_slot; }
  try {
    const state = await api("POST", `/api/games/${ui.game.id}/moves`, body);
    render(state);
    const last = state.moves[state.moves.length - 1];
    say(`Played: ${last.text}`, "");
  } catch (e) {
    say(e.data && e.data.ruling ? `Refused (${e.data.ruling}): ${e.data.reason}` : e.message,
        "error", e.data && e.data.ruling);
    resetChoice();
    refreshChoice();
  }
}

function discardTwo() {
  resetChoice();
  ui.mode = "discards";
  ui.cost = 2;
  say("Discard turn: click two cards of your hand, then Confirm.", "info");
  showPending();
  refreshChoice();
}

async function undo() {
  try {
    render(await api("POST", `/api/games/${ui.game.id}/undo`));
    say("Last move taken back.", "info");
  } catch (e) { say(e.message, "error"); }
}

async function hint() {
  say("Looking for a hint…", "info");
  try {
    const h = await api("GET", `/api/games/${ui.game.id}/hint`);
    say(`Hint (${h.source}): ${h.text}`, "info");
    for (const el of document.querySelectorAll(".hinted")) el.classList.remove("hinted");
    if (h.move.row) {
      const el = document.getElementById(`slot-${h.move.row}-${h.move.slot}`);
      if (el) el.classList.add("hinted");
    }
    const b = h.move.card && document.querySelector(`.hand[data-player="${ui.game.to_move}"] button.card[data-card="${h.move.card}"]`);
    if (b) b.classList.add("hinted");
  } catch (e) { say(e.message, "error"); }
}

async function showReveal(k) {
  try {
    const s = await api("GET", `/api/games/${ui.game.id}/solution/${k}`);
    ui.revealStep = s.step; ui.revealTotal = s.total;
    $("reveal-panel").hidden = false;
    $("reveal-text").textContent = `Step ${s.step} of ${s.total} (${s.source}): ${s.text}`;
    $("reveal-svg").innerHTML = s.svg;
    $("reveal-prev").disabled = s.step === 0;
    $("reveal-next").disabled = s.step >= s.total;
  } catch (e) { say(e.message, "error"); }
}

async function start() {
  const q = new URLSearchParams(location.search);
  let body;
  if (q.has("seed")) {
    body = { seed: parseInt(q.get("seed"), 10), players: parseInt(q.get("players") || "1", 10) };
    const rules = (q.get("rules") || "").split(/[ ,]+/).filter((x) => x);
    if (rules.length) body.rules = rules;
  } else {
    body = { daily: q.get("date") || "today", kind: q.get("kind") || "deal", size: q.get("size") || "mini" };
  }
  say(body.daily ? `Loading the daily puzzle of ${body.daily} (the server makes it on its first request, which can take a while)…`
                  : `Dealing deal ${body.seed}…`, "info");
  try {
    render(await api("POST", "/api/games", body));
    say("Click a card in your hand, then a slot on the mountain.", "");
  } catch (e) {
    say(`Could not start the game: ${e.message}`, "error");
    document.body.dataset.ready = "error";
  }
}

window.addEventListener("DOMContentLoaded", () => {
  $("confirm").addEventListener("click", confirmMove);
  $("cancel").addEventListener("click", () => { resetChoice(); refreshChoice(); say("Cancelled.", ""); });
  $("discard-two").addEventListener("click", discardTwo);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("reveal").addEventListener("click", () => showReveal(Math.min(1, ui.revealTotal || 1)));
  $("reveal-prev").addEventListener("click", () => showReveal(ui.revealStep - 1));
  $("reveal-next").addEventListener("click", () => showReveal(ui.revealStep + 1));
  $("reveal-close").addEventListener("click", () => { $("reveal-panel").hidden = true; });
  start();
});
