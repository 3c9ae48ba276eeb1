/// The shortest text that completes a value, from any matcher state.
///
/// Exists so a token budget can be honoured without ever returning invalid
/// output: the decoder keeps the budget at least as large as the shortest
/// completion, and when the model's next token would break that, it writes
/// the shortest completion instead (closing the open string, adding the
/// required keys with their shortest values, closing the brackets).
///
/// Lengths are in bytes, which bound the tokens needed from above on any
/// vocabulary where each token spells at least one byte.
struct ShortestCompletion: Sendable {
    /// The shortest complete text of each grammar node; nil where it is
    /// longer than ``textLimit`` (no budget could hold it).
    private(set) var nodeText: [[UInt8]?] = []
    /// For each object shape and key-trie index (`position * 2 + emitted`),
    /// the shortest text that finishes the object from that trie's root
    /// (nil above ``textLimit``).
    private(set) var objectRest: [[[UInt8]?]] = []
    /// No completion is known, or it is longer than ``textLimit``.
    struct Unavailable: Error {}

    /// The shortest text of `node`.
    func text(_ node: Int32) throws(Unavailable) -> [UInt8] {
        guard let text = nodeText[Int(node)] else { throw Unavailable() }
        return text
    }

    /// The shortest text that finishes object shape `shape` from the root of key trie `trieIndex`.
    func rest(shape: Int32, trieIndex: Int) throws(Unavailable) -> [UInt8] {
        guard let text = objectRest[Int(shape)][trieIndex] else { throw Unavailable() }
        return text
    }

    /// The lengths of ``nodeText`` and ``objectRest``.
    private(set) var nodeLength: [Int] = []
    private(set) var restLength: [[Int]] = []

    /// The length of what cannot be finished (yet): lengths are clamped to
    /// it, and sums of two clamped lengths cannot overflow.
    static let infinity = Int.max / 4

    /// The longest completion text kept: `minItems` nested in `minItems`
    /// multiply, and a text no token budget can hold is not worth building.
    static let textLimit = 1 << 20

    /// `a + b`, clamped to ``infinity``.
    @inline(__always)
    static func sum(_ a: Int, _ b: Int) -> Int { min(infinity, a + b) }

    /// `count` copies of a length, clamped to ``infinity``.
    @inline(__always)
    static func product(_ count: Int, _ length: Int) -> Int {
        let (value, overflow) = count.multipliedReportingOverflow(by: length)
        return overflow ? infinity : min(infinity, value)
    }

    init(grammar: Grammar) {
        let infinity = Self.infinity
        var length = [Int](repeating: infinity, count: grammar.nodes.count)
        var rest = grammar.objects.map { [Int](repeating: infinity, count: $0.trieAt.count) }
        let leafLength = grammar.leaves.indices.map { leaf in
            Self.leafCompletion(grammar, Int32(leaf), grammar.leafInitial(Int32(leaf)))?.count ?? infinity
        }
        // Fixpoint: lengths only decrease, and recursion through
        // definitions settles once every productive node has a finite one.
        // Until then a node refers to others still at ``infinity`` (a
        // definition compiled after its first use): every sum saturates.
        var changed = true
        while changed {
            changed = false
            for shape in grammar.objects.indices where Self.updateRests(grammar, shape: shape, length: length, rest: &rest) {
                changed = true
            }
            for node in grammar.nodes.indices {
                let value: Int
                switch grammar.nodes[node] {
                case .leaf(let leaf): value = leafLength[Int(leaf)]
                case .object(let shape): value = Self.sum(1, rest[Int(shape)][0])
                case .array(let item, let minimum, _):
                    // (Indented, the line breaks count one byte each: the
                    // indentation depends on where the array is.)
                    let items = Self.product(Int(minimum), length[Int(item)])
                    let brackets = grammar.isExpanded(Int32(node)) ? 4 : 2
                    let separator = grammar.elementSeparator(Int32(node)).count
                    value = minimum == 0 ? 2 : Self.sum(Self.sum(brackets, items), Self.product(Int(minimum) - 1, separator))
                case .anyOf(let choices): value = choices.map { length[Int($0)] }.min() ?? infinity
                case .anyValue: value = 1
                case .sequence(let parts): value = parts.reduce(0) { Self.sum($0, length[Int($1)]) }
                case .tuple(let id):
                    let shape = grammar.tuples[Int(id)]
                    let brackets = grammar.isExpanded(Int32(node)) && shape.minimum > 0 ? 4 : 2
                    let separator = grammar.elementSeparator(Int32(node)).count
                    var total = Self.sum(brackets, Self.product(max(Int(shape.minimum) - 1, 0), separator))
                    for index in 0..<shape.minimum {
                        total = Self.sum(total, grammar.element(of: Int32(node), at: index).map { length[Int($0)] } ?? infinity)
                    }
                    value = total
                }
                if value < length[node] {
                    length[node] = value
                    changed = true
                }
            }
        }
        // Texts, following the choices that gave the lengths.
        var builder = TextBuilder(grammar: grammar, length: length, rest: rest)
        nodeLength = length
        restLength = rest
        nodeText = grammar.nodes.indices.map { builder.text(of: Int32($0)) }
        objectRest = grammar.objects.indices.map { shape in
            grammar.objects[shape].trieAt.indices.map { builder.objectRest(shape: shape, trieIndex: $0, from: 0) }
        }
    }

