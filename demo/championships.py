from __future__ import annotations

from dataclasses import dataclass, field

from demo.registry import DemoRegistry


@dataclass
class DemoChampionships:
    rows: dict[str, int] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        return self.rows


def build_demo_championships(registry: DemoRegistry) -> DemoChampionships:
    return DemoChampionships()
