#!/usr/bin/env python3
"""Compare `geonews resolve`'s country_iso2 with each gazetteer's own country code.

Reads OUT/expected.csv (positions.py) and OUT/resolved.csv (`geonews resolve` over
OUT/positions.csv), and prints per dataset: rows, agreement (country_iso2 equal to the
dataset's code), rows with no country, rows with a country of another code, and the
differences by kind:
- no country, on OpenStreetMap's land / at sea (by `.build-data/osm-land.wkb`, with the
  great-circle km to the nearest OSM land, measured as Scripts/osm_land_fixtures.py measures);
- in a country without an ISO code (the catalogue's six, such as PGA the Spratly Islands,
  which `resolve` writes as an empty country_iso2; told apart with `geonews locate --json`);
- another country, by pair (expected → got), the pairs where the catalogue (its
  `countries.json`, sovereignIso2) makes one the other's sovereign named apart, and every
  difference by the dataset's country.
Codes the dataset uses and the catalogue does not carry (`geonews countries --json`) are listed
with what was answered for them; nothing is left out of the agreement.

Every difference goes to OUT/differences.csv: dataset, id, name, lat, lon, expected, got, kind,
osm_land, osm_km (the last two only for rows with no country).

Usage: python Benchmarks/gazetteer/compare.py --out DIR --geonews BIN [--data DIR] [--land WKB]
"""
from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LISTED = 60        # rows printed per kind; the file has them all
NEAR_LAND_KM = 100.0


def geonews(binary: str, data: str | None, *args: str) -> str:
    cmd = [binary, *args] + (["--data", data] if data else [])
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def osm_land(land_path: Path, lon: list[float], lat: list[float]) -> tuple[list[bool], list[float]]:
    """On OSM land, and km to the nearest OSM land (inf beyond NEAR_LAND_KM), for each point."""
    sys.path.insert(0, str(REPO / "Scripts"))
    import numpy as np
    from osm_land_fixtures import Land

    started = time.monotonic()
    land = Land(land_path.read_bytes())
    x, y = np.array(lon), np.array(lat)
    on = land.on_land(x, y)
    km, _ = land.nearest(x, y, NEAR_LAND_KM)
    km[on] = 0.0
    print(f"   {len(lon)} rows with no country placed on OSM land in {time.monotonic() - started:.1f} s",
          file=sys.stderr)
    return on.tolist(), km.tolist()


def most_common(counter: Counter) -> list:
    """Counts, largest first, ties in the order of their keys (so that runs compare line by line)."""
    return sorted(counter.items(), key=lambda item: (-item[1], item[0]))


def difference(dataset: str, expected: dict, resolved: dict, uncoded: str | None,
               land: tuple[bool, float] | None) -> dict:
    """A row of differences.csv: what the dataset says, what was answered, and the kind."""
    if uncoded:
        kind, got = f"in a country without an ISO code ({uncoded})", uncoded
    elif not resolved["country_iso2"]:
        kind, got = ("no country, on OSM land" if land[0] else "no country, at sea (OSM)"), ""
    else:
        kind, got = "another country", resolved["country_iso2"]
    on, km = land if land else (None, None)
    return {"dataset": dataset, "id": expected["id"], "name": expected["name"],
            "lat": resolved["lat"], "lon": resolved["lon"], "expected": expected["country"],
            "got": got, "kind": kind, "osm_land": "" if on is None else ("yes" if on else "no"),
            "osm_km": "" if km is None or km == float("inf") else f"{km:.3f}"}


def land_note(d: dict) -> str:
    if d["osm_land"] == "yes":
        return "  on OSM land"
    if d["osm_land"] == "no":
        far = f"{float(d['osm_km']):.1f}" if d["osm_km"] else f"> {NEAR_LAND_KM:.0f}"
        return f"  {far} km from OSM land"
    return ""


