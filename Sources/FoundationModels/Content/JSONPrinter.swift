/// Writes ``GeneratedContent`` as JSON text.
///
/// Exists so output is deterministic and exact: structure keys in their
/// recorded order, numbers as written when known (else integral values
/// without a fraction), strings escaped per RFC 8259 (non-ASCII text stays
/// as is). Non-finite numbers, which JSON cannot express, print as `null`.
struct JSONPrinter {
    private(set) var output = ""
    private let pretty: Bool
    private var depth = 0

    init(pretty: Bool) {
        self.pretty = pretty
    }

    mutating func write(_ content: GeneratedContent) {
        switch content.kind {
        case .null:
            output += "null"
        case .bool(let value):
            output += value ? "true" : "false"
        case .number(let value):
            output += content.numberText ?? Self.format(value)
        case .string(let value):
            Self.writeString(value, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            depth += 1
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                newline()
                write(element)
            }
            depth -= 1
            newline()
            output += "]"
        case .structure(let properties, let orderedKeys):
            let keys = Self.printableKeys(properties, orderedKeys)
            guard !keys.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            depth += 1
            for (offset, key) in keys.enumerated() {
                guard let value = properties[key] else { continue }
                if offset > 0 { output += "," }
                newline()
                Self.writeString(key, to: &output)
                output += pretty ? ": " : ":"
                write(value)
            }
            depth -= 1
            newline()
            output += "}"
        }
    }

    /// The keys to print: `orderedKeys` that have values (each once), then
    /// any remaining keys sorted, so content built with inconsistent keys
    /// still prints every property exactly once.
    static func printableKeys(_ properties: [String: GeneratedContent], _ orderedKeys: [String]) -> [String] {
        var seen = Set<String>()
        var keys: [String] = []
        for key in orderedKeys where properties[key] != nil && seen.insert(key).inserted {
            keys.append(key)
        }
        if keys.count < properties.count {
            keys += properties.keys.filter { !seen.contains($0) }.sorted()
        }
        return keys
    }

    private mutating func newline() {
        guard pretty else { return }
        output += "\n"
        output += String(repeating: "  ", count: depth)
    }

    /// Integral values within ±2^53 print as integers; others use Swift's
    /// shortest round-tripping form, which is valid JSON.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    static func writeString(_ string: String, to output: inout String) {
        output += "\""
        var pending = string.utf8.startIndex
        let utf8 = string.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                output += string[pending..<index]
                switch byte {
                case UInt8(ascii: "\""): output += "\\\""
                case UInt8(ascii: "\\"): output += "\\\\"
                case UInt8(ascii: "\n"): output += "\\n"
                case UInt8(ascii: "\r"): output += "\\r"
                case UInt8(ascii: "\t"): output += "\\t"
                case 0x08: output += "\\b"
                case 0x0C: output += "\\f"
                default:
                    let digits = String(byte, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                }
                pending = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        output += string[pending..<utf8.endIndex]
        output += "\""
    }
}
