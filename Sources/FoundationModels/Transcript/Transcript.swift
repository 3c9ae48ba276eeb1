import Foundation

/// The record of a conversation with a model: instructions, prompts, tool
/// calls and their outputs, reasoning and responses, in order.
///
/// It exists so that a session's history can be inspected, edited, saved (it
/// is `Codable` in Apple's JSON shape), and used to start a new session
/// where an old one left off.
public struct Transcript: Sendable, Equatable, RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>
    public typealias Element = Entry

    /// The entries, in order.
    package var entries: [Entry]

    /// Creates an empty transcript.
    public init() {
        self.entries = []
    }

    /// Creates a transcript from entries.
    public init(entries: some Sequence<Entry> = []) {
        self.entries = Array(entries)
    }

    public var startIndex: Int { entries.startIndex }
    public var endIndex: Int { entries.endIndex }

    public subscript(index: Int) -> Entry {
        get { entries[index] }
        set { entries[index] = newValue }
    }

    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C) where C.Element == Entry {
        entries.replaceSubrange(subrange, with: newElements)
    }
}

extension Transcript: CustomStringConvertible {
    /// Every entry's description, one after another.
    public var description: String {
        entries.map(\.description).joined(separator: "\n")
    }
}
