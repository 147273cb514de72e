"""A player hides their name from the public in their own space, and a fresh anonymous
browser sees their place as « joueur ayant demandé l'anonymat » (docs/privacy.md)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

ANONYMOUS = "joueur ayant demandé l'anonymat"


def test_a_player_hides_their_name_and_the_public_sees_them_anonymous(
    open_window, sign_in, homologated_open, registry
):
    from federation.models import Player, User

    helene = Player.objects.get(licence_number=3103)  # Hélène Génin won the Open
    User.objects.create_user(username="helene", password="secret-helene", player=helene)

    public = open_window("desktop", "public-before")
    public.page.goto("/classement/")
    expect(public.page.get_by_role("link", name="GÉNIN Hélène")).to_be_visible()  # stored now
    public.shot("1-classement-avant")

    me = open_window("phone", "helene")
    sign_in(me, "helene", "secret-helene")
    page = me.page
    page.goto("/compte/")
    expect(page).to_have_url(re.compile(r"/classement/joueur/3103/$"))
    page.get_by_role("link", name="Confidentialité").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Confidentialité")
    expect(page.locator("#privacy-state")).to_contain_text("Votre nom apparaît")
    page.get_by_role("button", name="Masquer mon nom sur les pages publiques").click()
    expect(page.locator("#privacy-state")).to_contain_text("Votre nom est masqué")
    expect(
        page.get_by_role("button", name="Afficher mon nom sur les pages publiques")
    ).to_be_visible()
    me.shot("2-nom-masque")
    helene.refresh_from_db()
    assert helene.name_hidden
    # they still see their own page, by name
    page.goto("/classement/joueur/3103/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Hélène GÉNIN")
    me.shot("3-sa-page")

    fresh = open_window("desktop", "public-after")  # a new anonymous browser
    page = fresh.page
    page.goto("/classement/")
    first = page.get_by_role("row").nth(1)
    expect(first).to_contain_text(ANONYMOUS)
    expect(first.get_by_role("link", name=ANONYMOUS)).to_have_count(0)  # no link to them
    expect(page.get_by_text("GÉNIN Hélène")).to_have_count(0)
    assert "3103" not in page.content()
    fresh.shot("4-classement-anonyme")
    search = page.get_by_role("searchbox", name="Nom ou numéro de licence")
    search.fill("genin")
    search.press("Enter")
    expect(page.get_by_text("GÉNIN Hélène")).to_have_count(0)
    assert page.goto("/classement/joueur/3103/").status == 404
    page.goto(f"/calendrier/tournoi/{homologated_open.pk}/")
    expect(page.get_by_text(ANONYMOUS)).to_be_visible()
    expect(page.get_by_text("GÉNIN Hélène")).to_have_count(0)
    fresh.shot("5-tournoi-anonyme")
