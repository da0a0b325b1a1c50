"""Draws the app icons in static/icons/ (run once; the PNGs are committed): a white flask with an
orange liquid on the indigo of the site header, as SVG and as PNG (192, 512, and 512 "maskable",
whose motif stays inside the central circle that Android may cut out).

No imaging library: the shapes are polygons, rasterised with numpy (4×4 samples per pixel for smooth
edges) and written as PNG with zlib.

    .venv/bin/python tools/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
INDIGO = (0x40, 0x51, 0xB5)
WHITE = (0xFF, 0xFF, 0xFF)
ORANGE = (0xFF, 0x70, 0x43)
SAMPLES = 4


def _arc(cx, cy, r, start, stop, n=6):
    return [(cx + r * np.cos(a), cy + r * np.sin(a)) for a in np.linspace(np.radians(start), np.radians(stop), n)]


# Unit square, y downwards. The glass: rim, neck, a conical body with rounded bottom corners.
GLASS = ([(0.37, 0.13), (0.63, 0.13), (0.63, 0.2), (0.59, 0.2), (0.59, 0.39), *_arc(0.75, 0.78, 0.07, -60, 90), *_arc(0.25, 0.78, 0.07, 90, 240), (0.41, 0.39), (0.41, 0.2), (0.37, 0.2)])
INSIDE = ([(0.45, 0.2), (0.55, 0.2), (0.55, 0.41), *_arc(0.745, 0.77, 0.035, -60, 90), *_arc(0.255, 0.77, 0.035, 90, 240), (0.45, 0.41)])
LIQUID_TOP = 0.58
BUBBLES = ((0.43, 0.70, 0.035), (0.56, 0.66, 0.022), (0.52, 0.75, 0.018))


def _inside_polygon(x, y, polygon):
    """Even-odd rule, vectorised over the sample grid."""
    inside = np.zeros(x.shape, dtype=bool)
    pts = list(polygon)
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        crosses = (y1 > y) != (y2 > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            at = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
        inside ^= crosses & (x < at)
    return inside


def _rounded_square(x, y, radius):
    dx = np.maximum(np.abs(x - 0.5) - (0.5 - radius), 0)
    dy = np.maximum(np.abs(y - 0.5) - (0.5 - radius), 0)
    return dx * dx + dy * dy <= radius * radius


def _layers(x, y, maskable):
    if maskable:  # full bleed background, motif shrunk into the safe circle (radius 0.4)
        background = np.ones(x.shape, dtype=bool)
        scale = 0.72
        x, y = 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale
    else:
        background = _rounded_square(x, y, 0.18)
    glass = _inside_polygon(x, y, GLASS)
    inside = _inside_polygon(x, y, INSIDE)
    liquid = inside & (y >= LIQUID_TOP)
    bubbles = np.zeros(x.shape, dtype=bool)
    for bx, by, r in BUBBLES:
        bubbles |= (x - bx) ** 2 + (y - by) ** 2 <= r * r
    # later layers paint over earlier ones
    return [(background, INDIGO), (glass & ~inside, WHITE), (liquid, ORANGE), (liquid & bubbles, WHITE)]


def render(size: int, maskable: bool = False) -> np.ndarray:
    n = size * SAMPLES
    coords = (np.arange(n) + 0.5) / n
    x, y = np.meshgrid(coords, coords)
    rgb = np.zeros((n, n, 3))
    alpha = np.zeros((n, n))
    for mask, colour in _layers(x, y, maskable):
        rgb[mask] = colour
        alpha[mask] = 1.0
    # average the samples of each pixel, colours weighted by coverage
    def down(a):
        return a.reshape(size, SAMPLES, size, SAMPLES, *a.shape[2:]).mean(axis=(1, 3))
    cover = down(alpha)
    colour = down(rgb * alpha[..., None]) / np.maximum(cover[..., None], 1e-9)
    return np.dstack([colour, cover * 255]).round().clip(0, 255).astype(np.uint8)


def png(pixels: np.ndarray) -> bytes:
    height, width, _ = pixels.shape
    raw = b"".join(b"\0" + pixels[row].tobytes() for row in range(height))  # filter type 0 per row

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8 bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def svg() -> str:
    def path(points):
        return "M" + " L".join(f"{x * 512:.1f} {y * 512:.1f}" for x, y in points) + " Z"

    liquid_clip = f'<clipPath id="liquid"><rect x="0" y="{LIQUID_TOP * 512:.1f}" width="512" height="512"/></clipPath>'
    bubbles = "".join(f'<circle cx="{x * 512:.1f}" cy="{y * 512:.1f}" r="{r * 512:.1f}" fill="#fff"/>'
                      for x, y, r in BUBBLES)
    hexc = "#%02x%02x%02x"
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
        f"<defs>{liquid_clip}</defs>"
        f'<rect width="512" height="512" rx="{0.18 * 512:.1f}" fill="{hexc % INDIGO}"/>'
        f'<path d="{path(GLASS)} {path(INSIDE)}" fill="#fff" fill-rule="evenodd"/>'
        f'<g clip-path="url(#liquid)"><path d="{path(INSIDE)}" fill="{hexc % ORANGE}"/>{bubbles}</g>'
        "</svg>\n"
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon-192.png").write_bytes(png(render(192)))
    (OUT / "icon-512.png").write_bytes(png(render(512)))
    (OUT / "icon-maskable-512.png").write_bytes(png(render(512, maskable=True)))
    (OUT / "icon.svg").write_text(svg(), encoding="utf-8")
    for path in sorted(OUT.iterdir()):
        print(f"{path.relative_to(OUT.parent.parent)}: {path.stat().st_size} Bytes")


if __name__ == "__main__":
    main()
