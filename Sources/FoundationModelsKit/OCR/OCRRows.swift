import Foundation

/// One word an OCR engine read from an image, with where it sits and how
/// sure the engine was.
///
/// Exists so the step after OCR — putting words back into the rows a
/// receipt was printed in — does not depend on the engine: Tesseract's
/// word boxes (pixels, top-left origin) and Vision's observations
/// (normalised, bottom-left origin) both become `OCRWord`s, and
/// `OCRRows` works on those. The alternates are the engine's other
/// readings of the same ink, kept as a recovery source: when a total does
/// not add up, a misread digit's second reading may be the right one.
public struct OCRWord: Sendable, Hashable {
    /// A rectangle in normalised image coordinates: 0...1 across the
    /// image's width and height, origin at the top-left corner, `y`
    /// growing downwards.
    ///
    /// Exists because engines disagree on units and origins; one
    /// convention lets rows be clustered, and tolerances stated, the same
    /// way for every engine and image size. Values slightly outside 0...1
    /// (a word at the edge of a rotated photo) are kept as they are.
    public struct Box: Sendable, Hashable {
        /// The left edge.
        public let x: Double
        /// The top edge.
        public let y: Double
        /// Never negative.
        public let width: Double
        /// Never negative.
        public let height: Double

        /// A box from its top-left corner and size; a negative width or
        /// height is turned around (the origin moves), so `width` and
        /// `height` are never negative.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = width < 0 ? x + width : x
            self.y = height < 0 ? y + height : y
            self.width = abs(width)
            self.height = abs(height)
        }

        /// A box from pixel coordinates with a top-left origin (Tesseract's
        /// `left`, `top`, `width`, `height`), or `nil` when the image size
        /// is not positive.
        public init?(pixelLeft left: Double, top: Double, width: Double, height: Double, imageWidth: Double, imageHeight: Double) {
            guard imageWidth > 0, imageHeight > 0 else { return nil }
            self.init(x: left / imageWidth, y: top / imageHeight, width: width / imageWidth, height: height / imageHeight)
        }

        /// A box from normalised coordinates with a bottom-left origin
        /// (Vision's `boundingBox`, where `y` is the bottom edge and grows
        /// upwards).
        public static func bottomLeftOrigin(x: Double, y: Double, width: Double, height: Double) -> Box {
            Box(x: x, y: 1 - y - abs(height), width: width, height: abs(height))
        }

        public var minX: Double { x }
        public var maxX: Double { x + width }
        public var minY: Double { y }
        public var maxY: Double { y + height }
        public var midX: Double { x + width / 2 }
        /// The vertical midpoint: what rows are clustered by.
        public var midY: Double { y + height / 2 }

        var isFinite: Bool { x.isFinite && y.isFinite && width.isFinite && height.isFinite }
    }

    /// How many alternates a word keeps.
    public static let maximumAlternates = 5

    /// The engine's best reading.
    public let text: String
    /// Where the word is, in normalised top-left coordinates.
    public let box: Box
    /// The engine's confidence in `text`, 0...1 (Tesseract reports 0...100:
    /// divide by 100), or `nil` when the engine gives none.
    public let confidence: Double?
    /// Other readings of the same word, best first: at most
    /// `maximumAlternates`, none blank, none equal to `text` or to each other.
    public let alternates: [String]

    /// A word; `confidence` is clamped to 0...1 (`nil` when not a number),
    /// `alternates` are reduced as `alternates` describes, keeping their order.
    public init(text: String, box: Box, confidence: Double? = nil, alternates: [String] = []) {
        self.text = text
        self.box = box
        if let confidence, !confidence.isNaN {
            self.confidence = min(max(confidence, 0), 1)
        } else {
            self.confidence = nil
        }
        var kept: [String] = []
        for alternate in alternates where kept.count < Self.maximumAlternates {
            if alternate.allSatisfy(\.isWhitespace) || alternate == text || kept.contains(alternate) { continue }
            kept.append(alternate)
        }
        self.alternates = kept
    }

    /// Every reading, best first: `text`, then the alternates.
    public var readings: [String] { [text] + alternates }

    /// The same word with `transform` applied to its text and alternates —
    /// for sanitizing words before they are laid out.
    ///
    /// Sanitize the words, not the laid-out text: `PromptInput.sanitized`
    /// collapses runs of spaces (the wide gaps the layout keeps) and drops
    /// the brackets of `[y=…]`. A word whose text becomes blank is left out
    /// of the rows.
    public func mapText(_ transform: (String) -> String) -> OCRWord {
        OCRWord(text: transform(text), box: box, confidence: confidence, alternates: alternates.map(transform))
    }

    /// The width of one character of this word, estimated from its box.
    var characterWidth: Double? {
        let count = text.count
        return count > 0 ? box.width / Double(count) : nil
    }
}

