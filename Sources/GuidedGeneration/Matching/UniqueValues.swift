/// The elements written so far in the arrays that require distinct
/// elements (JSON Schema's `uniqueItems`), for one matcher.
///
/// Exists because uniqueness is the one constraint that depends on what an
/// array already holds, which no automaton can remember for free strings.
/// The elements such an array may have are written in one spelling per value
/// (canonical strings, integers, constants; ``GrammarCompiler`` refuses the
/// rest), so equal values are equal bytes. A text is a node of a trie of
/// every text the matcher has read inside such an element, and a set of
/// elements is a persistent list of texts: both are integers, so a stack
/// frame names them and stacks stay four integers a level. Texts and sets
/// are interned, so equal stacks stay equal and deduplicate.
struct UniqueValues {
    /// The empty text (no byte of the element read yet).
    static let emptyText: Int32 = 0
    /// The set of an array with no element yet.
    static let emptySet: Int32 = 0

    /// Texts: lists of bytes (a trie of every text read).
    private var texts = InternedLists()
    /// Sets: lists of texts.
    private var sets = InternedLists()

    /// For each set asked about, the texts that begin one of its members
    /// (the members included).
    private var prefixCache: [Int32: Set<Int32>] = [:]
    /// Liveness answers (``Matcher/isLive(set:text:leaf:state:)``), by
    /// set, text and leaf.
    var liveCache: [LiveKey: Liveness] = [:]

    /// Whether an element can still end as a value its array does not
    /// hold and, where it can, a way to: the answer for an array carries
    /// over to the array with one more element unless that element is the
    /// way (``Matcher/isLive(set:text:leaf:state:)``).
    enum Liveness: Equatable {
        case dead
        /// `byte` is -1 where `text` itself may end the element as a new
        /// value; otherwise `text` followed by `byte` begins no element
        /// of the array.
        case live(text: Int32, byte: Int16)
    }

    struct LiveKey: Hashable {
        var set: Int32
        var text: Int32
        var leaf: Int32
        var state: LeafState
    }

    /// `text` followed by `byte`.
    mutating func text(_ text: Int32, appending byte: UInt8) -> Int32 {
        texts.list(text, appending: Int32(byte))
    }

    /// `text` followed by `byte`, if the matcher has read that text before.
    func existingText(_ text: Int32, appending byte: UInt8) -> Int32? {
        texts.existing(text, appending: Int32(byte))
    }

    /// The text read from the empty text on.
    func bytes(of text: Int32) -> [UInt8] {
        texts.valuesLastFirst(of: text).reversed().map { UInt8(truncatingIfNeeded: $0) }
    }

    /// Whether `set` holds `member`.
    func contains(_ set: Int32, _ member: Int32) -> Bool {
        sets.contains(set, member)
    }

    /// `set` with `member` added (which it must not hold).
    mutating func set(_ set: Int32, adding member: Int32) -> Int32 {
        sets.list(set, appending: member)
    }

    /// The set `set` was made from by adding its latest member.
    func earlierSet(of set: Int32) -> Int32 {
        sets.parent(of: set)
    }

    /// The member `set` was made with last.
    func latestMember(of set: Int32) -> Int32 {
        sets.lastValue(of: set)
    }

    /// Whether `way` (a ``Liveness/live(text:byte:)`` answer for the set
    /// before `member` was added) leads to `member` only: the way is that
    /// text, or begins it — it is among `prefixes`, those of the set with
    /// `member` (``prefixes(of:)``), which it was not before.
    func isTaken(_ way: Liveness, by member: Int32, prefixes: Set<Int32>) -> Bool {
        guard case .live(let text, let byte) = way else { return false }
        guard byte >= 0 else { return text == member }
        guard let longer = existingText(text, appending: UInt8(byte)) else { return false }
        return prefixes.contains(longer)
    }

    /// The members of `set`, latest first.
    func members(of set: Int32) -> [Int32] {
        sets.valuesLastFirst(of: set)
    }

    /// The members of `set` as bytes.
    func memberBytes(of set: Int32) -> Set<[UInt8]> {
        Set(members(of: set).map { bytes(of: $0) })
    }

    /// The texts that begin a member of `set`, the members and the empty
    /// text included: only a text among them can still become a member.
    mutating func prefixes(of set: Int32) -> Set<Int32> {
        if let known = prefixCache[set] { return known }
        // The array one element shorter has them but for the latest's.
        var prefixes: Set<Int32> = []
        let added: [Int32]
        if set != Self.emptySet, let before = prefixCache[earlierSet(of: set)] {
            prefixes = before
            added = [latestMember(of: set)]
        } else {
            added = members(of: set)
        }
        for member in added {
            var cursor = member
            while cursor >= 0, prefixes.insert(cursor).inserted {
                cursor = texts.parent(of: cursor)
            }
        }
        prefixCache[set] = prefixes
        return prefixes
    }
}

