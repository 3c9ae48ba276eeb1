import FoundationModels

/// How a free-text answer is read as a typed one, as an app that asked for
/// JSON in words would read it: the first complete JSON object anywhere in
/// the text (models wrap it in prose or a code fence), parsed as is.
package enum LenientJSON {
    /// The first `{…}` span, balanced outside strings, that parses as a
    /// complete JSON object; nil when there is none.
    package static func firstObject(in text: String) -> (json: String, content: GeneratedContent)? {
        let bytes = Array(text.utf8)
        var start = 0
        while let open = bytes[start...].firstIndex(of: UInt8(ascii: "{")) {
            if let close = matchingBrace(bytes, from: open) {
                let json = String(decoding: bytes[open...close], as: UTF8.self)
                if let content = try? GeneratedContent(json: json), content.isComplete,
                    case .structure = content.kind
                {
                    return (json, content)
                }
            }
            start = open + 1
        }
        return nil
    }

    /// The index of the `}` that closes the `{` at `open`, skipping braces
    /// inside strings; nil when the text ends first.
    private static func matchingBrace(_ bytes: [UInt8], from open: Int) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        for index in open..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }
}
