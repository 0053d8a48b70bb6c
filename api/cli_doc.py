"""docs/cli.md, rendered from the `memora` argument parser (`api.cli.build_parser`): every subcommand in the order
`memora --help` lists them, its usage line and its arguments.

    .venv/bin/python -m api.cli_doc > docs/cli.md      (or `make docs`)

tests/house/test_docs_cli.py fails when the page differs from what this module renders. What a command does is said by
its `help=` in `api/commands/`; the page of docs/ that describes the feature is linked from `PAGES`.
"""

from __future__ import annotations

import argparse
import sys

from api.cli import build_parser

COMMAND = ".venv/bin/python -m api.cli_doc > docs/cli.md"
WIDTH = 116

# The docs/ page describing each subcommand's feature.
PAGES: dict[str, tuple[str, str]] = {
    "db": ("operations.md#neo4j", "Operations: Neo4j"),
    "migrate": ("operations.md#neo4j", "Operations: Neo4j"),
    "ingest": ("entries.md#ingest", "Entries: ingest"),
    "export": ("operations.md#export-import-backup", "Operations: export, import, backup"),
    "import": ("operations.md#export-import-backup", "Operations: export, import, backup"),
    "entries": ("entries.md#listing-a-projects-entries", "Entries: listing a project's entries"),
    "search": ("search.md", "Search"),
    "token": ("http.md#authentication", "HTTP API guide: authentication"),
    "signin-link": ("web.md#signing-in", "The web app: signing in"),
    "member": ("http.md#projects-and-members", "HTTP API guide: projects and members"),
    "project": ("http.md#projects-and-members", "HTTP API guide: projects and members"),
    "entity": ("entities.md", "Entities"),
    "embeddings": ("embeddings.md", "Embeddings"),
    "understand": ("search.md#understanding-a-query", "Search: understanding a query"),
    "serve": ("http.md", "HTTP API guide"),
    "eval": ("evaluation.md", "Evaluation"),
    "demo": ("../README.md#two-commands", "README"),
    "live": ("live.md", "Live interview context"),
    "summary": ("summaries.md", "Summaries"),
    "summaries": ("summaries.md", "Summaries"),
    "chapter": ("summaries.md#chapter-context", "Summaries: chapter context"),
    "stats": ("operations.md#telemetry", "Operations: telemetry"),
    "mcp": ("mcp.md", "MCP server for agents"),
}

INTRO = """\
Every command prints readable text (key-value lines, tables) by default and, where it has `--json`, the same data as
JSON with the API's keys (`memora search --json` prints exactly the API's response body). Progress goes to stderr: a
bar on a terminal, a plain line every few seconds in a log or a pipe. Commands that need the graph start the managed
Neo4j first when it is stopped (unless `NEO4J_URI` is set) and apply pending migrations. `-v` logs at INFO and shows
the trace of an unexpected failure.
"""

# What an exit status means, for every command.
EXIT_CODES: tuple[tuple[str, str], ...] = (
    ("0", "done"),
    (
        "1",
        "a failure nobody expected (one line; `-v` shows the trace), or `memora db status` found no server of this "
        "home",
    ),
    (
        "2",
        "a mistake in the command (a date that is not a calendar day, an unknown channel, `--k 0`, an unknown "
        "name): one line on stderr, never a traceback",
    ),
    (
        "3",
        "`memora ingest`/`memora import`: at least one bad line (the others are written); `memora entity timeline "
        "--plot` without matplotlib",
    ),
    ("4", "the user given with `--as` is not a member of the project, or their role does not allow the change"),
    ("5", "the managed Neo4j cannot be run (Java, Maven, a busy port): what to do, in one line"),
    (
        "6",
        "Neo4j unreachable: `memora: the graph database at bolt://… is unreachable (…)`, within a few seconds; run "
        "the command again (an ingest skips what it already wrote). Also a failed embedding batch that stopped "
        "`memora embeddings backfill` or `migrate` (its chunks are retried later)",
    ),
    (
        "130, 143",
        "interrupted (Ctrl-C, SIGTERM); `memora ingest` first prints what it committed, and running it again resumes",
    ),
    ("141", "the reader of the output went away (`memora export … \\| head`)"),
)


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str]]:
    """(name, parser, help) of a parser's subcommands, in the order they were added."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            found += [(name, sub, helps.get(name, "")) for name, sub in action.choices.items()]
    return found


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=WIDTH, max_help_position=40)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _argument(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    names = ", ".join(f"`{name}`" for name in action.option_strings)
    if action.nargs == 0:
        return names
    value = action.metavar or action.dest.upper()
    return f"{names} `{value}`"


def _meaning(action: argparse.Action) -> str:
    said = " ".join((action.help or "").split()).replace("|", "/")
    extra = []
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        extra.append("one of " + ", ".join(f"`{choice}`" for choice in action.choices))
    if action.required and action.option_strings:
        extra.append("required")
    if isinstance(action, argparse._AppendAction):
        extra.append("repeatable")
    default = action.default
    if default not in (None, False, argparse.SUPPRESS) and action.nargs != 0:
        extra.append(f"default `{default}`")
    if extra:
        said = f"{said} ({'; '.join(extra)})" if said else "; ".join(extra).capitalize()
    return said


def _section(name: str, parser: argparse.ArgumentParser, help_text: str, depth: int) -> list[str]:
    lines = [f"{'#' * depth} `{parser.prog}`", ""]
    if help_text:
        lines += [help_text[0].upper() + help_text[1:] + ".", ""]
    page = PAGES.get(name)
    if page and depth == 2:
        lines += [f"Described in [{page[1]}]({page[0]}).", ""]
    lines += ["```", _usage(parser), "```", ""]
    rows = [
        action
        for action in parser._actions
        if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
    ]
    if rows:
        lines += ["| argument | meaning |", "|---|---|"]
        lines += [f"| {_argument(action)} | {_meaning(action)} |" for action in rows]
        lines.append("")
    for sub_name, sub, sub_help in _subcommands(parser):
        lines += _section(f"{name} {sub_name}", sub, sub_help, depth + 1)
    return lines


def render() -> str:
    parser = build_parser()
    lines = [
        "# Command line",
        "",
        "<!-- Generated from the `memora` argument parser (api/cli.py, api/commands/) by api/cli_doc.py; do not edit.",
        f"     Regenerate: {COMMAND} -->",
        "",
        "`memora` runs the same code paths as the HTTP service, for operators, the demo, tests and evaluation. It is "
        "installed in the virtual environment (`.venv/bin/memora`) by `make demo` or `make test`; settings come from "
        "the environment ([configuration.md](configuration.md)).",
        "",
        INTRO,
        "| exit | meaning |",
        "|---|---|",
        *[f"| {code} | {meaning} |" for code, meaning in EXIT_CODES],
        "",
        "Subcommands, in the order `memora --help` lists them:",
        "",
    ]
    commands = _subcommands(parser)
    lines += [f"- [`memora {name}`](#memora-{name}): {help_text}" for name, _, help_text in commands]
    lines += ["", "```", _usage(parser), "```", ""]
    for name, sub, help_text in commands:
        lines += _section(name, sub, help_text, 2)
    return "\n".join(lines).rstrip("\n") + "\n"


if __name__ == "__main__":
    sys.stdout.write(render())
