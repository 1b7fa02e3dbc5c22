// The socket to the bot (adapters/web/protocol.py): hello with the link or the session
// token, then views, acks, notices; reconnects with backoff; a move whose ack never came is
// sent again, with the same sequence number, after every welcome (the server applies it once).

const KEY = "belote-table:";
const PING_MS = 25000;
const DEAD_MS = 60000; // nothing at all heard for this long: the line is dead, reconnect
const BACKOFF_MIN = 500;
const BACKOFF_MAX = 15000;
const GONE_TRIES = 3;

const store = {
  get(name) {
    try {
      return sessionStorage.getItem(KEY + name);
    } catch {
      return null;
    }
  },
  set(name, value) {
    try {
      if (value === null || value === undefined) sessionStorage.removeItem(KEY + name);
      else sessionStorage.setItem(KEY + name, String(value));
    } catch {
      /* storage off: this tab keeps going without it */
    }
  },
};

/** The link's token from the address (#k=...), taken out of the address bar at once. */
export function takeLink(loc = window.location) {
  const m = /(?:^#|&)k=([A-Za-z0-9_.-]+)/.exec(loc.hash || "");
  if (!m) return;
  if (store.get("link") !== m[1]) {
    // a new link: a new session, its own sequence numbers
    for (const name of ["session", "seq", "pending", "locale"]) store.set(name, null);
    store.set("link", m[1]);
  }
  history.replaceState(null, "", loc.pathname + loc.search);
}

export function hasToken() {
  return Boolean(store.get("session") || store.get("link"));
}

export function savedLocale() {
  return store.get("locale");
}

/** The connection. ``on`` has handlers: welcome, view, ack, notice, status, ended. */
export class Line {
  constructor(on, { lang = null } = {}) {
    this.on = on;
    this.lang = lang;
    this.ws = null;
    this.attempt = 0;
    this.goneTries = 0;
    this.ended = false;
    this.bye = null;
    this.welcomed = false;
    this.heard = 0;
    this.retryTimer = null;
    this.pingTimer = setInterval(() => this.ping(), PING_MS);
    window.addEventListener("online", () => this.now());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.now();
    });
  }

  get pending() {
    try {
      return JSON.parse(store.get("pending") || "null");
    } catch {
      return null;
    }
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN && this.welcomed;
  }

  connect() {
    if (this.ended || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const token = store.get("session") || store.get("link");
    if (!token) {
      this.end("refused", null);
      return;
    }
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${scheme}//${location.host}/table/ws`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    this.bye = null;
    this.welcomed = false;
    this.on.status(this.attempt ? "reconnecting" : "connecting");
    ws.onopen = () => {
      this.heard = Date.now();
      const hello = { type: "hello", token };
      const lang = this.lang || store.get("locale");
      if (lang) hello.lang = lang;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => this.frame(ev.data);
    ws.onclose = (ev) => this.closed(ws, ev.code);
    ws.onerror = () => {};
  }

  frame(text) {
    this.heard = Date.now();
    let f;
    try {
      f = JSON.parse(text);
    } catch {
      return;
    }
    if (!f || typeof f !== "object") return;
    if (f.type === "welcome") {
      this.welcomed = true;
      this.attempt = 0;
      this.goneTries = 0;
      store.set("session", f.session);
      store.set("link", null);
      if (f.locale) store.set("locale", f.locale);
      const mine = Number(store.get("seq") || 0);
      store.set("seq", Math.max(mine, Number(f.seq) || 0));
      this.on.welcome(f); // first: the page's language is the welcome's
      this.on.status("live");
      const p = this.pending;
      if (p) this.ws.send(JSON.stringify({ type: "act", ...p }));
    } else if (f.type === "view") {
      this.on.view(f.view);
    } else if (f.type === "ack") {
      const p = this.pending;
      if (p && p.seq === f.seq) store.set("pending", null);
      this.on.ack(f);
    } else if (f.type === "notice") {
      this.on.notice(f.text);
    } else if (f.type === "bye") {
      this.bye = f;
    }
  }

  closed(ws, code) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.welcomed = false;
    const reason = (this.bye && this.bye.reason) || { 4001: "refused", 4004: "gone" }[code];
    const text = this.bye ? this.bye.text : null;
    if (reason === "refused") {
      store.set("session", null);
      store.set("link", null);
      store.set("pending", null);
      this.end("refused", text);
    } else if (reason === "gone") {
      this.goneTries += 1;
      if (this.goneTries > GONE_TRIES) this.end("gone", text);
      else this.retry();
    } else {
      this.retry();
    }
  }

  retry() {
    if (this.ended) return;
    const step = Math.min(BACKOFF_MAX, BACKOFF_MIN * 2 ** this.attempt);
    const wait = step / 2 + Math.random() * (step / 2); // jitter: a server back does not get every page at once
    this.attempt += 1;
    this.on.status(navigator.onLine === false ? "offline" : "reconnecting", wait);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), wait);
  }

  /** Try now (the network came back, the page was shown again). */
  now() {
    if (this.ended || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    this.connect();
  }

  ping() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heard > DEAD_MS) {
      this.ws.close();
      return;
    }
    this.ws.send(JSON.stringify({ type: "ping" }));
  }

  /** A move: kept until its ack comes, sent again after a reconnect. False: one is
   *  already on its way (a double tap). */
  act(action, at) {
    if (this.pending) return false;
    const seq = Number(store.get("seq") || 0) + 1;
    store.set("seq", seq);
    const p = { seq, action, at };
    store.set("pending", JSON.stringify(p));
    if (this.open) this.ws.send(JSON.stringify({ type: "act", ...p }));
    return true;
  }

  /** The person's own seed for the fair deal (32 hex digits drawn on this device): sent
   *  once a match, while the view says the deal waits for it. */
  seed(match) {
    if (!this.open || this.seeded === match) return;
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    this.seeded = match;
    this.ws.send(JSON.stringify({ type: "seed", seed: hex }));
  }

  end(why, text) {
    this.ended = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    this.on.ended(why, text);
  }
}
