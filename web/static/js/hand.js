// The hand and the dock: the cards of the hand (the one to play under the thumb), the
// choice of a card, its slot and its discards, the explanation of a card's slots, and the
// actions (Confirm, Cancel, Discard two, Undo, Hint). Every move is made by the server.

import { $, api, cardName, clearBotLog, hand, plural, render, resync, say, ui, withRulings } from "./state.js";
import {
  clearMarks, focusFirstLegal, legalSlots, markLegal, markTarget, readableFace, showSideways, slotEl,
} from "./mountain.js";

/** Forget the choice being made. */
export function resetChoice() {
  ui.card = null; ui.target = null; ui.cost = null; ui.why = ""; ui.mode = "idle"; ui.discards = [];
  $("pending").textContent = "";
}

/** The card buttons of the hand of the player to move. */
export function myCards() {
  if (!ui.game) return [];
  return [...document.querySelectorAll(`.hand[data-player="${ui.game.to_move}"] button.card`)];
}

/** Put the focus on the first card of the hand that may be played. */
export function focusFirstCard() {
  const b = myCards().find((x) => !x.disabled);
  if (b) b.focus();
}

/** Draw every hand of state ``g``: the hand to play in the dock (``#hands``), the others
 * above it (``#others``); a silent game's other hands as their sizes. */
export function drawHands(g) {
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
    (cards || []).forEach((text, i) => row.appendChild(cardButton(g, text, i, moving)));
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
    const order = row.querySelector(".deck-order");
    if (dock && order) {  // on a phone one line that scrolls sideways: the keyboard reaches it
      order.setAttribute("role", "group");
      order.tabIndex = 0;
    }
    if (dock) {  // its caption on a line of its own, the cards below
      row.insertBefore(deck, who.nextSibling);
      const br = document.createElement("span");
      br.className = "break";
      row.insertBefore(br, deck.nextSibling);
    }
    (dock ? hands : others).appendChild(row);
  });
}

function cardButton(g, text, i, moving) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "card";
  b.dataset.card = text;
  b.dataset.index = i;
  b.title = text;
  b.innerHTML = g.card_svgs[text];
  const svgc = b.querySelector("svg");
  if (svgc) svgc.setAttribute("aria-hidden", "true");
  const face = b.querySelector("g.card");
  if (face) readableFace(face);
  const n = (g.targets[text] || []).length;
  const stuck = moving && n === 0 && g.targets && (g.no_slot || {})[text] !== undefined;
  if (stuck) b.classList.add("stuck");
  b.setAttribute("aria-label", cardName(text) + (moving ? (n ? `, ${plural(n, "legal slot")}` : ", no legal slot") : ""));
  b.setAttribute("aria-pressed", "false");
  b.disabled = !moving;
  b.addEventListener("click", () => cardClicked(text, i));
  b.addEventListener("keydown", handKey);
  return b;
}

