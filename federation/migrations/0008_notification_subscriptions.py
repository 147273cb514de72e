"""Players choose their e-mails: a choice per (user, kind), and the
notices sent, each once (federation/notification_choices.py)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('federation', '0007_player_merge'),
    ]

    operations = [
        migrations.CreateModel(
            name='NotificationSent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('tournament_homologated', 'a tournament of mine is homologated'), ('step_changed', 'my step changes at the official ranking')], max_length=32, verbose_name='kind')),
                ('subject_key', models.CharField(max_length=64, verbose_name='about')),
                ('sent_at', models.DateTimeField(verbose_name='sent at')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'notification sent',
                'verbose_name_plural': 'notifications sent',
                'constraints': [models.UniqueConstraint(fields=('user', 'kind', 'subject_key'), name='one_notification_per_subject')],
            },
        ),
        migrations.CreateModel(
            name='NotificationSubscription',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('tournament_homologated', 'a tournament of mine is homologated'), ('step_changed', 'my step changes at the official ranking')], max_length=32, verbose_name='kind')),
                ('enabled', models.BooleanField(default=False, verbose_name='subscribed')),
                ('changed_at', models.DateTimeField(auto_now=True, verbose_name='changed at')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notification_subscriptions', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'notification subscription',
                'verbose_name_plural': 'notification subscriptions',
                'indexes': [models.Index(condition=models.Q(('enabled', True)), fields=['kind', 'user'], name='subscribed_by_kind')],
                'constraints': [models.UniqueConstraint(fields=('user', 'kind'), name='one_subscription_per_kind'), models.CheckConstraint(condition=models.Q(('kind__in', ['tournament_homologated', 'step_changed'])), name='subscription_kind_known')],
            },
        ),
    ]
