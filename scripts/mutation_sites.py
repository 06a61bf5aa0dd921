"""Where a rule can plant a bug in a Python module, found with ``ast`` rather than by hand.

A site is one small edit of the source text (an operator swapped, a comparison flipped, a
constant changed, a term of a sum dropped, a ``not`` dropped, ``and``/``or`` swapped, a returned
``True``/``False`` swapped). Edits splice the exact characters of the tokens, so the rest of the
file keeps its layout. The engine writes much of its physics as ``Formula("...")`` text; the same
rules apply inside that text, so a formula is mutated like code.

A site's id names the file, the enclosing function or class (or the module-level name a formula
is assigned to) and the edit, with a counter among equal edits in that scope: it stays the same
when code elsewhere in the file moves, so a list of equivalent mutants keyed by it does not go
stale with every edit.
"""

from __future__ import annotations

import ast
import bisect
import io
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass

SWAP_OPS: dict[type[ast.operator], tuple[str, str]] = {
    ast.Add: ("+", "-"),
    ast.Sub: ("-", "+"),
    ast.Mult: ("*", "/"),
    ast.Div: ("/", "*"),
}
FLIP_CMP: dict[type[ast.cmpop], tuple[str, str]] = {
    ast.Lt: ("<", "<="),
    ast.LtE: ("<=", "<"),
    ast.Gt: (">", ">="),
    ast.GtE: (">=", ">"),
    ast.Eq: ("==", "!="),
    ast.NotEq: ("!=", "=="),
}
# Constants below this are rounding guards (``ceil(x - 1e-9)``); doubling one changes nothing a
# test could see, so the constant rule leaves them (the sign in front of them is still swapped).
TOLERANCE = 1e-6
# Operands that make + and * work on text or sequences: swapping those only crashes, which any
# test that reaches the line catches, so they would flatter the score.
SEQUENCE_NODES = (ast.JoinedStr, ast.List, ast.Tuple, ast.ListComp, ast.Set, ast.Dict)


@dataclass(frozen=True)
class Site:
    """One planted edit: ``text[start:end]`` becomes ``new`` (several edits for and/or)."""

    path: str
    line: int
    scope: str
    what: str  # the edit in words, e.g. "< -> <=" or "drop + hosts_w"
    edits: tuple[tuple[int, int, str], ...]
    k: int = 0  # among equal (path, scope, what), in source order

    @property
    def id(self) -> str:
        return f"{self.path}::{self.scope}::{self.what}#{self.k}"

    def apply(self, text: str) -> str:
        for start, end, new in sorted(self.edits, reverse=True):
            text = text[:start] + new + text[end:]
        return text


@dataclass(frozen=True)
class _Tok:
    string: str
    start: int
    end: int


class _Region:
    """A piece of Python text (a module, or a formula's expression) and where its characters
    lie in the file."""

    def __init__(self, text: str, to_file: Callable[[int], int | None]) -> None:
        self.text = text
        self.to_file = to_file
        self.line_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.line_starts.append(i + 1)
        self.tokens: list[_Tok] = [
            _Tok(t.string, self.offset_chars(*t.start), self.offset_chars(*t.end))
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type in (tokenize.OP, tokenize.NAME, tokenize.NUMBER, tokenize.STRING)
        ]
        self.starts = [t.start for t in self.tokens]

    def offset_chars(self, line: int, col: int) -> int:
        return self.line_starts[line - 1] + col

    def offset(self, line: int, col_bytes: int) -> int:
        """``ast`` columns count UTF-8 bytes; the text is indexed by characters."""
        start = self.line_starts[line - 1]
        end = self.line_starts[line] if line < len(self.line_starts) else len(self.text)
        head = self.text[start:end].encode()[:col_bytes].decode(errors="ignore")
        return start + len(head)

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (
            self.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
            self.offset(node.end_lineno, node.end_col_offset),  # type: ignore[attr-defined]
        )

    def token(self, lo: int, hi: int, string: str) -> _Tok | None:
        for t in self.tokens[bisect.bisect_left(self.starts, lo) :]:
            if t.end > hi:
                return None
            if t.string == string:
                return t
        return None

    def next_token(self, after: int) -> _Tok | None:
        i = bisect.bisect_left(self.starts, after)
        return self.tokens[i] if i < len(self.tokens) else None

    def edit(self, start: int, end: int, new: str) -> tuple[int, int, str] | None:
        """The edit in file offsets, or None when it does not map onto one piece of the file."""
        a = self.to_file(start)
        b = self.to_file(end) if end > start else a
        if a is None or b is None or b - a != end - start:
            return None
        return (a, b, new)


