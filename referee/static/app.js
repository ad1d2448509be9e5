// The live page: follows the referee's snapshots (server-sent events) and
// sends the buttons (with the PIN) back.  No framework, no build step.

import { drawBoard } from "./board.js";
import { openCamera } from "./camera.js";
import { change, say } from "./api.js";

const COLOURS = ["dark", "light"];
const $ = (id) => document.getElementById(id);
let current = null;      // the latest snapshot
let preview = null;      // arrows of a play the viewer picked in the teaching list
let closestPick = 0;     // which closest legal play the verdict board shows

// --- small DOM helpers -------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child));
  return node;
}

// --- rendering a snapshot ----------------------------------------------------------------

function viewer() { return Number($("viewer").value); }

function render(state) {
  if (current === null) prefillForm(state);
  if (current === null && !localStorage.getItem("bgref-teach")) $("teach-toggle").checked = state.mode === "teach";
  else if (current === null) $("teach-toggle").checked = localStorage.getItem("bgref-teach") === "on";
  current = state;
  window.bgref = { version: state.version };
  renderDevices(state.devices);
  renderScore(state);
  $("waiting").textContent = state.status.waiting;
  renderBoard(state);
  renderVerdict(state);
  renderButtons(state.actions);
  renderTeaching(state);
  renderNotes(state.notes);
  renderMoves(state);
  if (document.activeElement !== $("mode")) $("mode").value = state.mode;
}

function prefillForm(state) {
  const form = $("new-match");
  if (!form.elements.dark.value) form.elements.dark.value = state.players[0];
  if (!form.elements.light.value) form.elements.light.value = state.players[1];
  form.elements.match_length.value = state.match.length;
}

function renderDevices(devices) {
  const box = $("devices");
  box.replaceChildren(...Object.entries(devices).filter(([, d]) => !d.ok).map(([name, d]) =>
    el("span", { class: "device missing", "data-device": name }, d.text)));
}

function renderScore(state) {
  const m = state.match;
  const side = (p) => el("div", { class: `player ${COLOURS[p]}${state.status.turn === p ? " turn" : ""}`, "data-player": p },
    el("span", { class: `chip ${COLOURS[p]}` }),
    el("strong", {}, state.players[p]),
    el("span", { class: "score", "data-score": p }, m.score[p]),
    el("span", { class: "pips" }, `pips ${state.board.pips[p]}`));
  const length = m.money ? "money play" : `${m.length}-point match`;
  const badges = [el("span", { class: "badge" }, length)];
  if (m.crawford) badges.push(el("span", { class: "badge crawford", id: "crawford" }, "Crawford game"));
  if (m.post_crawford && !m.crawford) badges.push(el("span", { class: "badge" }, "post-Crawford"));
  const cube = state.cube;
  const owner = cube.owner === null ? "in the middle" : `owned by ${state.players[cube.owner]}`;
  badges.push(el("span", { class: "badge", id: "cube-text" }, `cube ${cube.value} ${owner}`));
  badges.push(el("span", { class: "badge" }, `mode ${state.mode}`));
  $("scoreline").replaceChildren(side(0), side(1), el("div", { class: "badges" }, ...badges));
}

function faultPoints(verdict) {
  const out = new Set();
  if (verdict && !verdict.legal) for (const r of verdict.reasons) for (const p of r.points) out.add(p);
  return out;
}

function renderBoard(state) {
  const v = state.verdict;
  const arrows = [];
  if (v && v.legal && v.arrows.length) arrows.push({ arrows: v.arrows, cls: "play" });
  if (preview) arrows.push({ arrows: preview, cls: "preview" });
  drawBoard($("board"), state.board, { viewer: viewer(), dice: state.dice, cube: state.cube, arrows, faults: v && v.pending ? faultPoints(v) : new Set() });
  $("board-source").textContent = state.board.source === "reading" ? "as the camera last saw it" : "as recorded by the referee";
}

function renderVerdict(state) {
  const v = state.verdict;
  $("verdict").hidden = !v;
  if (!v) return;
  const dice = v.dice.join("-");
  $("verdict").className = `card verdict ${v.legal ? "legal" : "illegal"}`;
  $("verdict-title").textContent = v.legal ? `Legal: ${v.name} played ${dice}` :
    v.pending ? `Illegal play by ${v.name} (${dice})` : `Illegal play by ${v.name} (${dice}), accepted as made`;
  $("verdict-play").textContent = v.play ? v.play : "";
  $("reasons").replaceChildren(...v.reasons.map((r) => el("li", { class: "reason" }, r.text)));
  const box = $("closest-box");
  box.hidden = v.legal || !v.closest.length;
  if (!box.hidden) {
    closestPick = Math.min(closestPick, v.closest.length - 1);
    $("closest").replaceChildren(...v.closest.map((c, i) => el("button", {
      class: `choice${i === closestPick ? " picked" : ""}`, type: "button",
      onclick: () => { closestPick = i; renderVerdict(current); },
    }, c.play)));
    drawBoard($("verdict-board"), v.before, { viewer: viewer(), arrows: [{ arrows: v.closest[closestPick].arrows, cls: "hint" }] });
  }
  renderAnalysis($("verdict-analysis"), v.analysis, true);
}

function renderAnalysis(box, analysis, played) {
  box.replaceChildren();
  if (!analysis) return;
  const rows = analysis.best.map((b) => el("tr", {}, el("td", {}, b.play), el("td", { class: "num" }, b.equity.toFixed(3))));
  box.append(el("h3", {}, `Best plays (${analysis.method})`), el("table", { class: "equities" }, ...rows));
  if (played && analysis.played) {
    const p = analysis.played;
    const text = p.loss > 0.0005 ? `The play made (${p.play}) lost ${p.loss.toFixed(3)} in equity (rank ${p.rank}).` : `The play made (${p.play}) was the best.`;
    box.append(el("p", { class: "loss" }, text));
  }
}

