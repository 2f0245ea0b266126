// The sections of the court view (court/views/sections.py) a push changed, read from its JSON
// Patch: each panel of the court page declares the sections it reads, and a push redraws only
// the panels whose sections its patch touched.

// Every panel that draws names (lib/names.js `Names`) reads these sections through them.
export const NAMES = ["houses", "titles", "regions", "seats", "viewer"];
// Who the court waits on and what for (panels/table.js `waitingOn`).
export const TURN = ["game", "pending", "decree", "election", "auction", "purchases", "offers"];

// What a panel reads beside the court view: `presence` (the presence push), `reveal` (the last
// ballots revealed, from the feed) and `receipt` (a receipt this device keeps).
export const PRESENCE = "presence";
export const REVEAL = "reveal";
export const RECEIPT = "receipt";

// A draw that redraws every panel: the welcome, a reconnection, a panel asking for it.
export const EVERYTHING = null;

// The sections a patch touches, by the first segment of each path: the version the view shows
// (`/game/version`, changed by every push) is a section of its own, so that the panels reading
// the game's settings and phase are not redrawn at every push. A patch of the whole view
// touches everything.
export function touched(patch) {
  const sections = new Set();
  for (const { path, from } of patch)
    for (const pointer of from === undefined ? [path] : [path, from]) {
      if (pointer === "" || pointer === "/") return EVERYTHING;
      const [section, part] = pointer.slice(1).split("/");
      sections.add(section === "game" && part === "version" ? "version" : section);
    }
  return sections;
}

// Whether a panel reading `reads` is drawn again for `changed` (EVERYTHING: every panel).
export function redraws(reads, changed) {
  return changed === EVERYTHING || reads.some((section) => changed.has(section));
}
