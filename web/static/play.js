// The play page. It holds no rules: the legal slots of a card, their costs and why they cost
// that (state.targets), and why a card has no slot (state.no_slot), come from the server's
// rules engine; a slot outside them is asked about (POST /api/games/{id}/check), and every
// move is made by the server (POST /api/games/{id}/moves). This file turns clicks and keys
// into requests and draws the answers.
"use strict";

const ui = {
  game: null,       // the server's state of the game
  card: null,       // {text, index}: the hand card chosen
  target: null,     // {row, slot, to_row, to_slot}: where it goes
  cost: null,       // discards owed, or 2 for a discard turn
  why: "",          // where the cost comes from
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
    const after = res.headers.get("Retry-After") || "";
    err.retryAfter = /^\d+$/.test(after) ? Number(after) : 0;
    throw err;
  }
  return data;
}

// ---- words ---------------------------------------------------------------------------------

const COLOURS = { r: "red", g: "green", b: "blue", y: "yellow" };

/** A card's spoken name: "7 red", "green Campfire", "Bridge", "Summit". */
function cardName(text) {
  if (text === "B") return "Bridge";
  if (text === "S") return "Summit";
  if (text[0] === "C") return `${COLOURS[text[1]] || text[1]} Campfire`;
  return `${text.slice(0, -1)} ${COLOURS[text.slice(-1)] || text.slice(-1)}`;
}

const plural = (n, what) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** Fill ``el`` with ``text``, each ruling id (R5, V1, G2) a link to its rule in brief. */
function withRulings(el, text) {
  el.textContent = "";
  const parts = String(text).split(/\b(R1[0-3]|R[1-9]|V1|G[1-7])\b/);
  parts.forEach((part, i) => {
    if (i % 2 === 0) { if (part) el.appendChild(document.createTextNode(part)); return; }
    const a = document.createElement("a");
    a.href = `#rule-${part}`;
    a.className = "ruling";
    a.textContent = part;
    a.title = `ruling ${part}: ${RULES.find((r) => r.id === part)?.title || "see docs/rules.md"}`;
    a.addEventListener("click", (ev) => { ev.preventDefault(); openRules(part); });
    el.appendChild(a);
  });
}

function say(text, kind, ruling) {
  const m = $("message");
  withRulings(m, text);
  m.className = kind || "";
  if (ruling) m.dataset.ruling = ruling; else delete m.dataset.ruling;
}

function hand() { return ui.game.hands[ui.game.to_move - 1]; }

// ---- the address: strict numbers --------------------------------------------------------

const query = new URLSearchParams(location.search);

/** The address's ``name`` as written (a string of digits: the server refuses the page for
 * anything else, ``?seed=12abc``, before serving it), or ``fallback`` when absent. The server
 * parses it again where it is used (no parseInt here). */
function addressText(name, fallback) {
  return query.has(name) ? query.get(name) : fallback;
}

let PAUSE = 900;  // the pause between two bot moves, so that a person can follow them (?pause=MS)

// ---- drawing the state ---------------------------------------------------------------------

function resetChoice() {
  ui.card = null; ui.target = null; ui.cost = null; ui.why = ""; ui.mode = "idle"; ui.discards = [];
  $("pending").textContent = "";
}

/** Crop the mountain's drawing to its slots, so that it fills the width, and put large row
 * numbers beside each row. */
function fitMountain(svg) {
  const slots = [...svg.querySelectorAll(".slot")];
  if (!slots.length) return;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const rows = {};
  for (const el of slots) {
    const b = el.getBBox();
    x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width); y1 = Math.max(y1, b.y + b.height);
    const r = +el.dataset.row;
    if (!rows[r] || b.x < rows[r].x) rows[r] = { x: b.x, y: b.y + b.height / 2 };
  }
  for (const t of svg.querySelectorAll(":scope > text")) {
    if (/^(row \d+|peak)$/.test(t.textContent.trim())) t.remove();
  }
  const peak = Math.max(...Object.keys(rows).map(Number));
  for (const [r, at] of Object.entries(rows)) {
    const t = document.createElementNS(svg.namespaceURI, "text");
    t.setAttribute("x", at.x - 4);
    t.setAttribute("y", at.y + 10);
    t.setAttribute("text-anchor", "end");
    t.setAttribute("class", "row-label");
    t.setAttribute("aria-hidden", "true");
    t.textContent = +r === peak ? "▲" : r;
    svg.appendChild(t);
  }
  const left = x0 - 38;
  svg.setAttribute("viewBox", `${left} ${y0 - 6} ${x1 - left + 6} ${y1 - y0 + 12}`);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.style.maxWidth = `${Math.round((x1 - left + 6) * 1.5)}px`;  // a small mountain is not blown up
  const bg = svg.querySelector(":scope > rect");
  if (bg) { bg.setAttribute("x", left); bg.setAttribute("y", y0 - 6); bg.setAttribute("width", x1 - left + 6); bg.setAttribute("height", y1 - y0 + 12); }
}

