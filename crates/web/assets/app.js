// The gamegraph page: one view per game family. Every answer comes from the server's
// /api/<command>, which returns exactly the JSON of `gamegraph <command> --json`.
'use strict';

// Script errors are kept for the browser tests, which check that there were none.
window.ggErrors = [];
window.addEventListener('error', (e) => window.ggErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.ggErrors.push(String(e.reason)));

const $ = (id) => document.getElementById(id);
const MAX_DRAWN = 500;

/**
 * JSON.parse, except that an integer beyond 2^53 becomes a BigInt instead of a rounded
 * double: the API's integers (tab board answers, heap sizes) are exact u64s.
 */
function parseJSON(text) {
  let i = 0;
  const fail = () => { throw new Error(`the server's answer is not JSON (at character ${i})`); };
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o = {};
      ws();
      if (text[i] === '}') { i++; return o; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const k = string();
        ws();
        if (text[i++] !== ':') fail();
        o[k] = value();
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] !== '}') fail();
        return o;
      }
    }
    if (c === '[') {
      i++;
      const a = [];
      ws();
      if (text[i] === ']') { i++; return a; }
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] !== ']') fail();
        return a;
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m[0].length;
    const n = Number(m[0]);
    return !m[1] && !m[2] && !Number.isSafeInteger(n) ? BigInt(m[0]) : n;
  };
  const string = () => {
    const start = i;
    i++;
    while (text[i] !== '"') { if (i >= text.length) fail(); i += text[i] === '\\' ? 2 : 1; }
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}

/** POST `body` to /api/`cmd` with the query `params` (empty values left out; an array
 * gives the parameter once per item). */
async function api(cmd, params, body, signal) {
  const q = new URLSearchParams();
  for (const [k, value] of Object.entries(params || {})) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null && v !== '' && v !== false) q.append(k, String(v));
    }
  }
  const r = await fetch(`/api/${cmd}?${q}`, { method: 'POST', body: body ?? '', signal });
  const text = await r.text();
  if (!r.ok) {
    let msg = text;
    try { msg = JSON.parse(text).error; } catch (_) { /* not JSON */ }
    throw new Error(pageWords(msg));
  }
  return cmd === 'convert' ? text : parseJSON(text);
}

/** The page's names of the command-line flags its fields fill. */
const FIELDS = {
  start: 'Start', format: 'Format', rows: 'Rows N', cols: 'Columns M', at: 'Cell X,Y',
  heaps: 'Heaps', max: 'Take at most', moore: "Moore's k", upto: 'Values up to', code: 'Code or set',
  set: 'Code or set', move: 'the move', tab: 'the board',
};

/** A message of the command line, said in the page's words (its fields, not its flags). */
function pageWords(msg) {
  let m = String(msg);
  m = m.replace(/<stdin>:(\d+):(\d+):\s*/g, 'line $1, column $2 of the input: ');
  m = m.replace(/<stdin>:(\d+):\s*/g, 'line $1 of the input: ');
  m = m.replace(/<stdin>:?\s*/g, 'the input: ');
  m = m.replace(/invalid value '([^']*)' for '--([\w-]+)[^']*': (.*)/, (_, v, f, why) =>
    `${FIELDS[f] || f}: "${v}" is not valid (${why.replace('invalid digit found in string', 'not a whole number')})`);
  m = m.replace(/--format (\w+) reads the file as an arc list/, 'choose "$1" in the Format menu to read it as an arc list');
  m = m.replace(/give the format with --format (\w+) or --format (\w+)/, 'choose "$1" or "$2" in the Format menu');
  m = m.replace(/`--format (\w+)`/g, 'Format "$1"').replace(/--format (\w+)/g, 'Format "$1"');
  m = m.replace(/--start V/g, 'the Start field').replace(/--start (\d+)/g, 'Start $1');
  m = m.replace(/the solve passed the time limit of ([\d.]+) s \(start the server with a larger --time-limit\)/,
    'this takes longer than the server allows ($1 s)');
  // The page has no field for the CLI's vertex limit: its advice does not apply here.
  m = m.replace(/: pass --max-vertices \d+ to read it/, '');
  m = m.replace(/--(rows|cols|at|heaps|max|moore|upto)\b(?!-)/g, (_, f) => FIELDS[f]);
  return m;
}

/** Checks that field `id` holds a whole number; returns it as text. */
function wholeNumber(id, label, optional) {
  const v = $(id).value.trim();
  if (v === '' && optional) return '';
  if (!/^\d+$/.test(v)) throw new Error(`${label} is a whole number, not "${v}"`);
  return v;
}

// ---------------------------------------------------------------------------------------
// Work in progress: one request at a time per view, with the button disabled, a busy line
// with Cancel, and the previous answer greyed out (and cleared if the new one fails).

const running = {};

async function busy(view, button, clear, work, clearFirst) {
  if (running[view]) running[view].abort();
  // A new game replaces the old one at once; a new answer greys the old one until it comes.
  if (clearFirst) clear();
  const ctrl = new AbortController();
  running[view] = ctrl;
  const section = $(`view-${view}`);
  section.classList.add('working');
  $(`${view}-busy`).hidden = false;
  $(button).disabled = true;
  showError(view, null);
  try {
    await work(ctrl.signal);
  } catch (e) {
    if (running[view] !== ctrl) return;
    clear();
    showError(view, ctrl.signal.aborted ? new Error('cancelled: the previous answer was cleared') : e);
  } finally {
    if (running[view] === ctrl) {
      running[view] = null;
      section.classList.remove('working');
      $(`${view}-busy`).hidden = true;
      $(button).disabled = false;
    }
  }
}

