// The page: a game in one variant against the engine (or between two
// people), its analysis, tsume and records. The engine session (api.js)
// answers every question of rules: legal moves, check, the game's end.

import { ApiError, Session } from './api.js';
import { Board } from './board.js';
import { VARIANTS, variantInfo } from './pieces.js';
import { kifRecord, usiRecord } from './records.js';
import { $, engineDied, failed, other, params, session, setBoard, setSession, setStatus, showError, sideName, state } from './state.js';
import { resetClock, tickClock } from './clock.js';
import { finish, newGame, onEngineLine, refresh, startAnalysis, takeback } from './game.js';
import { hint, renderPv, toggleAnalysis } from './analysis.js';
import { press, promote, release } from './input.js';
import { render } from './render.js';
import { askMate, renderMate, stepMate } from './tsume.js';
import { drawEditor, finishEdit, startEdit } from './editor.js';

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

async function continueAfterDeath() {
  try {
    try {
      await session.restart();
    } catch (err) {
      if (!(err instanceof ApiError && err.kind === 'not-found')) throw err;
      // The server closed the session: a new one takes over.
      if (session.events) session.events.close();
      setSession(await Session.open(state.variant));
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
  setBoard(new Board($('board'), { press, release, promote, redraw: render }));
  resetClock();
  try {
    setSession(await Session.open(state.variant));
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
