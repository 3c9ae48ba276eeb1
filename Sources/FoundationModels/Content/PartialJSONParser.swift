/// A JSON (RFC 8259) parser that also accepts any prefix of a document.
///
/// Exists because a streaming session re-parses the growing model output
/// after every token: it works on UTF-8 bytes, never on `Character`s, and
/// produces ``GeneratedContent`` whose unfinished nodes have `isComplete ==
/// false`. The rules for incomplete input are documented on
/// ``GeneratedContent/init(json:)``.
struct PartialJSONParser {
    /// Deeper nesting is rejected rather than risking the stack.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// The property path of the value being parsed, for error messages.
    private var path: [ContentDecoding.PathComponent] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses `text`, throwing `DecodingError.dataCorrupted` (with a
    /// ``JSONSyntaxError`` underneath) when it is not a JSON document or a
    /// prefix of one.
    static func parse(_ text: String) throws -> GeneratedContent {
        var text = text
        do {
            return try text.withUTF8 { buffer in
                var parser = PartialJSONParser(bytes: buffer)
                return try parser.parseDocument()
            }
        } catch let error as JSONSyntaxError {
            // Named like decoding errors: `cards[1].answer: Malformed JSON at …`.
            let codingPath = error.path.map(\.codingKey)
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: codingPath.isEmpty ? error.description : ContentDecoding.render(codingPath) + ": " + error.description,
                    underlyingError: error
                ))
        }
    }

    // MARK: - Document and values

    private mutating func parseDocument() throws(JSONSyntaxError) -> GeneratedContent {
        let value = try parseValue(depth: 0, topLevel: true)
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describeByte(at: index)) after the JSON value")
        }
        return value ?? GeneratedContent(kind: .null, id: nil, isComplete: false)
    }

    /// Parses one value starting at the current byte (after whitespace).
    /// Returns `nil` when the input ends before anything representable.
    private mutating func parseValue(depth: Int, topLevel: Bool) throws(JSONSyntaxError) -> GeneratedContent? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["):
            return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""):
            let (string, complete) = try parseString()
            return GeneratedContent(kind: .string(string), id: nil, isComplete: complete)
        case UInt8(ascii: "t"):
            return try parseLiteral("true", as: .bool(true))
        case UInt8(ascii: "f"):
            return try parseLiteral("false", as: .bool(false))
        case UInt8(ascii: "n"):
            return try parseLiteral("null", as: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber(topLevel: topLevel)
        default:
            throw error("unexpected \(describeByte(at: index)) where a value was expected")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> GeneratedContent {
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
        index += 1  // {
        var properties: [String: GeneratedContent] = [:]
        var keys: [String] = []
        func result(complete: Bool) -> GeneratedContent {
            GeneratedContent(kind: .structure(properties: properties, orderedKeys: keys), id: nil, isComplete: complete)
        }

        skipWhitespace()
        guard index < bytes.count else { return result(complete: false) }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return result(complete: true)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { return result(complete: false) }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key but found \(describeByte(at: index))")
            }
            let (key, keyComplete) = try parseString()
            guard keyComplete else { return result(complete: false) }
            skipWhitespace()
            guard index < bytes.count else { return result(complete: false) }
            guard bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key \"\(key)\" but found \(describeByte(at: index))")
            }
            index += 1
            path.append(.property(key))
            let parsed = try parseValue(depth: depth, topLevel: false)
            path.removeLast()
            guard let value = parsed else {
                return result(complete: false)
            }
            if properties.updateValue(value, forKey: key) == nil {
                keys.append(key)
            }
            guard value.isComplete else { return result(complete: false) }
            skipWhitespace()
            guard index < bytes.count else { return result(complete: false) }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                return result(complete: true)
            default:
                throw error("expected ',' or '}' after an object member but found \(describeByte(at: index))")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> GeneratedContent {
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
        index += 1  // [
        var elements: [GeneratedContent] = []
        func result(complete: Bool) -> GeneratedContent {
            GeneratedContent(kind: .array(elements), id: nil, isComplete: complete)
        }

        skipWhitespace()
        guard index < bytes.count else { return result(complete: false) }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            return result(complete: true)
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                throw error("expected a value after ',' but found ']'")
            }
            path.append(.index(elements.count))
            let parsed = try parseValue(depth: depth, topLevel: false)
            path.removeLast()
            guard let element = parsed else {
                return result(complete: false)
            }
            elements.append(element)
            guard element.isComplete else { return result(complete: false) }
            skipWhitespace()
            guard index < bytes.count else { return result(complete: false) }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                return result(complete: true)
            default:
                throw error("expected ',' or ']' after an array element but found \(describeByte(at: index))")
            }
        }
    }

    /// Parses `true`, `false` or `null`; `nil` when the input ends inside it.
    private mutating func parseLiteral(_ literal: StaticString, as kind: GeneratedContent.Kind) throws(JSONSyntaxError) -> GeneratedContent? {
        let start = index
        let count = literal.utf8CodeUnitCount
        let expected = literal.utf8Start
        for offset in 0..<count {
            guard start + offset < bytes.count else {
                index = bytes.count
                return nil
            }
            if bytes[start + offset] != expected[offset] {
                index = start + offset
                throw error("invalid literal: expected \"\(literal)\"")
            }
        }
        index = start + count
        return GeneratedContent(kind: kind, id: nil, isComplete: true)
    }

    // MARK: - Numbers

    /// Parses a number following RFC 8259's grammar exactly. A number that
    /// reaches the end of the input is complete only at the top level (the
    /// document ended); inside a container more digits may follow. `nil`
    /// when the input ends before the text is a number (`-`, `1.`, `1e+`).
    private mutating func parseNumber(topLevel: Bool) throws(JSONSyntaxError) -> GeneratedContent? {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
            guard index < bytes.count else { return nil }
        }
        switch bytes[index] {
        case UInt8(ascii: "0"):
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("a number cannot have leading zeros")
            }
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            skipDigits()
        default:
            throw error("expected a digit but found \(describeByte(at: index))")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count else { return nil }
            guard isDigit(bytes[index]) else {
                throw error("expected a digit after the decimal point but found \(describeByte(at: index))")
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
                guard index < bytes.count else { return nil }
            }
            guard isDigit(bytes[index]) else {
                throw error("expected a digit in the exponent but found \(describeByte(at: index))")
            }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else {
            index = start
            throw error("the number \(text) cannot be represented")
        }
        let complete = index < bytes.count || topLevel
        return GeneratedContent(kind: .number(value), id: nil, isComplete: complete, numberText: text)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
        }
    }

    // MARK: - Strings

    /// Parses a string starting at its opening quote. Returns the decoded
    /// text and whether the closing quote was reached; when the input ends
    /// inside an escape sequence, that sequence is left out.
    private mutating func parseString() throws(JSONSyntaxError) -> (String, Bool) {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return (string, true)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw error("unescaped control character U+\(hex(byte, width: 4)) in a string")
            }
            index += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        func finish(_ complete: Bool) -> (String, Bool) {
            (String(decoding: buffer, as: UTF8.self), complete)
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return finish(true)
            case UInt8(ascii: "\\"):
                guard let scalar = try parseEscape() else {
                    index = bytes.count
                    return finish(false)
                }
                appendUTF8(scalar, to: &buffer)
            case 0..<0x20:
                throw error("unescaped control character U+\(hex(byte, width: 4)) in a string")
            default:
                buffer.append(byte)
                index += 1
            }
        }
        return finish(false)
    }

    /// Parses an escape sequence at the backslash; `nil` when the input ends
    /// inside it. Lone surrogates become U+FFFD.
    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar? {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { return nil }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = try parseHex4() else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed by `\u` and a low one.
                guard index < bytes.count else { return nil }
                guard bytes[index] == UInt8(ascii: "\\") else { return "\u{FFFD}" }
                guard index + 1 < bytes.count else { return nil }
                guard bytes[index + 1] == UInt8(ascii: "u") else { return "\u{FFFD}" }
                let save = index
                index += 2
                guard let low = try parseHex4() else { return nil }
                guard (0xDC00...0xDFFF).contains(low) else {
                    index = save  // parse the second escape on its own
                    return "\u{FFFD}"
                }
                let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                return Unicode.Scalar(value) ?? "\u{FFFD}"
            case 0xDC00...0xDFFF:
                return "\u{FFFD}"
            default:
                return Unicode.Scalar(unit) ?? "\u{FFFD}"
            }
        default:
            index = escapeStart
            throw error("invalid escape sequence '\\\(String(decoding: [code], as: UTF8.self))' in a string")
        }
    }

    /// Four hex digits after `\u`; `nil` when the input ends first.
    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt16? {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                throw error("expected a hexadecimal digit in a \\u escape but found \(describeByte(at: index))")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to buffer: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            buffer.append(UInt8(value))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | value >> 6))
            buffer.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | value >> 12))
            buffer.append(UInt8(0x80 | value >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | value & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | value >> 18))
            buffer.append(UInt8(0x80 | value >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | value >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | value & 0x3F))
        }
    }

    // MARK: - Helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                index += 1
            default:
                return
            }
        }
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: message, path: path)
    }

    private func describeByte(at position: Int) -> String {
        let byte = bytes[position]
        if byte >= 0x20, byte < 0x7F {
            return "'\(String(decoding: [byte], as: UTF8.self))'"
        }
        return "byte 0x\(hex(byte, width: 2))"
    }

    private func hex(_ byte: UInt8, width: Int) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
