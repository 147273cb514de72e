"""The cost of sending the players' notices once (federation/notification_choices.py):
one chunk task's claim and send, at the chunk size the senders use.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fft_notices_bench \\
        .venv/bin/python benchmarks/notices_send_once.py [--users 20000] [--chunk 500]

Creates the database named in DATABASE_URL if absent and migrates it, creates
``--users`` accounts (once), then, with Django's in-memory mail backend (no network:
the figure is the database's and the rendering's share, not the mail server's):

1. ``notices_send_once`` on each chunk of ``--chunk`` users, a new subject each run
   (the claim ``INSERT … ON CONFLICT DO NOTHING RETURNING`` + one message each);
2. the same chunks again (a retried task: everything already claimed, nothing sent);
3. a bare ``get_connection().send_messages`` of the same messages, no claim (the floor);

medians per chunk, and the ratios 1/3 and 2/1 of this run. Use a database of its own.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.pop("EMAIL_HOST", None)
os.environ.pop("EMAIL_FILE_PATH", None)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core import mail  # noqa: E402
from django.core.mail import EmailMessage, get_connection  # noqa: E402

from benchmarks.bench_db import create_database_if_absent  # noqa: E402
from federation.models import User  # noqa: E402
from federation.notification_choices import notice, notices_send_once  # noqa: E402

KIND = "step_changed"


def users(count: int) -> list[int]:
    have = User.objects.filter(username__startswith="bench-notice-").count()
    if have < count:
        User.objects.bulk_create(
            User(username=f"bench-notice-{i}", email=f"j{i}@example.org")
            for i in range(have, count)
        )
    return list(
        User.objects.filter(username__startswith="bench-notice-")
        .order_by("pk")
        .values_list("pk", flat=True)[:count]
    )


def message(user_id: int) -> EmailMessage:
    return notice(
        user_id=user_id,
        address=f"j{user_id}@example.org",
        kind=KIND,
        subject="Classement officiel : votre palier",
        body_for=lambda url: f"Bonjour,\n\nVotre palier change.\n\nSe désabonner : {url}\n",
    )


def median_ms(spent: list[float]) -> float:
    return statistics.median(spent) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=20000)
    parser.add_argument("--chunk", type=int, default=500)
    args = parser.parse_args()
    create_database_if_absent()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []
    ids = users(args.users)
    chunks = [ids[i : i + args.chunk] for i in range(0, len(ids), args.chunk)]
    subject = f"bench:{uuid.uuid4().hex}"

    first, again, floor = [], [], []
    for chunk in chunks:
        started = time.perf_counter()
        sent = notices_send_once(
            kind=KIND, subject_key=subject, user_ids=chunk, message_for=message
        )
        first.append(time.perf_counter() - started)
        assert sent == len(chunk)
        started = time.perf_counter()
        assert (
            notices_send_once(kind=KIND, subject_key=subject, user_ids=chunk, message_for=message)
            == 0
        )
        again.append(time.perf_counter() - started)
        started = time.perf_counter()
        with get_connection() as backend:
            for user_id in chunk:
                backend.send_messages([message(user_id)])
        floor.append(time.perf_counter() - started)
        mail.outbox = []

    print(f"{len(ids)} users, {len(chunks)} chunks of {args.chunk} (in-memory mail backend)")
    a, b, c = median_ms(first), median_ms(again), median_ms(floor)
    print(
        f"1. claim + send, per chunk          median {a:8.1f} ms"
        f"  ({a / args.chunk:.3f} ms a notice)"
    )
    print(f"2. retried chunk (nothing to send)  median {b:8.1f} ms")
    print(f"3. send alone, no claim (floor)     median {c:8.1f} ms")
    print(f"ratio 1/3 (the cost of sending once) {a / c:5.2f}   ratio 2/1 {b / a:5.2f}")
    per_150k = a / args.chunk * 150_000 / 1000
    print(f"150,000 notices at this rate: {per_150k:.0f} s of worker time (before the mail server)")


if __name__ == "__main__":
    main()