/// Lists interned as integers: 0 is the empty list, and every other id is
/// the list its parent is with one value appended. Equal lists have equal
/// ids, so a stack frame holds a whole text or set in one integer and equal
/// stacks stay equal. Texts (lists of bytes) and sets of elements (lists of
/// texts) are both kept this way.
private struct InternedLists {
    private var parents: [Int32] = [-1]
    private var values: [Int32] = [-1]
    private var index: [UInt64: Int32] = [:]

    @inline(__always)
    private static func key(_ list: Int32, _ value: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: list)) << 32 | UInt64(UInt32(bitPattern: value))
    }

    /// `list` with `value` appended.
    mutating func list(_ list: Int32, appending value: Int32) -> Int32 {
        let key = Self.key(list, value)
        if let known = index[key] { return known }
        parents.append(list)
        values.append(value)
        let id = Int32(parents.count - 1)
        index[key] = id
        return id
    }

    /// `list` with `value` appended, if that list was made before.
    func existing(_ list: Int32, appending value: Int32) -> Int32? {
        index[Self.key(list, value)]
    }

    /// The list `list` extends (-1 for the empty list).
    func parent(of list: Int32) -> Int32 { parents[Int(list)] }

    /// The value `list` appended last (-1 for the empty list).
    func lastValue(of list: Int32) -> Int32 { values[Int(list)] }

    /// The values of `list`, the last appended first.
    func valuesLastFirst(of list: Int32) -> [Int32] {
        var result: [Int32] = []
        var cursor = list
        while cursor > 0 {
            result.append(values[Int(cursor)])
            cursor = parents[Int(cursor)]
        }
        return result
    }

    /// Whether `list` holds `value`.
    func contains(_ list: Int32, _ value: Int32) -> Bool {
        var cursor = list
        while cursor > 0 {
            if values[Int(cursor)] == value { return true }
            cursor = parents[Int(cursor)]
        }
        return false
    }
}

extension Matcher {
    /// Whether the element being written as `text` (in leaf `leaf`, at
    /// `state`) can still end as a value that `set` does not hold.
    ///
    /// Only a text that begins a member can fail: every other text can end
    /// only in values no member equals, and leaves never enter a dead end.
    /// From one that does, a search along the members' texts finds a way
    /// off them, or a way to end that is not a member. The array one
    /// element shorter answered first where it could: a dead end stays
    /// one, and its way out stays open unless the latest element took it,
    /// so an array of many choices does not search them all again at each
    /// element.
    mutating func isLive(set: Int32, text: Int32, leaf: Int32, state: LeafState) -> Bool {
        guard set != UniqueValues.emptySet else { return true }
        let prefixes = values.prefixes(of: set)
        guard prefixes.contains(text) else { return true }
        let key = UniqueValues.LiveKey(set: set, text: text, leaf: leaf, state: state)
        if let known = values.liveCache[key] { return known != .dead }
        var answer: UniqueValues.Liveness?
        let earlier = UniqueValues.LiveKey(set: values.earlierSet(of: set), text: text, leaf: leaf, state: state)
        if let before = values.liveCache[earlier], !values.isTaken(before, by: values.latestMember(of: set), prefixes: prefixes) {
            answer = before
        }
        let found = answer ?? search(set: set, prefixes: prefixes, text: text, leaf: leaf, state: state)
        values.liveCache[key] = found
        return found != .dead
    }

    /// Depth first along the members' texts (an explicit stack: a member
    /// may be a long string).
    private func search(set: Int32, prefixes: Set<Int32>, text: Int32, leaf: Int32, state: LeafState) -> UniqueValues.Liveness {
        var stack = [(text, state)]
        while let (text, state) = stack.popLast() {
            // A number may end wherever it is accepting.
            if !grammar.leafIsClosed(leaf), grammar.leafIsAccepting(leaf, state), !values.contains(set, text) { return .live(text: text, byte: -1) }
            for byte in UInt8.min...UInt8.max {
                guard let next = grammar.leafNext(leaf, state, byte) else { continue }
                guard let longer = values.existingText(text, appending: byte), prefixes.contains(longer) else {
                    return .live(text: text, byte: Int16(byte))
                }
                if grammar.leafIsFinal(leaf, next) {
                    if !values.contains(set, longer) { return .live(text: longer, byte: -1) }
                } else {
                    stack.append((longer, next))
                }
            }
        }
        return .dead
    }

    /// Whether some element of `node` (a leaf, or an `anyOf` of them) can
    /// still be written in an array holding `set`: an array whose elements
    /// must differ takes no `,` once every value its elements may have is
    /// there.
    mutating func hasFreshValue(set: Int32, node: Int32) -> Bool {
        guard set != UniqueValues.emptySet else { return true }
        switch grammar.nodes[Int(node)] {
        case .leaf(let leaf):
            return isLive(set: set, text: UniqueValues.emptyText, leaf: leaf, state: grammar.leafInitial(leaf))
        case .anyOf(let choices):
            for choice in choices where hasFreshValue(set: set, node: choice) { return true }
            return false
        default:
            return true
        }
    }
}

