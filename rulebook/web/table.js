// The table in the browser: draws what the server sends for this seat
// (rulebook/table.py) and sends back the option the player picks. Generic:
// zones, components, boards and players come from the ruleset's data; no
// game is named here. Everything is written with textContent (never HTML).
"use strict";

const SEATS = ["#d64541", "#2e6da4", "#27ae60", "#d4a017", "#8e44ad", "#16a085", "#e67e22", "#7f8c8d"];
const PALETTE = ["#c0392b", "#2980b9", "#27ae60", "#8e44ad", "#d35400", "#16a085", "#7f6000", "#2c3e50",
  "#c2185b", "#00838f", "#6d4c41", "#5d6d7e"];
const TERRAIN = ["#a9cce3", "#f9e79f", "#abebc6", "#f5cba7", "#d7bde2", "#d5dbdb", "#f5b7b1", "#a3e4d7"];

const role = document.body.dataset.role;
const params = new URLSearchParams(location.search);
const token = params.get("t") || "";
const seatFromPath = (location.pathname.match(/\/seat\/(\d+)/) || [])[1];
let table = null;          // the last table the server sent
let picked = [];           // targets clicked so far for a staged choice
let author = null;         // the author's last payload
let graphLoaded = false;
let retry = 500;
let socket = null;
let extra = {};            // the table message's offers: takeback, rematch, names, help
let baseline = null;       // what the seat saw when it last answered: changes since are marked
let gameNumber = null;     // a rematch starts a new game: nothing is marked as changed across it
let helpOpen = false;      // the rules help panel
let helpItem = null;       // the component whose help is shown
const baseTitle = document.title;
const reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function hash(s) {
  let h = 0;
  for (const ch of String(s)) h = (h * 31 + ch.codePointAt(0)) >>> 0;
  return h;
}

function seatColour(p) { return (typeof p === "number") ? SEATS[p % SEATS.length] : ""; }

// ------------------------------------------------------------------ components
function fill(template, item) {
  // plain substitution of the properties the viewer sees: {value}, {owner}
  return template.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, k) => {
    if (k === "owner") return (typeof item.owner === "number") ? String(item.owner + 1) : "";
    const v = item.props ? item.props[k] : undefined;
    return v === undefined || v === null ? "" : String(v);
  });
}

function compColour(item) {
  const hint = (table.types || {})[item.type] || {};
  if (hint.colour_by) {
    const v = hint.colour_by === "owner" ? item.owner : (item.props || {})[hint.colour_by];
    if (v !== undefined && v !== null) {
      if (hint.colours && hint.colours[String(v)]) return hint.colours[String(v)];
      return PALETTE[hash(v) % PALETTE.length];
    }
  }
  if (hint.colour) return hint.colour;
  return PALETTE[hash(item.type) % PALETTE.length];
}

function compNode(item, count, zone) {
  const node = el("div", "comp");
  if (item.id !== undefined) node.dataset.cid = String(item.id);
  node.addEventListener("click", ev => {
    if (node.classList.contains("target")) return;  // a click that answers is not a question
    ev.stopPropagation();
    showHelp(item, zone);
  });
  if (item.hidden) {
    node.classList.add("hidden");
    const hint = (table.types || {})[item.type] || {};
    if (hint.colour_by && (item.props || {})[hint.colour_by] !== undefined) {
      node.style.borderBottom = "6px solid " + compColour(item);  // what its back shows
    }
    node.appendChild(el("span", "nm", item.name || item.type));
    node.title = item.name || ("a face-down " + item.type);
  } else {
    node.style.setProperty("--c", compColour(item));
    const hint = (table.types || {})[item.type] || {};
    if (hint.short) node.appendChild(el("span", "short", fill(hint.short, item)));
    node.appendChild(el("span", "nm", item.name || item.type));
    if (item.status) node.appendChild(el("span", "st", item.status));
    node.title = item.name + (item.status ? " (" + item.status + ")" : "");
    if (item.down) { node.classList.add("down"); node.title += " (face down at the table)"; }
    if (item.id !== undefined) node.dataset.target = "c" + item.id;
  }
  if (typeof item.owner === "number") {
    const dot = el("span", "owner");
    dot.style.setProperty("--seat", seatColour(item.owner));
    node.appendChild(dot);
  }
  if (count > 1) node.appendChild(el("span", "count", "×" + count));
  return node;
}

function itemsNode(items, zone) {
  // face-down components with the same back are drawn once with a count (a deck)
  const box = el("div", "items");
  let i = 0;
  while (i < items.length) {
    const it = items[i];
    let n = 1;
    if (it.hidden) {
      const key = JSON.stringify(it);
      while (i + n < items.length && JSON.stringify(items[i + n]) === key) n++;
    }
    box.appendChild(compNode(it, n, zone));
    i += n;
  }
  return box;
}

