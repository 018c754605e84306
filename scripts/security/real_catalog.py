#!/usr/bin/env python3
"""Writes a large catalog built from the captured real servers' tools, for timing
`toolpact check` on text as people write it (the generated bench catalog repeats a few
sentences; real descriptions are long, varied and full of markup).

    python3 scripts/security/real_catalog.py 100000 > /tmp/real-100k.json
    target/release/toolpact check /tmp/real-100k.json --format json > /dev/null

The tools of fixtures/servers/*.json (2,182 in 75 servers) are taken in file and server
order, over and over, until the count is reached. Copy k of a tool (k = 0 for the first
pass) gets the name `NAME_k` so that every name is distinct, and from the second pass on
small edits to its texts, so that a description is seldom repeated word for word:

- the tool's description gets one sentence at its end ("Revision k.");
- one property description in three (by copy and position) gets the same sentence;
- the rest of the schema is unchanged: property names, types, enums and defaults repeat as
  they do across the tools of one real server.

The catalog is written as one `tools/list` result on standard output. It is deterministic:
the same fixtures give the same bytes.
"""

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def load_tools():
    tools = []
    for path in sorted((REPO / "fixtures" / "servers").glob("*.json")):
        tools.extend(json.loads(path.read_text(encoding="utf-8"))["tools"])
    return tools


def edit_properties(schema, k, counter):
    """Appends the revision sentence to one property description in three, in place."""
    if not isinstance(schema, dict):
        return
    props = schema.get("properties")
    if isinstance(props, dict):
        for prop in props.values():
            if isinstance(prop, dict):
                if isinstance(prop.get("description"), str):
                    counter[0] += 1
                    if (counter[0] + k) % 3 == 0:
                        prop["description"] += f" Revision {k}."
                edit_properties(prop, k, counter)
    items = schema.get("items")
    if isinstance(items, dict):
        edit_properties(items, k, counter)


def main():
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        sys.exit("usage: real_catalog.py COUNT")
    count = int(sys.argv[1])
    base = load_tools()
    if not base:
        sys.exit("no tools under fixtures/servers/")
    out = []
    for i in range(count):
        k, tool = divmod(i, len(base))
        tool = base[tool]
        copy = json.loads(json.dumps(tool))
        copy["name"] = f"{tool['name']}_{k}"
        if k > 0:
            if isinstance(copy.get("description"), str):
                copy["description"] = copy["description"].rstrip() + f" Revision {k}."
            edit_properties(copy.get("inputSchema"), k, [0])
        out.append(copy)
    json.dump({"tools": out}, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