/// One printed row of a receipt: the words on it, left to right, and the
/// line the model is shown for it.
///
/// Exists because a model finds a receipt's values by their labels, and
/// needs each label on one line with its value
/// (`Row 07 [y=0.41]  VOLUME 12.500 G`); an engine's reading order often
/// splits a label from its amount when the gap between them is wide.
/// The row keeps its words, each with its box, confidence and alternates,
/// so an app that finds a value it cannot trust can go back to the row it
/// came from and try the other readings.
public struct OCRRow: Sendable, Hashable, CustomStringConvertible {
    /// The row's place on the receipt, from 1 at the top.
    public let number: Int
    /// The mean of the words' vertical midpoints (normalised, top-left origin).
    public let midY: Double
    /// The row's words, left to right.
    public let words: [OCRWord]
    /// The words joined left to right: one space between words, several
    /// where the gap between them is wide (see `OCRRows`).
    public let text: String

    init(number: Int, words: [OCRWord]) {
        self.number = number
        self.words = words
        midY = words.isEmpty ? 0 : words.map(\.box.midY).reduce(0, +) / Double(words.count)
        text = OCRRows.joined(words)
    }

    /// The row as the model is shown it: `Row NN [y=0.41]  TEXT`, with the
    /// number zero-padded to two digits and `y` to two decimals.
    public var line: String {
        let paddedNumber = number < 10 ? "0\(number)" : "\(number)"
        return "Row \(paddedNumber) [y=\(String(format: "%.2f", midY))]  \(text)"
    }

    public var description: String { line }
}

