/// The one canonical way a decoded character is written inside a JSON
/// string: `"` → `\"`, `\` → `\\`, U+0008 → `\b`, U+000C → `\f`,
/// U+000A → `\n`, U+000D → `\r`, U+0009 → `\t`, the other controls below
/// U+0020 → `\u00XX` (lowercase hex), everything else (including `/` and all
/// non-ASCII) as raw UTF-8.
///
/// Exists so a constrained string has exactly one byte spelling per decoded
/// value: the model cannot wander into `\u0041` for `A` or `\/` for `/`, and
/// the automata for patterns and choices stay small.
package enum JSONStringEncoding {
    /// The scalars that are written as an escape sequence.
    static let escapedScalars = ScalarSet([0x00...0x1F, 0x22...0x22, 0x5C...0x5C])

    /// The escape sequence for `scalar`, or `nil` when it is written raw.
    static func escape(_ scalar: UInt32) -> [UInt8]? {
        let backslash = UInt8(ascii: "\\")
        switch scalar {
        case 0x22: return [backslash, UInt8(ascii: "\"")]
        case 0x5C: return [backslash, backslash]
        case 0x08: return [backslash, UInt8(ascii: "b")]
        case 0x0C: return [backslash, UInt8(ascii: "f")]
        case 0x0A: return [backslash, UInt8(ascii: "n")]
        case 0x0D: return [backslash, UInt8(ascii: "r")]
        case 0x09: return [backslash, UInt8(ascii: "t")]
        case 0x00...0x1F:
            let digits = Array("0123456789abcdef".utf8)
            return [
                backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                digits[Int(scalar >> 4)], digits[Int(scalar & 0xF)],
            ]
        default: return nil
        }
    }

    /// The canonical bytes between the quotes for `content`.
    static func encode(_ content: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(content.utf8.count)
        for scalar in content.unicodeScalars {
            if let escaped = escape(scalar.value) {
                bytes += escaped
            } else {
                bytes += scalar.utf8
            }
        }
        return bytes
    }

    /// `content` canonically encoded, with its two quotes.
    package static func quoted(_ content: String) -> [UInt8] {
        [UInt8(ascii: "\"")] + encode(content) + [UInt8(ascii: "\"")]
    }
}
