// The board and the hands: drawn from a parsed position, every square an
// element with data-square / data-piece, every hand piece one with
// data-hand / data-piece / data-count. Input (click-click, drag, drops) is
// handed to the page as picks and drops; the page decides with the
// engine's legal moves.

import { glyph, pieceName, squareName, squareAt, HAND_ORDER } from './pieces.js';

const SVG = 'http://www.w3.org/2000/svg';

function el(tag, cls, attrs) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

export class Board {
  /** `root`: the element to draw in; `input`: { pick(source), drop(square),
   * cancel() }, a source being { square } or { hand, piece }. */
  constructor(root, input) {
    this.root = root;
    this.input = input;
    this.drag = null;
    root.addEventListener('pointerdown', (e) => this.down(e));
    window.addEventListener('pointermove', (e) => this.move(e));
    window.addEventListener('pointerup', (e) => this.up(e));
    window.addEventListener('pointercancel', () => this.endDrag());
  }

  /** Draws `view`: { pos, variant, latin, flipped, last, checks, selected,
   * targets, arrows, marks, promotion }. */
  render(view) {
    this.view = view;
    const { pos, flipped } = view;
    this.root.replaceChildren();
    this.root.style.setProperty('--files', pos.files);
    this.root.style.setProperty('--ranks', pos.ranks);
    const top = flipped ? 'black' : 'white';
    const bottom = flipped ? 'white' : 'black';
    this.root.append(this.hand(top, 'top'));
    const frame = el('div', 'frame');
    const files = el('div', 'files');
    const ranks = el('div', 'ranks');
    for (let c = 0; c < pos.files; c++) {
      const f = flipped ? c + 1 : pos.files - c;
      files.append(Object.assign(el('span'), { textContent: f }));
    }
    for (let r = 0; r < pos.ranks; r++) {
      const rr = flipped ? pos.ranks - 1 - r : r;
      ranks.append(Object.assign(el('span'), { textContent: String.fromCharCode(97 + rr) }));
    }
    const grid = el('div', 'grid', { 'data-testid': 'board' });
    const last = new Set(view.last || []);
    const checks = new Set(view.checks || []);
    const targets = new Set(view.targets || []);
    for (let r = 0; r < pos.ranks; r++) {
      for (let c = 0; c < pos.files; c++) {
        const row = flipped ? pos.ranks - 1 - r : r;
        const col = flipped ? pos.files - 1 - c : c;
        const sq = squareName(pos, row, col);
        const piece = pos.rows[row][col] || '';
        const cell = el('div', 'sq', { 'data-square': sq, 'data-piece': piece });
        if (last.has(sq)) cell.classList.add('last');
        if (checks.has(sq)) cell.classList.add('check');
        if (targets.has(sq)) cell.classList.add(piece ? 'target capture' : 'target');
        if (view.selected && view.selected.square === sq) cell.classList.add('selected');
        if (piece) cell.append(this.pieceEl(piece, view));
        grid.append(cell);
      }
    }
    frame.append(files, grid, ranks);
    frame.append(this.arrows(view));
    if (view.promotion) frame.append(this.promotionChoice(view));
    this.root.append(frame);
    this.root.append(this.hand(bottom, 'bottom'));
  }

  pieceEl(piece, view) {
    const white = piece === piece.toLowerCase();
    const up = piece.toUpperCase();
    const p = el('span', 'pc');
    if (up.startsWith('+')) p.classList.add('promoted');
    if (white !== !!view.flipped) p.classList.add('turned');
    if (view.latin) p.classList.add('latin');
    p.textContent = glyph(view.variant, piece, view.latin);
    p.title = pieceName(view.variant, up);
    return p;
  }

  hand(who, place) {
    const { pos, variant, latin } = this.view;
    const box = el('div', `hand ${place}`, { 'data-owner': who });
    const label = el('span', 'hand-label');
    label.textContent = who === 'black' ? '☗ Black' : '☖ White';
    box.append(label);
    let any = false;
    for (const k of HAND_ORDER) {
      const n = pos.hands[who][k] || 0;
      if (!n) continue;
      any = true;
      const b = el('button', 'hp', {
        type: 'button', 'data-hand': who, 'data-piece': k, 'data-count': n,
        title: `${pieceName(variant, k)} in hand`,
      });
      const sel = this.view.selected;
      if (sel && sel.hand === who && sel.piece === k) b.classList.add('selected');
      const g = el('span', 'pc');
      if (latin) g.classList.add('latin');
      g.textContent = glyph(variant, k, latin);
      b.append(g);
      if (n > 1) b.append(Object.assign(el('span', 'count'), { textContent: n }));
      box.append(b);
    }
    // Variants without drops keep no hand: only the side's name shows.
    if (!any && this.view.drops) box.append(Object.assign(el('span', 'none'), { textContent: '—' }));
    return box;
  }

