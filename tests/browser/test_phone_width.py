"""Every page fits a 390 px phone in both themes with every panel and form open: the front page
and the key page, the game page of the host's seat with the marriage, ransom and correction
forms, the host's fact forms, a replacement link and the witness banner (a forged checkpoint
signature, as tests/browser/test_witness.py forces it) all shown at once, and the history
with the banner, and then the game page and Your games once the table ended the game. Nothing
scrolls sideways (`scrollWidth <= innerWidth`), and every two touch targets (buttons, links,
fields) are 44 px apart between centres unless both are 44 px big."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.court_http import HttpCourt
from tests.browser.players import WAIT_MS, forge_signatures
from tests.live_server import LiveServer

PHONE = {"width": 390, "height": 844}
HOUSES = ("stark", "lannister", "tyrell", "martell")
STARK, LANNISTER, MARTELL = 0, 1, 3
# Every village of a map submit, so that the correction's record list is long and wide.
VILLAGES = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin", "kings-landing")

# What sticks out of the window: the deepest elements whose right edge passes it.
WIDER = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.getClientRects().length && (el.getBoundingClientRect().right > innerWidth + 0.5
    || el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible'))
  .filter((el) => ![...el.children].some((c) => c.getBoundingClientRect().right > innerWidth + 0.5))
  .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${
    Math.round(el.getBoundingClientRect().right)}`).slice(0, 12)"""

# How far below the connection line the next thing shown starts.
BAND = """() => {
  const line = document.getElementById('connection');
  let next = line.nextElementSibling;
  while (next && !next.getClientRects().length) next = next.nextElementSibling;
  return next.getBoundingClientRect().top - line.getBoundingClientRect().bottom;
}"""

# Pairs of touch targets closer than 44 px between centres where one is smaller than 44 px
# in either direction. A link inside a sentence is no target of its own (WCAG 2.5.8's inline
# exception); a box a label wraps is pressed through its label.
CROWDED = """() => {
  scrollTo(0, 0);  // a sticky bar is measured where it stands in the page, not over it
  // Shown, and not scrolled out of a list that scrolls by itself (there it is compared with
  // its neighbours once scrolled into view).
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflow === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (x < b.left || x > b.right || y < b.top || y > b.bottom) return false;
    }
    return true;
  };
  const seen = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
    && inside(el);
  const inline = (el) => el.tagName === 'A' && [...el.parentElement.childNodes].some(
    (n) => n.nodeType === 3 && n.textContent.trim());
  const targets = [...document.querySelectorAll(
      'button, a[href], input:not([type=hidden]), select, textarea, summary')]
    .filter(seen).filter((el) => !inline(el))
    .map((el) => (el.type === 'checkbox' || el.type === 'radio') && el.closest('label')
      ? el.closest('label') : el);
  const boxes = [...new Set(targets)].map((el) => {
    const r = el.getBoundingClientRect();
    return { el, x: r.left + r.width / 2 + scrollX, y: r.top + r.height / 2 + scrollY,
      small: r.width < 44 || r.height < 44 };
  });
  const name = (b) => `${b.el.tagName.toLowerCase()}#${b.el.id} "${
    (b.el.textContent || b.el.value || '').trim().slice(0, 24)}"`;
  const out = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (!(a.small || b.small) || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (d < 44) out.push(`${name(a)} ~ ${name(b)}: ${Math.round(d)} px`);
    }
  return out.slice(0, 20);
}"""

# The key this phone kept of the server at an earlier visit: another than it signs with now.
OTHER_KEY = """if (location.pathname === %s) localStorage.setItem('small-council.witness-key',
  JSON.stringify({key_id: 'feedfacefeedface', public_key: 'A'.repeat(43) + '=',
    keys: {feedfacefeedface: 'A'.repeat(43) + '='}}));"""


def fits_a_phone(page: Page, where: str) -> None:
    width = page.evaluate("innerWidth")
    assert width == PHONE["width"]
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, (where, wide, page.evaluate(WIDER))
    crowded = page.evaluate(CROWDED)
    assert not crowded, (where, crowded)


def open_every_panel(page: Page) -> None:
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")


