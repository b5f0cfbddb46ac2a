"""Drawing the fleet map with matplotlib.

The layout (every rectangle, line and label, in pixels) comes from the C++
library, which `cidrcheck map` draws as SVG too, so both pictures agree. This
module only turns it into matplotlib artists. matplotlib is imported when a map
is drawn, not when cidrcheck is imported.
"""

from __future__ import annotations

from typing import Any

from ._core import MAP_FILLS

#: The colour of each role and kind of space on the map, as "#rrggbb": network,
#: pods, services, external (other networks), free, overlap, latent, ... Use it to
#: colour other charts the same way.
COLOURS = {name: colour for name, (colour, _opacity) in MAP_FILLS.items()}

_ANCHORS = {"start": "left", "middle": "center", "end": "right"}
DPI = 100  # a layout pixel is a figure pixel at this resolution


def draw_layout(layout: dict[str, Any], ax=None):
    """Draws a map layout (Fleet.map_layout()) and returns the matplotlib Figure.

    Without ax, makes a Figure of the layout's size (width and height in pixels
    at 100 dpi), which pyplot does not keep; in Jupyter the returned figure
    displays itself, once. With ax, draws into it in layout pixels (y downwards)."""
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection
    from matplotlib.patches import Rectangle

    width, height = layout["width"], layout["height"]
    if ax is None:
        # Made through pyplot so that Jupyter's inline backend is set up to display the
        # returned figure, then closed so that pyplot neither shows it a second time
        # nor keeps it alive.
        figure = plt.figure(figsize=(width / DPI, height / DPI), dpi=DPI)
        plt.close(figure)
        ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    fills = layout["fills"]
    for x, y, w, h, fill, defaulted, _range, _tooltip in layout["rects"]:
        colour, opacity = fills[fill]
        ax.add_patch(Rectangle(
            (x, y), max(w, 0.5), h, facecolor=colour, alpha=opacity if opacity < 1 else None, linewidth=0.72 if defaulted else 0,
            edgecolor="#333333" if defaulted else "none", linestyle=(0, (3, 2)) if defaulted else "solid"))
    ax.add_collection(LineCollection([((x1, y1), (x2, y2)) for x1, y1, x2, y2 in layout["lines"]],
                                     colors="#888888", linewidths=0.75))
    points = 72 / DPI
    fonts = layout["fonts"]
    for x, y, text, kind, anchor, vertical in layout["texts"]:
        size, bold, colour = fonts[kind]
        ax.text(x, y, text, fontsize=size * points, fontweight="bold" if bold else "normal", color=colour,
                ha=_ANCHORS[anchor], va="baseline", rotation=90 if vertical else 0, rotation_mode="anchor",
                family="DejaVu Sans")
    return ax.figure
