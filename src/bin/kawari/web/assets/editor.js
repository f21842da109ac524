// Setting up a position: the palette, hands and the board editor.

import { HAND_ORDER, glyph, parseSfen, toSfen, variantInfo } from './pieces.js';
import { $, failed, session, setStatus, showError, state } from './state.js';
import { newGame, refresh } from './game.js';
import { render } from './render.js';

// The SFEN letters of each variant's pieces (promotable ones also '+X').
const LETTERS = {
  shogi: 'KRBGSNLP', judkins: 'KRBGSNP', yarishogi: 'KRBNP',
  heian: 'KGSNLP', heian9x8: 'KGSNLP', heian8x9: 'KGSNLP', heian8x8: 'KGSNLP',
};

function editPieces() {
  const out = [];
  for (const c of LETTERS[state.variant]) {
    out.push(c);
    if (c !== 'K' && c !== 'G') out.push('+' + c);
  }
  return out;
}

export function startEdit() {
  if (state.search) session.stop().catch(() => {});
  state.search = null;
  const pos = parseSfen(state.view.sfen);
  state.edit = { pos: { ...pos, ply: 1 }, piece: 'P' };
  $('editor').hidden = false;
  $('edit-side').value = pos.side;
  drawEditor();
  setStatus('Setting up a position');
  render();
}

export function drawEditor() {
  const pal = $('palette');
  pal.replaceChildren();
  const add = (piece, label) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.testid = 'palette';
    b.dataset.piece = piece;
    if (state.edit.piece === piece) b.classList.add('on');
    if (piece) {
      const g = document.createElement('span');
      g.className = 'pc';
      if (piece.startsWith('+')) g.classList.add('promoted');
      if (piece === piece.toLowerCase()) g.classList.add('turned');
      g.textContent = glyph(state.variant, piece, state.latin);
      b.append(g);
    } else b.textContent = label;
    b.addEventListener('click', () => { state.edit.piece = piece; drawEditor(); });
    pal.append(b);
  };
  for (const p of editPieces()) add(p);
  for (const p of editPieces()) add(p.toLowerCase());
  add('', '✕');
  const hands = $('edit-hands');
  hands.replaceChildren();
  if (!variantInfo(state.variant).drops) return;
  for (const who of ['black', 'white']) {
    const name = document.createElement('span');
    name.textContent = who === 'black' ? '☗ hand' : '☖ hand';
    hands.append(name);
    const kinds = HAND_ORDER.filter((k) => LETTERS[state.variant].includes(k));
    for (const k of HAND_ORDER) {
      const cell = document.createElement('span');
      if (kinds.includes(k)) {
        const n = state.edit.pos.hands[who][k] || 0;
        const b = document.createElement('button');
        b.type = 'button';
        b.dataset.testid = 'edit-hand';
        b.dataset.owner = who;
        b.dataset.piece = k;
        b.textContent = `${glyph(state.variant, k, state.latin)} ${n}`;
        b.title = 'Click: one more; Shift-click: one fewer';
        b.addEventListener('click', (e) => {
          const h = state.edit.pos.hands[who];
          h[k] = Math.max(0, (h[k] || 0) + (e.shiftKey ? -1 : 1));
          drawEditor();
          render();
        });
        cell.append(b);
      }
      hands.append(cell);
    }
  }
}

export function editSquare(sq) {
  const pos = state.edit.pos;
  const row = sq.charCodeAt(sq.length - 1) - 97;
  const col = pos.files - Number(sq.slice(0, -1));
  const cur = pos.rows[row][col];
  pos.rows[row][col] = cur === state.edit.piece ? '' : state.edit.piece;
  render();
}

export async function finishEdit(apply) {
  const edit = state.edit;
  if (!apply) {
    state.edit = null;
    $('editor').hidden = true;
    await refresh();
    return;
  }
  edit.pos.side = $('edit-side').value;
  const sfen = toSfen(edit.pos);
  try {
    await session.position(state.variant, `sfen ${sfen}`, []);
  } catch (err) {
    // The engine says what is wrong; the set-up stays for another try.
    failed(err);
    return;
  }
  showError('');
  state.edit = null;
  $('editor').hidden = true;
  state.side = 'both';
  $('side').value = 'both';
  await newGame({ start: `sfen ${sfen}` });
}
