"""Keeps in each Thresholds/*.p90.json only the metrics `make bench-check` holds a run to.

package-benchmark's `thresholds update` writes the 90th percentile of every metric a benchmark
has. Absolute times, throughput and peak memory move with the machine and its load (a fresh
clone on another machine must pass), and perf's instruction counter exists on some machines
only: those are left out. What stays is counted (mallocs, callgrind's instructions, trace bytes
and records) or a ratio measured in one run (time against OpenCombine, traced against untraced),
each with the tolerance its benchmark gives it in Core/Core.swift.
"""

import json
import pathlib
import sys

MACHINE_BOUND = {
    "wallClock", "cpuUser", "cpuSystem", "cpuTotal", "throughput", "instructions",
    "peakMemoryResident", "peakMemoryResidentDelta", "peakMemoryVirtual",
}

folder = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Thresholds")
for path in sorted(folder.glob("*.p90.json")):
    kept = {k: v for k, v in json.loads(path.read_text()).items() if k not in MACHINE_BOUND}
    if kept:
        path.write_text(json.dumps(kept, indent=2, sort_keys=True) + "\n")
        print(f"{path.name}: {', '.join(f'{k} {v}' for k, v in sorted(kept.items()))}")
    else:
        path.unlink()
