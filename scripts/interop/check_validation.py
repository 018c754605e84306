"""Differential check of argument validation: toolpact against python-jsonschema.

For the input schema of every tool of the real catalogs (fixtures/servers/ and, when
TOOLPACT_REFERENCE_SERVERS names their folder, the MCP reference servers), hypothesis-jsonschema
generates valid instances and this script derives invalid ones from them (a required property
removed, a value of another type, an unknown property, numbers and strings pushed past their
bounds). Each instance becomes a call; `toolpact validate --format json` judges them all in one
run, python-jsonschema (with its format checkers) judges them too, and the verdicts must agree.

A disagreement is explained when removing one `format` or `pattern` keyword from the schema
makes the two agree and validation-disagreements.json lists that cause with its reason (the two
implementations read some formats and regular-expression dialects differently, on purpose);
every other disagreement fails the check. Schemas toolpact refuses to compile must be listed
there too.

    check_validation.py TOOLPACT [--examples N] [--budget SECONDS] [--seed N] [-v]

--budget bounds the time spent generating instances (0: no bound, every schema); the schemas
are taken in an order shuffled by --seed, so that runs with other seeds cover other schemas
first. Exit status: 0 no unexplained disagreement, 1 some, 2 bad usage.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import HypothesisException
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for

ROOT = Path(__file__).resolve().parents[2]
KNOWN = Path(__file__).with_name("validation-disagreements.json")


def catalogs() -> list[Path]:
    files = sorted((ROOT / "fixtures/servers").glob("*.json"))
    reference = os.environ.get("TOOLPACT_REFERENCE_SERVERS")
    if reference and Path(reference).is_dir():
        files += sorted(Path(reference).glob("*.json"))
    return files


def schemas() -> list[tuple[str, dict]]:
    """Every distinct object-shaped input schema, with the first tool that has it."""
    seen: dict[str, tuple[str, dict]] = {}
    for file in catalogs():
        for tool in json.loads(file.read_text())["tools"]:
            schema = tool.get("inputSchema")
            if not isinstance(schema, dict):
                continue
            key = json.dumps(schema, sort_keys=True)
            seen.setdefault(key, (f"{file.stem}/{tool.get('name')}", schema))
    return list(seen.values())


def generate(schema: dict, examples: int) -> list:
    """Up to `examples` valid instances, deterministic for one schema."""
    found: list = []
    try:
        strategy = from_schema(schema)
    except (HypothesisException, SchemaError, ValueError, TypeError, KeyError, RecursionError):
        return found

    @settings(
        max_examples=examples,
        phases=[Phase.generate],
        database=None,
        derandomize=True,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(value):
        found.append(value)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            collect()
    except Exception:  # noqa: BLE001 - hypothesis-jsonschema gives up on some schemas
        pass
    return found


OTHER_TYPE = {str: 12345, int: "12345", float: "1.5", bool: "true", list: {"a": 1}, dict: [1, 2], type(None): 0}


def mutations(instance: dict, schema: dict, limit: int = 6) -> list:
    """Instances near `instance` that are likely invalid."""
    out = []
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    for name in required[:2]:
        if name in instance:
            changed = dict(instance)
            del changed[name]
            out.append(changed)
    for name, value in list(instance.items())[:3]:
        changed = dict(instance)
        changed[name] = OTHER_TYPE.get(type(value), None)
        out.append(changed)
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            out.append({**instance, name: value + 1e9})
            out.append({**instance, name: -value - 1.5})
        elif isinstance(value, str):
            out.append({**instance, name: value + "x" * 300})
            out.append({**instance, name: ""})
    out.append({**instance, "unknownProperty": True})
    return out[:limit]


def python_verdict(schema: dict, instance) -> bool | None:
    try:
        cls = validator_for(schema, default=Draft202012Validator)
        return cls(schema, format_checker=cls.FORMAT_CHECKER).is_valid(instance)
    except Exception:  # noqa: BLE001 - a schema python-jsonschema cannot use is not compared
        return None


def toolpact_verdicts(binary: str, tools: list[dict], calls: list[dict]) -> tuple[list[bool] | None, str]:
    """Runs `toolpact validate` once: the verdicts in order, or None and the error."""
    with tempfile.TemporaryDirectory() as tmp:
        catalog = Path(tmp, "catalog.json")
        catalog.write_text(json.dumps({"tools": tools}))
        lines = Path(tmp, "calls.jsonl")
        lines.write_text("".join(json.dumps(c) + "\n" for c in calls))
        run = subprocess.run(
            [binary, "validate", str(catalog), "--call", str(lines), "--format", "json"],
            capture_output=True,
            text=True,
        )
    if run.returncode == 2:
        return None, run.stderr.strip()
    out = json.loads(run.stdout)
    if isinstance(out, dict):
        out = [out]
    return [item["valid"] for item in out], ""


def refused_tool(error: str) -> str | None:
    """The tool named in toolpact's refusal of a schema (`tool "t12"`), if any."""
    marker = 'tool "'
    at = error.find(marker)
    if at < 0:
        return None
    return error[at + len(marker):].split('"', 1)[0]