def _is_text(node: ast.AST) -> bool:
    return isinstance(node, SEQUENCE_NODES) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)
    )


def _is_number(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    )


def _bumped(value: int | float) -> str:
    """The rule's new constant: 0 -> 1, an integer n -> n + 1, a float x -> 2x (0.0 -> 1.0)."""
    if isinstance(value, int):
        return str(value + 1)
    return repr(value * 2 if value else 1.0)


def _short(text: str, limit: int = 40) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _skipped(node: ast.AST) -> bool:
    """Code no test is meant to pin: type-checking imports and the script entry point."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
        return True
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
    )


def _walk(
    node: ast.AST, scope: tuple[str, ...], in_def: bool = False
) -> Iterator[tuple[ast.AST, tuple[str, ...]]]:
    """Every node with its scope, leaving out annotations, skipped blocks and f-strings (whose
    inner positions and tokens Python 3.11 does not give)."""
    yield node, scope
    for field, value in ast.iter_fields(node):
        if field in ("annotation", "returns", "type_comment"):
            continue
        children = value if isinstance(value, list) else [value]
        for child in children:
            if (
                not isinstance(child, ast.AST)
                or _skipped(child)
                or isinstance(child, ast.JoinedStr)
            ):
                continue
            inner, inner_def = scope, in_def
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner, inner_def = (*scope, getattr(child, "name", "<lambda>")), True
            elif isinstance(child, ast.ClassDef):
                inner = (*scope, child.name)
            elif (
                not in_def
                and isinstance(child, ast.Assign | ast.AnnAssign)
                and isinstance(target := _target(child), ast.Name)
            ):
                inner = (*scope, target.id)  # a module- or class-level name, e.g. a formula
            yield from _walk(child, inner, inner_def)


def _target(node: ast.Assign | ast.AnnAssign) -> ast.expr:
    return node.targets[0] if isinstance(node, ast.Assign) else node.target


def _region_sites(
    region: _Region, tree: ast.AST, base: tuple[str, ...]
) -> Iterator[tuple[str, str, int, list]]:
    """(scope, what, offset, edits) for every rule that applies in a region's tree."""
    for node, scope in _walk(tree, base):
        name = ".".join(scope) or "<module>"
        for what, at, edits in _node_sites(region, node):
            mapped = [region.edit(*e) for e in edits]
            if edits and all(m is not None for m in mapped):
                yield name, what, at, mapped


