"""Reading a settings document (untrusted JSON) into frozen dataclasses, field by field,
collecting every problem with its location.

The four per-season settings (rulebook, series policy, championship settings, regional
rules) are typed frozen dataclasses edited by people as JSON. Their ``from_dict`` all read
the same way, through :func:`read_settings`: the dataclass's type hints say what each key
holds; every missing, unknown or ill-typed key is reported with its path
(``stages[2].brackets[0].min_entries``), never only the first one; a key may be absent
only if the caller declares it optional with its default (``optional``), in one place per
kind. The figures are checked afterwards by each kind's own ``validate``.

Each kind keeps the problem codes its clients already know (:class:`Codes`).

No Django import here: the pure rules packages use it.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from enum import Enum
from types import NoneType, UnionType
from typing import Any, TypeVar

from core.problems import Problem, RuleViolation

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Codes:
    """The problem codes one kind of document reports, and where a missing key is located."""

    unknown_key: str = "unknown_key"
    missing: str = "missing"
    wrong_type: str = "wrong_type"
    unknown_value: str = "unknown_value"
    not_a_number: str = "not_a_number"
    duplicate: str = "duplicate"
    missing_at_object: bool = False
    """Locate a missing key at the object that lacks it rather than at the key itself."""

    @classmethod
    def uniform(cls, code: str, *, missing_at_object: bool = False) -> Codes:
        """One code for every problem of reading (the figures keep their own codes)."""
        return cls(code, code, code, code, code, code, missing_at_object)


def _shown(value: object) -> str:
    """A value as a message names it: text as it is, anything else as JSON would show it,
    cut short."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


class _Invalid:
    """A value that could not be read (its problem is recorded)."""

    def __repr__(self) -> str:
        return "<invalid>"


INVALID: Any = _Invalid()


def read_settings(
    tp: type[T],
    data: object,
    *,
    codes: Codes = Codes(),
    root: str = "",
    optional: Mapping[type, Mapping[str, Any]] | None = None,
    parsers: Mapping[type, Callable[[Any], Any]] | None = None,
) -> T:
    """Read ``data`` as a ``tp``; raise :class:`RuleViolation` with every problem found.

    ``root`` names the whole document in a location (``""``: its keys stand alone);
    ``optional`` gives, per dataclass, the keys that may be absent and the value they then
    take; ``parsers`` reads a type from its JSON value by a function raising ``ValueError``
    (e.g. a stage kind that must be a championship's).
    """
    reader = SettingsReader(codes=codes, root=root, optional=optional, parsers=parsers)
    value = reader.read(tp, data, "")
    reader.raise_if_any()
    return typing.cast(T, value)


