"""The web map's scenarios (issue 14), each against a real geonews-serve in headless Chromium.
A scenario raises AssertionError with what it saw when the page does not do what it should."""
import json
import re
import time
import urllib.parse
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser import set_geolocation, wait_for, wait_until_settled
from fixture_server import fixture_titles

HERE = Path(__file__).resolve().parent

CLUSTERS, COUNTRIES, HEADLINES = "GET /v1/clusters", "GET /v1/countries", "GET /v1/headlines"
RESOLVE, RESOLVE_BATCH = "GET /v1/resolve", "POST /v1/resolve"
USERS, FAVOURITES, DATASETS = "POST /v1/users", "GET /v1/favourites", "POST /v1/datasets"


def needs(*routes):
    """The API routes a scenario cannot run without (run.py asks the server for each first)."""
    def mark(scenario):
        scenario.routes = routes
        return scenario
    return mark


def marker_counts(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('.leaflet-marker-icon[data-count]')]"
        ".map(e => [Number(e.dataset.count), e.dataset.iso2 || null, e.dataset.expansionZoom || null]);")


def open_page(ctx, driver, path="/"):
    driver.get(ctx.server.url + path)
    return wait_until_settled(driver)


def global_view(driver):
    driver.find_element(By.ID, "global-view").click()
    return wait_until_settled(driver)


def search(driver, text):
    box = driver.find_element(By.ID, "search-input")
    box.clear()
    box.send_keys(text)
    # The list says which text it answers; results for an earlier prefix do not count.
    chosen = wait_for(driver, lambda d: d.execute_script(
        "const list = document.getElementById('search-results');"
        "const first = list.querySelector('li[id]');"
        "return list.dataset.query === arguments[0] && first ? first.dataset.iso2 : null;", text.strip()),
        what=f"results for {text!r}")
    box.send_keys(Keys.ENTER)
    return chosen, wait_until_settled(driver)


def open_country(driver, iso2, name):
    """Centres on the country by search, then clicks its own marker."""
    search(driver, name)
    panel = driver.find_element(By.ID, "panel")
    if panel.is_displayed():
        driver.find_element(By.ID, "panel-close").click()
    marker = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f".leaflet-marker-icon[data-iso2='{iso2}']"),
                      what=f"the {iso2} marker")[0]
    driver.execute_script("arguments[0].click()", marker)
    wait_for(driver, lambda d: d.find_element(By.ID, "headlines-list").get_attribute("data-state") in ("loaded", "empty", "error"),
             what="the headlines")
    return driver.find_element(By.ID, "headlines-list")


@needs(CLUSTERS, COUNTRIES)
def scenario_bubbles_at_15000_km_sum_to_54(ctx, driver):
    open_page(ctx, driver)
    view = global_view(driver)
    counts = marker_counts(driver)
    total = sum(c for c, _, _ in counts)
    bubbles = [c for c, _, _ in counts if c > 1]
    assert total == 54, f"the bubbles and markers count {total}, not 54: {counts}"
    assert bubbles, f"no bubble at 15,000 km: {counts}"
    readout = driver.find_element(By.ID, "readout").text
    assert readout.startswith("altitude 15,000 km"), f"the readout says {readout!r}"
    ctx.screenshot(driver, "global-view")
    return f"{len(counts)} items, bubbles {sorted(bubbles, reverse=True)}, zoom {view['zoom']:.2f}"


@needs(CLUSTERS, COUNTRIES)
def scenario_clicking_a_bubble_flies_to_its_expansion_zoom(ctx, driver):
    open_page(ctx, driver)
    global_view(driver)
    bubble = driver.find_element(By.CSS_SELECTOR, ".leaflet-marker-icon.bubble")
    expansion = float(bubble.get_attribute("data-expansion-zoom"))
    driver.execute_script("arguments[0].click()", bubble)
    view = wait_until_settled(driver)
    assert abs(view["zoom"] - expansion) < 0.01, f"zoom {view['zoom']} after the click, expansion zoom {expansion}"
    return f"zoom {view['zoom']:.2f} = expansion zoom {expansion:g}"


