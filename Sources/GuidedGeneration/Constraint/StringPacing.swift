/// How long the free strings of a typed answer may run, and how they end.
///
/// Exists because a free string (a `String` property with no pattern or
/// choices) is the one place where a small model can run away: it writes
/// one field for the whole token budget, and the fields after it are left
/// with the shortest value that fits — empty strings. Constrained decoding
/// alone cannot prevent that (`""` is valid), so the decoder paces free
/// strings as it goes. Pacing never makes an answer worse than the model
/// would write it: it steps in where the answer would otherwise not fit or
/// where a string runs past what its property states, and then ends the
/// string at the most natural place still in reach.
///
/// - **Room for the rest.** While a free string is open, the room the rest
///   of the value needs at least is kept — its shortest completion, counted
///   in the model's tokens — plus ``reserve`` tokens for each free string
///   still to come, so none of them is left empty or cut to a word. Only
///   when what is left falls to that does the open string end. A budget at
///   least as large as the answer the model writes unpaced leaves it
///   exactly as it is (unless the strings still to come are shorter than
///   their reserve and the budget exact to the token).
/// - **Natural ends.** A string that has run long ends where a writer would
///   end it: past ``soft`` tokens at the end of a sentence, past ``hard``
///   tokens at the end of a sentence or before a clause's `,` `;` `:`,
///   ``overrun`` tokens later at the end of a word, and never later than
///   ``hard`` plus twice ``overrun``. List elements (tags) have their own,
///   shorter limits.
/// - **Stated word limits are targets.** A property whose description
///   states a length in words ("at most 25 words", "max 10 words", "a
///   three-word title", see ``LengthHint``) ends at the first sentence end
///   from two thirds of the limit on, at a sentence or clause end once the
///   limit is reached, and only past the limit by more than its tolerance
///   (``wordTolerance``) at the end of a word. A sentence one or two words
///   longer than asked reads better than one cut at the limit.
/// - **Loops.** A string that has fallen into a loop (the same passage three
///   times in a row, ``RepetitionStop``) ends at once.
///
/// A string *ends* by the model choosing among the tokens that close it
/// here (`"`, `."`, `",`, `"}`…): the decoder never cuts a word in two when
/// a boundary is reachable, and the model picks its own last punctuation.
/// Pacing decides when a string ends, never what it says, and the answer is
/// exactly as valid as without it.
package struct StringPacing: Sendable, Hashable {
    /// Tokens after which a string ends at its next sentence end.
    package var soft: Int
    /// Tokens after which a string ends at its next word boundary.
    package var hard: Int
    /// The same two limits for the elements of a list (tags, short items).
    package var elementSoft: Int
    package var elementHard: Int
    /// Tokens past a limit a string may still take looking for a boundary
    /// before it ends wherever it is.
    package var overrun: Int
    /// Tokens kept for each free string still to come while the budget is
    /// shared: a short phrase, so that no later field is left empty or a
    /// single word when an earlier one ran long.
    package var reserve: Int
    /// How far past a stated word limit a string may go looking for the end
    /// of its sentence or clause, as a fraction of the limit (at least two
    /// words); past it, the string ends at its next word boundary.
    package var wordTolerance: Double
    /// Whether a string that loops ends at once.
    package var stopsLoops: Bool

    package init(
        soft: Int = 48, hard: Int = 128, elementSoft: Int = 12, elementHard: Int = 24, overrun: Int = 16,
        reserve: Int = 8, wordTolerance: Double = 0.5, stopsLoops: Bool = true
    ) {
        self.soft = soft
        self.hard = hard
        self.elementSoft = elementSoft
        self.elementHard = elementHard
        self.overrun = overrun
        self.reserve = reserve
        self.wordTolerance = wordTolerance
        self.stopsLoops = stopsLoops
    }

    /// The most words past `limit` a string may take to reach the end of
    /// its sentence or clause.
    package func wordSlack(for limit: Int) -> Int {
        max(2, Int((Double(limit) * wordTolerance).rounded(.up)))
    }

    /// The limits used unless a model is configured otherwise.
    package static let standard = StringPacing()
}