class SettingsReader:
    """Reads JSON values against type hints, recording each problem with its location."""

    def __init__(
        self,
        *,
        codes: Codes = Codes(),
        root: str = "",
        optional: Mapping[type, Mapping[str, Any]] | None = None,
        parsers: Mapping[type, Callable[[Any], Any]] | None = None,
    ) -> None:
        self.codes = codes
        self.root = root
        self.optional = optional or {}
        self.parsers = parsers or {}
        self.problems: list[Problem] = []

    # --- problems -------------------------------------------------------------------------

    def add(
        self, where: str, code: str, message: str, params: Mapping[str, object] | None = None
    ) -> None:
        self.problems.append(Problem(where or self.root, code, message, params or {}))

    def raise_if_any(self) -> None:
        if self.problems:
            raise RuleViolation(self.problems)

    @staticmethod
    def key(where: str, key: object) -> str:
        return f"{where}.{key}" if where else str(key)

    @staticmethod
    def item(where: str, index: int) -> str:
        return f"{where}[{index}]"

    def _wrong(self, where: str, expected: str, value: object) -> Any:
        self.add(
            where,
            self.codes.wrong_type,
            f"{where or self.root or 'The document'} must be {expected}, got {value!r}.",
            {"value": _shown(value)},
        )
        return INVALID

    # --- values ---------------------------------------------------------------------------

    def read(self, tp: Any, value: object, where: str) -> Any:
        """``value`` as a ``tp``, or :data:`INVALID` once its problems are recorded."""
        if tp in self.parsers:
            try:
                return self.parsers[tp](value)
            except (TypeError, ValueError) as error:
                self.add(
                    where, self.codes.unknown_value, f"{where}: {error}.", {"value": _shown(value)}
                )
                return INVALID
        origin = typing.get_origin(tp)
        if origin in (typing.Union, UnionType):
            members = [a for a in typing.get_args(tp) if a is not NoneType]
            if value is None and len(members) < len(typing.get_args(tp)):
                return None
            (member,) = members  # X | None only
            return self.read(member, value, where)
        if dataclasses.is_dataclass(tp):
            return self.read_object(typing.cast(type, tp), value, where)
        if origin in (tuple, frozenset):
            return self.sequence(tp, value, where)
        if isinstance(tp, type) and issubclass(tp, Enum):
            return self.choice(tp, value, where)
        if tp is Decimal:
            return self.decimal(value, where)
        if tp is date:
            return self.iso_date(value, where)
        if tp is bool:
            return value if isinstance(value, bool) else self._wrong(where, "true or false", value)
        if tp is int:
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            return self._wrong(where, "a whole number", value)
        if tp is float:
            if isinstance(value, int | float) and not isinstance(value, bool):
                return float(value)
            return self._wrong(where, "a number", value)
        if tp is str:
            return value if isinstance(value, str) else self._wrong(where, "a string", value)
        raise TypeError(f"unsupported setting type {tp!r}")  # a coding error

    def read_object(self, tp: type, value: object, where: str) -> Any:
        """A dataclass from a JSON object: every field required unless declared optional."""
        if not isinstance(value, Mapping):
            return self._wrong(where, "an object", value)
        hints = typing.get_type_hints(tp)
        names = [f.name for f in dataclasses.fields(tp)]
        optional = self.optional.get(tp, {})
        for key in value:
            if key not in names:
                self.add(
                    self.key(where, key),
                    self.codes.unknown_key,
                    f"{key!r} is not a setting of {tp.__name__}.",
                    {"key": key},
                )
        values = {}
        for name in names:
            if name in value:
                values[name] = self.read(hints[name], value[name], self.key(where, name))
            elif name in optional:
                values[name] = optional[name]
            else:
                self.add(
                    where if self.codes.missing_at_object else self.key(where, name),
                    self.codes.missing,
                    f"The setting {name!r} of {tp.__name__} is missing.",
                    {"name": name},
                )
                values[name] = INVALID
        if any(v is INVALID for v in values.values()):
            return INVALID
        return tp(**values)

    def sequence(self, tp: Any, value: object, where: str) -> Any:
        """A tuple (``tuple[X, ...]`` or of fixed length) or a frozenset from a JSON list."""
        if not isinstance(value, list | tuple):
            return self._wrong(where, "a list", value)
        args = typing.get_args(tp)
        if typing.get_origin(tp) is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(value) != len(args):
                return self._wrong(where, f"a list of {len(args)} values", value)
            types: list[Any] = list(args)
        else:
            types = [args[0]] * len(value)
        items = [
            self.read(t, v, self.item(where, i))
            for i, (t, v) in enumerate(zip(types, value, strict=True))
        ]
        if any(v is INVALID for v in items):
            return INVALID
        if typing.get_origin(tp) is frozenset:
            if len(set(items)) != len(items):
                self.add(where, self.codes.duplicate, "The list repeats a value.")
                return INVALID
            return frozenset(items)
        return tuple(items)

    def choice(self, tp: type[Enum], value: object, where: str) -> Any:
        if not isinstance(value, str):
            return self._wrong(where, "a string", value)
        try:
            return tp(value)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in tp)
            self.add(
                where,
                self.codes.unknown_value,
                f"{value!r} is not one of: {allowed}.",
                {"value": _shown(value), "allowed": allowed},
            )
            return INVALID

    def decimal(self, value: object, where: str) -> Any:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return self._wrong(
                where, 'a decimal number (preferably a string such as "0.69")', value
            )
        try:
            number = Decimal(str(value))
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite():
            self.add(
                where,
                self.codes.not_a_number,
                f"{value!r} is not a finite decimal number.",
                {"value": _shown(value)},
            )
            return INVALID
        return number

    def iso_date(self, value: object, where: str) -> Any:
        if not isinstance(value, str):
            return self._wrong(where, "a date (YYYY-MM-DD)", value)
        try:
            return date.fromisoformat(value)
        except ValueError:
            self.add(
                where,
                self.codes.unknown_value,
                f"{value!r} is not a date (YYYY-MM-DD).",
                {"value": _shown(value)},
            )
            return INVALID
