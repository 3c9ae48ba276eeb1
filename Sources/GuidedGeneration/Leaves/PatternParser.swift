/// Reads the regular-expression dialect apps write in
/// `@Guide(.pattern(/…/))` (Swift `Regex` / ICU syntax) into a
/// ``PatternNode``, refusing every construct a finite automaton cannot
/// enforce.
///
/// Exists so an unsupported pattern fails before generation starts, with a
/// message naming the construct, instead of being silently approximated.
///
/// Semantics: the pattern must match the whole string (a leading `^` and a
/// trailing `$` are accepted and add nothing); matching is per Unicode
/// scalar; `.` is any scalar but U+000A; `\d`, `\w` and `\s` are ASCII-only
/// (`[0-9]`, `[A-Za-z0-9_]`, `[ \t\n\r\f\v]`); lazy quantifiers match the same
/// language as greedy ones. Refused: backreferences, lookaround, atomic
/// groups, possessive quantifiers, other anchors and boundaries, inline
/// flags, Unicode properties, POSIX classes, class set operations, counts
/// above ``maximumCount``.
struct PatternParser {
    /// The largest repetition count accepted in `{n}`, `{n,}` and `{n,m}`.
    static let maximumCount = 1000
    /// The deepest group nesting accepted.
    static let maximumNesting = 200

    private let pattern: String
    private let scalars: [Unicode.Scalar]
    private var index: Int
    /// Where parsing stops (before a trailing `$`).
    private var end: Int
    private var nesting = 0

    private init(_ pattern: String) {
        self.pattern = pattern
        self.scalars = Array(pattern.unicodeScalars)
        self.index = 0
        self.end = scalars.count
    }

    /// The node for `pattern`, or `.unsupportedGuide` naming what cannot be
    /// enforced or what is malformed.
    static func parse(_ pattern: String) throws(GuidedGenerationError) -> PatternNode {
        var parser = PatternParser(pattern)
        return try parser.parseWhole()
    }

