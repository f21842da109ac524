// The page's state, shared by its modules, and the small helpers every
// module uses: status and error lines, and a failed request's handling.

import { ApiError } from './api.js';
import { variantInfo } from './pieces.js';

export const $ = (id) => document.getElementById(id);
export const params = new URLSearchParams(location.search);
export const other = (side) => (side === 'black' ? 'white' : 'black');
export const sideName = (side) => (side === 'black' ? '☗ Black' : '☖ White');

export const state = {
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

// The engine session and the board, set once by app.js (and the session
// again when a closed one is replaced).
export let session = null;
export let board = null;
export function setSession(s) { session = s; }
export function setBoard(b) { board = b; }

export function showError(msg) {
  const e = $('error');
  e.textContent = msg || '';
  e.hidden = !msg;
}

export function setStatus(text) {
  $('status').textContent = text;
}

/** Handles a failed request: a dead engine offers to continue. */
export function failed(err) {
  // A dead engine, or a session the server has closed (the page was
  // silent too long): either way the game goes on with a new engine.
  const gone = err instanceof ApiError && err.kind === 'not-found' && /session/.test(err.message);
  if (err instanceof ApiError && (err.kind === 'dead' || gone)) {
    engineDied();
  } else {
    showError(err.message || String(err));
  }
}

export function engineDied() {
  state.dead = true;
  state.search = null;
  $('dead').hidden = false;
  setStatus('The engine stopped. Continue from this position when ready.');
  document.body.dataset.thinking = '';
}
