// Variants, pieces and positions as the page shows them. Nothing here knows
// the rules: legal moves and results come from the engine. A move is only
// ever applied here to draw a line the engine gave (a PV, a mate line, the
// record), mechanically: the piece moves, a capture goes to the hand.

export const VARIANTS = [
  { name: 'shogi', label: 'Shogi', drops: true },
  { name: 'judkins', label: 'Judkins shogi', drops: true },
  { name: 'yarishogi', label: 'Yari shogi', drops: true },
  { name: 'heian', label: 'Heian shogi', drops: false },
  { name: 'heian9x8', label: 'Heian 9×8', drops: false },
  { name: 'heian8x9', label: 'Heian 8×9', drops: false },
  { name: 'heian8x8', label: 'Heian 8×8', drops: false },
];

export function variantInfo(name) {
  return VARIANTS.find((v) => v.name === name) || VARIANTS[0];
}

// Kanji by SFEN letter ('+X' promoted). Yari's pieces differ: its rook moves
// forward and sideways (車), its promoted bishop and knight are yari golds,
// its promoted pawn a yari silver.
const KANJI = {
  K: '玉', R: '飛', '+R': '龍', B: '角', '+B': '馬', G: '金', S: '銀', '+S': '全',
  N: '桂', '+N': '圭', L: '香', '+L': '杏', P: '歩', '+P': 'と',
};
const YARI_KANJI = {
  K: '玉', R: '車', '+R': '飛', B: '角', '+B': '金', N: '桂', '+N': '金', P: '歩', '+P': '銀',
};
const NAMES = {
  K: 'king', R: 'rook', '+R': 'dragon', B: 'bishop', '+B': 'horse', G: 'gold', S: 'silver',
  '+S': 'promoted silver', N: 'knight', '+N': 'promoted knight', L: 'lance',
  '+L': 'promoted lance', P: 'pawn', '+P': 'tokin',
};
const YARI_NAMES = {
  K: 'king', R: 'yari rook', '+R': 'rook', B: 'yari bishop', '+B': 'yari gold',
  N: 'yari knight', '+N': 'yari gold', P: 'pawn', '+P': 'yari silver',
};

// The order hands are shown in.
export const HAND_ORDER = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];

/** The glyph of a piece (`p`: SFEN letters, either case). */
export function glyph(variant, p, latin) {
  const up = p.toUpperCase();
  if (latin) return up;
  const table = variant === 'yarishogi' ? YARI_KANJI : KANJI;
  if (up === 'K' && p === 'k') return '王';
  return table[up] || up;
}

/** A piece's English name. */
export function pieceName(variant, p) {
  const up = p.toUpperCase();
  return (variant === 'yarishogi' ? YARI_NAMES : NAMES)[up] || up;
}

/** A SFEN read into board rows (top rank first, leftmost = highest file),
 * hands and side to move. */
export function parseSfen(sfen) {
  const [board, side, hand, num] = sfen.trim().split(/\s+/);
  const rows = board.split('/').map((r) => {
    const cells = [];
    for (let i = 0; i < r.length; i++) {
      const c = r[i];
      if (c >= '0' && c <= '9') {
        let n = c;
        while (r[i + 1] >= '0' && r[i + 1] <= '9') n += r[++i];
        for (let k = 0; k < Number(n); k++) cells.push('');
      } else if (c === '+') {
        cells.push('+' + r[++i]);
      } else {
        cells.push(c);
      }
    }
    return cells;
  });
  const hands = { black: {}, white: {} };
  if (hand && hand !== '-') {
    let n = '';
    for (const c of hand) {
      if (c >= '0' && c <= '9') { n += c; continue; }
      const who = c === c.toUpperCase() ? 'black' : 'white';
      hands[who][c.toUpperCase()] = (hands[who][c.toUpperCase()] || 0) + (n ? Number(n) : 1);
      n = '';
    }
  }
  return {
    rows, hands, side: side === 'w' ? 'white' : 'black', ply: Number(num || 1),
    files: rows[0].length, ranks: rows.length,
  };
}