@needs(CLUSTERS, COUNTRIES)
def scenario_searching_japon_centres_on_japan(ctx, driver):
    open_page(ctx, driver)
    chosen, view = search(driver, "japon")
    assert chosen == "JP", f"the first result for 'japon' is {chosen}"
    lat, lon = view["lat"], view["lon"]
    assert 30 <= lat <= 42 and 129 <= lon <= 142, f"the map is centred on {lat}, {lon}, not on Japan"
    others = {}
    for text in ("日本", "jp"):
        others[text], _ = search(driver, text)
    assert others == {"日本": "JP", "jp": "JP"}, f"other spellings found {others}"
    return f"centre {lat:.2f}, {lon:.2f}; 日本 and jp also find JP"


@needs(CLUSTERS, COUNTRIES, HEADLINES)
def scenario_clicking_france_lists_the_fixture_headlines(ctx, driver):
    open_page(ctx, driver)
    panel_list = open_country(driver, "FR", "France")
    titles = [e.text for e in panel_list.find_elements(By.CSS_SELECTOR, ".articles .title")]
    assert titles == fixture_titles(), f"the panel lists {titles}"
    tabs = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#panel [role=tab]")]
    assert len(tabs) == 7, f"tabs: {tabs}"
    ctx.screenshot(driver, "france-headlines")
    return f"{len(titles)} headlines, tabs {', '.join(tabs)}"


@needs(CLUSTERS, COUNTRIES, HEADLINES, USERS, FAVOURITES)
def scenario_a_favourite_survives_reload_and_server_restart(ctx, driver):
    open_page(ctx, driver)
    panel_list = open_country(driver, "FR", "France")
    first = panel_list.find_element(By.CSS_SELECTOR, ".article-link")
    title = first.find_element(By.CSS_SELECTOR, ".title").text
    first.click()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#panel article h3").text == title, what="the article view")
    ctx.screenshot(driver, "article")
    driver.find_element(By.XPATH, "//article//button[text()='Read later']").click()
    wait_for(driver, lambda d: "Saved" in d.find_element(By.CSS_SELECTOR, "#panel article [role=status]").text,
             what="the saved confirmation")

    def saved_titles():
        driver.find_element(By.ID, "open-favourites").click()
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#favourites-list .title"), what="the read-later list")
        return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#favourites-list .title")]

    driver.refresh()
    wait_until_settled(driver)
    after_reload = saved_titles()
    ctx.screenshot(driver, "read-later")
    assert after_reload == [title], f"after a reload, read later holds {after_reload}"
    ctx.server.restart()
    driver.refresh()
    wait_until_settled(driver)
    after_restart = saved_titles()
    assert after_restart == [title], f"after a server restart, read later holds {after_restart}"
    return f"“{title}” kept"


@needs(CLUSTERS, COUNTRIES, RESOLVE)
def scenario_geolocation_at_luxembourg_suggests_belgium(ctx, driver):
    set_geolocation(driver, ctx.server.url, 49.6116, 6.1319)
    driver.get(ctx.server.url + "/")
    dialog = wait_for(driver, lambda d: d.find_element(By.ID, "suggest-dialog") if d.find_element(By.ID, "suggest-dialog").get_attribute("open") is not None else None,
                      what="the suggestion dialog")
    question = dialog.find_element(By.ID, "suggest-question").text
    reason = dialog.find_element(By.ID, "suggest-reason").text
    assert question == "Centre the map on Belgium?", f"the dialog asks {question!r}"
    assert reason.startswith("Nearest marker at "), f"the reason is {reason!r}"
    ctx.screenshot(driver, "suggestion")
    moves = driver.find_element(By.ID, "map").get_attribute("data-view")
    dialog.find_element(By.XPATH, ".//button[text()='Yes']").click()
    # Yes looks the country up before the map moves: wait for that move, then for it to settle.
    wait_for(driver, lambda d: d.find_element(By.ID, "map").get_attribute("data-view") != moves, what="the move after Yes")
    view = wait_until_settled(driver)
    assert 49.4 <= view["lat"] <= 51.6 and 2.5 <= view["lon"] <= 6.5, f"Yes centred on {view}, not Belgium"
    return f"{question} {reason}"


