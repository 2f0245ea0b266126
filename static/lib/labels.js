// What a move is called on its button or above its form, as the server names it
// (server/messages/labels.py): the court page is served with the labels in its script's
// `data-labels`. A message without a label is called by its name, spaced.
const given = document.querySelector("script[data-labels]")?.dataset.labels;
const LABELS = given ? JSON.parse(given) : {};

export function moveLabel(message) {
  return LABELS[message] ?? message.replaceAll("_", " ");
}
