// The dialogs: the walkthrough of a first visit (remembered in localStorage) and the rules
// in brief, each ruling with a small drawing. A click on any ruling id the page prints
// (a.ruling, see withRulings) opens its entry.

import { $, rulings } from "./state.js";

const WALKED = "ascent.walkthrough";  // localStorage: "done" once the walkthrough was closed
let walkStep = 1;

function showWalkStep(n) {
  walkStep = n;
  for (const s of document.querySelectorAll(".walk-step")) s.hidden = +s.dataset.step !== n;
  $("walk-back").disabled = n === 1;
  $("walk-next").textContent = n === 3 ? "Start playing" : "Next";
}

/** Open the walkthrough at its first step. */
export function openWalkthrough() {
  showWalkStep(1);
  const d = $("walkthrough");
  if (!d.open) d.showModal();
  document.body.dataset.walkthrough = "open";
}

function walkedDone() {
  try { localStorage.setItem(WALKED, "done"); } catch (e) { /* private mode: shown again next time */ }
  document.body.dataset.walkthrough = "closed";
}

/** Open the Rules dialog, at ruling ``id`` when given (its entry flashes and takes the
 * focus). */
export function openRules(id) {
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
    rulings.set(r.id, r);
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

/** Build the rules in brief and wire the dialogs' buttons; ``onWalkthroughClosed`` runs
 * when the walkthrough closes. Opens the walkthrough on a first visit. */
export function initDialogs(onWalkthroughClosed) {
  buildRules();
  document.addEventListener("click", (ev) => {
    const a = ev.target.closest && ev.target.closest("a.ruling");
    if (!a) return;
    ev.preventDefault();
    openRules(a.dataset.rule);
  });
  $("rules-open").addEventListener("click", () => openRules(null));
  $("walk-open").addEventListener("click", openWalkthrough);
  $("walk-back").addEventListener("click", () => showWalkStep(Math.max(1, walkStep - 1)));
  $("walk-next").addEventListener("click", () => {
    if (walkStep < 3) showWalkStep(walkStep + 1); else $("walkthrough").close("done");
  });
  $("walkthrough").addEventListener("close", () => { walkedDone(); onWalkthroughClosed(); });
  let walked = null;
  try { walked = localStorage.getItem(WALKED); } catch (e) { walked = null; }
  if (walked !== "done") openWalkthrough();
  else document.body.dataset.walkthrough = "closed";
}