def drop_trace(driver, name, text, media_type):
    """Drops a file named `name` holding `text` on the map, as a person drags one from their
    files, and returns the trace panel once the trace is resolved."""
    section = driver.find_element(By.ID, "trace")
    driver.execute_script("""
        const dt = new DataTransfer();
        dt.items.add(new File([arguments[1]], arguments[0], {type: arguments[2]}));
        document.getElementById('map').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
    """, name, text, media_type)
    wait_for(driver, lambda d: section.get_attribute("data-state") in ("loaded", "error"), what=f"the resolved trace {name!r}")
    assert section.get_attribute("data-state") == "loaded", f"the trace panel says {section.text!r}"
    return section


@needs(CLUSTERS, COUNTRIES, RESOLVE_BATCH)
def scenario_dropping_a_gpx_trace_paris_milan_draws_fr_ch_it(ctx, driver):
    open_page(ctx, driver)
    gpx = (HERE / "Fixtures" / "paris-milan.gpx").read_text()
    section = drop_trace(driver, "paris-milan.gpx", gpx, "application/gpx+xml")
    countries = section.get_attribute("data-countries").split(",")
    assert countries == ["FR", "CH", "IT"], f"segments {countries}"
    rows = [r.text for r in section.find_elements(By.CSS_SELECTOR, "tbody tr")]
    km = [r.find_elements(By.TAG_NAME, "td")[1].text for r in section.find_elements(By.CSS_SELECTOR, "tbody tr")]
    # The km inside each country that `geonews resolve --summary` prints for this file.
    assert km == ["384.8", "156.8", "101.7"], f"segment km {km}"
    lines = driver.find_elements(By.CSS_SELECTOR, "path.trace-segment")
    crossings = driver.find_elements(By.CSS_SELECTOR, "path.crossing")
    assert len(crossings) == 2, f"{len(crossings)} crossings drawn"
    wait_until_settled(driver)
    ctx.screenshot(driver, "trace")
    return f"segments {rows}; {len(lines)} lines, {len(crossings)} crossings"


# Markup where a file holds a trace's name: run, it would set window.__pwned.
MARKUP_NAMES = ['<img src=x onerror="window.__pwned=1">', "<script>window.__pwned=1</script>"]

# Opens the tooltip of each segment and crossing the way the mouse does (Leaflet opens a
# path's tooltip on mouseover) and returns what each shows: its text, and the elements in it.
TRACE_TOOLTIPS = """
const seen = [];
for (const path of document.querySelectorAll('path.trace-segment, path.crossing')) {
  const r = path.getBoundingClientRect();
  const at = {bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2};
  path.dispatchEvent(new MouseEvent('mouseover', at));
  // The one just opened is the last: a closed one fades out for 200 ms before it is removed.
  const tip = [...document.querySelectorAll('.leaflet-tooltip-pane .leaflet-tooltip')].pop();
  seen.push({kind: path.classList.contains('crossing') ? 'crossing' : 'segment',
             name: tip?.querySelector('strong')?.textContent ?? null, text: tip?.textContent ?? null,
             tags: tip ? [...tip.querySelectorAll('*')].map(e => e.tagName.toLowerCase()) : []});
  path.dispatchEvent(new MouseEvent('mouseout', at));
}
return seen;
"""