function stacksNode(zone) {
  // the ruleset groups this zone into stacks by a property (presentation.zones): the server groups them
  // (rulebook.display.presentation.stacks, as the terminal does), each stack's top last, drawn on top and marked
  const box = el("div", "items stacks");
  for (const group of zone.stacks) {
    const stack = el("div", "stack");
    stack.dataset.group = group.value;
    stack.appendChild(el("div", "stack-head", group.value.replace(/_/g, " ") + " · " + group.items.length));
    const pile = el("div", "pile");
    group.items.forEach((it, k) => {
      const node = compNode(it, 1, zone);
      if (group.top && k === group.items.length - 1) { node.classList.add("top"); node.appendChild(el("span", "top-mark", "top")); }
      pile.appendChild(node);
    });
    stack.appendChild(pile);
    box.appendChild(stack);
  }
  return box;
}

function zoneNode(zone) {
  const z = el("div", "zone");
  z.dataset.zone = zone.id;
  const head = el("div", "zone-head");
  head.appendChild(el("b", "", zone.label));
  head.appendChild(document.createTextNode(" · " + zone.count + (zone.visibility === "public" ? "" : " · " + zone.visibility)));
  z.appendChild(head);
  z.appendChild(zone.stacks ? stacksNode(zone) : itemsNode(zone.items, zone));
  return z;
}

// ------------------------------------------------------------------ boards
const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

function spacePosition(board, s, R) {
  if (board.kind === "hex") {
    const w = Math.sqrt(3) * R;
    if (board.layout === "odd-r" || board.layout === "even-r") {
      const shift = (board.layout === "odd-r" ? (s.row & 1) : !(s.row & 1)) ? w / 2 : 0;
      return [s.col * w + shift + w, s.row * 1.5 * R + R * 1.2];
    }
    const shift = (board.layout === "odd-q" ? (s.col & 1) : !(s.col & 1)) ? w / 2 : 0;
    return [s.col * 1.5 * R + R * 1.2, s.row * w + shift + w];
  }
  return [s.col * 2 * R + R * 1.2, s.row * 2 * R + R * 1.2];
}

function pieceShape(shape, x, y, r, colour) {
  // a piece drawn as the ruleset asks (presentation.components.*.shape): distinct kinds, distinct outlines
  const style = { fill: colour, stroke: "#fff", "stroke-width": 1.5 };
  if (shape === "square") return svg("rect", Object.assign({ x: x - r * 0.85, y: y - r * 0.85, width: r * 1.7, height: r * 1.7, rx: 2 }, style));
  if (shape === "diamond") return svg("polygon", Object.assign({ points: `${x},${y - r * 1.15} ${x + r * 1.15},${y} ${x},${y + r * 1.15} ${x - r * 1.15},${y}` }, style));
  if (shape === "triangle") return svg("polygon", Object.assign({ points: `${x},${y - r * 1.15} ${x + r},${y + r * 0.8} ${x - r},${y + r * 0.8}` }, style));
  if (shape === "hull") {
    const w = r * 1.5, h = r * 0.85;
    return svg("path", Object.assign({ d: `M${x - w},${y - h * 0.6} L${x + w},${y - h * 0.6} L${x + w * 0.6},${y + h} L${x - w * 0.6},${y + h} Z` }, style));
  }
  return svg("circle", Object.assign({ cx: x, cy: y, r }, style));
}

function spaceFill(s) {
  if (s.colour) return s.colour;
  return s.terrain === null ? "#eee" : TERRAIN[hash(s.terrain) % TERRAIN.length];
}

