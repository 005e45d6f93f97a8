"""The built documentation site in a real browser (headless Chromium through Selenium).

Run by ``nox -s docs`` after ``mkdocs build``; the site directory is
``$HERMES_DOCS_SITE`` (default ``site/``). Every page of the navigation must
render with its title and without raw Sphinx roles, API pages must show
signatures, and the search must find ``select_context``.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import yaml

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("HERMES_DOCS_SITE", ROOT / "site"))
CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def nav_pages() -> list[str]:
    """Every page of mkdocs.yml's navigation, as docs-relative paths."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    pages: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, str):
            pages.append(node)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)

    walk(config["nav"])
    return pages


def url_path(page: str) -> str:
    stem = page.removesuffix(".md")
    if stem == "index":
        return "/"
    return "/" + stem.removesuffix("/index").removesuffix("index") + "/"


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    if not (SITE / "index.html").exists():
        pytest.fail(f"no built site in {SITE}: run mkdocs build (nox -s docs does)")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    for program in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(program):
            pytest.fail(f"{program} is missing: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",  # CI runs as root
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1024",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.mark.parametrize("page", nav_pages())
def test_every_page_renders_with_its_title_and_no_raw_roles(
    browser: WebDriver, site_url: str, page: str
) -> None:
    from selenium.webdriver.common.by import By

    driver = browser
    driver.get(site_url + url_path(page))
    heading = driver.find_element(By.CSS_SELECTOR, "article h1")
    assert heading.text.strip()
    text = driver.find_element(By.CSS_SELECTOR, "article").text
    for role in (":meth:", ":func:", ":class:", ":data:", ":mod:", ":attr:"):
        assert role not in text, f"{page} shows a raw Sphinx role {role}"
    assert "hermes-context/hermes-context" in driver.page_source
    stray = driver.execute_script(STRAY_TAGS)
    assert stray == [], f"{page}: text was taken for HTML tags {stray}"
    cut = driver.execute_script(CUT_SIGNATURES)
    assert cut == [], f"{page}: signatures cut at the right edge: {cut}"
    if page.startswith("api/") and page != "api/index.md":
        signatures = driver.find_elements(By.CSS_SELECTOR, ".doc-signature")
        assert signatures, f"{page} shows no signature"


#: Elements in a page's article that no markdown or mkdocstrings writes: text such as
#: ``<dir>/context_engine/<name>/`` taken for tags (the text vanishes, and what follows
#: renders nested inside them).
STRAY_TAGS = """
const obsolete = new Set(["DIR", "FONT", "CENTER", "MARQUEE", "BLINK", "BASEFONT"]);
return Array.from(document.querySelectorAll("article *"))
  .filter(e => e instanceof HTMLUnknownElement || obsolete.has(e.tagName))
  .map(e => e.tagName.toLowerCase());
"""

#: Signatures wider than their box (scrolled, so cut where the page ends).
CUT_SIGNATURES = """
return Array.from(document.querySelectorAll(".doc-signature code"))
  .filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => e.textContent.slice(0, 60));
"""


def test_every_hook_on_the_contract_page_has_its_description(
    browser: WebDriver, site_url: str
) -> None:
    from selenium.webdriver.common.by import By

    from hermes_core.hooks._specs import ContextEngineSpec, PluginSpec

    driver = browser
    driver.get(site_url + "/contract/")
    for spec in (ContextEngineSpec, PluginSpec):
        for hook in (name for name in vars(spec) if not name.startswith("_")):
            anchor = f"hermes_core.hooks.{spec.__name__}.{hook}"
            heading = driver.find_element(By.ID, anchor)
            contents = heading.find_element(
                By.XPATH, "following-sibling::div[contains(@class, 'doc-contents')][1]"
            )
            words = contents.text.split()
            assert len(words) >= 8, f"{hook}: no description on the contract page ({words})"
            if spec is ContextEngineSpec:  # an engine hook says what happens when it fails
                assert "When the engine fails or is late, the agent gets" in contents.text, hook


def test_every_configuration_key_has_its_section_in_the_reference(
    browser: WebDriver, site_url: str
) -> None:
    from hermes_engine_lcm.settings import RULES as LCM
    from selenium.webdriver.common.by import By

    from hermes_compressor.settings import RULES as COMPRESSOR
    from hermes_core.config import KEYS

    driver = browser
    driver.get(site_url + "/configuration/")
    # direct children of the article: a key nested in stray markup does not count
    headings = {
        h.text.strip().rstrip("¶").strip()
        for h in driver.find_elements(By.XPATH, "//article/h3")
        if h.is_displayed()
    }
    missing = [rule.path for rule in (*KEYS, *COMPRESSOR, *LCM) if rule.path not in headings]
    assert missing == [], f"keys without a section in the configuration reference: {missing}"


def test_the_contract_page_has_one_toc_entry_per_hook(browser: WebDriver, site_url: str) -> None:
    from selenium.webdriver.common.by import By

    from hermes_core.hooks._specs import ContextEngineSpec, PluginSpec

    driver = browser
    driver.get(site_url + "/contract/")
    entries = [
        str(link.get_attribute("textContent")).split()[-1]
        for link in driver.find_elements(By.CSS_SELECTOR, ".md-sidebar--secondary .md-nav__link")
    ]
    for spec in (ContextEngineSpec, PluginSpec):
        for hook in (name for name in vars(spec) if not name.startswith("_")):
            assert entries.count(hook) == 1, f"{hook} appears {entries.count(hook)} times"


def test_search_finds_select_context(browser: WebDriver, site_url: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser
    driver.get(site_url + "/?q=select_context")
    results = WebDriverWait(driver, 60).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, ".md-search-result__item")
    )
    assert results
    assert "select_context" in results[0].text