# Whatever markup became elements anywhere in the page, and whether any of it ran.
INJECTED = """
return {pwned: window.__pwned ?? null,
        elements: [...document.querySelectorAll('[onerror], script:not([src])')].map(e => e.outerHTML.slice(0, 80))};
"""


@needs(CLUSTERS, COUNTRIES, RESOLVE_BATCH)
def scenario_markup_in_a_trace_file_is_shown_as_text_and_never_runs(ctx, driver):
    open_page(ctx, driver)
    files = [("markup-names.gpx", "application/gpx+xml"), ("markup-names.csv", "text/csv"),
             ("markup-names.geojson", "application/geo+json")]
    shown = []
    for fixture, media_type in files:
        # The file's own name is markup too, and the panel shows it.
        name = f"{MARKUP_NAMES[0]}{Path(fixture).suffix}"
        section = drop_trace(driver, name, (HERE / "Fixtures" / fixture).read_text(), media_type)
        summary = section.find_element(By.CSS_SELECTOR, "#trace-body p").text
        assert summary == f"{name}: 8 fixes, 2 border crossings", f"{fixture}: the panel reads {summary!r}"
        countries = section.get_attribute("data-countries").split(",")
        assert countries == ["FR", "CH", "IT"], f"{fixture}: segments {countries}"
        tips = driver.execute_script(TRACE_TOOLTIPS)
        injected = driver.execute_script(INJECTED)
        assert injected == {"pwned": None, "elements": []}, f"{fixture}: markup from the file became {injected}"
        kinds = [t["kind"] for t in tips]
        assert kinds.count("segment") == 4 and kinds.count("crossing") == 2, f"{fixture}: tooltips of {kinds}"
        names = [t["name"] for t in tips]
        assert set(names) == set(MARKUP_NAMES), f"{fixture}: the tooltips name the traces {names}"
        for t in tips:
            assert t["text"].startswith(t["name"]), f"{fixture}: a tooltip reads {t['text']!r}"
            assert t["tags"] == ["div", "strong", "br"], f"{fixture}: a tooltip holds the elements {t['tags']}: {t['text']!r}"
        shown.append(f"{Path(fixture).suffix[1:]} {len(tips)} tooltips")
    # Once more after the map has settled on the last trace: an <img> made from markup runs its
    # onerror only when its fetch of "x" has failed.
    wait_until_settled(driver)
    ctx.screenshot(driver, "trace-markup")
    injected = driver.execute_script(INJECTED)
    assert injected == {"pwned": None, "elements": []}, f"markup from the files became {injected}"
    return f"{', '.join(shown)}; names shown as text, window.__pwned undefined"


@needs(CLUSTERS, COUNTRIES, HEADLINES)
def scenario_unreachable_providers_show_the_error(ctx, driver):
    server = ctx.unreachable_server()
    try:
        driver.get(server.url + "/")
        wait_until_settled(driver)
        panel_list = open_country(driver, "FR", "France")
        assert panel_list.get_attribute("data-state") == "error", f"the panel says {panel_list.text!r}"
        text = panel_list.find_element(By.CSS_SELECTOR, ".error p").text
        assert text.startswith("Headlines could not be fetched: "), f"the error reads {text!r}"
        assert panel_list.find_element(By.XPATH, ".//button[text()='Retry']").is_displayed()
        ctx.screenshot(driver, "providers-down")
        return text
    finally:
        server.stop()


