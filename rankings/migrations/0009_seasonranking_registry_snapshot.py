"""The last look for registry drift records the whole snapshot it read (``pg_snapshot``
as text), so that whether a registry write was visible to it is exact whatever other
transactions the cluster holds open. Seasons start with no recorded look (their next
refresh looks once)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rankings', '0008_rulebooks_and_allocations_to_competitions'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='seasonranking',
            name='registry_horizon',
        ),
        migrations.AddField(
            model_name='seasonranking',
            name='registry_snapshot',
            field=models.TextField(blank=True, default='', verbose_name='registry looked at in snapshot'),
        ),
    ]