function boardNode(board) {
  const wrap = el("div", "board-wrap");
  wrap.appendChild(el("h2", "", board.title));
  const R = board.kind === "graph" ? 26 : 22;
  const edges = board.kind !== "graph" && board.labels === "edges";
  const margin = edges ? R * 0.9 : 0;  // room for the coordinates along the top and left edges
  const pos = new Map();
  if (board.kind === "graph") {
    const n = board.spaces.length, C = 60 + n * 14;
    board.spaces.forEach((s, i) => {
      const a = 2 * Math.PI * i / Math.max(1, n) - Math.PI / 2;
      pos.set(s.id, [C + (C - 40) * Math.cos(a), C + (C - 40) * Math.sin(a)]);
    });
  } else {
    board.spaces.forEach(s => { const [x, y] = spacePosition(board, s, R); pos.set(s.id, [x + margin, y + margin]); });
  }
  const xs = [...pos.values()].map(p => p[0]), ys = [...pos.values()].map(p => p[1]);
  const W = Math.max(...xs, 0) + R * 1.3, H = Math.max(...ys, 0) + R * 1.3;
  const root = svg("svg", { class: "board", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img" });
  for (const [a, b] of board.edges) {
    const [x1, y1] = pos.get(a), [x2, y2] = pos.get(b);
    root.appendChild(svg("line", { x1, y1, x2, y2, stroke: "#999" }));
  }
  if (edges) {  // column numbers above the first row, row numbers left of each row: off the spaces
    const cols = new Map(), rows = new Map();
    for (const s of board.spaces) {
      const [x, y] = pos.get(s.id);
      if (!cols.has(s.col) || y < cols.get(s.col)[1]) cols.set(s.col, [x, y]);
      if (!rows.has(s.row) || x < rows.get(s.row)[0]) rows.set(s.row, [x, y]);
    }
    for (const [c, [x, y]] of cols) { const t = svg("text", { x, y: y - R * 1.05, "text-anchor": "middle", class: "coord" }); t.textContent = (board.col_names || {})[c] ?? c; root.appendChild(t); }
    for (const [r, [x, y]] of rows) { const t = svg("text", { x: x - R * 1.15, y: y + 3, "text-anchor": "middle", class: "coord" }); t.textContent = (board.row_names || {})[r] ?? r; root.appendChild(t); }
  }
  for (const s of board.spaces) {
    const [x, y] = pos.get(s.id);
    const g = svg("g", { class: "space-g" });
    g.dataset.target = "c" + s.id;
    g.dataset.space = String(s.id);
    let shape;
    if (board.kind === "hex") {
      const pts = [];
      const flat = board.layout === "odd-q" || board.layout === "even-q";
      for (let k = 0; k < 6; k++) {
        const a = Math.PI / 180 * (60 * k + (flat ? 0 : 30));
        pts.push((x + R * Math.cos(a)).toFixed(1) + "," + (y + R * Math.sin(a)).toFixed(1));
      }
      shape = svg("polygon", { points: pts.join(" ") });
    } else if (board.kind === "square") {
      shape = svg("rect", { x: x - R, y: y - R, width: 2 * R, height: 2 * R });
    } else {
      shape = svg("circle", { cx: x, cy: y, r: R });
    }
    shape.setAttribute("class", "space");
    shape.setAttribute("fill", spaceFill(s));
    if (s.colour_value !== undefined && s.colour_value !== null) g.dataset.value = s.colour_value;
    const drawn = s.pieces.filter(p => (((table.types || {})[p.type] || {}).shape || "circle") !== "none");
    const title = svg("title");
    title.textContent = s.name + (drawn.length ? ": " + drawn.map(p => p.name || p.type).join(", ") : "");
    g.appendChild(title);
    g.appendChild(shape);
    if (s.glyph) { const t = svg("text", { x, y: y + (drawn.length ? -R * 0.45 : 4), "text-anchor": "middle", class: "glyph" }); t.textContent = s.glyph; g.appendChild(t); }
    if (board.labels === "spaces" || board.kind === "graph") {
      const text = board.kind === "graph" ? s.name : (s.at || `${s.col},${s.row}`);
      const label = svg("text", { x, y: y + R * 0.8, "text-anchor": "middle", "font-size": 7, fill: "#666" });
      // a long name (board.axes) gets a smaller font than the style sheet's, to stay inside its space
      if (board.kind !== "graph" && text.length * 6 > 2 * R) label.style.fontSize = (2 * R / (text.length * 0.6)).toFixed(1) + "px";
      label.textContent = text;
      g.appendChild(label);
    }
    g.addEventListener("click", ev => {
      if (g.classList.contains("target") || ev.target.closest(".piece.target")) return;
      showHelp({ name: s.name, type: board.type, props: {} }, null);
    });
    drawn.slice(0, 4).forEach((p, i) => {
      const many = drawn.length > 1;
      const px = x + (i % 2 ? 7 : -7) * (many ? 1 : 0), py = y + (i > 1 ? 7 : 0) + (many ? -2 : 2);
      const pg = svg("g", { class: "piece" });
      if (p.id !== undefined) { pg.dataset.target = "c" + p.id; pg.dataset.cid = String(p.id); }
      const hint = (table.types || {})[p.type] || {};
      const colour = typeof p.owner === "number" ? seatColour(p.owner)
        : (p.hidden && !(hint.colour_by && (p.props || {})[hint.colour_by] !== undefined) ? "#555" : compColour(p));
      pg.appendChild(pieceShape(hint.shape || "circle", px, py, many ? 7 : 10, colour));
      const t = svg("text", { x: px, y: py + 3, "text-anchor": "middle", "font-size": 8 });
      t.textContent = hint.short ? fill(hint.short, p) : (p.type || "?").slice(0, 1).toUpperCase();
      pg.appendChild(t);
      const pt = svg("title"); pt.textContent = p.name || ("a face-down " + p.type);
      pg.appendChild(pt);
      pg.addEventListener("click", ev => { if (!pg.classList.contains("target")) { ev.stopPropagation(); showHelp(p, null); } });
      g.appendChild(pg);
    });
    if (drawn.length > 4) {
      const t = svg("text", { x: x + R * 0.6, y: y - R * 0.3 }); t.textContent = "+" + (drawn.length - 4); g.appendChild(t);
    }
    root.appendChild(g);
  }
  wrap.appendChild(root);
  const swatches = Object.entries(board.swatches || {});
  if (swatches.length) {
    const box = el("div", "legend swatches");
    for (const [value, colour] of swatches) {
      const item = el("span", "swatch");
      const dot = el("span", "dot");
      dot.style.background = colour;
      item.appendChild(dot);
      item.appendChild(document.createTextNode(value.replace(/_/g, " ")));
      box.appendChild(item);
    }
    wrap.appendChild(box);
  }
  const kinds = new Map();  // each kind of piece on the board, drawn as it is drawn there, with its type's name
  for (const s of board.spaces) for (const q of s.pieces) {
    const hint = (table.types || {})[q.type] || {};
    if ((hint.shape || "circle") !== "none" && hint.shape && !kinds.has(q.type)) kinds.set(q.type, hint.shape);
  }
  if (kinds.size) {
    const box = el("div", "legend swatches pieces-legend");
    for (const [type, shape] of kinds) {
      const item = el("span", "swatch");
      const icon = svg("svg", { width: 18, height: 16, viewBox: "0 0 18 16" });
      icon.appendChild(pieceShape(shape, 9, 8, 6, "#666"));
      item.appendChild(icon);
      item.appendChild(document.createTextNode(" " + type.replace(/_/g, " ")));
      box.appendChild(item);
    }
    wrap.appendChild(box);
  }
  const legend = Object.entries(board.legend || {});
  if (legend.length) wrap.appendChild(el("div", "legend", legend.map(([k, v]) => k + " " + v).join(" · ")));
  return wrap;
}

// ------------------------------------------------------------------ players and zones
function playerNode(p) {
  const node = el("div", "player");
  node.style.setProperty("--seat", seatColour(p.seat));
  node.dataset.target = "p" + p.seat;
  node.dataset.seat = String(p.seat + 1);
  if (p.to_move) node.classList.add("to-move");
  if (p.eliminated) node.classList.add("out");
  if (table.has_score) node.appendChild(el("span", "score", p.score === null ? "?" : p.score));
  const name = el("div", "name", p.name);
  if (p.you) name.appendChild(el("span", "tag", "you"));
  if (p.current && !table.over) name.appendChild(el("span", "tag", "turn"));
  if (p.to_move && !table.over) name.appendChild(el("span", "tag", "to decide"));
  if (p.winner) name.appendChild(el("span", "tag", "winner"));
  if (p.eliminated) name.appendChild(el("span", "tag", "out"));
  node.appendChild(name);
  if (p.vars.length) node.appendChild(el("div", "vars", p.vars.map(v => v.name.replace(/_/g, " ") + " " + v.text).join(" · ")));
  return node;
}

function groupNode(title, seat, zones) {
  const g = el("div", "group");
  if (typeof seat === "number") { g.style.setProperty("--seat", seatColour(seat)); g.dataset.seat = String(seat + 1); }
  g.appendChild(el("h2", "", title));
  zones.forEach(z => g.appendChild(zoneNode(z)));
  return g;
}

function statusText(t) {
  const bits = [];
  if (t.variants.length) bits.push(t.variants.join(", "));
  if (t.phase) bits.push("phase " + t.phase_title);
  if (t.turn) bits.push("turn " + t.turn);
  if (t.over) bits.push("Game over. Winner" + (t.winners.length === 1 ? ": " : "s: ") + (t.winners.join(", ") || "nobody"));
  else {
    if (t.current) bits.push(t.current + "'s turn");
    const deciding = t.players.filter(p => p.to_move).map(p => p.name);
    if (deciding.length) bits.push("to decide: " + deciding.join(", "));
  }
  return bits.join(" · ");
}

// ------------------------------------------------------------------ what changed
function snapshotOf(t) {
  // where each component is and how it looks, each space's contents, each zone's count, each score
  const comps = new Map(), counts = new Map(), spaces = new Map();
  for (const z of t.zones) {
    counts.set(z.id, z.count);
    for (const i of z.items) if (i.id !== undefined) comps.set(i.id, z.id + "|" + (i.hidden ? "" : JSON.stringify([i.props, i.status, i.down])));
  }
  for (const b of t.boards) for (const s of b.spaces) {
    spaces.set(s.id, JSON.stringify([s.colour_value, s.pieces.map(q => q.id === undefined ? q.type : q.id)]));
    for (const q of s.pieces) if (q.id !== undefined) comps.set(q.id, "space " + s.id + "|" + (q.hidden ? "" : JSON.stringify(q.props)));
  }
  return { comps, counts, spaces, scores: t.players.map(q => q.score), vars: t.players.map(q => JSON.stringify(q.vars)) };
}

function markChanges(t) {
  // everything that changed since the seat last answered (the bots' moves meanwhile): marked until it answers
  if (!baseline) return;
  const now = snapshotOf(t);
  let n = 0;
  const mark = e => { e.classList.add("changed"); n++; };
  document.querySelectorAll("#board-area [data-cid]").forEach(e => {
    const id = Number(e.dataset.cid);
    if (baseline.comps.get(id) !== now.comps.get(id)) mark(e);
  });
  document.querySelectorAll("#board-area g[data-space]").forEach(e => {
    const id = Number(e.dataset.space);
    if (baseline.spaces.has(id) && baseline.spaces.get(id) !== now.spaces.get(id)) mark(e);
  });
  document.querySelectorAll("#board-area .zone").forEach(e => {
    const id = e.dataset.zone;
    if ((baseline.counts.get(id) || 0) !== now.counts.get(id)) e.querySelector(".zone-head").classList.add("changed");
  });
  document.querySelectorAll("#players .player").forEach((e, q) => {
    if (baseline.scores[q] !== now.scores[q]) { const sc = e.querySelector(".score"); if (sc) mark(sc); }
    if (baseline.vars[q] !== now.vars[q]) { const v = e.querySelector(".vars"); if (v) mark(v); }
  });
  document.body.dataset.changed = String(n);
}

function positions() {
  const out = new Map();
  document.querySelectorAll("#board-area [data-cid]").forEach(e => out.set(e.dataset.cid, e.getBoundingClientRect()));
  return out;
}

function animateMoves(before) {
  // a component that moved between zones (or spaces) slides from where it was: a short transition
  if (reducedMotion) return;
  document.querySelectorAll("#board-area [data-cid]").forEach(e => {
    const old = before.get(e.dataset.cid);
    if (!old || !e.animate) return;
    const now = e.getBoundingClientRect();
    const dx = old.left - now.left, dy = old.top - now.top;
    if (Math.abs(dx) + Math.abs(dy) < 2) return;
    e.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: 350, easing: "ease-out" });
  });
}

