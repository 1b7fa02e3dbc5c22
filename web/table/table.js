// The web table: draws the view the bot sends (bot/show/seat_view.py) and sends the
// person's taps as the actions the view offers. Every name is set as text, never markup.

import { cardFace } from "./cards.js";
import { pick, setLang, t } from "./i18n.js";
import { Line, hasToken, savedLocale, takeLink } from "./net.js";

const $ = (sel) => document.querySelector(sel);
const POSITIONS = ["bottom", "right", "top", "left"]; // from my seat, in the order of play

const state = {
  view: null,
  seated: false,
  deadline: null, // performance.now() when the mover's time runs out
  showLast: false,
  coincheValue: null, // Coinche: the value tapped first
  lastResult: null, // the last deal's result as last shown (null: no view yet)
  focus: 0,
  holdUntil: 0, // a trick just taken shows until then
  holdTimer: null,
};
const HOLD_MS = 1400;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function urlLang() {
  return pick(new URLSearchParams(location.search).get("lang"));
}

setLang(urlLang() || savedLocale() || pick(navigator.language) || "en");

// --- messages -------------------------------------------------------------------------------

let toastTimer = null;
function toast(text, kind = "info") {
  const box = $("#toast");
  box.textContent = text;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (box.hidden = true), 6000);
}

function banner(text, kind) {
  const box = $("#message");
  box.textContent = text;
  box.dataset.kind = kind;
  box.hidden = false;
}

function status(what, wait) {
  const c = $("#conn");
  c.dataset.status = what;
  if (what === "live") {
    c.textContent = t("live");
    document.documentElement.dataset.state = "live";
    if ($("#message").dataset.kind === "line") $("#message").hidden = true;
  } else if (what === "connecting") {
    c.textContent = t("connecting");
  } else {
    c.textContent = what === "offline" ? t("offline") : t("connecting");
    if (document.documentElement.dataset.state === "live") {
      document.documentElement.dataset.state = "reconnecting";
    }
    const s = Math.max(1, Math.round((wait || 0) / 1000));
    banner(what === "offline" ? t("offline") : t("reconnecting", { s }), "line");
  }
}

function ended(why, text) {
  document.documentElement.dataset.state = why;
  $("#conn").textContent = "";
  banner(text || t(why === "gone" ? "gone" : "refused"), why);
  if (why === "refused") {
    // nothing of a table this link cannot open stays on the screen
    state.view = null;
    $("#play").hidden = true;
    $("#side").hidden = true;
  } else {
    state.deadline = null;
    renderMe();
  }
}

// --- drawing ------------------------------------------------------------------------------

function mySeat(v) {
  return state.seated && v.my_seat ? v.my_seat : 1;
}

function posOf(v, seat) {
  return POSITIONS[(seat - mySeat(v) + 4) % 4];
}

function seatName(v, n) {
  const s = v.seats.find((x) => x.number === n);
  return s ? s.name : `#${n}`;
}

function render() {
  const v = state.view;
  if (!v) return;
  document.body.dataset.phase = v.phase;
  document.body.dataset.seq = v.seq;
  document.body.dataset.ruleset = v.ruleset;
  document.body.dataset.toMove = v.to_move ?? "";
  $("#table-id").textContent = v.table;
  $("#ruleset").textContent = v.ruleset;
  $("#score-a").textContent = v.scores[0];
  $("#score-b").textContent = v.scores[1];
  $("#target").textContent = t("to-target", { target: v.target });
  renderSeats(v);
  renderTrick(v);
  renderAuction(v);
  renderResult(v);
  renderOver(v);
  renderMe();
}

function renderSeats(v) {
  for (const s of v.seats) {
    const box = document.querySelector(`.seat[data-pos="${posOf(v, s.number)}"]`);
    box.replaceChildren();
    box.dataset.seat = s.number;
    box.dataset.team = s.team;
    box.classList.toggle("to-move", Boolean(s.to_move));
    box.classList.toggle("mine", state.seated && v.my_seat === s.number);
    const top = el("div", "seat-top");
    top.append(el("span", `team team-${s.team.toLowerCase()}`, s.team));
    const name = el("span", "name", s.name);
    name.title = s.label;
    top.append(name);
    if (v.dealer === s.number) {
      const d = el("span", "dealer", t("dealer-short"));
      d.title = t("dealer");
      d.setAttribute("aria-label", t("dealer"));
      top.append(d);
    }
    box.append(top);
    const tags = [];
    if (state.seated && v.my_seat === s.number) tags.push(t("you"));
    if (s.is_bot) tags.push(t("bot"));
    if (s.gone) tags.push(t("left"));
    else if (s.away) tags.push(t("away"));
    if (v.taker === s.number && v.contract) tags.push(v.contract);
    const sub = el("div", "seat-sub", tags.join(" · "));
    box.append(sub);
    if (s.to_move) box.append(el("div", "timer", ""));
  }
  tick();
}

