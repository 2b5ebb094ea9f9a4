#!/usr/bin/env python3
"""Function-gold coverage: can Grit name every gold function?

For each instance of a bench file (dev_poly.jsonl, dev.jsonl), each name in
gold_entities_locagent ("path:Scope.Name", or "path::Class.method") is looked
up among the names `grit symbols --json` gives for that file at base_commit,
named the way `grit bench locate` names a hit (outermost function; its scope
the last part of its parent). Prints coverage per repository.

usage: gold_names.py GRIT DATA.jsonl MIRRORS WORKDIR [--misses] [--old]
(--old: name hits as the bench did before issue 28)
"""
import json, os, subprocess, sys
from collections import defaultdict

def old_entity_names(defs):
    """Names as the bench named a hit before issue 28 (for before/after)."""
    by_q = {}
    for d in defs:
        by_q.setdefault(d["qname"], d)
    fn = ("function", "method")
    out = set()
    for d in defs:
        chain, cur = [d], d
        while cur.get("parent") and cur["parent"] in by_q and len(chain) <= 32:
            cur = by_q[cur["parent"]]
            chain.append(cur)
        outer = max([i for i, c in enumerate(chain) if c["kind"] in fn], default=-1)
        if outer < 0:
            continue
        name = chain[outer]["name"]
        for i in range(outer + 1):
            c = chain[i]
            if c["kind"] in fn and i + 1 < len(chain) and chain[i + 1]["kind"] == "class":
                if not any(x["kind"] in fn for x in chain[i + 1:]):
                    name = chain[i + 1]["name"] + "." + c["name"]
                    break
        out.add(name)
    return out

def entity_names(defs):
    """The bench's name for every function or method of one file."""
    by_q = {}
    for d in defs:
        by_q.setdefault(d["qname"], d)
    out = set()
    for d in defs:
        if d["kind"] not in ("function", "method"):
            continue
        outer, cur, n = d, d, 0
        while cur.get("parent") and cur["parent"] in by_q and n < 32:
            cur = by_q[cur["parent"]]
            n += 1
            if cur["kind"] in ("function", "method"):
                outer = cur
        par = outer.get("parent", "")
        out.add(par.split(".")[-1] + "." + outer["name"] if par else outer["name"])
    return out

def main():
    grit, data, mirrors, work = sys.argv[1:5]
    show_misses = "--misses" in sys.argv
    names = old_entity_names if "--old" in sys.argv else entity_names
    recs = [json.loads(l) for l in open(data)]
    have, total = defaultdict(int), defaultdict(int)
    cache = {}
    for r in recs:
        mirror = os.path.join(mirrors, r["repo"].replace("/", "+"), "repo")
        root = os.path.join(work, r["repo"].replace("/", "+"), r["base_commit"])
        for g in r["gold_entities_locagent"]:
            g = g.replace("::", ":")
            path, name = g.split(":", 1)
            key = (root, path)
            if key not in cache:
                dst = os.path.join(root, path)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                os.makedirs(os.path.join(root, ".git"), exist_ok=True)
                src = subprocess.run(["git", "--git-dir=" + mirror, "show", r["base_commit"] + ":" + path],
                                     capture_output=True, check=True).stdout
                with open(dst, "wb") as f:
                    f.write(src)
                out = subprocess.run([grit, "symbols", "--json", dst], capture_output=True, text=True)
                cache[key] = names(json.loads(out.stdout or "[]"))
            total[r["repo"]] += 1
            if name in cache[key]:
                have[r["repo"]] += 1
            elif show_misses:
                print("miss", r["instance_id"], g, file=sys.stderr)
    h = t = 0
    for repo in sorted(total):
        print(f"{repo:28s} {have[repo]:4d}/{total[repo]:<4d} {100*have[repo]/total[repo]:6.1f}%")
        h, t = h + have[repo], t + total[repo]
    print(f"{'all':28s} {h:4d}/{t:<4d} {100*h/t:6.1f}%")

main()
