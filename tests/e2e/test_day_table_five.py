"""A table of 5 on a phone (360 px): the five seats' names are read whole, none cut in the
middle of a word (five cells in a row left each name some 60 px)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.competitions.day.test_scoring import draw

# The words of each seat's name that the browser breaks over two lines.
CUT_WORDS = """() => [...document.querySelectorAll('.seat-cell .name')].flatMap(name => {
  const text = name.firstChild, out = [];
  let at = 0;
  for (const word of text.textContent.split(' ')) {
    const range = document.createRange();
    range.setStart(text, at); range.setEnd(text, at + word.length);
    if (word && range.getClientRects().length > 1) out.push(word);
    at += word.length + 1;
  }
  return out;
})"""


def test_a_table_of_five_shows_every_name_whole_on_a_phone(open_window, declare_tournament):
    from competitions.day.table_tokens import table_url
    from competitions.models import EntryMember
    from competitions.rules.day.layout import layout_from_json

    session = draw(declare_tournament(), 13, fives=True)
    for member in EntryMember.objects.filter(tournament=session.tournament):
        member.name = "BERTRAND Dominique"
        member.save()
    five = next(t for t in layout_from_json(session.plan).tables_at(1) if t.size == 5)
    phone = open_window("phone", "table-of-5")
    phone.page.goto(table_url(session, 1, five.table))
    expect(phone.page.locator(".seat-cell")).to_have_count(5)
    phone.shot("seats")
    assert phone.page.evaluate(CUT_WORDS) == []
    assert phone.sideways() == []
