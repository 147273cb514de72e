# Debian 12, as the postgres:15 image: its PostgreSQL 15 client is the server's version,
# which pg_dump and pg_restore must be (the backup service, docs/operations.md).
FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client-15 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml ./
COPY config ./config
COPY core ./core
COPY federation ./federation
COPY competitions ./competitions
COPY rankings ./rankings
COPY portal ./portal
COPY demo ./demo
COPY templates ./templates
COPY locale ./locale
COPY manage.py ./
# The results samples: the API schema's examples (competitions/api/results_schema.py).
COPY docs/samples ./docs/samples
RUN mkdir -p var
RUN pip install --no-cache-dir . \
    && DJANGO_DEBUG=0 DJANGO_SECRET_KEY=collectstatic-only-never-used-to-sign-anything-0123456789 python manage.py collectstatic --noinput \
    && useradd --create-home fft
USER fft
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--worker-class", "gthread", "--workers", "4", "--threads", "2"]
