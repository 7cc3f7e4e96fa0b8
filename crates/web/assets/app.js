// The gamegraph page: one view per game family. Every answer comes from the server's
// /api/<command>, which returns exactly the JSON of `gamegraph <command> --json`.
'use strict';

// Script errors are kept for the browser tests, which check that there were none.
window.ggErrors = [];
window.addEventListener('error', (e) => window.ggErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.ggErrors.push(String(e.reason)));

const $ = (id) => document.getElementById(id);
const MAX_DRAWN = 500;

/** POST `body` to /api/`cmd` with the query `params` (empty values left out). */
async function api(cmd, params, body) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== '' && v !== false) q.append(k, String(v));
  }
  const r = await fetch(`/api/${cmd}?${q}`, { method: 'POST', body: body ?? '' });
  const text = await r.text();
  if (!r.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error; } catch (_) { /* not JSON */ }
    throw new Error(msg);
  }
  return cmd === 'convert' ? text : JSON.parse(text);
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function setText(id, text) { $(id).textContent = text; }
function showError(prefix, e) { setText(`${prefix}-error`, e ? `error: ${e.message || e}` : ''); }
function logLine(id, text) { $(id).append(el('li', {}, text)); $(id).scrollTop = 1e9; }
const who = (me) => (me ? 'you' : 'the engine');
const outcomeWord = { W: 'win', L: 'loss', D: 'draw' };

/** The line that ends a game, worded as `gamegraph play` words it. */
function endLine(me, noMoveWins) {
  if (noMoveWins) return me ? 'you win: the engine took the last object' : 'the engine wins: you took the last object';
  return me ? 'the engine wins: you cannot move' : 'you win: the engine cannot move';
}

/** Parses the `u v` lines of `gamegraph convert --to arcs`. */
function parseArcs(text) {
  const arcs = [];
  for (const line of text.split('\n')) {
    const p = line.trim().split(/\s+/);
    if (p.length === 2) arcs.push([Number(p[0]), Number(p[1])]);
  }
  return arcs;
}

/** Draws a digraph with Cytoscape.js; `style(v)` gives a vertex's label and classes. */
function drawGraph(container, n, arcs, opts) {
  const elements = [];
  for (let v = 1; v <= n; v++) elements.push({ data: { id: `n${v}`, v, label: opts.label(v) }, classes: opts.classes(v) });
  arcs.forEach(([u, v], i) => elements.push({ data: { id: `e${i}`, source: `n${u}`, target: `n${v}` } }));
  const layout = opts.layout === 'breadthfirst'
    ? { name: 'breadthfirst', directed: true, roots: opts.roots, spacingFactor: 1.05, animate: false }
    : { name: opts.layout || 'cose', animate: false, randomize: false, nodeRepulsion: 8000 };
  const cy = cytoscape({
    container,
    elements,
    layout,
    wheelSensitivity: 0.3,
    style: [
      { selector: 'node', style: { label: 'data(label)', 'text-wrap': 'wrap', 'text-valign': 'center', 'text-halign': 'center', color: '#fff', 'font-size': 11, width: 34, height: 34, 'background-color': '#90a4ae', 'border-width': 1, 'border-color': '#455a64' } },
      { selector: 'node.W', style: { 'background-color': '#43a047' } },
      { selector: 'node.L', style: { 'background-color': '#e53935' } },
      { selector: 'node.D', style: { 'background-color': '#9e9e9e' } },
      { selector: 'node.out', style: { 'background-color': '#fff', color: '#263238' } },
      { selector: 'node.in', style: { 'background-color': '#2e7d32', color: '#fff' } },
      { selector: 'node.alpha', style: { 'background-color': '#1565c0', color: '#fff' } },
      { selector: 'node.beta', style: { 'background-color': '#6a1b9a', color: '#fff' } },
      { selector: 'node.target', style: { 'border-width': 4, 'border-color': '#ffb300' } },
      { selector: 'node.here', style: { 'border-width': 6, 'border-color': '#1e88e5' } },
      { selector: 'edge', style: { width: 1.5, 'curve-style': 'bezier', 'target-arrow-shape': 'triangle', 'line-color': '#90a4ae', 'target-arrow-color': '#90a4ae', 'arrow-scale': 0.9 } },
      { selector: 'edge.pv', style: { width: 4, 'line-color': '#1e88e5', 'target-arrow-color': '#1e88e5' } },
    ],
  });
  if (opts.onTap) cy.on('tap', 'node', (e) => opts.onTap(e.target.data('v')));
  // Drawn in a hidden view: laid out again once the view is shown.
  cy.scratch('layout', layout);
  cy.scratch('hidden', container.offsetWidth === 0);
  return cy;
}

