"""The geonews wheel as a Python user has it, installed in a venv: answers, the columns'
types, errors, threads, pandas, and agreement with `geonews resolve` on uniform positions.

Run with pytest by Tests/Python/run.sh, with GEONEWS_UNIFORM (a CSV of uniform positions,
`id,lat,lon`) and GEONEWS_RESOLVED (`geonews resolve`'s rows of it).
"""
import csv
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import pandas as pd
import pyarrow as pa

import geonews


def kilometres(value):
    """distance_km as geonews writes it: three decimals, rounded half away from zero."""
    scaled = value * 1000 if math.isfinite(value) else 0.0
    m = int(abs(scaled))
    if abs(scaled) - m >= 0.5:
        m += 1
    return f"{'-' if scaled < 0 and m > 0 else ''}{m // 1000}.{m % 1000:03d}"


class ResolveTests(unittest.TestCase):
    def test_known_positions(self):
        t = geonews.resolve([48.8566, 0.0, -21.1151, 65.5, 65.5], [2.3522, -30.0, 55.5364, 180.0, -180.0])
        rows = t.to_pylist()
        self.assertEqual(rows[0], {"country_iso2": "FR", "suggested_iso2": "FR", "suggestion_reason": "inside",
                                   "distance_km": 0.0, "time_zone": "Europe/Paris", "error": None})
        self.assertIsNone(rows[1]["country_iso2"])
        self.assertEqual((rows[1]["suggested_iso2"], rows[1]["suggestion_reason"], rows[1]["time_zone"]),
                         ("BR", "nearest-marker", "Etc/GMT+2"))
        self.assertGreater(rows[1]["distance_km"], 1000)
        self.assertEqual((rows[2]["country_iso2"], rows[2]["suggested_iso2"], rows[2]["suggestion_reason"]),
                         ("RE", "FR", "sovereign"))
        # The antimeridian from both sides: Chukotka, Russia.
        self.assertEqual(rows[3]["country_iso2"], "RU")
        self.assertEqual(rows[4]["country_iso2"], "RU")

    def test_string_columns_are_dictionaries_over_the_catalogue(self):
        t = geonews.resolve(np.array([48.8566, 52.52]), np.array([2.3522, 13.405]))
        self.assertEqual(t.column_names, geonews.COLUMNS)
        for name in ("country_iso2", "suggested_iso2", "suggestion_reason", "time_zone"):
            self.assertTrue(pa.types.is_dictionary(t.schema.field(name).type), name)
        self.assertEqual(t.schema.field("distance_km").type, pa.float64())
        self.assertEqual(t.schema.field("error").type, pa.string())
        self.assertGreater(len(t.column("country_iso2").chunk(0).dictionary), 200)

    def test_every_call_shares_the_names_dictionaries(self):
        # The names are converted to Arrow once per process: the columns of two calls point at
        # the same bytes (the places' 199,116 names, made per call, cost a Spark batch of
        # 10,000 rows several times its resolution).
        names = ["country_iso2", "suggested_iso2", "suggestion_reason", "time_zone"] + geonews.REGION_COLUMNS + ["place_name"]
        a = geonews.resolve([48.8566, 35.6812], [2.3522, 139.7671], region=True, place=True)
        b = geonews.resolve([45.764], [4.8357], region=True, place=True)
        for name in names:
            da, db = a.column(name).chunk(0).dictionary, b.column(name).chunk(0).dictionary
            self.assertEqual(da.buffers()[2].address, db.buffers()[2].address, name)
        self.assertGreater(len(a.column("place_name").chunk(0).dictionary), 100_000)
        self.assertEqual(b.column("place_name").to_pylist(), ["Lyon 01"])

    def test_bad_positions_are_error_rows(self):
        lat = pa.array([91.0, None, 10.0, 10.0, 48.8566])
        lon = pa.array([0.0, 0.0, 181.0, float("inf"), 2.3522])
        rows = geonews.resolve(lat, lon).to_pylist()
        self.assertEqual(rows[0]["error"], "latitude 91.0 is outside -90…90")
        self.assertEqual(rows[1]["error"], "latitude nan is not a finite number")
        self.assertEqual(rows[2]["error"], "longitude 181.0 is outside -180…180")
        self.assertEqual(rows[3]["error"], "longitude inf is not a finite number")
        for row in rows[:4]:
            self.assertEqual([row[c] for c in geonews.COLUMNS[:5]], [None] * 5, row)
        self.assertEqual(rows[4]["country_iso2"], "FR")
        self.assertIsNone(rows[4]["error"])

    def test_bad_arguments_are_refused(self):
        with self.assertRaisesRegex(ValueError, "lat has 2 values and lon 1"):
            geonews.resolve([1.0, 2.0], [3.0])
        with self.assertRaisesRegex(ValueError, "one-dimensional"):
            geonews.resolve(np.zeros((2, 2)), np.zeros((2, 2)))
        with self.assertRaisesRegex(TypeError, "lat: not numbers"):
            geonews.resolve(["a"], [1.0])
        self.assertEqual(geonews.resolve([], []).num_rows, 0)

    def test_threads_give_the_answers_of_one(self):
        rng = np.random.default_rng(5)
        lat = np.degrees(np.arcsin(rng.uniform(-1, 1, 400_000)))
        lon = rng.uniform(-180, 180, 400_000)
        one = geonews.resolve(lat, lon, threads=1)
        four = geonews.resolve(lat, lon, threads=4)
        self.assertTrue(one.equals(four))
        self.assertGreater(pa.compute.count(one.column("country_iso2")).as_py(), 100_000)

    def test_the_columns_asked_for_are_those_of_the_whole_answer(self):
        rng = np.random.default_rng(6)
        lat = np.degrees(np.arcsin(rng.uniform(-1, 1, 300_000)))
        lon = rng.uniform(-180, 180, 300_000)
        lat[3], lon[4] = float("nan"), 200.0
        whole = geonews.resolve(lat, lon, region=True, place=True)
        zone = geonews.resolve(lat, lon, columns=["time_zone"])
        self.assertEqual(zone.column_names, ["time_zone"])
        self.assertTrue(zone.column("time_zone").equals(whole.column("time_zone")))
        self.assertIsNone(zone.column("time_zone")[3].as_py())
        some = geonews.resolve(lat, lon, columns=["error", "place_name", "country_iso2", "time_zone"], threads=2)
        self.assertEqual(some.column_names, ["country_iso2", "time_zone", "place_name", "error"], "in ALL_COLUMNS' order")
        for name in some.column_names:
            self.assertTrue(some.column(name).equals(whole.column(name)), name)
        self.assertEqual(geonews.ALL_COLUMNS, geonews.COLUMNS[:5] + geonews.REGION_COLUMNS + geonews.PLACE_COLUMNS + ["error"])
        with self.assertRaisesRegex(ValueError, r"columns: \['zone'\] not among"):
            geonews.resolve(lat, lon, columns=["zone"])
        with self.assertRaisesRegex(ValueError, "columns: none not among"):
            geonews.resolve(lat, lon, columns=[])
        with self.assertRaisesRegex(TypeError, "a list of names, not the string 'time_zone'"):
            geonews.resolve(lat, lon, columns="time_zone")
        with self.assertRaisesRegex(ValueError, "not with region= or place="):
            geonews.resolve(lat, lon, columns=["time_zone"], region=True)
        df = pd.DataFrame({"lat": lat[:10], "lon": lon[:10]})
        self.assertEqual(list(geonews.resolve_df(df, columns=["time_zone"]).columns), ["lat", "lon", "time_zone"])

    def test_pandas(self):
        df = pd.DataFrame({"id": [1, 2], "latitude": [48.8566, 0.0], "longitude": [2.3522, -30.0]})
        out = geonews.resolve_df(df, lat="latitude", lon="longitude")
        self.assertEqual(list(out.columns), ["id", "latitude", "longitude"] + geonews.COLUMNS)
        self.assertEqual(out["country_iso2"].iloc[0], "FR")
        self.assertTrue(pd.isna(out["country_iso2"].iloc[1]))
        self.assertEqual(str(out["time_zone"].dtype), "category")
        self.assertEqual(list(df.columns), ["id", "latitude", "longitude"], "the input is left as it was")
        with self.assertRaisesRegex(KeyError, "no column 'lat'"):
            geonews.resolve_df(df)
        # The categoricals are Arrow's own conversion, over the whole dictionary, with one dtype
        # per dictionary for the process: two calls' columns share it.
        many = pd.DataFrame({"lat": [48.8566, 45.764, float("nan"), 0.0], "lon": [2.3522, 4.8357, 1.0, -30.0]})
        first = geonews.resolve_df(many, region=True, place=True)
        again = geonews.resolve_df(many.iloc[:1], region=True, place=True)
        table = geonews.resolve(many["lat"], many["lon"], region=True, place=True)
        for name in table.column_names:
            arrow = table.column(name).to_pandas()
            if isinstance(arrow.dtype, pd.CategoricalDtype):
                self.assertIs(first[name].dtype, again[name].dtype, name)
                self.assertEqual(list(first[name].cat.categories), list(arrow.cat.categories), name)
                self.assertEqual(first[name].cat.codes.tolist(), arrow.cat.codes.tolist(), name)
            else:
                self.assertEqual(first[name].astype(object).where(first[name].notna(), None).tolist(),
                                 arrow.astype(object).where(arrow.notna(), None).tolist(), name)
        self.assertEqual(first["place_name"].tolist()[:2], ["Paris 04 Hôtel-de-Ville", "Lyon 01"])
        self.assertGreater(len(first["place_name"].cat.categories), 100_000)

    def test_polars(self):
        import polars as pl

        df = pl.DataFrame({"id": [1, 2, 3], "lat": [48.8566, 0.0, 95.0], "lon": [2.3522, -30.0, 0.0]})
        out = geonews.resolve_df(df)
        self.assertEqual(out.columns, ["id", "lat", "lon"] + geonews.COLUMNS)
        self.assertEqual(out["country_iso2"].to_list(), ["FR", None, None])
        self.assertEqual(out["time_zone"].to_list(), ["Europe/Paris", "Etc/GMT+2", None])
        self.assertEqual(out["error"].to_list(), [None, None, "latitude 95.0 is outside -90…90"])
        self.assertEqual(out.schema["country_iso2"], pl.Categorical)
        self.assertEqual(out.schema["distance_km"], pl.Float64)
        self.assertEqual(df.columns, ["id", "lat", "lon"], "the input is left as it was")
        again = geonews.resolve_df(out)
        self.assertEqual(again.columns, out.columns, "the columns are replaced, not doubled")
        with self.assertRaisesRegex(KeyError, "no column 'latitude'"):
            geonews.resolve_df(df, lat="latitude")

    def test_locate_has_the_keys_of_geonews_json(self):
        paris = geonews.locate(48.8566, 2.3522)
        command = subprocess.run([os.environ["GEONEWS_BINARY"], "--json", "--no-headlines", "--lat", "48.8566", "--lon", "2.3522"],
                                 capture_output=True, text=True, env=dict(os.environ, GEONEWS_DATA=os.environ["GEONEWS_CHECKOUT_DATA"]))
        self.assertEqual(command.returncode, 0, command.stderr)
        expected = json.loads(command.stdout)
        for moment in ("utcOffset", "utcOffsetSeconds"):  # the same now, unless a clock change falls between
            paris.pop(moment), expected.pop(moment)
        self.assertEqual(paris, expected)
        self.assertEqual(paris["region"]["iso3166_2"], "FR-IDF")
        self.assertEqual(paris["place"]["geonameId"], 3013131)
        sea = geonews.locate(0, -30)
        self.assertIsNone(sea["country"])
        self.assertEqual((sea["nearest"]["iso2"], sea["suggestion"]["reason"], sea["timeZone"]), ("BR", "nearest-marker", "Etc/GMT+2"))
        self.assertEqual(geonews.locate(-21.1151, 55.5364, language="fr")["suggestion"]["name"], "France")
        self.assertEqual(geonews.locate(52.52, 13.405, language="fr")["country"]["name"], "Allemagne")

    def test_locate_refuses_what_is_not_a_position(self):
        with self.assertRaisesRegex(ValueError, "latitude 91.0 is outside -90…90"):
            geonews.locate(91, 0)
        with self.assertRaisesRegex(ValueError, "longitude nan is not a finite number"):
            geonews.locate(0, float("nan"))
        with self.assertRaisesRegex(TypeError, "latitude '48.8' is not a number"):
            geonews.locate("48.8", 2.0)
        with self.assertRaisesRegex(TypeError, "latitude True is not a number"):
            geonews.locate(True, 2.0)

    def test_locate_and_the_region_columns_name_a_missing_file(self):
        with tempfile.TemporaryDirectory() as scratch:
            data = os.path.join(os.path.dirname(geonews.__file__), "_data")
            for name in os.listdir(data):
                if name != "regions.bin":
                    os.symlink(os.path.join(data, name), os.path.join(scratch, name))
            code = "import geonews; print(geonews.resolve([48.8566], [2.3522]).column(0)[0]); geonews.locate(48.8566, 2.3522)"
            out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, GEONEWS_DATA=scratch), capture_output=True, text=True)
            self.assertEqual(out.stdout.strip(), "FR", "resolve needs no regions")
            self.assertIn("geonews.DataError", out.stderr)
            self.assertIn(os.path.join(scratch, "regions.bin"), out.stderr)
            code = "import geonews; geonews.resolve([48.8566], [2.3522], region=True)"
            out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, GEONEWS_DATA=scratch), capture_output=True, text=True)
            self.assertIn("geonews.DataError", out.stderr)
            self.assertIn(os.path.join(scratch, "regions.bin"), out.stderr)

    def test_the_same_rows_as_geonews_resolve(self):
        with open(os.environ["GEONEWS_UNIFORM"], newline="") as f:
            rows = list(csv.reader(f))[1:]
        lat = np.array([float(r[1]) for r in rows])
        lon = np.array([float(r[2]) for r in rows])
        t = geonews.resolve(lat, lon)
        got = ["" if v is None else v for v in t.column("country_iso2").to_pylist()]
        suggested = t.column("suggested_iso2").to_pylist()
        reasons = t.column("suggestion_reason").to_pylist()
        km = t.column("distance_km").to_pylist()
        zones = t.column("time_zone").to_pylist()
        with open(os.environ["GEONEWS_RESOLVED"], newline="") as f:
            expected = list(csv.reader(f))[1:]
        self.assertEqual(len(expected), len(rows))
        mismatches = 0
        for i, e in enumerate(expected):
            mine = [e[0], e[1], e[2], got[i], suggested[i], reasons[i], kilometres(km[i]), zones[i], ""]
            if mine != e:
                mismatches += 1
                if mismatches <= 3:
                    print("differs:", mine, e, file=sys.stderr)
        self.assertEqual(mismatches, 0)
        # The time zone asked for alone is worked out alone (the zones' index only), and is the same.
        from geonews.spark import resolve_batches

        alone = next(resolve_batches([pa.RecordBatch.from_arrays([pa.array(lat), pa.array(lon)], names=["lat", "lon"])],
                                     "lat", "lon", ["time_zone"]))
        self.assertEqual(alone.schema.names, ["lat", "lon", "time_zone"])
        self.assertEqual(alone.column(2).to_pylist(), [e[7] for e in expected])

    def test_region_and_place_columns_are_those_of_geonews_resolve(self):
        with open(os.environ["GEONEWS_UNIFORM"], newline="") as f:
            rows = list(csv.reader(f))[1:]
        lat = np.array([float(r[1]) for r in rows])
        lon = np.array([float(r[2]) for r in rows])
        t = geonews.resolve(lat, lon, region=True, place=True, threads=2)
        self.assertEqual(t.column_names, geonews.COLUMNS[:5] + geonews.REGION_COLUMNS + geonews.PLACE_COLUMNS + ["error"])
        columns = {name: t.column(name).to_pylist() for name in t.column_names}
        with open(os.environ["GEONEWS_RESOLVED_PLACES"], newline="") as f:
            expected = list(csv.reader(f))
        self.assertEqual(expected[0][3:], t.column_names)
        mismatches = 0
        for i, e in enumerate(expected[1:]):
            mine = ["" if columns[name][i] is None else str(columns[name][i]) for name in geonews.REGION_COLUMNS + ["place_name", "place_geonameid"]]
            km = columns["place_distance_km"][i]
            mine.append("" if km is None else kilometres(km))
            if mine != e[8:14]:
                mismatches += 1
                if mismatches <= 3:
                    print("differs:", mine, e[8:14], file=sys.stderr)
        self.assertEqual(mismatches, 0)
        self.assertGreater(sum(v is not None for v in columns["region_name"]), 40_000)
        self.assertGreater(sum(v is not None for v in columns["place_name"]), 40_000)
        self.assertTrue(pa.types.is_dictionary(t.schema.field("place_name").type))
        paris = geonews.resolve([48.8566, 91.0], [2.3522, 0.0], region=True, place=True).to_pylist()
        self.assertEqual({k: paris[0][k] for k in geonews.REGION_COLUMNS + ["place_name", "place_geonameid"]},
                         {"region_iso3166_2": "FR-IDF", "region_geonames": "FR.11", "region_name": "Île-de-France",
                          "place_name": "Paris 04 Hôtel-de-Ville", "place_geonameid": 3013131})
        self.assertEqual([paris[1][k] for k in geonews.REGION_COLUMNS + geonews.PLACE_COLUMNS], [None] * 6)
        only = geonews.resolve([48.8566], [2.3522], place=True)
        self.assertEqual(only.column_names, geonews.COLUMNS[:5] + geonews.PLACE_COLUMNS + ["error"])

    def test_a_read_only_home_unpacks_into_the_temporary_folder(self):
        with tempfile.TemporaryDirectory() as scratch:
            env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "GEONEWS_INDEX_DIR")}
            env.update(HOME="/proc/geonews-read-only", TMPDIR=scratch)
            code = "import geonews; print(geonews.resolve([48.8566], [2.3522]).column('country_iso2')[0])"
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(out.stdout.strip(), "FR")
            found = [os.path.join(d, f) for d, _, fs in os.walk(scratch) for f in fs]
            self.assertTrue(any(p.endswith("/land-index.bin") for p in found), found)

    def test_the_library_writes_nothing_and_never_exits(self):
        # Every entry point, with bad rows among good ones, in a process whose two standard
        # streams are captured at the file descriptors: nothing may come out but our own line.
        code = "\n".join([
            "import duckdb, geonews, geonews.duckdb",
            "geonews.resolve([91.0, float('nan'), 48.8566, 1e308], [0.0, 0.0, 2.3522, -1e308], region=True, place=True)",
            "geonews.locate(0.0, -30.0)",
            "try:\n    geonews.locate(95.0, 0.0)\nexcept ValueError:\n    pass",
            "con = duckdb.connect(config={'allow_unsigned_extensions': 'true'})",
            "geonews.duckdb.load(con)",
            "con.sql(\"SELECT geonews_resolve(lat, 0.0) FROM (VALUES (91.0), ('nan'::DOUBLE), (NULL), (1.0)) t(lat)\").fetchall()",
            "print('end')",
        ])
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual((out.returncode, out.stdout, out.stderr), (0, "end\n", ""))

    def test_a_missing_data_folder_is_named(self):
        env = dict(os.environ, GEONEWS_DATA="/nonexistent/geonews-data")
        code = "import geonews; geonews.resolve([1.0], [2.0])"
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("/nonexistent/geonews-data/area-index.json", out.stderr)