    /// Lowers the rest lengths of object `shape` (each position's
    /// ``trieCost(_:shape:trieIndex:from:length:rest:)`` from its trie's
    /// root, without spelling the path: the fixpoint's inner loop) to what
    /// `length` and `rest` now give; whether any went down. A trie read from
    /// a position holds the outcomes of the properties from there on: its
    /// rests, from the last position of its run back, are running minima.
    static func updateRests(_ grammar: Grammar, shape: Int, length: [Int], rest: inout [[Int]]) -> Bool {
        var changed = false
        var costs: [(position: Int32, cost: Int)] = []
        let trieAt = grammar.objects[shape].trieAt
        // After a property first: the positions before any was emitted
        // read those rests.
        for emitted in [1, 0] {
            var position = trieAt.count / 2 - 1
            while position >= 0 {
                let index = Int(trieAt[position * 2 + emitted])
                let trie = grammar.objects[shape].keyTries[index]
                costs.removeAll(keepingCapacity: true)
                for end in trie.ends {
                    let property: Int32 = if case .property(let property) = trie.outcome(end) { property } else { Int32.max }
                    costs.append((property, cost(of: end, in: trie, grammar, shape: shape, length: length, rest: rest)))
                }
                costs.sort { $0.position > $1.position }
                // The trie's positions, from the last back.
                var best = infinity
                var next = 0
                while position >= 0, Int(trieAt[position * 2 + emitted]) == index {
                    while next < costs.count, costs[next].position >= position {
                        best = min(best, costs[next].cost)
                        next += 1
                    }
                    if best < rest[shape][position * 2 + emitted] {
                        rest[shape][position * 2 + emitted] = best
                        changed = true
                    }
                    position -= 1
                }
            }
        }
        return changed
    }

    /// What finishing the object through outcome node `end` costs after
    /// its key's bytes: the value and the rest after it, or nothing.
    @inline(__always)
    private static func cost(of end: Int32, in trie: KeyTrie, _ grammar: Grammar, shape: Int, length: [Int], rest: [[Int]], below base: Int = 0)
        -> Int
    {
        let bytes = trie.depth(end) - base
        switch trie.outcome(end) {
        case .close, .none:
            return bytes
        case .property(let index):
            let value = grammar.objects[shape].properties[Int(index)].value
            return sum(sum(bytes, length[Int(value)]), rest[shape][Int(index + 1) * 2 + 1])
        }
    }

    /// The cheapest way to finish an object from `node` of one of its key
    /// tries: the bytes to an outcome, plus the value and the rest after it.
    /// Of equal costs, the outcome whose bytes come last wins.
    static func trieCost(_ grammar: Grammar, shape: Int, trieIndex: Int, from node: Int32, length: [Int], rest: [[Int]]) -> (
        cost: Int, path: [UInt8], outcome: KeyTrie.Outcome
    ) {
        let trie = grammar.objects[shape].keyTries[grammar.objects[shape].keyTrie(Int32(trieIndex))]
        let position = Int32(trieIndex >> 1)
        var best: (cost: Int, node: Int32) = (infinity, -1)
        let base = trie.depth(node)
        for index in trie.ends(below: node) {
            let end = trie.ends[index]
            guard trie.reaches(end, from: position) else { continue }
            let cost = cost(of: end, in: trie, grammar, shape: shape, length: length, rest: rest, below: base)
            if cost < infinity, cost <= best.cost { best = (cost, end) }
        }
        guard best.node >= 0 else { return (infinity, [], .none) }
        return (best.cost, trie.bytes(from: node, to: best.node), trie.outcome(best.node))
    }