function relayout(cy) {
  if (!cy) return;
  cy.resize();
  if (cy.scratch('hidden')) {
    cy.scratch('hidden', false);
    cy.layout(cy.scratch('layout')).run();
  }
}

/** A body for a graph view: the uploaded binary file, or the text area. */
function graphBody(prefix, state) {
  return state.binary && $(`${prefix}-input`).value === state.binaryNote ? state.binary : $(`${prefix}-input`).value;
}

function wireUpload(prefix, state) {
  $(`${prefix}-file`).addEventListener('change', async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    const buf = await f.arrayBuffer();
    let text = null;
    try { text = new TextDecoder('utf-8', { fatal: true }).decode(buf); } catch (_) { text = null; }
    if (text !== null && !text.includes('\0')) {
      state.binary = null;
      $(`${prefix}-input`).value = text;
    } else {
      state.binary = buf;
      state.binaryNote = `(binary file ${f.name}, ${buf.byteLength} bytes)`;
      $(`${prefix}-input`).value = state.binaryNote;
    }
  });
}

// ---------------------------------------------------------------------------------------
// Graph game

const graph = { n: 0, arcs: [], succ: [], table: [], start: null, cy: null, game: null, history: [] };

async function solveGraph() {
  showError('graph', null);
  for (const id of ['graph-summary', 'graph-turn', 'graph-pv', 'graph-result', 'graph-hint-text']) setText(id, '');
  $('graph-log').replaceChildren();
  $('graph-moves').replaceChildren();
  graph.game = null;
  const body = graphBody('graph', graph);
  const format = $('graph-format').value;
  const start = $('graph-start').value.trim();
  try {
    const info = await api('info', { format }, body);
    const retro = await api('retro', { all: true, start, format }, body);
    graph.n = info.vertices;
    graph.table = retro.all;
    graph.start = retro.start ? retro.start.vertex : null;
    graph.arcs = parseArcs(await api('convert', { to: 'arcs', format }, body));
    graph.succ = Array.from({ length: graph.n + 1 }, () => []);
    for (const [u, v] of graph.arcs) graph.succ[u].push(v);
    const c = retro.counts;
    let s = `${retro.vertices} vertices, ${retro.arcs} arcs: ${c.win} W, ${c.loss} L, ${c.draw} D.`;
    if (retro.start) {
      const st = retro.start;
      s += ` From the start ${st.vertex}: ${outcomeWord[st.outcome]} for the player to move` +
        (st.depth !== null ? ` in ${plies(st.depth)}` : '') + ` (answer ${retro.answer}).`;
    }
    setText('graph-summary', s);
    renderGraphTable();
    if (graph.cy) graph.cy.destroy();
    graph.cy = null;
    if (graph.n <= MAX_DRAWN) {
      $('graph-cy').style.display = '';
      graph.cy = drawGraph($('graph-cy'), graph.n, graph.arcs, {
        label: (v) => { const r = graph.table[v - 1]; return `${v}\n${r.outcome}${r.depth ?? ''}`; },
        classes: (v) => graph.table[v - 1].outcome,
        layout: graph.n <= 40 && reachesAll(graph.start) ? 'breadthfirst' : 'cose',
        roots: graph.start ? `#n${graph.start}` : undefined,
        onTap: tapVertex,
      });
    } else {
      $('graph-cy').style.display = 'none';
      setText('graph-summary', `${s} Too large to draw (more than ${MAX_DRAWN} vertices): search the table.`);
    }
    if (graph.start) startGraphGame(graph.start);
  } catch (e) {
    showError('graph', e);
  }
}

/** Whether every vertex can be reached from `start` (then the drawing is a tree of levels). */
function reachesAll(start) {
  if (!start) return false;
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length) for (const w of graph.succ[todo.pop()]) if (!seen.has(w)) { seen.add(w); todo.push(w); }
  return seen.size === graph.n;
}

const plies = (n) => `${n} ${n === 1 ? 'ply' : 'plies'}`;

function renderGraphTable() {
  const q = $('graph-search').value.trim().toUpperCase();
  const rows = [];
  for (const r of graph.table) {
    if (rows.length >= 200) break;
    if (q && String(r.vertex) !== q && r.outcome !== q) continue;
    rows.push(el('tr', {},
      el('td', { class: 'vertex', onclick: () => startGraphGame(r.vertex) }, String(r.vertex)),
      el('td', { class: r.outcome }, r.outcome), el('td', {}, r.depth ?? '-'), el('td', {}, r.move ?? '-')));
  }
  $('graph-table').tBodies[0].replaceChildren(...rows);
}