def walk(schema, pointer=""):
    """Every (pointer, keyword, value) of a schema, in subschemas too."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            here = f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"
            yield here, key, value
            if key in ("enum", "const", "default", "examples"):
                continue
            yield from walk(value, here)
    elif isinstance(schema, list):
        for i, item in enumerate(schema):
            yield from walk(item, f"{pointer}/{i}")


def without(schema: dict, pointer: str) -> dict:
    """The schema with the keyword at `pointer` removed."""
    schema = copy.deepcopy(schema)
    *parents, last = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    node = schema
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    del node[last]
    return schema


# A class escape whose meaning differs between ECMA-262 (ASCII) and Python's `re` on text
# (Unicode): `\d`, `\w`, `\b` and their negations.
CLASS_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\[dDwWbB]")


def pattern_cause(pattern: str) -> str:
    """The name a pattern's disagreement is listed under: `pattern:class-escape` for a pattern
    with a class escape, else the pattern itself."""
    return "pattern:class-escape" if CLASS_ESCAPE.search(pattern) else f"pattern:{pattern}"


def causes(schema: dict) -> list[tuple[str, str]]:
    """Candidate causes of a disagreement: each `format` and `pattern` keyword, by pointer."""
    found = []
    for pointer, key, value in walk(schema):
        if key == "format" and isinstance(value, str):
            found.append((pointer, f"format:{value}"))
        elif key == "pattern" and isinstance(value, str):
            found.append((pointer, pattern_cause(value)))
        elif key == "patternProperties" and isinstance(value, dict):
            found.extend((f"{pointer}/{k.replace('~', '~0').replace('/', '~1')}", pattern_cause(k)) for k in value)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--examples", type=int, default=4, help="valid instances per schema (default 4)")
    parser.add_argument("--budget", type=float, default=60, help="seconds of generation, 0 for no bound (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="the order the schemas are taken in (default 0)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    known = json.loads(KNOWN.read_text())
    known_causes = {k["cause"]: k["reason"] for k in known["causes"]}
    known_refused = {k["tool"]: k["reason"] for k in known["refused"]}

    started = time.monotonic()
    all_schemas = schemas()
    random.Random(args.seed).shuffle(all_schemas)
    tools: list[dict] = []
    calls: list[dict] = []
    expected: list[bool] = []
    owners: list[int] = []  # index into tools for each call
    sources: dict[str, str] = {}
    generated = 0
    for source, schema in all_schemas:
        if args.budget and time.monotonic() - started > args.budget:
            break
        generated += 1
        if python_verdict(schema, {}) is None:
            continue
        valid = [v for v in generate(schema, args.examples) if isinstance(v, dict)]
        instances = []
        for v in valid:
            instances.append(v)
            instances.extend(mutations(v, schema))
        if not instances:
            continue
        name = f"t{len(tools)}"
        sources[name] = source
        tools.append({"name": name, "inputSchema": schema})
        for instance in instances:
            verdict = python_verdict(schema, instance)
            if verdict is None:
                continue
            calls.append({"name": name, "arguments": instance})
            expected.append(verdict)
            owners.append(len(tools) - 1)
    generation = time.monotonic() - started
    if not calls:
        print("validation: no instance was generated; is hypothesis-jsonschema working?", file=sys.stderr)
        return 2

    # Schemas toolpact refuses to compile leave the catalog one by one, each listed.
    refused: dict[str, str] = {}
    while True:
        kept = {t["name"] for t in tools} - set(refused)
        keep = [i for i, c in enumerate(calls) if c["name"] in kept]
        verdicts, error = toolpact_verdicts(args.binary, [t for t in tools if t["name"] in kept], [calls[i] for i in keep])
        if verdicts is not None:
            break
        tool = refused_tool(error)
        if tool is None or tool in refused:
            print(f"validation: toolpact could not run: {error}", file=sys.stderr)
            return 2
        refused[tool] = error

    failures = 0
    for tool, error in refused.items():
        source = sources[tool]
        if source in known_refused:
            if args.verbose:
                print(f"refused (listed): {source}: {known_refused[source]}")
        else:
            failures += 1
            print(f"UNEXPLAINED: toolpact refuses the schema of {source}: {error}")

    disagreements = [(keep[j], v) for j, v in enumerate(verdicts) if v != expected[keep[j]]]
    # Explain each by the format or pattern whose removal makes the two agree.
    # Every keyword of one cause goes at once: a schema may hold the same pattern twice.
    variants: list[tuple[int, str, dict]] = []
    for i, _ in disagreements:
        schema = tools[owners[i]]["inputSchema"]
        grouped: dict[str, list[str]] = {}
        for pointer, cause in causes(schema):
            grouped.setdefault(cause, []).append(pointer)
        for cause, pointers in grouped.items():
            variant = schema
            for pointer in sorted(pointers, key=len, reverse=True):
                try:
                    variant = without(variant, pointer)
                except (KeyError, IndexError, TypeError):
                    pass  # inside a keyword of the same cause removed already
            variants.append((i, cause, variant))
    explained: dict[int, str] = {}
    if variants:
        v_tools = [{"name": f"v{n}", "inputSchema": s} for n, (_, _, s) in enumerate(variants)]
        v_calls = [{"name": f"v{n}", "arguments": calls[i]["arguments"]} for n, (i, _, _) in enumerate(variants)]
        v_verdicts, error = toolpact_verdicts(args.binary, v_tools, v_calls)
        if v_verdicts is None:
            v_verdicts = [None] * len(variants)
        for (i, cause, schema), theirs in zip(variants, v_verdicts):
            if i not in explained and theirs is not None and theirs == python_verdict(schema, calls[i]["arguments"]):
                explained[i] = cause

    counts: dict[str, int] = {}
    for i, ours in disagreements:
        source = sources[calls[i]["name"]]
        cause = explained.get(i)
        instance = json.dumps(calls[i]["arguments"], ensure_ascii=False)[:300]
        theirs = "valid" if expected[i] else "invalid"
        mine = "valid" if ours else "invalid"
        if cause in known_causes:
            counts[cause] = counts.get(cause, 0) + 1
            if args.verbose:
                print(f"explained ({cause}): {source}: toolpact {mine}, python-jsonschema {theirs}: {instance}")
        else:
            failures += 1
            why = f" (goes away without {cause}, which validation-disagreements.json does not list)" if cause else ""
            print(f"UNEXPLAINED{why}: {source}: toolpact says {mine}, python-jsonschema {theirs}: {instance}")

    valid_count = sum(expected[i] for i in keep)
    print(
        f"validation: {generated} of {len(all_schemas)} schemas in {generation:.0f} s (seed {args.seed}), "
        f"{len(keep)} instances ({valid_count} valid, {len(keep) - valid_count} invalid) on {len(tools) - len(refused)} schemas, "
        f"{len(disagreements)} disagreements, {sum(counts.values())} explained, {failures} unexplained"
        + "".join(f"; {n} {c}" for c, n in sorted(counts.items()))
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