def seated_table(server: LiveServer) -> HttpCourt:
    """A 4-seat game in its first decree step, Stark's turn (the host's seat): Stark holds a
    captive and has one of his own held, five villages were recorded in one submit, and
    Lannister voted to hand Martell's seat, gone since the start, to a new link."""
    game = HttpCourt(server.url, houses=HOUSES, table_votes={"replace_after": 0})
    changes = [{"village": v, "house": "stark"} for v in VILLAGES]
    game.play("record_villages", {"changes": changes, "cause": "the map"}, game.host)
    for captive, captor in (("robb-stark", "lannister"), ("tyrion-lannister", "stark")):
        body = {"noble": captive, "house": captor, "cause": "the Whispering Wood"}
        game.play("record_capture", body, game.host)
    game.play("vote_replace", {"seat": MARTELL}, game.tokens[LANNISTER])
    return game


def phone(chromium: Any, theme: str, token: str | None = None, game_id: str = "") -> Any:
    context = chromium.new_context(viewport=PHONE, color_scheme=theme)
    context.set_default_timeout(WAIT_MS)
    if token:
        kept = json.dumps([{"token": token, "label": "Player of stark, House Stark, host"}])
        context.add_init_script(f"localStorage.setItem('seats:{game_id}', {kept!r})")
        context.add_init_script(f"sessionStorage.setItem('token:{game_id}', {token!r})")
    return context


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_page_fits_a_phone_with_every_form_open(
    chromium: Any, server: LiveServer, theme: str, shots: Path
) -> None:
    base, game = server.url, seated_table(server)
    url = f"{base}/games/{game.id}"
    context = phone(chromium, theme, game.host, game.id)
    page = context.new_page()
    game.phones.pages[0] = page  # the host's seat, keyed by this page

    # The front page, with the seat in Your games, and the key page with a key made
    page.goto(base + "/")
    expect(page.locator(f"#my-games li[data-game='{game.id}']")).to_be_visible()
    open_every_panel(page)
    fits_a_phone(page, "front page")
    page.click("#make-key")
    expect(page.locator("#key-panel")).to_contain_text("Your key gathers")
    open_every_panel(page)
    fits_a_phone(page, "key page")

    # The game page of the host's seat, every form open at once, under the banner of a server
    # that signs with another key than the one this phone kept
    context.add_init_script(OTHER_KEY % json.dumps(f"/games/{game.id}"))
    page.goto(url)
    expect(page.locator("#connection")).to_contain_text("Connected as")
    # No blank band waits under the connection line for a notice to come
    assert page.evaluate(BAND) <= 20
    expect(page.locator("#witness")).to_be_visible()
    expect(page.locator("form[data-message=propose_marriage]")).to_be_visible()
    expect(page.locator("form[data-message=offer_ransom]")).to_be_visible()
    row = page.locator(f"#replace-votes li[data-seat='{MARTELL}'] .vote-replace")
    row.click()
    page.locator("#confirm-yes").click()
    expect(page.locator(f"#replaced-link-{MARTELL}")).to_be_visible()
    open_every_panel(page)
    picker = page.locator("#correct-record")
    expect(picker.locator("option")).to_have_count(len(VILLAGES) + 1)
    picker.select_option(index=1)
    fits_a_phone(page, "game page")
    page.screenshot(path=str(shots / f"game-{theme}.png"), full_page=True)

    # The history, under the banner of a checkpoint signed by no key
    forge_signatures(page, game.id)
    page.goto(f"{url}/history")
    expect(page.locator("#witness")).to_be_visible()
    open_every_panel(page)
    fits_a_phone(page, "history")
    page.screenshot(path=str(shots / f"history-{theme}.png"), full_page=True)
    page.unroute_all(behavior="ignoreErrors")

    # The table votes to end the game: its end and standings at the top of the game page and
    # in Your games
    for token in (game.host, game.tokens[LANNISTER], game.tokens[2]):
        if game.view()["game"]["status"] != "ended":
            game.play("vote_end", {}, token)
    assert game.view()["game"]["status"] == "ended"
    page.goto(url)
    expect(page.locator(".ending-banner").first).to_be_visible()
    open_every_panel(page)
    fits_a_phone(page, "ended game page")
    page.goto(base + "/")
    expect(page.locator(f"#my-games li[data-game='{game.id}'] .ending-banner")).to_be_visible()
    fits_a_phone(page, "front page, the game ended")
    context.close()
