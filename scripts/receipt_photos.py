"""Photos of the eval's fuel receipts, for the OCR path.

The OCR path needs the receipts of eval/corpora/receipts.json as pictures:
this prints each receipt's rows on a narrow thermal slip, lays it on a
darker table and "photographs" it at a noise level, clean, light or heavy,
deterministically (the same rows at the same level give the same PNG, byte
for byte). The truth stays in the JSON: DIR/<id>.png is item <id>.

`make eval` renders the corpus, and a test one hand-written receipt (one
row a line); each written path is printed on its own line:

    "$(scripts/photo_env.sh)" scripts/receipt_photos.py \
        --corpus eval/corpora/receipts.json --noise light --output DIR [--only ID ...]
    "$(scripts/photo_env.sh)" scripts/receipt_photos.py \
        --rows-file rows.txt --noise clean --output receipt.png

Needs Pillow (pinned by scripts/photo_env.sh) and DejaVu Sans Mono
(Debian's fonts-dejavu-core).
"""

import argparse
import hashlib
import io
import json
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageOps

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
REGULAR_FONT = FONT_DIR / "DejaVuSansMono.ttf"
BOLD_FONT = FONT_DIR / "DejaVuSansMono-Bold.ttf"

FONT_SIZE = 42            # px; DejaVu's x-height is ~0.55 em: ~23 px, ~300 dpi
BRAND_SCALE = 1.5         # the brand row, bold
PAPER_COLUMNS = 42        # characters across the slip
LINE_SPACING = 1.45       # baseline to baseline, in font sizes
PAPER_PADDING = 48        # px of blank paper around the print
TABLE_MARGIN = 110        # px of table around the slip
SPLIT_MAX_LENGTH = 30     # longest row that may be split label | amount
HEADER_MAX_ROWS = 4       # rows after the brand that may be centred

DATE = re.compile(r"\d{1,2}[./-]\d{1,2}[./-]\d{2,4}")
DECIMAL = re.compile(r"\d[.,]\d")
# A label with a letter, then an amount: a word with a decimal number or four
# digits (a code, a card's last digits), and at most two short words without
# digits after it (a unit, a currency: `EUR`, `€/l`, `L`).
LABEL_AMOUNT = re.compile(r"(?P<label>.*?[^\W\d_].*?)\s+(?P<amount>\S*(?:\d[.,]\d|\d{4})\S*(?:\s+[^\s\d]{1,4}){0,2})")

INK = 28                  # grey level of fresh thermal print
PAPER = 246               # grey level of the slip
TABLE = 96                # grey level of the table


@dataclass(frozen=True)
class Level:
    """How badly a receipt is photographed."""

    rotation: float       # degrees, at most this either way
    blur: float           # Gaussian radius in px
    noise: float          # largest swing of the sensor noise, 0..1 of full scale
    fade: float           # 0 fresh print .. 1 ink as light as the paper
    light: float          # depth of the uneven lighting, 0..1
    downscale: float      # resize to this fraction and back (1: none)
    jpeg_quality: int     # compress once at this quality (0: never)


# Tesseract 5 reads the grey image, and pixel noise costs it far more than
# blur, tilt or faded ink: light keeps noise faint (and JPEG smooths it);
# heavy's noise is what makes it hard. Tuned on the corpus with
# `tesseract --psm 6`: light keeps ~90% of the totals, volumes and unit
# prices as printed, heavy ~65% (clean ~99%).
LEVELS = {
    "clean": Level(rotation=0, blur=0, noise=0, fade=0, light=0, downscale=1, jpeg_quality=0),
    "light": Level(rotation=1.5, blur=1.3, noise=0.02, fade=0.1, light=0.18, downscale=1, jpeg_quality=60),
    "heavy": Level(rotation=3.5, blur=1.6, noise=0.25, fade=0.5, light=0.35, downscale=0.5, jpeg_quality=30),
}


def fail(message):
    """Says what is wrong on stderr and exits 2."""
    print(f"receipt_photos: {message}", file=sys.stderr)
    sys.exit(2)


