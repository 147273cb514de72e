"""The player's name folded for search, stable across snapshots.

``fft_fold(text)`` is the SQL twin of ``core.folding.fold`` for the letters people type
in French and European names: lower case, the several-letter replacements (œ → oe…),
then one ``translate`` of the table's one-letter ones (frozen here; a letter outside the
table stays as it is, where ``fold`` would also strip its marks). It is ``IMMUTABLE``,
so ``Player.search_name`` is a stored generated column: every way of writing a player
(the forms, the licence import's bulk inserts, ``COPY``) fills it. On PostgreSQL the
``pg_trgm`` extension gives a trigram index (any substring of three letters or more)
and a ``text_pattern_ops`` index serves prefixes. SQLite gets a plain lower-case column
and no index: the embedded default searches the snapshot's own folded names.
"""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations, models

import federation.models

FOLD_FUNCTION = """
CREATE OR REPLACE FUNCTION fft_fold(name text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN translate(replace(replace(replace(replace(replace(replace(replace(replace(lower(name), 'ß', 'ss'), 'æ', 'ae'), 'ĳ', 'ij'), 'œ', 'oe'), 'ǆ', 'dz'), 'ǉ', 'lj'), 'ǌ', 'nj'), 'ǳ', 'dz'),
        'àáâãäåçèéêëìíîïñòóôõöøùúûüýÿāăąćĉċčďđēĕėęěĝğġģĥĩīĭįĵķĺļľłńņňōŏőŕŗřśŝşšţťũūŭůűųŵŷźżžſơưǎǐǒǔǖǘǚǜǟǡǧǩǫǭǰǵǹǻȁȃȅȇȉȋȍȏȑȓȕȗșțȟȧȩȫȭȯȱȳ’',
        'aaaaaaceeeeiiiinoooooouuuuyyaaaccccddeeeeegggghiiiijkllllnnnooorrrssssttuuuuuuwyzzzsouaiouuuuuaagkoojgnaaaeeiioorruusthaeooooy''');
"""


def create_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FOLD_FUNCTION)


def drop_function(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS fft_fold(text)")


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "CREATE INDEX player_search_trgm ON federation_player "
            "USING gin (search_name gin_trgm_ops)"
        )
        schema_editor.execute(
            "CREATE INDEX player_search_prefix ON federation_player "
            "(search_name text_pattern_ops)"
        )


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS player_search_trgm")
        schema_editor.execute("DROP INDEX IF EXISTS player_search_prefix")


class Migration(migrations.Migration):
    dependencies = [
        ("federation", "0004_club_address_and_playing_times"),
    ]

    operations = [
        TrigramExtension(),  # does nothing on SQLite
        migrations.RunPython(create_function, drop_function),
        migrations.AddField(
            model_name="player",
            name="search_name",
            field=models.GeneratedField(
                db_persist=True,
                expression=federation.models.FoldedName("last_name", "first_name"),
                output_field=models.CharField(max_length=210),
                verbose_name="name for search",
            ),
        ),
        migrations.RunPython(create_indexes, drop_indexes),
    ]
