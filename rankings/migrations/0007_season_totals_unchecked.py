"""Season totals are derived rows like the standings: foreign keys not checked by the
database, no index of their own on the season: the full recompute from empty standings
writes them all."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0009_registry_writes'),
        ('rankings', '0006_seasonranking_registry_horizon'),
    ]

    operations = [
        migrations.AlterField(
            model_name='playerseasontotal',
            name='player',
            field=models.ForeignKey(db_constraint=False, on_delete=django.db.models.deletion.PROTECT, related_name='season_totals', to='federation.player', verbose_name='player'),
        ),
        migrations.AlterField(
            model_name='playerseasontotal',
            name='season',
            field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='federation.season', verbose_name='season'),
        ),
    ]
