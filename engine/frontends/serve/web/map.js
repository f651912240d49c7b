// The map of the reference page, drawn as SVG. It knows no game: the geometry (places,
// groups, links and their kinds, boxes) comes once per pack from /api/packs/{pack}/map, and
// the state with every screen (screen.map: what stands where, by side; who controls each
// place; markers; the moves since the side last waited). Places that answer the current
// question are highlighted and answer it when clicked or when Enter is pressed on them.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
// sides are coloured by their order in the pack; link kinds are drawn by their order
const SIDE_COLOURS = ["#b3261e", "#1f5aa6", "#2e7d32", "#7b3fa0", "#c27c0e", "#00838f"];
const SIDE_TINTS = ["#f4c9c4", "#c6d7ef", "#cce5cd", "#e2d0ec", "#f3dfb8", "#c2e6e9"];
const LINK_DASHES = ["", "7 5", "2 4", "12 4 2 4", "1 8"];
const LINK_COLOURS = ["#6d655a", "#8a5a2b", "#2f6db3", "#7a2e8a", "#3b7d3b"];

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function titled(node, text) {
  if (text) node.append(svg("title", {}, text));
  return node;
}

// the convex hull of points (a group's outline), by Andrew's monotone chain
function hull(points) {
  const pts = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper = [];
  for (const p of pts.slice().reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0)
      upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

class MapView {
  constructor(root, hint, legend) {
    this.root = root;        // the <svg>
    this.hint = hint;        // a line that says what clicking does now
    this.legend = legend;    // the link kinds and the sides' colours
    this.geometry = null;
    this.home = null;        // the viewBox that shows every place
    this.box = null;         // the viewBox shown now: [x, y, w, h]
    this.drag = null;
    this.onPick = null;
    this.wire();
  }

  setGeometry(geometry) {
    this.geometry = geometry;
    this.at = {};
    for (const s of geometry.spaces) if (s.x !== null) this.at[s.id] = [s.x, s.y];
    let laid = 0;  // a box without a position: laid out along the bottom
    this.boxAt = {};
    for (const b of geometry.boxes) {
      this.boxAt[b.id] = b.x !== null ? [b.x, b.y] : [60 + 140 * laid++, 980];
    }
    const pts = Object.values(this.at).concat(Object.values(this.boxAt));
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const pad = 60;
    const x0 = Math.min(...xs) - pad;
    const y0 = Math.min(...ys) - pad;
    this.home = [x0, y0, Math.max(...xs) + pad - x0, Math.max(...ys) + pad + 20 - y0];
    this.box = this.home.slice();
    // the map's own shape: as wide as the page allows, as high as that shape needs
    this.root.style.aspectRatio = `${this.home[2]} / ${this.home[3]}`;
    this.kinds = [];
    for (const l of geometry.links) if (!this.kinds.includes(l.kind)) this.kinds.push(l.kind);
  }

  // ---- pan and zoom -----------------------------------------------------------------------
  showBox() { this.root.setAttribute("viewBox", this.box.map((v) => v.toFixed(1)).join(" ")); }

  zoom(factor, cx, cy) {
    const [x, y, w, h] = this.box;
    const nw = Math.min(Math.max(w / factor, this.home[2] / 12), this.home[2] * 1.5);
    const nh = nw * h / w;
    if (cx === undefined) { cx = x + w / 2; cy = y + h / 2; }
    this.box = [cx - (cx - x) * nw / w, cy - (cy - y) * nh / h, nw, nh];
    this.showBox();
  }

  pan(dx, dy) {
    this.box[0] += dx;
    this.box[1] += dy;
    this.showBox();
  }

  reset() { this.box = this.home.slice(); this.showBox(); }

  // a point of the page in map units
  toMap(event) {
    const r = this.root.getBoundingClientRect();
    const [x, y, w, h] = this.box;
    const scale = Math.max(w / r.width, h / r.height);  // preserveAspectRatio: meet
    const ox = (r.width * scale - w) / 2;
    const oy = (r.height * scale - h) / 2;
    return [x - ox + (event.clientX - r.left) * scale, y - oy + (event.clientY - r.top) * scale,
            scale];
  }

  wire() {
    const root = this.root;
    root.addEventListener("wheel", (event) => {
      event.preventDefault();
      const [mx, my] = this.toMap(event);
      this.zoom(event.deltaY < 0 ? 1.25 : 0.8, mx, my);
    }, {passive: false});
    root.addEventListener("pointerdown", (event) => {
      if (event.target.closest(".option")) return;  // a click that answers, not a drag
      this.drag = {x: event.clientX, y: event.clientY, scale: this.toMap(event)[2], moved: 0};
      root.setPointerCapture(event.pointerId);
    });
    root.addEventListener("pointermove", (event) => {
      if (!this.drag) return;
      const d = this.drag;
      const dx = (event.clientX - d.x) * d.scale;
      const dy = (event.clientY - d.y) * d.scale;
      d.moved += Math.abs(dx) + Math.abs(dy);
      d.x = event.clientX;
      d.y = event.clientY;
      this.pan(-dx, -dy);
    });
    const end = () => { this.drag = null; };
    root.addEventListener("pointerup", end);
    root.addEventListener("pointercancel", end);
    root.addEventListener("keydown", (event) => {
      if (event.target !== root) return;  // keys on a place: see the place's handler
      const step = this.box[2] / 10;
      const keys = {"+": () => this.zoom(1.25), "=": () => this.zoom(1.25),
                    "-": () => this.zoom(0.8), "0": () => this.reset(),
                    "ArrowLeft": () => this.pan(-step, 0), "ArrowRight": () => this.pan(step, 0),
                    "ArrowUp": () => this.pan(0, -step), "ArrowDown": () => this.pan(0, step)};
      if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
    });
  }

  // ---- drawing ----------------------------------------------------------------------------
  // `state`: screen.map; `sides`: the pack's sides in order; `options`: place id -> the
  // option that answers with it; `words`: the page's words
  draw(state, sides, options, words) {
    const g = this.geometry;
    const colour = (side) => SIDE_COLOURS[sides.indexOf(side) % SIDE_COLOURS.length] || "#555";
    const tint = (side) => SIDE_TINTS[sides.indexOf(side) % SIDE_TINTS.length] || "#fff";
    const root = this.root;
    root.replaceChildren();
    root.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.showBox();
    const defs = svg("defs");
    sides.forEach((side) => {
      const m = svg("marker", {id: "arrow-" + side, viewBox: "0 0 10 10", refX: "8", refY: "5",
                               markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse"});
      m.append(svg("path", {d: "M0,0 L10,5 L0,10 z", fill: colour(side)}));
      defs.append(m);
    });
    root.append(defs);
    const places = state.places || {};
    // groups: each place's group outlined, tinted by the side holding most of its places
    const groups = svg("g", {class: "groups"});
    for (const group of g.groups) {
      const members = g.spaces.filter((s) => s.group === group.id && this.at[s.id]);
      if (!members.length) continue;
      const held = {};
      for (const s of members) {
        const owner = places[s.id] && places[s.id].owner;
        if (owner) held[owner] = (held[owner] || 0) + 1;
      }
      const ranked = Object.entries(held).sort((a, b) => b[1] - a[1]);
      const top = ranked.length && (ranked.length === 1 || ranked[0][1] > ranked[1][1])
        ? ranked[0][0] : null;
      const pts = hull(members.map((s) => this.at[s.id]));
      const shape = pts.length > 2
        ? svg("polygon", {points: pts.map((p) => p.join(",")).join(" ")})
        : svg("polyline", {points: pts.map((p) => p.join(",")).join(" ")});
      shape.setAttribute("class", "group" + (top ? " held" : ""));
      shape.setAttribute("data-group", group.id);
      if (top) { shape.style.fill = tint(top); shape.style.stroke = tint(top); }
      groups.append(titled(shape, group.name));
      const cx = members.reduce((a, s) => a + this.at[s.id][0], 0) / members.length;
      const cy = members.reduce((a, s) => a + this.at[s.id][1], 0) / members.length;
      groups.append(svg("text", {x: cx, y: cy, class: "group-name"}, group.name));
    }
    root.append(groups);
    // links, each kind its own line
    const links = svg("g", {class: "links"});
    for (const l of g.links) {
      const a = this.at[l.a];
      const b = this.at[l.b];
      if (!a || !b) continue;
      const k = this.kinds.indexOf(l.kind);
      const line = svg("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "link",
                                "data-kind": l.kind || "", stroke: LINK_COLOURS[k % 5],
                                "stroke-dasharray": LINK_DASHES[k % 5]});
      links.append(titled(line, l.kind_name ? `${l.kind_name}` : ""));
    }
    root.append(links);
    // the moves since the side last waited: each mover's path, with an arrow
    const paths = svg("g", {class: "paths"});
    for (const p of state.paths || []) {
      const pts = p.places.map((id) => this.at[id]).filter(Boolean);
      if (pts.length < 2) continue;
      const line = svg("polyline", {points: pts.map((q) => q.join(",")).join(" "),
                                    class: "path", stroke: p.side ? colour(p.side) : "#333",
                                    "marker-end": p.side ? `url(#arrow-${p.side})` : ""});
      paths.append(titled(line, p.label));
    }
    root.append(paths);
    // boxes
    for (const b of g.boxes) {
      const [x, y] = this.boxAt[b.id];
      const node = svg("g", {class: "box", "data-box": b.id});
      node.append(svg("rect", {x: x - 60, y: y - 16, width: 120, height: 32, rx: 4}));
      node.append(svg("text", {x, y: y - 3, class: "box-name"}, b.name));
      const inside = (state.boxes || {})[b.id];
      if (inside) node.append(svg("text", {x, y: y + 11, class: "box-text"}, inside));
      root.append(titled(node, inside ? `${b.name}: ${inside}` : b.name));
    }
    // places
    const layer = svg("g", {class: "places"});
    for (const s of g.spaces) {
      const at = this.at[s.id];
      if (!at) continue;
      const [x, y] = at;
      const here = places[s.id] || {};
      const option = options[s.id];
      const node = svg("g", {class: "place" + (option ? " option" : ""), "data-place": s.id});
      const dot = svg("circle", {cx: x, cy: y, r: 7, class: "dot"});
      if (here.owner) { dot.style.fill = tint(here.owner); dot.style.stroke = colour(here.owner); }
      node.append(dot);
      if (option) node.append(svg("circle", {cx: x, cy: y, r: 12, class: "ring"}));
      node.append(svg("text", {x, y: y + 17, class: "place-name"}, s.name));
      (here.marks || []).forEach((mark, i) => {
        node.append(svg("text", {x, y: y + 26 + 8 * i, class: "mark"}, mark));
      });
      (here.stacks || []).forEach((st, i) => {
        const w = 7 + 5.2 * st.label.length;
        const chip = svg("g", {class: "stack" + (st.inner ? " inner" : "")});
        const fill = st.side ? colour(st.side) : "#555";
        chip.append(svg("rect", {x: x + 9, y: y - 9 + 12 * i, width: w, height: 11, rx: 2,
                                 fill: st.inner ? "#fff" : fill, stroke: fill}));
        chip.append(svg("text", {x: x + 12, y: y - 0.5 + 12 * i,
                                 fill: st.inner ? fill : "#fff"}, st.label));
        node.append(titled(chip, st.title));
      });
      titled(node, (option ? `${option.label} — ` : "") + (here.text || s.name));
      if (option) {
        node.setAttribute("tabindex", "0");
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", option.label);
        node.addEventListener("click", () => this.onPick && this.onPick(option));
        node.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            if (this.onPick) this.onPick(option);
          }
        });
      }
      layer.append(node);
    }
    root.append(layer);
    // tokens (board `markers:`), over the places
    const tokens = svg("g", {class: "tokens"});
    const seen = {};
    for (const t of state.tokens || []) {
      const at = this.at[t.at];
      if (!at) continue;
      const n = seen[t.at] = (seen[t.at] || 0) + 1;
      const w = 8 + 5.2 * t.label.length;
      const [x, y] = [at[0] - w / 2, at[1] - 22 - 12 * (n - 1)];
      const fill = t.side ? colour(t.side) : "#222";
      const token = svg("g", {class: "token", "data-var": t.var});
      token.append(svg("rect", {x, y, width: w, height: 11, rx: 5.5, fill, stroke: "#fff"}));
      token.append(svg("text", {x: x + 4, y: y + 8.5}, t.label));
      tokens.append(titled(token, t.label));
    }
    root.append(tokens);
    // what clicking does, and the legend
    const count = Object.keys(options).length;
    this.hint.textContent = count ? words.map_pick : "";
    const legend = this.kinds.filter((k) => k !== null).map((k) => {
      const l = g.links.find((x) => x.kind === k);
      const i = this.kinds.indexOf(k);
      return `<span class="legend-item"><svg width="28" height="8"><line x1="0" y1="4" x2="28"
        y2="4" stroke="${LINK_COLOURS[i % 5]}" stroke-width="2"
        stroke-dasharray="${LINK_DASHES[i % 5]}"/></svg>${escapeHtml(l.kind_name || k)}</span>`;
    });
    for (const side of sides) {
      legend.push(`<span class="legend-item"><span class="swatch" style="background:${colour(side)}"
        ></span>${escapeHtml(words.sides[side] || side)}</span>`);
    }
    this.legend.innerHTML = legend.join(" ");
  }
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;",
                                                    '"': "&quot;", "'": "&#39;"}[c]));
}

window.MapView = MapView;
