import Foundation
import FoundationModelsKit
import Testing

/// A word with a hand-made box, normalised coordinates.
private func word(_ text: String, x: Double, midY: Double, height: Double = 0.02, characterWidth: Double = 0.02) -> OCRWord {
    OCRWord(text: text, box: .init(x: x, y: midY - height / 2, width: Double(text.count) * characterWidth, height: height))
}

/// The words of a monospaced receipt printed from `lines` (spaces as the
/// printer put them) on an image `imageWidth` × `imageHeight` pixels, the
/// paper turned by `degrees` about the image's centre (positive: the right
/// end of each row goes down). Boxes are the axis-aligned boxes of the
/// turned words, as an engine reports them.
private func receipt(
    _ lines: [String],
    degrees: Double = 0,
    imageWidth: Double = 600,
    imageHeight: Double = 1800,
    advance: Double = 14,
    textHeight: Double = 24,
    pitch: Double = 36
) -> [OCRWord] {
    let angle = degrees * .pi / 180
    let centerX = imageWidth / 2, centerY = imageHeight / 2
    var words: [OCRWord] = []
    for (row, line) in lines.enumerated() {
        var column = 0
        for piece in line.split(separator: " ", omittingEmptySubsequences: false) {
            defer { column += piece.count + 1 }
            guard !piece.isEmpty else { continue }
            // The ink of a word: its characters' advances, less the last one's spacing.
            let width = Double(piece.count) * advance - 2
            let midX = 30 + Double(column) * advance + width / 2
            let midY = 200 + Double(row) * pitch + textHeight / 2
            let (dx, dy) = (midX - centerX, midY - centerY)
            let turnedX = centerX + dx * cos(angle) - dy * sin(angle)
            let turnedY = centerY + dx * sin(angle) + dy * cos(angle)
            let boxWidth = width * cos(angle) + textHeight * abs(sin(angle))
            let boxHeight = width * abs(sin(angle)) + textHeight * cos(angle)
            let box = OCRWord.Box(
                pixelLeft: turnedX - boxWidth / 2, top: turnedY - boxHeight / 2, width: boxWidth, height: boxHeight,
                imageWidth: imageWidth, imageHeight: imageHeight
            )!
            words.append(OCRWord(text: String(piece), box: box))
        }
    }
    return words
}

private let fuelReceipt = [
    "SHELL EXPRESS",
    "PUMP 4        UNLEADED 95",
    "VOLUME 12.500 G",
    "PRICE/G 3.459",
    "TOTAL" + String(repeating: " ", count: 29) + "43.24",
    "CARD VISA **** 1234",
]

/// `fuelReceipt` as its rows read: wide gaps kept, at most eight spaces.
private let fuelRows = [
    "SHELL EXPRESS",
    "PUMP 4        UNLEADED 95",
    "VOLUME 12.500 G",
    "PRICE/G 3.459",
    "TOTAL        43.24",
    "CARD VISA **** 1234",
]

@Suite("OCRRows")
struct OCRRowsTests {
    @Test func straightRowsArePrintedInTheSeedLayout() {
        let texts = [
            "SHELL", "STATION 214", "PUMP 4", "UNLEADED", "DATE 2024-03-12", "LITRES", "VOLUME 12.500 G", "PRICE 1.859", "TOTAL 23.24", "CASH",
            "CHANGE 0.00",
        ]
        var words: [OCRWord] = []
        for (row, text) in texts.enumerated() {
            var x = 0.05
            for (index, piece) in text.split(separator: " ").enumerated() {
                // Midpoints wobble by up to 0.003 along a row, as real boxes do.
                words.append(word(String(piece), x: x, midY: 0.05 + Double(row) * 0.06 + (index % 2 == 0 ? 0.003 : -0.002)))
                x += Double(piece.count + 1) * 0.02
            }
        }
        let rows = OCRRows(words)
        #expect(rows.rows.map(\.text) == texts)
        #expect(rows.rows[6].line == "Row 07 [y=0.41]  VOLUME 12.500 G")
        #expect(rows.rows[10].line == "Row 11 [y=0.65]  CHANGE 0.00")
        #expect(rows.rows.map(\.number) == Array(1...11))
        #expect(rows.tolerance == 0.01)
        // The wobble gives neighbouring words a slope, but taking it out
        // would not change the rows: no skew is applied.
        #expect(rows.skew == 0)
        #expect(rows.text.split(separator: "\n").count == 11)
        #expect(rows.text.hasPrefix("Row 01 [y=0.05]  SHELL\nRow 02 [y=0.11]  STATION 214\n"))
        #expect(!rows.text.hasSuffix("\n"))
    }