function slotName(el) {
  const r = +el.dataset.row;
  const where = r === ui.game.rules_peak ? "the peak" : `row ${r} slot ${el.dataset.slot}`;
  return `${where}, ${el.dataset.card ? cardName(el.dataset.card) : "empty"}`;
}

function render(state) {
  ui.game = state;
  const g = state;
  g.rules_peak = (g.rules.rows || 8) + 1;
  document.title = `${g.title}: The Ascent`;
  $("title").textContent = g.title;
  $("goal").textContent = `Goal: ${g.goal}`;
  const par = g.par === null ? "" : ` · par ${g.par}${g.par_proven ? " (proven)" : ""}`;
  $("counter").textContent = `Cards out: ${g.cards_out}${par}`;
  $("turn").textContent = g.outcome ? `${g.turn} turns` :
    `Turn ${g.turn + 1} · player ${g.to_move} to move · ${g.filled}/${g.slots} slots`;
  $("rules").textContent = g.rules_text === "standard" ? "" : `rules: ${g.rules_text}`;
  $("mountain").innerHTML = g.svg;
  const svg = $("mountain").querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", `the mountain, ${g.filled} of ${g.slots} slots filled`);
    fitMountain(svg);
  }
  for (const el of document.querySelectorAll("#mountain .slot")) {
    el.setAttribute("tabindex", "-1");
    el.setAttribute("aria-label", slotName(el));
    el.addEventListener("click", () => slotClicked(+el.dataset.row, +el.dataset.slot, el.dataset.card));
    el.addEventListener("keydown", slotKey);
  }
  const hands = $("hands");
  const others = $("others");
  hands.innerHTML = "";
  others.innerHTML = "";
  const silent = g.mode === "silent";
  g.hands.forEach((cards, p) => {
    const row = document.createElement("div");
    row.className = "hand";
    row.dataset.player = p + 1;
    row.setAttribute("role", "group");
    const mine = silent ? p + 1 === g.seat : true;
    row.setAttribute("aria-label", silent && mine ? `your hand (player ${p + 1})` : `player ${p + 1}'s hand`);
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = (p + 1 === g.to_move && !g.outcome ? "▶ " : "") + (silent && mine ? "You" : `P${p + 1}`);
    row.appendChild(who);
    if (cards === null) {  // a silent game: another seat, its cards hidden
      const hidden = document.createElement("span");
      hidden.className = "hidden-hand";
      hidden.textContent = `P${p + 1}: ${g.bot} bot · ${plural(g.hand_sizes[p], "card")} in hand`;
      row.appendChild(hidden);
    }
    const moving = p + 1 === g.to_move && !g.outcome;
    (cards || []).forEach((text, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "card";
      b.dataset.card = text;
      b.dataset.index = i;
      b.title = text;
      b.innerHTML = g.card_svgs[text];
      const svgc = b.querySelector("svg");
      if (svgc) svgc.setAttribute("aria-hidden", "true");
      const n = (g.targets[text] || []).length;
      const stuck = moving && n === 0 && g.targets && (g.no_slot || {})[text] !== undefined;
      if (stuck) b.classList.add("stuck");
      b.setAttribute("aria-label", cardName(text) + (moving ? (n ? `, ${plural(n, "legal slot")}` : ", no legal slot") : ""));
      b.setAttribute("aria-pressed", "false");
      b.disabled = !moving;
      b.addEventListener("click", () => cardClicked(text, i));
      b.addEventListener("keydown", handKey);
      row.appendChild(b);
    });
    const deck = document.createElement("span");
    deck.className = "deck";
    deck.textContent = `deck ${g.decks[p]}`;
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
    const dock = silent ? mine : p + 1 === (g.outcome ? 1 : g.to_move);  // the hand to play, under the thumb
    if (dock) {  // its caption on a line of its own, the cards below
      row.insertBefore(deck, who.nextSibling);
      const br = document.createElement("span");
      br.className = "break";
      row.insertBefore(br, deck.nextSibling);
    }
    (dock ? hands : others).appendChild(row);
  });
  $("seen-out").hidden = !silent;
  if (silent) $("out-cards").textContent = g.out.length ? g.out.join(" ") : "none yet";
  const moves = $("moves");
  moves.innerHTML = "";
  for (const m of g.moves) {
    const li = document.createElement("li");
    li.textContent = m.text;
    moves.appendChild(li);
  }
  $("moves-count").textContent = `(${g.moves.length})`;
  moves.scrollTop = moves.scrollHeight;
  const out = $("outcome");
  out.hidden = !g.outcome;
  out.className = g.outcome || "";
  withRulings(out, g.message);
  $("share").hidden = !g.share;
  $("share-text").textContent = g.share || "";
  $("undo").hidden = silent;
  $("reveal").hidden = silent;
  $("undo").disabled = !g.can_undo;
  const waiting = silent && !g.your_turn;
  $("discard-two").disabled = !!g.outcome || waiting;
  $("hint").disabled = !!g.outcome || waiting;
  $("discard-two").hidden = !!g.outcome;
  $("hint").hidden = !!g.outcome;
  $("confirm").hidden = !!g.outcome;
  $("cancel").hidden = !!g.outcome;
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
  else if (silent && g.your_turn) say(`Your turn (player ${g.seat}): pick a card of your hand, or discard two.`, "");
  if (g.outcome === "loss" && !document.body.dataset.review) {
    $("review-open").focus({ preventScroll: true });
  }
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
    const focusHand = document.activeElement === document.body || document.activeElement === null ||
      (document.activeElement && document.activeElement.closest && document.activeElement.closest("#hands"));
    render(state);
    if (!state.bots_turn && !state.outcome) {
      say(`${last.text}. Your turn (player ${state.seat}): pick a card, or discard two.`, "");
      if (focusHand) focusFirstCard();
    }
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

