#!/usr/bin/python3
"""Executes a notebook top to bottom (nbclient, the python3 kernel), failing on
the first cell that raises, and writes the executed notebook and every figure
it shows (as NAME-CELL-K.png) to OUT, so they can be looked at.

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
    for n, cell in enumerate(nb.cells):
        for k, output in enumerate(cell.get("outputs", [])):
            if output.get("output_type") == "error" or output.get("name") == "stderr":
                sys.exit(f"run_notebook: cell {n} wrote an error: {output}")
            png = output.get("data", {}).get("image/png")
            if png:
                (out / f"{notebook.stem}-{n}-{k}.png").write_bytes(base64.b64decode(png))
                figures += 1
    print(f"run_notebook: {notebook.name}: {len(nb.cells)} cells, {figures} figures in {out}")


if __name__ == "__main__":
    main()
