"""The examples of docs/python.md run as doctests, from the repository root, so the guide stays true."""

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "docs" / "python.md"


def test_the_guide_examples_hold(monkeypatch):
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(ROOT)
    # The ```python blocks with >>> prompts, in order, as one session.
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(), flags=re.S)
    session = "\n".join(b for b in blocks if b.lstrip().startswith(">>>"))
    test = doctest.DocTestParser().get_doctest(session, {}, "docs/python.md", str(GUIDE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    assert tried > 20
    assert failed == 0