function drawTable(t) {
  const before = positions();
  drawTableNow(t);
  markChanges(t);
  animateMoves(before);
  const mine = role === "seat" && !!t.decision;
  document.title = (mine ? "● Your turn · " : t.over ? "Game over · " : "") + baseTitle;
  drawControls(t);
  if (helpOpen) drawHelp();
}

function drawTableNow(t) {
  table = t;
  document.body.dataset.steps = String(t.steps);
  document.body.dataset.over = t.over ? "yes" : "no";
  document.getElementById("status").textContent = statusText(t);
  const players = document.getElementById("players");
  players.replaceChildren(...t.players.map(playerNode));
  const boards = document.getElementById("boards");
  boards.replaceChildren(...t.boards.map(boardNode));
  const shared = t.zones.filter(z => z.owner === null);
  const sharedBox = document.getElementById("shared");
  sharedBox.replaceChildren();
  if (shared.length || t.vars.length) {
    const g = groupNode("Table", null, shared);
    if (t.vars.length) g.insertBefore(el("div", "vars", t.vars.map(v => v.name.replace(/_/g, " ") + " " + v.text).join(" · ")), g.children[1]);
    sharedBox.appendChild(g);
  }
  const own = document.getElementById("own");
  own.replaceChildren();
  const n = t.players.length;
  const first = typeof t.viewer === "number" ? t.viewer : 0;
  for (let k = 0; k < n; k++) {
    const q = (first + k) % n;
    const zones = t.zones.filter(z => z.owner === q);
    if (zones.length) own.appendChild(groupNode(t.players[q].name + (q === t.viewer ? " (you)" : ""), q, zones));
  }
  drawLog(document.getElementById("log"), t.log, null);
  drawFinal(t);
  drawDecision(t);
}

