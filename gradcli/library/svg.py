"""A small SVG writer: what gradcli's pictures (plots, graphs) are drawn with.

`Svg` collects shapes and text in user units and returns the document as a
string; every text is escaped for XML.  `nice_ticks(lo, hi)` gives round tick
values for an axis (1, 2 or 5 times a power of ten apart).  Nothing here knows
about tensors: `plot.py` and `graph_svg.py` build on it.
"""

from __future__ import annotations

import math

# series colours (pictures on a white background); the terminal plot uses its own
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#e377c2")
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def escape(text) -> str:
    return (
        str(text)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def _num(v) -> str:
    """A coordinate: at most two decimals, no trailing zeros."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


class Svg:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.items = []

    def rect(self, x, y, w, h, fill="none", stroke="#333", rx=0, cls=None, title=None):
        attrs = (
            f'x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" '
            f'fill="{fill}" stroke="{stroke}"'
        )
        if rx:
            attrs += f' rx="{_num(rx)}"'
        if cls:
            attrs += f' class="{cls}"'
        if title:
            self.items.append(f"<rect {attrs}><title>{escape(title)}</title></rect>")
        else:
            self.items.append(f"<rect {attrs}/>")

    def line(self, x1, y1, x2, y2, stroke="#333", width=1, dash=None, marker=None):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if marker:
            extra += f' marker-end="url(#{marker})"'
        self.items.append(
            f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
            f'stroke="{stroke}" stroke-width="{width}"{extra}/>'
        )

    def polyline(self, points, stroke, width=1.5, dash=None):
        if len(points) < 2:
            if points:
                x, y = points[0]
                self.items.append(
                    f'<circle cx="{_num(x)}" cy="{_num(y)}" r="1.5" fill="{stroke}"/>'
                )
            return
        pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(
            f'<polyline points="{pts}" fill="none" stroke="{stroke}" '
            f'stroke-width="{width}" stroke-linejoin="round"{extra}/>'
        )

    def text(self, x, y, s, size=12, anchor="start", fill="#222", weight=None, family=FONT):
        extra = f' font-weight="{weight}"' if weight else ""
        self.items.append(
            f'<text x="{_num(x)}" y="{_num(y)}" font-size="{size}" '
            f'font-family="{family}" text-anchor="{anchor}" fill="{fill}"{extra}>'
            f"{escape(s)}</text>"
        )

    def arrow_marker(self, name="arrow", fill="#555"):
        self.items.insert(
            0,
            f'<defs><marker id="{name}" viewBox="0 0 10 10" refX="10" refY="5" '
            f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{fill}"/></marker></defs>',
        )

    def to_string(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(self.width)}" '
            f'height="{_num(self.height)}" viewBox="0 0 {_num(self.width)} {_num(self.height)}">'
        )
        return (
            "\n".join(
                [head, '<rect width="100%" height="100%" fill="white"/>', *self.items, "</svg>"]
            )
            + "\n"
        )


def nice_ticks(lo: float, hi: float, count: int = 6) -> list:
    """Round values from lo to hi (inclusive where they fall inside), about `count` of them."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / max(1, count - 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    v = first
    while v <= hi + step * 1e-9 and len(ticks) < 100:
        ticks.append(0.0 if abs(v) < step * 1e-9 else v)
        v = first + len(ticks) * step
    return ticks


def tick_label(v: float) -> str:
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1e5 or a < 1e-3:
        return f"{v:.2g}"
    return f"{v:.4g}"
