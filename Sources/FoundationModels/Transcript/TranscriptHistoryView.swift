// Transcript.HistoryView: the conversation after the instructions.
extension Transcript {
    /// A transcript's entries after its instructions: what a profile reads
    /// and rewrites (``Transcript/history``, ``SessionPropertyValues/history``)
    /// without touching the instructions the session keeps in front.
    ///
    /// Its indices are positions in the transcript it came from, so an index
    /// found in the view points at the same entry in the transcript, and a
    /// slice of the view is a view with the same indices.
    public struct HistoryView: MutableCollection, RandomAccessCollection, RangeReplaceableCollection, Sendable, ExpressibleByArrayLiteral {
        public typealias Element = Transcript.Entry
        public typealias SubSequence = Transcript.HistoryView
        public typealias Indices = Range<Index>
        public typealias Iterator = IndexingIterator<Transcript.HistoryView>

        /// A position in the view (and in the transcript it came from).
        public struct Index: Comparable, Hashable, Sendable, Strideable {
            public typealias Stride = Int

            let position: Int

            init(_ position: Int) {
                self.position = position
            }

            public static func < (lhs: Index, rhs: Index) -> Bool {
                lhs.position < rhs.position
            }

            public func distance(to other: Index) -> Int {
                other.position - position
            }

            public func advanced(by n: Int) -> Index {
                Index(position + n)
            }
        }

        /// The entries, indexed as in the transcript.
        var entries: ArraySlice<Transcript.Entry>

        init(_ entries: ArraySlice<Transcript.Entry>) {
            self.entries = entries
        }

        /// An empty history.
        public init() {
            self.entries = []
        }

        public init(arrayLiteral elements: Transcript.Entry...) {
            self.entries = elements[...]
        }

        public var startIndex: Index { Index(entries.startIndex) }
        public var endIndex: Index { Index(entries.endIndex) }

        public subscript(position: Index) -> Transcript.Entry {
            get { entries[position.position] }
            set { entries[position.position] = newValue }
        }

        public subscript(bounds: Range<Index>) -> Transcript.HistoryView {
            get { HistoryView(entries[bounds.lowerBound.position..<bounds.upperBound.position]) }
            set { replaceSubrange(bounds, with: newValue) }
        }

        public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Index>, with newElements: C) where C.Element == Transcript.Entry {
            entries.replaceSubrange(subrange.lowerBound.position..<subrange.upperBound.position, with: newElements)
        }

        public mutating func append(_ entry: Transcript.Entry) {
            entries.append(entry)
        }

        public mutating func append(contentsOf entries: some Sequence<Transcript.Entry>) {
            self.entries.append(contentsOf: entries)
        }
    }

    /// The conversation after the instructions: every entry but a leading
    /// instructions entry. Setting it keeps the instructions and replaces
    /// the rest.
    public var history: HistoryView {
        get {
            if let first = entries.first, case .instructions = first { return HistoryView(entries[1...]) }
            return HistoryView(entries[...])
        }
        set {
            let (instructions, _) = Transcript.splitInstructions(entries)
            entries = (instructions.map { [$0] } ?? []) + Array(newValue.entries)
        }
    }
}
