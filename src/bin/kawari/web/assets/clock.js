// The game clock: sudden death, Fischer or byoyomi, drawn each tick; the
// engine's `go` times come from it.

import { $, other, params, sideName, state } from './state.js';
import { finish } from './game.js';

function readClock() {
  const v = params.get('movetime') ? `move:${params.get('movetime')}` : $('clock').value;
  const [kind, a, b] = v.split(':');
  if (kind === 'move') return { kind, movetime: Number(a) };
  return { kind, main: Number(a) * 1000, extra: Number(b) * 1000 };
}

export function resetClock() {
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
export function switchClock(side) {
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

export function tickClock() {
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
export function moveBody() {
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