/// OCR words put back into the rows they were printed in, and the text a
/// model is shown for them, one `Row NN [y=…]` line per row.
///
/// Exists because this preformatting is the part of a receipt pipeline that
/// moves the model's scores most, and every app that reads photos writes
/// it by hand. The rules:
///
/// - **Rows.** Words are sorted by vertical midpoint; a word joins the
///   current row when its midpoint is within `tolerance` of the row's
///   running mean midpoint, otherwise it starts a new row. The tolerance is
///   `max(median word height × 0.5, 0.004)`: half a line of the receipt's
///   usual print, which a few large words (a header, a bold total) do not
///   widen enough to merge the rows of small print. A word
///   whose box overlaps a word already in the row by more than half the
///   narrower one's width starts a new row too: words stacked above each
///   other are never on the same printed line. Within a row, words are
///   ordered by their left edge. Blank words and boxes that are not finite
///   numbers are left out.
/// - **Tilt.** A rotated photo makes the midpoints drift along a row. The
///   running mean alone keeps a row together while each word stays within
///   the tolerance of the mean of the words before it: for a two-word row
///   (a label and an amount far right) the drift between them may be at
///   most half the median text height, which is about 1° when their centres
///   are 30 text heights apart, about 2° when 15. So the skew is also
///   estimated and taken out first: from pairs of horizontally adjacent
///   words (gap under two character widths, midpoints within the
///   tolerance) the median slope of the line through their centres is the
///   page's skew, and the midpoints are compared after subtracting
///   `skew × midX`. It needs at least three such pairs, and it is used
///   only when it changes the rows and the rows it gives fit better: the
///   sum of the squared distances of the (corrected) midpoints from their
///   rows' means, plus the tolerance squared per row (so splitting a row
///   is not free), is smaller. That handles a flat receipt turned by a
///   few degrees: the tests turn one by ±3° and 4° with a label and amount
///   across the whole width, and on a 13-line receipt turned in 1° steps
///   the rows came out right up to 15° with exact boxes, and mostly up to
///   8° with midpoints wobbling by a fifth of the text height (the running
///   mean alone: 1°). Beyond that, neighbouring words' midpoints are no
///   longer within the tolerance and no skew is found. Engines that report
///   whole lines rather than words (Vision) seldom give three close pairs,
///   and get the running mean alone; so does a curled receipt, whose rows
///   bend differently. Printed `y` values are the words' own midpoints,
///   not corrected ones.
/// - **Gaps.** Words are joined by one space; a gap of at least
///   `wideGapCharacters` character widths (the row's median of each
///   word's box width ÷ its character count) becomes that many spaces,
///   rounded, at most `maximumGapSpaces` — so `TOTAL INVOICE        45.00`
///   keeps its label and amount visibly apart without a row of 40 spaces.
///
/// Sanitize the words (`OCRWord.mapText`) before laying them out, not the
/// laid-out text: `PromptInput.sanitized` would collapse the gaps.
public struct OCRRows: Sendable, Hashable, CustomStringConvertible {
    /// The fraction of the median word height that rows may differ by.
    public static let toleranceFactor = 0.5
    /// The smallest tolerance, in normalised image height.
    public static let minimumTolerance = 0.004
    /// A gap between two words this many character widths wide or wider
    /// is printed as several spaces.
    public static let wideGapCharacters = 2.0
    /// The most spaces a gap is printed as.
    public static let maximumGapSpaces = 8

    /// The rows, top to bottom.
    public let rows: [OCRRow]
    /// The tolerance the rows were clustered with.
    public let tolerance: Double
    /// The skew taken out before clustering, as the slope `dy/dx` in
    /// normalised coordinates (`tan(angle) × image width ÷ image height`;
    /// positive when rows go down to the right); 0 when none was.
    public let skew: Double

    /// The rows of `words`, in any order. With `correctsSkew` false, rows
    /// are clustered by the running mean alone, with no skew estimate: for
    /// measuring what the correction adds.
    public init(_ words: [OCRWord], correctsSkew: Bool = true) {
        let usable = words.filter { $0.box.isFinite && !$0.text.allSatisfy(\.isWhitespace) }
        let tolerance = Self.tolerance(for: usable)
        var groups = Self.cluster(usable, tolerance: tolerance, skew: 0)
        var skew = 0.0
        if correctsSkew, let estimate = Self.estimatedSkew(usable, tolerance: tolerance), estimate != 0 {
            let corrected = Self.cluster(usable, tolerance: tolerance, skew: estimate)
            if corrected.map({ $0.map(\.index) }) != groups.map({ $0.map(\.index) }),
                Self.misfit(corrected, tolerance: tolerance) < Self.misfit(groups, tolerance: tolerance)
            {
                groups = corrected
                skew = estimate
            }
        }
        self.tolerance = tolerance
        self.skew = skew
        rows = groups.enumerated().map { OCRRow(number: $0.offset + 1, words: $0.element.map(\.word)) }
    }

    /// The lines, one per row, joined by newlines (no newline at the end).
    public var text: String { rows.map(\.line).joined(separator: "\n") }

    public var description: String { text }

    /// `max(median word height × toleranceFactor, minimumTolerance)`.
    public static func tolerance(for words: [OCRWord]) -> Double {
        let heights = words.map(\.box.height).filter(\.isFinite)
        guard let median = median(heights) else { return minimumTolerance }
        return max(median * toleranceFactor, minimumTolerance)
    }

