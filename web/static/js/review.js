// The review after the game: started or read from the server (POST/GET
// /api/games/{id}/review), its progress while it runs (asked once a second), then the lead
// sentence (which move lost the game and why), the verdict of every position, the silent
// review's chances, and the winning line stepped through on a small mountain.
//
// Exports: initReview() wires the panel's buttons; loadReview(startIt) asks for the review
// (startIt: start it, the "Review the game" button) and draws it, or its progress, in
// #review-panel; showReview(r) draws a finished review r; showLine(k) shows step k of its
// winning line; leadSentence(r) and silentText(s) are its words; review holds what is shown.
// The chance chart (the server's SVG, r.chart): a point opens that position
// (GET /review/position/{p}). "Learn from your mistakes": each marked move's position as its
// player saw it (GET /review/learn/{k}), an answer judged with the review's paired test
// (POST /review/learn/{k}), then the review's own move.

import { $, api, say, ui, withRulings } from "./state.js";
import { pictureDrawing } from "./mountain.js";

/** What the review shows now: the step of the winning line and its length. */
export const review = { line: 0, total: 0, timer: null, learn: 0 };

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
  const kept = r.kept ? (r.kept.open || 0) + (r.kept.silent || 0) : 0;
  $("review-progress-text").textContent = (r.resumed
    ? `Resumed after the server restarted${kept ? ` (${kept} results kept)` : ""}. ` : "") +
    (r.phase === "silent"
      ? `Judging move ${r.done} of ${r.positions} from what its player saw… (${r.elapsed} s; at most about ${r.estimate} s)`
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
  if (r.window) return r.summary;  // "The game was lost between move 32 and move 38: …" (said once)
  return r.summary || "";
}

/** Draw the finished review ``r`` (the JSON of GET /api/games/{id}/review). */
export function showReview(r) {
  $("review-progress").hidden = true;
  $("review-progress-text").textContent = "";
  const lead = $("review-lead");
  withRulings(lead, leadSentence(r));
  lead.classList.toggle("win", ui.game.outcome === "win");
  // the summary, unless the lead sentence already says it
  $("review-summary").textContent = lead.textContent === r.summary ? "" : r.summary;
  withRulings($("review-reason"), r.why || (r.reason ? `Why: ${r.reason.text}` : ""));
  $("review-instead").textContent = r.best_instead ? `Instead: ${r.best_instead}` : "";
  const list = $("review-moves");
  list.innerHTML = "";
  for (const m of r.moves) {
    const li = document.createElement("li");
    li.textContent = `${m.text} — ${m.before} → ${m.after}`;
    if (m.index === r.losing_move) { li.className = "losing"; li.textContent += "  ◀ the losing move"; }
    else if (r.window && !r.losing_move && m.index >= r.window[0] && m.index <= r.window[1]) {
      li.className = "losing";
      li.textContent += m.index === r.window[0] ? `  ◀ ${r.window_text}` : "  │";
    }
    list.appendChild(li);
  }
  showChart(r);
  showLearn(r);
  const chance = $("review-silent");
  chance.hidden = !r.silent;
  if (r.silent) chance.textContent = silentText(r.silent);
  $("review-line").hidden = r.line_from === null;
  review.total = r.winning_line.length;
  document.body.dataset.review = "done";
  if (r.line_from !== null) showLine(0);
  $("review-panel").scrollIntoView({ block: "start" });
}

/** The chance chart: the server's SVG (render.chart, the same drawing as ascent review
 * --plot); a click, Enter or Space on a point opens the position before that move. */
function showChart(r) {
  const box = $("review-chart");
  box.hidden = !r.chart;
  $("review-position").hidden = true;
  if (!r.chart) return;
  const holder = $("review-chart-svg");
  holder.innerHTML = r.chart;
  const svg = holder.querySelector("svg");
  if (svg) {
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("aria-label", "the chance to win, move by move");
  }
  for (const point of holder.querySelectorAll(".point")) {
    const open = () => openPosition(Number(point.dataset.position));
    point.addEventListener("click", open);
    point.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); open(); }
    });
  }
}