@needs(CLUSTERS, COUNTRIES, HEADLINES)
def scenario_a_stale_answer_shows_its_age(ctx, driver):
    server, providers = ctx.stale_server()
    try:
        driver.get(server.url + "/")
        wait_until_settled(driver)
        panel_list = open_country(driver, "FR", "France")
        assert panel_list.get_attribute("data-state") == "loaded", f"the fresh answer: {panel_list.text!r}"
        providers.stop()
        time.sleep(1.5)  # past the one-second cache lifetime: the next request goes upstream
        driver.find_element(By.CSS_SELECTOR, "#panel [role=tab][data-category=business]").click()
        driver.find_element(By.CSS_SELECTOR, "#panel [role=tab][data-category=general]").click()
        wait_for(driver, lambda d: panel_list.get_attribute("data-state") in ("loaded", "error"), what="the second answer")
        stale = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#headlines-list .stale"), what="the stale note")[0].text
        assert re.match(r"Showing headlines cached \d+ (s|min) ago because ", stale), f"the stale note reads {stale!r}"
        assert "Google News" in stale, f"the stale note does not say which provider failed: {stale!r}"
        titles = [e.text for e in panel_list.find_elements(By.CSS_SELECTOR, ".articles .title")]
        assert titles == fixture_titles(), f"the stale answer lists {titles}"
        retry = driver.find_element(By.CSS_SELECTOR, "#headlines-list .stale button")
        assert retry.text == "Retry" and retry.is_displayed(), f"the stale note offers {retry.text!r}"
        ctx.screenshot(driver, "stale")
        retry.click()  # the providers are still down: the same stale answer comes back, its note with it
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#headlines-list .stale"), what="the stale note after Retry")
        return stale
    finally:
        server.stop()
        providers.stop()


@needs(CLUSTERS, COUNTRIES, RESOLVE)
def scenario_a_pin_in_luxembourg_shows_belgium_by_nearest_marker(ctx, driver):
    from selenium.webdriver.common.action_chains import ActionChains
    open_page(ctx, driver)
    chosen, view = search(driver, "luxemb")
    assert chosen == "LU", f"the first result for 'luxemb' is {chosen}"
    ActionChains(driver).move_to_element(driver.find_element(By.ID, "map")).click().perform()
    pin = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".leaflet-popup .pin"), what="the pin's resolution")[0]
    assert pin.get_attribute("data-suggested") == "BE", f"the pin suggests {pin.get_attribute('data-suggested')}: {pin.text!r}"
    assert pin.get_attribute("data-reason") == "nearest-marker", f"the reason is {pin.get_attribute('data-reason')}"
    assert "Luxembourg" in pin.text and "Nearest marker at " in pin.text, f"the pin reads {pin.text!r}"
    # The nearest town is the server's for the very position the pin sent.
    query = urllib.parse.urlencode({"lat": pin.get_attribute("data-lat"), "lon": pin.get_attribute("data-lon")})
    with urllib.request.urlopen(ctx.server.url + "/v1/resolve?" + query, timeout=30) as r:
        answer = json.load(r)
    place, region = answer["place"], answer["region"]
    assert place, f"the server names no place at {query}"
    assert region and region["iso3166_2"].startswith("LU-"), f"the server names region {region} at {query}"
    shown_region = pin.find_element(By.CSS_SELECTOR, ".region")
    assert shown_region.get_attribute("data-region") == region["geonamesAdmin1"], f"{shown_region.get_attribute('data-region')} against {region}"
    assert shown_region.text.startswith(region["name"]), f"the region line reads {shown_region.text!r}, the server names {region['name']}"
    shown = pin.find_element(By.CSS_SELECTOR, ".place")
    assert shown.get_attribute("data-geoname") == str(place["geonameId"]), f"{shown.get_attribute('data-geoname')} against {place}"
    assert shown.text.startswith(f"Near {place['name']}, "), f"the place line reads {shown.text!r}, the server names {place['name']}"
    wait_for(driver, lambda d: d.execute_script(
        "return getComputedStyle(document.querySelector('.leaflet-popup')).opacity") == "1", what="the popup to fade in")
    ctx.screenshot(driver, "pin")
    return " / ".join(pin.text.splitlines())


NAMELESS_CONTROLS = """
const named = (e) => (e.getAttribute('aria-label') || e.getAttribute('title') || e.textContent || '').trim()
  || (e.id && document.querySelector(`label[for="${e.id}"]`)?.textContent.trim());
return [...document.querySelectorAll('button, input, select, [role=button], [role=tab], [tabindex="0"]')]
  .filter(e => e.offsetParent !== null && !named(e)).map(e => e.outerHTML.slice(0, 80));
"""