class DuckDBTests(unittest.TestCase):
    """geonews.duckdb: the extension loaded into DuckDB from PyPI, queried as SQL."""

    @classmethod
    def setUpClass(cls):
        import duckdb
        import geonews.duckdb

        cls.con = duckdb.connect(config={"allow_unsigned_extensions": "true", "threads": 2})
        geonews.duckdb.load(cls.con)

    def test_the_functions_answer_known_positions(self):
        row = self.con.sql("SELECT geonews_country(48.8566, 2.3522), geonews_news_country(48.8566, 2.3522), "
                           "geonews_time_zone(48.8566, 2.3522), geonews_country(0, -30), geonews_news_country(0, -30), "
                           "geonews_country(65.5, 180), geonews_country(65.5, -180)").fetchone()
        self.assertEqual(row, ("FR", "FR", "Europe/Paris", None, "BR", "RU", "RU"))
        resolved = self.con.sql("SELECT geonews_resolve(-21.1151, 55.5364)").fetchone()[0]
        self.assertEqual(resolved, {"country_iso2": "RE", "suggested_iso2": "FR", "suggestion_reason": "sovereign",
                                    "distance_km": 0.0, "time_zone": "Indian/Reunion", "error": None})
        self.assertTrue(self.con.sql("SELECT typeof(geonews_country(1, 1))").fetchone()[0].startswith("ENUM('', 'AD'"))
        self.assertEqual(self.con.sql("SELECT geonews_time_zone(0, -30) = 'Etc/GMT+2'").fetchone()[0], True)

    def test_bad_rows_answer_null(self):
        self.con.execute("CREATE OR REPLACE TEMP TABLE bad AS SELECT * FROM (VALUES "
                         "(1, 91.0, 0.0), (2, 'nan'::DOUBLE, 0.0), (3, 10.0, 181.0), (4, 10.0, 'inf'::DOUBLE), "
                         "(5, NULL, 2.0), (6, 48.8566, NULL), (7, 48.8566, 2.3522), (8, 1e308, -1e308), "
                         "(9, 90.0, 180.0), (10, -90.0, -180.0), (11, -0.0, -0.0)) t(id, lat, lon)")
        rows = self.con.sql("SELECT id, geonews_country(lat, lon), geonews_time_zone(lat, lon), "
                            "geonews_resolve(lat, lon) FROM bad ORDER BY id").fetchall()
        self.assertEqual([r[1] for r in rows], [None] * 6 + ["FR", None, None, "AQ", None])
        self.assertEqual([r[2] for r in rows], [None] * 6 + ["Europe/Paris", None] + [geonews.resolve([v], [w])["time_zone"][0].as_py()
                                                                                     for v, w in ((90.0, 180.0), (-90.0, -180.0), (0.0, 0.0))])
        # Alone, the zone takes the zones' index only: the same NULLs for the same bad rows.
        alone = self.con.sql("SELECT geonews_time_zone(lat, lon) FROM bad ORDER BY id").fetchall()
        self.assertEqual([r[0] for r in alone], [r[2] for r in rows])
        errors = [r[3] and r[3]["error"] for r in rows]
        self.assertEqual(errors, ["latitude 91.0 is outside -90…90", "latitude nan is not a finite number",
                                  "longitude 181.0 is outside -180…180", "longitude inf is not a finite number",
                                  None, None, None, "latitude 1e+308 is outside -90…90", None, None, None])
        self.assertIsNone(rows[4][3], "a NULL coordinate answers NULL")
        self.assertEqual(rows[0][3]["country_iso2"], None)

    def test_a_table_gets_the_answers_of_geonews_resolve(self):
        rng = np.random.default_rng(9)
        n = 300_000
        lat, lon = np.degrees(np.arcsin(rng.uniform(-1, 1, n))), rng.uniform(-180, 180, n)
        positions = pa.table({"id": np.arange(n), "lat": lat, "lon": lon})
        self.con.register("positions", positions)
        try:
            got = self.con.sql("SELECT id, geonews_country(lat, lon)::VARCHAR c, geonews_time_zone(lat, lon)::VARCHAR z, "
                               "geonews_resolve(lat, lon) r FROM positions ORDER BY id").arrow()
            if not isinstance(got, pa.Table):  # DuckDB 1.4 on gives a reader, read before the next query
                got = got.read_all()
            # The zone alone (the zones' index only), and the zone before the country on one chunk
            # (the chunk's zones, then its whole resolution).
            alone = self.con.sql("SELECT geonews_time_zone(lat, lon)::VARCHAR z FROM positions ORDER BY id").fetchall()
            first = self.con.sql("SELECT geonews_time_zone(lat, lon)::VARCHAR z, geonews_country(lat, lon)::VARCHAR c, "
                                 "geonews_place(lat, lon).geonameid p FROM positions ORDER BY id").fetchall()
            grouped = dict(self.con.sql("SELECT geonews_country(lat, lon), count(*) FROM positions "
                                        "WHERE geonews_country(lat, lon) IN ('FR', 'RU', 'BR') GROUP BY 1").fetchall())
        finally:
            self.con.unregister("positions")
        expected = geonews.resolve(lat, lon)
        self.assertEqual(got.column("c").to_pylist(), expected.column("country_iso2").cast(pa.string()).to_pylist())
        self.assertEqual(got.column("z").to_pylist(), expected.column("time_zone").cast(pa.string()).to_pylist())
        self.assertEqual([r[0] for r in alone], got.column("z").to_pylist())
        self.assertEqual([r[0] for r in first], got.column("z").to_pylist())
        self.assertEqual([r[1] for r in first], got.column("c").to_pylist())
        places = geonews.resolve(lat, lon, place=True).column("place_geonameid").to_pylist()
        self.assertEqual([r[2] for r in first], places)
        r = got.column("r").combine_chunks()
        for name in geonews.COLUMNS:
            column = r.field(name)
            if pa.types.is_dictionary(column.type):
                column = column.dictionary_decode()
            want = expected.column(name).combine_chunks()
            if pa.types.is_dictionary(want.type):
                want = want.dictionary_decode()
            self.assertEqual(column.to_pylist(), want.to_pylist(), name)
        countries = expected.column("country_iso2").cast(pa.string()).to_pylist()
        self.assertEqual(grouped, {c: countries.count(c) for c in ("FR", "RU", "BR")})
        self.assertGreater(grouped["RU"], 5_000)

    def test_the_region_and_the_place_are_those_of_geonews_resolve(self):
        paris = self.con.sql("SELECT geonews_region(48.8566, 2.3522), geonews_place(48.8566, 2.3522)").fetchone()
        self.assertEqual(paris[0], {"iso3166_2": "FR-IDF", "geonames": "FR.11", "name": "Île-de-France"})
        self.assertEqual((paris[1]["name"], paris[1]["geonameid"], round(paris[1]["distance_km"], 3)),
                         ("Paris 04 Hôtel-de-Ville", 3013131, 0.404))
        self.assertEqual(self.con.sql("SELECT geonews_region(0, -30), geonews_place(0, -30), geonews_region(91, 0), "
                                      "geonews_place(NULL, 0)").fetchone(), (None, None, None, None))
        rng = np.random.default_rng(19)
        n = 100_000
        lat, lon = np.degrees(np.arcsin(rng.uniform(-1, 1, n))), rng.uniform(-180, 180, n)
        self.con.register("spots", pa.table({"id": np.arange(n), "lat": lat, "lon": lon}))
        try:
            got = self.con.sql("SELECT geonews_region(lat, lon) r, geonews_place(lat, lon) p FROM spots ORDER BY id").fetchall()
        finally:
            self.con.unregister("spots")
        want = geonews.resolve(lat, lon, region=True, place=True).to_pydict()
        region = [(r["iso3166_2"], r["geonames"], r["name"]) if r else (None, None, None) for r, _ in got]
        self.assertEqual(region, list(zip(want["region_iso3166_2"], want["region_geonames"], want["region_name"])))
        place = [(p["name"], p["geonameid"], p["distance_km"]) if p else (None, None, None) for _, p in got]
        self.assertEqual(place, list(zip(want["place_name"], want["place_geonameid"], want["place_distance_km"])))
        self.assertGreater(sum(r[0] is not None for r in region), 10_000)

    def test_two_threads_at_once(self):
        import duckdb
        from concurrent.futures import ThreadPoolExecutor

        def query(seed):
            cursor = self.con.cursor()
            rng = np.random.default_rng(seed)
            lat, lon = np.degrees(np.arcsin(rng.uniform(-1, 1, 50_000))), rng.uniform(-180, 180, 50_000)
            t = pa.table({"lat": lat, "lon": lon})
            got = cursor.sql("SELECT geonews_country(lat, lon)::VARCHAR FROM t").fetchall()
            return [g[0] for g in got], geonews.resolve(lat, lon).column("country_iso2").cast(pa.string()).to_pylist()

        with ThreadPoolExecutor(max_workers=2) as pool:
            for got, want in pool.map(query, [1, 2, 3, 4]):
                self.assertEqual(got, want)
        self.assertIsInstance(duckdb.__version__, str)

    def test_a_connection_that_refuses_unsigned_extensions_is_told_how(self):
        import duckdb
        import geonews.duckdb

        with self.assertRaisesRegex(geonews.DataError, "allow_unsigned_extensions"):
            geonews.duckdb.load(duckdb.connect())

    def test_a_missing_data_folder_is_named_at_load(self):
        env = {k: v for k, v in os.environ.items() if k != "GEONEWS_INDEX_DIR"}
        env["GEONEWS_DATA"] = "/nonexistent/geonews-data"
        env["GEONEWS_INDEX_DIR"] = tempfile.mkdtemp()
        code = ("import duckdb, geonews.duckdb\n"
                "geonews.duckdb.load(duckdb.connect(config={'allow_unsigned_extensions': 'true'}))")
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        self.assertNotEqual(out.returncode, 0)
        self.assertIn("geonews.DataError", out.stderr)
        self.assertIn("/nonexistent/geonews-data", out.stderr)


