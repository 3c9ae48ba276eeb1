/// A parsed regular expression, reduced to the operations a finite
/// automaton can enforce.
///
/// Exists to separate reading the regex dialect (``PatternParser``, which
/// refuses what cannot be enforced) from lowering to bytes (``ByteNFA``).
/// It describes decoded string content, one Unicode scalar per ``scalars(_:)``;
/// JSON escaping is applied later.
indirect enum PatternNode: Hashable, Sendable {
    /// The empty string.
    case empty
    /// Exactly one scalar from the set (which may be empty: matches nothing).
    case scalars(ScalarSet)
    /// Each part in turn.
    case sequence([PatternNode])
    /// Any one of the alternatives.
    case alternation([PatternNode])
    /// `node` between `min` and `max` times (`nil`: unbounded).
    case repetition(PatternNode, min: Int, max: Int?)
}
