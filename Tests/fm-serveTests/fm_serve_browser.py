"""fm serve from a browser: fm_serve_browser.html, served on one origin (a
static server on 127.0.0.1 that FMServeBrowserTests.swift starts), loaded in
headless Chromium, asks fm serve on another origin for an answer.

Modes:
- `allowed`: fm serve was started with `--cors-origin PAGE_ORIGIN`. The page
  shows an answer (its DOM, read with --dump-dom), the very answer fm serve
  gives the same request from outside the browser (greedy), with its finish
  reason and the x-request-id the server exposes to the page; the
  screenshot shows the page's green answer box with text on it.
- `off`: fm serve was started without `--cors-origin`. The browser refuses
  the answer: the page shows the fetch's TypeError and no answer, on its
  red box, while the same request from outside the browser is answered (so
  the refusal is the browser's, not a server that is down).

Usage: python fm_serve_browser.py PAGE_URL API_BASE_URL API_KEY MODEL_NAME CHROMIUM MODE

Prints `ok: NAME` for each check that passed and `FAILED: NAME: why` for
each that did not, `info: ...` lines (the page's text, timings); exits 1 if
any check failed.
"""
import html.parser
import os
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import zlib

import openai

from fm_serve_checks import check, finish, info

page_url, api_base, api_key, model_name, chromium, mode = sys.argv[1:7]
PROMPT = "Name a color."
MAX_TOKENS = 12           # the page's max_tokens
WIDTH, HEIGHT = 640, 360  # the screenshot's size
GREEN, RED = (0x00, 0xA0, 0x00), (0xD0, 0x00, 0x00)  # the page's answer and refusal boxes
BROWSER_TIMEOUT = 180     # seconds a Chromium run may take (about 1 s when the machine is free)

url = page_url + "?" + urllib.parse.urlencode({"api": api_base, "key": api_key, "model": model_name, "prompt": PROMPT})


def run_chromium(*arguments):
    """Chromium, headless, on the page: its standard output."""
    with tempfile.TemporaryDirectory(prefix="fm-chromium-") as profile:
        command = [
            chromium, "--headless",
            # Chromium will not start as root without it (its sandbox needs
            # user namespaces a root process in a container may not have);
            # the page is our own, served on loopback.
            "--no-sandbox",
            "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-dev-shm-usage",
            f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}",
            # Virtual time waits for the page's fetch (real network time
            # does not count against it) and then for the DOM to settle.
            "--virtual-time-budget=60000",
            *arguments, url,
        ]
        started = time.time()
        result = subprocess.run(command, capture_output=True, text=True, timeout=BROWSER_TIMEOUT, cwd=profile)
        info(f"chromium {' '.join(arguments)}: exit {result.returncode} in {time.time() - started:.1f} s")
        if result.returncode != 0:
            info("chromium's error output: " + result.stderr.strip().replace("\n", " | ")[-600:])
        return result.stdout


class Elements(html.parser.HTMLParser):
    """The text of each element with an id."""

    def __init__(self):
        super().__init__()
        self.text, self.open = {}, []

    def handle_starttag(self, tag, attributes):
        identifier = dict(attributes).get("id")
        self.open.append(identifier)
        if identifier:
            self.text[identifier] = ""

    def handle_endtag(self, tag):
        if self.open:
            self.open.pop()

    def handle_data(self, data):
        for identifier in self.open:
            if identifier:
                self.text[identifier] += data


def page_elements():
    parser = Elements()
    parser.feed(run_chromium("--dump-dom"))
    return parser.text


