// The server's JSON API (docs/web.md): one engine session per page.

/** An error the server answered: `kind` is its word (`dead`, `engine`...). */
export class ApiError extends Error {
  constructor(message, kind, status) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

async function post(path, body) {
  let res;
  try {
    res = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body || {}),
    });
  } catch (e) {
    throw new ApiError('the server cannot be reached (is kawari web still running?)', 'offline', 0);
  }
  let data = {};
  try { data = await res.json(); } catch (e) { /* an empty answer */ }
  if (!res.ok) throw new ApiError(data.error || `HTTP ${res.status}`, data.kind || 'http', res.status);
  return data;
}

/** A page's engine session. */
export class Session {
  static async open(variant) {
    const { id, pid } = await post('/api/session', { variant });
    return new Session(id, pid);
  }

  constructor(id, pid) {
    this.id = id;
    this.pid = pid;
    this.base = `/api/session/${id}`;
  }

  position(variant, start, moves) { return post(`${this.base}/position`, { variant, start, moves }); }
  level(body) { return post(`${this.base}/level`, body); }
  go(body) { return post(`${this.base}/go`, body); }
  stop() { return post(`${this.base}/stop`); }
  async restart() { const r = await post(`${this.base}/restart`); this.pid = r.pid; return r; }
  ping() { return post(`${this.base}/ping`); }

  /** Ends the session as the page goes away (a beacon survives unload). */
  close() {
    if (this.events) this.events.close();
    if (navigator.sendBeacon) navigator.sendBeacon(`${this.base}/close`, '{}');
  }

  /** Calls `onEvent` with each event the engine sends. */
  listen(onEvent) {
    this.events = new EventSource(`${this.base}/events`);
    this.events.onmessage = (e) => {
      let data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      onEvent(data);
    };
    return this.events;
  }
}

/** An `info` line read into fields (pv as USI moves). */
export function parseInfo(line) {
  const w = line.split(' ');
  const info = {};
  for (let i = 1; i < w.length; i++) {
    const k = w[i];
    if (k === 'pv') { info.pv = w.slice(i + 1); break; }
    if (k === 'score') {
      info.score = { type: w[i + 1], value: w[i + 2] === '-0' ? -0 : Number(w[i + 2]) };
      if (w[i + 2] === '-0') info.score.mated = true;
      i += 2;
      if (w[i + 1] === 'lowerbound' || w[i + 1] === 'upperbound') info.bound = w[++i];
      continue;
    }
    if (['depth', 'seldepth', 'multipv', 'time', 'nodes', 'nps', 'hashfull'].includes(k)) {
      info[k] = Number(w[++i]);
    } else if (k === 'string') {
      info.string = w.slice(i + 1).join(' ');
      break;
    }
  }
  return info;
}