function tapVertex(v) {
  const g = graph.game;
  if (g && !g.over && g.me && graph.succ[g.pos].includes(v)) playerGraphMove(v);
  else startGraphGame(v);
}

function startGraphGame(v) {
  graph.game = { pos: v, me: $('graph-first').value === 'me', seen: new Set(), over: false };
  graph.history = [];
  $('graph-log').replaceChildren();
  logLine('graph-log', `start at ${v}`);
  setText('graph-result', '');
  setText('graph-hint-text', '');
  graphStep();
}

function graphStep() {
  const g = graph.game;
  const key = `${g.pos}|${g.me}`;
  const succ = graph.succ[g.pos];
  showGraphPosition(succ);
  if (g.seen.has(key)) return endGraphGame(`draw: the position repeats with ${who(g.me)} to move`);
  g.seen.add(key);
  if (succ.length === 0) return endGraphGame(endLine(g.me, false));
  if (!g.me) {
    setTimeout(() => {
      if (graph.game !== g) return;
      const w = graph.table[g.pos - 1].move;
      logLine('graph-log', `engine: ${w}`);
      g.pos = w;
      g.me = true;
      graphStep();
    }, 150);
  }
}

function endGraphGame(line) {
  graph.game.over = true;
  setText('graph-result', line);
  setText('graph-turn', `game over at ${graph.game.pos}`);
  $('graph-moves').replaceChildren();
}

function showGraphPosition(succ) {
  const g = graph.game;
  const r = graph.table[g.pos - 1];
  setText('graph-turn', `at ${g.pos} (${who(g.me)} to move): ${outcomeWord[r.outcome]} for the player to move` +
    (r.depth !== null ? ` in ${plies(r.depth)}` : ''));
  $('graph-moves').replaceChildren(...(g.me ? [...new Set(succ)].slice(0, 100).map((w) =>
    el('button', { 'data-v': String(w), onclick: () => playerGraphMove(w) }, String(w))) : []));
  // The principal variation from here, by the best moves of the table.
  const line = [g.pos];
  const seen = new Set([g.pos]);
  let end = 'no move';
  for (let v = g.pos; graph.table[v - 1].move !== null;) {
    v = graph.table[v - 1].move;
    if (seen.has(v)) { end = `repeats ${v}`; line.push(v); break; }
    seen.add(v);
    line.push(v);
    if (line.length > 60) { end = '…'; break; }
  }
  setText('graph-pv', `${line.map((v) => `${v} ${graph.table[v - 1].outcome}`).join(' → ')} (${end})`);
  if (graph.cy) {
    graph.cy.nodes().removeClass('here target');
    graph.cy.edges().removeClass('pv');
    graph.cy.$(`#n${g.pos}`).addClass('here');
    if (g.me) for (const w of succ) graph.cy.$(`#n${w}`).addClass('target');
    for (let i = 0; i + 1 < line.length; i++) graph.cy.edges(`[source = "n${line[i]}"][target = "n${line[i + 1]}"]`).addClass('pv');
  }
}

function playerGraphMove(w) {
  const g = graph.game;
  if (!g || g.over || !g.me) return;
  if (!graph.succ[g.pos].includes(w)) { setText('graph-hint-text', `illegal move: there is no move from ${g.pos} to ${w}`); return; }
  graph.history.push({ pos: g.pos, seen: new Set(g.seen), log: $('graph-log').children.length });
  logLine('graph-log', `you: ${w}`);
  setText('graph-hint-text', '');
  g.pos = w;
  g.me = false;
  graphStep();
}

function graphHint() {
  const g = graph.game;
  if (!g || g.over) return;
  const r = graph.table[g.pos - 1];
  const text = { W: `${r.move} wins in ${plies(r.depth)}`, L: `every move loses; ${r.move} lasts longest (${plies(r.depth)})`, D: `${r.move} keeps the draw` }[r.outcome];
  setText('graph-hint-text', `hint: ${text}`);
}

function graphUndo() {
  const h = graph.history.pop();
  if (!h) return;
  const g = graph.game;
  Object.assign(g, { pos: h.pos, me: true, over: false, seen: h.seen });
  g.seen.delete(`${h.pos}|true`);
  const log = $('graph-log');
  while (log.children.length > h.log) log.lastChild.remove();
  setText('graph-result', '');
  graphStep();
}

// ---------------------------------------------------------------------------------------
// Tab board

const tab = { rows: 0, cols: 0, game: null, history: [] };