    /// The shortest bytes taking `leaf` from `state` to an accepting state
    /// (closing it, for strings). Breadth-first for string automata; for
    /// numbers, the smallest viable digit at each step.
    static func leafCompletion(_ grammar: Grammar, _ leaf: Int32, _ state: LeafState) -> [UInt8]? {
        switch grammar.leaves[Int(leaf)] {
        case .string(let automaton):
            return leafCompletion(automaton, from: Int32(truncatingIfNeeded: state.low))
        case .counted(let string) where string.isFree:
            // The search below in closed form, for any minimum: the
            // shortest way to close the string, then as many one-byte
            // characters before the closing quote as the minimum still needs.
            guard var path = leafCompletion(string.automaton, from: Int32(truncatingIfNeeded: state.low)) else { return nil }
            var count = state.high
            var current = Int32(truncatingIfNeeded: state.low)
            for byte in path {
                if string.characters.startsCharacter[Int(current)], CharacterCounts.startsCharacter(byte) { count += 1 }
                current = string.automaton.next(current, byte)
            }
            if count < string.minimum, !path.isEmpty {
                path.insert(contentsOf: repeatElement(UInt8(ascii: "a"), count: Int(string.minimum - count)), at: path.count - 1)
            }
            return path
        case .counted(let string):
            return countedCompletion(grammar, leaf, string.automaton, from: state)
        case .number(let number):
            var current = state
            var path: [UInt8] = []
            let alphabet = Array("0123456789-.".utf8)
            while !number.isAccepting(current) {
                guard path.count <= NumberConstraint.maximumLength,
                    let (byte, next) = alphabet.lazy.compactMap({ byte in number.next(current, byte).map { (byte, $0) } }).first
                else { return nil }
                path.append(byte)
                current = next
            }
            return path
        }
    }