function drawLog(list, lines, step) {
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  list.replaceChildren(...lines.map(ln => {
    const li = el("li", ln.kind, "");
    if (step !== null) {
      li.appendChild(el("span", "st", "#" + ln.step));
      li.dataset.step = String(ln.step);
      if (ln.step > step) li.classList.add("future");
      else if (ln.step === step) li.classList.add("current");  // the step the panel shows
    }
    li.appendChild(document.createTextNode(ln.text));
    if (typeof ln.player === "number") li.style.setProperty("--seat", seatColour(ln.player));
    return li;
  }));
  if (atEnd || step === null) list.scrollTop = list.scrollHeight;
}

function drawFinal(t) {
  const box = document.getElementById("final");
  box.replaceChildren();
  box.hidden = !t.over;
  if (!t.over) return;
  box.appendChild(el("h2", "", "Game over. Winner" + (t.winners.length === 1 ? ": " : "s: ") + (t.winners.join(", ") || "nobody")));
  const rows = t.breakdown || [];
  if (!rows.length) return;
  const tbl = el("table");
  const head = el("tr");
  head.appendChild(el("th", "", "player"));
  (rows[0].parts || []).forEach(([name]) => head.appendChild(el("th", "", name)));
  head.appendChild(el("th", "", "score"));
  tbl.appendChild(head);
  for (const r of rows) {
    const tr = el("tr");
    tr.appendChild(el("td", "", r.name));
    (r.parts || []).forEach(([, v]) => tr.appendChild(el("td", "", v)));
    tr.appendChild(el("td", "", r.total));
    tbl.appendChild(tr);
  }
  box.appendChild(tbl);
}

