// The review after the game: started or read from the server (POST/GET
// /api/games/{id}/review), its progress while it runs (asked once a second), then the lead
// sentence (which move lost the game and why), the verdict of every position, the silent
// review's chances, and the winning line stepped through on a small mountain.
//
// Exports: initReview() wires the panel's buttons; loadReview(startIt) asks for the review
// (startIt: start it, the "Review the game" button) and draws it, or its progress, in
// #review-panel; showReview(r) draws a finished review r; showLine(k) shows step k of its
// winning line; leadSentence(r) and silentText(s) are its words; review holds what is shown.

import { $, api, say, ui, withRulings } from "./state.js";

/** What the review shows now: the step of the winning line and its length. */
export const review = { line: 0, total: 0, timer: null };

/** Ask for the review (``startIt``: start it) and draw it, or its progress (asking again a
 * second later while it runs, or when the server says after a 503). */
export async function loadReview(startIt) {
  const id = ui.game.id;
  let r;
  try {
    r = startIt ? await api("POST", `/api/games/${id}/review`) : await api("GET", `/api/games/${id}/review`);
  } catch (e) {
    if (e.status === 503) {
      $("review-panel").hidden = false;
      $("review-progress-text").textContent = `The server is busy; asking again in ${e.retryAfter || 1} s…`;
      review.timer = setTimeout(() => loadReview(true), (e.retryAfter || 1) * 1000);
    } else say(e.message, "error");
    return;
  }
  if (r.status === "none") return;
  $("review-panel").hidden = false;
  if (r.status === "running") {
    showProgress(r);
    review.timer = setTimeout(() => loadReview(false), 1000);
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

/** The progress bar of a review that runs: ``done`` of ``positions``, its phase. */
function showProgress(r) {
  $("review-progress").hidden = false;
  $("review-progress").max = r.positions;
  $("review-progress").value = r.done;
  $("review-progress-text").textContent = (r.resumed ? "Resumed after the server restarted. " : "") +
    (r.phase === "silent"
      ? "Every position solved; now judging each move from what its player saw…"
      : `Analysing position ${r.done} of ${r.positions} with every card known… (${r.elapsed} s; at most about ${r.estimate} s)`);
  document.body.dataset.review = "running";
}

/** The one sentence that matters most: which move lost the game and why; or, for a game
 * lost from the start or won, the verdict. */
export function leadSentence(r) {
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

/** Draw the finished review ``r`` (the JSON of GET /api/games/{id}/review). */
export function showReview(r) {
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

/** The silent review in words (bots.review): the team's chance to win before each move,
 * each from the mover's own observation, and the moves that cost the most. */
export function silentText(s) {
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

/** Step ``k`` of the review's winning line, drawn on the small mountain. */
export async function showLine(k) {
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

/** Wire the review's buttons: "Review the game" and the winning line's steps. */
export function initReview() {
  $("review-open").addEventListener("click", () => { $("review-open").hidden = true; loadReview(true); });
  $("line-prev").addEventListener("click", () => showLine(review.line - 1));
  $("line-next").addEventListener("click", () => showLine(review.line + 1));
}