#: Code blocks a reader cannot read whole: wider than their box without a scrollbar, or
#: reaching past the window's right edge.
CUT_CODE = """
return Array.from(document.querySelectorAll("article pre > code")).filter(code => {
  const pre = code.parentElement;
  const scrolls = [getComputedStyle(code).overflowX, getComputedStyle(pre).overflowX]
    .some(value => value === "auto" || value === "scroll");
  const wider = code.scrollWidth > code.clientWidth + 1;
  return (wider && !scrolls) || pre.getBoundingClientRect().right > window.innerWidth + 1;
}).map(code => code.textContent.slice(0, 60));
"""

#: Pictures that did not load.
BROKEN_IMAGES = """
return Array.from(document.querySelectorAll("article img"))
  .filter(image => !image.complete || image.naturalWidth === 0)
  .map(image => image.getAttribute("src"));
"""


@pytest.mark.parametrize("page", nav_pages())
def test_code_fits_or_scrolls_and_pictures_load_on_a_laptop_screen(
    browser: WebDriver, site_url: str, page: str
) -> None:
    browser.set_window_size(1366, 768)
    try:
        browser.get(site_url + url_path(page))
        assert browser.execute_script(CUT_CODE) == [], f"{page}: code cut at the right edge"
        assert browser.execute_script(BROKEN_IMAGES) == [], f"{page}: a picture did not load"
    finally:
        browser.set_window_size(1280, 1024)


@pytest.mark.parametrize(
    ("page", "picture"),
    [
        ("index.md", "assets/replay.svg"),
        ("lcm.md", "assets/lcm-store.svg"),
        ("hermes-agent.md", "assets/hermes-interop.svg"),
    ],
)
def test_the_pages_show_their_pictures(
    browser: WebDriver, site_url: str, page: str, picture: str
) -> None:
    from selenium.webdriver.common.by import By

    browser.get(site_url + url_path(page))
    images = browser.find_elements(By.CSS_SELECTOR, "article img")
    shown = [image for image in images if (image.get_attribute("src") or "").endswith(picture)]
    assert shown and shown[0].size["width"] > 300, f"{page} does not show {picture}"
    assert (shown[0].get_attribute("alt") or "").strip(), f"{picture} has no description"
