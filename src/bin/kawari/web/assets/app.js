// The page: a game in one variant against the engine (or between two
// people), its analysis, tsume and records. The engine session (api.js)
// answers every question of rules: legal moves, check, the game's end.

import { Session, ApiError, parseInfo } from './api.js';
import { Board } from './board.js';
import { VARIANTS, variantInfo, parseSfen, applyMove, moveText, splitMove, toSfen, glyph, HAND_ORDER } from './pieces.js';
import { usiRecord, kifRecord } from './records.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const other = (side) => (side === 'black' ? 'white' : 'black');
const sideName = (side) => (side === 'black' ? '☗ Black' : '☖ White');

// The engine's think time when no clock runs, and a hint's, in ms.
const HINT_MS = 500;
// Plies shown on the evaluation graph's scale, and its score range in cp.
const GRAPH_CAP = 2000;

const state = {
  variant: variantInfo(params.get('variant') || 'shogi').name,
  start: 'startpos',
  startSfen: null,
  moves: [],
  promotable: [],
  view: null, // the engine's answer for the current position
  pos: null, // the current position, parsed
  side: ['black', 'white', 'both'].includes(params.get('side')) ? params.get('side') : 'black',
  flipped: false,
  latin: params.get('latin') === '1',
  selected: null,
  promotion: null,
  search: null, // { id, kind, t0, budget }
  analysing: false,
  lines: new Map(),
  hint: null,
  evals: [],
  end: null,
  mate: null, // { base, line, step }
  clock: null,
  dead: false,
  timings: { ready: null, replies: [] },
};
window.kawari = state;

let session = null;
let board = null;
let refreshSeq = 0;
// Events of a search whose number the page does not know yet: a quick
// search's last line can come on the stream before `/go` has answered.
const early = new Map();

/** Starts a search and notes it as the page's; lines that came first are
 * handled now. */
async function startSearch(body, fields) {
  const { search } = await session.go(body);
  state.search = { id: search, ...fields };
  const lines = early.get(search) || [];
  early.clear();
  for (const ev of lines) onEngineLine(ev);
  return search;
}

function humanToMove() {
  if (!state.pos || state.end) return false;
  return state.side === 'both' || state.side === state.pos.side;
}

function engineToMove() {
  return state.pos && !state.end && state.side !== 'both' && state.side !== state.pos.side;
}

function showError(msg) {
  const e = $('error');
  e.textContent = msg || '';
  e.hidden = !msg;
}

function setStatus(text) {
  $('status').textContent = text;
}

/** Handles a failed request: a dead engine offers to continue. */
function failed(err) {
  // A dead engine, or a session the server has closed (the page was
  // silent too long): either way the game goes on with a new engine.
  const gone = err instanceof ApiError && err.kind === 'not-found' && /session/.test(err.message);
  if (err instanceof ApiError && (err.kind === 'dead' || gone)) {
    engineDied();
  } else {
    showError(err.message || String(err));
  }
}

function engineDied() {
  state.dead = true;
  state.search = null;
  $('dead').hidden = false;
  setStatus('The engine stopped. Continue from this position when ready.');
  document.body.dataset.thinking = '';
}

// ---- The clock ---------------------------------------------------------

function readClock() {
  const v = params.get('movetime') ? `move:${params.get('movetime')}` : $('clock').value;
  const [kind, a, b] = v.split(':');
  if (kind === 'move') return { kind, movetime: Number(a) };
  return { kind, main: Number(a) * 1000, extra: Number(b) * 1000 };
}

function resetClock() {
  const c = readClock();
  state.clock = { ...c, left: { black: c.main || 0, white: c.main || 0 }, since: null, running: null };
  if (c.kind === 'byoyomi') state.clock.period = { black: c.extra, white: c.extra };
  $('clocks').hidden = c.kind === 'move';
  drawClocks();
}

function clockLeft(side) {
  const c = state.clock;
  let left = c.left[side];
  if (c.running === side && c.since != null) left -= performance.now() - c.since;
  return left;
}