function renderButtons(actions) {
  for (const button of document.querySelectorAll("button[data-button]")) button.disabled = !actions[button.dataset.button];
}

function renderTeaching(state) {
  const on = $("teach-toggle").checked;
  const body = $("teaching-body");
  const t = state.teaching;
  if (!state.hints) { body.replaceChildren(el("p", { class: "muted" }, "No hints in tournament mode.")); preview = null; return; }
  if (!on || !t) { body.replaceChildren(); if (!t) preview = null; return; }
  const items = t.plays.map((p) => el("button", { class: "choice", type: "button", onclick: () => { preview = p.arrows; renderBoard(current); } }, p.play));
  const more = t.total > t.plays.length ? ` (the first ${t.plays.length} shown)` : "";
  body.replaceChildren(
    el("p", {}, `${state.players[t.player]} to play ${t.dice.join("-")}: ${t.total} legal play${t.total === 1 ? "" : "s"}${more}. Tap one to see it.`),
    el("div", { class: "choices", id: "legal-plays" }, ...items));
  if (t.analysis) { const box = el("div", { class: "analysis" }); renderAnalysis(box, t.analysis, false); body.append(box); }
  else if (state.analysis_available) body.append(el("p", { class: "muted" }, "GNU Backgammon is thinking…"));
}

function renderNotes(notes) {
  $("notes").replaceChildren(...notes.slice().reverse().map((n) => el("li", { class: `note ${n.level}` }, n.text)));
}

function renderMoves(state) {
  $("downloads").replaceChildren(...state.files.map((name) => el("a", { href: `/api/download/${name}`, download: name, class: "download" }, name)));
  const games = state.moves.map((game) => {
    const rows = [];
    let row = null;
    for (const a of game.actions) {
      if (!row || a.player === 0 || row[1]) { row = [null, null]; rows.push(row); }
      row[a.player] = a;
    }
    const cell = (a) => el("td", a && a.comment ? { class: "illegal", title: a.comment } : {}, a ? a.text : "");
    const body = [];
    rows.forEach((r, i) => {
      body.push(el("tr", {}, el("td", { class: "num" }, `${i + 1})`), cell(r[0]), cell(r[1])));
      for (const a of r) if (a && a.comment) body.push(el("tr", { class: "comment" }, el("td"), el("td", { colspan: 2 }, `${state.players[a.player]}: ${a.comment}`)));
    });
    const result = game.result ? el("p", {}, `${state.players[game.result.winner]} wins ${game.result.points} point${game.result.points === 1 ? "" : "s"}`) : "";
    return el("section", { class: "card game" },
      el("h2", {}, `Game ${game.number}: ${state.players[0]} ${game.score[0]}, ${state.players[1]} ${game.score[1]}`),
      el("table", { class: "movelist" }, el("tr", {}, el("th", {}), el("th", {}, state.players[0]), el("th", {}, state.players[1])), ...body),
      result);
  });
  $("moves").replaceChildren(...(games.length ? games : [el("p", { class: "muted" }, "No moves yet.")]));
}

// --- the live connection -------------------------------------------------------------------------

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("state", (event) => {
    render(JSON.parse(event.data));
    $("connection").textContent = "live";
    $("connection").className = "badge on";
  });
  source.onerror = () => {
    $("connection").textContent = "reconnecting…";
    $("connection").className = "badge off";
  };
}

// --- wiring -------------------------------------------------------------------------------------------

function showTab() {
  const tab = (location.hash || "#board").slice(1);
  for (const section of document.querySelectorAll(".tab")) section.hidden = section.id !== `tab-${tab}`;
  for (const link of document.querySelectorAll("nav a")) link.classList.toggle("active", link.dataset.tab === tab);
  if (tab === "camera") openCamera();
}

function formSettings(form) {
  const f = new FormData(form);
  return {
    players: [f.get("dark"), f.get("light")],
    match_length: Number(f.get("match_length")),
    crawford: f.has("crawford"), jacoby: f.has("jacoby"), beavers: f.has("beavers"), raccoons: f.has("raccoons"),
    automatic_doubles: Number(f.get("automatic_doubles")),
    max_cube: Number(f.get("max_cube")),
    accept_illegal: f.get("accept_illegal"),
  };
}

function wire() {
  for (const button of document.querySelectorAll("button[data-button]")) {
    button.addEventListener("click", async () => {
      const reply = await change("/api/press", { button: button.dataset.button });
      if (reply && reply.notes.length) say(reply.notes.map((n) => n.text).join("; "));
    });
  }
  $("viewer").addEventListener("change", () => { localStorage.setItem("bgref-viewer", $("viewer").value); if (current) render(current); });
  $("viewer").value = localStorage.getItem("bgref-viewer") || "0";
  $("teach-toggle").addEventListener("change", () => {
    localStorage.setItem("bgref-teach", $("teach-toggle").checked ? "on" : "off");
    preview = null;
    if (current) render(current);
  });
  $("mode-set").addEventListener("click", async () => {
    if (await change("/api/mode", { mode: $("mode").value })) say(`mode: ${$("mode").value}`);
  });
  $("new-match").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (current && current.moves.length && !confirm("Start a new match? The match in play is saved and closed.")) return;
    const reply = await change("/api/match", formSettings(event.target));
    if (reply) { say("a new match has started"); location.hash = "#board"; }
  });
  $("forget-pin").addEventListener("click", () => { sessionStorage.removeItem("bgref-pin"); say("the PIN is forgotten"); });
  window.addEventListener("hashchange", showTab);
}

wire();
showTab();
connect();
