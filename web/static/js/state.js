// The page's state and the few things every module shares: the server's answer (ui.game),
// the choice being made, the address, the API call, and the words (card names, messages).
// The page holds no rules: the legal slots, their costs and reasons come from the server.

/** What the page knows and what the person is choosing. */
export const ui = {
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

/** Settings read from the address once, at the start. */
export const settings = {
  pause: 900,  // the pause between two bot moves, so that a person can follow them (?pause=MS)
};

/** The rulings in brief, by id ({id, title, text}): filled by the dialogs module, read by
 * withRulings for the links' titles. */
export const rulings = new Map();

export const $ = (id) => document.getElementById(id);

export async function api(method, path, body) {
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

// ---- drawing a new state: one function, set by the entry module --------------------------

let renderer = null;

/** Set the function that draws a state of the game (the entry module's). */
export function setRenderer(fn) { renderer = fn; }

/** Draw ``state``, the server's answer (see setRenderer). */
export function render(state) { return renderer(state); }

/** Ask the server for the game's state and draw it when it differs from the one drawn (a
 * move made meanwhile: in another tab, or while the page was in the browser's history).
 * Returns whether it differed; a failure of the request is thrown. */
export async function resync() {
  if (!ui.game) return false;
  const state = await api("GET", `/api/games/${ui.game.id}`);
  const was = ui.game;
  const stale = state.turn !== was.turn || state.moves.length !== was.moves.length ||
    state.outcome !== was.outcome || JSON.stringify(state.last_move) !== JSON.stringify(was.last_move);
  if (stale) render(state);
  return stale;
}

// ---- words ---------------------------------------------------------------------------------

const COLOURS = { r: "red", g: "green", b: "blue", y: "yellow" };

/** A card's spoken name: "7 red", "green Campfire", "Bridge", "Summit". */
export function cardName(text) {
  if (text === "B") return "Bridge";
  if (text === "S") return "Summit";
  if (text[0] === "C") return `${COLOURS[text[1]] || text[1]} Campfire`;
  return `${text.slice(0, -1)} ${COLOURS[text.slice(-1)] || text.slice(-1)}`;
}

export const plural = (n, what) => `${n} ${what}${n === 1 ? "" : "s"}`;

/** Fill ``el`` with ``text``, each ruling id (R5, V1, G2) a link to its rule in brief (a
 * click on ``a.ruling`` opens the Rules dialog: the dialogs module listens). */
export function withRulings(el, text) {
  el.textContent = "";
  const parts = String(text).split(/\b(R1[0-3]|R[1-9]|V1|G[1-7])\b/);
  parts.forEach((part, i) => {
    if (i % 2 === 0) { if (part) el.appendChild(document.createTextNode(part)); return; }
    const a = document.createElement("a");
    a.href = `#rule-${part}`;
    a.className = "ruling";
    a.dataset.rule = part;
    a.textContent = part;
    a.title = `ruling ${part}: ${rulings.get(part)?.title || "see the Rules"}`;
    el.appendChild(a);
  });
}

/** The message line: ``text`` (its rulings as links), ``kind`` "", "info" or "error". */
export function say(text, kind, ruling) {
  const m = $("message");
  withRulings(m, text);
  m.className = kind || "";
  if (ruling) m.dataset.ruling = ruling; else delete m.dataset.ruling;
}

/** The hand of the player to move. */
export function hand() { return ui.game.hands[ui.game.to_move - 1]; }

// ---- the address: strict numbers --------------------------------------------------------

export const query = new URLSearchParams(location.search);

/** The address's ``name`` as written (a string of digits: the server refuses the page for
 * anything else, ``?seed=12abc``, before serving it), or ``fallback`` when absent. The server
 * parses it again where it is used (no parseInt here). */
export function addressText(name, fallback) {
  return query.has(name) ? query.get(name) : fallback;
}

// ---- the bots' moves, announced ----------------------------------------------------------

/** Announce a bot's move: a line of text in #bot-moves, a live region (role="log"), so that
 * a screen reader says it and anyone can read it; ``document.body.dataset.announced`` counts
 * the bot moves announced since the page opened. */
export function logBotMove(text) {
  const log = $("bot-moves");
  const li = document.createElement("li");
  li.textContent = text;
  log.appendChild(li);
  document.body.dataset.announced = String(+(document.body.dataset.announced || 0) + 1);
}

/** Empty the bot moves' log (the person moves: the moves before are in the Moves list). */
export function clearBotLog() {
  const log = $("bot-moves");
  log.textContent = "";
}