    /// The node for the strings in which `pattern` matches somewhere, as
    /// JSON Schema's `pattern` means (ECMAScript `search`): each top-level
    /// alternative may match anywhere unless it starts with `^` (then at the
    /// start) or ends with `$` (then at the end).
    static func parseSearch(_ pattern: String) throws(GuidedGenerationError) -> PatternNode {
        var parser = PatternParser(pattern)
        let anything = PatternNode.repetition(.scalars(ScalarSet.all), min: 0, max: nil)
        var branches: [PatternNode] = []
        repeat {
            if !branches.isEmpty { parser.index += 1 }  // the `|`
            var items: [PatternNode] = []
            if parser.peek() == "^" {
                parser.index += 1
            } else {
                items.append(anything)
            }
            var anchoredEnd = false
            while let scalar = parser.peek(), scalar != "|", scalar != ")" {
                if scalar == "$", parser.index + 1 == parser.end || parser.peek(1) == "|" {
                    parser.index += 1
                    anchoredEnd = true
                    break
                }
                items.append(try parser.parseQuantifiers(of: try parser.parseAtom()))
            }
            if !anchoredEnd { items.append(anything) }
            branches.append(items.count == 1 ? items[0] : .sequence(items))
        } while parser.peek() == "|"
        if parser.index < parser.end {
            throw parser.malformed("unbalanced parentheses: ')' at offset \(parser.index) has no matching '('")
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    // MARK: Structure

    private mutating func parseWhole() throws(GuidedGenerationError) -> PatternNode {
        if index < end, scalars[index] == "^" {
            index += 1
        }
        if end > index, scalars[end - 1] == "$" {
            // Unescaped when preceded by an even number of backslashes.
            var backslashes = 0
            var position = end - 2
            while position >= index, scalars[position] == "\\" {
                backslashes += 1
                position -= 1
            }
            if backslashes % 2 == 0 {
                end -= 1
            }
        }
        let node = try parseAlternation()
        if index < end {
            // Only an unmatched `)` stops the top-level alternation early.
            throw malformed("unbalanced parentheses: ')' at offset \(index) has no matching '('")
        }
        return node
    }

    private mutating func parseAlternation() throws(GuidedGenerationError) -> PatternNode {
        var branches = [try parseSequence()]
        while let scalar = peek(), scalar == "|" {
            index += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws(GuidedGenerationError) -> PatternNode {
        var items: [PatternNode] = []
        while let scalar = peek(), scalar != "|", scalar != ")" {
            var atom = try parseAtom()
            atom = try parseQuantifiers(of: atom)
            items.append(atom)
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    private mutating func parseAtom() throws(GuidedGenerationError) -> PatternNode {
        guard let scalar = peek() else { return .empty }
        switch scalar {
        case "*", "+", "?":
            throw malformed("quantifier '\(scalar)' with nothing to repeat")
        case "{":
            if (try? peekCount()) != nil {
                throw malformed("quantifier '{' with nothing to repeat")
            }
            throw malformed("'{' that starts no repetition (write '\\{' for a literal brace)")
        case "(":
            return try parseGroup()
        case "[":
            return .scalars(try parseClass())
        case ".":
            index += 1
            return .scalars(Self.dot)
        case "\\":
            switch try parseEscape(inClass: false) {
            case .scalar(let value): return .scalars(ScalarSet(scalar: value))
            case .set(let set): return .scalars(set)
            }
        case "^":
            throw fail("anchor '^' other than at the start of the pattern")
        case "$":
            throw fail("anchor '$' other than at the end of the pattern")
        default:
            index += 1
            return .scalars(ScalarSet(scalar: scalar.value))
        }
    }

    private mutating func parseGroup() throws(GuidedGenerationError) -> PatternNode {
        let open = index
        index += 1  // (
        if peek() == "?" {
            index += 1
            guard let kind = peek() else {
                throw malformed("unbalanced parentheses: '(' at offset \(open) is never closed")
            }
            switch kind {
            case ":":
                index += 1
            case "=":
                throw fail("lookahead '(?='")
            case "!":
                throw fail("negative lookahead '(?!'")
            case ">":
                throw fail("atomic group '(?>'")
            case "#":
                // A comment: skip to the closing parenthesis.
                while let scalar = peek(), scalar != ")" {
                    index += 1
                }
                guard peek() == ")" else {
                    throw malformed("unbalanced parentheses: comment '(?#' at offset \(open) is never closed")
                }
                index += 1
                return .empty
            case "<":
                index += 1
                if peek() == "=" {
                    throw fail("lookbehind '(?<='")
                }
                if peek() == "!" {
                    throw fail("negative lookbehind '(?<!'")
                }
                try skipGroupName(until: ">")
            case "'":
                index += 1
                try skipGroupName(until: "'")
            case "P":
                index += 1
                if peek() == "<" {
                    index += 1
                    try skipGroupName(until: ">")
                } else if peek() == "=" {
                    throw fail("backreference '(?P='")
                } else {
                    throw fail("subroutine call '(?P>'")
                }
            default:
                if kind.properties.isAlphabetic || kind == "-" || kind == "^" {
                    throw fail("inline flags '(?\(kind)'")
                }
                throw fail("group construct '(?\(kind)'")
            }
        }
        nesting += 1
        if nesting > Self.maximumNesting {
            throw fail("group nesting deeper than \(Self.maximumNesting)")
        }
        let body = try parseAlternation()
        nesting -= 1
        guard peek() == ")" else {
            throw malformed("unbalanced parentheses: '(' at offset \(open) is never closed")
        }
        index += 1
        return body
    }

    private mutating func skipGroupName(until terminator: Unicode.Scalar) throws(GuidedGenerationError) {
        let start = index
        while let scalar = peek(), scalar != terminator {
            guard scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_" else {
                throw malformed("bad group name at offset \(index)")
            }
            index += 1
        }
        guard peek() == terminator, index > start else {
            throw malformed("bad group name at offset \(start)")
        }
        index += 1
    }

    // MARK: Quantifiers

    private mutating func parseQuantifiers(of atom: PatternNode) throws(GuidedGenerationError) -> PatternNode {
        guard let (min, max) = try parseQuantifier() else { return atom }
        if let scalar = peek() {
            if scalar == "?" {
                index += 1  // Lazy: the same language.
            } else if scalar == "+" {
                throw fail("possessive quantifier '\(quantifierText(min, max))+'")
            }
        }
        if let scalar = peek(), scalar == "*" || scalar == "+" || scalar == "?" || (scalar == "{" && (try? peekCount()) != nil) {
            throw malformed("quantifier '\(scalar)' directly after another quantifier (wrap the repeated part in a group)")
        }
        return .repetition(atom, min: min, max: max)
    }

    private func quantifierText(_ min: Int, _ max: Int?) -> String {
        switch (min, max) {
        case (0, nil): "*"
        case (1, nil): "+"
        case (0, 1?): "?"
        case (let n, nil): "{\(n),}"
        case (let n, let m?) where n == m: "{\(n)}"
        case (let n, let m?): "{\(n),\(m)}"
        }
    }

    /// A quantifier at the current position, consumed, or `nil`.
    private mutating func parseQuantifier() throws(GuidedGenerationError) -> (Int, Int?)? {
        guard let scalar = peek() else { return nil }
        switch scalar {
        case "*":
            index += 1
            return (0, nil)
        case "+":
            index += 1
            return (1, nil)
        case "?":
            index += 1
            return (0, 1)
        case "{":
            let (bounds, length) = try peekCount()
            index += length
            return bounds
        default:
            return nil
        }
    }

    /// Reads `{n}`, `{n,}`, `{n,m}` or `{,m}` at the current position
    /// without consuming it: the bounds and the length in scalars.
    private func peekCount() throws(GuidedGenerationError) -> ((Int, Int?), Int) {
        var position = index + 1
        func number() throws(GuidedGenerationError) -> Int? {
            var value: Int?
            while position < end, ("0"..."9").contains(scalars[position]) {
                let next = (value ?? 0) * 10 + Int(scalars[position].value - 0x30)
                if next > Self.maximumCount {
                    throw fail("repetition count above \(Self.maximumCount)")
                }
                value = next
                position += 1
            }
            return value
        }
        let low = try number()
        var high = low
        var sawComma = false
        if position < end, scalars[position] == "," {
            sawComma = true
            position += 1
            high = try number()
        }
        guard position < end, scalars[position] == "}", low != nil || high != nil else {
            throw malformed("'{' that starts no repetition (write '\\{' for a literal brace)")
        }
        let min = low ?? 0
        let max: Int? = sawComma ? high : low
        if let max, max < min {
            throw malformed("repetition {\(min),\(max)} whose minimum exceeds its maximum")
        }
        return ((min, max), position + 1 - index)
    }

    // MARK: Classes and escapes

    /// `.`: every scalar but U+000A.
    static let dot = ScalarSet([0...0x09, 0x0B...ScalarSet.maximum])
    static let digits = ScalarSet([0x30...0x39])
    static let wordCharacters = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    static let spaces = ScalarSet([0x09...0x0D, 0x20...0x20])

    /// What an escape stands for: one scalar (usable as a range bound) or a class.
    private enum Escape {
        case scalar(UInt32)
        case set(ScalarSet)
    }

    private mutating func parseClass() throws(GuidedGenerationError) -> ScalarSet {
        let open = index
        index += 1  // [
        var negated = false
        if peek() == "^" {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while true {
            guard let scalar = peek() else {
                throw malformed("unbalanced brackets: '[' at offset \(open) is never closed")
            }
            if scalar == "]" && !first {
                index += 1
                break
            }
            first = false
            let following = peek(1)
            if scalar == "[" {
                if following == ":" {
                    throw fail("POSIX character class '[:'")
                }
                throw fail("nested character class '[' inside '[…]' (set operations)")
            }
            if (scalar == "&" && following == "&") || (scalar == "-" && following == "-")
                || (scalar == "~" && following == "~")
            {
                throw fail("character class set operation '\(scalar)\(scalar)'")
            }
            let element = try parseClassElement()
            if case .scalar(let low) = element, peek() == "-", let after = peek(1), after != "]" {
                index += 1  // -
                if after == "[" {
                    throw fail("nested character class '[' inside '[…]' (set operations)")
                }
                guard case .scalar(let high) = try parseClassElement() else {
                    throw malformed("range in '[…]' ending in a class escape")
                }
                guard low <= high else {
                    throw malformed("range in '[…]' out of order (U+\(hex(low)) after U+\(hex(high)))")
                }
                ranges.append(low...high)
                continue
            }
            switch element {
            case .scalar(let value): ranges.append(value...value)
            case .set(let set): ranges += set.ranges
            }
        }
        let set = ScalarSet(ranges)
        return negated ? set.inverted() : set
    }

    private mutating func parseClassElement() throws(GuidedGenerationError) -> Escape {
        guard let scalar = peek() else {
            throw malformed("unbalanced brackets: '[' is never closed")
        }
        if scalar == "\\" {
            return try parseEscape(inClass: true)
        }
        index += 1
        return .scalar(scalar.value)
    }

    private mutating func parseEscape(inClass: Bool) throws(GuidedGenerationError) -> Escape {
        index += 1  // backslash
        guard let scalar = peek() else {
            throw malformed("trailing backslash")
        }
        index += 1
        switch scalar {
        case "d": return .set(Self.digits)
        case "D": return .set(Self.digits.inverted())
        case "w": return .set(Self.wordCharacters)
        case "W": return .set(Self.wordCharacters.inverted())
        case "s": return .set(Self.spaces)
        case "S": return .set(Self.spaces.inverted())
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "r": return .scalar(0x0D)
        case "f": return .scalar(0x0C)
        case "v": return .scalar(0x0B)
        case "e": return .scalar(0x1B)
        case "a": return .scalar(0x07)
        case "0":
            // \0 alone is NUL; \0ooo is octal (at most \0377).
            var value: UInt32 = 0
            var count = 0
            while count < 3, let digit = peek(), ("0"..."7").contains(digit) {
                let next = value * 8 + (digit.value - 0x30)
                if next > 0o377 { break }
                value = next
                index += 1
                count += 1
            }
            return .scalar(value)
        case "x":
            return .scalar(try parseCodePoint(fixedDigits: 2, escape: "\\x"))
        case "u":
            return .scalar(try parseCodePoint(fixedDigits: 4, escape: "\\u"))
        case "U":
            return .scalar(try parseCodePoint(fixedDigits: 8, escape: "\\U"))
        case "c":
            guard let control = peek(), control.isASCII, control.properties.isAlphabetic else {
                throw malformed("bad control escape '\\c'")
            }
            index += 1
            return .scalar(control.value & 0x1F)
        case "1"..."9":
            throw fail("backreference '\\\(scalar)'")
        case "k", "g":
            throw fail("backreference '\\\(scalar)'")
        case "b" where inClass:
            throw fail("'\\b' inside '[…]'")
        case "b", "B":
            throw fail("word boundary '\\\(scalar)'")
        case "A", "z", "Z", "G":
            throw fail("anchor '\\\(scalar)'")
        case "p", "P":
            throw fail("Unicode property '\\\(scalar){…}'")
        case "X":
            throw fail("grapheme cluster escape '\\X'")
        case "R":
            throw fail("newline sequence escape '\\R'")
        case "N":
            throw fail("named character or non-newline escape '\\N'")
        case "h", "H":
            throw fail("horizontal whitespace escape '\\\(scalar)'")
        case "Q", "E":
            throw fail("quoting '\\Q…\\E'")
        case "K":
            throw fail("match reset '\\K'")
        default:
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                throw malformed("unknown escape '\\\(scalar)'")
            }
            // An escaped punctuation mark or non-ASCII character is itself.
            return .scalar(scalar.value)
        }
    }

    /// The code point of `\x{…}`/`\u{…}` or of exactly `fixedDigits` hex
    /// digits, checked to be a Unicode scalar.
    private mutating func parseCodePoint(fixedDigits: Int, escape: String) throws(GuidedGenerationError) -> UInt32 {
        var value: UInt32 = 0
        if peek() == "{" {
            index += 1
            var count = 0
            while let scalar = peek(), scalar != "}" {
                guard let digit = hexValue(scalar), count < 8 else {
                    throw malformed("bad escape '\(escape){…}'")
                }
                value = value * 16 + digit
                count += 1
                index += 1
            }
            guard peek() == "}", count > 0 else {
                throw malformed("bad escape '\(escape){…}'")
            }
            index += 1
        } else {
            for _ in 0..<fixedDigits {
                guard let scalar = peek(), let digit = hexValue(scalar) else {
                    throw malformed("bad escape '\(escape)' (needs \(fixedDigits) hex digits)")
                }
                value = value * 16 + digit
                index += 1
            }
        }
        if ScalarSet.surrogates.contains(value) {
            throw fail("surrogate code point U+\(hex(value)) in '\(escape)'")
        }
        if value > ScalarSet.maximum {
            throw malformed("code point U+\(hex(value)) above U+10FFFF in '\(escape)'")
        }
        return value
    }

    // MARK: Helpers

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < end ? scalars[index + offset] : nil
    }

    private func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: scalar.value - 0x30
        case 0x41...0x46: scalar.value - 0x41 + 10
        case 0x61...0x66: scalar.value - 0x61 + 10
        default: nil
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The error for an unsupported `construct`, naming the pattern.
    private func fail(_ construct: String) -> GuidedGenerationError {
        .unsupportedGuide("\(construct) is not supported in pattern \"\(pattern)\"")
    }

    /// The error for a pattern that is not a well-formed regex.
    private func malformed(_ problem: String) -> GuidedGenerationError {
        .unsupportedGuide("pattern \"\(pattern)\" is malformed: \(problem)")
    }
}