function addBusyLine(view) {
  const line = el('p', { id: `${view}-busy`, class: 'busy' }, 'working… ',
    el('button', { id: `${view}-cancel`, onclick: () => running[view] && running[view].abort() }, 'Cancel'));
  line.hidden = true;
  $(`${view}-error`).before(line);
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
const outcomeWord = { W: 'win', L: 'loss', T: 'tie', D: 'draw' };
const SHORT = { win: 'W', loss: 'L', tie: 'T', draw: 'D' };

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
      { selector: 'edge.around', style: { 'curve-style': 'unbundled-bezier', 'control-point-distances': 'data(bend)', 'control-point-weights': 0.5 } },
      { selector: 'edge.pv', style: { width: 4, 'line-color': '#1e88e5', 'target-arrow-color': '#1e88e5' } },
    ],
  });
  if (opts.onTap) cy.on('tap', 'node', (e) => opts.onTap(e.target.data('v')));
  cy.on('layoutstop', () => { curveAround(cy); fitReadable(cy); });
  curveAround(cy);
  fitReadable(cy);
  // Drawn in a hidden view: laid out again once the view is shown.
  cy.scratch('layout', layout);
  cy.scratch('hidden', container.offsetWidth === 0);
  return cy;
}

/** Arcs whose straight line would pass under another vertex are bent around it. */
function curveAround(cy) {
  const nodes = cy.nodes().map((n) => ({ id: n.id(), p: n.position(), r: n.width() / 2 + 3 }));
  cy.edges().forEach((e) => {
    e.removeClass('around');
    const s = e.source(); const t = e.target();
    if (s.id() === t.id()) return;
    const a = s.position(); const b = t.position();
    const dx = b.x - a.x; const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy;
    if (len2 === 0) return;
    let worst = null;
    for (const n of nodes) {
      if (n.id === s.id() || n.id === t.id()) continue;
      const u = ((n.p.x - a.x) * dx + (n.p.y - a.y) * dy) / len2;
      if (u <= 0 || u >= 1) continue;
      const cx = a.x + u * dx - n.p.x; const cy2 = a.y + u * dy - n.p.y;
      const d = Math.sqrt(cx * cx + cy2 * cy2);
      if (d < n.r && (worst === null || d < worst.d)) worst = { d, side: dx * (n.p.y - a.y) - dy * (n.p.x - a.x) };
    }
    if (worst) {
      // Bend away from the vertex in the way, by more than its radius.
      e.data('bend', (worst.side > 0 ? -1 : 1) * 40);
      e.addClass('around');
    }
  });
}

/** Fits the graph in its box, but never below a zoom where labels are too small to read. */
function fitReadable(cy) {
  cy.fit(undefined, 30);
  if (cy.zoom() < 0.7) {
    cy.zoom(0.7);
    cy.center(cy.nodes('.here').length ? cy.nodes('.here') : cy.nodes().first());
  }
}

/** The drawing's box grows with the graph, within the window. */
function sizeDrawing(container, n) {
  const h = Math.max(360, Math.min(Math.round(window.innerHeight * 0.85), Math.round(110 * Math.sqrt(n))));
  container.style.height = `${h}px`;
}

function zoomButtons(prefix, get) {
  const box = el('div', { class: 'zoom' },
    el('button', { id: `${prefix}-fit`, title: 'show the whole graph', onclick: () => { const cy = get(); if (cy) cy.fit(undefined, 30); } }, 'Fit'),
    el('button', { id: `${prefix}-zoom-in`, title: 'zoom in', onclick: () => { const cy = get(); if (cy) cy.zoom({ level: cy.zoom() * 1.25, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } }); } }, '+'),
    el('button', { id: `${prefix}-zoom-out`, title: 'zoom out', onclick: () => { const cy = get(); if (cy) cy.zoom({ level: cy.zoom() / 1.25, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } }); } }, '−'));
  $(`${prefix}-cy`).before(box);
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

const graph = { n: 0, arcs: [], succ: [], table: [], start: null, cy: null, game: null };

function clearGraph() {
  for (const id of ['graph-summary', 'graph-turn', 'graph-pv', 'graph-result', 'graph-hint-text', 'graph-detected', 'graph-table-note']) setText(id, '');
  $('graph-log').replaceChildren();
  $('graph-moves').replaceChildren();
  $('graph-table').tBodies[0].replaceChildren();
  graph.game = null;
  graph.table = [];
  graph.n = 0;
  graph.start = null;
  $('graph-restart').disabled = true;
  if (graph.cy) graph.cy.destroy();
  graph.cy = null;
  $('graph-cy').style.display = 'none';
}

function solveGraph() {
  return busy('graph', 'graph-solve', clearGraph, async (signal) => {
    const body = graphBody('graph', graph);
    const format = $('graph-format').value;
    const start = $('graph-start').value.trim();
    if (start !== '' && !/^\d+$/.test(start)) throw new Error(`Start is a vertex number, not "${start}"`);
    const info = await api('info', { format }, body, signal);
    const retro = await api('retro', { all: true, start, format }, body, signal);
    const arcs = parseArcs(await api('convert', { to: 'arcs', format }, body, signal));
    clearGraph();
    setText('graph-detected', format ? `read as the ${format} format` : `format detected: ${info.format === 'header' ? 'header (N M, the start, then the arcs)' : info.format === 'arcs' ? 'an arc list (one arc u v per line)' : info.format}`);
    graph.n = info.vertices;
    // Outcomes come as words (win, loss, draw); the table and the drawing show letters.
    graph.table = retro.all.map((r) => ({ ...r, outcome: SHORT[r.outcome] }));
    graph.start = retro.start ? retro.start.vertex : null;
    graph.arcs = arcs;
    graph.succ = Array.from({ length: graph.n + 1 }, () => []);
    for (const [u, v] of graph.arcs) graph.succ[u].push(v);
    $('graph-restart').disabled = graph.start === null;
    $('graph-restart').title = graph.start === null ? 'this graph has no start vertex: click a vertex to play from it' : '';
    const c = retro.counts;
    let s = `${retro.vertices} vertices, ${retro.arcs} arcs: ${c.win} W, ${c.loss} L, ${c.draw} D.`;
    if (retro.start) {
      const st = retro.start;
      s += ` From the start ${st.vertex}: ${st.outcome} for the player to move` +
        (st.depth !== null ? ` in ${plies(st.depth)}` : '') + ` (answer ${retro.answer}).`;
    } else {
      s += ' The graph has no start vertex: click a vertex to play from it.';
    }
    setText('graph-summary', s);
    renderGraphTable();
    if (graph.n <= MAX_DRAWN) {
      $('graph-cy').style.display = '';
      sizeDrawing($('graph-cy'), graph.n);
      graph.cy = drawGraph($('graph-cy'), graph.n, graph.arcs, {
        label: (v) => { const r = graph.table[v - 1]; return `${v}\n${r.outcome}${r.depth ?? ''}`; },
        classes: (v) => graph.table[v - 1].outcome,
        layout: graph.n <= 40 && reachesAll(graph.start) ? 'breadthfirst' : 'cose',
        roots: graph.start ? `#n${graph.start}` : undefined,
        onTap: tapVertex,
      });
    } else {
      setText('graph-summary', `${s} Too large to draw (more than ${MAX_DRAWN} vertices): search the table.`);
    }
    if (graph.start) startGraphGame(graph.start);
  });
}