    /// The shortest bytes taking counted string `leaf` (whose automaton is
    /// `automaton`) from `state` to an accepting state with a count its
    /// bounds allow: breadth-first over the automaton's state and the
    /// count, one byte of each class, letters and digits first. The leaf's
    /// steps go only where the bounds can still be met, so the search
    /// never wanders off, and it reaches a completion within the minimum's
    /// characters past the shortest closing.
    static func countedCompletion(_ grammar: Grammar, _ leaf: Int32, _ automaton: ByteDFA, from state: LeafState) -> [UInt8]? {
        if grammar.leafIsAccepting(leaf, state) { return [] }
        // A byte of each class, the first of letters, digits, then the rest.
        var representatives: [UInt8] = []
        var classes = Set<UInt8>()
        for byte in Array(UInt8(ascii: "a")...UInt8(ascii: "z")) + Array(UInt8(ascii: "0")...UInt8(ascii: "9")) + Array(UInt8.min...UInt8.max)
        where classes.insert(automaton.byteClasses[Int(byte)]).inserted {
            representatives.append(byte)
        }
        var visited: [LeafState: (previous: Int, byte: UInt8)] = [state: (-1, 0)]
        var queue: [LeafState] = [state]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for byte in representatives {
                guard let next = grammar.leafNext(leaf, current, byte), visited[next] == nil else { continue }
                visited[next] = (head - 1, byte)
                queue.append(next)
                guard grammar.leafIsAccepting(leaf, next) else { continue }
                var path: [UInt8] = []
                var cursor = queue.count - 1
                while cursor > 0, let (previous, via) = visited[queue[cursor]] {
                    path.append(via)
                    cursor = previous
                }
                return path.reversed()
            }
        }
        return nil
    }

    /// The shortest bytes taking `automaton` from `start` to an accepting
    /// state, breadth-first.
    static func leafCompletion(_ automaton: ByteDFA, from start: Int32) -> [UInt8]? {
        if automaton.isAccepting(start) { return [] }
        var previous: [Int32: (Int32, UInt8)] = [start: (-1, 0)]
        var queue: [Int32] = [start]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            for byte in UInt8.min...UInt8.max {
                let next = automaton.next(current, byte)
                guard next != ByteDFA.dead, previous[next] == nil else { continue }
                previous[next] = (current, byte)
                if automaton.isAccepting(next) {
                    var path: [UInt8] = []
                    var cursor = next
                    while let (before, via) = previous[cursor], before >= 0 {
                        path.append(via)
                        cursor = before
                    }
                    return path.reversed()
                }
                queue.append(next)
            }
        }
        return nil
    }

    /// Builds the texts the lengths describe.
    private struct TextBuilder {
        let grammar: Grammar
        let length: [Int]
        let rest: [[Int]]
        var memo: [Int32: [UInt8]?] = [:]
        /// ``objectRest(shape:trieIndex:from:)`` from each trie's root, once
        /// worked out (an object's rests chain: each ends in the next's).
        var restMemo: [[[UInt8]??]]

        init(grammar: Grammar, length: [Int], rest: [[Int]]) {
            self.grammar = grammar
            self.length = length
            self.rest = rest
            restMemo = grammar.objects.map { [[UInt8]??](repeating: nil, count: $0.trieAt.count) }
        }

        mutating func text(of node: Int32) -> [UInt8]? {
            guard length[Int(node)] <= ShortestCompletion.textLimit else { return nil }
            if let known = memo[node] { return known }
            let result: [UInt8]?
            switch grammar.nodes[Int(node)] {
            case .leaf(let leaf):
                result = ShortestCompletion.leafCompletion(grammar, leaf, grammar.leafInitial(leaf)) ?? []
            case .object(let shape):
                result = objectRest(shape: Int(shape), trieIndex: 0, from: 0).map { [UInt8(ascii: "{")] + $0 }
            case .array(let item, let minimum, _):
                if minimum > 0, grammar.isUnique(node) {
                    let (open, separator, close) = grammar.arrayPunctuation(node)
                    result = grammar.freshElements(of: node, from: 0, to: Int(minimum), excluding: []).map { elements in
                        open + elements.joined(separator: separator) + close
                    }
                } else if minimum > 0 {
                    let (open, separator, close) = grammar.arrayPunctuation(node)
                    result = text(of: item).map { element in
                        var bytes = open
                        for index in 0..<Int(minimum) {
                            if index > 0 { bytes += separator }
                            bytes += element
                        }
                        return bytes + close
                    }
                } else {
                    result = Array("[]".utf8)
                }
            case .anyOf(let choices):
                let best = choices.min { length[Int($0)] < length[Int($1)] }
                result = best.map { text(of: $0) } ?? []
            case .anyValue:
                result = [UInt8(ascii: "0")]
            case .sequence(let parts):
                var bytes: [UInt8]? = []
                for part in parts {
                    guard let text = text(of: part) else { bytes = nil; break }
                    bytes? += text
                }
                result = bytes
            case .tuple where grammar.isUnique(node):
                let (open, separator, close) =
                    grammar.minimumCount(of: node) > 0 ? grammar.arrayPunctuation(node) : ([UInt8(ascii: "[")], [], [UInt8(ascii: "]")])
                result = grammar.freshElements(of: node, from: 0, to: Int(grammar.minimumCount(of: node)), excluding: []).map { elements in
                    open + elements.joined(separator: separator) + close
                }
            case .tuple:
                let (open, separator, close) =
                    grammar.minimumCount(of: node) > 0 ? grammar.arrayPunctuation(node) : ([UInt8(ascii: "[")], [], [UInt8(ascii: "]")])
                var bytes: [UInt8]? = open
                for index in 0..<grammar.minimumCount(of: node) {
                    if index > 0 { bytes? += separator }
                    guard let element = grammar.element(of: node, at: index) else { continue }
                    guard let text = text(of: element) else { bytes = nil; break }
                    bytes? += text
                }
                result = bytes.map { $0 + close }
            }
            memo[node] = result
            return result
        }

        mutating func objectRest(shape: Int, trieIndex: Int, from node: Int32) -> [UInt8]? {
            if node == 0, let known = restMemo[shape][trieIndex] { return known }
            let best = ShortestCompletion.trieCost(grammar, shape: shape, trieIndex: trieIndex, from: node, length: length, rest: rest)
            let result: [UInt8]?
            if best.cost > ShortestCompletion.textLimit {
                result = nil
            } else {
                switch best.outcome {
                case .close, .none:
                    result = best.path
                case .property(let index):
                    let value = grammar.objects[shape].properties[Int(index)].value
                    if let text = text(of: value), let after = objectRest(shape: shape, trieIndex: Int(index + 1) * 2 + 1, from: 0) {
                        result = best.path + text + after
                    } else {
                        result = nil
                    }
                }
            }
            if node == 0 { restMemo[shape][trieIndex] = .some(result) }
            return result
        }
    }
}