async function solveTab() {
  showError('tab', null);
  for (const id of ['tab-summary', 'tab-turn', 'tab-result', 'tab-hint-text']) setText(id, '');
  $('tab-log').replaceChildren();
  $('tab-board').replaceChildren();
  tab.game = null;
  const rows = $('tab-rows').value.trim();
  const cols = $('tab-cols').value.trim();
  const at = $('tab-at').value.trim();
  try {
    const small = /^\d+$/.test(rows) && Number(rows) <= 200 && Number(cols) <= 50;
    if (at || !small) {
      if (!at) throw new Error(`boards above 200 x 50 are not drawn: give a cell X,Y to answer`);
      const out = await api('tab', { rows, cols, at }, '');
      const c = out.cell;
      setText('tab-summary', `cell (${c.x},${c.y}) of ${out.rows} x ${out.cols}: d = ${c.d} (${c.outcome} for the player to move, ${plies(c.depth)})`);
      if (!small) return;
    }
    const out = await api('tab', { rows, cols, board: true }, '');
    tab.rows = out.rows;
    tab.cols = out.cols;
    tab.d = out.board;
    renderBoard();
    if (!at) setText('tab-summary', `${out.rows} x ${out.cols} board: click a cell to play from it.`);
  } catch (e) {
    showError('tab', e);
  }
}

const tabTargets = (x, y) => {
  const t = [];
  for (let k = 1; k <= tab.cols; k++) if (k !== y && x + k <= tab.rows) t.push([x + k, k]);
  return t;
};

function renderBoard() {
  const table = el('table', { id: 'tab-grid' });
  for (let i = 0; i < tab.rows; i++) {
    const x = tab.rows - i;
    const tr = el('tr', {}, el('th', {}, String(x)));
    for (let y = 1; y <= tab.cols; y++) {
      const d = tab.d[i][y - 1];
      tr.append(el('td', { id: `cell-${x}-${y}`, class: d === 0 ? 'loss' : 'win', title: `(${x},${y}) d = ${d}`, onclick: () => tapCell(x, y) }, String(d)));
    }
    table.append(tr);
  }
  const foot = el('tr', {}, el('th', {}, ''));
  for (let y = 1; y <= tab.cols; y++) foot.append(el('th', {}, String(y)));
  table.append(foot);
  $('tab-board').replaceChildren(table);
}

function tapCell(x, y) {
  const g = tab.game;
  if (g && !g.over && g.me && tabTargets(g.x, g.y).some(([a, b]) => a === x && b === y)) return playerTabMove(y);
  tab.game = { x, y, me: $('tab-first').value === 'me', over: false };
  tab.history = [];
  $('tab-log').replaceChildren();
  logLine('tab-log', `start at (${x},${y})`);
  setText('tab-result', '');
  setText('tab-hint-text', '');
  tabStep();
}

function showTabPosition() {
  const g = tab.game;
  document.querySelectorAll('#tab-grid td').forEach((td) => td.classList.remove('piece', 'target'));
  $(`cell-${g.x}-${g.y}`).classList.add('piece');
  const targets = tabTargets(g.x, g.y);
  if (g.me && !g.over) for (const [a, b] of targets) $(`cell-${a}-${b}`).classList.add('target');
  setText('tab-turn', `cell (${g.x},${g.y}) (${who(g.me)} to move): columns ${targets.map((t) => t[1]).join(', ') || 'none'}`);
  return targets;
}

async function engineTabCell(g) {
  const out = await api('tab', { rows: tab.rows, cols: tab.cols, at: `${g.x},${g.y}`, line: true, 'max-plies': 1 }, '');
  return out;
}

async function tabStep() {
  const g = tab.game;
  const targets = showTabPosition();
  if (targets.length === 0) {
    g.over = true;
    showTabPosition();
    setText('tab-result', endLine(g.me, false));
    return;
  }
  if (!g.me) {
    try {
      const out = await engineTabCell(g);
      if (tab.game !== g) return;
      const next = out.line[1];
      logLine('tab-log', `engine: column ${next.y} -> (${next.x},${next.y})`);
      Object.assign(g, { x: next.x, y: next.y, me: true });
      tabStep();
    } catch (e) { showError('tab', e); }
  }
}

function playerTabMove(k) {
  const g = tab.game;
  tab.history.push({ x: g.x, y: g.y, log: $('tab-log').children.length });
  logLine('tab-log', `you: column ${k} -> (${g.x + k},${k})`);
  setText('tab-hint-text', '');
  Object.assign(g, { x: g.x + k, y: k, me: false });
  tabStep();
}