/// What the open free string should do next (``GuidedDecoder/pace(room:pacing:)``),
/// ordered from the least to the most pressing.
package enum StringPace: Int, Sendable, Hashable, Comparable {
    /// Go on: nothing limits it yet.
    case free
    /// End instead of starting a new sentence.
    case endAtSentenceEnd
    /// End instead of starting a new sentence or going on past a clause
    /// (a `,`, `;` or `:` would come next).
    case endAtClauseEnd
    /// End instead of starting a new word.
    case endAtWordBoundary
    /// End with the next token.
    case endNow

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension GuidedDecoder {
    /// How the free string being generated should go on, given `room`
    /// tokens left for the rest of the answer; `.free` outside free strings.
    /// The most pressing of what the budget, the property's stated word
    /// limit and the string's own length ask for.
    package mutating func pace(room: Int, pacing: StringPacing = .standard) -> StringPace {
        guard let start = openString, isInFreeString(state), let context = stringContext(of: state[0]) else { return .free }
        let tokens = acceptedTokens - start.token
        if pacing.stopsLoops, RepetitionStop.endsInLoop(output[start.byte...]) { return .endNow }
        var pace = StringPace.free
        // The budget: keep what the rest needs at least, and a short
        // phrase's room for each free string still to come.
        let completion = matcher.shortestCompletion(of: state, table: constraint.completions) ?? []
        matcher.truncate(to: committed)
        let following = Self.emptyStringCount(in: completion)
        if following > 0 {
            let kept = following * pacing.reserve
            // Every token spells at least one byte: the completion's bytes
            // bound its tokens from above, and decide most steps alone.
            if room - completion.count <= kept {
                let spare = room - completionTokenCount(completion)
                if spare <= kept - min(pacing.overrun, kept / 2) {
                    pace = .endNow
                } else if spare <= kept {
                    pace = .endAtWordBoundary
                }
            }
        }
        if let limit = context.wordLimit {
            let words = Self.wordCount(output[start.byte...])
            if words >= limit + pacing.wordSlack(for: limit) {
                pace = max(pace, .endAtWordBoundary)
            } else if words >= limit {
                pace = max(pace, .endAtClauseEnd)
            } else if words * 3 >= limit * 2 {
                // Near the limit, a sentence that ends is where to stop:
                // better than one that runs on past it.
                pace = max(pace, .endAtSentenceEnd)
            }
        }
        let soft = context.isElement ? pacing.elementSoft : pacing.soft
        let hard = context.isElement ? pacing.elementHard : pacing.hard
        if tokens >= hard + 2 * pacing.overrun {
            pace = max(pace, .endNow)
        } else if tokens >= hard + pacing.overrun {
            pace = max(pace, .endAtWordBoundary)
        } else if tokens >= hard {
            pace = max(pace, .endAtClauseEnd)
        } else if tokens >= soft {
            pace = max(pace, .endAtSentenceEnd)
        }
        return pace
    }

    /// The tokens the model would spell a shortest completion with, kept
    /// for the open string: while it is open its completion is the same at
    /// every step (its closing quote, then the rest), so it is tokenized
    /// once.
    private mutating func completionTokenCount(_ completion: [UInt8]) -> Int {
        if let known = openStringCompletion, known.bytes == completion { return known.count }
        let count = tokens(spelling: completion)?.count ?? completion.count
        openStringCompletion = (completion, count)
        return count
    }

    /// Whether `token` would carry the open string past where `pace` ends
    /// it: it starts a new word (it begins with a space or an escaped line
    /// break, or the text so far ends with one), for `.endAtSentenceEnd`
    /// after a sentence's end, and for `.endAtClauseEnd` after a sentence's
    /// end or as the `,` `;` `:` that would go on with the sentence.
    package func continuesPast(_ pace: StringPace, with token: Int32) -> Bool {
        guard let start = openString, token >= 0, Int(token) < vocabulary.count else { return false }
        let bytes = vocabulary.tokens[Int(token)]
        let content = output[start.byte...]
        let startsWord = Self.startsWord(bytes) || (Self.endsWithSeparator(content) && bytes.first != UInt8(ascii: "\""))
        switch pace {
        case .free:
            return false
        case .endNow:
            return true
        case .endAtWordBoundary:
            return startsWord
        case .endAtClauseEnd:
            return (startsWord && Self.endsSentence(content)) || (!content.isEmpty && Self.continuesClause(bytes))
        case .endAtSentenceEnd:
            return startsWord && Self.endsSentence(content)
        }
    }

    /// Whether a token's text goes on with a sentence past a clause: it
    /// begins with `,`, `;` or `:` (and is not a closing quote after one).
    static func continuesClause(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        return first == UInt8(ascii: ",") || first == UInt8(ascii: ";") || first == UInt8(ascii: ":")
    }

    /// Sets `mask` to the tokens that close the open string in this step
    /// (and, for exits, go on validly), writing nothing before the closing
    /// quote but sentence-ending punctuation (`"`, `."`, `!"`, `)."`, `",`
    /// — never `',"` or `abc"`). Returns false, leaving `mask` unspecified,
    /// when there are none (mid-escape) or no string is open.
    package mutating func closingTokens(into mask: inout TokenMask) -> Bool {
        guard openString != nil, isInFreeString(state) else { return false }
        defer { matcher.truncate(to: committed) }
        if mask.count != vocabulary.count { mask = TokenMask(count: vocabulary.count) }
        let alternative = state[0]
        let masks = constraint.masks(leaf: alternative.leaf, state: alternative.leafState)
        let tokens = vocabulary.tokens
        mask.removeAll()
        for token in masks.closers where Self.isClosingText(tokens[Int(token)].dropLast()) { mask.insert(token) }
        addExits(masks, after: alternative, remaining: .max, into: &mask) { exit in
            Self.isClosingText(tokens[Int(exit.token)][..<(Int(exit.offset) - 1)])
        }
        return !mask.isEmpty
    }

    /// What may come before a string's closing quote when the decoder ends
    /// it: nothing, or sentence-ending punctuation.
    static func isClosingText(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { [UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ")")].contains($0) }
    }

    /// The property an open string belongs to: its word limit, and whether
    /// the string is an element of a list. Nil for strings that are not
    /// values (the keys of a free-form object).
    private func stringContext(of alternative: Alternative) -> (wordLimit: Int?, isElement: Bool)? {
        guard alternative.top >= 0 else { return (nil, false) }
        let record = matcher.arena[Int(alternative.top)]
        func property(of record: FrameRecord) -> Grammar.ObjectShape.Property? {
            guard record.frame.kind == .objectValue else { return nil }
            return matcher.grammar.objects[Int(record.frame.node)].properties[Int(record.frame.property)]
        }
        switch record.frame.kind {
        case .objectValue:
            return (property(of: record)?.wordLimit, false)
        case .array:
            let owner = record.parent >= 0 ? property(of: matcher.arena[Int(record.parent)]) : nil
            return (owner?.wordLimit, true)
        case .anyObject:
            return record.frame.freeObjectPhase == .inKey ? nil : (nil, false)
        case .anyArray:
            return (nil, true)
        case .value, .object, .sequence, .extra, .space, .element:
            return (nil, false)
        }
    }

    // MARK: - Text measures

    /// Free strings in a shortest completion: its empty string values (a
    /// free string's shortest text is `""`; keys are never empty, and the
    /// completion is compact JSON, so `""` not followed by `:` is a value).
    package static func emptyStringCount(in completion: [UInt8]) -> Int {
        let quote = UInt8(ascii: "\"")
        var count = 0
        var index = 1
        while index < completion.count {
            if completion[index] == quote, completion[index - 1] == quote,
                index < 2 || completion[index - 2] != UInt8(ascii: "\\"),
                index + 1 >= completion.count || completion[index + 1] != UInt8(ascii: ":")
            {
                count += 1
                index += 2
            } else {
                index += 1
            }
        }
        return count
    }

    /// Words in JSON string content: runs of bytes between spaces and
    /// escaped line breaks or tabs.
    package static func wordCount(_ content: ArraySlice<UInt8>) -> Int {
        var words = 0
        var inWord = false
        var index = content.startIndex
        while index < content.endIndex {
            let byte = content[index]
            var separator = byte == UInt8(ascii: " ")
            if byte == UInt8(ascii: "\\"), index + 1 < content.endIndex,
                [UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r")].contains(content[index + 1])
            {
                separator = true
                index += 1
            }
            if separator {
                inWord = false
            } else if !inWord {
                inWord = true
                words += 1
            }
            index += 1
        }
        return words
    }

    /// Whether string content ends with a space or an escaped line break.
    static func endsWithSeparator(_ content: ArraySlice<UInt8>) -> Bool {
        guard let last = content.last else { return false }
        if last == UInt8(ascii: " ") { return true }
        return content.count >= 2 && content[content.endIndex - 2] == UInt8(ascii: "\\") && (last == UInt8(ascii: "n") || last == UInt8(ascii: "t"))
    }

    /// Whether a token's text starts a new word: a space or an escaped line
    /// break comes first.
    static func startsWord(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: " ") { return true }
        return first == UInt8(ascii: "\\") && bytes.count > 1 && (bytes[1] == UInt8(ascii: "n") || bytes[1] == UInt8(ascii: "t"))
    }

    /// Whether string content ends a sentence (its last character other
    /// than spaces is `.`, `!`, `?` or a closing quote or bracket after
    /// one, or an escaped line break).
    package static func endsSentence(_ content: ArraySlice<UInt8>) -> Bool {
        var index = content.endIndex
        while index > content.startIndex, content[index - 1] == UInt8(ascii: " ") { index -= 1 }
        guard index > content.startIndex else { return false }
        if index - content.startIndex >= 2, content[index - 2] == UInt8(ascii: "\\"), content[index - 1] == UInt8(ascii: "n") {
            return true
        }
        // Skip closing quotes and brackets: `He said "no."` ends a sentence.
        while index > content.startIndex, [UInt8(ascii: ")"), UInt8(ascii: "'"), UInt8(ascii: "\"")].contains(content[index - 1]) {
            index -= 1
            if index > content.startIndex, content[index - 1] == UInt8(ascii: "\\") { index -= 1 }
        }
        guard index > content.startIndex else { return false }
        return [UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?")].contains(content[index - 1])
    }
}
