"""Network families, each declared once, beside its builder.

A builder becomes a network family with the :func:`family` decorator. The declaration holds everything starlib
knows about the family: its name (as on the command line and in every table of ``paper_tables/``), a one-line
summary, its parameters with their rules (:class:`Rule`: the check, and the words of the rule derived from the
same fields), its size model (vertices, edges and peak bytes from the parameters alone), the closed forms the
paper states (:class:`ClosedForms`), the paper's notation and section, and the diameter it states. The command
line, the catalogue of the paper's networks, the closed-form tables, Table V and the memory guard all read the
record; nothing else lists a family's facts.

Calling a declared builder checks its arguments by the rules, refuses a member over the memory limit in force
(:func:`~starlib.memory.memory_limit`) before anything is allocated, and only then builds. A *variant* is the
same builder with some arguments fixed (``polarstar-iq`` is ``polarstar`` with ``supernode="iq"``), declared
with :meth:`Family.variant` right after its builder, so that every name in a table is a name the command line
builds. A family without a size model cannot be declared: its estimate would be zero and the memory guard would
let any member through.

Example
-------
>>> from starlib.memory import Size
>>> @family("path", params={"n": Param(integer(minimum=2))}, size=lambda n: Size.of(n, n - 1, 64, 100),
...         summary="path P_n", declare=False)
... def path(n):
...     return list(range(n))
>>> path.family.params["n"].text
'integer n >= 2'
>>> path(1)
Traceback (most recent call last):
...
ValueError: n=1 is too small: need an integer n >= 2
>>> path.family.estimate({"n": 5}).m
4
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .memory import Size, check_size
from .primes import check_prime_power
from .validation import check_choice, check_flag, check_int, parse_int_list, shorten

__all__ = ["Rule", "integer", "prime_power", "flag", "choice", "integers", "custom", "Param", "ClosedForms",
           "Family", "family", "declared_in", "family_table", "KINDS"]

#: The kinds of family: factor graphs, star products, other networks, and the two side domains.
KINDS = ("factor", "product", "network", "cayley", "netdesign")


_MOD = re.compile(r"[(]mod ([0-9]+)[)]")


def _article(words: str) -> str:
    return "an" if words[:1] in "aeiou" else "a"


@dataclass(frozen=True)
class Rule:
    """The rule of one parameter: the check and the words of the rule, both derived from these fields.

    Use the constructors :func:`integer`, :func:`prime_power`, :func:`flag`, :func:`choice`, :func:`integers`
    and :func:`custom`. Calling a rule, ``rule(value, name)``, returns the value in its canonical type or raises
    a ``ValueError`` that names the parameter, the value and the rule in the words :meth:`text` gives.

    Attributes
    ----------
    kind : ``"integer"``, ``"prime power"``, ``"flag"``, ``"choice"``, ``"integers"`` (a comma-separated list
        of integers, each checked by the bounds) or ``"custom"``.
    minimum, maximum : inclusive bounds (of every item, for ``"integers"``); a prime power's minimum is stated
        only when given.
    residues : ``(modulus, allowed residues)``: the value must lie in one of the residue classes.
    choices : the allowed strings of a ``"choice"``.
    needs : who needs the rule, for messages (``"the Paley graph QR({name}) needs"``; default ``"need"``).
    note : words after the rule (``"(boxes)"``, ``"(multiple of 4 if toric)"``): conditions that involve other
        parameters, which the family's cross-check enforces.
    words : the whole text of a ``"custom"`` rule.
    checker : the check of a ``"custom"`` rule, ``(value, name) -> value``.

    Examples
    --------
    >>> r = prime_power(residues=(4, (1,)), needs="the Paley graph QR({name}) needs")
    >>> r.text("q'"), r(13, "q")
    ("prime power q' = 1 (mod 4)", 13)
    >>> r(7, "paley_q")
    Traceback (most recent call last):
    ...
    ValueError: paley_q=7 is not 1 mod 4: the Paley graph QR(paley_q) needs a prime power paley_q = 1 (mod 4)
    >>> integer(minimum=3, residues=(4, (0, 3))).text("d'", minimum=3, prose=True)
    "an integer d' >= 3, d' = 0 or 3 mod 4"
    """

    kind: str = "integer"
    minimum: int | None = None
    maximum: int | None = None
    residues: tuple[int, tuple[int, ...]] | None = None
    choices: tuple[str, ...] = ()
    needs: str = ""
    note: str = ""
    words: str = ""
    checker: Callable[[Any, str], Any] | None = None

    @property
    def type(self) -> type:
        """The type the command line reads the value as: ``int`` or ``str``."""
        return int if self.kind in ("integer", "prime power", "flag") else str

    def text(self, name: str, *, minimum: int | None = None, prose: bool = False) -> str:
        """The rule in words for parameter ``name`` (``"prime power q >= 3, q != 2 (mod 4)"``).

        ``minimum`` raises the stated minimum (a table whose cases start higher); ``prose`` gives the words as
        a table writes them, with an article and ``mod 4`` for ``(mod 4)``.
        """
        if self.kind == "custom":
            out = self.words
        elif self.kind == "flag":
            out = f"0/1: {self.note}" if self.note else "0/1"
        elif self.kind == "choice":
            out = " | ".join(self.choices) + (f" ({self.note})" if self.note else "")
        else:
            lo = self.minimum if minimum is None or self.minimum is None else max(minimum, self.minimum)
            head = "comma-separated integers" if self.kind == "integers" else self.kind
            if self.residues is not None and self.residues[0] == 2:  # parity: "even integer n"
                head = ("even " if self.residues[1] == (0,) else "odd ") + head
            subject = "" if self.kind == "integers" else f" {name}"
            if lo is not None and self.maximum is not None:
                parts = [f"{head} {lo} <={subject} <= {self.maximum}"]
            else:
                parts = [head + subject + (f" >= {lo}" if lo is not None else "")
                         + (f" <= {self.maximum}" if self.maximum is not None else "")]
            if self.residues is not None and self.residues[0] != 2:
                mod, allowed = self.residues
                others = [r for r in range(mod) if r not in allowed]
                cls = f"!= {others[0]}" if len(others) == 1 and len(allowed) > 1 else \
                    "= " + " or ".join(map(str, allowed))
                clause = f"{cls} (mod {mod})"
                if parts[0].endswith(subject) and subject:  # no bounds: "prime power q = 1 (mod 4)"
                    parts[0] += " " + clause
                else:
                    parts.append(f"{name} {clause}")
            out = ", ".join(parts) + (self.note if self.note[:1] in ",;" else f" {self.note}") * bool(self.note)
        if prose:
            out = _article(out) + " " + _MOD.sub(r"mod \1", out)
        return out

    def _fail(self, name: str, what: str) -> ValueError:
        need = self.needs.format(name=name) if self.needs else "need"
        words = self.text(name)
        article = "" if self.kind == "integers" else _article(words) + " "
        return ValueError(f"{what}: {need} {article}{words}")

    def __call__(self, value: Any, name: str) -> Any:
        if self.kind == "custom":
            return value if self.checker is None else self.checker(value, name)
        if self.kind == "flag":
            return check_flag(value, name)
        if self.kind == "choice":
            return check_choice(value, name, self.choices)
        if self.kind == "integers":
            return [self._bounded(v, name) for v in _int_items(value, name)]
        v = check_prime_power(value, name) if self.kind == "prime power" else check_int(value, name)
        return self._bounded(v, name)

    def _bounded(self, value: Any, name: str) -> int:
        v = check_int(value, name)
        if self.minimum is not None and v < self.minimum:
            raise self._fail(name, f"{name}={v} is too small")
        if self.maximum is not None and v > self.maximum:
            raise self._fail(name, f"{name}={v} is too large")
        if self.residues is not None and v % self.residues[0] not in self.residues[1]:
            mod, allowed = self.residues
            what = f"not {' or '.join(map(str, allowed))} mod {mod}"
            if mod == 2:
                what = "even" if 1 in allowed else "odd"
            raise self._fail(name, f"{name}={v} is {what}")
        return v


def _int_items(value: Any, name: str) -> list[Any]:
    """The items of a list parameter: ``"4,4,4"``, ``[4, 4, 4]`` or ``4``; at least 1 and at most 64."""
    if isinstance(value, str):
        items: list[Any] = parse_int_list(value, name)
    elif isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_):
        items = [value]
    elif isinstance(value, Sequence | np.ndarray) and not isinstance(value, bytes):
        items = list(value)
    else:
        raise ValueError(f"{name}={shorten(value)} is not a list of integers: need integers such as 4,4,4 "
                         f"or [4, 4, 4]")
    if not items:
        raise ValueError(f"{name}={value!r} is empty: need at least one integer")
    if len(items) > 64:
        raise ValueError(f"{name}={shorten(value)} has {len(items)} {name}: need at most 64")
    return items


def integer(minimum: int | None = None, maximum: int | None = None, *, residues: tuple[int, tuple[int, ...]] |
            None = None, needs: str = "", note: str = "") -> Rule:
    """An integer rule (``integer(minimum=2)``: ``"integer n >= 2"``).

    >>> integer(minimum=2, maximum=9).text("k")
    'integer 2 <= k <= 9'
    """
    return Rule("integer", minimum, maximum, residues, needs=needs, note=note)


def prime_power(minimum: int | None = None, *, residues: tuple[int, tuple[int, ...]] | None = None, needs: str = "",
                note: str = "") -> Rule:
    """A prime power rule (``prime_power(minimum=2)``: ``"prime power q >= 2"``).

    >>> prime_power(3, residues=(4, (0, 1, 3))).text("q")
    'prime power q >= 3, q != 2 (mod 4)'
    """
    return Rule("prime power", minimum, None, residues, needs=needs, note=note)


def flag(note: str = "") -> Rule:
    """A 0/1 flag (``True/False/0/1``; the builder gets a bool).

    >>> flag("wrap-around couplers").text("toric")
    '0/1: wrap-around couplers'
    """
    return Rule("flag", note=note)


def choice(*choices: str, note: str = "") -> Rule:
    """One of a few strings.

    >>> choice("paley", "iq").text("supernode")
    'paley | iq'
    """
    return Rule("choice", choices=tuple(choices), note=note)


def integers(minimum: int | None = None, *, note: str = "") -> Rule:
    """A comma-separated list of integers, each ``>= minimum`` (``"4,4,4"``, or a sequence from Python).

    >>> r = integers(2, note="e.g. 4,4,4")
    >>> r.text("sizes"), r("3,4", "sizes")
    ('comma-separated integers >= 2 e.g. 4,4,4', [3, 4])
    """
    return Rule("integers", minimum, note=note)


def custom(words: str, checker: Callable[[Any, str], Any] | None = None) -> Rule:
    """A rule stated in ``words`` and checked by ``checker(value, name)`` (None: the builder checks it).

    >>> custom("family spec name:key=value,...").text("G")
    'family spec name:key=value,...'
    """
    return Rule("custom", words=words, checker=checker)


@dataclass(frozen=True)
class Param:
    """One parameter of a family: its rule, whether it is required, its default and the paper's symbol for it.

    Attributes
    ----------
    rule : Rule
    required : bool
        A required parameter has no default.
    default : the builder's default (None for a required one).
    symbol : the paper's notation for the parameter (``"q'"`` for the order of a Paley supernode); the name if
        empty.
    name : filled in by the family.
    """

    rule: Rule
    required: bool = True
    default: Any = None
    symbol: str = ""
    name: str = ""

    @property
    def type(self) -> type:
        """``int`` or ``str``: how the command line reads the value."""
        return self.rule.type

    @property
    def text(self) -> str:
        """The rule in words, for this parameter (``"prime power q = 1 (mod 4)"``)."""
        return self.rule.text(self.name)

    def check(self, value: Any) -> Any:
        """The value in its canonical type, or the ``ValueError`` of the rule."""
        return self.rule(value, self.name)


@dataclass(frozen=True)
class ClosedForms:
    """The closed forms the paper states for a family, as text in the family's parameter names (sympy syntax).

    Attributes
    ----------
    n, m : vertices and edges (``"q**2 + q + 1"``).
    degrees : ``((degree, number of vertices of that degree), ...)``, as Table V lists them.
    derived : symbols that are functions of the parameters (``{"delta": mms_delta}`` for ``q = 4w + delta``),
        each called with the family's parameters by name.
    star : for a star product, its two factors as ``(builder, {factor parameter: expression})``: Property
        II-B.3 gives ``n = n_G n_H``, ``m = m_G n_H + n_G m_H``, and the degrees are the sums of the factors'
        degrees.

    :mod:`starlib.paper.formulas` turns these into sympy expressions.
    """

    n: str = ""
    m: str = ""
    degrees: tuple[tuple[str, str], ...] = ()
    derived: Mapping[str, Callable[..., int]] = field(default_factory=dict)
    star: tuple[tuple[Callable[..., Any], Mapping[str, str]], tuple[Callable[..., Any], Mapping[str, str]]] | None \
        = None


@dataclass(frozen=True)
class Family:
    """A network family: ``build(**params)`` returns the member with these parameters.

    Attributes
    ----------
    name : the name on the command line and in the tables (``"slimfly"``).
    builder : the declared builder (it checks its arguments and the memory limit itself).
    params : its parameters (name -> :class:`Param`), in the builder's order.
    summary : one line for listings.
    size : ``size(**params) -> Size``, the estimate of vertices, edges and peak bytes from checked parameters
        (every parameter given, defaults filled in).
    kind : one of :data:`KINDS`.
    preset : builder arguments fixed for this family (a variant of a more general builder).
    symbol : the paper's notation (``"MMS(q)"``, ``"QR(q')"``), empty if the paper has none.
    reference : where the paper defines it (``"App. B-B3"``).
    diameter : the diameter the paper states for every member, if it states one.
    forms : the closed forms the paper states, if any.
    check : a check of the parameters together, ``check(params) -> params`` (rules that tie parameters).
    base : for a variant, the family whose builder it presets.
    also : the other kinds the family belongs to (PolarFly is a factor graph of PolarStar and a network of its
        own); listings show it under each.
    """

    name: str
    builder: Callable[..., Any]
    params: Mapping[str, Param]
    summary: str
    size: Callable[..., Size]
    kind: str = "network"
    preset: Mapping[str, Any] = field(default_factory=dict)
    symbol: str = ""
    reference: str = ""
    diameter: int | None = None
    forms: ClosedForms | None = None
    check: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    base: Family | None = None
    also: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not callable(self.size):
            raise ValueError(f"family {self.name!r} has no size model: every family estimates its members' "
                             f"vertices, edges and peak bytes, so the memory guard can refuse what does not fit")
        if self.kind not in KINDS:
            raise ValueError(f"kind={self.kind!r} is not one of {', '.join(KINDS)}")
        if not isinstance(self.also, tuple) or any(k not in KINDS or k == self.kind for k in self.also):
            raise ValueError(f"also={self.also!r} must be a tuple of kinds ({', '.join(KINDS)}) other than "
                             f"kind={self.kind!r}")
        object.__setattr__(self, "params", {k: replace(p, name=k) for k, p in self.params.items()})

    def _known(self, params: Mapping[str, Any]) -> None:
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ValueError(f"{unknown[0]} is not a parameter of {self.name} "
                             f"(parameters: {', '.join(self.params) or 'none'})")

    def checked(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Every argument of the builder: the preset ones, and these parameters checked by their rules and by the
        family's cross-check, in canonical types.

        Missing optional parameters get their defaults; a missing required one is a ``ValueError`` naming its
        rule. A value ``None`` of an optional parameter means "not given".
        """
        self._known(params)
        missing = [k for k, p in self.params.items() if p.required and params.get(k) is None]
        if missing:
            rules = "; ".join(f"{k}: {self.params[k].text}" for k in missing)
            raise ValueError(f"{self.name} needs {', '.join(missing)} ({rules})")
        out = dict(self.preset)
        for k, p in self.params.items():
            value = params.get(k, p.default)
            out[k] = value if value is None else p.check(value)
        if self.base is not None:  # a variant: the base family fills in its defaults and checks the whole
            return self.base.checked(out)
        return dict(self.check(out)) if self.check is not None else out

    def build(self, **params: Any) -> Any:
        """The member with these parameters (unknown names are a ``ValueError``).

        The builder refuses, before allocating, a member over the memory limit in force
        (:func:`~starlib.memory.limit_memory` sets it; :meth:`check_size` says so without building).
        """
        self._known(params)
        return self.builder(**self.preset, **params)

    def estimate(self, params: Mapping[str, Any]) -> Size:
        """Vertices, edges and peak bytes of the member with these parameters, from the parameters alone.

        Parameters that break the family's rules are the ``ValueError`` the builder would raise: no member is
        ever estimated as empty.
        """
        return self.size(**self.checked(params))

    def check_size(self, params: Mapping[str, Any], max_memory: int | None = None) -> Size:
        """:meth:`estimate`, refused with a ``ValueError`` naming the parameters, the estimate and the limit when
        the peak would exceed ``max_memory`` (default: :func:`~starlib.memory.memory_limit`).

        The command line calls it before building, with its ``--max-memory``.
        """
        given = {k: v for k, v in params.items() if v is not None}
        return check_size(self.estimate(params), given, self.name, max_memory)

    def admits(self, **params: Any) -> bool:
        """True if every given parameter passes its rule (nothing is built; parameters not given are not
        checked)."""
        for name, value in params.items():
            p = self.params.get(name)
            if p is None:
                return False
            try:
                p.check(value)
            except ValueError:
                return False
        return True

    def variant(self, name: str, *, preset: Mapping[str, Any], summary: str, params: Mapping[str, Param] |
                None = None, declare: bool = True, **changes: Any) -> Family:
        """Declare a variant: this family's builder with ``preset`` arguments fixed (``polarstar-iq``).

        ``params`` lists the variant's own parameters (default: this family's, without the preset ones); other
        attributes (``symbol``, ``reference``, ...) are this family's unless given. ``declare=False`` keeps the
        record out of :func:`declared_in`.
        """
        own = params if params is not None else {k: p for k, p in self.params.items() if k not in preset}
        record = replace(self, name=name, preset=dict(preset), summary=summary, params=own, base=self, check=None,
                         **changes)
        return _declare(record, self.builder.__module__) if declare else record


