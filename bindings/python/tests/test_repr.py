"""How Jupyter shows the package's objects: a Fleet as its map (SVG), a Report and a Plan as HTML tables."""

import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

from cidrcheck import Fleet

ROOT = Path(__file__).resolve().parents[3]
MESH = ROOT / "data" / "examples" / "mesh-shared-services.yaml"


class Table(HTMLParser):
    """Rows of cells, and the caption, of the HTML tables in a text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.rows, self.captions, self._cell, self._in = [], [], None, None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th", "caption"):
            self._in, self._cell = tag, ""

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.rows[-1].append(self._cell)
            self._in = None
        if tag == "caption":
            self.captions.append(self._cell)
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._cell += data


def test_a_fleet_shows_its_map():
    fleet = Fleet.load(MESH)
    svg = fleet._repr_svg_()
    assert svg == fleet.to_svg()
    assert ET.fromstring(svg.split("?>", 1)[1]).tag.endswith("svg")


def test_a_report_shows_one_row_per_finding():
    report = Fleet.load(MESH).check()
    table = Table(report._repr_html_())
    assert table.captions == [repr(report)]
    header, *rows = table.rows
    assert header[:3] == ["severity", "rule_id", "rule"]
    assert len(rows) == len(report) > 0
    for row, finding in zip(rows, report):
        assert row[0] == finding.severity and row[1] == finding.rule_id
        assert finding.message in row


def test_names_are_escaped():
    fleet = Fleet.from_text('clusters:\n  - {name: "<b>x</b>", pods: 10.7.0.0/16}\n  - {name: b, pods: 10.7.0.0/16}\n'
                            'connections: [["<b>x</b>", b]]\n')
    text = fleet.check()._repr_html_()
    assert "<b>x</b>" not in text and "&lt;b&gt;x&lt;/b&gt;" in text


def test_a_plan_shows_its_changes():
    plan = Fleet.load(MESH).plan()
    table = Table(plan._repr_html_())
    assert table.captions[0] == repr(plan)
    header, *rows = table.rows[: len(plan.changes) + 1]
    assert header[:4] == ["owner", "role", "from", "to"]
    assert len(rows) == len(plan.changes) > 0
    for row, change in zip(rows, plan.changes):
        assert row[0] == change.owner and row[3] == str(change.new)