function myCards() {
  if (!ui.game) return [];
  return [...document.querySelectorAll(`.hand[data-player="${ui.game.to_move}"] button.card`)];
}

function focusFirstCard() {
  const b = myCards().find((x) => !x.disabled);
  if (b) b.focus();
}

/** The legal targets of the chosen card now: every placement, or for a Campfire whose card
 * to replace is chosen, the slots where that card may move. */
function currentTargets() {
  if (!ui.card) return [];
  const all = ui.game.targets[ui.card.text] || [];
  if (ui.mode === "campfire-to") return all.filter((t) => t.row === ui.target.row && t.slot === ui.target.slot);
  return all;
}

/** Where a target is marked on the mountain: the slot played (a Campfire: the card it
 * replaces, then where that card moves). */
function markOf(t) {
  return ui.mode === "campfire-to" ? { row: t.to_row, slot: t.to_slot } : { row: t.row, slot: t.slot };
}

function badge(el, text) {
  const b = el.getBBox();
  const ns = el.namespaceURI;  // the SVG namespace, taken from the drawing
  const g = document.createElementNS(ns, "g");
  g.setAttribute("class", "badge");
  g.setAttribute("aria-hidden", "true");
  const c = document.createElementNS(ns, "circle");
  c.setAttribute("cx", b.x + b.width / 2); c.setAttribute("cy", b.y + b.height / 2); c.setAttribute("r", 17);
  const t = document.createElementNS(ns, "text");
  t.setAttribute("x", b.x + b.width / 2); t.setAttribute("y", b.y + b.height / 2 + 8);
  t.setAttribute("text-anchor", "middle");
  t.textContent = text;
  g.append(c, t);
  el.appendChild(g);
}

function targetText(t) {
  const c = ui.card.text;
  if (ui.mode === "campfire-to" || (c[0] === "C" && ui.mode !== "card")) {
    return `${cardName(c)}, its card to row ${t.to_row} slot ${t.to_slot}, costs ${t.cost}`;
  }
  if (c[0] === "C") {
    const on = document.getElementById(`slot-${t.row}-${t.slot}`);
    return `${cardName(c)} onto ${cardName(on ? on.dataset.card : "?")} at row ${t.row} slot ${t.slot}, moving it to row ${t.to_row} slot ${t.to_slot}, costs ${t.cost}`;
  }
  const where = t.row === ui.game.rules_peak ? "the peak" : `row ${t.row} slot ${t.slot}`;
  return `${cardName(c)}, ${where}, costs ${t.cost}`;
}

