"""Every command the documentation shows still runs, as the documentation says.

What runs, from README.md and docs/*.md:
- a ```sh or ```console block that invokes soacc-opt, soacc-run or soacc-examples. In a
  console block every line starting with `$ ` is a command and the lines after it, up
  to the next `$ `, are its output; in an sh block every line that is not a comment is
  a command. A line ending in `\\` goes on on the next line.
- a ```python block that calls soacc.compile, as one script.

A block's commands run in order, each in bash with a timeout, in one fresh directory
that sees the repository's top-level folders through symbolic links (so a command may
write files, such as `--out DIR` or a .dot file, without touching the repository), with
the virtualenv's bin/ first on PATH.

What is checked:
- a command whose shown output has an error line (one containing `error:`) must fail
  (exit status not 0) and print that line;
- any other command must exit 0 and print every `result ...` line it shows;
- a soacc-opt command must print every output line it shows, but lines with `...`
  (soacc-opt does the same on every machine; soacc-run's and soacc-examples' other
  lines name the backend and times);
- a python block must exit 0.
Lines are compared with runs of spaces made one.

What is skipped, by the rules in SKIP_RULES (each skip names its rule, see `pytest -rs`):
creating a virtualenv, installing packages (the network), `bash .ci/run` (CI itself,
which runs this test), the lent GPU machine's setup, anything that needs a GPU
(`--backend cuda`, `--profile`, `backend="cuda"`, profiling, `-m gpu`, the sanitizer)
and, where Graphviz is not installed, `dot -T...`. A soacc-examples command that
names no example runs all of them and is marked slow.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TIMEOUT_S = 300
TOOLS = re.compile(r"(^|[\s/;&|(])(soacc-opt|soacc-run|soacc-examples)(\s|$)")

# (pattern in a command or script, why it is not run here). Checked in this order.
SKIP_RULES: list[tuple[str, str]] = [
    (r"python3? -m venv", "creates a virtualenv (this test already runs in one)"),
    (r"\bpip install\b", "installs packages (needs the network)"),
    (r"bash \.ci/run", "is the whole CI run, which runs this test"),
    (r"prepare\.sh|setup-device\.sh", "sets up the lent GPU machine"),
    (
        r"--backend[= ]cuda|--profile\b|backend=[\"']cuda[\"']|\.profiling = True|-m gpu\b|sanitize-gpu",
        "needs a GPU",
    ),
]
if shutil.which("dot") is None:
    SKIP_RULES.append((r"\bdot -T", "needs Graphviz's dot, which is not installed"))

EXAMPLES_OPTIONS_WITH_VALUES = {"--size", "--backend", "--seed", "--dir"}


@dataclass
class Command:
    text: str
    line: int
    shown: list[str] = field(default_factory=list)
    """The output the doc shows for it (console blocks only)."""


@dataclass
class Block:
    doc: Path
    line: int
    language: str
    commands: list[Command]
    script: str = ""
    """The whole text of a python block."""

    @property
    def name(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"

    @property
    def text(self) -> str:
        return self.script or "\n".join(c.text for c in self.commands)


def fenced_blocks(doc: Path):
    """(language, first line number, lines) of every fenced code block of a markdown file."""
    lines = doc.read_text().splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^\s*```(\w*)", lines[i])
        if not opening:
            i += 1
            continue
        start, body = i + 1, []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i])
            i += 1
        yield opening.group(1), start + 1, body
        i += 1


def commands_of(language: str, first: int, body: list[str]) -> list[Command]:
    commands: list[Command] = []
    pending: Command | None = None  # a command whose line ends in a backslash
    for n, line in enumerate(body, first):
        if pending is not None:
            pending.text = pending.text[:-1] + " " + line.strip()
            if not pending.text.endswith("\\"):
                pending = None
            continue
        if language == "console":
            if line.startswith("$ "):
                commands.append(Command(line[2:].strip(), n))
            elif commands and line.strip():
                commands[-1].shown.append(line)
                continue
            else:
                continue
        else:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            commands.append(Command(line.strip(), n))
        if commands[-1].text.endswith("\\"):
            pending = commands[-1]
    return commands


def doc_blocks() -> list[Block]:
    blocks = []
    for doc in DOCS:
        for language, first, body in fenced_blocks(doc):
            if language in ("sh", "console"):
                commands = commands_of(language, first, body)
                if any(TOOLS.search(c.text) for c in commands):
                    blocks.append(Block(doc, first - 1, language, commands))
            elif language == "python" and "soacc.compile" in "\n".join(body):
                script = "\n".join(body)
                blocks.append(Block(doc, first - 1, language, [], script))
    return blocks


def skip_reason(block: Block) -> str | None:
    for pattern, why in SKIP_RULES:
        if re.search(pattern, block.text):
            return f"{block.name} {why} (rule: {pattern})"
    return None


def runs_every_example(command: str) -> bool:
    """A soacc-examples command that names no example (so it runs all of them)."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return False
    for at, word in enumerate(words):
        if word.endswith("soacc-examples"):
            names, skip_value = [], False
            for arg in words[at + 1 :]:
                if arg in {"&&", "||", ";", "|"}:
                    break
                if skip_value:
                    skip_value = False
                elif arg in EXAMPLES_OPTIONS_WITH_VALUES:
                    skip_value = True
                elif not arg.startswith("-"):
                    names.append(arg)
            return not names
    return False


