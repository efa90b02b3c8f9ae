"""The news providers on loopback, in their exact wire formats, from the Swift tests' own
fixtures (Tests/GeoNewsHeadlinesTests/Fixtures): Google News RSS answers France's edition
with google-news-fr.xml and every other edition with google-news-empty.xml, and a search for
"Lyon" with google-news-search-lyon.xml (any other search with the empty feed); NewsAPI and GNews
answer their fixtures' top headlines. geonews-serve reaches it through GEONEWS_GOOGLE_NEWS_URL,
GEONEWS_NEWSAPI_URL and GEONEWS_GNEWS_URL. It counts the requests it answers."""
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "GeoNewsHeadlinesTests" / "Fixtures"


def fixture(name):
    return (FIXTURES / name).read_bytes()


class ProviderHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        self.server.requests.append(self.path)
        if url.path == "/rss/search":
            # Local news: the Lyon search feed for Lyon, nothing for any other town or region.
            found = query.get("q", [""])[0].startswith('"Lyon"')
            return self.answer(200, "application/xml; charset=utf-8", fixture("google-news-search-lyon.xml" if found else "google-news-empty.xml"))
        if url.path.startswith("/rss"):
            edition = query.get("gl", [""])[0].upper()
            body = fixture("google-news-fr.xml" if edition == "FR" else "google-news-empty.xml")
            return self.answer(200, "application/xml; charset=utf-8", body)
        if url.path == "/v2/top-headlines":
            return self.answer(200, "application/json", fixture("newsapi-top-us.json"))
        if url.path == "/api/v4/top-headlines":
            return self.answer(200, "application/json", fixture("gnews-top-fr.json"))
        self.answer(404, "text/plain", b"not found")

    def answer(self, status, content_type, body):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class ProviderFixtureServer:
    """Starts on an ephemeral loopback port; `url` is its scheme://host:port."""

    def __init__(self):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), ProviderHandler)
        self.httpd.requests = []
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def requests(self):
        return self.httpd.requests

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def fixture_titles():
    """The France fixture's headline titles as the library gives them (without " - Publisher")."""
    import xml.etree.ElementTree as ET
    items = ET.fromstring(fixture("google-news-fr.xml")).iter("item")
    titles = []
    for item in items:
        title, source = item.findtext("title"), item.findtext("source")
        if source and title.endswith(" - " + source):
            title = title[: -len(" - " + source)]
        titles.append(title)
    return titles
