// The play page's entry module. It holds no rules: the legal slots of a card, their costs
// and why they cost that (state.targets), and why a card has no slot (state.no_slot), come
// from the server's rules engine; a slot outside them is asked about (POST
// /api/games/{id}/check), and every move is made by the server (POST /api/games/{id}/moves).
// The modules by concern (js/): state (the shared state, the API, the words), mountain (the
// drawing and its slots), hand (the hand and the dock: choosing and confirming a move),
// dialogs (the walkthrough, the rules), review (the review after the game). This module
// draws a state (render), plays the bots' turns, reveals the solution, and starts the game.

import {
  $, addressText, api, logBotMove, query, resync, say, setRenderer, settings, ui, withRulings,
} from "./js/state.js";
import { drawMountain, pictureDrawing } from "./js/mountain.js";
import {
  cancel, confirmMove, discardTwo, drawActions, drawHands, focusFirstCard, hint, refreshChoice,
  resetChoice, slotClicked, undo,
} from "./js/hand.js";
import { initDialogs, openShortcuts } from "./js/dialogs.js";
import { initReview, loadReview } from "./js/review.js";

/** Draw the server's state ``g`` of the game: the facts, the mountain, the hands and the
 * dock, the moves, the outcome; then the bot's turn if it is one. */
function render(g) {
  announceBotMoves(ui.game, g);
  ui.game = g;
  g.rules_peak = (g.rules.rows || 8) + 1;
  drawFacts(g);
  drawMountain(g, slotClicked, cancel);
  drawHands(g);
  const silent = g.mode === "silent";
  $("seen-out").hidden = !silent;
  if (silent) $("out-cards").textContent = g.out.length ? g.out.join(" ") : "none yet";
  drawMoves(g);
  drawOutcome(g);
  drawActions(g);
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
    history.replaceState(null, "", `/g/${g.id}${settings.pause !== 900 ? `?pause=${settings.pause}` : ""}`);
  }
  if (g.bots_turn) scheduleBot();
  else if (silent && g.your_turn) say(`Your turn (player ${g.seat}): pick a card of your hand, or discard two.`, "");
  if (g.outcome === "loss" && !document.body.dataset.review) {
    $("review-open").focus({ preventScroll: true });
  }
}

/** Announce the bots' moves of ``g`` that ``was`` (the state drawn before, of the same
 * game) did not have yet: each in text and in the live region (logBotMove). */
function announceBotMoves(was, g) {
  if (!was || was.id !== g.id || g.mode !== "silent") return;
  for (const m of g.moves.slice(was.moves.length)) {
    if (m.bot) logBotMove(`Player ${m.move.player} (the ${g.bot} bot): ${m.text}`);
  }
}

/** The title, goal, cards out, turn and rules of state ``g``. */
function drawFacts(g) {
  document.title = `${g.title}: The Ascent`;
  $("title").textContent = g.title;
  $("goal").textContent = `Goal: ${g.goal}`;
  const par = g.par === null ? "" : ` · par ${g.par}${g.par_proven ? " (proven)" : ""}`;
  $("counter").textContent = `Cards out: ${g.cards_out}${par}`;
  $("turn").textContent = g.outcome ? `${g.turn} turns` :
    `Turn ${g.turn + 1} · player ${g.to_move} to move · ${g.filled}/${g.slots} slots`;
  $("rules").textContent = g.rules_text === "standard" ? "" : `rules: ${g.rules_text}`;
}

/** The list of the moves made. */
function drawMoves(g) {
  const moves = $("moves");
  moves.innerHTML = "";
  for (const m of g.moves) {
    const li = document.createElement("li");
    li.textContent = m.text;
    moves.appendChild(li);
  }
  $("moves-count").textContent = `(${g.moves.length})`;
  moves.scrollTop = moves.scrollHeight;
}

/** The win or loss, and the line to share. */
function drawOutcome(g) {
  const out = $("outcome");
  out.hidden = !g.outcome;
  out.className = g.outcome || "";
  withRulings(out, g.message);
  $("share").hidden = !g.share;
  $("share-text").textContent = g.share || "";
}

// ---- the bots' turns ----------------------------------------------------------------------

let botTimer = null;
function scheduleBot(delay) {
  if (botTimer !== null) return;
  say(`Player ${ui.game.to_move} (the ${ui.game.bot} bot) is thinking…`, "info");
  botTimer = setTimeout(botMove, delay === undefined ? settings.pause : delay);
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

// ---- the solution, the side bar, sharing --------------------------------------------------

async function showReveal(k) {
  try {
    const s = await api("GET", `/api/games/${ui.game.id}/solution/${k}`);
    ui.revealStep = s.step; ui.revealTotal = s.total;
    $("reveal-panel").hidden = false;
    $("side").dataset.folded = "0";
    $("reveal-text").textContent = `Step ${s.step} of ${s.total} (${s.source}): ${s.text}`;
    $("reveal-svg").innerHTML = s.svg;
    pictureDrawing($("reveal-svg"), `the mountain after step ${s.step}`);
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

function todayISO() { return new Date().toISOString().slice(0, 10); }

// ---- starting ----------------------------------------------------------------------------

async function start() {
  const q = query;
  settings.pause = Math.min(Number(addressText("pause", 900)), 60000);
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
  // the front page (no game named in the address) is the real game: today's challenge
  const puzzle = ["seed", "date", "kind", "size"].some((k) => q.has(k));
  const silent = q.get("mode") === "silent" || (!q.has("mode") && !puzzle);
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

function init() {
  setRenderer(render);
  $("confirm").addEventListener("click", confirmMove);
  $("cancel").addEventListener("click", cancel);
  $("discard-two").addEventListener("click", discardTwo);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("reveal").addEventListener("click", () => showReveal(Math.min(1, ui.revealTotal || 1)));
  $("reveal-prev").addEventListener("click", () => showReveal(ui.revealStep - 1));
  $("reveal-next").addEventListener("click", () => showReveal(ui.revealStep + 1));
  $("reveal-close").addEventListener("click", () => { $("reveal-panel").hidden = true; });
  initReview();
  $("share-copy").addEventListener("click", copyShare);
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
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && ui.game && ui.mode !== "idle" && !document.querySelector("dialog[open]")) cancel();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key !== "?" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && t.closest && t.closest("input, select, textarea, [contenteditable]")) return;
    if (document.querySelector("dialog[open]")) return;
    ev.preventDefault();
    openShortcuts();
  });
  // the page shown again from the browser's history (Back, Forward, a restored tab), or
  // come back to: draw the game as the server has it now
  const again = () => { if (ui.game) resync().catch(() => {}); };
  window.addEventListener("pageshow", (ev) => { if (ev.persisted) again(); });
  window.addEventListener("popstate", again);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") again(); });
  initDialogs(focusFirstCard);
  start();
}

// a module runs once the document is parsed (as a deferred script)
if (document.readyState === "loading") window.addEventListener("DOMContentLoaded", init);
else init();