let shownTrick = [];
function trickKey(cards) {
  return cards.map((p) => `${p.seat}${p.card}`).join(" ");
}

function renderTrick(v) {
  // a trick just taken stays in the middle a moment (its last card landing), then goes
  const held = !state.showLast && state.holdUntil > performance.now() && !v.trick.length;
  const showing = (state.showLast || held) && v.last_trick.length ? v.last_trick : v.trick;
  const before = new Set(shownTrick.map((p) => `${p.seat}${p.card}`));
  for (const slot of document.querySelectorAll("#trick .slot")) slot.replaceChildren();
  for (const p of showing) {
    const pos = posOf(v, p.seat);
    const face = cardFace(p.card);
    if (!state.showLast && !before.has(`${p.seat}${p.card}`)) {
      face.classList.add("arriving", `from-${pos}`);
      requestAnimationFrame(() =>
        requestAnimationFrame(() => face.classList.remove("arriving", `from-${pos}`)),
      );
    }
    document.querySelector(`#trick .slot[data-pos="${pos}"]`).append(face);
  }
  shownTrick = state.showLast ? shownTrick : showing;
  $("#trick").classList.toggle("last", state.showLast);
  $("#trick").classList.toggle("held", held);
  const c = $("#contract");
  c.replaceChildren();
  if ((state.showLast || held) && v.last_trick_winner) {
    c.textContent = t("last-winner", { name: seatName(v, v.last_trick_winner) });
  } else if (v.contract) {
    c.textContent = t("contract", { contract: v.contract, name: seatName(v, v.taker) });
  } else if (v.turned) {
    c.append(el("span", "", t("turned")), cardFace(v.turned));
  }
  if (v.deal) {
    const parts = [t("deal", { n: v.deal }), t("tricks", { a: v.tricks_taken[0], b: v.tricks_taken[1] })];
    c.append(el("span", "deal", (c.childNodes.length ? " · " : "") + parts.join(" · ")));
  }
  const b = $("#last-btn");
  b.disabled = !v.last_trick.length;
  b.textContent = state.showLast ? t("hide-last") : t("last-trick");
  b.setAttribute("aria-pressed", String(state.showLast));
}

function renderAuction(v) {
  $("#auction-title").textContent = t("auction");
  const list = $("#bids");
  list.replaceChildren();
  if (!v.bids.length) list.append(el("li", "none", t("no-bids")));
  for (const [seat, bid] of v.bids) {
    const li = el("li", `team-${seat % 2 ? "a" : "b"}`);
    li.append(el("span", "who", seatName(v, seat)), el("span", "bid", bid));
    list.append(li);
  }
  $("#auction").hidden = v.phase === "lobby";
}

function renderResult(v) {
  const lines = v.last_result || [];
  const box = $("#result");
  box.hidden = !lines.length;
  $("#result-title").textContent = t("result");
  const key = lines.join("\n");
  const list = $("#result-lines");
  list.replaceChildren(...lines.map((x) => el("li", "", x)));
  if (key && state.lastResult !== null && key !== state.lastResult) {
    // a deal has just ended: its first and last lines (who took, what was scored) at once,
    // wherever the result's box is on the screen
    box.classList.add("fresh");
    setTimeout(() => box.classList.remove("fresh"), 6000);
    toast(lines.length > 1 ? `${lines[0]} ${lines[lines.length - 1]}` : lines[0]);
  }
  state.lastResult = key;
}

function renderOver(v) {
  const box = $("#over");
  const over = v.phase === "over" || Boolean(v.winner) || v.aborted;
  box.hidden = !over;
  if (!over) return;
  $("#over-title").textContent = v.winner ? t("over-win", { team: v.winner }) : t("over-aborted");
  $("#over-score").textContent = t("over-score", { a: v.scores[0], b: v.scores[1] });
  $("#seed-label").textContent = v.seed ? t("seed") : "";
  $("#seed").textContent = v.seed || "";
  const a = $("#verify-link");
  if (v.seed && v.match) {
    a.href = `${location.origin}/verify/#url=${location.origin}/table/transcripts/${v.match}.json`;
    a.textContent = t("verify");
    a.hidden = false;
  } else {
    a.hidden = true;
  }
}

