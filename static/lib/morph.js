// Drawing a panel again without losing what the player was doing in it: the panel is drawn
// afresh off the page, then idiomorph turns the page's nodes into the new ones, keeping every
// node it can. A kept node keeps its focus, the text typed in it and its caret or selection,
// its scroll position and an open <details>; it takes the new node's handlers (lib/dom.js
// `standIn`), and a handler reaches it from the node the draw made through `onPage`.
import { Idiomorph } from "/vendor/idiomorph.esm.js";
import { standIn } from "./dom.js";

export function morph(el, draw) {
  const fresh = el.cloneNode(false);
  draw(fresh);
  const chosen = new Map([...el.querySelectorAll("select")].map((s) => [s, s.value]));
  const made = []; // the new nodes being added, innermost last
  const drawn = new Map(); // a kept select -> the choice the new draw made in it
  // The new panel's children become the page panel's; the panel itself keeps its node.
  Idiomorph.morph(el, [...fresh.childNodes], {
    morphStyle: "innerHTML",
    // The focused node is morphed like any other (idiomorph's ignoreActiveValue would leave a
    // focused button's label as it was): what the player typed in it stays by `theirs`.
    callbacks: {
      beforeNodeMorphed(kept, node) {
        standIn(kept, node);
        // What the page said in a status line (lib/dom.js `say`) is the answer to the
        // player's last act: it stays until he acts again, whatever the push redraws.
        if (kept.dataset?.said && node.nodeType === Node.ELEMENT_NODE) return false;
        restyle(kept, node);
        if (node.tagName === "SELECT") drawn.set(kept, node.value);
        return true;
      },
      beforeNodeAdded(node) {
        made.push(node);
        return true;
      },
      // idiomorph adds a copy of the new node: the copy stands in for it, and so does each
      // node within the copy for the node it copies.
      afterNodeAdded(added) {
        standInAll(added, made.pop());
      },
      beforeAttributeUpdated: (name, node, how) => !theirs(name, node, how),
    },
  });
  for (const attribute of fresh.attributes)
    if (el.getAttribute(attribute.name) !== attribute.value)
      el.setAttribute(attribute.name, attribute.value);
  for (const { name } of [...el.attributes])
    if (!fresh.hasAttribute(name)) el.removeAttribute(name);
  keepChoices(chosen, drawn);
}

function standInAll(added, node) {
  if (!node) return;
  standIn(added, node);
  restyle(added, node);
  // A copy takes the attributes: a value or a choice the draw set as it drew is not one.
  if (["INPUT", "TEXTAREA", "SELECT"].includes(node.tagName)) added.value = node.value;
  if (node.tagName === "INPUT") added.checked = node.checked;
  const copies = added.children ?? [],
    originals = node.children ?? [];
  for (let i = 0; i < originals.length; i += 1) standInAll(copies[i], originals[i]);
}

// The Content-Security-Policy allows no style attribute the page sets, only styles set through
// the CSSOM (as lib/dom.js `h` sets them): a node's style is copied so, never as an attribute.
function restyle(kept, node) {
  if (node.style && kept.style.cssText !== node.style.cssText)
    kept.style.cssText = node.style.cssText;
}

// What the player changed is his, not the new draw's: the text he typed in a field, a box he
// ticked or unticked, a section he opened.
function theirs(name, node, how) {
  if (name === "style") return true; // restyle
  if (name === "open") return how === "remove" && node.tagName === "DETAILS";
  if (name === "checked") return node.checked !== node.hasAttribute("checked");
  if (name !== "value") return false;
  if (node.tagName === "TEXTAREA") return node.value !== node.defaultValue;
  if (node.tagName !== "INPUT" || node.type === "checkbox" || node.type === "radio") return false;
  return node.value !== (node.getAttribute("value") ?? "");
}

// A choice made in a select stays made while the new draw still offers it, else the new
// draw's stands: the morph matches options by their place, not their value, and a choice no
// longer offered would silently become its neighbour's. The selects are told in page order,
// so that one whose choices follow another's offers the right ones by the time it is set.
function keepChoices(chosen, drawn) {
  for (const [select, value] of chosen) {
    if (!select.isConnected) continue;
    const offered = (v) => v !== undefined && [...select.options].some((o) => o.value === v);
    if (offered(value)) select.value = value;
    else if (offered(drawn.get(select))) select.value = drawn.get(select);
    else continue;
    select.dispatchEvent(new Event("change"));
  }
}