async function tabHint() {
  const g = tab.game;
  if (!g || g.over) return;
  try {
    const out = await engineTabCell(g);
    const c = out.cell;
    const k = out.line[1].y;
    setText('tab-hint-text', c.d === 0 ? `hint: every move loses; column ${k} lasts longest (${plies(c.depth)})`
      : `hint: column ${k} wins in ${c.d} of your moves (${plies(c.depth)})`);
  } catch (e) { showError('tab', e); }
}

function tabUndo() {
  const h = tab.history.pop();
  if (!h) return;
  Object.assign(tab.game, { x: h.x, y: h.y, me: true, over: false });
  const log = $('tab-log');
  while (log.children.length > h.log) log.lastChild.remove();
  setText('tab-result', '');
  tabStep();
}

// ---------------------------------------------------------------------------------------
// Heaps

const heaps = { sizes: [], max: null, misere: false, game: null, history: [], steps: [], shown: 0, pending: new Map() };

/** Moore's k when above 1: a move then takes from up to k heaps at once. */
const mooreK = () => (/^\d+$/.test(heaps.moore) && Number(heaps.moore) > 1 ? Number(heaps.moore) : 0);
const takes = (moves) => moves.map(([i, t]) => `take ${t} from heap ${i + 1}`).join(', ');

const list = (s) => s.split(/[\s,]+/).filter((x) => x !== '');

function heapParams(sizes) {
  return { heaps: sizes.join(','), max: heaps.max ? heaps.max.join(',') : '', misere: heaps.misere, moore: heaps.moore };
}

async function newHeapGame() {
  showError('heaps', null);
  for (const id of ['heaps-turn', 'heaps-result', 'heaps-hint-text', 'heaps-explain']) setText(id, '');
  $('heaps-log').replaceChildren();
  $('heaps-board').replaceChildren();
  heaps.game = null;
  heaps.pending.clear();
  const sizes = list($('heaps-sizes').value);
  const max = list($('heaps-max').value);
  heaps.max = max.length ? max : null;
  heaps.misere = $('heaps-misere').checked;
  heaps.moore = $('heaps-moore').value.trim();
  try {
    if (sizes.some((s) => !/^\d+$/.test(s))) throw new Error('heap sizes are numbers separated by commas');
    await api('nim', heapParams(sizes), '');
    heaps.game = { sizes: sizes.map(BigInt), me: $('heaps-first').value === 'me', over: false };
    heaps.history = [];
    logLine('heaps-log', `start: heaps ${sizes.join(', ')}`);
    heapStep();
  } catch (e) {
    showError('heaps', e);
  }
}

function limit(i) { return heaps.max ? BigInt(heaps.max[i]) : null; }

function renderHeaps() {
  const g = heaps.game;
  const rows = g.sizes.map((n, i) => {
    const lim = limit(i);
    const row = el('div', { class: 'heap', id: `heap-${i + 1}` },
      el('span', { class: 'label' }, `heap ${i + 1}: ${n}${lim !== null ? ` (take ≤ ${lim})` : ''}`));
    if (n <= 60n) {
      for (let j = 0; j < Number(n); j++) {
        const take = n - BigInt(j);
        const b = el('button', { class: 'obj', 'data-heap': String(i + 1), 'data-take': String(take), title: `take ${take}`, onclick: () => playerHeapMove(i, take) });
        b.addEventListener('mouseenter', () => row.querySelectorAll('.obj').forEach((o, k) => o.classList.toggle('hot', k >= j)));
        b.addEventListener('mouseleave', () => row.querySelectorAll('.obj').forEach((o) => o.classList.remove('hot')));
        if (heaps.pending.has(i) && take <= heaps.pending.get(i)) b.classList.add('picked');
        row.append(b);
      }
    } else {
      const inp = el('input', { size: '8', id: `heap-take-${i + 1}` });
      row.append(el('span', { class: 'big' }, 'take '), inp,
        el('button', { onclick: () => /^\d+$/.test(inp.value) && playerHeapMove(i, BigInt(inp.value)) }, 'take'));
    }
    return row;
  });
  $('heaps-board').replaceChildren(...rows);
}

