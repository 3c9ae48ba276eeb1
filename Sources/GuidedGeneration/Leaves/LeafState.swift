/// The state of a leaf automaton (a string, number, boolean or null being
/// generated), small enough to copy and hash freely.
///
/// Exists so the matcher can carry a leaf's progress by value: a string's
/// automaton state fits in ``low``; a number's text so far is packed into
/// both words, four bits per character (see ``NumberConstraint``).
package struct LeafState: Hashable, Sendable {
    package var low: UInt64
    package var high: UInt64

    package init(low: UInt64 = 0, high: UInt64 = 0) {
        self.low = low
        self.high = high
    }
}
