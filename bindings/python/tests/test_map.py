"""The fleet map from Python: the same layout and SVG as `cidrcheck map`, drawn with matplotlib."""

import os
import subprocess
from pathlib import Path

import pytest

from cidrcheck import Fleet

ROOT = Path(__file__).resolve().parents[3]
PLATFORM = ROOT / "data" / "examples" / "platform-fleet.yaml"
CLI = os.environ.get("CIDRCHECK_CLI")


@pytest.fixture(scope="module")
def fleet():
    return Fleet.load(PLATFORM)


def test_the_svg_is_the_one_the_cli_writes(fleet):
    if not CLI:
        pytest.skip("CIDRCHECK_CLI is not set (CTest sets it to the built cidrcheck)")
    for args, options in [((), {}), (("--pool", "10.0.0.0/9", "--width", "900", "--title", "T"),
                                     {"pools": ["10.0.0.0/9"], "width": 900, "title": "T"})]:
        cli = subprocess.run([CLI, "map", *args, "-o", "-", str(PLATFORM)], capture_output=True, check=True).stdout
        assert fleet.to_svg(**options).encode() == cli


def test_the_layout_is_plain_data(fleet):
    layout = fleet.map_layout()
    assert layout["width"] >= 1400 and layout["height"] > 48 * 16
    bars = [r for r in layout["rects"] if r[6] is not None]
    assert sorted(r[6] for r in bars) == list(range(len(fleet.ranges())))
    assert {r[4] for r in bars} == {"network", "pods", "services", "external"}
    assert {t[3] for t in layout["texts"]} >= {"title", "row", "bar", "axis", "segment"}
    assert set(layout["fills"]) >= {r[4] for r in layout["rects"]}
    assert layout["fills"]["overlap"][0] == "#e15759"


def test_draw_returns_a_figure_of_the_layouts_size(fleet, tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    figure = fleet.draw()
    assert isinstance(figure, Figure)
    layout = fleet.map_layout()
    width, height = figure.get_size_inches() * figure.dpi
    assert (round(width), round(height)) == (round(layout["width"]), round(layout["height"]))
    figure.savefig(tmp_path / "map.png")
    assert (tmp_path / "map.png").stat().st_size > 10_000


def test_draw_into_existing_axes(fleet):
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    figure = Figure()
    ax = figure.add_subplot()
    assert fleet.draw(ax=ax, pools="10.0.0.0/8") is figure
    assert len(ax.patches) > 148


def test_map_options_are_checked(fleet):
    with pytest.raises(TypeError, match="unknown map option 'colour'"):
        fleet.to_svg(colour="red")
    with pytest.raises(ValueError, match="max-rows"):
        fleet.to_svg(max_rows=10)
    # The ranges the CLI takes: width 100 to 100,000; no infinity, NaN or overflowing exponent.
    for bad, message in [({"width": 0}, "map width must be 100 to 100000 pixels, not 0"),
                         ({"width": float("inf")}, "map width must be 100 to 100000 pixels, not inf"),
                         ({"width": 1e300}, "map width must be 100 to 100000 pixels"),
                         ({"width": float("nan")}, "map width must be 100 to 100000 pixels, not nan"),
                         ({"row_height": float("inf")}, "map row height must be more than 0 and at most 1000"),
                         ({"font_size": 1e300}, "map font size must be more than 0 and at most 1000"),
                         ({"scale_exponent": 1e300}, "map scale exponent must be more than 0 and at most 1"),
                         ({"scale_exponent": float("nan")}, "map scale exponent")]:
        for draw in (fleet.to_svg, fleet.map_layout):
            with pytest.raises(ValueError, match=message):
                draw(**bad)
