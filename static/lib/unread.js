// Which talk lines the reader has not read yet, and how many: a badge on the panel's heading,
// "3 new ↓" in the panel once he scrolled up in its list, and "(3) " before the tab's title.
// A line is read once the newest line has been on screen: the tab visible, the list scrolled
// to its end and that end inside the window. One's own lines are never unread; a whisper
// reaches its parties alone, so it counts for them alone. The last position read is kept per
// game and party on this device, so a reload or a second tab does not count it again.

// How near its end (px) the list counts as following its newest line.
export const FOLLOWING_PX = 24;
const COUNTED = /^\(\d+\) /;

export function atEnd(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < FOLLOWING_PX;
}

export class Unread {
  // `list`: the talk list; `badge`, `jump`: the heading's badge and the "new ↓" button;
  // `key(party)`: where this device keeps the party's last position read.
  constructor({ list, badge, jump, key }) {
    this.list = list;
    this.badge = badge;
    this.jump = jump;
    this.key = key;
    this.party = null;
    this.lines = [];
    this.read = 0;
    this.count = 0;
    const check = () => this.check();
    list.addEventListener("scroll", check, { passive: true });
    window.addEventListener("scroll", check, { passive: true });
    window.addEventListener("resize", check);
    window.addEventListener("focus", check);
    document.addEventListener("visibilitychange", check);
    // Another tab of this device read them.
    window.addEventListener("storage", (event) => {
      if (this.party && event.key === this.key(this.party)) this.show();
    });
    jump.addEventListener("click", () => {
      list.scrollTop = list.scrollHeight;
      this.check();
    });
  }

  // The lines the panel shows (by position), for `party` ("seat:2", "master"; null: no panel).
  update(lines, party) {
    if (party !== this.party) {
      this.party = party;
      this.read = party ? Number(localStorage.getItem(this.key(party)) ?? 0) : 0;
    }
    this.lines = party ? lines : [];
    this.check();
  }

  // Marks the lines read if the newest is on screen now; then says how many are not.
  check() {
    const newest = this.lines.at(-1);
    if (newest && newest.position > this.stored() && this.onScreen()) {
      this.read = newest.position;
      localStorage.setItem(this.key(this.party), String(this.read));
    }
    this.show();
  }

  stored() {
    if (!this.party) return 0;
    this.read = Math.max(this.read, Number(localStorage.getItem(this.key(this.party)) ?? 0));
    return this.read;
  }

  onScreen() {
    if (document.visibilityState !== "visible" || !this.list.isConnected) return false;
    const last = this.list.lastElementChild;
    if (!last || !atEnd(this.list)) return false;
    const at = last.getBoundingClientRect();
    return at.height > 0 && at.bottom > 0 && at.top < window.innerHeight;
  }

  show() {
    const read = this.stored();
    const count = this.lines.filter((l) => l.position > read && l.sender !== this.party).length;
    this.count = count;
    this.badge.hidden = count === 0;
    this.badge.textContent = `${count} unread`;
    this.jump.hidden = count === 0 || atEnd(this.list);
    this.jump.textContent = `${count} new ↓`;
    this.title();
  }

  // "(3) " before the tab's title while lines are unread; the page sets the rest of it.
  title() {
    const bare = document.title.replace(COUNTED, "");
    const titled = this.count ? `(${this.count}) ${bare}` : bare;
    if (document.title !== titled) document.title = titled;
  }
}
