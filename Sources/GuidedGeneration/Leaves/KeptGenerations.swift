import Synchronization

/// Values kept for the process by key, bounded in two generations.
///
/// Exists for the work that compiling redoes for every schema unless it
/// is kept (``BuiltAutomata``: automata built from patterns, lengths and
/// a string's several constraints): schemas that arrive one after another
/// share their patterns and formats. Each generation holds at most half of `capacity`
/// values and half of `weightCapacity` (a value's weight is what its
/// owner says it costs in memory); when the newer is full it becomes the
/// older and the older is dropped, and a value found in the older moves
/// to the newer. What is in use stays; emptying everything at once made a
/// long-running process rebuild its formats every few hundred schemas.
/// The lock is not held while a value is made: two threads may make the
/// same value once each.
final class KeptGenerations<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Generations {
        var newer: [Key: Value] = [:]
        var newerWeight = 0
        var older: [Key: Value] = [:]
    }

    let capacity: Int
    let weightCapacity: Int
    private let weight: @Sendable (Value) -> Int
    private let kept = Mutex(Generations())

    init(capacity: Int, weightCapacity: Int, weight: @escaping @Sendable (Value) -> Int) {
        self.capacity = capacity
        self.weightCapacity = weightCapacity
        self.weight = weight
    }

    /// The value kept for `key`, if any.
    func value(for key: Key) -> Value? {
        kept.withLock { kept in
            if let found = kept.newer[key] { return found }
            guard let found = kept.older.removeValue(forKey: key) else { return nil }
            insert(found, for: key, into: &kept)
            return found
        }
    }

    /// The value kept for `key`, or the one `make` makes, then kept.
    func value<Failure: Error>(for key: Key, make: () throws(Failure) -> Value) throws(Failure) -> Value {
        if let known = value(for: key) { return known }
        let made = try make()
        keep(made, for: key)
        return made
    }

    func keep(_ value: Value, for key: Key) {
        kept.withLock { insert(value, for: key, into: &$0) }
    }

    private func insert(_ value: Value, for key: Key, into kept: inout Generations) {
        let cost = weight(value)
        if kept.newer.count >= capacity / 2 || kept.newerWeight + cost > weightCapacity / 2 {
            kept.older = kept.newer
            kept.newer = [:]
            kept.newerWeight = 0
        }
        kept.newer[key] = value
        kept.newerWeight += cost
    }
}
