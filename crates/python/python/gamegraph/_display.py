"""Rich display in Jupyter: graphs and sequences as SVG, boards and values as HTML tables.

The native classes call these functions from their ``_repr_svg_`` / ``_repr_html_``
methods; the output is plain SVG and HTML, without scripts or outside resources.
"""

from __future__ import annotations

import html
import math
from typing import Any, Optional

#: Graphs with more vertices than this are not drawn (the text repr is shown instead).
MAX_DRAWN_VERTICES = 60
#: Rows of a table shown at most (a note says how many are left out).
MAX_TABLE_ROWS = 40
#: Columns of a tab board shown at most.
MAX_TABLE_COLS = 40

_WIN, _LOSS = "#cfe8cf", "#f4cccc"


def graph_svg(g: Any) -> Optional[str]:
    """The vertices on a circle, arcs as arrows (curved for a pair of opposite arcs)."""
    n = g.num_vertices
    if n == 0 or n > MAX_DRAWN_VERTICES:
        return None
    size = max(200, min(640, 40 * n))
    c, radius, r = size / 2, size / 2 - 24, 13
    pos = [
        (c + radius * math.cos(2 * math.pi * i / n - math.pi / 2),
         c + radius * math.sin(2 * math.pi * i / n - math.pi / 2))
        for i in range(n)
    ]
    sources, targets = g.arcs()
    arcs = set(zip(sources.tolist(), targets.tolist()))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" font-family="sans-serif" font-size="12">',
        '<defs><marker id="gg-arrow" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>',
    ]
    for u, v in sorted(arcs):
        (x1, y1), (x2, y2) = pos[u - 1], pos[v - 1]
        if u == v:
            parts.append(
                f'<circle cx="{x1:.1f}" cy="{y1 - r - 6:.1f}" r="7" fill="none" '
                'stroke="#444"/>'
            )
            continue
        dx, dy = x2 - x1, y2 - y1
        d = math.hypot(dx, dy)
        ux, uy = dx / d, dy / d
        sx, sy, ex, ey = x1 + ux * r, y1 + uy * r, x2 - ux * r, y2 - uy * r
        bend = 0.18 * d if (v, u) in arcs else 0.0
        mx, my = (sx + ex) / 2 - uy * bend, (sy + ey) / 2 + ux * bend
        parts.append(
            f'<path d="M{sx:.1f},{sy:.1f} Q{mx:.1f},{my:.1f} {ex:.1f},{ey:.1f}" '
            'fill="none" stroke="#444" marker-end="url(#gg-arrow)"/>'
        )
    for i, (x, y) in enumerate(pos):
        stroke = ' stroke-width="3"' if g.start == i + 1 else ""
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="white" stroke="#222"{stroke}/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle">{i + 1}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def sequence_svg(seq: Any) -> str:
    """The values g(n) as dots over n, the pre-period and one period shaded."""
    values = seq.values.tolist()
    count = len(values)
    width, height, left, bottom, top = 640, 220, 40, 30, 24
    top_value = max(values, default=0) or 1
    step = (width - left - 10) / max(count, 1)

    def x(n: float) -> float:
        return left + n * step

    def y(v: float) -> float:
        return height - bottom - v * (height - bottom - top) / top_value

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="11">',
        f'<text x="{left}" y="14">{html.escape(seq.game)}: g(0) … g({count - 1})</text>',
    ]
    if seq.period is not None and seq.preperiod is not None:
        p, q = seq.preperiod, seq.period
        if p < count:
            end = min(p + q, count)
            parts.append(
                f'<rect x="{x(p):.1f}" y="{top}" width="{x(end) - x(p):.1f}" '
                f'height="{height - bottom - top}" fill="#e4ecf7"/>'
                f'<text x="{width - 10}" y="14" text-anchor="end">pre-period {p}, '
                f"period {q} (shaded)</text>"
            )
    parts.append(
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}" '
        'stroke="#888"/>'
        f'<text x="{left - 4}" y="{y(top_value) + 4:.1f}" text-anchor="end">{top_value}</text>'
        f'<text x="{left - 4}" y="{height - bottom + 4}" text-anchor="end">0</text>'
        f'<text x="{width - 10}" y="{height - 8}" text-anchor="end">n = {count - 1}</text>'
    )
    dot = max(0.8, min(3.0, step / 2))
    parts.extend(
        f'<circle cx="{x(n + 0.5):.1f}" cy="{y(v):.1f}" r="{dot:.1f}" fill="#245"/>'
        for n, v in enumerate(values)
    )
    parts.append("</svg>")
    return "".join(parts)