/** Show or hide the dock's actions for state ``g``. */
export function drawActions(g) {
  const silent = g.mode === "silent";
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

function targetText(t) {
  const c = ui.card.text;
  if (ui.mode === "campfire-to" || (c[0] === "C" && ui.mode !== "card")) {
    return `${cardName(c)}, its card to row ${t.to_row} slot ${t.to_slot}, costs ${t.cost}`;
  }
  if (c[0] === "C") {
    const on = slotEl(t.row, t.slot);
    return `${cardName(c)} onto ${cardName(on ? on.dataset.card : "?")} at row ${t.row} slot ${t.slot}, moving it to row ${t.to_row} slot ${t.to_slot}, costs ${t.cost}`;
  }
  const where = t.row === ui.game.rules_peak ? "the peak" : `row ${t.row} slot ${t.slot}`;
  return `${cardName(c)}, ${where}, costs ${t.cost}`;
}

/** Draw the choice being made: the cards chosen, the slots marked, the explanation, and
 * whether Confirm may be pressed. */
export function refreshChoice() {
  for (const b of myCards()) {
    const i = +b.dataset.index;
    const sel = ui.card !== null && ui.card.index === i;
    b.classList.toggle("selected", sel);
    b.classList.toggle("discard", ui.discards.includes(i));
    b.setAttribute("aria-pressed", sel || ui.discards.includes(i) ? "true" : "false");
  }
  clearMarks();
  const box = $("explain");
  const list = $("explain-list");
  list.innerHTML = "";
  box.hidden = true;
  box.classList.remove("none");
  delete box.dataset.ruling;
  if (ui.card && (ui.mode === "card" || ui.mode === "campfire-to")) explainCard(box, list);
  if (ui.target && ui.mode === "discards") {
    markTarget(ui.target.row, ui.target.slot, ui.cost);
    if (ui.target.to_row) markTarget(ui.target.to_row, ui.target.to_slot);
    if (ui.why) {
      box.hidden = false;
      withRulings($("explain-head"), `Costs ${ui.cost}: ${ui.why}.`);
    }
  } else if (ui.target && ui.mode === "campfire-to") {
    markTarget(ui.target.row, ui.target.slot);
  }
  const ready = ui.mode === "discards" && ui.discards.length === ui.cost;
  $("confirm").disabled = !ready || sending;
  $("cancel").disabled = ui.mode === "idle";
  document.body.dataset.choice = ui.mode;
}

/** The chosen card's legal slots, marked on the mountain and listed with their reasons; or
 * why it has none. */
function explainCard(box, list) {
  const ts = currentTargets();
  const marked = new Map();  // a slot (Campfires: a card to replace) and its cheapest target
  for (const t of ts) {
    const m = markOf(t);
    const key = `${m.row}-${m.slot}`;
    if (!marked.has(key) || marked.get(key).cost > t.cost) marked.set(key, t);
  }
  for (const t of marked.values()) {
    const m = markOf(t);
    markLegal(m.row, m.slot, t.cost, targetText(t));
  }
  showSideways(legalSlots()[0]);
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

/** A click on slot ``row``/``slot`` of the mountain (holding ``occupant``, a card text). */
export async function slotClicked(row, slot, occupant) {
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
    focusFirstLegal(true);
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

let sending = false;  // a move is on its way to the server: Confirm waits for its answer

/** Whether a move is on its way to the server (Confirm is disabled meanwhile). */
export function moveInFlight() { return sending; }

/** Send the move chosen to the server and draw the answer (Confirm). Confirm is disabled
 * until the answer comes, so a double click or Enter twice sends one move. A refusal is
 * said with its ruling; when the game had moved on meanwhile (another tab, an old page
 * restored by Back), the page draws the game as it is now. */
export async function confirmMove() {
  if (sending || $("confirm").disabled) return;
  const h = hand();
  const discard = ui.discards.map((i) => h[i]);
  const body = ui.card
    ? { card: ui.card.text, row: ui.target.row, slot: ui.target.slot, discard }
    : { kind: "discard", discard };
  if (ui.card && ui.target.to_row) { body.to_row = ui.target.to_row; body.to_slot = ui.target.to_slot; }
  sending = true;
  $("confirm").disabled = true;
  $("confirm").setAttribute("aria-busy", "true");
  document.body.dataset.sending = "1";
  let state;
  try {
    state = await api("POST", `/api/games/${ui.game.id}/moves`, body);
  } catch (e) {
    done();
    const refusal = e.data && e.data.ruling ? `Refused (${e.data.ruling}): ${e.data.reason}` : e.message;
    let moved = false;
    if (e.status === 409 || e.status === 422) {
      try { moved = await resync(); } catch (e2) { moved = false; }
    }
    if (moved) {
      say(`The game had moved on: this is turn ${ui.game.turn + 1} as the server has it. ` +
          `Your move was not made (${refusal}).`, "info");
    } else {
      say(refusal, "error", e.data && e.data.ruling);
      resetChoice();
      refreshChoice();
    }
    return;
  }
  done();
  clearBotLog();
  render(state);
  const last = state.moves.filter((m) => !m.bot).pop() || state.moves[state.moves.length - 1];
  if (!state.bots_turn) say(`Played: ${last.text}`, "");
  if (!state.outcome && !state.bots_turn) focusFirstCard();
  else if (!state.outcome) $("hands").focus();

  function done() {
    sending = false;
    $("confirm").removeAttribute("aria-busy");
    delete document.body.dataset.sending;
  }
}

/** Start a discard turn: two cards of the hand to choose. */
export function discardTwo() {
  resetChoice();
  ui.mode = "discards";
  ui.cost = 2;
  say("Discard turn: pick two cards of your hand, then Confirm.", "info");
  showPending();
  refreshChoice();
  const b = myCards()[0];
  if (b) b.focus();
}

/** Drop the choice being made, back to the hand. */
export function cancel() { resetChoice(); refreshChoice(); say("Cancelled.", ""); focusFirstCard(); }

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
    if (ui.mode === "card") focusFirstLegal(false);
  }
}

/** Ask the server for a hint and mark it on the mountain and in the hand. */
export async function hint() {
  say("Looking for a hint…", "info");
  try {
    const h = await api("GET", `/api/games/${ui.game.id}/hint`);
    say(`Hint (${h.source}): ${h.text}`, "info");
    for (const el of document.querySelectorAll(".hinted")) el.classList.remove("hinted");
    if (h.move.row) {
      const el = slotEl(h.move.row, h.move.slot);
      if (el) el.classList.add("hinted");
    }
    const b = h.move.card && document.querySelector(`.hand[data-player="${ui.game.to_move}"] button.card[data-card="${h.move.card}"]`);
    if (b) b.classList.add("hinted");
  } catch (e) {
    say(e.status === 503 ? `The server is busy; ask again in ${e.retryAfter || 1} s.` : e.message, "error");
  }
}

/** Take back the last move (an open game). */
export async function undo() {
  try {
    render(await api("POST", `/api/games/${ui.game.id}/undo`));
    say("Last move taken back.", "info");
  } catch (e) { say(e.message, "error"); }
}
