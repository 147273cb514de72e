"""Championship rules and regional rules versions share ``core.versioned_settings``.

The regional rules' author and date are renamed to the names every settings version uses
(``created_by``, ``created_at``), in the table and in its history; the columns are renamed
in place, so no row changes. ``created_by`` may be blank (written by the services only).
Labels and the API's field names (``published_by``, ``published_at``) are unchanged.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0002_championships"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(
            model_name="regionalrulesversion", old_name="published_by", new_name="created_by"
        ),
        migrations.RenameField(
            model_name="regionalrulesversion", old_name="published_at", new_name="created_at"
        ),
        migrations.RenameField(
            model_name="historicalregionalrulesversion",
            old_name="published_by",
            new_name="created_by",
        ),
        migrations.RenameField(
            model_name="historicalregionalrulesversion",
            old_name="published_at",
            new_name="created_at",
        ),
        migrations.AlterField(
            model_name="regionalrulesversion",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="published by",
            ),
        ),
        migrations.AlterField(
            model_name="championshiprulesversion",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="created by",
            ),
        ),
    ]
