"""Settings of the gunicorn the load benchmark starts: the production settings plus one
constant-JSON view (``/bench/constant/``), the same-run yardstick of every figure."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.bench_urls"