_DECLARED: dict[str, list[Family]] = {}


def _declare(record: Family, module: str) -> Family:
    _DECLARED.setdefault(module, []).append(record)
    return record


def declared_in(module: Any) -> list[Family]:
    """The families declared in a module, in the order of their declarations.

    >>> from starlib import factors
    >>> [f.name for f in declared_in(factors)][:3]
    ['complete', 'complete-bipartite', 'cycle']
    """
    return list(_DECLARED.get(getattr(module, "__name__", module), ()))


def family(name: str, *, params: Mapping[str, Param], size: Callable[..., Size], summary: str, kind: str = "network",
           symbol: str = "", reference: str = "", diameter: int | None = None, forms: ClosedForms | None = None,
           check: Callable[[dict[str, Any]], dict[str, Any]] | None = None, declare: bool = True,
           also: tuple[str, ...] = ()) -> Callable[[Callable[..., Any]], Any]:
    """Declare a network family on its builder (the attributes of :class:`Family`).

    The decorated builder checks its arguments by the declared rules and the cross-check, refuses a member whose
    estimated peak exceeds the memory limit in force, then builds with the checked values. ``builder.family`` is
    the record. ``declare=False`` keeps the record out of :func:`declared_in` (for examples and tests).

    Raises
    ------
    ValueError
        At declaration: no size model, or parameters that are not the builder's.
    """
    def decorate(builder: Callable[..., Any]) -> Any:
        signature = inspect.signature(builder)
        if list(signature.parameters) != list(params):
            raise ValueError(f"family {name!r}: the declared parameters {list(params)} are not the builder's "
                             f"{list(signature.parameters)}")

        @functools.wraps(builder)
        def checked(*args: Any, **kwargs: Any) -> Any:
            given = signature.bind(*args, **kwargs).arguments
            values = record.checked(given)
            check_size(record.size(**values), {k: v for k, v in given.items() if v is not None}, name)
            return builder(**values)

        record = Family(name, checked, params, summary, size, kind=kind, symbol=symbol, reference=reference,
                        diameter=diameter, forms=forms, check=check, also=also)
        checked.family = record  # type: ignore[attr-defined]
        checked.variant = record.variant  # type: ignore[attr-defined]
        if declare:
            _declare(record, builder.__module__)
        return checked

    return decorate


def family_table(*records: Family | Iterable[Family]) -> dict[str, Family]:
    """Records keyed by name, in the given order (lists are flattened); a name given twice is a ``ValueError``.

    >>> from starlib.memory import Size
    >>> a = Family("a", int, {}, "x", size=lambda: Size(1, 0, 0))
    >>> list(family_table(a, [a.variant("b", preset={}, summary="y", declare=False)]))
    ['a', 'b']
    """
    out: dict[str, Family] = {}
    for item in records:
        for f in ([item] if isinstance(item, Family) else item):
            if f.name in out:
                raise ValueError(f"name={f.name!r} is given to two families")
            out[f.name] = f
    return out