/** Whether every vertex can be reached from `start` (then the drawing is a tree of levels). */
function reachesAll(start) {
  if (!start) return false;
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length) for (const w of graph.succ[todo.pop()]) if (!seen.has(w)) { seen.add(w); todo.push(w); }
  return seen.size === graph.n;
}

const plies = (n) => `${n} ${Number(n) === 1 ? 'ply' : 'plies'}`;

const TABLE_ROWS = 200;

function renderGraphTable() {
  const q = $('graph-search').value.trim().toUpperCase();
  const rows = [];
  let matches = 0;
  for (const r of graph.table) {
    if (q && String(r.vertex) !== q && r.outcome !== q) continue;
    matches++;
    if (rows.length >= TABLE_ROWS) continue;
    rows.push(el('tr', {},
      el('td', { class: 'vertex', onclick: () => startGraphGame(r.vertex) }, String(r.vertex)),
      el('td', { class: r.outcome }, r.outcome), el('td', {}, r.depth ?? '-'), el('td', {}, r.move ?? '-')));
  }
  $('graph-table').tBodies[0].replaceChildren(...rows);
  setText('graph-table-note', matches > rows.length
    ? `showing the first ${rows.length} of ${matches} rows: search for a vertex id or W, L, D`
    : '');
}

function tapVertex(v) {
  const g = graph.game;
  if (g && g.view && !g.view.over && graphMine(g, g.view.ply)) {
    if (g.pending) return;
    if (g.view.moves.some((m) => m.name === String(v))) return playerGraphMove(String(v));
    const at = g.view.position;
    if (String(v) !== at) {
      setText('graph-hint-text', `${v} is not a move from ${at}: the ringed vertices are (press New game here to start from ${v})`);
      graph.pendingStart = v;
      $('graph-here').hidden = false;
    }
    return;
  }
  startGraphGame(v);
}

/** Whether the player at the keyboard moves at `ply`. */
const graphMine = (g, ply) => (ply % 2 === 0) === g.meFirst;

/** The position after `moves` from the game's start, from /api/play: its value, its moves
 * with theirs, the best one and the advice, and whether the game is over. */
const graphView = (g, moves) => api('play', { start: g.start, format: $('graph-format').value, move: moves }, graphBody('graph', graph));

function startGraphGame(v) {
  $('graph-here').hidden = true;
  graph.game = { start: v, meFirst: $('graph-first').value === 'me', moves: [], view: null, pending: false };
  setText('graph-result', '');
  setText('graph-hint-text', '');
  graphAdvance([]);
}

/** Asks for the position after `moves`; the engine answers its own turns. The player's
 * input waits for the last answer. */
async function graphAdvance(moves) {
  const g = graph.game;
  g.pending = true;
  try {
    let view = await graphView(g, moves);
    while (graph.game === g && !view.over && !graphMine(g, view.ply)) {
      showGraphPosition(g, view);
      await new Promise((done) => setTimeout(done, 150));
      moves = [...moves, view.best];
      view = await graphView(g, moves);
    }
    if (graph.game !== g) return;
    g.moves = moves;
    showGraphPosition(g, view);
  } catch (e) {
    showError('graph', e);
  } finally {
    g.pending = false;
  }
}

/** The line that ends a finished game on a graph, as `gamegraph play` words it: `result`
 * is the value for the player to move, who cannot move. */
function graphEnd(g, view) {
  const me = graphMine(g, view.ply);
  if (view.over === 'repeated') return `draw: the position repeats with ${who(me)} to move`;
  if (view.result === 'tie') return 'a tie: the game is over and nobody wins';
  if (view.result === 'loss') return endLine(me, false);
  return me ? 'you win' : 'the engine wins';
}

function showGraphPosition(g, view) {
  g.view = view;
  const me = graphMine(g, view.ply);
  const pos = Number(view.position);
  $('graph-log').replaceChildren(el('li', {}, `start at ${g.start}`),
    ...view.history.slice(1).map((h, i) => el('li', {}, `${graphMine(g, i) ? 'you' : 'engine'}: ${h.played}`)));
  if (view.over) {
    setText('graph-result', graphEnd(g, view));
    setText('graph-turn', `game over at ${pos}`);
  } else {
    setText('graph-result', '');
    setText('graph-turn', `at ${pos} (${who(me)} to move): ${view.outcome} for the player to move` +
      (view.remoteness !== null ? ` in ${plies(view.remoteness)}` : ''));
  }
  const mine = me && !view.over;
  $('graph-moves').replaceChildren(...(mine ? view.moves.slice(0, 100).map((m) =>
    el('button', { 'data-v': m.name, class: m.outcome, title: `${valueWords(m.outcome, m.remoteness)} for you`, onclick: () => playerGraphMove(m.name) },
      `${m.name}${m.name === view.best ? ' ★' : ''}`)) : []));
  // The principal variation from here, by the best moves of the table.
  const line = [pos];
  const seen = new Set([pos]);
  let end = 'no move';
  for (let v = pos; graph.table[v - 1].move !== null;) {
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
    graph.cy.$(`#n${pos}`).addClass('here');
    if (mine) for (const m of view.moves) graph.cy.$(`#n${m.name}`).addClass('target');
    for (let i = 0; i + 1 < line.length; i++) graph.cy.edges(`[source = "n${line[i]}"][target = "n${line[i + 1]}"]`).addClass('pv');
  }
}

