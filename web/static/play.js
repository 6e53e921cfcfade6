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
    err.retryAfter = parseInt(res.headers.get("Retry-After") || "0", 10);
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

const query = new URLSearchParams(location.search);
// the pause between two bot moves, so that a person can follow them (?pause=MS)
const PAUSE = Math.max(0, parseInt(query.get("pause") || "900", 10) || 0);

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
  const silent = g.mode === "silent";
  g.hands.forEach((cards, p) => {
    const row = document.createElement("div");
    row.className = "hand";
    row.dataset.player = p + 1;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = (p + 1 === g.to_move && !g.outcome ? "▶ " : "") + `P${p + 1}`;
    row.appendChild(who);
    if (cards === null) {  // a silent game: another seat, its cards hidden
      const hidden = document.createElement("span");
      hidden.className = "hidden-hand";
      hidden.textContent = `${g.bot} bot · ${g.hand_sizes[p]} card${g.hand_sizes[p] === 1 ? "" : "s"} in hand`;
      row.appendChild(hidden);
    }
    (cards || []).forEach((text, i) => {
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
    if (g.deck_cards && g.deck_cards[p].length) {  // open games: the order still to come
      const order = document.createElement("span");
      order.className = "deck-order";
      order.setAttribute("aria-label", `player ${p + 1}'s deck, top card first`);
      g.deck_cards[p].forEach((text, i) => {
        const c = document.createElement("span");
        c.className = i === 0 ? "deck-card next" : "deck-card";
        c.textContent = text;
        if (i === 0) c.title = "the next card to be drawn";
        order.appendChild(c);
      });
      row.appendChild(order);
    }
    hands.appendChild(row);
  });
  $("seen-out").hidden = !silent;
  if (silent) {
    $("out-cards").textContent = g.out.length ? g.out.join(" ") : "none yet";
  }
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
  $("share").hidden = !g.share;
  $("share-text").textContent = g.share || "";
  $("undo").hidden = silent;
  $("reveal").hidden = silent;
  $("undo").disabled = !g.can_undo;
  const waiting = silent && !g.your_turn;
  $("discard-two").disabled = !!g.outcome || waiting;
  $("hint").disabled = !!g.outcome || waiting;
  $("review-open").hidden = !g.outcome;
  resetChoice();
  refreshChoice();
  if (window.ascentFirstRender === undefined) {
    window.ascentFirstRender = performance.now();
    document.body.dataset.ready = "1";
  }
  document.body.dataset.turn = g.turn;
  document.body.dataset.mode = g.mode;
  document.body.dataset.outcome = g.outcome || "";
  document.body.dataset.yourTurn = g.your_turn ? "1" : "0";
  if (location.pathname !== `/g/${g.id}`) {  // a link that reopens this game
    history.replaceState(null, "", `/g/${g.id}${PAUSE !== 900 ? `?pause=${PAUSE}` : ""}`);
  }
  if (g.bots_turn) scheduleBot();
  else if (silent && g.your_turn) say(`Your turn (player ${g.seat}).`, "");
}

let botTimer = null;
function scheduleBot(delay) {
  if (botTimer !== null) return;
  say(`Player ${ui.game.to_move} (the ${ui.game.bot} bot) is thinking…`, "info");
  botTimer = setTimeout(botMove, delay === undefined ? PAUSE : delay);
}

async function botMove() {
  const id = ui.game.id;
  try {
    const state = await api("POST", `/api/games/${id}/advance`);
    botTimer = null;
    const last = state.moves[state.moves.length - 1];
    render(state);
    if (!state.bots_turn && !state.outcome) say(`${last.text}. Your turn (player ${state.seat}).`, "");
  } catch (e) {
    botTimer = null;
    if (e.status === 503) {  // the solver pool is full: ask again when the server says
      say(`The server is busy; the bot moves in ${e.retryAfter || 1} s.`, "info");
      scheduleBot((e.retryAfter || 1) * 1000);
    } else if (e.status === 409) {  // another tab moved first: draw what is there
      render(await api("GET", `/api/games/${id}`));
    } else say(e.message, "error");
  }
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
  } catch (e) {
    say(e.status === 503 ? `The server is busy; ask again in ${e.retryAfter || 1} s.` : e.message, "error");
  }
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
  const q = query;
  const link = location.pathname.match(/^\/g\/([0-9a-f]+)$/);
  if (link) {
    say("Opening the game…", "info");
    try {
      render(await api("GET", `/api/games/${link[1]}`));
      if (ui.game.outcome) loadReview(false);
    } catch (e) {
      say(`Could not open the game: ${e.message}`, "error");
      document.body.dataset.ready = "error";
    }
    return;
  }
  let body;
  const silent = q.get("mode") === "silent";
  if (q.has("seed")) {
    body = { seed: parseInt(q.get("seed"), 10), players: parseInt(q.get("players") || (silent ? "3" : "1"), 10) };
    const rules = (q.get("rules") || "").split(/[ ,]+/).filter((x) => x);
    if (rules.length) body.rules = rules;
  } else if (silent) {
    body = { daily: q.get("date") || "today", players: parseInt(q.get("players") || "3", 10) };
  } else {
    body = { daily: q.get("date") || "today", kind: q.get("kind") || "deal", size: q.get("size") || "mini" };
  }
  if (silent) {
    body.mode = "silent";
    body.seat = parseInt(q.get("seat") || "1", 10);
    if (q.get("bot")) body.bot = q.get("bot");
  }
  say(silent ? "Dealing the real game…" :
      body.daily ? `Loading the daily puzzle of ${body.daily} (the server makes it on its first request, which can take a while)…`
                 : `Dealing deal ${body.seed}…`, "info");
  try {
    render(await api("POST", "/api/games", body));
    if (!silent) say("Click a card in your hand, then a slot on the mountain.", "");
  } catch (e) {
    say(`Could not start the game: ${e.message}`, "error");
    document.body.dataset.ready = "error";
  }
}