function refreshChoice() {
  for (const b of myCards()) {
    const i = +b.dataset.index;
    const sel = ui.card !== null && ui.card.index === i;
    b.classList.toggle("selected", sel);
    b.classList.toggle("discard", ui.discards.includes(i));
    b.setAttribute("aria-pressed", sel || ui.discards.includes(i) ? "true" : "false");
  }
  for (const el of document.querySelectorAll("#mountain .slot")) {
    el.classList.remove("legal", "target", "dim");
    el.querySelectorAll(".badge").forEach((x) => x.remove());
    el.setAttribute("tabindex", "-1");
    el.setAttribute("aria-label", slotName(el));
  }
  const box = $("explain");
  const list = $("explain-list");
  list.innerHTML = "";
  box.hidden = true;
  box.classList.remove("none");
  delete box.dataset.ruling;
  if (ui.card && (ui.mode === "card" || ui.mode === "campfire-to")) {
    const ts = currentTargets();
    const marked = new Map();  // a slot (Campfires: a card to replace) and its cheapest target
    for (const t of ts) {
      const m = markOf(t);
      const key = `${m.row}-${m.slot}`;
      if (!marked.has(key) || marked.get(key).cost > t.cost) marked.set(key, t);
    }
    for (const [key, t] of marked) {
      const el = document.getElementById(`slot-${key}`);
      if (!el) continue;
      el.classList.add("legal");
      el.setAttribute("tabindex", "0");
      el.setAttribute("aria-label", targetText(t) + (ui.mode === "card" && ui.card.text[0] === "C" ? "" : ""));
      badge(el, String(t.cost));
    }
    box.hidden = false;
    if (ts.length) {
      withRulings($("explain-head"), ui.mode === "campfire-to"
        ? `Where ${ui.target.card ? cardName(ui.target.card) : "the replaced card"} moves:`
        : `${cardName(ui.card.text)} may go to ${plural(marked.size, "slot")} (the number on each is its cost in discards):`);
      for (const t of ts) {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        const where = ui.card.text[0] === "C"
          ? `onto row ${t.row} slot ${t.slot}, its card to row ${t.to_row} slot ${t.to_slot}`
          : t.row === ui.game.rules_peak ? "the peak" : `row ${t.row} slot ${t.slot}`;
        b.innerHTML = "";
        const head = document.createElement("span");
        head.className = "cost";
        head.textContent = `${where} · costs ${t.cost}`;
        const why = document.createElement("span");
        why.textContent = ` — ${t.why}`;
        b.append(head, why);
        b.setAttribute("aria-label", `${targetText(t)}: ${t.why}`);
        b.dataset.row = t.row; b.dataset.slot = t.slot;
        b.addEventListener("click", () => chooseTarget(t));
        li.appendChild(b);
        list.appendChild(li);
      }
    } else {
      const why = (ui.game.no_slot || {})[ui.card.text] || [];
      const rulings = [...new Set(why.map((w) => w.ruling))];
      box.classList.add("none");
      box.dataset.ruling = rulings[0] || "";
      withRulings($("explain-head"), `${cardName(ui.card.text)} has no legal slot now (${rulings.join(", ") || "R11"}). ` +
        (ui.game.hands[ui.game.to_move - 1].length >= 2 ? "Pick another card, or discard two." : ""));
      for (const w of why) {
        const li = document.createElement("li");
        li.className = "refusal";
        withRulings(li, `${w.row ? (w.row === ui.game.rules_peak ? "The peak" : `Row ${w.row} slot ${w.slot}`) + ": " : ""}${w.reason} (${w.ruling})`);
        list.appendChild(li);
      }
    }
  }
  if (ui.target && ui.mode === "discards") {
    const el = document.getElementById(`slot-${ui.target.row}-${ui.target.slot}`);
    if (el) { el.classList.add("target"); badge(el, String(ui.cost)); }
    if (ui.target.to_row) {
      const to = document.getElementById(`slot-${ui.target.to_row}-${ui.target.to_slot}`);
      if (to) to.classList.add("target");
    }
    if (ui.why) {
      box.hidden = false;
      withRulings($("explain-head"), `Costs ${ui.cost}: ${ui.why}.`);
    }
  } else if (ui.target && ui.mode === "campfire-to") {
    const el = document.getElementById(`slot-${ui.target.row}-${ui.target.slot}`);
    if (el) el.classList.add("target");
  }
  const ready = ui.mode === "discards" && ui.discards.length === ui.cost;
  $("confirm").disabled = !ready;
  $("cancel").disabled = ui.mode === "idle";
  document.body.dataset.choice = ui.mode;
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
    else say(`Already ${ui.cost} chosen; pick one again to put it back.`, "info");
    showPending();
    refreshChoice();
    if (ui.discards.length === ui.cost) $("confirm").focus();
    return;
  }
  resetChoice();
  ui.card = { text, index };
  ui.mode = "card";
  const ts = ui.game.targets[text] || [];
  if (!ts.length) {
    const why = (ui.game.no_slot || {})[text] || [];
    const first = why[0];
    say(first ? `${text} has no legal slot: ${first.reason} (${first.ruling})${why.length > 1 ? `, and ${plural(why.length - 1, "other reason")} below` : ""}.`
              : `${text} has no legal slot now.`, "error", first ? first.ruling : "");
  } else {
    say(text[0] === "C" ? `${text} selected: pick the card of its colour it replaces (marked), or a choice below.`
                        : `${text} selected: pick a marked slot (its cost is on it), or a choice below.`, "info");
  }
  refreshChoice();
}

/** A legal target chosen (from the list, a marked slot or the keyboard): the discards next. */
function chooseTarget(t) {
  ui.target = { row: t.row, slot: t.slot, to_row: t.to_row || 0, to_slot: t.to_slot || 0 };
  ui.cost = t.cost;
  ui.why = t.why;
  ui.mode = "discards";
  ui.discards = [];
  say(`${targetText(t)}: ${t.why}.`, "info");
  showPending();
  refreshChoice();
  if (ui.cost === 0) $("confirm").focus();
  else { const b = myCards().find((x) => +x.dataset.index !== ui.card.index); if (b) b.focus(); }
}

