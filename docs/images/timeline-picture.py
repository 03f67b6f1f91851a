#!/usr/bin/env python3
"""Draws a timeline written by `rxtrace convert TRACE --to perfetto` as an SVG, offline.

Not Perfetto's UI: a plain drawing of the same file (thread tracks with their deliveries,
hop arrows between threads, one bar per subscription span), for docs/rxtrace.md where
ui.perfetto.dev cannot be reached. Usage: timeline-picture.py run.json > run.svg
"""
import json
import sys
from html import escape

events = json.load(open(sys.argv[1]))["traceEvents"]
threads = {e["tid"]: e["args"]["name"] for e in events if e.get("name") == "thread_name"}
slices = [e for e in events if e["ph"] == "X"]
begins = {e["id"]: e for e in events if e["ph"] == "b"}
ends = {e["id"]: e for e in events if e["ph"] == "e"}
flows = {}
for e in events:
    if e["ph"] in "sf":
        flows.setdefault(e["id"], {})[e["ph"]] = e

times = [e["ts"] for e in slices] + [e["ts"] for e in begins.values()] + [e["ts"] for e in ends.values()]
t0, t1 = min(times), max(times)
left, width, char = 300, 1500, 6.2
def x(ts):
    return left + (ts - t0) / (t1 - t0 or 1) * (width - left - 280)

out, y = [], 40
out.append(f'<text x="10" y="22" font-weight="bold">Timeline of {escape(sys.argv[1].split("/")[-1])}: '
           f'{len(slices)} deliveries, {len(flows)} hops, {len(begins)} subscription spans; '
           f'{(t1 - t0) / 1000:.1f} ms from left to right</text>')
rows = {}
for tid in sorted(threads):
    mine = sorted((e for e in slices if e["tid"] == tid), key=lambda e: (e["ts"], e["args"]["seq"]))
    out.append(f'<text x="10" y="{y + 16}" font-weight="bold">{escape(threads[tid])}</text>')
    out.append(f'<line x1="{left}" y1="{y + 12}" x2="{width - 20}" y2="{y + 12}" stroke="#999"/>')
    rows[tid] = y + 12
    lanes = []  # right edge of the last label in each lane
    for e in mine:
        px = x(e["ts"])
        args = e["args"]
        label = f'{e["name"].split(" ")[0]} {args["kind"]}' + (f'({args["value"]})' if "value" in args else "")
        lane = next((i for i, edge in enumerate(lanes) if edge < px), len(lanes))
        if lane == len(lanes):
            lanes.append(0)
        lanes[lane] = px + len(label) * char + 8
        ly = y + 34 + lane * 15
        colour = {"next": "#1a7f37", "completed": "#555", "error": "#c00"}[args["kind"]]
        out.append(f'<rect x="{px - 2:.1f}" y="{y + 6}" width="4" height="12" fill="{colour}"/>')
        out.append(f'<line x1="{px:.1f}" y1="{y + 18}" x2="{px:.1f}" y2="{ly - 4}" stroke="{colour}" stroke-width="0.5"/>')
        out.append(f'<text x="{px + 2:.1f}" y="{ly}" font-size="11" fill="{colour}">{escape(label)}</text>')
    y += 40 + len(lanes) * 15 + 10
for flow in flows.values():
    s, f = flow["s"], flow["f"]
    out.append(f'<path d="M{x(s["ts"]):.1f},{rows[s["tid"]]} L{x(f["ts"]):.1f},{rows[f["tid"]]}" stroke="#d9480f" '
               f'stroke-width="1.5" fill="none" marker-end="url(#arrow)"/>')
y += 10
out.append(f'<text x="10" y="{y}" font-weight="bold">subscriptions (spans: birth to end)</text>')
y += 10
for id, b in sorted(begins.items(), key=lambda item: (item[1]["ts"], item[0])):
    e = ends[id]
    out.append(f'<text x="10" y="{y + 10}" font-size="11">{escape(b["name"])} #{id}</text>')
    out.append(f'<rect x="{x(b["ts"]):.1f}" y="{y + 1}" width="{max(2, x(e["ts"]) - x(b["ts"])):.1f}" height="11" '
               f'fill="#4c6ef5" opacity="0.7"/>')
    y += 15
print(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + 20}" font-family="sans-serif" '
      f'font-size="13"><defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
      f'markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#d9480f"/></marker></defs>'
      f'<rect width="100%" height="100%" fill="white"/>' + "\n".join(out) + "</svg>")