async function heapStep() {
  const g = heaps.game;
  renderHeaps();
  const sizes = g.sizes.map(String);
  const k = mooreK();
  $('heaps-take').style.display = k ? '' : 'none';
  setText('heaps-turn', `heaps ${sizes.join(', ')} (${who(g.me)} to move)${k ? `: take from up to ${k} heaps, then press Take` : ''}`);
  try {
    const ans = await api('nim', { ...heapParams(sizes), explain: true }, '');
    heaps.answer = ans;
    heaps.steps = ans.explain.trimEnd().split('\n');
    heaps.shown = 1;
    showSteps();
  } catch (e) { showError('heaps', e); return; }
  if (g.sizes.every((n) => n === 0n)) {
    g.over = true;
    setText('heaps-result', endLine(g.me, heaps.misere));
    return;
  }
  if (!g.me) {
    setTimeout(() => {
      if (heaps.game !== g) return;
      let moves = heaps.answer.moves.map((m) => [m.heap - 1, BigInt(m.take)]);
      if (moves.length === 0) {
        // A lost position: delay by taking one object from the largest heap.
        let i = 0;
        g.sizes.forEach((n, j) => { if (n > g.sizes[i]) i = j; });
        moves = [[i, 1n]];
      }
      logLine('heaps-log', `engine: ${takes(moves)}`);
      for (const [i, t] of moves) g.sizes[i] -= t;
      g.me = true;
      heapStep();
    }, 150);
  }
}

function playerHeapMove(i, take) {
  const g = heaps.game;
  if (!g || g.over || !g.me) return;
  const lim = limit(i);
  if (take > g.sizes[i]) { setText('heaps-hint-text', `illegal move: heap ${i + 1} has only ${g.sizes[i]} objects`); return; }
  if (lim !== null && take > lim) { setText('heaps-hint-text', `illegal move: at most ${lim} may be taken from heap ${i + 1}`); return; }
  if (take === 0n) return;
  const k = mooreK();
  if (!k) return commitHeapMove([[i, take]]);
  // Moore's game: pick from up to k heaps, then press Take.
  if (heaps.pending.get(i) === take) heaps.pending.delete(i);
  else if (heaps.pending.size < k || heaps.pending.has(i)) heaps.pending.set(i, take);
  else { setText('heaps-hint-text', `illegal move: a move takes from at most ${k} heaps`); return; }
  setText('heaps-hint-text', heaps.pending.size ? `picked: ${takes([...heaps.pending])}` : '');
  renderHeaps();
}

function commitHeapMove(moves) {
  const g = heaps.game;
  if (!g || g.over || !g.me || moves.length === 0) return;
  heaps.pending.clear();
  heaps.history.push({ sizes: [...g.sizes], log: $('heaps-log').children.length });
  logLine('heaps-log', `you: ${takes(moves)}`);
  setText('heaps-hint-text', '');
  for (const [i, t] of moves) g.sizes[i] -= t;
  g.me = false;
  heapStep();
}

function heapHint() {
  const a = heaps.answer;
  if (!a || !heaps.game || heaps.game.over) return;
  const moves = takes(a.moves.map((m) => [m.heap - 1, m.take]));
  const values = mooreK() ? `heap sizes ${a.values.join(', ')}` : `heap values ${a.values.join(', ')}, digit sum ${a.digit_sum}`;
  setText('heaps-hint-text', moves ? `hint: ${values}: ${moves} wins` : `hint: ${values}: every move loses`);
}

function heapUndo() {
  const h = heaps.history.pop();
  if (!h) return;
  heaps.pending.clear();
  Object.assign(heaps.game, { sizes: h.sizes, me: true, over: false });
  const log = $('heaps-log');
  while (log.children.length > h.log) log.lastChild.remove();
  setText('heaps-result', '');
  heapStep();
}

function showSteps() { setText('heaps-explain', heaps.steps.slice(0, heaps.shown).join('\n')); }

// ---------------------------------------------------------------------------------------
// Kernels

const kernel = { n: 0, kernels: [], at: 0, cy: null };

async function solveKernel() {
  showError('kernel', null);
  for (const id of ['kernel-summary', 'kernel-which', 'kernel-set', 'kernel-why', 'kernel-alpha-text', 'kernel-beta-text']) setText(id, '');
  const body = graphBody('kernel', kernel);
  try {
    const info = await api('info', {}, body);
    kernel.n = info.vertices;
    const all = await api('kernel', { all: true, limit: 1000 }, body);
    const why = await api('kernel', { explain: true }, body);
    const count = all.complete ? all.kernels.length : (await api('kernel', { count: true }, body)).count;
    kernel.kernels = all.kernels;
    kernel.at = 0;
    kernel.alpha = await api('kernel', { alpha: true }, body);
    kernel.beta = await api('kernel', { beta: true }, body);
    setText('kernel-summary', `${info.vertices} vertices, ${info.arcs} arcs: ${count} kernel${count === 1 ? '' : 's'}.`);
    setText('kernel-why', why.explanation ? `decided by: ${why.explanation.decided}` : '');
    if (kernel.cy) kernel.cy.destroy();
    kernel.cy = null;
    if (kernel.n <= MAX_DRAWN) {
      const arcs = parseArcs(await api('convert', { to: 'arcs' }, body));
      kernel.cy = drawGraph($('kernel-cy'), kernel.n, arcs, { label: (v) => String(v), classes: () => 'out', layout: 'cose' });
    }
    showKernel();
  } catch (e) {
    showError('kernel', e);
  }
}