@needs(CLUSTERS, COUNTRIES)
def scenario_the_map_is_keyboard_drivable_with_named_controls(ctx, driver):
    open_page(ctx, driver)
    search(driver, "France")  # typed and chosen with Enter
    driver.find_element(By.ID, "panel-close").send_keys(Keys.ENTER)
    marker = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon[data-iso2='FR']"), what="the FR marker")[0]
    assert marker.get_attribute("tabindex") == "0", "markers are not in the tab order"
    driver.execute_script("arguments[0].focus()", marker)
    marker.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: d.find_element(By.ID, "panel").is_displayed(), what="the panel after Enter on the marker")
    active = driver.switch_to.active_element
    assert active.get_attribute("role") == "tab" and active.text == "General", f"focus is on {active.get_attribute('outerHTML')[:80]}"
    active.send_keys(Keys.ARROW_RIGHT)
    selected = driver.find_element(By.CSS_SELECTOR, "#panel [role=tab][aria-selected=true]").text
    assert selected == "Business", f"ArrowRight selected {selected}"
    nameless = driver.execute_script(NAMELESS_CONTROLS)
    assert not nameless, f"controls without an accessible name: {nameless}"
    return "search, marker, tabs by keyboard; every visible control named"


ACTIVE_CONTROL = """
const e = document.activeElement;
const name = (e.getAttribute('aria-label') || e.getAttribute('title') || e.textContent || '').trim()
  || (e.id && document.querySelector(`label[for="${e.id}"]`)?.textContent.trim()) || '';
const r = e.getBoundingClientRect(), v = document.getElementById('map').getBoundingClientRect();
return {id: e.id, tag: e.tagName.toLowerCase(), name: name.replace(/\\s+/g, ' ').slice(0, 60),
        marker: e.classList.contains('leaflet-marker-icon'), visible: e === document.body || e.offsetParent !== null,
        inView: r.right > v.left && r.left < v.right && r.bottom > v.top && r.top < v.bottom};
"""


def tab_walk(driver, presses, shift=False):
    """Presses Tab (or Shift+Tab) and returns what had the focus after each press."""
    from selenium.webdriver.common.action_chains import ActionChains
    seen = []
    for _ in range(presses):
        chain = ActionChains(driver)
        if shift:
            chain.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT)
        else:
            chain.send_keys(Keys.TAB)
        chain.perform()
        seen.append(driver.execute_script(ACTIVE_CONTROL))
    return seen