function myTurn(v) {
  return Boolean(state.seated && v && v.my_seat && v.to_move === v.my_seat && v.choices.length);
}

function renderMe() {
  const v = state.view;
  const me = $("#me");
  const hand = $("#hand");
  const choices = $("#choices");
  const prompt = $("#prompt");
  if (!v) return;
  const live = document.documentElement.dataset.state === "live";
  // while the line is down a tap is kept and sent once it is back (the bot refuses it if
  // the turn went by meanwhile)
  const mine = myTurn(v) && !line.pending;
  document.body.dataset.myTurn = mine ? "yes" : "no";
  me.classList.toggle("my-turn", mine);
  hand.replaceChildren();
  choices.replaceChildren();
  if (!state.seated) {
    prompt.textContent = t("watching");
    me.classList.add("watching");
    return;
  }
  me.classList.remove("watching");
  const legal = new Set(v.legal_cards);
  v.hand.forEach((code, i) => {
    const b = cardFace(code, "button");
    b.type = "button";
    const ok = mine && legal.has(code);
    if (ok) b.classList.add("legal");
    else if (mine && v.phase === "play") b.classList.add("dim");
    b.dataset.legal = ok ? "yes" : "no";
    b.tabIndex = i === state.focus ? 0 : -1;
    b.addEventListener("click", () => playCard(code));
    b.addEventListener("keydown", (e) => handKey(e, i));
    hand.append(b);
  });
  if (state.focus >= v.hand.length) state.focus = Math.max(0, v.hand.length - 1);
  if (mine) renderChoices(v, choices);
  const seat = v.seats.find((x) => x.number === v.my_seat);
  if (seat && seat.away && !seat.gone && live && !line.pending) {
    // the bot plays for this person since their time ran out: one tap takes the seat back
    const b = el("button", "choice back-to-seat", t("im-back"));
    b.type = "button";
    b.dataset.action = "back";
    b.addEventListener("click", () => line.act("back", v.seq) && renderMe());
    choices.append(b);
  }
  updatePrompt();
}

function renderChoices(v, box) {
  const bids = v.choices.filter((c) => c.card === null);
  // a card's other ways to be played (with or without its melds, saying belote)
  const variants = v.choices.filter((c) => c.card !== null && c.typed !== c.card);
  for (const c of variants) box.append(choiceButton(c, c.label));
  const valued = bids.filter((c) => c.value !== null && c.value !== undefined);
  if (!valued.length) {
    for (const c of bids) box.append(choiceButton(c, c.label));
    return;
  }
  // Coinche: first the value, then the suit among that value's bids
  const plain = bids.filter((c) => c.value === null || c.value === undefined);
  if (state.coincheValue !== null && valued.some((c) => c.value === state.coincheValue)) {
    const of = valued.filter((c) => c.value === state.coincheValue);
    box.append(el("p", "step", t("pick-suit", { value: valueLabel(of[0]) })));
    for (const c of of) box.append(choiceButton(c, c.label, "suit"));
    const back = el("button", "choice back", t("back"));
    back.type = "button";
    back.addEventListener("click", () => {
      state.coincheValue = null;
      renderMe();
    });
    box.append(back);
    return;
  }
  state.coincheValue = null;
  for (const c of plain) box.append(choiceButton(c, c.label));
  const seen = new Set();
  for (const c of valued) {
    if (seen.has(c.value)) continue;
    seen.add(c.value);
    const b = el("button", "choice value", valueLabel(c));
    b.type = "button";
    b.dataset.value = c.value;
    b.addEventListener("click", () => {
      state.coincheValue = c.value;
      renderMe();
      const first = document.querySelector("#choices .suit");
      if (first) first.focus();
    });
    box.append(b);
  }
}

function valueLabel(c) {
  // "90 ♥" -> "90"; "Capot ♠" -> "Capot": the value's part of the bid's label
  return c.label.replace(/\s*[♣♦♥♠]\s*$/u, "") || String(c.value);
}

function choiceButton(c, label, extra = "") {
  const b = el("button", `choice ${extra}`.trim(), label);
  b.type = "button";
  b.dataset.action = c.action;
  b.addEventListener("click", () => send(c.action));
  return b;
}

