#!/usr/bin/python3
"""Opens the html report in a real browser (Debian's chromium, headless) and
checks that it renders, shows every finding, filters, and logs no console
error; saves a screenshot to look at.

usage: html_browser_test.py CIDRCHECK REPO SCRATCH
Exit 0 on success, 1 on a failure, 77 (skipped) when chromium is not installed.

Chromium runs offline and alone: a fresh profile, no sandbox (CI containers run
as root), no GPU, no QUIC, no first-run, background networking, component
updates or sync. Its log (--enable-logging=stderr --v=0) carries every console
message as "CONSOLE(line)"; the test first shows on a page that errors on
purpose that this chromium reports such errors, so a quiet log means something.
"""

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

SKIP = 77
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=5000"]

cli, repo, scratch = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def browse(browser, url, profile, *extra):
    """Runs chromium on url; returns (stdout, the console lines of its log)."""
    shutil.rmtree(profile, ignore_errors=True)
    p = subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", *extra, url], capture_output=True, text=True,
                       timeout=120)
    check(p.returncode == 0, f"chromium exited {p.returncode} on {url}:\n{p.stderr[-3000:]}")
    console = [line for line in p.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    return p.stdout, console


def main():
    browser = chromium()
    if not browser:
        print("SKIP: chromium is not installed (Debian's chromium; .ci/install-deps installs it); nothing was opened")
        return SKIP
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    profile = scratch / "profile"

    # The detector works: a page that errors on purpose shows in the log.
    broken = scratch / "broken.html"
    broken.write_text("<!DOCTYPE html><html><body><p>x</p><script>console.error('on purpose');"
                      "undefined_function();</script></body></html>\n")
    _, console = browse(browser, broken.as_uri(), profile, "--dump-dom")
    check(any("on purpose" in line for line in console), f"chromium does not log console errors here: {console}")
    check(any("undefined_function" in line for line in console), f"chromium does not log uncaught errors: {console}")

    # A fleet with every severity, a plan and a map; and the docs' example.
    fleets = [repo / "data/examples/mesh-shared-services.yaml", repo / "data/examples/kops-tailnet.yaml",
              repo / "tests/fixtures/fleets/suppressions.yaml"]
    for fleet in fleets:
        page = scratch / (fleet.stem + ".html")
        p = subprocess.run([cli, "check", str(fleet.relative_to(repo)), "--format", f"html={page}", "--format", "json"],
                           cwd=repo,
                           capture_output=True, text=True)
        check(p.returncode in (0, 1), f"cidrcheck exited {p.returncode}: {p.stderr}")
        findings = json.loads(p.stdout)["findings"]

        dom, console = browse(browser, page.as_uri(), profile, "--dump-dom")
        check(not console, f"{fleet.name}: console messages: {console}")
        check('data-ready="yes"' in dom, f"{fleet.name}: the page's script did not finish")
        rows = re.findall(r'<tr data-severity="(\w+)" data-rule="(CIDR\d+)"( hidden="")?', dom)
        check(len(rows) == len(findings), f"{fleet.name}: {len(rows)} rows for {len(findings)} findings")
        check(not any(hidden for _, _, hidden in rows), f"{fleet.name}: a finding is hidden before any filter")
        check(all((s, r) == (x["severity"], x["rule_id"]) for (s, r, _), x in zip(rows, findings)), fleet.name)
        check("<svg" in dom and "</svg>" in dom, f"{fleet.name}: no map")
        check('id="plan-title"' in dom, f"{fleet.name}: no plan section")

        # The filter, in the browser: an owner's name, preferably one that some rows have and some do not.
        texts = [html.unescape(re.sub(r"<[^>]*>", "", part.split("</tr>")[0])).lower()
                 for part in dom.split("<tr data-severity=")[1:]]
        owners = sorted({r["owner"] for x in findings for r in x["ranges"]})
        counts = {o: sum(1 for t in texts if o.lower() in t) for o in owners}
        partial = [o for o in owners if 0 < counts[o] < len(texts)]
        for owner in (partial or owners)[:1]:
            dom, console = browse(browser, page.as_uri() + "#filter=" + owner, profile, "--dump-dom")
            check(not console, f"{fleet.name}: console messages when filtered: {console}")
            shown = re.findall(r'<tr data-severity="\w+" data-rule="CIDR\d+"( hidden="")?', dom)
            visible = sum(1 for hidden in shown if not hidden)
            check(visible == counts[owner], f"{fleet.name}: filter {owner!r} shows {visible} rows, not {counts[owner]}")
            check(f'<span id="shown">{visible}</span>' in dom, f"{fleet.name}: the count of shown rows")

    # A link whose filter holds a bad percent-escape (issue 28, item 21): the filter is taken as written,
    # the script runs to its end (b92d7c3's threw in decodeURIComponent and left the filters unwired).
    page = scratch / (fleets[0].stem + ".html")
    dom, console = browse(browser, page.as_uri() + "#filter=%E0%A4%A", profile, "--dump-dom")
    check(not console, f"bad escape: console messages: {console}")
    check('data-ready="yes"' in dom, "bad escape: the page's script did not finish")
    check('<span id="shown">0</span>' in dom, "bad escape: the filter was not applied as written")

    # A screenshot of the first page, to look at; CIDRCHECK_UPDATE_DOCS=1 puts it in docs/images.
    shot = scratch / "html-report-screenshot.png"
    browse(browser, (scratch / (fleets[0].stem + ".html")).as_uri(), profile, f"--screenshot={shot}",
           "--window-size=1280,1600", "--hide-scrollbars")
    check(shot.exists() and shot.stat().st_size > 10_000, "no screenshot")
    print(f"screenshot: {shot}")
    if os.environ.get("CIDRCHECK_UPDATE_DOCS") == "1":
        shutil.copyfile(shot, repo / "docs/images" / shot.name)
        print(f"copied to docs/images/{shot.name}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print(f"FAIL: {e}", file=sys.stderr)
        sys.exit(1)