// ------------------------------------------------------------------ deciding
function remaining(d) {
  return d.options.filter(o => picked.every(p => o.targets.includes(p)));
}

function drawDecision(t) {
  const box = document.getElementById("decision");
  box.replaceChildren();
  document.querySelectorAll(".target, .picked").forEach(e => e.classList.remove("target", "picked"));
  const d = t.decision;
  if (!d) {
    if (!t.over && role === "seat") box.appendChild(el("div", "waiting", "Waiting for " + (t.players.filter(p => p.to_move).map(p => p.name).join(", ") || "the rules") + "…"));
    return;
  }
  const left = remaining(d);
  if (!left.length) { picked = []; return drawDecision(t); }
  const prompt = el("div", "prompt", d.prompt || "Your decision");
  const ask = el("button", "help-button", "?");
  ask.title = "what this decision is, in the rules' words (key: ?)";
  ask.addEventListener("click", () => toggleHelp());
  prompt.appendChild(ask);
  box.appendChild(prompt);
  if (d.seconds) box.appendChild(el("div", "hint", "You have " + d.seconds + " seconds."));
  const clickable = new Set();
  left.forEach(o => o.targets.forEach(x => { if (!picked.includes(x)) clickable.add(x); }));
  if (clickable.size) box.appendChild(el("div", "hint", picked.length ? "Now click the next one, or pick below." : "Click a highlighted piece, card, space or player, or pick below."));
  const opts = el("div", "options");
  for (const o of left) {
    const b = el("button", "option", o.label);
    b.dataset.index = String(o.index);
    b.disabled = offline();
    b.addEventListener("click", () => send(o.index, d.number));  // the decision this button was drawn for
    opts.appendChild(b);
  }
  box.appendChild(opts);
  if (picked.length) {
    const clear = el("button", "option", "start again");
    clear.addEventListener("click", () => { picked = []; drawDecision(table); });
    box.appendChild(clear);
  }
  for (const target of clickable) {
    document.querySelectorAll(`[data-target="${target}"]`).forEach(e => e.classList.add("target"));
  }
  for (const target of picked) {
    document.querySelectorAll(`[data-target="${target}"]`).forEach(e => e.classList.add("picked"));
  }
}

function clickTarget(target) {
  if (!table || !table.decision) return;
  const d = table.decision;
  if (!remaining(d).some(o => o.targets.includes(target)) || picked.includes(target)) return;
  picked.push(target);
  const left = remaining(d);
  // one option left, or every option left names exactly what was clicked: it is chosen
  if (left.length === 1) return send(left[0].index, d.number);
  const exact = left.filter(o => o.targets.length === picked.length);
  if (exact.length === 1 && left.every(o => o.targets.every(x => picked.includes(x)))) return send(exact[0].index, d.number);
  drawDecision(table);
}

document.addEventListener("click", ev => {
  const hit = ev.target.closest && ev.target.closest("[data-target]");
  if (!hit || !hit.classList.contains("target")) return;
  ev.preventDefault();
  clickTarget(hit.dataset.target);
});

function send(index, number) {
  // every answer names the decision it answers: one sent for a decision already answered (another tab of
  // this seat, a click on a table just redrawn) is refused by the server, never taken for the next one
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  picked = [];
  if (table) baseline = snapshotOf(table);  // what the seat saw when it answered: changes after it are marked
  socket.send(JSON.stringify({ type: "choose", index, decision: number }));
  document.body.dataset.sent = String(parseInt(document.body.dataset.sent || "0", 10) + 1);
  document.getElementById("decision").replaceChildren(el("div", "waiting", "Sent…"));
}

// ------------------------------------------------------------------ the table's own controls
function offline() { return !socket || socket.readyState !== WebSocket.OPEN; }

function request(msg) {
  if (offline()) return;
  socket.send(JSON.stringify(msg));
}

function button(label, cls, onClick) {
  const b = el("button", "control " + (cls || ""), label);
  b.disabled = offline();
  b.addEventListener("click", onClick);
  return b;
}

function drawControls(t) {
  // a takeback (and the other humans' answer to one), a rematch once the game is over, the player's name
  const box = document.getElementById("controls");
  box.replaceChildren();
  if (role !== "seat") return;
  const tb = extra.takeback;
  if (tb && tb.asks_me) {
    const ask = el("div", "ask", tb.by + " asks to take back their last decision.");
    ask.appendChild(button("accept", "accept", () => request({ type: "takeback_answer", accept: true })));
    ask.appendChild(button("refuse", "refuse", () => request({ type: "takeback_answer", accept: false })));
    box.appendChild(ask);
  } else if (tb && tb.mine) {
    box.appendChild(el("div", "hint", "Takeback asked: waiting for the other players to accept…"));
  } else if (extra.can_take_back) {
    box.appendChild(button("take back my last decision", "takeback", () => request({ type: "takeback" })));
  }
  if (t.over) {
    box.appendChild(button("rematch (new seed)", "rematch", () => request({ type: "rematch", same_seed: false })));
    box.appendChild(button("rematch (same seed)", "rematch-same", () => request({ type: "rematch", same_seed: true })));
  }
  if (extra.can_rename) {
    const form = el("form", "rename");
    const me = t.players.find(q => q.you);
    const input = el("input");
    input.name = "name";
    input.maxLength = 24;
    input.placeholder = "your name";
    input.value = me ? me.name : "";
    input.disabled = offline();
    input.setAttribute("aria-label", "your name at this table");
    form.appendChild(input);
    const set = button("set name", "set-name", () => {});
    set.type = "submit";
    form.appendChild(set);
    form.addEventListener("submit", ev => { ev.preventDefault(); request({ type: "name", name: input.value }); });
    box.appendChild(form);
  }
}

