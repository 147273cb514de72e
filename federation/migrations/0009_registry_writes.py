"""Registry writes recorded by PostgreSQL: one row per statement that writes
licences or clubs, with its transaction id, so that the national ranking looks for
registry drift only when the registry was written since it last looked
(``federation.models.RegistryWrite``, ``rankings/standings.py::registry_drift``).
Statement-level triggers see every writer, ``COPY`` and raw SQL included, and take no
lock: each statement adds its own row. SQLite gets the table and no trigger (the
embedded default always looks)."""

from django.db import migrations, models

TRIGGERS = """
CREATE OR REPLACE FUNCTION fft_registry_written() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO federation_registrywrite (xact) VALUES (pg_current_xact_id()::text::bigint);
    RETURN NULL;
END $$;
CREATE TRIGGER licence_registry_written
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON federation_licence
    FOR EACH STATEMENT EXECUTE FUNCTION fft_registry_written();
CREATE TRIGGER club_registry_written
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON federation_club
    FOR EACH STATEMENT EXECUTE FUNCTION fft_registry_written();
"""


def create_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TRIGGERS)


def drop_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP TRIGGER IF EXISTS licence_registry_written ON federation_licence;"
            "DROP TRIGGER IF EXISTS club_registry_written ON federation_club;"
            "DROP FUNCTION IF EXISTS fft_registry_written();"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0008_notification_subscriptions"),
    ]

    operations = [
        migrations.CreateModel(
            name="RegistryWrite",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                           verbose_name="ID")),  # fmt: skip
                ("xact", models.PositiveBigIntegerField(db_index=True, verbose_name="transaction")),
            ],
            options={
                "verbose_name": "registry write",
                "verbose_name_plural": "registry writes",
            },
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