function highlight(set, cls) {
  if (!kernel.cy) return;
  kernel.cy.nodes().removeClass('in alpha beta').addClass('out');
  for (const v of set) kernel.cy.$(`#n${v}`).removeClass('out').addClass(cls);
}

const braces = (set) => `{${set.join(', ')}}`;

function showKernel() {
  const k = kernel.kernels;
  if (k.length === 0) {
    setText('kernel-which', 'no kernel');
    setText('kernel-set', '');
    highlight([], 'in');
    return;
  }
  setText('kernel-which', `kernel ${kernel.at + 1} of ${k.length}`);
  setText('kernel-set', braces(k[kernel.at]));
  highlight(k[kernel.at], 'in');
}

function stepKernel(d) {
  if (kernel.kernels.length === 0) return;
  kernel.at = (kernel.at + d + kernel.kernels.length) % kernel.kernels.length;
  showKernel();
}

function showStable(which) {
  const a = kernel[which];
  if (!a) return;
  const sym = which === 'alpha' ? 'α' : 'β';
  const what = which === 'alpha' ? 'a maximum internally stable set' : 'a minimum externally stable set';
  setText(`kernel-${which}-text`, `${sym} = ${a[which]}: ${what} ${braces(a.set)}`);
  highlight(a.set, which);
}

// ---------------------------------------------------------------------------------------
// Octal and subtraction games

async function solveOctal() {
  showError('octal', null);
  setText('octal-summary', '');
  setText('octal-values', '');
  $('octal-plot').replaceChildren();
  const kind = $('octal-kind').value;
  const game = $('octal-code').value.trim();
  const upto = $('octal-upto').value.trim() || '100';
  const params = kind === 'octal' ? { code: game, upto, period: true } : { set: game, upto, period: true, misere: $('octal-misere').checked };
  try {
    const out = await api(kind, params, '');
    const p = out.period;
    const name = kind === 'octal' ? `octal game ${out.game}` : `subtraction game {${out.game}}`;
    setText('octal-summary', p
      ? `${name}: pre-period ${p.preperiod}, period ${p.period} (proven from the values up to ${p.values_needed - 1}; ${out.computed} values computed)`
      : `${name}: no period proven within the ${out.computed} values computed`);
    setText('octal-values', out.values.map((v, n) => `g(${n})=${v}`).join(' '));
    plotValues(out.values, p);
  } catch (e) {
    showError('octal', e);
  }
}

function plotValues(values, p) {
  const W = 960; const H = 300; const L = 40; const B = 30; const T = 30;
  const n = values.length;
  const top = Math.max(1, ...values);
  const x = (i) => L + (i + 0.5) * (W - L - 10) / n;
  const y = (v) => H - B - v * (H - B - T) / top;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  svg.setAttribute('width', W);
  svg.setAttribute('height', H);
  svg.setAttribute('id', 'octal-svg');
  if (p) {
    const pre = Math.min(p.preperiod, n);
    const left = x(0) - (W - L - 10) / n / 2;
    add('rect', { x: left, y: T, width: Math.max(0, x(pre) - x(0)), height: H - B - T, fill: '#fff3e0' });
    if (p.preperiod > 0) add('text', { x: left + 4, y: T - 4, 'font-size': 11, fill: '#e65100' }, `pre-period: g(0) … g(${p.preperiod - 1})`);
    if (p.preperiod < n) add('text', { x: x(pre), y: T - 4, 'font-size': 11, fill: '#e65100' }, `then period ${p.period}, marked every ${p.period} values`);
    for (let s = p.preperiod; s <= n; s += p.period) {
      add('line', { x1: x(s) - (W - L - 10) / n / 2, x2: x(s) - (W - L - 10) / n / 2, y1: T, y2: H - B, stroke: '#e65100', 'stroke-dasharray': '3 3', class: 'period-mark' });
    }
  }
  add('line', { x1: L, x2: W - 10, y1: H - B, y2: H - B, stroke: '#555' });
  add('line', { x1: L, x2: L, y1: T, y2: H - B, stroke: '#555' });
  for (let v = 0; v <= top; v += Math.max(1, Math.ceil(top / 8))) add('text', { x: L - 6, y: y(v) + 4, 'font-size': 10, 'text-anchor': 'end' }, String(v));
  const stepX = Math.max(1, Math.ceil(n / 20));
  for (let i = 0; i < n; i += stepX) add('text', { x: x(i), y: H - B + 14, 'font-size': 10, 'text-anchor': 'middle' }, String(i));
  add('text', { x: W / 2, y: H - 2, 'font-size': 11, 'text-anchor': 'middle' }, 'heap size n');
  add('text', { x: 4, y: T + 4, 'font-size': 11 }, 'g(n)');
  values.forEach((v, i) => {
    add('line', { x1: x(i), x2: x(i), y1: H - B, y2: y(v), stroke: '#90caf9', 'stroke-width': Math.max(1, (W - L) / n / 2) });
    add('circle', { cx: x(i), cy: y(v), r: n > 300 ? 1.5 : 3, fill: '#1565c0' }).append(
      Object.assign(document.createElementNS(ns, 'title'), { textContent: `g(${i}) = ${v}` }));
  });
  $('octal-plot').replaceChildren(svg);
}

