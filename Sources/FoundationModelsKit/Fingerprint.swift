/// A short, stable digest of the values an answer depends on: the same
/// values give the same fingerprint in every process, on every machine.
///
/// Exists because Swift's `Hasher` is seeded per process, so its hashes
/// cannot key a cache that outlives the process, and an app's cache keys
/// should not spell out a user's data either. The digest is 64-bit FNV-1a
/// over the values' UTF-8 bytes, each value followed by a separator byte
/// (0x1F) so `["ab", "c"]` and `["a", "bc"]` differ. It guards against
/// accidents, not adversaries: do not use it where someone could choose
/// inputs to collide.
public struct Fingerprint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The digest, as 16 lowercase hexadecimal digits.
    public let hex: String

    /// The fingerprint of `values`, in order.
    public init(_ values: some Sequence<String>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        for value in values {
            for byte in value.utf8 { mix(byte) }
            mix(0x1F)
        }
        let digits = String(hash, radix: 16)
        hex = String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The fingerprint of `values`, in order.
    public init(_ values: String...) {
        self.init(values)
    }

    /// The fingerprint of a set of values, whatever order they come in: a
    /// collection's composition (its albums' identifiers), not its sorting.
    public init(unordered values: some Sequence<String>) {
        self.init(values.sorted())
    }

    public var description: String { hex }
}
