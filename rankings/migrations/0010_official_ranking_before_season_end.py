"""The reason for publishing an official ranking before its season's end, on the request
(the run) and on the published snapshot."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rankings', '0009_seasonranking_registry_snapshot'),
    ]

    operations = [
        migrations.AddField(
            model_name='rankingsnapshot',
            name='before_season_end_reason',
            field=models.CharField(blank=True, max_length=300, verbose_name="reason for publishing before the season's end"),
        ),
        migrations.AddField(
            model_name='recomputerun',
            name='before_season_end_reason',
            field=models.CharField(blank=True, max_length=300, verbose_name="reason for publishing before the season's end"),
        ),
    ]
