#!/usr/bin/env python3
"""Draws scale-curve.csv (from scale-curve.sh) as an SVG with two panels: calls per second by concurrent tasks, and
p50 and p99 latency by concurrent tasks. Standard library only, so the benchmark needs nothing from PyPI.

    plot-scale-curve.py scale-curve.csv scale-curve.svg
"""
import csv
import math
import sys

CLIENTS = [
    # name, colour, dashed (hand-written baselines are dashed, RetroSwift solid, each transport in its colour)
    ("raw URLSession", "#4c8bd6", True),
    ("RetroSwift + URLSessionTransport", "#1f4e96", False),
    ("raw async-http-client", "#f0a04b", True),
    ("RetroSwift + AsyncHTTPClientTransport", "#b85c00", False),
    ("RetroSwift + NIOTransport", "#2e8b3a", False),
]
WIDTH, HEIGHT = 1100, 520
PANEL_W, PANEL_H = 420, 340
LEFTS = (80, 620)
TOP = 70


def nice_ticks(high, count=5):
    """Round tick values from 0 to at least `high`."""
    if high <= 0:
        return [0, 1]
    raw = high / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return [step * i for i in range(0, int(math.ceil(high / step)) + 1)]


def label(value):
    if value < 1:
        return f"{value:g}"
    if value >= 1000:
        return f"{value / 1000:g}k"
    return f"{value:g}"


def panel(out, left, title, y_title, levels, series, y_max, y_min=None):
    """One panel: x is log2 of the task count; y linear from 0, or logarithmic from `y_min` when given."""
    x_of = {level: left + PANEL_W * (i / max(1, len(levels) - 1)) for i, level in enumerate(levels)}
    if y_min is None:
        ticks = nice_ticks(y_max)
        top_value = ticks[-1]

        def y_of(value):
            return TOP + PANEL_H - PANEL_H * (value / top_value)
    else:
        low = math.floor(math.log10(max(y_min, 1e-6)))
        high = math.ceil(math.log10(y_max))
        ticks = [10.0 ** e for e in range(low, high + 1)]

        def y_of(value):
            return TOP + PANEL_H - PANEL_H * ((math.log10(max(value, 10.0 ** low)) - low) / max(1, high - low))

    out.append(f'<text x="{left + PANEL_W / 2}" y="{TOP - 30}" text-anchor="middle" font-size="16" font-weight="bold">{title}</text>')
    for tick in ticks:
        y = y_of(tick)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + PANEL_W}" y2="{y:.1f}" stroke="#e4e4e4"/>')
        out.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end" font-size="12">{label(tick)}</text>')
    for level in levels:
        x = x_of[level]
        out.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{TOP + PANEL_H}" stroke="#f0f0f0"/>')
        out.append(f'<text x="{x:.1f}" y="{TOP + PANEL_H + 18}" text-anchor="middle" font-size="12">{level}</text>')
    out.append(f'<rect x="{left}" y="{TOP}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#888"/>')
    out.append(f'<text x="{left + PANEL_W / 2}" y="{TOP + PANEL_H + 40}" text-anchor="middle" font-size="13">concurrent tasks</text>')
    out.append(
        f'<text x="{left - 55}" y="{TOP + PANEL_H / 2}" text-anchor="middle" font-size="13" '
        f'transform="rotate(-90 {left - 55} {TOP + PANEL_H / 2})">{y_title}</text>'
    )
    for points, colour, dash, width in series:
        path = " ".join(f"{x_of[level]:.1f},{y_of(value):.1f}" for level, value in points)
        style = ' stroke-dasharray="6 4"' if dash else ""
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="{width}"{style}/>')
        for level, value in points:
            out.append(f'<circle cx="{x_of[level]:.1f}" cy="{y_of(value):.1f}" r="3" fill="{colour}"/>')


def main(source, target):
    rows = list(csv.DictReader(open(source)))
    levels = sorted({int(row["tasks"]) for row in rows})
    by_client = {name: {int(r["tasks"]): r for r in rows if r["client"] == name} for name, _, _ in CLIENTS}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
    ]
    throughput = []
    latency = []
    for name, colour, dashed in CLIENTS:
        points = by_client[name]
        throughput.append(([(l, float(points[l]["calls_per_second"])) for l in levels if l in points], colour, dashed, 2.5))
        latency.append(([(l, float(points[l]["p50_ms"])) for l in levels if l in points], colour, dashed, 2.5))
        latency.append(([(l, float(points[l]["p99_ms"])) for l in levels if l in points], colour, dashed, 1))
    y_calls = max(v for series in throughput for _, v in series[0])
    y_latency = max(v for series in latency for _, v in series[0])
    y_latency_min = min(v for series in latency for _, v in series[0])
    panel(out, LEFTS[0], "Calls per second", "calls per second", levels, throughput, y_calls)
    panel(out, LEFTS[1], "Latency: p50 (thick), p99 (thin)", "milliseconds (log scale)", levels, latency, y_latency,
          y_latency_min)
    for index, (name, colour, dashed) in enumerate(c for c in CLIENTS if by_client[c[0]]):
        x = 80 + (index // 2) * 340
        legend_y = HEIGHT - 50 + (index % 2) * 22
        style = ' stroke-dasharray="6 4"' if dashed else ""
        out.append(f'<line x1="{x}" y1="{legend_y}" x2="{x + 30}" y2="{legend_y}" stroke="{colour}" stroke-width="2.5"{style}/>')
        out.append(f'<text x="{x + 38}" y="{legend_y + 4}" font-size="12">{name}</text>')
    out.append("</svg>")
    open(target, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
