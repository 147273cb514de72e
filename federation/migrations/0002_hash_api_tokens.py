"""API tokens move from DRF's plain-text table to knox's digests.

Every existing DRF token (``authtoken_token``: the key in clear) is written to knox's
table as knox stores a token (the SHA-512 digest of the key, its first 15 characters
for the lookup, no expiry), so every club's software keeps its key; then the plain-text
table is dropped. A database that never had DRF tokens has nothing to move.
"""

import hashlib

from django.db import migrations

TOKEN_KEY_LENGTH = 15  # knox.settings.CONSTANTS.TOKEN_KEY_LENGTH


def hash_drf_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return
    AuthToken = apps.get_model("knox", "AuthToken")
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id, created FROM authtoken_token")
        rows = cursor.fetchall()
    for key, user_id, created in rows:
        digest = hashlib.sha512(key.encode()).hexdigest()  # knox.crypto.hash_token
        AuthToken(
            digest=digest, token_key=key[:TOKEN_KEY_LENGTH], user_id=user_id, expiry=None
        ).save(force_insert=True)
        AuthToken.objects.filter(digest=digest).update(created=created)
    schema_editor.execute("DROP TABLE authtoken_token")


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0001_registry"),
        ("knox", "0009_extend_authtoken_field"),
    ]

    operations = [migrations.RunPython(hash_drf_tokens, migrations.RunPython.noop)]
