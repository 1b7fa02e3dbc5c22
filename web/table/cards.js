// A card drawn with text: rank and suit symbol, red or black. No image files.

const RANKS = { T: "10" };
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** "TD" -> a card element: "10" and "♦", red. */
export function cardFace(code, tag = "span") {
  const el = document.createElement(tag);
  const rank = code.slice(0, -1);
  const suit = code.slice(-1);
  el.className = `card ${suit === "D" || suit === "H" ? "red" : "black"}`;
  el.dataset.card = code;
  const r = document.createElement("span");
  r.className = "rank";
  r.textContent = RANKS[rank] || rank;
  const s = document.createElement("span");
  s.className = "suit";
  s.textContent = SUITS[suit] || suit;
  s.setAttribute("aria-hidden", "true");
  el.append(r, s);
  el.setAttribute("aria-label", `${RANKS[rank] || rank}${SUITS[suit] || suit}`);
  return el;
}
