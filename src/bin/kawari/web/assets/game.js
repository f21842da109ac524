// The game: the position the engine answers for, the engine's moves and
// searches, the game's end and the moves played.

import { parseInfo } from './api.js';
import { applyMove, moveText, parseSfen, splitMove, variantInfo } from './pieces.js';
import { $, failed, other, session, setStatus, showError, sideName, state } from './state.js';
import { moveBody, resetClock, switchClock } from './clock.js';
import { recordEval, renderGraph, renderPv } from './analysis.js';
import { render } from './render.js';
import { renderMate, showMate } from './tsume.js';

// Events of a search whose number the page does not know yet: a quick
// search's last line can come on the stream before `/go` has answered.
const early = new Map();
let refreshSeq = 0;

/** Starts a search and notes it as the page's; lines that came first are
 * handled now. */
export async function startSearch(body, fields) {
  const { search } = await session.go(body);
  state.search = { id: search, ...fields };
  const lines = early.get(search) || [];
  early.clear();
  for (const ev of lines) onEngineLine(ev);
  return search;
}

export function humanToMove() {
  if (!state.pos || state.end) return false;
  return state.side === 'both' || state.side === state.pos.side;
}

function engineToMove() {
  return state.pos && !state.end && state.side !== 'both' && state.side !== state.pos.side;
}

/** Asks the engine about the game's current position and goes on from it:
 * the engine's move, or analysis. */
export async function refresh() {
  const seq = ++refreshSeq;
  state.search = null;
  let r;
  try {
    r = await session.position(state.variant, state.start, state.moves);
  } catch (err) {
    if (seq === refreshSeq) failed(err);
    return false;
  }
  if (seq !== refreshSeq) return false;
  state.view = r;
  state.pos = parseSfen(r.sfen);
  if (!state.moves.length) state.startSfen = r.sfen;
  if (!state.end) state.end = endFromStatus(r.status, state.pos.side);
  state.lines.clear();
  render();
  if (state.end) {
    switchClock(null);
    setStatus(state.end.text);
    return true;
  }
  switchClock(state.pos.side);
  if (engineToMove()) await engineMove();
  else {
    setStatus(state.side === 'both' ? `${sideName(state.pos.side)} to move` : `Your move (${sideName(state.pos.side)})`);
    if (state.analysing) await startAnalysis();
  }
  return true;
}

function endFromStatus(status, toMove) {
  if (!status || status === 'ongoing') return null;
  const [result, reason] = status.split(' ');
  const winner = result === 'loss' ? other(toMove) : result === 'win' ? toMove : null;
  const wins = winner ? ` — ${sideName(winner)} wins` : ' — draw';
  switch (reason) {
    case 'checkmate': return { text: `Checkmate${wins}`, word: '詰み', winner, reason };
    case 'stalemate': return { text: `No legal move (stalemate)${wins}`, word: '詰み', winner, reason };
    case 'bare-king': return { text: `Bare king${wins}`, word: '詰み', winner, reason };
    case 'perpetual-check': return {
      text: `Perpetual check by ${sideName(other(winner))}${wins}`,
      word: result === 'win' ? '反則勝ち' : '反則負け', winner, reason,
    };
    case 'repetition': return { text: 'Repetition (sennichite) — draw', word: '千日手', winner: null, reason };
    case 'move-cap': return { text: 'Move cap reached — draw', word: '持将棋', winner: null, reason };
    default: return { text: `Game over: ${status}`, word: '中断', winner, reason };
  }
}

export function finish(end) {
  state.end = end;
  switchClock(null);
  if (state.search && session) session.stop().catch(() => {});
  state.search = null;
  setStatus(end.text);
  render();
}

async function engineMove() {
  const { body, budget } = moveBody();
  setStatus(`Kawari is thinking… (${sideName(state.pos.side)})`);
  document.body.dataset.thinking = '1';
  const t0 = performance.now();
  try {
    await startSearch(body, { kind: 'move', t0, budget, ply: state.moves.length });
  } catch (err) {
    document.body.dataset.thinking = '';
    failed(err);
  }
}

