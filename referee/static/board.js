// The board as SVG, from a snapshot's board (dark's numbering: points[i] is dark's
// point i + 1, positive dark, negative light; bar and off as [dark, light]).
// Seen from the viewer's side: the viewer's home board is at the bottom right and
// the point labels are the viewer's numbers.

const NS = "http://www.w3.org/2000/svg";
const FRAME = 10, PW = 40, PH = 190, GAP = 40, BAR = 40, TRAY = 50, R = 18;
const INNER_H = 2 * PH + GAP;
const HALF_W = 6 * PW;
export const WIDTH = FRAME + HALF_W + BAR + HALF_W + FRAME + TRAY;
export const HEIGHT = FRAME + INNER_H + FRAME;
const BAR_X = FRAME + HALF_W;
const TRAY_X = BAR_X + BAR + HALF_W + FRAME;
const COLOURS = ["dark", "light"];

export function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

function text(x, y, value, cls) {
  const node = svg("text", { x, y, class: cls, "text-anchor": "middle", "dominant-baseline": "central" });
  node.textContent = String(value);
  return node;
}

// Slot of a point in the viewer's numbering (1..24): column centre x, and whether it is at the bottom.
function slot(viewPoint) {
  if (viewPoint <= 6) return { x: BAR_X + BAR + HALF_W - PW * (viewPoint - 0.5), bottom: true };
  if (viewPoint <= 12) return { x: FRAME + HALF_W - PW * (viewPoint - 6.5), bottom: true };
  if (viewPoint <= 18) return { x: FRAME + PW * (viewPoint - 12.5), bottom: false };
  return { x: BAR_X + BAR + PW * (viewPoint - 18.5), bottom: false };
}

export function viewPoint(darkPoint, viewer) {
  return viewer === 0 ? darkPoint : 25 - darkPoint;
}

function checkerY(bottom, index) {
  const along = R + 2 * R * Math.min(index, 4) + 1;
  return bottom ? FRAME + INNER_H - along : FRAME + along;
}

// Where an arrow starts or ends: a point (dark's number), "bar" or "off" of a colour.
function spot(where, colour, board, viewer) {
  const own = COLOURS.indexOf(colour) === viewer; // the viewer's colour sits at the bottom
  if (where === "bar") return { x: BAR_X + BAR / 2, y: FRAME + INNER_H / 2 + (own ? 1 : -1) * (GAP / 2 + R) };
  if (where === "off") return { x: TRAY_X + TRAY / 2 - 5, y: FRAME + INNER_H / 2 + (own ? 1 : -1) * (PH / 2 + GAP / 2) };
  const s = slot(viewPoint(where, viewer));
  const n = Math.abs(board.points[where - 1]);
  return { x: s.x, y: checkerY(s.bottom, Math.max(Math.min(n, 5) - 1, 0)) };
}

function triangle(x, bottom, odd, marked) {
  const base = bottom ? FRAME + INNER_H : FRAME;
  const tip = bottom ? base - PH : base + PH;
  const cls = `tri ${odd ? "tri-a" : "tri-b"}${marked ? " fault" : ""}`;
  return svg("polygon", { points: `${x - PW / 2},${base} ${x + PW / 2},${base} ${x},${tip}`, class: cls });
}

function stack(x, yOf, count, colour) {
  const nodes = [];
  for (let i = 0; i < Math.min(count, 5); i++) {
    nodes.push(svg("circle", { cx: x, cy: yOf(i), r: R - 1, class: `checker ${colour}` }));
  }
  if (count > 5) nodes.push(text(x, yOf(4), count, `count ${colour}`));
  return nodes;
}

function drawPoint(board, darkPoint, viewer, faults) {
  const n = board.points[darkPoint - 1];
  const vp = viewPoint(darkPoint, viewer);
  const s = slot(vp);
  const colour = n > 0 ? "dark" : "light";
  const g = svg("g", { class: "point", "data-point": darkPoint, "data-count": n }, [
    triangle(s.x, s.bottom, vp % 2 === 1, faults.has(darkPoint)),
    ...stack(s.x, (i) => checkerY(s.bottom, i), Math.abs(n), colour),
  ]);
  const labelY = s.bottom ? HEIGHT - FRAME / 2 : FRAME / 2;
  g.appendChild(text(s.x, labelY, vp, "label"));
  return g;
}

function drawBar(board, viewer, faults) {
  const g = svg("g", {}, [svg("rect", { x: BAR_X, y: FRAME, width: BAR, height: INNER_H, class: "bar" })]);
  for (const player of [0, 1]) {
    const own = player === viewer;
    const count = board.bar[player];
    const colour = COLOURS[player];
    const yOf = (i) => FRAME + INNER_H / 2 + (own ? 1 : -1) * (GAP / 2 + R + 2 * R * i);
    const cls = `bar-checkers${faults.has("bar") ? " fault" : ""}`;
    g.appendChild(svg("g", { class: cls, "data-colour": colour, "data-count": count }, stack(BAR_X + BAR / 2, yOf, count, colour)));
  }
  return g;
}

