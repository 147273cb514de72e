"""A NUL character in a URL (`%00`) and a superscript digit (`²`) in a numeric
query parameter are a client's mistake: a 400 or the ordinary answer, never a 500."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        "/api/federation/licensees/?search=%00",
        "/api/federation/licensees/?club=1%00",
        "/api/pcn/ranking/?q=a%00b",
        "/api/tournaments/?name%00=x",
        "/api/pcn/rulebooks/2026%00/",
    ],
)
def test_a_nul_in_an_api_url_is_a_located_400(api, registry, url):
    api.force_authenticate(registry.users["federation_staff"])
    response = api.get(url)
    assert response.status_code == 400, response.content
    (error,) = response.json()["errors"]
    assert error["code"] == "null_character"


@pytest.mark.parametrize("url", ["/classement/?q=%00", "/classement/joueur/%00/"])
def test_a_nul_in_a_page_url_is_a_400(client, registry, url):
    response = client.get(url)
    assert response.status_code == 400
    assert b"NUL" in response.content


@pytest.mark.parametrize("parameter", ["club", "committee", "search"])
def test_a_superscript_digit_in_the_licensees_filters_is_no_500(api, registry, parameter):
    api.force_authenticate(registry.users["federation_staff"])
    response = api.get(f"/api/federation/licensees/?{parameter}=²")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("url", ["/classement/?q=²", "/api/pcn/ranking/?q=²"])
def test_a_superscript_digit_in_the_ranking_search_is_no_500(client, registry, url):
    from rankings.season.recompute import full_recompute

    full_recompute(season=registry.season)
    response = client.get(url)
    assert response.status_code == 200, response.content


MANY_FIELDS = "&".join(f"f{i}=1" for i in range(2000))  # over DATA_UPLOAD_MAX_NUMBER_FIELDS


def test_a_huge_query_string_under_the_api_is_the_apis_json_400_in_french(api, registry):
    response = api.get(f"/api/pcn/ranking/?{MANY_FIELDS}")
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    (error,) = response.json()["errors"]
    assert error["field"] is None
    assert error["code"] == "too_many_fields"
    assert error["message"].startswith("La requête compte plus de 1000 champs")


def test_thousands_of_form_fields_under_the_api_are_the_apis_json_400(api, registry):
    api.force_authenticate(registry.users["federation_staff"])
    response = api.post(
        "/api/tournaments/", MANY_FIELDS, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "too_many_fields"
    english = api.get(f"/api/pcn/ranking/?{MANY_FIELDS}", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["errors"][0]["message"].startswith("The request has more than 1000")


def test_a_huge_query_string_on_a_page_is_still_a_page(client, registry):
    response = client.get(f"/classement/?{MANY_FIELDS}")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