    @Test func wideGapsStayVisibleUpToEightSpaces() {
        // Monospaced, 0.02 per character: ink gaps of 1, 8 and 30 characters.
        let total = OCRRows([word("TOTAL", x: 0.05, midY: 0.5), word("INVOICE", x: 0.17, midY: 0.5), word("45.00", x: 0.47, midY: 0.5)])
        #expect(total.rows.map(\.text) == ["TOTAL INVOICE        45.00"])
        #expect(total.text == "Row 01 [y=0.50]  TOTAL INVOICE        45.00")

        let far = OCRRows([word("TOTAL", x: 0.0, midY: 0.5), word("45.00", x: 0.70, midY: 0.5)])
        #expect(far.rows.first?.text == "TOTAL" + String(repeating: " ", count: OCRRows.maximumGapSpaces) + "45.00")

        // Under two character widths is ordinary word spacing: one space.
        let close = OCRRows([word("12.500", x: 0.1, midY: 0.5), word("G", x: 0.1 + 0.12 + 0.035, midY: 0.5)])
        #expect(close.rows.first?.text == "12.500 G")
        let two = OCRRows([word("12.500", x: 0.1, midY: 0.5), word("G", x: 0.1 + 0.12 + 0.045, midY: 0.5)])
        #expect(two.rows.first?.text == "12.500  G")

        // Proportional print with tight spacing, words touching: one space each.
        let tight = OCRRows([word("UNIT", x: 0.1, midY: 0.3), word("PRICE", x: 0.18, midY: 0.3), word("1.859", x: 0.29, midY: 0.3)])
        #expect(tight.rows.first?.text == "UNIT PRICE 1.859")
    }

    @Test func gapsAreMeasuredInTheRowsOwnCharacterWidth() {
        // Large print, 0.04 per character: a gap of 0.06 is 1.5 characters here.
        let large = OCRRows([
            word("TOTAL", x: 0.05, midY: 0.5, height: 0.05, characterWidth: 0.04),
            word("45.00", x: 0.31, midY: 0.5, height: 0.05, characterWidth: 0.04),
        ])
        #expect(large.rows.first?.text == "TOTAL 45.00")
        // The same gap in print half as wide is three characters.
        let small = OCRRows([word("TOTAL", x: 0.05, midY: 0.5, characterWidth: 0.02), word("45.00", x: 0.21, midY: 0.5, characterWidth: 0.02)])
        #expect(small.rows.first?.text == "TOTAL   45.00")
    }

    @Test func aReceiptTurnedAFewDegreesKeepsItsRows() {
        for degrees in [3.0, -3.0, 4.0] {
            let rows = OCRRows(receipt(fuelReceipt, degrees: degrees))
            #expect(rows.rows.map(\.text) == fuelRows, "\(degrees)°")
            // The slope in normalised coordinates: tan(angle) × width ÷ height.
            #expect(abs(rows.skew - tan(degrees * .pi / 180) * 600 / 1800) < 1e-9, "\(degrees)°")
        }
        // The printed y is the words' own midpoint: the TOTAL row's is
        // between its label's and its amount's.
        let turned = OCRRows(receipt(fuelReceipt, degrees: 3))
        let total = turned.rows[4]
        #expect(total.words.map(\.text) == ["TOTAL", "43.24"])
        #expect(total.words[0].box.midY < total.midY && total.midY < total.words[1].box.midY)
    }

    @Test func theRunningMeanAloneHoldsOnlyMildTilt() {
        // 1°: the label and amount of TOTAL drift apart by less than half a
        // text height, within the tolerance.
        let mild = OCRRows(receipt(fuelReceipt, degrees: 1), correctsSkew: false)
        #expect(mild.rows.map(\.text) == fuelRows)
        // 3°: they drift by more, and without the skew estimate the amount
        // leaves its row (it lands on the CARD row below).
        let uncorrected = OCRRows(receipt(fuelReceipt, degrees: 3), correctsSkew: false)
        #expect(uncorrected.rows.map(\.text) != fuelRows)
        #expect(!uncorrected.rows.map(\.text).contains("TOTAL        43.24"))
        #expect(uncorrected.skew == 0)

        // A row drifting by 0.0045 a word: the last word is farther than
        // the tolerance (0.01) from the first, but within it of the mean
        // of the words before it.
        let drifting = ["PUMP", "4", "VOLUME", "12.500"].enumerated().map { index, text in
            word(text, x: 0.05 + 0.2 * Double(index), midY: 0.5 + 0.0045 * Double(index))
        }
        #expect(OCRRows(drifting, correctsSkew: false).rows.map { $0.words.map(\.text) } == [["PUMP", "4", "VOLUME", "12.500"]])
    }