class SparkTests(unittest.TestCase):
    """geonews.spark: the mapInArrow function on Arrow batches always; a local Spark job when
    pyspark and Java are there (docs/python.md; Benchmarks/spark/run.sh runs it at scale)."""

    def positions(self, n, seed):
        rng = np.random.default_rng(seed)
        return np.degrees(np.arcsin(rng.uniform(-1, 1, n))), rng.uniform(-180, 180, n)

    def expected(self, lat, lon):
        t = geonews.resolve(lat, lon)
        return {name: [v.as_py() for v in t.column(name)] for name in geonews.COLUMNS}

    def test_the_batches_gain_the_columns_in_order(self):
        from geonews.spark import resolve_batches

        lat, lon = self.positions(30_000, 11)
        lat[5], lon[7] = 95.0, float("nan")
        ids = np.arange(30_000)
        batches = [pa.RecordBatch.from_arrays([pa.array(ids[i:i + 7_000]), pa.array(lat[i:i + 7_000]), pa.array(lon[i:i + 7_000])],
                                              names=["id", "la", "lo"]) for i in range(0, 30_000, 7_000)]
        out = pa.Table.from_batches(list(resolve_batches(iter(batches), "la", "lo")))
        self.assertEqual(out.column_names, ["id", "la", "lo"] + geonews.COLUMNS)
        self.assertEqual(out.column("id").to_pylist(), list(range(30_000)))
        self.assertEqual(out.schema.field("country_iso2").type, pa.string(), "decoded for Spark")
        expected = self.expected(lat, lon)
        for name in geonews.COLUMNS:
            self.assertEqual(out.column(name).to_pylist(), expected[name], name)
        self.assertEqual(out.column("error")[5].as_py(), "latitude 95.0 is outside -90…90")
        some = pa.Table.from_batches(list(resolve_batches(iter(batches), "la", "lo", ["time_zone", "country_iso2"])))
        self.assertEqual(some.column_names, ["id", "la", "lo", "country_iso2", "time_zone"], "in the columns' own order")
        self.assertEqual(some.column("time_zone").to_pylist(), expected["time_zone"])
        # Alone, the zone comes from the zones' index only: the same zones, null for the bad rows.
        alone = pa.Table.from_batches(list(resolve_batches(iter(batches), "la", "lo", ["time_zone"])))
        self.assertEqual(alone.column("time_zone").to_pylist(), expected["time_zone"])
        self.assertIsNone(alone.column("time_zone")[5].as_py())
        self.assertIsNone(alone.column("time_zone")[7].as_py())
        places = pa.Table.from_batches(list(resolve_batches(iter(batches), "la", "lo", ["place_name", "region_name", "time_zone"])))
        self.assertEqual(places.column_names, ["id", "la", "lo", "time_zone", "region_name", "place_name"])
        want = geonews.resolve(lat, lon, region=True, place=True)
        for name in ("region_name", "place_name"):
            self.assertEqual(places.column(name).to_pylist(), want.column(name).to_pylist(), name)
        ids = pa.Table.from_batches(list(resolve_batches(iter(batches), "la", "lo", ["place_geonameid"])))
        self.assertEqual(ids.schema.field("place_geonameid").type, pa.int64())
        self.assertEqual(ids.column("place_geonameid").to_pylist(), want.column("place_geonameid").to_pylist())
        with self.assertRaisesRegex(ValueError, "columns: \\['zone'\\] not among"):
            list(resolve_batches(iter(batches), "la", "lo", ["zone"]))

    @unittest.skipUnless(shutil.which("java") and importlib.util.find_spec("pyspark"), "pyspark and Java are not installed")
    def test_a_local_spark_job_gives_the_same_columns(self):
        from pyspark.sql import SparkSession
        from geonews.spark import resolve as spark_resolve

        # The workers run this venv's Python, where the wheel is installed.
        os.environ["PYSPARK_PYTHON"] = sys.executable
        spark = SparkSession.builder.master("local[2]").appName("geonews-test").getOrCreate()
        try:
            lat, lon = self.positions(100_000, 12)
            df = spark.createDataFrame(pd.DataFrame({"id": np.arange(100_000), "lat": lat, "lon": lon})).repartition(4)
            with self.assertRaisesRegex(KeyError, "no column 'latitude'"):
                spark_resolve(df, lat="latitude")
            rows = spark_resolve(df).orderBy("id").toPandas()
            expected = self.expected(lat, lon)
            for name in geonews.COLUMNS:
                got = [None if (isinstance(v, float) and math.isnan(v)) or v is None else v for v in rows[name].tolist()]
                self.assertEqual(got, expected[name], name)
            local = spark_resolve(df, columns=["region_iso3166_2", "place_geonameid"]).orderBy("id").toPandas()
            self.assertEqual(list(local.columns), ["id", "lat", "lon", "region_iso3166_2", "place_geonameid"])
            want = geonews.resolve(lat, lon, region=True, place=True)
            for name in ("region_iso3166_2", "place_geonameid"):
                got = [None if v is None or (isinstance(v, float) and math.isnan(v)) else int(v) if name == "place_geonameid" else v
                       for v in local[name].tolist()]
                self.assertEqual(got, want.column(name).to_pylist(), name)
        finally:
            spark.stop()
