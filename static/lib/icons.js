// Title icons and status badges: a symbol for the eye beside a word for screen readers, so a
// title or a status is never told by a symbol or a colour alone.
import { h } from "./dom.js";

const TITLE_ICONS = {
  "king": "♔",
  "queen": "♕",
  "protector": "⚔",
  "hand": "☝",
  "master-of-coin": "¤",
  "master-of-laws": "⚖",
  "master-of-ships": "⚓",
  "master-of-whisperers": "✉",
  "lord-commander": "✠",
  "mother-of-dragons": "❂",
};
const CATEGORY_ICONS = { fief: "♜", military: "⚑", high: "✦", royal: "♔", mother_of_dragons: "❂" };

export function titleSymbol(title) {
  return TITLE_ICONS[title?.id] ?? CATEGORY_ICONS[title?.category] ?? "•";
}

// A title as a small chip: its symbol and its name.
export function titleChip(title, names) {
  return h(
    "span",
    { class: "chip title", "data-title": title },
    h("span", { class: "icon", "aria-hidden": "true" }, titleSymbol(names.titles.get(title))),
    names.title(title),
  );
}

// A status badge: a fixed-size symbol, a short word, and the whole sentence for screen readers
// where the short word says less.
export function badge(kind, symbol, short, full = short) {
  return h(
    "span",
    { class: `badge ${kind}`, title: full },
    h("span", { class: "icon", "aria-hidden": "true" }, symbol),
    full === short
      ? short
      : [
          h("span", { "aria-hidden": "true" }, short),
          h("span", { class: "visually-hidden" }, full),
        ],
  );
}

const ATTRIBUTES = {
  bastard: ["✧", "bastard"],
  hard_to_marry: ["⚯", "hard to marry"],
  heart_breaker: ["♥", "heart breaker"],
  cruel: ["✖", "cruel"],
  immune_to_justice: ["❖", "immune to justice"],
  prince_of_westeros: ["♚", "Prince of Westeros"],
  gods_cursed: ["☇", "gods cursed"],
};

export function attributeBadge(attribute) {
  const [symbol, word] = ATTRIBUTES[attribute] ?? ["•", attribute.replaceAll("_", " ")];
  return badge(`attribute ${attribute}`, symbol, word);
}
