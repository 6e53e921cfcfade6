// The dialogs: the walkthrough of a first visit (remembered in localStorage), the rules
// (every ruling's text from the server, GET /api/rules, which reads docs/rules.md; each
// with a small drawing), and the keyboard shortcuts (the ? key). A click on any ruling id
// the page prints (a.ruling, see withRulings) opens its entry.

import { $, api, rulings } from "./state.js";

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
  if (sec && sec.closest("#rules-goats")) $("rules-goats").open = true;
  if (sec) {
    sec.classList.add("flash");
    sec.scrollIntoView({ block: "start" });
    const h = sec.querySelector("h3");
    if (h) { h.tabIndex = -1; h.focus(); }
  }
}

// Small drawings of the rules: a row of cards, each [text, mark], drawn as rounded cards.
// The faces are dark enough for white text (at least 4.5:1; yellow takes dark text); the
// empty slots, captions and marks take the page's colours (classes of the style sheet).
const FILL = { r: "#b3261e", g: "#1e6b3a", b: "#2c62b0", y: "#e3c13b" };

function cardPic(text, x, y, mark) {
  const letter = text[0] === "C" ? text[1] : text.slice(-1);
  const colour = FILL[letter];
  const face = text === "B" ? "#5f5445" : text === "S" ? "#6a3d9a" : colour || "#999";
  const ink = letter === "y" ? "#222" : "#fff";
  const label = text === "B" ? "B" : text === "S" ? "▲" : text[0] === "C" ? "C" : text.slice(0, -1);
  let s = text === "_"
    ? `<rect class="pic-empty" x="${x}" y="${y}" width="34" height="46" rx="5" fill="none" stroke="#8a8376" stroke-width="${mark ? 3 : 1}" stroke-dasharray="4 3"/>`
    : `<rect x="${x}" y="${y}" width="34" height="46" rx="5" fill="${face}" stroke="#222" stroke-width="${mark ? 3 : 1}"/>`;
  if (text !== "_") s += `<text x="${x + 17}" y="${y + 30}" font-size="18" font-weight="bold" text-anchor="middle" fill="${ink}">${label}</text>`;
  if (mark === "ok") s += `<text class="pic-ok" x="${x + 17}" y="${y + 64}" font-size="16" text-anchor="middle" fill="#0b6b50">✓</text>`;
  if (mark === "no") s += `<text class="pic-no" x="${x + 17}" y="${y + 64}" font-size="16" text-anchor="middle" fill="#b3261e">✗</text>`;
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

/** The drawing of each ruling, by id (the text comes from the server, GET /api/rules). */
const PICS = {
  R1: () => rowPic([["7r"], ["Cg"], ["B"], ["S"]], "Ascent card, Campfire, Bridge, Summit"),
  R2: mountainPic,
  R3: () => rowPic([["4g"], ["1b"], ["_", "ok"], ["_", "no"]], "leftmost empty slot"),
  R4: () => rowPic([["2r"]], "a 2 goes in rows 1–2 only"),
  R5: () => rowPic([["3r"], ["5g"], ["2r", "ok"]], "red green red: yes") + rowPic([["3r"], ["5r", "no"]], "red red: no"),
  R6: () => rowPic([["4r"], ["7g", "ok"]], "7 next to 4: discard 3"),
  R7: () => rowPic([["3r"], ["B", "ok"], ["9g"]], "after a Bridge: free"),
  R8: () => rowPic([["5r"], ["3b", "ok"], ["2g"]], "3b onto B: max(2, 1) = 2"),
  R9: () => rowPic([["3r"], ["6g"], ["Cb", "ok"], ["8r"]], "5b moves up a row"),
  R10: () => rowPic([["S", "ok"]], "on the peak: everyone wins"),
  R11: () => rowPic([["7g", "ok"]], "play one card") + rowPic([["2b", "no"], ["S", "no"]], "or discard two"),
  R12: () => rowPic([["1r", "no"]], "one card, nowhere to go"),
  R13: () => rowPic([["_"], ["_"], ["_"], ["_"], ["_"]], "a hand of 5, your own deck"),
  V1: () => rowPic([["_"], ["_"], ["_"], ["_"], ["_"]], "the others' hands: unseen"),
};

/** Blocks of a ruling's part ({p}, {ul} or {ol}, plain text) as elements in ``into``. */
function appendBlocks(into, blocks) {
  for (const b of blocks) {
    if (b.p !== undefined) {
      const p = document.createElement("p");
      p.textContent = b.p;
      into.appendChild(p);
    } else {
      const list = document.createElement(b.ol ? "ol" : "ul");
      for (const item of b.ol || b.ul || []) {
        const li = document.createElement("li");
        li.textContent = item;
        list.appendChild(li);
      }
      into.appendChild(list);
    }
  }
}

/** One ruling's entry: its id and title, its drawing, the ruling's text, and the printed
 * rules, options and examples folded below it. */
function ruleSection(r) {
  const sec = document.createElement("section");
  sec.className = PICS[r.id] ? "rule" : "rule-more";
  sec.id = `rule-${r.id}`;
  const h = document.createElement("h3");
  h.textContent = `${r.id}: ${r.title}`;
  sec.appendChild(h);
  if (PICS[r.id]) {
    const pic = document.createElement("div");
    pic.className = "pic";
    pic.innerHTML = PICS[r.id]();  // drawn here, from constants: no text from outside
    sec.appendChild(pic);
  }
  const [first, ...rest] = r.parts;
  if (first) appendBlocks(sec, first.blocks);
  if (rest.length) {
    const more = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = `More: ${rest.map((p) => p.label.toLowerCase()).join(", ")}`;
    more.appendChild(summary);
    for (const part of rest) {
      const h4 = document.createElement("h4");
      h4.textContent = part.label;
      more.appendChild(h4);
      appendBlocks(more, part.blocks);
    }
    sec.appendChild(more);
  }
  return sec;
}

/** Fill the Rules dialog from the server's rulings (GET /api/rules: R1–R13, V1, and the
 * Goats module's G1–G7 in a fold of their own). */
async function buildRules() {
  const list = $("rules-list");
  let found;
  try {
    found = (await api("GET", "/api/rules")).rulings;
  } catch (e) {
    list.textContent = `The rulings could not be loaded: ${e.message}.`;
    return;
  }
  const goats = document.createElement("details");
  goats.id = "rules-goats";
  const gs = document.createElement("summary");
  gs.textContent = "The Goats module (optional): G1–G7";
  goats.appendChild(gs);
  for (const r of found) {
    rulings.set(r.id, r);
    (r.id[0] === "G" ? goats : list).appendChild(ruleSection(r));
  }
  if (goats.children.length > 1) list.appendChild(goats);
  document.body.dataset.rules = String(found.length);
}

function drawWalkthrough() {
  for (const pic of document.querySelectorAll(".walk-step .pic")) {
    const which = pic.dataset.pic;
    pic.innerHTML = which === "mountain" ? mountainPic()
      : which === "cost" ? rowPic([["4r"], ["7g", "ok"]], "7 next to 4: discard 3")
        : rowPic([["_"], ["_"], ["_"]], "their hands are hidden");
  }
}

/** Open the list of keyboard shortcuts (the ? key). */
export function openShortcuts() {
  const d = $("keys-dialog");
  if (!d.open) d.showModal();
}

/** Build the rules and wire the dialogs' buttons; ``onWalkthroughClosed`` runs
 * when the walkthrough closes. Opens the walkthrough on a first visit. */
export function initDialogs(onWalkthroughClosed) {
  drawWalkthrough();
  buildRules();
  $("keys-open").addEventListener("click", openShortcuts);
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