def png_pixels(data):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit, non-interlaced
    RGB or RGBA PNG, as Chromium writes its screenshots."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    position, chunks, header = 8, [], None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        raise ValueError(f"a PNG this reader does not take: depth {depth}, color type {color}, interlace {interlace}")
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            upper_left = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                estimate = left + up - upper_left
                distances = (abs(estimate - left), abs(estimate - up), abs(estimate - upper_left))
                predictor = left if distances[0] <= distances[1] and distances[0] <= distances[2] else up if distances[1] <= distances[2] else upper_left
                line[x] = (line[x] + predictor) & 0xFF
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def screenshot():
    """The page's screenshot: (width, height, {color: pixels}), or None."""
    with tempfile.TemporaryDirectory(prefix="fm-screenshot-") as folder:
        path = os.path.join(folder, "page.png")
        run_chromium(f"--screenshot={path}")
        if not os.path.exists(path):
            return None
        with open(path, "rb") as file:
            width, height, rows = png_pixels(file.read())
    counts = {}
    for row in rows:
        for pixel in row:
            counts[pixel] = counts.get(pixel, 0) + 1
    return width, height, counts


def direct_answer():
    """The page's request, sent from outside the browser: the answer's text, or an exception."""
    client = openai.OpenAI(base_url=api_base, api_key=api_key, max_retries=0, timeout=120)
    try:
        reply = client.chat.completions.create(
            model=model_name, messages=[{"role": "user", "content": PROMPT}], max_tokens=MAX_TOKENS, temperature=0,
        )
        return reply.choices[0].message.content
    except Exception as error:  # noqa: BLE001
        return error


started = time.time()
elements = page_elements()
info(f"the page ({mode}): " + "; ".join(f"#{key}: {value.strip()[:120]!r}" for key, value in elements.items() if key != "box"))
direct = direct_answer()
shot = screenshot()
if shot:
    width, height, counts = shot
    pixels = width * height
    green, red = counts.get(GREEN, 0), counts.get(RED, 0)
    info(f"screenshot: {width}x{height}, {len(counts)} colors, {100 * green / pixels:.0f}% green, {100 * red / pixels:.0f}% red")
else:
    info("no screenshot")

if mode == "allowed":
    answer = elements.get("answer", "")
    check("browser, CORS allowed: the page shows an answer", elements.get("state") == "answered" and answer.strip() != "",
          f"state {elements.get('state')!r}, error {elements.get('error')!r}")
    check("browser, CORS allowed: it is the answer fm serve gives the same request (greedy)",
          isinstance(direct, str) and answer == direct, f"page {answer!r}, direct {direct!r}")
    check("browser, CORS allowed: the page shows the finish reason", elements.get("finish") in ("stop", "length"),
          repr(elements.get("finish")))
    request_id = elements.get("request-id", "")
    check("browser, CORS allowed: the page reads the exposed x-request-id", request_id.startswith("req_") and len(request_id) == 36,
          repr(request_id))
    check("browser, CORS allowed: the screenshot shows the answer box with text on it",
          shot is not None and shot[:2] == (WIDTH, HEIGHT) and green > pixels // 2 and red == 0 and len(counts) > 2,
          f"{shot[:2] if shot else None}: green {green if shot else None}, red {red if shot else None}, "
          f"{len(counts) if shot else 0} colors")
elif mode == "off":
    error = elements.get("error", "")
    check("browser, CORS off: the page shows the refused fetch and no answer",
          elements.get("state") == "refused" and "answer" not in elements and "Failed to fetch" in error,
          f"state {elements.get('state')!r}, error {error!r}, answer {elements.get('answer')!r}")
    check("browser, CORS off: the same request from outside the browser is answered",
          isinstance(direct, str) and direct.strip() != "", repr(direct))
    check("browser, CORS off: the screenshot shows the refusal box with text on it",
          shot is not None and shot[:2] == (WIDTH, HEIGHT) and red > pixels // 2 and green == 0 and len(counts) > 2,
          f"{shot[:2] if shot else None}: green {green if shot else None}, red {red if shot else None}, "
          f"{len(counts) if shot else 0} colors")
else:
    check(f"a known mode ({mode})", False, "allowed or off")
info(f"elapsed: {time.time() - started:.1f} s")
finish()
