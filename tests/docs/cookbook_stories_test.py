#!/usr/bin/python3
"""Issue 14: the cookbook follows the five seed stories. Checks that
docs/cookbook/index.md's table "The five stories" lists seeds 000 to 004 once
each, and that each listed page
- says which seed story it tells ("seed story NNN");
- shows its own fleet (data/examples/NAME.yaml, which exists), runs
  `cidrcheck check`, `cidrcheck plan` and `cidrcheck plan --emit runbooks` on
  it and `cat`s an emitted runbook.md;
- has a section "What the team did" whose every bullet cites at least one
  fact id of docs/migration-facts.md (in backquotes) or its seed ("seed NNN");
- names only corrections (I1, M3, ...) that the facts page lists.
usage: cookbook_stories_test.py REPO
"""
import re
import sys
from pathlib import Path

ROW = re.compile(r"^\| \[([^\]]+)\]\(([^)]+)\) \| (\d{3}) \|", re.M)


def bullets(section):
    """The top-level "- " items of a markdown section, each with its continuation lines."""
    items = []
    for line in section.splitlines():
        if line.startswith("- "):
            items.append(line)
        elif items and line.startswith("  "):
            items[-1] += " " + line.strip()
    return items


def check_page(repo, page, seed, facts, corrections):
    text = page.read_text(encoding="utf-8")
    where = page.relative_to(repo)
    problems = []
    if f"seed story {seed}" not in text.lower():
        problems.append(f"{where}: does not say it tells seed story {seed}")
    fleet = re.search(r"\$ cat (data/examples/[\w.-]+\.yaml)", text)
    if not fleet or not (repo / fleet.group(1)).is_file():
        problems.append(f"{where}: shows no fleet of data/examples/ that exists")
    else:
        for command in (f"$ cidrcheck check {fleet.group(1)}", f"$ cidrcheck plan {fleet.group(1)}",
                        f"$ cidrcheck plan --emit runbooks {fleet.group(1)}"):
            if command not in text:
                problems.append(f"{where}: runs no `{command[2:]}`")
    if not re.search(r"^\$ cat runbooks/[^ ]+/runbook\.md$", text, re.M):
        problems.append(f"{where}: shows no emitted runbook.md")
    team = re.search(r"^## What the team did.*?$(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not team:
        problems.append(f"{where}: has no section 'What the team did'")
    else:
        items = bullets(team.group(1))
        if not items:
            problems.append(f"{where}: 'What the team did' has no bullets")
        for item in items:
            if not set(re.findall(r"`([a-z0-9.-]+)`", item)) & facts and f"seed {seed}" not in item:
                problems.append(f"{where}: a 'What the team did' bullet cites no fact id and not seed {seed}: {item[:80]!r}")
    for c in sorted(set(re.findall(r"\bcorrections? ((?:[IM]\d+(?:, | and )?)+)", text))):
        for ident in re.findall(r"[IM]\d+", c):
            if ident not in corrections:
                problems.append(f"{where}: names correction {ident}, which docs/migration-facts.md does not list")
    return problems


def main():
    repo = Path(sys.argv[1])
    facts_text = (repo / "docs" / "migration-facts.md").read_text(encoding="utf-8")
    facts = set(re.findall(r"^\| ([a-z0-9][a-z0-9.-]*) \|", facts_text, re.M)) - {"id"}
    corrections = set(re.findall(r"^\| ([IM]\d+) \|", facts_text, re.M))
    index = (repo / "docs" / "cookbook" / "index.md").read_text(encoding="utf-8")
    stories = index[index.find("## The five stories"):]
    stories = stories[:stories.find("\n## ", 1)] if "\n## " in stories[1:] else stories
    rows = ROW.findall(stories)
    problems = []
    if sorted(seed for _, _, seed in rows) != ["000", "001", "002", "003", "004"]:
        problems.append(f"docs/cookbook/index.md: 'The five stories' lists seeds {[s for _, _, s in rows]}")
    for _, link, seed in rows:
        page = repo / "docs" / "cookbook" / link
        if not page.is_file():
            problems.append(f"docs/cookbook/index.md: seed {seed} links to {link}, which does not exist")
            continue
        problems += check_page(repo, page, seed, facts, corrections)
    for p in problems:
        print("FAIL: " + p)
    print(f"cookbook_stories: {len(rows)} story pages, {len(facts)} facts, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
