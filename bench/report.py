#!/usr/bin/env python3
"""Turns benchmark result records (JSON lines, see docs/bench.md) into a Markdown report.

    report.py [--out report.md] [--summary summary.json] [--plots DIR] [--check] FILE...

Every line of FILE that starts with '{' is a record; other lines are ignored. Records:
  {"type":"meta","bench":B,"baseline":S,"systems":[...],"metrics":{M:{...}},"targets":[...],...}
  {"type":"sample","bench":B,"case":C,"system":S,"round":R,"metric":M,"value":V}
  {"type":"note","bench":B,"text":"Markdown"}
  {"type":"env",...}   {"type":"error","bench":B,"text":...}
For each bench, metric and case: the median of each system's values, and the median over
rounds of the per-round ratio system / baseline (values of the same round only), with a
distribution-free 95% confidence interval of that median.
"""

import argparse
import json
import math
import os
import re
import statistics
import sys
from collections import OrderedDict, defaultdict


def load(paths):
    records, bad = [], 0
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if not line.startswith("{"):
                    continue
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError:
                    bad += 1
    return records, bad


def median_ci(values):
    """Median and a 95% confidence interval of it from order statistics (None when n < 6)."""
    xs = sorted(values)
    n = len(xs)
    med = statistics.median(xs)
    if n < 6:
        return med, None
    half = 1.96 * math.sqrt(n) / 2
    lo = max(0, int(math.floor(n / 2 - half)))
    hi = min(n - 1, int(math.ceil(n / 2 + half)) - 1)
    return med, (xs[lo], xs[hi])


def is_number(text):
    try:
        float(text)
        return True
    except (TypeError, ValueError):
        return False


def fmt_bytes(n):
    n = float(n)
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale and n % scale == 0:
            return f"{int(n // scale)} {unit}"
    return f"{int(n)} B" if n == int(n) else f"{n} B"


