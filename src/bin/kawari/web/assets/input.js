// Input on the board: picking a piece up, its targets, moving (and the
// promotion question), refused moves.

import { $, state } from './state.js';
import { humanToMove, play } from './game.js';
import { render } from './render.js';
import { editSquare } from './editor.js';

function movesFrom(src) {
  const legal = state.view?.legal || [];
  if (src.hand) return legal.filter((m) => m[1] === '*' && m[0].toUpperCase() === src.piece);
  return legal.filter((m) => m[1] !== '*' && m.slice(0, 2) === src.square);
}

export function targets() {
  return state.selected ? [...new Set(movesFrom(state.selected).map((m) => m.slice(2, 4)))] : [];
}

function ownPiece(src) {
  if (src.hand) return src.hand === state.pos.side;
  if (!src.piece) return false;
  const black = src.piece === src.piece.toUpperCase();
  return (state.pos.side === 'black') === black;
}

function refuse() {
  const b = $('board');
  b.classList.remove('refused');
  void b.offsetWidth; // restarts the animation
  b.classList.add('refused');
}

/** A square or hand piece pressed: returns true when a piece was picked
 * up (it may be dragged). */
export function press(src) {
  if (state.edit) {
    if (src.square) editSquare(src.square);
    return false;
  }
  if (!humanToMove() || state.mate?.step || state.dead) return false;
  if (state.promotion) { state.promotion = null; render(); }
  if (src.square && state.selected && targets().includes(src.square)) {
    moveTo(src.square);
    return false;
  }
  if (ownPiece(src)) {
    state.selected = src.hand ? { hand: src.hand, piece: src.piece } : { square: src.square };
    render();
    return true;
  }
  if (state.selected) refuse();
  state.selected = null;
  render();
  return false;
}

export function release(square) {
  if (state.selected && targets().includes(square)) moveTo(square);
  else { refuse(); render(); }
}

function moveTo(square) {
  const cands = movesFrom(state.selected).filter((m) => m.slice(2, 4) === square);
  const plain = cands.find((m) => !m.endsWith('+'));
  const promo = cands.find((m) => m.endsWith('+'));
  if (plain && promo) {
    const { row, col } = { row: square.charCodeAt(1) - 97, col: 0 };
    void row; void col;
    const from = state.selected.square;
    const piece = pieceAt(from).toUpperCase();
    state.promotion = { to: square, piece, plain, promo };
    render();
    return;
  }
  play(promo || plain);
}

function pieceAt(sq) {
  const cell = document.querySelector(`[data-square="${sq}"]`);
  return cell ? cell.dataset.piece : '';
}

export function promote(yes) {
  const p = state.promotion;
  if (!p) return;
  state.promotion = null;
  play(yes ? p.promo : p.plain);
}