def load_fonts():
    """The regular, brand (bold, bigger) fonts; exits 2 when DejaVu is missing."""
    for path in (REGULAR_FONT, BOLD_FONT):
        if not path.is_file():
            fail(f"font {path} is missing (install Debian's fonts-dejavu-core)")
    basic = ImageFont.Layout.BASIC
    regular = ImageFont.truetype(str(REGULAR_FONT), FONT_SIZE, layout_engine=basic)
    brand = ImageFont.truetype(str(BOLD_FONT), round(FONT_SIZE * BRAND_SCALE), layout_engine=basic)
    return regular, brand


def layout(rows):
    """Each row as (align, left, right): how the slip prints it.

    The first row is the brand; the few rows after it, up to the first one
    with a date or an amount in it, are the address block and, like the
    last row when it has no digit (the farewell), are centred. A row of at
    most SPLIT_MAX_LENGTH characters, without a date, that is a label and
    an amount (LABEL_AMOUNT) prints label left, amount right, with the gap
    between. Any other row prints left as written.
    """
    lines = []
    header = True
    for index, row in enumerate(rows):
        text = row.strip()
        if index == 0:
            lines.append(("brand", text, ""))
            continue
        header = header and index <= HEADER_MAX_ROWS and not DATE.search(text) and not DECIMAL.search(text)
        farewell = index == len(rows) - 1 and not any(c.isdigit() for c in text)
        split = LABEL_AMOUNT.fullmatch(text)
        if header or farewell:
            lines.append(("centre", text, ""))
        elif split and len(text) <= SPLIT_MAX_LENGTH and not DATE.search(text):
            lines.append(("split", split["label"], split["amount"]))
        else:
            lines.append(("left", text, ""))
    return lines


def print_slip(rows, fonts):
    """The slip as a greyscale image: ink 0 on paper 255, rows top to bottom."""
    regular, brand = fonts
    advance = regular.getlength("M")
    columns = max([PAPER_COLUMNS] + [len(row.strip()) for row in rows[1:]])
    width = round(columns * advance) + 2 * PAPER_PADDING
    line = round(FONT_SIZE * LINE_SPACING)
    brand_line = round(FONT_SIZE * BRAND_SCALE * LINE_SPACING)
    height = 2 * PAPER_PADDING + brand_line + line * (len(rows) - 1) + line
    slip = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(slip)
    left, right, y = PAPER_PADDING, width - PAPER_PADDING, PAPER_PADDING
    for align, text, amount in layout(rows):
        if align == "brand":
            font = brand
            while font.getlength(text) > right - left and font.size > FONT_SIZE:
                font = font.font_variant(size=font.size - 2)
            draw.text(((left + right) / 2, y), text, font=font, fill=0, anchor="ma")
            y += brand_line
            continue
        if align == "centre":
            draw.text(((left + right) / 2, y), text, font=regular, fill=0, anchor="ma")
        else:
            draw.text((left, y), text, font=regular, fill=0, anchor="la")
        if amount:
            draw.text((right, y), amount, font=regular, fill=0, anchor="ra")
        y += line
    return slip


