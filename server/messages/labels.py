"""What the pages call a message a player sends, on its button or above its form ("Propose a
marriage"): read by the court page with the page itself (server/http/pages.py), so that a
move is named in one place. A message without a label is named by its name, spaced."""

from __future__ import annotations

LABELS: dict[str, str] = {
    "pass": "Pass this turn",
    "accept_title": "Accept the title",
    "refuse_title": "Refuse the title",
    "resolve_title_overflow": "Pass on or return a title (one too many)",
    "propose_marriage": "Propose a marriage",
    "answer_marriage": "Answer the marriage proposal",
    "divorce": "Divorce a couple (Master of Laws)",
    "embrace_rhllor": "Embrace R'hllor",
    "hand_conversion": "The Hand's conversion",
    "pardon": "Royal pardon",
    "send_to_wall": "Send to the Wall or declare Outlaw",
    "concede_title": "Concede a title",
    "desert": "A Brother breaks his oath",
    "build_sept": "Build a Sept",
    "buy_fief_title": "Buy a Fief title",
    "grant_fief_title": "Grant a Fief title (the King)",
    "end_purchases": "Done with my purchases",
    "place_bid": "Sealed bid for the fourth council seat",
    "pass_bid": "No bid for the council seat",
    "choose_council_seat": "Seat a Warden on the Small Council",
    "offer_ransom": "Offer a ransom for one of your captives",
    "accept_ransom": "Accept a ransom",
    "refuse_ransom": "Refuse a ransom",
    "withdraw_ransom": "Withdraw your ransom offer",
}
