// The calibration view: the camera's picture, the board grid the calibration
// puts on it, four draggable corners, and a fresh calibration.

import { svg } from "./board.js";
import { change, say } from "./api.js";

const $ = (id) => document.getElementById(id);
let corners = null; // [[x, y] x 4] in camera pixels
let size = null;

function defaultCorners([w, h]) {
  return [[0.1 * w, 0.1 * h], [0.9 * w, 0.1 * h], [0.9 * w, 0.9 * h], [0.1 * w, 0.9 * h]];
}

function drawGrid(view) {
  const root = $("camera-grid");
  root.replaceChildren();
  root.setAttribute("viewBox", `0 0 ${size[0]} ${size[1]}`);
  const cal = view.calibration;
  if (cal) {
    for (const line of cal.lines) root.appendChild(svg("polyline", { points: line.map((p) => p.join(",")).join(" "), class: "grid-line" }));
    for (const label of cal.labels) {
      const t = svg("text", { x: label.xy[0], y: label.xy[1], class: "grid-label", "text-anchor": "middle" });
      t.textContent = label.text;
      root.appendChild(t);
    }
  }
  root.appendChild(svg("polygon", { points: corners.map((p) => p.join(",")).join(" "), class: "corner-outline" }));
  corners.forEach((p, i) => {
    const handle = svg("circle", { cx: p[0], cy: p[1], r: Math.max(size[0], size[1]) / 70, class: "corner", "data-corner": i });
    handle.addEventListener("pointerdown", (event) => startDrag(event, i, view));
    root.appendChild(handle);
  });
}

function startDrag(event, i, view) {
  event.preventDefault();
  const root = $("camera-grid");
  const move = (e) => {
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(root.getScreenCTM().inverse());
    corners[i] = [Math.round(Math.min(Math.max(pt.x, 0), size[0])), Math.round(Math.min(Math.max(pt.y, 0), size[1]))];
    drawGrid(view);
  };
  const up = () => { window.removeEventListener("pointermove", move); window.removeEventListener("pointerup", up); };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

function show(view) {
  $("camera-text").textContent = view.text;
  $("camera-view").hidden = !view.frame;
  if (!view.frame) return;
  size = view.frame;
  corners = view.calibration ? view.calibration.corners : corners || defaultCorners(size);
  if (view.calibration) $("corner-meaning").textContent = view.calibration.corners_meaning;
  $("camera-img").src = `/api/camera.jpg?t=${Date.now()}`;
  drawGrid(view);
}

export async function openCamera() {
  try {
    const reply = await fetch("/api/calibration");
    show(await reply.json());
  } catch (err) {
    $("camera-text").textContent = "the referee cannot be reached";
  }
}

async function calibrate(useCorners) {
  say("calibrating…");
  const reply = await change("/api/calibration", { corners: useCorners ? corners : null });
  if (reply) { say("calibrated: the grid shows what the referee now knows"); corners = null; show(reply); }
}

async function learnEmpty() {
  say("learning the bare board…");
  const reply = await change("/api/calibration/empty", {});
  if (reply) { say("the bare board is learnt: set up the start position again"); show(reply); }
}

$("camera-refresh").addEventListener("click", openCamera);
$("calibrate-empty").addEventListener("click", learnEmpty);
$("calibrate-auto").addEventListener("click", () => calibrate(false));
$("calibrate-corners").addEventListener("click", () => calibrate(true));