async function slotClicked(row, slot, occupant) {
  if (ui.game.outcome) return;
  if (!ui.card || ui.mode === "discards") {
    say(ui.mode === "discards" ? "Choose the discards in your hand, then Confirm."
                               : "Pick a card of your hand first.", "info");
    return;
  }
  const isCampfire = ui.card.text[0] === "C";
  const legal = currentTargets().filter((t) => { const m = markOf(t); return m.row === row && m.slot === slot; });
  if (isCampfire && ui.mode === "card") {
    if (legal.length === 1) { chooseTarget(legal[0]); return; }
    ui.target = { row, slot, card: occupant };
    ui.mode = "campfire-to";
    say(`${ui.card.text} on row ${row} slot ${slot}: now pick the slot in a higher row where ${occupant || "that card"} moves.`, "info");
    refreshChoice();
    const first = document.querySelector("#mountain .slot.legal");
    if (first && document.activeElement && document.activeElement.closest && document.activeElement.closest("#mountain")) first.focus();
    return;
  }
  if (legal.length) { chooseTarget(legal[0]); return; }
  const req = { card: ui.card.text, row, slot };
  if (isCampfire) { req.row = ui.target.row; req.slot = ui.target.slot; req.to_row = row; req.to_slot = slot; }
  let ans;
  try {
    ans = await api("POST", `/api/games/${ui.game.id}/check`, req);
  } catch (e) { say(e.message, "error"); return; }
  if (!ans.legal) {
    say(`Refused (${ans.ruling}): ${ans.reason}`, "error", ans.ruling);
    return;
  }
  chooseTarget({ row: req.row, slot: req.slot, to_row: req.to_row || 0, to_slot: req.to_slot || 0,
                 cost: ans.cost, why: ans.text });
}

function showPending() {
  const left = ui.cost - ui.discards.length;
  const what = ui.card ? `Play ${ui.card.text}` : "Discard turn";
  const cost = ui.card ? ` (cost ${ui.cost})` : "";
  $("pending").textContent = left > 0
    ? `${what}${cost}: pick ${left} more card${left === 1 ? "" : "s"} of your hand to discard.`
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
    const last = state.moves.filter((m) => !m.bot).pop() || state.moves[state.moves.length - 1];
    if (!state.bots_turn) say(`Played: ${last.text}`, "");
    if (!state.outcome && !state.bots_turn) focusFirstCard();
    else if (!state.outcome) $("hands").focus();
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
  say("Discard turn: pick two cards of your hand, then Confirm.", "info");
  showPending();
  refreshChoice();
  const b = myCards()[0];
  if (b) b.focus();
}

function cancel() { resetChoice(); refreshChoice(); say("Cancelled.", ""); focusFirstCard(); }

// ---- keys ---------------------------------------------------------------------------------

/** On a marked slot: the arrow keys move between the marked slots (left/right along the
 * rows, up/down between rows), Enter or Space picks, Escape goes back to the hand. */
function slotKey(ev) {
  const el = ev.currentTarget;
  if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); el.dispatchEvent(new Event("click")); return; }
  if (ev.key === "Escape") { ev.preventDefault(); cancel(); return; }
  const arrows = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (!(ev.key in arrows)) return;
  ev.preventDefault();
  const marked = [...document.querySelectorAll("#mountain .slot.legal")]
    .sort((a, b) => (+a.dataset.row - +b.dataset.row) || (+a.dataset.slot - +b.dataset.slot));
  if (!marked.length) return;
  const at = marked.indexOf(el);
  const next = marked[(at + arrows[ev.key] + marked.length) % marked.length];
  next.focus();
}

/** On a card of the hand: Enter/Space pick it (the browser's click); once picked, focus goes
 * to its first marked slot; the arrow keys move along the hand; Escape cancels. */
function handKey(ev) {
  if (ev.key === "Escape") { ev.preventDefault(); cancel(); return; }
  if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
    ev.preventDefault();
    const cards = myCards().filter((b) => !b.disabled);
    const at = cards.indexOf(ev.currentTarget);
    const next = cards[(at + (ev.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length];
    if (next) next.focus();
    return;
  }
  if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    ev.currentTarget.click();
    if (ui.mode === "card") {
      const first = document.querySelector("#mountain .slot.legal");
      if (first) first.focus();
    }
  }
}

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && ui.game && ui.mode !== "idle" && !document.querySelector("dialog[open]")) cancel();
});

// ---- starting ----------------------------------------------------------------------------