function updatePrompt() {
  const v = state.view;
  if (!v || !state.seated) return;
  const p = $("#prompt");
  const s = secondsLeft();
  if (line.pending) p.textContent = line.open ? t("sending") : t("queued");
  else if (v.phase === "lobby") p.textContent = t("lobby");
  else if (v.phase === "seeds") p.textContent = t("seeds");
  else if (v.phase === "drand") p.textContent = t("drand");
  else if (v.phase === "over") p.textContent = "";
  else if (v.seats.some((x) => x.number === v.my_seat && x.away && !x.gone)) {
    p.textContent = t("away-prompt");
  }
  else if (myTurn(v)) p.textContent = s === null ? t("your-turn") : t("your-turn-s", { s });
  else if (v.to_move) {
    const name = seatName(v, v.to_move);
    p.textContent = s === null ? t("waiting-for", { name }) : t("waiting-for-s", { name, s });
  } else p.textContent = "";
}

function secondsLeft() {
  if (state.deadline === null) return null;
  return Math.max(0, Math.ceil((state.deadline - performance.now()) / 1000));
}

function tick() {
  const s = secondsLeft();
  const box = document.querySelector(".seat.to-move .timer");
  if (box) {
    box.textContent = s === null ? "" : `${s} s`;
    box.classList.toggle("low", s !== null && s <= 10);
  }
  updatePrompt();
}
setInterval(tick, 250);

// --- acting -------------------------------------------------------------------------------

function send(action) {
  const v = state.view;
  if (!myTurn(v)) {
    toast(t("not-your-turn"));
    return;
  }
  if (line.act(action, v.seq)) {
    state.coincheValue = null;
    renderMe();
  }
}

function playCard(code) {
  const v = state.view;
  if (!myTurn(v) || line.pending) {
    toast(t("not-your-turn"));
    return;
  }
  if (!v.legal_cards.includes(code)) {
    toast(t("card-illegal"));
    return;
  }
  const c = v.choices.find((x) => x.card === code && x.typed === code) ||
    v.choices.find((x) => x.card === code);
  if (c) send(c.action);
}

function handKey(e, i) {
  const cards = [...document.querySelectorAll("#hand .card")];
  let next = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") next = (i + 1) % cards.length;
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = (i - 1 + cards.length) % cards.length;
  else if (e.key === "Home") next = 0;
  else if (e.key === "End") next = cards.length - 1;
  if (next === null) return; // Enter and Space: the button's own click
  e.preventDefault();
  state.focus = next;
  cards.forEach((c, k) => (c.tabIndex = k === next ? 0 : -1));
  cards[next].focus();
}

$("#last-btn").addEventListener("click", () => {
  state.showLast = !state.showLast;
  if (state.view) renderTrick(state.view);
});

// --- the line -----------------------------------------------------------------------------

takeLink();
const line = new Line(
  {
    welcome(w) {
      state.seated = Boolean(w.seated);
      setLang(urlLang() || w.locale || navigator.language);
      document.body.dataset.seated = state.seated ? "yes" : "no";
      $("#play").hidden = false;
      $("#side").hidden = false;
    },
    view(v) {
      const wasMine = myTurn(state.view);
      const before = state.view;
      if (before && before.deal !== v.deal) state.showLast = false;
      if (
        before &&
        before.deal === v.deal &&
        !v.trick.length &&
        v.last_trick.length &&
        trickKey(v.last_trick) !== trickKey(before.last_trick)
      ) {
        state.holdUntil = performance.now() + HOLD_MS;
        clearTimeout(state.holdTimer);
        state.holdTimer = setTimeout(() => state.view && renderTrick(state.view), HOLD_MS + 20);
      }
      state.view = v;
      if (v.my_seed_due && state.seated) line.seed(v.match); // the device's share of the deal
      state.deadline =
        v.seconds_left === null || v.seconds_left === undefined
          ? null
          : performance.now() + v.seconds_left * 1000;
      render();
      if (!wasMine && myTurn(v)) {
        const first = document.querySelector("#hand .legal, #choices button");
        if (first && document.activeElement === document.body) first.focus({ preventScroll: true });
      }
    },
    ack(a) {
      if (!a.ok && a.text) toast(a.text, "refused");
      renderMe();
    },
    notice(text) {
      if (text) toast(text);
    },
    status,
    ended,
  },
  { lang: urlLang() },
);

if (!hasToken()) {
  ended("refused", t("no-link"));
  document.documentElement.dataset.state = "nolink";
} else {
  $("#conn").textContent = t("connecting");
  line.connect();
}