// ------------------------------------------------------------------ rules help
function toggleHelp() {
  helpOpen = !helpOpen;
  helpItem = null;
  drawHelp();
}

function showHelp(item, zone) {
  helpOpen = true;
  helpItem = item ? { item, zone } : null;
  drawHelp();
}

function drawHelp() {
  // the ruleset's own words: the decision's prompt, the rule line asking it, each option's action and its
  // description; for a component, its type's and zone's description and the 'about' text of its value
  const box = document.getElementById("help");
  box.hidden = !helpOpen;
  box.replaceChildren();
  if (!helpOpen || !table) return;
  const head = el("div", "help-head");
  head.appendChild(el("b", "", "Rules help"));
  const close = el("button", "close", "×");
  close.title = "close (key: Esc)";
  close.addEventListener("click", () => { helpOpen = false; drawHelp(); });
  head.appendChild(close);
  box.appendChild(head);
  const texts = table.texts || { types: {}, zones: {} };
  if (helpItem) {
    const { item, zone } = helpItem;
    box.appendChild(el("div", "help-title", item.name || item.type));
    const hint = (table.types || {})[item.type] || {};
    const value = hint.about_by ? (item.props || {})[hint.about_by] : undefined;
    if (value !== undefined && hint.about && hint.about[String(value)]) box.appendChild(el("p", "about", hint.about[String(value)]));
    if (texts.types[item.type]) box.appendChild(el("p", "", texts.types[item.type]));
    if (zone && texts.zones[zone.family]) box.appendChild(el("p", "zone-about", zone.label + ": " + texts.zones[zone.family]));
    if (item.status) box.appendChild(el("p", "", "Now: " + item.status));
    if (item.hidden) box.appendChild(el("p", "hint", "Face down: you do not see what it is."));
  }
  const h = extra.help;
  if (h) {
    box.appendChild(el("div", "help-title", "Your decision: " + (h.prompt || "")));
    const kinds = { action: "Your turn: pick one of the actions the rules allow you now.",
      choose: "A choice the rules ask you to make.",
      simul: "A secret choice: the others choose at the same time and cannot see yours." };
    box.appendChild(el("p", "", (kinds[h.kind] || "") + (h.origin ? " (rules: " + h.origin + ")" : "")));
    const list = el("ul", "help-options");
    for (const o of h.options) list.appendChild(el("li", "", o.label + (o.about ? " — " + o.about : "")));
    box.appendChild(list);
  } else if (!helpItem) {
    box.appendChild(el("p", "hint", "Nothing to decide now. Click a card, piece or space to read what it is."));
  }
  if (!helpItem) box.appendChild(el("p", "hint", "Click any card, piece or space (one that is not highlighted) to read what it is."));
}

document.addEventListener("keydown", ev => {
  if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA")) return;
  if (ev.key === "?") { toggleHelp(); ev.preventDefault(); }
  else if (ev.key === "Escape" && helpOpen) { helpOpen = false; drawHelp(); }
});

