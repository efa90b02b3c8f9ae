"""Headless Debian Chromium driven by selenium (chromium-driver), with the DevTools calls the
scenarios need: geolocation override and permission grants, sizes, screenshots."""
import os

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PHONE = (390, 844)
DESKTOP = (1280, 800)


def chromium(size=DESKTOP):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking", "--lang=en-GB"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={size[0]},{size[1]}")
    driver = webdriver.Chrome(options=options,
                              service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
    set_size(driver, size)
    return driver


def set_size(driver, size):
    """The viewport (not the window) at exactly width × height CSS pixels."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})


def set_geolocation(driver, origin, lat, lon):
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": 10})


def wait_for(driver, predicate, timeout=15, what="condition"):
    """Waits until predicate(driver) is truthy and returns it (a readiness wait, not a timing check)."""
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: predicate(d))
    except Exception as e:
        raise AssertionError(f"timed out waiting for {what}") from e


def map_view(driver):
    el = driver.find_element(By.ID, "map")
    return {k: float(el.get_attribute(f"data-{k}")) for k in ("zoom", "lat", "lon")}


def wait_until_settled(driver, timeout=20):
    """Waits until the map has stopped moving and the markers of its current view are drawn."""
    wait_for(driver, lambda d: d.execute_script(
        "const m = document.getElementById('map');"
        "return m.dataset.moving === undefined && m.dataset.clustersView === m.dataset.view;"),
        timeout=timeout, what="the map to settle with its markers drawn")
    return map_view(driver)
