// Tsume: asking the solver for a mate and stepping through its line.

import { applyMove, moveText, variantInfo } from './pieces.js';
import { $, failed, state } from './state.js';
import { startAnalysis, startSearch } from './game.js';
import { render } from './render.js';

export async function askMate() {
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

export function showMate(words) {
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

export function renderMate() {
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

export function stepMate(d) {
  if (!state.mate) return;
  state.mate.step = Math.max(0, Math.min(state.mate.line.length, state.mate.step + d));
  renderMate();
}