def params():
    out = []
    for block in doc_blocks():
        marks = []
        if any(runs_every_example(c.text) for c in block.commands):
            marks.append(pytest.mark.slow)
        out.append(pytest.param(block, id=block.name, marks=marks))
    return out


def normalised(line: str) -> str:
    return " ".join(line.split())


def workspace(tmp_path: Path) -> Path:
    """A directory that looks like the repository's root: its top-level entries as links."""
    for entry in ROOT.iterdir():
        if entry.name != ".git":
            (tmp_path / entry.name).symlink_to(entry)
    return tmp_path


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def check_command(command: Command, where: str, cwd: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", command.text],
        cwd=cwd,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    output = done.stdout + done.stderr
    printed = {normalised(line) for line in output.splitlines()}
    context = f"{where}: `{command.text}` exited {done.returncode}; it printed:\n{output}"
    errors = [line for line in command.shown if "error:" in line]
    if errors:
        assert done.returncode != 0, f"the doc shows an error, but {context}"
        to_find = errors
    else:
        assert done.returncode == 0, context
        to_find = [line for line in command.shown if line.startswith("result ")]
    if command.text.startswith("soacc-opt"):
        to_find = [line for line in command.shown if "..." not in line]
    for line in to_find:
        assert normalised(line) in printed, f"the doc shows the line\n  {line}\nbut {context}"


@pytest.mark.parametrize("block", params())
def test_documented_commands_run(block: Block, tmp_path: Path):
    why = skip_reason(block)
    if why:
        pytest.skip(why)
    cwd = workspace(tmp_path)
    if block.script:
        script = cwd / "snippet.py"
        script.write_text(block.script)
        done = subprocess.run(
            [sys.executable, str(script)],
            cwd=cwd,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
        )
        assert done.returncode == 0, f"{block.name}: the snippet failed:\n{done.stdout}{done.stderr}"
        return
    for command in block.commands:
        check_command(command, f"{block.doc.relative_to(ROOT)}:{command.line}", cwd)


def test_the_docs_show_commands():
    """The collection above finds what it should: a rule that matched nothing would
    test nothing."""
    blocks = doc_blocks()
    assert len(blocks) >= 20
    assert any(b.doc.name == "README.md" for b in blocks)
    assert sum(b.language == "python" for b in blocks) >= 1
    assert sum(skip_reason(b) is None for b in blocks) >= 15


PATHS = re.compile(r"(?<![\w/.-])((?:examples|docs|benchmarks|tests|\.ci)/[\w./-]*\w)")


@pytest.mark.parametrize("block", [pytest.param(b, id=b.name) for b in doc_blocks()])
def test_files_named_in_commands_exist(block: Block):
    """Also in the commands that are skipped here (a GPU's, say)."""
    for path in PATHS.findall(block.text):
        assert (ROOT / path).exists(), f"{block.name} names {path}, which is not in the repository"


def heading_anchors(doc: Path) -> set[str]:
    """The anchors GitHub makes of a page's headings: lower case, punctuation dropped,
    spaces as hyphens."""
    anchors = set()
    for line in doc.read_text().splitlines():
        heading = re.match(r"^#+\s+(.*)", line)
        if heading:
            text = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower())
            anchors.add(text.replace(" ", "-"))
    return anchors


def test_links_between_pages_resolve():
    for doc in [*DOCS, ROOT / "CHANGELOG.md"]:
        for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)", doc.read_text()):
            if re.match(r"\w+://", target):
                continue
            page = doc.parent / target if target else doc
            where = f"{doc.relative_to(ROOT)} links to {target}#{anchor}"
            assert page.exists(), f"{where}, which does not exist"
            if anchor:
                assert anchor in heading_anchors(page), f"{where}: {target or doc.name} has no such heading"


def test_docs_name_no_path_outside_the_repository():
    """The studies are cited by author and title; the one path outside the repository is
    the README's `../shared/device/prepare.sh`, how the lent GPU machine is used."""
    outside = re.compile(r"\.\./shared|digests/|seeds/|DESIGN\.md|STYLE\.md")
    for doc in [*DOCS, ROOT / "CHANGELOG.md"]:
        for n, line in enumerate(doc.read_text().splitlines(), 1):
            allowed = doc.name == "README.md" and doc.parent == ROOT and "../shared/device/prepare.sh" in line
            if not allowed:
                assert not outside.search(line), f"{doc.relative_to(ROOT)}:{n} names a path outside the repository"
    readme = (ROOT / "README.md").read_text()
    assert readme.count("../shared") <= 1
