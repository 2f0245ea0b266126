// Building the page without a framework: `h` makes an element, `say` fills a status line.
// A handler goes on through `listen` (h's `on…` attributes use it), so that lib/morph.js can
// hand it to the node of the page that the new node stands for.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style")
      for (const [p, v] of Object.entries(value)) el.style.setProperty(p, v);
    else if (key.startsWith("on")) listen(el, key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// A message in a live region: "error" messages carry the word Error, not only a colour.
export function say(el, message, kind = "info") {
  el.className = `notice ${kind}`;
  el.hidden = !message;
  el.dataset.said = "yes"; // lib/morph.js leaves it as said
  fill(el, kind === "error" && message ? h("strong", {}, "Error: ") : null, message ?? "");
}

export function errorText(error) {
  const fields = error.fields
    ? Object.entries(error.fields)
        .map(([name, problems]) => `${name}: ${[problems].flat(Infinity).join(" ")}`)
        .join("; ")
    : "";
  return `${error.message ?? String(error)}${fields ? ` (${fields})` : ""}${error.code ? ` [${error.code}]` : ""}`;
}

// A House's colours as a small flag; the House's name always goes next to it.
export function swatch(colours) {
  const [first = "#6b7280", second = first] = colours ?? [];
  return h("span", {
    class: "swatch",
    "aria-hidden": "true",
    style: { "--c1": first, "--c2": second },
  });
}

// A dialog the keyboard can use for a step that cannot be taken back: resolves true when the
// user confirms with `yes`; Escape or Cancel (focused first) resolve false.
export function confirmed(text, yes = "Record it") {
  return new Promise((resolve) => {
    const dialog = h(
      "dialog",
      { class: "confirm", "aria-labelledby": "confirm-text" },
      h("p", { id: "confirm-text" }, text),
      h(
        "form",
        { method: "dialog" },
        h("button", { value: "yes", id: "confirm-yes" }, yes),
        " ",
        h("button", { value: "no", id: "confirm-no", autofocus: true }, "Cancel"),
      ),
    );
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "yes");
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

// Scrolls the scrolling box `list` so that `item` shows inside it; the window never moves
// (scrollIntoView would scroll every scrolling ancestor, the page too).
export function showWithin(list, item) {
  const box = list.getBoundingClientRect(),
    at = item.getBoundingClientRect();
  if (at.top < box.top) list.scrollTop += at.top - box.top;
  else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
}

// An element's handlers live in its `handlers` ({type: [handler…]}), called by one listener
// per type: a morph that keeps the page's node gives it the handlers of the new draw at once.
export function listen(el, type, handler) {
  el.handlers ??= {};
  el.handlers[type] = [...(el.handlers[type] ?? []), handler];
  el.addEventListener(type, dispatch);
}

function dispatch(event) {
  for (const handler of this.handlers?.[event.type] ?? []) handler(event);
}

// The node of the page that a node a draw made stands for, once the morph kept the page's
// own (lib/morph.js): a handler reads and changes what the player sees through it. Before the
// morph, and for a node the morph did not replace, the node itself.
export function onPage(node) {
  return node?.pageNode ?? node;
}

// A node the player acted on, as the page shows it now: a draw since (a push while his move
// was on its way, which may fill the panel anew) put another of the same id in its place.
export function stillShown(node) {
  const shown = onPage(node);
  if (shown?.id && !shown.isConnected) return document.getElementById(shown.id) ?? shown;
  return shown;
}

// `kept` stands on the page for `made`, a node of a new draw: it takes over its handlers.
export function standIn(kept, made) {
  made.pageNode = kept;
  if (made.nodeType !== Node.ELEMENT_NODE) return;
  kept.handlers = made.handlers ?? {};
  for (const type of Object.keys(kept.handlers)) kept.addEventListener(type, dispatch);
}