    // MARK: - Clustering

    private struct Entry {
        let word: OCRWord
        let index: Int
        /// The midpoint with the skew taken out.
        let key: Double
    }

    /// The words in rows, each row's entries ordered by their left edge.
    private static func cluster(_ words: [OCRWord], tolerance: Double, skew: Double) -> [[Entry]] {
        let entries = words.enumerated()
            .map { Entry(word: $0.element, index: $0.offset, key: $0.element.box.midY - skew * $0.element.box.midX) }
            .sorted { ($0.key, $0.word.box.minX, $0.index) < ($1.key, $1.word.box.minX, $1.index) }
        var groups: [[Entry]] = []
        var current: [Entry] = []
        var sum = 0.0
        for entry in entries {
            if !current.isEmpty,
                abs(entry.key - sum / Double(current.count)) <= tolerance,
                !current.contains(where: { stacked($0.word.box, entry.word.box) })
            {
                current.append(entry)
                sum += entry.key
            } else {
                if !current.isEmpty { groups.append(current) }
                current = [entry]
                sum = entry.key
            }
        }
        if !current.isEmpty { groups.append(current) }
        return groups.map { group in
            group.sorted { ($0.word.box.minX, $0.index) < ($1.word.box.minX, $1.index) }
        }
    }

    /// How badly rows fit their words: the squared distances of the
    /// midpoints (skew taken out) from their rows' means, plus the
    /// tolerance squared for each row, so that splitting a row is not
    /// free.
    private static func misfit(_ groups: [[Entry]], tolerance: Double) -> Double {
        groups.reduce(0) { total, group in
            let mean = group.map(\.key).reduce(0, +) / Double(group.count)
            return total + group.reduce(0) { $0 + ($1.key - mean) * ($1.key - mean) } + tolerance * tolerance
        }
    }

    /// Whether two boxes overlap horizontally by more than half the
    /// narrower one's width.
    private static func stacked(_ a: OCRWord.Box, _ b: OCRWord.Box) -> Bool {
        let overlap = min(a.maxX, b.maxX) - max(a.minX, b.minX)
        return overlap > 0.5 * min(a.width, b.width)
    }

    /// The median slope between horizontally adjacent words, or `nil`
    /// when fewer than three pairs are found.
    private static func estimatedSkew(_ words: [OCRWord], tolerance: Double) -> Double? {
        var slopes: [Double] = []
        for left in words {
            guard let leftCharacter = left.characterWidth else { continue }
            var nearest: (gap: Double, slope: Double)?
            for right in words {
                let gap = right.box.minX - left.box.maxX
                let character = max(leftCharacter, right.characterWidth ?? 0)
                let run = right.box.midX - left.box.midX
                let rise = right.box.midY - left.box.midY
                // Side by side (centres at least a character apart, boxes
                // overlapping by at most one), close, and level enough.
                guard character > 0, run >= character, gap >= -character, gap < wideGapCharacters * character,
                    abs(rise) <= tolerance
                else { continue }
                if nearest.map({ gap < $0.gap }) ?? true {
                    nearest = (gap, rise / run)
                }
            }
            if let nearest { slopes.append(nearest.slope) }
        }
        guard slopes.count >= 3 else { return nil }
        return median(slopes)
    }

    // MARK: - Layout

    /// The words joined left to right by the gap rule.
    static func joined(_ words: [OCRWord]) -> String {
        guard var text = words.first?.text else { return "" }
        let characterWidth = median(words.compactMap(\.characterWidth).filter { $0 > 0 })
        for (previous, word) in zip(words, words.dropFirst()) {
            var spaces = 1
            if let characterWidth {
                let widths = (word.box.minX - previous.box.maxX) / characterWidth
                if widths >= wideGapCharacters {
                    spaces = min(Int(widths.rounded()), maximumGapSpaces)
                }
            }
            text += String(repeating: " ", count: spaces) + word.text
        }
        return text
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
