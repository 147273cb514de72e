"""Where the last look for registry drift stopped (federation.RegistryWrite)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rankings', '0005_ranking_as_of'),
    ]

    operations = [
        migrations.AddField(
            model_name='seasonranking',
            name='registry_horizon',
            field=models.PositiveBigIntegerField(blank=True, null=True, verbose_name='registry looked at up to'),
        ),
    ]
