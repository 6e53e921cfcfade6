// The mountain: the server's drawing (render/, one group per slot with data-row, data-slot
// and data-card), cropped to its slots, with row numbers, the legal slots marked with their
// cost, and the keyboard along the marked slots.

import { $, cardName, ui } from "./state.js";

/** The slot element of ``row``/``slot`` on the mountain, or null. */
export function slotEl(row, slot) { return document.getElementById(`slot-${row}-${slot}`); }

/** Every slot of the mountain. */
export function slots() { return [...document.querySelectorAll("#mountain .slot")]; }

/** The marked (legal) slots, in reading order: by row, then slot. */
export function legalSlots() {
  return [...document.querySelectorAll("#mountain .slot.legal")]
    .sort((a, b) => (+a.dataset.row - +b.dataset.row) || (+a.dataset.slot - +b.dataset.slot));
}

/** Crop the mountain's drawing to its slots, so that it fills the width, and put large row
 * numbers beside each row. */
export function fitMountain(svg) {
  const all = [...svg.querySelectorAll(".slot")];
  if (!all.length) return;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const rows = {};
  for (const el of all) {
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

/** The smallest size, in CSS pixels, of a slot (the side of its diamond's box) and of a
 * card's text on the mountain: the mountain is drawn at least this large, and scrolls
 * sideways on a narrow screen. */
export const MIN_SLOT_PX = 44;

// ---- the drawings follow the page's colours (light or dark) ------------------------------

/** Mark the parts of a drawing of render/ that take the page's colours (its background,
 * the empty slots' diamonds, the captions, the last move's outline) with classes the style
 * sheet colours from its variables, so that the drawing follows dark mode. */
export function themeDrawing(svg) {
  const bg = svg.querySelector(":scope > rect");
  if (bg) bg.classList.add("bg");
  for (const t of svg.querySelectorAll(":scope > text")) t.classList.add("caption");
  for (const p of svg.querySelectorAll(".slot > path[stroke-dasharray]")) p.classList.add("empty");
  for (const t of svg.querySelectorAll(".slot > text")) {
    if (t.textContent === "peak") { t.classList.add("caption"); t.setAttribute("font-size", "17"); }
  }
  for (const m of svg.querySelectorAll(".mark")) m.classList.add("last-move");
}

/** The relative luminance of a colour ``#rrggbb`` (WCAG 2). */
function luminance(hex) {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

/** The contrast ratio of two colours ``#rrggbb`` (WCAG 2: 1 to 21). */
export function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/** Make the face of one card of a drawing of render/ (a slot of the mountain, or a card of
 * the hand: the group ``g``) easy to read: the colour letter as large as the value and
 * beside it (it was half its size, under it), the colour's shape under both, the Summit's
 * letter larger, and the ink dark where white on the card's colour is under 4.5:1 (the
 * red, green and Bridge faces). */
export function readableFace(g) {
  const face = g.querySelector(":scope > path, :scope > rect");
  const texts = [...g.querySelectorAll(":scope > text")];
  if (!face || !texts.length) return;
  const fill = (face.getAttribute("fill") || "").toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(fill) && contrast(fill, "#ffffff") < 4.5) {
    for (const el of g.querySelectorAll("[fill='#ffffff']")) el.setAttribute("fill", "#111111");
    for (const el of g.querySelectorAll("[stroke='#ffffff']")) el.setAttribute("stroke", "#111111");
  }
  const [first, second] = texts;
  if (texts.length === 2 && /^[a-z]$/.test(second.textContent)) {  // a value (or C) and a colour letter
    const k = +first.getAttribute("font-size") / 19;
    const x = +first.getAttribute("x");
    const wide = first.textContent.length > 1;
    first.setAttribute("x", x - (wide ? 7 : 5) * k);
    second.setAttribute("x", x + (wide ? 14 : 10) * k);
    second.setAttribute("y", first.getAttribute("y"));
    second.setAttribute("font-size", 17 * k);
    const shape = first.nextElementSibling;
    if (shape && shape !== second) shape.setAttribute("transform", `translate(${6 * k} ${3 * k})`);
  } else if (texts.length === 1 && first.textContent === "S") {
    first.setAttribute("font-size", +first.getAttribute("font-size") * 17 / 15.2);
  }
}

/** Draw ``svg`` (the mountain) so wide that a slot is at least ``px`` CSS pixels across:
 * on a narrow screen it then scrolls sideways. */
function atLeast(svg, px) {
  const one = svg.querySelector(".slot > path");
  const vb = svg.viewBox.baseVal;
  if (!one || !vb || !vb.width) return;
  const side = one.getBBox().width;
  svg.style.minWidth = `${Math.ceil(vb.width * px / side)}px`;
}

/** A drawing of render/ shown as a picture (the solution's, the review's line): it takes
 * the page's colours and its cards are easy to read. */
export function pictureDrawing(container, label) {
  const svg = container.querySelector("svg");
  if (!svg) return;
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  themeDrawing(svg);
  for (const el of svg.querySelectorAll(".slot")) readableFace(el);
}

/** A slot's name for a screen reader: "row 1 slot 4, 3 green", "the peak, empty". */
export function slotName(el) {
  const r = +el.dataset.row;
  const where = r === ui.game.rules_peak ? "the peak" : `row ${r} slot ${el.dataset.slot}`;
  return `${where}, ${el.dataset.card ? cardName(el.dataset.card) : "empty"}`;
}

/** Draw the mountain of state ``g``; a click on a slot calls ``onSlot(row, slot, card)``,
 * Escape on a slot calls ``onEscape()``. */
export function drawMountain(g, onSlot, onEscape) {
  $("mountain").innerHTML = g.svg;
  const svg = $("mountain").querySelector("svg");
  if (svg) {
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", `the mountain, ${g.filled} of ${g.slots} slots filled`);
    themeDrawing(svg);
    for (const el of svg.querySelectorAll(".slot[data-card]")) readableFace(el);
    fitMountain(svg);
    atLeast(svg, MIN_SLOT_PX);
  }
  for (const el of slots()) {
    el.setAttribute("tabindex", "-1");
    el.setAttribute("aria-label", slotName(el));
    el.addEventListener("click", () => onSlot(+el.dataset.row, +el.dataset.slot, el.dataset.card));
    el.addEventListener("keydown", (ev) => slotKey(ev, onEscape));
  }
}

/** A round badge with ``text`` (a cost) in the middle of slot ``el``. */
export function badge(el, text) {
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

/** Take every mark off the mountain (legal, target, badges), each slot back to its name. */
export function clearMarks() {
  for (const el of slots()) {
    el.classList.remove("legal", "target", "dim");
    el.querySelectorAll(".badge").forEach((x) => x.remove());
    el.setAttribute("tabindex", "-1");
    el.setAttribute("aria-label", slotName(el));
  }
}

/** Mark slot ``row``/``slot`` legal, reachable by the keyboard, named ``label``, with its
 * ``cost`` on it. */
export function markLegal(row, slot, cost, label) {
  const el = slotEl(row, slot);
  if (!el) return;
  el.classList.add("legal");
  el.setAttribute("tabindex", "0");
  el.setAttribute("aria-label", label);
  badge(el, String(cost));
}

/** Scroll the mountain sideways (only) so that slot ``el`` is in view, when the mountain is
 * wider than the screen (a phone). */
export function showSideways(el) {
  const box = $("mountain");
  if (!el || box.scrollWidth <= box.clientWidth) return;
  const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
  if (r.left < b.left || r.right > b.right) box.scrollLeft += (r.left + r.width / 2) - (b.left + b.width / 2);
}

/** Mark slot ``row``/``slot`` as the chosen one (with ``cost`` on it when given). */
export function markTarget(row, slot, cost) {
  const el = slotEl(row, slot);
  if (!el) return;
  el.classList.add("target");
  if (cost !== undefined) badge(el, String(cost));
}

/** Put the focus on the first marked slot (if any); ``onlyIfInside``: only when the focus
 * is on the mountain already. */
export function focusFirstLegal(onlyIfInside) {
  const first = document.querySelector("#mountain .slot.legal");
  if (!first) return;
  const a = document.activeElement;
  if (onlyIfInside && !(a && a.closest && a.closest("#mountain"))) return;
  first.focus();
}

/** On a marked slot: the arrow keys move between the marked slots (left/right along the
 * rows, up/down between rows), Enter or Space picks, Escape goes back to the hand. */
function slotKey(ev, onEscape) {
  const el = ev.currentTarget;
  if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); el.dispatchEvent(new Event("click")); return; }
  if (ev.key === "Escape") { ev.preventDefault(); onEscape(); return; }
  const arrows = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (!(ev.key in arrows)) return;
  ev.preventDefault();
  const marked = legalSlots();
  if (!marked.length) return;
  const at = marked.indexOf(el);
  const next = marked[(at + arrows[ev.key] + marked.length) % marked.length];
  next.focus();
}