def fmt_value(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    a = abs(v)
    if a >= 1e5:
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def fmt_ratio(stat):
    if stat is None:
        return "–"
    text = f"{stat['ratio']:.3f}"
    if stat.get("ci"):
        lo, hi = stat["ci"]
        text += f" [{lo:.3f}, {hi:.3f}]"
    return text


class Bench:
    def __init__(self, name):
        self.name = name
        self.meta = {}
        self.notes = []
        self.errors = []
        # (metric, case, system) -> round -> [values]
        self.values = defaultdict(lambda: defaultdict(list))
        self.systems, self.metrics, self.cases = [], [], []

    def add_meta(self, m):
        # Several programs may report on one bench (GROUP): lists and maps are merged.
        for k, v in m.items():
            old = self.meta.get(k)
            if old is None:
                self.meta[k] = v
            elif isinstance(old, list) and isinstance(v, list):
                self.meta[k] = old + [x for x in v if x not in old]
            elif isinstance(old, dict) and isinstance(v, dict):
                self.meta[k] = {**v, **old}

    def add_sample(self, s):
        metric, case, system = s["metric"], str(s["case"]), s["system"]
        self.values[(metric, case, system)][s.get("round", 0)].append(float(s["value"]))
        for lst, item in ((self.systems, system), (self.metrics, metric), (self.cases, case)):
            if item not in lst:
                lst.append(item)

    def finish(self):
        order = self.meta.get("systems", [])
        self.systems = [s for s in order if s in self.systems] + \
            [s for s in self.systems if s not in order]
        morder = list(self.meta.get("metrics", {}).keys())
        self.metrics = [m for m in morder if m in self.metrics] + \
            [m for m in self.metrics if m not in morder]
        if all(is_number(c) for c in self.cases):
            self.cases.sort(key=float)
        base = self.meta.get("baseline")
        if base not in self.systems:
            base = "raw_c" if "raw_c" in self.systems else (self.systems[0] if self.systems else None)
        self.baseline = base
        if base:
            self.systems = [base] + [s for s in self.systems if s != base]

    def metric_info(self, metric):
        info = dict(self.meta.get("metrics", {}).get(metric, {}))
        info.setdefault("label", metric)
        info.setdefault("unit", "")
        info.setdefault("better", "lower")
        return info

    def case_label(self, case):
        if self.meta.get("case_format") == "bytes" and is_number(case):
            return fmt_bytes(case)
        return case

    def stat(self, metric, case, system, baseline=None):
        """Absolute median and per-round ratio statistics of one cell (None if no data); ratios
        against the bench's baseline, or against `baseline` (a target may name its own)."""
        baseline = baseline or self.baseline
        rounds = self.values.get((metric, case, system))
        if not rounds:
            return None
        per_round = {r: statistics.median(v) for r, v in rounds.items()}
        out = {"median": statistics.median(per_round.values()), "n": len(per_round)}
        base = self.values.get((metric, case, baseline))
        if base and system != baseline:
            base_round = {r: statistics.median(v) for r, v in base.items()}
            ratios = [per_round[r] / base_round[r] for r in per_round
                      if r in base_round and base_round[r] != 0]
            if ratios:
                med, ci = median_ci(ratios)
                out.update(ratio=med, ci=ci, rounds=len(ratios))
        return out


def analyse(records):
    benches = OrderedDict()
    env = {}
    for r in records:
        t = r.get("type")
        if t == "env":
            env.update(r)
            continue
        name = r.get("bench")
        if not name:
            continue
        b = benches.setdefault(name, Bench(name))
        if t == "meta":
            b.add_meta(r)
        elif t == "sample":
            try:
                b.add_sample(r)
            except (KeyError, TypeError, ValueError):
                pass
        elif t == "note":
            b.notes.append(r.get("text", ""))
        elif t == "error":
            b.errors.append(r.get("text", "failed"))
    for b in benches.values():
        b.finish()
    return benches, env


def targets_of(b):
    rows = []
    for t in b.meta.get("targets", []):
        if t["system"] not in b.systems:
            continue  # not measured in this run (e.g. left out with --systems)
        if t.get("baseline") and t["baseline"] not in b.systems:
            continue  # its own baseline was not measured in this run
        s = b.stat(t["metric"], str(t["case"]), t["system"], t.get("baseline"))
        ratio = s.get("ratio") if s else None
        verdict = "no data"
        if ratio is not None:
            if "max_ratio" in t:
                bound, ok = t["max_ratio"], ratio <= t["max_ratio"]
                sure = s.get("ci") and s["ci"][1] <= bound
                sure_not = s.get("ci") and s["ci"][0] > bound
            else:
                bound, ok = t["min_ratio"], ratio >= t["min_ratio"]
                sure = s.get("ci") and s["ci"][0] >= bound
                sure_not = s.get("ci") and s["ci"][1] < bound
            verdict = "met" if ok else "NOT met"
            if s.get("ci") and ((ok and not sure) or (not ok and not sure_not)):
                verdict += " (CI crosses the bound)"
        rows.append({"bench": b.name, "text": t.get("text", ""), "metric": t["metric"],
                     "case": str(t["case"]), "system": t["system"],
                     "baseline": t.get("baseline", b.baseline),
                     "bound": t.get("max_ratio", t.get("min_ratio")),
                     "kind": "max" if "max_ratio" in t else "min",
                     "stat": s, "verdict": verdict})
    return rows


def plot(b, metric, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    info = b.metric_info(metric)
    if not all(is_number(c) for c in b.cases) or len(b.cases) < 2:
        return False
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for index, system in enumerate(b.systems):
        color = colors[index % len(colors)]
        xs, ys, rx, ry, lo, hi = [], [], [], [], [], []
        for c in b.cases:
            s = b.stat(metric, c, system)
            if not s:
                continue
            xs.append(float(c))
            ys.append(s["median"])
            if "ratio" in s:
                rx.append(float(c))
                ry.append(s["ratio"])
                ci = s.get("ci") or (s["ratio"], s["ratio"])
                lo.append(s["ratio"] - ci[0])
                hi.append(ci[1] - s["ratio"])
        if xs:
            ax1.plot(xs, ys, marker="o", label=system, color=color)
        if rx:
            ax2.errorbar(rx, ry, yerr=[lo, hi], marker="o", capsize=3, label=system, color=color)
    # The targets of this metric on the ratio panel: bars at their bounds and, for a target
    # against another baseline (a peer such as Kryo), that ratio series dashed.
    series = OrderedDict()
    for t in b.meta.get("targets", []):
        if t["metric"] == metric and t["system"] in b.systems and is_number(str(t["case"])) \
                and t.get("baseline", b.baseline) in b.systems:
            series.setdefault((t["system"], t.get("baseline", b.baseline)), []).append(t)
    for index, ((system, base), ts) in enumerate(series.items()):
        color = colors[(len(b.systems) + index) % len(colors)]
        if base != b.baseline:
            rx, ry, lo, hi = [], [], [], []
            for c in b.cases:
                s = b.stat(metric, c, system, base)
                if s and "ratio" in s:
                    ci = s.get("ci") or (s["ratio"], s["ratio"])
                    rx.append(float(c))
                    ry.append(s["ratio"])
                    lo.append(s["ratio"] - ci[0])
                    hi.append(ci[1] - s["ratio"])
            if rx:
                ax2.errorbar(rx, ry, yerr=[lo, hi], marker="s", linestyle="--", capsize=3,
                             label=f"{system} / {base}", color=color)
        bounds = [(float(t["case"]), t.get("max_ratio", t.get("min_ratio"))) for t in ts]
        ax2.plot([x for x, _ in bounds], [y for _, y in bounds], linestyle="none", marker="_",
                 markersize=18, markeredgewidth=2, color=color,
                 label=f"target {system} / {base}")
    kind = info.get("plot", "loglog")
    ax1.set_xscale("log", base=2)
    ax2.set_xscale("log", base=2)
    if b.meta.get("case_format") == "bytes":
        ticks = []
        for t in (float(c) for c in b.cases):  # at least 8x apart, readable on a log axis
            if not ticks or t >= ticks[-1] * 8:
                ticks.append(t)
        for ax in (ax1, ax2):
            ax.set_xticks(ticks, [fmt_bytes(t) for t in ticks])
            ax.minorticks_off()
    if kind == "loglog":
        ax1.set_yscale("log")
    ax1.set_xlabel(b.meta.get("case_label", "case"))
    ax2.set_xlabel(b.meta.get("case_label", "case"))
    ax1.set_ylabel(f"{info['label']} ({info['unit']}), median")
    ax2.set_ylabel(f"ratio to {b.baseline} (median of per-round ratios, 95% CI)")
    ax2.axhline(1.0, color="black", linewidth=0.8)
    for ax in (ax1, ax2):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"{b.meta.get('title', b.name)}: {info['label']}")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


# Where a goal was set ("issue 28: ...", "... (issue 5)"): the report says it, a published page
# (docs/bench-results.md) does not, as it says what oompi measures today.
_LEADING_ISSUE = re.compile(r"^issues? [0-9]+(?:(?:,| and) [0-9]+)*(?: \(([^)]*)\))?: ")
_ISSUE_IN_PARENS = re.compile(r" ?\(issues? [0-9][^)]*\)")


def without_issues(text):
    m = _LEADING_ISSUE.match(text)
    if m:
        text = text[m.end():] + (f" ({m.group(1)})" if m.group(1) else "")
    return _ISSUE_IN_PARENS.sub("", text)


def target_text(t, published):
    """A target's text (without where it was set, on a published page)."""
    text = t["text"] or t["bench"] + " " + t["metric"] + " " + t["case"]
    return without_issues(text) if published else text


def render(benches, env, bad, out_path, plots_dir, title="oompi benchmark report",
           published=False):
    lines = [f"# {title}", ""]
    if published:
        for b in benches.values():
            if "title" in b.meta:
                b.meta["title"] = without_issues(b.meta["title"])
            if b.meta.get("notes"):
                b.meta["notes"] = [without_issues(n) for n in b.meta["notes"]]
            b.notes = [without_issues(n) for n in b.notes]
        lines += ["Written by `bench/run.sh --publish` from its report of a full run; what each "
                  "bench measures and how to run them: [bench.md](bench.md).", ""]
    if env:
        lines.append("| | |")
        lines.append("|---|---|")
        for key, label in (("date", "date"), ("host", "host"), ("cpu", "CPU"),
                           ("nproc", "cores"), ("load_start", "load average at start"),
                           ("load_end", "load average at end"), ("compiler", "compiler"),
                           ("build_type", "build type"), ("cxx_flags", "C++ flags"),
                           ("launcher", "launcher"), ("git", "source")):
            if env.get(key) not in (None, ""):
                lines.append(f"| {label} | {env[key]} |")
        mpis = {b.meta.get("mpi") for b in benches.values() if b.meta.get("mpi")}
        for m in sorted(mpis):
            lines.append(f"| MPI | {m} |")
        lines.append("")
    lines += [
        "Ratios are medians over rounds of per-round ratios (a system's value divided by the "
        "baseline's value measured in the same round of the same run), with a 95% confidence "
        "interval of the median in brackets. Absolute values are medians over rounds and vary "
        "with the machine's load; compare ratios, and never across runs.", ""]

    all_targets = [t for b in benches.values() for t in targets_of(b)]
    if all_targets:
        lines += ["## Targets", "", "| target | system | against | measured ratio [95% CI] | bound | verdict |",
                  "|---|---|---|---|---|---|"]
        for t in all_targets:
            bound = ("≤ " if t["kind"] == "max" else "≥ ") + f"{t['bound']}"
            lines.append(f"| {target_text(t, published)} "
                         f"| {t['system']} | {t['baseline']} | {fmt_ratio(t['stat'] if t['stat'] and 'ratio' in t['stat'] else None)} "
                         f"| {bound} | {t['verdict']} |")
        lines.append("")

    for b in benches.values():
        lines += [f"## {b.meta.get('title', b.name)} (`{b.name}`)", ""]
        for e in b.errors:
            lines += [f"**Failed:** {e}", ""]
        labels = b.meta.get("system_labels", {})
        if labels:
            for s in b.systems:
                if s in labels:
                    lines.append(f"- `{s}`: {labels[s]}")
            lines.append("")
        rounds = max((len(v) for v in b.values.values()), default=0)
        if rounds:
            lines += [f"Rounds: {rounds}. Baseline: `{b.baseline}`.", ""]
        for metric in b.metrics:
            info = b.metric_info(metric)
            unit = f" ({info['unit']})" if info["unit"] else ""
            lines += [f"### {info['label']}{unit}, {info['better']} is better", ""]
            head = [b.meta.get("case_label", "case"), f"{b.baseline}"]
            for s in b.systems:
                if s != b.baseline:
                    head += [s, f"{s} / {b.baseline}"]
            lines.append("| " + " | ".join(head) + " |")
            lines.append("|" + "---|" * len(head))
            for c in b.cases:
                row = [b.case_label(c)]
                base = b.stat(metric, c, b.baseline)
                row.append(fmt_value(base["median"]) if base else "–")
                any_data = base is not None
                for s in b.systems:
                    if s == b.baseline:
                        continue
                    st = b.stat(metric, c, s)
                    any_data |= st is not None
                    row += [fmt_value(st["median"]) if st else "–",
                            fmt_ratio(st) if st and "ratio" in st else "–"]
                if any_data:
                    lines.append("| " + " | ".join(row) + " |")
            lines.append("")
            if plots_dir and info.get("plot"):
                png = f"{b.name}_{metric}.png"
                if plot(b, metric, os.path.join(plots_dir, png)):
                    rel = os.path.relpath(os.path.join(plots_dir, png), os.path.dirname(out_path))
                    lines += [f"![{b.name} {metric}]({rel})", ""]
        for n in b.meta.get("notes", []):
            lines.append(f"- {n}")
        if b.meta.get("notes"):
            lines.append("")
        for n in b.notes:
            lines += [n, ""]
    if bad:
        lines += [f"({bad} malformed record lines were ignored.)", ""]
    return "\n".join(lines) + "\n", all_targets


def summary_of(benches, targets, env):
    out = {"env": env, "benches": {}, "targets": []}
    for b in benches.values():
        bm = out["benches"][b.name] = {"baseline": b.baseline, "metrics": {}}
        for metric in b.metrics:
            mm = bm["metrics"][metric] = {}
            for c in b.cases:
                for s in b.systems:
                    st = b.stat(metric, c, s)
                    if st:
                        mm.setdefault(c, {})[s] = st
    for t in targets:
        out["targets"].append({k: t[k] for k in ("bench", "text", "metric", "case", "system",
                                                 "bound", "kind", "verdict")} |
                              {"ratio": (t["stat"] or {}).get("ratio"),
                               "ci": (t["stat"] or {}).get("ci")})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", default="report.md")
    ap.add_argument("--summary", help="also write the computed figures as JSON")
    ap.add_argument("--plots", help="directory for PNG plots (needs matplotlib)")
    ap.add_argument("--title", default="oompi benchmark report", help="the page's heading")
    ap.add_argument("--published", action="store_true",
                    help="the results page of docs/ (no issue numbers in target texts)")
    ap.add_argument("--check", action="store_true",
                    help="only check that the files hold samples; exit 1 if not")
    args = ap.parse_args()
    records, bad = load(args.files)
    benches, env = analyse(records)
    if args.check:
        n = sum(1 for r in records if r.get("type") == "sample")
        print(f"{n} samples in {len(benches)} benches, {bad} malformed lines")
        return 0 if n and not bad else 1
    if args.plots:
        os.makedirs(args.plots, exist_ok=True)
    text, targets = render(benches, env, bad, args.out, args.plots, args.title, args.published)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    if args.summary:
        with open(args.summary, "w", encoding="utf-8") as f:
            json.dump(summary_of(benches, targets, env), f, indent=1)
    for t in targets:
        st = t["stat"] or {}
        print(f"  {t['bench']}: {t['system']} {t['metric']} {t['case']}: "
              f"{fmt_ratio(st if 'ratio' in st else None)} -> {t['verdict']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
