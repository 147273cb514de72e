"""Settings for the test suite: the production settings with a fast password hasher.

PBKDF2 is deliberately slow; hashing the registry fixture's passwords with it was most
of the suite's time. Nothing else differs, so the suite exercises the real configuration.
"""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# The suite makes thousands of requests a minute from one address in one process: its
# rates are out of reach. The throttle tests (tests/core/test_security.py) set their own.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {
        "anon": "1000000/minute",
        "user_write": "1000000/minute",
        "token_failures": "1000000/minute",
        "pages_anon": "1000000/minute",
    },
}

# A message code without French text, or a placeholder without its value, raises in the
# suite instead of falling back to English (core/messages).
MESSAGES_STRICT = True

# A test reads the ranking right after writing it: the versions are read on every request
# (tests/rankings/reads/test_read_cache.py sets its own age to test the reuse).
READ_VERSION_MAX_AGE_MS = 0

# A second real database standing for the read replica (tests/core/test_db_router.py,
# which turns READ_REPLICA on): created only when a test asks for it.
if "postgresql" in DATABASES["default"]["ENGINE"]:  # noqa: F405
    _primary = DATABASES["default"]  # noqa: F405
    DATABASES["replica"] = {  # noqa: F405
        **_primary,
        "NAME": f"{_primary['NAME']}_replica",
        "TEST": {"NAME": f"test_{_primary['NAME']}_replica"},
    }
READ_REPLICA = False

# The live ranking's Redis store is off whatever the environment says (a developer's
# CACHE_URL would turn it on): its tests turn it on with the ``live_store_redis`` fixture
# (tests/rankings/conftest.py), on the tests' Redis database.
RANKING_STORE_URL = ""