// ---- the review after the game --------------------------------------------------------

let reviewTimer = null;
const review = { line: 0, total: 0 };

async function loadReview(startIt) {
  const id = ui.game.id;
  let r;
  try {
    r = startIt ? await api("POST", `/api/games/${id}/review`) : await api("GET", `/api/games/${id}/review`);
  } catch (e) {
    if (e.status === 503) {
      $("review-panel").hidden = false;
      $("review-progress-text").textContent = `The server is busy; asking again in ${e.retryAfter || 1} s…`;
      reviewTimer = setTimeout(() => loadReview(true), (e.retryAfter || 1) * 1000);
    } else say(e.message, "error");
    return;
  }
  if (r.status === "none") return;
  $("review-panel").hidden = false;
  if (r.status === "running") {
    $("review-progress").hidden = false;
    $("review-progress-text").textContent =
      `Analysing ${r.positions} positions with every card known… ${r.elapsed || 0} s (at most about ${r.estimate} s)`;
    document.body.dataset.review = "running";
    reviewTimer = setTimeout(() => loadReview(false), 1000);
    return;
  }
  if (r.status === "busy" || r.status === "failed") {
    $("review-progress").hidden = true;
    $("review-progress-text").textContent = `${r.error}.`;
    $("review-open").hidden = false;
    return;
  }
  showReview(r);
}

function showReview(r) {
  $("review-progress").hidden = true;
  $("review-progress-text").textContent = "";
  $("review-summary").textContent = r.summary;
  $("review-reason").textContent = r.reason ? `Why: ${r.reason.text}` : "";
  $("review-instead").textContent = r.best_instead ? `Instead: ${r.best_instead}` : "";
  const list = $("review-moves");
  list.innerHTML = "";
  for (const m of r.moves) {
    const li = document.createElement("li");
    li.textContent = `${m.text} — ${m.before} → ${m.after}`;
    if (m.index === r.losing_move) { li.className = "losing"; li.textContent += "  ◀ the losing move"; }
    list.appendChild(li);
  }
  const chance = $("review-silent");
  chance.hidden = !r.silent;
  if (r.silent) chance.textContent = silentText(r.silent);
  $("review-line").hidden = r.line_from === null;
  review.total = r.winning_line.length;
  document.body.dataset.review = "done";
  if (r.line_from !== null) showLine(0);
}

function silentText(s) {
  // the silent review (bots.review): the team's chance to win before each move, each from
  // the mover's own observation, and the moves that cost the most
  if (Array.isArray(s.moves)) {
    const pct = (x) => `${Math.round(x * 100)}%`;
    const trail = s.moves.map((m) => pct(m.chance_before)).join(" → ");
    const costly = (s.costly || []).slice(0, 3).map((i) => {
      const m = s.moves.find((x) => x.index === i);
      return m ? `${m.text} (−${Math.round(m.drop * 100)} points)` : "";
    }).filter((x) => x);
    return `Silent review (the ${s.bot} bot's view, ${s.estimator_text}): the team's chance to win before each move ` +
      `${trail}.` + (costly.length ? ` Costliest moves: ${costly.join("; ")}.` : "") +
      (s.complete ? "" : " (The time ran out before the last moves.)");
  }
  return s.text || s.summary || JSON.stringify(s).slice(0, 300);
}

async function showLine(k) {
  try {
    const s = await api("GET", `/api/games/${ui.game.id}/review/line/${k}`);
    review.line = s.step;
    $("line-text").textContent = `Winning line, step ${s.step} of ${s.total}: ${s.text}`;
    $("line-svg").innerHTML = s.svg;
    $("line-prev").disabled = s.step === 0;
    $("line-next").disabled = s.step >= s.total;
    document.body.dataset.lineStep = s.step;
  } catch (e) { say(e.message, "error"); }
}

async function fillBots() {
  try {
    const st = await api("GET", "/api/status");
    for (const sel of document.querySelectorAll("select[name=bot]")) {
      sel.innerHTML = "";
      for (const b of st.bots) {
        const o = document.createElement("option");
        o.value = b; o.textContent = b; o.selected = b === st.default_bot;
        sel.appendChild(o);
      }
    }
  } catch (e) { /* the forms keep their default */ }
}

function copyShare() {
  const text = $("share-text").textContent;
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => say("Copied.", "info"), () => {});
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
  $("review-open").addEventListener("click", () => { $("review-open").hidden = true; loadReview(true); });
  $("line-prev").addEventListener("click", () => showLine(review.line - 1));
  $("line-next").addEventListener("click", () => showLine(review.line + 1));
  $("share-copy").addEventListener("click", copyShare);
  fillBots();
  start();
});
