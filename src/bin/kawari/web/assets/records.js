// Game records to download: the USI moves (every variant) and KIF
// (standard shogi, as Kakinoki's format describes it; ShogiHome reads it).

import { applyMove, parseSfen, splitMove, squareAt } from './pieces.js';

export const SHOGI_START = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

/** `position startpos moves ...` (or `position sfen ...`), one line. */
export function usiRecord(start, moves) {
  const head = start === 'startpos' ? 'position startpos' : `position ${start}`;
  return moves.length ? `${head} moves ${moves.join(' ')}\n` : `${head}\n`;
}

const WIDE = '０１２３４５６７８９';
const KANJI_NUM = ['', '一', '二', '三', '四', '五', '六', '七', '八', '九', '十'];
const MOVE_NAME = {
  P: '歩', L: '香', N: '桂', S: '銀', G: '金', B: '角', R: '飛', K: '玉',
  '+P': 'と', '+L': '成香', '+N': '成桂', '+S': '成銀', '+B': '馬', '+R': '龍',
};
const BOARD_NAME = { ...MOVE_NAME, '+L': '杏', '+N': '圭', '+S': '全' };
const HAND_KANJI = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];

function rankNum(sq) { return sq.charCodeAt(1) - 96; }

function handText(hand) {
  const parts = [];
  for (const k of HAND_KANJI) {
    const n = hand[k] || 0;
    if (n) parts.push(MOVE_NAME[k] + (n > 1 ? KANJI_NUM[n] || String(n) : ''));
  }
  return parts.length ? parts.join('　') : 'なし';
}

/** The board diagram KIF uses for a position that is not the start. */
function bod(pos) {
  const lines = [`後手の持駒：${handText(pos.hands.white)}`];
  lines.push('  ９ ８ ７ ６ ５ ４ ３ ２ １');
  lines.push('+---------------------------+');
  pos.rows.forEach((row, r) => {
    let s = '|';
    for (const p of row) {
      if (!p) { s += ' ・'; continue; }
      const white = p === p.toLowerCase();
      s += (white ? 'v' : ' ') + BOARD_NAME[p.toUpperCase()];
    }
    lines.push(`${s}|${KANJI_NUM[r + 1]}`);
  });
  lines.push('+---------------------------+');
  lines.push(`先手の持駒：${handText(pos.hands.black)}`);
  if (pos.side === 'white') lines.push('後手番');
  return lines;
}

/** The KIF text of a shogi game: `start` ('startpos' or 'sfen ...'),
 * `moves` (USI), `promotable[i]` whether move i had a promotion choice,
 * `end` ({ word, winner } or null: the game goes on). */
export function kifRecord({ start, moves, promotable, end, black, white, date }) {
  const sfen = start === 'startpos' ? SHOGI_START : start.replace(/^sfen\s+/, '');
  let pos = parseSfen(sfen);
  const d = date || new Date();
  const pad = (n) => String(n).padStart(2, '0');
  const lines = [
    '# KIF written by Kawari (kawari web)',
    `開始日時：${d.getFullYear()}/${pad(d.getMonth() + 1)}/${pad(d.getDate())} `
      + `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
  ];
  if (sfen === SHOGI_START) lines.push('手合割：平手');
  else lines.push(...bod(pos));
  lines.push(`先手：${black}`, `後手：${white}`);
  lines.push('手数----指手---------消費時間--');
  let prevTo = null;
  moves.forEach((usi, i) => {
    const m = splitMove(usi);
    let text;
    const dest = m.to === prevTo ? '同　' : WIDE[Number(m.to[0])] + KANJI_NUM[rankNum(m.to)];
    if (m.drop) {
      text = `${dest}${MOVE_NAME[m.piece]}打`;
    } else {
      const { row, col } = squareAt(pos, m.from);
      const piece = pos.rows[row][col].toUpperCase();
      const suffix = m.promote ? '成' : promotable && promotable[i] ? '不成' : '';
      text = `${dest}${MOVE_NAME[piece] || '?'}${suffix}(${m.from[0]}${rankNum(m.from)})`;
    }
    lines.push(`${String(i + 1).padStart(4)} ${text}`);
    prevTo = m.to;
    pos = applyMove(pos, usi, true);
  });
  const n = moves.length;
  if (end && end.word) {
    lines.push(`${String(n + 1).padStart(4)} ${end.word}`);
    if (end.winner) lines.push(`まで${n}手で${end.winner === 'black' ? '先手' : '後手'}の勝ち`);
    else lines.push(`まで${n}手で${end.word}`);
  } else {
    lines.push(`${String(n + 1).padStart(4)} 中断`);
    lines.push(`まで${n}手で中断`);
  }
  return lines.join('\n') + '\n';
}