extension Matcher {
    /// The shortest bytes that complete the value from `state`, or nil if
    /// none is known (never, for a state the matcher reached).
    mutating func shortestCompletion(of state: [Alternative], table: ShortestCompletion) -> [UInt8]? {
        var best: [UInt8]?
        for alternative in state {
            guard let bytes = completion(of: alternative, table: table) else { continue }
            if best.map({ bytes.count < $0.count }) ?? true { best = bytes }
        }
        return best
    }

    private mutating func completion(of alternative: Alternative, table: ShortestCompletion) -> [UInt8]? {
        do {
            return try completionBytes(of: alternative, table: table)
        } catch {
            return nil
        }
    }

    /// ``completion(of:table:)``, throwing where no completion is known or
    /// it would be longer than ``ShortestCompletion/textLimit``.
    private mutating func completionBytes(of alternative: Alternative, table: ShortestCompletion) throws(ShortestCompletion.Unavailable) -> [UInt8] {
        let colon = grammar.layout.colon
        // How an open object (free-form, or among its extra keys) closes
        // after a member: indented, on a line of its own.
        let closeObject: [UInt8] = grammar.layout == .indented ? Array("\n}".utf8) : Array("}".utf8)
        if alternative.leaf < 0, alternative.top >= 0 {
            let record = arena[Int(alternative.top)]
            if record.frame.kind == .space {
                // The whitespace left, then whatever the frame it leads to needs.
                let whitespace =
                    (record.frame.lineBreakDue ? [UInt8(ascii: "\n")] : []) + [UInt8](repeating: UInt8(ascii: " "), count: Int(record.frame.spaces))
                return try whitespace + completionBytes(of: Alternative(top: record.parent), table: table)
            }
        }
        var bytes: [UInt8] = []
        // Indented: the tables' texts hold bare line breaks; the ones after
        // the open leaf's bytes get their indentation at the end.
        var leafCount = 0
        var startsInString = false
        /// Appends, giving up once the text is longer than any budget.
        func append(_ more: [UInt8]) throws(ShortestCompletion.Unavailable) {
            bytes += more
            guard bytes.count <= ShortestCompletion.textLimit else { throw .init() }
        }
        var waiting = alternative.top
        /// The element just finished in an array whose elements must
        /// differ: the elements added after it must differ from it too.
        var finished: (array: Int32, text: [UInt8])?
        if alternative.leaf >= 0, alternative.top >= 0, arena[Int(alternative.top)].frame.kind == .element {
            // An element of such an array: the shortest way to end it as a
            // value the array does not have yet.
            let record = arena[Int(alternative.top)]
            let written = values.bytes(of: record.frame.elementText)
            let excluded = values.memberBytes(of: arena[Int(record.parent)].frame.elementSet)
            guard
                let text = grammar.completions(of: alternative.leaf, from: alternative.leafState, after: written, count: 1, excluding: excluded).first
            else { throw .init() }
            try append(Array(text[written.count...]))
            leafCount = bytes.count
            finished = (record.parent, text)
            waiting = record.parent
        } else if alternative.leaf >= 0 {
            guard let leafBytes = ShortestCompletion.leafCompletion(grammar, alternative.leaf, alternative.leafState) else { throw .init() }
            try append(leafBytes)
            leafCount = bytes.count
        } else if alternative.top >= 0 {
            // The top frame is not waiting for a child: finish it first.
            let record = arena[Int(alternative.top)]
            let frame = record.frame
            switch frame.kind {
            case .value:
                try append(table.text(frame.node))
            case .object:
                let best = ShortestCompletion.trieCost(
                    grammar, shape: Int(frame.node), trieIndex: Int(frame.keySlot), from: frame.keyNode, length: table.nodeLength,
                    rest: table.restLength)
                // Part way through a key, the path closes its string first.
                startsInString = ShortestCompletion.unescapedQuotes(in: best.path) % 2 == 1
                try append(best.path)
                if case .property(let index) = best.outcome {
                    let value = grammar.objects[Int(frame.node)].properties[Int(index)].value
                    try append(table.text(value))
                    try append(table.rest(shape: frame.node, trieIndex: Int(Frame.keySlot(position: index + 1, emittedAny: true))))
                }
            case .array where grammar.isUnique(frame.node):
                let minimum = Int(grammar.minimumCount(of: frame.node))
                let phase = frame.arrayPhase
                let (open, separator, close) = grammar.arrayPunctuation(frame.node)
                let count = Int(frame.elementCount)
                let excluded = values.memberBytes(of: frame.elementSet)
                switch phase {
                case .opened where minimum == 0:
                    try append([UInt8(ascii: "]")])
                case .opened, .afterComma, .afterElement:
                    // After a comma, one more element is due whatever the minimum.
                    let end = max(minimum, phase == .afterComma ? count + 1 : count)
                    guard let elements = grammar.freshElements(of: frame.node, from: count, to: end, excluding: excluded) else { throw .init() }
                    for (offset, element) in elements.enumerated() {
                        if offset == 0, phase == .opened { try append(Array(open.dropFirst())) }
                        if offset > 0 || phase == .afterElement { try append(separator) }
                        try append(element)
                    }
                    try append(close)
                case .closing:
                    try append([UInt8(ascii: "]")])
                case .inElement:
                    throw .init()
                }
            case .array:
                let minimum = Int(grammar.minimumCount(of: frame.node))
                let phase = frame.arrayPhase
                let (open, separator, close) = grammar.arrayPunctuation(frame.node)
                var count = Int(frame.elementCount)
                switch phase {
                case .opened, .afterComma:
                    if phase == .opened, minimum == 0 {
                        try append([UInt8(ascii: "]")])
                        waiting = record.parent
                        break
                    }
                    guard let item = grammar.element(of: frame.node, at: Int32(count)) else { throw .init() }
                    // After `[`, an indented array's first line break.
                    if phase == .opened { try append(Array(open.dropFirst())) }
                    try append(table.text(item))
                    count += 1
                    fallthrough
                case .afterElement:
                    while count < minimum {
                        guard let item = grammar.element(of: frame.node, at: Int32(count)) else { throw .init() }
                        try append(separator + table.text(item))
                        count += 1
                    }
                    try append(close)
                case .closing:
                    try append([UInt8(ascii: "]")])
                case .inElement:
                    throw .init()
                }
            case .extra:
                let extras = grammar.objects[Int(frame.node)].extras
                switch frame.extraPhase {
                case .afterComma:
                    var best: [UInt8]?
                    for extra in extras {
                        guard let key = ShortestCompletion.leafCompletion(grammar, extra.key, grammar.leafInitial(extra.key)),
                            let value = try? table.text(extra.value)
                        else { continue }
                        let candidate = key + colon + value + closeObject
                        if best.map({ candidate.count < $0.count }) ?? true { best = candidate }
                    }
                    guard let best else { throw .init() }
                    try append(best)
                case .afterKey:
                    try append(colon + table.text(extras[Int(frame.extraIndex)].value) + closeObject)
                case .afterColon:
                    try append(table.text(extras[Int(frame.extraIndex)].value) + closeObject)
                case .afterValue:
                    try append(closeObject)
                case .closing:
                    try append([UInt8(ascii: "}")])
                case .inKey, .inValue:
                    throw .init()
                }
            case .anyObject:
                switch frame.freeObjectPhase {
                case .opened, .closing: try append(Array("}".utf8))
                case .afterValue: try append(closeObject)
                case .afterComma: try append(Array("\"\"".utf8) + colon + Array("0".utf8) + closeObject)
                case .afterKey: try append(colon + Array("0".utf8) + closeObject)
                case .afterColon: try append(Array("0".utf8) + closeObject)
                case .inValue, .inKey: throw .init()
                }
            case .anyArray:
                let close = Self.freeArrayClose(frame)
                switch frame.freeArrayPhase {
                case .opened, .closing: try append(Array("]".utf8))
                case .afterValue: try append(close)
                case .afterComma: try append(Array("0".utf8) + close)
                case .inValue: throw .init()
                }
            case .sequence:
                guard frame.childStartsNext, case .sequence(let parts) = grammar.nodes[Int(frame.node)] else { throw .init() }
                for part in parts[Int(frame.child)...] { try append(table.text(part)) }
            case .objectValue, .space, .element:
                throw .init()
            }
            if waiting == alternative.top { waiting = record.parent }
        }
        // Every frame below is waiting for the value just finished.
        while waiting >= 0 {
            let record = arena[Int(waiting)]
            let frame = record.frame
            switch frame.kind {
            case .objectValue:
                try append(table.rest(shape: frame.node, trieIndex: Int(Frame.keySlot(position: frame.property + 1, emittedAny: true))))
            case .array where grammar.isUnique(frame.node):
                let (_, separator, close) = grammar.arrayPunctuation(frame.node)
                var excluded = values.memberBytes(of: frame.elementSet)
                if let finished, finished.array == waiting { excluded.insert(finished.text) }
                let start = Int(frame.elementCount) + 1
                guard
                    let elements = grammar.freshElements(
                        of: frame.node, from: start, to: max(start, Int(grammar.minimumCount(of: frame.node))), excluding: excluded)
                else { throw .init() }
                for element in elements { try append(separator + element) }
                try append(close)
            case .array:
                let (_, separator, close) = grammar.arrayPunctuation(frame.node)
                var count = Int(frame.elementCount) + 1
                while count < Int(grammar.minimumCount(of: frame.node)) {
                    guard let item = grammar.element(of: frame.node, at: Int32(count)) else { throw .init() }
                    try append(separator + table.text(item))
                    count += 1
                }
                try append(close)
            case .extra:
                if frame.extraPhase == .inKey {
                    try append(colon + table.text(grammar.objects[Int(frame.node)].extras[Int(frame.extraIndex)].value))
                }
                try append(closeObject)
            case .anyObject:
                try append(frame.freeObjectPhase == .inKey ? colon + Array("0".utf8) + closeObject : closeObject)
            case .anyArray:
                try append(Self.freeArrayClose(frame))
            case .sequence:
                guard case .sequence(let parts) = grammar.nodes[Int(frame.node)] else { throw .init() }
                for part in parts[(Int(frame.child) + 1)...] { try append(table.text(part)) }
            case .value, .object, .space, .element:
                throw .init()
            }
            waiting = record.parent
        }
        guard grammar.layout == .indented else { return bytes }
        let rest = ShortestCompletion.indent(bytes[leafCount...], level: depth(below: alternative.top), inString: startsInString)
        return Array(bytes[..<leafCount]) + rest
    }
}

