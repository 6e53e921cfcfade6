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
    fitMountain(svg);
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