@needs(CLUSTERS, COUNTRIES, HEADLINES)
def scenario_every_control_is_reached_by_tab_and_named(ctx, driver):
    open_page(ctx, driver)
    global_view(driver)
    driver.execute_script("document.activeElement.blur()")
    seen = tab_walk(driver, 90)
    ids = [c["id"] for c in seen]
    for control in ("search-input", "global-view", "my-position", "open-trace", "open-favourites", "open-settings", "map"):
        assert control in ids, f"Tab never reaches #{control}: {ids}"
    names = {c["name"] for c in seen}
    assert {"Zoom in", "Zoom out"} <= names, f"Tab never reaches the zoom buttons: {sorted(names)}"
    markers = [c["name"] for c in seen if c["marker"]]
    assert len(markers) >= 5, f"Tab reaches {len(markers)} markers: {markers}"
    nameless = [c for c in seen if c["tag"] != "body" and not c["name"]]
    assert not nameless, f"focused controls without an accessible name: {nameless}"
    outside = [c["name"] for c in seen if c["marker"] and not c["inView"]]
    assert not outside, f"Tab lands on markers outside the view: {outside}"
    hidden = [c for c in seen if not c["visible"]]
    assert not hidden, f"Tab lands on controls that are not shown: {hidden}"
    # Focusing a marker out of view must not scroll the map's box (the tiles would slide off the panes).
    scrolled = driver.execute_script("const m = document.getElementById('map'); return [m.scrollLeft, m.scrollTop];")
    assert scrolled == [0, 0], f"Tab scrolled the map's box by {scrolled}"
    # The panel: opened from a marker with Enter, walked through, closed with Escape.
    marker = next(m for m in driver.find_elements(By.CSS_SELECTOR, ".leaflet-marker-icon[data-iso2]"))
    driver.execute_script("arguments[0].focus()", marker)
    marker.send_keys(Keys.ENTER)
    wait_for(driver, lambda d: d.find_element(By.ID, "headlines-list").get_attribute("data-state") in ("loaded", "empty", "error"),
             what="the headlines")
    ctx.screenshot(driver, "panel-by-keyboard")
    in_panel = []
    while len(in_panel) < 4 and (not in_panel or in_panel[-1]["id"] != "panel-close"):
        in_panel += tab_walk(driver, 1, shift=True)
    assert in_panel[-1]["id"] == "panel-close", f"Shift+Tab from the tabs does not reach Close: {in_panel}"
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert not driver.find_element(By.ID, "panel").is_displayed(), "Escape leaves the panel open"
    driver.find_element(By.ID, "open-settings").send_keys(Keys.ENTER)
    labels = wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#panel .settings label"), what="the settings form")
    assert [l.text for l in labels] == ["Favourite news country", "News language", "Country names in"], \
        f"settings labels {[l.text for l in labels]}"
    ctx.screenshot(driver, "settings")
    stops = {(c["id"], c["name"]) for c in seen}
    return f"{len(stops)} distinct stops in {len(seen)} presses, {len(set(markers))} of them markers, every one named"