function playerGraphMove(name) {
  const g = graph.game;
  if (!g || g.pending || !g.view || g.view.over || !graphMine(g, g.view.ply)) return;
  setText('graph-hint-text', '');
  graphAdvance([...g.moves, name]);
}

function graphHint() {
  const g = graph.game;
  if (!g || !g.view || g.view.over) return;
  setText('graph-hint-text', `hint: ${g.view.advice}`);
}

function graphUndo() {
  const g = graph.game;
  if (!g || g.pending) return;
  // Back to the player's previous turn.
  let n = g.moves.length - 1;
  while (n >= 0 && !graphMine(g, n)) n -= 1;
  if (n < 0) return;
  setText('graph-hint-text', '');
  graphAdvance(g.moves.slice(0, n));
}

// ---------------------------------------------------------------------------------------
// Tab board

const tab = { rows: 0, cols: 0, game: null, history: [] };

function clearTab() {
  for (const id of ['tab-summary', 'tab-turn', 'tab-result', 'tab-hint-text']) setText(id, '');
  $('tab-log').replaceChildren();
  $('tab-board').replaceChildren();
  tab.game = null;
}

function solveTab() {
  return busy('tab', 'tab-solve', clearTab, async (signal) => {
    const rows = wholeNumber('tab-rows', 'Rows N');
    const cols = wholeNumber('tab-cols', 'Columns M');
    const at = $('tab-at').value.trim();
    if (at && !/^\d+\s*,\s*\d+$/.test(at)) throw new Error(`Cell X,Y is two whole numbers such as 4,3, not "${at}"`);
    const small = BigInt(rows) <= 200n && BigInt(cols) <= 50n;
    if (!at && !small) throw new Error(`a board of ${rows} x ${cols} is too large to draw (the page draws up to 200 x 50): give a cell X,Y to answer it`);
    let summary = '';
    if (at) {
      const out = await api('tab', { rows, cols, at }, '', signal);
      const c = out.cell;
      summary = `cell (${c.x},${c.y}) of ${out.rows} x ${out.cols}: d = ${c.d} (${c.outcome} for the player to move, ${plies(c.depth)})`;
    }
    let board = null;
    if (small) board = await api('tab', { rows, cols, board: true }, '', signal);
    clearTab();
    setText('tab-summary', summary || `${board.rows} x ${board.cols} board: click a cell to play from it.`);
    if (board) {
      tab.rows = board.rows;
      tab.cols = board.cols;
      tab.d = board.board;
      renderBoard();
    }
  }, true);
}

/** The position at the piece's cell, from the server: the cells of its moves, the best
 * one's (the engine's move), and whether the game is over. */
async function tabPosition(g) {
  const v = await api('play', { tab: `${tab.rows},${tab.cols},${g.x},${g.y}` }, '');
  const cell = (p) => { const [x, y] = p.split(' '); return { x, y }; };
  const best = v.moves.find((m) => m.name === v.best);
  return { moves: v.moves.map((m) => cell(m.position)), over: v.over !== null, engine: best ? cell(best.position) : null };
}

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
  if (g && !g.over && g.me) {
    if (g.pos && g.pos.moves.some((m) => Number(m.x) === x && Number(m.y) === y)) return playerTabMove(y);
    if (x !== g.x || y !== g.y) {
      setText('tab-hint-text', `(${x},${y}) is not a move from (${g.x},${g.y}): the piece moves up to a column k ≠ ${g.y}, to (x + k, k); the outlined cells are its moves`);
    }
    return;
  }
  if (g && !g.over && !g.me) return;
  newTabGame(x, y);
}

function newTabGame(x, y) {
  tab.game = { x, y, me: $('tab-first').value === 'me', over: false, pos: null };
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
  const moves = g.pos ? g.pos.moves : [];
  if (g.me && !g.over) for (const m of moves) $(`cell-${m.x}-${m.y}`).classList.add('target');
  setText('tab-turn', `cell (${g.x},${g.y}) (${who(g.me)} to move): columns ${moves.map((m) => m.y).join(', ') || 'none'}`);
}

async function tabStep() {
  const g = tab.game;
  try {
    g.pos = await tabPosition(g);
  } catch (e) { showError('tab', e); return; }
  if (tab.game !== g) return;
  if (g.pos.over) {
    // The result first, so that nothing reads "to move" in a finished game without it.
    g.over = true;
    setText('tab-result', endLine(g.me, false));
    showTabPosition();
    return;
  }
  showTabPosition();
  if (!g.me) {
    const next = g.pos.engine;
    logLine('tab-log', `engine: column ${next.y} -> (${next.x},${next.y})`);
    Object.assign(g, { x: Number(next.x), y: Number(next.y), me: true, pos: null });
    tabStep();
  }
}

function playerTabMove(k) {
  const g = tab.game;
  const m = g.pos.moves.find((c) => Number(c.y) === k);
  tab.history.push({ x: g.x, y: g.y, log: $('tab-log').children.length });
  logLine('tab-log', `you: column ${k} -> (${m.x},${k})`);
  setText('tab-hint-text', '');
  Object.assign(g, { x: Number(m.x), y: k, me: false, pos: null });
  tabStep();
}

async function tabHint() {
  const g = tab.game;
  if (!g || g.over) return;
  try {
    const out = await api('tab', { rows: tab.rows, cols: tab.cols, at: `${g.x},${g.y}`, line: true, 'max-plies': 1 }, '');
    const c = out.cell;
    const k = out.line[1].y;
    setText('tab-hint-text', c.d === 0 ? `hint: every move loses; column ${k} lasts longest (${plies(c.depth)})`
      : `hint: column ${k} wins in ${c.d} of your moves (${plies(c.depth)})`);
  } catch (e) { showError('tab', e); }
}

