// Building the page without a framework: `h` makes an element, `say` fills a status line.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style")
      for (const [p, v] of Object.entries(value)) el.style.setProperty(p, v);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
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

// Re-draws a panel while keeping what the user was doing in it: open <details>, values typed
// or chosen (by element id), the focus and, in the focused field, the text selected or where
// the caret stood, so a push that lands while someone types neither moves his caret nor
// leaves text he selected to replace behind. A value that is no longer offered is dropped.
export function keeping(el, draw) {
  const open = new Set(
    [...el.querySelectorAll("details[open]")].map((d) => d.dataset.message ?? d.id),
  );
  const values = new Map(
    [...el.querySelectorAll("input[id], select[id], textarea[id]")].map((c) => [c.id, c.value]),
  );
  const active = el.contains(document.activeElement) ? document.activeElement : null;
  const focused = active?.id || null;
  const selection =
    typeof active?.selectionStart === "number"
      ? [active.selectionStart, active.selectionEnd, active.selectionDirection]
      : null;
  draw();
  for (const details of el.querySelectorAll("details"))
    if (open.has(details.dataset.message ?? details.id)) details.open = true;
  for (const [id, value] of values) {
    const control = el.querySelector(`#${CSS.escape(id)}`);
    if (!control) continue;
    if (control.tagName === "SELECT" && ![...control.options].some((o) => o.value === value))
      continue;
    control.value = value;
    if (control.tagName === "SELECT") control.dispatchEvent(new Event("change"));
  }
  if (!focused) return;
  const control = el.querySelector(`#${CSS.escape(focused)}`);
  control?.focus();
  if (selection && typeof control?.selectionStart === "number")
    control.setSelectionRange(...selection);
}