@needs(CLUSTERS, DATASETS)
def scenario_a_dataset_is_clustered_with_an_altitude_readout(ctx, driver):
    import random
    import urllib.request
    rng = random.Random(14)
    rows = ["lat,lon"] + [f"{rng.uniform(-60, 70):.5f},{rng.uniform(-180, 180):.5f}" for _ in range(5000)]
    with urllib.request.urlopen(urllib.request.Request(ctx.server.url + "/v1/users", data=b"", method="POST"), timeout=30) as r:
        token = json.loads(r.read())["token"]
    request = urllib.request.Request(ctx.server.url + "/v1/datasets", data=("\n".join(rows) + "\n").encode(),
                                     headers={"Content-Type": "text/csv", "Authorization": f"Bearer {token}"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as r:
        dataset = json.loads(r.read())["id"]
    open_page(ctx, driver, f"/?dataset={dataset}")
    global_view(driver)
    total = sum(c for c, _, _ in marker_counts(driver))
    assert total == 5000, f"the bubbles of the dataset count {total}, not 5000"
    readout = driver.find_element(By.ID, "readout").text
    assert readout.startswith("altitude 15,000 km"), f"the readout says {readout!r}"
    ctx.screenshot(driver, "dataset")
    return f"5000 points in {len(marker_counts(driver))} items; {readout}"


@needs(CLUSTERS, COUNTRIES, RESOLVE, HEADLINES)
def scenario_local_news_for_my_position_and_a_right_click(ctx, driver):
    from selenium.webdriver.common.action_chains import ActionChains
    set_geolocation(driver, ctx.server.url, 45.764, 4.8357)
    driver.get(ctx.server.url + "/")
    dialog = wait_for(driver, lambda d: d.find_element(By.ID, "suggest-dialog") if d.find_element(By.ID, "suggest-dialog").get_attribute("open") is not None else None,
                      what="the suggestion dialog")
    dialog.find_element(By.XPATH, ".//button[text()='No']").click()
    wait_until_settled(driver)

    def local_panel():
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#local-list[data-state=loaded], #local-list[data-state=empty], #local-list[data-state=error]"),
                 what="the local news")
        listing = driver.find_element(By.ID, "local-list")
        assert listing.get_attribute("data-state") == "loaded", f"the local panel reads {listing.text!r}"
        return listing

    # "Me": the browser's position, its town's news first.
    driver.find_element(By.ID, "my-position").click()
    listing = local_panel()
    where = driver.find_element(By.CSS_SELECTOR, "#panel .local-where").text
    assert where.endswith("Lyon · Auvergne-Rhône-Alpes · France"), f"the panel is headed {where!r}"
    scopes = [li.get_attribute("data-scope") for li in listing.find_elements(By.CSS_SELECTOR, ".articles li")]
    with urllib.request.urlopen(ctx.server.url + "/v1/headlines?lat=45.76400&lon=4.83570&limit=20", timeout=30) as r:
        answer = json.load(r)
    assert scopes == [a["scope"] for a in answer["articles"]], f"the panel lists scopes {scopes}, the server {answer['scopes']}"
    assert scopes[:3] == ["town"] * 3 and set(scopes[3:]) == {"country"}, f"scopes {scopes}"
    titles = [e.text for e in listing.find_elements(By.CSS_SELECTOR, ".articles .title")]
    assert titles == [a["title"] for a in answer["articles"]], f"the panel lists {titles}"
    marks = [e.text for e in listing.find_elements(By.CSS_SELECTOR, ".articles .scope")]
    assert marks[0].upper() == "LYON" and marks[-1].upper() == "NATIONAL", f"the marks read {marks}"
    note = listing.find_element(By.CSS_SELECTOR, ".fallback").text
    assert note == "No news about Auvergne-Rhône-Alpes right now.", f"the fallback note reads {note!r}"
    ctx.screenshot(driver, "local-news")

    # The switch to the national front page.
    driver.find_element(By.CSS_SELECTOR, "#panel button.national").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#headlines-list[data-state=loaded]"), what="France's headlines")
    national = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#headlines-list .articles .title")]
    assert national == fixture_titles(), f"the national panel lists {national}"

    # A right click anywhere: the local news of that point (the map is centred on Lyon). The
    # panel is closed first: on a phone it is a bottom sheet over the map's centre.
    driver.find_element(By.ID, "panel-close").click()
    ActionChains(driver).move_to_element(driver.find_element(By.ID, "map")).context_click().perform()
    local_panel()
    at = driver.find_element(By.CSS_SELECTOR, "#panel .local-where")
    lat, lon = float(at.get_attribute("data-lat")), float(at.get_attribute("data-lon"))
    assert abs(lat - 45.764) < 0.05 and abs(lon - 4.8357) < 0.05, f"the right click asked for {lat}, {lon}"
    return f"{where}: {len(titles)} articles, scopes {' '.join(scopes)}"


SCENARIOS = [
    scenario_bubbles_at_15000_km_sum_to_54,
    scenario_clicking_a_bubble_flies_to_its_expansion_zoom,
    scenario_searching_japon_centres_on_japan,
    scenario_clicking_france_lists_the_fixture_headlines,
    scenario_a_favourite_survives_reload_and_server_restart,
    scenario_geolocation_at_luxembourg_suggests_belgium,
    scenario_dropping_a_gpx_trace_paris_milan_draws_fr_ch_it,
    scenario_markup_in_a_trace_file_is_shown_as_text_and_never_runs,
    scenario_unreachable_providers_show_the_error,
    scenario_a_stale_answer_shows_its_age,
    scenario_a_pin_in_luxembourg_shows_belgium_by_nearest_marker,
    scenario_the_map_is_keyboard_drivable_with_named_controls,
    scenario_every_control_is_reached_by_tab_and_named,
    scenario_a_dataset_is_clustered_with_an_altitude_readout,
    scenario_local_news_for_my_position_and_a_right_click,
]