    @Test func twoPairsOfNeighboursAreNotEnoughToDeskew() {
        // Two pairs of close words (SHELL EXPRESS, PUMP 4) give the slope,
        // but three are needed: the running mean alone, and TOTAL splits.
        let rows = OCRRows(receipt(["SHELL EXPRESS", "PUMP 4", fuelReceipt[4]], degrees: 3))
        #expect(rows.skew == 0)
        #expect(rows.rows.map(\.text) == ["SHELL EXPRESS", "PUMP 4", "TOTAL", "43.24"])
        // A third pair is enough.
        let three = OCRRows(receipt(["SHELL EXPRESS", "PUMP 4", "VOLUME 12.500", fuelReceipt[4]], degrees: 3))
        #expect(three.skew > 0)
        #expect(three.rows.map(\.text) == ["SHELL EXPRESS", "PUMP 4", "VOLUME 12.500", "TOTAL        43.24"])
    }

    @Test func aStraightReceiptIsNotDeskewed() {
        let rows = OCRRows(receipt(fuelReceipt))
        #expect(rows.rows.map(\.text) == fuelRows)
        #expect(rows.skew == 0)
    }

    @Test func theToleranceComesFromTheMedianHeight() {
        // A large header and a bold total over small print: the median is
        // the small print's height, so the tolerance is half of it.
        var words = [
            word("SHELL", x: 0.05, midY: 0.05, height: 0.06, characterWidth: 0.05),
            word("EXPRESS", x: 0.35, midY: 0.052, height: 0.06, characterWidth: 0.05),
        ]
        let small = 0.012
        for row in 0..<6 {
            let midY = 0.2 + Double(row) * 0.016
            words.append(word("ITEM\(row)", x: 0.05, midY: midY, height: small, characterWidth: 0.01))
            words.append(word("\(row).99", x: 0.8, midY: midY, height: small, characterWidth: 0.01))
        }
        // Two rows of small print whose words are not above each other:
        // closer than the header's half height, farther than the small print's.
        words.append(word("CARD", x: 0.05, midY: 0.4, height: small, characterWidth: 0.01))
        words.append(word("APPROVED", x: 0.6, midY: 0.416, height: small, characterWidth: 0.01))
        words.append(word("TOTAL", x: 0.05, midY: 0.5, height: 0.04, characterWidth: 0.04))
        words.append(word("45.00", x: 0.6, midY: 0.505, height: 0.04, characterWidth: 0.04))

        let rows = OCRRows(words)
        #expect(rows.tolerance == small * OCRRows.toleranceFactor)
        #expect(
            rows.rows.map(\.text) == ["SHELL EXPRESS"] + (0..<6).map { "ITEM\($0)        \($0).99" } + ["CARD", "APPROVED", "TOTAL        45.00"])
    }

    @Test func theToleranceHasAFloor() {
        let tiny = (0..<3).map { word("X\($0)", x: 0.1 * Double($0), midY: 0.5, height: 0.002, characterWidth: 0.002) }
        #expect(OCRRows.minimumTolerance == 0.004)
        #expect(OCRRows.tolerance(for: tiny) == OCRRows.minimumTolerance)
        // Tiny print whose midpoints differ by more than half its height
        // but less than the floor: one row.
        #expect(
            OCRRows(
                tiny.enumerated().map { index, word in
                    OCRWord(
                        text: word.text,
                        box: .init(x: word.box.x, y: word.box.y + 0.003 * Double(index % 2), width: word.box.width, height: word.box.height))
                }
            ).rows.count == 1)
        #expect(OCRRows.tolerance(for: []) == OCRRows.minimumTolerance)
        #expect(OCRRows.tolerance(for: [word("A", x: 0, midY: 0.5, height: 0.03)]) == 0.015)
        // Even-sized: the mean of the middle two.
        #expect(OCRRows.tolerance(for: [0.01, 0.02, 0.03, 0.1].map { word("A", x: 0, midY: 0.5, height: $0) }) == 0.0125)
    }

    @Test func wordsAboveEachOtherAreNeverOneRow() {
        // Within the tolerance (0.01) vertically, but stacked: two rows.
        let rows = OCRRows([word("12.500", x: 0.3, midY: 0.500), word("12.300", x: 0.31, midY: 0.507)])
        #expect(rows.rows.map(\.text) == ["12.500", "12.300"])
        // Side by side at the same heights: one row.
        let side = OCRRows([word("12.500", x: 0.3, midY: 0.500), word("L", x: 0.44, midY: 0.507)])
        #expect(side.rows.map(\.text) == ["12.500 L"])
    }

    @Test func emptyAndBlankInputGiveNoRows() {
        let none = OCRRows([])
        #expect(none.rows.isEmpty)
        #expect(none.text == "")
        #expect(none.tolerance == OCRRows.minimumTolerance)
        #expect(none.skew == 0)
        let blank = OCRRows([word(" ", x: 0.1, midY: 0.5), OCRWord(text: "NAN", box: .init(x: .nan, y: 0.5, width: 0.1, height: 0.02))])
        #expect(blank.rows.isEmpty)
    }

    @Test func aSingleWordIsOneRow() {
        let rows = OCRRows([word("HELLO", x: 0.4, midY: 0.5)])
        #expect(rows.text == "Row 01 [y=0.50]  HELLO")
        #expect(rows.rows.first?.words.map(\.text) == ["HELLO"])
        #expect(rows.rows.first?.description == "Row 01 [y=0.50]  HELLO")
    }

    @Test func wordsInAnyOrderGiveTheSameRows() {
        let inOrder = receipt(fuelReceipt)
        let expected = OCRRows(inOrder).text
        #expect(OCRRows(inOrder.reversed()).text == expected)
        // Every third word first, then the rest: a fixed shuffle.
        let shuffled = inOrder.enumerated().sorted { ($0.offset % 3, $0.offset) < ($1.offset % 3, $1.offset) }.map(\.element)
        #expect(shuffled != inOrder)
        #expect(OCRRows(shuffled).text == expected)
        #expect(OCRRows(shuffled).rows.map(\.text) == fuelRows)
    }

    @Test func alternatesAreKeptBestFirstAtMostFive() {
        let amount = OCRWord(
            text: "45.00",
            box: .init(x: 0.6, y: 0.49, width: 0.1, height: 0.02),
            confidence: 0.62,
            alternates: ["45.00", "46.00", "", "46.00", "45.08", "43.00", "45.80", "48.00", "40.00"]
        )
        #expect(amount.alternates == ["46.00", "45.08", "43.00", "45.80", "48.00"])
        #expect(amount.alternates.count == OCRWord.maximumAlternates)
        #expect(amount.readings == ["45.00", "46.00", "45.08", "43.00", "45.80", "48.00"])

        let rows = OCRRows([amount, word("TOTAL", x: 0.1, midY: 0.5)])
        let row = rows.rows[0]
        #expect(row.words.map(\.text) == ["TOTAL", "45.00"])
        #expect(row.words[1].alternates.first == "46.00")
        #expect(row.words[1].confidence == 0.62)
        #expect(row.words[0].alternates.isEmpty)
    }

    @Test func confidenceIsClampedAndTextCanBeMapped() {
        let box = OCRWord.Box(x: 0.1, y: 0.1, width: 0.1, height: 0.02)
        #expect(OCRWord(text: "A", box: box, confidence: 1.7).confidence == 1)
        #expect(OCRWord(text: "A", box: box, confidence: -0.2).confidence == 0)
        #expect(OCRWord(text: "A", box: box, confidence: .nan).confidence == nil)
        let mapped = OCRWord(text: "4S.00", box: box, confidence: 0.5, alternates: ["45.00", "4s.00"]).mapText { $0.uppercased() }
        #expect(mapped.text == "4S.00")
        #expect(mapped.alternates == ["45.00"], "an alternate equal to the mapped text is dropped")
        #expect(mapped.box == box && mapped.confidence == 0.5)
    }

    @Test func boxesFromEachEnginesConvention() {
        // Tesseract: pixels, top-left origin.
        let tesseract = OCRWord.Box(pixelLeft: 60, top: 900, width: 120, height: 36, imageWidth: 600, imageHeight: 1800)
        #expect(tesseract == OCRWord.Box(x: 0.1, y: 0.5, width: 0.2, height: 0.02))
        #expect(OCRWord.Box(pixelLeft: 0, top: 0, width: 1, height: 1, imageWidth: 0, imageHeight: 100) == nil)
        // Vision: normalised, bottom-left origin.
        let vision = OCRWord.Box.bottomLeftOrigin(x: 0.1, y: 0.7, width: 0.2, height: 0.1)
        #expect(abs(vision.y - 0.2) < 1e-12 && abs(vision.midY - 0.25) < 1e-12)
        // A negative size is turned around.
        let flipped = OCRWord.Box(x: 0.3, y: 0.5, width: -0.2, height: -0.1)
        #expect(abs(flipped.minX - 0.1) < 1e-12 && abs(flipped.minY - 0.4) < 1e-12 && flipped.width == 0.2 && abs(flipped.height - 0.1) < 1e-12)
    }
}
