// Sealed choices travel at one length whatever they hold (docs/protocol.md, "Padding"): a
// placement's kinds and candidates, a bid's amount. Spaces in `pad` fill the message's JSON
// up to one width, so its size on the wire tells nothing; the server drops them.
export const WIDTHS = { place_ballot: 512, place_bid: 512 };

export function padded(message, payload) {
  const width = WIDTHS[message];
  if (!width) return payload;
  const bare = JSON.stringify({ ...payload, pad: "" }).length;
  return { ...payload, pad: " ".repeat(Math.max(0, width - bare)) };
}
