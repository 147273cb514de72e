"""Settings for the test suite: the production settings with a fast password hasher.

PBKDF2 is deliberately slow; hashing the registry fixture's passwords with it was most
of the suite's time. Nothing else differs, so the suite exercises the real configuration.
"""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