async function start() {
  const q = query;
  PAUSE = Math.min(Number(addressText("pause", 900)), 60000);
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
  const silent = q.get("mode") === "silent";
  let body;
  if (q.has("seed")) {
    body = { seed: q.get("seed"), players: addressText("players", silent ? 3 : 1) };
    const rules = (q.get("rules") || "").split(/[ ,]+/).filter((x) => x);
    if (rules.length) body.rules = rules;
  } else if (silent) {
    body = { daily: q.get("date") || "today", players: addressText("players", 3) };
  } else {
    body = { daily: q.get("date") || "today", kind: q.get("kind") || "deal", size: q.get("size") || "mini" };
  }
  if (silent) {
    body.mode = "silent";
    body.seat = addressText("seat", 1);
    if (q.get("bot")) body.bot = q.get("bot");
  }
  say(silent ? "Dealing the real game…" :
      body.daily ? `Loading the daily puzzle of ${body.daily} (the server makes it on its first request, which can take a while)…`
                 : `Dealing deal ${body.seed}…`, "info");
  try {
    render(await api("POST", "/api/games", body));
    if (!silent) say("Pick a card of your hand: its slots light up with their cost.", "");
  } catch (e) {
    say(`Could not start the game: ${e.message}`, "error");
    document.body.dataset.ready = "error";
    $("new-box").open = true;
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
    $("review-progress").max = r.positions;
    $("review-progress").value = r.done;
    $("review-progress-text").textContent = (r.resumed ? "Resumed after the server restarted. " : "") +
      (r.phase === "silent"
        ? "Every position solved; now judging each move from what its player saw…"
        : `Analysing position ${r.done} of ${r.positions} with every card known… (${r.elapsed} s; at most about ${r.estimate} s)`);
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

/** The one sentence that matters most: which move lost the game and why; or, for a game
 * lost from the start or won, the verdict. */
function leadSentence(r) {
  const g = ui.game;
  if (g.outcome === "win") return "";
  if (r.losing_move !== null && r.losing_move !== undefined) {
    const what = r.losing_text ? ` (${r.losing_text})` : "";
    let why = r.reason && r.reason.text ? r.reason.text.split("for example: ").pop().trim() : "";
    why = why ? `: after it, ${why[0].toLowerCase()}${why.slice(1)}` : ": before it the game could be won, after it no longer.";
    return `Move ${r.losing_move} lost the game${what}${why}`;
  }
  if (r.start_verdict === "loss") return "This deal could not be won whatever anyone played: even with every card known there is no winning line.";
  return r.summary || "";
}

function showReview(r) {
  $("review-progress").hidden = true;
  $("review-progress-text").textContent = "";
  const lead = $("review-lead");
  withRulings(lead, leadSentence(r));
  lead.classList.toggle("win", ui.game.outcome === "win");
  $("review-summary").textContent = r.summary;
  withRulings($("review-reason"), r.reason ? `Why: ${r.reason.text}` : "");
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
  $("review-panel").scrollIntoView({ block: "start" });
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
    const svg = $("line-svg").querySelector("svg");
    if (svg) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", `the mountain after step ${s.step}`); }
    $("line-prev").disabled = s.step === 0;
    $("line-next").disabled = s.step >= s.total;
    document.body.dataset.lineStep = s.step;
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

async function undo() {
  try {
    render(await api("POST", `/api/games/${ui.game.id}/undo`));
    say("Last move taken back.", "info");
  } catch (e) { say(e.message, "error"); }
}

async function showReveal(k) {
  try {
    const s = await api("GET", `/api/games/${ui.game.id}/solution/${k}`);
    ui.revealStep = s.step; ui.revealTotal = s.total;
    $("reveal-panel").hidden = false;
    $("side").dataset.folded = "0";
    $("reveal-text").textContent = `Step ${s.step} of ${s.total} (${s.source}): ${s.text}`;
    $("reveal-svg").innerHTML = s.svg;
    const svg = $("reveal-svg").querySelector("svg");
    if (svg) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", `the mountain after step ${s.step}`); }
    $("reveal-prev").disabled = s.step === 0;
    $("reveal-next").disabled = s.step >= s.total;
  } catch (e) { say(e.message, "error"); }
}

async function fillBots() {
  try {
    const st = await api("GET", "/api/status");
    for (const sel of document.querySelectorAll("select[name=bot]")) {
      sel.innerHTML = "";
      // the default: the bot measured best for the table's size, e.g. "uct at 1, 2, 3 players;
      // greedy at 4, 5 players"
      const byCount = st.default_bots || {};
      const groups = {};
      for (const p of Object.keys(byCount).sort()) (groups[byCount[p]] ||= []).push(p);
      const auto = document.createElement("option");
      auto.value = ""; auto.selected = true;
      const parts = Object.entries(groups).map(([b, ps]) => `${b} at ${ps.join(", ")} players`);
      auto.textContent = parts.length ? `best measured (${parts.join("; ")})` : "best measured";
      sel.appendChild(auto);
      for (const b of st.bots) {
        const o = document.createElement("option");
        o.value = b; o.textContent = b;
        sel.appendChild(o);
      }
    }
  } catch (e) { /* the forms keep their default */ }
}

function copyShare() {
  const text = $("share-text").textContent;
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => say("Copied.", "info"), () => {});
}

// ---- the walkthrough and the rules in brief ------------------------------------------------

const WALKED = "ascent.walkthrough";  // localStorage: "done" once the walkthrough was closed
let walkStep = 1;

function showWalkStep(n) {
  walkStep = n;
  for (const s of document.querySelectorAll(".walk-step")) s.hidden = +s.dataset.step !== n;
  $("walk-back").disabled = n === 1;
  $("walk-next").textContent = n === 3 ? "Start playing" : "Next";
}

function openWalkthrough() {
  showWalkStep(1);
  const d = $("walkthrough");
  if (!d.open) d.showModal();
  document.body.dataset.walkthrough = "open";
}

function walkedDone() {
  try { localStorage.setItem(WALKED, "done"); } catch (e) { /* private mode: shown again next time */ }
  document.body.dataset.walkthrough = "closed";
}

function openRules(id) {
  const d = $("rules-dialog");
  if (!d.open) d.showModal();
  for (const x of document.querySelectorAll(".rule.flash")) x.classList.remove("flash");
  const sec = id && document.getElementById(`rule-${id}`);
  if (sec) {
    sec.classList.add("flash");
    sec.scrollIntoView({ block: "start" });
    const h = sec.querySelector("h3");
    if (h) { h.tabIndex = -1; h.focus(); }
  }
}

// Small drawings of the rules: a row of cards, each [text, mark], drawn as rounded cards.
const FILL = { r: "#d94a3a", g: "#2f8f4e", b: "#2f6fc9", y: "#c9a227" };

function cardPic(text, x, y, mark) {
  const colour = text[0] === "C" ? FILL[text[1]] : FILL[text.slice(-1)];
  const face = text === "B" ? "#8c7b64" : text === "S" ? "#6a3d9a" : colour || "#999";
  const label = text === "B" ? "B" : text === "S" ? "▲" : text[0] === "C" ? "C" : text.slice(0, -1);
  let s = `<rect x="${x}" y="${y}" width="34" height="46" rx="5" fill="${text === "_" ? "none" : face}" stroke="${text === "_" ? "#8a8376" : "#222"}" stroke-width="${mark ? 3 : 1}" ${text === "_" ? 'stroke-dasharray="4 3"' : ""}/>`;
  if (text !== "_") s += `<text x="${x + 17}" y="${y + 30}" font-size="18" font-weight="bold" text-anchor="middle" fill="#fff">${label}</text>`;
  if (mark === "ok") s += `<text x="${x + 17}" y="${y + 64}" font-size="16" text-anchor="middle" fill="#0b6b50">✓</text>`;
  if (mark === "no") s += `<text x="${x + 17}" y="${y + 64}" font-size="16" text-anchor="middle" fill="#b3261e">✗</text>`;
  return s;
}

function rowPic(cards, caption) {
  const w = cards.length * 40 + 8;
  const body = cards.map((c, i) => cardPic(c[0], 4 + i * 40, 4, c[1])).join("");
  const cap = caption ? `<text x="${w + 8}" y="32" font-size="15" fill="currentColor">${caption}</text>` : "";
  return `<svg viewBox="0 0 ${w + (caption ? caption.length * 8.5 + 12 : 0)} 72" width="${w + (caption ? caption.length * 8.5 + 12 : 0)}" height="72" aria-hidden="true">${body}${cap}</svg>`;
}

function mountainPic() {
  let s = "";
  // a legal mountain of 3 rows under way: the Summit waits for full rows and no Bridge (R10)
  const rows = [["_"], ["5g", "_"], ["2r", "6b", "_"], ["4g", "1b", "B", "7r"]];
  rows.forEach((row, i) => {
    const y = 4 + i * 50;
    const x0 = 4 + (3 - i) * 20;
    row.forEach((c, j) => { s += cardPic(c, x0 + j * 40, y, ""); });
  });
  return `<svg viewBox="0 0 172 204" width="172" height="204" aria-hidden="true">${s}</svg>`;
}

const RULES = [
  { id: "R2", title: "The mountain", pic: mountainPic,
    text: "Eight rows and a peak: 9 slots on the ground row, one fewer on each row above, one Summit slot on top (45 slots)." },
  { id: "R3", title: "Order and support", pic: () => rowPic([["4g"], ["1b"], ["_", "ok"], ["_", "no"]], "leftmost empty slot"),
    text: "A card goes into the leftmost empty slot of its row, and a slot above the ground needs both cards under it." },
  { id: "R4", title: "Height", pic: () => rowPic([["2r"]], "a 2 goes in rows 1–2 only"),
    text: "A card of value v goes in rows 1 to v (8 and up: anywhere). Bridges and Campfires have no height limit." },
  { id: "R5", title: "Colour", pic: () => rowPic([["3r"], ["5g"], ["2r", "ok"]], "red green red: yes") + rowPic([["3r"], ["5r", "no"]], "red red: no"),
    text: "A card's colour must differ from the card directly to its left (in its row)." },
  { id: "R6", title: "Cost", pic: () => rowPic([["4r"], ["7g", "ok"]], "7 next to 4: discard 3"),
    text: "A card costs the difference to the nearest value to its left in its row, in cards discarded from your hand. The first card of a row costs nothing; Campfires are looked through." },
  { id: "R7", title: "Bridge", pic: () => rowPic([["3r"], ["B", "ok"], ["9g"]], "after a Bridge: free"),
    text: "A Bridge fits any slot but the first and last of a row, costs nothing, and the card after it costs nothing." },
  { id: "R8", title: "Replacing a Bridge", pic: () => rowPic([["5r"], ["3b", "ok"], ["2g"]], "3b onto B: max(2, 1) = 2"),
    text: "An Ascent card may replace any Bridge, paying the greater difference to its two neighbours and differing in colour from both. Every Bridge must be replaced before the Summit." },
  { id: "R9", title: "Campfire", pic: () => rowPic([["3r"], ["6g"], ["Cb", "ok"], ["8r"]], "5b moves up a row"),
    text: "A Campfire replaces an Ascent card of its colour; that card moves at once to a legal slot in a higher row (and pays its cost there). The Campfire stays." },
  { id: "R10", title: "Summit", pic: () => rowPic([["S", "ok"]], "on the peak: everyone wins"),
    text: "The Summit goes on the peak once rows 1–8 are full and no Bridge is left. Playing it wins the game." },
  { id: "R11", title: "A turn", pic: () => rowPic([["7g", "ok"]], "play one card") + rowPic([["2b", "no"], ["S", "no"]], "or discard two"),
    text: "Play one card and pay its cost, or discard two cards. Then draw back up to 5 from your own deck. Discards leave the game." },
  { id: "R12", title: "Loss", pic: () => rowPic([["1r", "no"]], "one card, nowhere to go"),
    text: "The game is lost when the player to move holds fewer than two cards and none of them can be played." },
  { id: "V1", title: "Silence", pic: () => rowPic([["_"], ["_"], ["_"], ["_"], ["_"]], "the others' hands: unseen"),
    text: "In the real game you see your own hand, the mountain, the cards out and how many cards each hand and deck holds; nobody talks." },
];

function buildRules() {
  const list = $("rules-list");
  for (const r of RULES) {
    const sec = document.createElement("section");
    sec.className = "rule";
    sec.id = `rule-${r.id}`;
    sec.innerHTML = `<h3>${r.id}: ${r.title}</h3><div class="pic">${r.pic()}</div><p></p>`;
    sec.querySelector("p").textContent = r.text;
    list.appendChild(sec);
  }
  for (const pic of document.querySelectorAll(".walk-step .pic")) {
    const which = pic.dataset.pic;
    pic.innerHTML = which === "mountain" ? mountainPic()
      : which === "cost" ? rowPic([["4r"], ["7g", "ok"]], "7 next to 4: discard 3")
        : rowPic([["_"], ["_"], ["_"]], "their hands are hidden");
  }
}

function todayISO() { return new Date().toISOString().slice(0, 10); }

window.addEventListener("DOMContentLoaded", () => {
  buildRules();
  $("confirm").addEventListener("click", confirmMove);
  $("cancel").addEventListener("click", cancel);
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
  $("rules-open").addEventListener("click", () => openRules(null));
  $("walk-open").addEventListener("click", openWalkthrough);
  $("walk-back").addEventListener("click", () => showWalkStep(Math.max(1, walkStep - 1)));
  $("walk-next").addEventListener("click", () => {
    if (walkStep < 3) showWalkStep(walkStep + 1); else $("walkthrough").close("done");
  });
  $("walkthrough").addEventListener("close", () => { walkedDone(); focusFirstCard(); });
  const side = $("side");
  const wide = window.matchMedia("(min-width: 900px)");
  side.dataset.folded = wide.matches ? "0" : "1";
  if (wide.matches) $("moves-box").open = true;
  $("menu-open").addEventListener("click", () => {
    const folded = side.dataset.folded === "1";
    side.dataset.folded = folded ? "0" : "1";
    $("menu-open").setAttribute("aria-expanded", folded ? "true" : "false");
    if (folded) { $("new-box").open = true; side.scrollIntoView({ block: "start" }); }
  });
  for (const input of document.querySelectorAll("input[name=date]")) input.placeholder = `yyyy-mm-dd, e.g. ${todayISO()}`;
  fillBots();
  let walked = null;
  try { walked = localStorage.getItem(WALKED); } catch (e) { walked = null; }
  if (walked !== "done") openWalkthrough();
  else document.body.dataset.walkthrough = "closed";
  start();
});