def _node_sites(region: _Region, node: ast.AST) -> Iterator[tuple[str, int, list]]:
    if isinstance(node, ast.BinOp) and type(node.op) in SWAP_OPS:
        if _is_text(node.left) or _is_text(node.right):
            return
        old, new = SWAP_OPS[type(node.op)]
        _, left_end = region.span(node.left)
        right_start, _ = region.span(node.right)
        tok = region.token(left_end, right_start, old)
        if tok is None:
            return
        yield f"{old} -> {new}", tok.start, [(tok.start, tok.end, new)]
        if isinstance(node.op, ast.Add | ast.Sub):
            cut = tok.start
            while cut > 0 and region.text[cut - 1] in " \t":
                cut -= 1
            _, end = region.span(node)
            term = region.text[tok.start : end]
            yield f"drop {_short(term)}", tok.start, [(cut, end, "")]
    elif isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for op, a, b in zip(node.ops, operands, operands[1:], strict=False):
            if type(op) not in FLIP_CMP:
                continue
            old, new = FLIP_CMP[type(op)]
            tok = region.token(region.span(a)[1], region.span(b)[0], old)
            if tok is not None:
                yield f"{old} -> {new}", tok.start, [(tok.start, tok.end, new)]
    elif isinstance(node, ast.BoolOp):
        old, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        edits = []
        for a, b in zip(node.values, node.values[1:], strict=False):
            tok = region.token(region.span(a)[1], region.span(b)[0], old)
            if tok is None:
                return
            edits.append((tok.start, tok.end, new))
        yield f"{old} -> {new}", edits[0][0], edits
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        start, _ = region.span(node)
        nxt = region.next_token(start + 3)
        if nxt is not None:
            yield (
                f"drop not {_short(region.text[nxt.start : region.span(node)[1]], 30)}",
                start,
                [(start, nxt.start, "")],
            )
    elif _is_number(node) and not 0 < abs(node.value) < TOLERANCE:  # type: ignore[attr-defined]
        start, end = region.span(node)
        old = region.text[start:end]
        new = _bumped(node.value)  # type: ignore[attr-defined]
        yield f"{old} -> {new}", start, [(start, end, new)]
    elif (
        isinstance(node, ast.Return)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, bool)
    ):
        start, end = region.span(node.value)
        old = str(node.value.value)
        new = str(not node.value.value)
        yield f"return {old} -> {new}", start, [(start, end, new)]


def _formula_regions(
    module: _Region, tree: ast.Module
) -> Iterator[tuple[ast.Call, _Region, ast.AST]]:
    """The expression text of every ``Formula("...")`` whose literal maps back onto the file
    character for character (plain or implicitly joined literals without escapes)."""
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Formula"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            continue
        lit = node.args[0]
        value = lit.value if isinstance(lit.value, str) else ""
        lo, hi = module.span(lit)
        wrapped = "(" + module.text[lo:hi] + ")"  # joined literals may sit on several lines
        pieces: list[tuple[int, int]] = []  # (file offset of the content, its length)
        for t in tokenize.generate_tokens(io.StringIO(wrapped).readline):
            if t.type != tokenize.STRING:
                continue
            raw = t.string
            quote = raw.lstrip("rR")[:1] * (3 if raw.lstrip("rR")[:3] in ('"""', "'''") else 1)
            prefix = len(raw) - len(raw.lstrip("rR")) + len(quote)
            content = raw[prefix : len(raw) - len(quote)]
            if "\\" in content or raw[:1] not in "\"'rR":
                break
            pieces.append((lo - 1 + _line_col(wrapped, t.start) + prefix, len(content)))
        else:
            if sum(n for _, n in pieces) != len(value):
                continue
            try:
                expr = ast.parse(value, mode="eval")
            except SyntaxError:
                continue
            yield node, _Region(value, _piece_map(pieces)), expr


def _line_col(text: str, pos: tuple[int, int]) -> int:
    line, col = pos
    return sum(len(s) for s in text.splitlines(keepends=True)[: line - 1]) + col


def _piece_map(pieces: list[tuple[int, int]]) -> Callable[[int], int | None]:
    def to_file(i: int) -> int | None:
        for at, n in pieces:
            if i <= n:
                return at + i
            i -= n
        return None

    return to_file


def sites(path: str, text: str) -> list[Site]:
    """Every rule's site in one module's text, in source order, each with a stable id."""
    module = _Region(text, lambda i: i)
    tree = ast.parse(text)
    found: list[tuple[str, str, int, list]] = list(_region_sites(module, tree, ()))
    scopes = {id(n): s for n, s in _walk(tree, ())}
    for call, region, expr in _formula_regions(module, tree):
        scope = scopes.get(id(call), ())
        for name, what, at, edits in _region_sites(region, expr, scope):
            found.append((name, f"formula {what}", region.to_file(at) or 0, edits))
    found.sort(key=lambda f: f[2])
    counts: dict[tuple[str, str], int] = {}
    out = []
    for name, what, at, edits in found:
        k = counts.get((name, what), 0)
        counts[name, what] = k + 1
        line = text.count("\n", 0, at) + 1
        out.append(Site(path, line, name, what, tuple(edits), k))
    return out