def dice(name, level):
    """A random generator seeded from the receipt's name and the level (sha256)."""
    digest = hashlib.sha256(f"{name}\0{level}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def noise_field(size, rng):
    """Zero-centred (128) noise, roughly Gaussian: the mean of two uniform fields.

    The bytes come from SHAKE-256 keyed by the generator, so they are the same
    on every Python and platform.
    """
    fields = []
    for _ in range(2):
        key = rng.getrandbits(128).to_bytes(16, "big")
        fields.append(Image.frombytes("L", size, hashlib.shake_256(key).digest(size[0] * size[1])))
    return ImageChops.add(fields[0], fields[1], scale=2)


def lighting(size, rng, depth):
    """A light map (255 full light): a linear falloff at a random angle, darker corners."""
    ramp = Image.linear_gradient("L").rotate(rng.uniform(0, 360), resample=Image.Resampling.BILINEAR, fillcolor=255)
    ramp = ramp.crop((48, 48, 208, 208)).resize(size, Image.Resampling.BILINEAR)
    vignette = Image.radial_gradient("L").crop((16, 16, 240, 240)).resize(size, Image.Resampling.BILINEAR)
    shade = ImageChops.add(ramp, vignette, scale=2)
    low = round(255 * (1 - depth))
    return shade.point(lambda v: 255 - (255 - low) * v // 255)


def photograph(slip, level, rng):
    """The slip on a table, photographed at the level: an RGB image."""
    ink = round(INK + (PAPER - INK) * level.fade * rng.uniform(0.8, 1.0))
    paper = slip.point(lambda v: ink + (PAPER - ink) * v // 255)
    width, height = paper.size
    scene = Image.new("L", (width + 2 * TABLE_MARGIN, height + 2 * TABLE_MARGIN), TABLE)
    shadow = Image.new("L", scene.size, 255)
    ImageDraw.Draw(shadow).rectangle(
        (TABLE_MARGIN + 10, TABLE_MARGIN + 14, TABLE_MARGIN + width + 10, TABLE_MARGIN + height + 14), fill=150
    )
    scene = ImageChops.multiply(scene, shadow.filter(ImageFilter.GaussianBlur(12)))
    scene.paste(paper, (TABLE_MARGIN, TABLE_MARGIN))
    if level.rotation:
        angle = rng.uniform(-level.rotation, level.rotation)
        scene = scene.rotate(angle, resample=Image.Resampling.BICUBIC, fillcolor=TABLE)
    if level.light:
        scene = ImageChops.multiply(scene, lighting(scene.size, rng, level.light))
    if level.blur:
        scene = scene.filter(ImageFilter.GaussianBlur(level.blur * rng.uniform(0.8, 1.0)))
    if level.downscale < 1:
        small = (round(scene.width * level.downscale), round(scene.height * level.downscale))
        scene = scene.resize(small, Image.Resampling.BILINEAR).resize(scene.size, Image.Resampling.BICUBIC)
    if level.noise:
        gain = 2 * level.noise * rng.uniform(0.8, 1.0)
        grain = noise_field(scene.size, rng).point(lambda v: round(128 + (v - 128) * gain))
        scene = ImageChops.add(scene, grain, offset=-128)
    photo = ImageOps.colorize(scene, black=(20, 20, 26), white=(252, 250, 244), mid=(118, 100, 82))
    if level.jpeg_quality:
        buffer = io.BytesIO()
        photo.save(buffer, "JPEG", quality=level.jpeg_quality)
        photo = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
    return photo


def render(name, rows, level_name, fonts, output):
    """Writes one receipt's photo to output (a PNG)."""
    photo = photograph(print_slip(rows, fonts), LEVELS[level_name], dice(name, level_name))
    photo.save(output, "PNG", compress_level=1)
    print(output)


def corpus_items(path, only):
    """The corpus's (id, rows), in its order; only those named, when any are."""
    items = [(item["id"], item["rows"]) for item in json.loads(Path(path).read_text(encoding="utf-8"))]
    for name, _ in items:
        if not re.fullmatch(r"[A-Za-z0-9._-]+", name):
            fail(f"id {name!r} is not a file name")
    if only:
        missing = sorted(set(only) - {name for name, _ in items})
        if missing:
            fail(f"no item {', '.join(missing)} in {path}")
        items = [(name, rows) for name, rows in items if name in only]
    return items


def main():
    """Parses the arguments and renders the corpus or the single receipt."""
    parser = argparse.ArgumentParser(description="Render fuel receipts as photographed thermal receipts.")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--corpus", help="receipts JSON: items {id, rows, truth, features}")
    source.add_argument("--rows-file", help="one receipt, one row a line, blank lines skipped (its text is the seed)")
    parser.add_argument("--noise", choices=sorted(LEVELS), required=True)
    parser.add_argument("--output", required=True, help="folder (with --corpus) or PNG file (with --rows-file)")
    parser.add_argument("--only", nargs="+", metavar="ID", help="render only these corpus items")
    args = parser.parse_args()
    if args.only and not args.corpus:
        parser.error("--only needs --corpus")
    fonts = load_fonts()
    if args.corpus:
        output = Path(args.output)
        output.mkdir(parents=True, exist_ok=True)
        for name, rows in corpus_items(args.corpus, args.only):
            render(name, rows, args.noise, fonts, output / f"{name}.png")
    else:
        text = Path(args.rows_file).read_text(encoding="utf-8")
        rows = [row for row in text.splitlines() if row.strip()]
        if not rows:
            fail(f"{args.rows_file} has no rows")
        render(text, rows, args.noise, fonts, Path(args.output))


if __name__ == "__main__":
    main()
