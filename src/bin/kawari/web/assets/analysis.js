// Analysis: the engine's lines (MultiPV), hints and the evaluation graph.

import { applyMove, moveText, variantInfo } from './pieces.js';
import { $, failed, other, session, setStatus, state } from './state.js';
import { humanToMove, startAnalysis, startSearch } from './game.js';
import { render } from './render.js';

// The engine's think time when no clock runs, and a hint's, in ms.
const HINT_MS = 500;
// Plies shown on the evaluation graph's scale, and its score range in cp.
const GRAPH_CAP = 2000;

export function recordEval(info, ply) {
  if ((info.multipv || 1) !== 1 || info.bound) return;
  const toMove = state.pos.side;
  let cp = info.score.type === 'mate'
    ? (info.score.value > 0 || (info.score.value === 0 && !info.score.mated) ? GRAPH_CAP : -GRAPH_CAP)
    : Math.max(-GRAPH_CAP, Math.min(GRAPH_CAP, info.score.value));
  if (toMove === 'white') cp = -cp;
  state.evals[ply] = cp;
  renderGraph();
}

function scoreText(info, toMove) {
  let s = info.score;
  if (s.type === 'mate') {
    const win = s.value > 0 || (s.value === 0 && !s.mated);
    const who = win ? toMove : other(toMove);
    return `${who === 'black' ? '☗' : '☖'} mate ${Math.abs(s.value)}`;
  }
  const cp = toMove === 'black' ? s.value : -s.value;
  return `${cp >= 0 ? '+' : ''}${cp}`;
}

export function renderPv() {
  const box = $('pv');
  box.replaceChildren();
  const lines = [...state.lines.entries()].sort((a, b) => a[0] - b[0]);
  const drops = variantInfo(state.variant).drops;
  for (const [k, info] of lines) {
    const row = document.createElement('div');
    row.className = 'pv-line';
    row.dataset.multipv = k;
    let pos = state.pos;
    const words = [];
    for (const m of info.pv.slice(0, 12)) {
      words.push(moveText(pos, m, state.latin, state.variant, false));
      pos = applyMove(pos, m, drops);
    }
    const head = document.createElement('span');
    head.className = 'pv-head';
    head.textContent = `${scoreText(info, state.pos.side)}  d${info.depth}  ${Math.round((info.nps || 0) / 1000)} kn/s`;
    const moves = document.createElement('span');
    moves.className = 'pv-moves';
    moves.textContent = words.join(' ');
    row.append(head, moves);
    box.append(row);
  }
}

export function renderGraph() {
  const svg = $('graph');
  const n = Math.max(state.evals.length, 2);
  const pts = [];
  state.evals.forEach((cp, i) => {
    if (cp === undefined) return;
    pts.push(`${(i / (n - 1)) * 300},${30 - (cp / GRAPH_CAP) * 28}`);
  });
  svg.innerHTML = '<line x1="0" y1="30" x2="300" y2="30" class="axis"/>'
    + (pts.length ? `<polyline points="${pts.join(' ')}" class="eval"/>` : '');
}

export async function toggleAnalysis() {
  state.analysing = !state.analysing;
  state.lines.clear();
  $('pv').replaceChildren();
  if (state.analysing) await startAnalysis();
  else if (state.search && state.search.kind === 'analyse') {
    state.search = null;
    try { await session.stop(); } catch (err) { failed(err); }
  }
  render();
}

export async function hint() {
  if (!humanToMove()) return;
  try {
    state.lines.clear();
    setStatus('Looking for a hint…');
    await startSearch({ kind: 'hint', movetime: HINT_MS }, { kind: 'hint' });
  } catch (err) {
    failed(err);
  }
}