extension Matcher {
    /// How free-form array `frame` closes after an element: on a line of
    /// its own when it is written one element a line (its indentation is
    /// added with the rest of the completion's).
    private static func freeArrayClose(_ frame: Frame) -> [UInt8] {
        frame.isExpanded ? Array("\n]".utf8) : Array("]".utf8)
    }
}

extension ShortestCompletion {
    /// The quotes of `bytes` that open or close a string (not `\"`).
    static func unescapedQuotes(in bytes: [UInt8]) -> Int {
        var count = 0
        var escaped = false
        for byte in bytes {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { count += 1 }
        }
        return count
    }

    /// `bytes` with each bare line break followed by its indentation:
    /// JSON text that continues inside `level` open objects and arrays
    /// (inside a string if `inString`). A line break outside strings is
    /// always layout (a string holds `\n`, never the byte); the line it
    /// starts is indented one level per open container, one less when it
    /// closes one.
    static func indent(_ bytes: ArraySlice<UInt8>, level: Int32, inString: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var open = level
        var inString = inString
        var escaped = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            out.append(byte)
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): open += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"): open -= 1
            case UInt8(ascii: "\n"):
                let closes = index < bytes.endIndex && (bytes[index] == UInt8(ascii: "}") || bytes[index] == UInt8(ascii: "]"))
                let spaces = max(0, (closes ? open - 1 : open) * JSONLayout.indentWidth)
                out += repeatElement(UInt8(ascii: " "), count: Int(spaces))
            default: break
            }
        }
        return out
    }
}