export async function startAnalysis() {
  if (state.end || engineToMove() || state.mate?.step) return;
  try {
    const multipv = Number($('multipv').value);
    await startSearch({ kind: 'analyse', multipv }, { kind: 'analyse', ply: state.moves.length });
  } catch (err) {
    failed(err);
  }
}

/** Plays `usi` (legal: it came from the engine's list or its bestmove). */
export async function play(usi) {
  const before = state.pos;
  const m = splitMove(usi);
  const legal = state.view.legal || [];
  const canPromote = !m.drop && !m.promote && legal.includes(usi + '+');
  state.moves.push(usi);
  state.promotable.push(canPromote || (m.promote && legal.includes(usi.slice(0, -1))));
  state.selected = null;
  state.promotion = null;
  state.hint = null;
  state.lines.clear();
  state.mate = null;
  renderMate();
  // The move is drawn at once; the engine's answer (legal moves, status)
  // follows.
  state.pos = applyMove(before, usi, variantInfo(state.variant).drops);
  state.view = { ...state.view, legal: [], checkers: [] };
  render();
  return refresh();
}

export function onEngineLine(ev) {
  const s = state.search;
  if (!s || ev.search !== s.id) {
    if (!s || ev.search > s.id) {
      if (!early.has(ev.search)) early.set(ev.search, []);
      early.get(ev.search).push(ev);
    }
    return;
  }
  const line = ev.line;
  if (line.startsWith('info ')) {
    const info = parseInfo(line);
    if (!info.score || !info.pv) return;
    recordEval(info, s.ply);
    if (s.kind === 'analyse') {
      state.lines.set(info.multipv || 1, info);
      renderPv();
      render();
    }
    return;
  }
  const word = line.split(' ');
  if (word[0] === 'bestmove') {
    state.search = null;
    document.body.dataset.thinking = '';
    if (s.kind === 'move') {
      const mv = word[1];
      if (mv === 'resign') {
        finish({ text: `Kawari resigns — ${sideName(other(state.pos.side))} wins`, word: '投了', winner: other(state.pos.side) });
      } else if (mv === 'win') {
        finish({ text: `Impasse declaration by Kawari — ${sideName(state.pos.side)} wins`, word: '入玉勝ち', winner: state.pos.side });
      } else {
        play(mv).then(() => {
          const ms = performance.now() - s.t0;
          state.timings.replies.push({ ms, budget: s.budget });
        });
      }
    } else if (s.kind === 'hint') {
      if (word[1] && !['resign', 'win', '(none)'].includes(word[1])) {
        state.hint = word[1];
        setStatus(`Hint: ${moveText(state.pos, word[1], state.latin, state.variant, false)}`);
        render();
      }
      if (state.analysing) startAnalysis();
    }
  } else if (word[0] === 'checkmate') {
    state.search = null;
    showMate(word.slice(1));
  }
}

export async function newGame({ start = 'startpos' } = {}) {
  state.edit = null;
  $('editor').hidden = true;
  state.start = start;
  state.startSfen = null;
  state.moves = [];
  state.promotable = [];
  state.evals = [];
  state.end = null;
  state.selected = null;
  state.promotion = null;
  state.hint = null;
  state.mate = null;
  state.lines.clear();
  showError('');
  $('mate-result').textContent = '';
  $('mate-line').replaceChildren();
  $('pv').replaceChildren();
  renderGraph();
  resetClock();
  return refresh();
}

export async function takeback() {
  if (!state.moves.length) return;
  state.end = null;
  const pop = () => { state.moves.pop(); state.promotable.pop(); state.evals.length = state.moves.length + 1; };
  pop();
  // Against the engine, back to a position where the person is to move.
  if (state.side !== 'both' && state.moves.length) {
    const toMove = parseSfen(state.startSfen).side;
    const sideNow = state.moves.length % 2 === 0 ? toMove : other(toMove);
    if (sideNow !== state.side) pop();
  }
  state.hint = null;
  state.mate = null;
  renderMate();
  await refresh();
}
