"""Duplicate players merged: ``Player.merged_into`` (the pointer old links follow) and
``PlayerMerge`` (the audit of each merge)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0006_player_name_hidden'),
    ]

    operations = [
        migrations.CreateModel(
            name='PlayerMerge',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kept_licence_number', models.PositiveIntegerField(verbose_name='kept licence number')),
                ('merged_licence_number', models.PositiveIntegerField(verbose_name='merged licence number')),
                ('merged_at', models.DateTimeField(auto_now_add=True, verbose_name='merged at')),
                ('criteria', models.CharField(blank=True, max_length=100, verbose_name='criteria')),
                ('moved', models.JSONField(default=dict, verbose_name='rows moved')),
                ('counts', models.JSONField(default=dict, verbose_name='rows moved per kind')),
            ],
            options={
                'verbose_name': 'player merge',
                'verbose_name_plural': 'player merges',
                'ordering': ['-merged_at', '-pk'],
            },
        ),
        migrations.AddField(
            model_name='historicalplayer',
            name='merged_into',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='federation.player', verbose_name='merged into'),
        ),
        migrations.AddField(
            model_name='player',
            name='merged_into',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='merged_records', to='federation.player', verbose_name='merged into'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.CheckConstraint(condition=models.Q(('merged_into', models.F('pk')), _negated=True), name='player_not_merged_into_itself'),
        ),
        migrations.AddField(
            model_name='playermerge',
            name='kept',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='federation.player', verbose_name='kept record'),
        ),
        migrations.AddField(
            model_name='playermerge',
            name='merged',
            field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='merge', to='federation.player', verbose_name='merged record'),
        ),
        migrations.AddField(
            model_name='playermerge',
            name='merged_by',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='merged by'),
        ),
        migrations.AddConstraint(
            model_name='playermerge',
            constraint=models.CheckConstraint(condition=models.Q(('kept', models.F('merged')), _negated=True), name='merge_of_two_records'),
        ),
    ]
