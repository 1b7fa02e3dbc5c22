// The replay under the checks: one deal at a time, card by card, every hand shown, laid out
// and coloured like the bot's replay picture (bot/render/replay.py, bot/render/theme.py):
// seat 0 at the bottom, 1 on the right, 2 at the top, 3 on the left.
// A classic script (no modules), so that the page also works opened from disk (file://):
// it reads what the scripts before it put on window.BeloteVerify and adds its own part.

(() => {
  "use strict";
  const BeloteVerify = (window.BeloteVerify = window.BeloteVerify || {});

  const { FRENCH, playedCard, sortCards, trickWinner } = BeloteVerify.recipe;
  const say = (key, params) => BeloteVerify.i18n.say(key, params);

  const SUIT_SIGN = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const trumpName = (trump) =>
    SUIT_SIGN[trump] ? `${SUIT_SIGN[trump]} ${say(`trump-${trump}`)}` : say(`trump-${trump}`);
  /** The contract as the table says it: "90 ♥ Hearts ×2 (coinche)", "♠ Spades ×2". */
  function contractName(contract) {
    const words = { 250: say("bid-capot"), 500: say("bid-generale") };
    const valued = typeof contract.bid === "number";
    const bid = valued ? `${words[contract.bid] || contract.bid} ` : "";
    const mult = contract.multiplier;
    const doubled = valued ? { 2: ` (${say("coinche")})`, 4: ` (${say("surcoinche")})` } : {};
    const times = mult > 1 ? ` ×${mult}${doubled[mult] || ""}` : "";
    return `${bid}${trumpName(contract.trump)}${times}`;
  }
  // The bot's replay GIF: 700 ms a card, 1.6 s on a finished trick (bot/render/replay.py).
  const CARD_MS = 700;
  const TRICK_MS = 1600;

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  function cardNode(card, extra = "") {
    const rank = card[0] === "T" ? "10" : card[0];
    const suit = card[1];
    return el(
      "span",
      { class: `card suit-${suit} ${extra}`.trim(), "data-card": card, title: card },
      el("span", { class: "rank", text: rank }),
      el("span", { class: "sign", text: SUIT_SIGN[suit] || "?" }),
    );
  }

  /** The frames of one deal: what the table shows after each card (plus the start and end). */
  function dealFrames(t, deal) {
    const hands = deal.hands.map((h) => sortCards(h));
    const plays = deal.actions
      .map(([seat, text]) => ({ seat, card: playedCard(text), text }))
      .filter((p) => p.card);
    const bids = deal.actions.filter(([, text]) => !playedCard(text));
    const frames = [];
    const left = hands.map((h) => [...h]);
    const tricks = [0, 0];
    let trick = [];
    frames.push({
      hands: left.map((h) => [...h]),
      trick: [],
      winner: null,
      toMove: plays.length ? plays[0].seat : null,
      tricks: [...tricks],
      n: 0,
      end: false,
    });
    for (const [n, p] of plays.entries()) {
      if (trick.length === 4) trick = [];
      const i = left[p.seat] ? left[p.seat].indexOf(p.card) : -1;
      if (i >= 0) left[p.seat].splice(i, 1);
      trick.push(p);
      let winner = null;
      if (trick.length === 4 && deal.contract) {
        winner = trickWinner(trick, deal.contract.trump);
        tricks[winner % 2] += 1;
      }
      frames.push({
        hands: left.map((h) => [...h]),
        trick: [...trick],
        winner,
        toMove: n + 1 < plays.length ? plays[n + 1].seat : null,
        tricks: [...tricks],
        n: n + 1,
        end: false,
      });
    }
    frames.push({
      hands: left.map((h) => [...h]),
      trick: [],
      winner: null,
      toMove: null,
      tricks: [...tricks],
      n: plays.length,
      end: true,
    });
    return { frames, plays, bids };
  }

  class Replay {
    constructor(root) {
      this.root = root;
      this.table = root.querySelector("#table");
      this.dealSelect = root.querySelector("#deal");
      this.position = root.querySelector("#position");
      this.where = root.querySelector("#where");
      this.playButton = root.querySelector("#play");
      this.speed = root.querySelector("#speed");
      this.timer = null;
      root.querySelector("#first").addEventListener("click", () => this.go(0));
      root.querySelector("#back").addEventListener("click", () => this.go(this.step - 1));
      root.querySelector("#step").addEventListener("click", () => this.go(this.step + 1));
      root.querySelector("#last").addEventListener("click", () => this.go(this.frames.length - 1));
      this.playButton.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
      this.position.addEventListener("input", () => this.go(Number(this.position.value)));
      this.dealSelect.addEventListener("change", () => this.show(Number(this.dealSelect.value)));
      document.addEventListener("keydown", (e) => {
        if (this.root.hidden || /^(TEXTAREA|INPUT|SELECT|BUTTON)$/.test(e.target.tagName)) return;
        const keys = {
          ArrowLeft: () => this.go(this.step - 1),
          ArrowRight: () => this.go(this.step + 1),
          Home: () => this.go(0),
          End: () => this.go(this.frames.length - 1),
          " ": () => (this.timer ? this.pause() : this.play()),
        };
        if (keys[e.key]) {
          e.preventDefault();
          keys[e.key]();
        }
      });
    }

    load(t) {
      this.pause();
      this.t = t;
      this.dealSelect.replaceChildren(
        ...t.deals.map((d, i) =>
          el("option", {
            value: String(i),
            text: say(d.contract ? "deal-of" : "deal-of-thrown", {
              n: i + 1,
              count: t.deals.length,
            }),
          }),
        ),
      );
      this.root.hidden = !t.deals.length;
      if (t.deals.length) this.show(0);
    }

    show(index) {
      this.pause();
      this.dealIndex = index;
      this.dealSelect.value = String(index);
      this.deal = this.t.deals[index];
      Object.assign(this, dealFrames(this.t, this.deal));
      this.position.max = String(this.frames.length - 1);
      this.root.dataset.replayDeal = String(index + 1); // as people count deals
      this.root.dataset.steps = String(this.frames.length);
      this.go(0);
    }

    go(step) {
      this.step = Math.max(0, Math.min(this.frames.length - 1, step));
      this.position.value = String(this.step);
      this.root.dataset.step = String(this.step);
      this.draw(this.frames[this.step]);
      if (this.step === this.frames.length - 1) this.pause();
    }

    play() {
      if (this.step >= this.frames.length - 1) this.go(0);
      this.playButton.textContent = say("replay-pause");
      this.root.dataset.playing = "true";
      const tick = () => {
        const frame = this.frames[this.step];
        const wait = (frame.winner !== null ? TRICK_MS : CARD_MS) / Number(this.speed.value || 1);
        this.timer = setTimeout(() => {
          this.go(this.step + 1);
          if (this.timer) tick();
        }, wait);
      };
      tick();
    }

    /** Draw the current step again (after a change of language). */
    redraw() {
      this.playButton.textContent = say(this.timer ? "replay-pause" : "replay-play");
      if (this.frames && this.frames.length) this.draw(this.frames[this.step]);
    }

    pause() {
      clearTimeout(this.timer);
      this.timer = null;
      if (this.playButton) this.playButton.textContent = say("replay-play");
      if (this.root) this.root.dataset.playing = "false";
    }

    draw(frame) {
      const { t, deal } = this;
      const contract = deal.contract;
      const seats = [0, 1, 2, 3].map((seat) => {
        const info = t.seats[seat] || { name: String(seat + 1) };
        const classes = ["seat", `place-${seat}`, `team-${seat % 2}`];
        if (frame.toMove === seat) classes.push("to-move");
        const tags = [];
        if (deal.dealer === seat)
          tags.push(el("span", { class: "tag dealer", text: say("dealer") }));
        if (contract && contract.taker === seat)
          tags.push(el("span", { class: "tag taker", text: say("took") }));
        if (info.bot) tags.push(el("span", { class: "tag bot", text: say("bot") }));
        return el(
          "div",
          { class: classes.join(" "), "data-seat": String(seat) },
          el("div", { class: "name" }, el("span", { text: info.name }), ...tags),
          el("div", { class: "hand" }, ...(frame.hands[seat] || []).map((c) => cardNode(c))),
        );
      });
      const trick = el(
        "div",
        { class: "trick" },
        ...frame.trick.map((p) => {
          const node = cardNode(p.card, `at-${p.seat}`);
          if (frame.winner === p.seat) node.classList.add("winner");
          const said = p.text.split(" ").slice(2).join(" "); // "melds", "belote"
          if (said) node.append(el("span", { class: "said", text: said }));
          return node;
        }),
      );
      const info = el("div", { class: "info" });
      const nameOf = (seat) => t.seats[seat]?.name ?? String(seat + 1);
      const contractText = contract
        ? say("taken-by", { trump: contractName(contract), name: nameOf(contract.taker) })
        : say("redealt");
      info.append(el("div", { class: "contract", text: contractText }));
      if (FRENCH.has(t.ruleset) && deal.turned) {
        info.append(
          el(
            "div",
            { class: "turned" },
            el("span", { text: say("turned") }),
            cardNode(deal.turned),
          ),
        );
      }
      info.append(
        el(
          "div",
          { class: "tricks" },
          el("span", {
            class: "team-0",
            text: say("tricks-a", { a: nameOf(0), c: nameOf(2), count: frame.tricks[0] }),
          }),
          el("span", {
            class: "team-1",
            text: say("tricks-b", { b: nameOf(1), d: nameOf(3), count: frame.tricks[1] }),
          }),
        ),
      );
      const bidding = el(
        "ol",
        { class: "bidding" },
        ...this.bids.map(([seat, text]) => el("li", { text: `${nameOf(seat)}: ${text}` })),
      );
      const centre = el("div", { class: "centre" }, trick);
      if (frame.end) centre.replaceChildren(scorePanel(t, deal));
      this.table.replaceChildren(
        el(
          "div",
          { class: "head" },
          el("strong", { text: say("head", { match: t.match, n: this.dealIndex + 1 }) }),
          el("span", { text: ` · ${t.ruleset}` }),
        ),
        ...seats,
        centre,
        el(
          "div",
          { class: "side" },
          info,
          el("div", { class: "label", text: say("bidding") }),
          bidding,
        ),
      );
      const plays = this.plays.length;
      this.where.textContent = frame.end
        ? say("end-of-deal")
        : frame.n === 0
          ? say("as-dealt")
          : say("trick-card", {
              trick: Math.ceil(frame.n / 4),
              tricks: Math.ceil(plays / 4),
              card: ((frame.n - 1) % 4) + 1,
            });
    }
  }

  function scorePanel(t, deal) {
    const s = deal.score && typeof deal.score === "object" ? deal.score : null;
    const rows = [];
    const row = (label, pair) => {
      if (Array.isArray(pair))
        rows.push(
          el(
            "tr",
            {},
            el("th", { text: label }),
            el("td", { class: "team-0", text: String(pair[0]) }),
            el("td", { class: "team-1", text: String(pair[1]) }),
          ),
        );
    };
    if (s) {
      row(say("card-points"), s.card_points);
      row(say("tricks"), s.tricks);
      row(say("melds"), s.melds);
      row(say("belote"), s.belotes);
      row(say("scored"), s.points);
      row(say("match-total"), s.scores);
    }
    return el(
      "div",
      { class: "score" },
      el("div", {
        class: "outcome",
        text:
          s && typeof s.outcome === "string"
            ? say("contract-outcome", { outcome: say(`outcome-${s.outcome}`) })
            : deal.contract
              ? say("deal-over")
              : say("redealt"),
      }),
      el(
        "table",
        {},
        el(
          "tr",
          {},
          el("th"),
          el("th", {
            class: "team-0",
            text: `${say("team-a")}: ${t.seats[0]?.name ?? 1} & ${t.seats[2]?.name ?? 3}`,
          }),
          el("th", {
            class: "team-1",
            text: `${say("team-b")}: ${t.seats[1]?.name ?? 2} & ${t.seats[3]?.name ?? 4}`,
          }),
        ),
        ...rows,
      ),
    );
  }

  BeloteVerify.replay = { cardNode, dealFrames, Replay };
})();