function drawOff(board, viewer) {
  const g = svg("g", {}, [svg("rect", { x: TRAY_X, y: FRAME, width: TRAY - 10, height: INNER_H, class: "tray" })]);
  for (const player of [0, 1]) {
    const own = player === viewer;
    const count = board.off[player];
    const colour = COLOURS[player];
    const slab = svg("g", { class: "off", "data-colour": colour, "data-count": count });
    for (let i = 0; i < count; i++) {
      const y = own ? FRAME + INNER_H - 4 - 9 * (i + 1) : FRAME + 4 + 9 * i;
      slab.appendChild(svg("rect", { x: TRAY_X + 4, y, width: TRAY - 18, height: 8, rx: 2, class: `slab ${colour}` }));
    }
    if (count) slab.appendChild(text(TRAY_X + (TRAY - 10) / 2, own ? FRAME + INNER_H - 16 - 9 * count : FRAME + 16 + 9 * count, count, "label"));
    g.appendChild(slab);
  }
  return g;
}

function pips(x, y, size, value) {
  const d = size / 4;
  const spots = {
    1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  }[value] || [];
  return spots.map(([i, j]) => svg("circle", { cx: x + i * d, cy: y + j * d, r: size / 10, class: "pip" }));
}

function drawDice(dice, viewer) {
  const g = svg("g", { class: "dice" });
  if (!dice) return g;
  const size = 30;
  const own = dice.player === null ? null : dice.player === viewer;
  const centreX = own === null ? BAR_X + BAR / 2 : own ? BAR_X + BAR + HALF_W / 2 : FRAME + HALF_W / 2;
  const colour = dice.player === null ? "neutral" : COLOURS[dice.player];
  dice.values.forEach((value, k) => {
    const x = centreX + (k - (dice.values.length - 1) / 2) * (size + 10);
    const y = FRAME + INNER_H / 2;
    g.appendChild(svg("g", { class: `die ${colour}`, "data-value": value ?? "?" }, [
      svg("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: 5, class: "die-face" }),
      ...(value ? pips(x, y, size, value) : [text(x, y, "?", "label")]),
    ]));
  });
  return g;
}

function drawCube(cube, viewer) {
  const size = 30;
  const x = TRAY_X + (TRAY - 10) / 2;
  let y = FRAME + INNER_H / 2;
  if (cube.owner !== null) y += (cube.owner === viewer ? 1 : -1) * (PH - 40);
  const shown = cube.value === 1 ? 64 : cube.value;
  const g = svg("g", { class: "cube", "data-value": cube.value, "data-owner": cube.owner === null ? "centre" : COLOURS[cube.owner] }, [
    svg("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, rx: 4, class: "cube-face" }),
    text(x, y, shown, "cube-value"),
  ]);
  if (cube.offered) {
    const oy = FRAME + INNER_H / 2;
    g.appendChild(svg("rect", { x: x - size / 2, y: oy - size / 2, width: size, height: size, rx: 4, class: "cube-face offered" }));
    g.appendChild(text(x, oy, cube.offered, "cube-value"));
  }
  return g;
}

function drawArrows(arrows, board, viewer, cls) {
  const g = svg("g", { class: "arrows" });
  for (const a of arrows || []) {
    const from = spot(a.from, a.colour, board, viewer);
    const to = spot(a.to, a.colour, board, viewer);
    const mx = (from.x + to.x) / 2, my = (from.y + to.y) / 2;
    const bend = from.y === to.y ? (from.y > HEIGHT / 2 ? -40 : 40) : 0;
    g.appendChild(svg("path", {
      d: `M${from.x},${from.y} Q${mx},${my + bend} ${to.x},${to.y}`,
      class: `arrow ${cls}`, "data-from": a.from, "data-to": a.to, "marker-end": `url(#head-${cls})`,
    }));
  }
  return g;
}

function markers() {
  const defs = svg("defs");
  for (const cls of ["play", "hint", "preview"]) {
    defs.appendChild(svg("marker", { id: `head-${cls}`, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, [
      svg("path", { d: "M0,0 L10,5 L0,10 z", class: `head ${cls}` }),
    ]));
  }
  return defs;
}

// Draw `board` into the <svg> element `root`; options: viewer (0 dark, 1 light),
// dice, cube, arrows: [{arrows, cls}], faults: set of dark point numbers / "bar" / "off".
export function drawBoard(root, board, options = {}) {
  const viewer = options.viewer ?? 0;
  const faults = options.faults ?? new Set();
  root.replaceChildren();
  root.setAttribute("viewBox", `0 0 ${WIDTH} ${HEIGHT}`);
  root.setAttribute("data-viewer", COLOURS[viewer]);
  root.appendChild(markers());
  root.appendChild(svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 8, class: "frame" }));
  root.appendChild(svg("rect", { x: FRAME, y: FRAME, width: 2 * HALF_W + BAR, height: INNER_H, class: "field" }));
  for (let p = 1; p <= 24; p++) root.appendChild(drawPoint(board, p, viewer, faults));
  root.appendChild(drawBar(board, viewer, faults));
  root.appendChild(drawOff(board, viewer));
  if (options.cube) root.appendChild(drawCube(options.cube, viewer));
  root.appendChild(drawDice(options.dice, viewer));
  for (const layer of options.arrows || []) root.appendChild(drawArrows(layer.arrows, board, viewer, layer.cls));
}
