import pytest
from tests.core.test_api_fuzz import schema, CHECKS, in_test_transaction, tokens  # noqa

pytestmark = pytest.mark.django_db


def test_rank(tokens):
    op = schema["/api/engine/standings/rank/"]["POST"]
    case = op.Case(body={"entries": [{"entry_id": "a", "members": [{"player": "x", "total": 10}]}]},
                   media_type="application/json")
    r = case.call_and_validate(headers={"Authorization": f"Token {tokens['federation_staff']}"}, checks=CHECKS)
    print(r.status_code, r.text[:300])


def test_many(api, registry):
    q = "&".join(f"a{i}=1" for i in range(1500))
    r = api.get(f"/api/pcn/ranking/?{q}")
    print("GET", r.status_code, r["Content-Type"], r.content[:200])
    api.force_authenticate(registry.users["federation_staff"])
    r = api.post("/api/tournaments/", q, content_type="application/x-www-form-urlencoded")
    print("POST", r.status_code, r["Content-Type"], r.content[:200])
    r = api.post("/api/tournaments/", "x=" + "a" * (21 * 1024 * 1024), content_type="application/x-www-form-urlencoded")
    print("POSTBIG", r.status_code, r["Content-Type"], r.content[:200])
