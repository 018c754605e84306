#!/usr/bin/env python3
"""Side by side: cisco-ai-mcp-scanner's offline YARA analyzer (and, with --toolpact, toolpact's
TP501-TP512) on the security corpus and the captured real servers.

Started by scripts/security/cisco.sh, which installs the scanner. Prints, per scanner, recall
per poisoned class and false positives per look-alike kind (tuning and held-out parts apart,
as fixtures/security/baseline.py does), then the share of real servers' tools flagged.

A tool counts as flagged by the scanner when its YARA analyzer reports any finding on the
tool (description or parameters); by toolpact when TP501-TP512 report a finding of at least
--min-severity (warning by default: the false-positive measure of docs/security.md).
"""
import argparse, collections, glob, json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "fixtures", "security"))
import baseline  # noqa: E402  (fixtures/security/baseline.py: the corpus loader and rule list)


def write_catalog(path, tools):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"tools": tools}, f, ensure_ascii=False, indent=1)


def cisco(scanner, path, count):
    """One entry per tool, in order: the YARA threat names (empty when clean)."""
    proc = subprocess.run([scanner, "--analyzers", "yara", "--format", "raw", "static", "--tools", path],
                          capture_output=True, text=True, env=dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True"))
    if proc.returncode != 0:
        sys.exit(f"mcp-scanner failed on {path}: {proc.stderr[-2000:]}")
    results = json.loads(proc.stdout[proc.stdout.index("{"):])["scan_results"]
    if len(results) != count:
        sys.exit(f"mcp-scanner returned {len(results)} results for {count} tools in {path}")
    out = []
    for r in results:
        if r.get("status") not in ("completed",):
            sys.exit(f"mcp-scanner did not complete {r.get('tool_name')} in {path}: {r.get('status')}")
        y = r.get("findings", {}).get("yara_analyzer", {})
        out.append(y.get("threat_names", []) if y.get("total_findings", 0) else [])
    return out


def toolpact(binary, path, tools, min_sev):
    """One entry per tool, in order: the TP5xx codes of findings of at least min_sev."""
    proc = subprocess.run([binary, "check", path, "--format", "json", "--select", baseline.RULES,
                           "--fail-on", "never"], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"toolpact failed on {path}: {proc.stderr}")
    by_name = collections.defaultdict(list)
    for f in json.loads(proc.stdout)["findings"]:
        if baseline.RANK.get(f["severity"], 0) >= min_sev:
            by_name[f.get("tool")].append(f["code"])
    return [by_name.get(t["name"], []) for t in tools]


def corpus_tables(name, fixtures, flagged, parts):
    print(f"\n### {name}\n")
    for label, what in (("poisoned", "recall"), ("benign", "flagged (false positives)")):
        print(f"{label}: {what}")
        heads = {"tuning": "tuning", "heldout": "held-out"}
        print(f"| {'class' if label == 'poisoned' else 'kind'} | " + " | ".join(heads[p] for p in parts) + " | what fired |")
        print("|---|" + "---|" * len(parts) + "---|")
        groups = sorted({fx["_group"] for fx in fixtures if fx["label"] == label})
        for g in groups + [None]:
            members = [fx for fx in fixtures if fx["label"] == label and (g is None or fx["_group"] == g)]
            cells = []
            for part in parts:
                m = [fx for fx in members if fx["_part"] == part]
                c = sum(bool(flagged[fx["id"]]) for fx in m)
                cells.append(f"{c}/{len(m)}" + (f" ({100 * c / len(m):.0f} %)" if m else ""))
            fired = collections.Counter(x for fx in members if fx["_part"] in parts for x in flagged[fx["id"]])
            print(f"| {g if g is not None else '**all**'} | " + " | ".join(cells) + " | "
                  + ", ".join(f"{k}×{v}" for k, v in sorted(fired.items())) + " |")
        print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scanner", required=True, help="the mcp-scanner executable")
    ap.add_argument("--toolpact", help="also run this toolpact binary")
    ap.add_argument("--part", choices=["tuning", "heldout", "both"], default="both")
    ap.add_argument("--min-severity", choices=list(baseline.RANK), default="warning",
                    help="toolpact findings counted (default warning)")
    ap.add_argument("--out", default="/tmp/toolpact-security-cisco")
    args = ap.parse_args()
    parts = ["tuning", "heldout"] if args.part == "both" else [args.part]
    os.makedirs(args.out, exist_ok=True)
    fixtures = [fx for fx in baseline.load() if fx["_part"] in parts]

    # One catalog per label, as baseline.py writes them (duplicate names get the id appended).
    catalogs = {}
    for label in ("poisoned", "benign"):
        members = [fx for fx in fixtures if fx["label"] == label]
        counts = collections.Counter(fx["tool"]["name"] for fx in members)
        tools = []
        for fx in members:
            tool = dict(fx["tool"])
            if counts[tool["name"]] > 1:
                tool["name"] = tool["name"] + "_" + fx["id"].replace("-", "_")
            tools.append(tool)
        path = os.path.join(args.out, label + ".json")
        write_catalog(path, tools)
        catalogs[label] = (path, members, tools)

    # Real servers: one merged file for the scanner (it starts slowly), one check per server
    # file for toolpact (rules that look at the catalog see each server's own).
    servers = sorted(glob.glob(os.path.join(ROOT, "fixtures", "servers", "*.json")))
    real = []
    for path in servers:
        with open(path, encoding="utf-8") as f:
            real.append((path, json.load(f)["tools"]))
    merged = os.path.join(args.out, "servers.json")
    write_catalog(merged, [t for _, tools in real for t in tools])
    n_real = sum(len(tools) for _, tools in real)

    scanners = [("cisco-ai-mcp-scanner, YARA analyzer (any finding)", "cisco")]
    if args.toolpact:
        scanners.append((f"toolpact TP501-TP512 (findings of severity ≥ {args.min_severity})", "toolpact"))
    summary = []
    for title, which in scanners:
        flagged = {}
        for label, (path, members, tools) in catalogs.items():
            res = cisco(args.scanner, path, len(tools)) if which == "cisco" else \
                toolpact(args.toolpact, path, tools, baseline.RANK[args.min_severity])
            for fx, r in zip(members, res):
                flagged[fx["id"]] = r
        corpus_tables(title, fixtures, flagged, parts)
        if which == "cisco":
            res = cisco(args.scanner, merged, n_real)
        else:
            res = []
            for path, tools in real:
                res += toolpact(args.toolpact, path, tools, baseline.RANK[args.min_severity])
        hit = sum(bool(r) for r in res)
        fired = collections.Counter(x for r in res for x in set(r))
        print(f"real servers: {hit}/{n_real} tools flagged ({100 * hit / n_real:.2f} %) in {len(real)} servers; "
              + ", ".join(f"{k}×{v}" for k, v in sorted(fired.items())))
        poisoned = [fx for fx in fixtures if fx["label"] == "poisoned"]
        benign = [fx for fx in fixtures if fx["label"] == "benign"]
        summary.append((title, sum(bool(flagged[fx["id"]]) for fx in poisoned), len(poisoned),
                        sum(bool(flagged[fx["id"]]) for fx in benign), len(benign), hit, n_real))
    print("\n### summary\n")
    print("| scanner | poisoned caught | look-alikes flagged | real tools flagged |")
    print("|---|---|---|---|")
    for title, p, np_, b, nb, h, nr in summary:
        print(f"| {title} | {p}/{np_} ({100 * p / np_:.0f} %) | {b}/{nb} ({100 * b / nb:.0f} %) | {h}/{nr} ({100 * h / nr:.2f} %) |")


if __name__ == "__main__":
    main()
