#!/usr/bin/env python3
"""load_counts.py START END GEN_OUT CLK_TCK: what load.sh's window counters (load_window.sh) say per
accepted action over the generator's measured window: the node's CPU, PostgreSQL's transactions, rows,
WAL and CPU, Redis's commands and CPU; and the archive's size per match. Prints text, then one JSON line."""
import json
import re
import sys


def read(path):
    d = {"cmd": {}}
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "cmd":
                d["cmd"][w[1]] = int(w[2])
            elif w[0] == "pg":
                d["xid"], d["wal"], d["commits"], d["ins"], d["upd"], d["del"] = map(int, w[1:7])
            elif w[0] == "archive":
                d["archive"] = list(map(int, w[1:5]))
            else:
                d[w[0]] = float(w[1])
    return d


def main():
    a, b = read(sys.argv[1]), read(sys.argv[2])
    hz = float(sys.argv[4])
    gen = open(sys.argv[3]).read()
    m_win = re.search(r"^window: ([0-9.]+) s", gen, re.M)
    m_act = re.search(r"^accepted actions/s: ([0-9.]+)", gen, re.M)
    secs = float(m_win.group(1)) if m_win else b["t"] - a["t"]
    acts = float(m_act.group(1)) * secs if m_act else 0.0
    out = {"window_s": round(secs, 3), "hook_window_s": round(b["t"] - a["t"], 3), "actions": round(acts)}

    def per(x, scale=1.0):  # per action, else per second when nothing was played (idle runs)
        return x * scale / acts if acts else x * scale / secs

    unit = "an action" if acts else "a second"
    print(f"window counters over {out['hook_window_s']} s ({out['actions']} actions); per {unit}:")
    node_s = (b["node_ticks"] - a["node_ticks"]) / hz
    out["node_cpu_us"] = round(per(node_s, 1e6), 2)
    print(f"  node CPU, all threads: {out['node_cpu_us']} us ({100 * node_s / secs:.1f}% of a core)")
    if "xid" in a and "xid" in b:
        xids = b["xid"] - a["xid"] - 1  # the end sample's own xid
        rows = (b["ins"] - a["ins"]) + (b["upd"] - a["upd"]) + (b["del"] - a["del"])
        pg_s = (b["pg_ticks"] - a["pg_ticks"]) / hz
        out.update(pg_write_xacts=xids, pg_xacts_per_action=round(per(xids), 5),
                   pg_xact_commit=b["commits"] - a["commits"], pg_rows_per_action=round(per(rows), 3),
                   pg_inserted=b["ins"] - a["ins"], pg_updated=b["upd"] - a["upd"],
                   pg_deleted=b["del"] - a["del"], pg_wal_bytes=b["wal"] - a["wal"],
                   pg_wal_bytes_per_action=round(per(b["wal"] - a["wal"]), 1),
                   pg_cpu_us=round(per(pg_s, 1e6), 2), pg_cpu_pct=round(100 * pg_s / secs, 1))
        print(f"  PostgreSQL write transactions (xids): {xids} ({xids / secs:.0f}/s), {out['pg_xacts_per_action']}"
              f" per {unit} (1 in {acts / xids if xids else 0:.0f}); xact_commit {out['pg_xact_commit']}")
        print(f"  PostgreSQL rows: {out['pg_inserted']} inserted, {out['pg_updated']} updated, "
              f"{out['pg_deleted']} deleted: {out['pg_rows_per_action']} per {unit} ({rows / secs:.0f}/s)")
        print(f"  PostgreSQL WAL: {out['pg_wal_bytes']} bytes, {out['pg_wal_bytes_per_action']} per {unit} "
              f"({out['pg_wal_bytes'] / secs / 1e6:.2f} MB/s)")
        print(f"  PostgreSQL CPU (postmaster and its processes): {out['pg_cpu_us']} us "
              f"({out['pg_cpu_pct']}% of a core)")
    if "redis_ticks" in a and "redis_ticks" in b:
        cmds = {k: b["cmd"].get(k, 0) - a["cmd"].get(k, 0) for k in b["cmd"]}
        # the start sample's own INFO commandstats, INFO, HLEN and STRLEN
        for k, n in (("info", 2), ("hlen", 1), ("strlen", 1)):
            cmds[k] = cmds.get(k, 0) - n
        cmds = {k: v for k, v in cmds.items() if v}
        total = sum(cmds.values())
        r_s = (b["redis_ticks"] - a["redis_ticks"]) / hz
        out.update(redis_commands=total, redis_per_action=round(per(total), 5), redis_by_command=cmds,
                   redis_cpu_us=round(per(r_s, 1e6), 2))
        print(f"  Redis commands: {total} ({total / secs:.1f}/s), {out['redis_per_action']} per {unit}: "
              + ", ".join(f"{k} {v}" for k, v in sorted(cmds.items(), key=lambda kv: -kv[1])))
        print(f"  Redis CPU: {out['redis_cpu_us']} us ({100 * r_s / secs:.1f}% of a core)")
        if "redis_mem" in b:
            sent = b["redis_out"] - a["redis_out"]
            out.update(redis_used_memory=int(b["redis_mem"]), redis_rooms=int(b["redis_rooms"]),
                       redis_summary_bytes=int(b["redis_summary"]), redis_out_bytes_per_s=round(sent / secs))
            print(f"  Redis at the end: used_memory {out['redis_used_memory']} bytes, {out['redis_rooms']} rooms in "
                  f"the directory, node n1's summary {out['redis_summary_bytes']} bytes; sent "
                  f"{out['redis_out_bytes_per_s']} bytes/s (replies and pub/sub deliveries)")
    if "archive" in b:
        n, acts_a, ev, size = b["archive"]
        out.update(archive_matches=n, archive_bytes=size,
                   archive_bytes_per_match=round(size / n) if n else None,
                   archive_actions_per_match=round(acts_a / n, 1) if n else None)
        print(f"  archive after the run: {n} matches, {acts_a} actions, {ev} events, {size} bytes "
              f"(pg_total_relation_size of the four tables): "
              + (f"{size / n:.0f} bytes a match, {acts_a / n:.1f} actions a match" if n else "no match"))
    print("counts " + json.dumps(out, sort_keys=True))


main()