def _table(header: list[str], rows: list[list[str]], note: str) -> str:
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join(f"<tr>{''.join(r)}</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}"


def tab_html(b: Any) -> str:
    """The top rows of a tab board, top row first: d per cell, lost cells in red."""
    rows = min(b.rows, MAX_TABLE_ROWS)
    cols = min(b.cols, MAX_TABLE_COLS)
    lo = b.rows - rows + 1
    values = b.board(lo, b.rows)[:, :cols].tolist()
    out = []
    for i in range(rows - 1, -1, -1):
        cells = [f"<th>{lo + i}</th>"]
        for d in values[i]:
            color = _LOSS if d == 0 else _WIN
            cells.append(f'<td style="background:{color};text-align:right">{d}</td>')
        out.append(cells)
    notes = []
    if rows < b.rows:
        notes.append(f"the top {rows} of {b.rows} rows")
    if cols < b.cols:
        notes.append(f"the first {cols} of {b.cols} columns")
    if b.period is not None:
        notes.append(f"rows repeat with period {b.period.length}")
    note = f"<p>{html.escape('; '.join(notes))}</p>" if notes else ""
    caption = (
        f"<p>tab board {b.rows} × {b.cols}: d of each cell (0: the player to move loses)</p>"
    )
    return caption + _table(["x \\ y", *[str(j) for j in range(1, cols + 1)]], out, note)


def grundy_html(v: Any) -> str:
    """The first vertices' values, with how many are finite and infinite."""
    n = len(v)
    shown = min(n, MAX_TABLE_ROWS)
    rows = [[f"<td>{i + 1}</td>", f"<td>{html.escape(str(v[i]))}</td>"] for i in range(shown)]
    counts = v.counts()
    note = f"<p>{counts['finite']} finite and {counts['infinite']} infinite values"
    note += f"; the first {shown} of {n} vertices shown</p>" if shown < n else "</p>"
    return _table(["vertex", "value"], rows, note)


_OUTCOME_COLORS = {"win": _WIN, "loss": _LOSS, "tie": "#fff2b3", "draw": "#e0e0e0"}


def _value_words(outcome: Any, remoteness: Optional[int]) -> str:
    return f"{outcome} in {remoteness}" if remoteness is not None else str(outcome)


def solved_html(s: Any) -> str:
    """A solved game: its size, the start's value, the counts, and the start's moves best
    first with their values for the player who makes them."""
    name = s.name or "a game given by Python functions"
    counts = s.counts()
    caption = (
        f"<p>{html.escape(name)}: {len(s)} positions; start {html.escape(repr(s.start))}: "
        f"{html.escape(_value_words(s.start_outcome, s.start_remoteness))} for the player "
        f"to move; " + ", ".join(f"{counts[k]} {k}" for k in ("win", "loss", "tie", "draw")) + "</p>"
    )
    moves = s.moves(s.start)
    shown = moves[:MAX_TABLE_ROWS]
    rows = [
        [
            f"<td>{html.escape(repr(p))}</td>",
            f'<td style="background:{_OUTCOME_COLORS[str(o)]}">'
            f"{html.escape(_value_words(o, r))}</td>",
        ]
        for p, o, r in shown
    ]
    note = f"<p>the first {len(shown)} of {len(moves)} moves shown</p>" if len(shown) < len(moves) else ""
    return caption + _table(["move to", "value for the mover"], rows, note)


def board_html(b: Any) -> str:
    """A position's picture: a grid with its labels (the deciding line shaded), or rows of
    pins."""
    if b.kind == "pins":
        rows = [
            [f"<td>{i + 1}</td>", f'<td style="font-family:monospace">{"| " * n}</td>']
            for i, n in enumerate(b.pins)
        ]
        note = "" if b.pins else "<p>no pins left</p>"
        return _table(["row", "pins"], rows, note)
    line = set(b.line)
    rows = []
    for label, cells in zip(b.row_labels, b.cells):
        out = [f"<th>{html.escape(label)}</th>"]
        for col, ch in zip(b.col_labels, cells):
            shade = f"background:{_WIN};" if f"{col}{label}" in line else ""
            out.append(
                f'<td style="{shade}text-align:center;font-family:monospace;width:1.6em">'
                f"{html.escape('' if ch == '.' else ch)}</td>"
            )
        rows.append(out)
    note = f"<p>the line: {html.escape(' '.join(b.line))}</p>" if b.line else ""
    return _table(["", *[html.escape(c) for c in b.col_labels]], rows, note)
