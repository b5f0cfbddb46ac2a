#!/usr/bin/python3
"""Executes a notebook top to bottom (nbclient, the python3 kernel), failing on
the first cell that raises, and writes the executed notebook and every figure
it shows (as NAME-CELL-K.png) to OUT, so they can be looked at. It fails too
when the notebook shows no rich display of cidrcheck's own: a Fleet's map as
SVG (_repr_svg_), a Report's and a Plan's tables as HTML (_repr_html_); and
when a code cell shows nothing at all (a loop over steps that are not there
printed nothing once, issue 25).

usage: run_notebook.py NOTEBOOK OUT
"""
import base64
import os
import sys
from pathlib import Path

import nbclient
import nbformat


def main():
    notebook, out = Path(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    nb = nbformat.read(notebook, as_version=4)
    os.environ["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"  # the kernel's debugger warns about frozen modules otherwise
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(notebook.parent)}}).execute()
    nbformat.write(nb, out / notebook.name)
    figures = 0
    shown = set()  # which of cidrcheck's rich displays the notebook shows
    for n, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and not cell.get("outputs"):
            sys.exit(f"run_notebook: cell {n} shows nothing: {cell.source[:200]!r}")
        for k, output in enumerate(cell.get("outputs", [])):
            if output.get("output_type") == "error" or output.get("name") == "stderr":
                sys.exit(f"run_notebook: cell {n} wrote an error: {output}")
            data = output.get("data", {})
            png = data.get("image/png")
            if png:
                (out / f"{notebook.stem}-{n}-{k}.png").write_bytes(base64.b64decode(png))
                figures += 1
            if "<svg" in data.get("image/svg+xml", ""):
                shown.add("Fleet as SVG")
            for name in ("Report", "Plan"):
                if data.get("text/html", "").startswith(f'<table><caption style="text-align:left">{name}('):
                    shown.add(f"{name} as HTML")
    missing = {"Fleet as SVG", "Report as HTML", "Plan as HTML"} - shown
    if missing:
        sys.exit(f"run_notebook: {notebook.name} shows no {', '.join(sorted(missing))}")
    print(f"run_notebook: {notebook.name}: {len(nb.cells)} cells, {figures} figures in {out}")


if __name__ == "__main__":
    main()