function tabUndo() {
  const h = tab.history.pop();
  if (!h) return;
  Object.assign(tab.game, { x: h.x, y: h.y, me: true, over: false, pos: null });
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

function clearHeaps() {
  for (const id of ['heaps-turn', 'heaps-result', 'heaps-hint-text', 'heaps-explain']) setText(id, '');
  $('heaps-log').replaceChildren();
  $('heaps-board').replaceChildren();
  heaps.game = null;
  heaps.pending.clear();
}

function newHeapGame() {
  return busy('heaps', 'heaps-start', clearHeaps, async (signal) => {
    const sizes = list($('heaps-sizes').value);
    const max = list($('heaps-max').value);
    if (sizes.length === 0) throw new Error('Heaps is empty: give at least one heap size, such as 5,7,9');
    if (sizes.some((x) => !/^\d+$/.test(x))) throw new Error('Heaps are whole numbers separated by commas, such as 5,7,9');
    if (max.some((x) => !/^\d+$/.test(x))) throw new Error('Take at most is whole numbers separated by commas, one per heap, such as 2,3,4');
    const moore = $('heaps-moore').value.trim();
    if (moore !== '' && !/^\d+$/.test(moore)) throw new Error(`Moore's k is a whole number, not "${moore}"`);
    heaps.max = max.length ? max : null;
    heaps.misere = $('heaps-misere').checked;
    heaps.moore = moore;
    await api('nim', heapParams(sizes), '', signal);
    clearHeaps();
    heaps.game = { sizes: sizes.map(BigInt), me: $('heaps-first').value === 'me', over: false, pos: null };
    heaps.history = [];
    logLine('heaps-log', `start: heaps ${sizes.join(', ')}`);
    heapStep();
  }, true);
}

/** The position's rules and the engine's move, from the server (`move` first, if given). */
function heapPosition(sizes, move) {
  const p = heapParams(sizes.map(String));
  return api('play', { heaps: p.heaps, max: p.max, misere: p.misere, moore: p.moore, move }, '');
}

function renderHeaps() {
  const g = heaps.game;
  const maxTake = g.pos ? g.pos.max_take.map(BigInt) : g.sizes.map(() => 0n);
  const rows = g.sizes.map((n, i) => {
    const lim = heaps.max ? heaps.max[i] : null;
    const row = el('div', { class: 'heap', id: `heap-${i + 1}` },
      el('span', { class: 'label' }, `heap ${i + 1}: ${n}${lim !== null ? ` (take ≤ ${lim})` : ''}`));
    const reach = g.me && !g.over ? maxTake[i] : 0n;
    if (n <= 60n) {
      for (let j = 0; j < Number(n); j++) {
        const take = n - BigInt(j);
        const legal = take <= reach;
        const b = el('button', { class: legal ? 'obj' : 'obj out-of-reach', 'data-heap': String(i + 1), 'data-take': String(take), title: legal ? `take ${take}` : `${take} is more than a move may take from heap ${i + 1}`, onclick: () => playerHeapMove(i, take) });
        if (legal) {
          b.addEventListener('mouseenter', () => row.querySelectorAll('.obj').forEach((o, k) => o.classList.toggle('hot', k >= j)));
          b.addEventListener('mouseleave', () => row.querySelectorAll('.obj').forEach((o) => o.classList.remove('hot')));
        }
        if (heaps.pending.has(i) && take <= heaps.pending.get(i)) b.classList.add('picked');
        row.append(b);
      }
    } else {
      const inp = el('input', { size: '20', id: `heap-take-${i + 1}` });
      row.append(el('span', { class: 'big' }, `take (1 to ${reach}) `), inp,
        el('button', { onclick: () => (/^\d+$/.test(inp.value) ? playerHeapMove(i, BigInt(inp.value)) : setText('heaps-hint-text', `the number to take is a whole number, not "${inp.value}"`)) }, 'take'));
    }
    return row;
  });
  $('heaps-board').replaceChildren(...rows);
}

async function heapStep() {
  const g = heaps.game;
  const sizes = g.sizes.map(String);
  const k = mooreK();
  $('heaps-take').style.display = k ? '' : 'none';
  try {
    const [pos, ans] = await Promise.all([heapPosition(g.sizes), api('nim', { ...heapParams(sizes), explain: true }, '')]);
    if (heaps.game !== g) return;
    g.pos = pos;
    heaps.answer = ans;
    heaps.steps = ans.explain.trimEnd().split('\n');
    heaps.shown = 1;
    showSteps();
  } catch (e) { showError('heaps', e); return; }
  if (g.pos.over) {
    g.over = true;
    setText('heaps-result', endLine(g.me, heaps.misere));
  }
  renderHeaps();
  setText('heaps-turn', `heaps ${sizes.join(', ')} (${who(g.me)} to move)${k && !g.over ? `: take from up to ${k} heaps, then press Take` : ''}`);
  if (g.over) return;
  if (!g.me) {
    setTimeout(() => {
      if (heaps.game !== g) return;
      logLine('heaps-log', `engine: ${g.pos.engine.said}`);
      g.sizes = g.pos.engine.after.map(BigInt);
      g.me = true;
      g.pos = null;
      heapStep();
    }, 150);
  }
}

function playerHeapMove(i, take) {
  const g = heaps.game;
  if (!g || g.over || !g.me || !g.pos) return;
  const reach = BigInt(g.pos.max_take[i]);
  if (take > reach) {
    const lim = heaps.max ? BigInt(heaps.max[i]) : null;
    setText('heaps-hint-text', take > g.sizes[i] ? `heap ${i + 1} has only ${g.sizes[i]} objects`
      : `at most ${lim} may be taken from heap ${i + 1}`);
    return;
  }
  if (take === 0n) return;
  const k = mooreK();
  if (!k) return commitHeapMove([[i, take]]);
  // Moore's game: pick from up to k heaps, then press Take.
  if (heaps.pending.get(i) === take) heaps.pending.delete(i);
  else if (heaps.pending.size < k || heaps.pending.has(i)) heaps.pending.set(i, take);
  else { setText('heaps-hint-text', `a move takes from at most ${k} heaps: unpick one first`); return; }
  setText('heaps-hint-text', heaps.pending.size ? `picked: ${takes([...heaps.pending])}` : '');
  renderHeaps();
}

async function commitHeapMove(moves) {
  const g = heaps.game;
  if (!g || g.over || !g.me || moves.length === 0) return;
  let after;
  try {
    after = await heapPosition(g.sizes, takes(moves));
  } catch (e) { setText('heaps-hint-text', e.message); return; }
  if (heaps.game !== g) return;
  heaps.pending.clear();
  heaps.history.push({ sizes: [...g.sizes], log: $('heaps-log').children.length });
  logLine('heaps-log', `you: ${takes(moves)}`);
  setText('heaps-hint-text', '');
  g.sizes = after.heaps.map(BigInt);
  g.me = false;
  g.pos = null;
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
  Object.assign(heaps.game, { sizes: h.sizes, me: true, over: false, pos: null });
  const log = $('heaps-log');
  while (log.children.length > h.log) log.lastChild.remove();
  setText('heaps-result', '');
  heapStep();
}

function showSteps() { setText('heaps-explain', heaps.steps.slice(0, heaps.shown).join('\n')); }

// ---------------------------------------------------------------------------------------
// Kernels

const kernel = { n: 0, kernels: [], at: 0, cy: null };

function clearKernel() {
  for (const id of ['kernel-summary', 'kernel-which', 'kernel-set', 'kernel-why', 'kernel-alpha-text', 'kernel-beta-text']) setText(id, '');
  kernel.kernels = [];
  kernel.body = null;
  kernel.alpha = null;
  kernel.beta = null;
  if (kernel.cy) kernel.cy.destroy();
  kernel.cy = null;
  $('kernel-cy').style.display = 'none';
}

function solveKernel() {
  return busy('kernel', 'kernel-solve', clearKernel, async (signal) => {
    const body = graphBody('kernel', kernel);
    const info = await api('info', {}, body, signal);
    const all = await api('kernel', { all: true, limit: 1000 }, body, signal);
    const why = await api('kernel', { explain: true }, body, signal);
    const count = all.complete ? all.kernels.length : (await api('kernel', { count: true }, body, signal)).count;
    const arcs = info.vertices <= MAX_DRAWN ? parseArcs(await api('convert', { to: 'arcs' }, body, signal)) : null;
    clearKernel();
    kernel.n = info.vertices;
    kernel.body = body;
    kernel.kernels = all.kernels;
    kernel.at = 0;
    setText('kernel-summary', `${info.vertices} vertices, ${info.arcs} arcs: ${count} kernel${count === 1 ? '' : 's'}.`);
    setText('kernel-why', why.explanation ? `decided by: ${why.explanation.decided}` : '');
    if (arcs) {
      $('kernel-cy').style.display = '';
      sizeDrawing($('kernel-cy'), kernel.n);
      kernel.cy = drawGraph($('kernel-cy'), kernel.n, arcs, { label: (v) => String(v), classes: () => 'out', layout: 'cose' });
    }
    showKernel();
  });
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

/** α or β, computed when asked for; its own error (such as the time limit) stays beside it. */
async function showStable(which) {
  const body = kernel.body;
  if (body === null || body === undefined) return;
  const sym = which === 'alpha' ? 'α' : 'β';
  const button = $(`kernel-${which}`);
  if (!kernel[which]) {
    setText(`kernel-${which}-text`, `computing ${sym}…`);
    button.disabled = true;
    try {
      kernel[which] = await api('kernel', { [which]: true }, body);
    } catch (e) {
      if (kernel.body === body) setText(`kernel-${which}-text`, `${sym} failed: ${e.message}`);
      return;
    } finally {
      button.disabled = false;
    }
    if (kernel.body !== body) return;
  }
  const a = kernel[which];
  const what = which === 'alpha' ? 'a maximum internally stable set' : 'a minimum externally stable set';
  setText(`kernel-${which}-text`, `${sym} = ${a[which]}: ${what} ${braces(a.set)}`);
  highlight(a.set, which);
}

// ---------------------------------------------------------------------------------------
// Octal and subtraction games

const SHOWN_VALUES = 300;

function clearOctal() {
  setText('octal-summary', '');
  setText('octal-values', '');
  setText('octal-more', '');
  $('octal-plot').replaceChildren();
}

function solveOctal() {
  return busy('octal', 'octal-solve', clearOctal, async (signal) => {
    const kind = $('octal-kind').value;
    const game = $('octal-code').value.trim();
    const upto = wholeNumber('octal-upto', 'Values up to', true) || '100';
    if (game === '') throw new Error(kind === 'octal' ? 'give an octal code, such as 0.77' : 'give a subtraction set, such as 1,3,4');
    const params = kind === 'octal' ? { code: game, upto, period: true } : { set: game, upto, period: true, misere: $('octal-misere').checked };
    const out = await api(kind, params, '', signal);
    clearOctal();
    const p = out.period;
    const name = kind === 'octal' ? `octal game ${out.game}` : `subtraction game {${out.game}}`;
    setText('octal-summary', p
      ? `${name}: pre-period ${p.preperiod}, period ${p.period} (proven from the values up to ${p.values_needed - 1}; ${out.computed} values computed)`
      : `${name}: no period proven within the ${out.computed} values computed`);
    const shown = out.values.slice(0, SHOWN_VALUES);
    setText('octal-values', shown.map((v, n) => `g(${n})=${v}`).join(' '));
    if (out.values.length > shown.length) {
      setText('octal-more', `… the first ${shown.length} of ${out.values.length} values; all of them: gamegraph ${kind} ${game} --upto ${upto}`);
    }
    plotValues(out.values, p);
  });
}

function plotValues(values, p) {
  const W = 960; const H = 320; const L = 40; const B = 30; const T = 44;
  const n = values.length;
  const top = Math.max(1, ...values.map(Number));
  const step = (W - L - 10) / n;
  const x = (i) => L + (i + 0.5) * step;
  const y = (v) => H - B - Number(v) * (H - B - T) / top;
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
    const left = x(0) - step / 2;
    add('rect', { x: left, y: T, width: Math.max(0, x(pre) - x(0)), height: H - B - T, fill: '#fff3e0' });
    // Two caption lines, so that they never overlap; period marks only where they stay apart.
    if (p.preperiod > 0) add('text', { x: L, y: T - 22, 'font-size': 11, fill: '#e65100' }, `shaded: the pre-period g(0) … g(${p.preperiod - 1})`);
    const apart = p.period * step >= 8;
    if (p.preperiod < n) {
      add('text', { x: L, y: T - 8, 'font-size': 11, fill: '#e65100' }, apart
        ? `then period ${p.period}: a dashed line every ${p.period} values`
        : `then period ${p.period} (too dense to mark at this width: the dashed line marks where it starts)`);
    }
    for (let s = p.preperiod; s <= n; s += p.period) {
      add('line', { x1: x(s) - step / 2, x2: x(s) - step / 2, y1: T, y2: H - B, stroke: '#e65100', 'stroke-dasharray': '3 3', class: 'period-mark' });
      if (!apart) break;
    }
  }
  add('line', { x1: L, x2: W - 10, y1: H - B, y2: H - B, stroke: '#555' });
  add('line', { x1: L, x2: L, y1: T, y2: H - B, stroke: '#555' });
  for (let v = 0; v <= top; v += Math.max(1, Math.ceil(top / 8))) add('text', { x: L - 6, y: y(v) + 4, 'font-size': 10, 'text-anchor': 'end' }, String(v));
  const stepX = Math.max(1, Math.ceil(n / 12));
  for (let i = 0; i < n; i += stepX) add('text', { x: x(i), y: H - B + 14, 'font-size': 10, 'text-anchor': 'middle' }, String(i));
  add('text', { x: W / 2, y: H - 2, 'font-size': 11, 'text-anchor': 'middle' }, 'heap size n');
  add('text', { x: 4, y: T + 4, 'font-size': 11 }, 'g(n)');
  values.forEach((v, i) => {
    if (n <= 400) add('line', { x1: x(i), x2: x(i), y1: H - B, y2: y(v), stroke: '#90caf9', 'stroke-width': Math.max(1, step / 2) });
    add('circle', { cx: x(i), cy: y(v), r: n > 300 ? 1.2 : 3, fill: '#1565c0' }).append(
      Object.assign(document.createElementNS(ns, 'title'), { textContent: `g(${i}) = ${v}` }));
  });
  $('octal-plot').replaceChildren(svg);
}

// ---------------------------------------------------------------------------------------
// Games given by their rules: every game of the registry against the engine, each move
// answered from the game's values, which the server solves once per game.

const games = { entries: [], words: '', engine: 'second', moves: [], view: null, pending: false, only: false };

/** The first player moves at even plies. */
const sideAt = (ply) => (ply % 2 === 0 ? 'first player' : 'second player');
const valueWords = (outcome, r) => `${outcome}${r !== null && r !== undefined ? ` in ${plies(r)}` : ''}`;
const FLIP = { win: 'loss', loss: 'win', tie: 'tie', draw: 'draw' };

async function loadGames() {
  games.entries = await (await fetch('/assets/games.json')).json();
  $('games-name').replaceChildren(...games.entries.map((e) => el('option', { value: e.name, title: e.about }, e.name)));
  pickGame();
  // A game the server answers from values solved before (serve --results) comes first;
  // a server of that game alone (gg.serve in Python) shows the games view alone.
  const served = await (await fetch('/assets/served.json')).json();
  games.only = served.only;
  if (served.games.length) {
    const [name, ...args] = served.games[0].split(' ');
    $('games-name').value = name;
    $('games-args').value = args.join(' ');
  }
  if (games.only) {
    document.querySelectorAll('nav a').forEach((a) => { a.hidden = a.id !== 'nav-games'; });
    if (location.hash !== '#games') location.hash = '#games';
  }
}

/** The chosen game's registry entry. */
const gameEntry = () => games.entries.find((g) => g.name === $('games-name').value);

/** A new choice of game: its example arguments. */
function pickGame() {
  $('games-args').value = gameEntry().example;
}

function clearGames() {
  for (const id of ['games-summary', 'games-result', 'games-hint-text']) setText(id, '');
  for (const id of ['games-board', 'games-moves', 'games-log']) $(id).replaceChildren();
  games.view = null;
}

/** The state after `moves`, from /api/play-game. */
const playApi = (words, moves, signal) => api('play-game', { game: words, move: moves }, '', signal);

const engineMoves = (ply) => ({ none: false, both: true, first: ply % 2 === 0, second: ply % 2 === 1 })[games.engine];

/** Asks for the state after `moves`; the engine answers its own turns. Input is locked
 * until the last answer is in. */
function advance(moves, clearFirst) {
  games.pending = true;
  return busy('games', 'games-solve', clearGames, async (signal) => {
    let view = await playApi(games.words, moves, signal);
    games.moves = moves;
    showGame(view);
    while (!view.over && engineMoves(view.ply)) {
      moves = [...moves, view.best];
      view = await playApi(games.words, moves, signal);
      games.moves = moves;
      showGame(view);
    }
  }, clearFirst).finally(() => { games.pending = false; document.body.dataset.gamesIdle = 'true'; });
}

function newGame() {
  const e = gameEntry();
  setText('games-about', `${e.about}. Arguments: ${e.name} ${e.arguments}. A move: ${e.moves}.`);
  games.words = `${e.name} ${$('games-args').value}`.trim();
  games.engine = $('games-engine').value;
  document.body.dataset.gamesIdle = 'false';
  return advance([], true);
}

function playMove(name) {
  const v = games.view;
  if (games.pending || !v) return;
  if (v.over) { setText('games-hint-text', 'the game is over: press New game to play again'); return; }
  setText('games-hint-text', '');
  document.body.dataset.gamesIdle = 'false';
  advance([...games.moves, name], false);
}

function gameUndo() {
  if (games.pending || games.moves.length === 0) return;
  // Back to the previous turn of a side the engine does not play.
  let n = games.moves.length - 1;
  while (n > 0 && engineMoves(n)) n -= 1;
  if (engineMoves(n)) return;
  document.body.dataset.gamesIdle = 'false';
  advance(games.moves.slice(0, n), false);
}

function gameHint() {
  const v = games.view;
  if (!v || v.over) return;
  const best = v.moves.find((m) => m.name === v.best);
  setText('games-hint-text', `${best.name}: ${valueWords(best.outcome, best.remoteness === null ? null : best.remoteness + 1)} for the ${sideAt(v.ply)}`);
}

/** The move a click on grid cell `i` plays: the one move that changes the cell, else the
 * one that changes a cell of its column (a stone dropped in it). */
function moveAtCell(v, i) {
  const cols = v.board.cols;
  const own = v.moves.filter((m) => m.cells.includes(i));
  if (own.length === 1) return own[0];
  if (own.length > 1) return null;
  const column = v.moves.filter((m) => m.cells.some((c) => c % cols === i % cols));
  return column.length === 1 ? column[0] : null;
}

function showGame(v) {
  games.view = v;
  const side = sideAt(v.ply);
  setText('games-summary', v.over ? `the game is over after ${plies(v.ply)}`
    : `${side} to move: ${valueWords(v.outcome, v.remoteness)} for the ${side}`);
  const b = v.board;
  let board;
  if (b && b.kind === 'grid') {
    const table = el('table', { id: 'games-grid' });
    const head = el('tr', {}, el('th', {}, ''), ...b.col_labels.map((l) => el('th', {}, l)));
    for (let r = 0; r < b.rows; r++) {
      const tr = el('tr', {}, el('th', {}, b.row_labels[r]));
      for (let c = 0; c < b.cols; c++) {
        const i = r * b.cols + c;
        const ch = b.cells[i];
        const m = v.over ? null : moveAtCell(v, i);
        const mark = m && m.cells.includes(i) && ch === '.' && !v.moves.some((o) => o !== m && o.cells.includes(i));
        const cls = [ch === '.' ? 'empty' : `piece ${ch}`, b.line.includes(i) ? 'line' : '', m ? `move ${mark ? m.outcome : ''}` : ''].join(' ');
        const td = el('td', { id: `games-cell-${r + 1}-${c + 1}`, class: cls, title: m ? `${m.name}: ${valueWords(m.outcome, m.remoteness)} for the ${side}` : '' },
          ch !== '.' ? ch : mark ? `${SHORT[m.outcome]}${m.remoteness ?? ''}` : '');
        if (m) td.addEventListener('click', () => playMove(m.name));
        tr.append(td);
      }
      table.append(tr);
    }
    table.append(head);
    board = table;
  } else if (b && b.kind === 'pins') {
    board = el('div', { class: 'pins' }, ...(b.rows.length ? b.rows : []).map((n) => el('div', {}, `${n}: ${'| '.repeat(n)}`)));
    if (!b.rows.length) board.append(el('div', {}, 'no pins left'));
  } else {
    board = el('pre', {}, v.position);
  }
  $('games-board').replaceChildren(board);
  $('games-moves').replaceChildren(...v.moves.map((m, i) => el('button', {
    id: `games-move-${i + 1}`, class: m.outcome, title: `${valueWords(m.outcome, m.remoteness)} for the ${side}`,
    onclick: () => playMove(m.name),
  }, `${m.name} ${SHORT[m.outcome]}${m.remoteness ?? ''}${m.name === v.best ? ' ★' : ''}`)));
  // The value history: after each move, its value for the side that made it.
  $('games-log').replaceChildren(...v.history.slice(1).map((h, i) => el('li', {},
    `${sideAt(i)}: ${h.played} `, el('span', { class: FLIP[h.outcome] }, `${SHORT[FLIP[h.outcome]]}${h.remoteness ?? ''}`),
    ` (${valueWords(FLIP[h.outcome], h.remoteness)})`)));
  let result = '';
  if (v.over === 'repeated') result = 'draw: the position repeats';
  else if (v.over) {
    const line = b && b.kind === 'grid' && b.line.length ? `: the line ${b.line.map((i) => `${b.col_labels[i % b.cols]}${b.row_labels[Math.floor(i / b.cols)]}`).join(' ')}` : '';
    result = v.result === 'tie' ? 'a tie: the game is over and nobody wins'
      : `the ${v.result === 'win' ? side : sideAt(v.ply + 1)} wins${line}`;
  }
  setText('games-result', result);
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
    $('octal-kind').dispatchEvent(new Event('change'));
    $('octal-code').value = e[1];
    solveOctal();
  });
}

