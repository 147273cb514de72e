"""The season's rulebook versions and the allocations join the competitions' models
(chapters 1 to 5 of the regulations). Their tables keep their names and rows: only
Django's state moves here (rankings forgets them in ``0008``)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('competitions', '0009_tournament_homologated_at'),
        ('federation', '0009_registry_writes'),
        ('rankings', '0007_season_totals_unchecked'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='RulebookVersion',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('version', models.PositiveIntegerField(verbose_name='version')),
                        ('note', models.CharField(blank=True, max_length=300, verbose_name='note')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('data', models.JSONField(verbose_name='rulebook')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rulebooks', to='federation.season', verbose_name='season')),
                    ],
                    options={
                        'verbose_name': 'rulebook version',
                        'verbose_name_plural': 'rulebook versions',
                        'db_table': 'rankings_rulebookversion',
                        'ordering': ['season', '-version'],
                        'constraints': [
                            models.UniqueConstraint(fields=('season', 'version'), name='unique_rulebook_version'),
                            models.CheckConstraint(condition=models.Q(('version__gte', 1)), name='rulebook_version_positive'),
                        ],
                    },
                ),
                migrations.CreateModel(
                    name='Allocation',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('place', models.PositiveIntegerField(verbose_name='place')),
                        ('pcn', models.PositiveIntegerField(verbose_name='PCN')),
                        ('pp', models.PositiveIntegerField(verbose_name='PP')),
                        ('current', models.BooleanField(default=True, verbose_name='current')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='allocations', to='federation.player', verbose_name='player')),
                        ('revision', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='allocations', to='competitions.resultrevision', verbose_name='revision')),
                        ('rulebook', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='competitions.rulebookversion', verbose_name='rulebook')),
                        ('season', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='federation.season', verbose_name='season')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='allocations', to='competitions.tournament', verbose_name='tournament')),
                    ],
                    options={
                        'verbose_name': 'allocation',
                        'verbose_name_plural': 'allocations',
                        'db_table': 'rankings_allocation',
                        'indexes': [models.Index(condition=models.Q(('current', True)), fields=['season', 'player'], name='current_by_player')],
                        'constraints': [
                            models.UniqueConstraint(condition=models.Q(('current', True)), fields=('tournament', 'player'), name='one_current_allocation_per_player'),
                            models.UniqueConstraint(fields=('revision', 'player'), name='one_allocation_per_revision'),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
