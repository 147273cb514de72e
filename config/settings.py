"""Settings for the FFT donnes-libres service.

One module. Every value comes from the environment, with an embedded default
so that a newcomer runs the service with no server at all (SQLite file, Celery
eager). Production differs only by variables; see README and `.env.example`.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from core.digits import ascii_digits
from core.observability.logs import FORMATS as LOG_FORMATS
from core.observability.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is required when DJANGO_DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-not-for-production"
if not DEBUG and len(SECRET_KEY) < 50:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be at least 50 characters when DJANGO_DEBUG is off "
        '(python -c "import secrets; print(secrets.token_urlsafe(50))")'
    )
# Rotating the key (docs/operations.md): the new one above, the previous ones here
# (comma-separated), so that sessions, password-reset links and the unsubscribe links of
# e-mails already sent still verify; only the new key signs.
SECRET_KEY_FALLBACKS = env_list("DJANGO_SECRET_KEY_FALLBACKS", "")
if not DEBUG and any(len(key) < 50 for key in SECRET_KEY_FALLBACKS):
    raise ImproperlyConfigured("each of DJANGO_SECRET_KEY_FALLBACKS must be at least 50 characters")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "simple_history",
    "core",
    "federation",
    "competitions",
    "rankings",
    "portal",
    "demo",
]

MIDDLEWARE = [
    # first: every request gets its id, its log line and its metrics, whatever answers it
    "core.observability.requests.ObserveRequests",
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "core.http.middleware.RefuseNulCharacters",  # a NUL in a URL never reaches PostgreSQL
    "core.http.middleware.ReadYourWrites",  # a recent writer reads the primary (a replica's lag)
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into a 429
]

if not DEBUG:  # under gunicorn the app serves its collected static files itself
    MIDDLEWARE.insert(2, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
AUTH_USER_MODEL = "federation.User"
# Everyone signs in on the site's page (/compte/connexion/) and lands on their space,
# which sends each role where it works (federation/pages.py); a safe ?next= wins. The
# admin keeps its own login, for federation staff only.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "my-space"
LOGOUT_REDIRECT_URL = "home"
# django-axes first: a locked-out client is refused before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                # a page built for the read cache carries a placeholder CSRF token
                "core.http.http_cache.stored_page_context",
            ],
        },
    },
]

# Database: DATABASE_URL (postgres://user@host:5432/name) or the embedded SQLite file.
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{BASE_DIR / 'var' / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
    )
}
# A read replica for the public reads of the ranking (core/db_router.py): a streaming
# replica of the primary, e.g. postgres://reader@replica:5432/fft. Unset: one database.
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
READ_REPLICA = bool(DATABASE_REPLICA_URL)
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = dj_database_url.parse(
        DATABASE_REPLICA_URL, conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60"))
    )
DATABASE_ROUTERS = ["core.db_router.PublicReadsRouter"]
# A reader who has just written reads the primary for this many seconds (a signed cookie
# set on every write answered; core/http/middleware.py::ReadYourWrites), so that a lagging
# replica never hides their own write from them; 0: off.
READ_YOUR_WRITES_S = int(os.environ.get("READ_YOUR_WRITES_S", "30"))
# Logical backups (manage.py backup_database / restore_database, core/management/backups.py,
# docs/backups.md): where, for how long (every backup of the last BACKUP_KEEP_DAYS days and
# the first of each of the last BACKUP_KEEP_MONTHS months), and the PostgreSQL binaries
# (empty: the server's major version's, found in /usr/lib/postgresql/<major>/bin or the PATH).
BACKUP_DIR = os.environ.get("BACKUP_DIR", str(BASE_DIR / "var" / "backups"))
BACKUP_KEEP_DAYS = int(os.environ.get("BACKUP_KEEP_DAYS", "7"))
BACKUP_KEEP_MONTHS = int(os.environ.get("BACKUP_KEEP_MONTHS", "12"))
BACKUP_PG_BIN_DIR = os.environ.get("BACKUP_PG_BIN_DIR", "")
# Behind PgBouncer in transaction mode (docker-compose.yml): a server connection changes
# between transactions, so no server-side cursors (iterator() would lose its cursor) and
# no prepared statements (psycopg prepares none with prepare_threshold None).
if env_bool("DATABASE_POOLER_TRANSACTION_MODE", False):
    for _alias in DATABASES.values():
        _alias["DISABLE_SERVER_SIDE_CURSORS"] = True
        _alias.setdefault("OPTIONS", {})["prepare_threshold"] = None
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# How long a ranking writer waits for a season's advisory lock before giving up (busy,
# retry later) instead of waiting forever behind a long recompute (rankings/season/locks.py).
ADVISORY_LOCK_TIMEOUT_MS = int(os.environ.get("ADVISORY_LOCK_TIMEOUT_MS", "60000"))
# A running recompute's worker renews its run's heartbeat every RECOMPUTE_HEARTBEAT_S
# (a thread of its own, whatever the run is doing); a run whose heartbeat is older than
# RECOMPUTE_STALE_AFTER_S lost its worker: the sweep (every RECOMPUTE_SWEEP_S, beat) or
# the next request queues it again (rankings/season/recompute.py). Lost at the latest
# STALE_AFTER + SWEEP seconds after its worker died: two minutes with the defaults.
RECOMPUTE_HEARTBEAT_S = float(os.environ.get("RECOMPUTE_HEARTBEAT_S", "30"))
RECOMPUTE_STALE_AFTER_S = int(os.environ.get("RECOMPUTE_STALE_AFTER_S", "90"))
RECOMPUTE_SWEEP_S = float(os.environ.get("RECOMPUTE_SWEEP_S", "30"))
# The ranking as of a day not stored yet: at most this many computations of a season
# queued at a time; a reader asking another day meanwhile gets a 503 with Retry-After
# (rankings/season/as_of.py).
AS_OF_QUEUED_MAX = int(os.environ.get("AS_OF_QUEUED_MAX", "2"))

# The database unreachable: every page and API call answers 503 with this Retry-After
# (seconds), in the API's error shape under /api/ (core/http/api_errors.py).
SERVICE_UNAVAILABLE_RETRY_AFTER_S = int(os.environ.get("SERVICE_UNAVAILABLE_RETRY_AFTER_S", "30"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", _("French")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.throttling.ThrottledTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON bodies: no duplicate key, no NUL, at most 32 levels deep, an object
    # (core/http/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "core.http.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # Rate limits (config/throttling.py): anonymous requests per address, writes per
    # user, failed token authentications per address; counted in the default cache.
    "DEFAULT_THROTTLE_CLASSES": [
        "config.throttling.AnonReadThrottle",
        "config.throttling.UserWriteThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "300/minute"),
        "user_write": os.environ.get("API_THROTTLE_USER_WRITE", "120/minute"),
        "token_failures": os.environ.get("API_THROTTLE_TOKEN_FAILURES", "20/hour"),
        # requests of one table's QR token on the tournament day (competitions/day/scoring_api.py)
        "table_entry": os.environ.get("API_THROTTLE_TABLE", "120/minute"),
        # public pages built (not answered from the read cache) for readers not signed
        # in, per address (core/http/throttles.py)
        "pages_anon": os.environ.get("PAGES_THROTTLE_ANON", "120/minute"),
    },
    # How many proxies in front of the app append to X-Forwarded-For (0: the client
    # address is REMOTE_ADDR). Throttles and login lockouts key on that address.
    "NUM_PROXIES": int(os.environ.get("TRUSTED_PROXY_COUNT", "0")),
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "core.http.api_errors.exception_handler",
    # `format` is a domain word here (individual, duo, team4): no ?format= renderer override.
    "URL_FORMAT_OVERRIDE": None,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "FFT donnes libres",
    "DESCRIPTION": (
        "API of the Fédération Française de Tarot for donnes-libres tournaments, "
        "championships and the national ranking. Public reads need no authentication; "
        "writes need a token (`Authorization: Token <key>`) or a staff session."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Every operation documents its refusals with the one error shape (core/http/api_schema.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.http.api_schema.document_errors",
        # The results documents' shapes (competitions/rules/results/schema.py) as components.
        "competitions.api.results_schema.add_document_components",
    ],
    "COMPONENT_SPLIT_REQUEST": True,
    # One media type per request body (generated clients choke on one schema under JSON, form
    # and multipart): JSON, as every client sends; the results uploads document their own.
    "PARSER_WHITELIST": ["rest_framework.parsers.JSONParser"],
    # Swagger UI and ReDoc assets are served from this site, not from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "TournamentFormatEnum": "competitions.models.TournamentFormat",
        "StageEnum": "competitions.models.Stage",
        "EventKindEnum": "competitions.models.EventKindChoice",
        "SeatEnum": ["N", "S", "E", "W", "5"],
        "SideEnum": ["attack", "defence"],
        "PenaltyKindEnum": "competitions.api.engine_serializers.PENALTY_KINDS",
        "ChampionshipKindEnum": "competitions.models.ChampionshipKindChoice",
        "ChampionshipStageKindEnum": "competitions.models.ChampionshipStageKind",
        "SanctionKindEnum": "federation.models.SanctionKind",
        "NotificationKindEnum": "federation.models.NotificationKind",
        "RecomputeKindEnum": "rankings.models.RecomputeKind",
        "BigPrizeFormulaEnum": ["24_deals", "25_deals"],  # competitions.rules.engine.big_prize
    },
}

# Celery: no broker configured means tasks run eagerly in-process (embedded default).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# Queues by kind, so that a homologation's refresh never waits behind slow or anonymous
# work: run one worker (or more) per queue (docs/scaling.md, "Queues"). Every queue name
# starts with CELERY_QUEUE_PREFIX (several deployments, or test runs, on one broker).
# E-mail tasks are named "<app>.email_<what>": the pattern routes every one of them.
CELERY_QUEUE_PREFIX = os.environ.get("CELERY_QUEUE_PREFIX", "")
CELERY_TASK_DEFAULT_QUEUE = CELERY_QUEUE_PREFIX + os.environ.get(
    "CELERY_TASK_DEFAULT_QUEUE", "celery"
)
_TASKS_BY_QUEUE = {
    # the live ranking after a homologation or a correction, and the store's rebuild
    "live": ("rankings.refresh_season_totals", "rankings.refresh_live_ranking"),
    # full recomputes and official publications (minutes at national scale)
    "publication": (
        "rankings.run_recompute",
        "rankings.recompute_season",
        "rankings.nightly_ranking",
    ),
    # the ranking as of a past day (asked by any reader, bounded per season)
    "asof": ("rankings.as_of_days", "rankings.as_of_nightly"),
    "email": ("*.email_*",),
}
CELERY_TASK_ROUTES = {
    task: {"queue": CELERY_QUEUE_PREFIX + queue}
    for queue, names in _TASKS_BY_QUEUE.items()
    for task in names
}
CELERY_QUEUES_BY_KIND = (
    *(CELERY_QUEUE_PREFIX + queue for queue in _TASKS_BY_QUEUE),
    CELERY_TASK_DEFAULT_QUEUE,
)
"""Every queue a task may be routed to, the default queue last: a deployment runs a
worker on each (``celery worker -Q <name>``)."""
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis gives a task a worker did not acknowledge (killed, say) to another worker after
# this delay; a recompute run it left running is then reclaimed (rankings/season/recompute.py).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT_S", "3600"))
}
CELERY_TIMEZONE = TIME_ZONE
CELERY_IMPORTS = [
    "competitions.championships.tasks",
    "competitions.day.tasks",
]  # tasks outside an app's tasks.py
from celery.schedules import crontab  # noqa: E402 (the beat schedule's own import)

CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    # Every night: publish the official ranking of a season that has just ended, then
    # rebuild the current season's standings and live ranking (rankings/season/recompute.py).
    "rankings-nightly": {
        "task": "rankings.nightly_ranking",
        "schedule": crontab(hour=3, minute=30),
    },
    # Every minute: send the tasks the broker did not take when their transaction
    # committed (core/tasks.py, the outbox).
    "core-send-outbox": {"task": "core.send_outbox", "schedule": 60.0},
    # Every RECOMPUTE_SWEEP_S: recompute runs whose worker was lost are queued again
    # (marked failed after their third lost worker).
    "rankings-stale-runs": {"task": "rankings.fail_stale_runs", "schedule": RECOMPUTE_SWEEP_S},
    # Every night, after the nightly ranking: the current season's rankings as of each
    # month end and yesterday (rankings/season/as_of.py: a player's place over the season).
    "rankings-as-of-nightly": {
        "task": "rankings.as_of_nightly",
        "schedule": crontab(hour=4, minute=30),
    },
}

# API tokens (django-rest-knox): only a SHA-512 digest is stored, the key is shown once
# when it is created (POST /api/federation/tokens/). Clubs' software sends
# `Authorization: Token <key>`; a token lasts until revoked unless API_TOKEN_TTL_DAYS.
_TOKEN_TTL_DAYS = os.environ.get("API_TOKEN_TTL_DAYS", "")
REST_KNOX = {
    "AUTH_HEADER_PREFIX": "Token",
    "TOKEN_TTL": timedelta(days=int(_TOKEN_TTL_DAYS)) if _TOKEN_TTL_DAYS else None,
    "AUTO_REFRESH": False,
}

# Cache: Redis in production (CACHE_URL, e.g. redis://redis-cache:6379/0), local memory by
# default. It holds the rate-limit counters and the stored public reads: its own Redis
# instance, deployed with a maxmemory and allkeys-lru (docs/scaling.md), never the broker's
# nor the live store's. While it does not answer, each process answers from its own memory
# (core/http/fallback_cache.py): reads are built, rate limits count per process.
CACHE_URL = os.environ.get("CACHE_URL") or os.environ.get("REDIS_CACHE_URL", "")


def redis_cache(url: str) -> dict[str, Any]:
    """The cache on the Redis at ``url``: short timeouts, this process's memory while it
    does not answer."""
    return {
        "BACKEND": "core.http.fallback_cache.FallbackRedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
    }


CACHES = {
    "default": redis_cache(CACHE_URL)
    if CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
}
# The public ranking reads are cached by the version they show (core/http/http_cache.py): the
# cache alias, and how long an entry lives (a backstop: a new version is a new key);
# 0 turns the cache off (ETags and 304 answers stay).
READ_CACHE_ALIAS = "default"
READ_CACHE_TTL = int(os.environ.get("READ_CACHE_TTL", "3600"))
READ_CACHE_LOCAL_ITEMS = int(os.environ.get("READ_CACHE_LOCAL_ITEMS", "2000"))  # per process
# How long a process reuses the seasons' ranking versions it read (rankings/reads/read_versions.py);
# 0 reads them on every request. Older than that and younger than READ_VERSION_STALE_MS,
# they are still served while the process's refresher thread reads them again (no reader
# waits for it): the most a reader may wait to see a new version. Not above the max age:
# every read again is made in a request.
READ_VERSION_MAX_AGE_MS = int(os.environ.get("READ_VERSION_MAX_AGE_MS", "200"))
READ_VERSION_STALE_MS = int(os.environ.get("READ_VERSION_STALE_MS", "500"))
# A web process moves its long-lived objects out of the garbage collector's reach once the
# site is loaded, and again after its first GC_FREEZE_AFTER_REQUESTS requests (0: not
# again): a full collection then no longer stops it for ~120 ms (core/http/gc_freeze.py).
GC_FREEZE = env_bool("GC_FREEZE", True)
GC_FREEZE_AFTER_REQUESTS = int(os.environ.get("GC_FREEZE_AFTER_REQUESTS", "1000"))

# The live national ranking's order-statistics store (rankings/season/live_store.py): Redis sorted
# sets kept in step with the standings, on a Redis of its own (noeviction, append-only
# file). Empty or "off" (the embedded default) keeps the live ranking as a provisional
# snapshot.
RANKING_STORE_URL = os.environ.get("RANKING_STORE_URL", "")
if RANKING_STORE_URL == "off":
    RANKING_STORE_URL = ""
# Three Redis roles, three addresses: the cache evicts (allkeys-lru), the broker and the
# store must not lose a key.
for _role, _url in (
    ("CELERY_BROKER_URL", CELERY_BROKER_URL),
    ("RANKING_STORE_URL", RANKING_STORE_URL),
):
    if CACHE_URL and _url == CACHE_URL:
        raise ImproperlyConfigured(f"CACHE_URL must not be {_role}: the cache evicts its keys")

# Login lockout (django-axes) on every password login (admin, /api/auth/login/, the
# pages): after AXES_FAILURE_LIMIT failures of one username from one address, that pair
# is refused (429) for AXES_COOLOFF_MINUTES. Attempts are kept in the database (admin:
# "Axes"); `manage.py axes_reset` lifts every lockout.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "config.throttling.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "federation.pages.locked_out"  # the 429, in French, in the design
# Beside it, credential stuffing: after AXES_ADDRESS_FAILURE_LIMIT failed logins from one
# address, whatever the usernames, within the cool-off, every login from that address is
# paused for the cool-off too (federation/login_limits.py).
AXES_ADDRESS_FAILURE_LIMIT = int(os.environ.get("AXES_ADDRESS_FAILURE_LIMIT", "20"))
AXES_HANDLER = "federation.login_limits.LoginAttemptsHandler"
# Password reset: at most this many e-mails per address and hour; beyond, the same answer
# and nothing sent (federation/login_limits.py).
PASSWORD_RESET_EMAILS_PER_HOUR = int(os.environ.get("PASSWORD_RESET_EMAILS_PER_HOUR", "3"))

# E-mail (password reset, notices to clubs). SMTP when EMAIL_HOST is set (production);
# otherwise written to files in EMAIL_FILE_PATH if set, else printed on the console.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", "")
if EMAIL_HOST and EMAIL_FILE_PATH:
    raise ImproperlyConfigured("set EMAIL_HOST (SMTP) or EMAIL_FILE_PATH (files), not both")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
elif EMAIL_FILE_PATH:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
_EMAIL_PORT = os.environ.get("EMAIL_PORT", "587")
if not (ascii_digits(_EMAIL_PORT) and 0 < int(_EMAIL_PORT) < 65536):
    raise ImproperlyConfigured(f"EMAIL_PORT must be a port number (1-65535), got {_EMAIL_PORT!r}")
EMAIL_PORT = int(_EMAIL_PORT)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_TIMEOUT = 30  # seconds: a stuck SMTP server fails the send instead of hanging a worker
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "")
if not DEFAULT_FROM_EMAIL:
    if EMAIL_HOST:
        raise ImproperlyConfigured("DEFAULT_FROM_EMAIL is required when EMAIL_HOST is set")
    DEFAULT_FROM_EMAIL = "FFT donnes libres <ne-pas-repondre@localhost>"
if "@" not in DEFAULT_FROM_EMAIL:
    raise ImproperlyConfigured(f"DEFAULT_FROM_EMAIL must be an address, got {DEFAULT_FROM_EMAIL!r}")
SERVER_EMAIL = DEFAULT_FROM_EMAIL  # the sender of the errors mailed to ADMINS

# Uploads: refuse huge files before parsing them.
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("UPLOAD_MAX_BYTES", str(20 * 1024 * 1024)))
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE

# Logs (core/observability/logs.py): JSON lines in production, text in development; each
# line of a request or of a task it sent carries the request's id (docs/observability.md).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "") or ("text" if DEBUG else "json")
if LOG_FORMAT not in LOG_FORMATS:
    raise ImproperlyConfigured(f"LOG_FORMAT must be json or text, got {LOG_FORMAT!r}")
LOGGING = logging_config(log_format=LOG_FORMAT, level=os.environ.get("LOG_LEVEL", "INFO"))

# Metrics (config/metrics.py): GET /metrics answers only with `Authorization: Bearer
# <METRICS_TOKEN>`; without a token configured it does not exist (404).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
if METRICS_TOKEN and len(METRICS_TOKEN) < 32:
    raise ImproperlyConfigured(
        "METRICS_TOKEN must be at least 32 characters "
        '(python -c "import secrets; print(secrets.token_urlsafe(32))")'
    )
# Several gunicorn workers: each keeps its counts in files in this directory, a scrape sums
# them (prometheus-client's multiprocess mode, docs/observability.md). Read by
# prometheus-client itself from the environment; made here if absent, so that a path that
# cannot be a directory stops the start instead of the first request.
_PROMETHEUS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if _PROMETHEUS_DIR:
    try:
        os.makedirs(_PROMETHEUS_DIR, exist_ok=True)
    except OSError as exc:
        raise ImproperlyConfigured(
            f"PROMETHEUS_MULTIPROC_DIR must be a directory this process can write in, "
            f"got {_PROMETHEUS_DIR!r} ({exc})"
        ) from exc

# Error reports to Sentry (or a compatible service) when SENTRY_DSN is set: unhandled
# exceptions of requests and tasks, tagged with the request id; no personal data sent.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    import sentry_sdk

    sentry_sdk.init(dsn=SENTRY_DSN, send_default_pii=False, traces_sample_rate=0.0)

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# HTTPS (debug off): plain HTTP redirected, HSTS for a year. Behind a proxy that ends TLS,
# set DJANGO_SECURE_PROXY_SSL_HEADER=1 (the proxy sets X-Forwarded-Proto: https) or the
# redirect loops; `manage.py check --deploy` is clean with the defaults.
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# the container healthcheck and the metrics scraper, inside the network, speak plain HTTP
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SECURE_HSTS_SECONDS = int(
    os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0" if DEBUG else str(365 * 24 * 3600))
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
# Preloading is the federation's deliberate, hard-to-undo choice for its domain (every
# subdomain HTTPS-only in every browser), not a default: its reminder is silenced.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
if env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The site's address, for the links in e-mails sent by background tasks (no request there).
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
# Unset: the table cards' QR codes take the address the arbiter printed them from.
SITE_URL_SET = bool(os.environ.get("SITE_URL"))