  /** The centre of a square in board units (one square = 1). */
  centre(sq) {
    const { pos, flipped } = this.view;
    const { row, col } = squareAt(pos, sq);
    const r = flipped ? pos.ranks - 1 - row : row;
    const c = flipped ? pos.files - 1 - col : col;
    return [c + 0.5, r + 0.5];
  }

  arrows(view) {
    const { pos } = view;
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'arrows');
    svg.setAttribute('viewBox', `0 0 ${pos.files} ${pos.ranks}`);
    svg.setAttribute('preserveAspectRatio', 'none');
    const defs = document.createElementNS(SVG, 'defs');
    defs.innerHTML = '<marker id="head" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" '
      + 'markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
      + 'fill="context-stroke"/></marker>';
    svg.append(defs);
    for (const a of view.arrows || []) {
      const g = document.createElementNS(SVG, 'g');
      g.setAttribute('data-testid', 'arrow');
      g.setAttribute('data-usi', a.usi);
      g.setAttribute('class', `arrow ${a.kind || ''}`);
      g.style.opacity = a.opacity ?? 0.8;
      const [x2, y2] = this.centre(a.usi.slice(2, 4));
      if (a.usi[1] === '*') {
        const c = document.createElementNS(SVG, 'circle');
        c.setAttribute('cx', x2); c.setAttribute('cy', y2); c.setAttribute('r', 0.38);
        g.append(c);
      } else {
        const [x1, y1] = this.centre(a.usi.slice(0, 2));
        const len = Math.hypot(x2 - x1, y2 - y1);
        const k = (len - 0.25) / len;
        const line = document.createElementNS(SVG, 'line');
        line.setAttribute('x1', x1); line.setAttribute('y1', y1);
        line.setAttribute('x2', x1 + (x2 - x1) * k); line.setAttribute('y2', y1 + (y2 - y1) * k);
        line.setAttribute('marker-end', 'url(#head)');
        g.append(line);
      }
      svg.append(g);
    }
    return svg;
  }

  promotionChoice(view) {
    const { to, piece } = view.promotion;
    const [x, y] = this.centre(to);
    const box = el('div', 'promo', { role: 'dialog', 'aria-label': 'Promote?' });
    box.style.left = `${(x / view.pos.files) * 100}%`;
    box.style.top = `${(y / view.pos.ranks) * 100}%`;
    const yes = el('button', 'promo-yes', { type: 'button', 'data-testid': 'promote', title: 'Promote' });
    yes.append(this.pieceEl(view.pos.side === 'black' ? '+' + piece : '+' + piece.toLowerCase(),
      { ...view, flipped: false }));
    const no = el('button', 'promo-no', { type: 'button', 'data-testid': 'no-promote', title: 'Do not promote' });
    no.append(this.pieceEl(view.pos.side === 'black' ? piece : piece.toLowerCase(), { ...view, flipped: false }));
    yes.addEventListener('click', (e) => { e.stopPropagation(); this.input.promote(true); });
    no.addEventListener('click', (e) => { e.stopPropagation(); this.input.promote(false); });
    yes.addEventListener('pointerdown', (e) => e.stopPropagation());
    no.addEventListener('pointerdown', (e) => e.stopPropagation());
    box.append(yes, no);
    return box;
  }

  source(target) {
    const sq = target.closest('[data-square]');
    if (sq) return { square: sq.dataset.square, piece: sq.dataset.piece };
    const hp = target.closest('[data-hand]');
    if (hp) return { hand: hp.dataset.hand, piece: hp.dataset.piece };
    return null;
  }

  down(e) {
    if (e.button !== 0 || !this.view) return;
    const src = this.source(e.target);
    if (!src) return;
    const started = this.input.press(src);
    if (started && (src.hand || src.piece)) {
      this.drag = { src, x: e.clientX, y: e.clientY, ghost: null };
      e.preventDefault();
    }
  }

  move(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.ghost && Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
    if (!d.ghost) {
      const from = d.src.square
        ? this.root.querySelector(`[data-square="${d.src.square}"] .pc`)
        : this.root.querySelector(`[data-hand="${d.src.hand}"][data-piece="${d.src.piece}"] .pc`);
      if (!from) return;
      d.ghost = from.cloneNode(true);
      d.ghost.classList.add('ghost');
      const size = this.root.querySelector('.sq').getBoundingClientRect().width;
      d.ghost.style.width = d.ghost.style.height = `${size}px`;
      d.ghost.style.fontSize = `${size * 0.62}px`;
      document.body.append(d.ghost);
      from.classList.add('lifted');
    }
    d.ghost.style.left = `${e.clientX}px`;
    d.ghost.style.top = `${e.clientY}px`;
  }

  up(e) {
    const d = this.drag;
    if (!d) return;
    const dragged = !!d.ghost;
    this.endDrag();
    if (!dragged) return;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const sq = under && under.closest('[data-square]');
    if (sq && sq.dataset.square !== d.src.square) this.input.release(sq.dataset.square);
    else this.input.redraw();
  }

  endDrag() {
    if (this.drag && this.drag.ghost) this.drag.ghost.remove();
    this.drag = null;
  }
}