extension Grammar {
    /// Up to `count` distinct texts of `node` (a leaf, or an `anyOf` of
    /// leaves) that `excluded` does not hold, shortest first: the elements
    /// a shortest completion writes in an array whose elements must
    /// differ. Fewer when the language has fewer (or they lie past the
    /// search's bound).
    func distinctTexts(of node: Int32, count: Int, excluding excluded: Set<[UInt8]>) -> [[UInt8]] {
        guard count > 0 else { return [] }
        var leaves: [Int32] = []
        var visited: Set<Int32> = []
        func collect(_ node: Int32) {
            guard visited.insert(node).inserted else { return }
            switch nodes[Int(node)] {
            case .leaf(let leaf): leaves.append(leaf)
            case .anyOf(let choices): choices.forEach(collect)
            default: break
            }
        }
        collect(node)
        var found: Set<[UInt8]> = []
        for leaf in leaves {
            found.formUnion(completions(of: leaf, from: leafInitial(leaf), after: [], count: count, excluding: excluded.union(found)))
        }
        return Array(found.sorted { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) }.prefix(count))
    }

    /// Up to `count` distinct texts of `leaf` that begin with `prefix` (read
    /// up to `state`) and that `excluded` does not hold, shortest first:
    /// iterative deepening over the leaf, each branch cut where even its
    /// shortest completion would not fit.
    func completions(of leaf: Int32, from state: LeafState, after prefix: [UInt8], count: Int, excluding excluded: Set<[UInt8]>) -> [[UInt8]] {
        guard let shortest = ShortestCompletion.leafCompletion(self, leaf, state) else { return [] }
        var remaining: [LeafState: Int] = [:]
        func rest(_ state: LeafState) -> Int {
            if let known = remaining[state] { return known }
            let length = ShortestCompletion.leafCompletion(self, leaf, state)?.count ?? Int.max / 2
            remaining[state] = length
            return length
        }
        let closed = leafIsClosed(leaf)
        var found: [[UInt8]] = []
        var seen: Set<[UInt8]> = []
        var budget = Self.completionSearchBudget
        var path = prefix
        func visit(_ state: LeafState, limit: Int) {
            guard found.count < count, budget > 0 else { return }
            budget -= 1
            if path.count - prefix.count == limit {
                // (A closed leaf ends at its final byte, below.)
                if !closed, leafIsAccepting(leaf, state), !excluded.contains(path), seen.insert(path).inserted { found.append(path) }
                return
            }
            for byte in Self.preferredBytes {
                guard let next = leafNext(leaf, state, byte) else { continue }
                let depth = path.count - prefix.count + 1
                if leafIsFinal(leaf, next) {
                    path.append(byte)
                    if depth == limit, !excluded.contains(path), seen.insert(path).inserted { found.append(path) }
                    path.removeLast()
                    if found.count >= count { return }
                    continue
                }
                guard depth + rest(next) <= limit else { continue }
                path.append(byte)
                visit(next, limit: limit)
                path.removeLast()
                if found.count >= count || budget <= 0 { return }
            }
        }
        var limit = shortest.count
        while found.count < count, budget > 0, limit <= shortest.count + Self.completionSearchSlack {
            visit(state, limit: limit)
            limit += 1
        }
        return found
    }

    /// Nodes the search for distinct completions visits at most.
    static let completionSearchBudget = 200_000
    /// How much longer than the shortest completion a searched one may be.
    static let completionSearchSlack = 8

    /// Bytes in the order completions try them: lower-case letters and
    /// digits first (readable filler), then the rest.
    static let preferredBytes: [UInt8] = {
        let first = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        return first + (UInt8.min...UInt8.max).filter { !first.contains($0) }
    }()
}

extension Grammar {
    /// Texts for elements `start..<end` of array or tuple `node`, distinct
    /// from each other and from `excluded` (chosen position by position,
    /// the shortest that is still free); nil when some position has none.
    func freshElements(of node: Int32, from start: Int, to end: Int, excluding excluded: Set<[UInt8]>) -> [[UInt8]]? {
        guard start < end else { return [] }
        var chosen = excluded
        var texts: [[UInt8]] = []
        var pools: [Int32: [[UInt8]]] = [:]
        for index in start..<end {
            guard let element = element(of: node, at: Int32(index)) else { return nil }
            if pools[element] == nil { pools[element] = distinctTexts(of: element, count: end - index, excluding: chosen) }
            guard let text = pools[element]?.first(where: { !chosen.contains($0) }) else { return nil }
            chosen.insert(text)
            texts.append(text)
        }
        return texts
    }
}