function fmt(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function drawClocks() {
  const c = state.clock;
  if (!c || c.kind === 'move') return;
  for (const side of ['black', 'white']) {
    let left = clockLeft(side);
    let text = fmt(left);
    if (c.kind === 'byoyomi' && left <= 0) text = `${fmt(c.extra + left)} byoyomi`;
    const e = $(`clock-${side}`);
    e.textContent = `${sideName(side)} ${text}`;
    e.classList.toggle('running', c.running === side);
  }
}

/** The clock moves on to `side` (null: stops). The side that moved gets
 * its increment, or its byoyomi back. */
function switchClock(side) {
  const c = state.clock;
  if (!c || c.kind === 'move') return;
  const now = performance.now();
  if (c.running && c.since != null) {
    const moved = c.running;
    c.left[moved] -= now - c.since;
    if (c.kind === 'fischer') c.left[moved] += c.extra;
    if (c.kind === 'byoyomi' && c.left[moved] < 0) c.left[moved] = 0;
  }
  c.running = side;
  c.since = side ? now : null;
  drawClocks();
}

function tickClock() {
  const c = state.clock;
  if (!c || c.kind === 'move' || !c.running || state.end) return;
  drawClocks();
  const side = c.running;
  const over = c.kind === 'byoyomi' ? clockLeft(side) + c.extra < 0 : clockLeft(side) < 0;
  // The engine keeps its own time; the page only flags a person's.
  if (over && (state.side === side || state.side === 'both')) {
    finish({ text: `${sideName(side)} ran out of time — ${sideName(other(side))} wins`,
      word: '切れ負け', winner: other(side) });
  }
}

/** The `go` body for the engine's move. */
function moveBody() {
  const c = state.clock;
  if (c.kind === 'move') return { body: { kind: 'move', movetime: c.movetime }, budget: c.movetime };
  const side = state.pos.side;
  const body = {
    kind: 'move',
    btime: Math.max(0, Math.round(clockLeft('black'))),
    wtime: Math.max(0, Math.round(clockLeft('white'))),
  };
  if (c.kind === 'fischer') { body.binc = c.extra; body.winc = c.extra; } else body.byoyomi = c.extra;
  return { body, budget: null, side };
}

// ---- The game ------------------------------------------------------------

/** Asks the engine about the game's current position and goes on from it:
 * the engine's move, or analysis. */
async function refresh() {
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

function finish(end) {
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

async function startAnalysis() {
  if (state.end || engineToMove() || state.mate?.step) return;
  try {
    const multipv = Number($('multipv').value);
    await startSearch({ kind: 'analyse', multipv }, { kind: 'analyse', ply: state.moves.length });
  } catch (err) {
    failed(err);
  }
}

/** Plays `usi` (legal: it came from the engine's list or its bestmove). */
async function play(usi) {
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

function onEngineLine(ev) {
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

function recordEval(info, ply) {
  if ((info.multipv || 1) !== 1 || info.bound) return;
  const toMove = state.pos.side;
  let cp = info.score.type === 'mate'
    ? (info.score.value > 0 || (info.score.value === 0 && !info.score.mated) ? GRAPH_CAP : -GRAPH_CAP)
    : Math.max(-GRAPH_CAP, Math.min(GRAPH_CAP, info.score.value));
  if (toMove === 'white') cp = -cp;
  state.evals[ply] = cp;
  renderGraph();
}

// ---- Input ------------------------------------------------------------------

function movesFrom(src) {
  const legal = state.view?.legal || [];
  if (src.hand) return legal.filter((m) => m[1] === '*' && m[0].toUpperCase() === src.piece);
  return legal.filter((m) => m[1] !== '*' && m.slice(0, 2) === src.square);
}

function targets() {
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
function press(src) {
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

function release(square) {
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

function promote(yes) {
  const p = state.promotion;
  if (!p) return;
  state.promotion = null;
  play(yes ? p.promo : p.plain);
}

// ---- Drawing -----------------------------------------------------------------

function shownPosition() {
  if (state.edit) return state.edit.pos;
  if (state.mate && state.mate.step) {
    let pos = state.mate.base;
    for (const m of state.mate.line.slice(0, state.mate.step)) pos = applyMove(pos, m, variantInfo(state.variant).drops);
    return pos;
  }
  return state.pos;
}

function render() {
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

function renderPv() {
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

function renderGraph() {
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

// ---- Tsume -----------------------------------------------------------------

async function askMate() {
  if (state.dead) return;
  state.mate = null;
  renderMate();
  $('mate-result').textContent = 'Looking for a mate…';
  try {
    const ms = Number($('mate-time').value);
    await startSearch({ kind: 'mate', ms }, { kind: 'mate', ms });
  } catch (err) {
    $('mate-result').textContent = '';
    failed(err);
  }
}

function showMate(words) {
  const res = $('mate-result');
  if (words[0] === 'nomate') {
    res.textContent = 'No mate: the side to move cannot force one.';
  } else if (words[0] === 'timeout') {
    res.textContent = 'Time out: no mate found in the time given.';
  } else if (words[0] === 'notimplemented' || !words.length) {
    res.textContent = 'The solver cannot answer this position.';
  } else {
    state.mate = { base: state.pos, line: words, step: 0 };
    res.textContent = `Mate in ${words.length} plies. Step through it with ◀ ▶ or click a move.`;
  }
  renderMate();
  if (state.analysing) startAnalysis();
}

function renderMate() {
  const ol = $('mate-line');
  ol.replaceChildren();
  if (!state.mate) { render(); return; }
  let pos = state.mate.base;
  const drops = variantInfo(state.variant).drops;
  state.mate.line.forEach((m, i) => {
    const li = document.createElement('li');
    li.dataset.usi = m;
    li.textContent = moveText(pos, m, state.latin, state.variant, false);
    if (i + 1 === state.mate.step) li.classList.add('current');
    li.addEventListener('click', () => { state.mate.step = i + 1; renderMate(); });
    ol.append(li);
    pos = applyMove(pos, m, drops);
  });
  render();
}

function stepMate(d) {
  if (!state.mate) return;
  state.mate.step = Math.max(0, Math.min(state.mate.line.length, state.mate.step + d));
  renderMate();
}

// ---- Controls ------------------------------------------------------------------

async function newGame({ start = 'startpos' } = {}) {
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

async function changeVariant(name) {
  state.variant = variantInfo(name).name;
  const url = new URL(location.href);
  url.searchParams.set('variant', state.variant);
  history.replaceState(null, '', url);
  await newGame();
}

async function applyLevel() {
  const [kind, n] = $('level').value.split(':');
  try {
    await session.level(kind === 'elo' ? { elo: Number(n) } : { skill: Number(n) });
  } catch (err) {
    failed(err);
  }
}

async function takeback() {
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

async function loadPosition() {
  let text = $('position-input').value.trim().replace(/^position\s+/, '');
  if (!text) return;
  if (text !== 'startpos' && !/^(sfen|fen)\s/.test(text)) text = (text.includes('[') ? 'fen ' : 'sfen ') + text;
  try {
    const r = await session.position(state.variant, text, []);
    showError('');
    state.side = 'both';
    $('side').value = 'both';
    await newGame({ start: `sfen ${r.sfen}` });
  } catch (err) {
    failed(err);
    // The engine keeps the game's position; so does the page.
    refresh();
  }
}

function download(name, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  a.download = name;
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); } catch (e) { /* not allowed: the text is shown */ }
}

async function toggleAnalysis() {
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

async function hint() {
  if (!humanToMove()) return;
  try {
    state.lines.clear();
    setStatus('Looking for a hint…');
    await startSearch({ kind: 'hint', movetime: HINT_MS }, { kind: 'hint' });
  } catch (err) {
    failed(err);
  }
}

async function continueAfterDeath() {
  try {
    try {
      await session.restart();
    } catch (err) {
      if (!(err instanceof ApiError && err.kind === 'not-found')) throw err;
      // The server closed the session: a new one takes over.
      if (session.events) session.events.close();
      session = await Session.open(state.variant);
      window.kawariSession = session;
      listen();
    }
    state.dead = false;
    $('dead').hidden = true;
    await applyLevel();
    await refresh();
  } catch (err) {
    showError(err.message);
  }
}

// ---- Setting up a position ---------------------------------------------------

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

function startEdit() {
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

function drawEditor() {
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

function editSquare(sq) {
  const pos = state.edit.pos;
  const row = sq.charCodeAt(sq.length - 1) - 97;
  const col = pos.files - Number(sq.slice(0, -1));
  const cur = pos.rows[row][col];
  pos.rows[row][col] = cur === state.edit.piece ? '' : state.edit.piece;
  render();
}

async function finishEdit(apply) {
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

function setupControls() {
  for (const v of VARIANTS) $('variant').append(new Option(v.label, v.name));
  $('variant').value = state.variant;
  const level = $('level');
  level.append(new Option('Full strength', 'skill:20'));
  for (let n = 19; n >= -20; n--) level.append(new Option(`Skill ${n}`, `skill:${n}`));
  for (const elo of [800, 1000, 1200, 1500, 1800, 2100, 2400, 2700]) level.append(new Option(`Elo ${elo}`, `elo:${elo}`));
  if (params.get('level')) level.value = params.get('level');
  $('side').value = state.side;
  $('latin').checked = state.latin;
  $('variant').addEventListener('change', (e) => changeVariant(e.target.value));
  $('new-game').addEventListener('click', () => newGame());
  $('side').addEventListener('change', (e) => { state.side = e.target.value; state.selected = null; refresh(); });
  $('level').addEventListener('change', applyLevel);
  $('clock').addEventListener('change', () => newGame());
  $('flip').addEventListener('click', () => { state.flipped = !state.flipped; render(); });
  $('latin').addEventListener('change', (e) => {
    state.latin = e.target.checked;
    $('moves').replaceChildren();
    render(); renderPv(); renderMate();
  });
  $('takeback').addEventListener('click', takeback);
  $('resign').addEventListener('click', () => {
    if (state.end || !state.pos) return;
    const loser = state.side === 'both' ? state.pos.side : state.side;
    finish({ text: `${sideName(loser)} resigns — ${sideName(other(loser))} wins`, word: '投了', winner: other(loser) });
  });
  $('declare').addEventListener('click', () => {
    finish({ text: `Impasse declaration — ${sideName(state.pos.side)} wins`, word: '入玉勝ち', winner: state.pos.side });
  });
  $('analyse').addEventListener('click', toggleAnalysis);
  $('multipv').addEventListener('change', () => { if (state.analysing) { state.lines.clear(); startAnalysis(); } });
  $('hint').addEventListener('click', hint);
  $('mate').addEventListener('click', askMate);
  $('mate-prev').addEventListener('click', () => stepMate(-1));
  $('mate-next').addEventListener('click', () => stepMate(1));
  $('load-position').addEventListener('click', loadPosition);
  $('position-input').addEventListener('keydown', (e) => { if (e.key === 'Enter') loadPosition(); });
  $('copy-sfen').addEventListener('click', () => copy(state.view?.sfen || ''));
  $('copy-fen').addEventListener('click', () => copy(state.view?.fen || ''));
  $('download-usi').addEventListener('click', () => download(`kawari-${state.variant}.usi`, usiRecord(state.start, state.moves)));
  $('download-kif').addEventListener('click', () => {
    if (state.variant !== 'shogi') return;
    const you = 'You';
    const engine = 'Kawari';
    download('kawari-shogi.kif', kifRecord({
      start: state.start, moves: state.moves, promotable: state.promotable, end: state.end,
      black: state.side === 'white' ? engine : you, white: state.side === 'black' ? engine : you,
    }));
  });
  $('continue').addEventListener('click', continueAfterDeath);
  $('edit').addEventListener('click', startEdit);
  $('edit-done').addEventListener('click', () => finishEdit(true));
  $('edit-cancel').addEventListener('click', () => finishEdit(false));
  $('edit-clear').addEventListener('click', () => {
    const pos = state.edit.pos;
    pos.rows = pos.rows.map((r) => r.map(() => ''));
    pos.hands = { black: {}, white: {} };
    drawEditor();
    render();
  });
  $('edit-start').addEventListener('click', () => {
    state.edit.pos = { ...parseSfen(state.startSfen || state.view.sfen), ply: 1 };
    drawEditor();
    render();
  });
  window.addEventListener('pagehide', () => session && session.close());
  setInterval(tickClock, 200);
}

function listen() {
  session.listen((ev) => {
    if (ev.type === 'engine') onEngineLine(ev);
    else if (ev.type === 'dead') engineDied();
    else if (ev.type === 'hello' && ev.dead) engineDied();
  });
}

async function main() {
  setupControls();
  board = new Board($('board'), { press, release, promote, redraw: render });
  resetClock();
  try {
    session = await Session.open(state.variant);
    window.kawariSession = session;
  } catch (err) {
    setStatus('Cannot start the engine.');
    showError(err.message);
    return;
  }
  listen();
  if ($('level').value !== 'skill:20') await applyLevel();
  await newGame();
  state.timings.ready = performance.now();
  document.body.dataset.ready = '1';
}

main();