def print_pairs(found: list[dict], sovereign: dict[str, str | None]) -> None:
    pairs = most_common(Counter((d["expected"], d["got"]) for d in found))
    print("   expected → got: " + ", ".join(f"{a}→{b} {n}" for (a, b), n in pairs))
    related = [(a, b, n) for (a, b), n in pairs if sovereign.get(b) == a or sovereign.get(a) == b]
    if related:
        print("   of these, pairs where the catalogue makes one the other's sovereign (Natural "
              "Earth's SOVEREIGNT; a dataset may file a territory under its sovereign): "
              + ", ".join(f"{a}→{b} {n}" for a, b, n in related)
              + f"; {sum(n for _, _, n in related)} rows")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--geonews", required=True, help="the geonews binary that resolved the rows")
    parser.add_argument("--data", default=None, help="its --data directory, if one was given")
    parser.add_argument("--land", type=Path, default=REPO / ".build-data" / "osm-land.wkb")
    args = parser.parse_args()

    with (args.out / "expected.csv").open(encoding="utf-8") as f:
        expected = list(csv.DictReader(f))
    with (args.out / "resolved.csv").open(encoding="utf-8") as f:
        resolved = list(csv.DictReader(f))
    if len(expected) != len(resolved) or any(e["id"] != r["id"] for e, r in zip(expected, resolved)):
        print("compare: resolved.csv does not hold the rows of expected.csv in order", file=sys.stderr)
        return 1
    errors = [r for r in resolved if r["error"]]
    if errors:
        print(f"compare: {len(errors)} rows have an error, the first: {errors[0]}", file=sys.stderr)
        return 1
    listed = json.loads(geonews(args.geonews, args.data, "countries", "--json"))
    catalogue = {c["iso2"] for c in listed if c.get("iso2")}
    data_dir = Path(args.data) if args.data else REPO / "Data"
    sovereign = {c["iso2"]: c["sovereignIso2"] for c in
                 json.loads((data_dir / "countries.json").read_text("utf-8"))["countries"] if c["iso2"]}

    # Rows with an empty country_iso2: no country at all, or a country without an ISO code.
    empty = [i for i, r in enumerate(resolved) if not r["country_iso2"]]
    uncoded: dict[int, str] = {}
    for i in empty:
        answer = json.loads(geonews(args.geonews, args.data, "locate", "--lat", resolved[i]["lat"],
                                    "--lon", resolved[i]["lon"], "--json", "--no-headlines"))
        if answer["country"]:
            uncoded[i] = answer["country"]["id"]
    null = [i for i in empty if i not in uncoded]
    on_land, land_km = osm_land(args.land, [float(resolved[i]["lon"]) for i in null],
                                [float(resolved[i]["lat"]) for i in null]) if null else ([], [])
    land_of = {i: (on, km) for i, on, km in zip(null, on_land, land_km)}

    rows_by_dataset: dict[str, list[int]] = defaultdict(list)
    for i, e in enumerate(expected):
        rows_by_dataset[e["dataset"]].append(i)
    differences = []
    print(f"{'dataset':<12} {'rows':>8} {'agree':>8} {'agree %':>8} {'no country':>11} "
          f"{'no ISO code':>12} {'other country':>14}")
    for dataset, rows in rows_by_dataset.items():
        found = [difference(dataset, expected[i], resolved[i], uncoded.get(i), land_of.get(i))
                 for i in rows if resolved[i]["country_iso2"] != expected[i]["country"]]
        no_country = sum(d["kind"].startswith("no country") for d in found)
        no_code = sum(d["kind"].startswith("in a country without") for d in found)
        other = sum(d["kind"] == "another country" for d in found)
        agree = len(rows) - len(found)
        print(f"{dataset:<12} {len(rows):>8} {agree:>8} {100 * agree / len(rows):>8.3f} "
              f"{no_country:>11} {no_code:>12} {other:>14}")
        differences.append((dataset, rows, found))

    for dataset, rows, found in differences:
        print(f"\n== {dataset}: differences by kind")
        kinds: dict[str, list[dict]] = defaultdict(list)
        for d in found:
            kinds[d["kind"]].append(d)
        for kind in sorted(kinds, key=lambda k: (-len(kinds[k]), k)):
            print(f"-- {kind}: {len(kinds[kind])}")
            if kind == "another country":
                print_pairs(kinds[kind], sovereign)
            listed = sorted(kinds[kind], key=lambda d: (d["expected"], d["id"]))
            for d in listed[:LISTED]:
                print(f"   {d['id']:<22} {d['name'][:40]:<40} {float(d['lat']):>10.5f} "
                      f"{float(d['lon']):>11.5f} {d['expected']}→{d['got'] or '-'}{land_note(d)}")
            if len(listed) > LISTED:
                print(f"   … {len(listed) - LISTED} more in differences.csv")
        by_country = Counter(d["expected"] for d in found)
        print("-- differences by the dataset's country: "
              + ", ".join(f"{c} {n}" for c, n in most_common(by_country)))
        missing = sorted({expected[i]["country"] for i in rows} - catalogue)
        if missing:
            answers = {c: Counter(resolved[i]["country_iso2"] or "-" for i in rows
                                  if expected[i]["country"] == c) for c in missing}
            print("-- codes the catalogue does not carry (answers counted as they are): " + ", ".join(
                f"{c} ({sum(answers[c].values())} rows: "
                + ", ".join(f"{g} {n}" for g, n in most_common(answers[c])) + ")" for c in missing))
    every = [d for _, _, found in differences for d in found]
    with (args.out / "differences.csv").open("w", newline="", encoding="utf-8") as f:
        fields = ["dataset", "id", "name", "lat", "lon", "expected", "got", "kind", "osm_land", "osm_km"]
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(every)
    print(f"\nevery difference: {args.out / 'differences.csv'} ({len(every)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
