/// The masks of the readings that walk the vocabulary byte by byte (a value
/// about to start, the punctuation between values, a key that may be
/// declared or extra), kept by the stacks they were read from.
///
/// Exists because that walk (``GuidedDecoder``'s `explore`) is the one mask
/// computation that is not kept per leaf state: it steps the matcher for
/// every trie node the structure allows, tens of microseconds where a string's kept
/// masks cost a few. The same stacks come back — every generation of a
/// schema starts at its root, every element of an array of objects opens
/// the same object — and what the walk allows depends only on the readings'
/// leaves and frames, so equal readings have equal masks. Arrays whose
/// elements must differ name their elements by the matcher's own numbering,
/// so their readings are not kept.
struct StructureMasks {
    /// One reading as a value: its leaf and the frames of its stack, top
    /// first.
    struct Reading: Hashable {
        var leaf: Int32
        var leafState: LeafState
        var frames: [Frame]
    }

    /// What one walk allowed: the tokens themselves where they are few
    /// (punctuation after a value), the whole mask otherwise.
    enum Kept {
        case tokens([Int32])
        case mask(TokenMask)

        init(_ mask: TokenMask) {
            let population = mask.population
            self = population <= StructureMasks.listedTokenLimit ? .tokens(mask.tokens) : .mask(mask)
        }

        /// The bytes it holds, for the budget.
        var size: Int {
            switch self {
            case .tokens(let tokens): tokens.count * 4
            case .mask(let mask): mask.words.count * 8
            }
        }

        func add(to mask: inout TokenMask) {
            switch self {
            case .tokens(let tokens): for token in tokens { mask.insert(token) }
            case .mask(let kept): mask.formUnion(kept)
            }
        }
    }

    /// The most tokens kept as a list rather than a mask.
    static let listedTokenLimit = 2048
    /// The most bytes of masks one schema keeps: 512 KiB, about 27 masks
    /// that allow most of a 152k vocabulary or thousands of short lists.
    static let byteBudget = 512 << 10

    private var masks: [[Reading]: Kept] = [:]
    /// Keys in the order they were kept: the oldest go first.
    private var order: [[Reading]] = []
    private var oldest = 0
    /// The bytes its kept masks hold.
    private(set) var bytes = 0

    var count: Int { masks.count }

    func mask(for readings: [Reading]) -> Kept? {
        masks[readings]
    }

    mutating func keep(_ kept: Kept, for readings: [Reading]) {
        guard masks[readings] == nil, kept.size <= Self.byteBudget else { return }
        while bytes + kept.size > Self.byteBudget, oldest < order.count {
            if let dropped = masks.removeValue(forKey: order[oldest]) { bytes -= dropped.size }
            oldest += 1
        }
        if oldest > 1024, oldest * 2 > order.count {
            order.removeFirst(oldest)
            oldest = 0
        }
        masks[readings] = kept
        order.append(readings)
        bytes += kept.size
    }
}
