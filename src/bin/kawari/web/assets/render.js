// Drawing the page: the board (with arrows, last move, check), the move
// list and the position's texts.

import { applyMove, moveText, parseSfen, splitMove, variantInfo } from './pieces.js';
import { $, board, state } from './state.js';
import { humanToMove } from './game.js';
import { targets } from './input.js';

function shownPosition() {
  if (state.edit) return state.edit.pos;
  if (state.mate && state.mate.step) {
    let pos = state.mate.base;
    for (const m of state.mate.line.slice(0, state.mate.step)) pos = applyMove(pos, m, variantInfo(state.variant).drops);
    return pos;
  }
  return state.pos;
}

export function render() {
  if (!state.pos) return;
  const pos = shownPosition();
  const stepping = !!(state.mate && state.mate.step) || !!state.edit;
  const arrows = [];
  if (!stepping) {
    const lines = [...state.lines.entries()].sort((a, b) => a[0] - b[0]);
    lines.forEach(([k, info], i) => {
      if (info.pv && info.pv[0]) arrows.push({ usi: info.pv[0], kind: k === 1 ? 'best' : 'alt', opacity: 0.85 - i * 0.2 });
    });
    if (state.hint) arrows.push({ usi: state.hint, kind: 'hint', opacity: 0.9 });
  } else if (state.mate && state.mate.line[state.mate.step]) {
    arrows.push({ usi: state.mate.line[state.mate.step], kind: 'hint', opacity: 0.7 });
  }
  const last = [];
  const lastMove = state.edit ? null
    : stepping ? state.mate.line[state.mate.step - 1] : state.moves[state.moves.length - 1];
  if (lastMove) {
    const m = splitMove(lastMove);
    if (!m.drop) last.push(m.from);
    last.push(m.to);
  }
  board.render({
    pos,
    variant: state.variant,
    latin: state.latin,
    flipped: state.flipped,
    last,
    checks: stepping ? [] : checkedKing(),
    selected: state.edit ? null : state.selected,
    targets: stepping ? [] : targets(),
    arrows,
    promotion: state.promotion,
    drops: variantInfo(state.variant).drops,
  });
  $('sfen').textContent = state.view?.sfen || '';
  $('fen').textContent = state.view?.fen || '';
  $('declare').hidden = !(state.view?.declare && humanToMove());
  $('download-kif').disabled = state.variant !== 'shogi';
  $('download-kif').title = state.variant === 'shogi' ? 'KIF (Kakinoki), as ShogiHome reads it' : 'KIF is for standard shogi only';
  $('analyse').setAttribute('aria-pressed', String(state.analysing));
  $('analyse').textContent = state.analysing ? 'Stop analysis' : 'Analyse';
  renderMoves();
}

/** The checked king's square: where the engine's checkers attack. */
function checkedKing() {
  if (!state.view?.checkers?.length) return [];
  const king = state.pos.side === 'black' ? 'K' : 'k';
  for (let r = 0; r < state.pos.ranks; r++) {
    for (let c = 0; c < state.pos.files; c++) {
      if (state.pos.rows[r][c] === king) return [`${state.pos.files - c}${String.fromCharCode(97 + r)}`];
    }
  }
  return [];
}

function gamePositions() {
  const drops = variantInfo(state.variant).drops;
  let pos = parseSfen(state.startSfen || state.view.sfen);
  const out = [pos];
  for (const m of state.moves) { pos = applyMove(pos, m, drops); out.push(pos); }
  return out;
}

function renderMoves() {
  const ol = $('moves');
  if (ol.childElementCount === state.moves.length && ol.dataset.variant === state.variant
      && [...ol.children].every((li, i) => li.dataset.usi === state.moves[i])) return;
  ol.dataset.variant = state.variant;
  ol.replaceChildren();
  if (!state.startSfen) return;
  const positions = gamePositions();
  state.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.usi = m;
    li.textContent = moveText(positions[i], m, state.latin, state.variant, state.promotable[i]);
    ol.append(li);
  });
  ol.scrollTop = ol.scrollHeight;
}