// ---------------------------------------------------------------------------------------
// Navigation and wiring

function showView() {
  const name = (location.hash || '#graph').slice(1);
  document.querySelectorAll('.view').forEach((v) => v.classList.toggle('active', v.id === `view-${name}`));
  document.querySelectorAll('nav a').forEach((a) => a.classList.toggle('active', a.id === `nav-${name}`));
  if (name === 'graph') relayout(graph.cy);
  if (name === 'kernel') relayout(kernel.cy);
}

async function loadExamples() {
  const ex = await (await fetch('/assets/examples.json')).json();
  const fill = (id, items, input, solve) => {
    $(id).replaceChildren(...items.map((e, i) => el('option', { value: String(i) }, e.name)));
    const pick = () => { $(input).value = items[Number($(id).value)].text; };
    $(id).addEventListener('change', () => { pick(); solve(); });
    pick();
  };
  fill('graph-example', ex.graphs, 'graph-input', solveGraph);
  fill('kernel-example', ex.kernels, 'kernel-input', solveKernel);
  const oct = [['octal', '0.77', 'Kayles'], ['octal', '0.07', "Dawson's Kayles"], ['octal', '4.07', 'split and take'], ['octal', '0.6', 'no period known'], ['subtraction', '1,3,4', 'subtract 1, 3 or 4'], ['subtraction', '2,5,7', 'subtract 2, 5 or 7']];
  $('octal-example').replaceChildren(el('option', { value: '' }, 'examples…'), ...oct.map(([k, c, n], i) => el('option', { value: String(i) }, `${c} (${n})`)));
  $('octal-example').addEventListener('change', () => {
    const e = oct[Number($('octal-example').value)];
    if (!e) return;
    $('octal-kind').value = e[0];
    $('octal-code').value = e[1];
    solveOctal();
  });
}

function wire() {
  window.addEventListener('hashchange', showView);
  $('graph-solve').addEventListener('click', solveGraph);
  $('graph-search').addEventListener('input', renderGraphTable);
  $('graph-hint').addEventListener('click', graphHint);
  $('graph-undo').addEventListener('click', graphUndo);
  $('graph-restart').addEventListener('click', () => graph.start && startGraphGame(graph.start));
  wireUpload('graph', graph);
  $('tab-solve').addEventListener('click', solveTab);
  $('tab-hint').addEventListener('click', tabHint);
  $('tab-undo').addEventListener('click', tabUndo);
  $('heaps-start').addEventListener('click', newHeapGame);
  $('heaps-hint').addEventListener('click', heapHint);
  $('heaps-take').addEventListener('click', () => commitHeapMove([...heaps.pending]));
  $('heaps-undo').addEventListener('click', heapUndo);
  $('heaps-step').addEventListener('click', () => { heaps.shown = Math.min(heaps.steps.length, heaps.shown + 1); showSteps(); });
  $('heaps-all').addEventListener('click', () => { heaps.shown = heaps.steps.length; showSteps(); });
  $('kernel-solve').addEventListener('click', solveKernel);
  $('kernel-prev').addEventListener('click', () => stepKernel(-1));
  $('kernel-next').addEventListener('click', () => stepKernel(1));
  $('kernel-alpha').addEventListener('click', () => showStable('alpha'));
  $('kernel-beta').addEventListener('click', () => showStable('beta'));
  wireUpload('kernel', kernel);
  $('octal-solve').addEventListener('click', solveOctal);
  showView();
}

window.gg = { graph, tab, heaps, kernel };
wire();
// Every view opens with its first example answered.
loadExamples()
  .then(() => Promise.all([solveGraph(), solveTab(), newHeapGame(), solveKernel(), solveOctal()]))
  .finally(() => { document.body.dataset.ready = 'true'; });
