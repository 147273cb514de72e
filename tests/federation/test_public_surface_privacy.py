"""A player who objected to appearing by name is named nowhere an anonymous reader can
go. The walk discovers the public surface (every route of the URLconf, every query
parameter the OpenAPI schema documents for a GET, the links and GET forms of the pages
reached) on the seeded demo, reads it all, hides a player who played its tournaments and
a championship stage (``PUT /api/federation/players/<n>/privacy/``), and reads it all
again: first with the read cache filled before the choice, then with it emptied.

Neither their name nor their licence number may appear anywhere, while a player of the
same tournaments who did not object still appears wherever they appeared before, so the
walk cannot pass by reading nothing."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from django.test import Client
from django.test.utils import override_settings
from django.urls import Resolver404, resolve

from demo.championships import build_demo_championships
from demo.registry import reset_registry
from demo.registry_build import build_demo_registry
from demo.tournaments import build_demo_tournaments, reset_competitions
from tests.federation.public_surface import (
    Read,
    Route,
    canonical,
    page_links,
    preceding_word,
    readable_text,
    routes,
    schema_path_matches,
    schema_query_parameters,
)
from tests.rankings.conftest import live_store_redis  # noqa: F401 (the live ranking in Redis)

pytestmark = pytest.mark.django_db

WALK_LIMIT = 6000  # addresses per walk: far above the demo's surface, a guard against a loop
LINKS_PER_ROUTE = 12  # addresses of one route reached by following links (seeds: all)
NEW_NAMES = ("Zarathoustra", "Ottilie", "Melchisédech", "Eulalie", "Quetzalcoatl", "Anselme")


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """A small seeded demo, as ``seed_demo`` builds it (with debug on, which the demo
    requires), read with debug off as in production: two seasons of tournaments (the
    previous season's official ranking published, the current one live), committee 1's
    championships."""
    with django_db_blocker.unblock():
        try:
            with override_settings(DEBUG=True):
                registry = build_demo_registry(players=300, clubs=20)
                build_demo_tournaments(registry, tournaments=12)
                build_demo_championships(registry)
            yield registry
        finally:
            reset_competitions()
            reset_registry()


@dataclass
class Person:
    """A player the walk looks for: their licence number and their names, found nowhere
    else in the demo."""

    pk: int
    licence_number: int
    last_name: str
    first_name: str

    def found_in(self, text: str, echoed: tuple[str, ...] = ()) -> list[str]:
        """What of them ``text`` shows (``echoed``: what the reader typed, which a search
        box shows back, is taken out first)."""
        for value in sorted(echoed, key=len, reverse=True):
            if value:
                text = text.replace(value, " ")
        found = re.findall(rf"(?<![0-9]){self.licence_number}(?![0-9])", text)
        for word in (self.last_name, self.first_name):
            found += re.findall(rf"(?<!\w){re.escape(word)}(?!\w)", text, flags=re.IGNORECASE)
        return found


@dataclass
class Surface:
    """The ids the path parameters are filled with, around the hidden player."""

    hidden: tuple[Person, ...]  # a player, and the arbiter of a tournament they played
    other: Person  # a player of the same tournaments, who stays named
    played: list[int]  # the homologated tournaments the player and the other played
    tournaments: list[int]
    championships: list[int]
    regionals: list[int]
    stages: list[int]
    entries: list[int]
    clubs: list[int]
    committees: list[int]
    committee_pks: list[int]
    zone_pks: list[int]
    seasons: list[str]
    season_pks: list[int]
    runs: list[int]
    snapshots: list[int]

    @property
    def searches(self) -> list[str]:
        """What a reader types in a search box: each name, the licence numbers."""
        typed = [(p.last_name, p.first_name, str(p.licence_number)) for p in self.hidden]
        return [text for person in typed for text in person] + [self.other.last_name]


def _rename(player, last_name: str, first_name: str) -> Person:
    """Give ``player`` a name found nowhere else, wherever the demo wrote their name: the
    registry, the results as submitted (lines, documents, name confirmations), the
    rankings' search names."""
    from competitions.models import LicenceNameConfirmation, ResultPlayer, ResultRevision
    from core.folding import fold
    from federation.models import Player
    from rankings.models import RankingEntry

    full = f"{last_name} {first_name}"
    lines = ResultPlayer.objects.filter(player=player)
    for revision in ResultRevision.objects.filter(pk__in=lines.values("revision")):
        text = json.dumps(revision.document, ensure_ascii=False)
        for old in set(lines.filter(revision=revision).values_list("name", flat=True)):
            text = text.replace(json.dumps(old, ensure_ascii=False), json.dumps(full))
        revision.document = json.loads(text)
        revision.save(update_fields=["document"])
    lines.update(name=full)
    LicenceNameConfirmation.objects.filter(licence_number=player.licence_number).update(
        name_in_file=full, registry_name=full
    )
    Player.objects.filter(pk=player.pk).update(last_name=last_name, first_name=first_name)
    RankingEntry.objects.filter(player=player).update(search_name=fold(full))
    return Person(player.pk, player.licence_number, last_name, first_name)


@pytest.fixture(scope="module")
def surface(demo, django_db_blocker) -> Surface:
    """The hidden player: of the players who entered a championship stage, the one who
    played the most homologated tournaments of the current season; the other: a player
    of the same tournaments, who stays named. Both get names found nowhere else."""
    from django.db.models import F

    from competitions.models import (
        ChampionshipStage,
        EntryPlayer,
        ResultPlayer,
        Tournament,
        TournamentStatus,
    )
    from federation.models import Licence, Player, Season
    from rankings.models import RankingSnapshot, RecomputeRun

    with django_db_blocker.unblock():
        homologated = ResultPlayer.objects.filter(
            revision__tournament__status=TournamentStatus.HOMOLOGATED,
            revision__tournament__homologated_revision=F("revision"),
            player__isnull=False,
        )
        season = demo.current_season
        played = Counter(
            homologated.filter(revision__tournament__season=season).values_list("player", flat=True)
        )
        entered = set(EntryPlayer.objects.values_list("player", flat=True))
        chosen = min(played, key=lambda p: (p not in entered, -played[p], p))
        assert chosen in entered
        tournaments = set(
            homologated.filter(player_id=chosen).values_list("revision__tournament", flat=True)
        )
        mate = min(
            homologated.filter(revision__tournament__in=tournaments)
            .exclude(player_id=chosen)
            .values_list("player", flat=True)
        )
        played = sorted(
            set(homologated.filter(player_id=mate).values_list("revision__tournament", flat=True))
            & tournaments
        )
        arbiter = min(
            a for a in Tournament.objects.filter(pk__in=played).values_list("arbiter", flat=True)
            if a not in (chosen, mate)
        )  # fmt: skip
        for word in NEW_NAMES:
            assert not Player.objects.filter(search_name__contains=word.lower()).exists()
        hidden = (
            _rename(Player.objects.get(pk=chosen), "Zarathoustra", "Ottilie"),
            _rename(Player.objects.get(pk=arbiter), "Melchisédech", "Eulalie"),
        )
        other = _rename(Player.objects.get(pk=mate), "Quetzalcoatl", "Anselme")

        entries = EntryPlayer.objects.filter(player_id=chosen).select_related(
            "entry__committee", "stage"
        )
        stages = ChampionshipStage.objects.filter(pk__in={e.stage_id for e in entries})
        tournaments |= {t for t in stages.values_list("tournament", flat=True) if t}
        licences = Licence.objects.filter(player_id__in=(chosen, arbiter)).select_related(
            "club__committee"
        )
        clubs = {lic.club for lic in licences}
        organisers = Tournament.objects.filter(pk__in=tournaments).select_related(
            "organizer_club__committee", "organizer_committee"
        )
        clubs |= {t.organizer_club for t in organisers if t.organizer_club}
        committees = {c.committee for c in clubs}
        committees |= {t.organizer_committee for t in organisers if t.organizer_committee}
        committees |= {e.entry.committee for e in entries if e.entry.committee_id}
        yield Surface(
            hidden=hidden,
            other=other,
            played=played,
            tournaments=sorted(tournaments),
            championships=sorted(set(stages.values_list("championship", flat=True))),
            regionals=sorted({r for r in stages.values_list("regional", flat=True) if r}),
            stages=sorted(stages.values_list("pk", flat=True)),
            entries=sorted({e.entry.number for e in entries}),
            clubs=sorted(c.number for c in clubs),
            committees=sorted(c.number for c in committees),
            committee_pks=sorted(c.pk for c in committees),
            zone_pks=sorted({c.zone_id for c in committees}),
            seasons=sorted(Season.objects.values_list("name", flat=True)),
            season_pks=sorted(Season.objects.values_list("pk", flat=True)),
            runs=sorted(RecomputeRun.objects.values_list("pk", flat=True))[-2:],
            snapshots=sorted(RankingSnapshot.objects.values_list("pk", flat=True)),
        )


# --- filling the routes ------------------------------------------------------------------

# The resource a ``pk`` or ``number`` names, by the path segment before it.
PK_RESOURCES = {
    "tournaments": "tournaments", "tournois": "tournaments", "tournoi": "tournaments",
    "homologation": "tournaments", "championships": "championships",
    "championnats": "championships", "regionals": "regionals", "regionaux": "regionals",
    "stages": "stages", "stades": "stages", "recomputes": "runs", "calculs": "runs",
    "seasons": "season_pks", "zones": "zone_pks", "committees": "committee_pks",
}  # fmt: skip
NUMBER_RESOURCES = {
    "clubs": "clubs", "club": "clubs", "comites": "committees", "comite": "committees",
    "committees": "committees", "inscrits": "entries", "entries": "entries",
    "accueil": "entries",
}  # fmt: skip


STAFF_ONLY = {
    "seances", "positions", "tables", "donnes", "suspensions", "suspension-proposals",
}  # fmt: skip


def path_values(route: Route, parameter: str, surface: Surface) -> list[str]:
    """The values a path parameter is walked with; an unknown parameter fails the walk."""
    if route.template.startswith("admin/"):
        return ["1"]  # the admin refuses anonymous readers whatever the object
    word = preceding_word(route, parameter)
    if parameter == "pk" and word in PK_RESOURCES:
        return [str(v) for v in getattr(surface, PK_RESOURCES[word])]
    if parameter == "number" and word in NUMBER_RESOURCES:
        return [str(v) for v in getattr(surface, NUMBER_RESOURCES[word])]
    if word in STAFF_ONLY:
        return ["1", "2"]  # pages behind a sign-in: an anonymous reader is sent to it
    fixed = {
        "licence_number": [str(p.licence_number) for p in (*surface.hidden, surface.other)],
        "season": surface.seasons,
        "format": ["json"],
        "kind": ["official", "provisional"],
        "version": ["1"],
        "what": ["results", "qualified"],
        "file_format": ["csv", "xlsx"],
        "token": ["x"],
        "token_key": ["x"],
        "uidb64": ["x"],
        "path": ["core/site.css"],
    }
    if parameter in fixed:
        return fixed[parameter]
    raise AssertionError(
        f"{route.template}: the walk does not know how to fill <{parameter}> after "
        f"{word!r}: add it to the tables of tests/federation/test_public_surface_privacy.py"
    )


def query_values(parameter: dict, surface: Surface) -> list[str]:
    """The values a documented query parameter is walked with (none: left out)."""
    name = parameter["name"]
    schema = parameter.get("schema", {})
    by_name = {
        "q": surface.searches, "search": surface.searches,
        "licence_number": [str(p.licence_number) for p in surface.hidden],
        "season": surface.seasons, "saison": surface.seasons,
        "club": [str(c) for c in surface.clubs],
        "committee": [str(c) for c in surface.committees],
        "zone__number": ["1", "2"], "series": ["1", "2", "3", "4"],
        "snapshot": [str(s) for s in surface.snapshots],
        "page_size": ["1000"], "page": ["1", "2"],
        "as_of": ["2026-11-01", "2026-08-31"], "month": ["2026-11", "2026-09"],
        "tables": ["10"], "entries": ["40"], "place": ["1", "2"],
    }  # fmt: skip
    if name in by_name:
        return by_name[name]
    if schema.get("enum"):
        return [str(v) for v in schema["enum"]]
    if schema.get("type") == "boolean":
        return ["true"]
    return []


def seeds(surface: Surface) -> list[str]:
    """Every route filled with every combination of its parameters' values, and each
    documented query parameter's values on its operation."""
    schema = schema_query_parameters()
    urls: list[str] = []
    everything = routes()
    unknown = [p for p in schema if not any(schema_path_matches(p, r) for r in everything)]
    assert unknown == [], "operations of the schema that no route serves"
    for route in everything:
        names = route.parameters()
        combos: list[dict[str, str]] = [{}]
        for name in names:
            combos = [{**c, name: v} for c in combos for v in path_values(route, name, surface)]
        queries = [p for path, params in schema.items() if schema_path_matches(path, route)
                   for p in params]  # fmt: skip
        for combo in combos:
            url = route.fill(combo)
            urls.append(url)
            together = {}  # every parameter at once (an operation may need several)
            for parameter in queries:
                values = query_values(parameter, surface)
                urls += [f"{url}?{urlencode({parameter['name']: value})}" for value in values]
                if values and parameter["name"] not in {"page", "q", "search"}:
                    together[parameter["name"]] = values[0]
            if len(together) > 1:
                urls.append(f"{url}?{urlencode(together)}")
    return urls


def _walkable(url: str) -> bool:
    path = url.split("?")[0]
    if path.startswith(("/admin/", "/static/")) or path in {
        "/compte/deconnexion/",
        "/i18n/setlang/",
    }:
        return False
    try:
        resolve(path)
    except Resolver404:
        return False
    return True


def walk(surface: Surface, seed_urls: list[str]) -> dict[str, Read]:
    """Read every seed as an anonymous reader, then the same-site addresses their pages
    lead to (one step further; at most ``LINKS_PER_ROUTE`` of each route, those naming
    the walk's people first)."""
    client = Client()
    reads: dict[str, Read] = {}

    def read(url: str) -> Read:
        response = client.get(url)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        content_type = response.get("Content-Type", "")
        if response.status_code == 200:
            text = readable_text(content_type, body)
        else:
            text = body.decode("utf-8", "replace")
        links = set()
        if response.status_code == 200 and content_type.startswith("text/html"):
            links = {canonical(u) for u in page_links(url, text, surface.searches) if _walkable(u)}
        return Read(response.status_code, content_type, text, links)

    for url in dict.fromkeys(canonical(u) for u in seed_urls):
        reads[url] = read(url)
    followed: Counter[str] = Counter()
    ours = [str(p.licence_number) for p in (*surface.hidden, surface.other)]
    links = {link for r in list(reads.values()) for link in r.links} - reads.keys()
    for url in sorted(links, key=lambda u: (not any(n in u for n in ours), u)):
        route = resolve(urlsplit(url).path).route
        if followed[route] < LINKS_PER_ROUTE:
            followed[route] += 1
            reads[url] = read(url)
    assert len(reads) < WALK_LIMIT, "the walk does not end"
    return reads


def typed(url: str, read: Read) -> tuple[str, ...]:
    """What the reader typed, which an answer may show back: the query's values, and the
    whole address in a refusal ("no page at …")."""
    values = tuple(value for _, value in parse_qsl(urlsplit(url).query))
    return values if read.status == 200 else (*values, urlsplit(url).path)


def naming(people: Iterable[Person], reads: dict[str, Read]) -> dict[str, list[str]]:
    """The addresses whose answer shows one of ``people``, with what it shows."""
    found = {
        url: [shown for p in people for shown in p.found_in(read.text, typed(url, read))]
        for url, read in reads.items()
    }
    return {url: shown for url, shown in found.items() if shown}


def _forget_read_cache() -> None:
    from django.core.cache import cache

    from core.http.http_cache import recent
    from rankings.reads.read_versions import memo_forget

    cache.clear()
    recent.clear()
    memo_forget()


@pytest.mark.usefixtures("live_store_redis")
def test_a_hidden_player_is_named_nowhere_an_anonymous_reader_goes(api, surface):
    from federation.models import User

    urls = seeds(surface)
    before = walk(surface, urls)  # and the read cache filled
    player, arbiter = surface.hidden
    named_before = naming(surface.hidden, before)
    other_before = naming([surface.other], before)
    for t in surface.played:  # the walk reads what it should: they are found where they are
        for url in (f"/api/tournaments/{t}/results/", f"/api/public/tournaments/{t}/",
                    f"/calendrier/tournoi/{t}/"):  # fmt: skip
            assert url in named_before, url
            assert url in other_before, url
    assert f"/classement/joueur/{player.licence_number}/" in named_before
    assert naming([arbiter], before)

    me = User.objects.filter(player_id=player.pk).first()
    api.force_authenticate(me or User.objects.create_user(username="z", player_id=player.pk))
    answer = api.put(f"/api/federation/players/{player.licence_number}/privacy/",
                     {"name_hidden": True}, format="json")  # fmt: skip
    assert answer.status_code == 200, answer.content
    api.force_authenticate(User.objects.get(username="admin"))  # federation staff
    answer = api.put(f"/api/federation/players/{arbiter.licence_number}/privacy/",
                     {"name_hidden": True}, format="json")  # fmt: skip
    assert answer.status_code == 200, answer.content

    cached = walk(surface, urls)  # the read cache as it was filled before the choice
    assert naming(surface.hidden, cached) == {}
    _forget_read_cache()
    built = walk(surface, urls)
    assert naming(surface.hidden, built) == {}
    for after in (cached, built):
        still = {u for u in other_before if u in after and after[u].status == before[u].status}
        assert len(still) > 10, "the walk reads nothing"
        assert set(naming([surface.other], after)) >= still
