/// Lowers ranges of Unicode scalars to the UTF-8 byte sequences that encode
/// them.
///
/// Exists because the automata read bytes, not scalars: `[à-ÿ]` or `.` must
/// become byte-range paths that accept exactly the well-formed encodings of
/// those scalars (no overlong forms, no surrogates, nothing above U+10FFFF),
/// so a model can never be steered into emitting invalid UTF-8.
enum UTF8Ranges {
    /// The largest scalar encoded in 1, 2 and 3 bytes.
    private static let lengthLimits: [UInt32] = [0x7F, 0x7FF, 0xFFFF]

    /// Byte-range sequences whose union is exactly the UTF-8 encodings of
    /// the scalars in `range` (which must hold no surrogates): each element
    /// is one encoded length, one byte range per byte.
    static func sequences(for range: ClosedRange<UInt32>) -> [[ClosedRange<UInt8>]] {
        var result: [[ClosedRange<UInt8>]] = []
        // A stack of pending ranges, processed low to high.
        var pending: [ClosedRange<UInt32>] = [range]
        while let current = pending.popLast() {
            let low = current.lowerBound
            let high = current.upperBound
            // Split where the encoded length changes.
            if let limit = lengthLimits.first(where: { low <= $0 && high > $0 }) {
                pending.append((limit + 1)...high)
                pending.append(low...limit)
                continue
            }
            let length = encodedLength(low)
            if length == 1 {
                result.append([UInt8(truncatingIfNeeded: low)...UInt8(truncatingIfNeeded: high)])
                continue
            }
            // Split until every byte position varies independently: for each
            // count of trailing continuation bytes, either the prefixes above
            // them agree, or the range covers whole blocks of them.
            var split = false
            for trailing in 1..<length {
                let mask: UInt32 = (1 << (6 * UInt32(trailing))) - 1
                if low & ~mask == high & ~mask { continue }
                if low & mask != 0 {
                    pending.append(((low | mask) + 1)...high)
                    pending.append(low...(low | mask))
                    split = true
                    break
                }
                if high & mask != mask {
                    pending.append((high & ~mask)...high)
                    pending.append(low...((high & ~mask) - 1))
                    split = true
                    break
                }
            }
            if split { continue }
            let lowBytes = encode(low)
            let highBytes = encode(high)
            var sequence: [ClosedRange<UInt8>] = []
            sequence.reserveCapacity(length)
            for index in 0..<length {
                sequence.append(lowBytes[index]...highBytes[index])
            }
            result.append(sequence)
        }
        return result
    }

    static func encodedLength(_ scalar: UInt32) -> Int {
        switch scalar {
        case ..<0x80: 1
        case ..<0x800: 2
        case ..<0x10000: 3
        default: 4
        }
    }

    /// The UTF-8 encoding of `scalar` (which must be at most U+10FFFF).
    static func encode(_ scalar: UInt32) -> [UInt8] {
        switch encodedLength(scalar) {
        case 1:
            return [UInt8(truncatingIfNeeded: scalar)]
        case 2:
            return [
                0xC0 | UInt8(truncatingIfNeeded: scalar >> 6),
                0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F),
            ]
        case 3:
            return [
                0xE0 | UInt8(truncatingIfNeeded: scalar >> 12),
                0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F),
                0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F),
            ]
        default:
            return [
                0xF0 | UInt8(truncatingIfNeeded: scalar >> 18),
                0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F),
                0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F),
                0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F),
            ]
        }
    }
}