function wire() {
  for (const v of ['graph', 'tab', 'heaps', 'kernel', 'octal', 'games']) addBusyLine(v);
  zoomButtons('graph', () => graph.cy);
  zoomButtons('kernel', () => kernel.cy);
  window.addEventListener('hashchange', showView);
  $('graph-here').addEventListener('click', () => graph.pendingStart && startGraphGame(graph.pendingStart));
  $('games-solve').addEventListener('click', newGame);
  $('games-undo').addEventListener('click', gameUndo);
  $('games-hint').addEventListener('click', gameHint);
  $('games-name').addEventListener('change', () => { pickGame(); newGame(); });
  const misere = () => {
    const octal = $('octal-kind').value === 'octal';
    $('octal-misere').disabled = octal;
    $('octal-misere-label').title = octal ? 'misère play is offered for subtraction games only' : '';
    $('octal-misere-label').classList.toggle('off', octal);
  };
  $('octal-kind').addEventListener('change', misere);
  misere();
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

window.gg = { graph, tab, heaps, kernel, games, parseJSON };
wire();
// Every view opens with its first example answered; a server of one game opens on it.
loadGames()
  .then(() => (games.only ? newGame() : loadExamples().then(() =>
    Promise.all([solveGraph(), solveTab(), newHeapGame(), solveKernel(), solveOctal(), newGame()]))))
  .finally(() => { document.body.dataset.ready = 'true'; });