/** A parsed position back to SFEN. */
export function toSfen(pos) {
  const board = pos.rows.map((r) => {
    let s = ''; let empty = 0;
    for (const c of r) {
      if (!c) { empty++; continue; }
      if (empty) { s += empty; empty = 0; }
      s += c;
    }
    return empty ? s + empty : s;
  }).join('/');
  let hand = '';
  for (const [who, up] of [['black', true], ['white', false]]) {
    for (const k of HAND_ORDER) {
      const n = pos.hands[who][k] || 0;
      if (!n) continue;
      hand += (n > 1 ? n : '') + (up ? k : k.toLowerCase());
    }
  }
  return `${board} ${pos.side === 'white' ? 'w' : 'b'} ${hand || '-'} ${pos.ply}`;
}

/** The USI name of the square at `row`, `col` (unflipped). */
export function squareName(pos, row, col) {
  return `${pos.files - col}${String.fromCharCode(97 + row)}`;
}

/** Row and column of a USI square. */
export function squareAt(pos, sq) {
  const file = Number(sq.slice(0, -1));
  const rank = sq.charCodeAt(sq.length - 1) - 97;
  return { row: rank, col: pos.files - file };
}

/** A USI move split: { drop, piece (drop), from, to, promote }. */
export function splitMove(usi) {
  if (usi[1] === '*') return { drop: true, piece: usi[0].toUpperCase(), to: usi.slice(2, 4) };
  return { drop: false, from: usi.slice(0, 2), to: usi.slice(2, 4), promote: usi.endsWith('+') };
}

/** `pos` with `usi` applied mechanically (a move the engine gave). */
export function applyMove(pos, usi, drops) {
  const next = {
    ...pos,
    rows: pos.rows.map((r) => r.slice()),
    hands: { black: { ...pos.hands.black }, white: { ...pos.hands.white } },
    side: pos.side === 'black' ? 'white' : 'black',
    ply: pos.ply + 1,
  };
  const m = splitMove(usi);
  const to = squareAt(pos, m.to);
  const mover = pos.side;
  if (m.drop) {
    next.hands[mover][m.piece] = Math.max(0, (next.hands[mover][m.piece] || 0) - 1);
    next.rows[to.row][to.col] = mover === 'black' ? m.piece : m.piece.toLowerCase();
    return next;
  }
  const from = squareAt(pos, m.from);
  let piece = next.rows[from.row][from.col];
  const captured = next.rows[to.row][to.col];
  if (captured && drops) {
    const k = captured.replace('+', '').toUpperCase();
    next.hands[mover][k] = (next.hands[mover][k] || 0) + 1;
  }
  if (m.promote && piece && !piece.startsWith('+')) piece = '+' + piece;
  next.rows[to.row][to.col] = piece;
  next.rows[from.row][from.col] = '';
  return next;
}

/** A move in the variant's (Hodges') notation: `P-7f`, `Bx3c+`, `P*5e`,
 * `N-2c=` (promotion declined), from the position before it. `canPromote`
 * says whether the mover had the choice (then `=` marks a declined one). */
export function moveText(pos, usi, latin, variant, canPromote) {
  const m = splitMove(usi);
  const side = pos.side === 'black' ? '☗' : '☖';
  if (m.drop) return `${side}${latin ? m.piece : glyph(variant, m.piece, false)}*${m.to}`;
  const from = squareAt(pos, m.from);
  const to = squareAt(pos, m.to);
  const piece = pos.rows[from.row][from.col] || '?';
  const name = latin ? piece.toUpperCase() : glyph(variant, piece.toUpperCase(), false);
  const sep = pos.rows[to.row][to.col] ? 'x' : '-';
  const suffix = m.promote ? '+' : canPromote ? '=' : '';
  return `${side}${name}${m.from}${sep}${m.to}${suffix}`;
}
