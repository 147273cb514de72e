"""The season's rulebook versions and the allocations are the competitions' models now
(``competitions 0010``): rankings forgets them, their tables and rows stay as they are.
Their content types follow them, so the permissions granted on them and the admin's
log keep pointing to them."""

from django.db import migrations

MOVED = ("rulebookversion", "allocation")


def _move_content_types(apps, schema_editor, source: str, target: str) -> None:
    content_types = apps.get_model("contenttypes", "ContentType").objects.db_manager(
        schema_editor.connection.alias
    )
    for model in MOVED:
        if not content_types.filter(app_label=target, model=model).exists():
            content_types.filter(app_label=source, model=model).update(app_label=target)


def to_competitions(apps, schema_editor) -> None:
    _move_content_types(apps, schema_editor, "rankings", "competitions")


def to_rankings(apps, schema_editor) -> None:
    _move_content_types(apps, schema_editor, "competitions", "rankings")


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('competitions', '0010_rulebooks_and_allocations'),
        ('rankings', '0007_season_totals_unchecked'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='Allocation'),
                migrations.DeleteModel(name='RulebookVersion'),
            ],
            database_operations=[],
        ),
        migrations.RunPython(to_competitions, to_rankings),
    ]
