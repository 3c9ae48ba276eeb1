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
    /// The shortest complete text of each grammar node.
    private(set) var nodeText: [[UInt8]] = []
    /// For each object shape and key-trie index (`position * 2 + emitted`),
    /// the shortest text that finishes the object from that trie's root.
    private(set) var objectRest: [[[UInt8]]] = []
    /// The lengths of ``nodeText`` and ``objectRest``.
    private(set) var nodeLength: [Int] = []
    private(set) var restLength: [[Int]] = []

    init(grammar: Grammar) {
        let infinity = Int.max / 4
        var length = [Int](repeating: infinity, count: grammar.nodes.count)
        var rest = grammar.objects.map { [Int](repeating: infinity, count: $0.keyTries.count) }
        let leafLength = grammar.leaves.indices.map { leaf in
            Self.leafCompletion(grammar, Int32(leaf), grammar.leafInitial(Int32(leaf)))?.count ?? infinity
        }
        // Fixpoint: lengths only decrease, and recursion through
        // definitions settles once every productive node has a finite one.
        var changed = true
        while changed {
            changed = false
            for shape in grammar.objects.indices {
                for index in grammar.objects[shape].keyTries.indices.reversed() {
                    let cost = Self.trieCost(grammar, shape: shape, trieIndex: index, from: 0, length: length, rest: rest).cost
                    if cost < rest[shape][index] {
                        rest[shape][index] = cost
                        changed = true
                    }
                }
            }
            for node in grammar.nodes.indices {
                let value: Int
                switch grammar.nodes[node] {
                case .leaf(let leaf): value = leafLength[Int(leaf)]
                case .object(let shape): value = 1 + rest[Int(shape)][0]
                case .array(let item, let minimum, _):
                    // (An item not finished yet has an "infinite" length: no overflow.)
                    let (items, overflow) = Int(minimum).multipliedReportingOverflow(by: length[Int(item)])
                    value = minimum == 0 ? 2 : overflow ? infinity : min(infinity, 2 + items + Int(minimum) - 1)
                case .anyOf(let choices): value = choices.map { length[Int($0)] }.min() ?? infinity
                case .anyValue: value = 1
                case .sequence(let parts): value = min(infinity, parts.reduce(0) { $0 + length[Int($1)] })
                case .tuple(let id):
                    let shape = grammar.tuples[Int(id)]
                    var total = 2 + max(Int(shape.minimum) - 1, 0)
                    for index in 0..<shape.minimum {
                        total = min(infinity, total + (grammar.element(of: Int32(node), at: index).map { length[Int($0)] } ?? infinity))
                    }
                    value = total
                }
                if value < length[node] {
                    length[node] = min(value, infinity)
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
            grammar.objects[shape].keyTries.indices.map { builder.objectRest(shape: shape, trieIndex: $0, from: 0) }
        }
    }

    /// The cheapest way to finish an object from `node` of one of its key
    /// tries: the bytes to an outcome, plus the value and the rest after it.
    static func trieCost(_ grammar: Grammar, shape: Int, trieIndex: Int, from node: Int32, length: [Int], rest: [[Int]]) -> (cost: Int, path: [UInt8], outcome: KeyTrie.Outcome) {
        let trie = grammar.objects[shape].keyTries[trieIndex]
        var best: (cost: Int, path: [UInt8], outcome: KeyTrie.Outcome) = (Int.max / 4, [], .none)
        var stack: [(Int32, [UInt8])] = [(node, [])]
        while let (current, path) = stack.popLast() {
            let outcome = trie.outcome(current)
            switch outcome {
            case .close:
                if path.count < best.cost { best = (path.count, path, outcome) }
            case .property(let index):
                let value = grammar.objects[shape].properties[Int(index)].value
                let after = Int(index + 1) * 2 + 1
                let cost = path.count + length[Int(value)] + rest[shape][after]
                if cost < best.cost { best = (cost, path, outcome) }
            case .none:
                for byte in UInt8.min...UInt8.max {
                    if let next = trie.child(of: current, byte: byte) { stack.append((next, path + [byte])) }
                }
            }
        }
        return best
    }

    /// The shortest bytes taking `leaf` from `state` to an accepting state
    /// (closing it, for strings). Breadth-first for string automata; for
    /// numbers, the smallest viable digit at each step.
    static func leafCompletion(_ grammar: Grammar, _ leaf: Int32, _ state: LeafState) -> [UInt8]? {
        switch grammar.leaves[Int(leaf)] {
        case .string(let automaton):
            return leafCompletion(automaton, from: Int32(truncatingIfNeeded: state.low))
        case .counted(let automaton, let body, let minimum, _):
            // The shortest way to close the string, then as many one-byte
            // characters before the closing quote as the minimum still needs.
            guard var path = leafCompletion(automaton, from: Int32(truncatingIfNeeded: state.low)) else { return nil }
            var count = state.high
            var current = Int32(truncatingIfNeeded: state.low)
            for byte in path {
                if current == body, byte & 0xC0 != 0x80, byte != UInt8(ascii: "\"") { count += 1 }
                current = automaton.next(current, byte)
            }
            if count < minimum, !path.isEmpty {
                path.insert(contentsOf: repeatElement(UInt8(ascii: "a"), count: Int(minimum - count)), at: path.count - 1)
            }
            return path
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
        var memo: [Int32: [UInt8]] = [:]

        mutating func text(of node: Int32) -> [UInt8] {
            if let known = memo[node] { return known }
            let result: [UInt8]
            switch grammar.nodes[Int(node)] {
            case .leaf(let leaf):
                result = ShortestCompletion.leafCompletion(grammar, leaf, grammar.leafInitial(leaf)) ?? []
            case .object(let shape):
                result = [UInt8(ascii: "{")] + objectRest(shape: Int(shape), trieIndex: 0, from: 0)
            case .array(let item, let minimum, _):
                var bytes: [UInt8] = [UInt8(ascii: "[")]
                if minimum > 0 {
                    let element = text(of: item)
                    for index in 0..<Int(minimum) {
                        if index > 0 { bytes.append(UInt8(ascii: ",")) }
                        bytes += element
                    }
                }
                result = bytes + [UInt8(ascii: "]")]
            case .anyOf(let choices):
                let best = choices.min { length[Int($0)] < length[Int($1)] }
                result = best.map { text(of: $0) } ?? []
            case .anyValue:
                result = [UInt8(ascii: "0")]
            case .sequence(let parts):
                result = parts.flatMap { text(of: $0) }
            case .tuple:
                var bytes: [UInt8] = [UInt8(ascii: "[")]
                for index in 0..<grammar.minimumCount(of: node) {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    if let element = grammar.element(of: node, at: index) { bytes += text(of: element) }
                }
                result = bytes + [UInt8(ascii: "]")]
            }
            memo[node] = result
            return result
        }

        mutating func objectRest(shape: Int, trieIndex: Int, from node: Int32) -> [UInt8] {
            let best = ShortestCompletion.trieCost(grammar, shape: shape, trieIndex: trieIndex, from: node, length: length, rest: rest)
            switch best.outcome {
            case .close, .none:
                return best.path
            case .property(let index):
                let value = grammar.objects[shape].properties[Int(index)].value
                return best.path + text(of: value) + objectRest(shape: shape, trieIndex: Int(index + 1) * 2 + 1, from: 0)
            }
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
        var bytes: [UInt8] = []
        var waiting = alternative.top
        if alternative.leaf >= 0 {
            guard let leafBytes = ShortestCompletion.leafCompletion(grammar, alternative.leaf, alternative.leafState) else { return nil }
            bytes += leafBytes
        } else if alternative.top >= 0 {
            // The top frame is not waiting for a child: finish it first.
            let record = arena[Int(alternative.top)]
            let frame = record.frame
            switch frame.kind {
            case .value:
                bytes += table.nodeText[Int(frame.node)]
            case .object:
                var builderBytes = ShortestCompletion.trieCost(grammar, shape: Int(frame.node), trieIndex: Int(frame.a), from: frame.b, length: table.nodeLength, rest: table.restLength)
                if case .property(let index) = builderBytes.outcome {
                    let value = grammar.objects[Int(frame.node)].properties[Int(index)].value
                    builderBytes.path += table.nodeText[Int(value)] + table.objectRest[Int(frame.node)][Int(index + 1) * 2 + 1]
                }
                bytes += builderBytes.path
            case .array:
                let minimum = Int(grammar.minimumCount(of: frame.node))
                let phase = ArrayPhase(rawValue: frame.b) ?? .inElement
                var count = Int(frame.a)
                switch phase {
                case .opened, .afterComma:
                    if phase == .opened, minimum == 0 {
                        bytes.append(UInt8(ascii: "]"))
                        waiting = record.parent
                        break
                    }
                    guard let item = grammar.element(of: frame.node, at: Int32(count)) else { return nil }
                    bytes += table.nodeText[Int(item)]
                    count += 1
                    fallthrough
                case .afterElement:
                    while count < minimum {
                        guard let item = grammar.element(of: frame.node, at: Int32(count)) else { return nil }
                        bytes += [UInt8(ascii: ",")] + table.nodeText[Int(item)]
                        count += 1
                    }
                    bytes.append(UInt8(ascii: "]"))
                case .inElement:
                    return nil
                }
            case .extra:
                let extras = grammar.objects[Int(frame.node)].extras
                switch ExtraPhase(rawValue: frame.a) ?? .inValue {
                case .afterComma:
                    var best: [UInt8]?
                    for extra in extras {
                        guard let key = ShortestCompletion.leafCompletion(grammar, extra.key, grammar.leafInitial(extra.key)) else { continue }
                        let candidate = key + [UInt8(ascii: ":")] + table.nodeText[Int(extra.value)] + [UInt8(ascii: "}")]
                        if best.map({ candidate.count < $0.count }) ?? true { best = candidate }
                    }
                    guard let best else { return nil }
                    bytes += best
                case .afterKey:
                    bytes += [UInt8(ascii: ":")] + table.nodeText[Int(extras[Int(frame.b)].value)] + [UInt8(ascii: "}")]
                case .afterColon:
                    bytes += table.nodeText[Int(extras[Int(frame.b)].value)] + [UInt8(ascii: "}")]
                case .afterValue:
                    bytes.append(UInt8(ascii: "}"))
                case .inKey, .inValue:
                    return nil
                }
            case .anyObject:
                switch FreeObjectPhase(rawValue: frame.a) ?? .inValue {
                case .opened, .afterValue: bytes += Array("}".utf8)
                case .afterComma: bytes += Array("\"\":0}".utf8)
                case .afterKey: bytes += Array(":0}".utf8)
                case .afterColon: bytes += Array("0}".utf8)
                case .inValue, .inKey: return nil
                }
            case .anyArray:
                switch FreeArrayPhase(rawValue: frame.a) ?? .inValue {
                case .opened, .afterValue: bytes += Array("]".utf8)
                case .afterComma: bytes += Array("0]".utf8)
                case .inValue: return nil
                }
            case .sequence:
                guard frame.b == 1, case .sequence(let parts) = grammar.nodes[Int(frame.node)] else { return nil }
                for part in parts[Int(frame.a)...] { bytes += table.nodeText[Int(part)] }
            case .objectValue:
                return nil
            }
            if waiting == alternative.top { waiting = record.parent }
        }
        // Every frame below is waiting for the value just finished.
        while waiting >= 0 {
            let record = arena[Int(waiting)]
            let frame = record.frame
            switch frame.kind {
            case .objectValue:
                bytes += table.objectRest[Int(frame.node)][Int(frame.a + 1) * 2 + 1]
            case .array:
                var count = Int(frame.a) + 1
                while count < Int(grammar.minimumCount(of: frame.node)) {
                    guard let item = grammar.element(of: frame.node, at: Int32(count)) else { return nil }
                    bytes += [UInt8(ascii: ",")] + table.nodeText[Int(item)]
                    count += 1
                }
                bytes.append(UInt8(ascii: "]"))
            case .extra:
                if frame.a == ExtraPhase.inKey.rawValue {
                    bytes += [UInt8(ascii: ":")] + table.nodeText[Int(grammar.objects[Int(frame.node)].extras[Int(frame.b)].value)]
                }
                bytes.append(UInt8(ascii: "}"))
            case .anyObject:
                bytes += Array((frame.a == FreeObjectPhase.inKey.rawValue ? ":0}" : "}").utf8)
            case .anyArray:
                bytes.append(UInt8(ascii: "]"))
            case .sequence:
                guard case .sequence(let parts) = grammar.nodes[Int(frame.node)] else { return nil }
                for part in parts[(Int(frame.a) + 1)...] { bytes += table.nodeText[Int(part)] }
            case .value, .object:
                return nil
            }
            waiting = record.parent
        }
        return bytes
    }
}