/** The position after ``p`` moves, every card shown (the game is over). */
export async function openPosition(p) {
  try {
    const s = await api("GET", `/api/games/${ui.game.id}/review/position/${p}`);
    $("review-position").hidden = false;
    $("review-position-text").textContent = p === 0
      ? `The start (before move 1).`
      : `The position after move ${p} (${s.text}), before move ${p + 1}.`;
    $("review-position-svg").innerHTML = s.svg;
    pictureDrawing($("review-position-svg"), `the mountain after move ${p}`);
    document.body.dataset.reviewPosition = String(p);
  } catch (e) { say(e.message, "error"); }
}

/** "Learn from your mistakes": one button per marked move, biggest drop first. */
function showLearn(r) {
  const marks = r.marks || [];
  $("review-learn").hidden = marks.length === 0;
  $("learn-box").hidden = true;
  const row = $("learn-marks");
  row.innerHTML = "";
  for (const m of marks) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `Move ${m.index} ${m.sign}`;
    b.setAttribute("aria-label", `move ${m.index}, a ${m.mark}: find a better move`);
    b.addEventListener("click", () => openLearn(m.index));
    row.appendChild(b);
  }
}

/** The exercise of marked move ``k``: its position as its player saw it, and the moves. */
export async function openLearn(k) {
  try {
    const ex = await api("GET", `/api/games/${ui.game.id}/review/learn/${k}`);
    review.learn = k;
    $("learn-box").hidden = false;
    $("learn-question").textContent = `Move ${k} was a ${ex.mark} (${ex.sign}). You are player ${ex.player}, ` +
      `with ${ex.hand.join(" ")} in hand: what would you play?`;
    $("learn-svg").innerHTML = ex.svg;
    pictureDrawing($("learn-svg"), `the mountain before move ${k}`);
    const select = $("learn-move");
    select.innerHTML = "";
    for (const m of ex.moves) {
      const o = document.createElement("option");
      o.value = JSON.stringify(m.move);
      o.textContent = m.text;
      select.appendChild(o);
    }
    $("learn-answer").textContent = "";
    $("learn-answer").className = "";
    document.body.dataset.learn = String(k);
    select.focus({ preventScroll: true });
  } catch (e) { say(e.message, "error"); }
}

/** Judge the chosen move with the review's paired test, then show the review's move. */
async function tryAnswer() {
  const k = review.learn;
  const select = $("learn-move");
  if (!k || !select.value) return;
  const button = $("learn-try");
  button.disabled = true;
  $("learn-answer").textContent = "Playing both moves in the same sampled worlds…";
  try {
    const a = await api("POST", `/api/games/${ui.game.id}/review/learn/${k}`, JSON.parse(select.value));
    const out = $("learn-answer");
    out.className = a.verdict === "better" || a.verdict === "review" ? "better" : a.verdict === "worse" ? "worse" : "";
    out.textContent = `${a.words} (${a.worlds} worlds: yours ${Math.round(a.answer.chance * 100)}%, ` +
      `played ${Math.round(a.played.chance * 100)}%.) Played: ${a.played.text}. The review's move: ${a.review_move.text}.`;
    document.body.dataset.learnVerdict = a.verdict;
  } catch (e) {
    $("learn-answer").textContent = e.message;
  } finally {
    button.disabled = false;
  }
}

/** The silent review in words (bots.review): the team's chance to win before each move,
 * each from the mover's own observation, and the moves that cost the most. */
export function silentText(s) {
  if (Array.isArray(s.moves)) {
    const pct = (x) => `${Math.round(x * 100)}%`;
    const first = s.moves[0], last = s.moves[s.moves.length - 1];
    const trail = first ? `went from ${pct(first.chance_before)} before move 1 to ${pct(last.chance_after)} after move ${last.index} (the chart below)` : "";
    const costly = (s.costly || []).slice(0, 3).map((i) => {
      const m = s.moves.find((x) => x.index === i);
      return m ? `${m.text} (−${Math.round(m.drop * 100)} points)` : "";
    }).filter((x) => x);
    return `Silent review (the ${s.bot} bot's view, ${s.estimator_text}): the team's chance to win ` +
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
    pictureDrawing($("line-svg"), `the mountain after step ${s.step}`);
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
  $("learn-try").addEventListener("click", tryAnswer);
}