// ------------------------------------------------------------------ the author's panel
function drawAuthor(a) {
  author = a;
  document.getElementById("author").hidden = false;
  drawTable(a.table);
  document.getElementById("t-step").textContent = "step " + a.step + " of " + a.steps + (a.live ? " (live)" : " (looking back)");
  const pending = document.getElementById("pending");
  pending.replaceChildren();
  if (a.pending) {
    pending.appendChild(el("div", "", a.pending.players.join(", ") + " — " + a.pending.kind + ": " + a.pending.prompt));
    for (const [who, labels] of Object.entries(a.pending.options)) {
      pending.appendChild(el("div", "hint", who + ": " + labels.join(" | ")));
    }
    if (a.rule) pending.appendChild(el("div", "rule", a.rule.where + "   " + a.rule.text));
    else if (a.asked_at) pending.appendChild(el("div", "rule", a.asked_at));
    // the author may answer for any seat (live only: a past decision is answered by branching first)
    if (a.live) for (const who of a.pending.seats || []) {
      const row = el("div", "act");
      row.appendChild(el("span", "", "answer for " + who.name + ": "));
      for (const o of who.options) {
        const b = button(o.label, "act-option", () => request({ type: "choose", seat: who.seat, index: o.index, decision: a.pending.number }));
        b.dataset.seat = String(who.seat);
        row.appendChild(b);
      }
      pending.appendChild(row);
    }
  } else {
    pending.appendChild(el("div", "", a.table.over ? "The game is over." : "Nothing is pending."));
  }
  const branch = document.getElementById("t-branch");
  branch.hidden = a.live;
  branch.disabled = offline();
  const seats = document.getElementById("seats");
  seats.replaceChildren(...a.seats.map(q => {
    const row = el("div", "seat-row");
    row.appendChild(el("span", "", q.name + ": " + (q.human ? "human" : "bot") + " "));
    const b = button(q.human ? "make it a bot" : "make it human", "seat-kind", () => request({ type: "seat_kind", seat: q.seat, human: !q.human }));
    b.dataset.seat = String(q.seat);
    row.appendChild(b);
    if (q.link) { const link = el("a", "", "link"); link.href = q.link; link.target = "_blank"; row.appendChild(link); }
    return row;
  }));
  if (!a.live || gameNumber !== a.game) { baseline = null; gameNumber = a.game; }
  drawLog(document.getElementById("author-log"), a.table.log, a.step);
  document.getElementById("state").textContent = JSON.stringify(a.state, null, 1);
  if (!graphLoaded) {
    graphLoaded = true;
    fetch("/author/graph.svg?t=" + encodeURIComponent(token)).then(r => r.text()).then(text => {
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const svgNode = doc.documentElement;
      if (svgNode && svgNode.nodeName === "svg") document.getElementById("graph").replaceChildren(document.importNode(svgNode, true));
      markPhase();
    });
  }
  markPhase();
}

function markPhase() {
  if (!author) return;
  document.querySelectorAll("#graph g.node").forEach(g => {
    const title = g.querySelector("title");
    g.classList.toggle("current", !!title && title.textContent === author.phase);
  });
}

function travel(step) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "travel", step }));
}

if (role === "author") {
  document.getElementById("t-first").onclick = () => travel(0);
  document.getElementById("t-back").onclick = () => travel(Math.max(0, author.step - 1));
  document.getElementById("t-fwd").onclick = () => travel(author.step + 1 >= author.steps ? null : author.step + 1);
  document.getElementById("t-live").onclick = () => travel(null);
  document.getElementById("t-goto").onchange = e => travel(parseInt(e.target.value, 10) || 0);
  document.getElementById("t-branch").onclick = () => request({ type: "branch", step: author.step });
  document.getElementById("author-log").addEventListener("click", e => {
    const li = e.target.closest("li");
    if (li && li.dataset.step) travel(parseInt(li.dataset.step, 10));
  });
}

// ------------------------------------------------------------------ the connection
function banner(text, good) {
  const b = document.getElementById("banner");
  b.textContent = text;
  b.hidden = !text;
  b.classList.toggle("good", !!good);
}

function drawFailure(failure) {
  // a rule failed: the game stopped where it was, and the error is shown in one line with its rule place
  const box = document.getElementById("failure");
  box.hidden = !failure;
  box.textContent = failure ? "The game stopped: " + failure.text : "";
  document.body.dataset.failure = failure ? failure.text : "";
}

function connect() {
  if (role === "index") {
    document.getElementById("layout").replaceChildren(el("p", "", "This is a Rulebook table. Open the link the host gave you for your seat."));
    return;
  }
  const query = role === "author" ? `role=author&t=${encodeURIComponent(token)}`
    : `role=seat&seat=${encodeURIComponent(seatFromPath)}&t=${encodeURIComponent(token)}`;
  socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?" + query);
  let opened = false;
  socket.onopen = () => {
    opened = true; retry = 500; banner("");
    document.body.classList.remove("offline");
    document.querySelectorAll("#travel button, #travel input").forEach(b => { b.disabled = false; });
  };
  socket.onmessage = ev => {
    const msg = JSON.parse(ev.data);
    if ("failure" in msg) drawFailure(msg.failure);
    if (msg.type === "table") {
      extra = msg;
      if (gameNumber !== msg.game) { baseline = null; gameNumber = msg.game; }  // a new game: nothing "changed"
      if (!baseline) baseline = snapshotOf(msg.table);
      drawTable(msg.table);
    } else if (msg.type === "author") {
      drawAuthor(msg);
      baseline = snapshotOf(msg.table);  // the author sees what changed since the last message
    } else if (msg.type === "refused") banner(msg.message);
  };
  socket.onclose = ev => {
    // every control is disabled while the table cannot be reached: a click would go nowhere
    document.body.classList.add("offline");
    document.querySelectorAll("button, input").forEach(b => { if (!b.closest("#help")) b.disabled = true; });
    if (!opened) { banner("This link does not open a seat at this table (or the table is closed)."); }
    else banner("Connection lost; trying again…");
    if (ev.code === 1008) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

connect();
