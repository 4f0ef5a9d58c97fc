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

function compNode(item, count) {
  const node = el("div", "comp");
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

function itemsNode(items) {
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
    box.appendChild(compNode(it, n));
    i += n;
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
  z.appendChild(itemsNode(zone.items));
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

function boardNode(board) {
  const wrap = el("div", "board-wrap");
  wrap.appendChild(el("h2", "", board.type.replace(/_/g, " ")));
  const R = board.kind === "graph" ? 26 : 22;
  const pos = new Map();
  if (board.kind === "graph") {
    const n = board.spaces.length, C = 60 + n * 14;
    board.spaces.forEach((s, i) => {
      const a = 2 * Math.PI * i / Math.max(1, n) - Math.PI / 2;
      pos.set(s.id, [C + (C - 40) * Math.cos(a), C + (C - 40) * Math.sin(a)]);
    });
  } else {
    board.spaces.forEach(s => pos.set(s.id, spacePosition(board, s, R)));
  }
  const xs = [...pos.values()].map(p => p[0]), ys = [...pos.values()].map(p => p[1]);
  const W = Math.max(...xs, 0) + R * 1.3, H = Math.max(...ys, 0) + R * 1.3;
  const root = svg("svg", { class: "board", viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img" });
  for (const [a, b] of board.edges) {
    const [x1, y1] = pos.get(a), [x2, y2] = pos.get(b);
    root.appendChild(svg("line", { x1, y1, x2, y2, stroke: "#999" }));
  }
  for (const s of board.spaces) {
    const [x, y] = pos.get(s.id);
    const g = svg("g", { class: "space-g" });
    g.dataset.target = "c" + s.id;
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
    shape.setAttribute("fill", s.terrain === null ? "#eee" : TERRAIN[hash(s.terrain) % TERRAIN.length]);
    const title = svg("title");
    title.textContent = s.name + (s.pieces.length ? ": " + s.pieces.map(p => p.name || p.type).join(", ") : "");
    g.appendChild(title);
    g.appendChild(shape);
    if (s.glyph) { const t = svg("text", { x, y: y - R * 0.45, "text-anchor": "middle" }); t.textContent = s.glyph; g.appendChild(t); }
    if (board.kind !== "hex" || s.pieces.length === 0) {
      const text = board.kind === "graph" ? s.name : (s.at || `${s.col},${s.row}`);
      const label = svg("text", { x, y: y + R * 0.8, "text-anchor": "middle", "font-size": 7, fill: "#666" });
      // a long name (board.axes) gets a smaller font than the style sheet's, to stay inside its space
      if (board.kind !== "graph" && text.length * 6 > 2 * R) label.style.fontSize = (2 * R / (text.length * 0.6)).toFixed(1) + "px";
      label.textContent = text;
      g.appendChild(label);
    }
    s.pieces.slice(0, 4).forEach((p, i) => {
      const px = x + (i % 2 ? 7 : -7) * (s.pieces.length > 1 ? 1 : 0), py = y + (i > 1 ? 7 : 0) + 2;
      const pg = svg("g", { class: "piece" });
      if (p.id !== undefined) pg.dataset.target = "c" + p.id;
      const colour = typeof p.owner === "number" ? seatColour(p.owner) : (p.hidden ? "#555" : compColour(p));
      pg.appendChild(svg("circle", { cx: px, cy: py, r: s.pieces.length > 1 ? 7 : 10, fill: colour, stroke: "#fff" }));
      const hint = (table.types || {})[p.type] || {};
      const t = svg("text", { x: px, y: py + 3, "text-anchor": "middle", "font-size": 8 });
      t.textContent = hint.short ? fill(hint.short, p) : (p.type || "?").slice(0, 1).toUpperCase();
      pg.appendChild(t);
      const pt = svg("title"); pt.textContent = p.name || ("a face-down " + p.type);
      pg.appendChild(pt);
      g.appendChild(pg);
    });
    if (s.pieces.length > 4) {
      const t = svg("text", { x: x + R * 0.6, y: y - R * 0.3 }); t.textContent = "+" + (s.pieces.length - 4); g.appendChild(t);
    }
    root.appendChild(g);
  }
  wrap.appendChild(root);
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
  if (p.current) name.appendChild(el("span", "tag", "turn"));
  if (p.to_move) name.appendChild(el("span", "tag", "to decide"));
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
  if (t.phase) bits.push("phase " + t.phase);
  if (t.turn) bits.push("turn " + t.turn);
  if (t.over) bits.push("Game over. Winner" + (t.winners.length === 1 ? ": " : "s: ") + (t.winners.join(", ") || "nobody"));
  else {
    if (t.current) bits.push(t.current + "'s turn");
    const deciding = t.players.filter(p => p.to_move).map(p => p.name);
    if (deciding.length) bits.push("to decide: " + deciding.join(", "));
  }
  return bits.join(" · ");
}

function drawTable(t) {
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
  box.appendChild(el("div", "prompt", d.prompt || "Your decision"));
  if (d.seconds) box.appendChild(el("div", "hint", "You have " + d.seconds + " seconds."));
  const clickable = new Set();
  left.forEach(o => o.targets.forEach(x => { if (!picked.includes(x)) clickable.add(x); }));
  if (clickable.size) box.appendChild(el("div", "hint", picked.length ? "Now click the next one, or pick below." : "Click a highlighted piece, card, space or player, or pick below."));
  const opts = el("div", "options");
  for (const o of left) {
    const b = el("button", "option", o.label);
    b.dataset.index = String(o.index);
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
  socket.send(JSON.stringify({ type: "choose", index, decision: number }));
  document.body.dataset.sent = String(parseInt(document.body.dataset.sent || "0", 10) + 1);
  document.getElementById("decision").replaceChildren(el("div", "waiting", "Sent…"));
}

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
  } else {
    pending.appendChild(el("div", "", a.table.over ? "The game is over." : "Nothing is pending."));
  }
  drawLog(document.getElementById("author-log"), a.table.log.concat(a.future || []), a.step);
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
  socket.onopen = () => { opened = true; retry = 500; banner(""); };
  socket.onmessage = ev => {
    const msg = JSON.parse(ev.data);
    if ("failure" in msg) drawFailure(msg.failure);
    if (msg.type === "table") drawTable(msg.table);
    else if (msg.type === "author") drawAuthor(msg);
    else if (msg.type === "refused") banner(msg.message);
  };
  socket.onclose = ev => {
    if (!opened) { banner("This link does not open a seat at this table (or the table is closed)."); }
    else banner("Connection lost; trying again…");
    if (ev.code === 1008) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

connect();
